"""Photo pairs with a known number of differences (SL-1).

A round's two photos are one base scene (``arcade.sherlook.themes``) with
alterations.  Each photo carries 0 to 5 alterations of its own (an object
recoloured, removed, added, moved, reshaped, resized or turned), never on the
same object as the other photo's, so the pair's difference count is the sum
of the two, 1 to 10.  The answer is known by construction, and every pair is
checked before it is used (:func:`arcade.sherlook.raster.check_pair`): each
alteration is visible (minimum area, minimum colour distance), no two
overlap, and nothing differs anywhere else.

``generate_pair(seed)`` always gives the same pair for the same seed.

Pure: standard library only; randomness comes from ``random.Random`` seeded
with the round's recorded scene seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from functools import cached_property

from arcade.core.errors import ArcadeError
from arcade.sherlook.raster import CheckLimits, check_pair, fine_area, rasterise, strong_area, window_of
from arcade.sherlook.shapes import PHOTO_H, PHOTO_W, Box, Shape, clip, gap, grow, union
from arcade.sherlook.themes import THEMES, Spot, build, contrasting, grounds_of
from arcade.sherlook.things import BRIGHT, KINDS, Thing, colour_distance, luma

MIN_DIFFERENCES = 1
MAX_DIFFERENCES = 10
MAX_PER_PHOTO = 5
BOX_MARGIN = 6.0
"""Photo units added around an altered thing's drawing to make its box."""

VISIBLE_MARGIN = 1.4
"""A candidate alteration must change this many times the minimum area, so
that any sampling of the check (and the full-resolution rendering) finds it."""

VISIBLE_PHASES = (0.5, 0.25)
"""Sample points (inside each cell) at which a candidate's area is measured."""
SURE_MARGIN = 4.0
"""A candidate found to change this many times the minimum area at the first
sample points is not measured again."""

WEIGHTS = {"recoloured": 1.0, "removed": 0.8, "added": 1.0, "moved": 1.0, "reshaped": 1.0,
           "resized": 1.0, "turned": 0.9}
"""How often each kind of alteration is chosen (SL-1 lists all seven)."""
PERSIST = 8
"""Tries of one kind of alteration (on different things) before another kind is drawn."""


class GeneratorError(ArcadeError, RuntimeError):
    """No valid pair could be made for a seed (should never happen; the message says why)."""


@dataclass(frozen=True)
class Alteration:
    """One difference between the photos, carried by one photo (SL-1).

    Attributes:
        photo: the photo that carries it (0 or 1); the other shows the base.
        change: one of :data:`~arcade.sherlook.things.ALTERATIONS`.
        uid: the altered (or added) thing's uid.
        before: the thing in the base scene (None when added).
        after: the thing in the altered photo (None when removed).
        box: where the photos differ because of it, photo units, in the
            photos' own frame.
    """

    photo: int
    change: str
    uid: int
    before: Thing | None
    after: Thing | None
    box: Box

    @property
    def label(self) -> str:
        thing = self.before or self.after
        assert thing is not None
        return KINDS[thing.kind].label

    def describe(self) -> str:
        """In words, e.g. ``"the clock is turned (photo 2)"``."""
        return f"the {self.label} is {self.change} (photo {self.photo + 1})"


@dataclass(frozen=True)
class PhotoPair:
    """The two photos of a round.

    Attributes:
        seed: the scene seed it was generated from.
        theme: the theme's name.
        base: the base scene's things.
        alterations: the differences, in reveal order (top to bottom, then
            left to right); the reveal numbers them 1..count.
        rejected: how many candidate pairs the check refused before this one
            (for the benchmark; normally 0).
    """

    seed: int
    theme: str
    base: tuple[Thing, ...]
    alterations: tuple[Alteration, ...]
    rejected: int = 0

    @property
    def count(self) -> int:
        """The number of differences (SL-1: 1..10)."""
        return len(self.alterations)

    def per_photo(self) -> tuple[int, int]:
        """How many alterations each photo carries (each 0..5)."""
        n0 = sum(1 for a in self.alterations if a.photo == 0)
        return n0, self.count - n0

    def things(self, photo: int) -> tuple[Thing, ...]:
        """Photo ``photo``'s things in draw order."""
        return self._things[photo]

    def shapes(self, photo: int) -> tuple[Shape, ...]:
        """Photo ``photo``'s shapes in draw order (photo units, own frame)."""
        return self._shapes[photo]

    @cached_property
    def _things(self) -> tuple[tuple[Thing, ...], tuple[Thing, ...]]:
        out = []
        for photo in (0, 1):
            mine = {a.uid: a for a in self.alterations if a.photo == photo}
            things = []
            for t in self.base:
                alt = mine.get(t.uid)
                if alt is None:
                    things.append(t)
                elif alt.after is not None:
                    things.append(alt.after)
            things.extend(a.after for a in mine.values() if a.change == "added" and a.after is not None)
            things.sort(key=lambda t: (t.layer, t.uid))
            out.append(tuple(things))
        return out[0], out[1]

    @cached_property
    def _shapes(self) -> tuple[tuple[Shape, ...], tuple[Shape, ...]]:
        return (tuple(s for t in self._things[0] for s in t.shapes()),
                tuple(s for t in self._things[1] for s in t.shapes()))


def _fits(t: Thing, others: list[Thing], skip: set[int], margin: float) -> bool:
    b = t.rough_box()
    if b[0] < 4 or b[1] < 4 or b[2] > PHOTO_W - 4 or b[3] > PHOTO_H - 4:
        return False
    return all(gap(b, o.box()) >= margin for o in others if o.uid not in skip)


class _Chooser:
    """Draws alterations one by one and keeps those that are valid and apart."""

    def __init__(self, base: list[Thing], spots: list[Spot], rng: random.Random, lim: CheckLimits) -> None:
        self.base = base
        self.spots = spots
        self.rng = rng
        self.lim = lim
        self.items = [t for t in base if t.role == "item"]
        self.solid = [t for t in base if t.role != "backdrop"]
        self.ordered = sorted(base, key=lambda t: (t.layer, t.uid))
        self.chosen: list[tuple[str, int, Thing | None, Thing | None, Box]] = []
        self.used: set[int] = set()
        self.next_uid = max(t.uid for t in base) + 1

    def run(self, n: int) -> list[tuple[str, int, Thing | None, Thing | None, Box]] | None:
        kinds = list(WEIGHTS)
        weights = [WEIGHTS[k] for k in kinds]
        for _ in range(12 * n):
            if len(self.chosen) >= n:
                break
            change = self.rng.choices(kinds, weights)[0]
            # the chosen kind gets several tries, so that kinds that fit less often
            # (moving, adding) still come up about as often as their weight says
            for _ in range(PERSIST):
                cand = self._added() if change == "added" else self._change(change)
                if cand is None:
                    continue
                box = cand[4]
                if any(gap(box, c[4]) < self.lim.min_gap for c in self.chosen):
                    continue
                if self._looks_like_a_move(cand):
                    continue
                if not self._visible(cand):
                    continue
                self.chosen.append(cand)
                self.used.add(cand[1])
                if change == "added":
                    self.next_uid += 1
                break
        return self.chosen if len(self.chosen) == n else None

    def _looks_like_a_move(self, cand: tuple[str, int, Thing | None, Thing | None, Box]) -> bool:
        """An added thing and a removed or moved thing of the same kind would read as one
        difference (a thing moved), not two: such a pair of alterations is never made."""
        def kind_of(c: tuple[str, int, Thing | None, Thing | None, Box]) -> str:
            t = c[2] or c[3]
            assert t is not None
            return t.kind
        k = kind_of(cand)
        if cand[0] == "added":
            return any(c[0] in ("removed", "moved") and kind_of(c) == k for c in self.chosen)
        if cand[0] in ("removed", "moved"):
            return any(c[0] == "added" and kind_of(c) == k for c in self.chosen)
        return False

    # -- candidates ---------------------------------------------------------------
    def _change(self, change: str) -> tuple[str, int, Thing | None, Thing | None, Box] | None:
        pool = [t for t in self.base if t.role != "backdrop" and t.uid not in self.used
                and change in KINDS[t.kind].alters]
        if not pool:
            return None
        t = self.rng.choice(pool)
        if t.role == "support" and self.rng.random() < 0.7:
            return None            # big things block many others: rarely altered
        rng = self.rng
        after: Thing | None
        if change == "removed":
            after = None
        elif change == "recoloured":
            old = t.colours[0]
            options = []
            for choice in (KINDS[t.kind].palette, BRIGHT):     # the kind's own colours first
                options = [c for c in contrasting(choice, grounds_of(self.base, t.box()))
                           if colour_distance(c, old) >= 110 and abs(luma(c) - luma(old)) >= 40]
                if options:
                    break
            if not options:
                return None
            after = replace(t, colours=(rng.choice(options),) + t.colours[1:])
        elif change == "reshaped":
            v = rng.choice([k for k in range(KINDS[t.kind].variants) if k != t.variant])
            after = replace(t, variant=v)
        elif change == "resized":
            after = replace(t, scale=t.scale * rng.choice((0.62, 0.68, 1.38, 1.48)))
        elif change == "turned":
            if KINDS[t.kind].turn == "mirror":
                after = replace(t, mirror=not t.mirror)
            else:
                lo, hi = (70.0, 150.0) if t.kind in ("clock", "watch") else (24.0, 40.0)
                after = replace(t, angle=t.angle + rng.choice((-1, 1)) * rng.uniform(lo, hi))
        elif change == "moved":
            after = self._moved(t)
        else:
            return None
        if after is None and change != "removed":
            return None
        if change in ("resized", "turned", "moved") and after is not None:
            if not _fits(after, self.items, {t.uid}, 6.0):
                return None
        box = t.box() if after is None else union([t.box(), after.box()])
        return (change, t.uid, t, after, clip(grow(box, BOX_MARGIN)))

    def _moved(self, t: Thing) -> Thing | None:
        x0, y0, x1, y1 = t.lane
        if x1 - x0 < 1 and y1 - y0 < 1:
            return None
        b = t.box()
        w = b[2] - b[0]
        for _ in range(8):
            if y1 - y0 < 1:
                d = self.rng.uniform(max(45.0, 0.6 * w), max(100.0, 1.3 * w))
                nx, ny = t.x + self.rng.choice((-1, 1)) * d, t.y
            else:
                # a short way in any direction: far enough to see, near enough to circle as one
                d = self.rng.uniform(max(60.0, 0.6 * w), max(140.0, 1.3 * w))
                a = self.rng.uniform(0, 2 * math.pi)
                nx, ny = t.x + d * math.cos(a), min(y1, max(y0, t.y + d * math.sin(a)))
                if abs(nx - t.x) + abs(ny - t.y) < max(60.0, 0.6 * w):
                    continue
            if x0 <= nx <= x1 and y0 <= ny <= y1:
                moved = replace(t, x=nx, y=ny)
                if _fits(moved, self.items, {t.uid}, 6.0):
                    return moved
        return None

    def _added(self) -> tuple[str, int, Thing | None, Thing | None, Box] | None:
        if not self.spots:
            return None
        rng = self.rng
        spot = rng.choice(self.spots)
        name = rng.choice(spot.kinds)
        k = KINDS[name]
        for _ in range(8):
            t = Thing(uid=self.next_uid, kind=name, x=rng.uniform(spot.lane[0], spot.lane[2]),
                      y=rng.uniform(spot.lane[1], spot.lane[3]), scale=rng.uniform(*spot.scale),
                      angle=rng.uniform(-spot.tilt, spot.tilt) if spot.tilt else 0.0,
                      mirror=rng.random() < 0.5 if k.turn == "mirror" else False,
                      colours=(k.palette[0],), variant=rng.randrange(k.variants),
                      layer=spot.layer, lane=spot.lane)
            main = rng.choice(contrasting(k.palette, grounds_of(self.base, t.rough_box())))
            acc = rng.sample([c for c in BRIGHT if c != main], 2)
            t = replace(t, colours=(main, acc[0], acc[1]))
            if _fits(t, self.solid, set(spot.over), 10.0):
                return ("added", t.uid, None, t, clip(grow(t.box(), BOX_MARGIN)))
        return None

    def _visible(self, cand: tuple[str, int, Thing | None, Thing | None, Box]) -> bool:
        """The candidate changes enough, strongly enough, on the coarse grid."""
        change, uid, before, after, box = cand
        lim = self.lim
        near = [t for t in self.ordered if gap(t.box(), box) < 0 and t.uid != uid]
        before_l = near + ([before] if before is not None else [])
        after_l = near + ([after] if after is not None else [])
        before_l.sort(key=lambda t: (t.layer, t.uid))
        after_l.sort(key=lambda t: (t.layer, t.uid))
        sa = [s for t in before_l for s in t.shapes()]
        sb = [s for t in after_l for s in t.shapes()]
        # Far more than needed on the coarse grid: sure (as in check_pair).
        win = window_of(box, lim.cols, lim.rows)
        ga = rasterise(sa, lim.cols, lim.rows, window=win)
        gb = rasterise(sb, lim.cols, lim.rows, window=win)
        if strong_area(ga, gb, lim.min_colour, (PHOTO_W / lim.cols) * (PHOTO_H / lim.rows))[1] \
                >= lim.sure_factor * lim.min_area:
            return True
        # Else two samplings on the fine grid, so that a difference made of thin parts
        # is not judged by luck; one is enough when the first finds far more than needed.
        first = fine_area(sa, sb, box, lim, VISIBLE_PHASES[0])[1]
        if first < VISIBLE_MARGIN * lim.min_area:
            return False
        if first >= SURE_MARGIN * lim.min_area:
            return True
        return all(fine_area(sa, sb, box, lim, phase)[1] >= VISIBLE_MARGIN * lim.min_area
                   for phase in VISIBLE_PHASES[1:])


def _reading_order(box: Box) -> tuple[int, float]:
    return (int((box[1] + box[3]) / 2 // 190), (box[0] + box[2]) / 2)


def generate_pair(seed: int, count: int | None = None, limits: CheckLimits | None = None) -> PhotoPair:
    """The photo pair for scene seed ``seed`` (SL-1): same seed, same pair.

    Args:
        seed: the round's scene seed (a recorded chance outcome).
        count: force the number of differences (1..10); default: drawn
            uniformly from 1..10 by the seed.
        limits: the check's thresholds.

    Returns:
        A pair whose :func:`~arcade.sherlook.raster.check_pair` passes.

    Raises:
        ValueError: ``count`` outside 1..10.
        GeneratorError: no valid pair after many scenes (not seen in practice).
    """
    lim = limits or CheckLimits()
    rng = random.Random(f"sherlook-photos-{seed}")
    n = rng.randint(MIN_DIFFERENCES, MAX_DIFFERENCES) if count is None else count
    if not MIN_DIFFERENCES <= n <= MAX_DIFFERENCES:
        raise ValueError(f"count {n!r}: expected {MIN_DIFFERENCES} to {MAX_DIFFERENCES} differences (SL-1)")
    n0 = rng.randint(max(0, n - MAX_PER_PHOTO), min(MAX_PER_PHOTO, n))
    rejected = 0
    themes = sorted(THEMES)
    for _ in range(30):
        theme = rng.choice(themes)
        base, spots = build(theme, rng)
        chosen = _Chooser(base, spots, rng, lim).run(n)
        if chosen is None:
            rejected += 1
            continue
        photos = [0] * n0 + [1] * (n - n0)
        rng.shuffle(photos)
        alts = [Alteration(p, c[0], c[1], c[2], c[3], c[4]) for p, c in zip(photos, chosen)]
        alts.sort(key=lambda a: _reading_order(a.box))
        pair = PhotoPair(seed, theme, tuple(base), tuple(alts), rejected)
        if check_pair(pair, lim, areas=False).ok:     # areas were measured by _visible
            return pair
        rejected += 1
    raise GeneratorError(f"no valid photo pair with {n} differences for seed {seed} after {rejected} tries")
