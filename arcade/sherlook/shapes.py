"""Vector shapes of a Sherlook photo: the only thing a renderer has to draw.

A photo is a list of :class:`Shape` in the photo's own frame: ``PHOTO_W`` x
``PHOTO_H`` photo units (1000 x 750, x to the right, y down).  Three kinds:

* ``"poly"``: a filled polygon (``pts``), optionally outlined;
* ``"oval"``: a filled ellipse (centre, radii, angle), optionally outlined;
* ``"line"``: a thick polyline (``pts``, ``width``) in ``fill``.

Things (``arcade.sherlook.things``) are drawn in their own local frame with a
:class:`Pen` and placed in the photo by :func:`place` (scale, mirror, turn,
move).  Pure: standard library only, no randomness, no clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

PHOTO_W = 1000
"""Photo width in photo units (the photo's own frame)."""
PHOTO_H = 750
"""Photo height in photo units."""

Colour = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""An axis-aligned box ``(x0, y0, x1, y1)`` in photo units, x0 <= x1, y0 <= y1."""


@dataclass(frozen=True)
class Shape:
    """One drawable primitive in photo units.

    Attributes:
        kind: ``"poly"``, ``"oval"`` or ``"line"``.
        pts: polygon corners or polyline points (``"poly"``, ``"line"``).
        oval: ``(cx, cy, rx, ry, angle)`` for ``"oval"``; angle in radians,
            clockwise on screen.
        fill: fill colour (for ``"line"``: the line's colour).
        line: outline colour, or None.
        width: outline width (``"poly"``/``"oval"``) or line width (``"line"``),
            photo units.
    """

    kind: str
    fill: Colour
    pts: tuple[Point, ...] = ()
    oval: tuple[float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 0.0)
    line: Colour | None = None
    width: float = 0.0

    def box(self) -> Box:
        """The shape's bounding box including its outline (photo units)."""
        try:
            return self.__dict__["_bb"]  # type: ignore[no-any-return]
        except KeyError:
            bb = self.__dict__["_bb"] = self._compute_box()
            return bb

    def _compute_box(self) -> Box:
        pad = self.width / 2 if self.kind != "line" else self.width / 2 + 0.5
        if self.kind == "oval":
            cx, cy, rx, ry, a = self.oval
            c, s = math.cos(a), math.sin(a)
            hw = math.sqrt((rx * c) ** 2 + (ry * s) ** 2)
            hh = math.sqrt((rx * s) ** 2 + (ry * c) ** 2)
            return (cx - hw - pad, cy - hh - pad, cx + hw + pad, cy + hh + pad)
        xs = [p[0] for p in self.pts]
        ys = [p[1] for p in self.pts]
        return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)

    @property
    def upright(self) -> Box | None:
        """``(x0, y0, x1, y1)`` when the shape is an upright rectangle (for rasterisers)."""
        d = self.__dict__
        if "_up" not in d:
            from arcade.sherlook.raster import _axis_rect
            d["_up"] = _axis_rect(self)
        return d["_up"]  # type: ignore[no-any-return]

    @property
    def edges(self) -> tuple[tuple[tuple[float, float, float, float], ...], ...]:
        """Polygons (poly, or a line's segments) as non-horizontal edges
        ``(y low, y high, x at y low, dx/dy)`` (for rasterisers)."""
        d = self.__dict__
        if "_edges" not in d:
            from arcade.sherlook.raster import _polys
            d["_edges"] = _polys(self)
        return d["_edges"]  # type: ignore[no-any-return]

    def outline_points(self, n: int = 40) -> tuple[Point, ...]:
        """An oval as a polygon of ``n`` corners (polygons: their corners)."""
        if self.kind != "oval":
            return self.pts
        cx, cy, rx, ry, a = self.oval
        c, s = math.cos(a), math.sin(a)
        out = []
        for i in range(n):
            t = 2 * math.pi * i / n
            u, v = rx * math.cos(t), ry * math.sin(t)
            out.append((cx + u * c - v * s, cy + u * s + v * c))
        return tuple(out)


def union(boxes: list[Box] | tuple[Box, ...]) -> Box:
    """The smallest box holding every box (raises ValueError for none)."""
    if not boxes:
        raise ValueError("union of no boxes")
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def grow(box: Box, by: float) -> Box:
    """``box`` enlarged by ``by`` photo units on every side."""
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def gap(a: Box, b: Box) -> float:
    """Distance between two boxes along the axis where they are furthest apart
    (negative when they overlap), photo units."""
    dx = max(b[0] - a[2], a[0] - b[2])
    dy = max(b[1] - a[3], a[1] - b[3])
    return max(dx, dy)


def clip(box: Box) -> Box:
    """``box`` clipped to the photo."""
    return (max(0.0, box[0]), max(0.0, box[1]), min(float(PHOTO_W), box[2]), min(float(PHOTO_H), box[3]))


def area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


@dataclass
class Pen:
    """Collects shapes in a thing's local frame (origin at the thing's anchor).

    Every method takes local coordinates in photo units at scale 1 and appends
    one :class:`Shape`.  ``ink`` is the default outline colour and ``ink_w``
    its width.
    """

    ink: Colour | None = (30, 26, 28)
    ink_w: float = 3.0
    shapes: list[Shape] = field(default_factory=list)

    def _line(self, line: Colour | None | bool) -> tuple[Colour | None, float]:
        if line is False or line is None and self.ink is None:
            return None, 0.0
        if line is None or line is True:
            return self.ink, self.ink_w
        return line, self.ink_w

    def poly(self, pts: list[Point] | tuple[Point, ...], fill: Colour, line: Colour | None | bool = None) -> None:
        ln, w = self._line(line)
        self.shapes.append(Shape("poly", fill, tuple(pts), line=ln, width=w))

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: Colour,
             line: Colour | None | bool = None) -> None:
        self.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], fill, line)

    def oval(self, cx: float, cy: float, rx: float, ry: float, fill: Colour,
             line: Colour | None | bool = None, angle: float = 0.0) -> None:
        ln, w = self._line(line)
        self.shapes.append(Shape("oval", fill, oval=(cx, cy, rx, ry, angle), line=ln, width=w))

    def circle(self, cx: float, cy: float, r: float, fill: Colour, line: Colour | None | bool = None) -> None:
        self.oval(cx, cy, r, r, fill, line)

    def stroke(self, pts: list[Point] | tuple[Point, ...], width: float, colour: Colour) -> None:
        self.shapes.append(Shape("line", colour, tuple(pts), width=width))

    def star(self, cx: float, cy: float, r_out: float, r_in: float, points: int, fill: Colour,
             line: Colour | None | bool = None, turn: float = -math.pi / 2) -> None:
        pts = []
        for i in range(points * 2):
            r = r_out if i % 2 == 0 else r_in
            t = turn + math.pi * i / points
            pts.append((cx + r * math.cos(t), cy + r * math.sin(t)))
        self.poly(pts, fill, line)

    def arc_poly(self, cx: float, cy: float, rx: float, ry: float, t0: float, t1: float,
                 n: int = 12) -> list[Point]:
        """Points along an elliptical arc from angle t0 to t1 (radians)."""
        return [(cx + rx * math.cos(t0 + (t1 - t0) * i / n), cy + ry * math.sin(t0 + (t1 - t0) * i / n))
                for i in range(n + 1)]


def place(shapes: list[Shape] | tuple[Shape, ...], x: float, y: float, scale: float = 1.0,
          angle_deg: float = 0.0, mirror: bool = False, stretch: float = 1.0) -> tuple[Shape, ...]:
    """Local shapes -> photo shapes: stretch x, mirror, scale, turn (clockwise, degrees), move.

    The anchor (local origin) lands on ``(x, y)``; outline and line widths
    scale with ``scale``.
    """
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    mx = -stretch if mirror else stretch

    def tp(p: Point) -> Point:
        px, py = p[0] * mx * scale, p[1] * scale
        return (x + px * c - py * s, y + px * s + py * c)

    out = []
    for sh in shapes:
        if sh.kind == "oval":
            cx, cy, rx, ry, oa = sh.oval
            nx, ny = tp((cx, cy))
            oa2 = -oa if mirror else oa
            out.append(Shape("oval", sh.fill, oval=(nx, ny, rx * scale * stretch, ry * scale, oa2 + a),
                             line=sh.line, width=sh.width * scale))
        else:
            out.append(Shape(sh.kind, sh.fill, tuple(tp(p) for p in sh.pts), line=sh.line,
                             width=sh.width * scale))
    return tuple(out)


def boxes_of(shapes: tuple[Shape, ...]) -> Box:
    """Bounding box of several shapes (photo units)."""
    return union([s.box() for s in shapes])
