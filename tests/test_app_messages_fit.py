"""The app's notes (a problem with the config, a worker restarted, a player away) on every
display size: a long note goes onto more lines instead of being squeezed unreadable, and in
a game it stays in the title strip, never over whose turn it is."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

import kiosk.app.loop as kapp  # noqa: E402
from kiosk import render  # noqa: E402
from kiosk.games.sackson.panel import panel_rects, side_rect  # noqa: E402
from kiosk.games.sackson.scene import SacksonScene  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import language_fixture, sized_app  # noqa: E402,F401  (the fixture "language")

NOTE_RED = (120, 30, 30)
LONG = ("Focus (2023): the exhibit tags were not found. The computer partner plays on the "
        "exhibits' tags only, and the cards keep their faces")


def note_box(surface: pygame.Surface) -> pygame.Rect | None:
    """The note's red box on screen (its bounding rect), or None."""
    mask = pygame.mask.from_threshold(surface, NOTE_RED, (1, 1, 1, 255))
    rects = mask.get_bounding_rects()
    return rects[0].unionall(rects[1:]) if rects else None


def make_app(tmp_path: Path, size: tuple[int, int]) -> kapp.App:
    app: kapp.App = sized_app(tmp_path, size)
    return app


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1280, 720)])
def test_a_long_note_outside_a_game_goes_onto_more_lines(tmp_path: Path, size: tuple[int, int], language: str) -> None:
    """Over the title screen, in every language the arcade speaks (issue 26)."""
    app = make_app(tmp_path, size)
    try:
        app.home()
        app.message(LONG, 30)
        app.draw()
        box = note_box(app.screen)
        assert box is not None and app.screen.get_rect().contains(box)
        line_h = render.font(26).get_height()
        one_line_w = render.font(26).size(LONG)[0]
        lines = max(1, box.h // line_h)
        # wrapped where one line would be squeezed below 60% of its width
        if one_line_w * 0.6 > size[0] - 40:
            assert lines >= 2, (box, line_h)
            assert (size[0] - 40) * lines >= one_line_w * 0.6
    finally:
        app.close()
        pygame.display.quit()


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1280, 720), (1920, 1080)])
def test_a_note_in_a_game_keeps_to_the_title_strip(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path, size)
    try:
        scene = SacksonScene(app, [SeatInfo("gpio", "GPIO 17", "medium", True),
                                   SeatInfo("computer", "computer", "easy")], "2p", seed=1)
        app.push(scene)
        scene.update(10 ** 12)
        app.message(LONG, 30)
        app.draw()
        box = note_box(app.screen)
        assert box is not None
        turn = panel_rects(side_rect(size), 2).turn
        assert box.bottom <= turn.top, (box, turn)             # whose turn is never covered
    finally:
        app.close()
        pygame.display.quit()
