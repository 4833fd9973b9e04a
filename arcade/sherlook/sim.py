"""Headless Sherlook in virtual time: computer players at every seat, no window.

The same marker race and referee as the kiosk (``arcade.sherlook.markers``),
fed with buzzer edges that computer players (``arcade.bots.sherlook``) press
at virtual times and that reach the referee a few milliseconds late, in
shuffled order, as callbacks do on a busy Pi (R-1, case B-5).  Time is
integer nanoseconds from 0, so the same seed always gives the same game.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from typing import Callable, Sequence

from arcade.bots.sherlook import SherlookBot, skill as skill_named
from arcade.core.api import CHANCE, RACE
from arcade.core.events import Edge
from arcade.sherlook.game import SherlookState
from arcade.sherlook.markers import MarkerEvent, MarkerReferee, MarkerSettings

MS = 1_000_000
FRAME_NS = 16_666_667


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
    reveal_ms: int = 6000
    hold_ms: int = 90
    max_delivery_ms: int = 8
    markers: MarkerSettings = field(default_factory=MarkerSettings)
    max_steps: int = 200_000


def simulate(state: SherlookState, rng: random.Random, config: SherlookSimConfig,
             on_event: Callable[[MarkerEvent], None] | None = None) -> MarkerReferee:
    """Play ``state`` to the end with computer players; returns the referee.

    Raises:
        RuntimeError: the game did not end within ``config.max_steps`` steps.
    """
    if len(config.skills) != state.seats:
        raise ValueError(f"{len(config.skills)} skills for {state.seats} seats: expected one per seat")
    bots = [SherlookBot(s, skill_named(name), random.Random(rng.getrandbits(64)))
            for s, name in enumerate(config.skills)]
    ref = MarkerReferee(state, config.markers, random.Random(rng.getrandbits(64)))
    t = 0
    pending: list[tuple[int, int, Edge]] = []
    counter = 0
    pressed_at: dict[int, int] = {}          # seat -> stamp of its last press (one press at a time)
    steps = 0
    while not state.is_terminal():
        steps += 1
        if steps > config.max_steps:
            raise RuntimeError(f"the game did not end within {config.max_steps} steps")
        cp = state.current_player()
        if cp == CHANCE:
            if state.round_no:
                t += config.reveal_ms * MS
            state.apply(state.chance_outcome(rng))
            continue
        assert cp == RACE
        race = ref.current()
        if race is None or race.opened_ns is None:
            t += FRAME_NS
            ref.frame_shown(t)
            race = ref.race
            assert race is not None and state.photos is not None and state.layout is not None
            for s in state.participants:
                bots[s].new_round(state.race_no, state.photos, state.layout)
            pending.clear()
            pressed_at.clear()
            continue
        if race.countdown_wanted:
            ref.frame_shown(t + FRAME_NS)
        # the next thing to happen: a delivery, a press, or the race's own clock
        times = [x for x in (ref.next_deadline(),) if x is not None]
        if pending:
            times.append(pending[0][0])
        plans = {}
        for s in race.waiting():
            p = bots[s].next_press(race, t)
            if p is not None and (s not in pressed_at or p > pressed_at[s] + (config.hold_ms + 40) * MS):
                plans[s] = p
                times.append(p)
        if not times:
            raise RuntimeError("the marker race can never end: no deadline and no presses")
        t = max(t, min(times))
        for s, p in sorted(plans.items()):
            if p <= t:
                pressed_at[s] = p
                for edge in (Edge(p, s, "buzzer", True), Edge(p + config.hold_ms * MS, s, "buzzer", False)):
                    counter += 1
                    delay = rng.randint(0, config.max_delivery_ms * MS)
                    heapq.heappush(pending, (edge.t_ns + delay, counter, edge))
        while pending and pending[0][0] <= t:
            ref.feed(heapq.heappop(pending)[2])
        for ev in ref.tick(t):
            if on_event is not None:
                on_event(ev)
    return ref
