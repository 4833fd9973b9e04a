"""Drawing FOCUS and Crossfire on the TV: board geometry, stacks, seat marks.

Only draws; never changes a game state.  Sizes are pixels and scale with the
area given, so the picture reads from three metres on a 1280x720 screen.

How a stack looks (every cell, both boards):

* a *gauge* on the left of the cell: one slot per stone the cell can hold
  (5 on the square board, SF-2; the cell's capacity 2/3/5/6 in Crossfire,
  SF-6), filled from the bottom with the stones, bottom stone lowest, empty
  slots as faint outlines (so "how close to overflowing" can be seen too).
  Each stone is a wide *chip* in its seat's colour whose outline is the
  seat's shape cue - P1 a pill (round ends), P2 a plain bar (square corners),
  P3 a bar with its top corners cut off (a flat triangle), P4 a bar pointed
  at both ends (a flat diamond) - with the seat's shape in ink inside, so
  colour is never the only cue, even for the stones under the top;
* the *top stone*, largest, on the right: the owner's colour in the owner's
  shape (P1 circle, P2 square, P3 triangle, P4 diamond), with the stack's
  height as a big digit.

On the hex board the gauge sits left of the centre and the top stone right of
it, where the hexagon is widest (:meth:`BoardGeometry.gauge_rect`,
:meth:`BoardGeometry.top_disc`), which gives both more room than a square box.
"""

from __future__ import annotations

import math
from typing import Sequence

import pygame

from arcade.sackson.board import Board
from kiosk import render

RGB = tuple[int, int, int]

#: Shape of each seat's stones (the second cue besides colour): P1..P4.
SHAPES = ("circle", "square", "triangle", "diamond")
SHAPE_WORDS = ("circle", "square", "triangle", "diamond")

INK = (22, 22, 28)
CELL_LIGHT = (64, 70, 92)
CELL_DARK = (52, 57, 76)
CELL_EDGE = (30, 34, 46)
SLOT_EMPTY = (96, 102, 128)
SLOT_FAINT = (84, 90, 114)      # the gauge of an empty Crossfire cell: its capacity, quietly
LAST_MOVE = (255, 236, 160)

SQRT3 = math.sqrt(3.0)


def seat_colour(seat: int) -> RGB:
    """The TV colour of ``seat`` (0-based): :data:`kiosk.render.SEAT_COLOURS`."""
    return render.SEAT_COLOURS[seat % len(render.SEAT_COLOURS)]


def shape_points(shape: str, centre: tuple[float, float], r: float) -> list[tuple[float, float]] | None:
    """Polygon of a seat shape of "radius" ``r`` around ``centre`` (None for the circle)."""
    cx, cy = centre
    if shape == "square":
        a = r * 0.86
        return [(cx - a, cy - a), (cx + a, cy - a), (cx + a, cy + a), (cx - a, cy + a)]
    if shape == "triangle":
        return [(cx, cy - r * 1.08), (cx + r * 1.08, cy + r * 0.82), (cx - r * 1.08, cy + r * 0.82)]
    if shape == "diamond":
        return [(cx, cy - r * 1.12), (cx + r * 1.0, cy), (cx, cy + r * 1.12), (cx - r * 1.0, cy)]
    return None


def draw_seat_shape(surface: pygame.Surface, seat: int, centre: tuple[float, float], r: float,
                    fill: RGB | None = None, outline: RGB | None = INK, width: int = 2) -> None:
    """The seat's shape (``SHAPES[seat]``) filled with its colour (or ``fill``), outlined."""
    shape = SHAPES[seat % len(SHAPES)]
    col = fill if fill is not None else seat_colour(seat)
    pts = shape_points(shape, centre, r)
    if pts is None:
        pygame.draw.circle(surface, col, (round(centre[0]), round(centre[1])), max(1, round(r)))
        if outline is not None and width:
            pygame.draw.circle(surface, outline, (round(centre[0]), round(centre[1])), max(1, round(r)), width)
    else:
        pygame.draw.polygon(surface, col, pts)
        if outline is not None and width:
            pygame.draw.polygon(surface, outline, pts, width)


def seat_badge(surface: pygame.Surface, seat: int, centre: tuple[int, int], r: int, label: bool = True) -> None:
    """A seat's shape with its number ("1".."4") inside: the seat's name tag everywhere."""
    draw_seat_shape(surface, seat, centre, r, width=max(2, r // 8))
    if label:
        tri = SHAPES[seat % 4] == "triangle"
        cy = centre[1] + (r * 0.3 if tri else 0)
        size = max(12, int(r * (1.0 if tri else 1.25)))
        render.text(surface, str(seat + 1), (centre[0], round(cy) + 1), size, INK, "center", bold=True)


class BoardGeometry:
    """Where every cell of ``board`` is drawn inside ``area`` (pixels).

    Square board: ``cell`` px squares, a1 bottom-left, with room for the file
    letters below and the rank numbers on the left.  Hex board: flat-topped
    hexagons of circumradius ``s`` in nine columns, half-row ``y`` going down
    (``reference/crossfire.md``), column letters above.

    Attributes:
        centres: pixel centre of every cell, in ``board.cells`` order.
        polygons: outline of every cell.
        box: side of the square content box inside each cell (stacks go there).
    """

    def __init__(self, board: Board, area: pygame.Rect) -> None:
        self.board = board
        self.area = area
        self.centres: list[tuple[float, float]] = []
        self.polygons: list[list[tuple[float, float]]] = []
        self._boxes: list[pygame.Rect] | None = None     # cell_box's, made on first use
        self.labels: list[tuple[str, tuple[int, int]]] = []
        if board.kind == "square":
            margin = max(18, area.h // 26)
            c = min((area.w - margin) // 8, (area.h - margin) // 8)
            ox = area.x + margin + (area.w - margin - 8 * c) // 2
            oy = area.y + (area.h - margin - 8 * c) // 2
            self.cell = c
            for x, y in board.coords:
                left, top = ox + x * c, oy + (7 - y) * c
                self.centres.append((left + c / 2, top + c / 2))
                self.polygons.append([(left, top), (left + c, top), (left + c, top + c), (left, top + c)])
            self.box = int(c * 0.94)
            for x in range(8):
                self.labels.append(("abcdefgh"[x], (ox + x * c + c // 2, oy + 8 * c + margin // 2 + 1)))
            for y in range(8):
                self.labels.append((str(y + 1), (ox - margin // 2 - 2, oy + (7 - y) * c + c // 2)))
            self.rect = pygame.Rect(ox, oy, 8 * c, 8 * c)
        else:
            margin = max(16, area.h // 30)
            s = min(area.w / 14.0, (area.h - margin) / (7 * SQRT3))
            hx = area.x + (area.w - 14 * s) / 2
            hy = area.y + margin + (area.h - margin - 7 * SQRT3 * s) / 2
            self.cell = int(2 * s)
            for x, y in board.coords:
                cx = hx + s + 1.5 * s * x
                cy = hy + SQRT3 / 2 * s * (y + 1)
                self.centres.append((cx, cy))
                self.polygons.append([(cx + s * math.cos(math.pi / 3 * k), cy + s * math.sin(math.pi / 3 * k))
                                      for k in range(6)])
            self.box = int(s * 1.24)
            for x in range(9):
                self.labels.append(("ABCDEFGHI"[x], (round(hx + s + 1.5 * s * x), round(hy - margin // 2))))
            self.rect = pygame.Rect(round(hx), round(hy), round(14 * s), round(7 * SQRT3 * s))
        self.s = self.cell / 2

    def cell_box(self, i: int) -> pygame.Rect:
        """The pixel box around cell ``i``'s outline (a new Rect; the boxes are worked out once)."""
        boxes = self._boxes
        if boxes is None:
            boxes = []
            for poly in self.polygons:
                xs = [p[0] for p in poly]
                ys = [p[1] for p in poly]
                boxes.append(pygame.Rect(int(min(xs)), int(min(ys)), int(max(xs) - min(xs)) + 2,
                                         int(max(ys) - min(ys)) + 2))
            self._boxes = boxes
        return boxes[i].copy()

    def content(self, i: int) -> pygame.Rect:
        """The square box inside cell ``i`` where its stack is drawn."""
        r = pygame.Rect(0, 0, self.box, self.box)
        r.center = (round(self.centres[i][0]), round(self.centres[i][1]))
        return r

    def gauge_rect(self, i: int) -> pygame.Rect:
        """Where cell ``i``'s gauge (one chip per stone, bottom first) is drawn.

        Square board: the left 42 % of the content box.  Hex board: a column from
        0.53 to 0.05 circumradii left of the centre, 1.6 circumradii tall, which
        stays inside the hexagon.
        """
        cx, cy = self.centres[i]
        if self.board.kind == "square":
            box = self.content(i)
            return pygame.Rect(box.x, box.y, round(box.w * 0.42), box.h)
        s = self.s
        h = round(1.6 * s)
        return pygame.Rect(round(cx - 0.53 * s), round(cy - h / 2), round(0.48 * s), h)

    def top_disc(self, i: int) -> tuple[tuple[float, float], float]:
        """Centre and radius (pixels) of cell ``i``'s top stone, right of its gauge."""
        cx, cy = self.centres[i]
        if self.board.kind == "square":
            box = self.content(i)
            g = self.gauge_rect(i)
            left = g.right + max(2, box.w // 24)
            w = box.right - left
            return (left + w / 2, cy), min(w, box.h) * 0.48
        return (cx + 0.38 * self.s, cy), 0.42 * self.s

    def screen_pos(self, i: int) -> tuple[float, float]:
        """Centre of cell ``i`` (pixels)."""
        return self.centres[i]


def draw_cells(surface: pygame.Surface, geo: BoardGeometry, tint: dict[int, RGB] | None = None,
               only: set[int] | None = None, region: pygame.Rect | None = None) -> None:
    """Cell backgrounds (checkered on the square board), with optional tints per cell, and the
    edge labels.  ``only``: just these cells (None: all); ``region``: just the labels near it
    (a redraw clipped to ``region``, where nothing else would show)."""
    tint = tint or {}
    sq = geo.board.kind == "square"
    for i, poly in enumerate(geo.polygons):
        if only is not None and i not in only:
            continue
        x, y = geo.board.coords[i]
        base = (CELL_LIGHT if (x + y) % 2 else CELL_DARK) if sq else CELL_LIGHT
        col = tint.get(i, base)
        pygame.draw.polygon(surface, col, poly)
        pygame.draw.polygon(surface, CELL_EDGE, poly, 2)
    size = max(18, geo.cell // 4)
    for text, pos in geo.labels:
        if region is not None and not region.colliderect(pygame.Rect(0, 0, 4 * size, 2 * size).move(
                int(pos[0]) - 2 * size, int(pos[1]) - size)):
            continue
        render.text(surface, text, pos, size, render.DIM, "center", bold=True)


def chip_points(seat: int, r: pygame.Rect) -> list[tuple[float, float]] | None:
    """Outline of a gauge chip of ``seat`` filling ``r`` (None: the P1 pill, drawn rounded).

    P2 a plain bar, P3 a bar with its top corners cut off, P4 a bar pointed at both ends.
    """
    shape = SHAPES[seat % len(SHAPES)]
    x0, y0, x1, y1 = r.left, r.top, r.right - 1, r.bottom - 1
    cut = min(r.h * 0.55, r.w * 0.3)
    if shape == "square":
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if shape == "triangle":
        return [(x0 + cut, y0), (x1 - cut, y0), (x1, y1), (x0, y1)]
    if shape == "diamond":
        my = (y0 + y1) / 2
        return [(x0 + cut, y0), (x1 - cut, y0), (x1, my), (x1 - cut, y1), (x0 + cut, y1), (x0, my)]
    return None


def draw_chip(surface: pygame.Surface, seat: int, r: pygame.Rect) -> None:
    """One stone of a stack's gauge: the seat's chip outline filled with its colour, its shape in ink."""
    col = seat_colour(seat)
    pts = chip_points(seat, r)
    if pts is None:
        pygame.draw.rect(surface, col, r, border_radius=r.h // 2)
        pygame.draw.rect(surface, INK, r, 2 if r.h >= 12 else 1, border_radius=r.h // 2)
    else:
        pygame.draw.polygon(surface, col, pts)
        pygame.draw.polygon(surface, INK, pts, 2 if r.h >= 12 else 1)
    mark = min(r.h * 0.4, r.w * 0.22)
    if mark >= 2.5:
        draw_seat_shape(surface, seat, r.center, mark, fill=INK, outline=None, width=0)


def draw_stack(surface: pygame.Surface, box: pygame.Rect, stack: Sequence[int], capacity: int,
               slots: int, empty_gauge: bool = False, lift: int = 0,
               gauge: pygame.Rect | None = None, disc: tuple[tuple[float, float], float] | None = None) -> None:
    """One stack: the gauge of ``capacity`` slots (out of ``slots`` rows) and the top stone.

    ``stack`` is bottom first, seats 0..3.  ``gauge`` and ``disc`` (centre,
    radius) say where the chips and the top stone go (:meth:`BoardGeometry.gauge_rect`,
    :meth:`BoardGeometry.top_disc`); without them, the left 42 % of ``box`` and
    the rest.  An empty cell draws nothing, or only its faint gauge with
    ``empty_gauge`` (Crossfire, whose cells hold 2, 3, 5 or 6 stones, SF-6).
    ``lift`` > 0 frames the top ``lift`` stones of the gauge in gold (the stones
    about to move).
    """
    h = len(stack)
    g = gauge if gauge is not None else pygame.Rect(box.x, box.y, round(box.w * 0.42), box.h)
    sh = g.h / slots
    gap = 2 if sh >= 18 else 1
    if h or empty_gauge:
        for j in range(capacity):
            top = g.bottom - (j + 1) * sh
            r = pygame.Rect(g.x, round(top + gap / 2), g.w, max(3, round(sh) - gap))
            if j < h:
                draw_chip(surface, stack[j], r)
            else:
                pygame.draw.rect(surface, SLOT_EMPTY if h else SLOT_FAINT, r, 1, border_radius=3)
    if 0 < lift <= h:
        top = g.bottom - h * sh
        frame = pygame.Rect(g.x - 4, round(top - 3), g.w + 8, round(lift * sh) + 5)
        pygame.draw.rect(surface, render.GOLD, frame, 3, border_radius=5)
    if not h:
        return
    owner = stack[-1]
    if disc is None:
        left = g.right + max(2, box.w // 24)
        area = pygame.Rect(left, box.y, box.right - left, box.h)
        disc = ((area.centerx, area.centery), min(area.w, area.h) * 0.48)
    centre, rad = disc
    draw_seat_shape(surface, owner, centre, rad, width=max(2, round(rad / 9)))
    cy = centre[1] + (rad * 0.25 if SHAPES[owner % 4] == "triangle" else 0)
    render.text(surface, str(h), (round(centre[0]), round(cy) + 2), max(16, int(rad * 1.45)), INK, "center",
                bold=True)


def draw_cell_stack(surface: pygame.Surface, geo: "BoardGeometry", i: int, stack: Sequence[int], capacity: int,
                    slots: int, empty_gauge: bool = False, lift: int = 0) -> None:
    """:func:`draw_stack` for cell ``i`` of ``geo`` (its gauge column and top-stone disc)."""
    draw_stack(surface, geo.content(i), stack, capacity, slots, empty_gauge, lift,
               gauge=geo.gauge_rect(i), disc=geo.top_disc(i))


def frame_cell(surface: pygame.Surface, geo: BoardGeometry, i: int, colour: RGB, width: int,
               inset: float = 0.0) -> None:
    """Outline cell ``i`` (``inset`` pixels inside its edge)."""
    cx, cy = geo.centres[i]
    pts = geo.polygons[i]
    if inset:
        pts = [(cx + (px - cx) * (1 - inset / max(1.0, geo.s)), cy + (py - cy) * (1 - inset / max(1.0, geo.s)))
               for px, py in pts]
    pygame.draw.polygon(surface, colour, pts, width)


def arrow(surface: pygame.Surface, a: tuple[float, float], b: tuple[float, float], colour: RGB,
          width: int, alpha: int = 200, trim_a: float = 0.0, trim_b: float = 0.0) -> None:
    """A straight arrow from ``a`` to ``b`` (head at ``b``), drawn translucent.

    ``trim_a`` / ``trim_b``: pixels left out at either end (so the arrow
    does not cover the stones it joins).
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1 or length <= trim_a + trim_b + 4:
        return
    ux, uy = dx / length, dy / length
    a = (a[0] + ux * trim_a, a[1] + uy * trim_a)
    b = (b[0] - ux * trim_b, b[1] - uy * trim_b)
    head = width * 3.2
    tip = (b[0] - ux * head * 0.2, b[1] - uy * head * 0.2)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    c = (*colour, alpha)
    wing_a = (base[0] - uy * head * 0.6, base[1] + ux * head * 0.6)
    wing_b = (base[0] + uy * head * 0.6, base[1] - ux * head * 0.6)
    # The see-through layer covers only the arrow (a whole-board layer was 5 MB a move), moved by
    # whole pixels so the shapes are the same pixels.
    xs = (a[0], base[0], tip[0], wing_a[0], wing_b[0])
    ys = (a[1], base[1], tip[1], wing_a[1], wing_b[1])
    pad = width + 4
    ox, oy = math.floor(min(xs)) - pad, math.floor(min(ys)) - pad
    box = pygame.Rect(ox, oy, math.ceil(max(xs)) + pad - ox + 1, math.ceil(max(ys)) + pad - oy + 1)
    if not surface.get_rect().contains(box):     # reaching past the edge: clipped as before
        ox = oy = 0
        box = surface.get_rect()
    layer = pygame.Surface(box.size, pygame.SRCALPHA)

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] - ox, p[1] - oy)
    pygame.draw.line(layer, c, at(a), at(base), width)
    pygame.draw.polygon(layer, c, [at(tip), at(wing_a), at(wing_b)])
    surface.blit(layer, box.topleft)


def target_wash(colour: RGB, strong: bool) -> RGB:
    """Background of a legal target cell: the board colour mixed with ``colour``."""
    k = 0.45 if strong else 0.3
    return (round(CELL_LIGHT[0] * (1 - k) + colour[0] * k), round(CELL_LIGHT[1] * (1 - k) + colour[1] * k),
            round(CELL_LIGHT[2] * (1 - k) + colour[2] * k))


def target_mark(surface: pygame.Surface, geo: BoardGeometry, i: int, colour: RGB, strong: bool) -> None:
    """A legal target: bold corner brackets in ``colour`` round the cell's box (thicker under the cursor).

    Draw the cell with :func:`target_wash` underneath (``draw_cells`` tint) for the full mark.
    """
    cx, cy = geo.centres[i]
    half = geo.box / 2 + 2
    arm = geo.box * 0.28
    w = 7 if strong else 4
    for sx in (-1, 1):
        for sy in (-1, 1):
            x, y = cx + sx * half, cy + sy * half
            pygame.draw.line(surface, colour, (x, y), (x - sx * arm, y), w)
            pygame.draw.line(surface, colour, (x, y), (x, y - sy * arm), w)
