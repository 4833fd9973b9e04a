"""An installed cabinet never falls back to laptop defaults, second round (issue 23, item 1).

What the operator notices: ``check-config`` names every setting the arcade takes from the
last good copy (a header typo, a deleted file, a bad value), exactly as the arcade runs (the
note on screen: tests/test_config_note_parts.py); a laptop's file never replaces a cabinet's
copy, also when the copy's ``last-good-config.source`` is gone; ``--accept`` does not silently drop the PIN or the
store path; a save from the service menu keeps the file's mode (0640: the PIN is in it).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kiosk import cli, config
from kiosk.service.config_save import save_settings
from tests.test_config_damage import INSTALLED, assert_cabinet, install


def test_check_config_of_a_header_typo_names_the_settings_taken_from_the_copy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = install(tmp_path)
    path.write_text(INSTALLED.replace("[display]", "[display", 1), "utf-8")
    capsys.readouterr()
    assert cli.main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert "valid TOML" in err
    for key in ("display.kiosk", "display.fullscreen", "display.width", "display.height", "display.fps"):
        assert key in err, err
    assert str(config.last_good_path()) in err
    assert "keep their defaults" not in err          # the display keys come from the copy, not the defaults


def test_check_config_of_a_deleted_file_says_the_copy_stands_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = install(tmp_path)
    path.unlink()
    capsys.readouterr()
    assert cli.main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"put it back: cp {config.last_good_path()} {path}" in err
    assert "display.kiosk" in err and "service.pin" in err and "storage.path" in err


def test_check_config_of_bad_values_says_the_copy_s_values_are_used_as_the_arcade_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = install(tmp_path)
    path.write_text(INSTALLED.replace("kiosk = true", 'kiosk = "yes"').replace('pin = "4711"', "pin = 4711"), "utf-8")
    capsys.readouterr()
    assert cli.main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert "the defaults for those keys" not in err
    summary = err.strip().splitlines()[-1]
    assert "last good copy" in summary and "display.kiosk" in summary and "service.pin" in summary
    assert_cabinet(config.load_or_default(path))     # what check-config says is what the arcade runs with


def test_check_config_names_a_kept_default_and_a_copy_value_apart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = install(tmp_path)
    path.write_text(INSTALLED.replace("kiosk = true", 'kiosk = "yes"').replace("volume = ", "loud = 7\nvolume = "), "utf-8")
    capsys.readouterr()
    assert cli.main(["check-config", str(path)]) == 2
    summary = capsys.readouterr().err.strip().splitlines()[-1]
    assert "display.kiosk" in summary and "the defaults for sound.loud" in summary


# -- whose copy it is --------------------------------------------------------------------------

def test_a_laptop_file_never_replaces_the_cabinet_s_copy_without_its_source_file(tmp_path: Path) -> None:
    install(tmp_path)
    config.last_good_path().with_name("last-good-config.source").unlink()   # a copy from a backup
    laptop = tmp_path / "laptop.toml"
    laptop.write_bytes(config.DEFAULT_FILE.read_bytes())
    cfg = config.load_or_default(laptop)                 # doctor --config laptop.toml
    assert cfg["display"]["kiosk"] is False               # the laptop's file is what was asked for
    assert config.last_good_path().read_text("utf-8") == INSTALLED


def test_without_its_source_file_the_cabinet_s_own_edit_still_replaces_the_copy(tmp_path: Path) -> None:
    path = install(tmp_path)
    config.last_good_path().with_name("last-good-config.source").unlink()
    edited = INSTALLED.replace("tie_window_ms = 20", "tie_window_ms = 25")
    path.write_text(edited, "utf-8")
    assert config.load_or_default(path).problems == []
    assert config.last_good_path().read_text("utf-8") == edited           # keeps kiosk mode and GPIO: it is


# -- --accept and the service menu's save ------------------------------------------------------

def test_accept_refuses_a_cut_file_that_drops_the_pin_and_the_store_path(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = install(tmp_path)
    short = INSTALLED[:INSTALLED.index("[storage]")]
    path.write_text(short, "utf-8")
    capsys.readouterr()
    assert cli.main(["check-config", "--accept", str(path)]) == 2
    err = capsys.readouterr().err
    assert "storage.path" in err and "service.pin" in err and "not accepted" in err and "--force" in err
    assert config.last_good_path().read_text("utf-8") == INSTALLED
    assert cli.main(["check-config", "--accept", "--force", str(path)]) == 0
    assert config.last_good_path().read_text("utf-8") == short


def test_a_save_from_the_service_menu_keeps_the_file_s_mode(tmp_path: Path) -> None:
    path = install(tmp_path)
    os.chmod(path, 0o640)
    save_settings(path, {"judge": {"tie_window_ms": 25}})
    assert "tie_window_ms = 25" in path.read_text("utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert stat.S_IMODE(config.last_good_path().stat().st_mode) == 0o640     # the copy holds the PIN too
