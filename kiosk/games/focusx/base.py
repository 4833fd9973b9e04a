"""What the four FocusX screens share (seed 001; FX-1..FX-12): :class:`FocusXScene`.

The mode screens (``kiosk/games/focusx/scene.py``: Classic, ThinkFocus, Duel, 4Focus; the
modes where the active seat chooses build on ``placing.py``) say how their table reads; this
base drives a game: the match driver fed with stamped edges (a buzzer or X press goes to the
referee unchanged), the computer players' presses planned when a window opens
(``arcade/bots/shout.py``, the same judge as people), the race panel's entries after every race
(R-7; for Duel the whole last-to-press order), the banner, the LED picture
(``arcade/lights/pictures.py``), the results screen and the saved record.

Drawing is elsewhere and reads only what it is given: the frame around the table (title row,
countdown bar, message strip, seat panels, LED column, race panel) is ``panels.py``'s, the
tables are ``draw.py``'s.  :meth:`FocusXScene.draw` says what each part shows and draws a
part again only when that changed (``render.Parts``).
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import pygame

from arcade import i18n, registry
from arcade.core.api import CHANCE, RACE, Action, Game, State
from arcade.core.driver import Driver, Thought
from arcade.core.errors import IllegalActionError
from arcade.core.events import Edge
from arcade.core.judge import NS_PER_MS, Verdict
from arcade.core.race import RaceSpec
from arcade.core.referee import RefereeEvent
from arcade.focusx.base import FocusXState
from arcade.i18n import N_, _
from kiosk import render
from kiosk.games.focusx import panels
from kiosk.games.focusx.computers import ArcadeSeat, PressPlanner
from kiosk.games.focusx.panels import PanelEntry, ScreenRegions, SeatPanel, screen_regions
from kiosk.scenes.game import GameScene, KioskSeat
from kiosk.scenes.seats import SeatInfo

if TYPE_CHECKING:
    from kiosk.scene import Host, LedPicture

S = 1_000_000_000


def _joined(texts: list[str], colour: tuple[int, int, int]) -> tuple[str, tuple[int, int, int]] | None:
    """A banner from the last two things that happened (None: nothing)."""
    return ("  ".join(texts[-2:]), colour) if texts else None


def _panel_rows(v: Verdict) -> list[tuple[int, str, float, str]]:
    return [(p.seat, p.kind, p.offset_ms, p.status) for p in v.presses]


#: A FocusX mode's state class.
F = TypeVar("F", bound=FocusXState, covariant=True)


@dataclass
class Chooser:
    """A person's choice in progress: ``stage`` "card" or "place"; indices into the lists."""

    seat: int
    turn: int
    stage: str = "card"
    card_i: int = 0
    place_i: int = 0
    since_ns: int = 0


class FocusXScene(GameScene[F]):
    """What the four FocusX modes share.  Subclasses draw the table.

    Args:
        x_rule: the FocusX rule (FX-3); None: ``[focusx] x_rule``.  A ``spec`` whose entry
            fixes it (the ``-x`` entries) turns it on whatever is given.
        spec: the registry entry played (the lobby game's, ``LobbyGame.start``); default the
            mode's plain entry (:attr:`plain_entry`).  A plain entry played with the FocusX
            rule on (``[focusx] x_rule = true``) is its ``-x`` twin's game: the scene's
            :attr:`spec` is that twin (its label, its records), as :func:`arcade.registry.resolve`
            gives it.
    """

    #: the registry name of the mode's entry without the FocusX rule (``focusx-classic``...)
    plain_entry: str
    places_cards = False          # ThinkFocus and 4Focus: the active seat chooses
    panel_title = N_("Race panel (ms after the table showed)")

    def __init__(self, app: Host, seats: list[SeatInfo], seed: int | None = None,
                 x_rule: bool | None = None, pace_s: float | None = None,
                 settings: dict[str, Any] | None = None, spec: registry.GameSpec | None = None) -> None:
        super().__init__(app, seats, seed)
        fx = app.cfg["focusx"]
        self.x_rule = fx["x_rule"] if x_rule is None else x_rule
        if spec is not None and spec.fixed.get("x_rule") is True:
            self.x_rule = True
        self.spec = registry.resolve(spec.name if spec is not None else self.plain_entry, x_rule=bool(self.x_rule))
        pace = pace_s if pace_s is not None else app.pace_override
        self.pace_ns = int((pace if pace is not None else fx["pace_s"]) * S)
        self.extra_settings = dict(settings or {})
        self.game = self.make_game(len(seats), {"x_rule": self.x_rule, **self._settings(fx)})
        self.state = self.initial_state(self.game, self.state_class())
        self.press_planner = PressPlanner(app)
        # The match driver plays chance, the races (opened at the flip, R-2; closed
        # pace_ns later when the race has no window of its own) and the seats it moves.
        self.driver: Driver = self.spec.driver(self.state, self.driver_seats(), self.rng,
                                               pace_ns=self.pace_ns, judge=app.cfg.judge_settings())
        self.planned_active_until = 0
        self.flash: tuple[tuple[int, ...], str, int] | None = None
        self.history: deque[PanelEntry] = deque(maxlen=3)
        self.seen_takes = 0
        self._takes_before = 0
        # choosing (ThinkFocus, 4Focus)
        self.turn_no = 0
        self.chooser: Chooser | None = None
        self.pending: tuple[int, int, Action] | None = None       # seat, turn, action
        self.shot_pending = ""

    @property
    def referee(self) -> Any:
        """The driver's referee (``arcade.core.referee.Referee``): the open window, stuck seats."""
        return self.driver.referee

    @referee.setter
    def referee(self, value: Any) -> None:
        self.driver.races.referee = value

    # -- the seats the driver moves ---------------------------------------------------
    def driver_seats(self) -> list[KioskSeat | None]:
        """One entry per seat: a :class:`KioskSeat` where the arcade moves (computer players,
        and stations without choose controls where the mode needs a choice), None where a
        person chooses with left/right/OK (the scene submits that move)."""
        out: list[KioskSeat | None] = []
        for seat, info in enumerate(self.seats):
            person_chooses = info.can_choose and not info.is_computer and self.people_choose
            presses = self.plan_presses if info.is_computer else None
            out.append(None if person_chooses else ArcadeSeat(self, seat, presses))
        return out

    #: people with choose controls choose their move (Classic: the spot; ThinkFocus, 4Focus: card
    #: and place); Duel has nothing to choose
    people_choose = True

    def arcade_thought(self, state: State, seat: int) -> Thought | None:
        """The seat's move begun in the thinking process (None: it is made here when due;
        the modes where the active seat places may think elsewhere, ``placing.py``)."""
        return None

    def arcade_choice(self, state: Any, seat: int) -> Action:
        """The arcade's move for a seat it moves: the default (the modes that place choose
        a placement, ``placing.py``)."""
        return state.default_action()  # type: ignore[no-any-return]

    def think_for(self, seat: int) -> int:
        """How long (ns) the arcade waits before it moves for ``seat``: nothing here (the
        modes that place pause to follow, ``placing.py``)."""
        return 0

    def plan_presses(self, seat: int, race: object, opened_ns: int) -> None:
        """A computer seat's presses for a race opened at ``opened_ns`` (the driver asks with
        the race's :class:`RaceSpec`)."""
        assert isinstance(race, RaceSpec), race
        for at in self.plan_seat_presses(seat, race, opened_ns):
            if seat == self.state.active:
                self.planned_active_until = max(self.planned_active_until, at + 400 * NS_PER_MS)

    def plan_seat_presses(self, seat: int, spec: RaceSpec, opened_ns: int) -> list[int]:
        """One computer seat's presses for the race ``spec`` opened at ``opened_ns``
        (:meth:`PressPlanner.plan`, from the scene's bot stream).  Returns the press times."""
        return self.press_planner.plan(self.bot_rng, seat, self.seat_infos()[seat], spec, opened_ns)

    # -- what subclasses provide -------------------------------------------------
    #: the mode's rules (``arcade.focusx``): a ``Game`` class taking ``(seats, settings)``
    game_class: type[Game]

    def make_game(self, seats: int, settings: dict[str, object]) -> Game:
        return self.game_class(seats, settings)

    def state_class(self) -> type[F]:
        """The mode's state class (``arcade.focusx``), the one :attr:`game_class` makes."""
        raise NotImplementedError

    def _settings(self, fx: dict[str, Any]) -> dict[str, Any]:
        """Mode settings from the scene's arguments, else the config's [focusx] keys, else the game's
        defaults (none here; the claim window where the active seat chooses, ``placing.py``;
        Duel's deadline)."""
        return {}

    def draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The mode's table in ``area`` (``draw.py``; drawn under the message strip's banner)."""

    def seat_lines(self, seat: int) -> tuple[str, str, list[str]]:
        """(big number, its label, small lines) for a seat panel."""
        return "", "", []

    #: what a take (``state.takes``: ``(how, seats, ...)``) says on the banner:
    #: ``how -> (text with {names} and {active}, colour: "seat" (the first seat's), "bad" or "" gold)``
    take_texts: dict[str, tuple[str, str]] = {}

    def describe_takes(self, takes: list[Any]) -> tuple[str, tuple[int, int, int]] | None:
        """The banner for new takes: the last two texts of :attr:`take_texts`, and their colour."""
        texts = []
        colour = render.GOLD
        active = f"P{self.state.active + 1}"
        for take in takes:
            how, seats = take[0], take[1]
            found = self.take_texts.get(how)
            if found is None:
                continue
            text, col = found
            texts.append(_(text).format(names=", ".join(f"P{s + 1}" for s in seats), active=active))
            if col == "seat":
                colour = render.SEAT_COLOURS[seats[0] % 8]
            elif col == "bad":
                colour = render.BAD
        return _joined(texts, colour)

    def led_default(self, w: int, h: int, now_ns: int) -> LedPicture:
        from arcade.lights import pictures as ledv
        return ledv.scores_picture(list(self.state.scores()), w, h)

    def takes(self) -> list[Any]:
        return list(getattr(self.state, "takes", []))

    # -- input -----------------------------------------------------------------
    #: A FocusX game nobody presses in is put away only after this long (ns): a player who is
    #: there presses only when they see a focus, and a table can go a long while without one
    #: (the explorer's long mode saw a Duel dropped after 20 s with its guest still playing).
    #: A game nobody is at ends by itself before it (7 minutes at most at the defaults).
    EMPTY_ROOM_NS = 10 * 60 * 1_000_000_000

    def empty_room_ns(self, turn_ns: int) -> int:
        """How long every person's seat may give no edge before the game counts as left by
        everyone (kiosk/players/away.py): :data:`EMPTY_ROOM_NS`, or twice ``turn_ns`` if longer."""
        return max(2 * turn_ns, self.EMPTY_ROOM_NS)

    def on_station(self, edge: Edge) -> None:
        if edge.control in ("buzzer", "x"):
            self.driver.feed(edge)
            if edge.pressed:
                self.app.sounds.play("press")
            return
        if edge.pressed:
            self.choose_control(edge)

    def choose_control(self, edge: Edge) -> None:
        """A left / right / OK press (the modes with a choice take it: Classic's spot, the
        card and place of ``placing.py``; Duel has none)."""

    # -- the loop: the driver plays, the scene shows -------------------------------------
    def advance(self, now_ns: int) -> None:
        st = self.state
        if st.is_terminal():
            self.finish(now_ns)
            return
        before = self._takes_before = len(self.takes())
        race_before = st.race_no
        moves = len(st.history)
        events = self.driver.tick(now_ns)
        for ev in events:
            self._on_event(ev, now_ns)
        self._window_ended_by_press(events, race_before, before)
        self._new_takes(now_ns)
        self._moved(moves)
        if st.is_terminal():
            return
        cp = st.current_player()
        if self.driver.players[st.active if cp < 0 else cp] is not None:
            return
        if cp >= 0:
            self.seat_turn(cp, now_ns)
        elif cp == RACE and self.places_cards and self._may_choose_now():
            self.seat_turn(st.active, now_ns)

    def _moved(self, moves: int) -> None:
        """After the driver's step: a card laid or dealt makes its sound, a seat's move ends its turn."""
        new = self.state.history[moves:]
        if any(actor == CHANCE or actor >= 0 for actor, _a in new):
            self.app.sounds.play("flip")
        if any(actor >= 0 for actor, _a in new):
            self.turn_no += 1
            self.chooser = None
            self.pending = None

    def seat_turn(self, seat: int, now_ns: int) -> None:
        """A person's turn (the driver waits for their move): Classic's spot, ThinkFocus /
        4Focus choose (``placing.py``)."""

    def submit(self, seat: int, action: Action) -> bool:
        """A person's move, through the driver; False if it was refused (nothing changed)."""
        try:
            moves = len(self.state.history)
            self.driver.submit(seat, action)
        except IllegalActionError:
            return False
        self._moved(moves)
        return True

    #: Classic: the seat choosing its spot and the spot under its cursor (None: nobody)
    choose_seat: int | None = None
    choose_spot = 0

    def _may_choose_now(self) -> bool:
        """The active seat may choose while the race is open (the modes that place: during its
        turn-start window, ``placing.py``)."""
        return False

    def cursor_place(self) -> Action | None:
        """The place the chooser points at (None: nobody chooses one; ``placing.py``)."""
        return None

    def frame_shown(self, t_ns: int) -> None:
        if self.shot_pending:
            self.app.screenshot(self.shot_pending)
            self.shot_pending = ""
        self.driver.frame_shown(t_ns)       # a race opens at this flip; the driver asks the computers

    def _on_event(self, ev: RefereeEvent, now: int) -> None:
        """One referee event (``self._takes_before``: the takes before this tick)."""
        names = ", ".join(f"P{s + 1}" for s in ev.seats)
        if ev.kind == "updated" and ev.verdict is not None and self.history:
            self.history[0].rows = self.panel_rows(ev.verdict)  # late presses join the list
            self.history[0].verdict = ev.verdict
            return
        if ev.kind == "false":
            self.banner = (self.false_text(names), render.BAD, now + 1_500_000_000)
            self.app.sounds.play("false")
        elif ev.kind == "penalty":
            self.banner = (self.penalty_text(names), render.BAD, now + 1_500_000_000)
            self.app.sounds.play("false")
        elif ev.kind == "stuck" and ev.seats:
            # In the game's own message strip, never over the title row (the race and the cards
            # left); the seat's panel says STUCK for as long as it is held.
            self.banner = (_("Buzzer stuck down: {names}. Ignored until released.").format(names=names), render.BAD,
                           now + 4_000_000_000)
            # and in the log, for the technician who reads the journal after the event
            logging.getLogger("focus-arcade").warning("buzzer stuck down: %s (ignored until released)", names)
        if ev.verdict is not None and ev.kind in ("won", "debated", "boxed", "last", "closed"):
            new = self.takes()[self._takes_before:]
            described = self.describe_race(ev, new)
            if described is None:
                if not ev.verdict.presses:
                    return
                described = (self.closed_text(ev), render.DIM)
                short = self.closed_short(ev)
            else:
                short = ""
            entry = PanelEntry(described[0], described[1], self.panel_rows(ev.verdict), kind=ev.kind,
                               verdict=ev.verdict, short=short)
            self.add_extra(entry, ev)
            self.history.appendleft(entry)
            if ev.kind != "closed":
                self.shot_pending = f"race-{self.state.race_no}"   # saved once the result is shown

    def _window_ended_by_press(self, events: list[RefereeEvent], race_before: int, takes_before: int) -> None:
        """R-7: a false or penalty press that changed the table ended its window without a
        verdict of its own (4Focus: an out-of-turn press opened a claim window; Duel: a
        penalty uncovered a focus): the window's presses still get their panel entry."""
        if self.state.race_no == race_before:
            return
        if any(ev.kind in ("won", "debated", "boxed", "last", "closed") for ev in events):
            return
        ev = next((e for e in reversed(events) if e.kind in ("false", "penalty") and e.verdict is not None), None)
        if ev is None or ev.verdict is None:
            return
        described = self.describe_takes(self.takes()[takes_before:])
        names = ", ".join(f"P{s + 1}" for s in ev.seats)
        title, colour = described if described is not None else (
            self.penalty_text(names) if ev.kind == "penalty" else _("False focus by {names}").format(names=names),
            render.BAD)
        short = self.penalty_short(names) if described is None and ev.kind == "penalty" else ""
        self.history.appendleft(PanelEntry(title, colour, self.panel_rows(ev.verdict), kind=ev.kind,
                                           verdict=ev.verdict, short=short))

    def panel_rows(self, v: Verdict) -> list[tuple[int, str, float, str]]:
        """The race panel's rows for a verdict: ``(seat, kind, ms, status)`` (R-7).  A mode
        renames a status where the judge's word would not say what was applied."""
        return _panel_rows(v)

    def penalty_text(self, names: str) -> str:
        return _("Out-of-turn press by {names}").format(names=names)

    def penalty_short(self, names: str) -> str:
        """:meth:`penalty_text` for a narrow race panel ("" = the same)."""
        return ""

    def false_text(self, names: str) -> str:
        return _("False focus by {names}!").format(names=names)

    def describe_race(self, ev: RefereeEvent, new_takes: list[Any]) -> tuple[str, tuple[int, int, int]] | None:
        """The race panel entry's title and colour for a race that ended (None: no title)."""
        return self.describe_takes(new_takes)

    def closed_text(self, ev: RefereeEvent) -> str:
        return _("no claim")

    def closed_short(self, ev: RefereeEvent) -> str:
        """:meth:`closed_text` for a narrow race panel ("" = the same)."""
        return ""

    def add_extra(self, entry: PanelEntry, ev: RefereeEvent) -> None: ...

    def _new_takes(self, now: int) -> None:
        takes = self.takes()
        if len(takes) <= self.seen_takes:
            self.seen_takes = len(takes)
            return
        new = takes[self.seen_takes:]
        self.seen_takes = len(takes)
        text = self.describe_takes(new)
        if text is not None:
            self.banner = (text[0], text[1], now + 1_800_000_000)
        self.flash_for(new, now)

    def flash_for(self, new: list[Any], now: int) -> None: ...

    # -- the end ---------------------------------------------------------------
    def again(self) -> GameScene[State]:
        return type(self)(self.app, self.seats, None, self.x_rule, self.pace_ns / S, self.extra_settings,
                          spec=self.spec)

    # -- what the screen shows --------------------------------------------------
    def status_text(self) -> str:
        """The title row's status, right of the race number ("cards left: 40")."""
        return ""

    def seat_tag(self, seat: int) -> tuple[str, tuple[int, int, int]] | None:
        """A word in colour on the seat's panel ("ACTIVE", "OUT this race"), or None."""
        return None

    #: the race panel's heading on the small screen when the full one needs more than two rows
    panel_short_title = N_("ms after the table showed")

    def strip_lines(self) -> list[tuple[str, int, tuple[int, int, int]]]:
        """What the left of the message strip shows: ``(text, size, colour)`` lines.  The
        banner never covers them (it is drawn to their right)."""
        label = panels.window_label(self.referee.window, self.now)
        return [] if label is None else [(label[0], 30, label[1])]

    def table_key(self) -> tuple[object, ...]:
        """What :meth:`draw_table` shows depends on (immutable values; render.Parts): the
        position (every change goes through ``apply``, so the length of its history), the
        chooser's cursor and the place it points at."""
        st = self.state
        ch = self.chooser
        chooser = None if ch is None else (ch.seat, ch.turn, ch.stage, ch.card_i, ch.place_i)
        return (id(st), len(st.history), chooser, self.choose_seat,
                self.choose_spot, self.cursor_place() if ch is not None else None)

    def seat_panels(self) -> tuple[SeatPanel, ...]:
        """What each seat's panel shows (equal panels are not drawn again: render.Parts)."""
        st = self.state
        over = st.is_terminal()
        stuck = set(self.referee.stuck)
        held = set(self.referee.held)
        active = st.active
        out = []
        for s, info in enumerate(self.seats):
            number, label, lines = self.seat_lines(s)
            out.append(SeatPanel(number, label, tuple(lines), active == s and not over, s in stuck, s in held,
                                 self.seat_tag(s), info.label))
        return tuple(out)

    def draw(self, surface: pygame.Surface) -> None:
        """The screen in parts (render.Parts), each drawn again only when what it shows
        changes: the title row, the countdown bar, the message strip, the table, the seats,
        the virtual LED matrix and the race panel."""
        W, H = surface.get_size()
        parts = self.parts
        if parts.begin(surface):
            surface.fill(render.BG)
        reg = self.regions = screen_regions(W, H)
        compact = reg.compact
        self.note_strip = reg.title               # an app note goes over the title row
        st = self.state
        status = _("game over") if st.is_terminal() else self.status_text()
        lang = i18n.current()           # a part's words change with the language
        parts.part(surface, "title", reg.title, (st.race_no, status, lang),
                   lambda: panels.title_row(surface, reg.title.w, _(self.title), st.race_no, status, compact))
        bar = panels.countdown_width(self.referee.window, self.now, reg.bar.w + 40)
        parts.part(surface, "bar", reg.bar, bar,
                   lambda: bar is not None and pygame.draw.rect(
                       surface, render.DIM, pygame.Rect(reg.bar.x, reg.bar.y, bar, reg.bar.h), border_radius=3))
        # The message strip (between the countdown bar and the table): the window's label
        # on the left, the banner to its right, so a banner never hides the table (#15).
        strip, area = reg.strip, reg.area
        lines = self.strip_lines()
        banner = self.banner[:2] if self.banner and self.now < self.banner[2] else None
        # One part: the table's marks reach up into the strip, and the banner is drawn over them.
        parts.part(surface, "table", pygame.Rect(0, strip.y, strip.w, area.bottom - strip.y),
                   (tuple(lines), banner, self.table_key(), lang),
                   lambda: panels.strip_and_table(surface, strip, lines, banner, area, compact, self.draw_table))
        # The part spans the table's width: a long seat label may run past its panel.
        seats = self.seat_panels()
        parts.part(surface, "seats", reg.seats_part, (seats, lang),
                   lambda: panels.seat_panels(surface, reg.seats, seats, compact))
        self._draw_side(surface, reg.side)

    #: the screen's regions at the last frame drawn (:func:`panels.screen_regions`; a TV's before any)
    regions: ScreenRegions = screen_regions(1280, 720)

    def _draw_side(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The virtual LED matrix with its status line, and the race panel below (two parts)."""
        y = area.y
        parts = self.parts
        compact = self.regions.compact
        if self.app.led.virtual is not None:
            size = min(area.w, int(area.h * 0.36))
            r = pygame.Rect(area.x + (area.w - size) // 2, y, size, size)
            picture = self.app.led.virtual_picture()
            status = self.app.led.status_text()
            parts.part(surface, "led", pygame.Rect(area.x, y, area.w, size + 26), (picture, status, i18n.current()),
                       lambda: panels.led_column(surface, r, picture, status, area, compact))
            y = r.bottom + 26
        panel = pygame.Rect(area.x, y + 6, area.w, area.bottom - y - 6)
        title, short = _(self.panel_title), _(self.panel_short_title)
        key = (title, tuple((e.title, e.colour, tuple(e.rows), tuple(e.extra)) for e in self.history), i18n.current())
        parts.part(surface, "panel", panel, key,
                   lambda: panels.race_panel(surface, panel, title, short, self.history, compact))

    def led_picture(self, now_ns: int) -> LedPicture | None:
        from arcade.lights import pictures as ledv
        cfg = self.app.cfg["led"]
        w, h = cfg["width"], cfg["height"]
        if self.flash is not None and now_ns - self.flash[2] < 1_200_000_000:
            seats, kind, t0 = self.flash
            phase = (now_ns - t0) / 1_200_000_000
            if len(seats) == 1:
                return ledv.flash_picture(seats[0], max(0.0, min(1.0, phase)), w, h)   # a frame stamped before t0: its start
            return ledv.tie_picture(seats, w, h)
        return self.led_default(w, h, now_ns)

