"""The command line as an operator types it (issues 20 and 25).

Global options (``--config``, ``--windowed``, ``--screenshot-dir``, ``--screenshot-every``)
were accepted only before the command's name: ``focus-arcade doctor --config F`` (what
install.sh ran) and ``focus-arcade demo --game X --screenshot-dir D`` stopped with
"unrecognized arguments".  ``focus-arcade --config bad.toml check-config`` checked the
built-in defaults and said OK.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kiosk import cli
from kiosk.service import doctor

BAD = '[display]\nfps = 3\n[judge]\ntie_window_ms = 999\n[led]\nbaudrate = 12345\n'


@pytest.mark.parametrize("command", [["demo", "--game", "focusx"], ["headless", "--games", "0"], ["check-config"],
                                     ["doctor", "--no-probe"], ["event", "status"], ["leaderboard-web"]])
def test_global_options_after_the_command_mean_what_they_mean_before_it(command: list[str]) -> None:
    options = ["--config", "/etc/focus-arcade/arcade.toml", "--windowed", "--screenshot-dir", "/tmp/shots",
               "--screenshot-every", "5"]
    before = cli._parser().parse_args(options + command)
    after = cli._parser().parse_args(command + options)
    assert vars(before) == vars(after)
    assert after.config == "/etc/focus-arcade/arcade.toml" and after.screenshot_dir == "/tmp/shots"
    assert after.windowed is True and after.screenshot_every == 5.0


def test_an_option_after_the_command_wins_and_none_given_keeps_the_defaults() -> None:
    args = cli._parser().parse_args(["--config", "a.toml", "demo", "--config", "b.toml"])
    assert args.config == "b.toml"
    plain = cli._parser().parse_args(["demo"])
    assert plain.config is None and plain.screenshot_dir == "" and plain.windowed is False and plain.frames == 0


def test_a_bad_global_option_after_the_command_gets_its_own_message(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["demo", "--screenshot-every", "0.01"])
    assert stop.value.code == 2
    assert "expected 0.2 to 3600 seconds" in capsys.readouterr().err


def test_demo_with_screenshot_dir_after_the_command_saves_screenshots(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("FOCUS_ARCADE_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    shots = tmp_path / "shots"
    assert cli.main(["demo", "--game", "focusx", "--screenshot-dir", str(shots), "--frames", "20",
                     "--windowed"]) == 0
    assert sorted(p.suffix for p in shots.iterdir()) and all(p.suffix == ".png" for p in shots.iterdir())


@pytest.mark.parametrize("argv", [["--config", "{bad}", "check-config"], ["check-config", "--config", "{bad}"],
                                  ["check-config", "{bad}"], ["check-config", "{bad}", "--config", "{bad}"]])
def test_check_config_checks_the_file_named_by_config(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      argv: list[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD, encoding="utf-8")
    assert cli.main([a.format(bad=bad) for a in argv]) == 2
    captured = capsys.readouterr()
    assert "3 problem(s) in " + str(bad) in captured.err
    assert "display.fps = 3" in captured.err and "OK" not in captured.out


def test_check_config_with_two_different_files_checks_neither_and_says_so(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD, encoding="utf-8")
    good = tmp_path / "good.toml"
    good.write_text("", encoding="utf-8")
    assert cli.main(["check-config", str(good), "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "two files named" in err


def test_doctor_with_config_after_the_command_checks_that_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """install.sh's closing check: ``doctor --config FILE --no-probe`` (issue 25)."""
    bad = tmp_path / "arcade.toml"
    bad.write_text(BAD + f'[storage]\npath = "{tmp_path / "r.sqlite3"}"\n', encoding="utf-8")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    rc = cli.main(["doctor", "--config", str(bad), "--no-probe"])
    out = capsys.readouterr().out
    assert rc == 1
    assert f"configuration: {bad}: 3 problem(s)" in out
    direct = io.StringIO()
    doctor.doctor_main(str(bad), probe=False, out=direct)
    assert f"configuration: {bad}: 3 problem(s)" in direct.getvalue()
