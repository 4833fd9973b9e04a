"""``focus-arcade demo``: a game played by itself.

Every seat is a simulated player whose presses go through gpiozero's
MockFactory pins (the real GPIO adapter path), the LED matrix is the virtual
one, and the game is any the lobby offers (``--game``, ``--mode``).
``--x-rule`` plays the mode's FocusX-rule entry (FX-3; ``--mode duel
--x-rule`` is ``--mode duel-x``).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from arcade.core.errors import ArcadeError
from kiosk.scenes.lobby import find_game
from kiosk.scenes.seats import LobbyGame, SeatInfo

if TYPE_CHECKING:
    from kiosk.scene import Host


class DemoError(ArcadeError, ValueError):
    """Demo options that do not fit the chosen game (the message names the allowed values)."""


def simulated_seats(app: Host, players: int, skill: str) -> list[SeatInfo]:
    """Seats of simulated players, labelled with their mock GPIO pins."""
    pins = app.cfg["gpio"]["buzzers"]
    return [SeatInfo("simulated", f"sim GPIO {pins[s]}" if s < len(pins) else "simulated", skill)
            for s in range(players)]


def demo_game(args: argparse.Namespace) -> tuple[LobbyGame, int]:
    """The lobby game and the number of players the demo options ask for.

    Raises:
        KeyError: unknown game or mode (the message lists the choices).
        DemoError: ``--players`` outside the game's range (FX-12 for FocusX),
            or ``--x-rule`` for a game without a FocusX-rule mode.
    """
    from arcade.core.errors import SettingsError
    from kiosk.players import headless
    try:                     # the same names, --variant and --case as ``headless`` (one vocabulary)
        spec = headless.spec_of(args)
        headless.settings_of(spec, args)
    except SettingsError as exc:
        raise DemoError(str(exc)) from None
    game = find_game(spec.name, None)
    players = args.players if args.players else game.demo_seats
    if not game.min_seats <= players <= game.max_seats:
        raise DemoError(f"--players {players}: {game.label} is for {game.min_seats} to {game.max_seats} players")
    return game, players


def start_demo(app: Host, args: argparse.Namespace) -> None:
    """Push the demo game's scene.

    Raises:
        KeyError: unknown game or mode.
        DemoError: bad ``--players`` or ``--x-rule`` for this game (see :func:`demo_game`).
    """
    game, players = demo_game(args)
    app.demo_game = game                      # an interrupted game of another kind is not resumed,
    app.demo_seats = players                  # nor one with another number of players
    if args.pace is not None:
        app.pace_override = args.pace
    if getattr(args, "seed", None) is not None and hasattr(app, "seed_override"):
        app.seed_override = args.seed             # the first game's seed (App.new_seed)
    from kiosk.persist.resume import start_game
    app.push(start_game(app, game, simulated_seats(app, players, args.skill)))
