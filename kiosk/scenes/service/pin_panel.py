"""The PIN screen drawn (pure drawing: it draws what it is given): "Service PIN", the digits
entered so far and the gestures line, on a panel over the title screen, or over the whole screen
where it hides the lobby the combination opened (``pin.PinScene.veils_lobby``).
"""

from __future__ import annotations

import pygame

from arcade.i18n import _
from kiosk import render


def draw(surface: pygame.Surface, shown: str, gestures: str, veil: bool) -> None:
    """The PIN panel: ``shown`` (the digits as :meth:`~kiosk.service.tools.PinEntry.shown` gives
    them), ``gestures`` (the screen's gestures line), ``veil``: the whole screen filled first."""
    W, H = surface.get_size()
    if veil:
        surface.fill(render.BG)
    if render.small_screen(W, H):
        _draw_small(surface, shown, gestures)
        return
    box = pygame.Rect(W // 2 - 360, H // 2 - 170, 720, 340)
    render.panel(surface, box, render.PANEL, render.GOLD, 4)
    render.text(surface, _("Service PIN"), (box.centerx, box.y + 20), 52, render.GOLD, "midtop", bold=True)
    render.text(surface, shown, (box.centerx, box.centery + 4), 96, render.TEXT, "center", bold=True)
    render.text_block(surface, gestures, (box.centerx, box.bottom - 14), box.w - 40, 28, 2, render.DIM,
                      "midbottom")


def _draw_small(surface: pygame.Surface, shown: str, gestures: str) -> None:
    """The PIN panel on a small display: as large as the screen lets it be."""
    W, H = surface.get_size()
    box = pygame.Rect(0, 0, min(720, W - 16), min(340, H - 16))
    box.center = (W // 2, H // 2)
    render.panel(surface, box, render.PANEL, render.GOLD, 4)
    head = render.text_block(surface, _("Service PIN"), (box.centerx, box.y + 8), box.w - 24, min(52, H // 8), 1,
                             render.GOLD, "midtop", bold=True)
    hint = render.text_block(surface, gestures, (box.centerx, box.bottom - 8), box.w - 24, 30, 2, render.DIM,
                             "midbottom")
    mid = (box.centerx, (head.bottom + hint.top) // 2)
    render.text_block(surface, shown, mid, box.w - 24, max(24, min(96, hint.top - head.bottom - 4)),
                      1, render.TEXT, "center", bold=True)
