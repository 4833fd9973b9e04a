"""``focus-arcade headless --game focus|crossfire`` (kiosk/players/headless.py): one JSON line
per game, the same lines for the same seed, every variant, clear messages for bad input
(never a silent fallback), and lines whose moves replay to their final position (SF-7)."""

from __future__ import annotations

import io
import json
from argparse import Namespace

import pytest

from arcade.core.errors import SettingsError
from arcade.sackson import VARIANTS
from kiosk import cli
from kiosk.players import headless
from kiosk.players.headless import run

KEYS = {"game", "variant", "seed", "index", "players", "skills", "levels", "winners", "reason", "plies",
        "captures", "reserves", "moves", "final"}


def _args(**kw: object) -> Namespace:
    base = dict(game="focus", mode=None, variant=None, players=None, games=1, seed=0, skills=["medium"],
                x_rule=False, case=None)
    base.update(kw)
    return Namespace(**base)


def _lines(args: Namespace) -> list[dict[str, object]]:
    out = io.StringIO()
    run(args, out)
    text = out.getvalue()
    rows = [json.loads(line) for line in text.splitlines()]
    for line, row in zip(text.splitlines(), rows):
        assert line == json.dumps(row, sort_keys=True)          # keys sorted, one object a line
    return rows


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_plays_to_an_end_with_the_documented_fields(variant: str) -> None:
    rows = _lines(_args(variant=variant, games=2, seed=7))
    assert [r["index"] for r in rows] == [0, 1]
    for r in rows:
        assert set(r) == KEYS
        n = VARIANTS[variant]
        assert r["variant"] == variant and r["players"] == n and r["seed"] == 7
        assert len(r["captures"]) == n and len(r["reserves"]) == n      # type: ignore[arg-type]
        assert set(r["winners"]) <= set(range(1, n + 1))                # type: ignore[arg-type]
        assert r["plies"] > 0 and r["reason"]                           # type: ignore[operator]
        if variant == "4p-teams" and r["winners"]:
            assert r["winners"] in ([1, 3], [2, 4])                     # SF-5: partners win together


def test_same_seed_same_lines_other_seed_other_games() -> None:
    args = _args(variant="2p", games=3, seed=11, skills=["easy", "hard"], players=2)
    a, b = io.StringIO(), io.StringIO()
    run(args, a)
    run(args, b)
    assert a.getvalue() == b.getvalue() and a.getvalue().count("\n") == 3
    c = io.StringIO()
    run(_args(variant="2p", games=3, seed=12, skills=["easy", "hard"], players=2), c)
    assert c.getvalue() != a.getvalue()


def test_crossfire_by_game_name_and_by_variant_gives_the_same_lines() -> None:
    by_game = _lines(_args(game="crossfire", seed=3))
    by_variant = _lines(_args(game="focus", variant="crossfire", seed=3))
    assert by_game == by_variant                                        # "game" included: one name for one game
    assert by_game[0]["game"] == "focus" and by_game[0]["variant"] == "crossfire"


def test_no_variant_means_two_players() -> None:
    row = _lines(_args(variant=None))[0]
    assert row["variant"] == "2p" and row["players"] == 2


def test_mode_is_another_name_for_the_variant() -> None:
    assert _lines(_args(mode="3p", seed=5)) == _lines(_args(variant="3p", seed=5))
    with pytest.raises(SettingsError, match=r"'duel'.*'2p', '3p'"):
        run(_args(mode="duel"), io.StringIO())
    with pytest.raises(SettingsError, match="--variant '4p'"):
        run(_args(mode="3p", variant="4p"), io.StringIO())


def test_skills_one_for_all_or_exactly_one_per_seat_else_a_clear_error() -> None:
    assert _lines(_args(variant="2p", skills=["easy", "expert"]))[0]["levels"] == ["easy", "hard"]
    assert _lines(_args(variant="3p", skills=["easy"]))[0]["levels"] == ["easy"] * 3
    with pytest.raises(SettingsError, match=r"3 levels, one per seat \(got 4\)"):
        run(_args(variant="3p", skills=["easy", "hard", "hard", "hard"]), io.StringIO())
    with pytest.raises(SettingsError, match=r"4 levels, one per seat \(got 2\)"):
        run(_args(variant="4p-teams", skills=["easy", "hard"]), io.StringIO())
    with pytest.raises(SettingsError, match="skill"):
        run(_args(skills=["genius"]), io.StringIO())


def test_players_must_fit_the_variant_none_means_its_count() -> None:
    assert _lines(_args(variant="4p", players=None, skills=["easy"]))[0]["players"] == 4
    assert _lines(_args(variant="4p", players=4, skills=["easy"]))[0]["players"] == 4
    with pytest.raises(SettingsError, match=r"'players' = 4: expected 2 for variant '2p'"):
        run(_args(players=4), io.StringIO())
    with pytest.raises(SettingsError, match=r"expected 2 for variant 'crossfire'"):
        run(_args(game="crossfire", players=3), io.StringIO())


def test_focusx_and_coop_options_are_refused_not_ignored() -> None:
    with pytest.raises(SettingsError, match="x-rule"):
        run(_args(x_rule=True), io.StringIO())
    with pytest.raises(SettingsError, match="--case"):
        run(_args(case="the-blind-banker"), io.StringIO())


def test_a_line_replays_to_its_final_position() -> None:
    from arcade.sackson import SacksonGame
    from arcade.sackson.notation import play
    from arcade.sackson.record import position
    for variant in ("3p", "crossfire"):
        row = _lines(_args(variant=variant, seed=2, skills=["easy"]))[0]
        game = SacksonGame(VARIANTS[variant], {"variant": variant})
        state = play(game.new_initial_state(), str(row["moves"]))
        assert json.loads(json.dumps(position(state))) == row["final"]
        assert row["final"]["to_move"] is None and row["final"]["outcome"]["reason"] == row["reason"]  # type: ignore[index]


def test_bad_variant_names_the_choices() -> None:
    with pytest.raises(SettingsError, match=r"'5p'.*'2p', '3p', '4p-teams', '4p', 'crossfire'"):
        run(_args(variant="5p"), io.StringIO())
    with pytest.raises(SettingsError, match="crossfire"):
        run(_args(game="crossfire", variant="2p"), io.StringIO())


def test_ply_cap_stops_a_game_as_a_draw() -> None:
    row = _lines(_args(variant="4p", skills=["easy"], ply_cap=6))[0]
    assert row["plies"] == 6 and row["winners"] == [] and str(row["reason"]).startswith("ply cap")


def test_command_line_runs_and_reports_a_bad_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert headless.runner("focus") is run and headless.runner("crossfire") is run
    assert cli.main(["headless", "--game", "crossfire", "--games", "1", "--seed", "2", "--skill", "easy"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and json.loads(out[0])["variant"] == "crossfire"
    assert cli.main(["headless", "--game", "focus", "--variant", "9p"]) == 2
    err = capsys.readouterr().err
    assert "'9p'" in err and "4p-teams" in err
    assert cli.main(["headless", "--game", "focus", "--variant", "3p", "--x-rule"]) == 2
    assert "x-rule" in capsys.readouterr().err
    assert cli.main(["headless", "--game", "focus", "--mode", "4p-teams", "--skill", "easy"]) == 0
    assert json.loads(capsys.readouterr().out)["variant"] == "4p-teams"
