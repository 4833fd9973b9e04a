"""Computer players for Sherlook: how many differences they count, and when
they take their marker.

Pure: every draw comes from an injected ``random.Random``.  A computer player
uses the FOCUS buzzer like anyone else (SLA-1): it presses when the highlight
is on the marker it wants, a human-like reaction time after the highlight got
there, so its claim goes through the same marker race as people's.

The model:

* **Counting.** Each difference is spotted with a probability that depends on
  the skill, on the pose (mirrored, head-to-toe and turned photos are harder
  to compare: :attr:`arcade.sherlook.poses.Pose.difficulty`) and on the
  difference's size; a player may also count a difference that is not there.
* **Time.** The time to finish looking is log-normal around a median that
  grows with the number of differences and with the pose's difficulty.
* **Choice.** The counted number if its marker is free, else the nearest free
  one (below first: a yellow token is worth more than a red one).  Under its
  own countdown a player takes the best marker it can still reach.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Protocol, Sequence

from arcade.sherlook.photos import PhotoPair
from arcade.sherlook.poses import Pose
from arcade.sherlook.shapes import area

NS_PER_MS = 1_000_000


@dataclass(frozen=True)
class LookSkill:
    """A skill level.

    Attributes:
        name: its name (same names as the shout bots: easy..expert).
        find: probability of spotting an average difference, side by side.
        phantom: probability of counting one difference that is not there
            (drawn twice per round).
        base_s, per_diff_s: median time to finish looking = base + per
            difference, seconds, divided by the pose's difficulty.
        sigma: log-normal spread of that time.
        react_ms: median reaction to the highlight reaching the wanted marker.
    """

    name: str
    find: float
    phantom: float
    base_s: float
    per_diff_s: float
    sigma: float
    react_ms: float


SKILLS: dict[str, LookSkill] = {
    "easy": LookSkill("easy", 0.72, 0.22, 9.0, 1.4, 0.35, 460.0),
    "medium": LookSkill("medium", 0.82, 0.15, 7.0, 1.1, 0.30, 360.0),
    "hard": LookSkill("hard", 0.90, 0.10, 5.5, 0.9, 0.25, 300.0),
    "expert": LookSkill("expert", 0.95, 0.06, 4.5, 0.7, 0.20, 260.0),
}


def skill(name: str) -> LookSkill:
    """The skill level called ``name``.

    Raises:
        KeyError: unknown level (the message lists the known ones).
    """
    try:
        return SKILLS[name]
    except KeyError:
        raise KeyError(f"unknown skill {name!r}; expected one of {sorted(SKILLS)}") from None


@dataclass(frozen=True)
class LookPlan:
    """What a computer player makes of a round's photos.

    ``estimate`` is the number it believes (1..10); ``ready_ms`` when it has
    finished looking, after the photos were shown.
    """

    estimate: int
    ready_ms: float
    found: int
    phantoms: int


def spot_chance(level: LookSkill, pose: Pose, box_area: float) -> float:
    """Probability of spotting one difference of ``box_area`` photo units² in pose ``pose``."""
    size = min(1.08, max(0.75, 0.8 + 0.25 * math.log10(max(box_area, 1000.0) / 4000.0 + 1.0)))
    return float(max(0.05, min(0.995, level.find * pose.difficulty ** 1.5 * size)))


def plan_round(rng: random.Random, pair: PhotoPair, pose: Pose, level: LookSkill) -> LookPlan:
    """Count the differences of ``pair`` seen in pose ``pose`` at ``level``."""
    found = sum(1 for a in pair.alterations if rng.random() < spot_chance(level, pose, area(a.box)))
    phantoms = sum(1 for _ in range(2) if rng.random() < level.phantom)
    estimate = max(1, min(10, found + phantoms))
    median = (level.base_s + level.per_diff_s * pair.count) / pose.difficulty
    ready = median * math.exp(rng.gauss(0.0, level.sigma)) * 1000.0
    return LookPlan(estimate, max(1500.0, ready), found, phantoms)


def choose_marker(estimate: int, free: Sequence[int]) -> int:
    """The marker to take: ``estimate`` if free, else the nearest free one, below first."""
    if not free:
        raise ValueError("no free marker to choose")
    return min(free, key=lambda m: (abs(m - estimate), m > estimate))


class HighlightRace(Protocol):
    """What a computer player reads of the marker race (``arcade.sherlook.markers.MarkerRace``)."""

    opened_ns: int | None
    held: dict[int, int]
    countdown_seats: tuple[int, ...]

    def free(self) -> list[int]: ...
    def schedule(self, from_ns: int, until_ns: int) -> list[tuple[int, int, int]]: ...
    def deadline(self) -> int | None: ...
    def waiting(self) -> tuple[int, ...]: ...


class SherlookBot:
    """One computer player's behaviour in one game.

    Call :meth:`new_round` when a round's photos are shown, then
    :meth:`next_press` whenever the race changes: it returns the stamp (ns)
    at which the player will press its buzzer, or None.
    """

    def __init__(self, seat: int, level: LookSkill, rng: random.Random) -> None:
        self.seat = seat
        self.level = level
        self.rng = rng
        self.plan: LookPlan | None = None
        self.react_ns = 0
        self.round_key: object = None

    def new_round(self, key: object, pair: PhotoPair, pose: Pose) -> LookPlan:
        """Look at a new round's photos (``key`` tells rounds apart)."""
        self.round_key = key
        self.plan = plan_round(self.rng, pair, pose, self.level)
        self.react_ns = int(max(180.0, self.level.react_ms * math.exp(self.rng.gauss(0.0, 0.25))) * NS_PER_MS)
        return self.plan

    def target(self, race: HighlightRace) -> int | None:
        """The marker this player wants now, or None (it holds one, or is not playing)."""
        if self.plan is None or self.seat in race.held or self.seat not in race.waiting():
            return None
        free = race.free()
        return choose_marker(self.plan.estimate, free) if free else None

    def next_press(self, race: HighlightRace, now_ns: int) -> int | None:
        """When (ns) to press the buzzer for the wanted marker, from the highlight schedule.

        Presses ``react`` after the highlight reaches the marker (at most 70 %
        into its step, never in its last 80 ms, never within the race's
        ``settings.grace_ms`` of the step's start).  Under its own countdown it takes the
        best marker it can still reach.  None: nothing to press (yet known).
        """
        if self.plan is None or race.opened_ns is None:
            return None
        want = self.target(race)
        if want is None:
            return None
        ready = max(now_ns, race.opened_ns + int(self.plan.ready_ms * NS_PER_MS))
        deadline = race.deadline()
        mine = deadline is not None and self.seat in race.countdown_seats
        horizon = (deadline if mine and deadline is not None else ready + 30_000_000_000)
        if mine:
            ready = now_ns
        options = []
        free = set(race.free())
        grace = int(getattr(getattr(race, "settings", None), "grace_ms", 150.0) * NS_PER_MS)
        for start, end, marker in race.schedule(ready, horizon):
            if marker not in free:
                continue
            # people see the highlight coming (it steps in order), so even a slow
            # reaction lands inside the step; never in the grace time of the step
            # before (SLA-1), which the fast countdown steps (SLA-1) make matter
            into = max(min(self.react_ns, int((end - start) * 0.7)), grace + 20 * NS_PER_MS)
            t = max(start + into, ready)
            latest = max(end - 80 * NS_PER_MS, start + into)
            if t > latest or (mine and deadline is not None and t > deadline - 60 * NS_PER_MS):
                continue
            if not mine and marker == want:
                return t
            options.append((t, marker))
        if mine and options:
            est = self.plan.estimate
            best = min(options, key=lambda o: (abs(o[1] - est), o[1] > est, o[0]))
            return best[0]
        return None
