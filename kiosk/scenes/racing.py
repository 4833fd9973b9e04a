"""What every shout-race scene does with computer players.

A window opens at a frame flip (R-2): presses planned for the last table that
have not begun are dropped (``COMMITTED_MS``), and each computer seat plans its
presses for the new table with its skill, scaled by the ``[computer]`` rates.
The presses then go through the same judge as people's.
"""

from __future__ import annotations

import random
from typing import Sequence

from arcade.bots.shout import COMMITTED_MS, ShoutSkill, plan_race, scaled, skill as skill_named
from arcade.core.judge import NS_PER_MS
from arcade.core.race import RaceSpec
from kiosk.app import App
from kiosk.scenes.seats import SeatInfo


def computer_level(app: App, info: SeatInfo) -> ShoutSkill:
    """The seat's skill with the ``[computer]`` miss and false-shout rate scales applied."""
    rates = app.cfg.data.get("computer", {})
    return scaled(skill_named(info.skill), rates.get("miss_rate_scale", 1.0), rates.get("false_rate_scale", 1.0))


def plan_computer_presses(app: App, rng: random.Random, spec: RaceSpec, seats: Sequence[SeatInfo],
                          opened_ns: int) -> dict[int, list[int]]:
    """Drop stale planned presses, then plan every computer seat's presses for the race
    ``spec`` opened at ``opened_ns`` (ns).  Returns the press times per seat."""
    app.computer.drop_planned(opened_ns + COMMITTED_MS * NS_PER_MS)
    planned: dict[int, list[int]] = {}
    for seat, info in enumerate(seats):
        if not info.is_computer:
            continue
        for p in plan_race(rng, spec, seat, computer_level(app, info), involved=seat in spec.eligible):
            at = opened_ns + int(p.delay_ms * NS_PER_MS)
            app.computer.press(seat, at, p.control, p.double)
            planned.setdefault(seat, []).append(at)
    return planned
