"""The hall's leaderboard on the TV speaks the language spoken (issue 26): each board's title is
the lobby's label and each score says its unit in that language, though the leaderboard keeps
them in English (the words of kiosk/event/link.py, shared by every cabinet of the hall)."""

from __future__ import annotations

import time
import types

from text_fit import compiled

from arcade import i18n
from kiosk.event.link import Leaderboard, Result
from kiosk.scenes import leaderboard


def test_board_titles_and_scores_are_in_ukrainian() -> None:
    compiled("uk")
    board = Leaderboard()
    board.add(Result("g1", "night", "bar", "focusx-classic", "focusx-classic", 2, (0,), "most", (21.0, 9.0),
                     21.0, 0.0, 0, "21 cards", time.time() - 60))
    link = types.SimpleNamespace(leaderboard=board, event="night")
    was = i18n.current()
    try:
        assert leaderboard.pages(link)[0][0][0] == "FocusX Classic"       # type: ignore[arg-type]
        i18n.use("uk")
        uk = i18n.translator("uk")
        title, games, rows = leaderboard.pages(link)[0][0]                # type: ignore[arg-type]
        assert title == uk.gettext("FocusX Classic") != "FocusX Classic"
        assert rows[0].startswith("1. " + uk.ngettext("{n} card", "{n} cards", 21).format(n=21) + " ")
    finally:
        i18n.use(was)
