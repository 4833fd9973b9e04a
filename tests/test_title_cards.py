"""The title's drifting cards under their veil (issue 22: made once, moved each frame)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from kiosk import render
from kiosk.games.focusx import cards as fx_cards
from kiosk.scenes.attract import VEIL_ALPHA, keyed, veiled


@pytest.fixture(scope="module", autouse=True)
def _display():
    pygame.init()
    pygame.display.set_mode((320, 240))
    yield


@pytest.mark.parametrize("tilt", [0.0, 11.5, -15.0])
def test_a_veiled_card_looks_as_the_card_under_a_screen_sized_veil(tilt: float) -> None:
    card = pygame.transform.rotate(fx_cards.card_surface(37, 90, 126), tilt)
    w, h = card.get_width() + 20, card.get_height() + 20
    # the old way: the card on the background, then a veil of the background colour blended over all
    old = pygame.Surface((w, h))
    old.fill(render.BG)
    old.blit(card, (10, 10))
    veil = pygame.Surface((w, h), pygame.SRCALPHA)
    veil.fill((*render.BG, VEIL_ALPHA))
    old.blit(veil, (0, 0))
    # the new way: the card veiled once, drawn on the background
    new = pygame.Surface((w, h))
    new.fill(render.BG)
    new.blit(veiled(card, render.BG, VEIL_ALPHA), (10, 10))
    worst = max(abs(a - b) for x in range(w) for y in range(h)
                for a, b in zip(old.get_at((x, y))[:3], new.get_at((x, y))[:3]))
    assert worst <= 3, f"a pixel differs by {worst} of 255"
    # and the card is really there (not only background), seen through the veil
    assert any(new.get_at((x, y))[:3] != render.BG for x in range(10, w - 10, 7) for y in range(10, h - 10, 7))


def test_veiled_keeps_the_cards_transparent_corners() -> None:
    card = pygame.transform.rotate(fx_cards.card_surface(5, 60, 84), 12.0)
    out = veiled(card, render.BG, VEIL_ALPHA)
    assert out.get_size() == card.get_size()
    assert out.get_at((0, 0))[3] == card.get_at((0, 0))[3] == 0
    cx, cy = card.get_width() // 2, card.get_height() // 2
    assert out.get_at((cx, cy))[3] == card.get_at((cx, cy))[3] == 255


def test_a_keyed_card_puts_the_same_pixels_as_the_veiled_card() -> None:
    card = veiled(pygame.transform.rotate(fx_cards.card_surface(37, 90, 126), 11.5), render.BG, VEIL_ALPHA)
    fast = keyed(card)
    assert not fast.get_flags() & pygame.SRCALPHA and fast.get_colorkey() is not None
    for back in (render.BG, (200, 40, 90)):
        a, b = pygame.Surface((140, 170)), pygame.Surface((140, 170))
        a.fill(back)
        b.fill(back)
        a.blit(card, (3, -4))
        b.blit(fast, (3, -4))
        assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")
    # a picture with half see-through pixels is kept as it is (a key cannot say them)
    soft = pygame.Surface((10, 10), pygame.SRCALPHA)
    soft.fill((10, 20, 30, 128))
    assert keyed(soft) is soft


@pytest.mark.parametrize("language", ["en", "uk"])
@pytest.mark.parametrize("size", [(1280, 720), (800, 480)], ids=["720p", "800x480"])
@pytest.mark.parametrize("page", ["title", "scores"])
def test_the_title_drawn_where_it_changed_is_the_title_drawn_from_scratch(
        tmp_path, monkeypatch: pytest.MonkeyPatch, page: str, size: tuple[int, int], language: str) -> None:
    """Each frame of the title (drifting cards, the prompt blinking, recent games, a results-file
    notice) and of the high-score page, drawn only where something changed (issue 22), is pixel
    for pixel the same frame drawn entirely, in each language."""
    from test_draw_parts import compare_every_frame, make_app, step

    from arcade import i18n
    from kiosk.scenes.attract import AttractLoop, AttractScene

    app, clock = make_app(tmp_path, size, monkeypatch)
    i18n.use(language)
    try:
        for n in range(3):
            app.results.save({"game": "coop", "seats": 2}, (n % 2,), "won", (0.0, 0.0))
        app.highscores.add("sherlook", "ACE", 12)
        if page == "title":
            scene = AttractScene(app)
            scene.store_notices = ["moved aside: /var/lib/focus-arcade/results.sqlite3"]
            assert scene.recent_lines
        else:
            app.attract = AttractLoop(app)
            scene = AttractScene(app, loop=app.attract)
        # cards drifting over every line of words (the title, the prompt, the games, the notice)
        scene.cards = [(i % 8, 0.08 * i, fy, 1.0, 12.0 - 2 * i)
                       for i, fy in enumerate((0.05, 0.22, 0.3, 0.45, 0.5, 0.55, 0.62, 0.7, 0.75, 0.8, 0.85, 0.9))]
        app.push(scene)
        shots = compare_every_frame(app, monkeypatch)
        whole = []
        draw_all = scene._draw_all
        monkeypatch.setattr(scene, "_draw_all", lambda *a, **k: (whole.append(k["keep"]), draw_all(*a, **k)))
        moved = 0
        last = b""
        for f in range(75):                        # the prompt blinks at 30 and 60
            step(app, clock, f)
            got, want = shots.pop()
            assert got == want, f"frame {f} differs from the same frame drawn from scratch"
            moved += got != last
            last = got
        assert moved > 40                          # the cards drifted
        assert whole.count(True) <= 2              # and the screen was kept between frames
    finally:
        i18n.use(i18n.SOURCE)
        app.close()
