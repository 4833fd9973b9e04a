"""The referee: feeds stamped edges to the judge and verdicts to the game.

Pure and clock-free like the rest of :mod:`arcade`: the kiosk (or the headless
simulator) tells it the time.  The loop that drives it::

    ref = Referee(state, JudgeSettings())
    ...each frame:
        for edge in drained_hardware_queue: ref.feed(edge)
        events = ref.tick(now_ns)           # applies settled verdicts
        draw(state, events); flip()
        ref.frame_shown(flip_time_ns)       # R-2: opens races shown by this frame

A race window opens when the frame that shows the change is flipped (R-2) and
closes when the game moves on: by a verdict with a winner, by the race's own
window (``RaceSpec.window_ms``), or by :meth:`request_close`, which waits the
settle time (R-6) so that presses stamped before the close and delivered late
still count in the race they belong to.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Protocol

from arcade.core.api import RACE, Action, State
from arcade.core.events import Edge
from arcade.core.judge import JudgeSettings, Verdict, judge_race
from arcade.core.race import RaceResult, RaceSpec

#: Edges older than this (ns) are dropped, except the newest of each control.
HISTORY_NS = 10_000_000_000


class RacingState(Protocol):
    """What the referee needs of a game state beyond :class:`State`."""

    race_no: int

    def race_spec(self) -> RaceSpec: ...


@dataclass(frozen=True)
class RefereeEvent:
    """Something the screen and the sound should show or play.

    ``kind`` is one of ``"opened"``, ``"won"``, ``"debated"``, ``"boxed"``,
    ``"last"``, ``"false"``, ``"penalty"``, ``"late"``, ``"closed"``, ``"stuck"``,
    ``"updated"`` (the last won race's list grew by a late press, R-7);
    ``seats`` who it is about; ``verdict`` the judge's verdict where there is one.
    """

    kind: str
    seats: tuple[int, ...] = ()
    verdict: Verdict | None = None
    t_ns: int = 0


@dataclass
class Window:
    """The race window the referee is judging."""

    race_no: int
    spec: RaceSpec
    opened_ns: int | None = None
    close_at_ns: int | None = None
    applied_false: set[int] = field(default_factory=set)
    applied_penalty: set[int] = field(default_factory=set)
    verdict: Verdict | None = None


class Referee:
    """Drives one game's races from stamped edges (rulings R-1..R-8).

    Args:
        state: the game state (a :class:`State` with ``race_no`` and
            ``race_spec()``); the referee applies race results to it.
        settings: the judge settings.
    """

    def __init__(self, state: State, settings: JudgeSettings | None = None) -> None:
        self.state = state
        self.settings = settings or JudgeSettings()
        self.edges: list[Edge] = []
        self.window: Window | None = None
        self.late_until_ns: int | None = None
        self.last_verdict: Verdict | None = None
        self.stuck: tuple[int, ...] = ()
        self._after: tuple[RaceSpec, int, int, int | None] | None = None
        self.last_tick_ns: int | None = None
        self._sync()

    # -- inputs ----------------------------------------------------------------
    def feed(self, edge: Edge) -> None:
        """Add one stamped edge (any delivery order)."""
        self.edges.append(edge)

    def apply(self, action: Action, player: int | None = None) -> None:
        """Apply a non-race action to the game (a placement, a deal...)."""
        self.state.apply(action, player)
        self._sync()

    def frame_shown(self, t_ns: int) -> list[RefereeEvent]:
        """The frame showing the current table was flipped at ``t_ns`` (R-2)."""
        w = self.window
        if w is not None and w.opened_ns is None:
            w.opened_ns = t_ns
            return [RefereeEvent("opened", t_ns=t_ns)]
        return []

    def request_close(self, at_ns: int) -> None:
        """Close the open window at ``at_ns``; applied once the settle time has passed."""
        if self.window is not None and self.window.close_at_ns is None:
            self.window.close_at_ns = at_ns

    # -- the loop --------------------------------------------------------------
    def tick(self, now_ns: int) -> list[RefereeEvent]:
        """Judge the open window at ``now_ns``; apply what has settled.

        Returns the events for the screen, in order.
        """
        events: list[RefereeEvent] = []
        self.last_tick_ns = now_ns
        self._prune(now_ns)
        events.extend(self._follow_last(now_ns))
        w = self.window
        if w is None or w.opened_ns is None:
            return events
        close = w.close_at_ns
        edges = self.edges if close is None else [e for e in self.edges if e.t_ns <= close]
        v = judge_race(w.spec, w.opened_ns, edges, self.settings, now_ns, self.late_until_ns)
        if w.applied_false & set(v.winners):
            # A claim stamped earlier than a false claim already charged arrived later than the
            # settle time (R-6 could not wait for it): the false claim stands (FX-7), so that
            # seat is out of this race and the others are judged without it.
            out = frozenset(w.applied_false)
            v = judge_race(replace(w.spec, eligible=w.spec.eligible - out), w.opened_ns, edges,
                           self.settings, now_ns, self.late_until_ns)
        w.verdict = v
        if v.stuck != self.stuck:
            self.stuck = v.stuck
            events.append(RefereeEvent("stuck", v.stuck, v, now_ns))
        new_false = tuple(s for s in v.false_shouts if s not in w.applied_false)
        new_pen = tuple(s for s in v.penalties if s not in w.applied_penalty)
        # A claim made before the close whose kind is not known yet (FX-3) is waited for.
        closing = close is not None and now_ns >= close + self.settings.settle_ns \
            and not any(p.status == "pending" for p in v.presses)
        if v.final or closing:
            result = v.to_result()
            # FX-7: every false claim of the window counts, settled or not; so does every
            # penalty press (FX-10), so the race panel shows exactly what was applied.
            every_false = tuple(p.seat for p in v.presses if p.status == "false")
            every_pen = tuple(p.seat for p in v.presses if p.status == "penalty")
            result = RaceResult(winners=result.winners, kind=result.kind, last=result.last,
                                false_shouts=every_false, penalties=every_pen,
                                late=result.late, closed=result.closed, presses=result.presses)
            if not v.final:
                result = RaceResult(false_shouts=result.false_shouts, penalties=result.penalties,
                                    late=result.late, closed=True, presses=result.presses)
            self._apply_result(result)
            self.last_verdict = v
            events.extend(self._describe(result, v, now_ns, new_false, new_pen))
            grace = int(self.settings.late_grace_ms * 1_000_000)
            before = self.late_until_ns
            if result.winners:
                first = min(p.t_ns for p in v.presses if p.seat in result.winners)
                self.late_until_ns = first + grace
                # the race's list keeps the late presses that follow the win.
                self._after = (w.spec, w.opened_ns, self.late_until_ns, before)
            elif result.last and v.decided_ns is not None:
                # FXA-25: a decided last-to-press race (Duel) has the same late grace (FX-7),
                # from the moment it was decided (the last owner's press, or the deadline).
                self.late_until_ns = v.decided_ns - self.settings.settle_ns + grace
                self._after = (w.spec, w.opened_ns, self.late_until_ns, before)
        elif new_false or new_pen:
            self._apply_result(RaceResult(false_shouts=new_false, penalties=new_pen,
                                          presses=v.to_result().presses))
            w.applied_false.update(new_false)
            w.applied_penalty.update(new_pen)
            events.extend(self._describe(None, v, now_ns, new_false, new_pen))
        return events

    def next_deadline(self) -> int | None:
        """The next time (ns) at which ``tick`` could change something, if known.

        The headless simulator uses it to jump virtual time; it is always later
        than the last ``tick`` (a window still waiting, e.g. for a claim's kind
        (FX-3), is looked at again 10 ms on).
        """
        w = self.window
        if w is None or w.opened_ns is None:
            return None
        times = []
        if w.verdict is not None and w.verdict.decided_ns is not None and not w.verdict.final:
            times.append(w.verdict.decided_ns)
        if w.close_at_ns is not None:
            times.append(w.close_at_ns + self.settings.settle_ns)
        if w.spec.window_ms is not None:
            times.append(w.opened_ns + w.spec.window_ms * 1_000_000 + self.settings.settle_ns)
        if not times:
            return None
        nxt = min(times)
        if self.last_tick_ns is not None and nxt <= self.last_tick_ns:
            nxt = self.last_tick_ns + 10_000_000    # already judged, still waiting: look again soon
        return nxt

    # -- internals -------------------------------------------------------------
    def _follow_last(self, now_ns: int) -> list[RefereeEvent]:
        """Add late presses (FX-7 grace) to the last won race's list, for the panel (R-7)."""
        if self._after is None or self.last_verdict is None:
            return []
        spec, opened, until, before = self._after
        if now_ns > until + self.settings.settle_ns:
            self._after = None
        edges = [e for e in self.edges if e.t_ns <= until]
        v = judge_race(spec, opened, edges, self.settings, max(now_ns, until + self.settings.settle_ns), before)
        shown = tuple(p for p in v.presses if p.status not in ("after", "pending"))
        if len(shown) <= len(self.last_verdict.presses):
            return []
        self.last_verdict = replace(self.last_verdict, presses=shown)
        return [RefereeEvent("updated", (), self.last_verdict, now_ns)]


    def _apply_result(self, result: RaceResult) -> None:
        self.state.apply(result)
        self._sync()

    def _sync(self) -> None:
        """Follow the state: a new race number means a new window (not yet opened)."""
        st = self.state
        if st.current_player() == RACE:
            no = getattr(st, "race_no")
            if self.window is None or self.window.race_no != no:
                self.window = Window(no, st.race_spec())  # type: ignore[attr-defined]
            else:
                self.window.spec = st.race_spec()  # type: ignore[attr-defined]
        else:
            self.window = None

    def _describe(self, result: RaceResult | None, v: Verdict, now: int,
                  new_false: tuple[int, ...], new_pen: tuple[int, ...]) -> list[RefereeEvent]:
        ev = [RefereeEvent("false", (s,), v, now) for s in new_false]
        ev += [RefereeEvent("penalty", (s,), v, now) for s in new_pen]
        if result is None:
            return ev
        if result.winners:
            n = len(result.winners)
            kind = "won" if n == 1 else "debated" if n <= 3 else "boxed"
            ev.append(RefereeEvent(kind, result.winners, v, now))
        elif result.last:
            ev.append(RefereeEvent("last", result.last, v, now))
        elif result.closed:
            ev.append(RefereeEvent("closed", (), v, now))
        return ev

    def _prune(self, now_ns: int) -> None:
        if len(self.edges) < 64:
            return
        horizon = now_ns - HISTORY_NS
        newest: dict[tuple[int, str], Edge] = {}
        for e in self.edges:
            k = (e.seat, e.control)
            if k not in newest or e.t_ns > newest[k].t_ns:
                newest[k] = e
        keep = set(map(id, newest.values()))
        self.edges = [e for e in self.edges if e.t_ns >= horizon or id(e) in keep]
