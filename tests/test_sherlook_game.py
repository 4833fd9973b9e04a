"""Sherlook on the core API: rounds, the end and its tie-breaks (SL-5), seat counts (SL-6),
records, headless play and the computer players."""

from __future__ import annotations

import io
import json
import random
import statistics

import pytest

from arcade import registry as games
from arcade.bots.sherlook import SKILLS, SherlookBot, choose_marker, plan_round
from arcade.core.api import CHANCE, RACE, TERMINAL
from arcade.core.errors import IllegalActionError, SettingsError
from arcade.core.record import replay, to_record
from arcade.sherlook.autoplay import SherlookSimConfig, simulate
from arcade.sherlook.game import Round, SherlookGame, photos_for
from arcade.sherlook.markers import Take, TimeUp
from arcade.sherlook.poses import pose
from kiosk.players.headless import run_spec


def run_games(players, games_n, seed, skills, out):
    """The headless runner of the ``sherlook`` entry (``kiosk.players.headless.run_spec``)."""
    run_spec(games.get("sherlook"), players, games_n, seed, skills, out)


def seed_with(count: int) -> int:
    """A scene seed whose photos have ``count`` differences."""
    return next(s for s in range(500) if photos_for(s).count == count)


FIVE = seed_with(5)


def test_SL6_two_to_six_seats():
    for n in range(2, 7):
        assert SherlookGame(n).seats == n
    for n in (1, 7):
        with pytest.raises(SettingsError):
            SherlookGame(n)
    assert games.make("sherlook", 3).title == "Sherlook"


def test_SL5_a_game_is_ten_rounds_of_ten_different_tokens():
    state = SherlookGame(4).new_initial_state()
    simulate(state, random.Random("ten"), SherlookSimConfig(skills=["medium"] * 4))
    assert state.current_player() == TERMINAL
    regular = [r for r in state.rounds if not r.extra]
    assert len(regular) == 10
    assert len({r.pose for r in regular}) == 10
    out = state.outcome()
    assert out is not None and out.winners
    assert list(out.scores) == [float(p) for p in state.points]
    assert sum(state.points) == sum(sum(r.score.points.values()) for r in state.rounds)


def play_round(state, scene_seed: int, takes: dict[int, int], time_up: tuple[int, ...] = ()) -> None:
    assert state.current_player() == CHANCE
    state.apply(Round(state.chance_outcome(random.Random(state.round_no)).pose, scene_seed))
    for seat, marker in takes.items():
        state.apply(Take(seat, marker))
    if time_up:
        state.apply(TimeUp(time_up))


def test_SL5_tied_on_points_most_green_tokens_wins():
    state = SherlookGame(2, {"rounds": 2}).new_initial_state()
    play_round(state, FIVE, {0: 5, 1: 4})             # P1 green + unearned red = 4, P2 yellow = 2
    play_round(state, FIVE, {1: 4}, time_up=(0,))       # P2 yellow = 2; P1 ran out of time
    assert state.points == [4, 4] and state.greens == [1, 0]
    out = state.outcome()
    assert out is not None and out.winners == (0,)
    assert "green" in out.reason


def test_SL5_still_tied_an_extra_round_among_the_tied_players():
    state = SherlookGame(3, {"rounds": 2}).new_initial_state()
    play_round(state, FIVE, {0: 5, 1: 4, 2: 3})         # P1 4, P2 2, P3 0
    play_round(state, FIVE, {1: 5, 0: 4, 2: 3})         # P2 4, P1 2, P3 0
    assert state.points[:2] == [6, 6] and state.greens[:2] == [1, 1]
    assert state.current_player() == CHANCE and state.tied == (0, 1)
    state.apply(Round("side", FIVE))
    assert state.is_extra and state.participants == (0, 1)
    with pytest.raises(IllegalActionError):
        state.apply(Take(2, 7))                         # P3 is not in the extra round
    state.apply(Take(1, 6))
    state.apply(Take(0, 5))
    out = state.outcome()
    assert out is not None and out.winners == (0,) and "extra round" in out.reason
    assert state.points == [11, 7, 0]                   # exact 5 with nobody below: green + yellow


def test_SL5_extra_rounds_repeat_until_one_leads_then_a_cap():
    state = SherlookGame(2, {"rounds": 1, "max_extra_rounds": 2}).new_initial_state()
    play_round(state, FIVE, {}, time_up=(0, 1))         # nobody took a marker: 0 - 0
    for _ in range(2):                                   # two extra rounds, still nobody scores
        assert state.current_player() == CHANCE and state.tied == (0, 1)
        play_round(state, FIVE, {}, time_up=(0, 1))
    out = state.outcome()
    assert out is not None and out.winners == (0, 1) and "shared" in out.reason
    assert state.extra_no == 2


def test_SL3_take_is_binding_and_markers_are_unique():
    state = SherlookGame(3).new_initial_state()
    state.apply(Round("side", FIVE))
    state.apply(Take(0, 5))
    with pytest.raises(IllegalActionError, match="binding"):
        state.apply(Take(0, 6))
    with pytest.raises(IllegalActionError, match="held by P1"):
        state.apply(Take(1, 5))
    snap = state.snapshot()
    with pytest.raises(IllegalActionError):
        state.apply(Take(1, 11))
    assert state.snapshot() == snap                      # a refused action changes nothing


def test_SL2_regular_rounds_refuse_a_used_token():
    state = SherlookGame(2).new_initial_state()
    play_round(state, FIVE, {0: 5, 1: 6})
    used = state.tokens_used[0]
    with pytest.raises(IllegalActionError, match="already used"):
        state.apply(Round(used, FIVE))


def test_record_replays_to_the_same_game():
    state = SherlookGame(3).new_initial_state()
    simulate(state, random.Random("rec"), SherlookSimConfig(skills=["easy", "hard", "expert"]))
    record = json.loads(json.dumps(to_record(state, seed=9)))
    again = replay(record, games.make)
    assert again.snapshot() == state.snapshot()
    assert again.outcome() == state.outcome()


def test_a_record_saved_before_the_rename_still_replays():
    """Records and resume slots saved before issue 21 name a round's green token ``"layout"``;
    they replay to the same game, and a record written now names it ``"pose"``."""
    state = SherlookGame(2).new_initial_state()
    simulate(state, random.Random("old"), SherlookSimConfig(skills=["medium", "hard"]))
    record = json.loads(json.dumps(to_record(state, seed=4)))
    rounds = [e["action"] for e in record["actions"] if e["action"]["type"] == "Round"]
    assert rounds and all("pose" in a and "layout" not in a for a in rounds)
    for a in rounds:
        a["layout"] = a.pop("pose")
    again = replay(record, games.make)
    assert again.snapshot() == state.snapshot()
    assert [r.pose for r in again.rounds] == [r.pose for r in state.rounds]


def test_headless_lines_same_seed_same_lines():
    out1, out2, out3 = io.StringIO(), io.StringIO(), io.StringIO()
    run_games(3, 2, 17, ["medium"] * 3, out1)
    run_games(3, 2, 17, ["medium"] * 3, out2)
    run_games(3, 2, 18, ["medium"] * 3, out3)
    assert out1.getvalue() == out2.getvalue() != out3.getvalue()
    lines = [json.loads(x) for x in out1.getvalue().splitlines()]
    assert [x["index"] for x in lines] == [0, 1]
    for x in lines:
        assert {"seed", "index", "players", "winners", "points", "greens", "rounds", "reason"} <= set(x)
        assert x["players"] == 3 and len(x["points"]) == 3 and len(x["greens"]) == 3
        assert all(1 <= w <= 3 for w in x["winners"])
        assert x["rounds"] >= 10


def test_headless_six_players():
    out = io.StringIO()
    run_games(6, 1, 3, ["expert", "easy", "medium", "hard", "medium", "easy"], out)
    line = json.loads(out.getvalue())
    assert line["players"] == 6 and len(line["points"]) == 6


def test_bots_count_worse_when_a_photo_is_mirrored_or_head_to_toe():
    rng = random.Random(5)
    pairs = [photos_for(s) for s in range(40)]
    err = {}
    for key in ("side", "side-mirror", "side-180"):
        p = pose(key)
        errors, times = [], []
        for _ in range(10):
            for pair in pairs:
                plan = plan_round(rng, pair, p, SKILLS["medium"])
                errors.append(abs(plan.estimate - pair.count))
                times.append(plan.ready_ms)
        err[key] = (statistics.mean(errors), statistics.median(times))
    assert err["side"][0] < err["side-mirror"][0] and err["side"][0] < err["side-180"][0]
    assert err["side"][1] < err["side-180"][1]           # and they take longer


def test_bots_experts_count_better_than_beginners():
    rng = random.Random(6)
    pairs = [photos_for(s) for s in range(40)]
    side = pose("side")
    mean = {name: statistics.mean(abs(plan_round(rng, p, side, SKILLS[name]).estimate - p.count)
                                  for p in pairs for _ in range(5)) for name in ("easy", "expert")}
    assert mean["expert"] < mean["easy"]


def test_bots_choose_the_nearest_free_marker_below_first():
    assert choose_marker(6, [1, 2, 6, 9]) == 6
    assert choose_marker(6, [5, 7, 9]) == 5
    assert choose_marker(6, [8, 9]) == 8


def test_bots_press_while_the_highlight_is_on_their_marker():
    from arcade.sherlook.markers import MarkerRace, MarkerSettings
    race = MarkerRace((0, 1), MarkerSettings(), random.Random(1))
    race.open(0)
    bot = SherlookBot(0, SKILLS["medium"], random.Random(2))
    bot.new_round(1, photos_for(FIVE), pose("side"))
    assert bot.plan is not None
    t = bot.next_press(race, 0)
    assert t is not None and t >= bot.plan.ready_ms * 1e6 * 0.999
    assert race.highlight_at(t) == choose_marker(bot.plan.estimate, race.free())


def test_state_rejects_actions_out_of_turn():
    state = SherlookGame(2).new_initial_state()
    with pytest.raises(IllegalActionError):
        state.apply(Take(0, 1), RACE)
    state.apply(Round("stack", FIVE))
    with pytest.raises(IllegalActionError):
        state.apply(Round("side", FIVE), CHANCE)


@pytest.mark.parametrize("extra, words", [
    (["--mode", "duel"], ["--mode", "classic"]),
    (["--variant", "2p"], ["--variant", "Sherlook"]),
    (["--x-rule"], ["--x-rule", "FocusX"]),
    (["--case", "blue-carbuncle"], ["--case", "Sherlook"]),
    (["--players", "7"], ["2 to 6"]),
    (["--players", "1"], ["2 to 6"]),
])
def test_headless_refuses_what_sherlook_does_not_have(extra, words, capsys):
    from kiosk import cli
    assert cli.main(["headless", "--game", "sherlook", "--games", "1", *extra]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    for w in words:
        assert w in captured.err


def test_headless_accepts_no_mode_or_classic_and_says_the_range_for_bad_player_counts():
    import argparse

    from kiosk.players.headless import run
    for mode in (None, "classic"):
        out = io.StringIO()
        args = argparse.Namespace(game="sherlook", mode=mode, variant=None, players=2, games=1, seed=4,
                                  skills=["easy", "expert"], x_rule=False, case=None)
        run(args, out)
        assert json.loads(out.getvalue())["players"] == 2
    args = argparse.Namespace(game="sherlook", mode=None, variant=None, players=-3, games=1, seed=4,
                              skills=[], x_rule=False, case=None)
    with pytest.raises(SettingsError, match="2 to 6"):
        run(args, io.StringIO())
