"""Headless FocusX play in virtual time: computer players at every seat, no window.

The same referee and judge as the kiosk, fed with edges that computer players
"press" at virtual times, so a headless game exercises the real rules.  Time is
virtual (integer ns from 0), so the same seed always gives the same game.  The
loop is the match driver's (:class:`arcade.core.driver.Driver`); this module
keeps the older configuration (:class:`SimConfig`) and entry point.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from arcade.bots.shout import SKILLS, PlannedPress, scaled
from arcade.bots.shout import skill as skill_named
from arcade.core.api import Action, State
from arcade.core.driver import FRAME_NS, MS, Driver, DriverSettings
from arcade.core.judge import JudgeSettings
from arcade.core.race import RaceSpec
from arcade.core.referee import Referee
from arcade.focusx.house import PLACEMENT, FocusXPlayer, first_legal

__all__ = ["FRAME_NS", "MS", "SimConfig", "simulate", "first_legal", "computer_policy", "players_for",
           "BOT_POLICIES"]


@dataclass
class SimConfig:
    """Pacing and players of a headless game.

    Attributes:
        skills: one skill level name per seat.
        pace_ms: how long a race window stays open before the next card (ms).
        think_ms: how long a seat takes to choose a placement (ms).
        hold_ms: how long a press is held (ms).
        max_delivery_ms: presses reach the referee up to this late (ms), in
            shuffled order, as callbacks do on a busy Pi (R-1, case B-5).
        has_x_control: whether stations have an X control (FX-3).
        max_steps: a safety cap on actions.
        miss_rate_scale, false_rate_scale: multiply every level's miss rate
            and false-shout rates (``arcade.bots.shout.scaled``; the kiosk's
            ``[computer]`` settings).
        plans: seats whose presses come from this function instead of the
            computer player's reaction model, ``plan(rng, spec, seat) ->
            [PlannedPress]`` (e.g. ``arcade.bots.shout.masher_plan``).
    """

    skills: Sequence[str]
    pace_ms: int = 2500
    think_ms: int = 300
    hold_ms: int = 90
    max_delivery_ms: int = 8
    has_x_control: bool = False
    max_steps: int = 20000
    judge: JudgeSettings = field(default_factory=JudgeSettings)
    miss_rate_scale: float = 1.0
    false_rate_scale: float = 1.0
    plans: Mapping[int, Callable[[random.Random, RaceSpec, int], list[PlannedPress]]] = field(default_factory=dict)


SeatPolicy = Callable[[State, int, random.Random], Action]

#: Computer players' placement choice per game: see :data:`arcade.focusx.house.PLACEMENT`.
BOT_POLICIES = PLACEMENT


def computer_policy(skills: Sequence[str]) -> SeatPolicy:
    """The seat policy of computer players with these skill levels (one a seat).

    Uses the mode's placement chooser (ThinkFocus and 4Focus, FX-9 / FX-11,
    :data:`arcade.focusx.house.PLACEMENT`), else :func:`first_legal`.
    """
    players = [FocusXPlayer(s, level=SKILLS["medium"]) for s in skills]   # placement only

    def policy(state: State, seat: int, rng: random.Random) -> Action:
        player = players[seat] if seat < len(players) else FocusXPlayer("medium")
        return player.choose(state, seat, rng)

    return policy


def players_for(config: SimConfig, policy: SeatPolicy | None = None) -> list[FocusXPlayer]:
    """One :class:`~arcade.focusx.house.FocusXPlayer` per seat of ``config``.

    Raises:
        KeyError: an unknown skill.
    """
    out = []
    for seat, name in enumerate(config.skills):
        level = scaled(skill_named(name), config.miss_rate_scale, config.false_rate_scale)
        out.append(FocusXPlayer(name, level, policy=policy, planner=config.plans.get(seat),
                                has_x_control=config.has_x_control, think_ns=config.think_ms * MS,
                                hold_ns=config.hold_ms * MS))
    return out


def simulate(state: State, rng: random.Random, config: SimConfig,
             policy: SeatPolicy | None = None,
             on_event: Callable[[Any], None] | None = None) -> Referee:
    """Play ``state`` to the end with computer players; returns the referee.

    ``policy`` chooses the seats' actions (default: each mode's placement
    chooser at the seat's skill).  Races with their own window (``window_ms``:
    ThinkFocus and 4Focus claim windows, forgotten-focus and turn-start
    windows) close themselves, and so do ``"last"`` races among owners (Duel,
    at their deadline); the others are closed ``pace_ms`` after they open.
    The loop is :class:`arcade.core.driver.Driver`'s.

    Raises:
        RuntimeError: the game did not end within ``config.max_steps`` actions.
    """
    settings = DriverSettings(judge=config.judge, pace_ns=config.pace_ms * MS, hold_ns=config.hold_ms * MS,
                              max_delivery_ns=config.max_delivery_ms * MS, max_steps=config.max_steps)
    driver = Driver(state, players_for(config, policy), rng, settings, on_event=on_event)
    driver.run_to_end()
    return driver.referee  # type: ignore[no-any-return]
