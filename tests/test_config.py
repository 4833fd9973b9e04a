"""The kiosk's TOML configuration (kiosk/config.py).

What the person setting up the arcade notices: every mistake in the file is
reported with the dotted key, the bad value and what was expected (and the
file's name); a broken file never stops the kiosk, which runs on the defaults
and shows the problem.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import pytest

from arcade.core.errors import ArcadeError, SettingsError
from arcade.core.judge import JudgeSettings
from kiosk import cli, config
from kiosk.config import SCHEMA, ConfigError, defaults, load, load_or_default, validate


def write(tmp_path: Path, text: str, name: str = "arcade.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_the_defaults_are_valid_and_match_the_schema() -> None:
    data = defaults()
    assert validate({}) == data
    assert set(data) == set(SCHEMA)
    for section, keys in SCHEMA.items():
        assert set(data[section]) == set(keys), section
        validate({section: dict(data[section])})
    cfg = load(None)
    assert cfg.source == "defaults" and cfg.problems == []
    assert cfg.judge_settings() == JudgeSettings(**{k: v for k, v in data["judge"].items()})


def test_a_good_file_overrides_only_its_keys(tmp_path: Path) -> None:
    p = write(tmp_path, '[judge]\ntie_window_ms = 5\n[seats]\nstations = ["gpio", "gpio", "off"]\n'
                        '[led]\nusb_id = "303A:1001"\n')
    cfg = load(p)
    assert cfg.source == str(p)
    assert cfg["judge"]["tie_window_ms"] == 5 and cfg["judge"]["debounce_ms"] == defaults()["judge"]["debounce_ms"]
    assert cfg["seats"]["stations"] == ["gpio", "gpio", "off"]
    assert cfg.judge_settings().tie_window_ms == 5


BAD: list[tuple[str, str, Any, str]] = [
    # (section, key, bad value, what the message says is expected)
    ("display", "width", 100, "a whole number from 320 to 7680"),
    ("display", "height", 720.5, "a whole number"),
    ("display", "fullscreen", "yes", "true or false"),
    ("display", "fps", 0, "from 10 to 240"),
    ("display", "fps", True, "a whole number"),
    ("judge", "debounce_ms", 150, "a number from 0 to 100"),
    ("judge", "tie_window_ms", -1, "from 0 to 250"),
    ("judge", "tie_window_ms", "20", "a number"),
    ("judge", "late_grace_ms", 3000, "from 0 to 2000"),
    ("judge", "stuck_after_s", 0, "from 0.5 to 600"),
    ("judge", "focusx_double_press_ms", 20, "from 50 to 1000"),
    ("judge", "focusx_double_press_ms", float("nan"), "a number"),
    ("focusx", "x_rule", 1, "true or false"),
    ("focusx", "pace_s", 0.1, "from 0.5 to 30"),
    ("seats", "stations", [], "a list of 1 to 8"),
    ("seats", "stations", "keyboard", "a list of 1 to 8"),
    ("seats", "stations", ["keyboard"] * 9, "a list of 1 to 8"),
    ("seats", "computer_skill", "godlike", "one of ['easy', 'medium', 'hard', 'expert']"),
    ("computer", "miss_rate_scale", -0.5, "a number from 0 to 10"),
    ("computer", "false_rate_scale", "2", "a number from 0 to 10"),
    ("gpio", "buzzers", [17, 28], "BCM pin numbers 0 to 27"),
    ("gpio", "buzzers", [17, 17], "each pin at most once"),
    ("gpio", "buzzers", 17, "a list of BCM pin"),
    ("gpio", "controls", [[1, 2, 3]], "[left, right, ok, x]"),
    ("gpio", "controls", "none", "[left, right, ok, x]"),
    ("gpio", "pin_factory", "rpio", "one of ["),
    ("led", "port", 0, "a string"),
    ("led", "usb_id", "303a", '"VID:PID"'),
    ("led", "usb_id", "303a:10011", '"VID:PID"'),
    ("led", "usb_id", "-1:2", '"VID:PID"'),
    ("led", "usb_id", "xyz:1", '"VID:PID"'),
    ("led", "usb_id", 3031001, '"VID:PID"'),
    ("led", "baudrate", 12345, "one of [9600"),
    ("led", "width", 4, "from 8 to 64"),
    ("led", "serpentine", "no", "true or false"),
    ("led", "brightness", 1.5, "from 0 to 1"),
    ("led", "max_current_ma", 50, "from 100 to 20000"),
    ("storage", "path", ["a"], "a string"),
]


@pytest.mark.parametrize("section, key, value, expected", BAD, ids=[f"{s}.{k}={v!r}" for s, k, v, _ in BAD])
def test_every_bad_value_names_the_dotted_key_and_the_expected_value(section: str, key: str, value: Any,
                                                                     expected: str) -> None:
    with pytest.raises(ConfigError) as err:
        validate({section: {key: value}}, source="my.toml")
    e = err.value
    dotted = f"{section}.{key}"
    assert e.key == dotted or e.key.startswith(dotted + "[")
    assert expected in e.expected and expected in str(e)
    assert str(e).startswith(f"my.toml: {e.key} = ")
    assert isinstance(e, ArcadeError) and isinstance(e, ValueError)


def test_a_bad_entry_in_a_list_names_its_index() -> None:
    with pytest.raises(ConfigError) as err:
        validate({"seats": {"stations": ["keyboard", "joystick"]}})
    assert err.value.key == "seats.stations[1]" and err.value.value == "joystick"
    with pytest.raises(ConfigError) as err:
        validate({"gpio": {"controls": [[5, 6, 13, 19], [5, 6]]}})
    assert err.value.key == "gpio.controls[1]"


def test_unknown_sections_and_keys() -> None:
    with pytest.raises(ConfigError) as err:
        validate({"judgee": {"tie_window_ms": 5}})
    assert err.value.key == "judgee" and "a section among" in str(err.value)
    with pytest.raises(ConfigError) as err:
        validate({"judge": {"tie_ms": 5}})
    assert err.value.key == "judge.tie_ms" and "tie_window_ms" in str(err.value)
    with pytest.raises(ConfigError) as err:
        validate({"judge": 5})
    assert err.value.key == "judge" and "[section] table" in str(err.value)


def test_the_bad_value_in_a_file_names_the_file(tmp_path: Path) -> None:
    p = write(tmp_path, "[judge]\ntie_window_ms = 300\n")
    with pytest.raises(ConfigError) as err:
        load(p)
    assert str(err.value).startswith(f"{p}: judge.tie_window_ms = 300: expected a number from 0 to 250")


@pytest.mark.parametrize("content, expected", [
    ("[judge\ntie_window_ms = 5\n", "valid TOML"),
    ("[judge]\ntie_window_ms = \n", "valid TOML"),
    ("[judge]\ntie_window_ms = 5\ntie_window_ms = 6\n", "valid TOML"),
    (b"[led]\nport = \"\xff\xfe\"\n", "a UTF-8 text file"),
])
def test_a_broken_file_names_the_file(tmp_path: Path, content: str | bytes, expected: str) -> None:
    p = tmp_path / "broken.toml"
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load(p)
    assert err.value.key == "config" and str(p) in str(err.value) and expected in str(err.value)
    if expected == "valid TOML":
        assert "line" in str(err.value)


def test_a_missing_or_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="an existing TOML file"):
        load(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match="a readable file"):
        load(tmp_path)


def test_load_or_default_falls_back_with_the_problem(tmp_path: Path) -> None:
    p = write(tmp_path, '[seats]\nstations = ["keyboard", "joystick"]\n[judge]\ntie_window_ms = 35\n')
    cfg = load_or_default(p)
    # The bad key keeps its default; every good key is kept (nothing else is lost).
    expected = defaults()
    expected["judge"]["tie_window_ms"] = 35
    assert cfg.data == expected and cfg.source == str(p)
    assert len(cfg.problems) == 1 and str(p) in cfg.problems[0] and "seats.stations[1]" in cfg.problems[0]
    broken = tmp_path / "binary.toml"
    broken.write_bytes(b"\x00\xff\xfe garbage")
    assert load_or_default(broken).problems and load_or_default(broken).data == defaults()
    # The fallback is a fresh copy: changing it does not change later defaults.
    cfg.data["judge"]["tie_window_ms"] = 99
    assert load_or_default(p).data["judge"]["tie_window_ms"] == 35
    good = load_or_default(write(tmp_path, "[focusx]\nx_rule = true\n", "good.toml"))
    assert good.problems == [] and good["focusx"]["x_rule"] is True


def test_the_judge_ranges_agree_with_the_judge_settings() -> None:
    # Every value the configuration accepts is one the judge accepts, and the ends match.
    for key in SCHEMA["judge"]:
        for probe in (-1e9, -1, -0.01, 0, 0.49, 0.5, 1, 15, 49, 50, 100, 100.5, 250, 251, 600, 601, 1000,
                      1001, 2000, 2001):
            try:
                validate({"judge": {key: probe}})
                config_ok = True
            except ConfigError:
                config_ok = False
            try:
                JudgeSettings(**{key: probe})
                judge_ok = True
            except SettingsError:
                judge_ok = False
            assert config_ok == judge_ok, (key, probe)


def test_storage_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    assert load(None).storage_path() == tmp_path / "share" / "focus-arcade" / "arcade.sqlite3"
    cfg = config.Config(validate({"storage": {"path": "~/results.db"}}))
    assert cfg.storage_path() == Path(os.path.expanduser("~/results.db"))


def test_default_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FOCUS_ARCADE_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config.default_path() is None
    p = tmp_path / "focus-arcade" / "arcade.toml"
    p.parent.mkdir()
    p.write_text("", encoding="utf-8")
    assert config.default_path() == p
    monkeypatch.setenv("FOCUS_ARCADE_CONFIG", str(tmp_path / "elsewhere.toml"))
    assert config.default_path() == tmp_path / "elsewhere.toml"


def test_check_config_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "[display]\nfps = 30\n", "good.toml")
    assert cli.main(["check-config", str(good)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0] == f"{good}: OK" and out[1].startswith("language: ")     # and the language it speaks (issue 26)
    bad = write(tmp_path, "[display]\nfps = 3\n", "bad.toml")
    assert cli.main(["check-config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "display.fps = 3" in err and str(bad) in err


def test_the_shipped_default_file_is_commented_toml() -> None:
    text = config.DEFAULT_FILE.read_text(encoding="utf-8")
    assert tomllib.loads(text) == defaults()
    for section in SCHEMA:
        assert f"[{section}]" in text


def test_contradicting_settings_are_reported_with_their_keys(tmp_path: Path) -> None:
    p = write(tmp_path, '[gpio]\nbuzzers = [17, 27]\ncontrols = [[17, 6, 13, 19]]\n'
                        '[seats]\nstations = ["gpio", "gpio", "gpio"]\n[judge]\nsettle_ms = 5\n')
    cfg = load_or_default(p)
    text = "\n".join(cfg.problems)
    assert "gpio.controls[0]" in text and "pin 17 is a buzzer" in text
    assert "seats.stations[2]" in text
    assert "judge.settle_ms" in text
    assert cfg.data["gpio"]["buzzers"] == [17, 27]          # the good keys survive
    with pytest.raises(ConfigError):
        load(p)
