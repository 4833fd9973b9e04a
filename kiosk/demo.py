"""``focus-arcade demo``: a game played by itself.

Every seat is a simulated player whose presses go through gpiozero's
MockFactory pins (the real GPIO adapter path), the LED matrix is the virtual
one, and the game is any the lobby offers (``--game``, ``--mode``).
"""

from __future__ import annotations

import argparse

from kiosk.app import App
from kiosk.scenes.lobby import find_game
from kiosk.scenes.seats import SeatInfo


def simulated_seats(app: App, players: int, skill: str) -> list[SeatInfo]:
    """Seats of simulated players, labelled with their mock GPIO pins."""
    pins = app.cfg["gpio"]["buzzers"]
    return [SeatInfo("simulated", f"sim GPIO {pins[s]}" if s < len(pins) else "simulated", skill)
            for s in range(players)]


def start_demo(app: App, args: argparse.Namespace) -> None:
    """Push the demo game's scene (raises KeyError for an unknown game or mode)."""
    game = find_game(args.game, args.mode)
    players = args.players if args.players else game.demo_seats
    players = max(game.min_seats, min(game.max_seats, players))
    if args.pace is not None:
        app.pace_override = args.pace
    app.push(game.start(app, simulated_seats(app, players, args.skill)))
