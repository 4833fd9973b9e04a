"""The FocusX screen: Classic, ThinkFocus, Duel and 4Focus (seed 001; FX-1..FX-12).

One scene, :class:`FocusXScene`, holds what the four modes share, and each
mode is a small subclass saying how its table looks and reads (Classic: the
four spots, R-1..R-8; ThinkFocus FX-9; Duel FX-10; 4Focus FX-11): the
referee fed with stamped edges, computer
players planned when a window opens (``arcade/bots/shout.py``, the same judge
as people), the race panel after every race (R-7; for Duel the whole
last-to-press order), the seat panels, the banner, the LED picture
(``arcade/views/pictures.py``), the results screen and the saved record.

Station controls:

* Duel needs only the buzzer (the active seat's card is revealed by itself).
* Classic: the active seat lays its card on a spot; a station with choose
  controls has ``CHOOSE_NS`` to pick one with left/right and OK (else the
  default spot).
* ThinkFocus and 4Focus need a choice: left/right over the hand and OK, then
  left/right over the legal places (rows; cells) and OK; the last entry
  "back" returns to the hand.  The chooser's cursor is drawn in the seat's
  colour.  The active seat may choose while its turn-start window is open;
  laying the card closes it.  A seat without choose controls (or a computer
  player) gets the placement of ``arcade/bots/focusx_place.py``.

A placement that can take more than a millisecond (:attr:`PlacingScene.worker_levels`:
4Focus from ``medium`` up, the arcade's own ``hard`` for a buzzer-only seat included;
ThinkFocus ``expert``) is worked out in the kiosk's thinking process
(:class:`kiosk.thinker.WorkerChoice`, issue 14) while the seat's pause shows; the others
are made here when due.  Each placement is seeded from the seat's own stream
(``place<seat>``) and the moves made, so the same game plays the same placements in either place, and a
dead or stuck process still gets the card laid (the same player, in this process).
"""

from __future__ import annotations

import logging
import random
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, NamedTuple, TypeVar

import pygame

from arcade import registry
from arcade.bots.focusx_place import choose_action
from arcade.bots.shout import COMMITTED_MS, ShoutSkill, plan_race, scaled
from arcade.bots.shout import skill as skill_named
from arcade.core.api import CHANCE, RACE, Action, Game, State
from arcade.core.driver import Driver, Thought
from arcade.core.errors import IllegalActionError
from arcade.core.events import Edge
from arcade.core.judge import NS_PER_MS, Verdict
from arcade.core.race import RaceSpec
from arcade.core.referee import HELD_TEXT, RefereeEvent
from arcade.focusx import fourfocus as ff
from arcade.focusx import thinkfocus as tf
from arcade.focusx.base import FocusXState
from arcade.focusx.classic import ClassicGame, ClassicState, Place
from arcade.focusx.duel import DuelGame, DuelState
from kiosk import render
from kiosk import thinker as thinker_mod
from kiosk.games.focusx import cards as fx_cards
from kiosk.games.focusx import draw as fx_draw
from kiosk.scenes.game import GameScene, KioskSeat
from kiosk.scenes.seats import SeatInfo, lobby_game

if TYPE_CHECKING:
    from kiosk.scene import Host, LedPicture

S = 1_000_000_000
TOP = 64                         # below the title row and the countdown bar
STRIP_H = 58                     # the message strip: the window's label (left), the banner (right)
CHOOSE_TIMEOUT_NS = 30 * S       # a person who has not chosen by then gets the arcade's choice
AUTO_LEVEL = "hard"              # the arcade's choice for a station without choose controls
CHOOSE_NS = 2_500_000_000        # Classic: a station with controls gets this long to choose a spot

#: What a take (``state.takes``: ``(how, seats, ...)``) says on each mode's banner:
#: ``how -> (text with {names} and {active}, colour: "seat" (the first seat's), "bad" or "" gold)``.
TAKE_TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "thinkfocus": {
        "row": ("{names} takes the row focus!", "seat"),
        "column": ("{names} takes the column focus!", "seat"),
        "shift": ("{names} takes the shift focus!", "seat"),
        "forgotten": ("{names}: a forgotten focus!", "seat"),
        "debated": ("Debated: {names} take one card each", ""),
        "boxed": ("4+ tied: the trio goes to the box", ""),
        "overruled": ("{names}: the row focus goes first", ""),
        "discard": ("{names} cannot lay a card: one to the box", ""),
    },
    "duel": {
        "last": ("{names} pressed last: takes the trio", "seat"),
        "tied-last": ("Tied last: {names} take their own card", ""),
        "tiebreak-won": ("{names} wins the tie-break focus!", "seat"),
        "tiebreak-debated": ("Tie-break debated: {names} take one card each", ""),
        "tiebreak-boxed": ("Tie-break: 4+ tied, the trio goes to the box", ""),
    },
    "4focus": {
        "won": ("{names}: 4FOCUS!", "seat"),
        "hint": ("{names} pressed out of turn: {active}, claim it now!", ""),
        "false": ("False claim by {names}: a card boxed, locked out", "bad"),
        "discard": ("{names} cannot lay a card: one to the box", ""),
        "pass": ("{names} cannot lay a card: passes", ""),
    },
}


#: Below either of these (px) the screen is a small panel (480x320, 640x480, 800x480): the
#: compact layout (:func:`screen_layout`); a TV (1280x720 and up) keeps the full one.
COMPACT_W, COMPACT_H = 1000, 600

#: Shorter wordings of the seat panels' labels and tags for the compact layout (the same
#: meaning; :func:`kiosk.render.text_best` takes the first that fits).
SHORT_WORDS: dict[str, tuple[str, ...]] = {
    "cards won": ("won",),
    "cards in hand": ("in hand",),
    "penalty cards": ("penalty",),
    "OUT this race": ("OUT",),
    "LOCKED: no claims": ("LOCKED",),
    "RELEASE your buzzer": ("RELEASE",),
}


class ScreenLayout(NamedTuple):
    """Where the parts of the FocusX screen go on a ``W`` x ``H`` window (pixel rects).

    ``compact`` (a window under :data:`COMPACT_W` x :data:`COMPACT_H`): a short title row
    across the whole width, the seat panels across the whole width at the bottom, the race
    panel beside the table between them, 24 px text.  The full layout (a TV) is the one the
    screen always had: the side column (LED matrix, race panel) the whole height.
    """
    compact: bool
    title: pygame.Rect          # the title row part (title left, race and status right)
    bar: pygame.Rect            # the countdown bar at its fullest
    strip: pygame.Rect          # the message strip: the window's label, the banner
    area: pygame.Rect           # the table
    seats: pygame.Rect          # the seat panels
    seats_part: pygame.Rect     # their part (a little larger)
    side: pygame.Rect           # the LED matrix and the race panel


def screen_layout(W: int, H: int) -> ScreenLayout:
    """The :class:`ScreenLayout` of a ``W`` x ``H`` window (a few additions: cheap per frame)."""
    if W >= COMPACT_W and H >= COMPACT_H:
        side = int(W * 0.27)
        table_w = W - side
        seat_h = int(H * 0.2)
        strip = pygame.Rect(0, TOP, table_w, STRIP_H)
        seats = pygame.Rect(10, H - seat_h - 6, table_w - 20, seat_h)
        return ScreenLayout(False, pygame.Rect(0, 0, table_w, 54), pygame.Rect(20, 54, table_w - 40, 6), strip,
                            pygame.Rect(0, strip.bottom, table_w, H - strip.bottom - seat_h - 10), seats,
                            pygame.Rect(0, seats.y, table_w, seat_h + 6), pygame.Rect(table_w, 10, side - 10, H - 20))
    side = max(int(W * 0.27), 150)
    table_w = W - side
    seat_h = max(80, int(H * 0.2))
    top = 36
    strip = pygame.Rect(0, top, table_w, 38)
    seats = pygame.Rect(4, H - seat_h - 4, W - 8, seat_h)
    part = pygame.Rect(0, seats.y, W, seat_h + 4)
    return ScreenLayout(True, pygame.Rect(0, 0, W, 30), pygame.Rect(20, 30, table_w - 40, 4), strip,
                        pygame.Rect(0, strip.bottom, table_w, part.y - strip.bottom - 4), seats, part,
                        pygame.Rect(table_w, top, side - 6, part.y - top - 4))


@dataclass
class PanelEntry:
    """One race in the race panel: a title and every press (R-7).

    ``kind`` is the referee event that ended the race ("won", "debated",
    "boxed", "last", "closed", "false", "penalty") and ``verdict`` the judge's
    verdict; ``kind, verdict = entry`` unpacks those two.
    """

    title: str
    colour: tuple[int, int, int]
    rows: list[tuple[int, str, float, str]] = field(default_factory=list)   # seat, kind, ms, status
    extra: list[str] = field(default_factory=list)
    kind: str = ""
    verdict: Verdict | None = None
    short: str = ""             # a shorter title for a narrow panel ("" = none)

    def __iter__(self) -> Iterator[str | Verdict | None]:
        return iter((self.kind, self.verdict))

    def __getitem__(self, i: int) -> str | Verdict | None:
        return (self.kind, self.verdict)[i]


@dataclass
class Chooser:
    """A person's choice in progress: ``stage`` "card" or "place"; indices into the lists."""

    seat: int
    turn: int
    stage: str = "card"
    card_i: int = 0
    place_i: int = 0
    since_ns: int = 0


def _joined(texts: list[str], colour: tuple[int, int, int]) -> tuple[str, tuple[int, int, int]] | None:
    """A banner from the last two things that happened (None: nothing)."""
    return ("  ".join(texts[-2:]), colour) if texts else None


def _panel_rows(v: Verdict) -> list[tuple[int, str, float, str]]:
    return [(p.seat, p.kind, p.offset_ms, p.status) for p in v.presses]


def computer_level(app: Host, info: SeatInfo) -> ShoutSkill:
    """The seat's skill with the ``[computer]`` miss and false-shout rate scales applied."""
    rates = app.cfg.data.get("computer", {})
    return scaled(skill_named(info.skill), rates.get("miss_rate_scale", 1.0), rates.get("false_rate_scale", 1.0))


#: A FocusX mode's state class; P: of a mode where the active seat places (ThinkFocus, 4Focus).
F = TypeVar("F", bound=FocusXState, covariant=True)
P = TypeVar("P", bound="tf.ThinkFocusState | ff.FourFocusState", covariant=True)


def placing(state: FocusXState) -> tf.ThinkFocusState | ff.FourFocusState:
    """``state`` of a mode where the active seat chooses a card and its place.

    Raises:
        AttributeError: another mode's state (it has no hands, windows or turn actions).
    """
    if not isinstance(state, (tf.ThinkFocusState, ff.FourFocusState)):
        raise AttributeError(f"{type(state).__name__} has no hands to place from")
    return state


class PlacingSeat(KioskSeat):
    """A seat the arcade moves for (:class:`kiosk.scenes.game.KioskSeat`) whose placement
    may be worked out in the thinking process (:meth:`FocusXScene.arcade_thought`)."""

    def __init__(self, scene: FocusXScene[FocusXState], seat: int,
                 presses: Callable[[int, object, int], None] | None) -> None:
        super().__init__(seat, scene.arcade_choice, scene.think_for, presses)
        self.scene = scene

    def begin(self, state: State, seat: int, rng: random.Random) -> Thought | None:
        return self.scene.arcade_thought(state, seat)


class FocusXScene(GameScene[F]):
    """What the four FocusX modes share.  Subclasses draw the table."""

    places_cards = False          # ThinkFocus and 4Focus: the active seat chooses
    panel_title = "Race panel (ms after the table showed)"

    def __init__(self, app: Host, seats: list[SeatInfo], seed: int | None = None,
                 x_rule: bool | None = None, pace_s: float | None = None,
                 settings: dict[str, Any] | None = None) -> None:
        super().__init__(app, seats, seed)
        fx = app.cfg["focusx"]
        self.x_rule = fx["x_rule"] if x_rule is None else x_rule
        pace = pace_s if pace_s is not None else app.pace_override
        self.pace_ns = int((pace if pace is not None else fx["pace_s"]) * S)
        self.extra_settings = dict(settings or {})
        self.game = self.make_game(len(seats), {"x_rule": self.x_rule, **self._settings(fx)})
        self.state = self.initial_state(self.game, self.state_class())
        self.spec = registry.of_state(self.state)
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
            out.append(None if person_chooses else PlacingSeat(self, seat, presses))
        return out

    #: placement levels worked out in the thinking process (those that may take over 1 ms)
    worker_levels: frozenset[str] = frozenset()
    #: False: every placement is made in this process (tests compare both ways)
    think_elsewhere = True

    def arcade_level(self, seat: int) -> str:
        """The placement level the arcade plays ``seat`` at: a computer's skill, else :data:`AUTO_LEVEL`."""
        info = self.seats[seat]
        return info.skill if info.is_computer else AUTO_LEVEL

    def _place_seed(self, state: State, seat: int) -> int:
        """The seed of ``seat``'s placement at ``state`` (its own stream, the moves made:
        :func:`kiosk.thinker.decision_seed`)."""
        seeds = self.__dict__.setdefault("_place_seeds", {})
        if seat not in seeds:
            seeds[seat] = int(self.stream(f"place{seat}").getrandbits(62))
        return thinker_mod.decision_seed(seeds[seat], state, seat)

    @property
    def placer(self) -> thinker_mod.WorkerChoice | None:
        """Who works out the placements that may take over 1 ms (None: none does, all here)."""
        if "_placer" not in self.__dict__:
            use = (self.places_cards and self.think_elsewhere
                   and any(self.arcade_level(s) in self.worker_levels for s in range(len(self.seats))))
            self.__dict__["_placer"] = thinker_mod.shared_choice("focusx-place", self.app.message, bool(use))
        placer: thinker_mod.WorkerChoice | None = self.__dict__["_placer"]
        return placer

    def arcade_thought(self, state: State, seat: int) -> Thought | None:
        """The seat's placement begun in the thinking process (None: it is made here when due)."""
        level = self.arcade_level(seat)
        placer = self.placer
        if not self.places_cards or placer is None or level not in self.worker_levels:
            return None
        return placer.begin(state, seat, level, self._place_seed(state, seat))

    #: people with choose controls choose their move (Classic: the spot; ThinkFocus, 4Focus: card
    #: and place); Duel has nothing to choose
    people_choose = True

    def arcade_choice(self, state: Any, seat: int) -> Action:
        """The arcade's move for a seat it moves: the mode's placement at the seat's skill
        (the arcade's own level for a person's buzzer-only station), else the default."""
        if not self.places_cards:
            return state.default_action()  # type: ignore[no-any-return]
        return thinker_mod.decide_here("focusx-place", state, seat, self.arcade_level(seat),
                                       self._place_seed(state, seat))

    def think_for(self, seat: int) -> int:
        """How long (ns) the arcade waits before it moves for ``seat``: nothing in Classic and
        Duel; in ThinkFocus and 4Focus a pause to follow (none if it already waited in the
        turn-start window: the driver then ends the window, ``early_move``), and never before
        the seat's own planned presses."""
        if not self.places_cards:
            return 0
        wait = self.choice_delay()
        if self.seats[seat].is_computer:
            wait = max(wait, self.planned_active_until - self.now)
        return wait

    def choice_delay(self) -> int:
        return int(min(max(self.pace_ns * 0.6, 0.4 * S), 2.5 * S))

    def plan_presses(self, seat: int, race: object, opened_ns: int) -> None:
        """A computer seat's presses for a race opened at ``opened_ns`` (the driver asks with
        the race's :class:`RaceSpec`)."""
        assert isinstance(race, RaceSpec), race
        for at in self.plan_seat_presses(seat, race, opened_ns):
            if seat == self.state.active:
                self.planned_active_until = max(self.planned_active_until, at + 400 * NS_PER_MS)

    def plan_seat_presses(self, seat: int, spec: RaceSpec, opened_ns: int) -> list[int]:
        """One computer seat's presses for the race ``spec`` opened at ``opened_ns`` (the
        first call of an opening drops the stale planned presses, ``COMMITTED_MS``), with its
        skill scaled by the ``[computer]`` rates.  Returns the press times."""
        if self._dropped_at != opened_ns:
            self._dropped_at = opened_ns
            self.app.computer.drop_planned(opened_ns + COMMITTED_MS * NS_PER_MS)
        out = []
        for p in plan_race(self.bot_rng, spec, seat, computer_level(self.app, self.seat_infos()[seat]),
                           involved=seat in spec.eligible):
            at = opened_ns + int(p.delay_ms * NS_PER_MS)
            self.app.computer.press(seat, at, p.control, p.double)
            out.append(at)
        return out

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
        defaults: the claim window where the active seat chooses (ThinkFocus, 4Focus)."""
        return self.claim_window(fx) if self.places_cards else {}

    def claim_window(self, fx: dict[str, Any]) -> dict[str, Any]:
        """``claim_window_s``: the scene's argument, else ``[focusx] claim_window_s``; in the demo
        (``--pace``) twice the pace, at least 1 s; else the game's default (FX-9, FX-11)."""
        cw = self.extra_settings.get("claim_window_s", fx.get("claim_window_s"))
        if cw is None and self.app.demo:
            cw = max(1.0, min(30.0, 2 * self.pace_ns / S))
        return {} if cw is None else {"claim_window_s": float(cw)}

    def table_rect(self, surface: pygame.Surface) -> pygame.Rect:
        W, H = surface.get_size()
        side = int(W * 0.27)
        return pygame.Rect(0, 64, W - side, H - 64 - int(H * 0.2) - 10)

    def draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None: ...

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
            texts.append(text.format(names=", ".join(f"P{s + 1}" for s in seats), active=active))
            if col == "seat":
                colour = render.SEAT_COLOURS[seats[0] % 8]
            elif col == "bad":
                colour = render.BAD
        return _joined(texts, colour)

    def led_default(self, w: int, h: int, now_ns: int) -> LedPicture:
        from arcade.views import pictures as ledv
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
        everyone (kiosk/away.py): :data:`EMPTY_ROOM_NS`, or twice ``turn_ns`` if longer."""
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
        """A left / right / OK press: the chooser's step if it is that seat's choice."""
        if self.chooser is not None and self.chooser.seat == edge.seat:
            self._choose_step(edge.control)

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
        """A person's turn (the driver waits for their move): ThinkFocus / 4Focus choose."""
        if self.places_cards:
            self._drive_turn(now_ns)

    def submit(self, seat: int, action: Action) -> bool:
        """A person's move, through the driver; False if it was refused (nothing changed)."""
        try:
            moves = len(self.state.history)
            self.driver.submit(seat, action)
        except IllegalActionError:
            return False
        self._moved(moves)
        return True

    #: the opening whose stale planned presses were dropped last (ns)
    _dropped_at: int | None = None
    #: Classic: the seat choosing its spot and the spot under its cursor (None: nobody)
    choose_seat: int | None = None
    choose_spot = 0

    def _may_choose_now(self) -> bool:
        """The active seat may choose during its turn-start window (and a hint window before it)."""
        st = placing(self.state)
        return st.window == "turn" or (st.window == "hint" and getattr(st, "hint_then", "") == "turn")

    def frame_shown(self, t_ns: int) -> None:
        if self.shot_pending:
            self.app.screenshot(self.shot_pending)
            self.shot_pending = ""
        self.driver.frame_shown(t_ns)       # a race opens at this flip; the driver asks the computers

    # -- choosing a placement (ThinkFocus, 4Focus) --------------------------------
    def options(self, seat: int) -> list[Action]:
        return list(placing(self.state).turn_actions(seat))

    def place_options(self, seat: int, card: int) -> list[Action]:
        return [a for a in self.options(seat) if getattr(a, "card", None) == card]

    def _drive_turn(self, now: int) -> None:
        """A person choosing card and place; the choice is submitted at the seat's turn."""
        st = self.state
        seat = st.active
        if self.pending is not None:
            pseat, turn, action = self.pending
            if pseat != seat or turn != self.turn_no:
                self.pending = None
            elif self.driver.held(seat):
                return                                   # the driver ends the window and lays it
            elif st.current_player() == seat or self.driver.early_seat() == seat:
                if self.submit(seat, action) and (self.driver.held(seat) or self.pending is None):
                    return
                self.pending = None                      # refused (nothing changed): choose again
            else:
                return
        if self.chooser is None or self.chooser.seat != seat or self.chooser.turn != self.turn_no:
            self.chooser = Chooser(seat, self.turn_no, since_ns=now)
        opts = self.options(seat)
        if opts and not any(hasattr(a, "card") for a in opts):          # a pass: nothing to choose
            self.pending = (seat, self.turn_no, opts[0])
        elif now - self.chooser.since_ns > CHOOSE_TIMEOUT_NS:
            self.pending = (seat, self.turn_no, choose_action(st, seat, self.bot_rng, AUTO_LEVEL))
            self.app.message(f"P{seat + 1} took too long: the arcade laid a card for them.", 6)

    def _hand(self, seat: int) -> list[int]:
        return list(placing(self.state).hands[seat])

    def _choose_step(self, control: str) -> None:
        ch = self.chooser
        st = self.state
        if ch is None or self.pending is not None or st.is_terminal():
            return
        hand = self._hand(ch.seat)
        if not hand:
            return
        ch.card_i %= len(hand)
        if ch.stage == "card":
            if control in ("left", "right"):
                ch.card_i = (ch.card_i + (1 if control == "right" else -1)) % len(hand)
            elif control == "ok":
                card = hand[ch.card_i]
                places = self.place_options(ch.seat, card)
                if places and all(type(a).__name__ == "Discard" for a in places):
                    self.pending = (ch.seat, ch.turn, places[0])        # no card can be laid: box this one
                elif places:
                    ch.stage, ch.place_i = "place", 0
                else:
                    self.banner = (f"P{ch.seat + 1}: that card fits nowhere, choose another",
                                   render.BAD, self.now + 1_500_000_000)
            return
        card = hand[ch.card_i]
        places = self.place_options(ch.seat, card)
        n = len(places) + 1                                             # + "back"
        if control in ("left", "right"):
            ch.place_i = (ch.place_i + (1 if control == "right" else -1)) % n
        elif control == "ok":
            if ch.place_i >= len(places):
                ch.stage = "card"
            else:
                self.pending = (ch.seat, ch.turn, places[ch.place_i])

    def cursor_place(self) -> Action | None:
        """The place the chooser points at (None: on the hand or on "back")."""
        ch = self.chooser
        if ch is None or ch.stage != "place":
            return None
        hand = self._hand(ch.seat)
        if not hand:
            return None
        places = self.place_options(ch.seat, hand[ch.card_i % len(hand)])
        return places[ch.place_i] if ch.place_i < len(places) else None

    # -- events ----------------------------------------------------------------
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
            self.banner = (f"Buzzer stuck down: {names}. Ignored until released.", render.BAD,
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
            entry = PanelEntry(described[0], described[1], self.panel_rows(ev.verdict), kind=ev.kind,
                               verdict=ev.verdict)
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
            self.penalty_text(names) if ev.kind == "penalty" else f"False focus by {names}", render.BAD)
        short = self.penalty_short(names) if described is None and ev.kind == "penalty" else ""
        self.history.appendleft(PanelEntry(title, colour, self.panel_rows(ev.verdict), kind=ev.kind,
                                           verdict=ev.verdict, short=short))

    def panel_rows(self, v: Verdict) -> list[tuple[int, str, float, str]]:
        """The race panel's rows for a verdict: ``(seat, kind, ms, status)`` (R-7).  A mode
        renames a status where the judge's word would not say what was applied."""
        return _panel_rows(v)

    def penalty_text(self, names: str) -> str:
        return f"Out-of-turn press by {names}"

    def penalty_short(self, names: str) -> str:
        """:meth:`penalty_text` for a narrow race panel ("" = the same)."""
        return ""

    def false_text(self, names: str) -> str:
        return f"False focus by {names}!"

    def describe_race(self, ev: RefereeEvent, new_takes: list[Any]) -> tuple[str, tuple[int, int, int]] | None:
        """The race panel entry's title and colour for a race that ended (None: no title)."""
        return self.describe_takes(new_takes)

    def closed_text(self, ev: RefereeEvent) -> str:
        return "no claim"

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
        return type(self)(self.app, self.seats, None, self.x_rule, self.pace_ns / S, self.extra_settings)

    # -- drawing ---------------------------------------------------------------
    def status_text(self) -> str:
        return f"deck {len(placing(self.state).deck)}"

    def window_label(self) -> tuple[str, tuple[int, int, int]] | None:
        """The open window's label and time left ("turn start: 3.2 s"), for the message strip."""
        w = self.referee.window
        if w is None or w.opened_ns is None or w.spec.window_ms is None:
            return None
        end = w.opened_ns + w.spec.window_ms * NS_PER_MS
        if self.now >= end:
            return None
        return f"{w.spec.label}: {max(0.0, (end - self.now) / S):.1f} s", render.GOLD

    def strip_lines(self) -> list[tuple[str, int, tuple[int, int, int]]]:
        """What the left of the message strip shows: ``(text, size, colour)`` lines.  The
        banner never covers them (it is drawn to their right)."""
        label = self.window_label()
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

    def seats_key(self) -> tuple[object, ...]:
        """What :meth:`_draw_seats` shows depends on (render.Parts)."""
        st = self.state
        over = st.is_terminal()
        stuck = set(self.referee.stuck)
        held = set(self.referee.held)
        active = st.active
        return tuple((self.seat_lines(s), active == s and not over, s in stuck, s in held, self.seat_tag(s),
                      info.label) for s, info in enumerate(self.seats))

    def _bar_width(self, table_w: int) -> int | None:
        """The countdown bar's width (px) under the title row, None without one."""
        w = self.referee.window
        if w is None or w.opened_ns is None:
            return None
        end = None
        if w.spec.window_ms is not None:
            end = w.opened_ns + w.spec.window_ms * NS_PER_MS
        elif w.spec.mode == "last" and w.spec.eligible:
            end = w.opened_ns + (w.spec.deadline_ms or 3000) * NS_PER_MS
        elif w.close_at_ns is not None:
            end = w.close_at_ns
        if end is None:
            return None
        frac = max(0.0, min(1.0, 1 - (self.now - w.opened_ns) / max(1, end - w.opened_ns)))
        return int((table_w - 40) * frac)

    def draw(self, surface: pygame.Surface) -> None:
        """The screen in parts (render.Parts), each drawn again only when what it shows
        changes: the title row, the countdown bar, the message strip, the table, the seats,
        the virtual LED matrix and the race panel."""
        W, H = surface.get_size()
        parts = self.parts
        if parts.begin(surface):
            surface.fill(render.BG)
        lay = self.layout = screen_layout(W, H)
        self.note_strip = lay.title               # an app note goes over the title row
        st = self.state
        status = "game over" if st.is_terminal() else self.status_text()
        parts.part(surface, "title", lay.title, (st.race_no, status),
                   lambda: self._draw_title(surface, lay.title.w, status))
        bar = self._bar_width(lay.bar.w + 40)
        parts.part(surface, "bar", lay.bar, bar,
                   lambda: bar is not None and pygame.draw.rect(
                       surface, render.DIM, pygame.Rect(lay.bar.x, lay.bar.y, bar, lay.bar.h), border_radius=3))
        # The message strip (between the countdown bar and the table): the window's label
        # on the left, the banner to its right, so a banner never hides the table (#15).
        strip, area = lay.strip, lay.area
        lines = self.strip_lines()
        banner = self.banner[:2] if self.banner and self.now < self.banner[2] else None
        # One part: the table's marks reach up into the strip, and the banner is drawn over them.
        parts.part(surface, "table", pygame.Rect(0, strip.y, strip.w, area.bottom - strip.y),
                   (tuple(lines), banner, self.table_key()),
                   lambda: self._draw_strip_and_table(surface, strip, lines, banner, area))
        # The part spans the table's width: a long seat label may run past its panel.
        parts.part(surface, "seats", lay.seats_part, self.seats_key(),
                   lambda: self._draw_seats(surface, lay.seats))
        self._draw_side(surface, lay.side)

    #: the layout of the last frame drawn (:func:`screen_layout`; the full one before any)
    layout: ScreenLayout = screen_layout(1280, 720)

    def _draw_title(self, surface: pygame.Surface, table_w: int, status: str) -> None:
        if self.layout.compact:
            # Race and status at the right, the title in the rest of the row: the registry's
            # label, else without its "FocusX " family name, else squeezed a little.
            right = render.text_best(surface, [f"race {self.state.race_no}  |  {status}",
                                               f"race {self.state.race_no} | {status}"],
                                     (table_w - 10, 6), table_w // 2, (24,), render.DIM, "topright")
            title = self.title
            wordings = [title] + ([title[len("FocusX "):]] if title.startswith("FocusX ") else [])
            render.text_best(surface, wordings, (10, 4), right.x - 24, (30, 28, 26, 24), render.TEXT, bold=True)
            return
        render.text(surface, self.title, (20, 12), 40, render.TEXT, bold=True)   # the registry's label
        render.text(surface, f"race {self.state.race_no}  |  {status}", (table_w - 20, 16), 30, render.DIM,
                    "topright")

    def _draw_strip_and_table(self, surface: pygame.Surface, strip: pygame.Rect,
                              lines: list[tuple[str, int, tuple[int, int, int]]],
                              banner: tuple[str, tuple[int, int, int]] | None, area: pygame.Rect) -> None:
        compact = self.layout.compact
        left = strip.x + (10 if compact else 20)
        y = strip.y + (1 if compact else 2)
        later: list[tuple[str, tuple[int, int], tuple[int, int, int]]] = []
        for msg, size, col in lines:
            if compact:                 # 24 px lines, the label squeezed a little at most
                # each line from the strip's left edge (``left`` is where the banner may start);
                # drawn after the banner's place is known: a banner drawn over them hides them
                f = render.font(render.MIN_TEXT_PX, True)
                later.append((msg, (strip.x + 10, y), col))
                left = max(left, strip.x + 10 + min(f.size(render.plain(msg))[0], strip.w - 20) + 16)
                y = y + f.get_height() + 1
                continue
            r = render.text_within(surface, msg, (strip.x + 20, y), strip.w - 30, size, col, bold=True)
            left = max(left, r.right + 24)
            y = r.bottom + 2
        self.draw_table(surface, area)
        over = banner is not None and compact and self._draw_banner_compact(surface, strip, left, y, banner)
        if not over:
            for msg, pos, col in later:
                render.text_within(surface, msg, pos, strip.w - 20, render.MIN_TEXT_PX, col, bold=True)
        if banner is not None and not compact:
            msg, col = banner
            room = pygame.Rect(left, strip.y, strip.right - 10 - left, strip.h)
            size = render.fit_size(msg, room.w - 36, (56, 48, 42, 36, 32, 28), bold=True)
            img = render.font(size, True).render(msg, True, (20, 20, 20))
            if img.get_width() > room.w - 36:
                img = pygame.transform.smoothscale(
                    img, (room.w - 36, max(8, img.get_height() * (room.w - 36) // img.get_width())))
            rect = img.get_rect(center=room.center)
            if room.w >= img.get_width() + 36 and rect.x - 18 < room.x:
                rect.x = room.x + 18
            box = rect.inflate(36, 10)
            box.clamp_ip(strip)
            pygame.draw.rect(surface, col, box, border_radius=14)
            surface.blit(img, rect)

    def _draw_banner_compact(self, surface: pygame.Surface, strip: pygame.Rect, left: int, below: int,
                             banner: tuple[str, tuple[int, int, int]]) -> bool:
        """The banner in the small layout's strip, right of its lines (they end at x ``left``,
        y ``below``): one line of 28..24 px, else two lines of 24 px; else on the row under
        the lines (one line of 24 px: the chooser's hint stays in view); else over them (for
        the banner's second or two: the countdown bar still runs).  True when it is drawn
        over them (the caller then leaves them out)."""
        msg, col = banner
        b24 = render.font(render.MIN_TEXT_PX, True)
        beside = strip.right - 10 - left - 16
        two = render.wrap_even(msg, max(1, beside), render.MIN_TEXT_PX, 2, bold=True)
        if beside < 48 or any(b24.size(line)[0] * render.MIN_KEPT > beside for line in two):
            row = pygame.Rect(strip.x + 10, below, strip.w - 20, strip.bottom - below)
            if left > strip.x + 10 and row.h >= b24.get_height() and b24.size(msg)[0] * render.MIN_KEPT <= row.w - 16:
                w = min(row.w - 16, b24.size(msg)[0])
                box = pygame.Rect(row.x, row.y, w + 16, row.h)
                pygame.draw.rect(surface, col, box, border_radius=8)
                render.text_within(surface, msg, (box.centerx, box.y + (box.h - b24.get_height()) // 2), w,
                                   render.MIN_TEXT_PX, (20, 20, 20), "midtop", bold=True)
                return False
            over = left > strip.x + 10
            left = strip.x + 10
        else:
            over = False
        room = pygame.Rect(left, strip.y, strip.right - 10 - left, strip.h)
        inner = room.w - 16
        size = render.fit_size(msg, inner, (28, 26, 24), bold=True)
        f = render.font(size, True)
        lines = [msg] if f.size(msg)[0] <= inner else render.wrap_even(msg, inner, render.MIN_TEXT_PX, 2, bold=True)
        if len(lines) > 1:
            f = render.font(render.MIN_TEXT_PX, True)
        w = min(inner, max(f.size(line)[0] for line in lines))
        h = f.get_linesize() * len(lines)
        box = pygame.Rect(0, 0, w + 16, min(strip.h, h + 4))
        box.center = room.center
        box.x = room.x if len(lines) > 1 else box.x
        box.clamp_ip(strip)
        pygame.draw.rect(surface, col, box, border_radius=10)
        render.text_lines(surface, msg, (box.centerx, box.y + (box.h - h) // 2), inner, len(lines),
                          size if len(lines) == 1 else render.MIN_TEXT_PX, (20, 20, 20), "midtop", bold=True)
        return over

    def seat_tag(self, seat: int) -> tuple[str, tuple[int, int, int]] | None:
        return None

    def _draw_seats(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        if self.layout.compact:
            self._draw_seats_compact(surface, area)
            return
        st = self.state
        n = len(self.seats)
        w = area.w // n
        stuck = set(self.referee.stuck)
        held = set(self.referee.held)
        for s, info in enumerate(self.seats):
            r = pygame.Rect(area.x + s * w + 4, area.y, w - 8, area.h)
            col = render.SEAT_COLOURS[s % 8]
            active = st.active == s and not st.is_terminal()
            render.panel(surface, r, render.PANEL, col if active else None, 5)
            pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, r.w, 10),
                             border_top_left_radius=12, border_top_right_radius=12)
            render.text(surface, f"P{s + 1}", (r.x + 10, r.y + 14), 42, col, bold=True)
            big, label, lines = self.seat_lines(s)
            render.text(surface, big, (r.right - 10, r.y + 10), 58, render.TEXT, "topright", bold=True)
            yy = r.y + 80
            if render.font(20).size(label)[0] <= r.w - 20:
                render.text(surface, label, (r.right - 10, r.y + 58), 20, render.DIM, "topright")
            else:                       # 8 seats at 1280x720: the label on two lines, never cut
                yy = render.text_fit(surface, label, (r.centerx, r.y + 56), r.w - 12, 24, 24, render.DIM).bottom + 2
            if r.w >= 230:
                room = r.w - 34 - render.font(20).size(label)[0]
                size = render.fit_size(info.label, room, (20, 18, 16, 15))
                shown = info.label
                while len(shown) > 4 and render.font(size).size(shown)[0] > room:
                    shown = shown[:-3] + ".."
                render.text(surface, shown, (r.x + 10, r.y + 52), size, render.DIM)
            tag = self.seat_tag(s)
            if tag is not None:
                render.text(surface, tag[0], (r.x + 10, yy), 24, tag[1], bold=True)
                yy += 24
            for line in lines:
                if yy > r.bottom - 20:
                    break
                render.text(surface, line, (r.x + 10, yy), 22, render.DIM)
                yy += render.font(22).get_linesize()
            if s in stuck:
                render.text(surface, "STUCK", (r.right - 10, r.bottom - 26), 26, render.BAD, "topright", bold=True)
            elif s in held:                     # FXA-39: held since before the race opened
                # a narrow panel (4Focus's many seats on a TV) takes the short wording
                render.text_best(surface, (HELD_TEXT,) + SHORT_WORDS.get(HELD_TEXT, ()), (r.right - 10, r.bottom - 26),
                                 r.w - 20, (24,), render.GOLD, "topright", bold=True)

    def _draw_seats_compact(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The seat panels of the small layout: "P1" and the big number on the first row, then
        24 px rows as they fit, by importance: the tag (whose turn; wrapped onto two rows if
        there is room), STUCK / RELEASE (R-8, FXA-39), the number's label, the small lines
        (dropped first: a pile or hand count the table also shows)."""
        st = self.state
        n = len(self.seats)
        w = area.w // n
        stuck = set(self.referee.stuck)
        held = set(self.referee.held)
        step = render.font(render.MIN_TEXT_PX).get_linesize()
        for s, info in enumerate(self.seats):
            r = pygame.Rect(area.x + s * w + 2, area.y, w - 4, area.h)
            col = render.SEAT_COLOURS[s % 8]
            active = st.active == s and not st.is_terminal()
            render.panel(surface, r, render.PANEL, col if active else None, 3)
            pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, r.w, 5),
                             border_top_left_radius=12, border_top_right_radius=12)
            inner = r.w - 10
            big, label, lines = self.seat_lines(s)
            head = 40 if r.w >= 150 and r.h >= 96 else 30 if r.w >= 100 else 26     # as the panel allows
            name = render.text(surface, f"P{s + 1}", (r.x + 5, r.y + 7), head, col, bold=True)
            render.text_best(surface, [big], (r.right - 5, r.y + 7), max(1, r.right - 5 - name.right - 4),
                             (head, 24), render.TEXT, "topright", bold=True)
            rows = max(0, (r.bottom - 3 - name.bottom - 1) // step)
            tag = self.seat_tag(s)
            flag = (("STUCK", render.BAD) if s in stuck else (HELD_TEXT, render.GOLD) if s in held else None)
            tag_rows = 0
            if tag is not None and rows:
                fits = render.font(render.MIN_TEXT_PX, True).size(tag[0])[0] <= inner
                tag_rows = 1 if fits or " " not in tag[0] or rows - (flag is not None) < 2 else 2
            left = rows - tag_rows - (flag is not None)
            show_label = bool(label) and left >= 1
            small = lines[:max(0, left - show_label)]
            y = name.bottom + 1
            if show_label:
                drawn = render.text_best(surface, (label,) + SHORT_WORDS.get(label, ()), (r.right - 5, y), inner,
                                         (render.MIN_TEXT_PX,), render.DIM, "topright")
                if render.font(render.MIN_TEXT_PX).size(info.label)[0] <= drawn.x - 12 - r.x - 5:
                    render.text(surface, info.label, (r.x + 5, y), render.MIN_TEXT_PX, render.DIM)   # a wide panel
                y += step
            if tag is not None and tag_rows:
                words = (tag[0],) + SHORT_WORDS.get(tag[0], ())
                if tag_rows == 1:
                    render.text_best(surface, words, (r.x + 5, y), inner, (render.MIN_TEXT_PX,), tag[1], bold=True)
                else:
                    render.text_lines(surface, tag[0], (r.x + 5, y), inner, 2, render.MIN_TEXT_PX, tag[1], bold=True)
                y += step * tag_rows
            for line in small:
                render.text_within(surface, line, (r.x + 5, y), inner, render.MIN_TEXT_PX, render.DIM)
                y += step
            if flag is not None and rows:
                render.text_best(surface, (flag[0],) + SHORT_WORDS.get(flag[0], ()), (r.right - 5, y), inner,
                                 (render.MIN_TEXT_PX,), flag[1], "topright", bold=True)

    def _draw_side(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The virtual LED matrix with its status line, and the race panel below (two parts)."""
        y = area.y
        parts = self.parts
        if self.app.led.virtual is not None:
            size = min(area.w, int(area.h * 0.36))
            r = pygame.Rect(area.x + (area.w - size) // 2, y, size, size)
            picture = self.app.led.virtual_picture()
            status = self.app.led.status_text()
            parts.part(surface, "led", pygame.Rect(area.x, y, area.w, size + 26), (picture, status),
                       lambda: self._draw_led(surface, r, picture, status, area))
            y = r.bottom + 26
        panel = pygame.Rect(area.x, y + 6, area.w, area.bottom - y - 6)
        key = (self.panel_title, tuple((e.title, e.colour, tuple(e.rows), tuple(e.extra)) for e in self.history))
        parts.part(surface, "panel", panel, key, lambda: self._draw_panel(surface, panel))

    def _draw_led(self, surface: pygame.Surface, r: pygame.Rect, picture: Any, status: str,
                  column: pygame.Rect) -> None:
        render.led_matrix(surface, r, picture)
        # The status line narrowed to the side column when longer (it ran over the table).
        room = 2 * min(r.centerx - column.x, column.right - r.centerx)
        if self.layout.compact:
            # 24 px: the line with the link's state, else the state alone, else (a long state
            # on a narrow column) only what this is: the race panel below needs the rows.
            render.text_best(surface, [f"virtual LED matrix  {status}", status, "virtual LED matrix"],
                             (r.centerx, r.bottom + 4), room, (render.MIN_TEXT_PX,), render.DIM, "midtop")
            return
        render.text_within(surface, f"virtual LED matrix  {status}", (r.centerx, r.bottom + 4), room, 20,
                           render.DIM, "midtop")

    #: the race panel's heading on the small layout when the full one needs more than two rows
    panel_short_title = "ms after the table showed"

    def _draw_panel_compact(self, surface: pygame.Surface, panel: pygame.Rect) -> None:
        """The race panel of the small layout (R-7: every press of the last races): 24 px rows,
        the heading and the titles wrapped onto two rows, the offsets without " ms" (the
        heading says so) and a status that does not fit beside them on a row of its own."""
        render.panel(surface, panel)
        size = render.MIN_TEXT_PX
        step = render.font(size).get_linesize()
        inner = panel.w - 16
        x = panel.x + 8
        title = self.panel_title
        if len(render.wrap(title, inner, size, 3)) > 2 or any(
                render.font(size).size(line)[0] > inner for line in render.wrap(title, inner, size, 2)):
            title = self.panel_short_title
        yy = render.text_lines(surface, title, (x, panel.y + 6), inner, 2, size, render.DIM).bottom + 4
        if not self.history:
            render.text_lines(surface, "every press is shown here", (x, yy), inner, 2, size, render.DIM)
        for idx, entry in enumerate(self.history):
            if yy > panel.bottom - 2 * step:
                break
            colour = entry.colour if idx == 0 else render.DIM
            rows = 2 if yy + 3 * step <= panel.bottom else 1
            if rows == 1 and render.font(size, idx == 0).size(entry.title)[0] * render.MIN_KEPT > inner:
                break                         # an older race whose title needs two rows gives way
            text = entry.title
            if entry.short and (len(render.wrap(text, inner, size, rows + 1, idx == 0)) > rows or any(
                    render.font(size, idx == 0).size(line)[0] > inner
                    for line in render.wrap(text, inner, size, rows, idx == 0))):
                text = entry.short                # a narrow panel: the short title, whole
            yy = render.text_lines(surface, text, (x, yy), inner, rows, size, colour, bold=idx == 0).bottom + 1
            for seat, kind, ms, status in entry.rows[:8]:
                if yy > panel.bottom - step - 2:
                    break
                col = render.SEAT_COLOURS[seat % 8] if idx == 0 else render.DIM
                name = f"P{seat + 1}{' X' if kind == 'focus-ex' else ''}"
                at_right = max(x + render.font(size, idx == 0).size(name)[0] + 6, x + 30) + \
                    render.font(size).size(f"{ms:.1f}")[0]
                beside = render.font(size).size(status)[0] * render.MIN_KEPT <= panel.right - 8 - at_right - 6
                if not beside and yy + 2 * step > panel.bottom:
                    break                     # no row left for its status readable: the press gives way
                who = render.text(surface, name, (x, yy), size, col, bold=idx == 0)
                at = render.text(surface, f"{ms:.1f}", (max(who.right + 6, x + 30), yy), size, render.TEXT)
                scol = render.BAD if status in ("false", "penalty", "last") else render.DIM
                room = panel.right - 8 - at.right - 6
                if not beside:
                    yy += step                                   # the status on its own row
                    room = inner - 8
                render.text_within(surface, status, (panel.right - 8, yy), room, size, scol, "topright")
                yy += step
            for line in entry.extra[:3]:
                if yy > panel.bottom - step - 2:
                    break
                rows = 2 if yy + 2 * step <= panel.bottom else 1
                if rows == 1 and render.font(size).size(line)[0] * render.MIN_KEPT > inner:
                    break                       # no room left for it readable (the banner said it)
                yy = render.text_lines(surface, line, (x, yy), inner, rows, size, render.DIM).bottom + 1
            yy += 4

    def _draw_panel(self, surface: pygame.Surface, panel: pygame.Rect) -> None:
        if self.layout.compact:
            self._draw_panel_compact(surface, panel)
            return
        render.panel(surface, panel)
        render.text(surface, self.panel_title, (panel.x + 10, panel.y + 8), 22, render.DIM)
        yy = panel.y + 34
        if not self.history:
            render.text(surface, "every press is shown here", (panel.x + 10, yy), 24, render.DIM)
        for idx, entry in enumerate(self.history):
            if yy > panel.bottom - 30:
                break
            head = 24 if idx == 0 else 21
            # The whole title, on a second row when it needs one ("no winner: first press at
            # 1184.9 ms" was cut to 34 characters, "... 1184.9 m").
            for line in render.wrap(entry.title, panel.w - 20, head, 2, bold=idx == 0):
                render.text_within(surface, line, (panel.x + 10, yy), panel.w - 20, head,
                                   entry.colour if idx == 0 else render.DIM, bold=idx == 0)
                yy += head + 2
            for seat, kind, ms, status in entry.rows[:8]:
                if yy > panel.bottom - 24:
                    break
                col = render.SEAT_COLOURS[seat % 8] if idx == 0 else render.DIM
                size = 24 if idx == 0 else 20
                render.text(surface, f"P{seat + 1}{' X' if kind == 'focus-ex' else ''}", (panel.x + 16, yy), size,
                            col, bold=idx == 0)
                render.text(surface, f"{ms:.1f} ms", (panel.x + 78, yy), size, render.TEXT)
                render.text(surface, status, (panel.right - 10, yy), size - 2,
                            render.BAD if status in ("false", "penalty", "last") else render.DIM, "topright")
                yy += size + 1
            for line in entry.extra[:3]:
                if yy > panel.bottom - 22:
                    break
                render.text(surface, line, (panel.x + 16, yy), 20, render.DIM)
                yy += 21
            yy += 8

    def draw_hand(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """The active seat's hand with the chooser's cursor (FXA-18: the shared screen shows it)."""
        st = self.state
        if st.is_terminal():
            return
        seat = st.active
        col = render.SEAT_COLOURS[seat % 8]
        hand = self._hand(seat)
        ch = self.chooser if self.chooser is not None and self.chooser.seat == seat else None
        info = self.seats[seat]
        who = "computer" if info.is_computer else ("choose: left/right, OK" if info.can_choose
                                                     else "no choose controls: the arcade lays for you")
        if self.layout.compact:
            self._draw_hand_compact(surface, rect, seat, hand, ch, who)
            return
        render.text(surface, f"P{seat + 1}'s hand", (rect.x + 8, rect.y), 30, col, bold=True)
        short = "computer" if info.is_computer else ("left/right, OK" if info.can_choose else "the arcade lays for you")
        render.text_best(surface, (who, short), (rect.x + 8, rect.y + 28), rect.w - 16, (20,), render.DIM)
        if not hand:
            render.text(surface, "no cards", (rect.x + 8, rect.y + 56), 26, render.DIM)
            return
        ch_h = rect.h - 60
        cw = int(min(ch_h / 1.4, (rect.w - 20) / max(3, len(hand)) - 12))
        chh = int(cw * 1.4)
        x = rect.x + 10
        for i, c in enumerate(hand):
            r = pygame.Rect(x, rect.y + 56, cw, chh)
            surface.blit(fx_cards.card_surface(c, cw, chh), r)
            if ch is not None and i == ch.card_i % len(hand):
                pygame.draw.rect(surface, col, r.inflate(12, 12), 6 if ch.stage == "card" else 3, border_radius=12)
            x += cw + 14
        if ch is not None and ch.stage == "place" and self.cursor_place() is None:
            render.text(surface, "< back to the hand >", (rect.x + 8, rect.y + 62 + chh), 26, col, bold=True)
        elif ch is not None:
            step = "choose a card, OK" if ch.stage == "card" else "choose the place, OK"
            render.text(surface, step, (rect.x + 8, rect.y + 62 + chh), 24, col, bold=True)

    def _draw_hand_compact(self, surface: pygame.Surface, rect: pygame.Rect, seat: int, hand: list[int],
                           ch: Chooser | None, who: str) -> None:
        """:meth:`draw_hand` on the small layout: 24 px heading and hints (wrapped onto two rows
        when needed, never shortened: they are the controls), the cards in the rest."""
        col = render.SEAT_COLOURS[seat % 8]
        size = render.MIN_TEXT_PX
        step = render.font(size, True).get_linesize()
        inner = rect.w - 8
        x = rect.x + 4
        y = render.text_best(surface, [f"P{seat + 1}'s hand"], (x, rect.y), inner, (28, 26, 24), col,
                             bold=True).bottom + 1
        rows = 1 if render.font(size).size(who)[0] <= inner else 2
        y = render.text_lines(surface, who, (x, y), inner, rows, size, render.DIM).bottom + 3
        if not hand:
            render.text(surface, "no cards", (x, y), size, render.DIM)
            return
        hint = ""
        hint_col = col
        if ch is not None and ch.stage == "place" and self.cursor_place() is None:
            hint = "< back to the hand >"
        elif ch is not None:
            hint = "choose a card, OK" if ch.stage == "card" else "choose the place, OK"
        hint_rows = 0 if not hint else 1 if render.font(size, True).size(hint)[0] <= inner else 2
        bottom = rect.bottom - hint_rows * step - 4
        chh = max(16, bottom - y - 6)
        cw = int(min(chh / 1.4, (rect.w - 12) / max(3, len(hand)) - 8))
        chh = int(cw * 1.4)
        cx = x + 4
        for i, c in enumerate(hand):
            r = pygame.Rect(cx, y + 4, cw, chh)
            surface.blit(fx_cards.card_surface(c, cw, chh), r)
            if ch is not None and i == ch.card_i % len(hand):
                pygame.draw.rect(surface, col, r.inflate(8, 8), 4 if ch.stage == "card" else 2, border_radius=10)
            cx += cw + 10
        if hint:
            render.text_lines(surface, hint, (x, y + chh + 10), inner, hint_rows, size, hint_col, bold=True)

    def led_picture(self, now_ns: int) -> LedPicture | None:
        from arcade.views import pictures as ledv
        cfg = self.app.cfg["led"]
        w, h = cfg["width"], cfg["height"]
        if self.flash is not None and now_ns - self.flash[2] < 1_200_000_000:
            seats, kind, t0 = self.flash
            phase = (now_ns - t0) / 1_200_000_000
            if len(seats) == 1:
                return ledv.flash_picture(seats[0], min(1.0, phase), w, h)
            return ledv.tie_picture(seats, w, h)
        return self.led_default(w, h, now_ns)


# ------------------------------------------------------------------------ Classic

class ClassicScene(FocusXScene[ClassicState]):
    """FocusX Classic (FX-1..FX-8): four spots clockwise, every seat's pile, the race panel.

    The active seat lays its pile's top card on a spot: a person with choose
    controls picks it with left/right and OK within ``CHOOSE_NS`` (else the
    default spot), anyone else gets the default spot.  After each race the
    panel lists every press, offsets from the first press (R-7).
    """

    game_class = ClassicGame

    def state_class(self) -> type[ClassicState]:
        return ClassicState

    panel_title = "Race panel (ms after the first press)"
    panel_short_title = "ms after the first press"

    def __init__(self, app: Host, seats: list[SeatInfo], seed: int | None = None,
                 x_rule: bool | None = None, pace_s: float | None = None,
                 settings: dict[str, Any] | None = None) -> None:
        super().__init__(app, seats, seed, x_rule, pace_s, settings)
        self.taken: list[int] = []
        self.choose_seat: int | None = None
        self.choose_spot = 0
        self.choose_until = 0

    # -- laying a card on a spot --------------------------------------------------------
    def seat_turn(self, seat: int, now_ns: int) -> None:
        """A person with choose controls picks the spot (the driver lays everyone else's card)."""
        st: ClassicState = self.state
        if self.choose_seat != seat:
            self.choose_seat = seat
            self.choose_spot = st.default_spot()
            self.choose_until = now_ns + CHOOSE_NS
        elif now_ns >= self.choose_until:
            self._place(self.choose_spot)

    def choose_control(self, edge: Edge) -> None:
        if self.choose_seat != edge.seat:
            return
        allowed = self.state.allowed_spots()
        if edge.control in ("left", "right"):
            step = -1 if edge.control == "left" else 1
            i = allowed.index(self.choose_spot) if self.choose_spot in allowed else 0
            self.choose_spot = allowed[(i + step) % len(allowed)]
        elif edge.control == "ok":
            self._place(self.choose_spot)

    def _place(self, spot: int) -> None:
        if spot not in self.state.allowed_spots():
            spot = self.state.default_spot()
        seat = self.choose_seat
        self.choose_seat = None
        if seat is not None:
            self.submit(seat, Place(spot))

    # -- what the race panel and the banner say ------------------------------------------
    def _on_event(self, ev: RefereeEvent, now: int) -> None:
        super()._on_event(ev, now)
        names = ", ".join(f"P{s + 1}" for s in ev.seats)
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

    def describe_race(self, ev: RefereeEvent, new_takes: list[Any]) -> tuple[str, tuple[int, int, int]] | None:
        if ev.verdict is None or not ev.verdict.presses:
            return None
        title = {"won": "won", "debated": "debated", "boxed": "4+ tie: boxed"}.get(ev.kind, "no winner")
        colour = render.SEAT_COLOURS[ev.seats[0] % 8] if ev.kind == "won" and ev.seats else render.GOLD
        return f"{title}: first press at {ev.verdict.presses[0].offset_ms:.1f} ms", colour

    def panel_rows(self, v: Verdict) -> list[tuple[int, str, float, str]]:
        """Classic lists each press's offset from the first press (R-7)."""
        first = v.presses[0].t_ns if v.presses else 0
        return [(p.seat, p.kind, (p.t_ns - first) / NS_PER_MS, p.status) for p in v.presses]

    def false_text(self, names: str) -> str:
        return f"False focus by {names}: one card to the box"

    def closed_text(self, ev: RefereeEvent) -> str:
        return "no winner"

    # -- drawing ---------------------------------------------------------------------------
    def status_text(self) -> str:
        st: ClassicState = self.state
        # Never say whether a focus is showing: finding it is the game.
        return "sudden death!" if st.sudden else f"cards left: {sum(len(p) for p in st.piles)}"

    def seat_lines(self, seat: int) -> tuple[str, str, list[str]]:
        st: ClassicState = self.state
        return str(len(st.victory[seat])), "cards won", [f"pile {len(st.piles[seat])}"]

    def strip_lines(self) -> list[tuple[str, int, tuple[int, int, int]]]:
        """On the small layout the chooser's hint is a strip line (the gap between the spots
        is too narrow for it whole)."""
        lines = super().strip_lines()
        if self.choose_seat is not None and self.layout.compact:
            lines.append((f"P{self.choose_seat + 1}: left/right choose, OK lays", 24,
                          render.SEAT_COLOURS[self.choose_seat % 8]))
        return lines

    def seat_tag(self, seat: int) -> tuple[str, tuple[int, int, int]] | None:
        st: ClassicState = self.state
        if st.sudden and seat in st.sudden:
            return ("SUDDEN DEATH", render.GOLD)
        if st.current_player() == RACE and seat in st.race_out:
            return ("OUT this race", render.BAD)
        return None

    def draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st: ClassicState = self.state
        chooser = None if self.choose_seat is None else (self.choose_seat, self.choose_spot)
        cw, gap, cy = fx_draw.draw_spots(surface, area, st.spots, st.prev_spot, chooser)
        if self.choose_seat is not None and not self.layout.compact:     # in the gap between the rows of spots
            hint = pygame.Rect(0, 0, 2 * cw + gap, max(20, gap - 4))
            hint.center = (area.centerx, cy)
            fx_draw.fit_text(surface, f"P{self.choose_seat + 1}: left/right choose, OK lays", hint, 28,
                             render.SEAT_COLOURS[self.choose_seat % 8])

    def led_default(self, w: int, h: int, now_ns: int) -> LedPicture:
        from arcade.views import pictures as ledv
        return ledv.scores_picture([len(v) for v in self.state.victory], w, h)


# ------------------------------------------------------------------------ ThinkFocus

class PlacingScene(FocusXScene[P]):
    """The modes where the active seat chooses a card and its place (ThinkFocus, 4Focus)."""

    places_cards = True


class ThinkFocusScene(PlacingScene[tf.ThinkFocusState]):
    """FocusX ThinkFocus (FX-9): four rows, the active seat's hand, claim windows."""

    game_class = tf.ThinkFocusGame

    def state_class(self) -> type[tf.ThinkFocusState]:
        return tf.ThinkFocusState
    worker_levels = frozenset({"expert"})                      # up to 7 ms here; the others < 1 ms
    take_texts = TAKE_TEXTS["thinkfocus"]

    def seat_lines(self, seat: int) -> tuple[str, str, list[str]]:
        st = self.state
        return str(len(st.victory[seat])), "cards won", [f"hand {len(st.hands[seat])}"]

    def seat_tag(self, seat: int) -> tuple[str, tuple[int, int, int]] | None:
        st = self.state
        if st.is_terminal():
            return None
        if seat == st.active:
            return ("ACTIVE: column", render.GOLD)
        if seat == st.previous:
            return ("PREVIOUS: row", render.GOOD)
        return None

    def flash_for(self, new: list[Any], now: int) -> None:
        for how, seats, _ in new:
            if how in ("row", "column", "shift", "forgotten", "debated"):
                self.flash = (tuple(seats), "won", now)
                self.app.sounds.play("won" if len(seats) == 1 else "debated")

    def draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st = self.state
        compact = self.layout.compact
        hand_w = int(area.w * 0.4) if compact else 290
        rows_area = (pygame.Rect(area.x + 52, area.y + 22, area.w - hand_w - 58, area.h - 24) if compact
                     else pygame.Rect(area.x + 70, area.y + 26, area.w - hand_w - 80, area.h - 30))
        # Room for a card more than the longest row; on a small panel at least 5 (not 7) so
        # the cards are as large as the rows' height allows.
        longest = max(max(len(r) for r in st.rows) + 1, 5 if compact else 7)
        ch = int(min(rows_area.h / 4 - 8, (rows_area.w / longest - 6) * 1.4))
        cw = int(ch / 1.4)
        place = self.cursor_place()
        placed = st.placed
        for k in range(longest):
            render.text(surface, str(k + 1), (rows_area.x + k * (cw + 6) + cw // 2, rows_area.y - 4), 22,
                        render.DIM, "midbottom")
        for r, row in enumerate(st.rows):
            y = rows_area.y + r * (ch + 8)
            render.text(surface, f"row {r + 1}", (area.x + 8, y + ch // 2), 24, render.DIM, "midleft")
            for k, c in enumerate(row):
                rect = pygame.Rect(rows_area.x + k * (cw + 6), y, cw, ch)
                surface.blit(fx_cards.card_surface(c, cw, ch), rect)
                if k == 0:
                    pygame.draw.rect(surface, render.DIM, rect.inflate(6, 6), 2, border_radius=10)
                if c == placed:
                    pygame.draw.rect(surface, render.TEXT, rect.inflate(8, 8), 4, border_radius=10)
            end = pygame.Rect(rows_area.x + len(row) * (cw + 6), y, cw, ch)
            if place is not None and getattr(place, "row", None) == r:
                col = render.SEAT_COLOURS[st.active % 8]
                pygame.draw.rect(surface, col, end, 6, border_radius=10)
                render.text(surface, "here", end.center, 26, col, "center", bold=True)
        if compact:
            self.draw_hand(surface, pygame.Rect(area.right - hand_w, area.y + 2, hand_w - 6, area.h - 4))
        else:
            self.draw_hand(surface, pygame.Rect(area.right - hand_w, area.y + 30, hand_w - 10, 170))

    def led_default(self, w: int, h: int, now_ns: int) -> LedPicture:
        from arcade.views import pictures as ledv
        return ledv.scores_picture([len(v) for v in self.state.victory], w, h)


# ------------------------------------------------------------------------ Duel

class DuelScene(FocusXScene[DuelState]):
    """FocusX Duel (FX-10): every seat's pile and penalty count; last to press loses.

    With several foci on the table (FXA-20, FXA-24) the one being raced is
    named in the message strip ("racing now: P3 P4 P5", then the waiting ones)
    and on the seat panels ("RACE NOW" / "WAIT"), and its cards get a thick
    gold frame with "NOW" beside them; the waiting foci's cards a thin one.
    """

    game_class = DuelGame

    def state_class(self) -> type[DuelState]:
        return DuelState
    people_choose = False
    take_texts = TAKE_TEXTS["duel"]

    def _settings(self, fx: dict[str, Any]) -> dict[str, Any]:
        d = self.extra_settings.get("duel_deadline_ms", fx.get("duel_deadline_ms"))
        return {} if d is None else {"duel_deadline_ms": int(d)}

    def status_text(self) -> str:
        st: DuelState = self.state
        if st.tiebreak is not None:
            return "tie-break round (Classic)"
        return f"deck {len(st.deck)}"

    def _racing(self) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
        """The owners of the focus being raced, and those of the foci waiting (FXA-20, FXA-24)."""
        st: DuelState = self.state
        if st.tiebreak is not None or st.trio is None or st.is_terminal():
            return (), []
        now = tuple(sorted(st.trio))
        waiting = [tuple(sorted(t)) for t, _k in st.trios() if tuple(sorted(t)) != now]
        return now, waiting

    def strip_lines(self) -> list[tuple[str, int, tuple[int, int, int]]]:
        st: DuelState = self.state
        if st.tiebreak is not None:
            return []
        now, waiting = self._racing()
        if now:
            lines = [("racing now: " + " ".join(f"P{s + 1}" for s in now), 30, render.GOLD)]
            if waiting:
                lines.append(("then: " + "; ".join(" ".join(f"P{s + 1}" for s in t) for t in waiting),
                              22, render.DIM))
            return lines
        return [(f"deck: {len(st.deck)} cards", 30, render.TEXT)]

    def seat_lines(self, seat: int) -> tuple[str, str, list[str]]:
        st: DuelState = self.state
        lines = [f"pile {len(st.piles[seat])}"]
        if st.tiebreak is not None and seat in st.tiebreak.sudden:
            lines = [f"TIE-BREAK: won {len(st.tiebreak.victory[seat])}"]
        return str(st.scores()[seat]), "penalty cards", lines

    def seat_tag(self, seat: int) -> tuple[str, tuple[int, int, int]] | None:
        now, waiting = self._racing()
        if seat in now:
            return ("RACE NOW", render.GOLD)
        if any(seat in t for t in waiting):
            return ("NEXT: wait", render.TEXT)
        return None

    def penalty_text(self, names: str) -> str:
        return f"{names}: press without your focus - top card to penalty"

    def penalty_short(self, names: str) -> str:
        # a 480x320 race panel squeezed the whole line to 52 % (issue 20, the explorer's long mode)
        return f"{names}: penalty card"

    def closed_text(self, ev: RefereeEvent) -> str:
        if self.state.tiebreak is not None:
            return "tie-break: no claim" if ev.verdict is None or not ev.verdict.presses else \
                "tie-break: false claims cost a card"
        return "no focus: presses cost a card"

    def add_extra(self, entry: PanelEntry, ev: RefereeEvent) -> None:
        v = ev.verdict
        if v is None or ev.kind != "last":
            return
        pressed = {p.seat for p in v.presses if p.status in ("safe", "last", "tied-last")}
        owners = set(ev.seats) | pressed
        for s in sorted(owners - pressed):
            entry.extra.append(f"P{s + 1}: no press by the deadline")
        entry.extra.append("last to press: " + ", ".join(f"P{s + 1}" for s in ev.seats))

    def flash_for(self, new: list[Any], now: int) -> None:
        for how, seats, _ in new:
            if how in ("last", "tied-last"):
                self.flash = (tuple(seats), "last", now)
                self.app.sounds.play("false" if how == "last" else "debated")
            elif how in ("tiebreak-won", "tiebreak-debated"):
                self.flash = (tuple(seats), "won", now)
                self.app.sounds.play("won" if how == "tiebreak-won" else "debated")

    @staticmethod
    def _beside_pile(surface: pygame.Surface, area: pygame.Rect, r: pygame.Rect, word: str, size: int,
                     colour: tuple[int, int, int], bold: bool) -> None:
        """``word`` ("NOW", "next") left of the pile ``r``, or right of it where the left has no
        room inside ``area`` (the leftmost pile of an 800x480 table drew "NOW" off the screen)."""
        w = render.font(size, bold).size(word)[0]
        if r.x - 14 - w >= area.x:
            render.text(surface, word, (r.x - 14, r.centery), size, colour, "midright", bold=bold)
        else:
            render.text(surface, word, (r.right + 14, r.centery), size, colour, "midleft", bold=bold)

    def draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st: DuelState = self.state
        if st.tiebreak is not None:
            self._draw_tiebreak(surface, area)
            return
        n = st.seats
        cols = (n + 1) // 2
        rows = 2
        compact = self.layout.compact
        cell_w = (area.w - 40) // cols
        cell_h = (area.h - 10) // rows
        # compact: the pile's top 34 px below its cell's, so a raced pile's gold frame (11 px
        # beyond the card) stays under the seat's name and penalty line, not over them
        ch = int(min(cell_h - (46 if compact else 56), (cell_w - 30) * 1.4))
        cw = int(ch / 1.4)
        now, waiting = self._racing()
        waiting_seats = {s for t in waiting for s in t} - set(now)
        scores = st.scores()
        for s in range(n):
            rr, cc = divmod(s, cols)
            if rr == 1:
                cc = cols - 1 - cc          # around the table, clockwise
            cell = pygame.Rect(area.x + 20 + cc * cell_w, area.y + 4 + rr * cell_h, cell_w, cell_h)
            col = render.SEAT_COLOURS[s % 8]
            if compact:
                name = render.text(surface, f"P{s + 1}", (cell.x + 4, cell.y + 2), 26, col, bold=True)
                pen = f"penalty {scores[s]}"
                # Only beside the name when it fits whole: the seat panels show the count too.
                if render.font(24, True).size(pen)[0] <= cell.right - 6 - name.right - 8:
                    render.text(surface, pen, (cell.right - 6, cell.y + 4), 24,
                                render.BAD if scores[s] else render.DIM, "topright", bold=True)
                r = pygame.Rect(cell.centerx - cw // 2, cell.y + 34, cw, ch)
            else:
                render.text(surface, f"P{s + 1}", (cell.x + 8, cell.y + 4), 34, col, bold=True)
                render.text(surface, f"penalty {scores[s]}", (cell.right - 10, cell.y + 6), 28,
                            render.BAD if scores[s] else render.DIM, "topright", bold=True)
                r = pygame.Rect(cell.centerx - cw // 2, cell.y + 40, cw, ch)
            pile = st.piles[s]
            if pile:
                for k in range(min(3, len(pile) - 1), 0, -1):
                    surface.blit(fx_cards.card_back(cw, ch), r.move(k * 4, k * 4))
                surface.blit(fx_cards.card_surface(pile[-1], cw, ch), r)
            elif compact and render.font(24).size("empty")[0] > r.w - 4:
                # A small pile spot: its outline only (the word would run over the next cell).
                pygame.draw.rect(surface, render.PANEL_LIGHT, r, 3, border_radius=12)
            else:
                render.empty_spot(surface, r, "empty")
            if s in now:                    # the focus being raced now (FXA-20): thick gold frame
                pygame.draw.rect(surface, render.GOLD, r.inflate(22, 22), 7, border_radius=16)
                self._beside_pile(surface, area, r, "NOW", 24, render.GOLD, True)
            elif s in waiting_seats:        # a focus waiting for its race (FXA-24): thin frame
                pygame.draw.rect(surface, render.TEXT, r.inflate(22, 22), 2, border_radius=16)
                self._beside_pile(surface, area, r, "next", 22, render.DIM, False)
            if s == st.active and not st.is_terminal():
                pygame.draw.rect(surface, col, r.inflate(10, 10), 4, border_radius=14)
            render.text(surface, f"{len(pile)}", (r.right + 14, r.bottom), 24, render.DIM, "bottomleft")

    def _draw_tiebreak(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        tb = self.state.tiebreak
        assert tb is not None, "drawn only during a tie-break"
        names = ", ".join(f"P{s + 1}" for s in tb.sudden)
        heading = f"Tie-break: {names} - first to win a focus wins"
        if self.layout.compact:         # two rows of 24 px above the spots
            render.text_lines(surface, heading, (area.centerx, area.y + 2), area.w - 20, 2, render.MIN_TEXT_PX,
                              render.GOLD, "midtop", bold=True)
        else:
            render.text(surface, heading, (area.centerx, area.y + 22), 34, render.GOLD, "center", bold=True)
        cw = int(min(area.w / 6, (area.h - 70) / 2.2 / 1.4))
        ch = int(cw * 1.4)
        cx, cy = area.centerx, area.y + 50 + ch + 5
        for i, (ox, oy) in enumerate([(-1, -1), (0, -1), (0, 0), (-1, 0)]):
            r = pygame.Rect(cx + (10 if ox == 0 else -10 - cw), cy + (5 if oy == 0 else -5 - ch), cw, ch)
            pile = tb.spots[i]
            if pile:
                surface.blit(fx_cards.card_surface(pile[-1], cw, ch), r)
            else:
                render.empty_spot(surface, r, f"spot {i + 1}")

    def led_default(self, w: int, h: int, now_ns: int) -> LedPicture:
        from arcade.views import pictures as ledv
        return ledv.scores_picture(list(self.state.scores()), w, h)


# ------------------------------------------------------------------------ 4Focus

class FourFocusScene(PlacingScene[ff.FourFocusState]):
    """FocusX 4Focus (FX-11): the 9x9 grid around the face-down centre card."""

    game_class = ff.FourFocusGame

    def state_class(self) -> type[ff.FourFocusState]:
        return ff.FourFocusState
    worker_levels = frozenset({"medium", "hard", "expert"})    # 1.8 / 3.3 / 14-59 ms here
    take_texts = TAKE_TEXTS["4focus"]

    def takes(self) -> list[Any]:
        st = self.state
        out = list(st.notes)
        if st.claimed is not None:
            result = st.outcome()
            out.append(("won", tuple(result.winners) if result else (st.claimed[0],)))
        return out

    def seat_lines(self, seat: int) -> tuple[str, str, list[str]]:
        st = self.state
        return str(len(st.hands[seat])), "cards in hand", []

    def seat_tag(self, seat: int) -> tuple[str, tuple[int, int, int]] | None:
        st = self.state
        result = st.outcome()
        if st.is_terminal() and result is not None:
            return ("WINNER", render.GOLD) if seat in result.winners else None
        if seat in st.locked:                       # FXA-37: after a false claim
            return ("ACTIVE - LOCKED" if seat == st.active else "LOCKED: no claims", render.BAD)
        if seat == st.active:
            return ("ACTIVE", render.GOLD)
        return None

    def panel_rows(self, v: Verdict) -> list[tuple[int, str, float, str]]:
        """An out-of-turn press is the judge's "penalty"; in 4Focus it either gave the active
        player a claim window ("hint", no cost) or was a false claim (FXA-31, FXA-33)."""
        st = self.state
        hint = st.notes[-1][1][0] if st.window == "hint" and st.notes and st.notes[-1][0] == "hint" else None
        return [(seat, kind, ms, ("hint" if seat == hint else "false") if status == "penalty" else status)
                for seat, kind, ms, status in _panel_rows(v)]

    def flash_for(self, new: list[Any], now: int) -> None:
        for how, seats in new:
            if how == "won":
                self.flash = (tuple(seats), "won", now)
                self.app.sounds.play("won")


    def draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st = self.state
        compact = self.layout.compact
        hand_w = int(area.w * 0.4) if compact else 290
        grid = pygame.Rect(area.x + 10, area.y + 4, area.w - hand_w - 20, area.h - 6)
        # Show the laid cards and the cells next to them (at least 5x5), never beyond the
        # 9x9 reach (FX-11), so cards stay large while the board is small.
        xs = [x for x, _ in st.board] + [0]
        ys = [y for _, y in st.board] + [0]
        lo_x, hi_x = max(-ff.REACH, min(xs) - 1), min(ff.REACH, max(xs) + 1)
        lo_y, hi_y = max(-ff.REACH, min(ys) - 1), min(ff.REACH, max(ys) + 1)
        while hi_x - lo_x < 4:
            lo_x, hi_x = max(-ff.REACH, lo_x - 1), min(ff.REACH, hi_x + 1)
        while hi_y - lo_y < 4:
            lo_y, hi_y = max(-ff.REACH, lo_y - 1), min(ff.REACH, hi_y + 1)
        ncols, nrows = hi_x - lo_x + 1, hi_y - lo_y + 1
        cell = int(min(grid.w / ncols, grid.h / nrows))
        ox = grid.x + (grid.w - cell * ncols) // 2
        oy = grid.y + (grid.h - cell * nrows) // 2
        cw, ch = int(cell * 0.70), int(cell * 0.96)
        place = self.cursor_place()
        targets: set[tuple[int, int]] = set()
        ch_ = self.chooser
        if ch_ is not None and ch_.stage == "place":
            hand = self._hand(ch_.seat)
            if hand:
                targets = {(a.x, a.y) for a in self.place_options(ch_.seat, hand[ch_.card_i % len(hand)])
                           if isinstance(a, ff.Place)}
        claimed = set(st.claimed[1]) if st.claimed is not None else set()
        edge = pygame.Rect(ox, oy, cell * ncols, cell * nrows)
        for side, at_limit in (("left", lo_x == -ff.REACH), ("right", hi_x == ff.REACH),
                               ("top", lo_y == -ff.REACH), ("bottom", hi_y == ff.REACH)):
            if at_limit:                   # the 9x9 limit: a thick line where the view reaches it
                a = {"left": (edge.topleft, edge.bottomleft), "right": (edge.topright, edge.bottomright),
                     "top": (edge.topleft, edge.topright), "bottom": (edge.bottomleft, edge.bottomright)}[side]
                pygame.draw.line(surface, render.BAD, a[0], a[1], 4)
        for gy in range(lo_y, hi_y + 1):
            for gx in range(lo_x, hi_x + 1):
                r = pygame.Rect(ox + (gx - lo_x) * cell, oy + (gy - lo_y) * cell, cell, cell)
                pygame.draw.rect(surface, render.PANEL, r.inflate(-2, -2), 1)
                card_r = pygame.Rect(0, 0, cw, ch)
                card_r.center = r.center
                if (gx, gy) == ff.CENTRE:
                    surface.blit(fx_cards.card_back(cw, ch, "?"), card_r)
                elif (gx, gy) in st.board:
                    surface.blit(fx_cards.card_surface(st.board[(gx, gy)], cw, ch), card_r)
                    if (gx, gy) in claimed:
                        pygame.draw.rect(surface, render.GOLD, card_r.inflate(6, 6), 4, border_radius=8)
                elif (gx, gy) in targets:
                    pygame.draw.rect(surface, render.PANEL_LIGHT, card_r, 2, border_radius=8)
                if place is not None and (getattr(place, "x", None), getattr(place, "y", None)) == (gx, gy):
                    col = render.SEAT_COLOURS[st.active % 8]
                    pygame.draw.rect(surface, col, card_r.inflate(8, 8), 5, border_radius=8)
        if compact:
            self.draw_hand(surface, pygame.Rect(area.right - hand_w, area.y + 2, hand_w - 6, area.h - 4))
        else:
            self.draw_hand(surface, pygame.Rect(area.right - hand_w, area.y + 10, hand_w - 10, int(area.h * 0.5)))

    def led_default(self, w: int, h: int, now_ns: int) -> LedPicture:
        from arcade.views import pictures as ledv
        wnd = self.referee.window
        st = self.state
        if wnd is not None and wnd.opened_ns is not None and wnd.spec.window_ms and not st.is_terminal():
            left = wnd.opened_ns + wnd.spec.window_ms * NS_PER_MS - now_ns
            if left > 0:
                frac = left / (wnd.spec.window_ms * NS_PER_MS)
                return ledv.countdown_picture(min(99, int(left // S) + 1), min(1.0, frac), w, h,
                                              ledv.seat_colour(st.active % 8))
        return ledv.text_picture("4F", (255, 200, 40), w, h)


def _start(cls: type[FocusXScene[FocusXState]], x_rule: bool | None) -> Callable[[Host, list[SeatInfo]], GameScene[State]]:
    """A lobby entry's start: ``x_rule`` None follows ``[focusx] x_rule``; True forces the rule on."""
    def start(app: Host, seats: list[SeatInfo]) -> GameScene[State]:
        return cls(app, seats, x_rule=x_rule)
    return start


# The plain entries follow the configuration's ``[focusx] x_rule`` (FX-3: a setting);
# the "-x" entries force the FocusX rule on.
#: The registry entries this screen draws (label, names and seats from arcade.registry).
LOBBY_GAMES = [
    lobby_game("focusx-classic", _start(ClassicScene, None)),
    lobby_game("focusx-classic-x", _start(ClassicScene, True)),
    lobby_game("focusx-thinkfocus", _start(ThinkFocusScene, None)),
    lobby_game("focusx-thinkfocus-x", _start(ThinkFocusScene, True)),
    lobby_game("focusx-duel", _start(DuelScene, None)),
    lobby_game("focusx-duel-x", _start(DuelScene, True)),
    lobby_game("focusx-4focus", _start(FourFocusScene, None)),
    lobby_game("focusx-4focus-x", _start(FourFocusScene, True)),
]
