"""The seats a FocusX screen moves for, and its computer players' presses.

A computer seat presses in every race as ``arcade/bots/shout.py`` plans it (the same judge
as people's presses: each press reaches the app's planned presses, the demo's simulated
pins), with its skill scaled by the ``[computer]`` rates.  A seat the arcade moves for (a
computer, or a person's station without choose controls where the mode needs a choice) is
an :class:`ArcadeSeat`: its move may be worked out in the thinking process.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable, Protocol

from arcade.bots.shout import COMMITTED_MS, ShoutSkill, plan_race, scaled
from arcade.bots.shout import skill as skill_named
from arcade.core.api import Action, State
from arcade.core.driver import Thought
from arcade.core.judge import NS_PER_MS
from arcade.core.race import RaceSpec
from kiosk.scenes.game import KioskSeat
from kiosk.scenes.seats import SeatInfo

if TYPE_CHECKING:
    from kiosk.scene import Host


def computer_level(app: Host, info: SeatInfo) -> ShoutSkill:
    """The seat's skill with the ``[computer]`` miss and false-shout rate scales applied."""
    rates = app.cfg.data.get("computer", {})
    return scaled(skill_named(info.skill), rates.get("miss_rate_scale", 1.0), rates.get("false_rate_scale", 1.0))


class PressPlanner:
    """Plans the computer seats' presses of each race on the app's planned presses.

    Attributes:
        dropped_at: the opening (ns) whose stale planned presses were dropped last, or None.
    """

    def __init__(self, app: Host) -> None:
        self.app = app
        self.dropped_at: int | None = None

    def plan(self, rng: random.Random, seat: int, info: SeatInfo, spec: RaceSpec, opened_ns: int) -> list[int]:
        """One computer seat's presses for the race ``spec`` opened at ``opened_ns`` (the
        first call of an opening drops the stale planned presses, ``COMMITTED_MS``), drawn
        from ``rng``.  Returns the press times (ns)."""
        if self.dropped_at != opened_ns:
            self.dropped_at = opened_ns
            self.app.computer.drop_planned(opened_ns + COMMITTED_MS * NS_PER_MS)
        out = []
        for p in plan_race(rng, spec, seat, computer_level(self.app, info), involved=seat in spec.eligible):
            at = opened_ns + int(p.delay_ms * NS_PER_MS)
            self.app.computer.press(seat, at, p.control, p.double)
            out.append(at)
        return out


class MovesFor(Protocol):
    """What an :class:`ArcadeSeat` asks of its scene."""

    def arcade_choice(self, state: State, seat: int) -> Action: ...

    def think_for(self, seat: int) -> int: ...

    def arcade_thought(self, state: State, seat: int) -> Thought | None: ...


class ArcadeSeat(KioskSeat):
    """A seat the arcade moves for (:class:`kiosk.scenes.game.KioskSeat`) whose move may be
    worked out in the thinking process (the scene's ``arcade_thought``)."""

    def __init__(self, scene: MovesFor, seat: int, presses: Callable[[int, object, int], None] | None) -> None:
        super().__init__(seat, scene.arcade_choice, scene.think_for, presses)
        self.scene = scene

    def begin(self, state: State, seat: int, rng: random.Random) -> Thought | None:
        return self.scene.arcade_thought(state, seat)
