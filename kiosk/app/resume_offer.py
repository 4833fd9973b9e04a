"""The app's side of resuming an interrupted game: after a screen's error the game on the stack
is kept, and at start (or back at the title after that error) the kept game is offered.

What is kept, how it is offered (:class:`kiosk.persist.resume.ResumeScene`) and how the game is
rebuilt step by step is :mod:`kiosk.persist.resume`'s; this part only says when, and keeps
their failures out of the frame loop (a failure is in the journal, the arcade goes on).
"""

from __future__ import annotations

import logging
import traceback
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.scene import Host

log = logging.getLogger("focus-arcade")


class ResumeOffer:
    """When the app keeps and offers an interrupted game.

    Args:
        app: the running arcade (the stack to look in, the store, the screen to offer on).
    """

    def __init__(self, app: Host) -> None:
        self._app = app

    def keep_game(self) -> None:
        """Save the game on the stack (if any) for a resume (after a scene's exception)."""
        from kiosk.persist import resume
        from kiosk.scenes.game import GameScene
        for scene in reversed(self._app.scenes):
            if isinstance(scene, GameScene) and scene.lobby_game and scene.over_at is None:
                try:
                    resume.save_progress(self._app, scene)
                except Exception:
                    log.error("could not keep the game: %s", traceback.format_exc())
                return

    def offer(self) -> None:
        """Offer the interrupted game in the store, if there is one (never raises)."""
        from kiosk.persist import resume
        try:
            resume.offer(self._app)
        except Exception:
            log.error("the resume offer failed: %s", traceback.format_exc())
