"""An installed cabinet never falls back to laptop defaults (issue 23, part 1).

What the operator notices: after a power cut while the service menu saves, or an SD card
that loses the end of the file, or a typo in a section header, the cabinet still starts in
kiosk mode with its GPIO buzzers and its PIN; the screen (and ``doctor``) say which
settings came from the last good copy; the last good copy is never replaced by a file cut
short.  A hypothesis fuzz cuts, truncates and mutates the installer's file.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk import cli, config


def installed_text() -> str:
    """What kiosk/install.sh writes (its sed over kiosk/default.toml), with the PIN set."""
    text = config.DEFAULT_FILE.read_text("utf-8")
    for old, new in ((r"^fullscreen = false", "fullscreen = true"), (r"^kiosk = false", "kiosk = true"),
                     (r"^stations = .*", 'stations = ["gpio", "gpio", "gpio", "gpio"]'),
                     (r'^combo = \["P1.ok", "P2.ok"\]', 'combo = ["P1.buzzer", "P2.buzzer"]'),
                     (r'^pin_factory = ""', 'pin_factory = "lgpio"'), (r'^port = "virtual"', 'port = "auto"     '),
                     (r'^pin = "2580"', 'pin = "4711"'), (r'^path = ""', 'path = "/var/lib/focus-arcade/arcade.sqlite3"')):
        text, n = re.subn(old, new, text, count=1, flags=re.M)
        assert n == 1, old
    return text


INSTALLED = installed_text()
BUZZERS = [17, 27, 22, 23, 24, 25, 5, 6]


def install(tmp_path: Path) -> Path:
    """The installer's file, loaded once by the arcade's first start (the last good copy made)."""
    path = tmp_path / "arcade.toml"
    path.write_text(INSTALLED, "utf-8")
    cfg = config.load_or_default(path)
    assert cfg.problems == [] and cfg.restored == []
    assert config.last_good_path().read_text("utf-8") == INSTALLED
    return path


def assert_cabinet(cfg: config.Config) -> None:
    """Kiosk mode, the GPIO buzzers, the PIN and the store path of the installed cabinet."""
    assert cfg["display"]["kiosk"] is True
    assert cfg["seats"]["stations"] == ["gpio"] * 4
    assert cfg["gpio"]["buzzers"] == BUZZERS and cfg["gpio"]["pin_factory"] == "lgpio"
    assert cfg["service"]["pin"] == "4711"
    assert cfg["storage"]["path"] == "/var/lib/focus-arcade/arcade.sqlite3"


def test_a_file_cut_off_after_a_complete_line_keeps_the_cabinet_and_the_last_good_copy(tmp_path: Path) -> None:
    path = install(tmp_path)
    lines = INSTALLED.splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if line.startswith("[gpio]")) + 2   # buzzers kept, the rest gone
    path.write_text("".join(lines[:cut]), "utf-8")
    cfg = config.load_or_default(path)
    assert_cabinet(cfg)
    assert "service.pin" in cfg.restored and "storage.path" in cfg.restored
    said = " ".join(cfg.problems)
    assert "last good copy" in said and "service.pin" in said and "check-config --accept" in said
    assert config.last_good_path().read_text("utf-8") == INSTALLED       # never replaced by the cut file


def test_a_file_cut_in_the_middle_of_the_kiosk_section_keeps_kiosk_mode(tmp_path: Path) -> None:
    path = install(tmp_path)
    path.write_text(INSTALLED[:INSTALLED.index("kiosk = true")], "utf-8")   # ends before kiosk = true
    cfg = config.load_or_default(path)
    assert_cabinet(cfg)
    assert "display.kiosk" in cfg.restored


def test_a_header_typo_keeps_kiosk_mode_from_the_last_good_copy(tmp_path: Path) -> None:
    path = install(tmp_path)
    path.write_text(INSTALLED.replace("[display]", "[display", 1), "utf-8")
    cfg = config.load_or_default(path)
    assert_cabinet(cfg)
    assert cfg["display"]["fullscreen"] is True
    assert any("last good copy" in p for p in cfg.problems)


def test_a_bad_value_of_a_kiosk_key_takes_the_last_good_value_not_the_default(tmp_path: Path) -> None:
    path = install(tmp_path)
    path.write_text(INSTALLED.replace('pin = "4711"', 'pin = "47"'), "utf-8")
    cfg = config.load_or_default(path)
    assert cfg["service"]["pin"] == "4711"
    assert any("service.pin" in p and "last good copy" in p for p in cfg.problems)


def test_a_damaged_file_never_changes_the_kiosk_keys_even_where_they_still_read(tmp_path: Path) -> None:
    path = install(tmp_path)
    damaged = INSTALLED.replace("buzzers = [17, 27", "buzzers = [16, 27").replace("fps = 60", "fps = 6O")
    path.write_text(damaged, "utf-8")
    cfg = config.load_or_default(path)
    assert_cabinet(cfg)                                   # a file with damage elsewhere: not an edit


def test_a_complete_edit_is_the_new_last_good_copy(tmp_path: Path) -> None:
    path = install(tmp_path)
    edited = INSTALLED.replace("fps = 60", "fps = 30")     # kiosk mode etc. need an accept: round 3
    path.write_text(edited, "utf-8")
    cfg = config.load_or_default(path)
    assert cfg.problems == [] and cfg["display"]["fps"] == 30
    assert config.last_good_path().read_text("utf-8") == edited


def test_check_config_tells_what_the_cut_file_lacks_and_accept_makes_it_the_copy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = install(tmp_path)
    short = INSTALLED[:INSTALLED.index("[service]")]
    path.write_text(short, "utf-8")
    assert cli.main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert "service.pin" in err and "last good copy" in err
    assert cli.main(["check-config", "--accept", str(path)]) == 2       # it lacks the PIN (round 2)
    assert cli.main(["check-config", "--accept", "--force", str(path)]) == 0
    assert config.last_good_path().read_text("utf-8") == short
    cfg = config.load_or_default(path)
    assert cfg.problems == [] and cfg["service"]["pin"] == config.defaults()["service"]["pin"]


def test_accept_refuses_a_file_with_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = install(tmp_path)
    path.write_text(INSTALLED.replace("kiosk = true", "kiosk = tru"), "utf-8")
    assert cli.main(["check-config", "--accept", str(path)]) == 2
    assert "not accepted" in capsys.readouterr().err
    assert config.last_good_path().read_text("utf-8") == INSTALLED


def test_doctor_names_the_settings_taken_from_the_last_good_copy(tmp_path: Path) -> None:
    from kiosk.service import doctor
    path = install(tmp_path)
    path.write_text(INSTALLED[:INSTALLED.index("[gpio]")], "utf-8")
    check, cfg = doctor.check_config(path)
    assert not check.ok
    restored = doctor.check_restored(cfg)
    assert restored is not None and not restored.ok
    assert "gpio.buzzers" in restored.detail and "service.pin" in restored.detail
    assert "check-config --accept" in restored.fix


# -- the fuzz -------------------------------------------------------------------------------

def _loads_completely(path: Path) -> bool:
    """Whether the damaged file reads as a whole with no problem, keeps every key of the
    installed file and ends with a newline: then it is indistinguishable from an operator's
    edit (of the settings that do not make the cabinet a kiosk)."""
    if not path.read_bytes().endswith(b"\n"):
        return False
    try:
        raw = config._read(path)
    except config.ConfigError:
        return False
    _, problems = config.check_all(raw, str(path))
    if problems:
        return False
    good = config.read_last_good(path)
    return all(isinstance(raw.get(s), dict) and all(k in raw[s] for k in keys) for s, keys in good.items())


def _check_damage(tmp_path: Path, damaged: bytes) -> None:
    path = tmp_path / "arcade.toml"
    path.write_text(INSTALLED, "utf-8")
    config.last_good_path().parent.mkdir(parents=True, exist_ok=True)
    config.last_good_path().write_text(INSTALLED, "utf-8")
    path.write_bytes(damaged)
    cfg = config.load_or_default(path)
    # kiosk mode, the GPIO seats and pins, the PIN and the store path never change from the
    # copy's without an accept (round 3: also where the damaged file reads whole)
    assert_cabinet(cfg)
    for name in config.KIOSK_KEYS:
        section, key = name.split(".")
        assert cfg[section][key] == INSTALLED_SETTINGS[section][key], name
    now = config.last_good_path().read_bytes()
    if now != DATA:                                          # replaced: only by a whole file, cabinet kept
        assert damaged.endswith(b"\n") and now == damaged
        assert_cabinet(config.load(config.last_good_path()))
    end = damaged.rfind(b"\n") + 1
    if end < len(damaged):                                   # cut inside its last line: never used silently
        assert now == DATA and any("ends inside" in p for p in cfg.problems), cfg.problems
        name = re.match(rb"\s*([a-z_]+)\s*=", damaged[end:])
        headers = re.findall(rb"^\[([a-z_]+)\]", damaged[:end], re.M)
        if name and headers:
            section, key = headers[-1].decode(), name.group(1).decode()
            if key in INSTALLED_SETTINGS.get(section, {}):
                assert cfg[section][key] == INSTALLED_SETTINGS[section][key], (section, key)
    if _loads_completely(path):
        whole = config.load(path).data                       # a complete file is taken as written ...
        for section, values in whole.items():
            for key, value in values.items():
                if f"{section}.{key}" not in config.KIOSK_KEYS:
                    assert cfg[section][key] == value, (section, key)
        held = [k for k in config.KIOSK_KEYS if whole[k.split(".")[0]][k.split(".")[1]] != cfg[k.split(".")[0]][k.split(".")[1]]]
        for k in held:                                       # ... but for what makes the cabinet, said
            assert any(f"{k} differs from the last good copy" in p for p in cfg.problems), (k, cfg.problems)
        return
    assert now == DATA
    assert cfg.problems                                      # the screen says something


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
DATA = INSTALLED.encode("utf-8")
INSTALLED_SETTINGS = config.check_all(tomllib.loads(INSTALLED))[0]


@FUZZ
@given(st.integers(0, len(DATA)))
def test_fuzz_a_file_truncated_anywhere_keeps_the_cabinet(tmp_path: Path, at: int) -> None:
    _check_damage(tmp_path, DATA[:at])


@FUZZ
@given(st.integers(0, len(DATA)), st.integers(1, 400))
def test_fuzz_a_file_with_a_piece_cut_out_keeps_the_cabinet(tmp_path: Path, at: int, length: int) -> None:
    _check_damage(tmp_path, DATA[:at] + DATA[at + length:])


@FUZZ
@given(st.lists(st.tuples(st.integers(0, len(DATA) - 1), st.binary(min_size=1, max_size=8)), min_size=1, max_size=6))
def test_fuzz_a_file_with_bytes_overwritten_keeps_the_cabinet(tmp_path: Path,
                                                              damage: list[tuple[int, bytes]]) -> None:
    data = bytearray(DATA)
    for at, junk in damage:
        data[at:at + len(junk)] = junk
    _check_damage(tmp_path, bytes(data))


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(["flip", "byte", "delete", "insert"]), st.integers(0, len(DATA) - 1),
                          st.integers(0, 7), st.sampled_from(b"0123456789abcdefgAZ_-./ \"[],=#\n")),
                min_size=1, max_size=3))
def test_fuzz_a_file_with_a_byte_changed_that_may_still_read_keeps_the_cabinet(
        tmp_path: Path, edits: list[tuple[str, int, int, int]]) -> None:
    """One-byte damage (a flipped bit, a digit or letter for another, a byte lost or added) often
    still reads as TOML: "/tmp/cAb", buzzers [17, 7, ...]; the cabinet's settings still hold."""
    data = bytearray(DATA)
    for kind, at, bit, byte in edits:
        at = min(at, len(data) - 1)
        if kind == "flip":
            data[at] ^= 1 << bit
        elif kind == "byte":
            data[at] = byte
        elif kind == "delete":
            del data[at]
        else:
            data.insert(at, byte)
    _check_damage(tmp_path, bytes(data))


def test_the_last_good_copy_of_another_file_is_never_used(tmp_path: Path) -> None:
    install(tmp_path)                                        # the cabinet's file has a copy
    other = tmp_path / "laptop.toml"
    other.write_text("[sherlook]\nround_limit_s = 5\n", "utf-8")
    cfg = config.load_or_default(other)                      # another, small file: not a cut copy
    assert cfg.problems == [] and cfg.restored == [] and cfg["display"]["kiosk"] is False
    assert cfg["storage"]["path"] == ""


def test_a_deleted_file_on_an_installed_cabinet_is_stood_in_for_by_its_last_good_copy(tmp_path: Path,
                                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A technician deletes the file (or the card loses it): still a kiosk, and told how to put it back."""
    path = install(tmp_path)
    path.unlink()
    cfg = config.load_or_default(path)
    assert_cabinet(cfg)
    said = " ".join(cfg.problems)
    assert "it is gone" in said and str(config.last_good_path()) in said and f"cp {config.last_good_path()}" in said
    assert config.last_good_path().read_text("utf-8") == INSTALLED        # the copy is still there
    # the arcade's own start line says what it runs with, not "defaults"
    import kiosk.app.window
    real_run = kiosk.app.window.run
    try:
        kiosk.app.window.run = lambda cfg, args: 0                         # type: ignore[assignment]
        assert cli.main(["--config", str(path)]) == 0
    finally:
        kiosk.app.window.run = real_run                                    # type: ignore[assignment]
    err = capsys.readouterr().err
    assert "running with defaults" not in err and "from the last good copy" in err and "kiosk mode on" in err


def test_the_default_file_of_an_installed_cabinet_deleted_still_gives_the_cabinet(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "etc"))
    monkeypatch.delenv("FOCUS_ARCADE_CONFIG", raising=False)
    default = tmp_path / "etc" / "focus-arcade" / "arcade.toml"
    default.parent.mkdir(parents=True)
    default.write_text(INSTALLED, "utf-8")
    assert config.default_path() == default
    assert config.load_or_default(config.default_path()).problems == []
    default.unlink()
    assert config.default_path() == default                              # not None: the copy stands in
    assert_cabinet(config.load_or_default(config.default_path()))


def test_another_good_file_never_replaces_the_cabinets_last_good_copy(tmp_path: Path) -> None:
    """doctor or a test run with a laptop's file must not make that the cabinet's copy."""
    path = install(tmp_path)
    laptop = tmp_path / "laptop.toml"
    laptop.write_text(config.DEFAULT_FILE.read_text("utf-8"), "utf-8")
    assert config.load_or_default(laptop).problems == []
    assert config.last_good_path().read_text("utf-8") == INSTALLED
    path.write_text(INSTALLED[:2000], "utf-8")                            # then the cabinet's file is cut
    assert_cabinet(config.load_or_default(path))
    # an operator's deliberate choice does move it
    config.accept_as_last_good(laptop)
    assert config.last_good_path().read_text("utf-8") == laptop.read_text("utf-8")
