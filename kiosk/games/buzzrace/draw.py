"""Drawing the Buzz Race screen (pure drawing: :func:`screen` reads a :class:`Table`, changes nothing).

Readable from 3 m: no text under :data:`kiosk.render.MIN_TEXT_PX`; the big line (GO!) is a
quarter of the screen's height; each seat's rounds are a number and a row of pips in the
seat's colour (a seat told to let go of its buzzer sees that line in its number's place).  Layout, top to bottom: title row, the two seats side by side, the big
line with the line under it, the hint (or the banner) at the bottom.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from kiosk import render


@dataclass(frozen=True)
class Table:
    """What the screen shows (made by the scene each frame).

    Attributes:
        title: the game's name (the registry's label).
        wins: rounds won per seat; need: rounds that win the game.
        names: each seat's station label ("GPIO 17", "computer 2").
        big, small, colour: the centre's big line, the line under it, the big line's colour.
        held: per seat, "" or the line telling it to let go of its buzzer.
        hint: the bottom line (the controls, or the banner: "Leave this game?"...).
    """

    title: str
    wins: tuple[int, ...]
    need: int
    names: tuple[str, ...]
    big: str
    small: str
    colour: tuple[int, int, int]
    held: tuple[str, ...]
    hint: str


def screen(surface: pygame.Surface, t: Table) -> pygame.Rect:
    """Draw the whole screen for ``t`` (any size from 480x320 to 1920x1080); returns the title
    row's strip (screen px when ``surface`` is the screen), where the arcade's notes go while
    they are up (``Scene.note_strip``, ``kiosk/scene.py``): never over the seats."""
    W, H = surface.get_size()
    surface.fill(render.BG)
    pad = max(8, W // 80)
    size = max(render.MIN_TEXT_PX, H // 20)
    title = render.text_within(surface, t.title, (W // 2, pad), W - 2 * pad, size, render.GOLD, "midtop",
                               bold=True)
    seats_top = title.bottom + pad
    seats_h = max(H * 30 // 100, 3 * size + 2 * pad)
    n = len(t.wins)
    col_w = (W - pad * (n + 1)) // n
    for s in range(n):
        rect = pygame.Rect(pad + s * (col_w + pad), seats_top, col_w, seats_h)
        _seat(surface, rect, s, t, size)
    hint_size = max(render.MIN_TEXT_PX, H // 28)
    hint = render.text_within(surface, t.hint, (W // 2, H - pad), W - 2 * pad, hint_size, render.DIM, "midbottom")
    top, bottom = seats_top + seats_h + pad, hint.top - pad
    centre = pygame.Rect(pad, top, W - 2 * pad, max(bottom - top, 2 * size))
    render.panel(surface, centre, render.PANEL, t.colour, 4)
    big = max(size, min((centre.h - render.line_height(size)) * 80 // 100, H // 4))
    block = render.line_height(big, True) + render.line_height(size)
    y = centre.y + max(pad // 2, (centre.h - block) // 2)          # the two lines centred in the panel
    r = render.text_within(surface, t.big, (centre.centerx, y), centre.w - 2 * pad, big, t.colour, "midtop",
                           bold=True)
    render.text_within(surface, t.small, (centre.centerx, min(r.bottom, centre.bottom - size - pad // 2)),
                       centre.w - 2 * pad, size, render.TEXT, "midtop")
    return pygame.Rect(0, 0, W, title.bottom + pad // 2)


def _seat(surface: pygame.Surface, rect: pygame.Rect, s: int, t: Table, size: int) -> None:
    """One seat's panel: "P1" and its station, rounds won (a number and pips), a held-buzzer line."""
    colour = render.SEAT_COLOURS[s]
    render.panel(surface, rect, render.PANEL_LIGHT, colour, 4)
    inner = rect.inflate(-16, -8)
    head = render.text_within(surface, f"P{s + 1}  {t.names[s]}", (inner.centerx, inner.y), inner.w, size,
                              colour, "midtop", bold=True)
    pip_r = max(6, min(inner.w // (3 * max(t.need, 1)), size // 2))
    pips_y = inner.bottom - pip_r - 2
    score_h = pips_y - pip_r - head.bottom
    middle = (inner.centerx, head.bottom + score_h // 2)
    if t.held[s]:                     # "RELEASE your buzzer" where the number was, until it is let go
        render.text_within(surface, t.held[s], middle, inner.w, size, render.BAD, "center", bold=True)
    else:
        render.text_within(surface, f"{t.wins[s]}", middle, inner.w, max(size, score_h), render.TEXT, "center",
                           bold=True)
    gap = (inner.w - 2 * pip_r * t.need) // (t.need + 1)
    for i in range(t.need):
        cx = inner.x + gap + pip_r + i * (2 * pip_r + gap)
        if i < t.wins[s]:
            pygame.draw.circle(surface, colour, (cx, pips_y), pip_r)
        else:
            pygame.draw.circle(surface, render.DIM, (cx, pips_y), pip_r, 2)
