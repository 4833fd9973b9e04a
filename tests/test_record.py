"""Game records (arcade/core/record.py): a finished game replays to the identical state.

What the admin relies on: any saved game, read back from its JSON, rebuilds the
same final table, piles and result without any random generator; a damaged
record is refused with a message saying what is wrong (never a crash).
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import pytest

from arcade import registry as games
from arcade.core.errors import ArcadeError, RecordError
from arcade.core.record import FORMAT, dumps, replay, to_record
from arcade.focusx.autoplay import SimConfig, first_legal, simulate
from arcade.focusx.classic import ClassicGame, ClassicState, Place


def played(seats: int, seed: int, x_rule: bool = False, skill: str = "medium") -> ClassicState:
    state = ClassicGame(seats, {"x_rule": x_rule}).new_initial_state()
    simulate(state, random.Random(f"{seed}-0"), SimConfig(skills=[skill] * seats), first_legal)
    assert state.is_terminal()
    return state


@pytest.mark.parametrize("seats, seed, x_rule", [(2, 1, False), (3, 2, True), (4, 3, False), (5, 4, True),
                                                  (6, 5, False), (8, 6, True)])
def test_record_to_json_to_replay_gives_the_identical_game(seats: int, seed: int, x_rule: bool) -> None:
    state = played(seats, seed, x_rule)
    text = dumps(state, seed=seed)
    data = json.loads(text)
    assert data["format"] == FORMAT and data["game"] == "focusx-classic" and data["seats"] == seats
    assert data["settings"] == {"x_rule": x_rule} and data["seed"] == seed
    again = replay(text, games.make)
    assert again.snapshot() == state.snapshot()
    assert again.history == state.history
    assert again.outcome() == state.outcome()
    assert replay(data, games.make).snapshot() == state.snapshot()          # dict or text
    assert dumps(again, seed=seed) == text                                  # and back again


def test_the_same_seed_plays_the_same_game_and_another_seed_another() -> None:
    a, b, c = played(4, 11), played(4, 11), played(4, 12)
    assert dumps(a) == dumps(b)
    assert dumps(a) != dumps(c)


def test_a_game_replays_part_way() -> None:
    state = played(3, 7)
    record = to_record(state)
    record["actions"] = record["actions"][:40]
    partial = replay(record, games.make)
    assert len(partial.history) == 40 and not partial.is_terminal()


# -- damaged records -----------------------------------------------------------------------------

def _record() -> dict[str, Any]:
    rec: dict[str, Any] = json.loads(dumps(played(2, 3), seed=3))
    return rec


def _place_index(rec: dict[str, Any]) -> int:
    return next(i for i, a in enumerate(rec["actions"]) if a["action"]["type"] == "Place")


Damage = Callable[[dict[str, Any]], Any]


def _set(path: list[Any], value: Any) -> Damage:
    def damage(rec: dict[str, Any]) -> Any:
        target = rec
        for key in path[:-1]:
            target = target[key(rec) if callable(key) else key]
        last = path[-1]
        target[last(rec) if callable(last) else last] = value
        return rec
    return damage


def _drop(key: str) -> Damage:
    def damage(rec: dict[str, Any]) -> Any:
        del rec[key]
        return rec
    return damage


@pytest.mark.parametrize("damage, message", [
    (lambda rec: json.dumps(rec)[:-40], "not valid JSON"),
    (lambda rec: "", "not valid JSON"),
    (lambda rec: [rec], "not a focus-arcade/1 record"),
    (_set(["format"], "focus-arcade/0"), "not a focus-arcade/1 record"),
    (_drop("actions"), "has no 'actions'"),
    (_drop("game"), "has no 'game'"),
    (_drop("seats"), "has no 'seats'"),
    (_set(["game"], "chess"), "cannot be set up"),
    (_set(["seats"], 9), "cannot be set up"),
    (_set(["seats"], "2"), "cannot be set up"),
    (_set(["settings"], {"x_rule": "on"}), "cannot be set up"),
    (_set(["settings"], ["x_rule"]), "'settings' must be an object"),
    (_set(["actions"], 5), "'actions' must be a list"),
    (_set(["actions"], {"0": {}}), "'actions' must be a list"),
    (_set(["actions", 0], "Deal"), "action 0 of the record does not replay"),
    (_set(["actions", 0, "action", "type"], "Shuffle"), "action 0 of the record does not replay: unknown action type"),
    (_set(["actions", 0, "action", "order"], list(range(63)) + [0]), "action 0 of the record does not replay"),
    (_set(["actions", 0, "action", "cards"], []), "bad fields for Deal"),
    (_set(["actions", _place_index, "action", "spot"], 9), "does not replay: illegal action"),
    (_set(["actions", _place_index, "player"], 1), "not P2's"),
    (_set(["actions", _place_index, "player"], "P1"), "does not replay"),
    (_set(["actions", _place_index, "action"], {"spot": 0}), "must be an object with a 'type'"),
])
def test_a_damaged_record_gives_a_clear_record_error(damage: Damage, message: str) -> None:
    rec = _record()
    bad = damage(rec)
    with pytest.raises(RecordError) as err:
        replay(bad, games.make)
    assert message in str(err.value)
    assert isinstance(err.value, ArcadeError) and isinstance(err.value, ValueError)


def test_the_failing_action_is_named_by_its_index() -> None:
    rec = _record()
    i = _place_index(rec) + 3          # a later placement
    while rec["actions"][i]["action"]["type"] != "Place":
        i += 1
    rec["actions"][i]["action"]["spot"] = 42
    with pytest.raises(RecordError, match=f"action {i} of the record does not replay"):
        replay(rec, games.make)


@pytest.mark.parametrize("bad", ["1", True, 1.9, None])
def test_a_record_whose_player_is_not_a_whole_number_is_refused(bad: object) -> None:
    game = ClassicGame(2)
    state = game.new_initial_state()
    state.apply(state.chance_outcome(random.Random(2)))
    state.apply(Place(state.default_spot()))
    record = to_record(state, 2)
    record["actions"][1]["player"] = bad
    with pytest.raises(RecordError) as err:
        replay(record, games.make)
    assert "player" in str(err.value)
