"""A screen's LED picture for a frame stamped before the moment it counts from (a flash's start,
a lobby join, a countdown's start) is that moment's picture, never an error.

The frame loop stamps the LED frame with ``time.monotonic_ns()`` while a screen's moments can
come from the stamped edges of another clock (the kernel's edge stamps, a test's virtual
clock starting at 1,000 s).  On a machine up for less than that, the LED picture was asked
for a phase below 0 (or a countdown fraction above 1) and the picture raised ``PictureError``:
the game's LED went dark with an error.  (Found by the game-screen text-fit tests on a freshly
booted machine, issue 26.)
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402

from kiosk.persist import resume  # noqa: E402
from kiosk.scenes.lobby import find_game  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.kiosk_start import config_for, start_kiosk  # noqa: E402

LATER = 10 ** 12                      # a moment 1,000 s after the clock's start
EARLY = 10 ** 9                       # a frame stamped 1 s after the clock's start


def test_a_focusx_win_flash_asked_before_it_began_is_its_first_picture(tmp_path: Path) -> None:
    app = start_kiosk(config_for(None, tmp_path / "arcade.sqlite3"), frames=0)
    try:
        seats = [SeatInfo("computer", f"computer {i + 1}", "hard") for i in range(3)]
        scene = resume.start_game(app, find_game("focusx", None), seats)
        app.replace(scene)
        scene.flash = ((1,), "won", LATER)                                       # type: ignore[attr-defined]
        early = scene.led_picture(LATER - EARLY)
        first = scene.led_picture(LATER)
        assert early is not None and early == first
    finally:
        app.close()


def test_the_lobby_countdown_asked_before_the_join_shows_it_full(tmp_path: Path) -> None:
    from kiosk.scenes.lobby import LobbyScene

    app = start_kiosk(config_for(None, tmp_path / "arcade.sqlite3"), frames=0)
    try:
        lobby = LobbyScene(app)
        app.replace(lobby)
        lobby.last_join = LATER
        early = lobby.led_picture(LATER - EARLY)
        assert early is not None and early == lobby.led_picture(LATER)
    finally:
        app.close()

