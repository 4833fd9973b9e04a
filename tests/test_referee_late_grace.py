"""FX-7's late grace as the ruling now reads, 1 ns either side of each bound.

The grace runs ``late_grace_ms`` (400 ms) from the winning press itself.  When the next
race opens inside it, a press of the grace that is a right claim in the new race wins it
like any other; one that would be false there is late for the race just won and costs
nothing.  Its bounds: the winning press + the grace (inclusive), and the next race's
opening (R-2: a press before it is not part of the new race).  The grace never runs from
an earlier press of the winner that was late for an older race.
"""

from __future__ import annotations

from typing import Any

import pytest

from arcade.core.api import RACE, TERMINAL, Action, Game, Outcome, State
from arcade.core.events import Edge
from arcade.core.judge import JudgeSettings, judge_race
from arcade.core.race import FOCUS, FOCUS_EX, RaceResult, RaceSpec
from arcade.core.referee import Referee

MS = 1_000_000
GRACE = 400 * MS
FRAME_NS = 16_666_667


def tap(seat: int, t_ns: int, hold_ms: float = 40.0) -> list[Edge]:
    return [Edge(t_ns, seat, "buzzer", True), Edge(t_ns + int(hold_ms * MS), seat, "buzzer", False)]


def spec(kinds: set[str], x_rule: bool = False, eligible: frozenset[int] = frozenset(range(4))) -> RaceSpec:
    return RaceSpec(eligible=eligible, valid_kinds=frozenset(kinds), x_rule=x_rule)


# -- the judge: presses of a new race opened inside the grace ------------------------------------

WON_NS = 1_000 * MS                  # the winning press of the race before
LATE_UNTIL = WON_NS + GRACE          # the grace's end, inclusive
OPENED = WON_NS + 50 * MS            # the next race opens inside the grace


def judged(edges: list[Edge], kinds: set[str], x_rule: bool = False) -> Any:
    return judge_race(spec(kinds, x_rule), OPENED, edges, JudgeSettings(), OPENED + 5_000 * MS, LATE_UNTIL)


@pytest.mark.parametrize("t", [OPENED, OPENED + 1, OPENED + 99 * MS, LATE_UNTIL - 1, LATE_UNTIL])
def test_FX7_a_press_in_the_grace_that_would_be_false_in_the_new_race_is_late_and_costs_nothing(t: int) -> None:
    # The new table has no focus: the slower player answered the table they saw.
    v = judged(tap(2, t), kinds=set())
    assert [(p.seat, p.status) for p in v.presses] == [(2, "late")]
    assert v.false_shouts == () and v.late == (2,)


def test_FX7_one_ns_after_the_grace_a_wrong_press_is_false() -> None:
    v = judged(tap(2, LATE_UNTIL + 1), kinds=set())
    assert [(p.seat, p.status) for p in v.presses] == [(2, "false")] and v.false_shouts == (2,)


@pytest.mark.parametrize("t", [OPENED, OPENED + 1, OPENED + 99 * MS, LATE_UNTIL - 1, LATE_UNTIL, LATE_UNTIL + 1])
def test_FX7_a_right_claim_in_the_grace_wins_the_new_race_like_any_other(t: int) -> None:
    # The new table shows a focus: no dead zone for the quick (a slower player's press
    # 25 ms later loses to it).
    v = judged(tap(1, t) + tap(3, t + 25 * MS), kinds={FOCUS})
    assert v.final and v.winners == (1,)
    assert [(p.seat, p.status) for p in v.presses] == [(1, "first"), (3, "late")]
    assert v.false_shouts == ()


def test_FX7_a_press_1_ns_before_the_next_race_opens_is_not_part_of_it() -> None:
    # it belongs to the race before (listed late there); the new race has no claim.
    v = judged(tap(1, OPENED - 1), kinds={FOCUS})
    assert v.presses == () and v.winners == ()


def test_FX7_a_late_press_does_not_use_up_the_seat_in_the_new_race() -> None:
    # FocusX rule: the new table holds only a FocusX.  P2's single press in the grace claims
    # a plain focus: false there, so late (no cost); P2's double press after it claims the
    # FocusX and wins.
    t2 = LATE_UNTIL + 100 * MS
    v = judged(tap(1, OPENED + 120 * MS) + tap(1, t2) + tap(1, t2 + 120 * MS), kinds={FOCUS_EX}, x_rule=True)
    assert v.final and v.winners == (1,) and v.kind == FOCUS_EX
    assert [(p.seat, p.status) for p in v.presses] == [(1, "late"), (1, "first")]
    assert v.false_shouts == ()


def test_FX7_a_wrong_kind_in_the_grace_is_late_a_right_kind_from_another_seat_wins() -> None:
    # Both halves at once: P1's plain-focus claim (wrong: only a FocusX shows) costs nothing,
    # P3's FocusX claim 5 ms later wins.
    v = judged(tap(1, OPENED + 150 * MS) + tap(3, OPENED + 155 * MS) + tap(3, OPENED + 255 * MS),
               kinds={FOCUS_EX}, x_rule=True)
    assert v.winners == (3,) and v.false_shouts == ()
    assert (1, "late") in [(p.seat, p.status) for p in v.presses]


# -- the referee: the grace runs from the winning press itself ------------------------------------

class _Races(Game):
    """A game that is a row of race windows, one after the other: a decisive result opens the
    next (its table is shown by the next frame); a false claim costs that seat a point."""

    name = "races"
    title = "Races"
    min_seats = 1
    max_seats = 8
    action_types = (RaceResult,)

    def __init__(self, specs: list[RaceSpec]) -> None:
        super().__init__(4)
        self.specs = specs

    def new_initial_state(self) -> "_RacesState":
        return _RacesState(self)


class _RacesState(State):
    game: _Races

    def __init__(self, game: _Races) -> None:
        super().__init__(game)
        self.race_no = 0
        self.won: list[tuple[int, ...]] = []
        self.charged: list[int] = []
        self.late: list[int] = []

    def current_player(self) -> int:
        return RACE if self.race_no < len(self.game.specs) else TERMINAL

    def legal_actions(self, player: int | None = None) -> list[Action]:
        return [RaceResult(closed=True)]

    def check(self, player: int, action: Action) -> str | None:
        return None

    def _apply(self, player: int, action: Action) -> None:
        assert isinstance(action, RaceResult)
        self.charged += list(action.false_shouts)
        self.late += list(action.late)
        if action.decisive:
            self.won.append(action.winners)
            self.race_no += 1

    def outcome(self) -> Outcome | None:
        return None

    def snapshot(self) -> dict[str, Any]:
        return {"race_no": self.race_no}

    def race_spec(self) -> RaceSpec:
        return self.game.specs[self.race_no]


class Table:
    """A referee on a virtual clock: frames every 16.7 ms, each edge fed at its stamp."""

    def __init__(self, specs: list[RaceSpec]) -> None:
        self.state = _RacesState(_Races(specs))
        self.ref = Referee(self.state, JudgeSettings())
        self.t = 10_000 * MS
        self.pending: list[Edge] = []
        self.openings: list[int] = []
        self.frame()

    def frame(self) -> None:
        self.t += FRAME_NS
        for e in [e for e in self.pending if e.t_ns <= self.t]:
            self.ref.feed(e)
        self.pending = [e for e in self.pending if e.t_ns > self.t]
        self.ref.tick(self.t)
        w = self.ref.window
        if w is not None and w.opened_ns is None:
            self.ref.frame_shown(self.t)
            self.openings.append(self.t)

    def run(self, until_ns: int) -> None:
        while self.t < until_ns:
            self.frame()

    def run_until(self, done: Any, limit_ns: int = 10_000 * MS) -> None:
        end = self.t + limit_ns
        while not done() and self.t < end:
            self.frame()
        assert done()


@pytest.mark.parametrize("offset_ns, charged", [(0, False), (1, True)])
def test_FX7_the_referee_charges_nothing_in_the_grace_and_the_wrong_press_after_it(
        offset_ns: int, charged: bool) -> None:
    """P1 wins race 1; race 2 (no focus) opens inside the grace; P2, slower, presses at the
    grace's end (late, no cost) or 1 ns after it (false)."""
    table = Table([spec({FOCUS}), spec(set()), spec({FOCUS})])
    won = table.openings[0] + 300 * MS
    table.pending += tap(0, won)
    table.run_until(lambda: table.state.race_no == 1)
    assert table.state.won == [(0,)] and table.openings[1] < won + GRACE
    table.pending += tap(1, won + GRACE + offset_ns)
    table.run(won + GRACE + 600 * MS)
    assert table.state.charged == ([1] if charged else [])
    assert table.state.race_no == 1                       # race 2 is still open


@pytest.mark.parametrize("offset_ns, charged", [(0, False), (1, True)])
def test_FX7_the_grace_runs_from_the_winning_press_not_an_earlier_late_press_of_the_winner(
        offset_ns: int, charged: bool) -> None:
    """P1 wins race 1.  Race 2 shows only a FocusX: P1's plain-focus claim in race 1's grace
    is late there (no cost); P1 then wins race 2 with a double press at ``won2``.  Race 3 has
    no focus: P2's press at ``won2`` + the grace is late; 1 ns later it is false.  (The grace
    of race 2 was counted from P1's late press, 500 ms earlier, and P2 lost a card.)"""
    table = Table([spec({FOCUS}, x_rule=True), spec({FOCUS_EX}, x_rule=True), spec(set(), x_rule=True)])
    won1 = table.openings[0] + 300 * MS
    table.pending += tap(0, won1)
    table.run_until(lambda: table.state.race_no == 1)
    opened2 = table.openings[1]
    assert opened2 < won1 + GRACE
    early = (opened2 + won1 + GRACE) // 2                 # in race 1's grace
    won2 = early + 500 * MS                               # after it
    table.pending += tap(0, early) + tap(0, won2) + tap(0, won2 + 100 * MS)
    table.run_until(lambda: table.state.race_no == 2)
    assert table.state.won == [(0,), (0,)] and table.state.charged == [] and table.state.late.count(0) >= 1
    assert table.openings[2] < won2 + GRACE
    table.pending += tap(1, won2 + GRACE + offset_ns)
    table.run(won2 + GRACE + 600 * MS)
    assert table.state.charged == ([1] if charged else [])


@pytest.mark.parametrize("offset_ns", [0, 1])
def test_FX7_a_quick_right_claim_wins_the_race_opened_in_the_grace(offset_ns: int) -> None:
    """The win uncovers a new focus (FX-5): P2's claim from the new race's first frame on
    wins it, however soon after the opening; 1 ns before the opening it is not part of it."""
    table = Table([spec({FOCUS}), spec({FOCUS}), spec(set())])
    won = table.openings[0] + 300 * MS
    table.pending += tap(0, won)
    table.run_until(lambda: table.state.race_no == 1)
    opened2 = table.openings[1]
    # The frame after the next one is where a press at the opening is delivered: it is
    # stamped at the opening (+ offset) and reaches the referee a frame later.
    table.pending += tap(1, opened2 + offset_ns) + tap(2, opened2 + 30 * MS)
    table.run_until(lambda: table.state.race_no == 2)
    assert table.state.won == [(0,), (1,)] and table.state.charged == []
