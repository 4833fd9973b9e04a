"""The small "LED" badge shown while the LED matrix is not connected (issue 12).

In the service menu the whole line with its advice is in the menu's status panel along the
bottom (``status_lines``); on every other screen only a small "LED" badge, in a corner whose
pixels are plain background in this frame, so it covers nothing a guest reads (a countdown, the
initials' hints, a board's letters).  No corner is plain: no badge in this frame (the service
menu and ``doctor`` say it all).
"""

from __future__ import annotations

import pygame

from kiosk import render
from kiosk.scene import Scene


class LedBadge:
    """The badge on the frames drawn; it keeps to the corner it was last drawn in while that
    stays plain (it does not jump from corner to corner)."""

    def __init__(self) -> None:
        #: The corner the badge was last drawn in (kept while it stays plain).
        self.corner: tuple[int, int] | None = None

    def draw(self, surface: pygame.Surface, attention: str | None, top: Scene | None) -> None:
        """Draw the badge on the frame on ``surface`` while the LED output says ``attention``
        (None or "": the matrix is fine), unless ``top``, the screen shown, is the service menu
        (its status panel has the whole line) or no corner is plain (:func:`led_badge_rect`)."""
        if not attention:
            return
        from kiosk.scenes.service.menu import ServiceScene
        if isinstance(top, ServiceScene):
            return
        badge = led_badge_rect(surface, self.corner)
        if badge is None:
            return
        self.corner = badge.topleft
        draw_led_badge(surface, badge)


#: The LED badge's word and ink (the full line: the service menu and ``doctor``).
LED_BADGE = "LED"
LED_BADGE_INK = (255, 205, 205)
LED_BADGE_FILL = (150, 30, 30)


def led_badge_size(surface: pygame.Surface) -> tuple[int, int]:
    """The badge's size (px): the word at 18 px bold with a small margin."""
    w, h = render.font(18, True).size(LED_BADGE)
    return w + 12, h + 2


def plain(surface: pygame.Surface, rect: pygame.Rect) -> bool:
    """Whether every pixel of ``rect`` (inside ``surface``) has one colour."""
    if not surface.get_rect().contains(rect):
        return False
    colour = surface.get_at(rect.topleft)
    x1, y1 = rect.right - 1, rect.bottom - 1
    for p in ((x1, rect.y), (rect.x, y1), (x1, y1), rect.center):     # a quick no first
        if surface.get_at(p) != colour:
            return False
    sub = surface.subsurface(rect)
    mask = pygame.mask.from_threshold(sub, colour, (1, 1, 1, 255))
    return bool(mask.count() == rect.w * rect.h)


def led_badge_rect(surface: pygame.Surface, prefer: tuple[int, int] | None = None) -> pygame.Rect | None:
    """Where the LED badge goes in this frame: a corner (``prefer``'s first, then bottom
    right, bottom left, top right, top left; 4 px from the edges, else 14 or 24 px) whose
    badge area and a 3 px ring around it are all the screen's own background colour
    (``render.BG``; never an empty stretch of a panel: on a seat's card the badge read as that
    seat's), or None when no corner is."""
    W, H = surface.get_size()
    w, h = led_badge_size(surface)
    spots = [spot for m in (4, 14, 24) for spot in ((W - w - m, H - h - m), (m, H - h - m), (W - w - m, m), (m, m))]
    if prefer in spots:
        spots.remove(prefer)
        spots.insert(0, prefer)
    for x, y in spots:
        rect = pygame.Rect(x, y, w, h)
        if surface.get_at((x, y))[:3] == render.BG and plain(surface, rect.inflate(6, 6)):
            return rect
    return None


_badge_word: list[pygame.Surface] = []


def draw_led_badge(surface: pygame.Surface, rect: pygame.Rect) -> None:
    pygame.draw.rect(surface, LED_BADGE_FILL, rect, border_radius=rect.h // 2)
    if not _badge_word:                        # the word is rendered once
        _badge_word.append(render.font(18, True).render(LED_BADGE, True, LED_BADGE_INK))
    img = _badge_word[0]
    surface.blit(img, img.get_rect(center=rect.center))
