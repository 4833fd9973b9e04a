"""Scenes for Sherlook photos: a study, a night street and a detective's desk.

Each theme builds the base scene of a round from an injected ``random.Random``:
a list of :class:`~arcade.sherlook.things.Thing` plus the :class:`Spot` s
where a thing may be added (SL-1 "added").  Compositions are laid out so that
things stand apart and read well on a TV; colours, shape variants, sizes,
positions and which optional things appear are drawn at random, and the whole
picture may be flipped left to right, so no two rounds look alike.

Pure: standard library only; randomness only from the ``rng`` argument.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable

from arcade.sherlook.shapes import PHOTO_H, PHOTO_W, Box, Colour, gap
from arcade.sherlook.things import (
    BLACK,
    BRIGHT,
    BROWN,
    CREAM,
    KINDS,
    WHITE,
    Thing,
    colour_distance,
)

NIGHT: Colour = (28, 36, 78)


@dataclass(frozen=True)
class Spot:
    """Where a thing may be added (SL-1).

    Attributes:
        lane: the box in which the new thing's anchor is placed (photo units).
        kinds: the kinds that may be added here.
        layer: the new thing's draw layer.
        over: uids of the things it may overlap (what it stands or lies on,
            or stands in front of).
        scale: the new thing's size range.
        tilt: the new thing's turn is drawn from ``-tilt .. tilt`` degrees.
    """

    lane: Box
    kinds: tuple[str, ...]
    layer: int = 2
    over: tuple[int, ...] = ()
    scale: tuple[float, float] = (0.9, 1.05)
    tilt: float = 0.0


def grounds_of(things: list[Thing] | tuple[Thing, ...], box: Box | None = None) -> list[Colour]:
    """The colours a thing at ``box`` is seen against: every colour of the backdrops (wall,
    floor, sky, desk...) and the main colour of each support (table, shelf, house, blotter)
    that ``box`` overlaps."""
    out = [c for t in things if t.role == "backdrop" for c in t.colours]
    if box is not None:
        out += [t.colours[0] for t in things if t.role == "support" and gap(t.box(), box) < 0]
    return out


GROUND_CONTRAST = 80
"""A thing's main colour differs from every backdrop colour by at least this
(largest channel difference), so it stands out where it is (when the palette allows)."""


def contrasting(palette: tuple[Colour, ...], grounds: list[Colour] | tuple[Colour, ...]) -> tuple[Colour, ...]:
    """The colours of ``palette`` that stand out from every ground colour; if none
    does, those of :data:`BRIGHT` that do; failing that, ``palette``."""
    return _contrasting(tuple(palette), tuple(grounds))


@lru_cache(maxsize=1024)
def _contrasting(palette: tuple[Colour, ...], grounds: tuple[Colour, ...]) -> tuple[Colour, ...]:
    for choice in (palette, BRIGHT):
        ok = tuple(c for c in choice if all(colour_distance(c, g) >= GROUND_CONTRAST for g in grounds))
        if ok:
            return ok
    return palette


@dataclass
class Builder:
    """Collects a theme's things, numbering them in order (uids)."""

    rng: random.Random
    things: list[Thing] = field(default_factory=list)
    spots: list[Spot] = field(default_factory=list)

    def colours(self, kind: str, box: Box | None = None) -> tuple[Colour, ...]:
        """A main colour from the kind's palette (one that stands out from what it is
        seen against at ``box``, when there is one) and two accents."""
        main = self.rng.choice(contrasting(KINDS[kind].palette, grounds_of(self.things, box)))
        accents = self.rng.sample([c for c in BRIGHT if c != main], 2)
        return (main, accents[0], accents[1])

    def add(self, kind: str, x: float, y: float, *, colours: tuple[Colour, ...] | None = None,
            scale: float = 1.0, angle: float = 0.0, mirror: bool = False, stretch: float = 1.0,
            variant: int | None = None, layer: int = 2, role: str = "item",
            lane: Box | None = None) -> Thing:
        k = KINDS[kind]
        t = Thing(uid=len(self.things), kind=kind, x=x, y=y, scale=scale, angle=angle, mirror=mirror,
                  stretch=stretch, colours=colours or (k.palette[0],),
                  variant=self.rng.randrange(k.variants) if variant is None else variant,
                  layer=layer, role=role, lane=lane if lane is not None else (x, y, x, y))
        if colours is None:
            # big supports (houses, tables...) take any colour of their palette;
            # the things seen against them must stand out
            t = replace(t, colours=self.colours(kind, t.rough_box()) if role != "support" else
                        (self.rng.choice(k.palette),) + tuple(self.rng.sample(BRIGHT, 2)))
        self.things.append(t)
        return t

    def fits(self, t: Thing, margin: float = 10.0, ignore: tuple[int, ...] = ()) -> bool:
        """``t`` lies inside the photo and apart from every item and support."""
        b = t.rough_box()
        if b[0] < 4 or b[1] < 4 or b[2] > PHOTO_W - 4 or b[3] > PHOTO_H - 4:
            return False
        for o in self.things:
            if o.uid == t.uid or o.role == "backdrop" or o.uid in ignore:
                continue
            if gap(b, o.box()) < margin:
                return False
        return True

    def try_add(self, kind: str, lane: Box, tries: int = 12, margin: float = 10.0,
                ignore: tuple[int, ...] = (), **kw: object) -> Thing | None:
        """Add ``kind`` somewhere in ``lane`` where it fits; None if it never does."""
        for _ in range(tries):
            x = self.rng.uniform(lane[0], lane[2])
            y = self.rng.uniform(lane[1], lane[3])
            t = self.add(kind, x, y, lane=lane, **kw)  # type: ignore[arg-type]
            if self.fits(t, margin, ignore):
                return t
            self.things.pop()
        return None

    def flipped(self) -> None:
        """Mirror the whole composition left to right."""
        out = []
        for t in self.things:
            x0, y0, x1, y1 = t.lane
            out.append(replace(t, x=PHOTO_W - t.x, mirror=not t.mirror, angle=-t.angle,
                               lane=(PHOTO_W - x1, y0, PHOTO_W - x0, y1)))
        self.things = out
        self.spots = [replace(s, lane=(PHOTO_W - s.lane[2], s.lane[1], PHOTO_W - s.lane[0], s.lane[3]))
                      for s in self.spots]


# ===================================================================== study

WALLS: tuple[tuple[Colour, Colour], ...] = (
    ((52, 92, 96), (46, 82, 86)), ((112, 48, 58), (100, 42, 52)), ((96, 96, 56), (86, 86, 50)),
    ((66, 76, 122), (58, 68, 110)), ((150, 120, 70), (136, 108, 62)), ((70, 100, 70), (62, 90, 62)),
)
FLOORS: tuple[Colour, ...] = ((150, 100, 58), (120, 80, 50), (176, 130, 80), (100, 70, 60))

SHELF_THINGS = ("vase", "globe", "candle", "cup")
TABLE_THINGS = ("lamp", "candle", "bottle", "cup", "vase", "inkpot", "globe")
WALL_THINGS = ("spider", "sconce", "poster", "mirror")
FLOOR_THINGS = ("hat", "case", "umbrella", "footprints", "cat")


def study(b: Builder) -> None:
    """A Victorian study at night: window, portrait, clock, bookshelf, table, chair, rug."""
    rng = b.rng
    wall, stripe = rng.choice(WALLS)
    b.add("wall", 0, 0, colours=(wall, stripe, BROWN), layer=0, role="backdrop")
    b.add("floor", 0, 0, colours=(rng.choice(FLOORS),), layer=0, role="backdrop")
    # the window with the moon, glazing bars and curtains
    wx, wy = 175.0, 205.0
    frame = rng.choice(KINDS["window"].palette)
    b.add("window", wx, wy, colours=(frame, NIGHT), layer=1, role="support")
    if rng.random() < 0.8:
        b.add("moon", wx + rng.choice((-46.0, 46.0)), wy - 62, scale=rng.uniform(0.8, 1.0), layer=2,
              lane=(wx - 50, wy - 70, wx + 50, wy + 60))
    b.add("wincross", wx, wy, colours=(frame,), layer=3, role="backdrop")
    cur = b.colours("curtain")
    cv = rng.randrange(2)
    for dx in (-122.0, 122.0):
        b.add("curtain", wx + dx, 70, colours=cur, variant=cv, layer=3)
    # wall things between the window and the shelf
    b.add("painting", rng.uniform(370, 400), rng.uniform(165, 195), scale=rng.uniform(0.95, 1.08),
          lane=(340, 120, 440, 250))
    b.add("clock", rng.uniform(540, 570), rng.uniform(105, 130), scale=rng.uniform(0.85, 1.0),
          angle=rng.uniform(-20, 20), lane=(520, 90, 590, 160))
    extra = rng.choice(("poster", "mirror", "sconce"))
    b.add(extra, rng.uniform(540, 575), rng.uniform(300, 330), scale=rng.uniform(0.85, 0.95),
          lane=(520, 280, 590, 340))
    # the bookshelf
    sx, sy = 660.0, 50.0
    shelf = b.add("shelfback", sx, sy, layer=1, role="support")
    for top in (125.0, 250.0, 364.0):
        y = sy + top
        lane = (sx + 34, y, sx + 266, y)
        x = sx + 20 + rng.uniform(0, 24)
        ornament_at = rng.randrange(3)
        slot = 0
        while x < sx + 250:
            if slot == ornament_at:
                orn = rng.choice(SHELF_THINGS)
                t = b.add(orn, x + 40, y, scale=0.8, lane=lane)
                if t.box()[2] > sx + 282 or t.box()[1] < y - 118:
                    b.things.pop()
                    break
                x = t.box()[2] + rng.uniform(8, 22)
            else:
                for _ in range(rng.randint(2, 3)):
                    st = rng.uniform(0.85, 1.1)
                    t = b.add("book", x + 20 * st, y, scale=rng.uniform(0.9, 1.0), stretch=st, lane=lane)
                    if t.box()[2] > sx + 282:
                        b.things.pop()
                        break
                    x = t.box()[2] - 1.5
                x += rng.uniform(16, 34)
            slot += 1
        b.spots.append(Spot(lane, ("book", "vase", "globe", "candle"), over=(shelf.uid,), scale=(0.8, 0.9)))
    # the table and what stands on it
    tx, ty = rng.uniform(440, 470), 560.0
    table = b.add("table", tx, ty, layer=1, role="support")
    tlane = (tx - 140, ty, tx + 140, ty)
    names = rng.sample(TABLE_THINGS, 3)
    for i, name in enumerate(names):
        b.add(name, tx - 105 + 105 * i + rng.uniform(-10, 10), ty, scale=rng.uniform(0.85, 0.95), lane=tlane,
              mirror=rng.random() < 0.5 if KINDS[name].turn == "mirror" else False)
    b.spots.append(Spot(tlane, TABLE_THINGS, over=(table.uid,), scale=(0.85, 0.95)))
    # the chair, the rug and the cat
    b.add("chair", tx + 240, 738, mirror=True, scale=0.95, lane=(tx + 230, 738, tx + 300, 738))
    rug = b.add("rug", 175, 690, layer=1, role="support", scale=0.95)
    if rng.random() < 0.75:
        b.add("cat", rng.uniform(110, 230), 702, mirror=rng.random() < 0.5, scale=0.9,
              lane=(90, 690, 260, 712))
    # the right-hand corner: coat stand or plant, and a few things on the floor
    corner = rng.choice(("coatstand", "plant"))
    b.add(corner, 925, 740, scale=0.95 if corner == "plant" else 0.9, lane=(900, 740, 950, 740))
    # things on the floor stand in front: their tops stay below the table top
    floor_lane = (40.0, 722.0, 960.0, 745.0)
    for name in rng.sample([f for f in FLOOR_THINGS if f != "cat"], 3):
        kw: dict[str, Any] = {"scale": rng.uniform(0.85, 0.95), "layer": 3}
        if name == "footprints":
            kw["angle"] = rng.uniform(-15, 15)
        elif KINDS[name].turn == "mirror":
            kw["mirror"] = rng.random() < 0.5
        b.try_add(name, floor_lane, margin=14, ignore=(table.uid, rug.uid), **kw)
    b.spots.append(Spot(floor_lane, FLOOR_THINGS, layer=3, over=(table.uid, rug.uid), scale=(0.85, 0.95)))
    b.spots.append(Spot((30, 60, 970, 470), WALL_THINGS, scale=(0.85, 0.95)))
    if rng.random() < 0.5:
        b.flipped()


# ===================================================================== street

SKIES: tuple[Colour, ...] = ((26, 34, 80), (40, 30, 70), (20, 50, 90), (60, 40, 90))
PAVE_THINGS = ("hydrant", "bin", "bench", "cone", "mailbox", "cat")


def street(b: Builder) -> None:
    """A street at night: houses with lit windows, a lamp post, a car, stars and the moon."""
    rng = b.rng
    b.add("sky", 0, 0, colours=(rng.choice(SKIES),), layer=0, role="backdrop")
    b.add("street", 0, 0, colours=((70, 70, 80), (160, 156, 150)), layer=0, role="backdrop")
    base = 545.0
    # houses
    x = rng.uniform(-30, 10)
    houses: list[Thing] = []
    walls: tuple[int, ...] = ()
    while x < 930:
        st = rng.uniform(0.82, 1.0)
        sc = rng.uniform(0.78, 0.95)
        h = b.add("building", x, base, scale=sc, stretch=st / sc, layer=1, role="support",
                  lane=(x, base, x, base))
        houses.append(h)
        walls += (h.uid,)
        width = 260 * st
        top = base - 400 * sc
        cols = 2 if width < 240 else 3
        rows = max(1, int((base - top - 170) // 105))
        frame = rng.choice((WHITE, CREAM, BLACK))
        door_col = rng.randrange(cols)
        for r in range(rows):
            for cidx in range(cols):
                cx = x + width * (cidx + 0.5) / cols
                cy = top + 80 + r * 105
                lit = rng.choice(((250, 214, 90), (250, 170, 70), (40, 50, 80), (40, 50, 80)))
                b.add("bwindow", cx, cy, colours=(lit, frame), scale=0.85, lane=(cx, cy, cx, cy))
        dx = x + width * (door_col + 0.5) / cols
        b.add("door", dx, base, scale=0.85, lane=(x + 40, base, x + width - 40, base))
        if rng.random() < 0.5:
            side = -1 if door_col > 0 else 1
            b.add("sign", dx + side * 44, base - 118, mirror=side < 0, scale=0.8,
                  lane=(dx + side * 44, base - 118, dx + side * 44, base - 118))
        x += width + rng.uniform(30, 70)
    # the sky
    sky_lane = (40.0, 30.0, 960.0, 120.0)
    b.try_add("moon", sky_lane, scale=rng.uniform(0.9, 1.2), layer=2, margin=30)
    for _ in range(rng.randint(1, 2)):
        b.try_add("cloud", sky_lane, scale=rng.uniform(0.7, 0.9), layer=2, margin=20)
    for _ in range(rng.randint(5, 8)):
        b.try_add("star", (30.0, 20.0, 970.0, 150.0), scale=rng.uniform(0.8, 1.1), layer=2, margin=24)
    # the pavement
    pave = (40.0, 590.0, 960.0, 600.0)
    b.try_add("lamppost", pave, layer=3, margin=20, scale=0.95, ignore=walls)
    if rng.random() < 0.5:
        b.try_add("tree", pave, margin=16, layer=3, scale=0.85, ignore=walls)
    for name in rng.sample(PAVE_THINGS, 4):
        kw: dict[str, Any] = {"scale": rng.uniform(0.85, 1.0)}
        if KINDS[name].turn == "mirror":
            kw["mirror"] = rng.random() < 0.5
        b.try_add(name, pave, margin=16, layer=3, ignore=walls, **kw)
    # the road
    b.try_add("car", (150.0, 725.0, 850.0, 735.0), layer=3, mirror=rng.random() < 0.5, scale=0.95)
    b.spots.append(Spot(sky_lane, ("star", "cloud"), scale=(0.8, 1.1)))
    b.spots.append(Spot(pave, PAVE_THINGS, layer=3, over=walls, scale=(0.85, 1.0)))
    if rng.random() < 0.5:
        b.flipped()


# ===================================================================== desk

WOODS: tuple[Colour, ...] = ((150, 96, 56), (120, 76, 44), (172, 120, 70), (96, 64, 46))
DESK_THINGS = ("paper", "polaroid", "pencil", "mug", "glasses", "key", "coin", "notebook", "envelope",
               "watch", "card", "dice", "matchbox", "magnifier")
SMALL_DESK_THINGS = ("pencil", "key", "coin", "card", "dice", "matchbox", "watch", "glasses", "mug")


def desk(b: Builder) -> None:
    """A detective's desk seen from above: papers, photos, a mug, keys, coins..."""
    rng = b.rng
    b.add("desk", 0, 0, colours=(rng.choice(WOODS),), layer=0, role="backdrop")
    blotter = b.add("blotter", rng.uniform(470, 530), rng.uniform(360, 390), layer=1, role="support",
                    scale=0.95)
    lane = (70.0, 70.0, 930.0, 680.0)
    counts: dict[str, int] = {}
    # one thing per cell of a 5 x 4 grid, at a random spot of the cell, in random order
    cells = [(i, j) for i in range(5) for j in range(4)]
    rng.shuffle(cells)
    for i, j in cells[:18]:
        cell = (70 + 172 * i + 40, 70 + 152 * j + 36, 70 + 172 * (i + 1) - 40, 70 + 152 * (j + 1) - 36)
        for _ in range(3):
            name = rng.choice(DESK_THINGS)
            if counts.get(name, 0) >= 2:
                continue
            kw: dict[str, Any] = {"scale": rng.uniform(0.9, 1.05), "angle": rng.uniform(-50, 50)}
            if name == "magnifier":
                kw["angle"] = rng.uniform(-160, 160)
            t = b.try_add(name, cell, tries=2, margin=16, ignore=(blotter.uid,), **kw)
            if t is not None:
                b.things[-1] = replace(t, lane=lane)
                counts[name] = counts.get(name, 0) + 1
                break
    b.spots.append(Spot(lane, SMALL_DESK_THINGS, over=(blotter.uid,), scale=(0.9, 1.05), tilt=50))


THEMES: dict[str, Callable[[Builder], None]] = {"study": study, "street": street, "desk": desk}
"""The themes a round's scene is drawn from, by name."""


def build(theme: str, rng: random.Random) -> tuple[list[Thing], list[Spot]]:
    """The base scene of ``theme`` and its spots for added things.

    Raises:
        KeyError: unknown theme.
    """
    b = Builder(rng)
    THEMES[theme](b)
    return b.things, b.spots

