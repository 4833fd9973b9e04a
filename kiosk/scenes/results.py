"""The results screen: winners, every seat's score, the game's statistics, high scores.

A human seat whose score makes today's or the all-time table (kiosk/persist/highscores.py)
enters three initials here: left/right change the letter, OK takes it, X goes
back; with a buzzer alone, tap = next letter, hold 0.6 s = take it.  The screen
stays until every entry is done (or ``ENTRY_NS`` passed: an untouched entry is
kept as "???"), then any buzzer goes back to the title.
"""

from __future__ import annotations

import sqlite3
import time
from typing import TYPE_CHECKING, Callable

import pygame

from arcade.core.api import Outcome, State
from arcade.core.events import Edge
from arcade.i18n import N_, _, pgettext
from arcade.registry import WinningRule
from kiosk import render
from kiosk.controls.gestures import Gestures
from kiosk.controls.input import Command
from kiosk.persist.highscores import InitialsEntry, day_start, key, result_score, score_rule, score_words, unit_name
from kiosk.scene import Scene
from kiosk.scenes.seats import LobbyGame, SeatInfo

if TYPE_CHECKING:
    from kiosk.event.link import EventLink
    from kiosk.scene import Host

STAY_NS = 25_000_000_000      # back to the title screen (or the next demo game) after this
ENTRY_NS = 45_000_000_000     # initials not finished by then are saved as they are


def _lobby_game(entry: str) -> LobbyGame | None:
    """The lobby's game of the registry entry ``entry`` (None if it has no screen here)."""
    from kiosk.scenes.lobby import find_game
    try:
        return find_game(entry, None)
    except KeyError:
        return None


#: Below this height (px) the small results screen sets its statistics two figures a line.
SHORT_H = 400
#: The least height (px) the tallest bar keeps on a small screen before the stations' names
#: under the bars give way (the seat numbers stay).
MIN_BARS_PX = 60

#: What a game's bars count when its statistics say (``stats["bars"]``).
BARS_NAMES = {"stones captured": N_("stones captured")}


def stat_name(name: str) -> str:
    """A figure of a game's statistics (its state's ``stats``) as the results screen names it,
    in the language spoken now; a figure not listed keeps its own name."""
    names = {"races": pgettext("figure", "races"), "debated": pgettext("figure", "debated"),
             "false": pgettext("figure", "false"), "boxed": pgettext("figure", "boxed"),
             "missed": pgettext("figure", "missed"), "hints": pgettext("figure", "hints"),
             "placements": pgettext("figure", "placements"), "discards": pgettext("figure", "discards"),
             "passes": pgettext("figure", "passes"), "forgotten": pgettext("figure", "forgotten"),
             "penalties": pgettext("figure", "penalties"), "rounds": pgettext("figure", "rounds"),
             "extra rounds": pgettext("figure", "extra rounds"),
             "exact guesses": pgettext("figure", "exact guesses"), "time-outs": pgettext("figure", "time-outs"),
             "cards taken": pgettext("figure", "cards taken"), "points": pgettext("figure", "points"),
             "moves": pgettext("figure", "moves"), "removed (SF-4)": pgettext("figure", "removed"),
             "reserves": pgettext("figure", "reserves")}
    return names.get(name, name)


class ResultsScene(Scene):
    def __init__(self, app: Host, title: str, state: State, seats: list[SeatInfo],
                 again: Callable[[], Scene] | None = None, entry: str | None = None) -> None:
        super().__init__(app)
        self.title = title
        self.state: State = state
        self.seats: list[SeatInfo] = seats
        self.saved_seats: set[int] = set()      # the seats whose initials are saved
        self.again = again
        self.entered: int | None = None
        self.now = 0
        # The game played: the scene's registry entry (a resumed game has one too), else the
        # lobby's choice (LobbyGame), or None (demo command).
        self.game = _lobby_game(entry) if entry else app.current_game
        self.rule = score_rule(self.game.family, self.game.mode) if self.game is not None else None
        self.game_key = key(self.game.name or f"{self.game.family}:{self.game.mode}") if self.game is not None else ""
        self.entries: list[InitialsEntry] = []
        self.gestures = Gestures()
        self._find_entries()
        self._board_has_scores = self._board_filled()

    def _board_filled(self) -> bool:
        """Whether the game's high-score board has any entry (the real one: a demo game takes
        none, yet the board of its game is shown when it has scores)."""
        hs = self.app.highscores
        if self.game is None or self.rule is None or hs is None:
            return False
        try:
            return bool(hs.table(self.game_key, self.rule, limit=1))
        except Exception:
            return False

    def shows_board(self) -> bool:
        """Whether the side panel is drawn: the initials being entered, or a board with scores
        (never an empty "no scores yet" table, issue 20)."""
        return self.game is not None and self.rule is not None and (bool(self.entries) or self._board_has_scores)

    def _find_entries(self) -> None:
        hs = self.app.highscores
        if self.game is None or self.rule is None or hs is None or self.app.attract_demo \
                or self.app.demo:      # simulated players never take a high score
            return
        out = self.outcome()
        for seat, info in enumerate(self.seats):
            if info.is_computer:
                continue
            score = result_score(self.game.family, self.game.mode, seat, out.winners, out.scores)
            try:
                now = time.time()
                if score is not None and hs.qualifies(self.game_key, self.rule, score, now):
                    e = InitialsEntry(seat, score)
                    e.place_today = hs.place(self.game_key, self.rule, score, day_start(now))
                    e.place_ever = hs.place(self.game_key, self.rule, score)
                    self.entries.append(e)
            except Exception as exc:
                self.app.message(_("High scores unavailable: {error}").format(error=exc))
                return
        # the seats of this game rank among themselves too (by the game's own rule)
        rule = self.rule
        for e in self.entries:
            ahead = sum(1 for o in self.entries if (o.score < e.score if rule.fewest else o.score > e.score))
            if e.place_today is not None:
                e.place_today += ahead
            if e.place_ever is not None:
                e.place_ever += ahead

    def entries_heading(self) -> str:
        """The initials panel's heading: "New high score!" only for a score the all-time table
        will rank first by the game's own rule (fewest penalty cards in Duel); else today's
        best, else the board it makes (issue 20: 42 penalty cards were a "New high score!"
        because the table had room)."""
        if self.rule is None or self.rule.total:
            return _("New high score!")
        if any(e.place_ever == 1 for e in self.entries):
            return _("New high score!")
        if any(e.place_today == 1 for e in self.entries):
            return _("Today's best score!")
        return _("On the high-score board")

    def entry_line(self, e: InitialsEntry) -> str:
        """``P4: 42 penalty cards, #3 today``: the score and the place it takes."""
        score = score_words(e.score, self.rule.unit if self.rule else "")      # "1 penalty card", "3 points"
        seat = e.seat + 1
        if e.place_today is None and e.place_ever is None:
            return _("P{seat}: {score}").format(seat=seat, score=score)
        if e.place_ever == 1:
            return _("P{seat}: {score}, best ever").format(seat=seat, score=score)
        if e.place_today:
            return _("P{seat}: {score}, #{place} today").format(seat=seat, score=score, place=e.place_today)
        return _("P{seat}: {score}, #{place} all time").format(seat=seat, score=score, place=e.place_ever)

    def game_state(self) -> State:
        return self.state

    def outcome(self) -> Outcome:
        """The game's result (the results screen shows a finished game)."""
        out = self.state.outcome()
        assert out is not None, "the results of a game not over"
        return out

    def stats(self) -> dict[str, object]:
        """The game's statistics (``stats`` of the state: races, false presses...; a game
        without them: none)."""
        stats: dict[str, object] | None = getattr(self.state, "stats", None)
        return dict(stats or {})

    @property
    def entering(self) -> bool:
        return any(not e.done for e in self.entries)

    def _save_entries(self, force: bool = False) -> None:
        hs = self.app.highscores
        for e in self.entries:
            if e.seat in self.saved_seats or not (e.done or force):
                continue
            self.saved_seats.add(e.seat)
            e.done = True
            initials = e.initials if e.touched else "???"
            results = self.app.results
            games_id = (results.last_id if results is not None else 0) or None
            event = self.app.event
            also = None
            if event is not None and games_id is not None and initials != "???":
                # The hall's boards get the initials with the same transaction (issue 15).
                def also(db: sqlite3.Connection, seat: int = e.seat, ini: str = initials, gid: int = games_id,
                         link: EventLink = event) -> bool:
                    return bool(link.queue_high_score(db, gid, seat, ini))
            if hs is None:
                continue
            try:
                hs.add(self.game_key, initials, e.score, game_id=games_id, also=also)
            except Exception as exc:
                self.app.message(_("High score not saved: {error}").format(error=exc))

    def on_command(self, command: Command) -> None:
        if command.name == "ok" and self.again and not self.entering:
            self.app.replace(self.again())
        elif command.name == "back":
            self._save_entries(force=True)
            self.app.home()

    def on_edge(self, edge: Edge) -> None:
        if self.entering:
            for seat, action in self.gestures.feed(edge):
                self._act(seat, action)
            return
        if edge.pressed and edge.control in ("buzzer", "ok") and self.entered is not None \
                and edge.t_ns - self.entered > 2_000_000_000:
            self.app.home()

    def _act(self, seat: int, action: str) -> None:
        for e in self.entries:
            if e.seat == seat and not e.done:
                e.act(action)
                self.app.sounds.play("tick")
        self._save_entries()
        if not self.entering:
            self.entered = self.now                 # the results stay a while after the last entry

    def update(self, now_ns: int) -> None:
        self.now = now_ns
        if self.entered is None:
            self.entered = now_ns
        if self.entering:
            for seat, action in self.gestures.poll(now_ns):
                self._act(seat, action)
            if now_ns - self.entered > ENTRY_NS:
                self._save_entries(force=True)
            return
        if now_ns - self.entered > STAY_NS:
            if self.app.demo and self.app.options.loop and self.again:
                self.app.replace(self.again())
            elif self.app.demo:
                self.app.running = False
            else:
                self.app.home()

    # -- drawing -----------------------------------------------------------------------------
    def headline(self) -> tuple[str, tuple[int, int, int]]:
        """The big line: who won, or that a co-op game was lost (never "a draw" then)."""
        out = self.outcome()
        coop = self.state.game.name == "coop"
        if coop:
            return (_("Solved together!"), render.GOOD) if out.winners else (_("The case was lost"), render.BAD)
        names = " & ".join(f"P{w + 1}" for w in out.winners)
        col = render.SEAT_COLOURS[out.winners[0] % 8] if len(out.winners) == 1 else render.GOLD
        if not out.winners:
            return _("nobody - a draw!"), col
        if len(out.winners) == 1:
            return _("{seat} wins!").format(seat=names), col
        return _("{seats} share the win!").format(seats=names), col

    def _winning(self) -> WinningRule | None:
        from arcade import registry
        return registry.winning_of(self.game.name if self.game is not None else "") or \
            registry.winning_of(str(self.state.game.name))

    def together(self) -> bool:
        """A game won or lost by all the seats together (Focus (2023)'s cases: the winning rule
        ``solved``): no bars, whose heights would all be 0; the seats are shown as one team."""
        win = self._winning()
        return win is not None and win.kind == "solved" and "bars" not in self.stats()

    def _draw_team(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The seats of a cooperative game side by side in ``area``, under "played together"."""
        cap = render.text_block(surface, _("played together"), (area.centerx, area.y), area.w - 16, 28, 1, render.DIM,
                                "midtop")
        n = max(1, len(self.seats))
        bw = max(1, min(260, (area.w - 16) // n))
        x0 = area.centerx - n * bw // 2
        p_h = render.line_height(36, True)
        y = max(cap.bottom + 4, area.centery - p_h)
        for s_i, seat in enumerate(self.seats):
            x = x0 + s_i * bw
            c = render.SEAT_COLOURS[s_i % 8]
            render.text_within(surface, f"P{s_i + 1}", (x + bw // 2, y), bw - 4, 36, c, "midtop", bold=True)
            if y + p_h + render.line_height(24) <= area.bottom:
                render.text_within(surface, seat.label, (x + bw // 2, y + p_h), bw - 6, 24, render.DIM, "midtop")

    def bars_caption(self) -> str:
        """What the chart's bars count: the entry's winning rule (``GameSpec.winning``)."""
        stats = self.stats()
        if "bars" in stats:
            what = str(stats["bars"])
            return _("bars: {what}").format(what=_(BARS_NAMES[what]) if what in BARS_NAMES else what)
        win = self._winning()
        if win is None:
            return _("bars: score")
        if win.kind != "score":
            return _("bars: points") if win.kind == "solved" else _("bars: score")
        if win.fewest:
            return _("bars: {unit} (fewest wins)").format(unit=unit_name(win.unit))
        return _("bars: cards won") if win.unit == "cards" else _("bars: {what}").format(what=unit_name(win.unit))

    def stats_line(self) -> str:
        stats = self.stats()
        stats.pop("bars", None)
        if "races" in stats and hasattr(self.state, "race_no"):
            stats["races"] = self.state.race_no            # the same count as "race N" during the game
        return "   ".join(f"{stat_name(k)}: {v}" for k, v in stats.items())

    def draw(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        surface.fill(render.BG)
        if render.small_screen(W, H):
            self._draw_small(surface)
            return
        out = self.outcome()
        render.text_best(surface, self.title_wordings(), (W // 2, 16), W - 40, (48, 40, 34), render.TEXT, "midtop",
                         bold=True)
        line, col = self.headline()
        render.text(surface, line, (W // 2, 64), 72, col, "midtop", bold=True)
        render.text(surface, out.reason, (W // 2, 130), 30, render.DIM, "midtop")
        side = pygame.Rect(W - 430, 180, 410, H - 180 - 96) if self.shows_board() else None
        chart_w = (side.x - 20) if side else W
        scores = list(out.scores) or [0] * len(self.seats)
        n = len(self.seats)
        bw = min(130, (chart_w - 60) // n)
        top = max(scores) or 1
        base = H - 180
        x0 = chart_w // 2 - n * bw // 2
        if self.together():
            self._draw_team(surface, pygame.Rect(0, 180, chart_w, base + 80 - 180))
        else:
            render.text(surface, self.bars_caption(), (chart_w // 2, 180), 28, render.DIM, "midtop")
        for s in range(0 if self.together() else n):
            x = x0 + s * bw
            h = int((H - 470) * scores[s] / top) if top else 0
            c = render.SEAT_COLOURS[s % 8]
            pygame.draw.rect(surface, c, pygame.Rect(x + 10, base - h, bw - 20, h), border_radius=8)
            render.text(surface, f"{scores[s]:g}", (x + bw // 2, base - h - 6), 40, render.TEXT, "midbottom", bold=True)
            render.text(surface, f"P{s + 1}", (x + bw // 2, base + 8), 36, c, "midtop", bold=True)
            render.text_fit(surface, self.seats[s].label, (x + bw // 2, base + 42), bw - 6, 24, 24, render.DIM)
        stats = self.stats_line()
        if stats:
            render.text_fit(surface, stats, (chart_w // 2, H - 76), chart_w - 40, 28, 24, render.DIM)
        if side is not None and self.rule is not None and self.game is not None:
            if self.entering or any(e.done for e in self.entries) and self.now - (self.entered or 0) < 3e9:
                self._draw_entries(surface, side)
            else:
                from kiosk.scenes.scoreboard import draw_tables
                draw_tables(surface, side, self.app, self.game_key, _(self.game.label), self.rule, 28)
        render.text_fit(surface, self.hint(), (W // 2, H - 40), W - 40, 28, 24,
                        render.TEXT if self.entering else render.DIM)

    def title_wordings(self) -> tuple[str, ...]:
        """The top line, clearest first: "<game>: game over", the game alone, "Game over"
        (a long title with its case on a narrow screen)."""
        title = _(self.title)
        return (_("{game}: game over").format(game=title), title, _("Game over"))

    def hint(self) -> str:
        """The line at the bottom: the initials' controls, or what comes next."""
        if self.entering:
            from kiosk.controls.input import choose_controls
            if not choose_controls(self.app.cfg):          # buzzers only: their gestures alone (issue 20)
                return _("initials: tap = next letter, hold = take it, hold 2 s = back a letter")
            return _("initials: left/right letter, OK next  -  buzzer: tap next letter, hold to take it")
        if not self.app.demo:
            return _("press your buzzer for the title screen")
        left = 0 if self.entered is None else max(0, (STAY_NS - (self.now - self.entered)) // 1_000_000_000)
        return _("next in {s} s").format(s=left)

    @staticmethod
    def figure_pairs(stats: str, max_w: int) -> list[str]:
        """The statistics' figures two a line ("races: 31   missed: 0"), in their order; a pair
        that would be squeezed to less than 3/4 of its width at 24 px goes on two lines."""
        figs = stats.split(render.FIGURE_GAP)
        f = render.font(render.MIN_TEXT_PX)
        out: list[str] = []
        for i in range(0, len(figs), 2):
            pair = render.FIGURE_GAP.join(figs[i:i + 2])
            out += [pair] if f.size(pair)[0] * 0.75 <= max_w else figs[i:i + 2]
        return out

    def _draw_small(self, surface: pygame.Surface) -> None:
        """The results on a small display: the same parts, stacked and scaled to the height
        (the lines wrap; the stations' names under the bars give way when the bars are too
        narrow for them, the seat numbers stay)."""
        W, H = surface.get_size()
        out = self.outcome()
        w = W - 16
        r = render.text_best(surface, self.title_wordings(), (W // 2, 4), w,
                             tuple(sorted({min(48, H // 12), 30, render.MIN_TEXT_PX}, reverse=True)), render.TEXT,
                             "midtop", bold=True)
        line, col = self.headline()
        r = render.text_block(surface, line, (W // 2, r.bottom), w, min(72, H // 8), 1, col, "midtop", bold=True)
        r = render.text_block(surface, out.reason, (W // 2, r.bottom), w, min(30, H // 16), 2, render.DIM, "midtop")
        hint = render.text_block(surface, self.hint(), (W // 2, H - 4), w, 28, 2,
                                 render.TEXT if self.entering else render.DIM, "midbottom")
        bottom = hint.top - 4
        stats = self.stats_line()
        has_side = self.shows_board()
        side = pygame.Rect(W - min(410, W // 2) - 4, r.bottom + 6, min(410, W // 2), 0) if has_side else None
        chart_w = (side.x - 8) if side is not None else W
        if stats and H < SHORT_H:
            # a 480x320 panel: two figures a line at 24 px ("rounds: 11   extra rounds: 0" /
            # "exact guesses: 3   markers lost: 1"), so the bars keep their height (issue 20:
            # four lines of figures left none for them)
            lines = self.figure_pairs(stats, chart_w - 16)
            step = render.font(render.MIN_TEXT_PX).get_linesize()
            y = bottom - len(lines) * step
            bottom = y - 4
            for line in lines:
                render.text_within(surface, line, (chart_w // 2, y), chart_w - 16, render.MIN_TEXT_PX, render.DIM,
                                   "midtop")
                y += step
        elif stats:
            # a figure per line at most ("rounds: 11" / "extra rounds: 0"), never one broken
            # over two or squeezed small (issue 20)
            rows = max(3, min(4, len(stats.split(render.FIGURE_GAP))))
            sr = render.text_block(surface, stats, (chart_w // 2, bottom), chart_w - 16, 28, rows, render.DIM,
                                   "midbottom")
            bottom = sr.top - 4
        if side is not None and self.rule is not None and self.game is not None:
            side.h = hint.top - 4 - side.y
            if self.entering or any(e.done for e in self.entries) and self.now - (self.entered or 0) < 3e9:
                self._draw_entries(surface, side)
            else:
                from kiosk.scenes.scoreboard import draw_tables
                draw_tables(surface, side, self.app, self.game_key, _(self.game.label), self.rule, 28)
        if self.together():
            self._draw_team(surface, pygame.Rect(0, r.bottom + 4, chart_w, bottom - r.bottom - 4))
            return
        scores = list(out.scores) or [0] * len(self.seats)
        n = len(self.seats)
        bw = max(1, min(130, (chart_w - 16) // n))
        x0 = chart_w // 2 - n * bw // 2
        cap = render.text_block(surface, self.bars_caption(), (chart_w // 2, r.bottom + 4), chart_w - 16, 28, 1,
                                render.DIM, "midtop")
        p_h = render.line_height(36, True)          # the seat numbers are drawn at 36 px
        room = bottom - p_h - 2 - cap.bottom - render.line_height(30, True) - 4
        # the stations' names under the bars give way when the bars would be lower than this
        named = bw >= 60 and room - render.line_height(24) * 2 >= MIN_BARS_PX
        label_h = render.line_height(24) * 2 if named else 0
        base = bottom - label_h - p_h - 2
        room -= label_h
        top = max(scores) or 1
        for s_i in range(n):
            x = x0 + s_i * bw
            h = int(max(0, room) * scores[s_i] / top) if top else 0
            c = render.SEAT_COLOURS[s_i % 8]
            pygame.draw.rect(surface, c, pygame.Rect(x + 4, base - h, bw - 8, h), border_radius=6)
            render.text_within(surface, f"{scores[s_i]:g}", (x + bw // 2, base - h - 2), bw - 2, 30, render.TEXT,
                               "midbottom", bold=True)
            render.text_within(surface, f"P{s_i + 1}", (x + bw // 2, base + 2), bw - 2, 36, c, "midtop", bold=True)
            if named:
                render.text_block(surface, self.seats[s_i].label, (x + bw // 2, base + 2 + p_h), bw - 6, 24, 2,
                                  render.DIM, "midtop")

    def _draw_entries(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        if render.small_screen(*surface.get_size()):
            self._draw_entries_small(surface, box)
            return
        render.panel(surface, box)
        render.text_within(surface, self.entries_heading(), (box.centerx, box.y + 10), box.w - 16, 36, render.GOLD,
                           "midtop", bold=True)
        y = box.y + 56
        row_h = min(96, (box.h - 64) // max(1, len(self.entries)))
        for e in self.entries:
            c = render.SEAT_COLOURS[e.seat % 8]
            render.text_within(surface, self.entry_line(e), (box.x + 16, y), box.w - 32, 28, c, bold=True)
            lw = 46
            for i, ch in enumerate(e.initials):
                r = pygame.Rect(box.x + 16 + i * (lw + 8), y + 30, lw, min(56, row_h - 34))
                cur = i == e.pos and not e.done
                pygame.draw.rect(surface, render.PANEL_LIGHT if cur else render.BG, r, border_radius=6)
                if cur:
                    pygame.draw.rect(surface, c, r, 3, border_radius=6)
                render.text(surface, ch, r.center, 44, render.TEXT, "center", bold=True)
            ring = self.gestures.holding(e.seat, self.now)
            status = pgettext("initials", "saved") if e.done else (_("hold...") if ring else "")
            render.text(surface, status, (box.x + 16 + 3 * (lw + 8) + 10, y + 40), 28, render.DIM)
            y += row_h

    def _draw_entries_small(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """The initials being entered, on a small display: the boxes sized to the panel."""
        render.panel(surface, box)
        head = render.text_block(surface, self.entries_heading(), (box.centerx, box.y + 4), box.w - 12, 36, 1,
                                 render.GOLD, "midtop", bold=True)
        y = head.bottom + 2
        row_h = max(40, min(96, (box.bottom - 4 - y) // max(1, len(self.entries))))
        for e in self.entries:
            c = render.SEAT_COLOURS[e.seat % 8]
            who = render.text_block(surface, self.entry_line(e), (box.x + 10, y), box.w - 20, 28,
                                    2, c, "topleft", bold=True)
            lh = max(20, min(56, y + row_h - who.bottom - 4))
            lw = max(24, min(46, lh))
            for i, ch in enumerate(e.initials):
                r = pygame.Rect(box.x + 10 + i * (lw + 6), who.bottom + 2, lw, lh)
                cur = i == e.pos and not e.done
                pygame.draw.rect(surface, render.PANEL_LIGHT if cur else render.BG, r, border_radius=6)
                if cur:
                    pygame.draw.rect(surface, c, r, 3, border_radius=6)
                render.text_within(surface, ch, r.center, lw - 4, max(24, min(44, lh - 4)), render.TEXT, "center",
                                   bold=True)
            ring = self.gestures.holding(e.seat, self.now)
            status = pgettext("initials", "saved") if e.done else (_("hold...") if ring else "")
            sx = box.x + 10 + 3 * (lw + 6) + 6
            render.text_block(surface, status, (sx, who.bottom + 2 + lh // 2), box.right - 8 - sx, 28, 1, render.DIM,
                              "midleft")
            y += row_h
