"""The LED matrix picture of a Focus (2023) table.

Pure (standard library; pictures as in :mod:`arcade.lights.pictures`: rows of
``(r, g, b)``, row 0 at the top).  The side row is drawn at the top (it is
"top" for the markers, CO-2), the 4x4 grid under it: a card still on the table
is a dim warm block, a taken one is dark.  The last card taken is lit in the
taker's seat colour.  Markers are never shown during play (CO-5); at the
reveal each exhibit is lit in its owner's colour, with a white centre where
the partner pointed at it.  The bottom rows count each seat's clue file
(left: P1, right: P2).
"""

from __future__ import annotations

from typing import Sequence

from arcade.lights.pictures import BLACK, Picture, PictureError, seat_colour

CARD = (90, 60, 20)
WHITE = (255, 255, 255)


def table_picture(present: Sequence[bool], width: int = 16, height: int = 16,
                  last: tuple[int, int] | None = None,
                  reveal: Sequence[Sequence[int]] | None = None,
                  pointed: Sequence[Sequence[int]] | None = None,
                  clue_counts: Sequence[int] = (0, 0)) -> Picture:
    """The table as an LED picture.

    Args:
        present: 20 flags: positions 0..15 (grid, reading order) and 16..19
            (side row) that still hold a card.
        width, height: matrix size in LEDs (at least 8x8).
        last: (seat, position) of the card just taken, lit in the seat colour.
        reveal: per seat its exhibit cells (only at the end of a round).
        pointed: per seat the cells it pointed at (shown with ``reveal``).
        clue_counts: cards in each seat's clue file.

    Raises:
        PictureError: a bad size or a ``present`` of the wrong length.
    """
    if len(present) != 20:
        raise PictureError(f"present has {len(present)} flags: expected 20 (16 grid + 4 side)")
    if isinstance(width, bool) or isinstance(height, bool) or width < 8 or height < 8:
        raise PictureError(f"matrix {width}x{height}: expected at least 8x8 LEDs")
    canvas = [[BLACK] * width for _ in range(height)]
    cw = max(1, (width - 3) // 4)          # cell width, 1 LED gaps
    ch = max(1, (height - 3 - 1 - 2) // 5)  # 5 rows of cells (side + 4), gaps, 2 rows of counts
    x0 = (width - (4 * cw + 3)) // 2

    def rect(pos: int) -> tuple[int, int]:
        if pos >= 16:
            col, row = pos - 16, 0
        else:
            col, row = pos % 4, pos // 4 + 1
        y = row * (ch + 1) + (1 if row else 0) - (1 if row else 0)
        return x0 + col * (cw + 1), y + (1 if row else 0)

    owner: dict[int, int] = {}
    if reveal is not None:
        for seat, cells in enumerate(reveal):
            for c in cells:
                owner[c] = seat
    hits: set[int] = set()
    if pointed is not None and reveal is not None:
        for seat, cells in enumerate(pointed):
            partner = 1 - seat
            hits |= {c for c in cells if partner < len(reveal) and c in reveal[partner]}
    for pos in range(20):
        x, y = rect(pos)
        colour = CARD if present[pos] else BLACK
        if pos in owner:
            colour = seat_colour(owner[pos])
        if last is not None and last[1] == pos:
            colour = seat_colour(last[0])
        for yy in range(y, min(height, y + ch)):
            for xx in range(x, min(width, x + cw)):
                canvas[yy][xx] = colour
        if pos in hits:
            canvas[min(height - 1, y + ch // 2)][min(width - 1, x + cw // 2)] = WHITE
    # clue counts along the bottom row: P1 from the left, P2 from the right
    yb = height - 1
    for seat, n in enumerate(clue_counts[:2]):
        col = seat_colour(seat)
        for i in range(min(n, width // 2)):
            x = i if seat == 0 else width - 1 - i
            canvas[yb][x] = col
    return tuple(tuple(row) for row in canvas)
