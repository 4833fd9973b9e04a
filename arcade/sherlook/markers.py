"""The marker race of Sherlook: who takes which evidence marker, and when (SL-3).

Seed 002: "At any moment, each player may take one of the markers, choosing the
one available with the value equal to the differences they have found.  This
choice is binding."  The round goes on until one player is left without a
marker; that player has at most 3 more seconds (SL-3: a visible and audible
countdown; if it ends first, that player does not score this round).

How a station chooses a marker (docs/rules-sherlook.md, SLA-1):

* **Left / right / OK** (stations with choose controls): each seat has its own
  cursor over the markers; left and right move it to the next free marker,
  OK claims the marker under it, stamped at the OK press.
  When another player takes the marker under a cursor, the cursor moves to
  the nearest free marker (the lower one when two are as near); an OK
  stamped less than ``settle_ms`` + :data:`CURSOR_REACT_MS` after that move
  still claims the marker it was on (the player could not have seen the move)
  and loses it: choose again.
* **The FOCUS buzzer alone**: a highlight steps through the free markers,
  ``step_ms`` on each, round and round; a buzzer press claims the marker that
  was highlighted at the press's stamp.  A press in the first ``grace_ms``
  after the highlight moved counts for the marker before it (people react to
  what they saw).  Every seat may use the buzzer this way, also those with
  choose controls.  When a countdown starts, the highlight starts again at the
  lowest free marker and speeds up so that one lap of the free markers takes
  at most :data:`COUNTDOWN_LAP` of the countdown (:meth:`MarkerSettings.countdown_step_ns`):
  a buzzer alone can reach every free marker in time.
* One claim per seat and stamp: a seat whose OK and buzzer claims carry one
  identical stamp claims with its OK (the cursor); the other claim is listed
  as ``"double"`` and ignored.

Claims are settled by their stamps (R-1), never by delivery order: the race
works through presses in stamp order, but only once ``settle_ms`` has passed
after them (R-6), so a claim delivered late but stamped earlier still comes
first.  Two claims of one marker: the earlier stamp takes it, the other seat
chooses again (SL-3; SLA-2: marker claims are not shouts, so the tie window
R-4 does not apply; only identical stamps tie, and a recorded chance outcome
decides, R-5).  Every claim is kept with its offset from the opening (R-7).

Pure: standard library only; no clock (the caller passes times), randomness
only for identical stamps, from an injected ``random.Random``.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass, field
from typing import Iterable, Protocol, Sequence

from arcade.core.api import RACE, Action
from arcade.core.errors import SettingsError
from arcade.core.events import Edge
from arcade.core.judge import Press, debounce

NS_PER_MS = 1_000_000
MARKER_CONTROLS = ("buzzer", "left", "right", "ok")

COUNTDOWN_LAP = 0.8
"""SLA-1: during a countdown one lap of the highlight over the free markers takes at
most this fraction of the countdown (2.4 s of 3 s), so every free marker lights up
for a whole step before the end, the lowest ones twice."""

MIN_COUNTDOWN_STEP_MS = 200.0
"""SLA-1: the countdown highlight never stays shorter than this on a marker, nor
shorter than ``grace_ms`` + :data:`MIN_PRESS_WINDOW_MS`."""

MIN_PRESS_WINDOW_MS = 80.0
"""A step lasts at least this much longer than the grace time."""

CURSOR_REACT_MS = 250.0
"""SLA-1: an OK this soon (plus ``settle_ms``) after the cursor was moved off a
marker someone took still claims that marker: nobody reacts faster to a change."""


@dataclass(frozen=True)
class MarkerSettings:
    """Timing of the marker race (RULINGS R-3, R-6, R-8, SL-3; SLA-1..SLA-3).

    Attributes:
        markers: number of markers (seed: 10).
        step_ms: the buzzer highlight stays this long on each free marker.
        countdown_step_ms: the longest it stays on each while a countdown runs
            (the step is shorter with many free markers, so that a lap fits
            in the countdown: :meth:`countdown_step_ns`, SLA-1).
        grace_ms: a buzzer press this soon after the highlight moved counts
            for the marker highlighted before.
        countdown_ms: the last player's countdown (SL-3: 3000).
        round_limit_s: after this long without the round ending, every player
            still without a marker gets the countdown (SLA-3; the arcade
            must not wait for ever for absent players).
        settle_ms: R-6, claims are settled this long after their stamp.
        debounce_ms: R-3.
        stuck_after_s: R-8, a control held longer is flagged.

    Raises:
        SettingsError: a value out of range (the message names the key).
    """

    markers: int = 10
    step_ms: float = 800.0
    countdown_step_ms: float = 550.0
    grace_ms: float = 150.0
    countdown_ms: float = 3000.0
    round_limit_s: float = 90.0
    settle_ms: float = 30.0
    debounce_ms: float = 15.0
    stuck_after_s: float = 5.0

    def __post_init__(self) -> None:
        limits = {
            "markers": (2, 20), "step_ms": (200, 5000), "countdown_step_ms": (200, 5000),
            "grace_ms": (0, 400), "countdown_ms": (500, 30000), "round_limit_s": (5, 3600),
            "settle_ms": (0, 1000), "debounce_ms": (0, 100), "stuck_after_s": (0.5, 600),
        }
        for key, (low, high) in limits.items():
            v = getattr(self, key)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not low <= v <= high:
                raise SettingsError(key, v, f"a number from {low} to {high}")
        if self.grace_ms >= min(self.step_ms, self.countdown_step_ms):
            raise SettingsError("grace_ms", self.grace_ms, "less than step_ms and countdown_step_ms")

    def ns(self, key: str) -> int:
        """A millisecond setting in integer nanoseconds."""
        return int(getattr(self, key) * NS_PER_MS)

    def countdown_step_ns(self, free: int) -> int:
        """How long (ns) the highlight stays on each of ``free`` markers during a countdown (SLA-1).

        A lap of the free markers fits in :data:`COUNTDOWN_LAP` of the countdown
        (2.4 s of 3 s: 267 ms a marker with 9 free, 480 ms with 5).  At most
        ``countdown_step_ms``; below that, at least :data:`MIN_COUNTDOWN_STEP_MS`
        and ``grace_ms`` + :data:`MIN_PRESS_WINDOW_MS`.  Always longer than
        ``grace_ms`` (``__post_init__`` checks ``grace_ms < countdown_step_ms``).
        """
        lap = self.countdown_ms * COUNTDOWN_LAP / max(1, free)
        floor = max(MIN_COUNTDOWN_STEP_MS, self.grace_ms + MIN_PRESS_WINDOW_MS)
        return int(min(self.countdown_step_ms, max(floor, lap)) * NS_PER_MS)


@dataclass(frozen=True)
class ClaimNote:
    """One claim in the race's full order (R-7).

    Attributes:
        seat: who claimed.
        marker: which marker (0: none was highlighted).
        t_ns: the press's stamp.
        offset_ms: from the race's opening, to 0.1 ms.
        source: ``"buzzer"`` (highlight) or ``"ok"`` (cursor).
        status: ``"took"``; ``"lost"`` (an earlier claim took it: choose
            again); ``"taken"`` (it was already held); ``"holds"`` (this seat
            already holds a marker: binding); ``"too late"`` (after the seat's
            countdown); ``"out"`` (not playing this round); ``"tie-won"`` /
            ``"tie-lost"`` (identical stamps, chance decided, R-5);
            ``"double"`` (the seat's second claim at one identical stamp: its
            OK claim counts, this one is ignored).
        by: the seat holding the marker (for lost / taken), else None.
    """

    seat: int
    marker: int
    t_ns: int
    offset_ms: float
    source: str
    status: str
    by: int | None = None


@dataclass(frozen=True)
class MarkerEvent:
    """Something the screen and the sound should show or play.

    ``kind``: ``"took"``, ``"refused"`` (lost / taken / holds / too late),
    ``"countdown"`` (a countdown began at ``t_ns`` for ``seats``),
    ``"timeout"`` (those ``seats`` ran out of time), ``"round-limit"``.
    """

    kind: str
    seats: tuple[int, ...]
    marker: int = 0
    t_ns: int = 0
    note: ClaimNote | None = None
    tie: bool = False


@dataclass
class MarkerRace:
    """One round's marker race, fed with stamped edges (see the module docstring).

    Args:
        players: the seats taking part this round (all, or the tied players
            of an extra round, SL-5).
        settings: the timing.
        rng: decides identical stamps only (R-5); its outcome is recorded in
            the ``Take`` action.
        held: markers already held when the race is built (seat -> marker),
            e.g. when a game is replayed into the middle of a round.
    """

    players: tuple[int, ...]
    settings: MarkerSettings = field(default_factory=MarkerSettings)
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    held: dict[int, int] = field(default_factory=dict)
    opened_ns: int | None = None
    edges: list[Edge] = field(default_factory=list)
    notes: list[ClaimNote] = field(default_factory=list)
    cursor: dict[int, int] = field(default_factory=dict)
    timed_out: set[int] = field(default_factory=set)
    countdown_seats: tuple[int, ...] = ()
    countdown_start: int | None = None
    countdown_wanted: bool = False
    frontier: int = 0
    _holders: dict[int, int] = field(default_factory=dict)
    _done: set[tuple[int, str, int]] = field(default_factory=set)
    _log: list[tuple[int, int]] = field(default_factory=list)   # highlight: (start ns, marker)
    _next_step: int = 0                                         # when the last logged step ends
    _limit_fired: bool = False
    _moved: dict[int, tuple[int, int]] = field(default_factory=dict)   # seat -> (ns, marker it left)

    CURSOR_START = 4

    def __post_init__(self) -> None:
        self.players = tuple(self.players)
        self._holders = {m: s for s, m in self.held.items()}
        for s in self.players:
            self.cursor.setdefault(s, self._nearest_free(self.CURSOR_START))
        self._check_countdown()

    # -- queries -----------------------------------------------------------------
    def free(self) -> list[int]:
        """The markers nobody holds, in order."""
        return [m for m in range(1, self.settings.markers + 1) if m not in self._holders]

    def holder(self, marker: int) -> int | None:
        """The seat holding ``marker``, or None."""
        return self._holders.get(marker)

    def waiting(self) -> tuple[int, ...]:
        """Players still without a marker and still in time."""
        return tuple(s for s in self.players if s not in self.held and s not in self.timed_out)

    def is_over(self) -> bool:
        """Every player holds a marker or ran out of time."""
        return not self.waiting()

    def deadline(self) -> int | None:
        """When the running countdown ends (ns), if one runs."""
        if self.countdown_start is None:
            return None
        return self.countdown_start + self.settings.ns("countdown_ms")

    def countdown_left(self, now_ns: int) -> float | None:
        """Seconds left on the countdown (None if none runs), from 0 to the countdown's length
        (SL-3): a moment stamped before the countdown began has all of it left.

        >>> from arcade.sherlook.markers import MarkerRace
        >>> race = MarkerRace.__new__(MarkerRace)
        >>> race.settings, race.countdown_start = MarkerSettings(countdown_ms=3000), 10 ** 12
        >>> race.countdown_left(10 ** 12 + 10 ** 9), race.countdown_left(10 ** 9), race.countdown_left(10 ** 13)
        (2.0, 3.0, 0.0)
        """
        d = self.deadline()
        if d is None:
            return None
        return max(0.0, min(self.settings.ns("countdown_ms"), d - now_ns) / 1e9)

    def cursor_of(self, seat: int) -> int:
        """The marker under ``seat``'s cursor (left / right / OK stations; SLA-1).

        Starts on marker 4 (or the nearest free one); never on a taken marker
        while the seat is choosing: it moves to the nearest free one when its
        marker is taken.  A query never changes the race.
        """
        m = self.cursor.get(seat)
        return m if m is not None else self._nearest_free(self.CURSOR_START)

    def highlight_at(self, t_ns: int, grace: bool = True) -> int:
        """The marker a buzzer press stamped ``t_ns`` claims (0 if none).

        Uses the highlight history up to the race's frontier and, after it,
        the schedule as it stands now (see :meth:`schedule`).  With ``grace``,
        a press in the first ``grace_ms`` of a step claims the step before.
        """
        step = self._step_containing(t_ns)
        if step is None:
            return 0
        start, _, marker = step
        if grace and t_ns - start < self.settings.ns("grace_ms") and start > (self.opened_ns or 0):
            prev = self._step_containing(start - 1)
            if prev is not None:
                return prev[2]
        return marker

    def schedule(self, from_ns: int, until_ns: int) -> list[tuple[int, int, int]]:
        """The highlight's steps ``(start, end, marker)`` covering ``from_ns .. until_ns``.

        Past steps come from the history; later ones are predicted from the
        markers held now (a marker taken meanwhile is skipped when the
        highlight gets there).  Used by the screen and by computer players.
        """
        if self.opened_ns is None or not self._log:
            return []
        out: list[tuple[int, int, int]] = []
        first = max(0, bisect.bisect_right(self._log, (from_ns, 1 << 30)) - 1)
        for i in range(first, len(self._log)):
            start, marker = self._log[i]
            end = self._log[i + 1][0] if i + 1 < len(self._log) else self._next_step
            if start > until_ns:
                break
            if end > from_ns:
                out.append((start, end, marker))
        marker = self._log[-1][1]
        t = self._next_step
        free = self.free()
        guard = 0
        while t <= until_ns and free and guard < 10000:
            guard += 1
            marker = self._after(marker, free)
            end = t + self._step_len(t)
            if end > from_ns:
                out.append((t, end, marker))
            t = end
        return out

    # -- inputs ---------------------------------------------------------------------
    def feed(self, edge: Edge) -> None:
        """Add one stamped edge (any delivery order, R-1)."""
        if edge.control in MARKER_CONTROLS:
            self.edges.append(edge)

    def open(self, t_ns: int) -> None:
        """The frame showing the photos was flipped at ``t_ns`` (R-2): the race opens."""
        if self.opened_ns is not None:
            return
        self.opened_ns = t_ns
        self.frontier = t_ns
        first = self._next_free(1, +1)
        self._log = [(t_ns, first)]
        self._next_step = t_ns + self._step_len(t_ns)

    def countdown_shown(self, t_ns: int) -> MarkerEvent | None:
        """The frame showing a wanted countdown was flipped at ``t_ns``: it starts now (R-2).

        The buzzer highlight starts again at the lowest free marker and runs at
        the countdown's pace (:meth:`MarkerSettings.countdown_step_ns`, SLA-1).
        """
        if not self.countdown_wanted or self.countdown_start is not None:
            return None
        self.countdown_wanted = False
        start = max(t_ns, self.frontier)
        self._steps_until(start)
        self.countdown_start = start
        self.countdown_seats = self.waiting()
        free = self.free()
        if free and self._log:
            if self._log[-1][0] == start:
                self._log[-1] = (start, free[0])
            else:
                self._log.append((start, free[0]))
            self._next_step = start + self._step_len(start)
        return MarkerEvent("countdown", self.countdown_seats, t_ns=self.countdown_start)

    # -- the loop -------------------------------------------------------------------
    def tick(self, now_ns: int) -> list[MarkerEvent]:
        """Settle everything stamped up to ``now_ns - settle_ms`` (R-6); returns events in order."""
        if self.opened_ns is None:
            return []
        frontier = now_ns - self.settings.ns("settle_ms")
        presses = debounce(self.edges, self.settings.ns("debounce_ms"), now_ns)
        new = [p for p in presses if p.t_ns >= self.opened_ns and p.t_ns <= frontier
               and (p.seat, p.control, p.t_ns) not in self._done]
        events: list[MarkerEvent] = []
        i = 0
        while i < len(new):
            t = new[i].t_ns
            group = [p for p in new[i:] if p.t_ns == t]
            i += len(group)
            self._advance(t, events)
            self._presses(group, events)
            for p in group:
                self._done.add((p.seat, p.control, p.t_ns))
        if frontier > self.frontier:
            self._advance(frontier, events)
            self.frontier = frontier
        return events

    def next_deadline(self) -> int | None:
        """The next time (ns) at which a tick would change something without new presses."""
        if self.opened_ns is None:
            return None
        settle = self.settings.ns("settle_ms")
        times = [self._next_step + settle]
        d = self.deadline()
        if d is not None:
            times.append(d + 1 + settle)
        if not self._limit_fired:
            times.append(self.opened_ns + int(self.settings.round_limit_s * 1e9) + settle)
        return min(times)

    def stuck(self, now_ns: int) -> tuple[int, ...]:
        """Seats with a control held longer than ``stuck_after_s`` (R-8)."""
        limit = int(self.settings.stuck_after_s * 1e9)
        presses = debounce(self.edges, self.settings.ns("debounce_ms"), now_ns)
        return tuple(sorted({p.seat for p in presses if p.released_ns is None and now_ns - p.t_ns > limit}))

    # -- internals --------------------------------------------------------------------
    def _step_len(self, t: int) -> int:
        """Length (ns) of a highlight step starting at ``t``, with the markers free now."""
        if self.countdown_start is not None and t >= self.countdown_start:
            return self.settings.countdown_step_ns(len(self.free()))
        return self.settings.ns("step_ms")

    def _step_containing(self, t_ns: int) -> tuple[int, int, int] | None:
        if self.opened_ns is None or t_ns < self.opened_ns or not self._log:
            return None
        if t_ns < self._next_step:
            i = bisect.bisect_right(self._log, (t_ns, 1 << 30)) - 1
            if i < 0:
                return None
            start, marker = self._log[i]
            end = self._log[i + 1][0] if i + 1 < len(self._log) else self._next_step
            return start, end, marker
        for start, end, marker in self.schedule(t_ns, t_ns):
            if start <= t_ns < end:
                return start, end, marker
        return None

    def _after(self, marker: int, free: Sequence[int]) -> int:
        for m in free:
            if m > marker:
                return m
        return free[0]

    def _next_free(self, start: int, step: int) -> int:
        n = self.settings.markers
        m = start
        for _ in range(n):
            if m not in self._holders:
                return m
            m = (m - 1 + step) % n + 1
        return start

    def _nearest_free(self, marker: int) -> int:
        """The free marker nearest ``marker`` (the lower one of two as near; ``marker`` if none is free)."""
        free = self.free()
        if not free:
            return marker
        return min(free, key=lambda m: (abs(m - marker), m))

    def _steps_until(self, t: int) -> None:
        """Log the highlight's steps that start up to and including ``t`` (steps only)."""
        while self._log and self._next_step <= t:
            when = self._next_step
            free = self.free()
            marker = self._after(self._log[-1][1], free) if free else 0
            self._log.append((when, marker))
            self._next_step = when + self._step_len(when)

    def _advance(self, t: int, events: list[MarkerEvent]) -> None:
        """Run the clock-driven changes (highlight steps, countdown end, round limit) up to
        and including ``t`` (a step starting at a press's stamp is the one it sees)."""
        assert self.opened_ns is not None
        limit_at = self.opened_ns + int(self.settings.round_limit_s * 1e9)
        while True:
            d = self.deadline()
            candidates = [(self._next_step, 0)]
            if d is not None and any(s in self.waiting() for s in self.countdown_seats):
                candidates.append((d + 1, 1))          # a claim stamped at the deadline still counts
            if not self._limit_fired:
                candidates.append((limit_at, 2))
            when, what = min(candidates)
            if when > t:
                return
            if what == 0:
                self._steps_until(when)
            elif what == 1:
                late = tuple(s for s in self.countdown_seats if s in self.waiting())
                self.timed_out.update(late)
                events.append(MarkerEvent("timeout", late, t_ns=when - 1))
            else:
                self._limit_fired = True
                if len(self.waiting()) >= 2 and self.countdown_start is None:
                    self.countdown_wanted = True
                    events.append(MarkerEvent("round-limit", self.waiting(), t_ns=when))

    def _presses(self, group: list[Press], events: list[MarkerEvent]) -> None:
        """Presses with one identical stamp: cursor moves first, then claims.

        One claim per seat: a seat's OK claim counts before its buzzer claim at
        the same stamp (the other is noted ``"double"``); claims of one marker
        by several seats are decided by a recorded chance outcome (R-5).  Every
        claim ends up in :attr:`notes` (R-7): took, lost / tie-lost (choose
        again), or why it was refused.
        """
        assert self.opened_ns is not None
        t = group[0].t_ns
        offset = round((t - self.opened_ns) / NS_PER_MS, 1)
        claims: dict[int, list[tuple[int, str]]] = {}
        for p in sorted(group, key=lambda p: (p.seat, p.control)):
            if p.control in ("left", "right"):
                if p.seat in self.players and p.seat not in self.held:
                    cur = self.cursor_of(p.seat)
                    step = -1 if p.control == "left" else 1
                    self.cursor[p.seat] = self._next_free((cur - 1 + step) % self.settings.markers + 1, step)
                    self._moved.pop(p.seat, None)
            elif p.control == "ok":
                claims.setdefault(p.seat, []).insert(0, (self._ok_marker(p.seat, t), "ok"))
            elif p.control == "buzzer":
                claims.setdefault(p.seat, []).append((self.highlight_at(p.t_ns), "buzzer"))
        by_marker: dict[int, list[tuple[int, str]]] = {}
        for seat in sorted(claims):
            picked = False
            for marker, source in claims[seat]:          # OK first, then the buzzer
                status = self._refusal(seat, marker, t)
                if status is None and not picked:
                    picked = True
                    by_marker.setdefault(marker, []).append((seat, source))
                    continue
                status = status or "double"
                note = ClaimNote(seat, marker, t, offset, source, status, self._holders.get(marker))
                self.notes.append(note)
                events.append(MarkerEvent("refused", (seat,), marker, t, note))
        taken: list[int] = []
        for marker in sorted(by_marker):
            rivals = sorted(s for s, _ in by_marker[marker])
            sources = dict(by_marker[marker])
            winner = rivals[0] if len(rivals) == 1 else self.rng.choice(rivals)
            tie = len(rivals) > 1
            self.held[winner] = marker
            self._holders[marker] = winner
            taken.append(marker)
            note = ClaimNote(winner, marker, t, offset, sources[winner], "tie-won" if tie else "took")
            self.notes.append(note)
            events.append(MarkerEvent("took", (winner,), marker, t, note, tie))
            for s in rivals:
                if s != winner:
                    lost = ClaimNote(s, marker, t, offset, sources[s], "tie-lost", winner)
                    self.notes.append(lost)
                    events.append(MarkerEvent("refused", (s,), marker, t, lost))
        for seat in self.waiting():                        # a cursor on a marker just taken moves on
            on = self.cursor.get(seat)
            if on is not None and on in taken:
                self.cursor[seat] = self._nearest_free(on)
                self._moved[seat] = (t, on)
        self._check_countdown()

    def _ok_marker(self, seat: int, t: int) -> int:
        """The marker an OK stamped ``t`` claims: the cursor's, or the one it was moved off
        (someone took it) if the move was too recent for the player to see (SLA-1)."""
        moved = self._moved.get(seat)
        if moved is not None and t - moved[0] < self.settings.ns("settle_ms") + int(CURSOR_REACT_MS * NS_PER_MS):
            return moved[1]
        return self.cursor_of(seat)

    def _refusal(self, seat: int, marker: int, t: int) -> str | None:
        if seat not in self.players:
            return "out"
        if seat in self.held:
            return "holds"
        if seat in self.timed_out:
            return "too late"
        d = self.deadline()
        if d is not None and seat in self.countdown_seats and t > d:
            return "too late"
        if marker == 0:
            return "taken"
        holder = self._holders.get(marker)
        if holder is not None:
            return "lost" if self._taken_at(marker) < t else "taken"
        return None

    def _taken_at(self, marker: int) -> int:
        for n in reversed(self.notes):
            if n.marker == marker and n.status in ("took", "tie-won"):
                return n.t_ns
        return -1

    def _check_countdown(self) -> None:
        if self.countdown_start is None and not self.countdown_wanted and len(self.waiting()) == 1 \
                and len(self.players) >= 2:
            self.countdown_wanted = True


# ====================================================================== referee


@dataclass(frozen=True)
class Take(Action):
    """A seat takes a marker (SL-3), applied by the RACE pseudo-player.

    ``offset_us``: the claim's stamp from the race's opening (R-7);
    ``tie``: identical stamps were decided by chance (R-5).
    """

    seat: int
    marker: int
    offset_us: int = 0
    tie: bool = False


@dataclass(frozen=True)
class TimeUp(Action):
    """The countdown ended before ``seats`` took a marker: they do not score (SL-3)."""

    seats: tuple[int, ...]


class MarkerState(Protocol):
    """What :class:`MarkerReferee` needs of a game state."""

    race_no: int

    def current_player(self) -> int: ...
    def apply(self, action: Action, player: int | None = None) -> None: ...
    def race_players(self) -> tuple[int, ...]: ...
    def race_markers(self) -> dict[int, int]: ...


class MarkerReferee:
    """Drives the marker races of a game: edges in, ``Take`` / ``TimeUp`` out.

    Like :class:`arcade.core.referee.Referee` for shouts.  Each frame::

        for edge in drained_queue: ref.feed(edge)
        events = ref.tick(now_ns)      # applies settled takes / time-ups to the state
        draw(); flip()
        ref.frame_shown(flip_ns)       # R-2: opens a new race / a countdown

    Args:
        state: the game state (``race_no``, ``race_players()``, ``race_markers()``).
        settings: the timing.
        rng: for identical stamps only (R-5).
    """

    def __init__(self, state: MarkerState, settings: MarkerSettings | None = None,
                 rng: random.Random | None = None) -> None:
        self.state = state
        self.settings = settings or MarkerSettings()
        self.rng = rng or random.Random(0)
        self.race: MarkerRace | None = None
        self._race_no = -1
        self._sync()

    def feed(self, edge: Edge) -> None:
        if self.race is not None:
            self.race.feed(edge)

    def frame_shown(self, t_ns: int) -> list[MarkerEvent]:
        """Open the race shown by this frame (R-2), or start a wanted countdown."""
        self._sync()
        r = self.race
        if r is None:
            return []
        if r.opened_ns is None:
            r.open(t_ns)
            return [MarkerEvent("opened", (), t_ns=t_ns)]
        ev = r.countdown_shown(t_ns)
        return [ev] if ev is not None else []

    def tick(self, now_ns: int) -> list[MarkerEvent]:
        """Settle the race up to now (R-6) and apply the results to the state."""
        self._sync()
        r = self.race
        if r is None:
            return []
        events = r.tick(now_ns)
        assert r.opened_ns is not None or not events
        for ev in events:
            if self.state.current_player() != RACE:
                break
            if ev.kind == "took":
                off = (ev.t_ns - (r.opened_ns or 0)) // 1000
                self.state.apply(Take(ev.seats[0], ev.marker, off, ev.tie))
            elif ev.kind == "timeout" and ev.seats:
                self.state.apply(TimeUp(ev.seats))
        return events

    def next_deadline(self) -> int | None:
        """The next time (ns) the current race's clock changes something."""
        self._sync()
        return None if self.race is None else self.race.next_deadline()

    def current(self) -> MarkerRace | None:
        """The race of the current round (None before the first; the last one after it ends)."""
        self._sync()
        return self.race

    def _sync(self) -> None:
        st = self.state
        if st.current_player() != RACE:
            return
        if self.race is None or self._race_no != st.race_no:
            self._race_no = st.race_no
            self.race = MarkerRace(st.race_players(), self.settings, self.rng, dict(st.race_markers()))


def summarise(notes: Iterable[ClaimNote]) -> list[str]:
    """The race panel's lines (R-7), e.g. ``"P2 took 7  +4213.0 ms"``."""
    out = []
    for n in notes:
        what = {"took": f"took {n.marker}", "tie-won": f"took {n.marker} (same stamp: chance)",
                "lost": f"lost {n.marker} to P{(n.by or 0) + 1}", "taken": f"{n.marker or '-'} already taken",
                "tie-lost": f"lost {n.marker} to P{(n.by or 0) + 1} (chance)",
                "holds": "already holds a marker", "too late": "too late", "out": "not in this round"}
        out.append(f"P{n.seat + 1} {what.get(n.status, n.status)}  +{n.offset_ms:.1f} ms")
    return out
