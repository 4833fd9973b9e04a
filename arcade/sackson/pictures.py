"""The LED-matrix picture of a FOCUS or Crossfire board (pure; standard library only).

Every picture is a tuple of rows of ``(r, g, b)`` (row 0 at the top), like
:mod:`arcade.lights.pictures`.  Seat colours are :data:`arcade.lights.pictures.SEAT_COLOURS`.

What a cell shows: the colour of the seat whose stone is on top (the owner,
SF-2) at a brightness that grows with the stack's height,
:func:`height_level` (a stack at its cell's limit is at full brightness, a
single stone at 30 %).  Empty cells are a faint grey so the board's shape can
be seen.  Whose turn it is shows in the side's colour (full brightness):

Square board (SF-1), 8x8 squares:
    ``s = min(width, height) // 8`` LEDs per square side (2 on the usual 16x16
    matrix, 1 on 8x8), the board centred.  The twelve missing corner squares
    (three in each corner) light up in the colour of the side to move; when
    the matrix has a free LED all round the board (``8 s + 2`` or more), a
    one-LED frame in that colour is drawn as well.

Hex board (SF-6), Crossfire's 43 cells in nine columns A..I and half-rows
``y = 0..12`` (``reference/crossfire.md``):
    the cell in column ``x``, half-row ``y`` is a block ``s`` LEDs wide and
    ``2 s`` tall whose top-left corner is ``(x0 + s x, y0 + s y)``; cells of
    one column touch, neighbouring columns are offset by half a cell, as on
    the board (a "brick wall" of 9 x 14 s LEDs, s = 1 on a 16x16 matrix:
    columns 3..11, rows 1..14).  The largest ``s`` that leaves one LED all
    round is used and the board is centred; the frame around it (rows 0 and
    15 and the free columns on 16x16) is lit in the colour of the side to move.
    A matrix too small for the 9 x 14 block (8x8) shows no board: it shows the
    side to move as a frame with the seat number (``arcade.lights.pictures.flash_picture``).

A finished game (``to_move`` None) has no turn colour.
"""

from __future__ import annotations

from typing import Any, Sequence

from arcade.lights.pictures import (
    BLACK,
    RGB,
    Picture,
    PictureError,
    _check_seat,
    _check_size,
    flash_picture,
    seat_colour,
)
from arcade.sackson.board import Board

#: Colour of an empty cell: faint grey, so the board's outline shows.
EMPTY: RGB = (14, 14, 14)
#: Brightness of a single stone; a full stack (at its cell's limit) is 1.0.
LOW = 0.3


def height_level(height: int, capacity: int) -> float:
    """Brightness (0..1) of a stack of ``height`` stones on a cell that holds ``capacity``.

    0 for an empty cell; :data:`LOW` for one stone, rising evenly to 1.0 at
    ``capacity`` (the overflow limit, SF-2; Crossfire: the cell's capacity,
    SF-6).  Heights above ``capacity`` count as ``capacity``.

    Raises:
        PictureError: a negative height or a capacity below 1.
    """
    if isinstance(height, bool) or not isinstance(height, int) or height < 0:
        raise PictureError(f"stack height {height!r}: expected an int >= 0")
    if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
        raise PictureError(f"capacity {capacity!r}: expected an int >= 1")
    if height == 0:
        return 0.0
    if capacity == 1:
        return 1.0
    h = min(height, capacity)
    return LOW + (1.0 - LOW) * (h - 1) / (capacity - 1)


def _scaled(colour: RGB, level: float) -> RGB:
    return (round(colour[0] * level), round(colour[1] * level), round(colour[2] * level))


def _cell_colour(stack: Sequence[int], capacity: int) -> RGB:
    if not stack:
        return EMPTY
    return _scaled(seat_colour(_check_seat(stack[-1])), height_level(len(stack), capacity))


def _fill(canvas: list[list[RGB]], x: int, y: int, w: int, h: int, colour: RGB) -> None:
    for yy in range(max(0, y), min(len(canvas), y + h)):
        row = canvas[yy]
        for xx in range(max(0, x), min(len(row), x + w)):
            row[xx] = colour


def _frame(canvas: list[list[RGB]], x: int, y: int, w: int, h: int, colour: RGB) -> None:
    _fill(canvas, x, y, w, 1, colour)
    _fill(canvas, x, y + h - 1, w, 1, colour)
    _fill(canvas, x, y, 1, h, colour)
    _fill(canvas, x + w - 1, y, 1, h, colour)


def board_picture(board: Board, stacks: Sequence[Sequence[int]], to_move: int | None,
                  capacity: Sequence[int] | int = 5, width: int = 16, height: int = 16) -> Picture:
    """The board on a ``width`` x ``height`` matrix (see the module text for the mapping).

    Args:
        board: :data:`arcade.sackson.board.SQUARE` or :data:`~arcade.sackson.board.HEX`.
        stacks: one stack per cell, in ``board.cells`` order, each bottom first
            as seats 0..3 (``()`` = empty).
        to_move: the seat whose turn it is (its colour frames the board), or
            None (game over, no frame).
        capacity: the highest stack of every cell (a list in cell order) or
            one number for all (square board: 5, SF-2).
        width, height: matrix size in LEDs (8 .. ; at most 65536 LEDs).

    Raises:
        PictureError: a bad size, seat, capacity, or a stack list of the wrong length.
    """
    _check_size(width, height)
    if len(stacks) != board.size:
        raise PictureError(f"{len(stacks)} stacks for the {board.kind} board: expected {board.size}, one a cell")
    caps = [capacity] * board.size if isinstance(capacity, int) else list(capacity)
    if len(caps) != board.size:
        raise PictureError(f"{len(caps)} capacities for the {board.kind} board: expected {board.size}")
    turn = seat_colour(_check_seat(to_move)) if to_move is not None else None
    canvas: list[list[RGB]] = [[BLACK] * width for _ in range(height)]
    if board.kind == "square":
        s = min(width, height) // 8
        x0, y0 = (width - 8 * s) // 2, (height - 8 * s) // 2
        if turn is not None:
            for hx, hy in ((0, 0), (1, 0), (0, 1), (6, 0), (7, 0), (7, 1),
                           (0, 6), (0, 7), (1, 7), (7, 6), (6, 7), (7, 7)):
                _fill(canvas, x0 + hx * s, y0 + hy * s, s, s, turn)
            if x0 >= 1 and y0 >= 1:
                _frame(canvas, x0 - 1, y0 - 1, 8 * s + 2, 8 * s + 2, turn)
        for i, (x, y) in enumerate(board.coords):
            _fill(canvas, x0 + x * s, y0 + (7 - y) * s, s, s, _cell_colour(stacks[i], caps[i]))
        return tuple(tuple(r) for r in canvas)
    # hex: 9 columns x 13 half-rows; a cell is s wide and 2s tall
    s = min((width - 2) // 9, (height - 2) // 14)
    if s < 1:
        if turn is None:
            return tuple(tuple(r) for r in canvas)
        return flash_picture(to_move, 0.0, width, height)  # type: ignore[arg-type]
    x0, y0 = (width - 9 * s) // 2, (height - 14 * s) // 2
    if turn is not None:
        _frame(canvas, 0, 0, width, height, turn)
    for i, (x, y) in enumerate(board.coords):
        _fill(canvas, x0 + x * s, y0 + y * s, s, 2 * s, _cell_colour(stacks[i], caps[i]))
    return tuple(tuple(r) for r in canvas)


def state_picture(state: Any, width: int = 16, height: int = 16) -> Picture:
    """:func:`board_picture` of a :class:`arcade.sackson.game.SacksonState` (side to move framed).

    Raises:
        PictureError: a bad matrix size.
    """
    board = state.board
    stacks = [state.stack(c) for c in board.cells]
    cp = state.current_player()
    return board_picture(board, stacks, cp if cp >= 0 else None, state.game.capacity, width, height)
