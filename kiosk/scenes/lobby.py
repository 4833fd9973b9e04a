"""The lobby: choose the game, the number of players and each seat's station.

Rows: game, players, computer skill, one per seat, then "Start".

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

The game starts ``[lobby] auto_start_s`` seconds after the last press.  Seats:
exactly the players count chosen (clamped to the game's range, and the screen
says so).  Once someone has joined, a person's station that nobody joined is
played by a computer: there is never a silent human seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from arcade.core.events import Edge
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

    # rows: 0 game, 1 players, 2 skill, 3.. seats, then "Start"
    def _rows(self) -> int:
        return 3 + self.players + 1

    @property
    def start_row(self) -> int:
        return 3 + self.players

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
                self.note = (f"{g.label} seats {g.min_seats}-{g.max_seats}: {who} "
                             f"{'is' if len(out) == 1 else 'are'} out; choose another game")
            elif self.players != wanted:
                self.note = f"{g.label} is for {g.min_seats}-{g.max_seats} players: {self.players} seats"
        elif self.row == 1:
            wanted = self.players + step
            fewest = self.fewest(g)
            self.players = max(fewest, min(g.max_seats, wanted))
            if self.players != wanted:
                self.note = (f"{g.label} is for {g.min_seats}-{g.max_seats} players"
                             + (": choose another game for more" if wanted > g.max_seats else ""))
                if wanted < fewest and fewest > g.min_seats:
                    self.note = f"P{fewest} joined: at least {fewest} seats"
                if wrap and wanted > g.max_seats and fewest < g.max_seats:
                    # a buzzer alone only steps on: past the most it comes round to the fewest
                    # (never fewer than the seats people joined: each joined seat is played)
                    self.players = fewest
                    self.note += f"; back to {fewest}" + (f" (P{fewest} joined)" if fewest > g.min_seats else "")
            self.row = min(self.row, self._rows() - 1)
        elif self.row == 2:
            names = list(SKILLS)
            self.skill = names[(names.index(self.skill) + step) % len(names)]
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
            self.app.message(f"{self.games[self.game_i].label} is for at most "
                             f"{self.games[self.game_i].max_seats} players", 4.0)
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
        self.note = f"P{seat + 1} left: press your buzzer to join again"
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
        self.app.message(f"{names}: buzzer held down for {held:.0f} s (stuck?). It starts no game; "
                         "release it or ask the operator to check it (service menu, button test).", 12.0)
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
                label = self.app.keyboard.describe(seat) if self.app.keyboard else f"key {seat + 1}"
                choose = seat < 2
            elif st == "gpio":
                label = f"GPIO {gpio_pins[seat]}" if seat < len(gpio_pins) else "GPIO (no pin!)"
                choose = seat < len(controls) and all(controls[seat][:3])
            elif st == "gamepad":
                label, choose = "gamepad", True
            else:
                # A computer (or an "off" seat before a player's station: a computer fills it,
                # so every station keeps its seat number and its buzzer plays its seat).
                label, choose = f"computer ({self.skill})", False
                st = "computer"
            infos.append(SeatInfo(st, label, self.skill, choose))
        g = self.games[self.game_i]
        while len(infos) < g.min_seats:
            infos.append(SeatInfo("computer", f"computer ({self.skill})", self.skill))
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
        render.text(surface, "Lobby", (40, 16), 56, render.GOLD, bold=True)
        render.text_fit(surface, self.hint(), (W // 2 + 60, 24), W - 300, 26, 24, render.DIM)
        top = 96
        bottom = H - 56
        step = min(50, (bottom - top) // len(rows))
        y = top
        for i, (name, value) in enumerate(rows):
            sel = i == self.row
            r = pygame.Rect(40, y, W - 80 - (260 if self.app.led.virtual is not None else 0), step - 4)
            render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL,
                         render.GOLD if sel else None, 3)
            col = render.SEAT_COLOURS[(i - 3) % 8] if 3 <= i < 3 + self.players else render.TEXT
            fs = max(24, min(34, step - 12))
            render.text(surface, name, (r.x + 16, r.centery), fs, col, "midleft", bold=True)
            render.text(surface, value, (r.x + 230, r.centery), fs, render.TEXT if sel else render.DIM, "midleft")
            y += step
        if self.app.led.virtual is not None:     # what the LED matrix shows (countdown when joining)
            box = pygame.Rect(W - 270, 150, 240, 240)
            render.led_matrix(surface, box, self.app.led.virtual_picture())
            render.text(surface, "LED matrix", (box.centerx, box.bottom + 6), 24, render.DIM, "midtop")
        if self.note:
            render.text_fit(surface, self.note, (W // 2, H - 52), W - 80, 26, 24, render.GOLD)
        elif self.last_join is not None:
            left = max(0.0, (self.auto_start_ns - (self.now - self.last_join)) / 1e9)
            render.text(surface, f"Starting in {left:.0f} s", (W // 2, H - 30), 40,
                        render.GOLD, "center", bold=True)

    #: The lobby's controls hint (complete on every display).
    HINT = ("Press your buzzer to join.  Buzzer: tap = change, hold = next row, hold 2 s = leave.  "
            "Controls: left/right change, OK next, X back.")
    #: ... where only buzzers are wired (kiosk/install.sh's cabinet): their gestures alone.
    HINT_BUZZERS = ("Press your buzzer to join.  Buzzer: tap = change, hold = next row (on Start: start now), "
                    "hold 2 s = leave.")
    #: What letting go of a held buzzer does (the hint while one is held).
    LET_GO = {NEXT: "change it", OK: "go to the next row", BACK: "leave"}

    def hint(self) -> str:
        """The controls hint: it names only the controls wired here (issue 20); while a joined
        seat's buzzer is held, what letting go now does ("P1 held 2.1 s: let go to leave")."""
        from kiosk.controls.input import choose_controls
        from kiosk.service.tools import held_line
        would = self.gestures.would(self.now) if isinstance(self.gestures, ReleaseGestures) else None
        if would is not None:
            words = dict(self.LET_GO)
            if self.row == self.start_row:
                words[NEXT], words[OK] = "go to the first row", "start now"
            return held_line(would, words)
        return self.HINT if choose_controls(self.app.cfg) else self.HINT_BUZZERS

    def _draw_small(self, surface: pygame.Surface, rows: list[tuple[str, str]]) -> None:
        """The lobby on a small display: the hint wraps beside the title, the rows share the
        height left, their words 24 px and more (the virtual LED matrix's preview is left
        out: there is no room beside the rows)."""
        W, H = surface.get_size()
        title = render.text_block(surface, "Lobby", (10, 4), W // 4, max(24, min(56, H // 9)), 1, render.GOLD,
                                  "topleft", bold=True)
        hint = render.text_block(surface, self.hint(), (title.right + 12, 4), W - title.right - 20, 26, 3, render.DIM,
                                 "topleft")
        top = max(title.bottom, hint.bottom) + 6
        foot = ""
        if self.note:
            foot = self.note
        elif self.last_join is not None:
            left = max(0.0, (self.auto_start_ns - (self.now - self.last_join)) / 1e9)
            foot = f"Starting in {left:.0f} s"
        foot_h = render.lines_height(foot, W - 20, 40, 2, True) if foot else 0
        bottom = H - 4 - foot_h - (4 if foot else 0)
        least = render.line_height(24) + 4
        if foot and not self.note and top + len(rows) * least > bottom:
            # No room for the countdown under the rows (a note's band above, eight rows): it
            # goes on the Start row itself, in the place of that row's hint.
            rows = rows[:-1] + [(rows[-1][0], f"{foot} - hold here to start now")]
            foot, foot_h, bottom = "", 0, H - 4
        step = max(least, min(50, (bottom - top) // len(rows)))
        fs = max(24, min(34, step - 12))
        names = max(render.font(fs, True).size(name)[0] for name, _ in rows)
        name_w = min(names, (W - 20) * 2 // 5)
        y = top
        for i, (name, value) in enumerate(rows):
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
        rows = [("Game", f"< {g.label} >"), ("Players", f"< {self.players} >  ({g.min_seats}-{g.max_seats})"),
                ("Computer skill", f"< {self.skill} >")]
        infos = self.seat_infos()
        for seat in range(self.players):
            st = self.stations[seat]
            desc = st
            if st == "keyboard":
                desc = f"keyboard: {self.app.keyboard.describe(seat)}" if self.app.keyboard else "keyboard"
            elif st == "gpio":
                pins = self.app.cfg["gpio"]["buzzers"]
                desc = f"GPIO buzzer on pin {pins[seat]}" if seat < len(pins) else "GPIO (no pin configured)"
                if self.app.gpio is None:
                    desc += "  (GPIO not available here)"
            if seat < len(infos) and infos[seat].station == "computer" and st != "computer":
                desc = f"computer ({self.skill}) - press to join"
            elif st == "computer":
                desc = f"computer ({self.skill})"
            if seat in self.joined and st in PEOPLE:
                # a joined seat is the person's: nothing to change on its row (no arrows)
                rows.append((f"P{seat + 1}", f"{desc}   JOINED" + (" - hold = next row" if self.row == 3 + seat
                                                                    else "")))
            else:
                rows.append((f"P{seat + 1}", f"< {desc} >"))
        from kiosk.controls.input import choose_controls
        rows.append(("Start", ("OK / hold your buzzer here to start now" if choose_controls(self.app.cfg)
                               else "hold your buzzer here to start now")))
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
