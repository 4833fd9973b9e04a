"""FocusX card faces on the TV: category background and label, the characters in the card's
colour and shape (FX-1: the shape is the second cue), the quantity in a corner; the card back.

Faces are cached (:data:`CARDS_MAX_BYTES`, sized for the screen by ``render.fit_caches``).
"""

from __future__ import annotations

import pygame

from arcade import i18n
from arcade.focusx.cards import card as decode
from arcade.i18n import N_, _
from kiosk import render

#: FocusX character colours (FX-1): red, blue, green, yellow; the shape is the second cue.
CARD_COLOURS = [(220, 40, 40), (30, 90, 220), (20, 150, 60), (235, 185, 0)]
CATEGORY_BG = [(226, 214, 245), (206, 236, 244), (236, 224, 200), (222, 236, 252)]
CATEGORY_INK = [(110, 60, 170), (20, 110, 140), (120, 90, 40), (60, 110, 180)]


def _shape(surface: pygame.Surface, shape: int, centre: tuple[float, float], r: float,
           colour: tuple[int, int, int]) -> None:
    cx, cy = centre
    if shape == 0:      # triangle
        pts = [(cx, cy - r), (cx - r * 0.95, cy + r * 0.75), (cx + r * 0.95, cy + r * 0.75)]
        pygame.draw.polygon(surface, colour, pts)
        pygame.draw.polygon(surface, (30, 30, 30), pts, 2)
    elif shape == 1:    # circle
        pygame.draw.circle(surface, colour, (int(cx), int(cy)), int(r))
        pygame.draw.circle(surface, (30, 30, 30), (int(cx), int(cy)), int(r), 2)
    elif shape == 2:    # square
        rect = pygame.Rect(0, 0, int(r * 1.7), int(r * 1.7))
        rect.center = (int(cx), int(cy))
        pygame.draw.rect(surface, colour, rect)
        pygame.draw.rect(surface, (30, 30, 30), rect, 2)
    else:               # diamond
        pts = [(cx, cy - r * 1.1), (cx + r, cy), (cx, cy + r * 1.1), (cx - r, cy)]
        pygame.draw.polygon(surface, colour, pts)
        pygame.draw.polygon(surface, (30, 30, 30), pts, 2)


def _creature(surface: pygame.Surface, category: int, colour_i: int, centre: tuple[float, float], r: float) -> None:
    """One character: a body in the card colour and shape, with its category's feature."""
    cx, cy = centre
    ink = (40, 40, 40)
    col = CARD_COLOURS[colour_i]
    if category == 0:    # fantastic: a horn
        pygame.draw.polygon(surface, render.GOLD, [(cx - r * 0.25, cy - r * 0.8), (cx + r * 0.25, cy - r * 0.8), (cx, cy - r * 1.7)])
        pygame.draw.polygon(surface, ink, [(cx - r * 0.25, cy - r * 0.8), (cx + r * 0.25, cy - r * 0.8), (cx, cy - r * 1.7)], 1)
    elif category == 1:  # aquatic: a tail fin
        pygame.draw.polygon(surface, col, [(cx + r * 0.8, cy), (cx + r * 1.6, cy - r * 0.6), (cx + r * 1.6, cy + r * 0.6)])
        pygame.draw.polygon(surface, ink, [(cx + r * 0.8, cy), (cx + r * 1.6, cy - r * 0.6), (cx + r * 1.6, cy + r * 0.6)], 1)
    elif category == 2:  # terrestrial: legs
        for dx in (-0.5, 0.5):
            pygame.draw.line(surface, ink, (cx + dx * r, cy + r * 0.6), (cx + dx * r, cy + r * 1.45), max(2, int(r / 5)))
    else:                # aerial: wings
        for side in (-1, 1):
            pts = [(cx + side * r * 0.7, cy - r * 0.1), (cx + side * r * 1.7, cy - r * 0.9), (cx + side * r * 1.3, cy + r * 0.3)]
            pygame.draw.polygon(surface, (250, 250, 250), pts)
            pygame.draw.polygon(surface, ink, pts, 1)
    _shape(surface, colour_i, centre, r, col)
    pygame.draw.circle(surface, (255, 255, 255), (int(cx - r * 0.25), int(cy - r * 0.15)), max(2, int(r * 0.18)))
    pygame.draw.circle(surface, ink, (int(cx - r * 0.25), int(cy - r * 0.15)), max(1, int(r * 0.09)))


#: Each category's name on its cards (translated where a face is drawn).
CATEGORY_LABEL = (N_("FANTASTIC"), N_("AQUATIC"), N_("TERRESTRIAL"), N_("AERIAL"))
CATEGORY_SYMBOL = ("*", "~", "^", ">")


#: FocusX card faces (:func:`card_surface`), at most this many bytes of pixels: a whole deck
#: at the table's size and the title screen's.
CARDS_MAX_BYTES = 8 * 2**20
_cards = render.screen_cache(render.SCREENS_OF_PICTURES, CARDS_MAX_BYTES, reset=True)


def card_surface(number: int, w: int, h: int) -> pygame.Surface:
    """A FocusX card face: category background and label, N characters in the
    card's colour and shape (FX-1 second cue), the quantity in a corner.  A face is at
    least 12x16 px (a tiny screen squeezes the table, never ends the game).  Cached
    (:data:`CARDS_MAX_BYTES`); do not draw on it."""
    key = (number, w, h, i18n.current())          # its category's name is in the language spoken
    got = _cards.get(key)
    return got if got is not None else _cards.put(key, _card_face(number, w, h))


def _card_face(number: int, w: int, h: int) -> pygame.Surface:
    c = decode(number)
    w, h = max(w, 12), max(h, 16)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    rect = surf.get_rect()
    pygame.draw.rect(surf, CATEGORY_BG[c.category], rect, border_radius=max(6, w // 12))
    pygame.draw.rect(surf, CATEGORY_INK[c.category], rect, max(3, w // 30), border_radius=max(6, w // 12))
    # category pattern strip
    band = pygame.Rect(0, 0, w, int(h * 0.17))
    pygame.draw.rect(surf, CATEGORY_INK[c.category], band, border_top_left_radius=max(6, w // 12),
                     border_top_right_radius=max(6, w // 12))
    # The label is drawn large and scaled down to fit the band: the bundled font at a
    # tiny size spaces letters unevenly ("TERRE STRIAL" on small cards).
    label = render.font(max(32, int(h * 0.10)), True).render(_(CATEGORY_LABEL[c.category]), True, (255, 255, 255))
    scale = min((w - 8) / label.get_width(), band.h * 0.72 / label.get_height(), 1.0)
    if scale < 1.0:
        label = pygame.transform.smoothscale(label, (max(1, int(label.get_width() * scale)),
                                                     max(1, int(label.get_height() * scale))))
    surf.blit(label, label.get_rect(center=(w // 2, band.centery)))
    # quantity digit in the corner
    q = render.font(max(16, int(h * 0.16)), True).render(str(c.quantity), True, (30, 30, 30))
    surf.blit(q, q.get_rect(bottomright=(w - w // 14, h - h // 40)))
    # characters
    r = min(w, h) * 0.12
    spots = {1: [(0.5, 0.55)], 2: [(0.3, 0.45), (0.7, 0.68)], 3: [(0.28, 0.40), (0.72, 0.40), (0.5, 0.72)],
             4: [(0.28, 0.40), (0.72, 0.40), (0.28, 0.74), (0.72, 0.74)]}[c.quantity]
    for fx, fy in spots:
        _creature(surf, c.category, c.colour, (fx * w, fy * h), r)
    return surf


def card_back(w: int, h: int, label: str = "") -> pygame.Surface:
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surf, (60, 40, 110), surf.get_rect(), border_radius=max(6, w // 12))
    pygame.draw.rect(surf, render.GOLD, surf.get_rect().inflate(-w // 8, -h // 8), 2, border_radius=max(4, w // 14))
    if label:
        t = render.font(max(14, h // 4), True).render(label, True, render.TEXT)
        surf.blit(t, t.get_rect(center=(w // 2, h // 2)))
    return surf

