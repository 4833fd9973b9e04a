"""The lobby's players row says why a count is refused, in words a guest can read (issue 10),
and a buzzer's taps bring the count round to the fewest (issue 20)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_event_day import BUZZ, Day, event_config

from kiosk.scenes.lobby import LobbyScene


def test_nine_players_for_focusx_classic_is_refused_with_a_readable_reason_and_comes_round_to_the_joined_seats(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(event_config(tmp_path), monkeypatch)
    try:
        d.app.home()
        d.frames(2)
        d.press(BUZZ[2])                                  # P3 joins with a buzzer alone
        lobby = d.top
        assert isinstance(lobby, LobbyScene) and lobby.games[lobby.game_i].name == "focusx-classic"
        d.press(BUZZ[2], hold_ms=800)                     # hold: the players row
        assert lobby.row == 1
        for _ in range(4):                                # tap, tap, ... up to 8
            d.press(BUZZ[2], hold_ms=100)
        assert lobby.players == 8 and lobby.note == ""
        d.press(BUZZ[2], hold_ms=100)                     # once more: it says why, and comes round to 3
        # (issue 20: a buzzer lowers the count too, but never below the seats people joined:
        # P3 joined, and 2 seats would leave P3's buzzer dead in the game)
        assert lobby.note == "FocusX Classic is for 2-8 players: choose another game for more; back to 3 (P3 joined)"
        assert lobby.players == 3
        d.press(BUZZ[2], hold_ms=100)
        assert lobby.players == 4 and lobby.note == ""
    finally:
        d.close()
