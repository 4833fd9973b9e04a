"""A seat a guest joined with their buzzer stays theirs in the lobby (issue 20: "the lobby offers
only station kinds that are wired"), driven with buzzer gestures only on ``kiosk/install.sh``'s
configuration (GPIO buzzers, no other controls, kiosk mode) on gpiozero MockFactory pins.

Before: a tap on a joined seat's row turned it into "< computer (medium) > JOINED" and the guest's
presses never reached their seat in the game."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from kiosk.scenes.attract import AttractScene
from kiosk.scenes.lobby import LobbyScene
from tests.explorer import Explorer


@pytest.fixture
def ex(tmp_path: Path) -> Iterator[Explorer]:
    e = Explorer(tmp_path, seed=5, size=(1280, 720), check_text=0)
    try:
        yield e
    finally:
        e.close()


def seat_row(lobby: LobbyScene, seat: int) -> str:
    return dict(lobby.row_texts())[f"P{seat + 1}"]


def no_joined_computer(lobby: LobbyScene) -> None:
    for seat in range(lobby.players):
        row = seat_row(lobby, seat)
        assert not ("computer" in row and "JOINED" in row), f"P{seat + 1}: {row!r}"
    for seat in lobby.joined:
        assert lobby.stations[seat] == "gpio", f"P{seat + 1} joined but plays {lobby.stations[seat]}"


def start(ex: Explorer, lobby: LobbyScene) -> object:
    while ex.top is lobby and lobby.row != lobby.start_row:
        ex.gesture(0, "hold")
    ex.gesture(0, "hold")
    assert ex.app.is_game(ex.top), "the lobby's Start did not start the game"
    return ex.top


def test_taps_on_a_joined_seat_row_never_make_it_a_computer(ex: Explorer) -> None:
    ex.to_attract()
    ex.gesture(0, "tap")                                   # P1 joins
    ex.gesture(1, "tap")                                   # P2 joins
    lobby = ex.top
    assert isinstance(lobby, LobbyScene) and set(lobby.joined) == {0, 1}
    for _ in range(3):
        ex.gesture(0, "hold")                              # game, players, skill: P1's row
    assert lobby.row == 3
    seen = []
    for _ in range(4):
        ex.gesture(0, "tap")
        assert ex.top is lobby
        no_joined_computer(lobby)
        seen.append((seat_row(lobby, 0), 0 in lobby.joined))
    # the person, or leaving (then a computer plays the seat until P1 presses to join again)
    left = ("< computer (medium) - press to join >", False)
    back = (f"< GPIO buzzer on pin {ex.cfg['gpio']['buzzers'][0]} >   JOINED", True)
    assert seen == [left, back, left, back]
    game = start(ex, lobby)
    assert game.seats[0].station == "gpio" and not game.seats[0].is_computer  # type: ignore[attr-defined]
    assert game.seats[1].station == "gpio"  # type: ignore[attr-defined]


def test_a_lone_guest_tapping_their_own_row_keeps_their_seat_in_the_game(ex: Explorer) -> None:
    ex.to_attract()
    ex.gesture(0, "tap")                                   # P1 joins
    lobby = ex.top
    assert isinstance(lobby, LobbyScene)
    for _ in range(3):
        ex.gesture(0, "hold")
    ex.gesture(0, "tap")                                   # the only guest leaves: the title screen
    assert isinstance(ex.top, AttractScene)
    assert any("P1 left: press your buzzer to join again" in text for text, _ in ex.app.messages)
    ex.gesture(0, "tap")                                   # and joins again
    lobby = ex.top
    assert isinstance(lobby, LobbyScene) and 0 in lobby.joined
    no_joined_computer(lobby)
    game = start(ex, lobby)
    assert game.seats[0].station == "gpio" and not game.seats[0].is_computer  # type: ignore[attr-defined]
