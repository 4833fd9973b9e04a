"""FOCUS / Crossfire game records with their positions (SF-7: "records as JSON with stacks
bottom to top"; arcade/sackson/record.py): the start and final positions are in the record,
a game begun from a set-up position is recorded and replays, and a replay that does not end
at the recorded final position is refused."""

from __future__ import annotations

import json
import random

import pytest

from arcade.bots.sackson import choose_action
from arcade.core.errors import RecordError
from arcade.sackson import Move, SacksonGame
from arcade.sackson.notation import play
from arcade.sackson.record import dumps, position, replay, to_record
from arcade.sackson.setups import start_position

SEATS = {"2p": 2, "3p": 3, "4p-teams": 4, "4p": 4, "crossfire": 2}


def played(state, plies: int, seed: int):
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history) < plies:
        state.apply(choose_action(state, "easy", rng))
    return state


def test_SF7_record_holds_start_and_final_positions_with_stacks_bottom_to_top():
    s = SacksonGame(2).setup({"d4": "BBA", "d5": "A", "f6": "B"}, reserves=[1, 0])
    s.apply(Move("d5", "d4", 1))                       # d4 is now B B A A, bottom first
    rec = json.loads(dumps(s, seed=4))
    assert rec["start"]["stacks"] == {"d4": [1, 1, 0], "d5": [0], "f6": [1]}
    assert rec["start"]["source"] == "setup" and rec["start"]["reserves"] == [1, 0]
    assert rec["final"]["stacks"] == {"d4": [1, 1, 0, 0], "f6": [1]}
    assert rec["final"]["reserves"] == [1, 0] and rec["final"]["to_move"] == 1
    assert rec["final"]["captures"] == [[0, 0], [0, 0]] and rec["moves"] == "d5-d4"


@pytest.mark.parametrize("variant", list(SEATS))
def test_a_game_from_the_start_records_its_start_position_and_replays_to_its_final_position(variant):
    two = SEATS[variant] == 2
    game = SacksonGame(SEATS[variant], {"variant": variant, **({"opening_swap": True} if two else {})})
    s = played(game.new_initial_state(), 80, seed=len(variant))
    rec = json.loads(json.dumps(to_record(s, seed=1)))
    assert rec["start"]["source"] == "variant"
    assert rec["start"]["stacks"] == {c: [p] for c, p in sorted(start_position(variant).items(),
                                                                           key=lambda kv: game.board.index[kv[0]])}
    assert rec["final"] == json.loads(json.dumps(position(s)))
    again = replay(json.dumps(rec))
    assert again.snapshot() == s.snapshot()
    fresh = play(game.new_initial_state(), rec["moves"])   # the notation line says the same game
    assert fresh.snapshot() == s.snapshot()


def test_a_record_saved_before_the_rename_still_replays():
    """Records saved before issue 21 name the variant's start position ``"source": "layout"``:
    they replay to the same game, and a changed start is still refused."""
    s = played(SacksonGame(2).new_initial_state(), 30, seed=8)
    old = json.loads(dumps(s, seed=2))
    old["start"]["source"] = "layout"
    assert replay(json.dumps(old)).snapshot() == s.snapshot()
    old["start"]["stacks"]["c2"] = [1]
    with pytest.raises(RecordError, match="start position of variant '2p'"):
        replay(old)


def test_a_game_from_a_set_up_position_is_recorded_and_replayed():
    game = SacksonGame(3, {"variant": "3p"})
    s = game.setup({"d4": "BAAAA", "d6": "AA", "a4": "B", "h4": "C", "c3": "CB"}, reserves=[1, 0, 2],
                   to_move=0, captures=[[0, 1, 1], [0, 0, 0], [2, 0, 0]], removed=[6, 0, 2])
    played(s, 12, seed=9)
    rec = json.loads(dumps(s))
    assert rec["start"]["captures"] == [[0, 1, 1], [0, 0, 0], [2, 0, 0]] and rec["start"]["removed"] == [6, 0, 2]
    again = replay(rec)
    assert again.snapshot() == s.snapshot() and again.position_text() == s.position_text()
    assert [a for _p, a in again.history] == [a for _p, a in s.history]


def test_a_finished_set_up_game_replays_to_its_outcome():
    s = SacksonGame(2, {"variant": "crossfire"}).setup({"E6": "A", "E8": "B"}, to_move=0)
    s.apply(Move("E6", "E8", 1))                       # B's only stone is covered: B cannot move
    assert s.is_terminal()
    again = replay(dumps(s))
    assert again.outcome() == s.outcome() and again.is_terminal()


def test_replay_refuses_a_record_that_does_not_end_at_its_final_position():
    s = played(SacksonGame(2).new_initial_state(), 30, seed=2)
    rec = json.loads(dumps(s))
    bad = json.loads(json.dumps(rec))
    bad["final"]["reserves"] = [7, 7]
    with pytest.raises(RecordError, match=r"final.*reserves"):
        replay(bad)
    bad = json.loads(json.dumps(rec))
    cell = next(iter(bad["final"]["stacks"]))
    bad["final"]["stacks"][cell] = list(reversed(bad["final"]["stacks"][cell])) + [0]
    with pytest.raises(RecordError, match="stacks"):
        replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["actions"] = bad["actions"][:-1]               # one move short of the final position
    with pytest.raises(RecordError, match="final"):
        replay(bad)


def test_replay_refuses_a_start_that_is_not_the_start_position_or_cannot_be_set_up():
    s = played(SacksonGame(2).new_initial_state(), 6, seed=3)
    rec = json.loads(dumps(s))
    bad = json.loads(json.dumps(rec))
    bad["start"]["stacks"]["c2"] = [1]
    with pytest.raises(RecordError, match="start position"):
        replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["start"]["source"] = "setup"
    bad["start"]["stacks"] = {"d4": [0, 0, 0, 0, 0, 0]}    # higher than the limit of 5
    with pytest.raises(RecordError, match="start"):
        replay(bad)
    with pytest.raises(RecordError):
        replay("{not json")


def test_a_plain_core_record_still_replays():
    from arcade.core.record import to_record as core_record
    s = played(SacksonGame(2).new_initial_state(), 20, seed=5)
    assert replay(core_record(s)).snapshot() == s.snapshot()
