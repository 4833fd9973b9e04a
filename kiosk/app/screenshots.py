"""Screenshots: ``--screenshot-dir DIR`` (a PNG of every new screen and service-menu page),
``--screenshot-every SECONDS``, F12, Print Screen or a gamepad's Guide button, and the moments a
screen asks for (``Host.screenshot``: a race, a reveal, a game's end).

A PNG is of a whole frame, saved once it is drawn and before it is shown; a frame asked for for
several reasons is one file (``NNN-a+b.png``).  Without ``--screenshot-dir`` nothing is written.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Callable

import pygame

from kiosk.app import said
from kiosk.scene import Scene

log = logging.getLogger("focus-arcade")


class Screenshots:
    """The screenshots of a run.

    Args:
        folder: ``--screenshot-dir`` ("": none).
        every_s: ``--screenshot-every``: a PNG every this many seconds too (0: only on a new screen).
        message: shows a note on screen (``Host.message``).

    Attributes:
        folder: where the PNGs go, or None (no option, or a PNG could not be saved there).
        shots: how many PNGs were saved.
    """

    def __init__(self, folder: str, every_s: float, message: Callable[[str, float], None]) -> None:
        self.folder = Path(folder) if folder else None
        self.every_ns = int(every_s * 1e9) if self.folder is not None else 0
        self.shots = 0
        self._message = message
        self._asked: str | None = None                      # the next frame's file name, its reasons
        self._last = 0                                      # when the last interval shot was taken (ns)
        self._screen: tuple[int, str | int | None] | None = None   # (scene, page) shot last on a change

    def ask(self, name: str) -> None:
        """Save the next frame as PNG in ``--screenshot-dir`` (if given), once it is drawn
        (``NNN-name.png``; several reasons for one frame: one file, ``NNN-a+b.png``)."""
        if self.folder is None:
            return
        if self._asked is None:
            self._asked = name
        elif name not in self._asked.split("+"):
            self._asked = f"{self._asked}+{name}"

    def asked_by_hand(self, source: str, top: Scene | None, kiosk_mode: bool) -> None:
        """F12, Print Screen or a gamepad's Guide button (``source``): a PNG of the next frame
        (with ``--screenshot-dir``; without it a note outside kiosk mode, nothing in kiosk mode).
        It changes nothing else on any screen (``top``: the screen shown)."""
        if self.folder is not None:
            self.ask(f"{screen_name(top) if top is not None else 'screen'}-asked")
        elif not kiosk_mode:
            self._message(said._("Screenshots are off: start the arcade with --screenshot-dir DIR"), 4.0)
        log.info("screenshot asked (%s)%s", source, "" if self.folder else ": no --screenshot-dir")

    def moments(self, now_ns: int, top: Scene | None) -> None:
        """Before a frame is drawn: a PNG when a new screen (or a service-menu page) comes up
        (``top``), and every ``--screenshot-every`` seconds."""
        if self.folder is None:
            return
        seen = (id(top), top.page if top is not None else None)
        if top is not None and seen != self._screen:
            self._screen = seen
            self.ask(screen_name(top))
        if self.every_ns and now_ns - self._last >= self.every_ns:
            self._last = now_ns
            self.ask(f"{screen_name(top) if top is not None else 'screen'}-every")

    def save(self, screen: pygame.Surface) -> None:
        """After a frame is drawn on ``screen``: its PNG, if one was asked for.  A PNG that cannot
        be saved is a note, once: the arcade plays on without them."""
        name, self._asked = self._asked, None
        if name is None or self.folder is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.shots += 1
            pygame.image.save(screen, str(self.folder / f"{self.shots:03d}-{name}.png"))
        except (OSError, pygame.error) as exc:
            self._message(said._("Screenshot not saved in {folder}: {error}", folder=self.folder, error=exc), 8.0)
            self.folder = None


def screen_name(scene: Scene) -> str:
    """A screen's name in screenshot file names: the game's registry name
    (``focusx-classic``), else the scene's (``attract``, ``lobby``, ``results``,
    ``service-buttons``...).

    >>> class ResultsScene(Scene): pass
    >>> screen_name(ResultsScene(None))
    'results'
    """
    entry = scene.entry
    if isinstance(entry, str) and entry:
        return entry
    name = type(scene).__name__.removesuffix("Scene") or "screen"
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).lower()
    page = scene.page
    return f"{name}-{page}" if isinstance(page, str) and page else name
