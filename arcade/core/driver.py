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
    d.submit(seat, action)         a person's move: the seat to move, one of settings.movers,
                                   or a move the rules allow out of turn (IllegalActionError:
                                   nothing changed)
    events = d.tick(now_ns)        chance, due computer moves and presses, judging
    draw(state, events); flip()
    d.frame_shown(flip_ns)         R-2: a race opens at the flip of the frame showing it
    d.next_due()                   the next time (ns) something is due, or None
    d.thinking()                   {seat: since_ns} of computer seats thinking elsewhere
    d.waiting()                    a thought (a computer's move or a chance outcome) is still out
    d.due(seat)                    when the seat's pending move is due (its time limit), or None
    d.hurry()                      the pause before the due chance outcome / move ends now
    d.set_player(seat, player)     another player for a seat (a person walked away)
    d.cancel()                     stop every thought in progress (the scene is left)

    # computer players that think elsewhere (the kiosk's worker process), tick() only:
    player.begin(state, seat, rng) -> Thought | None   at its turn's start (None: choose())
    thought.result()               -> Action | None     polled by tick(): None = still thinking
    thought.cancel()                                    the game moved on / ended / was left
    player.think_time(state, seat) -> ns                the pause before its move shows

    # chance that may not be ready yet (DriverSettings.chance_source), tick() only:
    chance_source(state, outcome) -> Thought   the outcome the driver drew (from
                                       settings.chance_rng, else rng), begun when the chance node is reached (Sherlook:
                                       the next photos made in a worker while the reveal shows)

    # several seats at once, and a person's turn that runs out (DriverSettings):
    movers(state) -> seats             who moves now (CO-5: both seats point at once)
    time_limit(state, seat) -> (ns, action) | None   the move made for a person whose time is up
    early_move(state) -> seat | None   the seat whose move, once ready, ends the open race
                                       (ThinkFocus / 4Focus turn-start window), tick() only

    # a family's set-up (arcade/<game>/house.py ``driver()``, via GameSpec.driver):
    settings_from(options, **family_defaults) -> DriverSettings  (unknown keys ignored)
    RaceAdapter                    base of the race adapters (ShoutRaces, Sherlook's MarkerRaces)

Seats' turns: a computer seat's move is due ``think_time(state, seat)`` (by
default ``think_ns``) after its turn began (virtual time jumps there); a
person's move comes through :meth:`submit`.  In the frame loop a player whose
``begin`` returns a :class:`Thought` thinks elsewhere: :meth:`tick` polls the
thought each frame and never waits for it; the move is made once it is ready
*and* the pause is over; a thought whose turn is gone (the move was made, the
state was replaced, the game ended, :meth:`cancel`) is cancelled.
:meth:`run_to_end` never calls ``begin``: it asks ``choose`` synchronously, so
headless runs, benches and play-outs stay deterministic.
A race may end by a seat's choice (``settings.early_move``: the turn-start
window of ThinkFocus and 4Focus, FX-4): a person's move submitted during it is
held and ends the window (it is applied at the seat's turn, right after the
verdict); for a computer seat the driver ends the window once the seat's pause
(``think_time``) is over and makes its move at its turn with no second pause.
Several seats may move at once (``settings.movers``, e.g. both seats point in
Focus (2023), CO-5): the driver asks each computer among them and takes a
person's move from any of them.
Chance nodes are resolved from ``rng`` after ``settings.chance_pause``; in the
frame loop ``settings.chance_source`` may bring the outcome later (it is
applied once it is ready and the pause is over).
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
from arcade.core.race import RaceSpec
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
        """Its move when ``state.current_player() == seat`` (blocking; virtual time always asks this)."""
        raise NotImplementedError(f"{type(self).__name__} cannot move")

    def think_time(self, state: State, seat: int) -> int:
        """The pause (ns) between the start of its turn and its move; default ``think_ns``.

        In the frame loop it is the least time its "thinking" shows, however
        quickly a :class:`Thought` is ready."""
        return self.think_ns

    def begin(self, state: State, seat: int, rng: random.Random) -> "Thought | None":
        """Its turn began (frame loop only): start thinking elsewhere and return the
        :class:`Thought` the driver polls, or None to be asked :meth:`choose` when due
        (the default).  ``state`` is the live state: copy what a thread needs."""
        return None

    def race_opened(self, state: State, seat: int, race: object, opened_ns: int,
                    rng: random.Random) -> list[Edge]:
        """A race opened at ``opened_ns``: the edges it will press (may be none).

        ``race`` is what the race adapter describes the race with (a
        :class:`~arcade.core.race.RaceSpec` for shout races).
        """
        return []

    def next_press(self, state: State, seat: int, race: object, now_ns: int) -> int | None:
        """Asked again and again during a race: when (ns) it wants to press next, or None."""
        return None

    def pressed(self, t_ns: int) -> None:
        """The driver sent the press it asked for at ``t_ns`` (see :meth:`next_press`)."""


class Thought(Protocol):
    """A move (or a chance outcome) being worked out elsewhere; the driver polls it."""

    def result(self) -> Action | None:
        """The action once it is ready, else None (never blocks).

        Raises whatever the thinking raised (the player should answer a fallback
        move instead; the driver passes the error on to the caller of ``tick``)."""
        ...

    def cancel(self) -> None:
        """It is no longer wanted (the game moved on, ended, or the scene is left)."""
        ...


@dataclass
class _Turn:
    """A turn in progress in the frame loop: whose (seat or CHANCE), from which ply, when due."""

    ply: int
    started: int
    due: int
    thought: Thought | None
    default: Action | None = None       # a person's move made when their time is up
    asked: bool = False                 # its thought was begun (or it needs none)


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
    def race(self) -> object: ...
    def opened(self, t_ns: int) -> None: ...
    def keep_pending(self, edge: Edge, opened_ns: int) -> bool: ...
    def close(self, at_ns: int) -> None: ...


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

    def close(self, at_ns: int) -> None:
        """End the open race at ``at_ns`` (judged once it has settled, R-6)."""
        self.referee.request_close(at_ns)


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

    def race(self) -> RaceSpec | None:
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
        chance_source: ``(state, outcome) -> Thought``: begun when a chance
            node is reached in the frame loop with the outcome the driver drew
            (the screen only gets it ready, e.g. makes the photos of a Sherlook
            round); the thought's result is applied once ready and
            ``chance_pause`` is over.  None: applied at once.
        chance_rng: the generator chance outcomes are drawn from (None: the
            driver's ``rng``), so a screen keeps its seed's deals.
        movers: ``state -> seats``: the seats that may move now when several
            move at once (CO-5: both seats point); None: the current player.
        time_limit: ``(state, seat) -> (ns, action) | None``: how long a
            person at ``seat`` may take now and the move made for them then
            (CO-6: the end of a turn passes by itself); frame loop only.
        early_move: ``state -> seat | None``: during a race, the seat whose
            move ends it once it is ready (FocusX ThinkFocus / 4Focus: the
            active seat's turn-start window); frame loop only (virtual time
            closes races after ``pace_ns``).  None: no race ends that way.
    """

    judge: JudgeSettings | None = None
    pace_ns: int | None = 2500 * MS
    hold_ns: int = 90 * MS
    max_delivery_ns: int = 8 * MS
    max_steps: int = 20_000
    chance_pause: Callable[[State], int] | None = None
    stop: Callable[[State], bool] | None = None
    chance_source: Callable[[State, Action], Thought] | None = None
    chance_rng: random.Random | None = None
    movers: Callable[[State], Sequence[int]] | None = None
    time_limit: Callable[[State, int], tuple[int, Action] | None] | None = None
    early_move: Callable[[State], int | None] | None = None


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
        self._turns: dict[int, _Turn] = {}                     # seat or CHANCE -> its turn in progress
        self._pullers: list[tuple[int, ComputerPlayer]] | None = None
        self._held: tuple[int, int, Action] | None = None     # (seat, ply, move) ending the race
        self._early: tuple[int, int, int] | None = None        # (seat, ply, due ns) of a computer
        self._closed: tuple[int, int] | None = None            # (seat, ply): the race it ended
        self._waited: int | None = None                        # seat whose pause was in the race
        self._drawn: tuple[int, Action] | None = None          # (ply, outcome) of the chance node at hand

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
                self.now += player.think_time(st, cp)
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
        """A person's move for ``seat``: the seat to move, one of ``settings.movers``, or a
        move the rules allow out of turn (CO-6: an offer at the end of the partner's turn).

        Raises:
            IllegalActionError: not this seat's move now, or an illegal action (nothing changed).
        """
        st = self.state
        if st.current_player() == RACE and self.early_seat() == seat:
            # the turn-start window: the move is held and ends the race (applied at the turn)
            self._held = (seat, len(st.history), action)
            self._close_early(seat)
            return
        if seat not in self._movers(st.current_player()) and st.check(seat, action) is not None:
            raise IllegalActionError(action, f"P{seat + 1}", "it is not this seat's turn")
        self.races.apply(action, seat)
        self._drop(seat)

    def early_seat(self) -> int | None:
        """The seat whose move would end the open race now (``settings.early_move``), or None."""
        hook = self.settings.early_move
        if hook is None or self.state.current_player() != RACE or self.races.waiting_for_flip():
            return None
        return hook(self.state)

    def held(self, seat: int) -> bool:
        """Whether a move of ``seat`` submitted during the race waits for the seat's turn."""
        return self._held is not None and self._held[0] == seat

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
        """Do what is due at ``now_ns``: chance, computer moves, presses, judging.

        Never waits: a computer player thinking elsewhere (:meth:`ComputerPlayer.begin`)
        is polled, a chance source that is not ready is asked again next time.
        Returns the referee's events, in order (also given to ``on_event``).
        """
        st = self.state
        events: list[Any] = []
        self.now = max(self.now, now_ns)
        for _ in range(64):                          # a few instant steps per frame at most
            if st.is_terminal() or (self.settings.stop is not None and self.settings.stop(st)):
                self.cancel()
                break
            cp = st.current_player()
            if cp == RACE:
                self.cancel()
                if not self.races.waiting_for_flip():
                    self._early_computer(now_ns)
                    events.extend(self._advance(now_ns))
                    self._ask_pulls(now_ns)
                break
            if self._held_move(cp):
                continue
            if not self._step(cp, now_ns):
                break
        return events

    def next_due(self) -> int | None:
        """The next time (ns) :meth:`tick` would change something, if known (a thought
        that is still out: its pause's end, or now once that is over).

        A turn not yet under way starts its pause now (``self.now``, the last tick's
        time), as a :meth:`tick` would; its thought is begun by the next tick."""
        cp = self.state.current_player()
        if cp == TERMINAL:
            return None
        if cp == RACE:
            return self._next_race_time()
        ply = len(self.state.history)
        times = []
        for who in self._movers(cp):
            turn = self._turns.get(who)
            if turn is None or turn.ply != ply:
                turn = self._register(who, self.now, ply)
                if turn is None:
                    continue                     # a person without a time limit
            times.append(max(turn.due, self.now) if turn.thought is not None else turn.due)
        return min(times) if times else None

    def due(self, seat: int) -> int | None:
        """When (ns) the move of ``seat`` under way is due: a computer's (its pause's end)
        or a person's whose time runs out (``settings.time_limit``); None: nothing pending."""
        turn = self._turns.get(seat)
        return None if turn is None else turn.due

    def waiting(self) -> bool:
        """Whether a thought is out: a computer's move worked out elsewhere, or a chance
        outcome a ``chance_source`` is still getting ready (the frame loop goes on meanwhile)."""
        return any(t.thought is not None and t.asked for t in self._turns.values())

    def thinking(self) -> dict[int, int]:
        """The computer seats whose move is being worked out elsewhere: ``{seat: since ns}``."""
        return {who: t.started for who, t in self._turns.items() if who >= 0 and t.thought is not None}

    def hurry(self) -> None:
        """The pause before the due chance outcome or computer move ends now (a person
        skipped the reveal); a thought still out is still waited for."""
        for turn in self._turns.values():
            turn.due = min(turn.due, self.now)

    def set_player(self, seat: int, player: ComputerPlayer | None) -> None:
        """``seat`` is played by ``player`` from now on (None: a person); a thought of the
        seat's former player is cancelled."""
        self._drop(seat)
        self.players[seat] = player
        self._pullers = None

    def cancel(self) -> None:
        """Cancel every thought in progress (the game moved on, ended, or is left)."""
        for who in list(self._turns):
            self._drop(who)

    # -- internals -----------------------------------------------------------
    def _count_step(self) -> None:
        self.steps += 1
        if self.steps > self.settings.max_steps:
            raise RuntimeError(f"the game did not end within {self.settings.max_steps} steps")

    def _movers(self, cp: int) -> Sequence[int]:
        """Who moves now: ``[CHANCE]``, or the seats (``settings.movers``, else ``[cp]``)."""
        if cp < 0:
            return [cp] if cp == CHANCE else []
        movers = self.settings.movers
        return list(movers(self.state)) if movers is not None else [cp]

    def _wait(self, who: int) -> int:
        """The pause before ``who``'s outcome or move (ns); none for a seat that already
        paused in the race its choice ended (``settings.early_move``)."""
        if who == CHANCE:
            pause = self.settings.chance_pause
            return pause(self.state) if pause is not None else 0
        if self._waited == who:
            return 0
        player = self.players[who]
        assert player is not None
        return player.think_time(self.state, who)

    def _close_early(self, seat: int) -> None:
        """End the open race now for ``seat``'s move (once per race)."""
        key = (seat, len(self.state.history))
        if self._closed != key:
            self._closed = key
            self.races.close(self.now)

    def _early_computer(self, now_ns: int) -> None:
        """A computer seat's turn-start window: its pause runs from the window's first tick;
        then the window ends, and its move follows at its turn without a second pause."""
        seat = self.early_seat()
        if seat is None or self.players[seat] is None:
            self._early = None
            return
        ply = len(self.state.history)
        if self._early is None or self._early[:2] != (seat, ply):
            player = self.players[seat]
            assert player is not None
            self._early = (seat, ply, now_ns + player.think_time(self.state, seat))
        if now_ns >= self._early[2]:
            self._waited = seat
            self._close_early(seat)

    def _held_move(self, cp: int) -> bool:
        """Apply a person's move held from the race it ended, now that it is their turn;
        True if it was applied (an illegal one is dropped: they choose again)."""
        held = self._held
        if held is None or cp < 0:
            return False                 # a deal may come first: the move waits for the turn
        self._held = None
        if held[0] != cp or self.players[cp] is not None:
            return False
        try:
            self.races.apply(held[2], cp)
        except IllegalActionError:
            return False
        self._drop(cp)
        return True

    def _drop(self, who: int) -> None:
        turn = self._turns.pop(who, None)
        if turn is not None and turn.thought is not None:
            turn.thought.cancel()

    def _step(self, cp: int, now_ns: int) -> bool:
        """Begin the turns due at ``cp`` and make the first move that is ready; True if one was."""
        ply = len(self.state.history)
        movers = self._movers(cp)
        for who in list(self._turns):
            if who not in movers or self._turns[who].ply != ply:
                self._drop(who)              # the game moved on: that thought is stale
        for who in movers:
            turn = self._turns.get(who)
            person = who >= 0 and self.players[who] is None
            if turn is not None and who >= 0 and (turn.default is not None) != person:
                self._drop(who)              # the seat changed hands (``players`` set directly)
                turn = None
            if turn is None:
                turn = self._register(who, now_ns, ply)
                if turn is None:
                    continue                 # a person: their move comes through submit
            if not turn.asked:
                self._ask(who, turn)
            if turn.due > now_ns:
                continue
            if turn.default is not None:     # a person's time is up
                del self._turns[who]
                self.races.apply(turn.default, who)
                return True
            if turn.thought is not None:
                action = turn.thought.result()
                if action is None:
                    continue                 # still thinking: asked again next frame
                del self._turns[who]
                self.races.apply(action, None if who == CHANCE else who)
                self._moved(who)
            else:
                del self._turns[who]
                if who == CHANCE:
                    self._chance()
                else:
                    player = self.players[who]
                    assert player is not None
                    self._computer_move(who, player)
            return True
        return False

    def _register(self, who: int, now_ns: int, ply: int) -> _Turn | None:
        """``who``'s turn starts its pause at ``now_ns`` (None: a person without a time limit)."""
        if who >= 0 and self.players[who] is None:
            limit = self.settings.time_limit
            got = limit(self.state, who) if limit is not None else None
            if got is None:
                return None
            turn = _Turn(ply, now_ns, now_ns + got[0], None, got[1], asked=True)
        else:
            turn = _Turn(ply, now_ns, now_ns + self._wait(who), None)
        self._turns[who] = turn
        return turn

    def _ask(self, who: int, turn: _Turn) -> None:
        """Begin the thought of ``who``'s turn (a player thinking elsewhere, a chance source)."""
        turn.asked = True
        if who == CHANCE:
            source = self.settings.chance_source
            if source is not None:
                turn.thought = source(self.state, self._drawn_outcome())
        else:
            player = self.players[who]
            assert player is not None
            turn.thought = player.begin(self.state, who, self.rng)

    def _chance_rng(self) -> random.Random:
        return self.settings.chance_rng or self.rng

    def _drawn_outcome(self) -> Action:
        """The outcome of the chance node at hand, drawn once however often its turn is begun
        again (a thought cancelled and asked anew gets the same outcome)."""
        ply = len(self.state.history)
        if self._drawn is None or self._drawn[0] != ply:
            self._drawn = (ply, self.state.chance_outcome(self._chance_rng()))
        return self._drawn[1]

    def _chance(self) -> None:
        self.races.apply(self.state.chance_outcome(self._chance_rng()))

    def _computer_move(self, seat: int, player: ComputerPlayer) -> None:
        self.races.apply(player.choose(self.state, seat, self.rng), seat)
        self._moved(seat)

    def _moved(self, seat: int) -> None:
        if self._waited == seat:
            self._waited = None

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
