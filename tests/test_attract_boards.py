"""The attract loop's high-score page shows only boards that have scores (issue 20: it showed
the demo game's empty "no scores yet" tables while the boards with scores never came up).

The arcade runs its attract loop on the event-day wiring (MockFactory pins, a virtual clock):
demo games of every family in turn, a high-score page between them."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_event_day import MS, Day, event_config
from text_fit import TextSeen

from kiosk import render
from kiosk.scenes.attract import AttractScene


def scores_pages(d: Day, monkeypatch: pytest.MonkeyPatch, pages: int) -> list[tuple[str | None, str]]:
    """(board shown, words drawn) of the next ``pages`` high-score pages of the attract loop."""
    app = d.app
    seen = TextSeen(monkeypatch)
    seen.watch(d.screen)
    out: list[tuple[str | None, str]] = []
    app.home()
    d.frames(2)
    while len(out) < pages:
        assert d.frames(600, 50 * MS, until=lambda: app.is_game(d.top))           # a demo game
        assert d.frames(600, 50 * MS, until=lambda: isinstance(d.top, AttractScene))   # its scores page
        page = d.top
        seen.seen.clear()
        # the page draws its words in its first frame, then only what changes (issue 22): all of
        # them again, to read them
        render.redraw_everything()
        d.frames(3, 50 * MS)
        board = page._scores_game()
        out.append((board.name if board is not None else None, seen.words()))
    return out


def test_the_attract_loop_shows_only_boards_with_scores_and_each_in_turn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(event_config(tmp_path), monkeypatch)
    try:
        hs = d.app.highscores
        hs.add("sherlook", "ACE", 12)
        hs.add("focus-2p", "BOB", 1)
        pages = scores_pages(d, monkeypatch, 4)
        boards = [b for b, _ in pages]
        assert set(boards) == {"sherlook", "focus-2p"}, boards          # never the demo's empty board
        assert all("no scores yet" not in words for _, words in pages)
        assert any("ACE" in words for _, words in pages) and any("BOB" in words for _, words in pages)
    finally:
        d.close()


def test_with_no_score_anywhere_the_page_says_so_without_empty_tables(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(event_config(tmp_path), monkeypatch)
    try:
        [(board, words)] = scores_pages(d, monkeypatch, 1)
        assert board is None
        assert "No high scores yet" in words and "no scores yet" not in words and "High scores:" not in words
    finally:
        d.close()
