"""Screenshots (``--screenshot-dir``, ``--screenshot-every``, F12 / Print Screen / Guide) (issue 10).

What the host or the technician notices: started with ``--screenshot-dir DIR``
the arcade leaves a PNG of every screen it shows (title, lobby, each game,
results, the service menu's pages), one every ``--screenshot-every`` seconds,
and one when F12, Print Screen or a gamepad's Guide button is pressed, which
does nothing else (kiosk mode included).  Without the option nothing is written.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from kiosk.scenes.attract import AttractScene
from kiosk.scenes.lobby import LobbyScene
from tests.test_event_day import BUZZ, MS, P1, Day, choose_game, event_config, menu_to, open_service, play_to_results

ROOT = Path(__file__).resolve().parent.parent


def shots(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.png")) if folder.exists() else []


def names(folder: Path) -> set[str]:
    """Every reason in the files' names (``007-lobby+lobby-every.png`` -> lobby, lobby-every)."""
    out: set[str] = set()
    for f in shots(folder):
        out.update(re.sub(r"^\d{3}-", "", f.removesuffix(".png")).split("+"))
    return out


def key(k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))


def test_a_png_of_every_screen_and_one_every_interval(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "shots"
    d = Day(event_config(tmp_path), monkeypatch, screenshot_dir=str(out), screenshot_every=2.0)
    try:
        app = d.app
        app.home()
        d.frames(3)
        d.press(BUZZ[0])                                   # the lobby, P1 joined
        lobby = choose_game(d, "focusx", "classic")
        d.press(P1["ok"])
        d.press(P1["left"])
        d.press(P1["left"])
        for _ in range(lobby.start_row - lobby.row):
            d.press(P1["ok"])
        d.press(P1["ok"])                                  # Start
        assert app.is_game(d.top)
        play_to_results(d)
        for _ in range(3):                                 # initials "AAA"
            d.press(P1["ok"])
        d.frames(100, 50 * MS)                             # 5 s on the results: interval shots
        d.press(BUZZ[1])                                   # a buzzer: the title, where the operator's
        assert type(d.top).__name__ == "AttractScene"      # combination opens the PIN (issue 20)
        svc = open_service(d)
        menu_to(d, svc, "led")
        d.frames(3)
        d.press(P1["x"])                                   # back to the menu
        menu_to(d, svc, "buttons")
        d.frames(3)
    finally:
        d.close()
    got = names(out)
    for screen in ("attract", "lobby", "focusx-classic", "results", "pin", "service-menu", "service-led",
                   "service-buttons"):
        assert screen in got, (screen, sorted(got))
    assert {"focusx-classic-every", "results-every"} <= got
    for f in out.glob("*.png"):
        assert pygame.image.load(str(f)).get_size() == (960, 540), f


def test_f12_takes_one_and_changes_nothing_else_in_kiosk_mode(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "shots"
    d = Day(event_config(tmp_path), monkeypatch, screenshot_dir=str(out))
    try:
        app = d.app
        assert app.kiosk_mode
        app.home()
        d.frames(3)
        d.press(BUZZ[0])
        lobby = d.top
        assert isinstance(lobby, LobbyScene)
        before = (lobby.row, lobby.game_i, lobby.players, len(shots(out)))
        for k in (pygame.K_F12, pygame.K_PRINTSCREEN):
            key(k)
            d.frames(1)
        assert d.top is lobby and (lobby.row, lobby.game_i, lobby.players) == before[:3]
        assert len(shots(out)) == before[3] + 2 and "lobby-asked" in names(out)
        pygame.event.post(pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, button=pygame.CONTROLLER_BUTTON_GUIDE,
                                             instance_id=0))
        d.frames(1)
        assert len(shots(out)) == before[3] + 3 and d.top is lobby
    finally:
        d.close()


def test_without_the_option_nothing_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(event_config(tmp_path), monkeypatch, screenshot_every=1.0)
    try:
        d.app.home()
        d.frames(3)
        key(pygame.K_F12)
        d.frames(40, 50 * MS)
        assert isinstance(d.top, AttractScene) and d.app.screenshots.shots == 0
    finally:
        d.close()
    assert not list(tmp_path.rglob("*.png"))


def test_the_options_are_documented_and_work_from_the_command_line(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "XDG_DATA_HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path)}
    helptext = subprocess.run([sys.executable, "-m", "kiosk.cli", "--help"], capture_output=True, text=True,
                              env=env, cwd=ROOT, timeout=60).stdout
    assert "--screenshot-dir DIR" in helptext and "--screenshot-every SECONDS" in helptext
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "--screenshot-dir" in readme and "--screenshot-every" in readme
    bad = subprocess.run([sys.executable, "-m", "kiosk.cli", "--screenshot-every", "0", "demo"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "0.2 to 3600" in bad.stderr
    out = tmp_path / "shots"
    run = subprocess.run([sys.executable, "-m", "kiosk.cli", "--windowed", "--frames", "90", "--screenshot-dir",
                          str(out), "--screenshot-every", "0.5", "demo", "--game", "focusx-classic"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=180)
    assert run.returncode == 0, run.stderr
    assert "focusx-classic" in names(out), shots(out)
