"""The things a Sherlook photo is made of, and how each one is drawn.

A :class:`Thing` is pure data: its kind, where it stands, its size, turn,
colours and shape variant.  :data:`KINDS` says, for each kind, how to draw it
(a function filling a :class:`~arcade.sherlook.shapes.Pen` in the thing's
local frame), which shape variants it has, and which alterations suit it
(SL-1: recoloured, removed, added, moved, reshaped, resized, turned).

The art is flat and bold with dark outlines, so that it reads on a TV from
three metres: every thing is at least about 40 photo units across (a photo is
1000 x 750 units; on screen a side-by-side photo is about 620 px wide).

Pure: standard library only, no randomness, no clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable

from arcade.sherlook.shapes import Box, Colour, Pen, Shape, boxes_of, place

# ----------------------------------------------------------------- colours

INK: Colour = (30, 26, 28)
WHITE: Colour = (244, 242, 236)
CREAM: Colour = (236, 222, 180)
BLACK: Colour = (40, 40, 46)
GREY: Colour = (140, 142, 150)
RED: Colour = (208, 44, 44)
ORANGE: Colour = (240, 136, 30)
YELLOW: Colour = (246, 210, 50)
LIME: Colour = (160, 214, 60)
GREEN: Colour = (48, 150, 70)
TEAL: Colour = (30, 160, 160)
SKY: Colour = (110, 190, 240)
BLUE: Colour = (40, 84, 204)
NAVY: Colour = (34, 42, 110)
PURPLE: Colour = (136, 60, 176)
PINK: Colour = (238, 120, 180)
BROWN: Colour = (126, 76, 36)
TAN: Colour = (200, 150, 90)
GOLD: Colour = (222, 176, 40)
MAROON: Colour = (120, 30, 50)

BRIGHT = (RED, ORANGE, YELLOW, LIME, GREEN, TEAL, SKY, BLUE, PURPLE, PINK, WHITE, BLACK, BROWN, NAVY)
"""Main colours a thing may get (and be recoloured to)."""


def luma(c: Colour) -> float:
    """Perceived lightness 0..255 (Rec. 601 weights)."""
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def colour_distance(a: Colour, b: Colour) -> int:
    """Colour distance used by the SL-1 check: the largest channel difference (0..255)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def shade(c: Colour, f: float) -> Colour:
    """``c`` darker (f < 1) or lighter (f > 1)."""
    if f <= 1:
        return (int(c[0] * f), int(c[1] * f), int(c[2] * f))
    g = f - 1
    return (int(c[0] + (255 - c[0]) * g), int(c[1] + (255 - c[1]) * g), int(c[2] + (255 - c[2]) * g))


# ----------------------------------------------------------------- things


@dataclass(frozen=True)
class Thing:
    """One thing in a photo.

    Attributes:
        uid: its number in the scene (unique; added things get new numbers).
        kind: a key of :data:`KINDS`.
        x, y: where its anchor stands, photo units (the anchor is the bottom
            centre of standing things, the centre of hung or lying ones).
        scale: size factor (1 = the kind's natural size).
        angle: turn, degrees clockwise, about the anchor.
        mirror: drawn facing the other way.
        stretch: width factor (books of different widths).
        colours: main colour first (the one a recolouring changes), then accents.
        variant: shape variant (a reshaping changes it), ``0 .. variants-1``.
        layer: draw order (low first; ties by uid).
        role: ``"backdrop"`` (never altered), ``"support"`` (others stand on
            it; only recoloured or reshaped) or ``"item"``.
        lane: the box inside which the anchor may be moved or an added thing
            placed (photo units); a zero-height lane keeps it on a shelf.
    """

    uid: int
    kind: str
    x: float
    y: float
    scale: float = 1.0
    angle: float = 0.0
    mirror: bool = False
    stretch: float = 1.0
    colours: tuple[Colour, ...] = ()
    variant: int = 0
    layer: int = 2
    role: str = "item"
    lane: Box = (0.0, 0.0, 0.0, 0.0)

    def shapes(self) -> tuple[Shape, ...]:
        """The thing's shapes in photo units (cached)."""
        try:
            return self.__dict__["_sh"]  # type: ignore[no-any-return]
        except KeyError:
            sh = self.__dict__["_sh"] = place(_local(self.kind, self.variant, self.colours), self.x, self.y,
                                              self.scale, self.angle, self.mirror, self.stretch)
            return sh

    def box(self) -> Box:
        """Bounding box of the drawn thing, outline included (photo units)."""
        try:
            return self.__dict__["_bb"]  # type: ignore[no-any-return]
        except KeyError:
            bb = self.__dict__["_bb"] = boxes_of(self.shapes())
            return bb

    def rough_box(self) -> Box:
        """A box sure to hold the drawn thing, found without drawing it (for placing things).

        It holds :meth:`box`; for a turned thing it may be a little larger.
        """
        x0, y0, x1, y1 = _local_box(self.kind, self.variant)
        a = math.radians(self.angle)
        c, s = math.cos(a), math.sin(a)
        mx = -self.stretch if self.mirror else self.stretch
        xs, ys = [], []
        for px, py in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
            qx, qy = px * mx * self.scale, py * self.scale
            xs.append(self.x + qx * c - qy * s)
            ys.append(self.y + qx * s + qy * c)
        return (min(xs), min(ys), max(xs), max(ys))



@lru_cache(maxsize=512)
def _local_box(kind: str, variant: int) -> Box:
    # A kind's outline never depends on its colours, so any colours do here.
    return boxes_of(_local(kind, variant, (KINDS[kind].palette[0], RED, BLUE)))


#: Outlines kept by :func:`_local`: a photo pair asks for some 30 new (kind, variant, colours)
#: and draws each twice (left and right photo), so 256 hold the last pairs' while a day's
#: other colourings go.  4096 kept some 10 MB of shapes after a few hours of rounds
#: (about 2.4 kB an entry; issue 23).
LOCAL_SHAPES_MAX = 256


@lru_cache(maxsize=LOCAL_SHAPES_MAX)
def _local(kind: str, variant: int, colours: tuple[Colour, ...]) -> tuple[Shape, ...]:
    pen = Pen()
    KINDS[kind].draw(pen, variant, colours)
    return tuple(pen.shapes)


Draw = Callable[[Pen, int, tuple[Colour, ...]], None]


@dataclass(frozen=True)
class Kind:
    """How a kind of thing is drawn and altered.

    Attributes:
        name: the kind's key.
        draw: ``draw(pen, variant, colours)`` in the local frame, scale 1.
        variants: number of shape variants (reshaping needs 2 or more).
        alters: alterations that suit it (subset of :data:`ALTERATIONS`).
        turn: ``"tilt"`` (turned by an angle), ``"mirror"`` (faces the other
            way; only for lopsided things) or ``""``.
        palette: main colours it may have.
        label: a name for the reveal and the docs.
    """

    name: str
    draw: Draw
    variants: int
    alters: frozenset[str]
    turn: str
    palette: tuple[Colour, ...]
    label: str


ALTERATIONS = ("recoloured", "removed", "added", "moved", "reshaped", "resized", "turned")
"""The seven kinds of alteration of SL-1."""

ALL = frozenset(ALTERATIONS)
KINDS: dict[str, Kind] = {}


def kind(name: str, variants: int = 2, alters: frozenset[str] = ALL, turn: str = "tilt",
         palette: tuple[Colour, ...] = BRIGHT, label: str = "") -> Callable[[Draw], Draw]:
    """Register a drawing function as a kind."""
    def deco(fn: Draw) -> Draw:
        al = alters
        if variants < 2:
            al = al - {"reshaped"}
        if not turn:
            al = al - {"turned"}
        KINDS[name] = Kind(name, fn, variants, frozenset(al), turn, palette, label or name)
        return fn
    return deco


BACK: frozenset[str] = frozenset()
SUPPORT = frozenset({"recoloured"})

# ================================================================ backdrops


@kind("wall", 1, BACK, "")
def _wall(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(0, 0, 1000, 540, c[0], False)
    for x in range(25, 1000, 70):
        p.rect(x, 22, x + 26, 520, c[1], False)
    p.rect(0, 0, 1000, 22, shade(c[0], 0.7), False)
    p.rect(0, 510, 1000, 536, shade(c[2], 0.8), INK)


@kind("floor", 1, BACK, "")
def _floor(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(0, 530, 1000, 750, c[0], False)
    for i, y in enumerate(range(570, 750, 44)):
        p.stroke([(0, y), (1000, y)], 3, shade(c[0], 0.75))
        for x in range(80 + 130 * (i % 2), 1000, 260):
            p.stroke([(x, y - 44 + 3), (x, y)], 3, shade(c[0], 0.75))


@kind("sky", 1, BACK, "")
def _sky(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(0, 0, 1000, 560, c[0], False)
    p.rect(0, 300, 1000, 560, shade(c[0], 1.15), False)


@kind("street", 1, BACK, "")
def _street(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(0, 540, 1000, 610, c[1], INK)           # pavement
    for x in range(0, 1000, 90):
        p.stroke([(x, 542), (x - 14, 608)], 3, shade(c[1], 0.8))
    p.rect(0, 610, 1000, 750, c[0], False)         # road
    p.rect(0, 606, 1000, 618, shade(c[1], 0.7), False)  # kerb
    for x in range(30, 1000, 160):
        p.rect(x, 676, x + 90, 690, WHITE, False)


@kind("desk", 1, BACK, "")
def _desk(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(0, 0, 1000, 750, c[0], False)
    for y in range(40, 750, 95):
        p.stroke([(0, y), (330, y + 12), (700, y - 6), (1000, y + 8)], 4, shade(c[0], 0.82))
        p.stroke([(0, y + 40), (420, y + 46), (1000, y + 36)], 2, shade(c[0], 0.9))


# ================================================================ study: supports

@kind("window", 2, frozenset({"reshaped"}), "", (WHITE, BROWN, GREEN, NAVY, MAROON, TEAL))
def _window(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    w, h = 190, 240
    if v == 0:
        p.rect(-w / 2 - 14, -h / 2 - 14, w / 2 + 14, h / 2 + 14, c[0])
        p.rect(-w / 2, -h / 2, w / 2, h / 2, c[1])
    else:
        arch = p.arc_poly(0, -h / 2 + 95, w / 2 + 14, 109, math.pi, 2 * math.pi, 14)
        p.poly(arch + [(w / 2 + 14, h / 2 + 14), (-w / 2 - 14, h / 2 + 14)], c[0])
        inner = p.arc_poly(0, -h / 2 + 95, w / 2, 95, math.pi, 2 * math.pi, 14)
        p.poly(inner + [(w / 2, h / 2), (-w / 2, h / 2)], c[1])
    p.rect(-w / 2 - 24, h / 2 + 6, w / 2 + 24, h / 2 + 24, c[0])   # sill


@kind("wincross", 1, BACK, "")
def _wincross(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    # the window's glazing bars, drawn over whatever is seen through the glass
    p.rect(-5, -120, 5, 120, c[0], False)
    p.rect(-95, -6, 95, 6, c[0], False)


@kind("shelfback", 1, SUPPORT, "", (BROWN, MAROON, NAVY, GREEN, TAN))
def _shelfback(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(0, 0, 300, 380, shade(c[0], 0.75))
    p.rect(0, 0, 16, 380, c[0])
    p.rect(284, 0, 300, 380, c[0])
    p.rect(0, 0, 300, 16, c[0])
    for y in (125, 250, 364):
        p.rect(0, y, 300, y + 16, c[0])


@kind("table", 2, frozenset({"recoloured", "reshaped"}), "", (BROWN, TAN, MAROON, NAVY, GREEN, BLACK))
def _table(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    # anchor: top middle of the table top
    p.rect(-160, 0, 160, 18, c[0])
    if v == 0:
        for x in (-140, 122):
            p.rect(x, 18, x + 18, 150, shade(c[0], 0.85))
        p.rect(-140, 30, 140, 46, shade(c[0], 0.85))
    else:
        p.poly([(-150, 18), (150, 18), (150, 70), (-150, 70)], shade(c[0], 0.85))  # cloth-like apron
        p.rect(-14, 70, 14, 140, shade(c[0], 0.85))
        p.oval(0, 146, 70, 10, shade(c[0], 0.85))


@kind("rug", 2, frozenset({"recoloured", "reshaped"}), "", (RED, BLUE, GREEN, PURPLE, ORANGE, TEAL))
def _rug(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.oval(0, 0, 170, 48, c[0])
        p.oval(0, 0, 120, 30, c[1], False)
    else:
        p.poly([(-150, -40), (150, -40), (185, 40), (-185, 40)], c[0])
        p.poly([(-110, -22), (110, -22), (130, 22), (-130, 22)], c[1], False)


@kind("board", 1, BACK, "")
def _board(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-100, 0, 100, 14, c[0])
    p.poly([(-80, 14), (-60, 14), (-80, 40)], shade(c[0], 0.8))
    p.poly([(80, 14), (60, 14), (80, 40)], shade(c[0], 0.8))


# ================================================================ study: wall things

@kind("curtain", 2, frozenset({"recoloured", "reshaped", "resized"}), "",
      (RED, MAROON, GREEN, BLUE, PURPLE, GOLD, TEAL))
def _curtain(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    # anchor: top middle
    if v == 0:
        p.rect(-36, 0, 36, 280, c[0])
        for x in (-12, 12):
            p.stroke([(x, 6), (x, 274)], 4, shade(c[0], 0.7))
    else:
        p.poly([(-36, 0), (36, 0), (14, 150), (36, 280), (-36, 280), (-14, 150)], c[0])
        p.rect(-22, 140, 22, 158, GOLD)
    p.rect(-44, -10, 44, 6, BROWN)


@kind("moon", 2, frozenset({"reshaped", "resized", "moved", "removed", "added", "recoloured"}), "",
      ((246, 236, 170), (250, 250, 250), (250, 190, 90)))
def _moon(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.circle(0, 0, 30, c[0], False)
        p.circle(-8, -6, 7, shade(c[0], 0.85), False)
        p.circle(10, 10, 5, shade(c[0], 0.85), False)
    else:
        outer = p.arc_poly(0, 0, 32, 32, math.pi * 0.5, math.pi * 1.5, 16)
        inner = p.arc_poly(-12, 0, 22, 30, math.pi * 1.5, math.pi * 0.5, 16)
        p.poly(outer + inner, c[0], False)


@kind("painting", 2, label="painting", palette=(GOLD, BROWN, BLACK, WHITE, RED, GREEN, BLUE))
def _painting(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.rect(-70, -85, 70, 85, c[0])
        p.rect(-54, -69, 54, 69, c[1])
    else:
        p.oval(0, 0, 72, 88, c[0])
        p.oval(0, 0, 55, 71, c[1])
    # a portrait: shoulders, head, hat
    p.poly([(-40, 62), (-30, 30), (30, 30), (40, 62)], c[2], False)
    p.oval(0, 0, 20, 25, (238, 196, 160))
    p.rect(-22, -38, 22, -20, BLACK, False)
    p.rect(-32, -22, 32, -16, BLACK, False)


@kind("clock", 2, palette=(BROWN, GOLD, RED, BLUE, GREEN, BLACK, WHITE))
def _clock(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.circle(0, 0, 56, c[0])
        p.circle(0, 0, 44, WHITE)
    else:
        p.star(0, 0, 62, 57, 4, c[0], True, -math.pi / 4)   # a square case with bevelled corners
        p.rect(-42, -42, 42, 42, WHITE)
    for i in range(12):
        t = i * math.pi / 6
        p.stroke([(36 * math.cos(t), 36 * math.sin(t)), (42 * math.cos(t), 42 * math.sin(t))], 3, INK)
    p.stroke([(0, 0), (0, -34)], 6, INK)            # minute hand: 12
    p.stroke([(0, 0), (20, 8)], 8, RED)             # hour hand: 4 o'clock-ish
    p.circle(0, 0, 5, INK, False)


@kind("sconce", 2, palette=(GOLD, BLACK, WHITE, RED, GREEN))
def _sconce(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-8, -10, 8, 40, c[0])
    p.rect(-26, 30, 26, 42, c[0])
    if v == 0:
        p.rect(-8, -30, 8, 30, CREAM)
        p.poly([(0, -58), (-9, -36), (0, -30), (9, -36)], ORANGE, False)
    else:
        p.poly([(-30, -40), (30, -40), (18, 28), (-18, 28)], (250, 230, 140))


@kind("mirror", 2, palette=(GOLD, BROWN, BLACK, WHITE, GREEN))
def _mirror(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.oval(0, 0, 52, 72, c[0])
        p.oval(0, 0, 40, 60, (190, 214, 226))
    else:
        p.rect(-54, -70, 54, 70, c[0])
        p.rect(-42, -58, 42, 58, (190, 214, 226))
    p.stroke([(-18, -30), (10, -48)], 6, WHITE)


@kind("poster", 2, palette=(CREAM, WHITE, YELLOW, PINK, SKY))
def _poster(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-50, -68, 50, 68, c[0])
    p.rect(-40, -58, 40, -44, INK, False)
    if v == 0:
        p.circle(0, -4, 26, (238, 196, 160))
        p.rect(-26, -34, 26, -24, BLACK, False)
    else:
        p.star(0, -2, 30, 13, 5, RED, False)
    for y in (36, 50):
        p.rect(-36, y, 36, y + 6, INK, False)
    p.circle(0, -72, 5, RED, False)


@kind("spider", 2, frozenset({"removed", "added", "moved", "resized", "reshaped"}), "", (BLACK,))
def _spider(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.stroke([(0, -120), (0, -10)], 2, (220, 220, 220))
    for s in (-1, 1):
        for a in (-0.5, -0.15, 0.2, 0.55):
            p.stroke([(0, 0), (s * 26, 26 * a - 6), (s * 36, 26 * a + 12)], 4, c[0])
    if v == 0:
        p.oval(0, 4, 15, 18, c[0], False)
    else:
        p.circle(0, 6, 20, c[0], False)
        p.star(0, 6, 10, 4, 4, RED, False)


# ================================================================ study: shelf and table things

@kind("book", 2, palette=(RED, ORANGE, YELLOW, GREEN, TEAL, BLUE, NAVY, PURPLE, BLACK, WHITE, MAROON))
def _book(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-20, -100, 20, 0, c[0])
    if v == 0:
        p.rect(-20, -88, 20, -80, GOLD, False)
        p.rect(-20, -22, 20, -14, GOLD, False)
    else:
        p.rect(-10, -70, 10, -34, WHITE, True)


@kind("vase", 2, palette=(BLUE, RED, TEAL, YELLOW, WHITE, PURPLE, GREEN))
def _vase(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.oval(0, -34, 32, 34, c[0])
        p.rect(-12, -84, 12, -60, c[0])
        p.rect(-17, -90, 17, -82, c[0])
    else:
        p.poly([(-14, 0), (14, 0), (24, -60), (10, -96), (-10, -96), (-24, -60)], c[0])
    p.stroke([(-20, -40), (20, -40)], 5, shade(c[0], 0.6))


@kind("globe", 2, palette=(SKY, TEAL, BLUE, YELLOW, WHITE))
def _globe(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-22, -8, 22, 0, BROWN)
    p.rect(-4, -30, 4, -8, BROWN, False)
    if v == 0:
        p.circle(0, -64, 36, c[0])
        p.poly([(-20, -80), (4, -88), (10, -68), (-10, -56)], GREEN, False)
        p.poly([(12, -52), (26, -58), (22, -40)], GREEN, False)
    else:
        p.poly([(-34, -64), (0, -100), (34, -64), (0, -28)], c[0])
    p.stroke(p.arc_poly(0, -64, 42, 42, 0.4 * math.pi, 1.6 * math.pi, 16), 4, GOLD)


@kind("lamp", 2, palette=(GREEN, RED, YELLOW, WHITE, TEAL, PINK, BLUE))
def _lamp(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.oval(0, -6, 36, 9, GOLD)
    p.rect(-5, -100, 5, -8, GOLD)
    if v == 0:
        p.poly([(-28, -150), (28, -150), (52, -92), (-52, -92)], c[0])
    else:
        dome = p.arc_poly(0, -92, 54, 60, math.pi, 2 * math.pi, 14)
        p.poly(dome, c[0])


@kind("candle", 2, palette=(WHITE, RED, YELLOW, BLUE, GREEN, PINK))
def _candle(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.oval(0, -5, 28, 8, GOLD)
    p.rect(-6, -30, 6, -6, GOLD)
    if v == 0:
        p.rect(-11, -108, 11, -28, c[0])
        flame = -108
    else:
        p.rect(-22, -70, 22, -28, c[0])
        flame = -70
    p.poly([(0, flame - 30), (-9, flame - 10), (0, flame - 2), (9, flame - 10)], ORANGE, False)
    p.stroke([(0, flame), (0, flame - 6)], 2, INK)


@kind("bottle", 2, palette=(GREEN, (130, 70, 30), BLUE, RED, TEAL, PURPLE))
def _bottle(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.poly([(-20, 0), (20, 0), (20, -70), (8, -92), (8, -124), (-8, -124), (-8, -92), (-20, -70)], c[0])
        p.rect(-20, -58, 20, -26, CREAM, True)
    else:
        p.circle(0, -34, 34, c[0])
        p.rect(-8, -100, 8, -62, c[0])
        p.rect(-14, -40, 14, -24, CREAM, True)
    p.rect(-9, -132, 9, -118 if v == 0 else -94, (160, 110, 60))


@kind("cup", 2, turn="mirror", palette=(WHITE, RED, BLUE, YELLOW, GREEN, PINK, TEAL))
def _cup(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.poly([(-30, -52), (30, -52), (22, -6), (-22, -6)], c[0])
        p.oval(0, -4, 38, 6, c[0])
        p.stroke(p.arc_poly(30, -34, 14, 13, -math.pi / 2, math.pi / 2, 10), 6, c[0])
    else:
        p.rect(-28, -66, 28, 0, c[0])
        p.stroke(p.arc_poly(28, -34, 18, 20, -math.pi / 2, math.pi / 2, 10), 8, c[0])
        p.rect(-28, -50, 28, -40, shade(c[0], 0.7), False)


@kind("magnifier", 2, palette=(BLACK, BROWN, RED, GOLD, BLUE))
def _magnifier(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    # lying or held: anchor at the middle of the handle's end
    p.stroke([(0, 0), (0, -60)], 14, c[0])
    if v == 0:
        p.circle(0, -98, 40, GOLD)
        p.circle(0, -98, 30, (200, 230, 245))
    else:
        p.rect(-40, -140, 40, -60, GOLD)
        p.rect(-30, -130, 30, -70, (200, 230, 245))
    p.stroke([(-14, -110), (0, -120)], 5, WHITE)


@kind("inkpot", 2, palette=(BLACK, BLUE, RED, GREEN, PURPLE))
def _inkpot(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.rect(-24, -36, 24, 0, c[0])
    else:
        p.oval(0, -20, 30, 20, c[0])
    p.rect(-10, -46, 10, -34, c[0])
    p.poly([(4, -44), (40, -150), (46, -146), (12, -40)], WHITE)   # quill


# ================================================================ study: floor things

@kind("chair", 2, turn="mirror", palette=(BROWN, RED, GREEN, BLUE, BLACK, TAN, PURPLE))
def _chair(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    # seen from the side, facing right; anchor bottom middle
    dark = shade(c[0], 0.8)
    p.rect(-50, -100, 50, -86, c[0])                       # seat
    p.rect(-48, -86, -38, 0, dark)
    p.rect(38, -86, 48, 0, dark)
    if v == 0:
        p.rect(-52, -220, -38, -86, dark)
        p.rect(-52, -220, -30, -200, c[0])
        p.rect(-52, -180, -34, -168, c[0])
    else:
        p.oval(-46, -170, 22, 54, c[0])
        p.rect(-52, -130, -40, -86, dark)


@kind("cat", 2, turn="mirror", palette=(BLACK, ORANGE, GREY, WHITE, BROWN))
def _cat(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    # sitting, facing right; anchor bottom middle
    eye = YELLOW if c[0] != YELLOW else GREEN
    if v == 0:
        p.oval(-6, -42, 34, 42, c[0])
        p.stroke([(-34, -8), (-62, -22), (-58, -60)], 9, c[0])
        p.circle(16, -92, 24, c[0])
        p.poly([(2, -108), (6, -130), (18, -112)], c[0])
        p.poly([(20, -112), (34, -128), (34, -104)], c[0])
        p.circle(14, -94, 5, eye, False)
        p.circle(28, -94, 5, eye, False)
    else:
        p.oval(-10, -26, 54, 26, c[0])
        p.stroke([(-60, -12), (-86, -6), (-96, -26)], 9, c[0])
        p.circle(40, -46, 22, c[0])
        p.poly([(26, -60), (30, -82), (42, -64)], c[0])
        p.poly([(44, -64), (58, -80), (58, -56)], c[0])
        p.circle(38, -48, 5, eye, False)
        p.circle(52, -48, 5, eye, False)


@kind("hat", 2, palette=(BLACK, BROWN, GREY, NAVY, MAROON, GREEN))
def _hat(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.oval(0, -8, 56, 10, c[0])
    if v == 0:
        p.rect(-32, -80, 32, -8, c[0])
        p.rect(-32, -28, 32, -18, RED, False)
    else:
        p.poly(p.arc_poly(0, -8, 36, 48, math.pi, 2 * math.pi, 18), c[0])
        p.rect(-34, -20, 34, -12, RED, False)


@kind("plant", 2, palette=(RED, BLUE, YELLOW, WHITE, TAN, TEAL, PURPLE))
def _plant(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    leaf = GREEN if c[0] != GREEN else LIME
    if v == 0:
        for (x, y, r) in ((-30, -100, 34), (28, -104, 36), (0, -140, 38), (0, -92, 30)):
            p.circle(x, y, r, leaf)
    else:
        for a in (-60, -35, -10, 15, 40, 65):
            t = math.radians(a - 90)
            tip = (96 * math.cos(t), -60 + 96 * math.sin(t))
            p.poly([(-8, -60), tip, (8, -60)], leaf)
    p.poly([(-40, -64), (40, -64), (30, 0), (-30, 0)], c[0])
    p.rect(-44, -72, 44, -60, c[0])


@kind("umbrella", 2, palette=(BLACK, RED, BLUE, GREEN, YELLOW, PURPLE))
def _umbrella(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    # closed umbrella standing on its tip
    p.stroke(p.arc_poly(-12, -190, 12, 14, 0, -math.pi, 8), 6, BROWN)
    p.stroke([(0, -190), (0, 0)], 5, INK)
    if v == 0:
        p.poly([(0, -10), (-18, -150), (0, -176), (18, -150)], c[0])
    else:
        p.poly([(0, -10), (-26, -120), (-14, -170), (14, -170), (26, -120)], c[0])


@kind("case", 2, palette=(BROWN, BLACK, MAROON, TAN, NAVY, GREEN))
def _case(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.rect(-60, -78, 60, 0, c[0])
        p.rect(-60, -50, 60, -42, shade(c[0], 0.7), False)
        p.stroke(p.arc_poly(0, -78, 20, 18, math.pi, 2 * math.pi, 10), 7, INK)
        p.rect(-6, -56, 6, -38, GOLD)
    else:
        p.poly(p.arc_poly(0, -30, 62, 56, math.pi, 2 * math.pi, 18) + [(62, 0), (-62, 0)], c[0])
        p.stroke(p.arc_poly(0, -84, 22, 20, math.pi, 2 * math.pi, 10), 7, INK)
        p.rect(-62, -30, 62, -22, GOLD, False)


@kind("footprints", 2, frozenset({"removed", "added", "moved", "turned", "reshaped"}),
      palette=((70, 50, 40), BLACK, WHITE))
def _footprints(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    # two shoe prints lying on the floor, toes to the right; anchor in the middle
    for (x, y) in ((-36, -12), (36, 12)):
        if v == 0:
            p.oval(x + 8, y, 24, 11, c[0], False)
            p.oval(x - 24, y, 9, 9, c[0], False)
        else:
            p.oval(x, y, 26, 12, c[0], False)
            for k in range(3):
                p.circle(x + 30, y - 10 + 10 * k, 4, c[0], False)


@kind("coatstand", 2, frozenset({"recoloured", "reshaped", "removed", "moved"}), "",
      (RED, BLUE, GREEN, TAN, GREY, PURPLE))
def _coatstand(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-5, -300, 5, 0, BROWN)
    p.stroke([(-34, 0), (0, -30), (34, 0)], 6, BROWN)
    p.stroke([(-26, -270), (0, -290), (26, -270)], 6, BROWN)
    if v == 0:
        p.poly([(-20, -280), (20, -280), (44, -110), (-44, -110)], c[0])   # coat
        p.stroke([(0, -270), (0, -120)], 3, INK)
    else:
        p.poly([(-18, -280), (18, -280), (30, -190), (-30, -190)], c[0])   # short cape
        p.oval(0, -296, 30, 8, BLACK)
        p.rect(-18, -330, 18, -296, BLACK)


# ================================================================ street things

@kind("building", 2, frozenset({"recoloured", "reshaped"}), "",
      ((170, 70, 50), (90, 110, 150), (190, 150, 80), (120, 120, 120), (150, 90, 140), (80, 140, 110)))
def _building(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    # anchor bottom left; 260 wide, 400 high
    if v == 0:
        p.rect(0, -400, 260, 0, c[0])
        p.rect(-8, -416, 268, -396, shade(c[0], 0.7))
    else:
        p.poly([(0, -360), (130, -450), (260, -360), (260, 0), (0, 0)], c[0])
        p.poly([(-10, -354), (130, -466), (270, -354), (260, -346), (130, -446), (0, -346)], shade(c[0], 0.6))


@kind("bwindow", 2, ALL - {"turned", "moved"}, palette=((250, 214, 90), (40, 50, 80), (250, 170, 70), (120, 200, 230)))
def _bwindow(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    frame = c[1] if len(c) > 1 else WHITE
    if v == 0:
        p.rect(-34, -44, 34, 44, frame)
        p.rect(-26, -36, 26, 36, c[0])
    else:
        p.circle(0, -14, 34, frame)
        p.rect(-34, -14, 34, 44, frame)
        p.circle(0, -14, 26, c[0], False)
        p.rect(-26, -14, 26, 36, c[0], False)
    p.rect(-3, -36 if v == 0 else -40, 3, 36, frame, False)
    p.rect(-26, -3, 26, 3, frame, False)


@kind("door", 2, ALL - {"turned"}, palette=(RED, GREEN, BLUE, BLACK, YELLOW, TEAL, BROWN))
def _door(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.rect(-40, -140, 40, 0, c[0])
        p.rect(-28, -126, 28, -80, shade(c[0], 0.8))
    else:
        p.circle(0, -100, 40, c[0])
        p.rect(-40, -100, 40, 0, c[0])
        p.circle(0, -100, 20, (250, 214, 90))
    p.circle(24, -60, 6, GOLD)


@kind("sign", 2, palette=(RED, BLUE, GREEN, YELLOW, WHITE, PURPLE, ORANGE))
def _sign(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    # hanging shop sign; anchor at the bracket on the wall
    p.stroke([(0, 0), (70, 0)], 6, INK)
    p.stroke([(30, 0), (30, 22)], 3, INK)
    p.stroke([(62, 0), (62, 22)], 3, INK)
    if v == 0:
        p.rect(10, 22, 84, 86, c[0])
    else:
        p.oval(47, 56, 40, 34, c[0])
    p.star(47, 54, 18, 8, 5, WHITE if c[0] != WHITE else RED, False)


@kind("lamppost", 2, frozenset({"recoloured", "reshaped", "removed", "moved", "resized"}), "",
      (BLACK, GREEN, NAVY, MAROON))
def _lamppost(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-7, -300, 7, 0, c[0])
    p.rect(-16, -20, 16, 0, c[0])
    if v == 0:
        p.poly([(-26, -356), (26, -356), (18, -304), (-18, -304)], (250, 224, 120))
        p.poly([(-34, -356), (0, -384), (34, -356)], c[0])
    else:
        p.circle(0, -336, 32, (250, 224, 120))
        p.rect(-12, -306, 12, -298, c[0])


@kind("car", 2, turn="mirror", palette=(RED, BLUE, YELLOW, GREEN, WHITE, BLACK, ORANGE, TEAL, PURPLE))
def _car(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    # facing right; anchor bottom middle
    if v == 0:
        p.poly([(-130, -30), (-124, -66), (-70, -72), (-40, -112), (50, -112), (84, -72), (128, -62),
                (134, -30)], c[0])
        p.poly([(-32, -102), (-4, -102), (-4, -74), (-56, -74)], (170, 210, 235))
        p.poly([(6, -102), (44, -102), (70, -74), (6, -74)], (170, 210, 235))
    else:
        p.poly([(-130, -30), (-130, -130), (70, -130), (100, -90), (134, -70), (134, -30)], c[0])
        p.poly([(76, -120), (96, -88), (76, -88)], (170, 210, 235))
        p.rect(-110, -110, 50, -90, (170, 210, 235))
    p.rect(-136, -36, 138, -20, shade(c[0], 0.6))
    p.circle(128, -54, 8, YELLOW)
    for x in (-76, 76):
        p.circle(x, -22, 24, BLACK)
        p.circle(x, -22, 10, GREY)


@kind("hydrant", 2, palette=(RED, YELLOW, GREEN, BLUE, ORANGE))
def _hydrant(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-24, -10, 24, 0, c[0])
    p.rect(-17, -70, 17, -10, c[0])
    p.rect(-30, -56, 30, -42, c[0])
    if v == 0:
        p.poly(p.arc_poly(0, -70, 18, 18, math.pi, 2 * math.pi, 10), c[0])
    else:
        p.rect(-20, -92, 20, -70, c[0])
        p.rect(-6, -100, 6, -92, c[0])


@kind("bin", 2, palette=(GREY, GREEN, BLUE, BLACK, YELLOW))
def _bin(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.poly([(-34, -84), (34, -84), (28, 0), (-28, 0)], c[0])
    for x in (-16, 0, 16):
        p.stroke([(x, -74), (x * 0.8, -10)], 3, shade(c[0], 0.6))
    if v == 0:
        p.rect(-40, -96, 40, -84, c[0])
        p.rect(-8, -104, 8, -96, c[0])
    else:
        p.poly(p.arc_poly(0, -84, 40, 26, math.pi, 2 * math.pi, 12), c[0])


@kind("bench", 2, palette=(BROWN, GREEN, RED, BLUE, TAN))
def _bench(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-90, -46, 90, -34, c[0])
    for x in (-74, 64):
        p.rect(x, -34, x + 10, 0, BLACK)
    if v == 0:
        p.rect(-90, -96, 90, -84, c[0])
        p.rect(-90, -74, 90, -62, c[0])
        p.rect(-76, -96, -68, -46, BLACK, False)
        p.rect(68, -96, 76, -46, BLACK, False)


@kind("tree", 2, frozenset({"recoloured", "reshaped", "removed", "moved", "resized"}), "",
      (GREEN, LIME, (30, 110, 60), ORANGE, TEAL))
def _tree(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-12, -110, 12, 0, BROWN)
    if v == 0:
        for (x, y, r) in ((-40, -150, 46), (40, -150, 46), (0, -196, 54), (0, -130, 40)):
            p.circle(x, y, r, c[0])
    else:
        for k in range(3):
            w, top = 80 - 18 * k, -100 - 62 * k
            p.poly([(-w, top), (0, top - 110), (w, top)], c[0])


@kind("cone", 2, palette=(ORANGE, RED, YELLOW, BLUE))
def _cone(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-34, -10, 34, 0, c[0])
    if v == 0:
        p.poly([(-24, -10), (-6, -96), (6, -96), (24, -10)], c[0])
        p.poly([(-17, -44), (17, -44), (14, -60), (-14, -60)], WHITE, False)
    else:
        p.rect(-22, -80, 22, -10, c[0])
        p.rect(-22, -56, 22, -40, WHITE, False)


@kind("mailbox", 2, palette=(RED, BLUE, GREEN, YELLOW, BLACK))
def _mailbox(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.rect(-28, -120, 28, 0, c[0])
        p.poly(p.arc_poly(0, -120, 28, 20, math.pi, 2 * math.pi, 12), c[0])
    else:
        p.rect(-10, -80, 10, 0, BLACK)
        p.poly(p.arc_poly(0, -120, 40, 30, math.pi, 2 * math.pi, 12) + [(40, -80), (-40, -80)], c[0])
    p.rect(-16, -100, 16, -92, INK, False)


@kind("star", 2, frozenset({"removed", "added", "moved", "resized", "reshaped"}), "",
      ((250, 240, 170),))
def _star(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.star(0, 0, 22, 9, 5, c[0], False)
    else:
        p.star(0, 0, 24, 5, 4, c[0], False)


@kind("cloud", 2, frozenset({"removed", "added", "moved", "resized", "reshaped", "recoloured"}), "",
      ((200, 204, 220), (120, 124, 150), (230, 200, 220)))
def _cloud(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        for (x, y, r) in ((-50, 0, 30), (0, -14, 40), (50, 0, 30)):
            p.circle(x, y, r, c[0], False)
        p.rect(-50, 0, 50, 30, c[0], False)
    else:
        p.oval(0, 4, 100, 24, c[0], False)
        p.oval(-20, -12, 46, 20, c[0], False)


# ================================================================ desk things (seen from above)

@kind("blotter", 1, SUPPORT, "", (GREEN, NAVY, MAROON, BLACK))
def _blotter(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-260, -170, 260, 170, c[0])
    p.rect(-260, -170, -220, 170, BROWN)
    p.rect(220, -170, 260, 170, BROWN)


@kind("paper", 2, palette=(WHITE, CREAM, YELLOW, PINK, SKY))
def _paper(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-60, -80, 60, 80, c[0])
    if v == 0:
        for y in range(-60, 70, 16):
            p.rect(-44, y, 44 if y % 32 else 20, y + 5, (110, 110, 130), False)
    else:
        p.circle(0, -20, 34, (110, 110, 130), False)
        p.circle(0, -20, 26, c[0], False)
        p.stroke([(-40, 40), (40, 60)], 5, RED)


@kind("polaroid", 2, palette=(SKY, PINK, LIME, ORANGE, TEAL))
def _polaroid(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-56, -62, 56, 70, WHITE)
    p.rect(-46, -52, 46, 40, c[0], False)
    if v == 0:
        p.poly([(-46, 40), (-46, 10), (-10, -16), (20, 12), (46, -6), (46, 40)], GREEN, False)
        p.circle(26, -30, 10, YELLOW, False)
    else:
        p.circle(0, -10, 22, (238, 196, 160), False)
        p.poly([(-30, 40), (-24, 16), (24, 16), (30, 40)], BLUE, False)


@kind("pencil", 2, palette=(YELLOW, RED, BLUE, GREEN, ORANGE, PURPLE))
def _pencil(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-70, -9, 60, 9, c[0])
    p.poly([(60, -9), (90, 0), (60, 9)], TAN)
    p.poly([(82, -3), (90, 0), (82, 3)], INK, False)
    if v == 0:
        p.rect(-88, -9, -70, 9, PINK)
    else:
        p.rect(-80, -9, -70, 9, GREY)
        p.rect(-88, -6, -80, 6, GREY)


@kind("mug", 2, turn="tilt", palette=(WHITE, RED, BLUE, YELLOW, GREEN, BLACK, PINK))
def _mug(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.rect(30, -10, 62, 10, c[0])
        p.circle(0, 0, 42, c[0])
    else:
        p.rect(28, -12, 58, 12, c[0])
        p.rect(-40, -40, 40, 40, c[0])
    p.circle(0, 0, 32, (110, 60, 30))


@kind("glasses", 2, palette=(BLACK, GOLD, RED, BLUE, BROWN))
def _glasses(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    for x in (-40, 40):
        if v == 0:
            p.circle(x, 0, 32, c[0])
            p.circle(x, 0, 24, (200, 228, 240), False)
        else:
            p.rect(x - 34, -24, x + 34, 24, c[0])
            p.rect(x - 26, -16, x + 26, 16, (200, 228, 240), False)
    p.stroke([(-10, -4), (10, -4)], 6, c[0])


@kind("key", 2, palette=(GOLD, GREY, BLACK, RED))
def _key(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.circle(-50, 0, 24, c[0])
        p.circle(-50, 0, 10, shade(c[0], 0.5), False)
    else:
        p.rect(-72, -22, -30, 22, c[0])
        p.rect(-60, -10, -42, 10, shade(c[0], 0.5), False)
    p.rect(-30, -7, 50, 7, c[0])
    p.rect(30, 7, 38, 24, c[0])
    p.rect(42, 7, 50, 20, c[0])


@kind("coin", 2, palette=(GOLD, GREY, (190, 110, 60)))
def _coin(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    if v == 0:
        p.circle(0, 0, 30, c[0])
    else:
        p.star(0, 0, 32, 29, 6, c[0], True, 0)
    p.circle(0, 0, 20, shade(c[0], 0.8), False)


@kind("notebook", 2, palette=(RED, BLUE, GREEN, BLACK, PURPLE, ORANGE, TEAL))
def _notebook(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-70, -90, 70, 90, c[0])
    if v == 0:
        for y in range(-80, 90, 20):
            p.circle(-70, y, 6, GREY)
    else:
        p.rect(-70, -90, -50, 90, shade(c[0], 0.6))
    p.rect(-30, -50, 40, -20, WHITE)


@kind("envelope", 2, palette=(WHITE, CREAM, SKY, PINK, YELLOW))
def _envelope(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-80, -52, 80, 52, c[0])
    p.stroke([(-80, -52), (0, 10), (80, -52)], 4, shade(c[0], 0.7))
    if v == 0:
        p.circle(0, 10, 16, RED)
    else:
        p.star(0, 10, 20, 10, 6, RED, True)


@kind("watch", 2, palette=(GOLD, GREY, BLACK))
def _watch(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.stroke([(0, -44), (20, -80), (60, -90), (90, -70)], 5, c[0])
    if v == 0:
        p.circle(0, 0, 44, c[0])
    else:
        p.star(0, 0, 46, 42, 8, c[0], True, math.pi / 8)
    p.circle(0, 0, 34, WHITE)
    p.stroke([(0, 0), (0, -26)], 5, INK)
    p.stroke([(0, 0), (18, 6)], 6, INK)


@kind("card", 2, palette=(WHITE, CREAM))
def _card(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-44, -62, 44, 62, c[0])
    if v == 0:
        p.circle(-12, -10, 16, RED, False)
        p.circle(12, -10, 16, RED, False)
        p.poly([(-27, -2), (27, -2), (0, 30)], RED, False)
    else:
        p.circle(-12, 4, 16, BLACK, False)
        p.circle(12, 4, 16, BLACK, False)
        p.poly([(-27, -4), (27, -4), (0, -34)], BLACK, False)
        p.rect(-5, 4, 5, 30, BLACK, False)


@kind("dice", 2, palette=(WHITE, RED, YELLOW, SKY))
def _dice(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-34, -34, 34, 34, c[0])
    pips = [(-18, -18), (18, 18), (0, 0)] if v == 0 else [(-18, -18), (18, -18), (-18, 18), (18, 18), (0, 0), (-18, 0)]
    for (x, y) in pips:
        p.circle(x, y, 7, INK if c[0] != BLACK else WHITE, False)


@kind("matchbox", 2, palette=(RED, YELLOW, BLUE, GREEN, ORANGE))
def _matchbox(p: Pen, v: int, c: tuple[Colour, ...]) -> None:
    p.rect(-56, -36, 56, 36, c[0])
    p.rect(-56, -36, -44, 36, (120, 70, 50), False)
    if v == 0:
        p.star(6, 0, 24, 10, 5, WHITE, False)
    else:
        p.circle(6, 0, 22, WHITE, False)
    p.stroke([(60, 24), (120, 40)], 6, TAN)
    p.circle(122, 41, 7, RED, False)


def moved_thing(t: Thing, dx: float, dy: float) -> Thing:
    """``t`` moved by (dx, dy) photo units."""
    return replace(t, x=t.x + dx, y=t.y + dy)
