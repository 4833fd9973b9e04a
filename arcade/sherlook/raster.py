"""A small pure-Python rasteriser and the SL-1 check of a photo pair.

The check renders both photos of a pair on a coarse grid (default 100 x 75
cells of 10 x 10 photo units, sampled at the cell centres), compares them and
asks what SL-1 asks:

* no cell differs outside the declared alterations' boxes;
* each declared alteration changes, with a colour distance of at least
  ``min_colour`` (largest channel difference), at least ``min_area`` photo
  units² (so every difference is big and clear enough to find on a TV),
  measured inside its box on a grid twice as fine, outlines painted (unless
  the coarse grid already finds ``sure_factor`` times that);
* no two alterations' boxes overlap (they stay ``min_gap`` units apart);
* so the number of regions where the photos differ is the declared count.

Outlines are painted only when areas are measured; the kiosk's pygame check
(``kiosk.games.sherlook.draw.check_rendered``) repeats the test on the real
renderings, outlines included.

Pure: standard library only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from arcade.sherlook.shapes import PHOTO_H, PHOTO_W, Box, Shape, gap

if TYPE_CHECKING:
    from arcade.sherlook.photos import PhotoPair

Grid = list[list[int]]


@dataclass(frozen=True)
class CheckLimits:
    """Thresholds of the SL-1 check.

    Attributes:
        min_area: strongly changed area each difference must have, photo
            units² (1600 = a 40 x 40 square: about 25 x 25 px on a side by
            side pose, 16 x 16 px one above the other).
        min_colour: colour distance (largest channel difference, 0..255)
            for a changed cell to count as strongly changed.
        min_gap: smallest distance between two alterations' boxes, photo units.
        cols, rows: the coarse grid (default 100 x 75 cells of 10 x 10 units).
        sure_factor: a difference whose strong area on the coarse grid is this
            many times ``min_area`` is not measured again on the fine grid.
    """

    min_area: float = 1600.0
    min_colour: int = 64
    min_gap: float = 12.0
    cols: int = 100
    rows: int = 75
    sure_factor: float = 4.0


def pack(c: tuple[int, int, int]) -> int:
    return (c[0] << 16) | (c[1] << 8) | c[2]


def unpack(v: int) -> tuple[int, int, int]:
    return ((v >> 16) & 255, (v >> 8) & 255, v & 255)


def distance(a: int, b: int) -> int:
    """Largest channel difference of two packed colours."""
    return max(abs(((a >> 16) & 255) - ((b >> 16) & 255)), abs(((a >> 8) & 255) - ((b >> 8) & 255)),
               abs((a & 255) - (b & 255)))


def _polys(sh: Shape) -> tuple[tuple[tuple[float, float, float, float], ...], ...]:
    """A poly or line shape as polygons given by their non-horizontal edges
    ``(y low, y high, x at y low, dx/dy)``."""
    rings: list[list[tuple[float, float]]] = []
    if sh.kind == "poly":
        rings.append(list(sh.pts))
    elif sh.kind == "line":
        hw = sh.width / 2
        for (x1, y1), (x2, y2) in zip(sh.pts, sh.pts[1:]):
            dx, dy = x2 - x1, y2 - y1
            ln = math.hypot(dx, dy) or 1.0
            nx, ny = -dy / ln * hw, dx / ln * hw
            rings.append([(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)])
    out = []
    for ring in rings:
        edges = []
        for i in range(len(ring)):
            (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % len(ring)]
            if y1 != y2:
                # (lowest y, highest y, x at the lowest y, dx/dy)
                if y1 < y2:
                    edges.append((y1, y2, x1, (x2 - x1) / (y2 - y1)))
                else:
                    edges.append((y2, y1, x2, (x1 - x2) / (y1 - y2)))
        out.append(tuple(edges))
    return tuple(out)


def _outlined(sh: Shape) -> tuple[Shape, ...]:
    """``sh`` as outline-free parts that paint its outline too (ovals: a larger oval in the
    outline colour under a smaller one; polygons: the fill, then each edge as a line)."""
    if sh.line is None or sh.width <= 0 or sh.kind == "line":
        return (sh,)
    hw = sh.width / 2
    if sh.kind == "oval":
        cx, cy, rx, ry, a = sh.oval
        return (Shape("oval", sh.line, oval=(cx, cy, rx + hw, ry + hw, a)),
                Shape("oval", sh.fill, oval=(cx, cy, max(0.0, rx - hw), max(0.0, ry - hw), a)))
    out = [Shape("poly", sh.fill, sh.pts)]
    bent: list[tuple[float, float]] = []
    ring = sh.pts + sh.pts[:1]
    for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
        if x1 == x2 or y1 == y2:      # upright edges paint as upright rectangles (fast)
            xa, xb = min(x1, x2) - (hw if x1 == x2 else 0), max(x1, x2) + (hw if x1 == x2 else 0)
            ya, yb = min(y1, y2) - (hw if y1 == y2 else 0), max(y1, y2) + (hw if y1 == y2 else 0)
            out.append(Shape("poly", sh.line, ((xa, ya), (xb, ya), (xb, yb), (xa, yb))))
            if bent:
                out.append(Shape("line", sh.line, tuple(bent), width=sh.width))
                bent = []
        else:
            if not bent:
                bent.append((x1, y1))
            bent.append((x2, y2))
    if bent:
        out.append(Shape("line", sh.line, tuple(bent), width=sh.width))
    return tuple(out)


def parts(sh: Shape, outlines: bool) -> tuple[Shape, ...]:
    """What the rasteriser paints for ``sh`` (cached on the shape)."""
    if not outlines:
        return (sh,)
    d = sh.__dict__
    if "_ol" not in d:
        d["_ol"] = _outlined(sh)
    return d["_ol"]  # type: ignore[no-any-return]


def _axis_rect(sh: Shape) -> tuple[float, float, float, float] | None:
    """``(x0, y0, x1, y1)`` if ``sh`` is an upright rectangle (or an upright
    one-segment line), else None."""
    if sh.kind == "line" and len(sh.pts) == 2:
        (ax, ay), (bx, by) = sh.pts
        hw = sh.width / 2
        if ax == bx:
            return (ax - hw, min(ay, by), ax + hw, max(ay, by))
        if ay == by:
            return (min(ax, bx), ay - hw, max(ax, bx), ay + hw)
        return None
    if sh.kind != "poly" or len(sh.pts) != 4:
        return None
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = sh.pts
    if ay == by and bx == cx and cy == dy and dx == ax:
        return (min(ax, bx), min(ay, cy), max(ax, bx), max(ay, cy))
    if ax == bx and by == cy and cx == dx and dy == ay:
        return (min(ax, cx), min(ay, by), max(ax, cx), max(ay, by))
    return None


def _oval_plan(sh: Shape) -> tuple[float, float, float, float, float] | None:
    """Constants of an oval's row equation ``qa*dx² + k1*dy*dx + k2*dy² <= 1``."""
    cx, cy, rx, ry, a = sh.oval
    if rx <= 0 or ry <= 0:
        return None
    c, s = math.cos(a), math.sin(a)
    ia, ib = 1 / (rx * rx), 1 / (ry * ry)
    return (cx, cy, c * c * ia + s * s * ib, 2 * c * s * (ia - ib), s * s * ia + c * c * ib)


def rasterise(shapes: Sequence[Shape], cols: int = 100, rows: int = 75, window: tuple[int, int, int, int] | None = None,
              phase: float = 0.5, outlines: bool = False) -> Grid:
    """Fill colours of ``shapes`` sampled on a ``cols`` x ``rows`` grid.

    Args:
        shapes: drawn in order (later on top).
        cols, rows: grid size over the whole photo.
        window: only cells ``(c0, r0, c1, r1)`` (half-open) are computed.
        phase: where in a cell the sample is taken (0.5 = its centre).
        outlines: paint outlines too (slower; used to measure areas).

    Returns:
        Rows of packed colours (``(r << 16) | (g << 8) | b``; 0 = black where
        nothing is drawn), ``r1 - r0`` rows of ``c1 - c0`` cells.

    A cell is covered when its sample point is inside the shape (rows:
    half-open at the bottom edge, columns: closed), the same rule for every
    shape, so two renderings of one scene are identical cell for cell.
    """
    cw, ch = PHOTO_W / cols, PHOTO_H / rows
    c0, r0, c1, r1 = window or (0, 0, cols, rows)
    grid: Grid = [[0] * (c1 - c0) for _ in range(r1 - r0)]
    wx0, wy0, wx1, wy1 = c0 * cw, r0 * ch, c1 * cw, r1 * ch
    for whole in shapes:
        bx0, by0, bx1, by1 = whole.box()
        if bx1 < wx0 or bx0 > wx1 or by1 < wy0 or by0 > wy1:
            continue
        for sh in parts(whole, outlines):
            _paint(sh, grid, cw, ch, c0, r0, c1, r1, phase)
    return grid


def _paint(sh: Shape, grid: Grid, cw: float, ch: float, c0: int, r0: int, c1: int, r1: int,
           phase: float) -> None:
    """Paint one outline-free shape into the window ``(c0, r0, c1, r1)`` of ``grid``."""
    ceil, floor = math.ceil, math.floor
    col = pack(sh.fill)
    rect = sh.upright
    if rect is not None:
        # an upright rectangle: the same span on every row
        x0, y0, x1, y1 = rect
        ra = max(r0, ceil(y0 / ch - phase))
        rb = min(r1 - 1, ceil(y1 / ch - phase) - 1)
        ca = max(c0, ceil(x0 / cw - phase))
        cb = min(c1 - 1, floor(x1 / cw - phase))
        if ca <= cb and ra <= rb:
            seg = [col] * (cb - ca + 1)
            for r in range(ra - r0, rb - r0 + 1):
                grid[r][ca - c0:cb - c0 + 1] = seg
        return
    bx0, by0, bx1, by1 = sh.box()
    ra = max(r0, ceil(by0 / ch - phase))
    rb = min(r1 - 1, floor(by1 / ch - phase))
    if sh.kind == "oval":
        plan = _oval_plan(sh)
        if plan is None:
            return
        cx, cy, qa, k1, k2 = plan
        two_qa = 2 * qa
        for r in range(ra, rb + 1):
            dy = (r + phase) * ch - cy
            qb = k1 * dy
            disc = qb * qb - 4 * qa * (k2 * dy * dy - 1)
            if disc < 0:
                continue
            root = math.sqrt(disc)
            ca = max(c0, ceil((cx + (-qb - root) / two_qa) / cw - phase))
            cb = min(c1 - 1, floor((cx + (-qb + root) / two_qa) / cw - phase))
            if ca <= cb:
                grid[r - r0][ca - c0:cb - c0 + 1] = [col] * (cb - ca + 1)
        return
    for edges in sh.edges:
        for r in range(ra, rb + 1):
            y = (r + phase) * ch
            xs = [x + (y - ya) * k for (ya, yb, x, k) in edges if ya <= y < yb]
            if not xs:
                continue
            xs.sort()
            row = grid[r - r0]
            for i in range(0, len(xs) - 1, 2):
                ca = max(c0, ceil(xs[i] / cw - phase))
                cb = min(c1 - 1, floor(xs[i + 1] / cw - phase))
                if ca <= cb:
                    row[ca - c0:cb - c0 + 1] = [col] * (cb - ca + 1)


def window_of(box: Box, cols: int, rows: int) -> tuple[int, int, int, int]:
    """The grid cells covering ``box`` (half-open ``(c0, r0, c1, r1)``), clipped."""
    cw, ch = PHOTO_W / cols, PHOTO_H / rows
    return (max(0, int(box[0] / cw)), max(0, int(box[1] / ch)),
            min(cols, int(math.ceil(box[2] / cw)) + 1), min(rows, int(math.ceil(box[3] / ch)) + 1))


@dataclass(frozen=True)
class Region:
    """What the check found for one declared alteration.

    ``cells`` differing coarse cells inside its box, ``strong_area`` photo
    units² changed by at least ``min_colour`` (fine grid), ``max_colour`` the
    largest change.
    """

    index: int
    box: Box
    cells: int
    strong_area: float
    max_colour: int


@dataclass(frozen=True)
class CheckReport:
    """The result of :func:`check_pair`.

    Attributes:
        ok: every SL-1 condition holds.
        problems: what failed, in words (empty when ok).
        regions: one per declared alteration.
        count: number of regions where the photos differ (boxes holding
            strong differences, plus one if anything differs outside them).
        outside: differing cells outside every declared box.
        failing: indexes of the alterations that failed their own test.
    """

    ok: bool
    problems: tuple[str, ...]
    regions: tuple[Region, ...]
    count: int
    outside: int
    failing: tuple[int, ...]


def strong_area(grid_a: Grid, grid_b: Grid, min_colour: int, cell_area: float) -> tuple[int, float, int]:
    """(differing cells, strongly changed area, largest change) between two grids."""
    cells, strong, top = 0, 0, 0
    seen: dict[tuple[int, int], int] = {}
    for ra, rb in zip(grid_a, grid_b):
        if ra == rb:
            continue
        for a, b in zip(ra, rb):
            if a != b:
                cells += 1
                d = seen.get((a, b))
                if d is None:
                    d = seen[(a, b)] = distance(a, b)
                if d > top:
                    top = d
                if d >= min_colour:
                    strong += 1
    return cells, strong * cell_area, top


def fine_area(shapes_a: Sequence[Shape], shapes_b: Sequence[Shape], box: Box, lim: CheckLimits,
              phase: float = 0.5) -> tuple[int, float, int]:
    """Strongly changed area inside ``box``, on a grid twice as fine as the check's, outlines painted.

    Returns ``(differing fine cells, strong area in photo units², largest
    colour change)``.  Only the cells of ``box`` are rasterised.
    """
    cols, rows = lim.cols * 2, lim.rows * 2
    win = window_of(box, cols, rows)
    ga = rasterise(shapes_a, cols, rows, window=win, phase=phase, outlines=True)
    gb = rasterise(shapes_b, cols, rows, window=win, phase=phase, outlines=True)
    return strong_area(ga, gb, lim.min_colour, (PHOTO_W / cols) * (PHOTO_H / rows))


def check_pair(pair: "PhotoPair", limits: CheckLimits | None = None, phase: float = 0.5,
               areas: bool = True) -> CheckReport:
    """The SL-1 check of a pair (see the module docstring).

    The whole photos are compared on the coarse grid (differences outside the
    declared boxes, number of regions); each declared box is then measured
    on a grid twice as fine (strongly changed area).  ``phase`` moves the
    sample point inside each cell, so a second check with another phase
    samples other points than the generator's own check.  ``areas=False``
    skips the area measurement (the generator measures each alteration's
    area when it chooses it, see ``arcade.sherlook.photos``).
    """
    lim = limits or CheckLimits()
    cols, rows = lim.cols, lim.rows
    cw, ch = PHOTO_W / cols, PHOTO_H / rows
    sa, sb = pair.shapes(0), pair.shapes(1)
    a = rasterise(sa, cols, rows, phase=phase)
    b = rasterise(sb, cols, rows, phase=phase)
    boxes = [alt.box for alt in pair.alterations]
    problems: list[str] = []
    failing: set[int] = set()
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            if gap(boxes[i], boxes[j]) < lim.min_gap:
                problems.append(f"differences {i + 1} and {j + 1} are closer than {lim.min_gap:g} units")
                failing.add(j)
    cells = [0] * len(boxes)
    strong = [0] * len(boxes)
    top = [0] * len(boxes)
    outside = 0
    for r, (ra, rb) in enumerate(zip(a, b)):
        if ra == rb:
            continue
        y = (r + phase) * ch
        for c, (va, vb) in enumerate(zip(ra, rb)):
            if va == vb:
                continue
            x = (c + phase) * cw
            for k, bx in enumerate(boxes):
                if bx[0] <= x <= bx[2] and bx[1] <= y <= bx[3]:
                    cells[k] += 1
                    d = distance(va, vb)
                    top[k] = max(top[k], d)
                    if d >= lim.min_colour:
                        strong[k] += 1
                    break
            else:
                outside += 1
    regions = []
    count = 0
    for k, alt in enumerate(pair.alterations):
        area = strong[k] * cw * ch
        if not areas:
            area = float("nan")
        elif area < lim.sure_factor * lim.min_area:
            # not far above the threshold on the coarse grid: measure it finely
            _, area, top[k] = fine_area(sa, sb, boxes[k], lim, phase)
        regions.append(Region(k, boxes[k], cells[k], area, top[k]))
        if cells[k]:
            count += 1
        if areas and area < lim.min_area:
            problems.append(f"difference {k + 1} ({alt.describe()}) changes {area:.0f} units², "
                            f"less than {lim.min_area:.0f}")
            failing.add(k)
    if outside:
        problems.append(f"{outside} cells differ outside the declared alterations")
        count += 1
    if count != pair.count:
        problems.append(f"{count} regions differ but {pair.count} are declared")
    return CheckReport(not problems, tuple(problems), tuple(regions), count, outside, tuple(sorted(failing)))
