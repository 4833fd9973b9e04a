"""An installed cabinet never falls back to laptop defaults, third round (issue 23, item 1).

What the operator notices: the standard configuration file deleted with the copy's
``last-good-config.source`` gone still gives the cabinet; a file cut inside its last line
(a power cut during a save) never gives a shortened number ("tie_window_ms = 2" of 20); a
file that still reads but changes kiosk mode, the GPIO buzzers, the PIN or the store path
(one damaged byte) never changes them without ``check-config --accept``; the screen, the
start log, ``check-config`` and ``doctor`` say each of these in the same words.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk import cli, config
from kiosk.service import doctor
from kiosk.service.config_save import save_settings
from tests.test_config_damage import INSTALLED, assert_cabinet, install

STORE = "/var/lib/focus-arcade/arcade.sqlite3"


def start_log(capsys: pytest.CaptureFixture[str], path: Path | None) -> str:
    """What ``focus-arcade [--config PATH]`` prints before the arcade runs (the run itself left out)."""
    import kiosk.app.window
    real_run = kiosk.app.window.run
    try:
        kiosk.app.window.run = lambda cfg, args: 0                         # type: ignore[assignment]
        capsys.readouterr()
        assert cli.main(["--config", str(path)] if path else []) == 0
    finally:
        kiosk.app.window.run = real_run                                    # type: ignore[assignment]
    return capsys.readouterr().err


# -- 1. the standard file deleted, the copy's .source gone -------------------------------------

def test_the_default_file_deleted_without_the_copy_s_source_is_stood_in_for_by_the_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "etc"))
    monkeypatch.delenv("FOCUS_ARCADE_CONFIG", raising=False)
    default = tmp_path / "etc" / "focus-arcade" / "arcade.toml"
    default.parent.mkdir(parents=True)
    default.write_text(INSTALLED, "utf-8")
    assert config.load_or_default(config.default_path()).problems == []
    default.unlink()
    config.last_good_path().with_name("last-good-config.source").unlink()   # a copy put back from a backup
    assert config.default_path() == default
    cfg = config.load_or_default(config.default_path())
    assert_cabinet(cfg)
    assert any("it is gone" in p for p in cfg.problems)
    capsys.readouterr()
    assert cli.main(["check-config"]) == 2
    err = capsys.readouterr().err
    assert "defaults: OK" not in err and "it is gone" in err and "display.kiosk" in err
    assert "kiosk mode on" in start_log(capsys, None)


def test_without_a_copy_a_missing_default_file_is_still_the_plain_defaults(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "etc"))
    monkeypatch.delenv("FOCUS_ARCADE_CONFIG", raising=False)
    assert config.default_path() is None                                   # a laptop, nothing installed
    assert cli.main(["check-config"]) == 0
    assert "defaults: OK" in capsys.readouterr().out


# -- 2. a file cut inside its last line --------------------------------------------------------

def cut_after(text: str, piece: str) -> str:
    """``text`` cut right after the first ``piece`` (no newline after it)."""
    return text[:text.index(piece) + len(piece)]


def test_a_number_cut_short_by_the_end_of_the_file_is_not_used(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = install(tmp_path)
    path.write_text(cut_after(INSTALLED, "tie_window_ms = 2"), "utf-8")     # was 20
    cfg = config.load_or_default(path)
    assert cfg["judge"]["tie_window_ms"] == 20
    assert_cabinet(cfg)
    said = [p for p in cfg.problems if "judge.tie_window_ms" in p and "the file ends inside this line" in p]
    assert said and "using the last good copy's 20" in said[0], cfg.problems
    assert config.last_good_path().read_text("utf-8") == INSTALLED          # a cut file never replaces it
    capsys.readouterr()
    assert cli.main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert "judge.tie_window_ms" in err and "the file ends inside this line" in err
    assert cli.main(["check-config", "--accept", str(path)]) == 2           # never accepted cut
    assert "not accepted" in capsys.readouterr().err
    assert config.last_good_path().read_text("utf-8") == INSTALLED
    log = start_log(capsys, path)
    assert "judge.tie_window_ms" in log and "the file ends inside this line" in log


@pytest.mark.parametrize("piece, key, whole", [
    ("debounce_ms = 1", ("judge", "debounce_ms"), 15),
    ("late_grace_ms = 4", ("judge", "late_grace_ms"), 400),
    ("volume = 0", ("sound", "volume"), None),
    ("brightness = 0", ("led", "brightness"), None),
])
def test_no_value_of_a_cut_last_line_is_used(tmp_path: Path, piece: str, key: tuple[str, str],
                                             whole: object) -> None:
    path = install(tmp_path)
    path.write_text(cut_after(INSTALLED, piece), "utf-8")
    cfg = config.load_or_default(path)
    copy_value = config.load(config.last_good_path())[key[0]][key[1]]
    assert whole is None or copy_value == whole
    assert cfg[key[0]][key[1]] == copy_value
    assert any(f"{key[0]}.{key[1]}" in p and "ends inside this line" in p for p in cfg.problems)


def test_without_a_copy_a_cut_last_line_keeps_the_default(tmp_path: Path) -> None:
    path = tmp_path / "arcade.toml"
    path.write_text("[judge]\ndebounce_ms = 10\ntie_window_ms = 4", "utf-8")     # 40 cut
    cfg = config.load_or_default(path)
    assert cfg["judge"]["debounce_ms"] == 10 and cfg["judge"]["tie_window_ms"] == 20
    assert any("judge.tie_window_ms" in p and "the default 20" in p for p in cfg.problems)
    assert not config.last_good_path().exists()


def test_the_service_menu_always_ends_the_file_with_a_newline_and_drops_a_cut_last_line(tmp_path: Path) -> None:
    path = install(tmp_path)
    path.write_text(cut_after(INSTALLED, "tie_window_ms = 2"), "utf-8")
    save_settings(path, {"sound": {"volume": 0.5}})
    text = path.read_text("utf-8")
    assert text.endswith("\n")
    cfg = config.load_or_default(path)
    assert cfg.problems == [] and cfg["judge"]["tie_window_ms"] == 20 and cfg["sound"]["volume"] == 0.5
    assert_cabinet(cfg)


# -- 3. a complete file that changes a protected setting ---------------------------------------

@pytest.mark.parametrize("old, new, key, file_value", [
    (f'path = "{STORE}"', 'path = "/tmp/cAb/arcade.sqlite3"', "storage.path", "/tmp/cAb/arcade.sqlite3"),
    ("buzzers = [17, 27,", "buzzers = [17, 7,", "gpio.buzzers", [17, 7, 22, 23, 24, 25, 5, 6]),
    ('pin = "4711"', 'pin = "4701"', "service.pin", "4701"),
    ("kiosk = true", "kiosk = false", "display.kiosk", False),
])
def test_a_protected_setting_changed_in_a_file_that_reads_is_held_until_accepted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, key: str, file_value: object) -> None:
    path = install(tmp_path)
    changed = INSTALLED.replace(old, new, 1)
    assert changed != INSTALLED
    path.write_text(changed, "utf-8")
    cfg = config.load_or_default(path)
    assert_cabinet(cfg)                                                     # the copy's values
    said = [p for p in cfg.problems if f"{key} differs from the last good copy" in p]
    assert said and "using the copy's" in said[0] and "check-config --accept" in said[0], cfg.problems
    if key == "service.pin":
        assert "4701" not in " ".join(cfg.problems) and "4711" not in " ".join(cfg.problems)
    assert config.last_good_path().read_text("utf-8") == INSTALLED          # not replaced by itself
    assert any(key in line for line in start_log(capsys, path).splitlines())
    check, _ = doctor.check_config(path)
    assert not check.ok and f"{key} differs" in check.detail
    restored = doctor.check_restored(cfg)
    assert restored is not None and key in restored.detail and "--accept" in restored.fix
    capsys.readouterr()
    assert cli.main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{key} differs from the last good copy" in err
    assert cli.main(["check-config", "--accept", str(path)]) == 0           # the operator's deliberate change
    assert config.last_good_path().read_text("utf-8") == changed
    section, name = key.split(".")
    after = config.load_or_default(path)
    assert after.problems == [] and after[section][name] == file_value


def test_the_service_menu_s_change_of_a_protected_setting_is_the_new_copy(tmp_path: Path) -> None:
    path = install(tmp_path)
    save_settings(path, {"service": {"pin": "9035"}})
    cfg = config.load_or_default(path)
    assert cfg.problems == [] and cfg["service"]["pin"] == "9035"
    assert 'pin = "9035"' in config.last_good_path().read_text("utf-8")


def test_a_change_elsewhere_still_replaces_the_copy(tmp_path: Path) -> None:
    path = install(tmp_path)
    edited = INSTALLED.replace("tie_window_ms = 20", "tie_window_ms = 25")
    path.write_text(edited, "utf-8")
    cfg = config.load_or_default(path)
    assert cfg.problems == [] and cfg["judge"]["tie_window_ms"] == 25
    assert config.last_good_path().read_text("utf-8") == edited


# -- 4. the same words in check-config and the start log ---------------------------------------

def test_check_config_of_a_header_typo_says_what_the_start_log_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = install(tmp_path)
    path.write_text(INSTALLED.replace("[display]", "[display", 1), "utf-8")
    capsys.readouterr()
    assert cli.main(["check-config", str(path)]) == 2
    summary = capsys.readouterr().err.strip().splitlines()[-1]
    log = start_log(capsys, path).strip().splitlines()[-1]
    assert "and the defaults for the rest" not in summary or "the file's" in summary
    running = log.split("running with ", 1)[1]
    assert running in summary, (summary, log)


def test_the_start_log_counts_the_gpio_seats_and_the_buzzer_pins_apart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = install(tmp_path)
    path.write_text(INSTALLED.replace("[display]", "[display", 1), "utf-8")
    log = start_log(capsys, path)
    assert "4 GPIO seat(s)" in log and "8 buzzer pin(s)" in log and "8 GPIO buzzer(s)" not in log
