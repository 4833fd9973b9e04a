"""The virtual LED matrix on the TV (kiosk/render.led_matrix): every LED a disc of its colour as a
person would see it, unlit LEDs dim, the panel between them; a new picture shows at once."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from firmware_bridge.virtual import LedPicture  # noqa: E402
from kiosk import render  # noqa: E402


@pytest.fixture()
def screen():
    pygame.init()
    yield pygame.Surface((400, 300))


def centre(rect: pygame.Rect, w: int, h: int, x: int, y: int) -> tuple[int, int]:
    cell = int(min(rect.w / w, rect.h / h))
    ox = rect.x + (rect.w - cell * w) // 2
    oy = rect.y + (rect.h - cell * h) // 2
    return ox + x * cell + cell // 2, oy + y * cell + cell // 2


def picture(rows, with_raw: bool):
    if not with_raw:
        return tuple(tuple(r) for r in rows)
    p = LedPicture(tuple(tuple(r) for r in rows))
    p.raw = bytes(v for r in rows for px in r for v in px)
    return p


@pytest.mark.parametrize("with_raw", [False, True])
def test_lit_leds_show_their_colour_unlit_ones_are_dim_and_the_panel_between(screen, with_raw) -> None:
    rows = [[(0, 0, 0)] * 4 for _ in range(3)]
    rows[0][0] = (255, 0, 0)
    rows[2][3] = (10, 200, 40)
    rect = pygame.Rect(20, 10, 320, 240)
    render.led_matrix(screen, rect, picture(rows, with_raw))
    srgb = render._LINEAR_TO_SRGB
    assert tuple(screen.get_at(centre(rect, 4, 3, 0, 0)))[:3] == (255, 0, 0)
    assert tuple(screen.get_at(centre(rect, 4, 3, 3, 2)))[:3] == (srgb[10], srgb[200], srgb[40])
    assert tuple(screen.get_at(centre(rect, 4, 3, 1, 1)))[:3] == render.LED_OFF
    cx, cy = centre(rect, 4, 3, 1, 1)
    cell = int(min(rect.w / 4, rect.h / 3))
    assert tuple(screen.get_at((cx + cell // 2 - 1, cy + cell // 2 - 1)))[:3] == render.LED_BACK   # between discs


def test_a_new_picture_shows_at_once_and_an_empty_one_says_so(screen) -> None:
    rect = pygame.Rect(0, 0, 64, 64)
    dark = picture([[(0, 0, 0)] * 8 for _ in range(8)], True)
    render.led_matrix(screen, rect, dark)
    assert tuple(screen.get_at(centre(rect, 8, 8, 5, 5)))[:3] == render.LED_OFF
    rows = [[(0, 0, 0)] * 8 for _ in range(8)]
    rows[5][5] = (0, 0, 255)
    render.led_matrix(screen, rect, picture(rows, True))
    assert tuple(screen.get_at(centre(rect, 8, 8, 5, 5)))[:3] == (0, 0, 255)
    render.led_matrix(screen, rect, dark)
    assert tuple(screen.get_at(centre(rect, 8, 8, 5, 5)))[:3] == render.LED_OFF
    screen.fill((50, 50, 50))
    render.led_matrix(screen, pygame.Rect(0, 0, 200, 100), None)
    assert tuple(screen.get_at((5, 50)))[:3] == render.LED_BACK
