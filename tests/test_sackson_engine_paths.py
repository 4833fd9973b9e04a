"""The lean make/unmake (two players) and the full one give the same game, and the plain
reference perft of bench/ counts the same leaves (so bench_perft.py compares like with like)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from arcade.core.api import TERMINAL
from arcade.sackson import SacksonGame, SacksonState, perft
from arcade.sackson.game import Move_t

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from plain_perft import PlainState, plain_bulk, plain_perft  # noqa: E402


@pytest.mark.parametrize("variant,depth", [("2p", 3), ("crossfire", 2)])
def test_plain_reference_counts_equal_the_engines(variant: str, depth: int) -> None:
    s = SacksonGame(2, {"variant": variant}).new_initial_state()
    want = perft(s, depth, bulk=False)
    assert plain_perft(PlainState(variant), depth) == want
    assert plain_bulk(PlainState(variant), depth) == want
    if variant == "crossfire":
        assert plain_perft(PlainState(variant, ko=True), depth) == want
        assert plain_bulk(PlainState(variant, ko=True), depth) == want


@pytest.mark.parametrize("variant,swap", [("2p", False), ("crossfire", False), ("2p", True), ("crossfire", True)])
def test_lean_and_full_paths_agree_move_by_move_with_takebacks(variant: str, swap: bool) -> None:
    # the mirror rule sends every move through the full path; its verdict only matters when
    # the second player copied everything, which random play never does past a few moves
    lean = SacksonGame(2, {"variant": variant, "max_plies_without_capture": 40,
                           "opening_swap": swap}).new_initial_state()
    full = SacksonGame(2, {"variant": variant, "max_plies_without_capture": 40, "opening_swap": swap,
                           "mirror_rule": True}).new_initial_state()
    assert type(lean).__name__ == "_LeanState" and type(full).__name__ == "SacksonState"
    rng = random.Random(7)
    for _ply in range(400):
        if lean.is_terminal():
            assert full.is_terminal()
            break
        ms = lean._moves()
        assert sorted(ms) == sorted(full._moves())
        if len(lean.history) > 4 and rng.random() < 0.2:
            lean.undo()
            full.undo()
        else:
            a = lean._t.action(rng.choice(ms))
            lean.apply(a)
            full.apply(a)
        assert lean.position_key == full.position_key
        assert lean.snapshot()["stacks"] == full.snapshot()["stacks"]
        assert lean.reserve(0) == full.reserve(0) and lean.captured(0) == full.captured(0)
        assert lean._ply == full._ply
        assert lean.plies_without_capture == full.plies_without_capture
        assert lean.in_opening_swap == full.in_opening_swap
    # a fresh state built from the same moves has the same key (nothing left stale)
    again = SacksonGame(2, {"variant": variant, "max_plies_without_capture": 40,
                            "opening_swap": swap}).new_initial_state()
    for _p, a in lean.history:
        again.apply(a)
    assert again.position_key == lean.position_key and again._seen == lean._seen


def _there_and_back(s: SacksonState) -> tuple[Move_t, Move_t]:
    """A one-stone move of the side to move onto an empty cell, and the move back."""
    for m in s._moves():
        src, dst, k = m
        if src >= 0 and k == 1 and len(s._st[src]) == 1 and not s._st[dst]:
            return m, (dst, src, 1)
    raise AssertionError("no such move")


def test_moves_made_without_looking_in_between_still_count_for_repetition() -> None:
    # a search may make several moves and only then look at the position: every position on
    # the way still counts, so the start coming back a third time is a draw (SF-3)
    s = SacksonGame(2).new_initial_state()
    start_key, start_seen = s.position_key, dict(s._seen)
    a_go, a_back = _there_and_back(s)
    s._make(a_go)
    b_go, b_back = _there_and_back(s)
    s._unmake()
    for m in [a_go, b_go, a_back, b_back] * 2:
        s._make(m)
    out = s.outcome()
    assert out is not None and out.is_draw and "third time" in out.reason
    assert s.current_player() == TERMINAL
    for _ in range(8):
        s._unmake()
    assert s.position_key == start_key and s._seen == start_seen and s.outcome() is None


@pytest.mark.parametrize("variant", ["2p", "crossfire"])
def test_moves_made_without_looking_reach_the_same_position_as_moves_looked_at(variant: str) -> None:
    rng = random.Random(11)
    blind = SacksonGame(2, {"variant": variant}).new_initial_state()
    start_key, start_seen = blind.position_key, dict(blind._seen)
    looked = blind.copy()
    for _game in range(20):
        plies = 0
        while plies < 60 and not looked.is_terminal():
            m = rng.choice(looked._moves())
            looked._make(m)
            blind._make(m)
            plies += 1
        # only now is the blind state looked at: the same key, repetition counts and outcome
        assert blind.position_key == looked.position_key and blind._seen == looked._seen
        assert blind.outcome() == looked.outcome()
        assert blind.plies_without_capture == looked.plies_without_capture
        assert blind.captured(0) == looked.captured(0) and blind.reserve(1) == looked.reserve(1)
        for _ in range(plies):
            blind._unmake()
            looked._unmake()
        assert blind.position_key == start_key and blind._seen == start_seen
