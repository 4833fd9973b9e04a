"""Drawing helpers of the FocusX screen (no game state changes here)."""

from __future__ import annotations

from typing import Any

import pygame

from kiosk import render
from kiosk.games.focusx import cards as fx_cards

#: Classic's four spots, clockwise from the top left: (column, row) offsets from the centre.
SPOT_OFFSETS = ((-1, -1), (0, -1), (0, 0), (-1, 0))


def fit_text(surface: pygame.Surface, msg: str, box: pygame.Rect, size: int,
             colour: tuple[int, int, int], anchor: str = "center") -> None:
    """Draw ``msg`` in ``box``, shrinking it until it fits (never cut off)."""
    img = render.font(size, True).render(msg, True, colour)
    if img.get_width() > box.w or img.get_height() > box.h:
        k = min(box.w / img.get_width(), box.h / img.get_height())
        img = pygame.transform.smoothscale(img, (max(1, int(img.get_width() * k)), max(1, int(img.get_height() * k))))
    rect = img.get_rect(**{anchor: getattr(box, anchor)})
    surface.blit(img, rect)


def draw_spots(surface: pygame.Surface, area: pygame.Rect, spots: list[list[int]], prev_spot: Any,
               chooser: tuple[int, int] | None) -> tuple[int, int, int]:
    """Classic's four spots in ``area``: each pile's top card (a few backs under it), the
    count beside it, the previous spot framed, the chooser's spot in its seat's colour.

    Args:
        chooser: ``(seat, spot)`` of a person choosing a spot, or None.

    Returns:
        ``(card width, gap, centre y)`` in px, for the hint drawn between the rows.
    """
    cw = int(min(area.w / 4.6, area.h / 2.25 / 1.4))
    ch = int(cw * 1.4)
    gap = int(cw * 0.25)
    cx, cy = area.center
    for i, (ox, oy) in enumerate(SPOT_OFFSETS):
        r = pygame.Rect(cx + (gap // 2 if ox == 0 else -gap // 2 - cw),
                        cy + oy * (ch + gap // 2) + (gap // 4 if oy == 0 else -gap // 4), cw, ch)
        pile = spots[i]
        if pile:
            for k in range(min(3, len(pile) - 1), 0, -1):
                surface.blit(fx_cards.card_back(cw, ch), r.move(k * 4, k * 4))
            surface.blit(fx_cards.card_surface(pile[-1], cw, ch), r)
        else:
            render.empty_spot(surface, r, f"spot {i + 1}")
        if i == prev_spot:
            pygame.draw.rect(surface, render.DIM, r.inflate(10, 10), 3, border_radius=14)
        if chooser is not None and i == chooser[1]:
            pygame.draw.rect(surface, render.SEAT_COLOURS[chooser[0] % 8], r.inflate(16, 16), 6, border_radius=16)
        render.text(surface, f"{len(pile)}", (r.right + 6 if ox == 0 else r.left - 6, r.bottom),
                    26, render.DIM, "bottomleft" if ox == 0 else "bottomright")
    return cw, gap, cy
