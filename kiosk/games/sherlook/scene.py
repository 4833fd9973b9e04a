"""The Sherlook scene: two photos, ten evidence markers, the race, the reveal.

A round: the green token is shown for ``token_s`` (SL-2), then the photos in
its layout; the marker race opens when that frame is flipped (R-2).  Players
claim markers with the buzzer (press when your number lights up) or with
left / right / OK (SLA-1); claims are settled by their stamps after the
settle time (R-1, R-6).  When one player is left, a visible and audible
3-second countdown runs (SL-3).  Then the reveal: the photos washed out, every
difference circled and numbered, the tokens of the round (SL-4) and every claim
of the race in stamp order with its offset (R-7); after 10 rounds the results
(SL-5).

The match driver draws each round (its chance outcome) after the reveal
(``chance_pause``) from the scene's chance source, which generates the next
round's photos in a worker thread while the reveal shows (the generator is pure
and draws from its own ``random.Random``), so a slow machine never freezes the
screen between rounds; the photos are rendered while the green token shows.
The scene only maps presses to the driver and draws.
"""

from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING, Any, Iterator

import pygame

from arcade import registry
from arcade.core.api import CHANCE, RACE, State
from arcade.core.driver import Driver
from arcade.core.errors import SettingsError
from arcade.core.events import Edge
from arcade.sherlook.game import Round, SherlookGame, SherlookState, photos_for
from arcade.sherlook.layouts import Layout
from arcade.sherlook.markers import ClaimNote, MarkerEvent, MarkerRace, MarkerReferee, MarkerSettings
from kiosk import render
from kiosk.games.sherlook.draw import Placed, place_pair, render_one, reveal_marks, transformed
from kiosk.scenes.game import GameScene, RoutedPlayer
from kiosk.scenes.seats import SeatInfo, lobby_game

if TYPE_CHECKING:
    from kiosk.scene import Host, LedPicture

NS = 1_000_000_000
TOKEN_COLOURS = {"green": (60, 190, 90), "yellow": (245, 205, 40), "red": (225, 60, 60)}
CIRCLE = (255, 236, 60)


def _skill(name: str) -> str:
    return name if name in ("easy", "medium", "hard", "expert") else "medium"


def marker_settings(app: Host) -> MarkerSettings:
    """The race's timing from the configuration ([sherlook] and [judge]).

    Raises:
        SettingsError: settings that contradict each other (the message names the key).
    """
    c = app.cfg["sherlook"]
    j = app.cfg.judge_settings()
    return MarkerSettings(step_ms=c["step_ms"], countdown_step_ms=c["countdown_step_ms"], grace_ms=c["grace_ms"],
                          countdown_ms=c["countdown_s"] * 1000, round_limit_s=c["round_limit_s"],
                          settle_ms=j.settle_ns / 1e6, debounce_ms=j.debounce_ms, stuck_after_s=j.stuck_after_s)


def safe_marker_settings(app: Host) -> tuple[MarkerSettings, str | None]:
    """:func:`marker_settings`, or the defaults if the configuration cannot start a race.

    Returns the settings and, when the defaults had to be used, a message for
    the screen naming the bad setting.  The [judge] times are kept if they
    work with the default [sherlook] times.
    """
    try:
        return marker_settings(app), None
    except SettingsError as exc:
        msg = f"Sherlook settings: {exc}. Playing with the default [sherlook] times."
    try:
        j = app.cfg.judge_settings()
        return MarkerSettings(settle_ms=j.settle_ns / 1e6, debounce_ms=j.debounce_ms,
                              stuck_after_s=j.stuck_after_s), msg
    except (SettingsError, KeyError, TypeError, ValueError):
        return MarkerSettings(), msg


def claim_rows(notes: list[ClaimNote]) -> tuple[list[tuple[str, str, Any]], int]:
    """The claims panel's rows (R-7): ``(what, offset, colour)`` in stamp order, and how many
    presses were left out because the seat already held a marker or was not playing.

    The offset is from the photos being shown, in milliseconds to 0.1 ms.
    """
    rows: list[tuple[str, str, Any]] = []
    ignored = 0
    for n in notes:
        who = f"P{n.seat + 1}"
        by = f"P{(n.by or 0) + 1}"
        if n.status == "took":
            what, col = f"{who} took {n.marker}", render.SEAT_COLOURS[n.seat % 8]
        elif n.status == "tie-won":
            what, col = f"{who} took {n.marker} (chance)", render.SEAT_COLOURS[n.seat % 8]
        elif n.status == "lost":
            what, col = f"{who} lost {n.marker} to {by}", render.BAD
        elif n.status == "tie-lost":
            what, col = f"{who} lost {n.marker} to {by} (chance)", render.BAD
        elif n.status == "taken":
            what, col = f"{who}: {n.marker or '-'} was taken", render.BAD
        elif n.status == "too late":
            what, col = f"{who} too late", render.BAD
        elif n.status == "double":
            what, col = f"{who} also {n.marker or '-'}: ignored", render.DIM
        else:                     # "holds" / "out": not a claim
            ignored += 1
            continue
        rows.append((what, f"+{n.offset_ms:.1f} ms", col))
    return rows, ignored


def fit_text(surface: pygame.Surface, msg: str, rect: pygame.Rect, size: int, colour: tuple[int, int, int],
             bg: tuple[int, int, int] | None = None, bold: bool = True) -> None:
    """``msg`` centred in ``rect``, at ``size`` px or smaller until it fits, on an optional plate;
    when even the smallest text (render.MIN_TEXT_PX) is too wide, on as many lines as ``rect``
    holds (render.text_block: wrapped, squeezed a little at most)."""
    first = size
    while size > 14:
        img = render.font(size, bold).render(msg, True, colour)
        if img.get_width() <= rect.w - 24 and img.get_height() <= rect.h:
            break
        size -= 2
    if bg is not None:
        pygame.draw.rect(surface, bg, rect, border_radius=12)
    if img.get_width() > rect.w - 24:
        rows = max(1, rect.h // render.line_height(render.MIN_TEXT_PX, bold))
        render.text_block(surface, msg, rect.center, rect.w - 24, first, rows, colour, "center", bold)
        return
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


class PhotosMade:
    """A :class:`arcade.core.driver.Thought`: a round drawn already, ready once the worker
    making its photos is done (the photos are cached by ``photos_for``)."""

    def __init__(self, action: Round, worker: threading.Thread) -> None:
        self.action = action
        self.worker = worker

    def result(self) -> Round | None:
        return None if self.worker.is_alive() else self.action

    def cancel(self) -> None:
        return None          # a pure generator in a daemon thread: its photos stay cached


#: A seat's box narrower than this (px, a small display's column) draws its first row as the
#: one-row panel does (24 px): "P1", its marker and "10" points overlapped at 40-44 px.
NARROW_SEAT_W = 190


class SherlookScene(GameScene[SherlookState]):
    """One game of Sherlook (2 to 6 seats, SL-6)."""

    def __init__(self, app: Host, seats: list[SeatInfo], seed: int | None = None, rounds: int | None = None) -> None:
        super().__init__(app, seats, seed)
        self.cfg = app.cfg["sherlook"]
        self.settings, problem = safe_marker_settings(app)
        if problem is not None:
            app.message(problem)
        self.rounds = rounds
        self.game = SherlookGame(len(seats), {"rounds": rounds} if rounds else None)
        self.state = self.initial_state(self.game, SherlookState)
        # The match driver runs the marker races, asks the computer players for their
        # presses and draws each round (chance) once the reveal has shown long enough and
        # the round's photos are made (_chance_source: in a worker thread, during the reveal).
        spec = registry.get("sherlook")
        ctx = registry.PlayerContext(rng=self.stream("bots"), key=str(self.seed))
        players: list[Any] = [RoutedPlayer(spec.computer_player(self.state, s, _skill(info.skill), ctx), app)
                              if info.is_computer else None for s, info in enumerate(seats)]
        self.driver: Driver = spec.driver(self.state, players, self.stream("ties"), markers=self.settings,
                                          chance_pause=self._reveal_pause, chance_source=self._chance_source,
                                          chance_rng=self.rng)
        self.phase = "start"              # start | token | race | reveal | over
        self.phase_at = 0
        self.placed: Placed | None = None
        self.surfaces: tuple[pygame.Surface, pygame.Surface] | None = None
        self.reveal_surfaces: tuple[pygame.Surface, pygame.Surface] | None = None
        self.cache_key: Any = None
        self.last_second: int | None = None
        self.next_round: tuple[Round, threading.Thread] | None = None   # chance outcome, its photos' worker

    def after_resume(self) -> None:
        """Rebuilt mid-round after a restart (kiosk/resume.py): show the round's token,
        then the race goes on (its photos come from the round's scene seed)."""
        if self.state.current_player() == RACE:
            self.phase, self.phase_at = "token", self.now

    # -- input -----------------------------------------------------------------
    @property
    def referee(self) -> MarkerReferee:
        """The driver's marker referee (the race, its claims)."""
        return self.driver.referee  # type: ignore[no-any-return]

    def empty_room_ns(self, turn_ns: int) -> int:
        """Sherlook has no turns: a guest who is there presses once a round (a marker), so the
        room is empty only after two rounds' time (each its limit, countdown, reveal and token:
        208 s with the defaults) with no person's press (kiosk/away.py), or twice ``turn_ns``
        if that is longer."""
        c = self.cfg
        round_ns = int((c["round_limit_s"] + c["countdown_s"] + c["reveal_s"] + c["token_s"]) * NS)
        return max(2 * turn_ns, 2 * round_ns)

    def on_station(self, edge: Edge) -> None:
        self.driver.feed(edge)
        if edge.pressed and edge.control in ("buzzer", "ok") and self.phase == "race":
            self.app.sounds.play("press")

    # -- the game ----------------------------------------------------------------
    def advance(self, now_ns: int) -> None:
        st = self.state
        if self.phase == "token":
            if now_ns - self.phase_at >= self.cfg["token_s"] * NS:
                self.phase, self.phase_at = "race", now_ns
            return
        moves = len(st.history)
        racing = self.phase == "race"
        events = self.driver.tick(now_ns)     # presses judged, computers asked; the next round when due
        if racing:
            self._race(events, now_ns)
            if st.current_player() != RACE:
                self.phase, self.phase_at = "reveal", now_ns
                self.app.screenshot(f"round-{st.round_no}-reveal")     # the next frame drawn
                self.app.computer.cancel()
                self.app.sounds.play("won" if st.rounds[-1].score.green is not None else "debated")
            return
        if any(actor == CHANCE for actor, _a in st.history[moves:]):   # the driver drew the next round
            self.next_round = None
            self.phase, self.phase_at = "token", now_ns
            self.banner = None
            self.app.sounds.play("flip")
            return
        if self.phase == "reveal" and now_ns - self.phase_at < self._reveal_ns():
            return
        if st.is_terminal():
            if self.finish(now_ns):
                self.phase = "over"

    def _reveal_pause(self, state: Any) -> int:
        """The driver's pause before a round (ns): the reveal of the race just played (none
        before the first round, nor when a resumed game starts between rounds)."""
        return self._reveal_ns() if state.round_no and self.phase in ("race", "reveal") else 0

    def _chance_source(self, state: Any, outcome: Any) -> "PhotosMade":
        """The driver's chance source: the round the driver drew (from this screen's rng,
        ``chance_rng``), ready once its photos are made in a worker thread during the reveal."""
        assert isinstance(outcome, Round)
        worker = threading.Thread(target=photos_for, args=(outcome.scene_seed,), name="sherlook-photos",
                                  daemon=True)
        worker.start()
        self.next_round = (outcome, worker)
        return PhotosMade(outcome, worker)

    def _race(self, events: list[Any], now: int) -> None:
        for ev in events:
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

    def frame_shown(self, t_ns: int) -> None:
        if self.phase != "race":
            return
        for ev in self.driver.frame_shown(t_ns):      # the race opens at this flip
            if ev.kind == "opened":
                self.last_second = None
            elif ev.kind == "countdown":
                self.app.screenshot(f"round-{self.state.round_no}-race")   # photos, markers, countdown
                names = " & ".join(f"P{s + 1}" for s in ev.seats)
                self.banner = (f"{names}: {self.settings.countdown_ms / 1000:g} seconds to take a marker!",
                               render.GOLD, t_ns + 2 * NS)

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

    def again(self) -> GameScene[State]:
        return SherlookScene(self.app, self.seats)

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
        # the markers' strip has a band on top for the cursors, so they never cover a photo
        return {"info": pygame.Rect(8, 2, W - 16, int(44 * k)),
                "photos": pygame.Rect(8, int(48 * k), W - 16, int(494 * k)),
                "markers": pygame.Rect(8, int(546 * k), int(W * 0.62), int(94 * k)),
                "claims": pygame.Rect(int(W * 0.62) + 16, int(546 * k), W - int(W * 0.62) - 24, int(94 * k)),
                "seats": pygame.Rect(8, int(644 * k), W - 16, H - int(648 * k))}

    def _prepare(self, area: pygame.Rect, all_steps: bool = True) -> None:
        """The round's photos placed in ``area`` and rendered, plain and washed for the reveal.

        The work comes in steps of a few ms (:meth:`_prepare_steps`): while the round's token
        shows (``all_steps=False``) one step a frame, so no frame does it all; the race's
        first frame finishes what is left.  ``placed`` and the surfaces change together, once
        every step is done."""
        st = self.state
        key = (st.round_no, st.scene_seed, st.layout_key, area.size)
        if st.photos is None or st.layout is None:
            return
        if self.cache_key != key:
            self.cache_key = key
            self._steps = self._prepare_steps(area)
        while self._steps is not None:
            if not next(self._steps, False):      # the last step done
                self._steps = None
            elif not all_steps:
                return

    _steps: Iterator[bool] | None = None

    def _prepare_steps(self, area: pygame.Rect) -> Iterator[bool]:
        """Yields True after each step but the last."""
        st = self.state
        assert st.photos is not None and st.layout is not None
        placed = place_pair(st.layout, area)
        first = render_one(st.photos, placed, 0)
        yield True
        plain = (first, render_one(st.photos, placed, 1))
        yield True
        marks = reveal_marks(st.photos, placed)
        washed = []
        for i, surf in enumerate(plain):
            w = surf.copy()
            grey = pygame.transform.grayscale(surf)
            yield True
            self._wash(w, grey)
            yield True
            self._mark(w, placed.rects[i].topleft, [m for m in marks if m[1] == i])
            washed.append(w)
            yield True
        self.placed = placed
        self.surfaces = plain
        self.reveal_surfaces = (washed[0], washed[1])

    @staticmethod
    def _wash(w: pygame.Surface, grey: pygame.Surface) -> None:
        """A photo ``w`` greyed (``grey``: its greyscale) and darkened for the reveal."""
        grey.set_alpha(130)
        w.blit(grey, (0, 0))
        shade = pygame.Surface(w.get_size())
        shade.fill((24, 24, 24))
        w.blit(shade, (0, 0), special_flags=pygame.BLEND_RGB_SUB)

    @staticmethod
    def _mark(w: pygame.Surface, origin: tuple[int, int], marks: list[tuple[int, int, pygame.Rect]]) -> None:
        """The differences on a washed photo circled and numbered (``origin``: its screen place)."""
        for n, _photo, rect in marks:
            r = rect.move(-origin[0], -origin[1]).inflate(18, 18)
            r.w, r.h = max(r.w, 34), max(r.h, 34)
            pygame.draw.ellipse(w, (20, 20, 20), r.inflate(4, 4), 8)
            pygame.draw.ellipse(w, CIRCLE, r, 5)
            bx = min(max(r.left + 4, 16), w.get_width() - 16)
            by = min(max(r.top + 4, 16), w.get_height() - 16)
            pygame.draw.circle(w, (200, 30, 30), (bx, by), 16)
            pygame.draw.circle(w, (255, 255, 255), (bx, by), 16, 2)
            render.text(w, str(n), (bx, by + 1), 28, (255, 255, 255), "center", bold=True)

    def draw(self, surface: pygame.Surface) -> None:
        """The two photos are a part kept between frames (render.Parts): drawn again only when
        the pictures or their places change; the rest of the screen is drawn every frame."""
        W, H = surface.get_size()
        parts = self.parts
        full = parts.begin(surface)
        st = self.state
        if self.phase == "start" or st.layout is None or self.phase == "token":
            # The title and the token screens do not change while they show: one part.
            parts.forget("photos")
            key = ("start",) if self.phase == "start" or st.layout is None else \
                ("token", st.round_no, st.rounds_total, st.is_extra, tuple(st.participants), st.layout_key,
                 st.layout.name)
            def whole() -> None:
                surface.fill(render.BG)
                self._draw_screen(surface, None)
            drawn = parts.part(surface, "screen", surface.get_rect(), key, whole, background=None)
            if self.phase == "token" and not drawn:    # while the token shows: the photos, a step a frame
                self._prepare(self._areas(W, H)["photos"], all_steps=False)
            return
        full = parts.forget("screen") or full
        photos = None
        if self.phase != "start" and st.layout is not None:
            self._prepare(self._areas(W, H)["photos"])      # a new round's photos and places first
        if self.phase not in ("start", "token") and st.layout is not None and self.placed is not None:
            reveal = self.phase in ("reveal", "over")
            pics = self.reveal_surfaces if reveal else self.surfaces
            if pics is not None:
                rects = self.placed.rects
                photos = (rects[0].inflate(6, 6).union(rects[1].inflate(6, 6)), pics, tuple(map(tuple, rects)))
        if photos is None or full:
            if photos is None:
                parts.forget("photos")
            surface.fill(render.BG)
        else:
            box = photos[0].clip(surface.get_rect())
            for band in (pygame.Rect(0, 0, W, box.y), pygame.Rect(0, box.bottom, W, H - box.bottom),
                         pygame.Rect(0, box.y, box.x, box.h), pygame.Rect(box.right, box.y, W - box.right, box.h)):
                if band.w > 0 and band.h > 0:
                    surface.fill(render.BG, band)
        self._draw_screen(surface, photos)

    def _draw_screen(self, surface: pygame.Surface, photos: Any) -> None:
        W, H = surface.get_size()
        st = self.state
        if self.phase == "start" or st.layout is None:
            r = render.text(surface, "SHERLOOK", (W // 2, H // 3), int(H * 0.14), render.GOLD, "center", bold=True)
            self.note_strip = pygame.Rect(0, r.y, W, r.h)   # the title: an app note goes over it
            render.text_block(surface, "spot the differences, take the right marker", (W // 2, H // 2), W - 24, 40,
                              2, render.TEXT, "center")
            return
        areas = self._areas(W, H)
        self.note_strip = areas["info"]           # the round's title line: an app note goes over it
        if self.phase != "token":                # (the token: a step a frame, see draw)
            self._prepare(areas["photos"])
        if self.phase == "token":
            self._draw_token(surface)
            return
        reveal = self.phase in ("reveal", "over")
        if reveal:
            self._draw_reveal_banner(surface, self._reveal_areas(areas)[0])
        elif self.banner and self.now < self.banner[2]:
            msg, col, _ = self.banner
            if self._reveal_areas(areas)[0] == areas["info"]:
                fit_text(surface, msg, areas["info"], 40, (20, 20, 20), col)
            # else drawn last: see below
        else:
            self._draw_info(surface, areas["info"])
        pics = self.reveal_surfaces if reveal else self.surfaces
        if pics is not None and self.placed is not None:
            def draw_photos() -> None:
                assert pics is not None and self.placed is not None
                for i in range(2):
                    surface.blit(pics[i], self.placed.rects[i])
                    pygame.draw.rect(surface, (245, 240, 225), self.placed.rects[i].inflate(6, 6), 3)
            if photos is None:              # the places were made this frame: everything was filled
                self.parts.forget("photos")
                draw_photos()
            else:
                self.parts.part(surface, "photos", photos[0], (photos[1][0], photos[1][1], photos[2]), draw_photos)
        if reveal:                             # the whole claim order in place of markers and claims
            self._draw_order(surface, self._reveal_areas(areas)[1])
        else:
            plate = self._reveal_areas(areas)[0]
            over = plate if self.banner and self.now < self.banner[2] and plate != areas["info"] else None
            self._draw_markers(surface, areas["markers"], under=over)
            if not self._counting_down():      # the countdown covers the claims: not drawn under it
                self._draw_claims(surface, areas["claims"])
        self._draw_seats(surface, areas["seats"])
        self._draw_countdown(surface, areas["claims"])
        box = self._reveal_areas(areas)[0]
        if not reveal and self.banner and self.now < self.banner[2] and box != areas["info"]:
            # In a narrow column of a small display a message's plate reaches over the top of
            # the markers for its moment (as the reveal's banner does): its words need the lines.
            msg, col, _ = self.banner
            fit_text(surface, msg, box, 40, (20, 20, 20), col)

    #: The token screen's two lines under the layout's name: what to do, and the controls.
    TOKEN_LINES = ("Count the differences, then take the marker with your number:",
                   "press your buzzer when it lights up - or move with left / right and press OK")
    #: The same when no person at the table has left / right / OK (issue 20: a buzzers-only
    #: cabinet was told of controls it does not have).
    TOKEN_LINES_BUZZER = ("Count the differences, then take the marker with your number:",
                          "press your buzzer when the gold ring lights up your number")

    def token_lines(self) -> tuple[str, str]:
        """:data:`TOKEN_LINES`, or :data:`TOKEN_LINES_BUZZER` when no person's station here has
        an OK control wired (:func:`kiosk.input.wired_controls`)."""
        from kiosk.input import wired_controls
        try:
            wired = wired_controls(self.app.cfg, self.app.gpio is not None)
        except Exception:  # noqa: BLE001 - a hint: the full wording
            return self.TOKEN_LINES
        people = [i for i, seat in enumerate(self.seats) if not seat.is_computer]
        if people and not any("ok" in wired.get(i, ()) for i in people):
            return self.TOKEN_LINES_BUZZER
        return self.TOKEN_LINES

    def _draw_token(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        st = self.state
        lay = st.layout
        assert lay is not None
        title = f"Round {st.round_no}" + (f" of {st.rounds_total}" if not st.is_extra else
                                          " - extra round: " + " & ".join(f"P{s + 1}" for s in st.participants))
        what, keys = self.token_lines()
        if (render.font(34).size(what)[0] <= W - 24 and render.font(30).size(keys)[0] <= W - 24
                and render.font(int(H * 0.08), True).size(title)[0] <= W - 24):
            r = render.text(surface, title, (W // 2, int(H * 0.08)), int(H * 0.08), render.TEXT, "center", bold=True)
            self.note_strip = pygame.Rect(0, r.y, W, r.h)   # the round's title: an app note goes over it
            icon = pygame.Rect(0, 0, int(H * 0.5), int(H * 0.36))
            icon.center = (W // 2, int(H * 0.44))
            layout_icon(surface, lay, icon)
            render.text(surface, "The green token says:", (W // 2, icon.top - 14), 34, render.DIM, "midbottom")
            render.text(surface, lay.name, (W // 2, icon.bottom + 20), int(H * 0.075), render.GOLD, "midtop",
                        bold=True)
            render.text(surface, what, (W // 2, int(H * 0.86)), 34, render.TEXT, "center")
            render.text(surface, keys, (W // 2, int(H * 0.93)), 30, render.DIM, "center")
            return
        # A small display: the lines wrap from the bottom up and the layout's picture takes
        # the height that is left (never smaller text than render.MIN_TEXT_PX).
        w, gap = W - 16, max(4, H // 80)
        keys_r = render.text_block(surface, keys, (W // 2, H - gap), w, 26, 3, render.DIM, "midbottom")
        what_r = render.text_block(surface, what, (W // 2, keys_r.top - gap), w, 30, 2, render.TEXT, "midbottom")
        name_r = render.text_block(surface, lay.name, (W // 2, what_r.top - gap), w, max(30, int(H * 0.075)), 2,
                                   render.GOLD, "midbottom", bold=True)
        title_r = render.text_block(surface, title, (W // 2, gap), w, max(36, int(H * 0.08)), 2, render.TEXT,
                                    "midtop", bold=True)
        self.note_strip = pygame.Rect(0, title_r.y, W, title_r.h)   # an app note goes over the title
        says_r = render.text_block(surface, "The green token says:", (W // 2, title_r.bottom + gap), w, 28, 1,
                                   render.DIM, "midtop")
        room = pygame.Rect(0, says_r.bottom + gap, W, name_r.top - gap - says_r.bottom - gap)
        if room.h > 8:
            icon = pygame.Rect(0, 0, min(W - 16, int(room.h * 0.5 / 0.36)), room.h)
            icon.center = room.center
            layout_icon(surface, lay, icon)

    def _draw_info(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st = self.state
        lay = st.layout
        assert lay is not None
        rnd = f"Round {st.round_no}/{st.rounds_total}" if not st.is_extra else f"Extra round {st.extra_no}"
        icon = pygame.Rect(area.x, area.y + 2, int(area.h * 1.3) if area.h < 80 else 110, min(area.h - 4, 76))
        if render.small_screen(*surface.get_size()):
            # a narrow column (the "stack" arrangement on a small panel): the layout's picture
            # gives way to the round's number ("Round 1/10" squeezed to 80% at most), and goes
            # when too little of it is left to read
            need = int(render.font(24, True).size(rnd)[0] * 0.8) + 8
            if area.w <= area.h * 3 and area.w - icon.w < need:
                icon.w = area.w - need
                icon.h = min(icon.h, int(icon.w / 1.3))
                if icon.w < 28:
                    icon.w = 0
            if icon.w:
                layout_icon(surface, lay, icon)
            self._draw_info_small(surface, area, icon, rnd)
            return
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

    def _draw_info_small(self, surface: pygame.Surface, area: pygame.Rect, icon: pygame.Rect, rnd: str) -> None:
        """The round's line on a small display: as much as fits of "SHERLOOK  Round 1/10  -
        name" (the game's name goes first, then the layout's name gives way to the round; the
        layout's picture beside it stays), or, in a narrow column, the round over the name."""
        lay = self.state.layout
        assert lay is not None
        x = icon.right + 8
        w = area.right - x
        if area.w > area.h * 3:
            f = render.font(24, True)
            for msg in (f"SHERLOOK  {rnd}  -  {lay.name}", f"{rnd}  -  {lay.name}", rnd):
                if f.size(msg)[0] * 0.8 <= w:
                    break
            render.text_block(surface, msg, (x, area.centery), w, 34, 1, render.TEXT, "midleft", bold=True)
            return
        r = render.text_block(surface, rnd, (x, area.y + 2), w, 34, 1, render.TEXT, "topleft", bold=True)
        # its lines counted at the size they are drawn at: two lines at 28 px ran into the
        # markers below ("Reflected as / in water" over marker 1 at 480x320, explorer seed 1908)
        space = area.bottom - r.bottom
        size = 28 if space >= 2 * render.line_height(28) else render.MIN_TEXT_PX
        rows = max(1, space // render.line_height(size))
        if area.bottom - r.bottom >= render.line_height(24) - 4:
            render.text_block(surface, lay.name, (area.x, r.bottom + 2), area.w, size, rows, render.TEXT, "topleft")

    CURSOR_BAND = 30          # px above a row of markers where the cursors go

    def _marker_centres(self, area: pygame.Rect) -> tuple[list[tuple[int, int]], int]:
        if area.w > area.h * 3:
            step = area.w / 10
            band = self.CURSOR_BAND if area.h >= 80 else 0
            r = int(min(step * 0.42, (area.h - band) * 0.46))
            cy = area.y + band + (area.h - band) // 2
            return [(int(area.x + step * (i + 0.5)), cy) for i in range(10)], r
        cw, ch = area.w / 2, area.h / 5
        r = int(min(cw * 0.3, ch * 0.4))
        return [(int(area.x + cw * (i // 5 + 0.5)), int(area.y + ch * (i % 5 + 0.5))) for i in range(10)], r

    def _draw_markers(self, surface: pygame.Surface, area: pygame.Rect, under: pygame.Rect | None = None) -> None:
        """The ten markers in ``area``; those that a message's plate (``under``, drawn over
        them for its moment on a narrow small display) hides are left out."""
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
            if under is not None and under.colliderect(pygame.Rect(cx - r, cy - r, 2 * r, 2 * r)):
                continue
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
                num = render.text(surface, str(m), (cx, cy - r // 5), int(r * 1.15), (20, 20, 20), "center",
                                  bold=True)
                tag_px = max(16, int(r * 0.5))
                tag_h = render.line_height(tag_px, True)
                # the holder's "P2" under the number where the disc has room for both; a small
                # disc (480x320) says the holder by its colour alone
                if cy + r // 2 - tag_h // 2 >= num.bottom - min(num.h, tag_h) // 4:
                    render.text(surface, f"P{seat + 1}", (cx, cy + r // 2), tag_px, (20, 20, 20), "center",
                                bold=True)
        if race is not None and race.opened_ns is not None:
            self._draw_cursors(surface, area, centres, r, race)

    def _draw_cursors(self, surface: pygame.Surface, area: pygame.Rect, centres: list[tuple[int, int]], r: int,
                      race: MarkerRace) -> None:
        """The cursors of the stations with left / right / OK: a tag in the seat's colour
        with its name, pointing at the marker; above a row of markers (in the band kept
        for them), left of a column; tags on one marker sit side by side, never on a photo."""
        who = [(s, race.cursor_of(s)) for s, info in enumerate(self.seats)
               if info.can_choose and not info.is_computer and s in race.waiting()]
        if not who:
            return
        f = render.font(22, True)
        h = 24
        row = area.w > area.h * 3
        tags: list[tuple[pygame.Rect, int, int]] = []          # (tag, seat, marker)
        if row:
            widths = {s: f.size(f"P{s + 1}")[0] + 12 for s, _ in who}
            wanted = []
            for m in sorted({m for _, m in who}):
                on = [s for s, mm in who if mm == m]
                total = sum(widths[s] for s in on) + 4 * (len(on) - 1)
                x = centres[m - 1][0] - total // 2
                for s in on:
                    wanted.append((x, s, m))
                    x += widths[s] + 4
            x_min = area.x
            for x, s, m in wanted:                             # push apart, left to right
                x = max(x, x_min)
                tags.append((pygame.Rect(x, area.y + 1, widths[s], h), s, m))
                x_min = x + widths[s] + 4
            over = tags[-1][0].right - area.right if tags else 0
            if over > 0:
                tags = [(t.move(-over, 0), s, m) for t, s, m in tags]
        else:
            for m in sorted({m for _, m in who}):
                on = [s for s, mm in who if mm == m]
                cx, cy = centres[m - 1]
                y = cy - (len(on) * (h + 3) - 3) // 2
                for s in on:
                    w = f.size(f"P{s + 1}")[0] + 12
                    tags.append((pygame.Rect(cx - r - 12 - w, y, w, h), s, m))
                    y += h + 3
        for tag, s, m in tags:
            cx, cy = centres[m - 1]
            col = render.SEAT_COLOURS[s % 8]
            if row:
                pointer = [(tag.centerx - 7, tag.bottom - 1), (tag.centerx + 7, tag.bottom - 1), (cx, cy - r - 1)]
            else:
                pointer = [(tag.right - 1, tag.centery - 7), (tag.right - 1, tag.centery + 7), (cx - r - 1, cy)]
            pygame.draw.polygon(surface, col, pointer)
            pygame.draw.rect(surface, col, tag, border_radius=5)
            pygame.draw.rect(surface, (20, 20, 20), tag, 2, border_radius=5)
            img = f.render(f"P{s + 1}", True, (20, 20, 20))
            surface.blit(img, img.get_rect(center=tag.center))

    def _draw_claims(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """During the race: the latest claims, each with its offset from the photos (R-7)."""
        race = self.referee.race
        render.panel(surface, area)
        lines, _ = claim_rows(list(race.notes) if race is not None else [])
        small = area.h < 120
        size, pitch = (22, 22) if small else (26, 26)
        head = "Claims (ms after the photos)"
        if render.small_screen(*surface.get_size()) and render.font(20).size(head)[0] > area.w - 20:
            head = "Claims (ms)"                  # a small display: the short wording
        if not lines:
            render.text_block(surface, head, (area.x + 10, area.y + 3), area.w - 20, 20, 1, render.DIM, "topleft")
            render.text(surface, "none yet", (area.x + 10, area.y + 26), 24, render.DIM)
            return
        # newest last, as many as fit; a claim too wide to share its row with its time (a narrow
        # column of a small display) has the time on the line under it, never drawn over it; when
        # even the newest claim has no room for that, the heading gives its line up
        top = area.y + 25

        def fit(room: int) -> list[tuple[str, str, Any, bool]]:
            shown: list[tuple[str, str, Any, bool]] = []
            used = 0
            for text, t, col in reversed(lines):
                two = (render.font(size, True).size(text)[0] + render.font(size).size(t)[0] + 12
                       > area.w - 20)
                need = pitch * (2 if two else 1)
                if used + need > room:
                    break
                shown.append((text, t, col, two))
                used += need
            return shown

        shown = fit(area.h - 28)
        if not shown:
            top = area.y + 3
            shown = fit(area.h - 6)[:1]
        if top > area.y + 3:
            render.text_block(surface, head, (area.x + 10, area.y + 3), area.w - 20, 20, 1, render.DIM, "topleft")
        y = top
        for text, t, col, two in reversed(shown):
            tr = render.text(surface, t, (area.right - 10, y + (pitch if two else 0)), size, render.TEXT,
                             "topright")
            width = area.w - 20 if two else tr.x - 12 - (area.x + 10)
            render.text_within(surface, text, (area.x + 10, y), width, size, col, bold=True)
            y += pitch * (2 if two else 1)

    ORDER_PAGE_MIN_S = 2.5    # each page of the reveal's claim list shows at least this long

    def _order_plan(self, area: pygame.Rect) -> dict[str, Any]:
        """How the reveal's claim list fits ``area``: rows, font, columns, pages (R-7)."""
        race = self.referee.race
        rows, ignored = claim_rows(list(race.notes) if race is not None else [])
        size = 22 if area.h < 200 else 24
        pitch = size + 1 if area.h < 200 else size + 4
        low = area.h < 120 and render.small_screen(*self.app.screen.get_size())
        if low:               # a small display: the heading in one line, the rows right under it
            size, pitch = render.MIN_TEXT_PX, render.line_height(render.MIN_TEXT_PX, True)
        top = area.y + (render.line_height(24, True) + 2 if low else 56 if area.w < 600 else 24)
        f = render.font(size, True)
        numbered = [(f"{i}. {what}", t, col) for i, (what, t, col) in enumerate(rows, start=1)]
        cols = 1
        two_line = False
        if numbered:
            col_w = max(f.size(w)[0] + f.size(t)[0] for w, t, _ in numbered) + 40
            cols = max(1, min(len(numbered), area.w // col_w))
            small = render.small_screen(*self.app.screen.get_size())
            if small and col_w > area.w:          # a narrow column: the time under its claim
                two_line = True
        if two_line and not low:                 # two lines of heading, then the page's number
            top = area.y + 3 * render.line_height(24, True) + 4
        per_col = max(1, (area.bottom - top) // (pitch * (2 if two_line else 1)))
        pages = max(1, (len(numbered) + per_col * cols - 1) // (per_col * cols))
        return {"rows": numbered, "ignored": ignored, "size": size, "pitch": pitch, "top": top, "cols": cols,
                "per_col": per_col, "pages": pages, "two_line": two_line}

    def _reveal_ns(self) -> int:
        """How long the reveal stays: ``reveal_s``, longer if the claim list has many pages (R-7)."""
        W, H = self.app.screen.get_size()
        areas = self._areas(W, H)
        pages = self._order_plan(self._reveal_areas(areas)[1])["pages"]
        return int(max(self.cfg["reveal_s"], pages * self.ORDER_PAGE_MIN_S) * NS)

    def _draw_order(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """At the reveal: every claim of the race in stamp order with its offset in ms (R-7),
        numbered, in columns; if they need more than one page, the pages share the reveal
        time (at least ``ORDER_PAGE_MIN_S`` each: the reveal lasts longer if needed)."""
        render.panel(surface, area)
        plan = self._order_plan(area)
        rows, size, pitch, top = plan["rows"], plan["size"], plan["pitch"], plan["top"]
        head = "Every claim in stamp order, ms after the photos appeared"
        if plan["ignored"]:
            n = plan["ignored"]
            head += f"  (+{n} press{'es' if n != 1 else ''} by players already holding a marker)"
        if plan["two_line"] and plan["top"] >= area.y + 24:    # a small display, a narrow column
            render.text_block(surface, "Every claim in stamp order (ms)", (area.x + 6, area.y + 2), area.w - 12,
                              24, 2, render.DIM, "topleft", bold=True)
            if plan["pages"] > 1:
                page_ns = max(self.ORDER_PAGE_MIN_S * NS, self._reveal_ns() / plan["pages"])
                page = min(plan["pages"] - 1, int((self.now - self.phase_at) // page_ns))
                render.text(surface, f"page {page + 1}/{plan['pages']}",
                            (area.right - 6, area.y + 2 + 2 * render.line_height(24, True)), 20, render.GOLD,
                            "topright", bold=True)
        elif plan["top"] < area.y + 24:             # a small display: one line of heading
            pw = render.font(20, True).size("page 9/9")[0] + 16 if plan["pages"] > 1 else 0
            render.text_block(surface, "Every claim in stamp order (ms)", (area.x + 10, area.y + 1),
                              area.w - 20 - pw, 24, 1, render.DIM, "topleft", bold=True)
        elif area.w < 600:
            render.text(surface, "Every claim in stamp order", (area.x + 10, area.y + 4), 24, render.DIM, bold=True)
            render.text(surface, "ms after the photos appeared", (area.x + 10, area.y + 30), 20, render.DIM)
        else:
            if render.font(20).size(head)[0] > area.w - 130:
                head = head.split("  (")[0]
            render.text(surface, head, (area.x + 10, area.y + 2), 20, render.DIM)
        if not rows:
            render.text(surface, "nobody claimed a marker", (area.x + 10, top), size, render.DIM, bold=True)
            return
        cols, per_col, pages = plan["cols"], plan["per_col"], plan["pages"]
        col_w = (area.w - 8) // cols
        per_page = per_col * cols
        page = 0
        if pages > 1:
            page_ns = max(self.ORDER_PAGE_MIN_S * NS, self._reveal_ns() / pages)
            page = min(pages - 1, int((self.now - self.phase_at) // page_ns))
            if not plan["two_line"] or plan["top"] < area.y + 24:
                render.text(surface, f"page {page + 1}/{pages}", (area.right - 10, area.y + 2), 20, render.GOLD,
                            "topright", bold=True)
        for k, (what, t, col) in enumerate(rows[page * per_page:(page + 1) * per_page]):
            x = area.x + 4 + (k // per_col) * col_w
            if plan["two_line"]:                  # the claim, then its time right-aligned under it
                y = top + (k % per_col) * pitch * 2
                render.text_within(surface, what, (x + 6, y), col_w - 12, size, col, bold=True)
                render.text(surface, t, (x + col_w - 10, y + pitch), size, render.TEXT, "topright")
                continue
            y = top + (k % per_col) * pitch
            render.text(surface, what, (x + 6, y), size, col, bold=True)
            render.text(surface, t, (x + col_w - 18, y), size, render.TEXT, "topright")

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
            col: Any = render.SEAT_COLOURS[s % 8]
            playing = s in st.participants
            waiting = self.phase == "race" and s in st.waiting()
            border = col if waiting and (not counting or int(self.now / 2.5e8) % 2 == 0) else None
            render.panel(surface, r, render.PANEL if playing else (26, 28, 36), border, 4)
            pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, 8, r.h), border_radius=4)
            low = r.h < 60 and render.small_screen(*surface.get_size())
            if low:
                self._draw_seat_row(surface, r, s, col, last, waiting, playing, counting, stuck)
                continue
            # row 1: seat, this round's marker or state, points (a narrow box, 480x320: as the
            # one-row panel draws them, 24 px, so that they sit side by side)
            if r.w < NARROW_SEAT_W and render.small_screen(*surface.get_size()):
                self._draw_seat_row(surface, pygame.Rect(r.x, r.y, r.w, 40), s, col, last, waiting, playing,
                                    counting, stuck)
            else:
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
            # row 2: the station, or this round's tokens at the reveal; row 3: the tokens so far
            # (green circle, yellow square, red triangle).  A box too low for three rows (4 seats
            # on 480x320) leaves the station out, and at the reveal shows this round's tokens only.
            y2 = r.y + 40
            ty = r.y + 63 if not vertical else r.bottom - 18
            three_rows = ty - 12 >= y2 + 20
            got = last.score.tokens(s) if last is not None and s in last.score.points else ()
            if got:
                gy = y2 + 8 if three_rows else ty
                x = r.x + 26
                for kind in got:
                    token_icon(surface, kind, (x, gy), 8)
                    x += 22
                render.text(surface, f"+{last.score.points[s]}", (x - 4, gy), 26,  # type: ignore[union-attr]
                            render.GOOD, "midleft", bold=True)
            elif three_rows:
                # the station inside the seat's box: "computer (medium)" reads "computer" where
                # a narrow box (480x320) has no room for it (it ran off the screen's edge)
                label = info.label[:22]
                render.text_best(surface, (label, label.split(" (")[0]), (r.x + 16, y2), r.right - 8 - (r.x + 16),
                                 (20,), render.DIM)
            tx = r.x + 16
            gap = min(44, (r.w - 26) // 3)     # a narrow box (480x320): closer, inside it
            for kind, count in (("green", st.greens[s]), ("yellow", st.yellows[s]), ("red", st.reds[s])):
                if got and not three_rows:
                    break
                token_icon(surface, kind, (tx + 8, ty), 7)
                render.text(surface, str(count), (tx + 19, ty), 24, render.TEXT, "midleft", bold=True)
                tx += gap
            if s in stuck:
                render.text(surface, "STUCK", (r.right - 10, r.bottom - 4), 22, render.BAD, "bottomright", bold=True)

    def _draw_seat_row(self, surface: pygame.Surface, r: pygame.Rect, s: int, col: Any, last: Any, waiting: bool,
                       playing: bool, counting: bool, stuck: set[int]) -> None:
        """A seat's panel on a small display, one row high: the seat, this round's marker or
        state, the points.  The station's name and the tokens so far are left out (no room
        for a second row); the points they make stay."""
        st = self.state
        race = self.referee.race
        cy = r.centery
        head = render.text(surface, f"P{s + 1}", (r.x + 12, cy), 24, col, "midleft", bold=True)
        pts = render.text(surface, f"{st.points[s]}", (r.right - 6, cy), 24, render.TEXT, "midright", bold=True)
        room = pygame.Rect(head.right + 4, r.y, pts.x - 4 - head.right - 4, r.h)
        if room.w < 8:
            return
        rad = min(room.h // 2 - 2, 13)
        mid = (room.x + rad + 1, cy)
        marker = st.markers.get(s) if last is None else last.markers.get(s)
        if marker is not None and rad >= 6:
            pygame.draw.circle(surface, col, mid, rad)
            pygame.draw.circle(surface, (20, 20, 20), mid, rad, 2)
            render.text_within(surface, str(marker), mid, 2 * rad, 24, (20, 20, 20), "center", bold=True)
            return
        word, colour = "", render.DIM
        if s in stuck:
            word, colour = "STUCK", render.BAD
        elif (last is not None and s in last.timed_out) or s in st.timed_out:
            word, colour = "time!", render.BAD
        elif waiting:
            left = race.countdown_left(self.now) if counting and race is not None else None
            if left is not None and race is not None and s in race.countdown_seats:
                word, colour = f"{max(0, math.ceil(left))}", render.GOLD
            else:
                word = "..."
        elif not playing:
            word = "watching"
        if word:
            render.text_block(surface, word, (room.x, cy), room.w, 24, 1, colour, "midleft", bold=True)

    def _counting_down(self) -> bool:
        """The last player's countdown (SL-3) is on: it covers the claims panel."""
        race = self.referee.race
        if race is None or self.phase != "race" or race.countdown_start is None or not race.waiting():
            return False
        return race.countdown_left(self.now) is not None

    def _draw_countdown(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        race = self.referee.race
        if race is None or not self._counting_down():
            return
        left = race.countdown_left(self.now)
        if left is None:
            return
        total = self.settings.countdown_ms / 1000
        frac = left / total
        col = (60, 200, 90) if frac > 0.5 else (255, 160, 20) if frac > 0.25 else (235, 60, 60)
        pygame.draw.rect(surface, (60, 20, 24), area, border_radius=12)
        pygame.draw.rect(surface, col, area, 4, border_radius=12)
        names = " & ".join(f"P{s + 1}" for s in race.waiting())
        if render.small_screen(*surface.get_size()) and area.w < 300:
            # a narrow column: the seconds and who must take a marker, on the lines it needs
            # (the ring left out)
            rows = max(1, (area.h - 8) // render.line_height(24, True))
            render.text_block(surface, f"{max(0, math.ceil(left))} s  {names}: take a marker!", area.center,
                              area.w - 12, 30, rows, render.GOLD, "center", bold=True)
            return
        r = min(area.h // 2 - 6, 60)
        centre = (area.x + r + 14, area.centery)
        render.ring(surface, centre, r, frac, col, max(5, r // 5))
        render.text(surface, str(max(0, math.ceil(left))), centre, int(r * 1.5), render.TEXT, "center", bold=True)
        fit_text(surface, f"{names}: take a marker!",
                 pygame.Rect(centre[0] + r + 8, area.y, area.right - centre[0] - r - 8, area.h), 44, render.GOLD)

    def _reveal_areas(self, areas: dict[str, pygame.Rect]) -> tuple[pygame.Rect, pygame.Rect]:
        """Where the reveal's banner and its claim list go: the round's line and the markers'
        and claims' places.  In a narrow column of a small display (the "stack" photos) the
        banner takes the top of the list's place, for the tokens' line to wrap in it."""
        banner, order = areas["info"], areas["markers"].union(areas["claims"])
        if render.small_screen(*self.app.screen.get_size()) and banner.w < 300:
            need = render.line_height(36, True) + 4 * render.line_height(24, True) + 16 - banner.h
            if need > 0:
                banner = banner.union(pygame.Rect(banner.x, banner.bottom, banner.w, need))
                order = pygame.Rect(order.x, max(order.y, banner.bottom + 6), order.w,
                                    order.bottom - max(order.y, banner.bottom + 6))
        return banner, order

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
        if area.h >= 80 and render.small_screen(*surface.get_size()) and area.w < 300:
            # a narrow column: the count, then the tokens on as many lines as they need
            top = pygame.Rect(area.x, area.y, area.w, render.line_height(36, True) + 6)
            pygame.draw.rect(surface, CIRCLE, area, border_radius=12)
            fit_text(surface, f"{last.count} difference{'s' if last.count != 1 else ''}", top, 36, (20, 20, 20))
            fit_text(surface, ", ".join(parts), pygame.Rect(area.x - 6, top.bottom, area.w + 12,
                                                             area.bottom - top.bottom - 4), 30, (20, 20, 20))
        elif area.h >= 80:
            top = pygame.Rect(area.x, area.y, area.w, area.h // 2)
            fit_text(surface, f"{last.count} difference{'s' if last.count != 1 else ''}", top, 56, (20, 20, 20),
                     CIRCLE)
            fit_text(surface, ", ".join(parts), pygame.Rect(area.x, area.y + area.h // 2 + 4, area.w,
                                                             area.h // 2 - 4), 30, CIRCLE)
        else:
            fit_text(surface, text, area, 40, (20, 20, 20), CIRCLE)

    def led_picture(self, now_ns: int) -> LedPicture | None:
        from arcade.sherlook.pictures import markers_picture, reveal_picture
        from arcade.views import pictures as ledv
        cfg = self.app.cfg["led"]
        w, h = cfg["width"], cfg["height"]
        st = self.state
        race: MarkerRace | None = self.referee.race
        if self.phase == "race" and race is not None and race.countdown_start is not None and race.waiting():
            left = race.countdown_left(now_ns) or 0.0
            total = self.settings.countdown_ms / 1000
            return ledv.countdown_picture(max(0, math.ceil(left)), min(1.0, left / total), w, h)
        if self.phase in ("reveal", "over") and st.rounds:
            sc = st.rounds[-1].score
            try:
                return reveal_picture(st.rounds[-1].count, sc.green, sc.yellow, sc.red, w, h)
            except Exception:
                return None
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


def _start(app: Host, seats: list[SeatInfo]) -> GameScene[State]:
    return SherlookScene(app, seats)


#: The registry entries this screen draws (label, names and seats from arcade.registry).
LOBBY_GAMES = [
    lobby_game("sherlook", _start),
]
