"""Starting set-ups of every FOCUS variant, kept as data (SF-1, SF-4, SF-5, SF-6).

Each start position is a picture, top row first, one character per cell:

* square board: eight rows of eight characters, rank 8 first, files a..h;
  ``#`` marks one of the twelve missing corner squares, ``.`` an empty square;
* hex board: thirteen rows ``y = 0..12`` of nine space-separated tokens for the
  columns A..I, as in ``reference/crossfire.md``; ``.`` = no cell, ``o`` = an
  empty cell.

Letters are seats: ``A`` = seat 0 (P1, moves first), ``B`` = seat 1, ``C`` =
seat 2, ``D`` = seat 3.  Every stone starts as a stack of height one.

Why these start positions (see also ``docs/rules-sackson.md``):

* ``2p`` is SF-1 exactly (18 + 18 on the 36 central squares).
* ``3p`` (SF-4: 12 each on the 36 central squares; the seeds give no pattern)
  is diagonal stripes, colour = (file + rank) mod 3.  Every rank and every file
  of the 6x6 holds two stones of each player; each 3x3 quarter holds three of
  each; no two stones of one player touch orthogonally; every pair of players
  shares exactly 20 contacts, so each player touches the player before and the
  player after them in the turn order equally often.  A half turn of the board
  carries B's stones onto C's squares and A's onto A's own, so B and C have
  congruent formations.  A, who moves first, holds two of the four 6x6 corners
  (44 opening moves against 46 for B and C) and in exchange two of the four
  central squares (B and C one each).
* ``4p`` (SF-5: 13 each on all 52 squares, partners opposite) is invariant under
  a quarter turn that carries A's stones onto B's, B's onto C's, C's onto D's
  and D's onto A's: every player has the same formation seen from their own
  side of the table (A south, B west, C north, D east; turns go clockwise).
  Every player has one stone on each of the four outer arms and nine on the
  central 6x6, no two stones of one player touch, and each player touches their
  partner 14 times and each opponent 15 times.  The same start position serves
  ``4p-teams`` and ``4p`` (individuals).
* ``crossfire`` is the reference's start (18 + 18; the six points and the centre
  E6 empty), unchanged by a 120 degree turn, colours swapped by 60 or 180.
"""

from __future__ import annotations

from typing import Mapping

from arcade.sackson.board import HEX, HEX_COLUMNS, SQUARE, SQUARE_FILES, Board

SEAT_LETTERS = "ABCD"

START_2P = (
    "##....##",  # 8
    "#BBAABB#",  # 7
    ".AABBAA.",  # 6
    ".BBAABB.",  # 5
    ".AABBAA.",  # 4
    ".BBAABB.",  # 3
    "#AABBAA#",  # 2
    "##....##",  # 1
)

START_3P = (
    "##....##",  # 8
    "#ABCABC#",  # 7
    ".CABCAB.",  # 6
    ".BCABCA.",  # 5
    ".ABCABC.",  # 4
    ".CABCAB.",  # 3
    "#BCABCA#",  # 2
    "##....##",  # 1
)

START_4P = (
    "##ABDC##",  # 8
    "#BCACDC#",  # 7
    "BCBDACDB",  # 6
    "CBDABABC",  # 5
    "ADCDCBDA",  # 4
    "DBACBDAD",  # 3
    "#ABACAD#",  # 2
    "##ABDC##",  # 1
)

START_CROSSFIRE = (
    ". . o . A . o . .",  # y = 0
    ". . . B . A . . .",
    ". . B . A . A . .",
    ". B . B . A . B .",
    ". . B . A . B . .",
    ". A . B . B . B .",
    "o . A . o . B . o",  # y = 6
    ". A . A . A . B .",
    ". . A . B . A . .",
    ". A . B . A . A .",
    ". . B . B . A . .",
    ". . . B . A . . .",
    ". . o . B . o . .",  # y = 12
)

#: variant -> (board, picture)
START_POSITIONS: Mapping[str, tuple[Board, tuple[str, ...]]] = {
    "2p": (SQUARE, START_2P),
    "3p": (SQUARE, START_3P),
    "4p-teams": (SQUARE, START_4P),
    "4p": (SQUARE, START_4P),
    "crossfire": (HEX, START_CROSSFIRE),
}


def start_position(variant: str) -> dict[str, int]:
    """The starting stones of ``variant``: cell name -> seat (each a stack of one).

    Raises:
        KeyError: unknown variant.
        ValueError: the picture does not fit its board (a data error).
    """
    board, picture = START_POSITIONS[variant]
    out: dict[str, int] = {}
    if board.kind == "square":
        if len(picture) != 8:
            raise ValueError(f"start position {variant}: expected 8 ranks, got {len(picture)}")
        for row, line in enumerate(picture):
            rank = 8 - row
            if len(line) != 8:
                raise ValueError(f"start position {variant}: rank {rank} has {len(line)} squares, expected 8")
            for x, mark in enumerate(line):
                name = f"{SQUARE_FILES[x]}{rank}"
                on_board = name in board.index
                if (mark == "#") == on_board:
                    raise ValueError(f"start position {variant}: {name} is {'on' if on_board else 'off'} the board, picture says {mark!r}")
                if mark in SEAT_LETTERS:
                    out[name] = SEAT_LETTERS.index(mark)
    else:
        if len(picture) != 13:
            raise ValueError(f"start position {variant}: expected 13 rows, got {len(picture)}")
        for y, line in enumerate(picture):
            for x, mark in enumerate(line.split()):
                name = f"{HEX_COLUMNS[x]}{y}"
                on_board = name in board.index
                if (mark == ".") == on_board:
                    raise ValueError(f"start position {variant}: {name} is {'on' if on_board else 'off'} the board, picture says {mark!r}")
                if mark in SEAT_LETTERS:
                    out[name] = SEAT_LETTERS.index(mark)
    return out
