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


def reference_matrix(surface: pygame.Surface, rect: pygame.Rect, rows) -> None:
    """The matrix drawn the slow, obvious way: the rounded panel, then one disc per LED."""
    h, w = len(rows), len(rows[0])
    cell = max(1, int(min(rect.w / w, rect.h / h)))
    rad = max(1, int(cell * 0.42))
    pygame.draw.rect(surface, render.LED_BACK, rect, border_radius=8)
    ox, oy = rect.x + (rect.w - cell * w) // 2, rect.y + (rect.h - cell * h) // 2
    srgb = render._LINEAR_TO_SRGB
    pygame.draw.rect(surface, render.LED_BACK, (ox, oy, cell * w, cell * h))
    for y, row in enumerate(rows):
        for x, (r, g, b) in enumerate(row):
            colour = (srgb[r], srgb[g], srgb[b]) if (r, g, b) != (0, 0, 0) else render.LED_OFF
            if colour == (0, 0, 0):
                colour = render.LED_OFF
            pygame.draw.circle(surface, colour, (ox + x * cell + cell // 2, oy + y * cell + cell // 2), rad)


@pytest.mark.parametrize("size,box", [((64, 64), (13, 7, 480, 480)), ((16, 8), (0, 0, 333, 170)),
                                      ((8, 8), (5, 5, 64, 64)), ((32, 16), (40, 30, 300, 151))])
def test_the_matrix_is_the_same_picture_as_one_disc_drawn_per_led(size, box) -> None:
    import random
    pygame.init()
    w, h = size
    rng = random.Random(w * h)
    rect = pygame.Rect(box)
    for _ in range(3):                      # three new pictures in a row, each shown exactly
        rows = [[(rng.randrange(256), rng.randrange(256), rng.randrange(256)) if rng.random() < 0.5
                 else (0, 0, 0) for _x in range(w)] for _y in range(h)]
        fast = pygame.Surface((600, 560))
        slow = pygame.Surface((600, 560))
        fast.fill((90, 40, 30))
        slow.fill((90, 40, 30))
        render.led_matrix(fast, rect, picture(rows, True))
        reference_matrix(slow, rect, rows)
        assert pygame.image.tobytes(fast, "RGB") == pygame.image.tobytes(slow, "RGB")


def test_rounded_panels_are_the_pixels_pygame_draws() -> None:
    import random
    pygame.init()
    rng = random.Random(7)
    for _ in range(300):
        rect = pygame.Rect(rng.randrange(-5, 20), rng.randrange(-5, 20), rng.randrange(0, 130), rng.randrange(0, 130))
        radius = rng.choice([0, 3, 4, 6, 8, 10, 12, 14, 40])
        colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        a = pygame.Surface((150, 150))
        a.fill((1, 2, 3))
        b = a.copy()
        pygame.draw.rect(a, colour, rect, border_radius=radius)
        render.round_rect(b, colour, rect, radius)
        assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB"), (rect, radius)
