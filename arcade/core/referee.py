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

A frame's work depends on what arrived since the last frame, not on history:
each edge goes once into an incremental :class:`~arcade.core.judge.Debouncer`,
the judge sees only the open window's presses (at most ``window_presses`` a
control, FXA-40), and what no ruling needs any more is forgotten.  Presses with
the very same stamp whose order hands out different cards are ordered by a
chance draw from the injected ``rng``, recorded in the race result (R-5).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field, replace
from typing import Protocol, runtime_checkable

from arcade.core.api import RACE, Action, State
from arcade.core.events import Edge
from arcade.core.judge import Debouncer, JudgeSettings, Press, Verdict, grace_end, judge_presses
from arcade.core.race import RaceResult, RaceSpec
from arcade.i18n import N_

#: How far back (ns) a late-delivered edge can still be placed among the others.
HISTORY_NS = 2_000_000_000
#: FXA-39: what a screen (and a seat's lamp) shows a seat whose buzzer was held when the
#: race opened; its next press counts.
HELD_TEXT = N_("RELEASE your buzzer")


@runtime_checkable
class RacingState(Protocol):
    """What the referee needs of a game state beyond :class:`State` while a race is open
    (``current_player() == RACE``): the race's number (a new number, a new window) and
    its :class:`~arcade.core.race.RaceSpec`.  A game without races needs neither."""

    race_no: int

    def race_spec(self) -> RaceSpec: ...


def racing(state: State) -> RacingState:
    """``state`` read as a :class:`RacingState` (at a RACE node).

    Raises:
        TypeError: a game at a RACE node without ``race_no`` or ``race_spec()``.
    """
    if not isinstance(state, RacingState):
        raise TypeError(f"{type(state).__name__} is at a race but has no race_no and race_spec()")
    return state


@dataclass(frozen=True)
class RefereeEvent:
    """Something the screen and the sound should show or play.

    ``kind`` is one of ``"opened"``, ``"won"``, ``"debated"``, ``"boxed"``,
    ``"last"``, ``"false"``, ``"penalty"``, ``"late"``, ``"closed"``, ``"stuck"``,
    ``"held"`` (the seats whose buzzer was held when the open race began and
    still is: "release your buzzer", FXA-39; empty when all let go),
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
    key: object = None
    recheck_ns: int | None = None

    @property
    def held(self) -> tuple[int, ...]:
        """Seats told to let go of a buzzer held since before the opening (FXA-39)."""
        return self.verdict.held if self.verdict is not None else ()


class Referee:
    """Drives one game's races from stamped edges (rulings R-1..R-8).

    Args:
        state: the game state (a :class:`State`, and a :class:`RacingState` at its
            RACE nodes); the referee applies race results to it.
        settings: the judge settings.
    """

    def __init__(self, state: State, settings: JudgeSettings | None = None,
                 rng: random.Random | None = None) -> None:
        self.state = state
        self.settings = settings or JudgeSettings()
        #: decides only the order of presses with the very same stamp (R-5, FXA-41).  Without
        #: one, the first draw seeds a generator from the game's first recorded action (its
        #: deal), so each game draws differently and the same game the same way.
        self.rng = rng
        self.debouncer = Debouncer(self.settings.debounce_ns, HISTORY_NS)
        self.window: Window | None = None
        self.late_until_ns: int | None = None
        self.last_verdict: Verdict | None = None
        self.stuck: tuple[int, ...] = ()
        self.held: tuple[int, ...] = ()
        self._after: tuple[RaceSpec, int, int, int | None, int] | None = None
        self.last_tick_ns: int | None = None
        self._sync()

    # -- inputs ----------------------------------------------------------------
    def feed(self, edge: Edge) -> None:
        """Add one stamped edge (any delivery order); one debounce step."""
        self.debouncer.add(edge)

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
            stuck = self.debouncer.stuck(now_ns, self.settings.stuck_after_s * 1e9)
            if stuck != self.stuck:
                self.stuck = stuck
                events.append(RefereeEvent("stuck", stuck, None, now_ns))
            if self.held:
                self.held = ()
                events.append(RefereeEvent("held", (), None, now_ns))
            return events
        close = w.close_at_ns
        presses, more = self._presses(w.opened_ns, now_ns, close)
        stuck = self.debouncer.stuck(now_ns, self.settings.stuck_after_s * 1e9)
        held = self.debouncer.held(w.opened_ns, now_ns)
        # The verdict is a function of the judged presses and of the time, and the time only
        # matters at a few moments (settle, double-press and window ends): while neither has
        # changed, the last verdict stands (a hammered buzzer past its budget changes nothing).
        key = (tuple((p.t_ns, p.seat, p.control) for p in presses), stuck, held,
               self.late_until_ns, w.spec, frozenset(w.applied_false))
        if w.verdict is not None and w.key == key and w.recheck_ns is not None and now_ns < w.recheck_ns:
            v = w.verdict
            counted = tuple(sorted(more.items()))
            if v.more != counted:
                v = replace(v, more=counted)
        else:
            v = judge_presses(w.spec, w.opened_ns, presses, self.settings, now_ns, self.late_until_ns,
                              stuck, held, more)
            if w.applied_false & set(v.winners):
                # A claim stamped earlier than a false claim already charged arrived later than the
                # settle time (R-6 could not wait for it): the false claim stands (FX-7), so that
                # seat is out of this race and the others are judged without it.
                out = frozenset(w.applied_false)
                v = judge_presses(replace(w.spec, eligible=w.spec.eligible - out), w.opened_ns, presses,
                                  self.settings, now_ns, self.late_until_ns, stuck, held, more)
            w.key, w.recheck_ns = key, self._recheck(w, presses, v, now_ns)
        w.verdict = v
        if v.stuck != self.stuck:
            self.stuck = v.stuck
            events.append(RefereeEvent("stuck", v.stuck, v, now_ns))
        if v.held != self.held:
            self.held = v.held
            events.append(RefereeEvent("held", v.held, v, now_ns))
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
            result, v = self._draw_ties(result, v)
            result = replace(result, more=v.more)
            w.verdict = v
            self._apply_result(result)
            self.last_verdict = v
            events.extend(self._describe(result, v, now_ns, new_false, new_pen))
            grace = int(self.settings.late_grace_ms * 1_000_000)
            before = self.late_until_ns
            if result.winners:
                # FX-7: the grace runs from the winning press itself, never from an earlier
                # press of a winner that was late for an older race.
                self.late_until_ns = winning_press_ns(v, result.winners) + grace
                # the race's list keeps the late presses that follow the win.
                self._after = (w.spec, w.opened_ns, self.late_until_ns, before, w.race_no)
            elif result.last and v.decided_ns is not None:
                # FXA-25: a decided last-to-press race (Duel) has the same late grace (FX-7),
                # from the moment it was decided (the last owner's press, or the deadline).
                self.late_until_ns = v.decided_ns - self.settings.settle_ns + grace
                self._after = (w.spec, w.opened_ns, self.late_until_ns, before, w.race_no)
        elif new_false or new_pen:
            # The charge only needs the charged presses; the race's whole list goes with
            # the result that ends it, so a record grows with the presses, not their square.
            charged = set(new_false) | set(new_pen)
            rows = tuple(r for r in v.to_result().presses if r[0] in charged and r[3] in ("false", "penalty"))
            self._apply_result(RaceResult(false_shouts=new_false, penalties=new_pen, presses=rows))
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
    def _recheck(self, w: Window, presses: list[Press], v: Verdict, now_ns: int) -> int | None:
        """The first moment after ``now_ns`` at which the same presses could be judged
        differently: a press's settle time (R-6), its double-press time (FX-3), the
        window's end or the deadline, the verdict's own ``decided_ns``."""
        js = self.settings
        settle = js.settle_ns
        dp = int(js.focusx_double_press_ms * 1_000_000)
        times = [t for p in presses for t in (p.t_ns + settle, p.t_ns + dp + settle, p.t_ns + dp + 2 * settle)]
        assert w.opened_ns is not None
        if w.spec.window_ms is not None:
            end = w.opened_ns + w.spec.window_ms * 1_000_000
            times += [end, end + settle]
        deadline = w.opened_ns + (w.spec.deadline_ms if w.spec.deadline_ms is not None else 3000) * 1_000_000
        times += [deadline, deadline + settle]
        if v.decided_ns is not None:
            times.append(v.decided_ns)
        later = [t for t in times if t > now_ns]
        return min(later) if later else 1 << 62      # no moment left: the verdict stands

    def _presses(self, opened_ns: int, now_ns: int, until_ns: int | None) -> tuple[list[Press], dict[int, int]]:
        """The claim presses of a window opened at ``opened_ns``: its budget (FXA-40) of each
        control, those stamped after ``until_ns`` left out."""
        presses, more = self.debouncer.presses_from(opened_ns, now_ns, self.settings.window_presses)
        if until_ns is not None:
            presses = [p for p in presses if p.t_ns <= until_ns]
        return presses, more

    def _draw_ties(self, result: RaceResult, v: Verdict) -> tuple[RaceResult, Verdict]:
        """R-5, FXA-41: winners whose presses have the very same stamp are put in an order drawn
        by chance (FX-6 hands out cards in press order); the draw is in the result."""
        if len(result.winners) < 2:
            return result, v
        stamp = {}
        for p in v.presses:
            if p.seat in result.winners and p.seat not in stamp and p.status in ("first", "tied", "claim"):
                stamp[p.seat] = p.t_ns
        if len(stamp) != len(result.winners) or len(set(stamp.values())) == len(stamp):
            return result, v
        groups: dict[int, list[int]] = {}
        for s in result.winners:
            groups.setdefault(stamp[s], []).append(s)
        order: list[int] = []
        drawn: list[int] = []
        if self.rng is None:
            self.rng = random.Random(_game_seed(self.state))
        for t in sorted(groups):
            group = sorted(groups[t])
            if len(group) > 1:
                self.rng.shuffle(group)
                drawn.extend(group)
            order.extend(group)
        rank = {s: i for i, s in enumerate(order)}
        kind = next((p.kind for p in v.presses if p.seat == order[0] and p.t_ns == stamp[order[0]]), result.kind)
        notes = tuple(sorted(v.presses, key=lambda p: (p.t_ns, rank.get(p.seat, len(rank)), p.seat, p.control)))
        v = replace(v, winners=tuple(order), kind=kind, presses=notes)
        result = replace(result, winners=tuple(order), kind=kind, drawn=tuple(drawn),
                         presses=v.to_result().presses)
        return result, v

    def _follow_last(self, now_ns: int) -> list[RefereeEvent]:
        """Add late presses (FX-7 grace) to the last won race's list, for the panel (R-7).

        The listing ends where the next race opens (R-2): a press from there on is judged
        in the new race, where a press that would be false is late (FX-7)."""
        if self._after is None or self.last_verdict is None:
            return []
        spec, opened, until, before, race_no = self._after
        w = self.window
        if w is not None and w.race_no != race_no and w.opened_ns is not None:
            until = grace_end(until, w.opened_ns, self.settings) or until
        if now_ns > until + self.settings.settle_ns:
            self._after = None
        presses, _ = self._presses(opened, now_ns, until)
        v = judge_presses(spec, opened, presses, self.settings, max(now_ns, until + self.settings.settle_ns),
                          before)
        shown = tuple(p for p in v.presses if p.status not in ("after", "pending"))
        if len(shown) <= len(self.last_verdict.presses):
            return []
        rank = {s: i for i, s in enumerate(self.last_verdict.winners)}
        shown = tuple(sorted(shown, key=lambda p: (p.t_ns, rank.get(p.seat, len(rank)), p.seat, p.control)))
        self.last_verdict = replace(self.last_verdict, presses=shown)
        return [RefereeEvent("updated", (), self.last_verdict, now_ns)]

    def _apply_result(self, result: RaceResult) -> None:
        self.state.apply(result)
        self._sync()

    def _sync(self) -> None:
        """Follow the state: a new race number means a new window (not yet opened)."""
        st = self.state
        if st.current_player() == RACE:
            race = racing(st)
            no = race.race_no
            if self.window is None or self.window.race_no != no:
                self.window = Window(no, race.race_spec())
            else:
                self.window.spec = race.race_spec()
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
        """Forget presses no race can still need: those that ended before the open window's
        opening (or the last won race's, while its late presses are still listed)."""
        w = self.window
        keep = w.opened_ns if w is not None and w.opened_ns is not None else now_ns - self.settings.settle_ns
        if self._after is not None:
            keep = min(keep, self._after[1])
        self.debouncer.prune(now_ns, keep)


def winning_press_ns(v: Verdict, winners: tuple[int, ...]) -> int:
    """The stamp (ns) of the earliest winning press of a won race: the first of the ``winners``'
    presses that won it (``first``, ``tied``, or a right ``claim`` of a claim window), not a
    press of theirs that was ``late`` for the race before (FX-7)."""
    won = [p.t_ns for p in v.presses if p.seat in winners and p.status in ("first", "tied", "claim")]
    return min(won) if won else min(p.t_ns for p in v.presses if p.seat in winners)


def _game_seed(state: State) -> int:
    """A seed from the game's first recorded action (a deal: differs from game to game)."""
    if not state.history:
        return 0
    first = state.history[0][1]
    text = json.dumps(first.to_json(), sort_keys=True)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
