"""The title's drifting cards under their veil (issue 22: made once, moved each frame)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from kiosk import render
from kiosk.games.focusx import cards as fx_cards
from kiosk.scenes.attract import VEIL_ALPHA, veiled


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
