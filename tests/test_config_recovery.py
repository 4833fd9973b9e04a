"""A broken configuration file at an event loses as little as possible (issue 10/11): every
section that still reads is kept, a section that does not comes from the last good copy of
the file, so one typo does not turn kiosk mode off or the GPIO buzzers into keyboard keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk import config

EVENT = """\
[display]
fullscreen = true
kiosk = true

[judge]
tie_window_ms = 12

[seats]
stations = ["gpio", "gpio", "gpio", "gpio"]
"""


def event_file(tmp_path: Path) -> Path:
    path = tmp_path / "arcade.toml"
    path.write_text(EVENT)
    cfg = config.load_or_default(path)
    assert cfg.problems == [] and cfg["display"]["kiosk"]
    assert config.last_good_path().read_text() == EVENT        # a good load keeps a copy
    return path


def test_a_typo_in_one_section_keeps_the_others_and_takes_that_one_from_the_last_good_copy(tmp_path: Path) -> None:
    path = event_file(tmp_path)
    path.write_text(EVENT.replace("kiosk = true", "kiosk = tru").replace("tie_window_ms = 12", "tie_window_ms = 9"))
    cfg = config.load_or_default(path)
    assert cfg["display"]["kiosk"] is True and cfg["display"]["fullscreen"] is True    # from the last good copy
    assert cfg["judge"]["tie_window_ms"] == 9                                         # today's file where it reads
    assert cfg["seats"]["stations"][:4] == ["gpio"] * 4
    said = " ".join(cfg.problems)
    assert "valid TOML" in said and "[display]" in said and "last good copy" in said
    assert config.last_good_path().read_text() == EVENT        # a broken file never replaces the copy


def test_a_file_overwritten_with_garbage_runs_on_the_last_good_copy(tmp_path: Path) -> None:
    path = event_file(tmp_path)
    path.write_bytes(b"\x00\xff" * 300)                          # an SD card's damaged block
    cfg = config.load_or_default(path)
    assert cfg["display"]["kiosk"] is True and cfg["seats"]["stations"][:4] == ["gpio"] * 4
    assert cfg["judge"]["tie_window_ms"] == 12
    assert any("last good copy" in p for p in cfg.problems)


def test_without_a_last_good_copy_the_broken_section_keeps_its_defaults_and_the_rest_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "arcade.toml"
    path.write_text(EVENT.replace('stations = ["gpio", "gpio", "gpio", "gpio"]', 'stations = ["gpio", "gpio"'))
    cfg = config.load_or_default(path)
    assert cfg["display"]["kiosk"] is True and cfg["judge"]["tie_window_ms"] == 12
    assert cfg["seats"] == config.defaults()["seats"]
    assert any("[seats]" in p and "keep their defaults" in p for p in cfg.problems)
    assert all("expected" in p for p in cfg.problems)


def test_a_missing_file_with_no_copy_of_its_own_is_the_defaults(tmp_path: Path) -> None:
    event_file(tmp_path)                                   # the copy is of this file ...
    other = tmp_path / "never-written.toml"                # ... not of a file that never was
    cfg = config.load_or_default(other)
    assert cfg["display"]["kiosk"] is False and cfg.source == "defaults"


def test_a_missing_file_that_has_a_last_good_copy_is_the_copy(tmp_path: Path) -> None:
    path = event_file(tmp_path)
    path.unlink()
    cfg = config.load_or_default(path)
    assert cfg["display"]["kiosk"] is True and any("it is gone" in p for p in cfg.problems)


def test_the_service_keeps_its_copy_in_its_state_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    assert config.last_good_path() == tmp_path / "state" / "last-good-config.toml"
    event_file(tmp_path)
    assert (tmp_path / "state" / "last-good-config.toml").exists()


def test_a_section_with_bytes_that_are_not_text_is_never_guessed(tmp_path: Path) -> None:
    path = tmp_path / "arcade.toml"
    path.write_bytes(b'[judge]\ntie_window_ms = 12\n[led]\nport = "a\x00b"\n[display]\nkiosk = true\nfps = "\xc3("\n')
    cfg = config.load_or_default(path)
    assert cfg["judge"]["tie_window_ms"] == 12                     # the good section is kept
    assert cfg["led"]["port"] == config.defaults()["led"]["port"]  # not "ab"
    assert cfg["display"] == config.defaults()["display"]          # not a half-read [display]
    said = " ".join(cfg.problems)
    assert "[led]" in said and "[display]" in said
