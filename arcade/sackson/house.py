"""What the arcade's house needs of FOCUS and Crossfire: computer players, the
driver's ply cap, the LED picture, the headless line and a seat's view.

Registered for the ``focus-*`` and ``crossfire`` entries of :mod:`arcade.registry`.
"""

from __future__ import annotations

import random
from typing import Any

from arcade.bots.sackson import choose_action
from arcade.core.api import Action, State
from arcade.core.driver import ComputerPlayer, Driver, settings_from
from arcade.core.errors import SettingsError
from arcade.sackson.game import Swap

#: Skill names -> bot levels; ``expert`` plays ``hard``.
LEVELS = {"easy": "easy", "medium": "medium", "hard": "hard", "expert": "hard"}
#: Node limit of the ``hard`` search per move in headless games (deterministic, no clock).
HARD_NODES = 2000
#: Plies after which a headless game is stopped as a draw.
PLY_CAP = 2000


class SacksonPlayer(ComputerPlayer):
    """A FOCUS / Crossfire computer player (``arcade.bots.sackson``), limited by nodes, not a clock.

    Raises:
        SettingsError: an unknown skill.
    """

    think_ns = 0

    def __init__(self, skill: str = "medium", max_nodes: int = HARD_NODES) -> None:
        if skill not in LEVELS:
            raise SettingsError("skill", skill, f"one of {list(LEVELS)}")
        self.skill = skill
        self.level = LEVELS[skill]
        self.max_nodes = max_nodes

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return choose_action(state, self.level, rng, clock=None, max_nodes=self.max_nodes)  # type: ignore[arg-type]


def plies(state: Any) -> int:
    """Moves and drops so far (opening swaps, SF-3, are not plies)."""
    return sum(1 for _p, a in state.history if not isinstance(a, Swap))


class _PlyCap:
    """``state -> bool``: the game has reached ``cap`` plies (counted as they come)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.seen = 0
        self.count = 0

    def __call__(self, state: Any) -> bool:
        hist = state.history
        for _p, a in hist[self.seen:]:
            if not isinstance(a, Swap):
                self.count += 1
        self.seen = len(hist)
        return self.count >= self.cap


def computer_player(spec: Any, state: State, seat: int, skill: str, ctx: Any) -> SacksonPlayer:
    """The registry's factory: a :class:`SacksonPlayer` at ``skill``."""
    return SacksonPlayer(skill)


def driver(spec: Any, state: State, players: list[Any], rng: random.Random, *,
           ply_cap: int | None = PLY_CAP, **options: Any) -> Driver:
    """The driver for a FOCUS match: a game still running after ``ply_cap`` plies is left
    unfinished (None or 0: no cap).  ``options``: :class:`DriverSettings` fields."""
    cap = _PlyCap(ply_cap) if ply_cap else None
    return Driver(state, players, rng, settings_from(options, pace_ns=None, stop=cap,
                                                     max_steps=10 * (ply_cap or PLY_CAP) + 100))


def led_picture(state: Any, width: int = 16, height: int = 16) -> Any:
    """The board (``arcade.views.sackson_pictures.state_picture``)."""
    from arcade.views.sackson_pictures import state_picture
    return state_picture(state, width, height)


def summary(spec: Any, state: Any, seed: int, index: int, skills: list[str]) -> dict[str, Any]:
    """The headless line (see ``kiosk/headless.py``); ``game`` is ``"focus"`` for every variant."""
    from arcade.sackson.record import to_record
    seats = state.game.seats
    out = state.outcome()
    n = plies(state)
    if out is None:
        winners: list[int] = []
        reason = f"ply cap: stopped after {n} plies without a result (draw)"
    else:
        winners = [w + 1 for w in out.winners]
        reason = out.reason
    rec = to_record(state)
    return {
        "game": "focus", "variant": state.game.variant, "seed": seed, "index": index, "players": seats,
        "skills": skills, "levels": [LEVELS[s] for s in skills], "winners": winners, "reason": reason,
        "plies": n, "captures": [sum(state.captured(p)) for p in range(seats)],
        "reserves": [state.reserve(p) for p in range(seats)],
        "moves": rec["moves"], "final": rec["final"],
    }


def view(state: Any, seat: int) -> dict[str, Any]:
    """FOCUS has no secrets (SF-1: every stack and reserve is in sight)."""
    return state.snapshot()  # type: ignore[no-any-return]
