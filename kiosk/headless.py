"""``focus-arcade headless``: games with computer players at every seat, no window.

One JSON line per game.  Game ``k`` (0-based) of a run with seed ``S`` draws
from ``random.Random(f"{S}-{k}")``, so the same seed gives the same lines.
"""

from __future__ import annotations

import importlib
import json
import random
from typing import Any, Callable, TextIO

from arcade import games
from arcade.core.api import Game, State
from arcade.sim import SimConfig, simulate


def focusx_line(game: Game, state: Any, seed: int, index: int) -> dict[str, Any]:
    out = state.outcome()
    return {
        "game": "focusx", "mode": game.name.split("-", 1)[1], "seed": seed, "index": index,
        "players": game.seats, "winners": [w + 1 for w in out.winners], "reason": out.reason,
        "cards": list(state.scores()), "races": state.stats["races"],
        "debated": state.stats["debated"], "false_focuses": state.stats["false"],
        "missed": state.stats["missed"], "actions": len(state.history),
    }


def run_focusx(mode: str, players: int, games_n: int, seed: int, skills: list[str],
               settings: dict[str, Any], out: TextIO, miss_rate_scale: float = 1.0,
               false_rate_scale: float = 1.0) -> None:
    """Play ``games_n`` FocusX games of ``mode`` with computer players; one JSON line each.

    ``miss_rate_scale`` / ``false_rate_scale`` multiply the computer players'
    miss and false-shout rates (``arcade.bots.shout.scaled``; the kiosk's
    ``[computer]`` settings).
    """
    entry = games.find("focusx", mode)
    try:
        cls = entry.load()
    except ModuleNotFoundError as exc:
        if exc.name != entry.path.split(":")[0]:
            raise
        raise KeyError(f"the focusx mode {mode!r} is not built into this arcade yet") from None
    for k in range(games_n):
        game = cls(players, settings)
        state = game.new_initial_state()
        rng = random.Random(f"{seed}-{k}")
        simulate(state, rng, SimConfig(skills=skills, miss_rate_scale=miss_rate_scale,
                                       false_rate_scale=false_rate_scale))
        out.write(json.dumps(focusx_line(game, state, seed, k), sort_keys=True) + "\n")
        out.flush()


def run_focusx_args(args: Any, out: TextIO) -> None:
    miss = getattr(args, "miss_rate_scale", None)
    false = getattr(args, "false_rate_scale", None)
    run_focusx(args.mode or "classic", args.players, args.games, args.seed, args.skills,
               {"x_rule": bool(args.x_rule)}, out,
               1.0 if miss is None else miss, 1.0 if false is None else false)


#: ``--game`` -> "module:function" taking (args, out); args has game, mode, variant,
#: players, games, seed, skills (one per seat), x_rule, case.
RUNNERS: dict[str, str] = {
    "focusx": "kiosk.headless:run_focusx_args",
    "focus": "kiosk.headless_sackson:run",
    "crossfire": "kiosk.headless_sackson:run",
    "sherlook": "kiosk.headless_sherlook:run",
    "coop": "kiosk.headless_coop:run",
}


def runner(game: str) -> Callable[[Any, TextIO], None]:
    """The headless runner for ``--game``.

    Raises:
        KeyError: unknown game.
    """
    if game not in RUNNERS:
        raise KeyError(f"unknown game {game!r}; expected one of {sorted(RUNNERS)}")
    module, func = RUNNERS[game].split(":")
    try:
        return getattr(importlib.import_module(module), func)  # type: ignore[no-any-return]
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        raise KeyError(f"the game {game!r} is not built into this arcade yet") from None
