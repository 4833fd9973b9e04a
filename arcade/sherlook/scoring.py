"""Sherlook scoring: the red, yellow and green tokens of a round (SL-4) and
the end of the game (SL-5).

Seed 002, "Scoring a Round": closest above the number of differences takes
the red token (1 point); closest below takes the yellow token (2 points);
exact takes the green token (3 points) and also any red or yellow token that
nobody else earned.  With no exact guess the green token is discarded and the
red and yellow tokens still go to the closest guesses (SL-4).

Pure: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from arcade.core.errors import ArcadeError

GREEN_POINTS = 3
YELLOW_POINTS = 2
RED_POINTS = 1
MARKERS = tuple(range(1, 11))
"""The evidence markers 1..10 (seed 002, Components; SL-3)."""


class ScoringError(ArcadeError, ValueError):
    """Markers that cannot be scored: a marker outside 1..10 or held twice."""


@dataclass(frozen=True)
class RoundScore:
    """Who takes which token in one round (SL-4).

    Attributes:
        count: the number of differences.
        markers: seat -> marker held (seats without a marker do not score).
        green: the seat with the exact marker, or None (green discarded).
        yellow: the seat that takes the yellow token, or None.
        red: the seat that takes the red token, or None.
        points: seat -> points this round (every seat given, 0 if none).
    """

    count: int
    markers: Mapping[int, int]
    green: int | None
    yellow: int | None
    red: int | None
    points: Mapping[int, int]

    def tokens(self, seat: int) -> tuple[str, ...]:
        """The tokens ``seat`` took this round, e.g. ``("green", "red")``."""
        out = []
        for name, holder in (("green", self.green), ("yellow", self.yellow), ("red", self.red)):
            if holder == seat:
                out.append(name)
        return tuple(out)


def score_round(count: int, markers: Mapping[int, int], seats: Sequence[int] = ()) -> RoundScore:
    """Score one round (seed 002 "Scoring a Round"; SL-4).

    Args:
        count: the number of differences (1..10).
        markers: seat -> the marker it holds.  A seat whose countdown ran out
            holds none and is left out (SL-3).
        seats: every seat to list in ``points`` (default: those holding markers).

    Returns:
        The tokens and points.  Closest above = the smallest marker above
        ``count``; closest below = the largest marker below it.

    Raises:
        ScoringError: a marker outside 1..10, or one marker held by two seats.

    Example (the seed's): 7 differences, markers 4, 5, 7, 8: the 8 takes red
    (1), the 5 yellow (2), the 7 green (3).  With 6 instead of 8 nobody is
    above, so the red token goes to the exact guess (3 + 1 = 4) and the 6
    takes yellow.
    """
    held = list(markers.values())
    for seat, m in markers.items():
        if m not in MARKERS:
            raise ScoringError(f"seat {seat} holds marker {m!r}: expected one of 1..10")
    if len(set(held)) != len(held):
        raise ScoringError(f"markers {dict(markers)!r}: each marker can be held by one seat only (SL-3)")
    by_marker = {m: s for s, m in markers.items()}
    above = [m for m in held if m > count]
    below = [m for m in held if m < count]
    green = by_marker.get(count)
    red = by_marker[min(above)] if above else None
    yellow = by_marker[max(below)] if below else None
    if green is not None:
        if red is None:
            red = green
        if yellow is None:
            yellow = green
    points = {s: 0 for s in (list(seats) or list(markers))}
    for holder, value in ((green, GREEN_POINTS), (yellow, YELLOW_POINTS), (red, RED_POINTS)):
        if holder is not None:
            points[holder] = points.get(holder, 0) + value
    return RoundScore(count, dict(markers), green, yellow, red, points)


def leaders(points: Sequence[int], greens: Sequence[int], among: Sequence[int]) -> tuple[int, ...]:
    """The seats of ``among`` that lead: most points, then most green tokens (SL-5).

    Returns one seat when someone leads outright, several when they are tied
    on both (then an extra round among them decides, SL-5).
    """
    if not among:
        return ()
    best = max((points[s], greens[s]) for s in among)
    return tuple(s for s in among if (points[s], greens[s]) == best)
