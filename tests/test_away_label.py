"""A person who walks away from a FOCUS game: the seat panel says a computer plays for them,
in words that fit (issue 10: it read "computer for P1 (awa", cut at 20 characters)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.away import AWAY_LABEL
from test_event_day import BUZZ, Day, event_config

MS = 1_000_000


def test_an_away_player_in_focus_is_labelled_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(event_config(tmp_path, idle={"turn_s": 5}, lobby={"games": ["focus-2p"]}), monkeypatch)
    try:
        app = d.app
        app.home()
        d.frames(2)
        d.press(BUZZ[0])                           # P1 joins, then walks away
        assert d.frames(200, 50 * MS, until=lambda: app.is_game(d.top))
        game = d.top
        assert d.frames(400, 50 * MS, until=lambda: game.seats[0].is_computer)
        label = game.seats[0].label
        assert label == AWAY_LABEL and "away" in label and len(label) <= 20
    finally:
        d.close()
