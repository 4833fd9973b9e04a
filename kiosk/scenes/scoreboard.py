"""Drawing the high-score tables (results screen, attract loop)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pygame

from arcade.i18n import _
from kiosk import render
from kiosk.persist.highscores import ScoreRule, day_start, score_words, unit_name

if TYPE_CHECKING:
    from kiosk.scene import Host


def _fmt(score: float, rule: ScoreRule) -> str:
    return score_words(score, rule.unit)


def rule_line(rule: ScoreRule) -> str:
    """What the tables rank, under their heading: "(cards, best game)"."""
    unit = unit_name(rule.unit)
    if rule.total:
        return _("({unit}, added up)").format(unit=unit)
    if rule.fewest:
        return _("({unit}, fewest first)").format(unit=unit)
    return _("({unit}, best game)").format(unit=unit)


def draw_tables(surface: pygame.Surface, box: pygame.Rect, app: Host, game_key: str, label: str,
                rule: ScoreRule, size: int = 30) -> None:
    """Today's and the all-time tables of ``game_key`` (a registry name) side by side in ``box``."""
    hs = app.highscores
    render.panel(surface, box)
    small = render.small_screen(*surface.get_size())
    if small:                 # a small display: the lines as large as the box lets them be
        size = max(render.MIN_TEXT_PX, min(size, (box.h - 40) // 6))
    # a long game name on a narrow panel: the game's name alone rather than squeezed to half
    head = render.text_best(surface, (_("High scores: {game}").format(game=label), label, _("High scores")),
                            (box.centerx, box.y + 10),
                            box.w - 16, tuple(sorted({size + 4, render.MIN_TEXT_PX}, reverse=True)), render.GOLD,
                            "midtop", bold=True)
    sub = render.text_block(surface, rule_line(rule),
                            (box.centerx, box.y + 14 + size + 4 if not small else head.bottom + 2), box.w - 16,
                            max(24, size - 6), 1, render.DIM, "midtop")
    top = box.y + 24 + 2 * size if not small else sub.bottom + 4
    now = time.time()
    cols = [(_("Today"), day_start(now)), (_("All time"), None)]
    cw = box.w // 2
    for i, (title, since) in enumerate(cols):
        x = box.x + i * cw
        render.text(surface, title, (x + cw // 2, top), size, render.TEXT, "midtop", bold=True)
        try:
            lines = hs.table(game_key, rule, since) if hs is not None else []
        except Exception:
            lines = []
        y = top + size + 8 if not small else top + render.line_height(size, True) + 2
        if not lines:
            render.text_block(surface, _("no scores yet"), (x + cw // 2, y), cw - 16, max(24, size - 4), 2,
                              render.DIM, "midtop")
        for rank, (initials, score) in enumerate(lines, 1):
            if small and y + render.line_height(size) > box.bottom - 4:
                break             # a small display: the lower places give way (the best stay)
            col = render.GOLD if rank == 1 else render.TEXT
            if small:
                # the initials and the score share the column, the score squeezed if need be
                r = render.text(surface, f"{rank}. {initials}", (x + 10, y), size, col, bold=rank == 1)
                render.text_best(surface, (_fmt(score, rule), f"{score:g}"), (x + cw - 10, y),
                                 x + cw - 10 - r.right - 8, (size,), col, "topright")
                y += render.line_height(size) + 2
                continue
            r = render.text(surface, f"{rank}. {initials}", (x + 16, y), size, col, bold=rank == 1)
            # the score with its unit, else the number alone, where the unit would reach the initials
            render.text_best(surface, (_fmt(score, rule), f"{score:g}"), (x + cw - 16, y),
                             x + cw - 16 - r.right - 10, (size,), col, "topright")
            y += size + 6
