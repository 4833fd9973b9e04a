"""``focus-arcade headless``: computer players only, one JSON line per game.

What someone tuning the bots or the rules notices: the same seed prints the
same lines, another seed other games, every line is a sensible finished game,
and a bad argument gets a one-line explanation and exit status 2.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arcade import registry as games
from kiosk import cli

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["headless", "--game", "focusx", "--mode", "classic", "--players", "4", "--games", "20", "--seed", "1"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]], str]:
    code = cli.main(argv)
    out = capsys.readouterr()
    return code, [json.loads(line) for line in out.out.splitlines()], out.err


def test_twenty_games_one_json_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(ARGS, capsys)
    assert code == 0 and err == ""
    assert len(lines) == 20
    assert [g["index"] for g in lines] == list(range(20))
    for g in lines:
        assert g["game"] == "focusx" and g["mode"] == "classic" and g["players"] == 4 and g["seed"] == 1
        assert len(g["cards"]) == 4 and 0 < sum(g["cards"]) <= 64
        assert g["winners"] and set(g["winners"]) <= {1, 2, 3, 4}              # seats shown from 1
        if g["reason"].startswith("most cards"):
            best = max(g["cards"])
            assert g["winners"] == [g["cards"].index(best) + 1] and g["cards"].count(best) == 1
        assert 0 <= g["debated"] <= g["races"] and g["false_focuses"] >= 0 and g["actions"] > 64
    # Games differ from one another (each draws from its own generator).
    assert len({json.dumps(g["cards"]) for g in lines}) > 10


def test_the_same_seed_gives_the_same_lines_another_seed_other_games(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(ARGS, capsys)
    _, second, _ = run(ARGS, capsys)
    assert first == second
    _, other, _ = run(ARGS[:-1] + ["2"], capsys)
    assert len(other) == 20
    assert [g["cards"] for g in other] != [g["cards"] for g in first]
    # Game k depends only on the seed and k: a shorter run is a prefix of a longer one.
    _, five, _ = run(ARGS[:-3] + ["5", "--seed", "1"], capsys)
    assert five == first[:5]


def test_focusx_rule_and_skill_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(["headless", "--players", "3", "--games", "3", "--seed", "4", "--x-rule",
                          "--skill", "easy,hard,expert"], capsys)
    assert code == 0 and len(lines) == 3 and all(g["players"] == 3 for g in lines)
    code, plain, _ = run(["headless", "--players", "3", "--games", "3", "--seed", "4",
                          "--skill", "easy,hard,expert"], capsys)
    assert code == 0 and plain != lines
    # The line says which entry it was: the mode is "classic" either way, x_rule tells them apart.
    assert all(g["mode"] == "classic" and g["x_rule"] is True for g in lines)
    assert all(g["x_rule"] is False for g in plain)


@pytest.mark.parametrize("argv, message", [
    (["headless", "--players", "1"], "'seats' = 1: expected 2 to 8 for FocusX Classic"),
    (["headless", "--players", "9"], "expected 2 to 8"),
    (["headless", "--mode", "speedy"], "'mode' = 'speedy': expected one of"),
    (["headless", "--game", "chess"], "unknown game 'chess'"),
    (["headless", "--skill", "godlike"], "unknown skill 'godlike'"),
    (["headless", "--players", "3", "--skill", "easy,hard"], "--skill names 2 levels for 3 players"),
    (["headless", "--games", "-1"], "--games -1"),
])
def test_bad_arguments_give_a_clear_message_and_exit_2(argv: list[str], message: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(argv, capsys)
    assert code == 2 and lines == []
    assert err.startswith("focus-arcade: ") and message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv", [["headless", "--seed", "one"], ["headless", "--games"],
                                  ["headless", "--bogus"]])
def test_unparsable_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    assert "usage: focus-arcade" in capsys.readouterr().err


def test_a_mode_not_built_yet_is_a_clear_message(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    ghost = games.GameSpec("focusx-ghost", "focusx", "ghost", "FocusX Ghost",
                           "arcade.focusx.ghost_mode_not_built:GhostGame", "arcade.focusx.house", 2, 8, 4)
    monkeypatch.setattr(games, "SPECS", games.SPECS + (ghost,))
    code, lines, err = run(["headless", "--mode", "ghost"], capsys)
    assert code == 2 and lines == [] and "'ghost' is not built" in err and "Traceback" not in err


def test_the_installed_command_line(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "kiosk.cli", "headless", "--players", "2", "--games", "3", "--seed", "9"]
    first = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert len(lines) == 3 and all(json.loads(line)["players"] == 2 for line in lines)
    assert subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120).stdout == first.stdout
    bad = subprocess.run(argv[:4] + ["--players", "0"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stdout == "" and "focus-arcade:" in bad.stderr
