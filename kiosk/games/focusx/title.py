"""What the title screen shows of FocusX: its card faces drifting behind the title.

Read by ``kiosk/scenes/attract.py`` through ``kiosk.scenes.seats.screen_part`` (the first
registry entry whose screen package has a ``title`` module), so the title names no game.
"""

from __future__ import annotations

import pygame

from arcade.focusx.cards import DECK_SIZE
from kiosk.games.focusx.cards import card_surface


class TitleCards:
    """The title's pictures: FocusX card faces, a card's 1.4 times as high as wide."""

    #: how many different pictures there are (the deck's cards)
    count = DECK_SIZE

    def picture(self, index: int, width: int) -> pygame.Surface:
        """Picture ``index`` (0 <= index < :attr:`count`), ``width`` px wide (cached; do not draw on it)."""
        return card_surface(index, width, int(width * 1.4))


#: The title screen's pictures (``kiosk.scenes.attract.TitlePictures``).
TITLE = TitleCards()
