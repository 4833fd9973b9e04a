"""What the arcade's house needs of Buzz Race (the example game): computer players,
the match driver's set-up, the LED picture, the headless line and a seat's view.

Registered for the ``buzzrace`` entry of :data:`arcade.registry.EXAMPLES` (tests and
``docs/new-game.md`` only).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Sequence, Unpack

from arcade.buzzrace.game import BuzzRaceState
from arcade.core.api import State
from arcade.core.driver import MS, ComputerPlayer, Driver, settings_from
from arcade.core.errors import SettingsError
from arcade.core.events import Edge
from arcade.core.house import DriverOptions, JsonObject

if TYPE_CHECKING:
    from arcade.lights.pictures import Picture
    from arcade.registry import GameSpec, PlayerContext

#: Per skill (``arcade.registry.SKILLS``): (mean reaction in ms, spread in ms, chance of missing a race).
REACTIONS: dict[str, tuple[float, float, float]] = {
    "easy": (620.0, 160.0, 0.15),
    "medium": (460.0, 110.0, 0.08),
    "hard": (340.0, 70.0, 0.04),
    "expert": (250.0, 40.0, 0.02),
}
#: How long a computer holds its buzzer down (ns).
HOLD_NS = 90 * MS
#: A race nobody presses in is closed this long after it opened (ns): the driver's pace.
PACE_NS = 3000 * MS


class BuzzerPlayer(ComputerPlayer):
    """A computer seat: presses once per race, a reaction time after GO.

    Args:
        skill: one of :data:`REACTIONS`.
        rng: its own generator (reaction times, misses).

    Raises:
        SettingsError: an unknown skill.
    """

    def __init__(self, skill: str, rng: random.Random) -> None:
        if skill not in REACTIONS:
            raise SettingsError("skill", skill, f"one of {sorted(REACTIONS)}")
        self.skill = skill
        self.rng = rng

    def race_opened(self, state: State, seat: int, race: object, opened_ns: int,
                    rng: random.Random) -> list[Edge]:
        """The press (two edges, stamped in ns) for the race opened at ``opened_ns``; none when it misses."""
        mean, spread, miss = REACTIONS[self.skill]
        if self.rng.random() < miss:
            return []
        t = opened_ns + int(max(120.0, self.rng.gauss(mean, spread)) * MS)
        return [Edge(t, seat, "buzzer", True, "computer"), Edge(t + HOLD_NS, seat, "buzzer", False, "computer")]


def computer_player(spec: GameSpec, state: BuzzRaceState, seat: int, skill: str,
                    ctx: PlayerContext) -> BuzzerPlayer:
    """The registry's factory: draws the player's generator from ``ctx.rng`` (call in seat order).

    Raises:
        SettingsError: an unknown skill.
    """
    return BuzzerPlayer(skill, random.Random(ctx.rng.getrandbits(64)))


def driver(spec: GameSpec, state: BuzzRaceState, players: Sequence[ComputerPlayer | None], rng: random.Random,
           **options: Unpack[DriverOptions]) -> Driver:
    """The driver for a Buzz Race match: the default race adapter (the shout referee), a race
    nobody presses in closed ``pace_ns`` (default :data:`PACE_NS`) after it opened.  ``options``
    are :class:`~arcade.core.driver.DriverSettings` fields; other families' are ignored."""
    return Driver(state, players, rng, settings_from(options, pace_ns=PACE_NS, max_steps=20_000))


def led_picture(state: BuzzRaceState, width: int = 16, height: int = 16) -> Picture:
    """The rounds won per seat (``arcade.lights.pictures.scores_picture``)."""
    from arcade.lights.pictures import scores_picture
    return scores_picture(list(state.wins), width, height)


def summary(spec: GameSpec, state: BuzzRaceState, seed: int, index: int, skills: list[str]) -> JsonObject:
    """The headless JSON line: seats numbered from 1, ``wins`` per seat, ``races`` played."""
    out = state.outcome()
    assert out is not None
    return {"game": spec.name, "seed": seed, "index": index, "players": state.seats,
            "winners": [w + 1 for w in out.winners], "reason": out.reason,
            "wins": list(state.wins), "races": len(state.rounds)}


def view(state: BuzzRaceState, seat: int) -> JsonObject:
    """Buzz Race has no secrets: a seat sees the whole state."""
    return state.snapshot()
