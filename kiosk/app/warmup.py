"""Warming up: what a frame would otherwise wait for, made before it is needed (issues 14, 22, 23).

At start-up the fonts, the resume module every game saves its steps with, and the computer
players' thinking process; after the first frame, on a thread of its own, the sounds and the
games' screen modules (so the title comes up first); when a screen that starts work on its first
draw is pushed, one draw of it off screen.  Every step is only an optimisation: a failure is
logged, and what it would have made is made on first use.
"""

from __future__ import annotations

import importlib
import logging
import threading

import pygame

from kiosk import render
from kiosk.output.sound import Sounds
from kiosk.scene import Scene

log = logging.getLogger("focus-arcade")


class Warmup:
    """The app's warming up.

    Attributes:
        thread: the thread making the sounds and importing the game screens after the first
            frame (:meth:`screens`), or None before it.
    """

    def __init__(self) -> None:
        self.thread: threading.Thread | None = None

    def modules(self) -> None:
        """Warmed at start-up, not in a game's first frame: the fonts, and the resume module
        every game scene saves its steps with (its first import loads uuid's C module: ~15 ms)."""
        render.warm_up()
        importlib.import_module("kiosk.persist.resume")

    def games(self) -> None:
        """What a game would otherwise make in a frame, made now, at start-up (issue 14): the
        computer players' thinking process started (its start cost ~30 ms in the frame that
        made a FOCUS scene).  Only an optimisation: a failure is logged, the games start it on
        first use.  The 168 Focus (2023) card faces are no longer all made here (9.3 MB at
        1280x720 held all day, issue 23): a game makes its first deal's 20 when it starts."""
        try:
            from kiosk.players import thinker
            thinker.shared().start()
        except Exception:  # noqa: BLE001 - the scenes start it on first use
            log.debug("starting the thinking process failed", exc_info=True)

    def screens(self, sounds: Sounds) -> None:
        """After the first frame, the sounds are made and the games' screen modules (and the
        lobby that lists them) imported on a thread of their own, so that the title comes up first (issue 22:
        importing them cost 0.4 s of a 0.6 s start here, seconds on a Raspberry Pi 3) and the
        lobby opens without that wait.  A module the frame loop needs sooner is imported there
        as usual (Python's import lock lets one thread import it, the other waits for it); a
        failure is only logged: the lobby imports it again and says what is wrong."""
        def warm() -> None:
            sounds.make()
            try:
                from kiosk.scenes.seats import lobby_games
                lobby_games()
            except Exception:  # noqa: BLE001 - only an optimisation
                log.debug("warming the game screens failed", exc_info=True)
        self.thread = threading.Thread(target=warm, name="warm-screens", daemon=True)
        self.thread.start()

    def scene(self, scene: Scene, size: tuple[int, int]) -> None:
        """Draw ``scene`` once off screen (a screen of ``size``), so its first frame finds fonts,
        rendered words and its cached layers ready (a scene's draw never changes its state).  A
        scene that cannot draw yet is simply drawn for real on its first frame.  Only scenes with
        ``warm_on_push`` (some start work on their first draw)."""
        if not scene.warm_on_push:
            return
        try:
            # A screen of its own, gone after it (issue 23: kept, it was 3.5 MB at 1280x720 all day).
            scene.draw(pygame.Surface(size))
        except Exception:  # noqa: BLE001 - warming is only an optimisation
            log.debug("warming %s failed", type(scene).__name__, exc_info=True)
