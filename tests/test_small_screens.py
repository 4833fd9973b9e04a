"""Every game's screen on a small display (a 480x320 or 800x480 HDMI panel, an old TV):
the table is squeezed, the game goes on, nothing raises; in every language the arcade speaks
(issue 26: a translation's placeholders and plural forms are filled in on every frame)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

import kiosk.app.loop as kapp  # noqa: E402
from kiosk.config import Config, validate  # noqa: E402
from kiosk.scenes.lobby import lobby_games  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import language_fixture  # noqa: E402,F401  (the fixture "language")

FRAME = 16_666_667


@pytest.mark.parametrize("size", [(480, 320), (800, 480)])
def test_every_game_screen_plays_on_a_small_display(tmp_path: Path, size: tuple[int, int], language: str) -> None:
    pygame.init()
    screen = pygame.display.set_mode(size)
    raw = {"storage": {"path": str(tmp_path / "r.sqlite3")}, "led": {"port": "none"}}
    app = kapp.App(Config(validate(raw)), screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))
    try:
        t = 10**12
        for game in lobby_games():
            seats = [SeatInfo("computer", f"computer {i + 1}", "easy") for i in range(max(game.min_seats, 2))]
            scene = game.start(app, seats)
            app.push(scene)
            for _ in range(90):
                app.step(t)
                t += FRAME
            assert app.scenes[-1] is scene or scene.state.is_terminal(), game.name
            assert pygame.display.get_surface().get_size() == size
            app.home()
    finally:
        app.close()
        pygame.display.quit()
