"""Notation of FOCUS and Crossfire (ruling SF-7; hex cells per docs/rules-sackson.md)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade.core.errors import ArcadeError, IllegalActionError
from arcade.sackson import (
    HEX,
    SQUARE,
    Drop,
    Move,
    NotationError,
    SacksonGame,
    Swap,
    format_action,
    format_square,
    parse_action,
    parse_square,
)
from arcade.sackson.notation import parse_moves, play

SEATS = {"2p": 2, "3p": 3, "4p-teams": 4, "4p": 4, "crossfire": 2}


def test_SF7_squares_a1_bottom_left_and_missing_corners_refused():
    assert format_square(parse_square("c3")) == "c3"
    assert SQUARE.coords[parse_square("c3")] == (2, 2)
    assert parse_square("C3") == parse_square("c3")
    for bad in ("a1", "h8", "b8", "i3", "c0", "c9", "3c", "", "c33"):
        with pytest.raises(NotationError) as exc:
            parse_square(bad)
        assert repr(bad) in str(exc.value)


def test_hex_cells_are_column_letter_and_half_row():
    assert HEX.coords[parse_square("E6", HEX)] == (4, 6)
    assert format_square(parse_square("e0", HEX), HEX) == "E0"
    for bad in ("E1", "A0", "J6", "E13", "c3x"):
        with pytest.raises(NotationError):
            parse_square(bad, HEX)


def test_SF7_move_count_implied_by_distance():
    assert parse_action("c3-c5") == Move("c3", "c5", 2)
    assert parse_action(" c3-c5:2 ") == Move("c3", "c5", 2)
    assert parse_action("E4-E0", HEX) == Move("E4", "E0", 2)
    assert parse_action("F1-A6", HEX) == Move("F1", "A6", 5)


def test_SF7_count_that_disagrees_is_refused():
    with pytest.raises(NotationError, match="c3-c5:3"):
        parse_action("c3-c5:3")


def test_SF7_moves_off_a_line_are_refused():
    with pytest.raises(NotationError, match="straight"):
        parse_action("c3-d4")
    with pytest.raises(NotationError, match="straight"):
        parse_action("E4-G4", HEX)
    with pytest.raises(NotationError):
        parse_action("c3-c3")


def test_SF7_drops_in_both_spellings_and_swaps():
    assert parse_action("+d4") == Drop("d4") == parse_action("r:d4") == parse_action("R:D4")
    assert parse_action("c3<>d3") == Swap("c3", "d3")
    assert format_action(Drop("d4")) == "+d4"
    assert format_action(Swap("c3", "d3")) == "c3<>d3"
    assert format_action(Move("c3", "c5", 2)) == "c3-c5"
    assert format_action(Move("c3", "c5", 3)) == "c3-c5:3"   # never legal, but nothing is lost
    assert format_action(Move("E4", "E0", 2)) == "E4-E0"     # the hex board is recognised by its names


def test_notation_errors_are_value_errors_naming_the_text():
    for bad in ("", "c3", "c3--c5", "+", "x:d4", "c3<>", "c3-c5:x", "hello"):
        with pytest.raises(NotationError) as exc:
            parse_action(bad)
        assert isinstance(exc.value, ValueError) and isinstance(exc.value, ArcadeError)
        assert repr(bad) in str(exc.value)
    with pytest.raises(NotationError):
        format_action("c3-c5")  # type: ignore[arg-type]


def test_parse_moves_and_play():
    assert parse_moves("c2-c1 f7-f8 +d4") == [Move("c2", "c1", 1), Move("f7", "f8", 1), Drop("d4")]
    s = SacksonGame(2).new_initial_state()
    play(s, "c2-c1 f7-f8")
    assert len(s.history) == 2
    with pytest.raises(IllegalActionError, match="c1-c3"):
        play(s, "c1-c3")


# -- hypothesis round trips -----------------------------------------------------------

@given(st.sampled_from([SQUARE, HEX]), st.data())
def test_square_round_trip(board, data):
    i = data.draw(st.integers(0, board.size - 1))
    name = format_square(i, board)
    assert parse_square(name, board) == i
    assert parse_square(name.swapcase(), board) == i


@given(st.sampled_from([SQUARE, HEX]), st.data())
def test_action_round_trip_every_straight_move(board, data):
    i = data.draw(st.integers(0, board.size - 1))
    ray = data.draw(st.sampled_from([r for r in board.rays[i] if r]))
    k = data.draw(st.integers(1, len(ray)))
    move = Move(board.cells[i], board.cells[ray[k - 1]], k)
    text = format_action(move, board)
    assert parse_action(text, board) == move
    assert parse_action(f"{text}:{k}", board) == move
    drop = Drop(board.cells[i])
    assert parse_action(format_action(drop, board), board) == drop
    assert parse_action(f"r:{board.cells[i]}", board) == drop


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(SEATS)), st.integers(0, 10_000), st.integers(0, 80))
def test_legal_actions_round_trip_in_play(variant, seed, plies):
    two = SEATS[variant] == 2
    s = SacksonGame(SEATS[variant], {"variant": variant, "opening_swap": two}).new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    for a in s.legal_actions():
        text = format_action(a, s)
        b = parse_action(text, s)
        assert b == a or (isinstance(a, Swap) and {b.a, b.b} == {a.a, a.b}), text
        assert s.check(s.current_player(), b) is None


@given(st.text(max_size=12))
def test_parse_never_crashes_on_garbage(text):
    try:
        a = parse_action(text)
    except NotationError:
        return
    assert isinstance(a, (Move, Drop, Swap))
    assert parse_action(format_action(a)) == a


# -- move lists and one-line positions ----------------------------------------------------

def test_a_bad_token_in_a_move_list_is_named_whole_with_its_place_and_the_position():
    from arcade.sackson.notation import MoveListError, play_list
    s = SacksonGame(2).new_initial_state()
    with pytest.raises(MoveListError) as exc:
        play_list(s, "c2-c1 f7-f8 c2-z9 d3-d4")
    e = exc.value
    assert (e.token, e.index, e.total) == ("c2-z9", 3, 4)
    msg = str(e)
    assert msg.startswith("move 3 of 4, 'c2-z9': ") and "'z9'" in msg
    assert "c1=A" in msg and "f8=B" in msg and "A to move" in msg            # the position it was played in
    s = SacksonGame(2).new_initial_state()
    with pytest.raises(MoveListError) as exc:
        play_list(s, "c2-c1 f7-f8 c1-c4")                                    # readable, but illegal there
    assert exc.value.index == 3 and "'c1-c4'" in str(exc.value) and "holds 1 stone" in exc.value.reason
    assert "[position: 2p" in str(exc.value)


@pytest.mark.parametrize("variant", list(SEATS))
def test_a_position_line_reads_back_as_the_same_position(variant):
    from arcade.sackson.notation import parse_position
    rng = random.Random(len(variant))
    game = SacksonGame(SEATS[variant], {"variant": variant})
    s = game.new_initial_state()
    for _ in range(40):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    if s.is_terminal():
        s.undo()
    t = parse_position(s.position_text(), game)
    assert t.position_text() == s.position_text()
    assert t.snapshot()["stacks"] == s.snapshot()["stacks"] and t.snapshot()["reserves"] == s.snapshot()["reserves"]


def test_a_position_line_names_what_it_cannot_read():
    from arcade.sackson.notation import parse_position
    game = SacksonGame(2)
    with pytest.raises(NotationError, match="'d4=BX'"):
        parse_position("d4=BX", game)
    with pytest.raises(NotationError, match="'reserves A0 C1'|'C1'"):
        parse_position("d4=A | reserves A0 C1", game)
    with pytest.raises(NotationError, match="to move"):
        parse_position("d4=A | game over", game)
    assert parse_position("d4=ab e6=a | b to move", game).current_player() == 1   # either case
