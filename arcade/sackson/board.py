"""Board geometry of FOCUS (square, 52 squares) and Crossfire (hex, 43 cells) as data.

A :class:`Board` is immutable data: cell names in a fixed index order, their
coordinates, the straight lines ("rays") leaving every cell, the number of
neighbours of every cell and the board's symmetries as permutations of the cell
indices.  The rule engine (:mod:`arcade.sackson.game`) builds its move tables
from it; the screens may draw from the coordinates.

Square board (ruling SF-1): the 8x8 board without the three squares at each
corner (a1 a2 b1, g1 h1 h2, a7 a8 b8, g8 h8 h7), a1 bottom-left.  Coordinates
``(x, y)`` with ``x = 0..7`` for files a..h and ``y = 0..7`` for ranks 1..8.
Four directions.  Every row and column is one contiguous run of squares.

Hex board (ruling SF-6, ``reference/crossfire.md``): nine vertical columns A..I
in "half-row" coordinates ``(x, y)``, ``x = 0..8`` for A..I and ``y = 0..12``;
a cell's neighbours are ``(x, y +- 2)`` and ``(x +- 1, y +- 1)``.  Six
directions.  43 cells: a hexagon of side 4 plus one "point" beside the middle
of each side.  A cell's capacity (the highest stack it can hold) is its number
of neighbours: 2, 3, 5 or 6.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

Coord = tuple[int, int]

#: The twelve corner squares missing from the 8x8 board (SF-1).
SQUARE_HOLES = frozenset({"a1", "a2", "b1", "g1", "h1", "h2", "a7", "a8", "b8", "g8", "h8", "h7"})

#: Crossfire capacities as the reference draws them (rows y = 0..12, columns A..I;
#: ``.`` = no cell).  Kept as data so the picture can be checked by eye.
HEX_PICTURE = (
    ". . 2 . 3 . 2 . .",
    ". . . 5 . 5 . . .",
    ". . 5 . 6 . 5 . .",
    ". 3 . 6 . 6 . 3 .",
    ". . 6 . 6 . 6 . .",
    ". 5 . 6 . 6 . 5 .",
    "2 . 6 . 6 . 6 . 2",
    ". 5 . 6 . 6 . 5 .",
    ". . 6 . 6 . 6 . .",
    ". 3 . 6 . 6 . 3 .",
    ". . 5 . 6 . 5 . .",
    ". . . 5 . 5 . . .",
    ". . 2 . 3 . 2 . .",
)

HEX_COLUMNS = "ABCDEFGHI"
SQUARE_FILES = "abcdefgh"

SQUARE_DIRECTIONS: tuple[Coord, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
HEX_DIRECTIONS: tuple[Coord, ...] = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))


@dataclass(frozen=True)
class Board:
    """Geometry of one board, as immutable data.

    Attributes:
        kind: ``"square"`` (FOCUS) or ``"hex"`` (Crossfire).
        cells: cell names in index order (``"c1"`` ... or ``"E0"`` ...).
        coords: ``(x, y)`` of every cell, same order.
        index: cell name -> index.
        directions: the unit steps ``(dx, dy)`` of a straight move.
        rays: ``rays[i][d]`` = the cells met going from cell ``i`` in direction
            ``d``, nearest first, up to the board's edge (a move of ``k`` lands
            on ``rays[i][d][k-1]``; every cell in between is jumped over).
        neighbour_count: number of neighbouring cells of every cell (Crossfire
            capacity, SF-6).
        symmetries: every symmetry of the board as a permutation ``p`` of cell
            indices (cell ``i`` goes to ``p[i]``); the identity first.
        symmetry_names: a short name of every symmetry (``"rot180"`` ...).
        rot180: the half turn, used by the mirror rule (SF-3).
    """

    kind: str
    cells: tuple[str, ...]
    coords: tuple[Coord, ...]
    index: Mapping[str, int] = field(compare=False, repr=False)
    directions: tuple[Coord, ...] = field(repr=False)
    rays: tuple[tuple[tuple[int, ...], ...], ...] = field(compare=False, repr=False)
    neighbour_count: tuple[int, ...] = field(repr=False)
    symmetries: tuple[tuple[int, ...], ...] = field(compare=False, repr=False)
    symmetry_names: tuple[str, ...] = field(compare=False, repr=False)
    rot180: tuple[int, ...] = field(compare=False, repr=False)

    @property
    def size(self) -> int:
        """Number of cells (52 or 43)."""
        return len(self.cells)

    def line_distance(self, src: int, dst: int) -> int | None:
        """Steps from ``src`` to ``dst`` along one straight line, or None if not in line."""
        for ray in self.rays[src]:
            for k, cell in enumerate(ray, start=1):
                if cell == dst:
                    return k
        return None

    def cells_at(self, src: int, k: int) -> tuple[int, ...]:
        """Cells exactly ``k`` steps from ``src`` in any direction (a stack of ``k`` lands there)."""
        return tuple(ray[k - 1] for ray in self.rays[src] if len(ray) >= k)


def _build(kind: str, names: dict[Coord, str], directions: tuple[Coord, ...],
           transforms: list[tuple[str, object]]) -> Board:
    coords = tuple(sorted(names, key=lambda c: (c[1], c[0])))
    cells = tuple(names[c] for c in coords)
    index = {name: i for i, name in enumerate(cells)}
    at = {c: i for i, c in enumerate(coords)}
    rays = []
    for (x, y) in coords:
        per_dir = []
        for dx, dy in directions:
            ray = []
            cx, cy = x + dx, y + dy
            while (cx, cy) in at:
                ray.append(at[(cx, cy)])
                cx, cy = cx + dx, cy + dy
            per_dir.append(tuple(ray))
        rays.append(tuple(per_dir))
    neighbours = tuple(sum(1 for r in per if r) for per in rays)
    syms = []
    sym_names = []
    for name, fn in transforms:
        perm = tuple(at[fn(c)] for c in coords)  # type: ignore[operator]
        syms.append(perm)
        sym_names.append(name)
    rot = syms[sym_names.index("rot180")]
    return Board(kind, cells, coords, index, directions, tuple(rays), neighbours,
                 tuple(syms), tuple(sym_names), rot)


def _square() -> Board:
    names = {}
    for y in range(8):
        for x in range(8):
            name = f"{SQUARE_FILES[x]}{y + 1}"
            if name not in SQUARE_HOLES:
                names[(x, y)] = name
    t: list[tuple[str, object]] = [
        ("identity", lambda c: c),
        ("rot90", lambda c: (c[1], 7 - c[0])),
        ("rot180", lambda c: (7 - c[0], 7 - c[1])),
        ("rot270", lambda c: (7 - c[1], c[0])),
        ("flip-ranks", lambda c: (c[0], 7 - c[1])),
        ("flip-files", lambda c: (7 - c[0], c[1])),
        ("flip-a1h8", lambda c: (c[1], c[0])),
        ("flip-a8h1", lambda c: (7 - c[1], 7 - c[0])),
    ]
    return _build("square", names, SQUARE_DIRECTIONS, t)


def _hex_transform(rot: int, flip: bool) -> object:
    """Rotation by ``rot`` x 60 degrees (after an optional reflection) in half-row coordinates."""

    def fn(c: Coord) -> Coord:
        u, v = c[0] - 4, c[1] - 6           # centre E6 at the origin
        q, r = u, (v - u) // 2              # axial coordinates
        s = -q - r
        if flip:
            r, s = s, r                     # reflection in the row of E6 (y -> 12 - y)
        for _ in range(rot):
            q, r, s = -r, -s, -q            # 60 degrees
        return (q + 4, 2 * r + q + 6)

    return fn


def _hex() -> Board:
    names = {}
    for y, row in enumerate(HEX_PICTURE):
        for x, mark in enumerate(row.split()):
            if mark != ".":
                names[(x, y)] = f"{HEX_COLUMNS[x]}{y}"
    t: list[tuple[str, object]] = [("identity", _hex_transform(0, False))]
    for r in range(1, 6):
        t.append((f"rot{60 * r}", _hex_transform(r, False)))
    for r in range(6):
        t.append((f"flip{60 * r}", _hex_transform(r, True)))
    return _build("hex", names, HEX_DIRECTIONS, t)


def hex_picture_capacity(board: Board) -> tuple[int, ...]:
    """Capacities as drawn in :data:`HEX_PICTURE` (for checking against ``neighbour_count``)."""
    out = []
    for x, y in board.coords:
        out.append(int(HEX_PICTURE[y].split()[x]))
    return tuple(out)


#: The FOCUS board (SF-1): 52 squares.
SQUARE = _square()
#: The Crossfire board (SF-6): 43 cells.
HEX = _hex()
