"""A person who walks away from a FOCUS game: the seat panel says a computer plays for them,
in words that fit (issue 10: it read "computer for P1 (awa", cut at 20 characters)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_event_day import BUZZ, Day, event_config

from kiosk.players.away import AWAY_LABEL

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


def test_a_game_kept_while_a_person_is_away_keeps_the_person_s_seat(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14 newcomer: the resume slot saved the away seat as a computer, so after a restart the
    person's buzzer could never take the seat back (a 'gpio' seat came back as 'computer')."""
    d = Day(event_config(tmp_path, idle={"turn_s": 5}, lobby={"games": ["focus-2p"]}), monkeypatch)
    try:
        app = d.app
        app.home()
        d.frames(2)
        d.press(BUZZ[0])                           # P1 joins, then walks away
        assert d.frames(200, 50 * MS, until=lambda: app.is_game(d.top))
        game = d.top
        person = game.seats[0]
        assert not person.is_computer
        assert d.frames(400, 50 * MS, until=lambda: game.seats[0].is_computer)
        steps = len(game.state.history)
        assert d.frames(400, 50 * MS, until=lambda: len(game.state.history) > steps + 1)
        saved = app.results.load_resume()
        assert saved is not None and saved["steps"] > steps
        assert saved["seats"][0]["station"] == person.station
        assert saved["seats"][0]["label"] == person.label
    finally:
        d.close()
