"""The match driver: the one loop that plays any game of the arcade.

API (stable; a change is announced in a commit message starting ``DRIVER-API:``)::

    d = Driver(state, players, rng, DriverSettings(...), races=None)
        state    a State (arcade.core.api) at any position
        players  one entry per seat: a ComputerPlayer, or None for a person
        rng      random.Random for chance outcomes and press delivery delays
        races    the race referee adapter (default: ShoutRaces over
                 arcade.core.referee.Referee; Sherlook passes its marker one)

    # (a) virtual time (headless, simulators, benches, play-outs)
    d.run_to_end()                 -> the final state; time is d.now (int ns from 0)

    # (b) the kiosk frame loop, step by step, with the kiosk's clock (int ns)
    d.feed(edge)                   a person's stamped press (arcade.core.events.Edge)
    d.submit(seat, action)         a person's move (IllegalActionError: nothing changed)
    events = d.tick(now_ns)        chance, due computer moves and presses, judging
    draw(state, events); flip()
    d.frame_shown(flip_ns)         R-2: a race opens at the flip of the frame showing it
    d.next_due()                   the next time (ns) something is due, or None

    # a family's set-up (arcade/<game>/house.py ``driver()``, via GameSpec.driver):
    settings_from(options, **family_defaults) -> DriverSettings  (unknown keys ignored)
    RaceAdapter                    base of the race adapters (ShoutRaces, Sherlook's MarkerRaces)

Seats' turns: a computer seat's move is due ``think_ns`` after its turn began
(virtual time jumps there); a person's move comes through :meth:`submit`.
Chance nodes are resolved from ``rng`` after ``settings.chance_pause``.
Races (R-1..R-8): the driver opens the window when the frame showing it was
flipped (in virtual time it flips itself one frame later), asks every computer
seat for its presses (planned at the opening, or asked for one at a time),
delivers them to the referee up to ``max_delivery_ns`` late in shuffled order
(case B-5), and ticks the referee, which applies settled verdicts.  Events of
the referee are returned by :meth:`tick` and given to ``on_event``.

Pure: no clock is read and no global random generator is used, so a seed
gives the same game on any machine.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, fields
from typing import Any, Callable, Mapping, Protocol, Sequence

from arcade.core.api import CHANCE, RACE, TERMINAL, Action, State
from arcade.core.errors import IllegalActionError
from arcade.core.events import Edge
from arcade.core.judge import JudgeSettings
from arcade.core.referee import Referee

MS = 1_000_000
#: One frame at 60 Hz (ns): how long after a change the virtual screen flips.
FRAME_NS = 16_666_667
#: A press planned for an earlier table is kept at a new race only if it was
#: already under way this long (ns) after the opening (see arcade.bots.shout).
COMMITTED_NS = 100 * MS


class ComputerPlayer:
    """A computer player for one seat.  Override what the game needs.

    Attributes:
        think_ns: how long its move takes (ns, virtual or kiosk time).
    """

    think_ns: int = 300 * MS

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        """Its move when ``state.current_player() == seat``."""
        raise NotImplementedError(f"{type(self).__name__} cannot move")

    def race_opened(self, state: State, seat: int, race: Any, opened_ns: int,
                    rng: random.Random) -> list[Edge]:
        """A race opened at ``opened_ns``: the edges it will press (may be none).

        ``race`` is what the race adapter describes the race with (a
        :class:`~arcade.core.race.RaceSpec` for shout races).
        """
        return []

    def next_press(self, state: State, seat: int, race: Any, now_ns: int) -> int | None:
        """Asked again and again during a race: when (ns) it wants to press next, or None."""
        return None

    def pressed(self, t_ns: int) -> None:
        """The driver sent the press it asked for at ``t_ns`` (see :meth:`next_press`)."""


class RaceReferee(Protocol):
    """What the driver needs of a referee (see :class:`ShoutRaces`)."""

    referee: Any

    def feed(self, edge: Edge) -> None: ...
    def tick(self, now_ns: int) -> list[Any]: ...
    def frame_shown(self, t_ns: int) -> list[Any]: ...
    def next_deadline(self) -> int | None: ...
    def apply(self, action: Action, player: int | None = None) -> None: ...
    def waiting_for_flip(self) -> bool: ...
    def wants_frame(self) -> bool: ...
    def race(self) -> Any: ...
    def opened(self, t_ns: int) -> None: ...
    def keep_pending(self, edge: Edge, opened_ns: int) -> bool: ...


class RaceAdapter:
    """What every race adapter passes straight to its ``referee`` (feed, tick, flips, deadline)."""

    referee: Any

    def feed(self, edge: Edge) -> None:
        self.referee.feed(edge)

    def tick(self, now_ns: int) -> list[Any]:
        return list(self.referee.tick(now_ns))

    def frame_shown(self, t_ns: int) -> list[Any]:
        return list(self.referee.frame_shown(t_ns))

    def next_deadline(self) -> int | None:
        deadline: int | None = self.referee.next_deadline()
        return deadline


class ShoutRaces(RaceAdapter):
    """The adapter over :class:`arcade.core.referee.Referee` (FocusX races, and games without races).

    Args:
        state: the game state.
        judge: the judge settings.
        pace_ns: a race without its own window (``RaceSpec.window_ms``) and
            not a "last" race among owners (Duel, FX-10) is closed this long
            after it opens; None: the caller closes it (``referee.request_close``).
    """

    def __init__(self, state: State, judge: JudgeSettings | None = None, pace_ns: int | None = None) -> None:
        self.referee: Referee = Referee(state, judge)
        self.pace_ns = pace_ns

    def apply(self, action: Action, player: int | None = None) -> None:
        self.referee.apply(action, player)

    def waiting_for_flip(self) -> bool:
        w = self.referee.window
        return w is not None and w.opened_ns is None

    def wants_frame(self) -> bool:
        return False

    def race(self) -> Any:
        w = self.referee.window
        return None if w is None else w.spec

    def opened(self, t_ns: int) -> None:
        w = self.referee.window
        if w is None or self.pace_ns is None:
            return
        if w.spec.window_ms is None and not (w.spec.mode == "last" and w.spec.eligible):
            # A "last" race among owners (Duel) ends at its own deadline (FX-10).
            self.referee.request_close(t_ns + self.pace_ns)

    def keep_pending(self, edge: Edge, opened_ns: int) -> bool:
        # Presses planned for an earlier table that have not started yet are dropped
        # unless they were already under way (within COMMITTED_NS); releases are kept.
        return edge.t_ns <= opened_ns + COMMITTED_NS or not edge.pressed


@dataclass
class DriverSettings:
    """Pacing of a match (all times integer ns).

    Attributes:
        judge: the judge settings (R-1..R-8).
        pace_ns: see :class:`ShoutRaces` (None: the caller closes races).
        hold_ns: how long a computer player's press is held.
        max_delivery_ns: computer presses reach the referee up to this late,
            in shuffled order, as callbacks do on a busy Pi (R-1, case B-5).
        max_steps: a safety cap on the driver's steps (RuntimeError beyond).
        chance_pause: ``state -> ns`` waited before a chance outcome (e.g.
            the reveal between Sherlook rounds); None: none.
        stop: ``state -> bool``: end the match early (e.g. a ply cap); the
            state is then left unfinished.
    """

    judge: JudgeSettings | None = None
    pace_ns: int | None = 2500 * MS
    hold_ns: int = 90 * MS
    max_delivery_ns: int = 8 * MS
    max_steps: int = 20_000
    chance_pause: Callable[[State], int] | None = None
    stop: Callable[[State], bool] | None = None


def settings_from(options: Mapping[str, Any], **defaults: Any) -> DriverSettings:
    """:class:`DriverSettings` from a family's ``defaults`` overridden by ``options``.

    Options that are not settings (another family's, e.g. ``ply_cap`` for a
    FocusX match) are left out: each family's ``driver()`` reads its own.
    """
    names = {f.name for f in fields(DriverSettings)}
    merged = {**defaults, **{k: v for k, v in options.items() if k in names}}
    return DriverSettings(**merged)


class Driver:
    """Plays one match.  See the module docstring for the API.

    Raises (from :meth:`run_to_end`):
        RuntimeError: more than ``settings.max_steps`` steps, a person's seat
            to move in virtual time, or a race that can never end.
    """

    def __init__(self, state: State, players: Sequence[ComputerPlayer | None], rng: random.Random,
                 settings: DriverSettings | None = None, races: RaceReferee | None = None,
                 on_event: Callable[[Any], None] | None = None) -> None:
        self.state = state
        self.settings = settings or DriverSettings()
        self.players: list[ComputerPlayer | None] = list(players) + [None] * (state.seats - len(players))
        self.rng = rng
        self.races: RaceReferee = races if races is not None else \
            ShoutRaces(state, self.settings.judge, self.settings.pace_ns)
        self.on_event = on_event
        self.now = 0
        self.steps = 0
        self._pending: list[tuple[int, int, Edge]] = []       # (delivery time, tiebreak, edge)
        self._counter = 0
        self._pulls: dict[int, int] = {}                       # seat -> press time it asked for
        self._due: tuple[int, int, int] | None = None          # (who, history length, due ns)
        self._pullers: list[tuple[int, ComputerPlayer]] | None = None

    @property
    def referee(self) -> Any:
        """The referee the race adapter drives (``Referee`` or the game's own)."""
        return self.races.referee

    # -- (a) virtual time ----------------------------------------------------
    def run_to_end(self) -> State:
        """Play to TERMINAL (or ``settings.stop``) in virtual time from ``self.now``."""
        st = self.state
        cfg = self.settings
        while not st.is_terminal():
            if cfg.stop is not None and cfg.stop(st):
                break
            self._count_step()
            cp = st.current_player()
            if cp == CHANCE:
                if cfg.chance_pause is not None:
                    self.now += cfg.chance_pause(st)
                self._chance()
                continue
            if cp >= 0:
                player = self.players[cp]
                if player is None:
                    raise RuntimeError(f"seat {cp + 1} is a person: virtual time cannot play its move")
                self.now += player.think_ns
                self._computer_move(cp, player)
                continue
            assert cp == RACE
            if self.races.waiting_for_flip():
                self.now += FRAME_NS
                self.frame_shown(self.now)
                continue
            if self.races.wants_frame():
                self.races.frame_shown(self.now + FRAME_NS)
            self._ask_pulls(self.now)
            nxt = self._next_race_time()
            if nxt is None:
                raise RuntimeError("the race can never end: no deadline and no presses")
            self.now = max(self.now, nxt)
            self._advance(self.now)
        return st

    # -- (b) step by step (the kiosk) ----------------------------------------
    def feed(self, edge: Edge) -> None:
        """A stamped edge from a person's station (any delivery order, R-1)."""
        self.races.feed(edge)

    def submit(self, seat: int, action: Action) -> None:
        """A person's move for ``seat``.

        Raises:
            IllegalActionError: not that seat's turn, or an illegal action (nothing changed).
        """
        if self.state.current_player() != seat:
            raise IllegalActionError(action, f"P{seat + 1}", "it is not this seat's turn")
        self.races.apply(action, seat)
        self._due = None

    def frame_shown(self, t_ns: int) -> list[Any]:
        """The frame showing the current table was flipped at ``t_ns`` (R-2).

        Opens a waiting race there and asks the computer seats for their presses.
        """
        opening = self.races.waiting_for_flip()
        events = self.races.frame_shown(t_ns)
        if opening and not self.races.waiting_for_flip():
            self._opened(t_ns)
        return events

    def tick(self, now_ns: int) -> list[Any]:
        """Do what is due at ``now_ns``: chance, a computer move, presses, verdicts.

        Returns the referee's events, in order (also given to ``on_event``).
        """
        st = self.state
        events: list[Any] = []
        self.now = max(self.now, now_ns)
        for _ in range(64):                          # a few instant steps per frame at most
            if st.is_terminal() or (self.settings.stop is not None and self.settings.stop(st)):
                break
            cp = st.current_player()
            if cp == RACE:
                if not self.races.waiting_for_flip():
                    events.extend(self._advance(now_ns))
                    self._ask_pulls(now_ns)
                break
            due = self._due_at(cp, now_ns)
            if due is None or due > now_ns:
                break
            self._due = None
            if cp == CHANCE:
                self._chance()
            else:
                player = self.players[cp]
                assert player is not None
                self._computer_move(cp, player)
        return events

    def next_due(self) -> int | None:
        """The next time (ns) :meth:`tick` would change something, if known."""
        cp = self.state.current_player()
        if cp == TERMINAL:
            return None
        if cp == RACE:
            return self._next_race_time()
        return self._due_at(cp, self.now)

    # -- internals -----------------------------------------------------------
    def _count_step(self) -> None:
        self.steps += 1
        if self.steps > self.settings.max_steps:
            raise RuntimeError(f"the game did not end within {self.settings.max_steps} steps")

    def _due_at(self, cp: int, now_ns: int) -> int | None:
        """When the chance outcome or the computer move at ``cp`` is due (None: a person's turn)."""
        if cp >= 0 and self.players[cp] is None:
            return None
        key = (cp, len(self.state.history))
        if self._due is None or self._due[:2] != key:
            if cp == CHANCE:
                pause = self.settings.chance_pause
                wait = pause(self.state) if pause is not None else 0
            else:
                player = self.players[cp]
                assert player is not None
                wait = player.think_ns
            self._due = (key[0], key[1], now_ns + wait)
        return self._due[2]

    def _chance(self) -> None:
        self.races.apply(self.state.chance_outcome(self.rng))

    def _computer_move(self, seat: int, player: ComputerPlayer) -> None:
        self.races.apply(player.choose(self.state, seat, self.rng), seat)

    def _opened(self, t_ns: int) -> None:
        self.races.opened(t_ns)
        self._pending = [p for p in self._pending if self.races.keep_pending(p[2], t_ns)]
        heapq.heapify(self._pending)
        self._pulls = {}
        race = self.races.race()
        for seat, player in enumerate(self.players):
            if player is None:
                continue
            for edge in player.race_opened(self.state, seat, race, t_ns, self.rng):
                self._deliver(edge)

    def _deliver(self, edge: Edge) -> None:
        self._counter += 1
        delay = self.rng.randint(0, self.settings.max_delivery_ns)
        heapq.heappush(self._pending, (edge.t_ns + delay, self._counter, edge))

    def _ask_pulls(self, now_ns: int) -> None:
        pullers = self._pullers
        if pullers is None:                  # only players that ask one press at a time
            pullers = self._pullers = [(s, p) for s, p in enumerate(self.players) if p is not None
                                       and type(p).next_press is not ComputerPlayer.next_press]
        if not pullers:
            return
        race = self.races.race()
        pulls: dict[int, int] = {}
        for seat, player in pullers:
            p = player.next_press(self.state, seat, race, now_ns)
            if p is not None:
                pulls[seat] = p
        self._pulls = pulls

    def _next_race_time(self) -> int | None:
        deadline = self.races.next_deadline()
        times = [] if deadline is None else [deadline]
        if self._pending:
            times.append(self._pending[0][0])
        if self._pulls:
            times.extend(self._pulls.values())
        return min(times) if times else None

    def _advance(self, now_ns: int) -> list[Any]:
        if self._pulls:
            hold = self.settings.hold_ns
            for seat, p in sorted(self._pulls.items()):
                if p <= now_ns:
                    player = self.players[seat]
                    assert player is not None
                    player.pressed(p)
                    self._deliver(Edge(p, seat, "buzzer", True, "computer"))
                    self._deliver(Edge(p + hold, seat, "buzzer", False, "computer"))
            self._pulls = {}
        while self._pending and self._pending[0][0] <= now_ns:
            self.races.feed(heapq.heappop(self._pending)[2])
        events = self.races.tick(now_ns)
        if self.on_event is not None:
            for ev in events:
                self.on_event(ev)
        return events
