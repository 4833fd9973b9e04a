"""Rules of FOCUS (2, 3, 4 players) and Crossfire: SF-1..SF-6 and the arcade's decisions.

Positions are written the way the rulings do: a1 bottom-left, stacks bottom first,
letters A B C D for seats 0 1 2 3 (P1..P4).
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from arcade.core.api import TERMINAL
from arcade.core.errors import IllegalActionError, RecordError, SettingsError
from arcade.core.record import replay, to_record
from arcade.sackson import HEX, SQUARE, Drop, Move, SacksonGame, Swap, make_game, parse_action
from arcade.sackson.board import hex_picture_capacity
from arcade.sackson.game import NothingToUndoError, SetupError
from arcade.sackson.notation import play
from arcade.sackson.setups import start_position

SEATS = {"2p": 2, "3p": 3, "4p-teams": 4, "4p": 4, "crossfire": 2}


def new(variant: str = "2p", **settings: object):
    return SacksonGame(SEATS[variant], {"variant": variant, **settings}).new_initial_state()


def setup(variant: str = "2p", stacks=None, reserves=None, to_move=0, **kw):
    g = SacksonGame(SEATS[variant], {"variant": variant, **kw.pop("settings", {})})
    return g.setup(stacks or {}, reserves=reserves, to_move=to_move, **kw)


def moves_of(state) -> set[str]:
    from arcade.sackson.notation import format_action
    return {format_action(a, state) for a in state.legal_actions()}


def xy(cell: str) -> tuple[int, int]:
    return "abcdefgh".index(cell[0]), int(cell[1:]) - 1


# -- SF-1 board and two-player start ------------------------------------------------

def test_SF1_board_is_8x8_without_three_squares_per_corner():
    assert SQUARE.size == 52
    missing = {f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)} - set(SQUARE.cells)
    assert missing == {"a1", "a2", "b1", "g1", "h1", "h2", "a7", "a8", "b8", "g8", "h8", "h7"}


def test_SF1_two_player_start_pattern_and_first_player():
    s = new()
    a_cells = "b2 c2 f2 g2 d3 e3 b4 c4 f4 g4 d5 e5 b6 c6 f6 g6 d7 e7".split()
    central = [f"{f}{r}" for f in "bcdefg" for r in range(2, 8)]
    snap = s.snapshot()
    assert {c for c, st in snap["stacks"].items() if st == [0]} == set(a_cells)
    assert {c for c, st in snap["stacks"].items() if st == [1]} == set(central) - set(a_cells)
    assert set(snap["stacks"]) == set(central)
    assert snap["reserves"] == [0, 0]
    assert s.current_player() == 0


def test_SF1_side_A_has_68_opening_moves():
    s = new()
    acts = s.legal_actions()
    assert len(acts) == 68 == 18 * 4 - 2 - 2
    assert all(isinstance(a, Move) and a.count == 1 for a in acts)
    # the two corners of the 6x6 that A holds have two moves each
    assert sum(1 for a in acts if a.src == "b2") == 2 and sum(1 for a in acts if a.src == "g2") == 2


# -- SF-2 moves, drops, overflow, no passing -----------------------------------------

def test_SF2_top_k_stones_move_exactly_k_squares_orthogonally():
    s = setup(stacks={"d4": "BAA", "c8": "B"})
    got = {m for m in moves_of(s) if m.startswith("d4")}
    want = {"d4-d5", "d4-d3", "d4-c4", "d4-e4",            # k = 1
            "d4-d6", "d4-d2", "d4-b4", "d4-f4",            # k = 2
            "d4-d7", "d4-d1", "d4-a4", "d4-g4"}            # k = 3 (the B stone goes along)
    assert got == want


def test_SF2_moving_part_keeps_its_order_and_leaves_the_rest():
    s = setup(stacks={"d4": "BBA", "d6": "B"})
    s.apply(Move("d4", "d6", 2))
    assert s.stack("d4") == (1,)
    assert s.stack("d6") == (1, 1, 0)   # B under the moved B, A on top
    assert s.current_player() == 1


def test_SF2_stones_jump_over_everything_between():
    s = setup(stacks={"d2": "AA", "d3": "BBBBB", "d5": "B"})
    s.apply(parse_action("d2-d4", s))
    assert s.stack("d3") == (1,) * 5 and s.stack("d4") == (0, 0)


def test_SF2_wrong_distance_and_bent_lines_are_refused_with_reasons():
    s = setup(stacks={"d4": "AA", "d6": "B"})
    assert "exactly 2" in s.check(0, Move("d4", "d7", 2))
    assert "straight line" in s.check(0, Move("d4", "e5", 2))
    assert "holds 2 stones" in s.check(0, Move("d4", "d7", 3))
    assert "topped by P2" in s.check(0, Move("d6", "d7", 1))
    assert "no stack on e4" in s.check(0, Move("e4", "e5", 1))
    assert "not a square" in s.check(0, Move("a1", "a2", 1))
    assert "P2's turn" in setup(stacks={"d4": "A", "d6": "B"}, to_move=1).check(0, Move("d4", "d5", 1))


def test_SF2_drop_from_reserve_on_any_square_empty_or_not():
    s = setup(stacks={"d4": "A", "e5": "BB", "h4": "B"}, reserves=[1, 0])
    drops = [a for a in s.legal_actions() if isinstance(a, Drop)]
    assert len(drops) == 52
    s.apply(parse_action("+e5", s))
    assert s.stack("e5") == (1, 1, 0) and s.reserve(0) == 0
    assert s.current_player() == 1


def test_SF2_drop_needs_a_reserve_stone():
    s = setup(stacks={"d4": "A", "e5": "B"})
    assert "no stone in reserve" in s.check(0, Drop("c3"))
    with pytest.raises(IllegalActionError):
        s.apply(Drop("c3"))


def test_SF2_overflow_leaves_from_bottom_own_to_reserve_others_captured():
    s = setup(stacks={"d4": "ABBAB", "d2": "AA", "h5": "B"})
    s.apply(Move("d2", "d4", 2))          # 5 + 2 = 7: the bottom A and B leave
    assert s.stack("d4") == (1, 0, 1, 0, 0)
    assert s.reserve(0) == 1                # own stone back to reserve
    assert s.captured(0) == (0, 1)          # one B stone out of the game
    assert s.removed(0) == 2
    snap = s.snapshot()
    assert snap["captures"] == [[0, 1], [0, 0]] and snap["plies_without_capture"] == 0


def test_SF2_drop_on_a_full_stack_overflows_too():
    s = setup(stacks={"d4": "BBBBB", "h5": "A"}, reserves=[1, 0])
    s.apply(Drop("d4"))
    assert s.stack("d4") == (1, 1, 1, 1, 0) and s.captured(0) == (0, 1)


def test_SF2_overflow_height_is_a_setting():
    s = setup(stacks={"d4": "BBB", "d5": "A", "h5": "B"}, settings={"overflow_height": 3})
    s.apply(Move("d5", "d4", 1))
    assert s.stack("d4") == (1, 1, 0) and s.captured(0) == (0, 1)


def test_SF2_no_pass_and_a_side_without_moves_loses():
    s = setup(stacks={"d4": "A", "d5": "B"})
    assert all(isinstance(a, (Move, Drop)) for a in s.legal_actions())
    s.apply(Move("d4", "d5", 1))           # B's only stone is now under A's
    assert s.current_player() == TERMINAL and s.legal_actions() == []
    out = s.outcome()
    assert out.winners == (0,) and "P2 cannot move" in out.reason
    with pytest.raises(IllegalActionError, match="game is over"):
        s.apply(Move("d5", "d6", 1))


def test_SF2_a_side_with_only_a_reserve_can_still_move():
    s = setup(stacks={"d4": "A", "d5": "B"}, reserves=[0, 1])
    s.apply(Move("d4", "d5", 1))
    assert s.current_player() == 1 and len(s.legal_actions()) == 52


def test_SF2_setup_where_the_side_to_move_is_stuck_is_already_over():
    s = setup(stacks={"d4": "BA"}, to_move=1)
    assert s.is_terminal() and s.outcome().winners == (0,)


# -- SF-3 symmetry counters ---------------------------------------------------------

def test_SF3_opening_swap_comes_before_move_one():
    s = new(opening_swap=True)
    assert s.in_opening_swap and s.snapshot()["phase"] == "swap"
    assert "must first swap" in s.check(0, Move("c2", "c1", 1))
    acts = s.legal_actions()
    assert acts and all(isinstance(a, Swap) for a in acts)
    assert len(acts) == 18 * 18
    s.apply(parse_action("c2<>d2", s))
    assert s.current_player() == 1 and s.stack("c2") == (1,) and s.stack("d2") == (0,)
    s.apply(parse_action("b4<>b3", s))
    assert not s.in_opening_swap and s.current_player() == 0
    assert all(isinstance(a, (Move, Drop)) for a in s.legal_actions())
    assert "swap is over" in s.check(0, Swap("c4", "d4"))


def test_SF3_opening_swap_needs_two_colours():
    s = new(opening_swap=True)
    assert "same colour" in s.check(0, Swap("b2", "c2"))
    assert "single stone" in s.check(0, Swap("b2", "c1"))


def test_SF3_second_swap_may_not_leave_a_symmetric_position():
    s = new(opening_swap=True)
    s.apply(Swap("c2", "d2"))
    # swapping back restores the symmetric start
    assert "symmetric" in s.check(1, Swap("c2", "d2"))
    # the half-turn image of P1's swap (c2,d2 -> f7,e7) makes the position symmetric again
    assert "symmetric" in s.check(1, Swap("f7", "e7"))
    # so does the image in the middle line between ranks 4 and 5 (c2,d2 -> c7,d7)
    assert "symmetric" in s.check(1, Swap("c7", "d7"))
    listed = {(a.a, a.b) for a in s.legal_actions()}
    assert ("c2", "d2") not in listed and ("e7", "f7") not in listed
    assert s.check(1, Swap("b3", "b4")) is None
    s.apply(Swap("b3", "b4"))
    assert not s._symmetric()


def test_SF3_opening_swap_is_refused_for_three_or_four_players():
    with pytest.raises(SettingsError):
        SacksonGame(3, {"variant": "3p", "opening_swap": True})
    with pytest.raises(SettingsError):
        SacksonGame(4, {"variant": "4p-teams", "mirror_rule": True})


SHUFFLE = "c2-c1 f7-f8 c1-c2 f8-f7 c2-c1 f7-f8 c1-c2 f8-f7"  # B copies A by a half turn


def test_SF3_mirror_rule_first_player_wins_when_second_copied_every_move():
    s = play(new(mirror_rule=True), SHUFFLE)
    out = s.outcome()
    assert out is not None and out.winners == (0,)
    assert "mirror rule" in out.reason and len(s.history) == 8


def test_SF3_mirror_rule_also_catches_copying_by_the_middle_line_reflection():
    # c2 -> c7, c1 -> c8: the reflection between ranks 4 and 5 also carries the start onto itself
    s = play(new(mirror_rule=True), "c2-c1 c7-c8 c1-c2 c8-c7 c2-c1 c7-c8 c1-c2 c8-c7")
    assert s.outcome().winners == (0,) and "mirror rule" in s.outcome().reason


def test_SF3_without_mirror_rule_the_threefold_repetition_is_a_draw():
    s = new()
    play(s, SHUFFLE[:-6])
    assert not s.is_terminal()
    play(s, "f8-f7")
    out = s.outcome()
    assert out.is_draw and "third time" in out.reason


def test_SF3_mirror_rule_does_not_punish_a_second_player_who_deviated():
    s = play(new(mirror_rule=True), "c2-c1 b3-a3 c1-c2 a3-b3 c2-c1 b3-a3 c1-c2 a3-b3")
    out = s.outcome()
    assert out.is_draw and "third time" in out.reason


def test_SF3_draw_after_the_plies_without_capture_limit():
    s = new(max_plies_without_capture=6)
    play(s, "c2-c1 f7-f8 b4-a4 g5-h5 d3-d2")
    assert not s.is_terminal() and s.plies_without_capture == 5
    play(s, "e6-e7")
    out = s.outcome()
    assert out.is_draw and "6 plies without a capture" in out.reason


def test_SF3_a_capture_restarts_the_count():
    s = setup(stacks={"d4": "BBBBB", "d5": "A", "h5": "B", "a5": "B"}, settings={"max_plies_without_capture": 2})
    s.apply(Move("d5", "d4", 1))
    assert s.plies_without_capture == 0 and not s.is_terminal()
    s.apply(Move("h5", "h4", 1))
    assert s.plies_without_capture == 1 and not s.is_terminal()
    s.apply(Move("d4", "d3", 1))
    assert s.outcome().is_draw


# -- SF-4 three players --------------------------------------------------------------

def _contacts(stones: dict[str, int]) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = {}
    for cell, seat in stones.items():
        x, y = xy(cell)
        for nx, ny in ((x + 1, y), (x, y + 1)):
            other = f"{'abcdefgh'[nx]}{ny + 1}" if nx < 8 and ny < 8 else None
            if other in stones:
                key = tuple(sorted((seat, stones[other])))
                out[key] = out.get(key, 0) + 1
    return out


def test_SF4_three_player_start_12_each_on_the_central_36_and_balanced():
    lay = start_position("3p")
    central = {f"{f}{r}" for f in "bcdefg" for r in range(2, 8)}
    assert set(lay) == central
    assert sorted(list(lay.values()).count(p) for p in range(3)) == [12, 12, 12]
    c = _contacts(lay)
    assert all(c.get((p, p), 0) == 0 for p in range(3))          # no player's stones touch
    assert c[(0, 1)] == c[(1, 2)] == c[(0, 2)] == 20             # each pair touches equally
    for p in range(3):
        for r in range(2, 8):
            assert sum(1 for f in "bcdefg" if lay[f"{f}{r}"] == p) == 2     # every rank
            assert sum(1 for f2 in range(2, 8) if lay[f"{'bcdefg'[r - 2]}{f2}"] == p) == 2  # every file
        for qf, qr in itertools.product(("bcd", "efg"), ((2, 3, 4), (5, 6, 7))):
            assert sum(1 for f in qf for r in qr if lay[f"{f}{r}"] == p) == 3  # every quarter
    # the half turn carries B's stones onto C's squares (and A's onto A's)
    rot = {c: f"{'abcdefgh'[7 - xy(c)[0]]}{8 - xy(c)[1]}" for c in lay}
    assert all(lay[rot[c]] == {0: 0, 1: 2, 2: 1}[p] for c, p in lay.items())
    g = SacksonGame(3, {"variant": "3p"})
    counts = [len(g.setup({c: [q] for c, q in lay.items()}, to_move=p).legal_actions()) for p in range(3)]
    assert counts == [44, 46, 46]                                  # A holds two 6x6 corners ...
    assert len(new("3p").legal_actions()) == 44
    assert [sum(1 for c in ("d4", "e4", "d5", "e5") if lay[c] == p) for p in range(3)] == [2, 1, 1]  # ... and two centre squares


def test_SF4_turns_go_round_three_seats():
    s = new("3p")
    seen = []
    for _ in range(6):
        seen.append(s.current_player())
        s.apply(s.legal_actions()[0])
    assert seen == [0, 1, 2, 0, 1, 2]


def test_SF4_win_by_capturing_three_stones_of_each_opponent():
    stacks = {"d4": "CBBBB", "d5": "A", "a4": "B", "h4": "C"}
    s = setup("3p", stacks, captures=[[0, 2, 3], [0, 0, 0], [0, 0, 0]])
    s.apply(Move("d5", "d4", 1))           # the bottom C leaves: 2 B and 4 C are not enough
    assert not s.is_terminal() and s.captured(0) == (0, 2, 4)
    s2 = setup("3p", {"d4": "BCCCC", "d5": "A", "a4": "B", "h4": "C"}, captures=[[0, 2, 3], [0, 0, 0], [0, 0, 0]])
    s2.apply(Move("d5", "d4", 1))          # a third B
    out = s2.outcome()
    assert out.winners == (0,) and "3 stones of each opponent" in out.reason


def test_SF4_win_by_removing_ten_stones_own_included():
    s = setup("3p", {"d4": "BAAAA", "d6": "AA", "a4": "B", "h4": "C"}, removed=[8, 0, 0])
    s.apply(Move("d6", "d4", 2))           # B A leave the bottom: one captured, one back to A's reserve
    assert s.captured(0) == (0, 1, 0) and s.reserve(0) == 1 and s.removed(0) == 10
    out = s.outcome()
    assert out.winners == (0,) and "removed 10 stones" in out.reason


def test_SF4_shedding_only_ones_own_stones_does_not_count_as_removed():
    # The loophole the rule closes: a drop on one's own full stack sends one's own bottom stone
    # back to the reserve, the board is unchanged, and it could be repeated until 10 "removed".
    s = setup("3p", {"d4": "AAAAA", "a4": "B", "h4": "C"}, reserves=[1, 0, 0], removed=[9, 0, 0])
    s.apply(Drop("d4"))
    assert s.stack("d4") == (0,) * 5 and s.reserve(0) == 1           # the stone came back
    assert s.removed(0) == 9 and not s.is_terminal()                   # ... and counts for nothing
    s = setup("3p", {"d4": "ABBBB", "d5": "A", "a4": "B", "h4": "C"}, removed=[9, 0, 0])
    s.apply(Move("d5", "d4", 1))           # the same with a move: only A's own bottom stone leaves
    assert s.reserve(0) == 1 and s.removed(0) == 9 and not s.is_terminal()
    s.undo()
    assert s.removed(0) == 9 and s.reserve(0) == 0
    t = setup("3p", {"d4": "BAAAA", "d6": "AA", "a4": "B", "h4": "C"}, removed=[8, 0, 0])
    t.apply(Move("d6", "d4", 2))
    t.undo()                               # a counted overflow is taken back exactly
    assert t.removed(0) == 8 and t.captured(0) == (0, 0, 0) and t.reserve(0) == 0


def test_SF4_goals_are_settings():
    s = setup("3p", {"d4": "BBBBB", "d5": "A", "a4": "B", "h4": "C"}, settings={"goal_removed": 1})
    s.apply(Move("d5", "d4", 1))
    assert s.outcome().winners == (0,)
    with pytest.raises(SettingsError):
        SacksonGame(2, {"goal_removed": 4})


def test_SF4_a_player_without_moves_drops_out_and_stays_out():
    s = setup("3p", {"d4": "A", "d5": "B", "a4": "CC", "h4": "C"})
    s.apply(Move("d4", "d5", 1))           # B has nothing left to move
    assert not s.active(1) and s.current_player() == 2
    s.apply(Move("a4", "a6", 2))
    s.apply(Move("d5", "d6", 1))           # the B stone on d5 is uncovered ...
    assert s.stack("d5") == (1,)
    assert s.current_player() == 2         # ... but B stays out: C moves again
    assert not s.is_terminal()


def test_SF4_the_last_one_left_wins():
    s = setup("3p", {"d4": "A", "d5": "B", "a4": "CA"}, to_move=0)
    s.apply(Move("d4", "d5", 1))
    out = s.outcome()
    assert out.winners == (0,) and "last one left" in out.reason
    assert not s.active(1) and not s.active(2)


# -- SF-5 four players ------------------------------------------------------------------

def test_SF5_four_player_start_13_each_on_all_52_partners_opposite():
    lay = start_position("4p-teams")
    assert lay == start_position("4p")
    assert set(lay) == set(SQUARE.cells)
    assert [list(lay.values()).count(p) for p in range(4)] == [13] * 4
    rot = SQUARE.symmetries[SQUARE.symmetry_names.index("rot90")]
    for cell, p in lay.items():           # a quarter turn carries A onto B, B onto C ...
        assert lay[SQUARE.cells[rot[SQUARE.index[cell]]]] == (p + 1) % 4
    c = _contacts(lay)
    assert all(c.get((p, p), 0) == 0 for p in range(4))
    assert c[(0, 2)] == c[(1, 3)] == 14                                  # partners
    assert c[(0, 1)] == c[(1, 2)] == c[(2, 3)] == c[(0, 3)] == 15       # opponents
    # every seat starts with the same number of moves (the formations are congruent)
    s = new("4p-teams")
    firsts = []
    for p in range(4):
        firsts.append(len(SacksonGame(4, {"variant": "4p-teams"}).setup(
            {c: [q] for c, q in lay.items()}, to_move=p).legal_actions()))
    assert len(set(firsts)) == 1 and firsts[0] == len(s.legal_actions())


def test_SF5_teams_a_player_who_cannot_move_is_skipped():
    stacks = {"d4": "A", "d5": "B", "a4": "C", "h4": "D", "h6": "B"}
    s = setup("4p-teams", stacks)
    s.apply(Move("d4", "d5", 1))           # B still has h6
    assert s.current_player() == 1
    s.apply(Move("h6", "h5", 1))
    s.apply(Move("a4", "a5", 1))
    s.apply(Move("h4", "h5", 1))           # D covers B's last stone; B can no longer move
    assert s.current_player() == 0
    s.apply(Move("d5", "d6", 1))           # uncovers the B on d5: B may move again
    assert s.current_player() == 1 and s.active(1)


def test_SF5_teams_skip_the_stuck_player_while_the_partner_can_move():
    s = setup("4p-teams", {"d4": "A", "d5": "B", "a4": "C", "h4": "D"})
    s.apply(Move("d4", "d5", 1))
    assert s.current_player() == 2         # B skipped, C (A's partner) moves
    assert s.active(1) and not s.is_terminal()


def test_SF5_a_team_loses_when_neither_partner_can_move():
    s = setup("4p-teams", {"d4": "A", "d5": "B", "a4": "C", "a5": "D"})
    s.apply(Move("d4", "d5", 1))           # B stuck, partner D can move: skip B
    assert s.current_player() == 2
    s.apply(Move("a4", "a5", 1))           # C covers D: now neither B nor D can move
    out = s.outcome()
    assert out.winners == (0, 2) and "neither P2 nor P4 can move" in out.reason


def test_SF5_four_individuals_drop_out_until_one_is_left():
    s = setup("4p", {"d4": "A", "d5": "B", "a4": "C", "h4": "D"})
    s.apply(Move("d4", "d5", 1))
    assert not s.active(1) and s.current_player() == 2
    s.apply(Move("a4", "a3", 1))
    s.apply(Move("h4", "h5", 1))
    assert s.current_player() == 0 and not s.is_terminal()


def test_SF5_four_individuals_last_one_left_wins():
    s = setup("4p", {"d4": "A", "d5": "B", "a4": "CA", "h4": "DA"})
    s.apply(Move("d4", "d5", 1))
    out = s.outcome()
    assert out.winners == (0,) and "P2, P3, P4 dropped out" in out.reason and "last one left" in out.reason


# -- SF-6 Crossfire ----------------------------------------------------------------

def test_SF6_board_has_43_cells_with_capacities_2_3_5_6():
    assert HEX.size == 43
    caps = SacksonGame(2, {"variant": "crossfire"}).capacity
    assert caps == HEX.neighbour_count == hex_picture_capacity(HEX)
    assert sorted(caps.count(c) for c in (2, 3, 5, 6)) == sorted([6, 6, 12, 19])
    assert {HEX.cells[i] for i, c in enumerate(caps) if c == 2} == {"C0", "G0", "A6", "I6", "C12", "G12"}


def test_SF6_no_straight_line_leaves_the_board_and_reenters():
    cells = {HEX.coords[i] for i in range(HEX.size)}
    for (x, y) in cells:
        for dx, dy in HEX.directions:
            cx, cy, left = x + dx, y + dy, False
            while -2 <= cx <= 10 and -4 <= cy <= 16:
                if (cx, cy) not in cells:
                    left = True
                else:
                    assert not left, (x, y, dx, dy)
                cx, cy = cx + dx, cy + dy


def test_SF6_start_18_each_and_its_symmetries():
    lay = start_position("crossfire")
    assert [list(lay.values()).count(p) for p in (0, 1)] == [18, 18]
    empty = set(HEX.cells) - set(lay)
    assert empty == {"C0", "G0", "A6", "I6", "C12", "G12", "E6"}
    sym = dict(zip(HEX.symmetry_names, HEX.symmetries))
    for name, swap in (("rot120", False), ("rot240", False), ("rot60", True), ("rot180", True)):
        for cell, p in lay.items():
            assert lay[HEX.cells[sym[name][HEX.index[cell]]]] == (1 - p if swap else p), name


def test_SF6_crossfire_moves_in_six_directions():
    s = setup("crossfire", {"E4": "AA", "A6": "B"})
    assert {m for m in moves_of(s) if m.startswith("E4")} == {
        "E4-E2", "E4-E6", "E4-D3", "E4-F3", "E4-D5", "E4-F5",
        "E4-E0", "E4-E8", "E4-C2", "E4-G2", "E4-C6", "E4-G6"}


def test_SF6_stack_of_five_onto_an_empty_point_leaves_two_and_removes_three():
    s = setup("crossfire", {"F1": "BBAAA", "E8": "B"})
    s.apply(parse_action("F1-A6", s))
    assert s.stack("A6") == (0, 0) and s.stack("F1") == ()
    assert s.captured(0) == (0, 2) and s.reserve(0) == 1 and s.removed(0) == 3


@pytest.mark.parametrize("cell,cap", [("C0", 2), ("E0", 3), ("D1", 5), ("E2", 6)])
def test_SF6_overflow_at_each_capacity(cell, cap):
    s = setup("crossfire", {cell: "B" * cap, "E8": "B"}, reserves=[1, 0])
    s.apply(Drop(cell))
    assert s.stack(cell) == (1,) * (cap - 1) + (0,)
    assert s.captured(0) == (0, 1)


def test_SF6_ko_a_move_may_not_recreate_an_earlier_position():
    s = new("crossfire")
    play(s, "G2-G0 C10-C12 G0-G2")
    reason = s.check(1, Move("C12", "C10", 1))
    assert reason is not None and "ko rule" in reason
    assert Move("C12", "C10", 1) not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="ko rule"):
        s.apply(Move("C12", "C10", 1))
    s.apply(Move("C12", "D11", 1))         # another move is fine


def test_SF6_overflow_height_setting_is_refused_for_crossfire():
    with pytest.raises(SettingsError):
        SacksonGame(2, {"variant": "crossfire", "overflow_height": 6})


# -- settings, errors, undo, records -----------------------------------------------

def test_settings_seats_must_match_the_variant():
    with pytest.raises(SettingsError, match="seats"):
        SacksonGame(3)
    with pytest.raises(SettingsError):
        SacksonGame(2, {"variant": "4p"})
    with pytest.raises(SettingsError):
        SacksonGame(2, {"variant": "5p"})
    with pytest.raises(SettingsError):
        SacksonGame(2, {"mirror_rule": "yes"})
    with pytest.raises(SettingsError):
        make_game("crossfire", 2, {})
    assert make_game("focus", 4, {"variant": "4p"}).variant == "4p"


def test_setup_refuses_impossible_positions():
    with pytest.raises(SetupError):
        setup(stacks={"a1": "A"})
    with pytest.raises(SetupError):
        setup(stacks={"d4": "AAAAAA"})
    with pytest.raises(SetupError):
        setup(stacks={"d4": "C"})
    with pytest.raises(SetupError):
        setup("crossfire", {"C0": "AAA"})


def test_illegal_action_raises_names_the_move_and_position_and_changes_nothing():
    s = new()
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as exc:
        s.apply(Move("c2", "c5", 2))
    msg = str(exc.value)
    assert "c2-c5:2" in msg and "b2=A" in msg and "A to move" in msg
    assert s.snapshot() == before and s.history == []
    with pytest.raises(IllegalActionError):
        s.apply("c2-c1")  # type: ignore[arg-type]
    assert s.snapshot() == before


def test_undo_move_by_move_restores_exact_snapshots():
    rng = random.Random(7)
    for variant in SEATS:
        s = new(variant, **({"opening_swap": True} if SEATS[variant] == 2 else {}))
        snaps = [s.snapshot()]
        keys = [s.position_key]
        for _ in range(60):
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
            snaps.append(s.snapshot())
            keys.append(s.position_key)
        while s.history:
            snaps.pop()
            keys.pop()
            s.undo()
            assert s.snapshot() == snaps[-1] and s.position_key == keys[-1]
        assert s.snapshot() == new(variant, **({"opening_swap": True} if SEATS[variant] == 2 else {})).snapshot()
        with pytest.raises(NothingToUndoError):
            s.undo()


def test_undo_after_game_end_reopens_the_game():
    s = setup(stacks={"d4": "A", "d5": "B"})
    s.apply(Move("d4", "d5", 1))
    assert s.is_terminal()
    assert s.undo() == Move("d4", "d5", 1)
    assert s.current_player() == 0 and s.outcome() is None


def test_records_replay_to_the_identical_snapshot():
    rng = random.Random(3)
    for variant in SEATS:
        two = SEATS[variant] == 2
        s = new(variant, **({"opening_swap": True, "mirror_rule": True} if two else {}))
        for _ in range(50):
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
        rec = json.loads(json.dumps(to_record(s, seed=3)))
        r = replay(rec, make_game)
        assert r.snapshot() == s.snapshot()
        assert json.loads(json.dumps(s.snapshot())) == s.snapshot()
        while r.history:
            r.undo()
        assert r.snapshot() == new(variant, **({"opening_swap": True, "mirror_rule": True} if two else {})).snapshot()


def test_a_damaged_record_is_refused():
    s = play(new(), "c2-c1")
    rec = to_record(s)
    rec["actions"][0]["action"]["dst"] = "c5"
    with pytest.raises(RecordError, match="action 0"):
        replay(rec, make_game)


def test_copy_is_independent():
    s = new()
    c = s.copy()
    c.apply(Move("c2", "c1", 1))
    assert s.history == [] and s.stack("c2") == (0,) and c.stack("c2") == ()


# -- conformance: random legal play and check() against the move list --------------------

def _all_candidates(s):
    """Every Move/Drop naming real cells that a player could try (legal or not)."""
    b = s.board
    out = []
    for i, src in enumerate(b.cells):
        for j, dst in enumerate(b.cells):
            if i != j:
                for k in (1, 2, 3):
                    out.append(Move(src, dst, k))
        out.append(Drop(src))
    return out


@pytest.mark.parametrize("variant", list(SEATS))
def test_conformance_random_play_and_check_agrees_with_legal_actions(variant):
    rng = random.Random(sorted(SEATS).index(variant))
    s = new(variant)
    cands = _all_candidates(s)
    for ply in range(200):
        if s.is_terminal():
            break
        legal = set(s.legal_actions())
        assert len(legal) == len(s.legal_actions())
        p = s.current_player()
        if ply % 10 == 0:  # full sweep now and then (every pair of cells)
            sample = cands
        else:
            sample = rng.sample(cands, 300)
        for a in sample:
            assert (s.check(p, a) is None) == (a in legal), (a, s.check(p, a))
        for a in legal:
            assert s.check(p, a) is None
        bad = rng.choice([a for a in sample if a not in legal])
        before = s.snapshot()
        with pytest.raises(IllegalActionError):
            s.apply(bad)
        assert s.snapshot() == before
        s.apply(rng.choice(sorted(legal, key=repr)))
    assert len(s.history) > 0


# -- messages a player reads ----------------------------------------------------------

def test_draw_reasons_cite_SF3_for_two_players_and_the_arcade_rule_for_three_or_four():
    for variant, stacks in (("2p", {"d4": "A", "e6": "B"}), ("crossfire", {"E6": "A", "C4": "B"}),
                            ("3p", {"d4": "A", "e6": "B", "g7": "C"}),
                            ("4p", {"d4": "A", "e6": "B", "g7": "C", "b2": "D"})):
        s = setup(variant, stacks, settings={"max_plies_without_capture": 2})
        while not s.is_terminal():
            s.apply(s.legal_actions()[0])
        reason = s.outcome().reason
        assert reason.startswith("draw: 2 plies without a capture"), reason
        if SEATS[variant] == 2:
            assert "(SF-3)" in reason
        else:
            assert "SF-3" not in reason and "arcade rule for 3-4 players" in reason
    s = setup("3p", {"d4": "A", "e6": "B", "g7": "C"})
    play(s, "d4-d5 e6-e7 g7-g6 d5-d4 e7-e6 g6-g7 d4-d5 e6-e7 g7-g6 d5-d4 e7-e6 g6-g7")
    assert s.outcome().reason == "draw: the same position for the third time (arcade rule for 3-4 players)"


def test_a_move_after_the_end_says_the_game_is_over_not_TERMINAL():
    s = setup(stacks={"d4": "A", "d5": "B"})
    s.apply(Move("d4", "d5", 1))
    with pytest.raises(IllegalActionError) as exc:
        s.apply(Move("d5", "d6", 1))
    msg = str(exc.value)
    assert "TERMINAL" not in msg and "the game is over" in msg and "d5-d6" in msg


def test_an_upper_case_square_is_reported_with_its_lower_case_name():
    s = new()
    with pytest.raises(IllegalActionError) as exc:
        s.apply(Move("C2", "C1", 1))
    assert "'C2': squares are lower case (c2)" in exc.value.reason
    assert exc.value.reason.startswith("C2-C1:1: ")            # the move as given, not silently fixed
    assert s.history == []
    h = new("crossfire")
    with pytest.raises(IllegalActionError) as exc:
        h.apply(Move("g2", "G0", 1))
    assert "'g2': cells are upper case (G2)" in exc.value.reason
    with pytest.raises(IllegalActionError, match="'z9' is not a square"):
        s.apply(Drop("z9"))


def test_results_screen_figures_say_what_the_bars_are():
    s = setup("3p", {"d4": "BAAAA", "d6": "AA", "a4": "B", "h4": "C"})
    s.apply(Move("d6", "d4", 2))
    assert s.outcome() is None
    assert s.stats == {"bars": "stones captured", "moves": "1", "removed (SF-4)": "P1 2, P2 0, P3 0",
                       "reserves": "P1 1, P2 0, P3 0"}
    assert "removed (SF-4)" not in new().stats
