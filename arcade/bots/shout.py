"""Computer players for shout races: when, and whether, a seat presses.

Pure: a plan is drawn from an injected ``random.Random``.  The kiosk turns a
plan into stamped edges (directly, or through simulated GPIO pins in the demo),
so computer players' presses go through the same judge as people's.

Reaction times follow a log-normal law, the usual shape of human choice
reaction times: a median per skill level and a spread.  Each level also
misses some foci, sometimes shouts when there is none, and sometimes claims
the wrong kind under the FocusX rule.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from arcade.core.race import FOCUS, FOCUS_EX, RaceSpec

#: A press planned this close (ms) to the moment the table changes still happens: a
#: person already moving cannot stop it.  Later planned presses are dropped, since
#: they were meant for a table that is gone.  Used by the kiosk and by arcade.focusx.autoplay.
COMMITTED_MS = 100


@dataclass(frozen=True)
class ShoutSkill:
    """A skill level.

    Attributes:
        name: the level's name.
        median_ms: median reaction time to a focus, ms.
        sigma: log-normal spread (0.25 = a typical person).
        miss_rate: probability of not seeing a focus in a window.
        false_rate: probability of a false shout in a window with no focus.
        wrong_kind_rate: probability of claiming the wrong kind (FX-3).
        out_of_turn_rate: probability of pressing, out of turn, at a focus
            the seat may not claim where such a press has an effect (4Focus,
            FX-11: it hands the active player a claim window).
    """

    name: str
    median_ms: float
    sigma: float
    miss_rate: float
    false_rate: float
    wrong_kind_rate: float
    out_of_turn_rate: float = 0.0


SKILLS: dict[str, ShoutSkill] = {
    "easy": ShoutSkill("easy", 1500.0, 0.35, 0.30, 0.05, 0.15, 0.20),
    "medium": ShoutSkill("medium", 1000.0, 0.30, 0.15, 0.025, 0.07, 0.10),
    "hard": ShoutSkill("hard", 700.0, 0.25, 0.06, 0.01, 0.03, 0.04),
    "expert": ShoutSkill("expert", 480.0, 0.20, 0.02, 0.004, 0.01, 0.01),
}


@dataclass(frozen=True)
class PlannedPress:
    """One press a computer player will make: ``delay_ms`` after the opening.

    ``control`` is "buzzer" or "x"; ``double`` asks for a second buzzer press
    (the FX-3 double-press claim for a station without an X control).
    """

    seat: int
    delay_ms: float
    control: str = "buzzer"
    double: bool = False


def skill(name: str) -> ShoutSkill:
    """The skill level called ``name``.

    Raises:
        KeyError: unknown level (the message lists the known ones).
    """
    try:
        return SKILLS[name]
    except KeyError:
        raise KeyError(f"unknown skill {name!r}; expected one of {sorted(SKILLS)}") from None


def scaled(level: ShoutSkill, miss_rate_scale: float = 1.0, false_rate_scale: float = 1.0) -> ShoutSkill:
    """``level`` with its miss rate and its false-shout rates multiplied (issue #3: rates configurable).

    ``false_rate_scale`` scales ``false_rate``, ``wrong_kind_rate`` and
    ``out_of_turn_rate`` (every press that is not a right claim).  Rates are
    clipped to 0..1.  The kiosk reads the scales from ``[computer]``, the
    headless runner from ``--miss-rate-scale`` / ``--false-rate-scale``.

    Raises:
        ValueError: a negative scale.
    """
    if miss_rate_scale < 0 or false_rate_scale < 0:
        raise ValueError(f"rate scales must be 0 or more, not {miss_rate_scale!r} / {false_rate_scale!r}")
    if miss_rate_scale == 1.0 and false_rate_scale == 1.0:
        return level

    def clip(x: float) -> float:
        return max(0.0, min(1.0, x))

    return replace(level, miss_rate=clip(level.miss_rate * miss_rate_scale),
                   false_rate=clip(level.false_rate * false_rate_scale),
                   wrong_kind_rate=clip(level.wrong_kind_rate * false_rate_scale),
                   out_of_turn_rate=clip(level.out_of_turn_rate * false_rate_scale))


def masher_plan(rng: random.Random, spec: RaceSpec, seat: int, delay_ms: float = 160.0) -> list[PlannedPress]:
    """A button-masher's plan: one buzzer press ``delay_ms`` (plus up to 40 ms) after
    every window opens, whatever the table shows.

    Not a computer player the arcade offers: the tests and benchmarks use it to
    check that mashing does not pay (FX-10's penalty presses, FXA-37's lock-out).
    """
    return [PlannedPress(seat, delay_ms + rng.uniform(0.0, 40.0))]


def reaction_ms(rng: random.Random, level: ShoutSkill, extra_ms: float = 0.0) -> float:
    """A reaction time in ms: log-normal around the level's median, never under 150 ms."""
    return max(150.0, level.median_ms * math.exp(rng.gauss(0.0, level.sigma)) + extra_ms)


def plan_race(rng: random.Random, spec: RaceSpec, seat: int, level: ShoutSkill,
              has_x_control: bool = False, involved: bool = True) -> list[PlannedPress]:
    """What ``seat`` will press in the race ``spec`` describes.

    Args:
        rng: the injected random generator.
        spec: the race (valid kinds empty: no focus showing).
        seat: the computer player's seat.
        level: its skill.
        has_x_control: its station has an X control (else double press, FX-3).
        involved: for ``"last"`` races, whether the seat owns a focus card
            (default: whether it is eligible; Duel owners, FX-10).

    ``"first"`` and ``"window"`` races judge each seat against its own kinds
    (``spec.kinds_for(seat)``, FX-9).  A seat that is not eligible stays
    quiet, except where ``penalise_ineligible`` makes an out-of-turn press
    count and a focus is showing: then it presses with the level's
    ``out_of_turn_rate`` (4Focus, FX-11).  A seat in ``spec.exempt`` stays
    quiet (its presses would be ignored).

    Returns:
        Zero, one (or, for a double press, one flagged) planned presses.
    """
    x_control = "x" if has_x_control else "buzzer"
    if seat in spec.exempt:
        return []          # a waiting focus owner (FXA-24) or a locked-out seat (FXA-37)
    if spec.mode == "last":
        owner = involved and seat in spec.eligible
        if owner:
            kind = next(iter(sorted(spec.valid_kinds)), FOCUS)
            extra = 250.0 if kind == FOCUS_EX else 0.0
            return [_press(seat, reaction_ms(rng, level, extra), kind, x_control)]
        if rng.random() < level.false_rate:
            return [PlannedPress(seat, rng.uniform(300.0, 2500.0))]
        return []
    if seat not in spec.eligible:
        if spec.penalise_ineligible and spec.valid_kinds and rng.random() < level.out_of_turn_rate:
            return [PlannedPress(seat, reaction_ms(rng, level))]
        return []
    kinds = spec.kinds_for(seat)
    if not kinds:
        if rng.random() < level.false_rate:
            wrong = FOCUS_EX if spec.x_rule and rng.random() < 0.3 else FOCUS
            return [_press(seat, rng.uniform(400.0, 3000.0), wrong, x_control)]
        return []
    if rng.random() < level.miss_rate:
        return []
    kind = FOCUS if FOCUS in kinds else FOCUS_EX
    extra = 250.0 if kind == FOCUS_EX else 0.0     # a FocusX takes longer to see
    if spec.x_rule and rng.random() < level.wrong_kind_rate:
        kind = FOCUS_EX if kind == FOCUS else FOCUS
    return [_press(seat, reaction_ms(rng, level, extra), kind, x_control)]


def _press(seat: int, delay: float, kind: str, x_control: str) -> PlannedPress:
    if kind == FOCUS_EX:
        return PlannedPress(seat, delay, x_control, double=x_control == "buzzer")
    return PlannedPress(seat, delay)
