"""Debounce (ruling R-3): raw contact edges in, one press per real press out.

What a player notices: a chattering switch counts once, at the moment the
contact first closed; letting go of a button never counts as a press; a quick
tap counts; two buttons (or two stations) never mix.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade.core.events import Edge
from arcade.core.judge import Press, debounce

MS = 1_000_000
DEB_MS = 15.0
DEB = int(DEB_MS * MS)
PROPS = settings(max_examples=120, deadline=None)


def ns(ms: float) -> int:
    return int(round(ms * MS))


def chatter(seat: int, t_ms: float, gaps_ms: list[float], pressed: bool, control: str = "buzzer") -> list[Edge]:
    """Edges of one contact change at ``t_ms`` that chatters: it toggles after each gap and
    ends in the ``pressed`` state (an extra edge is added if needed)."""
    edges = [Edge(ns(t_ms), seat, control, pressed)]
    level, t = pressed, t_ms
    for g in gaps_ms:
        t += g
        level = not level
        edges.append(Edge(ns(t), seat, control, level))
    if level != pressed:
        edges.append(Edge(ns(t + 0.05), seat, control, pressed))
    return edges


def test_R3_a_chattering_press_counts_once_at_its_first_edge() -> None:
    edges = chatter(0, 100.0, [0.3, 0.2, 0.6, 0.4, 0.9, 1.1], True) + chatter(0, 400.0, [0.5, 0.5], False)
    presses = debounce(edges, DEB)
    assert [(p.seat, p.t_ns, p.released_ns) for p in presses] == [(0, ns(100), ns(400))]
    assert presses[0].edges == 8          # the 7 edges of the chattering press and its release edge


def test_R3_edges_further_apart_than_debounce_are_separate_presses() -> None:
    edges = [Edge(ns(0), 1, "buzzer", True), Edge(ns(20), 1, "buzzer", False),
             Edge(ns(40), 1, "buzzer", True), Edge(ns(60), 1, "buzzer", False)]
    assert [p.t_ns for p in debounce(edges, DEB)] == [ns(0), ns(40)]
    # With debounce 0 every transition counts.
    assert len(debounce(edges, 0)) == 2


def test_release_bounce_after_a_long_hold_adds_no_press() -> None:
    edges = [Edge(ns(0), 0, "buzzer", True)] + chatter(0, 1000.0, [0.4, 0.6, 0.3, 0.8], False)
    presses = debounce(edges, DEB)
    assert [(p.t_ns, p.released_ns) for p in presses] == [(ns(0), ns(1000))]


def test_a_tap_shorter_than_the_debounce_time_counts() -> None:
    edges = [Edge(ns(50), 2, "buzzer", True), Edge(ns(58), 2, "buzzer", False)]
    (p,) = debounce(edges, DEB, now_ns=ns(100))
    assert p.t_ns == ns(50) and p.released_ns is not None
    # Without ``now`` and no later edge, the release is not yet known; the press still counts.
    (p,) = debounce(edges, DEB)
    assert p.t_ns == ns(50)


def test_a_held_button_has_no_release_and_a_stray_release_is_no_press() -> None:
    (p,) = debounce([Edge(ns(10), 0, "buzzer", True)], DEB, now_ns=ns(9000))
    assert p.released_ns is None
    # A release whose press came before the edges we have (held when the arcade started).
    assert debounce([Edge(ns(10), 0, "buzzer", False)], DEB, now_ns=ns(9000)) == []


def test_controls_and_seats_never_mix() -> None:
    # Seat 0's buzzer and X control chatter at the same moments as seat 1's buzzer.
    edges = (chatter(0, 100.0, [0.5, 0.5], True) + chatter(0, 100.2, [0.5, 0.5], True, "x")
             + chatter(1, 100.1, [0.5, 0.5], True))
    got = sorted((p.seat, p.control, p.t_ns) for p in debounce(edges, DEB, now_ns=ns(500)))
    assert got == [(0, "buzzer", ns(100)), (0, "x", ns(100.2)), (1, "buzzer", ns(100.1))]


def test_negative_stamps_are_ordinary_times() -> None:
    # Stamps relative to a race opening may be negative; nothing special happens there.
    edges = chatter(3, -6000.0, [0.2, 0.2], True)
    (p,) = debounce(edges, DEB, now_ns=0)
    assert p.t_ns == ns(-6000) and p.released_ns is None


@pytest.mark.parametrize("bad, err", [
    (dict(t_ns=1.5, seat=0), TypeError), (dict(t_ns=True, seat=0), TypeError),
    (dict(t_ns=1, seat=-1), ValueError), (dict(t_ns=1, seat=0, control="trigger"), ValueError),
])
def test_edges_refuse_bad_fields(bad: dict[str, Any], err: type[Exception]) -> None:
    with pytest.raises(err):
        Edge(**bad)


@st.composite
def press_trains(draw: Any) -> tuple[list[Edge], list[tuple[int, int]]]:
    """Presses of one control with chattering contacts on press and release.

    Each press's chatter lasts under the debounce time, is held longer than it,
    and the next press starts more than the debounce time after the release.
    Returns the edges and the expected ``(press, release)`` stamps.
    """
    edges: list[Edge] = []
    expected: list[tuple[int, int]] = []
    t = draw(st.floats(0, 100))
    for _ in range(draw(st.integers(1, 6))):
        down = draw(st.lists(st.floats(0.05, 2.0), max_size=6))
        up = draw(st.lists(st.floats(0.05, 2.0), max_size=6))
        hold = draw(st.floats(DEB_MS + 15, 2000))
        edges += chatter(0, t, down, True)
        edges += chatter(0, t + hold, up, False)
        expected.append((ns(t), ns(t + hold)))
        t += hold + DEB_MS + 15 + draw(st.floats(0, 500))
    return edges, expected


@PROPS
@given(press_trains(), st.integers(0, 2**32 - 1))
def test_R3_every_real_press_counts_once_at_its_first_edge(train: tuple[list[Edge], list[tuple[int, int]]],
                                                           seed: int) -> None:
    edges, expected = train
    random.Random(seed).shuffle(edges)                 # delivery order does not matter either
    presses = debounce(edges, DEB, now_ns=max(e.t_ns for e in edges) + DEB)
    assert [(p.t_ns, p.released_ns) for p in presses] == expected
    assert all(isinstance(p, Press) and p.seat == 0 and p.control == "buzzer" for p in presses)
