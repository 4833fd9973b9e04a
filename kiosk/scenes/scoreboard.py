"""Drawing the high-score tables (results screen, attract loop)."""

from __future__ import annotations

import time
from typing import Any

import pygame

from kiosk import render
from kiosk.highscores import ScoreRule, day_start


def _fmt(score: float, rule: ScoreRule) -> str:
    return f"{score:g} {rule.unit if score != 1 else rule.unit.rstrip('s')}"


def draw_tables(surface: pygame.Surface, box: pygame.Rect, app: Any, game_key: str, label: str,
                rule: ScoreRule, size: int = 30) -> None:
    """Today's and the all-time tables of ``game_key`` (a registry name) side by side in ``box``."""
    hs = app.highscores
    render.panel(surface, box)
    render.text(surface, f"High scores: {label}", (box.centerx, box.y + 10), size + 4, render.GOLD, "midtop", bold=True)
    render.text(surface, f"({rule.unit}{', added up' if rule.total else ', best game'})",
                (box.centerx, box.y + 14 + size + 4), max(24, size - 6), render.DIM, "midtop")
    top = box.y + 24 + 2 * size
    now = time.time()
    cols = [("Today", day_start(now)), ("All time", None)]
    cw = box.w // 2
    for i, (title, since) in enumerate(cols):
        x = box.x + i * cw
        render.text(surface, title, (x + cw // 2, top), size, render.TEXT, "midtop", bold=True)
        try:
            lines = hs.table(game_key, rule, since) if hs is not None else []
        except Exception:
            lines = []
        y = top + size + 8
        if not lines:
            render.text(surface, "no scores yet", (x + cw // 2, y), max(24, size - 4), render.DIM, "midtop")
        for rank, (initials, score) in enumerate(lines, 1):
            col = render.GOLD if rank == 1 else render.TEXT
            render.text(surface, f"{rank}. {initials}", (x + 16, y), size, col, bold=rank == 1)
            render.text(surface, _fmt(score, rule), (x + cw - 16, y), size, col, "topright")
            y += size + 6
