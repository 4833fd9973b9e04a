"""The shout judge: stamped presses in, a referee's verdict out.

Pure: no clock is read.  The caller passes the race's opening time (R-2), every
raw edge it has (in any delivery order) and ``now_ns``, the current time on the
same CLOCK_MONOTONIC, and gets a :class:`Verdict`.  Because the edges are sorted
by their stamps before anything is decided, the order in which callbacks or
frames delivered them never changes a verdict (R-1, case B-5).

Rulings implemented here: R-1 time, R-2 opening, R-3 debounce, R-4 tie window,
R-5 no hidden tie-breaks, R-6 settle, R-7 full order, R-8 stuck button, and the
claim kinds of FX-3 (double press) and the late grace of FX-7 as the ruling now
reads (a press of the grace in the next race wins it when right and costs nothing
when it would be false), a seat told to let go of a buzzer held at the
opening (FXA-39) and the press budget of one window (FXA-40).

Two ways in, one verdict: :func:`judge_race` takes raw edges (it debounces them
all, for tests and one-off judgements); the referee keeps a :class:`Debouncer`
that takes each edge once, as it arrives, and hands :func:`judge_presses` only
the presses of the open window, so a frame's work does not grow with history.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Sequence

from arcade.core.errors import SettingsError
from arcade.core.events import Edge
from arcade.core.race import FOCUS, FOCUS_EX, RaceResult, RaceSpec

NS_PER_MS = 1_000_000
CLAIM_CONTROLS = ("buzzer", "x")
_NO_LOCK = -(1 << 63)      # below any stamp, negative ones included


@dataclass(frozen=True)
class JudgeSettings:
    """The judge's settings (RULINGS.md defaults), in milliseconds or seconds.

    Attributes:
        debounce_ms: R-3, edges closer than this to the edge that started a
            press or release belong to it (0 to 100, default 15).
        tie_window_ms: R-4, presses within this of the earliest valid press are
            debated (0 to 250, default 20).
        settle_ms: R-6, the verdict waits this long after the earliest press
            (None or 0: automatic, the tie window + 10 ms)
            (default: tie window + 10).
        late_grace_ms: FX-7, a press this soon after a won race is late, not
            false (0 to 2000, default 400).
        stuck_after_s: R-8, a button held longer is flagged stuck (default 5).
        focusx_double_press_ms: FX-3, a second buzzer press this soon after the
            first claims "focus-ex" (50 to 1000, default 250).
        min_reaction_ms: the least human reaction time (0 to 300, default
            100); kept for older configurations: under the old FXA-38 the late
            grace ended this long after the next race opened, and FX-7 as it
            now reads no longer shortens the grace.
        window_presses: FXA-40, the presses of one control in one window that
            are judged; later ones are counted as ``again`` (4 to 1000,
            default 8).

    Raises:
        SettingsError: a value out of range; the message names the key.
    """

    debounce_ms: float = 15.0
    tie_window_ms: float = 20.0
    settle_ms: float | None = None
    late_grace_ms: float = 400.0
    stuck_after_s: float = 5.0
    focusx_double_press_ms: float = 250.0
    min_reaction_ms: float = 100.0
    window_presses: int = 8

    def __post_init__(self) -> None:
        limits = {
            "debounce_ms": (0, 100),
            "tie_window_ms": (0, 250),
            "late_grace_ms": (0, 2000),
            "stuck_after_s": (0.5, 600),
            "focusx_double_press_ms": (50, 1000),
            "min_reaction_ms": (0, 300),
            "window_presses": (4, 1000),
        }
        for key, (low, high) in limits.items():
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                raise SettingsError(key, value, f"a number from {low} to {high}")
        if not isinstance(self.window_presses, int):
            raise SettingsError("window_presses", self.window_presses, "a whole number from 4 to 1000")
        if self.settle_ms:      # None or 0: automatic (tie window + 10 ms)
            if isinstance(self.settle_ms, bool) or not isinstance(self.settle_ms, (int, float)):
                raise SettingsError("settle_ms", self.settle_ms, "a number of milliseconds")
            if not self.tie_window_ms <= self.settle_ms <= 1000:
                raise SettingsError("settle_ms", self.settle_ms,
                                    f"from the tie window ({self.tie_window_ms}) to 1000")

    @property
    def settle_ns(self) -> int:
        ms = self.settle_ms if self.settle_ms else self.tie_window_ms + 10
        return int(ms * NS_PER_MS)

    @property
    def tie_ns(self) -> int:
        return int(self.tie_window_ms * NS_PER_MS)

    @property
    def debounce_ns(self) -> int:
        return int(self.debounce_ms * NS_PER_MS)

    @property
    def reaction_ns(self) -> int:
        return int(self.min_reaction_ms * NS_PER_MS)


@dataclass(frozen=True)
class Press:
    """One debounced press of one control: counts at its first edge (R-3).

    ``released_ns`` is None while the control is still held; ``edges`` is how
    many raw edges the press and its release absorbed (bounces).
    """

    seat: int
    control: str
    t_ns: int
    released_ns: int | None
    edges: int = 1


def debounce(edges: Iterable[Edge], debounce_ns: int, now_ns: int | None = None) -> list[Press]:
    """Turn raw edges into presses (R-3; cases B-1, B-2, B-4).

    Edges are sorted by stamp first.  Per control, an accepted transition (press
    or release) opens a lock of ``debounce_ns``; edges inside it only update
    the raw level.  When the lock has passed and the raw level differs from the
    accepted one, the transition is accepted at the stamp of the edge that set
    the raw level.  So a bouncing contact counts once at its first edge, a
    release that bounces after a long hold adds no press, and a short clean tap
    (press and release further apart than the lock) counts.

    Returns the presses sorted by time.
    """
    by_control: dict[tuple[int, str], list[Edge]] = {}
    for e in sorted(edges):
        by_control.setdefault((e.seat, e.control), []).append(e)
    out: list[Press] = []
    for (seat, control), seq in by_control.items():
        level = False          # accepted level
        raw = False            # last raw level seen
        raw_t = 0              # stamp of the edge that set ``raw``
        lock_until = _NO_LOCK
        start: int | None = None
        count = 0

        def accept(pressed: bool, t: int) -> None:
            nonlocal level, lock_until, start, count
            level = pressed
            lock_until = t + debounce_ns
            if pressed:
                start, count = t, 1
            elif start is not None:
                out.append(Press(seat, control, start, t, count + 1))
                start = None

        for e in seq:
            if e.t_ns >= lock_until and raw != level:
                accept(raw, raw_t)
            if e.t_ns < lock_until:
                raw, raw_t = e.pressed, e.t_ns
                count += 1
                continue
            raw, raw_t = e.pressed, e.t_ns
            if e.pressed != level:
                accept(e.pressed, e.t_ns)
        if now_ns is not None and now_ns >= lock_until and raw != level:
            accept(raw, raw_t)
        if start is not None:
            out.append(Press(seat, control, start, None, count))
    out.sort(key=lambda p: (p.t_ns, p.seat, p.control))
    return out


# The state of one control's debounce after an edge:
# (accepted level, raw level, stamp of the raw level, lock end, press start or None,
#  edges absorbed by the open press, number of completed presses so far).
_LineState = tuple[bool, bool, int, int, "int | None", int, int]
_START: _LineState = (False, False, 0, _NO_LOCK, None, 0, 0)


class _Line:
    """One control's incremental debounce (R-3): the same steps as :func:`debounce`.

    ``edges`` are the retained raw edges ``(t_ns, pressed)`` in stamp order and
    ``states[i]`` the state after ``edges[i]``; ``done`` the completed presses
    (``done_base`` of them were pruned).  An edge stamped after the last one is
    one step; an earlier one (out-of-order delivery) replays from its place,
    which costs the edges stamped after it, never the whole history.
    """

    __slots__ = ("seat", "control", "edges", "states", "base", "done", "done_base", "newest")

    def __init__(self, seat: int, control: str) -> None:
        self.seat, self.control = seat, control
        self.edges: list[tuple[int, bool]] = []
        self.states: list[_LineState] = []
        self.base: _LineState = _START
        self.done: list[Press] = []
        self.done_base = 0
        self.newest = _NO_LOCK

    def state(self) -> _LineState:
        return self.states[-1] if self.states else self.base

    def add(self, t: int, pressed: bool, debounce_ns: int) -> bool:
        """Take one raw edge; False if it is older than every retained edge (not used)."""
        key = (t, pressed)
        if not self.edges or key >= self.edges[-1]:
            self.edges.append(key)
            self.states.append(self._step(self.state(), t, pressed, debounce_ns))
            self.newest = max(self.newest, t)
            return True
        i = bisect_right(self.edges, key)
        if i == 0 and self.base is not _START:
            return False                      # before the retained history: cannot be placed
        self.edges.insert(i, key)
        st = self.states[i - 1] if i else self.base
        del self.states[i:]
        del self.done[st[6] - self.done_base:]
        for et, ep in self.edges[i:]:
            st = self._step(st, et, ep, debounce_ns)
            self.states.append(st)
        return True

    def _step(self, st: _LineState, t: int, pressed: bool, deb: int) -> _LineState:
        level, raw, raw_t, lock_until, start, count, ndone = st
        if t >= lock_until and raw != level:          # the lock passed: reconcile
            level, lock_until = raw, raw_t + deb
            if raw:
                start, count = raw_t, 1
            elif start is not None:
                self.done.append(Press(self.seat, self.control, start, raw_t, count + 1))
                ndone += 1
                start = None
        if t < lock_until:
            return (level, pressed, t, lock_until, start, count + 1, ndone)
        raw, raw_t = pressed, t
        if pressed != level:
            level, lock_until = pressed, t + deb
            if pressed:
                start, count = t, 1
            elif start is not None:
                self.done.append(Press(self.seat, self.control, start, t, count + 1))
                ndone += 1
                start = None
        return (level, raw, raw_t, lock_until, start, count, ndone)

    def tail(self, now_ns: int | None) -> Press | None:
        """The press still open at ``now_ns`` (None if none), or one that ended by the lock."""
        level, raw, raw_t, lock_until, start, count, _ = self.state()
        if now_ns is not None and now_ns >= lock_until and raw != level:
            if raw:
                return Press(self.seat, self.control, raw_t, None, 1)
            if start is not None:
                return Press(self.seat, self.control, start, raw_t, count + 1)
            return None
        if start is not None:
            return Press(self.seat, self.control, start, None, count)
        return None

    def presses_from(self, t_ns: int, now_ns: int | None, limit: int | None = None) -> tuple[list[Press], int]:
        """The presses stamped at or after ``t_ns`` (the first ``limit``) and how many more."""
        done = self.done
        i = bisect_left(done, t_ns, key=lambda p: p.t_ns)
        out = done[i:] if limit is None else done[i:i + limit]
        rest = len(done) - i - len(out)
        last = self.tail(now_ns)
        if last is not None and last.t_ns >= t_ns:
            if limit is None or len(out) < limit:
                out = out + [last]
            else:
                rest += 1
        return out, rest

    def held_at(self, t_ns: int, now_ns: int | None) -> bool:
        """Whether the control was held at ``t_ns`` and still is at ``now_ns``."""
        last = self.tail(now_ns)
        return last is not None and last.released_ns is None and last.t_ns < t_ns

    def prune(self, before_ns: int, keep_presses_from: int) -> None:
        """Forget raw edges stamped before ``before_ns`` and presses ended before ``keep_presses_from``."""
        k = bisect_left(self.edges, (before_ns, False))
        if k:
            self.base = self.states[k - 1]
            del self.edges[:k]
            del self.states[:k]
        j = 0
        limit = min(self.base[6], self.done_base + len(self.done)) - self.done_base
        while j < limit:
            released = self.done[j].released_ns
            if released is None or released >= keep_presses_from:
                break
            j += 1
        if j:
            del self.done[:j]
            self.done_base += j


class Debouncer:
    """Incremental debounce of every control (R-3), fed one edge at a time.

    Gives the same presses as :func:`debounce` over the same edges in any
    delivery order, while each edge costs one step (plus, for an edge delivered
    after later-stamped ones, the steps of those).  Raw edges older than
    ``replay_ns`` before the newest edge of their control are forgotten; an
    edge stamped before every retained one cannot be placed any more and is
    counted in :attr:`stale` (a delivery that late is a fault of the input
    path; the GPIO adapter re-reads the pin level, so a lost release never
    eats a later press).

    Args:
        debounce_ns: R-3 lock, ns.
        replay_ns: how far back (ns) an edge may still be placed (default 2 s).
    """

    def __init__(self, debounce_ns: int, replay_ns: int = 2_000_000_000) -> None:
        self.debounce_ns = debounce_ns
        self.replay_ns = replay_ns
        self.lines: dict[tuple[int, str], _Line] = {}
        self.stale = 0
        self.edges_seen = 0

    def add(self, edge: Edge) -> None:
        """Take one raw edge (any delivery order)."""
        key = (edge.seat, edge.control)
        line = self.lines.get(key)
        if line is None:
            line = self.lines[key] = _Line(edge.seat, edge.control)
        self.edges_seen += 1
        if not line.add(edge.t_ns, edge.pressed, self.debounce_ns):
            self.stale += 1

    def presses_from(self, t_ns: int, now_ns: int | None, limit: int | None = None,
                     controls: Sequence[str] = CLAIM_CONTROLS) -> tuple[list[Press], dict[int, int]]:
        """Presses of ``controls`` stamped at or after ``t_ns``, the first ``limit`` of each
        control, in stamp order; and per seat how many more there were (FXA-40)."""
        out: list[Press] = []
        more: dict[int, int] = {}
        for (seat, control), line in self.lines.items():
            if control not in controls:
                continue
            got, rest = line.presses_from(t_ns, now_ns, limit)
            out.extend(got)
            if rest:
                more[seat] = more.get(seat, 0) + rest
        out.sort(key=lambda p: (p.t_ns, p.seat, p.control))
        return out, more

    def held(self, t_ns: int, now_ns: int | None, controls: Sequence[str] = CLAIM_CONTROLS) -> tuple[int, ...]:
        """Seats with one of ``controls`` held since before ``t_ns`` and not released by ``now_ns``."""
        return tuple(sorted({s for (s, c), line in self.lines.items()
                             if c in controls and line.held_at(t_ns, now_ns)}))

    def stuck(self, now_ns: int, stuck_ns: float) -> tuple[int, ...]:
        """Seats with any control held longer than ``stuck_ns`` at ``now_ns`` (R-8)."""
        out = set()
        for (s, _c), line in self.lines.items():
            last = line.tail(now_ns)
            if last is not None and last.released_ns is None and now_ns - last.t_ns > stuck_ns:
                out.add(s)
        return tuple(sorted(out))

    def prune(self, now_ns: int, keep_presses_from: int) -> None:
        """Forget what no ruling needs any more: raw edges older than the replay time and
        presses that ended before ``keep_presses_from`` (ns)."""
        for line in self.lines.values():
            line.prune(min(line.newest, now_ns) - self.replay_ns, keep_presses_from)

    def retained(self) -> int:
        """How many raw edges and presses are kept (bounded however long the game runs)."""
        return sum(len(line.edges) + len(line.done) for line in self.lines.values())

    def __iter__(self) -> Iterator[_Line]:
        return iter(self.lines.values())


@dataclass(frozen=True)
class Claim:
    """A press read as a claim: its kind and when that kind became certain."""

    seat: int
    control: str
    t_ns: int
    kind: str
    known_ns: int


def claims_from_presses(presses: Sequence[Press], x_rule: bool, double_press_ns: int) -> list[Claim]:
    """Read claim kinds from presses (FX-3).

    Without the FocusX rule every buzzer or ``x`` press claims "focus".  With
    it, an ``x`` press claims "focus-ex"; a buzzer press followed by a second
    buzzer press of the same seat within ``double_press_ns`` claims "focus-ex"
    stamped at the first press, and is known only when the second press comes
    or the double-press window has passed.
    """
    claims: list[Claim] = []
    buzzers: dict[int, list[Press]] = {}
    for p in presses:
        if p.control == "x":
            claims.append(Claim(p.seat, p.control, p.t_ns, FOCUS_EX if x_rule else FOCUS, p.t_ns))
        elif p.control == "buzzer":
            buzzers.setdefault(p.seat, []).append(p)
    for seat, seq in buzzers.items():
        i = 0
        while i < len(seq):
            p = seq[i]
            if not x_rule:
                claims.append(Claim(seat, "buzzer", p.t_ns, FOCUS, p.t_ns))
                i += 1
            elif i + 1 < len(seq) and seq[i + 1].t_ns - p.t_ns <= double_press_ns:
                claims.append(Claim(seat, "buzzer", p.t_ns, FOCUS_EX, seq[i + 1].t_ns))
                i += 2
            else:
                claims.append(Claim(seat, "buzzer", p.t_ns, FOCUS, p.t_ns + double_press_ns))
                i += 1
    claims.sort(key=lambda c: (c.t_ns, c.seat, c.control))
    return claims


#: Press statuses in a verdict, as the race panel shows them ("claim": a right
#: claim in a ``"window"`` race, FX-9).
STATUSES = ("first", "tied", "false", "penalty", "late", "again", "ignored",
            "pending", "safe", "last", "tied-last", "after", "claim")


@dataclass(frozen=True)
class PressNote:
    """One press in a verdict's ordered list (R-7).

    ``offset_ms`` is from the race's opening, to 0.1 ms; ``status`` is one of
    :data:`STATUSES`.
    """

    seat: int
    control: str
    kind: str
    t_ns: int
    offset_ms: float
    status: str


@dataclass(frozen=True)
class Verdict:
    """What the judge decided so far.

    Attributes:
        opened_ns: the race's opening (R-2).
        presses: every claim from the opening on, in stamp order (R-7).
        winners: ``"first"`` races, the winning seat or the debated seats in
            press order (R-4); empty while undecided.
        kind: the winners' claim kind.
        last: ``"last"`` races, the seats tied for last (FX-10).
        false_shouts, penalties, late: seats in press order (settled ones).
        stuck: seats with a control held longer than ``stuck_after_s`` (R-8).
        held: seats whose buzzer (or X control) was already held when the race
            opened and still is: the screen tells them to let go; their next
            press counts (FXA-39).
        more: ``((seat, count), ...)``, presses beyond the window's budget,
            counted as ``again`` and not listed (FXA-40).
        final: the verdict will not change any more (R-6 settle has passed).
        closed: final without a winner (the race's window ran out).
        decided_ns: the earliest time at which this verdict could be final.
    """

    opened_ns: int
    presses: tuple[PressNote, ...] = ()
    winners: tuple[int, ...] = ()
    kind: str = FOCUS
    last: tuple[int, ...] = ()
    false_shouts: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()
    late: tuple[int, ...] = ()
    stuck: tuple[int, ...] = ()
    final: bool = False
    closed: bool = False
    decided_ns: int | None = None
    held: tuple[int, ...] = ()
    more: tuple[tuple[int, int], ...] = ()

    def to_result(self) -> RaceResult:
        """The verdict as an action for the game (offsets in microseconds)."""
        return RaceResult(
            winners=self.winners, kind=self.kind, last=self.last,
            false_shouts=self.false_shouts, penalties=self.penalties, late=self.late,
            closed=self.closed,
            presses=tuple((p.seat, p.kind, (p.t_ns - self.opened_ns) // 1000, p.status)
                          for p in self.presses),
        )

    def summary(self) -> str:
        """The race panel line, e.g. ``"P3 first, P1 +12.4 ms (tied), P5 +181.0 ms (late)"``."""
        return summarise(self.presses)


def summarise(presses: Sequence[PressNote]) -> str:
    """Format presses as the race panel shows them, offsets after the first (R-7).

    ``"P3 first, P1 +12.4 ms (late), P5 +181.0 ms (false)"``; a debated race
    reads ``"P2 (tied), P4 +3.1 ms (tied)"``.
    """
    if not presses:
        return "no presses"
    t0 = presses[0].t_ns
    parts = []
    for i, p in enumerate(presses):
        who = f"P{p.seat + 1}" + (" X" if p.kind == FOCUS_EX else "")
        text = who if i == 0 else f"{who} +{(p.t_ns - t0) / NS_PER_MS:.1f} ms"
        parts.append(f"{text} first" if p.status == "first" else f"{text} ({p.status})")
    return ", ".join(parts)


def _offset(t_ns: int, opened_ns: int) -> float:
    return round((t_ns - opened_ns) / NS_PER_MS, 1)


def _verdict(opened_ns: int, claims: list[Claim], status: dict[int, str], settings: JudgeSettings,
             now_ns: int, keep_after: bool, *, stuck: tuple[int, ...], final: bool, decided_ns: int | None,
             winners: tuple[int, ...] = (), last: tuple[int, ...] = (), kind: str = FOCUS,
             closed: bool = False) -> Verdict:
    """The verdict of a race from each claim's ``status`` (R-4: the full ordered press list).

    Presses that came "after" the verdict are listed only while ``keep_after``.
    False shouts and penalties count once they have settled (R-6); the keyword
    arguments are the race kind's own (see :class:`Verdict`).
    """
    notes = tuple(PressNote(c.seat, c.control, c.kind, c.t_ns, _offset(c.t_ns, opened_ns), status[i])
                  for i, c in enumerate(claims) if status[i] != "after" or keep_after)
    settled = now_ns - settings.settle_ns
    return Verdict(
        opened_ns=opened_ns, presses=notes,
        false_shouts=tuple(n.seat for n in notes if n.status == "false" and n.t_ns <= settled),
        penalties=tuple(n.seat for n in notes if n.status == "penalty" and n.t_ns <= settled),
        late=tuple(n.seat for n in notes if n.status == "late"),
        winners=winners, last=last, kind=kind, stuck=stuck, final=final, closed=closed, decided_ns=decided_ns,
    )


def judge_race(spec: RaceSpec, opened_ns: int, edges: Iterable[Edge], settings: JudgeSettings,
               now_ns: int, late_until_ns: int | None = None) -> Verdict:
    """Judge one race from every edge seen so far.

    Args:
        spec: the race as the game describes it.
        opened_ns: when the frame that showed the change was flipped (R-2).
        edges: raw edges in any order; may include edges before the opening
            (needed to debounce and to see stuck buttons) and after.
        settings: the judge settings.
        now_ns: the current CLOCK_MONOTONIC time.
        late_until_ns: end of the late grace of the previous won race (FX-7,
            inclusive, counted from its winning press): a press of this race
            stamped up to it wins here if it is a right claim, and is late
            (no cost, the seat may still claim) if it would be false.

    Returns:
        The verdict; ``final`` tells whether it can still change.
    """
    presses = debounce(edges, settings.debounce_ns, now_ns)
    stuck = tuple(sorted({p.seat for p in presses
                          if p.released_ns is None and now_ns - p.t_ns > settings.stuck_after_s * 1e9}))
    held = tuple(sorted({p.seat for p in presses if p.control in CLAIM_CONTROLS
                         and p.released_ns is None and p.t_ns < opened_ns}))
    counted: list[Press] = []
    per_control: dict[tuple[int, str], int] = {}
    more: dict[int, int] = {}
    for p in presses:
        if p.t_ns < opened_ns or p.control not in CLAIM_CONTROLS:
            continue
        k = (p.seat, p.control)
        per_control[k] = per_control.get(k, 0) + 1
        if per_control[k] <= settings.window_presses:
            counted.append(p)
        else:
            more[p.seat] = more.get(p.seat, 0) + 1
    return judge_presses(spec, opened_ns, counted, settings, now_ns, late_until_ns, stuck, held, more)


def grace_end(late_until_ns: int | None, opened_ns: int, settings: JudgeSettings) -> int | None:
    """FX-7: the last stamp (ns) listed with the race just won (R-7).

    The grace runs ``late_grace_ms`` from the winning press.  A press of the grace stamped
    before the next race opens (R-2) belongs to the race just won, where it is listed
    ``late``; one stamped at the opening or later is judged in the new race
    (:func:`judge_presses`: a right claim there wins it, one that would be false is
    ``late`` and costs nothing).  ``settings`` is kept for callers of the older rule.

    >>> grace_end(400, 46, JudgeSettings()), grace_end(30, 46, JudgeSettings())
    (45, 30)
    """
    if late_until_ns is None:
        return None
    return min(late_until_ns, opened_ns - 1)


def judge_presses(spec: RaceSpec, opened_ns: int, presses: Sequence[Press], settings: JudgeSettings,
                  now_ns: int, late_until_ns: int | None = None, stuck: tuple[int, ...] = (),
                  held: tuple[int, ...] = (), more: dict[int, int] | None = None) -> Verdict:
    """Judge one race from debounced presses (what :func:`judge_race` does after debouncing).

    ``presses`` are the window's presses of the claim controls in stamp order
    (those before ``opened_ns`` are left out, R-2), at most ``window_presses``
    per control (FXA-40); ``stuck`` (R-8), ``held`` (FXA-39) and ``more``
    (per seat, presses beyond the budget) are passed through to the verdict.
    """
    # FX-7: ``late_until_ns`` is the end of the last won race's grace, counted from its
    # winning press; the presses of this race up to it are judged by _in_grace.
    # a press before the opening is not part of the race, nor the first half of
    # a double press (FX-3) with a press that is.
    claims = [c for c in claims_from_presses([p for p in presses if p.t_ns >= opened_ns], spec.x_rule,
                                             int(settings.focusx_double_press_ms * NS_PER_MS))
              if c.t_ns >= opened_ns]
    # a single press's kind is known once a second press could have been stamped
    # (FX-3) *and* delivered, so wait the settle time after the double-press time too.
    claims = [replace(c, known_ns=c.known_ns + settings.settle_ns) if c.kind == FOCUS and c.known_ns > c.t_ns
              else c for c in claims]
    window_end = None if spec.window_ms is None else opened_ns + spec.window_ms * NS_PER_MS
    if spec.mode == "last":
        v = _judge_last(spec, opened_ns, claims, settings, now_ns, stuck, window_end, late_until_ns)
    elif spec.mode == "window":
        v = _judge_window(spec, opened_ns, claims, settings, now_ns, stuck, window_end, late_until_ns)
    else:
        v = _judge_first(spec, opened_ns, claims, settings, now_ns, stuck, window_end, late_until_ns)
    if held or more:
        v = replace(v, held=held, more=tuple(sorted((more or {}).items())))
    return v


def _in_grace(c: Claim, late_until_ns: int | None) -> bool:
    """FX-7: whether claim ``c`` of a new race is stamped inside the grace of the race won
    before it (which ends at ``late_until_ns``, inclusive)."""
    return late_until_ns is not None and c.t_ns <= late_until_ns


def _judge_first(spec: RaceSpec, opened_ns: int, claims: list[Claim], settings: JudgeSettings,
                 now_ns: int, stuck: tuple[int, ...], window_end: int | None,
                 late_until_ns: int | None) -> Verdict:
    status: dict[int, str] = {}
    seen: set[int] = set()
    valid: list[int] = []
    waiting_seats: set[int] = set()
    for i, c in enumerate(claims):
        if window_end is not None and c.t_ns > window_end:
            status[i] = "after"
        elif c.seat in seen:
            status[i] = "again"
        elif _in_grace(c, late_until_ns) and (c.seat in spec.exempt or c.seat not in spec.eligible):
            status[i] = "late"         # FX-7: it cannot claim here: late for the race just won
        elif c.seat in spec.exempt:
            status[i] = "ignored"      # FXA-37: locked out of claims; no cost
            seen.add(c.seat)
        elif c.seat not in spec.eligible:
            status[i] = "penalty" if spec.penalise_ineligible else "ignored"
            seen.add(c.seat)
        elif c.seat in waiting_seats:
            status[i] = "pending"      # the seat's earlier claim decides first (no false verdict yet)
        elif c.known_ns > now_ns:
            status[i] = "pending"      # kind not known yet (FX-3 double press)
            waiting_seats.add(c.seat)
        elif c.kind not in spec.kinds_for(c.seat):
            if _in_grace(c, late_until_ns):
                status[i] = "late"     # FX-7: false here, so late for the race just won; the seat may still claim
            else:
                status[i] = "false"    # FX-7: out of this race
                seen.add(c.seat)
        else:
            valid.append(i)
            seen.add(c.seat)
    winners: tuple[int, ...] = ()
    kind = FOCUS
    final = False
    decided: int | None = None
    if valid:
        t0 = claims[valid[0]].t_ns
        kind = claims[valid[0]].kind
        for i in valid:
            c = claims[i]
            if c.t_ns - t0 <= settings.tie_ns:
                status[i] = "tied"
            elif c.t_ns - t0 <= settings.late_grace_ms * NS_PER_MS:
                status[i] = "late"
            else:
                status[i] = "after"
        # FX-7: a press after the winning press's tie window is late (within the grace)
        # whatever it claimed, so it costs nothing, as it would in the next window.
        for i, c in enumerate(claims):
            if status[i] in ("false", "penalty", "pending") and c.t_ns - t0 > settings.tie_ns:
                status[i] = "late" if c.t_ns - t0 <= settings.late_grace_ms * NS_PER_MS else "after"
        tied = [i for i in valid if status[i] == "tied"]
        if len(tied) == 1:
            status[tied[0]] = "first"
        # Every claim up to the end of the tie window must have a known kind.
        horizon = t0 + settings.tie_ns
        known = max([claims[i].known_ns for i in range(len(claims)) if claims[i].t_ns <= horizon] + [t0])
        decided = max(t0 + settings.settle_ns, known)
        if now_ns >= decided:
            final = True
            winners = tuple(claims[i].seat for i in tied)
    else:
        waiting = [claims[i].known_ns for i, s in status.items() if s == "pending" and claims[i].known_ns > now_ns]
        if waiting:
            decided = min(waiting)     # when the next pending claim's kind is known
    closed = False
    if not final and window_end is not None and now_ns >= window_end + settings.settle_ns \
            and not any(s == "pending" for s in status.values()):
        final, closed, decided = True, True, window_end + settings.settle_ns
    return _verdict(opened_ns, claims, status, settings, now_ns, not final, winners=winners, kind=kind,
                    stuck=stuck, final=final, closed=closed, decided_ns=decided)


def _judge_window(spec: RaceSpec, opened_ns: int, claims: list[Claim], settings: JudgeSettings,
                  now_ns: int, stuck: tuple[int, ...], window_end: int | None,
                  late_until_ns: int | None) -> Verdict:
    """A claim window (FX-9): each eligible seat's first claim counts.

    A claim is right when its kind is among ``spec.kinds_for(seat)``; it is
    "claim" then, else "false".  The verdict is final once the window has
    ended and settled (R-6), or earlier once every eligible seat has made its
    claim and the settle time has passed after the latest of them.  Without
    ``window_ms`` the driver closes it.
    """
    status: dict[int, str] = {}
    seen: set[int] = set()
    counted: list[int] = []
    pending = False
    waiting_seats: set[int] = set()
    for i, c in enumerate(claims):
        if window_end is not None and c.t_ns > window_end:
            status[i] = "after"
        elif c.seat in seen:
            status[i] = "again"
        elif _in_grace(c, late_until_ns) and (c.seat in spec.exempt or c.seat not in spec.eligible):
            status[i] = "late"         # FX-7: it cannot claim here: late for the race just won
        elif c.seat in spec.exempt:
            status[i] = "ignored"
            seen.add(c.seat)
        elif c.seat not in spec.eligible:
            status[i] = "penalty" if spec.penalise_ineligible else "ignored"
            seen.add(c.seat)
        elif c.seat in waiting_seats:
            status[i] = "pending"      # the seat's earlier claim decides first
        elif c.known_ns > now_ns:
            status[i] = "pending"      # kind not known yet (FX-3 double press)
            pending = True
            waiting_seats.add(c.seat)
        elif c.kind not in spec.kinds_for(c.seat):
            if _in_grace(c, late_until_ns):
                status[i] = "late"     # FX-7: false here, so late for the race just won; no cost
            else:
                status[i] = "false"
                seen.add(c.seat)
                counted.append(i)
        else:
            status[i] = "claim"
            seen.add(c.seat)
            counted.append(i)
    claimed = {claims[i].seat for i in counted}
    decided: int | None = None
    if spec.eligible and set(spec.eligible) <= claimed:
        decided = max(claims[i].known_ns for i in counted) + settings.settle_ns
        if window_end is not None:
            decided = min(decided, window_end + settings.settle_ns)
    elif window_end is not None:
        decided = window_end + settings.settle_ns
    final = decided is not None and now_ns >= decided and not pending
    winners: tuple[int, ...] = ()
    kind = FOCUS
    if final:
        right = [i for i in counted if status[i] == "claim"]
        winners = tuple(claims[i].seat for i in right)
        if right:
            kind = claims[right[0]].kind
    return _verdict(opened_ns, claims, status, settings, now_ns, not final, winners=winners, kind=kind,
                    stuck=stuck, final=final, closed=final and not winners, decided_ns=decided)


def _judge_last(spec: RaceSpec, opened_ns: int, claims: list[Claim], settings: JudgeSettings,
                now_ns: int, stuck: tuple[int, ...], window_end: int | None,
                late_until_ns: int | None = None) -> Verdict:
    """A last-to-press race (FX-10), or a window without a focus where presses pay.

    The race is decided at the moment the last owner pressed (everyone has
    pressed) or at the deadline.  FX-7's late grace applies as in a won race
    (FXA-25): a press after that moment and within ``late_grace_ms`` of it is
    "late" and costs nothing, and so is a non-owner's press in the next window
    up to ``late_until_ns`` (the referee passes the end of the last decided
    race's grace).  An owner's press in a new race always counts as its press.
    """
    deadline = opened_ns + (spec.deadline_ms if spec.deadline_ms is not None else 3000) * NS_PER_MS
    grace = int(settings.late_grace_ms * NS_PER_MS)
    status: dict[int, str] = {}
    pressed: dict[int, int] = {}       # eligible seat -> index of its counting claim
    seen: set[int] = set()
    pending = False
    for i, c in enumerate(claims):
        if c.seat in spec.eligible:
            if c.seat in pressed:
                status[i] = "again"
            elif c.t_ns > deadline:
                status[i] = "after"
            elif c.known_ns > now_ns:
                status[i] = "pending"
                pending = True
            elif c.kind not in spec.valid_kinds:
                status[i] = "false"     # wrong kind: still has to press right
            else:
                pressed[c.seat] = i
                status[i] = "safe"
        elif c.seat in seen:
            status[i] = "again"
        elif c.seat in spec.exempt:
            status[i] = "ignored"       # FXA-24: an owner of a focus waiting for its race
            seen.add(c.seat)
        elif late_until_ns is not None and c.t_ns <= late_until_ns:
            status[i] = "late"          # FXA-25: meant for the race just decided; no cost
        else:
            status[i] = "penalty" if spec.penalise_ineligible else "ignored"
            seen.add(c.seat)
    everyone = set(spec.eligible) <= set(pressed)
    times = {s: claims[i].t_ns for s, i in pressed.items()}
    for s in spec.eligible:
        times.setdefault(s, deadline)
    final = False
    last: tuple[int, ...] = ()
    decided: int | None = None
    if spec.eligible:
        latest = max(times.values())
        decisive = latest if everyone else deadline
        decided = decisive + settings.settle_ns
        # FXA-25 (FX-7's grace): after the moment the race was decided a press is late, not a
        # penalty or a second judgement; it joins this race's list.
        for i, c in enumerate(claims):
            if c.t_ns > decisive and status[i] in ("penalty", "false", "after"):
                status[i] = "late" if c.t_ns <= decisive + grace else "after"
        if not pending and now_ns >= decided:
            final = True
            tied = sorted((s for s, t in times.items() if latest - t <= settings.tie_ns),
                          key=lambda s: (times[s], s))
            last = tuple(tied)
            for s in tied:
                if s in pressed:
                    status[pressed[s]] = "last" if len(tied) == 1 else "tied-last"
    elif window_end is not None and now_ns >= window_end:
        final, decided = True, window_end
    return _verdict(opened_ns, claims, status, settings, now_ns, False, last=last, kind=FOCUS,
                    stuck=stuck, final=final, decided_ns=decided)


@dataclass
class Race:
    """A race being judged: collects edges, answers ``verdict(now_ns)``.

    A thin stateful wrapper around :func:`judge_race` for the driver loop.
    """

    spec: RaceSpec
    opened_ns: int
    settings: JudgeSettings = field(default_factory=JudgeSettings)
    late_until_ns: int | None = None
    edges: list[Edge] = field(default_factory=list)

    def add(self, edge: Edge) -> None:
        self.edges.append(edge)

    def verdict(self, now_ns: int) -> Verdict:
        return judge_race(self.spec, self.opened_ns, self.edges, self.settings, now_ns, self.late_until_ns)
