"""The lean make/unmake (two players) and the full one give the same game, and the plain
reference perft of bench/ counts the same leaves (so bench_perft.py compares like with like)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from arcade.sackson import SacksonGame, perft

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from plain_perft import PlainState, plain_perft  # noqa: E402


@pytest.mark.parametrize("variant,depth", [("2p", 3), ("crossfire", 2)])
def test_plain_reference_counts_equal_the_engines(variant: str, depth: int) -> None:
    s = SacksonGame(2, {"variant": variant}).new_initial_state()
    want = perft(s, depth, bulk=False)
    assert plain_perft(PlainState(variant), depth) == want
    if variant == "crossfire":
        assert plain_perft(PlainState(variant, ko=True), depth) == want


@pytest.mark.parametrize("variant", ["2p", "crossfire"])
def test_lean_and_full_paths_agree_move_by_move_with_takebacks(variant: str) -> None:
    # the mirror rule sends every move through the full path; its verdict only matters when
    # the second player copied everything, which random play never does past a few moves
    lean = SacksonGame(2, {"variant": variant, "max_plies_without_capture": 40}).new_initial_state()
    full = SacksonGame(2, {"variant": variant, "max_plies_without_capture": 40,
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
    # a fresh state built from the same moves has the same key (nothing left stale)
    again = SacksonGame(2, {"variant": variant, "max_plies_without_capture": 40}).new_initial_state()
    for _p, a in lean.history:
        again.apply(a)
    assert again.position_key == lean.position_key and again._seen == lean._seen
