"""``focus-arcade headless --game sherlook``: Sherlook games with computer players only.

One JSON line per game (keys sorted): ``game``, ``seed``, ``index``,
``players``, ``winners`` (1-based seats), ``points`` and ``greens`` (per
seat), ``yellows``, ``reds``, ``rounds`` (played, extra rounds included),
``extra_rounds``, ``counts`` (differences per round), ``timeouts`` (seats
whose countdown ran out, summed over the game), ``reason``.  Game ``k`` of a
run with seed ``S`` draws from ``random.Random(f"{S}-{k}")``, so the same seed
gives the same lines.
"""

from __future__ import annotations

import json
import random
from typing import Any, TextIO

from arcade.core.errors import SettingsError
from arcade.sherlook.game import SherlookGame, SherlookState
from arcade.sherlook.sim import SherlookSimConfig, simulate


def game_line(state: SherlookState, seed: int, index: int) -> dict[str, Any]:
    """The JSON line of a finished game."""
    out = state.outcome()
    assert out is not None
    return {
        "game": "sherlook", "seed": seed, "index": index, "players": state.seats,
        "winners": [w + 1 for w in out.winners], "points": list(state.points),
        "greens": list(state.greens), "yellows": list(state.yellows), "reds": list(state.reds),
        "rounds": len(state.rounds), "extra_rounds": state.extra_no,
        "counts": [r.count for r in state.rounds],
        "timeouts": sum(len(r.timed_out) for r in state.rounds), "reason": out.reason,
    }


def run_games(players: int, games_n: int, seed: int, skills: list[str], out: TextIO) -> None:
    """Play ``games_n`` games of ``players`` computer players and print one line each.

    Raises:
        SettingsError: ``players`` outside 2..6 (SL-6).
        KeyError: an unknown skill.
    """
    for k in range(games_n):
        state = SherlookGame(players).new_initial_state()
        simulate(state, random.Random(f"{seed}-{k}"), SherlookSimConfig(skills=skills))
        out.write(json.dumps(game_line(state, seed, k), sort_keys=True) + "\n")
        out.flush()


MODES = ("classic",)
"""Sherlook has one mode; ``--mode`` may be left out or say ``classic``."""


def check_args(args: Any) -> None:
    """Refuse options Sherlook does not have, with a clear message (the CLI prints it, exit 2).

    Accepted: ``--mode`` absent or ``classic``; no ``--variant``, ``--x-rule``
    or ``--case`` (those belong to FOCUS / Crossfire, FocusX and the
    cooperative Focus); ``--players`` 2 to 6 (SL-6).

    Raises:
        KeyError: an unknown ``--mode``.
        SettingsError: ``--variant``, ``--x-rule`` or ``--case`` given, or
            ``--players`` outside 2..6.
    """
    mode = getattr(args, "mode", None)
    if mode not in (None, "", *MODES):
        raise KeyError(f"--mode {mode!r}: Sherlook has one mode, 'classic' (or leave --mode out)")
    for option, attr, owner in (("--variant", "variant", "--game focus / crossfire"),
                                ("--case", "case", "--game coop")):
        value = getattr(args, attr, None)
        if value not in (None, ""):
            raise SettingsError(option, value, f"nothing: Sherlook has no {option[2:]} ({option} is for {owner})")
    if getattr(args, "x_rule", False):
        raise SettingsError("--x-rule", True, "nothing: the FocusX rule (FX-3) is not part of Sherlook")
    players = getattr(args, "players", None)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise SettingsError("--players", players, "2 to 6 players for Sherlook (SL-6)")


def run(args: Any, out: TextIO) -> None:
    """Entry point for ``kiosk.headless.RUNNERS["sherlook"]``.

    Raises:
        KeyError, SettingsError: see :func:`check_args`; KeyError: an unknown skill.
    """
    check_args(args)
    skills = list(getattr(args, "skills", None) or ["medium"] * args.players)
    run_games(args.players, args.games, args.seed, skills, out)
