"""The green tokens' poses: how the two photos of a round lie on the table (SL-2).

Each of the ten green tokens shows a *pose*: the arrangement of the two
photos (side by side, or one above the other) and how each photo is turned
or mirrored.  One token per round, shuffled (the game draws them as chance
outcomes).  Differences are always compared in each photo's own frame: a
mirrored or turned photo is still the same scene, so :func:`map_point` and
:func:`map_box` carry a point or box of the photo's frame to where the turned
photo shows it (for the reveal's circles).

Pure: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from arcade.core.errors import ArcadeError
from arcade.i18n import N_
from arcade.sherlook.shapes import PHOTO_H, PHOTO_W, Box, Point

TRANSFORMS = ("none", "rot180", "rot90", "rot270", "flip_x", "flip_y")
"""How one photo may lie: as printed, turned 180 degrees (head to toe), a quarter
turn clockwise / anticlockwise, mirrored left-right, mirrored top-bottom."""


class PoseKeyError(ArcadeError, KeyError):
    """An unknown pose key or transform."""


@dataclass(frozen=True)
class Pose:
    """One green token's pose (SL-2).

    Attributes:
        key: short id used in records (``"side-180"``).
        name: what the screen says ("Side by side, head to toe"), in English: translated
            where it is shown (``arcade.i18n``).
        arrangement: ``"side"`` (left and right) or ``"stack"`` (one above
            the other).
        transforms: how photo 0 and photo 1 lie (see :data:`TRANSFORMS`).
        difficulty: how much harder than plain side by side it is to compare
            (1.0 = as easy; lower = harder), used by the computer players.
    """

    key: str
    name: str
    arrangement: str
    transforms: tuple[str, str]
    difficulty: float


POSES: tuple[Pose, ...] = (
    Pose("side", N_("Side by side"), "side", ("none", "none"), 1.0),
    Pose("side-180", N_("Side by side, head to toe"), "side", ("none", "rot180"), 0.80),
    Pose("stack", N_("One above the other"), "stack", ("none", "none"), 0.96),
    Pose("stack-180", N_("One above the other, head to toe"), "stack", ("none", "rot180"), 0.80),
    Pose("side-mirror", N_("Side by side, one mirrored"), "side", ("none", "flip_x"), 0.82),
    Pose("stack-water", N_("Reflected as in water"), "stack", ("none", "flip_y"), 0.82),
    Pose("side-quarter", N_("Side by side, one turned a quarter"), "side", ("none", "rot90"), 0.78),
    Pose("side-quarter-back", N_("Side by side, one turned back a quarter"), "side", ("rot270", "none"), 0.78),
    Pose("stack-mirror", N_("One above the other, one mirrored"), "stack", ("none", "flip_x"), 0.84),
    Pose("side-upside-down", N_("Side by side, one upside-down mirrored"), "side", ("none", "flip_y"), 0.80),
)
"""The ten green tokens (one per round of the 10-round game, SL-5)."""

KEYS = tuple(p.key for p in POSES)


def pose(key: str) -> Pose:
    """The pose with ``key`` (one of :data:`KEYS`, e.g. ``"side-180"``).

    Raises:
        PoseKeyError: unknown key (the message lists the keys).
    """
    for p in POSES:
        if p.key == key:
            return p
    raise PoseKeyError(f"unknown pose {key!r}; expected one of {list(KEYS)}")


def frame_size(transform: str) -> tuple[int, int]:
    """Width and height (photo units) of a photo lying as ``transform`` says."""
    if transform in ("rot90", "rot270"):
        return PHOTO_H, PHOTO_W
    if transform not in TRANSFORMS:
        raise PoseKeyError(f"unknown transform {transform!r}; expected one of {list(TRANSFORMS)}")
    return PHOTO_W, PHOTO_H


def map_point(p: Point, transform: str) -> Point:
    """A point of the photo's own frame -> where the turned photo shows it (photo units).

    ``rot90`` is a quarter turn clockwise: the top-left corner goes to the top right.

    Raises:
        PoseKeyError: unknown transform.
    """
    x, y = p
    if transform == "none":
        return (x, y)
    if transform == "rot180":
        return (PHOTO_W - x, PHOTO_H - y)
    if transform == "rot90":
        return (PHOTO_H - y, x)
    if transform == "rot270":
        return (y, PHOTO_W - x)
    if transform == "flip_x":
        return (PHOTO_W - x, y)
    if transform == "flip_y":
        return (x, PHOTO_H - y)
    raise PoseKeyError(f"unknown transform {transform!r}; expected one of {list(TRANSFORMS)}")


def map_box(box: Box, transform: str) -> Box:
    """A box of the photo's own frame -> the box the turned photo shows it in."""
    a = map_point((box[0], box[1]), transform)
    b = map_point((box[2], box[3]), transform)
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
