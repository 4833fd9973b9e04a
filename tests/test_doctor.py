"""Issue 12: `focus-arcade doctor`, `--version`, `check-config`, the kiosk's LED output.

The doctor runs on this machine (no Pi): every item gets a line, OK or FIX
with the fix to apply; nothing is changed on the machine.
"""

from __future__ import annotations

import io
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_until

from firmware_bridge.layout import MatrixLayout
from kiosk import cli, config
from kiosk.output.led import LedOutput, make_link, split_ddp_port
from kiosk.service import doctor

ITEMS = ["video driver", "display", "sound device", "GPIO chip", "gpio group", "LG_WD", "LED controller",
         "configuration", "store"]


def test_doctor_on_this_machine_prints_each_check_with_a_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LG_WD", raising=False)
    cfg = tmp_path / "arcade.toml"
    cfg.write_text(f'[storage]\npath = "{tmp_path / "r.sqlite3"}"\n[display]\nfps = 3\n')
    out = io.StringIO()
    rc = doctor.doctor_main(str(cfg), probe=False, out=out)
    text = out.getvalue()
    lines = text.splitlines()
    assert lines[0].startswith("focus-arcade ") and "doctor" in lines[0]
    for item in ITEMS:
        assert re.search(rf"^  (OK |FIX)  {re.escape(item)}: ", text, re.M), item
    # Every FIX line is followed by the fix to apply.
    for i, line in enumerate(lines):
        if line.startswith("  FIX"):
            assert lines[i + 1].startswith("       -> ") and len(lines[i + 1]) > 20, line
    assert "LG_WD is not set" in text and "export LG_WD=" in text
    assert "display.fps = 3" in text  # the configuration's problem, named
    assert rc == 1 and text.rstrip().endswith("to fix.")
    assert not (tmp_path / "r.sqlite3").exists()  # the doctor changes nothing


def test_doctor_command_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LG_WD", "/tmp")
    rc = cli.main(["doctor", "--no-probe"])
    out = capsys.readouterr().out
    assert "  OK   LG_WD: LG_WD=/tmp (writable)" in out and rc in (0, 1)


def test_doctor_store_and_led_checks(tmp_path: Path) -> None:
    bad = tmp_path / "r.sqlite3"
    bad.write_bytes(b"this is not a database" * 100)
    cfg = config.Config(config.check_all({"storage": {"path": str(bad)}})[0])
    check = doctor.check_store(cfg)
    assert not check.ok and check.fix
    cfg = config.Config(config.check_all({"led": {"port": "/dev/nonexistent-led"}})[0])
    check = doctor.check_led(cfg, probe=True)
    assert not check.ok and "does not exist" in check.detail and "auto" in check.fix
    cfg = config.Config(config.check_all({"led": {"transport": "ddp", "host": "127.0.0.1"}})[0])
    assert doctor.check_led(cfg).ok


def test_doctor_finds_a_wled_with_port_auto(monkeypatch: pytest.MonkeyPatch) -> None:
    from serial.tools import list_ports, list_ports_common

    from firmware_bridge.virtual import VirtualMatrix

    with VirtualMatrix(16, 16, firmware="wled") as wled:
        info = list_ports_common.ListPortInfo(wled.port, skip_link_detection=True)
        info.vid, info.pid = 0x1A86, 0x7523
        monkeypatch.setattr(list_ports, "comports", lambda *a, **k: [info])
        cfg = config.Config(config.check_all({"led": {"port": "auto"}})[0])
        check = doctor.check_led(cfg, probe=True)
    assert check.ok, check
    assert "WLED 0.15.0" in check.detail and "115200 baud" in check.detail and "frames/s" in check.detail


def test_version_and_license() -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    root = Path(__file__).resolve().parents[1]
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    assert cli.version() == project["version"]
    licence = (root / "LICENSE").read_text()
    assert licence.startswith("MIT License") and project["license"]["text"] == "MIT"


def test_check_config_lists_every_problem_and_the_led_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[display]\nfps = 3\n[judge]\ntie_window_ms = 999\n[led]\nbaudrate = 12345\n[nope]\nx = 1\n')
    assert cli.main(["check-config", str(bad)]) == 2
    err = capsys.readouterr().err
    for key in ("display.fps = 3", "judge.tie_window_ms = 999", "led.baudrate = 12345", "nope"):
        assert key in err
    assert "4 problem(s)" in err
    slow = tmp_path / "slow.toml"
    slow.write_text('[led]\nport = "auto"\nwidth = 64\nheight = 64\nbaudrate = 115200\n')
    assert cli.main(["check-config", str(slow)]) == 0
    out = capsys.readouterr().out
    assert "12294 bytes a frame at 115200 baud: up to 0.9 frames/s" in out and "wled_baud = 921600" in out
    fast = tmp_path / "fast.toml"
    fast.write_text('[led]\nport = "auto"\nwled_baud = 921600\n')
    assert cli.main(["check-config", str(fast)]) == 0
    assert "up to 119.1 frames/s" in capsys.readouterr().out
    ddp = tmp_path / "ddp.toml"
    ddp.write_text('[led]\ntransport = "ddp"\n')
    assert cli.main(["check-config", str(ddp)]) == 2
    assert "led.host" in capsys.readouterr().err


def test_install_writes_a_config_that_finds_the_controller() -> None:
    # install.sh writes port = "auto" with an empty usb_id: that must be a working setting.
    data, problems = config.check_all({"led": {"port": "auto", "usb_id": ""}})
    assert problems == []
    link, vm = make_link(data["led"], MatrixLayout(16, 16))
    try:
        assert vm is None and link._locate is not None and link.status().state in ("connecting", "searching")
    finally:
        link.close()
    assert split_ddp_port("ddp://wled.local") == ("wled.local", 4048)
    assert split_ddp_port("ddp://10.0.0.5:4049") == ("10.0.0.5", 4049)
    assert split_ddp_port("/dev/ttyACM0") is None



def _output(**led: Any) -> LedOutput:
    data, problems = config.check_all({"led": led})
    assert problems == []
    return LedOutput(config.Config(data), message=lambda m: None)


def test_title_screen_shows_the_idle_picture_then_hands_the_panel_back() -> None:
    out = _output(port="virtual", width=8, height=8)
    try:
        game = tuple(tuple((200, 0, 0) for _ in range(8)) for _ in range(8))
        out.update(game, 1_000_000_000)
        assert out.virtual.wait_frames(1, 10)
        out.update(None, 2_000_000_000)  # a game screen with no picture: keep the last one
        out.update(None, 3_000_000_000, idle=True)  # the title screen: the arcade's idle picture
        wait_until(lambda: out.virtual_picture() is not None and out.virtual_picture()[0][0][0] != 200,
                   what="the idle picture on the virtual panel")
        assert out.virtual_picture()[0][0] != (200, 0, 0) and out.attention() is None
    finally:
        out.close()
    out = _output(port="virtual", width=8, height=8, idle="release")
    try:
        out.update(tuple(tuple((0, 90, 0) for _ in range(8)) for _ in range(8)), 1_000_000_000)
        out.update(None, 2_000_000_000, idle=True)
        assert out.link.released
        wait_until(lambda: out.status().state == "released", what="the panel handed back (released)")
        assert out.attention() is None
        assert any("State: released" in line for line in out.operator_lines())
    finally:
        out.close()


def test_a_missing_controller_gets_a_small_status_with_what_to_do() -> None:
    out = _output(port="/dev/ttyACM-not-here")
    try:
        line = wait_until(out.attention, what="a status line for the missing controller")
        assert line is not None and line.startswith("LED matrix disconnected") and "plug in" in line
        lines = out.operator_lines()
        assert any(line.startswith("To do: ") for line in lines) and any("Last fault" in line for line in lines)
    finally:
        out.close()


@pytest.mark.parametrize("have_vendor, have_dri", [(False, False), (True, False), (True, True)])
def test_kmsdrm_without_mesa_s_egl_vendor_or_dri_drivers_is_a_fix(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                    have_vendor: bool, have_dri: bool) -> None:
    """Issue 25 (tools/rehearse-pi): on plain Debian libegl1 only recommends Mesa's EGL, so the
    libraries were there, the doctor said OK, and the service died with "EGL not initialized"."""
    vendor, dri = tmp_path / "egl_vendor.d", tmp_path / "dri"
    vendor.mkdir()
    dri.mkdir()
    if have_vendor:
        (vendor / "50_mesa.json").write_text("{}", encoding="utf-8")
    if have_dri:
        (dri / "v3d_dri.so").write_bytes(b"")
    monkeypatch.setattr(doctor, "EGL_VENDOR_GLOBS", (str(vendor / "*.json"),))
    monkeypatch.setattr(doctor, "DRI_DRIVER_GLOBS", (str(dri / "*_dri.so"),))
    monkeypatch.setattr(doctor, "_loadable", lambda lib: True)
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    check = doctor.check_video()
    assert check.ok == (have_vendor and have_dri), check
    if not check.ok:
        assert "EGL not initialized" in check.detail and "libegl-mesa0 libgl1-mesa-dri" in check.fix
        assert ("EGL vendor" in check.detail) == (not have_vendor) and "DRI drivers" in check.detail
