"""The hardened systemd unit (issue 11): kiosk/systemd/focus-arcade.service.

What the event technician notices: the arcade runs as its own user without
sudo, in a sandbox that still reaches the GPIO chip, the display, input, sound
and the serial port; ``systemd-analyze`` finds the unit valid and rates its
exposure "OK" (below 4.0).  The install script creates the user and folders.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "kiosk" / "systemd" / "focus-arcade.service"


def settings() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def test_it_runs_as_its_own_user_in_the_device_groups() -> None:
    s = settings()
    assert s["User"] == ["focus-arcade"]
    groups = set(s["SupplementaryGroups"][0].split())
    assert {"gpio", "video", "render", "input", "audio", "dialout", "tty"} <= groups and "sudo" not in groups


def test_the_sandbox_keeps_the_devices_it_needs() -> None:
    s = settings()
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
                       "PrivateTmp": "yes", "CapabilityBoundingSet": "", "DevicePolicy": "closed",
                       "StateDirectory": "focus-arcade", "ConfigurationDirectory": "focus-arcade",
                       "TTYPath": "/dev/tty1"}.items():
        assert s[key] == [value], key
    assert "@system-service" in s["SystemCallFilter"]
    assert s["RestrictAddressFamilies"] == ["AF_UNIX AF_NETLINK"]
    allowed = {v.split()[0] for v in s["DeviceAllow"]}
    assert {"char-gpiochip", "char-drm", "char-input", "char-alsa", "char-ttyACM", "/dev/tty1"} <= allowed
    # The configuration and the store are where the sandbox lets it write.
    assert "--config /etc/focus-arcade/arcade.toml" in s["ExecStart"][0]
    env = dict(e.split("=", 1) for e in s["Environment"])
    assert env["XDG_DATA_HOME"] == "/var/lib" and env["XDG_CONFIG_HOME"] == "/etc"


def test_the_install_script_creates_the_user_and_no_sudo() -> None:
    text = (ROOT / "kiosk" / "install.sh").read_text(encoding="utf-8")
    assert subprocess.run(["bash", "-n", str(ROOT / "kiosk" / "install.sh")]).returncode == 0
    assert re.search(r"useradd --system .*nologin", text)
    assert "sudo -u" not in text and "NOPASSWD" not in text
    assert "network.conf" in text and "AF_INET" in text


def filled(tmp_path: Path) -> Path:
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    exe = venv / "focus-arcade"
    exe.write_text("#!/bin/sh\n", encoding="utf-8")
    exe.chmod(0o755)
    unit = tmp_path / "focus-arcade.service"
    unit.write_text(UNIT.read_text(encoding="utf-8").replace("@VENV@", str(tmp_path / "venv"))
                    .replace("@PREFIX@", "/opt/focus-arcade"), encoding="utf-8")
    return unit


needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze is not installed (apt-get install systemd)")


@needs_analyze
def test_systemd_finds_the_unit_valid(tmp_path: Path) -> None:
    out = subprocess.run(["systemd-analyze", "verify", str(filled(tmp_path))], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Unknown key" not in out.stderr and "Unknown lvalue" not in out.stderr, out.stderr


@needs_analyze
def test_the_exposure_is_ok(tmp_path: Path) -> None:
    out = subprocess.run(["systemd-analyze", "security", "--offline=true", str(filled(tmp_path))],
                         capture_output=True, text=True, timeout=120)
    m = re.search(r"Overall exposure level for \S+: ([0-9.]+) (\w+)", out.stdout)
    assert m, out.stdout + out.stderr
    assert float(m.group(1)) < 4.0 and m.group(2) == "OK"


@pytest.mark.parametrize("toml, network", [
    ("", False),
    ('[event]\nhost = "broker.local"\n', True),
    ('[led]\ntransport = "ddp"\nhost = "192.168.4.20"\n', True),
    ('[led]\nport = "/dev/ttyACM0"\n', False),
])
def test_network_sockets_are_allowed_only_when_the_configuration_uses_the_network(
        tmp_path: Path, toml: str, network: bool) -> None:
    import sys
    text = (ROOT / "kiosk" / "install.sh").read_text(encoding="utf-8")
    m = re.search(r"python\" -c '(.*?)' \"\$cfg/arcade.toml\"", text, re.S)
    assert m, "install.sh decides with the arcade's configuration loader"
    cfg = tmp_path / "arcade.toml"
    cfg.write_text(toml, encoding="utf-8")
    out = subprocess.run([sys.executable, "-c", m.group(1), str(cfg)], cwd=ROOT, timeout=60)
    assert (out.returncode == 0) == network


def test_an_older_install_s_results_are_copied_to_where_the_service_reads_them(monkeypatch, tmp_path: Path) -> None:
    """Issue 12: install.sh copied the admin's results to /var/lib/focus-arcade/focus-arcade/,
    while the service (XDG_DATA_HOME=/var/lib) reads /var/lib/focus-arcade/arcade.sqlite3."""
    from kiosk.config import load_or_default

    text = (ROOT / "kiosk" / "install.sh").read_text(encoding="utf-8")
    state = re.search(r"^state=(\S+)$", text, re.M).group(1)
    m = re.search(r'^\s*local store=(\S+)$', text, re.M)
    assert m, "install.sh names the store it copies to"
    store = m.group(1).replace("$state", state)
    assert '"$store"' in text.split("local store=", 1)[1].split("fi\n", 1)[0]
    env = dict(v.split("=", 1) for v in settings()["Environment"])
    monkeypatch.setenv("XDG_DATA_HOME", env["XDG_DATA_HOME"])
    assert str(load_or_default(tmp_path / "none.toml").storage_path()) == store == "/var/lib/focus-arcade/arcade.sqlite3"


def test_the_install_report_says_to_rerun_it_for_a_wifi_led_output() -> None:
    """Issue 12: the sandbox denies IP until install.sh writes network.conf; the hint must say so."""
    text = (ROOT / "kiosk" / "install.sh").read_text(encoding="utf-8")
    hint = next(line for line in text.splitlines() if 'transport = \\"ddp\\"' in line)
    assert "install.sh again" in hint
    assert "nothing to set" not in text
