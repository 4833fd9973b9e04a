"""Sherlook scoring (seed 002 "Scoring a Round", SL-4) and the end of the game (SL-5)."""

from __future__ import annotations

import pytest

from arcade.sherlook.scoring import ScoringError, leaders, score_round

A, B, C, D = 0, 1, 2, 3     # Adriana, Barbara, Carla, Davide


def test_SL4_seed_example_7_differences():
    """Seed: 7 differences; A 4, B 5, C 7, D 8 -> D red (1), B yellow (2), C green (3)."""
    sc = score_round(7, {A: 4, B: 5, C: 7, D: 8})
    assert (sc.red, sc.yellow, sc.green) == (D, B, C)
    assert dict(sc.points) == {A: 0, B: 2, C: 3, D: 1}


def test_SL4_seed_variation_davide_takes_6():
    """Seed: had D chosen 6, nobody is above: the red goes to C (3 + 1 = 4); the 6 is now
    closest below and takes the yellow (the French text), so B scores nothing."""
    sc = score_round(7, {A: 4, B: 5, C: 7, D: 6})
    assert sc.tokens(C) == ("green", "red")
    assert sc.yellow == D
    assert dict(sc.points) == {A: 0, B: 0, C: 4, D: 2}


def test_SL4_exact_takes_both_unearned_tokens():
    sc = score_round(3, {A: 3, B: 9}, seats=[A, B, C])
    # 9 is closest above (red); nobody below, so the yellow also goes to the exact guess
    assert sc.tokens(A) == ("green", "yellow")
    assert dict(sc.points) == {A: 5, B: 1, C: 0}
    alone = score_round(5, {A: 5})
    assert alone.points[A] == 6 and alone.tokens(A) == ("green", "yellow", "red")


def test_SL4_no_exact_green_discarded_red_and_yellow_still_given():
    sc = score_round(6, {A: 2, B: 5, C: 8, D: 10})
    assert sc.green is None
    assert (sc.yellow, sc.red) == (B, C)
    assert dict(sc.points) == {A: 0, B: 2, C: 1, D: 0}


def test_SL4_all_above_or_all_below():
    above = score_round(1, {A: 2, B: 3})
    assert (above.green, above.yellow, above.red) == (None, None, A)
    below = score_round(10, {A: 8, B: 9})
    assert (below.green, below.yellow, below.red) == (None, B, None)


def test_SL3_player_without_marker_does_not_score():
    # D's countdown ran out: D holds no marker, so D cannot be the closest guess
    sc = score_round(7, {A: 4, B: 8}, seats=[A, B, C, D])
    assert dict(sc.points) == {A: 2, B: 1, C: 0, D: 0}


def test_SL3_a_marker_is_held_by_one_seat_only():
    with pytest.raises(ScoringError) as err:
        score_round(5, {A: 4, B: 4})
    assert isinstance(err.value, ValueError)
    with pytest.raises(ScoringError):
        score_round(5, {A: 11})


def test_SL5_leaders_most_points_then_most_greens():
    points = [20, 20, 18]
    greens = [3, 4, 6]
    assert leaders(points, greens, [0, 1, 2]) == (1,)
    assert leaders([20, 20, 18], [4, 4, 6], [0, 1, 2]) == (0, 1)      # an extra round decides
    assert leaders([20, 20, 25], [4, 4, 0], [0, 1]) == (0, 1)         # only the tied seats count
