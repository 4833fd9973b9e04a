"""A seat a guest joined with their buzzer stays theirs in the lobby (issue 20: "the lobby offers
only station kinds that are wired"), driven with buzzer gestures only on ``kiosk/install.sh``'s
configuration (GPIO buzzers, no other controls, kiosk mode) on gpiozero MockFactory pins.

Before: a tap on a joined seat's row turned it into "< computer (medium) > JOINED", later made the
guest leave; either way the guest's presses never reached their seat in the game."""

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
    """Issue 20: a tap on one's own seat row (or on another joined guest's) changes nothing:
    the seat stays the guest's, the countdown stays on screen, and in the game their buzzer
    plays it.  Before: the tap made P1 leave ("P1 left: press your buzzer to join again" in the
    place of the countdown) and the game gave P1's seat to a computer."""
    ex.to_attract()
    ex.gesture(0, "tap")                                   # P1 joins
    ex.gesture(1, "tap")                                   # P2 joins
    lobby = ex.top
    assert isinstance(lobby, LobbyScene) and set(lobby.joined) == {0, 1}
    for _ in range(3):
        ex.gesture(0, "hold")                              # game, players, skill: P1's row
    assert lobby.row == 3
    mine = f"GPIO buzzer on pin {ex.cfg['gpio']['buzzers'][0]}   JOINED - hold = next row"
    assert seat_row(lobby, 0) == mine                      # no arrows: nothing to change here
    for seat in (0, 1, 0, 0):
        ex.gesture(seat, "tap")
        assert ex.top is lobby and set(lobby.joined) == {0, 1}
        no_joined_computer(lobby)
        assert seat_row(lobby, 0) == mine and lobby.note == ""
        assert lobby.last_join is not None                 # the countdown is still shown
    game = start(ex, lobby)
    assert game.seats[0].station == "gpio" and not game.seats[0].is_computer  # type: ignore[attr-defined]
    assert game.seats[1].station == "gpio" and not game.seats[1].is_computer  # type: ignore[attr-defined]


def test_a_lone_guest_tapping_their_own_row_stays_and_only_a_long_hold_leaves(ex: Explorer) -> None:
    ex.to_attract()
    ex.gesture(0, "tap")                                   # P1 joins
    lobby = ex.top
    assert isinstance(lobby, LobbyScene)
    for _ in range(3):
        ex.gesture(0, "hold")
    ex.gesture(0, "tap")                                   # before: the only guest left, the title came back
    assert ex.top is lobby and 0 in lobby.joined
    assert not any("left" in text for text, _ in ex.app.messages)
    no_joined_computer(lobby)
    ex.gesture(0, "long")                                  # leaving is the long hold
    assert isinstance(ex.top, AttractScene)
    ex.gesture(0, "tap")                                   # and joins again
    lobby = ex.top
    assert isinstance(lobby, LobbyScene) and 0 in lobby.joined
    game = start(ex, lobby)
    assert game.seats[0].station == "gpio" and not game.seats[0].is_computer  # type: ignore[attr-defined]


def test_the_players_count_never_drops_a_joined_seat(ex: Explorer) -> None:
    """A tap on the players' row comes round to the fewest, but never below the seats people
    joined: P3 joined, so 3 (before: 2, and P3's buzzer did nothing in the game)."""
    ex.to_attract()
    ex.gesture(2, "tap")                                   # P3 joins: 3 players
    lobby = ex.top
    assert isinstance(lobby, LobbyScene) and lobby.players >= 3
    ex.gesture(2, "hold")                                  # the players' row
    assert lobby.row == 1
    g = lobby.games[lobby.game_i]
    counts = []
    for _ in range(g.max_seats + 2):
        ex.gesture(2, "tap")
        counts.append(lobby.players)
    assert min(counts) == 3 and g.max_seats in counts
    while lobby.players != 3:
        ex.gesture(2, "tap")
    while ex.top is lobby and lobby.row != lobby.start_row:
        ex.gesture(2, "hold")
    ex.gesture(2, "hold")
    game = ex.top
    assert ex.app.is_game(game) and len(game.seats) >= 3
    assert game.seats[2].station == "gpio" and not game.seats[2].is_computer


def test_a_game_of_fewer_seats_on_the_way_never_drops_a_joined_guest(ex: Explorer) -> None:
    """A newcomer: P1, P2 and P3 joined, P1 tapped the Game row through the 2-seat games (FOCUS
    2 players, Crossfire) on to Sherlook (2-6): the players' count had been cut to 2 on the way
    and stayed there, without a word, and P3's buzzer did nothing in Sherlook.  Now a game that
    cannot seat P3 says so by name, and the next one that can seats P3 again."""
    ex.to_attract()
    for seat in (0, 1, 2):
        ex.gesture(seat, "tap")                            # P1, P2, P3 join
    lobby = ex.top
    assert isinstance(lobby, LobbyScene) and set(lobby.joined) == {0, 1, 2}
    said_out = False
    for _ in range(len(lobby.games)):
        ex.gesture(0, "tap")                               # the Game row: the next game
        g = lobby.games[lobby.game_i]
        if g.max_seats < 3:
            assert "P3 is out" in lobby.note, (g.name, lobby.note)
            said_out = True
        else:
            assert lobby.players >= 3, (g.name, lobby.players)
            assert "P3" in dict(lobby.row_texts()), g.name
    assert said_out, "no game of two seats on the way: the test did not test"
    while lobby.games[lobby.game_i].name != "sherlook":
        ex.gesture(0, "tap")
    game = start(ex, lobby)
    assert len(game.seats) >= 3 and game.seats[2].station == "gpio" and not game.seats[2].is_computer
