"""Headless play in virtual time: computer players at every seat, no window.

The same referee and judge as the kiosk, fed with edges that computer players
"press" at virtual times, so a headless game exercises the real rules.  Time is
virtual (integer ns from 0), so the same seed always gives the same game.
"""

from __future__ import annotations

import heapq
import importlib
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from arcade.bots.shout import COMMITTED_MS, PlannedPress, ShoutSkill, plan_race, scaled, skill as skill_named
from arcade.core.api import CHANCE, RACE, Action, State
from arcade.core.events import Edge
from arcade.core.judge import JudgeSettings
from arcade.core.race import RaceSpec
from arcade.core.referee import Referee

MS = 1_000_000
FRAME_NS = 16_666_667


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

#: Computer players' placement choice per game (record name -> "module:function"
#: taking ``(state, seat, rng, skill_name)`` and returning an action).  Games
#: not listed use :func:`first_legal`.
BOT_POLICIES: dict[str, str] = {
    "focusx-thinkfocus": "arcade.bots.focusx_place:choose_action",
    "focusx-4focus": "arcade.bots.focusx_place:choose_action",
}


def first_legal(state: State, seat: int, rng: random.Random) -> Action:
    """A seat policy: the first legal action (e.g. FX-4's default spot)."""
    default = getattr(state, "default_action", None)
    if callable(default):
        return default()  # type: ignore[no-any-return]
    return state.legal_actions(seat)[0]


def computer_policy(skills: Sequence[str]) -> SeatPolicy:
    """The seat policy of computer players with these skill levels (one a seat).

    Uses the game's entry in :data:`BOT_POLICIES` (placement choice for
    ThinkFocus and 4Focus, FX-9 / FX-11), else :func:`first_legal`.
    """
    cache: dict[str, Callable[..., Action] | None] = {}

    def policy(state: State, seat: int, rng: random.Random) -> Action:
        name = state.game.name
        if name not in cache:
            path = BOT_POLICIES.get(name)
            if path is None:
                cache[name] = None
            else:
                module, func = path.split(":")
                cache[name] = getattr(importlib.import_module(module), func)
        chooser = cache[name]
        if chooser is None:
            return first_legal(state, seat, rng)
        level = skills[seat] if seat < len(skills) else "medium"
        return chooser(state, seat, rng, level)

    return policy


def simulate(state: State, rng: random.Random, config: SimConfig,
             policy: SeatPolicy | None = None,
             on_event: Callable[[Any], None] | None = None) -> Referee:
    """Play ``state`` to the end with computer players; returns the referee.

    ``policy`` chooses the seats' actions (default: :func:`computer_policy`
    for ``config.skills``).  Races with their own window (``window_ms``:
    ThinkFocus and 4Focus claim windows, forgotten-focus and turn-start
    windows) close themselves, and so do ``"last"`` races among owners (Duel,
    at their deadline); the others are closed ``pace_ms`` after they open.

    Raises:
        RuntimeError: the game did not end within ``config.max_steps`` actions.
    """
    if policy is None:
        policy = computer_policy(config.skills)
    levels: list[ShoutSkill] = [scaled(skill_named(s), config.miss_rate_scale, config.false_rate_scale)
                                for s in config.skills]
    # identical stamps are ordered by a draw of its own, seeded from the game's generator.
    ref = Referee(state, config.judge, random.Random(rng.getrandbits(64)))
    t = 0
    pending: list[tuple[int, int, Edge]] = []     # (delivery time, tiebreak, edge)
    counter = 0
    steps = 0
    while not state.is_terminal():
        steps += 1
        if steps > config.max_steps:
            raise RuntimeError(f"the game did not end within {config.max_steps} steps")
        cp = state.current_player()
        if cp == CHANCE:
            ref.apply(state.chance_outcome(rng))
            continue
        if cp >= 0:
            t += config.think_ms * MS
            ref.apply(policy(state, cp, rng), cp)
            continue
        assert cp == RACE
        w = ref.window
        assert w is not None
        if w.opened_ns is None:
            t += FRAME_NS
            ref.frame_shown(t)
            if w.spec.window_ms is None and not (w.spec.mode == "last" and w.spec.eligible):
                # A "last" race among owners (Duel) ends at its own deadline (FX-10).
                ref.request_close(t + config.pace_ms * MS)
            # Presses planned for an earlier table that have not started yet are dropped
            # unless they were already under way (within COMMITTED_MS).
            pending = [p for p in pending if p[2].t_ns <= t + COMMITTED_MS * MS or not p[2].pressed]
            heapq.heapify(pending)
            for seat in range(state.seats):
                planner = config.plans.get(seat)
                plans = planner(rng, w.spec, seat) if planner is not None else \
                    plan_race(rng, w.spec, seat, levels[seat], config.has_x_control)
                for plan in plans:
                    for edge in _edges(plan, t, config.hold_ms):
                        counter += 1
                        delay = rng.randint(0, config.max_delivery_ms * MS)
                        heapq.heappush(pending, (edge.t_ns + delay, counter, edge))
        deadline = ref.next_deadline()
        nxt = pending[0][0] if pending else None
        candidates = [x for x in (deadline, nxt) if x is not None]
        if not candidates:
            raise RuntimeError("the race can never end: no deadline and no presses")
        t = max(t, min(candidates))
        while pending and pending[0][0] <= t:
            ref.feed(heapq.heappop(pending)[2])
        for ev in ref.tick(t):
            if on_event is not None:
                on_event(ev)
    return ref


def _edges(plan: PlannedPress, opened: int, hold_ms: int) -> list[Edge]:
    t = opened + int(plan.delay_ms * MS)
    out = [Edge(t, plan.seat, plan.control, True), Edge(t + hold_ms * MS, plan.seat, plan.control, False)]
    if plan.double:
        t2 = t + (hold_ms + 60) * MS
        out += [Edge(t2, plan.seat, plan.control, True), Edge(t2 + hold_ms * MS, plan.seat, plan.control, False)]
    return out
