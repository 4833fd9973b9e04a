"""The service menu on the configuration kiosk/install.sh writes: four GPIO buzzers, no
left/right/OK/X wired (issue 10).  The default combination (P1's and P2's OK) names
controls that do not exist there, so the operator could never open the menu and, in
kiosk mode, never leave the arcade.  The same seats' buzzers open it instead."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from test_event_day import BUZZ, Day

from kiosk.config import check_all, load_or_default
from kiosk.scenes.lobby import LobbyScene
from kiosk.scenes.service.menu import ServiceScene
from kiosk.scenes.service.pin import PinScene

ROOT = Path(__file__).resolve().parent.parent


def install_sh_config(tmp_path: Path, lamps: bool = False) -> Path:
    """kiosk/install.sh's first configuration (its own sed lines on kiosk/default.toml),
    with the mock pin factory, a loop:// LED link and a results file in tmp_path (``lamps``:
    lamps on pins 12-15, which the test harness wants)."""
    script = (ROOT / "kiosk" / "install.sh").read_text()
    body = script[script.index("focus_arcade_first_config() {"):]
    body = body[:body.index('"$repo/kiosk/default.toml"')]
    exprs = re.findall(r"-e '([^']*)'", body)
    assert any("stations" in e for e in exprs) and any("kiosk = true" in e for e in exprs)
    text = subprocess.run(["sed", *[a for e in exprs for a in ("-e", e)], str(ROOT / "kiosk" / "default.toml")],
                          check=True, capture_output=True, text=True).stdout
    text = text.replace('pin_factory = "lgpio"', 'pin_factory = "mock"')
    text = re.sub(r'^port = "auto"', 'port = "loop://"', text, flags=re.M)
    text = re.sub(r'^path = ""', f'path = "{tmp_path / "arcade.sqlite3"}"', text, flags=re.M)
    if lamps:
        text = re.sub(r'^lamps = \[\]', "lamps = [12, 13, 14, 15]", text, flags=re.M)
    path = tmp_path / "arcade.toml"
    path.write_text(text)
    return path


def test_install_sh_configuration_is_clean_and_its_combination_can_be_held(tmp_path: Path) -> None:
    cfg = load_or_default(install_sh_config(tmp_path))
    assert cfg.problems == []
    assert cfg["seats"]["stations"] == ["gpio"] * 4 and cfg["gpio"]["controls"] == []
    assert cfg["service"]["combo"] == ["P1.buzzer", "P2.buzzer"]


def test_operator_opens_the_service_menu_with_two_buzzers_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch)
    try:
        app = d.app
        app.home()
        d.frames(2)
        d.hold([BUZZ[0]], 4)                     # one guest holding a buzzer opens nothing
        assert not isinstance(d.top, (PinScene, ServiceScene))
        app.home()
        d.frames(2)
        d.hold([BUZZ[0], BUZZ[1]], 3.2)          # the operator: P1's and P2's buzzers, 3 s
        assert isinstance(d.top, PinScene)
        d.frames(10, 50_000_000)                 # a person lets go, then taps
        for digit in "2580":                     # PIN with P1's buzzer: tap = next digit, hold = take it
            for _ in range(int(digit)):
                d.press(BUZZ[0], hold_ms=100)
            d.press(BUZZ[0], hold_ms=800)
        assert isinstance(d.top, ServiceScene)
    finally:
        d.close()


def test_default_combination_falls_back_to_the_buzzers_of_buzzer_only_seats() -> None:
    data, problems = check_all({"seats": {"stations": ["gpio", "gpio", "gpio", "gpio"]}})
    assert problems == [] and data["service"]["combo"] == ["P1.buzzer", "P2.buzzer"]
    # P1 and P2 have wired controls: the OK combination stays
    data, problems = check_all({"seats": {"stations": ["gpio", "gpio"]},
                                "gpio": {"controls": [[2, 3, 4, 7], [8, 9, 10, 11]]}})
    assert problems == [] and data["service"]["combo"] == ["P1.ok", "P2.ok"]
    # keyboard stations (the defaults) have P1's and P2's OK keys
    data, problems = check_all({})
    assert problems == [] and data["service"]["combo"] == ["P1.ok", "P2.ok"]


def test_a_combination_nobody_can_press_is_reported_by_check_config() -> None:
    data, problems = check_all({"seats": {"stations": ["gpio", "gpio", "computer"]},
                                "service": {"combo": ["P1.ok", "P3.buzzer"]}})
    assert [p.key for p in problems] == ["service.combo"]
    assert "P1.ok" in str(problems[0]) and "P3.buzzer" in str(problems[0])
    assert data["service"]["combo"] == ["P1.ok", "P3.buzzer"]        # no pair of buzzers to fall back on
    data, problems = check_all({"seats": {"stations": ["gpio", "gpio"]}, "service": {"combo": ["P1.x", "P2.x"]}})
    assert [p.key for p in problems] == ["service.combo"]
    assert data["service"]["combo"] == ["P1.buzzer", "P2.buzzer"]
    assert "P1's and P2's buzzers" in problems[0].effect


def test_lobby_still_opens_when_the_operator_starts_the_combination_from_the_title(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first press of the combination leaves the title like any buzzer; the PIN comes over the lobby."""
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch)
    try:
        d.app.home()
        d.frames(2)
        d.hold([BUZZ[0], BUZZ[1]], 3.2)
        assert isinstance(d.top, PinScene) and isinstance(d.app.scenes[-2], LobbyScene)
    finally:
        d.close()
