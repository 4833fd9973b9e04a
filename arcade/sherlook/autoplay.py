"""Headless Sherlook in virtual time: computer players at every seat, no window.

The same marker race and referee as the kiosk (``arcade.sherlook.markers``),
fed with buzzer edges that computer players (``arcade.bots.sherlook``) press
at virtual times and that reach the referee a few milliseconds late, in
shuffled order, as callbacks do on a busy Pi (R-1, case B-5).  Time is
integer nanoseconds from 0, so the same seed always gives the same game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Sequence

from arcade.bots.sherlook import SherlookBot
from arcade.bots.sherlook import skill as skill_named
from arcade.core.driver import FRAME_NS, MS
from arcade.sherlook import house
from arcade.sherlook.game import SherlookState
from arcade.sherlook.markers import MarkerEvent, MarkerReferee, MarkerSettings

__all__ = ["FRAME_NS", "MS", "SherlookSimConfig", "simulate"]


@dataclass
class SherlookSimConfig:
    """Players and pacing of a headless game.

    Attributes:
        skills: one skill name per seat (``arcade.bots.sherlook.SKILLS``).
        reveal_ms: virtual time between the end of a round and the next photos.
        hold_ms: how long a buzzer press is held.
        max_delivery_ms: edges reach the referee up to this late (shuffled).
        markers: the race's timing.
        max_steps: a safety cap on loop iterations.
    """

    skills: Sequence[str]
    reveal_ms: int = house.REVEAL_MS
    hold_ms: int = 90
    max_delivery_ms: int = 8
    markers: MarkerSettings = field(default_factory=MarkerSettings)
    max_steps: int = 200_000


def simulate(state: SherlookState, rng: random.Random, config: SherlookSimConfig,
             on_event: Callable[[MarkerEvent], None] | None = None) -> MarkerReferee:
    """Play ``state`` to the end with computer players; returns the referee.

    The loop is the match driver's (:class:`arcade.core.driver.Driver`, with
    :class:`arcade.sherlook.house.MarkerRaces`).

    Raises:
        ValueError: not one skill per seat.
        KeyError: an unknown skill.
        RuntimeError: the game did not end within ``config.max_steps`` steps.
    """
    if len(config.skills) != state.seats:
        raise ValueError(f"{len(config.skills)} skills for {state.seats} seats: expected one per seat")
    players = [house.SherlookPlayer(SherlookBot(s, skill_named(name), random.Random(rng.getrandbits(64))),
                                    config.hold_ms * MS)
               for s, name in enumerate(config.skills)]
    from arcade.registry import get
    driver = house.driver(get("sherlook"), state, list(players), rng, markers=config.markers, reveal_ms=config.reveal_ms,
                          hold_ms=config.hold_ms, max_delivery_ms=config.max_delivery_ms,
                          max_steps=config.max_steps)
    driver.on_event = on_event
    driver.run_to_end()
    return driver.referee  # type: ignore[no-any-return]
