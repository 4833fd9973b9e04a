"""The service menu's status panel drawn along the bottom of every page: the last result
(saved, refused, the PIN's advice) and, while the LED matrix is not connected, the LED link's
line, worded here from the LED output's facts (kiosk/output/led.py ``LedTrouble``: its state,
port and advice) in the language spoken now, and shortened to the state on a small display's
other pages.  On a small display a page may keep only part of the height for it
(:attr:`StatusPanel._status_room`).
"""

from __future__ import annotations

import pygame

from kiosk import render
from kiosk.scenes.service.state import ServiceState


class StatusPanel(ServiceState):
    """Where the status panel goes and how it is drawn (mixed into the service scene)."""

    def status_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """What the panel along the bottom says: the last result (saved, refused...) and, while
        the LED matrix is not connected, the LED link's whole line with its advice (the other
        screens show only a small badge: kiosk/app/led_badge.py)."""
        out = [(self.status, render.GOLD)] if self.status else []
        trouble = self.app.led.trouble() if self.app.led is not None else None
        if trouble is not None:
            # issue 20: on a small display the whole advice took a quarter of 320 px; the LED test has it
            short = self.page != "led" and self._small()
            out.append((trouble.short() if short else trouble.line(), render.BAD))
        return out

    #: Where a page's content starts on a small display (below the title and the hint).
    _top = 90

    def _small(self) -> bool:
        return render.small_screen(*self.app.screen.get_size())

    def _status_height(self, W: int) -> int:
        """How high the status panel of a small display is (0: no status)."""
        parts = self._status_parts(W)
        if not parts:
            return 0
        return sum(render.lines_height(text, W - 40, 28, 3) for text, _ in parts) + 12

    #: The height (px) a page leaves the status panel of a small display (None: what it needs).
    _status_room: int | None = None

    def _status_parts(self, W: int) -> list[tuple[str, tuple[int, int, int]]]:
        """:meth:`status_lines` that the panel of a small display shows: all of them, or, where
        a page keeps only :attr:`_status_room` for it (the button test's seats come first), the
        ones that fit whole (the menu's page shows them all)."""
        parts = self.status_lines()
        if self._status_room is None:
            return parts
        out, h = [], 12
        for text, colour in parts:
            need = render.lines_height(text, W - 40, 28, 3)
            if h + need <= self._status_room:
                out.append((text, colour))
                h += need
        return out

    def _status_wrapped(self, W: int) -> list[tuple[str, tuple[int, int, int]]]:
        """:meth:`status_lines` broken into the large display's 28 px lines (at most 3 each)."""
        f = render.font(28)
        lines: list[tuple[str, tuple[int, int, int]]] = []
        for text, colour in self.status_lines():
            own: list[str] = []
            for word in text.split(" "):
                if own and f.size(f"{own[-1]} {word}")[0] <= W - 120:
                    own[-1] = f"{own[-1]} {word}"
                else:
                    own.append(word)
            lines += [(line, colour) for line in own[:3]]
        return lines

    def _status_top(self, W: int, H: int) -> int:
        """Where the status panel begins (``H``: no status): a page's lines end above it."""
        if not self.status_lines():
            return H
        if render.small_screen(W, H):
            return H - 4 - self._status_height(W) if self._status_parts(W) else H
        return H - 16 - 34 * len(self._status_wrapped(W)) - 12

    def _draw_status(self, surface: pygame.Surface) -> None:
        """:meth:`status_lines` along the bottom, each on as many lines as it needs (at most 3,
        28 px), on a panel so it reads over the page."""
        W, H = surface.get_size()
        parts = self.status_lines()
        if render.small_screen(W, H):
            parts = self._status_parts(W)
            if not parts:
                return
            h = self._status_height(W)
            box = pygame.Rect(6, H - 4 - h, W - 12, h)
            render.panel(surface, box, render.PANEL, render.GOLD, 2)
            y = box.y + 6
            for text, colour in parts:
                y = render.text_block(surface, text, (W // 2, y), W - 40, 28, 3, colour, "midtop").bottom
            return
        lines = self._status_wrapped(W)
        box = pygame.Rect(40, H - 16 - 34 * len(lines) - 12, W - 80, 34 * len(lines) + 12)
        render.panel(surface, box, render.PANEL, render.GOLD, 2)
        for i, (line, colour) in enumerate(lines):
            render.text(surface, line, (W // 2, box.y + 8 + 34 * i), 28, colour, "midtop")
