"""The Sherlook scene: two photos, ten evidence markers, the race, the reveal.

A round: the green token is shown for ``token_s`` (SL-2), then the photos in
its layout; the marker race opens when that frame is flipped (R-2).  Players
claim markers with the buzzer (press when your number lights up) or with
left / right / OK (SLA-1); claims are settled by their stamps after the
settle time (R-1, R-6).  When one player is left, a visible and audible
3-second countdown runs (SL-3).  Then the reveal: the photos washed out, every
difference circled and numbered, the tokens of the round (SL-4); after 10
rounds the results (SL-5).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pygame

from arcade.bots.sherlook import SherlookBot, skill as look_skill
from arcade.core.api import CHANCE, RACE
from arcade.core.events import Edge
from arcade.core.record import to_record
from arcade.sherlook.game import SherlookGame, SherlookState
from arcade.sherlook.layouts import Layout
from arcade.sherlook.markers import ClaimNote, MarkerEvent, MarkerRace, MarkerReferee, MarkerSettings
from kiosk import render
from kiosk.app import App, Scene
from kiosk.scenes.seats import LobbyGame, SeatInfo
from kiosk.sherlook_draw import Placed, place_pair, render_pair, reveal_marks, transformed

NS = 1_000_000_000
TOKEN_COLOURS = {"green": (60, 190, 90), "yellow": (245, 205, 40), "red": (225, 60, 60)}
CIRCLE = (255, 236, 60)


def marker_settings(app: App) -> MarkerSettings:
    """The race's timing from the configuration ([sherlook] and [judge])."""
    c = app.cfg["sherlook"]
    j = app.cfg.judge_settings()
    return MarkerSettings(step_ms=c["step_ms"], countdown_step_ms=c["countdown_step_ms"], grace_ms=c["grace_ms"],
                          countdown_ms=c["countdown_s"] * 1000, round_limit_s=c["round_limit_s"],
                          settle_ms=j.settle_ns / 1e6, debounce_ms=j.debounce_ms, stuck_after_s=j.stuck_after_s)


def fit_text(surface: pygame.Surface, msg: str, rect: pygame.Rect, size: int, colour: tuple[int, int, int],
             bg: tuple[int, int, int] | None = None, bold: bool = True) -> None:
    """``msg`` centred in ``rect``, at ``size`` px or smaller until it fits, on an optional plate."""
    while size > 14:
        img = render.font(size, bold).render(msg, True, colour)
        if img.get_width() <= rect.w - 24 and img.get_height() <= rect.h:
            break
        size -= 2
    if bg is not None:
        pygame.draw.rect(surface, bg, rect, border_radius=12)
    surface.blit(img, img.get_rect(center=rect.center))


def token_icon(surface: pygame.Surface, kind: str, centre: tuple[int, int], r: int) -> None:
    """A scoring token: green circle, yellow square, red triangle (shape is the second cue)."""
    col = TOKEN_COLOURS[kind]
    cx, cy = centre
    if kind == "green":
        pygame.draw.circle(surface, col, centre, r)
        pygame.draw.circle(surface, (20, 20, 20), centre, r, 2)
    elif kind == "yellow":
        rect = pygame.Rect(0, 0, int(r * 1.8), int(r * 1.8))
        rect.center = centre
        pygame.draw.rect(surface, col, rect)
        pygame.draw.rect(surface, (20, 20, 20), rect, 2)
    else:
        pts = [(cx, cy - r), (cx + r, cy + int(r * 0.8)), (cx - r, cy + int(r * 0.8))]
        pygame.draw.polygon(surface, col, pts)
        pygame.draw.polygon(surface, (20, 20, 20), pts, 2)


def layout_icon(surface: pygame.Surface, lay: Layout, rect: pygame.Rect) -> None:
    """A small picture of a green token: two cards laid out, with a letter showing each turn."""
    pygame.draw.rect(surface, (40, 130, 70), rect, border_radius=10)
    pygame.draw.rect(surface, (20, 60, 30), rect, 3, border_radius=10)
    inner = rect.inflate(-rect.w // 6, -rect.h // 6)
    placed = place_pair(lay, inner, gap=max(4, rect.w // 24))
    for i in range(2):
        r = placed.rects[i]
        pygame.draw.rect(surface, (245, 240, 225), r, border_radius=4)
        pygame.draw.rect(surface, (30, 30, 30), r, 2, border_radius=4)
        glyph = render.font(max(12, int(min(r.w, r.h) * 0.8)), True).render("R", True, (30, 30, 30))
        glyph = transformed(glyph, lay.transforms[i])
        surface.blit(glyph, glyph.get_rect(center=r.center))


class SherlookScene(Scene):
    """One game of Sherlook (2 to 6 seats, SL-6)."""

    def __init__(self, app: App, seats: list[SeatInfo], seed: int | None = None, rounds: int | None = None) -> None:
        super().__init__(app)
        self.seats = seats
        self.cfg = app.cfg["sherlook"]
        self.settings = marker_settings(app)
        self.seed = seed if seed is not None else int(time.time()) % 1_000_000
        self.rng = random.Random(f"{self.seed}-0")
        self.game = SherlookGame(len(seats), {"rounds": rounds} if rounds else None)
        self.state: SherlookState = self.game.new_initial_state()
        self.referee = MarkerReferee(self.state, self.settings, random.Random(f"{self.seed}-ties"))
        self.bots = {s: SherlookBot(s, look_skill(info.skill if info.skill in ("easy", "medium", "hard", "expert")
                                                  else "medium"), random.Random(f"{self.seed}-bot-{s}"))
                     for s, info in enumerate(seats) if info.is_computer}
        self.committed: dict[int, int] = {}
        self.phase = "start"              # start | token | race | reveal | over
        self.phase_at = 0
        self.now = time.monotonic_ns()
        self.banner: tuple[str, tuple[int, int, int], int] | None = None
        self.placed: Placed | None = None
        self.surfaces: tuple[pygame.Surface, pygame.Surface] | None = None
        self.reveal_surfaces: tuple[pygame.Surface, pygame.Surface] | None = None
        self.cache_key: Any = None
        self.last_second: int | None = None
        self.saved = False
        self.over_at: int | None = None

    # -- input -----------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.computer.cancel()
            self.app.home()

    def on_edge(self, edge: Edge) -> None:
        if edge.seat >= len(self.seats):
            return
        self.referee.feed(edge)
        if edge.pressed and edge.control in ("buzzer", "ok") and self.phase == "race":
            self.app.sounds.play("press")

    # -- the game ----------------------------------------------------------------
    def update(self, now_ns: int) -> None:
        self.now = now_ns
        st = self.state
        if self.phase == "race":
            self._race(now_ns)
            if st.current_player() != RACE:
                self.phase, self.phase_at = "reveal", now_ns
                self.app.screenshot(f"round-{st.round_no}-reveal")     # the next frame drawn
                self.app.computer.cancel()
                self.app.sounds.play("won" if st.rounds[-1].score.green is not None else "debated")
            return
        if self.phase == "reveal" and now_ns - self.phase_at < self.cfg["reveal_s"] * NS:
            return
        if self.phase == "token":
            if now_ns - self.phase_at >= self.cfg["token_s"] * NS:
                self.phase, self.phase_at = "race", now_ns
            return
        if st.is_terminal():
            self._finish(now_ns)
            return
        if st.current_player() == CHANCE:
            st.apply(st.chance_outcome(self.rng))
            self.phase, self.phase_at = "token", now_ns
            self.committed.clear()
            self.banner = None
            self.app.sounds.play("flip")

    def _race(self, now: int) -> None:
        for ev in self.referee.tick(now):
            self._on_event(ev, now)
        race = self.referee.current()
        if race is None or race.opened_ns is None or self.state.current_player() != RACE:
            return
        left = race.countdown_left(now)
        if left is not None and left > 0 and race.waiting():
            sec = math.ceil(left)
            if sec != self.last_second:
                self.last_second = sec
                self.app.sounds.play("tick")
        for seat, bot in self.bots.items():
            if seat not in race.waiting():
                continue
            if seat in self.committed and now < self.committed[seat] + 250_000_000:
                continue
            p = bot.next_press(race, now)
            if p is not None and p - now <= 100_000_000:
                self.app.computer.press(seat, p)
                self.committed[seat] = p

    def frame_shown(self, t_ns: int) -> None:
        if self.phase != "race":
            return
        for ev in self.referee.frame_shown(t_ns):
            if ev.kind == "opened":
                st = self.state
                assert st.photos is not None and st.layout is not None
                for s, bot in self.bots.items():
                    if s in st.participants:
                        bot.new_round(st.race_no, st.photos, st.layout)
                self.last_second = None
            elif ev.kind == "countdown":
                self.app.screenshot(f"round-{self.state.round_no}-race")   # photos, markers, countdown
                names = " & ".join(f"P{s + 1}" for s in ev.seats)
                self.banner = (f"{names}: {self.cfg['countdown_s']:g} seconds to take a marker!", render.GOLD,
                               t_ns + 2 * NS)

    def _on_event(self, ev: MarkerEvent, now: int) -> None:
        race = self.referee.race
        if ev.kind == "took":
            self.app.sounds.play("flip")
            if ev.tie:
                self.banner = (f"P{ev.seats[0] + 1} takes {ev.marker}: same stamp, chance decided", render.GOLD,
                               now + 2 * NS)
        elif ev.kind == "refused" and ev.note is not None:
            n = ev.note
            if n.status in ("lost", "tie-lost"):
                gap = ""
                if race is not None and n.by is not None:
                    first = next((x for x in race.notes if x.seat == n.by and x.marker == n.marker
                                  and x.status in ("took", "tie-won")), None)
                    if first is not None:
                        gap = f" {(n.t_ns - first.t_ns) / 1e6:.1f} ms earlier"
                self.banner = (f"P{n.seat + 1}: P{(n.by or 0) + 1} took {n.marker}{gap} - choose again",
                               render.BAD, now + 2 * NS)
                self.app.sounds.play("false")
            elif n.status == "taken":
                self.banner = (f"P{n.seat + 1}: {n.marker or 'that'} is taken - choose another", render.BAD,
                               now + 2 * NS)
                self.app.sounds.play("false")
            elif n.status == "too late":
                self.banner = (f"P{n.seat + 1}: too late", render.BAD, now + 2 * NS)
        elif ev.kind == "timeout":
            names = " & ".join(f"P{s + 1}" for s in ev.seats)
            self.banner = (f"Time! {names} took no marker: no score this round", render.BAD, now + 3 * NS)
            self.app.sounds.play("false")
        elif ev.kind == "round-limit":
            self.banner = ("Time is nearly up for everyone still choosing!", render.GOLD, now + 2 * NS)

    def _finish(self, now: int) -> None:
        if self.over_at is None:
            self.over_at = now
            self.phase = "over"
            self.app.sounds.play("over")
            self._save()
        if now - self.over_at > 2 * NS:
            from kiosk.scenes.results import ResultsScene
            self.app.replace(ResultsScene(self.app, self.game.title, self.state, self.seats,
                                          again=lambda: SherlookScene(self.app, self.seats)))

    def _save(self) -> None:
        if self.saved or self.app.results is None:
            return
        self.saved = True
        out = self.state.outcome()
        assert out is not None
        try:
            self.app.results.save(to_record(self.state, self.seed), out.winners, out.reason, out.scores)
        except Exception as exc:
            self.app.message(str(exc))

    # -- drawing -------------------------------------------------------------------
    def _areas(self, W: int, H: int) -> dict[str, pygame.Rect]:
        lay = self.state.layout
        k = H / 720
        if lay is not None and lay.arrangement == "stack":
            side = int(W * 0.31)
            return {"photos": pygame.Rect(side, 6, W - 2 * side, H - 12),
                    "info": pygame.Rect(8, 8, side - 16, int(120 * k)),
                    "markers": pygame.Rect(8, int(132 * k), side - 16, int(430 * k)),
                    "claims": pygame.Rect(8, int(570 * k), side - 16, H - int(578 * k)),
                    "seats": pygame.Rect(W - side + 8, 8, side - 16, H - 16)}
        return {"info": pygame.Rect(8, 2, W - 16, int(44 * k)),
                "photos": pygame.Rect(8, int(48 * k), W - 16, int(520 * k)),
                "markers": pygame.Rect(8, int(572 * k), int(W * 0.62), int(68 * k)),
                "claims": pygame.Rect(int(W * 0.62) + 16, int(572 * k), W - int(W * 0.62) - 24, int(68 * k)),
                "seats": pygame.Rect(8, int(644 * k), W - 16, H - int(648 * k))}

    def _prepare(self, area: pygame.Rect) -> None:
        st = self.state
        key = (st.round_no, st.scene_seed, st.layout_key, area.size)
        if self.cache_key == key or st.photos is None or st.layout is None:
            return
        self.cache_key = key
        self.placed = place_pair(st.layout, area)
        self.surfaces = render_pair(st.photos, self.placed)
        washed = []
        marks = reveal_marks(st.photos, self.placed)
        for i, surf in enumerate(self.surfaces):
            w = surf.copy()
            grey = pygame.transform.grayscale(surf)
            grey.set_alpha(130)
            w.blit(grey, (0, 0))
            shade = pygame.Surface(w.get_size())
            shade.fill((24, 24, 24))
            w.blit(shade, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
            origin = self.placed.rects[i].topleft
            for n, photo, rect in marks:
                if photo != i:
                    continue
                r = rect.move(-origin[0], -origin[1]).inflate(18, 18)
                r.w, r.h = max(r.w, 34), max(r.h, 34)
                pygame.draw.ellipse(w, (20, 20, 20), r.inflate(4, 4), 8)
                pygame.draw.ellipse(w, CIRCLE, r, 5)
                bx = min(max(r.left + 4, 16), w.get_width() - 16)
                by = min(max(r.top + 4, 16), w.get_height() - 16)
                pygame.draw.circle(w, (200, 30, 30), (bx, by), 16)
                pygame.draw.circle(w, (255, 255, 255), (bx, by), 16, 2)
                render.text(w, str(n), (bx, by + 1), 28, (255, 255, 255), "center", bold=True)
            washed.append(w)
        self.reveal_surfaces = (washed[0], washed[1])

    def draw(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        surface.fill(render.BG)
        st = self.state
        if self.phase == "start" or st.layout is None:
            render.text(surface, "SHERLOOK", (W // 2, H // 3), int(H * 0.14), render.GOLD, "center", bold=True)
            render.text(surface, "spot the differences, take the right marker", (W // 2, H // 2), 40, render.TEXT,
                        "center")
            return
        if self.phase == "token":
            self._draw_token(surface)
            return
        areas = self._areas(W, H)
        self._prepare(areas["photos"])
        reveal = self.phase in ("reveal", "over")
        if reveal:
            self._draw_reveal_banner(surface, areas["info"])
        elif self.banner and self.now < self.banner[2]:
            msg, col, _ = self.banner
            fit_text(surface, msg, areas["info"], 40, (20, 20, 20), col)
        else:
            self._draw_info(surface, areas["info"])
        pics = self.reveal_surfaces if reveal else self.surfaces
        if pics is not None and self.placed is not None:
            for i in range(2):
                surface.blit(pics[i], self.placed.rects[i])
                pygame.draw.rect(surface, (245, 240, 225), self.placed.rects[i].inflate(6, 6), 3)
        self._draw_markers(surface, areas["markers"])
        self._draw_claims(surface, areas["claims"])
        self._draw_seats(surface, areas["seats"])
        self._draw_countdown(surface, areas["claims"])

    def _draw_token(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        st = self.state
        lay = st.layout
        assert lay is not None
        title = f"Round {st.round_no}" + (f" of {st.rounds_total}" if not st.is_extra else
                                          " - extra round: " + " & ".join(f"P{s + 1}" for s in st.participants))
        render.text(surface, title, (W // 2, int(H * 0.08)), int(H * 0.08), render.TEXT, "center", bold=True)
        icon = pygame.Rect(0, 0, int(H * 0.5), int(H * 0.36))
        icon.center = (W // 2, int(H * 0.44))
        layout_icon(surface, lay, icon)
        render.text(surface, "The green token says:", (W // 2, icon.top - 14), 34, render.DIM, "midbottom")
        render.text(surface, lay.name, (W // 2, icon.bottom + 20), int(H * 0.075), render.GOLD, "midtop", bold=True)
        render.text(surface, "Count the differences, then take the marker with your number:",
                    (W // 2, int(H * 0.86)), 34, render.TEXT, "center")
        render.text(surface, "press your buzzer when it lights up - or move with left / right and press OK",
                    (W // 2, int(H * 0.93)), 30, render.DIM, "center")

    def _draw_info(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st = self.state
        lay = st.layout
        assert lay is not None
        rnd = f"Round {st.round_no}/{st.rounds_total}" if not st.is_extra else f"Extra round {st.extra_no}"
        icon = pygame.Rect(area.x, area.y + 2, int(area.h * 1.3) if area.h < 80 else 110, min(area.h - 4, 76))
        layout_icon(surface, lay, icon)
        if area.h < 80:
            r = render.text(surface, "SHERLOOK", (icon.right + 10, area.centery), 36, render.GOLD, "midleft",
                            bold=True)
            r = render.text(surface, f"{rnd}  -  {lay.name}", (r.right + 18, area.centery), 34, render.TEXT,
                            "midleft", bold=True)
            hint = "buzzer: press when your number lights up"
            if render.font(26).size(hint)[0] < area.right - r.right - 30:
                render.text(surface, hint, (area.right, area.centery), 26, render.DIM, "midright")
        else:
            render.text(surface, "SHERLOOK", (icon.right + 10, area.y + 4), 40, render.GOLD, bold=True)
            render.text(surface, rnd, (icon.right + 10, area.y + 40), 34, render.TEXT, bold=True)
            render.text(surface, lay.name, (area.x, icon.bottom + 6), 28, render.TEXT)

    def _marker_centres(self, area: pygame.Rect) -> tuple[list[tuple[int, int]], int]:
        if area.w > area.h * 3:
            step = area.w / 10
            r = int(min(step * 0.42, area.h * 0.46))
            return [(int(area.x + step * (i + 0.5)), area.centery) for i in range(10)], r
        cw, ch = area.w / 2, area.h / 5
        r = int(min(cw * 0.3, ch * 0.4))
        return [(int(area.x + cw * (i // 5 + 0.5)), int(area.y + ch * (i % 5 + 0.5))) for i in range(10)], r

    def _draw_markers(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st = self.state
        race = self.referee.race if st.current_player() == RACE else None
        centres, r = self._marker_centres(area)
        holders = {m: s for s, m in st.markers.items()}
        highlight = 0
        if race is not None and race.opened_ns is not None and race.waiting():
            steps = race.schedule(self.now, self.now)
            highlight = steps[0][2] if steps else 0
        reveal = self.phase in ("reveal", "over")
        pulse = 0.5 + 0.5 * math.sin(self.now / 1e9 * 8)
        for m in range(1, 11):
            cx, cy = centres[m - 1]
            if reveal and m == st.count:
                pygame.draw.circle(surface, TOKEN_COLOURS["green"], (cx, cy), r + 10)
            if m == highlight:
                pygame.draw.circle(surface, render.GOLD, (cx, cy), r + 6 + int(3 * pulse))
            seat = holders.get(m)
            if seat is None:          # free: dark disc, light number
                pygame.draw.circle(surface, (58, 66, 92), (cx, cy), r)
                pygame.draw.circle(surface, (210, 214, 226), (cx, cy), r, 3)
                render.text(surface, str(m), (cx, cy), int(r * 1.15), render.TEXT, "center", bold=True)
            else:                     # taken: the holder's colour and seat number
                pygame.draw.circle(surface, render.SEAT_COLOURS[seat % 8], (cx, cy), r)
                pygame.draw.circle(surface, (20, 20, 20), (cx, cy), r, 3)
                render.text(surface, str(m), (cx, cy - r // 5), int(r * 1.15), (20, 20, 20), "center", bold=True)
            if seat is not None:
                render.text(surface, f"P{seat + 1}", (cx, cy + r // 2), max(16, int(r * 0.5)), (20, 20, 20),
                            "center", bold=True)
        # cursors of the stations with left / right / OK
        if race is not None and race.opened_ns is not None:
            for s, info in enumerate(self.seats):
                if not info.can_choose or info.is_computer or s not in race.waiting():
                    continue
                m = race.cursor_of(s)
                cx, cy = centres[m - 1]
                col = render.SEAT_COLOURS[s % 8]
                y = cy - r - 6
                pygame.draw.polygon(surface, col, [(cx - 12, y - 16), (cx + 12, y - 16), (cx, y)])
                render.text(surface, f"P{s + 1}", (cx, y - 16), 20, col, "midbottom", bold=True)

    def _draw_claims(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        race = self.referee.race
        render.panel(surface, area)
        notes: list[ClaimNote] = list(race.notes) if race is not None else []
        lines = []
        for n in notes:
            t = f"{n.offset_ms / 1000:.2f} s"
            if n.status in ("took", "tie-won"):
                lines.append((f"P{n.seat + 1} took {n.marker}", t, render.SEAT_COLOURS[n.seat % 8]))
            elif n.status in ("lost", "tie-lost"):
                lines.append((f"P{n.seat + 1} lost {n.marker} to P{(n.by or 0) + 1}", t, render.BAD))
            elif n.status == "taken":
                lines.append((f"P{n.seat + 1}: {n.marker or '-'} taken", t, render.BAD))
        small = area.h < 100
        per = 3 if small else max(1, (area.h - 34) // 26)
        if not lines:
            msg = "claims appear here" if not small else "claims: none yet"
            render.text(surface, msg, (area.x + 10, area.y + 8), 24, render.DIM)
            return
        shown = lines[-per:]
        y = area.y + 4
        if not small:
            render.text(surface, "Claims (stamp after the photos)", (area.x + 10, y), 22, render.DIM)
            y += 26
        for text, t, col in shown:
            render.text(surface, text, (area.x + 10, y), 22 if small else 26, col, bold=True)
            render.text(surface, t, (area.right - 10, y), 22 if small else 26, render.TEXT, "topright")
            y += 21 if small else 26

    def _draw_seats(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st = self.state
        n = len(self.seats)
        race = self.referee.race
        stuck = set(race.stuck(self.now)) if race is not None and race.opened_ns is not None else set()
        vertical = area.h > area.w
        last = st.rounds[-1] if st.rounds and self.phase in ("reveal", "over") else None
        counting = race is not None and self.phase == "race" and race.countdown_start is not None
        for s, info in enumerate(self.seats):
            if vertical:
                h = min(116, area.h // n)
                r = pygame.Rect(area.x, area.y + s * h, area.w, h - 6)
            else:
                w = area.w // n
                r = pygame.Rect(area.x + s * w, area.y, w - 8, area.h)
            col = render.SEAT_COLOURS[s % 8]
            playing = s in st.participants
            waiting = self.phase == "race" and s in st.waiting()
            border = col if waiting and (not counting or int(self.now / 2.5e8) % 2 == 0) else None
            render.panel(surface, r, render.PANEL if playing else (26, 28, 36), border, 4)
            pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, 8, r.h), border_radius=4)
            # row 1: seat, this round's marker or state, points
            head = render.text(surface, f"P{s + 1}", (r.x + 16, r.y + 2), 40, col, bold=True)
            render.text(surface, f"{st.points[s]}", (r.right - 10, r.y + 2), 44, render.TEXT, "topright", bold=True)
            mid = (head.right + 30, head.centery + 2)
            if s in st.markers and last is None:
                pygame.draw.circle(surface, col, mid, 18)
                pygame.draw.circle(surface, (20, 20, 20), mid, 18, 2)
                render.text(surface, str(st.markers[s]), mid, 30, (20, 20, 20), "center", bold=True)
            elif last is not None and s in last.markers:
                pygame.draw.circle(surface, col, mid, 18)
                pygame.draw.circle(surface, (20, 20, 20), mid, 18, 2)
                render.text(surface, str(last.markers[s]), mid, 30, (20, 20, 20), "center", bold=True)
            elif (last is not None and s in last.timed_out) or s in st.timed_out:
                render.text(surface, "time!", (head.right + 12, mid[1]), 30, render.BAD, "midleft", bold=True)
            elif waiting:
                left = race.countdown_left(self.now) if counting and race is not None else None
                if left is not None and s in race.countdown_seats:  # type: ignore[union-attr]
                    render.text(surface, f"{max(0, math.ceil(left))}", mid, 44, render.GOLD, "center", bold=True)
                else:
                    render.text(surface, "...", mid, 34, render.DIM, "center", bold=True)
            elif not playing:
                render.text(surface, "watching", (head.right + 12, mid[1]), 22, render.DIM, "midleft")
            # row 2: the station, or this round's tokens at the reveal
            y2 = r.y + 40
            got = last.score.tokens(s) if last is not None and s in last.score.points else ()
            if got:
                x = r.x + 26
                for kind in got:
                    token_icon(surface, kind, (x, y2 + 8), 8)
                    x += 22
                render.text(surface, f"+{last.score.points[s]}", (x - 4, y2 + 8), 26,  # type: ignore[union-attr]
                            render.GOOD, "midleft", bold=True)
            else:
                render.text(surface, info.label[:22], (r.x + 16, y2), 20, render.DIM)
            # row 3: the tokens so far (green circle, yellow square, red triangle)
            tx = r.x + 16
            ty = r.y + 63 if not vertical else r.bottom - 18
            for kind, count in (("green", st.greens[s]), ("yellow", st.yellows[s]), ("red", st.reds[s])):
                token_icon(surface, kind, (tx + 8, ty), 7)
                render.text(surface, str(count), (tx + 19, ty), 24, render.TEXT, "midleft", bold=True)
                tx += 44
            if s in stuck:
                render.text(surface, "STUCK", (r.right - 10, r.bottom - 4), 22, render.BAD, "bottomright", bold=True)

    def _draw_countdown(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        race = self.referee.race
        if race is None or self.phase != "race" or race.countdown_start is None or not race.waiting():
            return
        left = race.countdown_left(self.now)
        if left is None:
            return
        total = self.settings.countdown_ms / 1000
        frac = left / total
        col = (60, 200, 90) if frac > 0.5 else (255, 160, 20) if frac > 0.25 else (235, 60, 60)
        pygame.draw.rect(surface, (60, 20, 24), area, border_radius=12)
        pygame.draw.rect(surface, col, area, 4, border_radius=12)
        r = min(area.h // 2 - 6, 60)
        centre = (area.x + r + 14, area.centery)
        render.ring(surface, centre, r, frac, col, max(5, r // 5))
        render.text(surface, str(max(0, math.ceil(left))), centre, int(r * 1.5), render.TEXT, "center", bold=True)
        names = " & ".join(f"P{s + 1}" for s in race.waiting())
        fit_text(surface, f"{names}: take a marker!",
                 pygame.Rect(centre[0] + r + 8, area.y, area.right - centre[0] - r - 8, area.h), 44, render.GOLD)

    def _draw_reveal_banner(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st = self.state
        if not st.rounds:
            return
        last = st.rounds[-1]
        sc = last.score
        parts = []
        if sc.green is not None:
            parts.append(f"green P{sc.green + 1} (exact)")
        else:
            parts.append("nobody exact: green discarded")
        if sc.yellow is not None:
            parts.append(f"yellow P{sc.yellow + 1}")
        if sc.red is not None:
            parts.append(f"red P{sc.red + 1}")
        text = f"{last.count} difference{'s' if last.count != 1 else ''}  -  " + ", ".join(parts)
        if area.h >= 80:
            top = pygame.Rect(area.x, area.y, area.w, area.h // 2)
            fit_text(surface, f"{last.count} difference{'s' if last.count != 1 else ''}", top, 56, (20, 20, 20),
                     CIRCLE)
            fit_text(surface, ", ".join(parts), pygame.Rect(area.x, area.y + area.h // 2 + 4, area.w,
                                                             area.h // 2 - 4), 30, CIRCLE)
        else:
            fit_text(surface, text, area, 40, (20, 20, 20), CIRCLE)

    def led_picture(self, now_ns: int) -> Any:
        from arcade.sherlook.view import markers_picture
        from arcade.views import led as ledv
        cfg = self.app.cfg["led"]
        w, h = cfg["width"], cfg["height"]
        st = self.state
        race: MarkerRace | None = self.referee.race
        if self.phase == "race" and race is not None and race.countdown_start is not None and race.waiting():
            left = race.countdown_left(now_ns) or 0.0
            total = self.settings.countdown_ms / 1000
            return ledv.countdown_picture(max(0, math.ceil(left)), min(1.0, left / total), w, h)
        if self.phase in ("reveal", "over") and st.rounds:
            return ledv.text_picture(str(st.rounds[-1].count), (60, 220, 90), w, h)
        if self.phase == "race" and race is not None and race.opened_ns is not None:
            holders = {m: s for s, m in st.markers.items()}
            steps = race.schedule(now_ns, now_ns) if race.waiting() else []
            try:
                return markers_picture(holders, steps[0][2] if steps else 0, race.waiting(), w, h)
            except Exception:
                return None
        try:
            return ledv.scores_picture(list(st.points), w, h)
        except Exception:
            return None


def _start(app: App, seats: list[SeatInfo]) -> Scene:
    return SherlookScene(app, seats)


LOBBY_GAMES = [
    LobbyGame("Sherlook (spot the differences)", "sherlook", "classic", 2, 6, _start, demo_seats=4),
]
