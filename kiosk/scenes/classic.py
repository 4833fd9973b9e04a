"""The FocusX Classic scene: the table, the seats, the race panel.

Real time: a race window opens when the frame showing the table is flipped
(R-2) and stays open ``pace_s`` seconds; then the next card is laid.  Presses
are judged by the referee from their stamps (R-1..R-8); after each race the
panel shows every press with its offset (R-7).
"""

from __future__ import annotations

import random
import time
from collections import deque
from typing import Any, Callable

import pygame

from kiosk.scenes.racing import plan_computer_presses
from arcade.core.api import CHANCE, RACE
from arcade.core.events import Edge
from arcade.core.judge import NS_PER_MS, Verdict
from arcade.core.record import to_record
from arcade.core.referee import HELD_TEXT, Referee, RefereeEvent
from arcade.focusx.classic import ClassicGame, ClassicState, Place
from kiosk import render
from kiosk.app import App, Scene
from kiosk.scenes.seats import LobbyGame, SeatInfo

CHOOSE_NS = 2_500_000_000      # a station with controls gets this long to choose a spot


class ClassicScene(Scene):
    """One game of FocusX Classic."""

    def __init__(self, app: App, seats: list[SeatInfo], seed: int | None = None,
                 x_rule: bool | None = None, pace_s: float | None = None) -> None:
        super().__init__(app)
        self.seats = seats
        fx = app.cfg["focusx"]
        self.x_rule = fx["x_rule"] if x_rule is None else x_rule
        pace = pace_s if pace_s is not None else app.pace_override
        self.pace_ns = int((pace if pace is not None else fx["pace_s"]) * 1e9)
        self.seed = seed if seed is not None else app.new_seed()
        self.rng = random.Random(f"{self.seed}-0")
        self.bot_rng = random.Random(f"{self.seed}-bots")
        self.game = ClassicGame(len(seats), {"x_rule": self.x_rule})
        self.state: ClassicState = self.game.new_initial_state()
        self.referee = Referee(self.state, app.cfg.judge_settings(), random.Random(f"{self.seed}-ties"))
        self.planned_for = -1
        self.opened_at: int | None = None
        self.banner: tuple[str, tuple[int, int, int], int] | None = None
        self.flash: tuple[tuple[int, ...], str, int] | None = None
        self.history: deque[tuple[str, Verdict]] = deque(maxlen=3)
        self.taken: list[int] = []
        self.choose_seat: int | None = None
        self.choose_spot = 0
        self.choose_until = 0
        self.saved = False
        self.over_at: int | None = None
        self.now = time.monotonic_ns()

    # -- input ---------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.computer.cancel()
            self.app.home()

    def on_edge(self, edge: Edge) -> None:
        if edge.seat >= len(self.seats):
            return
        info = self.seats[edge.seat]
        if info.station == "computer" and edge.control == "buzzer" and not self.app.demo:
            pass
        if edge.control in ("buzzer", "x"):
            self.referee.feed(edge)
            if edge.pressed:
                self.app.sounds.play("press")
        elif edge.pressed and self.choose_seat == edge.seat:
            allowed = self.state.allowed_spots()
            if edge.control in ("left", "right"):
                step = -1 if edge.control == "left" else 1
                i = allowed.index(self.choose_spot) if self.choose_spot in allowed else 0
                self.choose_spot = allowed[(i + step) % len(allowed)]
            elif edge.control == "ok":
                self._place(self.choose_spot)

    # -- the game ------------------------------------------------------------
    def update(self, now_ns: int) -> None:
        self.now = now_ns
        st = self.state
        if st.is_terminal():
            self._finish(now_ns)
            return
        cp = st.current_player()
        if cp == CHANCE:
            self.referee.apply(st.chance_outcome(self.rng))
            self.app.sounds.play("flip")
        elif cp >= 0:
            info = self.seats[cp]
            if info.can_choose and not info.is_computer:
                if self.choose_seat != cp:
                    self.choose_seat = cp
                    self.choose_spot = st.default_spot()
                    self.choose_until = now_ns + CHOOSE_NS
                elif now_ns >= self.choose_until:
                    self._place(self.choose_spot)
            else:
                self._place(st.default_spot())
        elif cp == RACE:
            for ev in self.referee.tick(now_ns):
                self._on_event(ev, now_ns)

    def _place(self, spot: int) -> None:
        if spot not in self.state.allowed_spots():
            spot = self.state.default_spot()
        self.referee.apply(Place(spot))
        self.choose_seat = None
        self.app.sounds.play("flip")

    def frame_shown(self, t_ns: int) -> None:
        for ev in self.referee.frame_shown(t_ns):
            if ev.kind == "opened":
                self.opened_at = t_ns
                self._plan_computers(t_ns)
                w = self.referee.window
                if w is not None and w.spec.window_ms is None:
                    self.referee.request_close(t_ns + self.pace_ns)

    def _plan_computers(self, opened: int) -> None:
        w = self.referee.window
        if w is None or self.planned_for == w.race_no:
            return
        self.planned_for = w.race_no
        # Presses planned for the last table and not under way are dropped (as in arcade.sim).
        plan_computer_presses(self.app, self.bot_rng, w.spec, self.seats, opened)

    def _on_event(self, ev: RefereeEvent, now: int) -> None:
        names = ", ".join(f"P{s + 1}" for s in ev.seats)
        if ev.kind == "updated" and ev.verdict is not None and self.history:
            self.history[0] = (self.history[0][0], ev.verdict)     # late presses join the list
            return
        if ev.kind == "won":
            s = ev.seats[0]
            self.taken = list(self.state.victory[s][-3:])
            kind = "FOCUS-EX" if ev.verdict and ev.verdict.kind == "focus-ex" else "FOCUS"
            self.banner = (f"P{s + 1} {kind}!", render.SEAT_COLOURS[s % 8], now + 1_500_000_000)
            self.flash = (ev.seats, "won", now)
            self.app.sounds.play("won")
        elif ev.kind in ("debated", "boxed"):
            what = "share the focus" if ev.kind == "debated" else "tie: the trio goes to the box"
            self.banner = (f"Debated! {names} {what}", render.GOLD, now + 1_800_000_000)
            self.flash = (ev.seats, "tie", now)
            self.app.sounds.play("debated")
        elif ev.kind == "false":
            self.banner = (f"False focus by {names}: one card to the box", render.BAD, now + 1_500_000_000)
            self.app.sounds.play("false")
        elif ev.kind == "stuck" and ev.seats:
            self.app.message(f"Buzzer stuck down: {names}. It is ignored until released.")
        if ev.verdict is not None and ev.kind in ("won", "debated", "boxed", "closed") and ev.verdict.presses:
            self.history.appendleft((ev.kind, ev.verdict))
            if ev.kind != "closed":
                self.app.screenshot(f"race-{self.state.race_no}")

    def _finish(self, now: int) -> None:
        if self.over_at is None:
            self.over_at = now
            self.app.sounds.play("over")
            self._save()
        if now - self.over_at > 2_000_000_000:
            from kiosk.scenes.results import ResultsScene
            self.app.replace(ResultsScene(self.app, self.game.title, self.state, self.seats,
                                          again=lambda: ClassicScene(self.app, self.seats, None, self.x_rule,
                                                                     self.pace_ns / 1e9)))

    def _save(self) -> None:
        if self.saved or self.app.results is None:
            return
        self.saved = True
        out = self.state.outcome()
        try:
            self.app.results.save(to_record(self.state, self.seed), out.winners, out.reason, out.scores)
        except Exception as exc:
            self.app.message(str(exc))

    # -- drawing ---------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        surface.fill(render.BG)
        side = int(W * 0.27)
        table_w = W - side
        st = self.state
        # header
        render.text(surface, self.game.title + ("  +FocusX rule" if self.x_rule else ""), (20, 12), 40, render.TEXT, bold=True)
        # Never say whether a focus is showing: finding it is the game.
        status = "game over" if st.is_terminal() else (
            "sudden death!" if st.sudden else f"cards left: {sum(len(p) for p in st.piles)}")
        render.text(surface, f"race {st.race_no}  |  {status}", (table_w - 20, 16), 30, render.DIM, "topright")
        # table: four spots clockwise
        seat_h = int(H * 0.25)
        area = pygame.Rect(0, 60, table_w, H - 60 - seat_h - 10)
        cw = int(min(area.w / 4.6, area.h / 2.25 / 1.4))
        ch = int(cw * 1.4)
        gap = int(cw * 0.25)
        cx, cy = area.center
        offsets = [(-1, -1), (0, -1), (0, 0), (-1, 0)]
        prev = st.prev_spot
        trio_spots: set[int] = set()
        for t, _ in st.trios():
            trio_spots |= set(t)
        for i, (ox, oy) in enumerate(offsets):
            r = pygame.Rect(cx + ox * (cw + gap) + (gap // 2 if ox == 0 else -gap // 2),
                            cy + oy * (ch + gap // 2) + (gap // 4 if oy == 0 else -gap // 4), cw, ch)
            r.x = cx + (gap // 2 if ox == 0 else -gap // 2 - cw)
            pile = st.spots[i]
            if pile:
                if len(pile) > 1:
                    for k in range(min(3, len(pile) - 1), 0, -1):
                        surface.blit(render.card_back(cw, ch), r.move(k * 4, k * 4))
                surface.blit(render.card_surface(pile[-1], cw, ch), r)
            else:
                render.empty_spot(surface, r, f"spot {i + 1}")
            if i == prev:
                pygame.draw.rect(surface, render.DIM, r.inflate(10, 10), 3, border_radius=14)
            if self.choose_seat is not None and i == self.choose_spot:
                pygame.draw.rect(surface, render.SEAT_COLOURS[self.choose_seat % 8], r.inflate(16, 16), 6, border_radius=16)
            render.text(surface, f"{len(pile)}", (r.right + 6 if ox == 0 else r.left - 6, r.bottom),
                        26, render.DIM, "bottomleft" if ox == 0 else "bottomright")
        # time until the next card: a bar under the header
        w = self.referee.window
        if w is not None and w.opened_ns is not None and w.close_at_ns is not None:
            frac = max(0.0, 1 - (self.now - w.opened_ns) / max(1, w.close_at_ns - w.opened_ns))
            bar = pygame.Rect(20, 54, int((table_w - 40) * frac), 6)
            pygame.draw.rect(surface, render.DIM, bar, border_radius=3)
        if self.choose_seat is not None:     # in the gap between the two rows of spots
            hint = pygame.Rect(0, 0, 2 * cw + gap, max(20, gap - 4))
            hint.center = (cx, cy)
            _fit_text(surface, f"P{self.choose_seat + 1}: left/right choose, OK lays", hint, 28,
                      render.SEAT_COLOURS[self.choose_seat % 8])
        # banner: over the header, so it hides no card (FX-5: the next race may be open)
        if self.banner and self.now < self.banner[2]:
            msg, col, _ = self.banner
            band = pygame.Rect(8, 4, table_w - 16, 52)
            pygame.draw.rect(surface, col, band, border_radius=12)
            _fit_text(surface, msg, band.inflate(-24, -6), 50, (20, 20, 20))
        self._draw_seats(surface, pygame.Rect(10, H - seat_h - 6, table_w - 20, seat_h))
        self._draw_side(surface, pygame.Rect(table_w, 10, side - 10, H - 20))

    def _draw_seats(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st = self.state
        n = len(self.seats)
        w = area.w // n
        stuck = set(self.referee.stuck)
        held = set(self.referee.held)
        out = st.race_out if st.current_player() == RACE else set()
        for s, info in enumerate(self.seats):
            r = pygame.Rect(area.x + s * w + 4, area.y, w - 8, area.h)
            col = render.SEAT_COLOURS[s % 8]
            active = st.current_player() == s or (st.current_player() == RACE and st.active == s)
            render.panel(surface, r, render.PANEL, col if active else None, 5)
            pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, r.w, 10), border_top_left_radius=12, border_top_right_radius=12)
            render.text(surface, f"P{s + 1}", (r.x + 10, r.y + 14), 44, col, bold=True)
            _fit_text(surface, info.label, pygame.Rect(r.x + 10, r.y + 50, r.w - 20, 24), 22, render.DIM, "midleft")
            score = len(st.victory[s])
            render.text(surface, str(score), (r.right - 10, r.y + 12), 64, render.TEXT, "topright", bold=True)
            render.text(surface, f"pile {len(st.piles[s])}", (r.x + 10, r.bottom - 30), 24, render.DIM)
            if st.victory[s]:
                mw = min(46, r.w // 4)
                surface.blit(render.card_surface(st.victory[s][-1], mw, int(mw * 1.4)),
                             (r.right - mw - 8, r.bottom - int(mw * 1.4) - 6))
            if s in out:
                render.text(surface, "OUT this race", (r.x + 10, r.y + 76), 24, render.BAD)
            if s in stuck:
                render.text(surface, "STUCK", (r.x + 10, r.y + 98), 26, render.BAD, bold=True)
            elif s in held:                     # FXA-39: held since before the race opened
                _fit_text(surface, HELD_TEXT, pygame.Rect(r.x + 10, r.y + 98, r.w - 20, 26), 26,
                          render.GOLD, "midleft")
            if st.sudden and s in st.sudden:
                render.text(surface, "SUDDEN DEATH", (r.x + 10, r.y + 76), 22, render.GOLD)

    def _draw_side(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        y = area.y
        vm = self.app.led.virtual_picture()
        if self.app.led.virtual is not None:
            size = min(area.w, int(area.h * 0.42))
            r = pygame.Rect(area.x + (area.w - size) // 2, y, size, size)
            render.led_matrix(surface, r, vm)
            y = r.bottom + 4
            _fit_text(surface, f"virtual LED matrix  {self.app.led.status_text()}",
                      pygame.Rect(area.x, y, area.w, 20), 20, render.DIM)
            y += 22
        panel = pygame.Rect(area.x, y + 6, area.w, area.bottom - y - 6)
        render.panel(surface, panel)
        render.text(surface, "Race panel (ms after the first press)", (panel.x + 10, panel.y + 8), 22, render.DIM)
        yy = panel.y + 34
        if not self.history:
            render.text(surface, "every press is shown here", (panel.x + 10, yy), 24, render.DIM)
        for idx, (kind, v) in enumerate(self.history):
            if yy > panel.bottom - 30:
                break
            title = {"won": "won", "debated": "debated", "boxed": "4+ tie: boxed", "closed": "no winner"}[kind]
            first = v.presses[0]
            render.text(surface, f"{title}: first press at {first.offset_ms:.1f} ms",
                        (panel.x + 10, yy), 22 if idx else 24, render.GOLD if idx == 0 else render.DIM)
            yy += 24
            for n, p in enumerate(v.presses):
                if yy > panel.bottom - 24 or (n == 8 and len(v.presses) > 9):
                    render.text(surface, f"... and {len(v.presses) - n} more", (panel.x + 16, yy), 20, render.DIM)
                    yy += 21
                    break
                col = render.SEAT_COLOURS[p.seat % 8] if idx == 0 else render.DIM
                rel = (p.t_ns - first.t_ns) / NS_PER_MS
                kindtxt = " X" if p.kind == "focus-ex" else ""
                render.text(surface, f"P{p.seat + 1}{kindtxt}", (panel.x + 16, yy), 26 if idx == 0 else 22, col, bold=idx == 0)
                render.text(surface, f"+{rel:.1f} ms", (panel.x + 80, yy), 26 if idx == 0 else 22, render.TEXT)
                render.text(surface, p.status, (panel.right - 10, yy), 24 if idx == 0 else 20,
                            render.BAD if p.status in ("false", "penalty") else render.DIM, "topright")
                yy += 26 if idx == 0 else 21
            yy += 8

    def led_picture(self, now_ns: int) -> Any:
        from arcade.views import led as ledv
        cfg = self.app.cfg["led"]
        w, h = cfg["width"], cfg["height"]
        if self.flash is not None and now_ns - self.flash[2] < 1_200_000_000:
            seats, kind, t0 = self.flash
            phase = (now_ns - t0) / 1_200_000_000
            if kind == "won":
                return ledv.flash_picture(seats[0], phase, w, h)
            return ledv.tie_picture(seats, w, h)
        return ledv.scores_picture([len(v) for v in self.state.victory], w, h)


def _start(x_rule: bool | None) -> "Callable[[App, list[SeatInfo]], Scene]":
    def start(app: App, seats: list[SeatInfo]) -> Scene:
        return ClassicScene(app, seats, x_rule=x_rule)
    return start


LOBBY_GAMES = [
    LobbyGame("FocusX Classic", "focusx", "classic", 2, 8, _start(None)),     # follows [focusx] x_rule
    LobbyGame("FocusX Classic + FocusX rule", "focusx", "classic-x", 2, 8, _start(True)),
]


def _fit_text(surface: pygame.Surface, msg: str, box: pygame.Rect, size: int,
              colour: tuple[int, int, int], anchor: str = "center") -> None:
    """Draw ``msg`` in ``box``, shrinking it until it fits (never cut off)."""
    img = render.font(size, True).render(msg, True, colour)
    if img.get_width() > box.w or img.get_height() > box.h:
        k = min(box.w / img.get_width(), box.h / img.get_height())
        img = pygame.transform.smoothscale(img, (max(1, int(img.get_width() * k)), max(1, int(img.get_height() * k))))
    surface.blit(img, img.get_rect(**{anchor: getattr(box, anchor)}))
