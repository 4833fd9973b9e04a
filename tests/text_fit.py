"""What a player notices of the text on a screen: every line drawn whole, inside the part of
the screen it belongs to, and squeezed a little at most (the words as drawn: without ruling
ids, ``kiosk.render.plain``).

:class:`TextSeen` records every ``kiosk.render.text`` and ``text_within`` call (the words, the
rect drawn, the clip it was drawn under: the part's rect, and how much of its natural width it
kept); :func:`cut_texts` lists the lines that broke one of those rules."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from kiosk import render

#: A line squeezed to less than this share of its natural width no longer reads from 3 m.
MIN_KEPT = 0.6


class TextSeen:
    """Every text drawn while it is installed: (words, rect drawn, clip at the time, kept)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: list[tuple[str, pygame.Rect, pygame.Rect, float]] = []
        text, within = render.text, render.text_within

        def seen_text(surface: pygame.Surface, msg: str, pos: Any, size: int = 32, colour: Any = render.TEXT,
                      anchor: str = "topleft", bold: bool = False) -> pygame.Rect:
            r = text(surface, msg, pos, size, colour, anchor, bold)
            self._saw(surface, render.plain(msg), r, 1.0)
            return r

        def seen_within(surface: pygame.Surface, msg: str, pos: Any, max_w: int, size: int = 32,
                        colour: Any = render.TEXT, anchor: str = "topleft", bold: bool = False) -> pygame.Rect:
            r = within(surface, msg, pos, max_w, size, colour, anchor, bold)
            shown = render.plain(msg)           # what is drawn: the words without ruling ids
            self._saw(surface, shown, r, r.w / max(1, render.font(size, bold).size(shown)[0]))
            return r

        monkeypatch.setattr(render, "text", seen_text)
        monkeypatch.setattr(render, "text_within", seen_within)
        self._screen: pygame.Surface | None = None

    def watch(self, screen: pygame.Surface) -> None:
        """Only what is drawn on ``screen`` counts (not the pictures made off screen)."""
        self._screen = screen

    def _saw(self, surface: pygame.Surface, msg: str, r: pygame.Rect, kept: float) -> None:
        if self._screen is None or surface is self._screen:
            self.seen.append((msg, pygame.Rect(r), surface.get_clip(), kept))

    def words(self) -> str:
        return " | ".join(m for m, *_ in self.seen)


def cut_texts(seen: TextSeen, screen: pygame.Surface) -> dict[str, tuple[pygame.Rect, pygame.Rect, float]]:
    """The lines seen that were cut (outside the screen or their part's clip) or squeezed
    below :data:`MIN_KEPT`: words -> (rect, clip, kept)."""
    whole = screen.get_rect()
    bad: dict[str, tuple[pygame.Rect, pygame.Rect, float]] = {}
    for msg, r, clip, kept in seen.seen:
        if not msg.strip():
            continue
        inside = clip if clip.w and clip.h else whole
        if not (whole.contains(r) and inside.contains(r)) or kept < MIN_KEPT:
            bad.setdefault(msg, (r, clip, round(kept, 2)))
    return bad


def sized_app(tmp_path: Any, size: tuple[int, int]) -> Any:
    """An App on a ``size`` (w, h) px dummy screen: default config, results in ``tmp_path``, no
    LED link.  The caller closes it (``app.close()``, then ``pygame.display.quit()``)."""
    import argparse

    import kiosk.app as kapp
    from kiosk.config import Config, validate

    pygame.init()
    screen = pygame.display.set_mode(size)
    raw = {"storage": {"path": str(tmp_path / "r.sqlite3")}, "led": {"port": "none"}}
    return kapp.App(Config(validate(raw)), screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))
