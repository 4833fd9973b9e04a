"""The lobby: choose the game, the number of players and each seat's station.

Rows: game, players, computer skill, one per seat, the language, then "Start".

* Station controls (any seat's left / right / OK / X, GPIO or gamepad): left and
  right change the highlighted row, OK goes to the next row (on "Start": starts),
  X to the previous row.  Using them also joins that seat.
* A buzzer alone: the first press joins the seat (the press on the title screen
  too); after that a tap changes the highlighted row, a hold (0.6 s) goes to
  the next row, and on "Start" starts the game, and a long hold (2 s) leaves: the
  seat is no longer joined, and when nobody is left the title screen comes back
  (kiosk/controls/gestures.py; judged when the buzzer is let go, ``ReleaseGestures``, so a
  long hold never first does what a hold does: on "Start", start the game).  A tap on the
  players' row counts up and comes round from the most to the fewest.
* A seat's row offers only the station kinds wired here (:meth:`LobbyScene.station_choices`).
  A joined seat's row changes nothing (its note says so): the seat is played at the station
  the person joined with, and only their own long hold leaves it (issue 20: a tap on one's own
  row once turned the seat into a computer and the guest's buzzer was dead in the game).  The
  players' count never goes below the seats people joined.
* Keyboard: Up/Down choose a row, Left/Right change it, Enter starts.
* The language row (issue 26): a game night's language, each shown by its own name
  (:data:`arcade.i18n.LANGUAGES`).  Changed like any other row (left/right, a buzzer's tap
  steps on and comes round); the next frame, and every screen after it, speak it.  It lasts
  until the arcade starts again: the next start speaks the configured language
  (``[display] language``) again.  A break in the party, the attract loop and the games in
  between keep it: a host chooses once for the evening, and a guest may choose again here.

The game starts ``[lobby] auto_start_s`` seconds after the last press.  Seats:
exactly the players count chosen (clamped to the game's range, and the screen
says so).  Once someone has joined, a person's station that nobody joined is
played by a computer: there is never a silent human seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from arcade import i18n
from arcade.core.events import Edge
from arcade.i18n import N_, _, ngettext, pgettext
from arcade.registry import SKILLS
from kiosk import render
from kiosk.controls.gestures import BACK, NEXT, OK, PREV, Gestures
from kiosk.controls.input import Command
from kiosk.scene import LedPicture, Scene
from kiosk.scenes.seats import GAME_MODULES as GAME_MODULES
from kiosk.scenes.seats import LobbyGame, SeatInfo, offered
from kiosk.scenes.seats import find_game as find_game
from kiosk.scenes.seats import lobby_games as lobby_games
from kiosk.scenes.seats import screen_module as screen_module
from kiosk.service.tools import ReleaseGestures

if TYPE_CHECKING:
    from kiosk.scene import Host

AUTO_START_NS = 10_000_000_000
STATION_CHOICES = ("keyboard", "gpio", "gamepad", "computer", "off")
#: The station kinds a person plays at.
PEOPLE = ("keyboard", "gpio", "gamepad")


def skill_name(skill: str) -> str:
    """A computer player's skill (``arcade.registry.SKILLS``) as the screens say it, in the
    language spoken now (the game screens' words: context "skill")."""
    names = {"easy": pgettext("skill", "easy"), "medium": pgettext("skill", "medium"),
             "hard": pgettext("skill", "hard"), "expert": pgettext("skill", "expert")}
    return names.get(skill, skill)


def station_name(kind: str) -> str:
    """A station kind (:data:`STATION_CHOICES`) as a seat's row names it."""
    names = {"keyboard": _("keyboard"), "gpio": "GPIO", "gamepad": _("gamepad"), "computer": _("computer"),
             "off": pgettext("station", "off")}
    return names.get(kind, kind)


def computer_label(skill: str) -> str:
    """A computer seat's station label: "computer (medium)"."""
    return _("computer ({skill})").format(skill=skill_name(skill))


def offered_games(app: Host) -> list[LobbyGame]:
    """The games the lobby offers: ``[lobby] games`` (registry names), else every game."""
    return offered(lobby_games(), app.cfg["lobby"]["games"] if "lobby" in app.cfg.data else [])


class LobbyScene(Scene):
    def __init__(self, app: Host, joined_by: Edge | None = None) -> None:
        super().__init__(app)
        stations = [s for s in app.cfg["seats"]["stations"]]
        self.stations = (stations + ["off"] * 8)[:8]
        self.players = max(2, sum(1 for s in stations if s != "off"))
        self.skill = app.cfg["seats"]["computer_skill"]
        self.games = offered_games(app)
        self.game_i = 0
        self.row = 0
        self.joined: dict[int, int] = {}
        self.last_join: int | None = None
        self.now = 0
        self.note = ""
        self.auto_start_ns = int(app.cfg.data.get("lobby", {}).get("auto_start_s", AUTO_START_NS / 1e9) * 1e9)
        self.gestures: Gestures = ReleaseGestures()
        self.join_press: set[int] = set()      # seats whose joining press is still down
        self.resumed = False                    # a scene over the lobby was just taken off
        self.players = max(self.games[0].min_seats, min(self.games[0].max_seats, self.players))
        if joined_by is not None:
            self.on_edge(joined_by)

    # rows: 0 game, 1 players, 2 skill, 3.. seats, the language, then "Start"
    def _rows(self) -> int:
        return 3 + self.players + 2

    @property
    def language_row(self) -> int:
        """The row of the game night's language (after the seats)."""
        return 3 + self.players

    @property
    def start_row(self) -> int:
        return 3 + self.players + 1

    def on_command(self, command: Command) -> None:
        name = command.name
        if name == "ok":
            self.start()
        elif name == "back":
            self.app.home()
        elif name == "up":
            self.row = (self.row - 1) % self._rows()
        elif name == "down":
            self.row = (self.row + 1) % self._rows()
        elif name in ("left", "right"):
            self.change(-1 if name == "left" else 1)

    def station_choices(self) -> tuple[str, ...]:
        """The station kinds a seat's row offers: only those wired here.  GPIO when the
        buzzers opened; a gamepad while one is plugged in; the keyboard outside kiosk mode or
        when the configuration has a keyboard station; a computer and "off" always."""
        configured = set(self.app.cfg["seats"]["stations"])
        pads: Any = getattr(self.app.gamepad, "controllers", ()) if self.app.gamepad is not None else ()
        wired = {"gpio": self.app.gpio is not None,
                 "keyboard": not self.app.kiosk_mode or "keyboard" in configured,
                 "gamepad": bool(pads)}
        return tuple(k for k in STATION_CHOICES if wired.get(k, True))

    def change(self, step: int, wrap: bool = False) -> None:
        """Change the highlighted row by ``step``; ``wrap``: a buzzer's tap, which only steps
        on, so the players' count comes round from the most to the fewest."""
        g = self.games[self.game_i]
        self.note = ""
        if self.row == 0:
            self.game_i = (self.game_i + step) % len(self.games)
            g = self.games[self.game_i]
            wanted = self.players
            # every seat people joined that the game can seat stays in it (a game of fewer
            # seats passed on the way had dropped P3 for good: a dead buzzer in the next game)
            self.players = max(self.fewest(g), min(g.max_seats, self.players))
            out = sorted(s + 1 for s in self.joined if s >= g.max_seats)
            if out:
                who = ", ".join(f"P{n}" for n in out)
                self.note = ngettext("{game} seats {least}-{most}: {who} is out; choose another game",
                                     "{game} seats {least}-{most}: {who} are out; choose another game",
                                     len(out)).format(game=_(g.label), least=g.min_seats, most=g.max_seats, who=who)
            elif self.players != wanted:
                self.note = ngettext("{game} is for {least}-{most} players: {n} seat",
                                     "{game} is for {least}-{most} players: {n} seats",
                                     self.players).format(game=_(g.label), least=g.min_seats, most=g.max_seats,
                                                          n=self.players)
        elif self.row == 1:
            wanted = self.players + step
            fewest = self.fewest(g)
            self.players = max(fewest, min(g.max_seats, wanted))
            if self.players != wanted:
                self.note = self._players_note(g, wanted, fewest, wrap)
                if wrap and wanted > g.max_seats and fewest < g.max_seats:
                    # a buzzer alone only steps on: past the most it comes round to the fewest
                    # (never fewer than the seats people joined: each joined seat is played)
                    self.players = fewest
            self.row = min(self.row, self._rows() - 1)
        elif self.row == 2:
            names = list(SKILLS)
            self.skill = names[(names.index(self.skill) + step) % len(names)]
        elif self.row == self.language_row:
            codes = list(i18n.LANGUAGES)
            now = codes.index(i18n.current()) if i18n.current() in codes else 0
            i18n.use(codes[(now + step) % len(codes)])
            render.redraw_everything()           # every kept part of a screen is drawn again, in it
        else:
            seat = self.row - 3
            if seat in self.joined:
                # A person joined this seat: it stays theirs, played at the station they joined
                # with (any other kind, a computer included, would refuse their presses in the
                # game).  No tap or left/right on its row changes it or makes them leave: only
                # their own long hold does (issue 20: one tap left a guest a dead buzzer).  The
                # row has no arrows and says what moves on (:meth:`row_texts`); the countdown stays.
                return
            kinds = self.station_choices()
            i = kinds.index(self.stations[seat]) if self.stations[seat] in kinds else -1 if step > 0 else 0
            self.stations[seat] = kinds[(i + step) % len(kinds)]

    def _players_note(self, g: LobbyGame, wanted: int, fewest: int, wrap: bool) -> str:
        """The note when the players' row cannot show ``wanted`` (and, with ``wrap``, a buzzer's
        tap past the most comes round to ``fewest``): whole sentences."""
        least, most = g.min_seats, g.max_seats
        game = _(g.label)
        if wanted < fewest and fewest > least:
            return ngettext("P{n} joined: at least {n} seat", "P{n} joined: at least {n} seats",
                            fewest).format(n=fewest)
        if wanted <= most:
            return _("{game} is for {least}-{most} players").format(game=game, least=least, most=most)
        if not (wrap and fewest < most):
            return _("{game} is for {least}-{most} players: choose another game for more").format(
                game=game, least=least, most=most)
        if fewest > least:
            return _("{game} is for {least}-{most} players: choose another game for more; back to {n} "
                     "(P{n} joined)").format(game=game, least=least, most=most, n=fewest)
        return _("{game} is for {least}-{most} players: choose another game for more; back to {n}").format(
            game=game, least=least, most=most, n=fewest)

    def fewest(self, g: LobbyGame) -> int:
        """The fewest players the players' row offers for ``g``: its least, and never fewer
        than the seats people joined (a joined seat left out of the game is a dead buzzer)."""
        joined = [s + 1 for s in self.joined if s < g.max_seats]
        return max([g.min_seats, *joined])

    def on_edge(self, edge: Edge) -> None:
        seat = edge.seat
        if edge.control == "buzzer" and seat not in self.joined:
            if edge.pressed:
                self.join_press.add(seat)
                self.join(edge)
            return
        if edge.control == "buzzer" and not edge.pressed and seat in self.join_press:
            self.join_press.discard(seat)        # the release of the joining press: not a tap
            self.gestures.down.pop(seat, None)
            return
        if edge.source == "keyboard" and edge.control != "buzzer":
            return                              # keyboard choose keys double as the lobby's arrows
        if edge.pressed and edge.control != "buzzer" and seat not in self.joined:
            self.join(edge)
        if edge.pressed and edge.control == "buzzer" and seat in self.joined:
            self.last_join = edge.t_ns           # a guest pressing: the countdown waits for their gesture
        for s, action in self.gestures.feed(edge):
            if self.app.scenes[-1] is not self:
                return
            self.act(s, action, edge.t_ns, tap=edge.control == "buzzer")

    def join(self, edge: Edge) -> None:
        """``edge``'s seat joins (its station becomes a person's, the countdown restarts)."""
        seat = edge.seat
        if seat >= self.games[self.game_i].max_seats:
            g = self.games[self.game_i]
            self.app.message(ngettext("{game} is for at most {n} player", "{game} is for at most {n} players",
                                      g.max_seats).format(game=_(g.label), n=g.max_seats), 4.0)
            return
        self.joined[seat] = edge.t_ns
        self.last_join = edge.t_ns
        if seat >= self.players:
            self.players = min(self.games[self.game_i].max_seats, seat + 1)
        if self.stations[seat] in ("computer", "off"):
            kind = {"gpio": "gpio", "gamepad": "gamepad"}.get(edge.source, "")
            self.stations[seat] = kind or ("gpio" if self.app.gpio is not None else "keyboard")
        if edge.source in PEOPLE and not self.app.station_accepts(self.stations[seat], edge):
            self.stations[seat] = edge.source   # played at the station they joined with: the game takes their presses
        self.app.sounds.play("press")

    def leave(self, seat: int) -> None:
        """The person at ``seat`` leaves it: a computer plays it unless they press to join again;
        when nobody is left, the title screen comes back (as before anyone joined)."""
        self.joined.pop(seat, None)
        self.join_press.discard(seat)
        self.note = _("P{n} left: press your buzzer to join again").format(n=seat + 1)
        if not self.joined:
            self.app.message(self.note, 6.0)
            self.app.home()

    def act(self, seat: int, action: str, t_ns: int, tap: bool = False) -> None:
        """A menu action from a station (kiosk/controls/gestures.py); ``tap``: a buzzer's gesture (a tap
        only steps on, so the players' count comes round, where a right control stops at the
        most; a long hold leaves the lobby, where X goes to the previous row)."""
        self.last_join = t_ns if self.joined else self.last_join
        if action in (PREV, NEXT):
            if self.row == self.start_row:
                if action == NEXT:
                    self.row = 0
                return
            self.change(-1 if action == PREV else 1, wrap=tap and action == NEXT)
        elif action == OK:
            if self.row == self.start_row:
                self.start()
                return
            self.row = (self.row + 1) % self._rows()
        elif action == BACK:
            if tap:                             # a buzzer's long hold: this seat leaves the lobby
                self.leave(seat)
                return
            self.row = (self.row - 1) % self._rows()
        self.app.sounds.play("tick")

    def resume(self) -> None:
        """A scene over the lobby (the PIN) was taken off: the presses and releases it took
        were not the lobby's.  A joining press whose release went to it is not a stuck buzzer
        (R-8 here judges only what the lobby saw), and the countdown starts again, so the
        guests see it run before their game starts."""
        self.join_press.clear()
        self.gestures.down.clear()
        self.resumed = True                     # the countdown starts again at the next update

    def lamp_cue(self, now_ns: int) -> Any:
        """The lamps of the seats that joined are lit (arcade/lights/lamps.py)."""
        from arcade.lights.lamps import LampCue
        return LampCue(8, joined=frozenset(self.joined))

    def update(self, now_ns: int) -> None:
        self.now = now_ns
        if self.resumed:
            self.resumed = False
            if self.joined:
                self.last_join = now_ns
        for seat, action in self.gestures.poll(now_ns):
            self.act(seat, action, now_ns)
            if self.app.scenes[-1] is not self:
                return
        if self.last_join is not None and now_ns - self.last_join > self.auto_start_ns:
            if self._drop_stuck(now_ns):
                return
            self.start()

    def _drop_stuck(self, now_ns: int) -> bool:
        """R-8 in the lobby: a seat whose joining press has been held down ever since
        (a stuck or jammed buzzer) does not start a game.  It is un-joined with a message;
        when no one else joined, the title screen comes back.  True if nothing starts."""
        stuck = sorted(s for s in self.join_press if s in self.joined)
        if not stuck:
            return False
        names = ", ".join(f"P{s + 1}" for s in stuck)
        held = (now_ns - min(self.joined[s] for s in stuck)) / 1e9
        for s in stuck:
            del self.joined[s]
        self.app.message(_("{seats}: buzzer held down for {s} s (stuck?). It starts no game; release it or ask "
                           "the operator to check it (service menu, button test).").format(seats=names,
                                                                                          s=f"{held:.0f}"), 12.0)
        if self.joined:
            return False
        self.app.home()
        return True

    def seat_infos(self) -> list[SeatInfo]:
        infos = []
        gpio_pins = self.app.cfg["gpio"]["buzzers"]
        controls = self.app.cfg["gpio"]["controls"]
        for seat in range(self.players):
            st = self.stations[seat]
            if self.joined and st in PEOPLE and seat not in self.joined:
                st = "computer"                 # nobody joined this station: never a silent human seat
            if st == "keyboard":
                label = self.app.keyboard.describe(seat) if self.app.keyboard else _("key {n}").format(n=seat + 1)
                choose = seat < 2
            elif st == "gpio":
                label = f"GPIO {gpio_pins[seat]}" if seat < len(gpio_pins) else _("GPIO (no pin!)")
                choose = seat < len(controls) and all(controls[seat][:3])
            elif st == "gamepad":
                label, choose = _("gamepad"), True
            else:
                # A computer (or an "off" seat before a player's station: a computer fills it,
                # so every station keeps its seat number and its buzzer plays its seat).
                label, choose = computer_label(self.skill), False
                st = "computer"
            infos.append(SeatInfo(st, label, self.skill, choose))
        g = self.games[self.game_i]
        while len(infos) < g.min_seats:
            infos.append(SeatInfo("computer", computer_label(self.skill), self.skill))
        return infos[:g.max_seats]

    def start(self) -> None:
        from kiosk.persist.resume import start_game
        self.app.current_game = self.games[self.game_i]
        self.app.replace(start_game(self.app, self.games[self.game_i], self.seat_infos()))

    def draw(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        surface.fill(render.BG)
        rows = self.row_texts()
        if render.small_screen(W, H):
            self._draw_small(surface, rows)
            return
        render.text(surface, _("Lobby"), (40, 16), 56, render.GOLD, bold=True)
        render.text_fit(surface, self.hint(), (W // 2 + 60, 24), W - 300, 26, 24, render.DIM)
        top = 96
        bottom = H - 56
        step = min(50, (bottom - top) // len(rows))
        fs = max(24, min(34, step - 12))
        # the values start after the widest name (a longer language's "Computer skill" too)
        vx = max(230, 16 + max(render.font(fs, True).size(name)[0] for name, _value in rows) + 24)
        y = top
        for i, (name, value) in enumerate(rows):
            sel = i == self.row
            r = pygame.Rect(40, y, W - 80 - (260 if self.app.led.virtual is not None else 0), step - 4)
            render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL,
                         render.GOLD if sel else None, 3)
            col = render.SEAT_COLOURS[(i - 3) % 8] if 3 <= i < 3 + self.players else render.TEXT
            render.text(surface, name, (r.x + 16, r.centery), fs, col, "midleft", bold=True)
            render.text_within(surface, value, (r.x + vx, r.centery), r.w - vx - 16, fs,
                               render.TEXT if sel else render.DIM, "midleft")
            y += step
        if self.app.led.virtual is not None:     # what the LED matrix shows (countdown when joining)
            box = pygame.Rect(W - 270, 150, 240, 240)
            render.led_matrix(surface, box, self.app.led.virtual_picture())
            render.text(surface, _("LED matrix"), (box.centerx, box.bottom + 6), 24, render.DIM, "midtop")
        if self.note:
            render.text_fit(surface, self.note, (W // 2, H - 52), W - 80, 26, 24, render.GOLD)
        elif self.last_join is not None:
            left = max(0.0, (self.auto_start_ns - (self.now - self.last_join)) / 1e9)
            render.text(surface, self.starting_in(left), (W // 2, H - 30), 40, render.GOLD, "center", bold=True)

    @staticmethod
    def starting_in(left: float) -> str:
        """The countdown: "Starting in 7 s"."""
        return _("Starting in {s} s").format(s=f"{left:.0f}")

    #: The lobby's controls hint (complete on every display; translated where drawn).
    HINT = N_("Press your buzzer to join.  Buzzer: tap = change, hold = next row, hold 2 s = leave.  "
              "Controls: left/right change, OK next, X back.")
    #: ... where only buzzers are wired (kiosk/install.sh's cabinet): their gestures alone.
    HINT_BUZZERS = N_("Press your buzzer to join.  Buzzer: tap = change, hold = next row (on Start: start now), "
                      "hold 2 s = leave.")
    #: What letting go of a held buzzer does (the hint while one is held), whole sentences:
    #: (action, on the Start row) -> the line; {n} the seat, {s} the seconds held.
    LET_GO = {(NEXT, False): N_("P{n} held {s} s: let go to change it (hold: go to the next row)"),
              (OK, False): N_("P{n} held {s} s: let go to go to the next row (hold 2 s: leave)"),
              (NEXT, True): N_("P{n} held {s} s: let go to go to the first row (hold: start now)"),
              (OK, True): N_("P{n} held {s} s: let go to start now (hold 2 s: leave)"),
              (BACK, False): N_("P{n} held {s} s: let go to leave"),
              (BACK, True): N_("P{n} held {s} s: let go to leave")}

    def hint(self) -> str:
        """The controls hint: it names only the controls wired here (issue 20); while a joined
        seat's buzzer is held, what letting go now does ("P1 held 2.1 s: let go to leave")."""
        from kiosk.controls.input import choose_controls
        would = self.gestures.would(self.now) if isinstance(self.gestures, ReleaseGestures) else None
        if would is not None:
            seat, action, held = would
            line = self.LET_GO.get((action, self.row == self.start_row))
            if line is not None:
                return _(line).format(n=seat + 1, s=i18n.number(held, 1))     # "2,1" in Ukrainian
        return _(self.HINT) if choose_controls(self.app.cfg) else _(self.HINT_BUZZERS)

    def _draw_small(self, surface: pygame.Surface, rows: list[tuple[str, str]]) -> None:
        """The lobby on a small display: the hint wraps beside the title, the rows share the
        height left, their words 24 px and more (the virtual LED matrix's preview is left
        out: there is no room beside the rows)."""
        W, H = surface.get_size()
        title = render.text_block(surface, _("Lobby"), (10, 4), W // 4, max(24, min(56, H // 9)), 1, render.GOLD,
                                  "topleft", bold=True)
        hint = render.text_block(surface, self.hint(), (title.right + 12, 4), W - title.right - 20, 26, 3, render.DIM,
                                 "topleft")
        top = max(title.bottom, hint.bottom) + 6
        foot = ""
        if self.note:
            foot = self.note
        elif self.last_join is not None:
            left = max(0.0, (self.auto_start_ns - (self.now - self.last_join)) / 1e9)
            foot = self.starting_in(left)
        foot_h = render.lines_height(foot, W - 20, 40, 2, True) if foot else 0
        bottom = H - 4 - foot_h - (4 if foot else 0)
        # a row's least height: the letters of its 24 px line and a little
        least = render.font(24).get_height() + 3
        if foot and not self.note and top + len(rows) * least > bottom and top + len(rows) * least <= H - 4:
            # No room for the countdown under the rows (a note's band above, eight rows): it
            # goes on the Start row itself, in the place of that row's hint.
            rows = rows[:-1] + [(rows[-1][0], _("{countdown} - hold here to start now").format(countdown=foot))]
            foot, foot_h, bottom = "", 0, H - 4
        # More rows than the height holds (eight seats under a note on a 480x320 panel): the rows
        # around the highlighted one, as many as fit (they follow the highlight, row by row).
        shown = max(1, min(len(rows), (bottom - top) // least))
        first = max(0, min(len(rows) - shown, self.row - shown // 2))
        step = max(least, min(50, (bottom - top) // shown))
        fs = max(24, min(34, step - 12))
        names = max(render.font(fs, True).size(name)[0] for name, _value in rows)
        name_w = min(names, (W - 20) * 2 // 5)
        y = top
        for i, (name, value) in enumerate(rows):
            if not first <= i < first + shown:
                continue
            sel = i == self.row
            r = pygame.Rect(6, y, W - 12, step - 3)
            render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL, render.GOLD if sel else None, 2)
            col = render.SEAT_COLOURS[(i - 3) % 8] if 3 <= i < 3 + self.players else render.TEXT
            render.text_within(surface, name, (r.x + 8, r.centery), name_w, fs, col, "midleft", bold=True)
            vx = r.x + 8 + name_w + 12
            render.text_block(surface, value, (vx, r.centery), r.right - 8 - vx, fs,
                              max(1, r.h // render.line_height(fs)), render.TEXT if sel else render.DIM, "midleft")
            y += step
        if foot:
            render.text_block(surface, foot, (W // 2, H - 4), W - 20, 26 if self.note else 40, 2, render.GOLD,
                              "midbottom", bold=not self.note)

    def row_texts(self) -> list[tuple[str, str]]:
        """The lobby's rows: (name, value) of the game, players, skill, each seat and Start."""
        g = self.games[self.game_i]
        rows = [(_("Game"), f"< {_(g.label)} >"),
                (_("Players"), f"< {self.players} >  ({g.min_seats}-{g.max_seats})"),
                (_("Computer skill"), f"< {skill_name(self.skill)} >")]
        infos = self.seat_infos()
        for seat in range(self.players):
            st = self.stations[seat]
            desc = station_name(st)
            if st == "keyboard":
                desc = (_("keyboard: {keys}").format(keys=self.app.keyboard.describe(seat)) if self.app.keyboard
                        else _("keyboard"))
            elif st == "gpio":
                pins = self.app.cfg["gpio"]["buzzers"]
                if self.app.gpio is None:
                    desc = (_("GPIO buzzer on pin {pin}  (GPIO not available here)").format(pin=pins[seat])
                            if seat < len(pins) else _("GPIO (no pin configured)  (GPIO not available here)"))
                else:
                    desc = (_("GPIO buzzer on pin {pin}").format(pin=pins[seat]) if seat < len(pins)
                            else _("GPIO (no pin configured)"))
            if seat < len(infos) and infos[seat].station == "computer" and st != "computer":
                desc = _("computer ({skill}) - press to join").format(skill=skill_name(self.skill))
            elif st == "computer":
                desc = computer_label(self.skill)
            if seat in self.joined and st in PEOPLE:
                # a joined seat is the person's: nothing to change on its row (no arrows)
                rows.append((f"P{seat + 1}", _("{station}   JOINED - hold = next row").format(station=desc)
                             if self.row == 3 + seat else _("{station}   JOINED").format(station=desc)))
            else:
                rows.append((f"P{seat + 1}", f"< {desc} >"))
        # each language by its own name (never translated): a guest finds their own
        rows.append((_("Language"), f"< {i18n.LANGUAGES.get(i18n.current(), i18n.current())} >"))
        from kiosk.controls.input import choose_controls
        rows.append((_("Start"), (_("OK / hold your buzzer here to start now") if choose_controls(self.app.cfg)
                                  else _("hold your buzzer here to start now"))))
        return rows

    def led_picture(self, now_ns: int) -> LedPicture | None:
        from arcade.lights import pictures as ledv
        cfg = self.app.cfg["led"]
        if self.last_join is not None:
            full = self.auto_start_ns / 1e9                 # a frame stamped before the join: the full count
            left = max(0.0, min(full, (self.auto_start_ns - (now_ns - self.last_join)) / 1e9))
            return ledv.countdown_picture(int(left) + 1 if left > 0 else 0, left / full,
                                          cfg["width"], cfg["height"])
        return ledv.text_picture("FX", (255, 200, 40), cfg["width"], cfg["height"])
