"""The Sherlook scene: two photos, ten evidence markers, the race, the reveal.

A round: the green token is shown for ``token_s`` (SL-2), then the photos in
its pose; the marker race opens when that frame is flipped (R-2).  Players
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

from arcade import i18n, registry
from arcade.core.api import CHANCE, RACE, State
from arcade.core.driver import Driver
from arcade.core.errors import SettingsError
from arcade.core.events import Edge
from arcade.i18n import N_, _, ngettext, number
from arcade.sherlook.game import Round, SherlookGame, SherlookState, photos_for
from arcade.sherlook.markers import MarkerEvent, MarkerRace, MarkerReferee, MarkerSettings
from kiosk import render
from kiosk.games.sherlook import claims, panels, seats
from kiosk.games.sherlook.draw import Placed, circle_differences, place_pair, render_one, reveal_marks, wash
from kiosk.scenes.game import GameScene, RoutedPlayer
from kiosk.scenes.seats import SeatInfo, lobby_game

if TYPE_CHECKING:
    from arcade.registry import GameSpec
    from kiosk.scene import Host, LedPicture

NS = 1_000_000_000


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
        msg = _("Sherlook settings: {problem}. Playing with the default [sherlook] times.").format(problem=exc)
    try:
        j = app.cfg.judge_settings()
        return MarkerSettings(settle_ms=j.settle_ns / 1e6, debounce_ms=j.debounce_ms,
                              stuck_after_s=j.stuck_after_s), msg
    except (SettingsError, KeyError, TypeError, ValueError):
        return MarkerSettings(), msg


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

class SherlookScene(GameScene[SherlookState]):
    """One game of Sherlook (2 to 6 seats, SL-6)."""

    def __init__(self, app: Host, seats: list[SeatInfo], seed: int | None = None, rounds: int | None = None,
                 spec: GameSpec | None = None) -> None:
        """``spec``: the registry entry played (the lobby game's, ``LobbyGame.start``); default
        ``sherlook``."""
        super().__init__(app, seats, seed)
        self.spec = spec or registry.get("sherlook")
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
        spec = self.spec
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
        """Rebuilt mid-round after a restart (kiosk/persist/resume.py): show the round's token,
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
        208 s with the defaults) with no person's press (kiosk/players/away.py), or twice ``turn_ns``
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
                secs = self.settings.countdown_ms / 1000
                said = ngettext("{names}: {seconds} second to take a marker!",
                                "{names}: {seconds} seconds to take a marker!", int(secs) if secs == int(secs) else 2)
                self.banner = (said.format(names=names, seconds=number(secs, 0 if secs == int(secs) else 1)), render.GOLD, t_ns + 2 * NS)

    def _on_event(self, ev: MarkerEvent, now: int) -> None:
        race = self.referee.race
        if ev.kind == "took":
            self.app.sounds.play("flip")
            if ev.tie:
                self.banner = (_("P{seat} takes {marker}: same stamp, chance decided").format(
                    seat=ev.seats[0] + 1, marker=ev.marker), render.GOLD, now + 2 * NS)
        elif ev.kind == "refused" and ev.note is not None:
            n = ev.note
            if n.status in ("lost", "tie-lost"):
                said = _("P{seat}: P{by} took {marker} - choose again")
                gap = ""
                if race is not None and n.by is not None:
                    first = next((x for x in race.notes if x.seat == n.by and x.marker == n.marker
                                  and x.status in ("took", "tie-won")), None)
                    if first is not None:
                        said = _("P{seat}: P{by} took {marker} {ms} ms earlier - choose again")
                        gap = number((n.t_ns - first.t_ns) / 1e6, 1)
                self.banner = (said.format(seat=n.seat + 1, by=(n.by or 0) + 1, marker=n.marker, ms=gap),
                               render.BAD, now + 2 * NS)
                self.app.sounds.play("false")
            elif n.status == "taken":
                said = _("P{seat}: {marker} is taken - choose another") if n.marker else \
                    _("P{seat}: that is taken - choose another")
                self.banner = (said.format(seat=n.seat + 1, marker=n.marker), render.BAD, now + 2 * NS)
                self.app.sounds.play("false")
            elif n.status == "too late":
                self.banner = (_("P{seat}: too late").format(seat=n.seat + 1), render.BAD, now + 2 * NS)
        elif ev.kind == "timeout":
            names = " & ".join(f"P{s + 1}" for s in ev.seats)
            self.banner = (_("Time! {names} took no marker: no score this round").format(names=names), render.BAD,
                           now + 3 * NS)
            self.app.sounds.play("false")
        elif ev.kind == "round-limit":
            self.banner = (_("Time is nearly up for everyone still choosing!"), render.GOLD, now + 2 * NS)

    def again(self) -> GameScene[State]:
        return SherlookScene(self.app, self.seats, spec=self.spec)

    # -- what the screen shows ---------------------------------------------------------------
    def _areas(self, W: int, H: int) -> dict[str, pygame.Rect]:
        """Where the parts go on a ``W`` x ``H`` screen this round (:func:`panels.screen_areas`)."""
        return panels.screen_areas(self.state.pose, W, H)

    def _prepare(self, area: pygame.Rect, all_steps: bool = True) -> None:
        """The round's photos placed in ``area`` and rendered, plain and washed for the reveal.

        The work comes in steps of a few ms (:meth:`_prepare_steps`): while the round's token
        shows (``all_steps=False``) one step a frame, so no frame does it all; the race's
        first frame finishes what is left.  ``placed`` and the surfaces change together, once
        every step is done."""
        st = self.state
        key = (st.round_no, st.scene_seed, st.pose_key, area.size)
        if st.photos is None or st.pose is None:
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
        assert st.photos is not None and st.pose is not None
        placed = place_pair(st.pose, area)
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
            wash(w, grey)
            yield True
            circle_differences(w, placed.rects[i].topleft, [m for m in marks if m[1] == i])
            washed.append(w)
            yield True
        self.placed = placed
        self.surfaces = plain
        self.reveal_surfaces = (washed[0], washed[1])

    def draw(self, surface: pygame.Surface) -> None:
        """The two photos are a part kept between frames (render.Parts): drawn again only when
        the pictures or their places change; the rest of the screen is drawn every frame."""
        W, H = surface.get_size()
        parts = self.parts
        full = parts.begin(surface)
        st = self.state
        if self.phase == "start" or st.pose is None or self.phase == "token":
            # The title and the token screens do not change while they show: one part.
            parts.forget("photos")
            key = ("start",) if self.phase == "start" or st.pose is None else \
                ("token", st.round_no, st.rounds_total, st.is_extra, tuple(st.participants), st.pose_key,
                 st.pose.name, i18n.current())
            def whole() -> None:
                surface.fill(render.BG)
                self._draw_screen(surface, None)
            drawn = parts.part(surface, "screen", surface.get_rect(), key, whole, background=None)
            if self.phase == "token" and not drawn:    # while the token shows: the photos, a step a frame
                self._prepare(self._areas(W, H)["photos"], all_steps=False)
            return
        full = parts.forget("screen") or full
        photos = None
        if self.phase != "start" and st.pose is not None:
            self._prepare(self._areas(W, H)["photos"])      # a new round's photos and places first
        if self.phase not in ("start", "token") and st.pose is not None and self.placed is not None:
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

    def moment(self) -> panels.Moment:
        """What this frame of the race or the reveal shows (the drawing modules read it)."""
        return panels.Moment(self.state, self.referee.race, self.phase, self.now, tuple(self.seats),
                             self.settings.countdown_ms / 1000)

    def _draw_screen(self, surface: pygame.Surface, photos: Any) -> None:
        W, H = surface.get_size()
        st = self.state
        if self.phase == "start" or st.pose is None:
            self.note_strip = panels.title_screen(surface)   # the title: an app note goes over it
            return
        areas = self._areas(W, H)
        self.note_strip = areas["info"]           # the round's title line: an app note goes over it
        if self.phase != "token":                # (the token: a step a frame, see draw)
            self._prepare(areas["photos"])
        if self.phase == "token":
            what, keys = self.token_lines()
            self.note_strip = panels.token_screen(surface, st, (_(what), _(keys)))   # an app note goes over its title
            return
        screen_size = self.app.screen.get_size()
        banner_at, order_at = panels.reveal_areas(areas, screen_size)
        moment = self.moment()
        reveal = self.phase in ("reveal", "over")
        if reveal:
            panels.reveal_banner(surface, banner_at, st)
        elif self.banner and self.now < self.banner[2]:
            msg, col, _until = self.banner
            if banner_at == areas["info"]:
                panels.fit_text(surface, msg, areas["info"], 40, (20, 20, 20), col)
            # else drawn last: see below
        else:
            panels.info_line(surface, areas["info"], st)
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
            claims.order_list(surface, order_at, moment.race, screen_size, self.now - self.phase_at,
                              self._reveal_ns())
        else:
            over = banner_at if self.banner and self.now < self.banner[2] and banner_at != areas["info"] else None
            panels.markers(surface, areas["markers"], moment, under=over)
            if not panels.counting_down(moment):   # the countdown covers the claims: not drawn under it
                claims.claims_panel(surface, areas["claims"], moment.race)
        seats.seat_panels(surface, areas["seats"], moment)
        panels.countdown(surface, areas["claims"], moment)
        if not reveal and self.banner and self.now < self.banner[2] and banner_at != areas["info"]:
            # In a narrow column of a small display a message's plate reaches over the top of
            # the markers for its moment (as the reveal's banner does): its words need the lines.
            msg, col, _until = self.banner
            panels.fit_text(surface, msg, banner_at, 40, (20, 20, 20), col)

    #: The token screen's two lines under the pose's name: what to do, and the controls.
    TOKEN_LINES = (N_("Count the differences, then take the marker with your number:"),
                   N_("press your buzzer when it lights up - or move with left / right and press OK"))
    #: The same when no person at the table has left / right / OK (issue 20: a buzzers-only
    #: cabinet was told of controls it does not have).
    TOKEN_LINES_BUZZER = (N_("Count the differences, then take the marker with your number:"),
                          N_("press your buzzer when the gold ring lights up your number"))

    def token_lines(self) -> tuple[str, str]:
        """:data:`TOKEN_LINES`, or :data:`TOKEN_LINES_BUZZER` when no person's station here has
        an OK control wired (:func:`kiosk.controls.input.wired_controls`)."""
        from kiosk.controls.input import wired_controls
        try:
            wired = wired_controls(self.app.cfg, self.app.gpio is not None)
        except Exception:  # noqa: BLE001 - a hint: the full wording
            return self.TOKEN_LINES
        people = [i for i, seat in enumerate(self.seats) if not seat.is_computer]
        if people and not any("ok" in wired.get(i, ()) for i in people):
            return self.TOKEN_LINES_BUZZER
        return self.TOKEN_LINES

    def _counting_down(self) -> bool:
        """The last player's countdown (SL-3) is on: it covers the claims panel."""
        return panels.counting_down(self.moment())

    def _reveal_ns(self) -> int:
        """How long the reveal stays: ``reveal_s``, longer if the claim list has many pages (R-7)."""
        size = self.app.screen.get_size()
        order = panels.reveal_areas(self._areas(*size), size)[1]
        pages = claims.order_plan(order, self.referee.race, size).pages
        return int(max(self.cfg["reveal_s"], pages * claims.ORDER_PAGE_MIN_S) * NS)

    def led_picture(self, now_ns: int) -> LedPicture | None:
        from arcade.lights import pictures as ledv
        from arcade.sherlook.pictures import markers_picture, reveal_picture
        cfg = self.app.cfg["led"]
        w, h = cfg["width"], cfg["height"]
        st = self.state
        race: MarkerRace | None = self.referee.race
        if self.phase == "race" and race is not None and race.countdown_start is not None and race.waiting():
            total = self.settings.countdown_ms / 1000
            left = race.countdown_left(now_ns) or 0.0          # 0..total (SL-3)
            return ledv.countdown_picture(math.ceil(left), min(1.0, left / total), w, h)
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


def _start(app: Host, seats: list[SeatInfo], spec: GameSpec) -> GameScene[State]:
    return SherlookScene(app, seats, spec=spec)


#: The registry entries this screen draws (label, names and seats from arcade.registry).
LOBBY_GAMES = [
    lobby_game("sherlook", _start),
]
