"""``focus-arcade headless --game focus|crossfire`` (kiosk/headless_sackson.py): one JSON line
per game, the same lines for the same seed, every variant, clear messages for bad input."""

from __future__ import annotations

import io
import json
from argparse import Namespace

import pytest

from arcade.core.errors import SettingsError
from arcade.sackson import VARIANTS
from kiosk import cli, headless
from kiosk.headless_sackson import run

KEYS = {"game", "variant", "seed", "index", "players", "skills", "levels", "winners", "reason", "plies",
        "captures", "reserves"}


def _args(**kw: object) -> Namespace:
    base = dict(game="focus", mode=None, variant=None, players=4, games=1, seed=0, skills=["medium"] * 4,
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


def test_crossfire_by_game_name_and_by_variant() -> None:
    by_game = _lines(_args(game="crossfire", seed=3))
    by_variant = _lines(_args(game="focus", variant="crossfire", seed=3))
    assert by_game[0]["game"] == "crossfire" and by_game[0]["variant"] == "crossfire"
    assert by_variant[0]["variant"] == "crossfire"
    assert by_game[0]["plies"] == by_variant[0]["plies"] and by_game[0]["reason"] == by_variant[0]["reason"]


def test_no_variant_means_two_players() -> None:
    row = _lines(_args(variant=None))[0]
    assert row["variant"] == "2p" and row["players"] == 2


def test_skills_per_seat_when_the_count_fits_else_the_first_for_all() -> None:
    assert _lines(_args(variant="2p", players=2, skills=["easy", "expert"]))[0]["levels"] == ["easy", "hard"]
    assert _lines(_args(variant="3p", skills=["easy", "hard", "hard", "hard"]))[0]["levels"] == ["easy"] * 3
    with pytest.raises(SettingsError, match="skill"):
        run(_args(skills=["genius"]), io.StringIO())


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
