"""Field reports B-1 .. B-5 (cases/field-reports.md): buzzer faults people really met.

Each test names its scenario and covers the whole kind of fault, not only the
one case: several bounce patterns, hold times, delays and delivery orders.
The races are real FocusX Classic races (arcade/focusx/classic.py) driven by
the referee (arcade/core/referee.py) the way the kiosk drives them: edges are
fed when they are delivered, the referee ticks every frame, and what a player
notices is who takes the trio and who loses a card.
"""

from __future__ import annotations

import random
from typing import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

from arcade.core.api import RACE
from arcade.core.events import Edge
from arcade.core.judge import JudgeSettings
from arcade.core.race import RaceResult
from arcade.core.referee import Referee
from arcade.focusx.cards import full_deck, is_focus, make_card
from arcade.focusx.classic import ClassicGame, ClassicState, Deal

MS = 1_000_000
FRAME_NS = 16_666_667
OPEN_NS = 10_000 * MS            # the focus is shown (frame flipped) at 10 s
PROPS = settings(max_examples=60, deadline=None)

#: Three red cards: a focus by colour (FX-2).
FOCUS_CARDS = (make_card(0, 1, 0), make_card(1, 2, 0), make_card(2, 3, 0))
assert is_focus(FOCUS_CARDS)


def ns(ms: float) -> int:
    return int(round(ms * MS))


def focus_on_table(seats: int = 2, js: JudgeSettings | None = None, open_at: int = OPEN_NS,
                   laid: int = 3) -> tuple[ClassicState, Referee]:
    """A Classic game at the race window opened (frame flipped) at ``open_at``.

    The deal puts the three :data:`FOCUS_CARDS` where the seats in turn (FX-4
    default spots) lay them, so after ``laid`` = 3 cards a focus shows; with
    fewer the table has no focus.  Seat ``s``'s pile is ``order[s*each:(s+1)*each]``,
    top = last.
    """
    each = 64 // seats
    positions: list[int] = []
    depth: dict[int, int] = {}
    for k in range(3):
        s = k % seats
        positions.append((s + 1) * each - 1 - depth.get(s, 0))
        depth[s] = depth.get(s, 0) + 1
    order = [c for c in full_deck() if c not in FOCUS_CARDS]
    for pos, card in sorted(zip(positions, FOCUS_CARDS)):
        order.insert(pos, card)
    state = ClassicGame(seats).new_initial_state()
    ref = Referee(state, js or JudgeSettings())
    ref.apply(Deal(tuple(order)))
    t = open_at - 10_000 * MS
    for k in range(laid):
        ref.apply(state.default_action())
        if k < laid - 1:                     # show the table and move on to the next card
            ref.frame_shown(t)
            ref.request_close(t + 100 * MS)
            while state.current_player() == RACE:
                t += FRAME_NS
                ref.tick(t)
            t += 500 * MS
    assert state.current_player() == RACE and bool(state.trios()) == (laid == 3)
    ref.frame_shown(open_at)
    return state, ref


def play(ref: Referee, deliveries: Iterable[tuple[int, Edge]], until_ns: int = OPEN_NS + 3000 * MS) -> None:
    """Deliver ``(delivery time, edge)`` pairs and tick every frame until the race is over."""
    queue = sorted(deliveries, key=lambda d: d[0])       # stable: same-time deliveries keep list order
    t = OPEN_NS
    race = ref.state.race_no  # type: ignore[attr-defined]
    while t < until_ns and ref.state.race_no == race:    # type: ignore[attr-defined]
        while queue and queue[0][0] <= t:
            ref.feed(queue.pop(0)[1])
        ref.tick(t)
        t += FRAME_NS


def results(state: ClassicState) -> list[RaceResult]:
    return [a for _, a in state.history if isinstance(a, RaceResult)]


def tap(seat: int, t_ns: int, hold_ms: float = 80.0) -> list[Edge]:
    return [Edge(t_ns, seat, "buzzer", True), Edge(t_ns + ns(hold_ms), seat, "buzzer", False)]


def bouncing_press(seat: int, t_ns: int, gaps_ms: list[float], hold_ms: float = 150.0) -> list[Edge]:
    """A press whose contact bounces after each gap (then settles closed), held ``hold_ms``."""
    edges = [Edge(t_ns, seat, "buzzer", True)]
    level, t = True, t_ns
    for g in gaps_ms:
        t += ns(g)
        level = not level
        edges.append(Edge(t, seat, "buzzer", level))
    if not level:
        edges.append(Edge(t + 1000, seat, "buzzer", True))
    edges.append(Edge(t_ns + ns(hold_ms), seat, "buzzer", False))
    return edges


def at_stamp(edges: Iterable[Edge]) -> list[tuple[int, Edge]]:
    return [(e.t_ns, e) for e in edges]


# -- B-1 bouncing contact -------------------------------------------------------------------

def test_B1_bouncing_contact_exact_case() -> None:
    # A's switch bounces three times within 2 ms from t = 0 (0 is 400 ms after the opening);
    # B presses cleanly at 1.5 ms.  A tie window under 1.5 ms separates them: A wins.
    t0 = OPEN_NS + ns(400)
    a = bouncing_press(0, t0, [0.5, 0.6, 0.7])
    b = tap(1, t0 + ns(1.5))
    state, ref = focus_on_table(js=JudgeSettings(tie_window_ms=1))
    play(ref, at_stamp(a + b))
    last = results(state)[-1]
    assert last.winners == (0,)
    assert sorted(state.victory[0]) == sorted(FOCUS_CARDS) and state.victory[1] == []
    presses = [(s, us) for s, _, us, _ in last.presses]
    assert presses == [(0, 400_000), (1, 401_500)]          # A once, judged at t = 0


def test_B1_bouncing_contact_with_the_default_tie_window() -> None:
    # With the default 20 ms window B's press 1.5 ms later is a debated tie (FX-6): A is
    # first in the press order (takes the first card) and is counted once.
    t0 = OPEN_NS + ns(400)
    state, ref = focus_on_table()
    play(ref, at_stamp(bouncing_press(0, t0, [0.5, 0.6, 0.7]) + tap(1, t0 + ns(1.5))))
    last = results(state)[-1]
    assert last.winners == (0, 1)
    assert [s for s, _, _, _ in last.presses] == [0, 1]
    assert len(state.victory[0]) == 1 and len(state.victory[1]) == 1


@PROPS
@given(st.lists(st.floats(0.05, 0.9), min_size=1, max_size=7), st.floats(1.05, 3.0),
       st.sampled_from([0.0, 0.5, 1.0]), st.integers(0, 2**32 - 1))
def test_B1_any_bounce_pattern_counts_once_at_the_first_edge(gaps: list[float], b_after_ms: float,
                                                              window_ms: float, seed: int) -> None:
    """Bounces of any number and spacing (within 2 ms): A wins, judged at its first edge."""
    gaps = [g * 2.0 / max(2.0, sum(gaps) + 0.01) for g in gaps]        # all within 2 ms
    t0 = OPEN_NS + ns(400)
    edges = bouncing_press(0, t0, gaps) + tap(1, t0 + ns(b_after_ms))
    random.Random(seed).shuffle(edges)
    state, ref = focus_on_table(js=JudgeSettings(tie_window_ms=window_ms))
    play(ref, [(e.t_ns + random.Random(seed + i).randint(0, 5 * MS), e) for i, e in enumerate(edges)])
    last = results(state)[-1]
    assert last.winners == (0,)
    assert [(s, us) for s, _, us, _ in last.presses if s == 0] == [(0, 400_000)]


# -- B-2 release bounce after a long hold -------------------------------------------------------

@PROPS
@given(st.floats(200, 5000), st.lists(st.floats(0.1, 2.5), min_size=4, max_size=4), st.floats(-0.3, 0.95))
def test_B2_release_bounce_after_a_long_hold(hold_ms: float, bounces: list[float], phase: float) -> None:
    """A player holds the buzzer for hold_ms and the release bounces four times: no new press.

    The table shows no focus, so a phantom press would be a false focus.  The race
    opens during the hold (``phase`` > 0: that far into it) or before the press.
    """
    pressed_at = OPEN_NS - int(phase * ns(hold_ms))
    release = pressed_at + ns(hold_ms)
    edges = [Edge(pressed_at, 0, "buzzer", True), Edge(release, 0, "buzzer", False)]
    level, t = False, release
    for g in bounces:                          # four bounces, ending released
        t += ns(g)
        level = not level
        edges.append(Edge(t, 0, "buzzer", level))
    if level:
        edges.append(Edge(t + 1000, 0, "buzzer", False))
    state, ref = focus_on_table(laid=1)
    ref.request_close(release + ns(500))
    play(ref, at_stamp(edges), until_ns=release + ns(2000))
    assert state.current_player() != RACE or state.race_no > 1     # the window was closed
    last = results(state)[-1]
    mine = [p for p in last.presses if p[0] == 0]
    if pressed_at >= OPEN_NS:                  # pressed in the race: one (false) claim, once
        assert [p[3] for p in mine] == ["false"] and last.false_shouts == (0,)
    else:                                      # pressed before the opening: nothing at all
        assert mine == [] and last.false_shouts == () and state.stats["false"] == 0


# -- B-3 slow work in a handler -----------------------------------------------------------------

@PROPS
@given(st.sampled_from([(0, 1), (1, 0)]), st.floats(250, 600), st.booleans(), st.floats(0, 2000))
def test_B3_slow_handler_the_first_presser_wins(order: tuple[int, int], busy_ms: float, reverse: bool,
                                                 first_ms: float) -> None:
    """The input path is busy for busy_ms while two players press 5 ms apart; both edges
    come out together afterwards (in either order).  The first presser wins."""
    first, second = order
    t0 = OPEN_NS + ns(150 + first_ms)
    edges = tap(first, t0) + tap(second, t0 + ns(5))
    if reverse:
        edges.reverse()
    state, ref = focus_on_table(js=JudgeSettings(tie_window_ms=2))
    play(ref, [(t0 + ns(busy_ms), e) for e in edges])
    assert results(state)[-1].winners == (first,)
    assert sorted(state.victory[first]) == sorted(FOCUS_CARDS)


def test_B3_slow_handler_with_the_default_tie_window() -> None:
    # 5 ms apart is within the default 20 ms tie window: debated, the first presser first.
    t0 = OPEN_NS + ns(700)
    state, ref = focus_on_table()
    play(ref, [(t0 + ns(300), e) for e in tap(1, t0 + ns(5)) + tap(0, t0)])
    assert results(state)[-1].winners == (0, 1)


# -- B-4 quick tap while busy -------------------------------------------------------------------

@PROPS
@given(st.floats(1, 20), st.floats(0, 300), st.booleans())
def test_B4_quick_tap_while_busy_counts(tap_ms: float, busy_ms: float, reverse: bool) -> None:
    """A press and release within 20 ms, both delivered late together: the press counts."""
    t0 = OPEN_NS + ns(600)
    edges = [Edge(t0, 1, "buzzer", True), Edge(t0 + ns(tap_ms), 1, "buzzer", False)]
    if reverse:
        edges.reverse()
    state, ref = focus_on_table()
    play(ref, [(t0 + ns(tap_ms) + ns(busy_ms), e) for e in edges])
    last = results(state)[-1]
    assert last.winners == (1,) and [(s, us) for s, _, us, _ in last.presses] == [(1, 600_000)]


# -- B-5 out-of-order delivery ------------------------------------------------------------------

@PROPS
@given(st.integers(2, 8), st.lists(st.floats(25, 400), min_size=7, max_size=7), st.integers(0, 2**32 - 1))
def test_B5_reverse_delivery_the_earlier_stamp_wins(n: int, gaps: list[float], seed: int) -> None:
    """Presses of n players reach the referee in the reverse order of their stamps (all in
    one batch after the last press); the earliest stamp wins, the order is the stamps'."""
    seats = list(range(n))
    random.Random(seed).shuffle(seats)
    state, ref = focus_on_table(n)
    stamps, t_ms = [], 300.0
    for s, g in zip(seats, gaps):
        stamps.append((s, OPEN_NS + ns(t_ms)))
        t_ms += g
    edges = [e for s, t_ns in stamps for e in tap(s, t_ns, hold_ms=20)]
    batch = max(e.t_ns for e in edges)
    play(ref, [(batch, e) for e in reversed(edges)])
    last = results(state)[-1]
    assert last.winners == (seats[0],)
    assert sorted(state.victory[seats[0]]) == sorted(FOCUS_CARDS)
    # Every press up to the verdict is listed, in stamp order.
    listed = [s for s, _, _, _ in last.presses]
    assert listed == [s for s, _ in stamps][:len(listed)] and listed[0] == seats[0]


def test_B5_two_presses_reversed_within_one_frame() -> None:
    t0 = OPEN_NS + ns(500)
    state, ref = focus_on_table(js=JudgeSettings(tie_window_ms=0))
    play(ref, [(t0 + ns(8), e) for e in tap(1, t0 + ns(3)) + tap(0, t0)][::-1])
    assert results(state)[-1].winners == (0,)
