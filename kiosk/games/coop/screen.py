"""The Focus (2023) screen as a whole: the case choice, the game's title row over the table
and the side panel (on the TV, and on a small display of 480x320 .. 800x480), and the
look-away veil that hides the screen while a marker must stay secret (CO-5).

Only draws; never changes a game state and never reads the scene.  The scene
(:mod:`kiosk.games.coop.scene`) makes a :class:`ScreenShown` (or a :class:`SetupShown`
while the case is chosen); :func:`draw_screen` draws the whole screen from it (the table
with :mod:`kiosk.games.coop.table`, the side panel with :mod:`kiosk.games.coop.side`) and
returns what the scene needs of the drawing (:class:`Drawn`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import pygame

from arcade.i18n import _
from kiosk import render
from kiosk.games.coop.side import SideShown, draw_side, draw_side_small
from kiosk.games.coop.table import TableShown, draw_table

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class SetupShown:
    """The case choice.

    Attributes:
        mode_title: the mode's title; who: the players ("P1 (keys) and P2 (computer partner)").
        label: the case chosen ("All 84 cards (random faces)", "Mrs. Hudson: ...").
        lines: the controls, then the rules (:func:`kiosk.games.coop.words.setup_lines`).
    """

    mode_title: str
    who: str
    label: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class ScreenShown:
    """The game's screen at one moment.

    Attributes:
        title: the mode's title and case; mode_title: the mode's alone; case_title: the case's ("" for all cards).
        round_no, rounds: the round played and the rounds in the game.
        sherlock: the Sherlock rules (points); total: the points so far.
        away: the look-away veil's words (:func:`kiosk.games.coop.words.looking_away`), else None.
        table, side: what the table and the side panel show.
    """

    title: str
    mode_title: str
    case_title: str
    round_no: int
    rounds: int
    sherlock: bool
    total: int
    away: str | None
    table: TableShown
    side: SideShown


class Drawn(NamedTuple):
    """What a drawing of the screen tells the scene.

    Attributes:
        note_strip: the title's strip (screen px), where an app note goes over it.
        placed_matrix: the drawing placed the virtual LED matrix (the side panel was drawn);
            False: the veil or the case choice, the last placement stands.
        matrix: where the side panel put the matrix (None: nowhere), when ``placed_matrix``.
    """

    note_strip: pygame.Rect
    placed_matrix: bool
    matrix: pygame.Rect | None


def draw_screen(surface: pygame.Surface, shown: ScreenShown | SetupShown) -> Drawn:
    """The whole screen, filled first."""
    W, H = surface.get_size()
    surface.fill(render.BG)
    if isinstance(shown, SetupShown):
        return Drawn(_draw_setup(surface, shown), False, None)
    if render.small_screen(W, H):
        return _draw_small(surface, shown)
    render.text(surface, shown.title, (16, 8), 38, render.TEXT, bold=True)
    strip = pygame.Rect(0, 0, W, 50)    # the title row: an app note goes over it
    sub = _("round {n} of {total}").format(n=shown.round_no, total=shown.rounds) if shown.rounds > 1 else ""
    if shown.sherlock:
        sub += "   " + _("points {n}").format(n=shown.total)
    render.text(surface, sub, (W - 16, 12), 30, render.DIM, "topright")
    table = pygame.Rect(10, 52, int(W * 0.47), H - 60)
    side = pygame.Rect(table.right + 14, 52, W - table.right - 24, H - 60)
    away = shown.away
    if not away:                      # the veil hides the table whole (CO-5): not drawn under it
        draw_table(surface, table, shown.table)
        box = draw_side(surface, side, shown.side)
        return Drawn(strip, box is not None, box)
    render.veil(surface, surface.get_rect())   # the look-away veil hides the screen on purpose (CO-5)
    surface.fill((10, 10, 20))
    lines = away.split("  ")
    y = H // 2 - 50 * len(lines)
    for i, line in enumerate(lines):
        r = render.text_fit(surface, line, (W // 2, y), W - 80, 72 if i == 0 else 56, 40,
                            render.GOLD if i == 0 else render.TEXT, bold=True)
        y = r.bottom + 16
    return Drawn(strip, False, None)


def small_title(shown: ScreenShown, max_w: int, size: int) -> str:
    """The title in the header of a small display: the whole title when it fits (or nearly:
    squeezed to 80% at most), else without "Focus (2023) ", else the mode alone."""
    mode = shown.mode_title
    short = mode.removeprefix("Focus (2023) ") or mode
    case = f": {shown.case_title}" if shown.case_title else ""
    for t in (shown.title, short + case, short):
        if render.font(size, True).size(t)[0] * 0.8 <= max_w:
            return t
    return short


def _draw_small(surface: pygame.Surface, shown: ScreenShown) -> Drawn:
    """The game on a small display: the same parts as on the TV (table left; prompt, both
    clue files and the score right), every text at 24-30 px, set by ``render.text_block``."""
    W, H = surface.get_size()
    t = max(render.MIN_TEXT_PX, H // 17)             # the text size: 24 px on 320, 28 on 480
    head = render.line_height(t + 2, True) + 6
    strip = pygame.Rect(0, 0, W, head)  # the title row: an app note goes over it
    sub = _("round {n}/{total}").format(n=shown.round_no, total=shown.rounds) if shown.rounds > 1 else ""
    if shown.sherlock:
        sub += "  " + _("{n} pts").format(n=shown.total)
    sub_r = render.text_block(surface, sub, (W - 8, 4), W // 3, t, 1, render.DIM, "topright")
    title_w = W - 16 - (sub_r.w + 12 if sub else 0)
    render.text_block(surface, small_title(shown, title_w, t + 2), (8, 3), title_w, t + 2, 1, render.TEXT,
                      "topleft", bold=True)
    table = pygame.Rect(6, head, int(W * 0.47), H - head - 4)
    side = pygame.Rect(table.right + 10, head, W - table.right - 16, H - head - 4)
    away = shown.away
    if not away:                      # the veil hides the table whole (CO-5): not drawn under it
        draw_table(surface, table, shown.table)
        return Drawn(strip, True, draw_side_small(surface, side, t, shown.side))
    render.veil(surface, surface.get_rect())   # the look-away veil hides the screen on purpose (CO-5)
    surface.fill((10, 10, 20))
    lines = away.split("  ")
    sizes = [(line, 72 if i == 0 else 56) for i, line in enumerate(lines)]
    total = sum(render.lines_height(line, W - 24, size, 2, True) + 12 for line, size in sizes)
    y = max(4, (H - total) // 2)
    for i, (line, size) in enumerate(sizes):
        r = render.text_block(surface, line, (W // 2, y), W - 24, size, 2,
                              render.GOLD if i == 0 else render.TEXT, "midtop", bold=True)
        y = r.bottom + 12
    return Drawn(strip, False, None)


def _draw_setup(surface: pygame.Surface, shown: SetupShown) -> pygame.Rect:
    """The case choice; returns the title's strip."""
    W, H = surface.get_size()
    chooser = f"<  {shown.label}  >"
    if render.small_screen(W, H):
        return _draw_setup_small(surface, shown, chooser)
    # as large as the width allows (a longer language's title came off a 1280x720 screen)
    r = render.text_best(surface, (shown.mode_title,), (W // 2, 60), W - 40, (64, 56, 48, 40), render.GOLD, "midtop",
                         bold=True)
    strip = pygame.Rect(0, r.y, W, r.h)  # the title's line: an app note goes over it
    render.text(surface, shown.who, (W // 2, 140), 32, render.DIM, "midtop")
    r = pygame.Rect(W // 2 - 460, 230, 920, 90)
    render.panel(surface, r, render.PANEL_LIGHT, render.GOLD)
    render.text(surface, chooser, r.center, 44, render.TEXT, "center", bold=True)
    for i, line in enumerate(shown.lines):
        render.text(surface, line, (W // 2, 360 + i * 46), 34, render.TEXT if i == 0 else render.DIM, "midtop")
    return strip


def _draw_setup_small(surface: pygame.Surface, shown: SetupShown, chooser: str) -> pygame.Rect:
    """The case choice on a small display: the same words, smaller and wrapped, stacked
    from the top with the gaps shrunk to what the height leaves; returns the title's strip."""
    W, H = surface.get_size()
    w = W - 20
    lines = shown.lines
    blocks: list[tuple[str, int, int, bool, RGB]] = [
        (shown.mode_title, 64, 2, True, render.GOLD), (shown.who, 32, 2, False, render.DIM),
        (chooser, 44, 2, True, render.TEXT)]
    # the rules read as one block: one size for all of them (the smallest any one needs)
    size = min(render.fit_lines(line, w, 34, 3)[0] for line in lines)
    blocks += [(line, size, 3, False, render.TEXT if i == 0 else render.DIM) for i, line in enumerate(lines)]
    heights = [render.lines_height(m, w - (24 if i == 2 else 0), size, rows, bold)
               for i, (m, size, rows, bold, _c) in enumerate(blocks)]
    pad = 8                                          # inside the chooser's panel, above and below
    gap = max(2, min(24, (H - sum(heights) - 2 * pad) // (len(blocks) + 1)))
    y = max(gap, (H - sum(heights) - 2 * pad - (len(blocks) - 1) * gap) // 2)
    strip = pygame.Rect(0, 0, W, 0)
    for i, ((msg, size, rows, bold, colour), h) in enumerate(zip(blocks, heights)):
        if i == 2:
            r = pygame.Rect(6, y, W - 12, h + 2 * pad)
            render.panel(surface, r, render.PANEL_LIGHT, render.GOLD)
            render.text_block(surface, msg, r.center, w - 24, size, rows, colour, "center", bold)
            y = r.bottom + gap
            continue
        r = render.text_block(surface, msg, (W // 2, y), w, size, rows, colour, "midtop", bold)
        if i == 0:                                   # the title: an app note goes over it
            strip = pygame.Rect(0, r.y, W, r.h)
        y += h + gap
    return strip
