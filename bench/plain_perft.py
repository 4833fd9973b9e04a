"""A plain reference perft for two-player FOCUS and Crossfire: the yardstick of bench_perft.py.

It knows the move rules (SF-2: top ``k`` stones move exactly ``k`` cells in a
straight line, drops from the reserve, overflow from the bottom - own stones
back to the reserve, the rest captured - and the loss of a side that cannot
move; SF-6 capacities) and nothing else: no hashes, no repetition or ko
history, no mobility counts, no plies-without-capture limit, no mirror rule.
From the start positions at the bench's depths none of those can change a
count (a position cannot come back within four plies and no limit is near),
so its counts equal the engine's; ``bench_perft.py`` prints both and a test
checks they agree.

It makes and takes back every move, leaves included, with ``make``/``unmake``
methods on a small state (stacks as tuples bottom first, reserves, side to
move), which is how a straightforward engine is written.  A side that cannot
move has lost (SF-2): its empty move list ends the path, as in any perft.
``PlainState(variant, ko=True)`` adds Crossfire's ko rule (SF-6) the plain way:
the positions of the path as full tuples in a set, every candidate move made
and looked up.

``plain_bulk`` is the plain last-ply bulk count: the same walk, but the last
ply's moves are counted (``len(moves())``, ko-filtered with ``ko=True``)
instead of made.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arcade.sackson.board import HEX, SQUARE, Board  # noqa: E402
from arcade.sackson.setups import start_position  # noqa: E402


class PlainState:
    """Stacks, reserves and the side to move of a two-player position."""

    def __init__(self, variant: str, ko: bool = False) -> None:
        board: Board = HEX if variant == "crossfire" else SQUARE
        self.board = board
        n = board.size
        self.caps = tuple(board.neighbour_count) if variant == "crossfire" else (5,) * n
        self.st: list[tuple[int, ...]] = [()] * n
        for cell, seat in start_position(variant).items():
            self.st[board.index[cell]] = (seat,)
        self.res = [0, 0]
        self.side = 0
        # ko (SF-6, Crossfire): the positions of the path so far, as full tuples in a set
        self.ko = ko
        self.path: list[tuple] = [self.position()] if ko else []
        self.seen: set[tuple] = set(self.path)
        self.undo: list[tuple] = []
        # targets[i][k]: cells exactly k steps from i
        self.targets = tuple(tuple(board.cells_at(i, k) if k else () for k in range(max(self.caps) + 1))
                             for i in range(n))

    def position(self) -> tuple:
        return (tuple(self.st), tuple(self.res), self.side)

    def moves(self) -> list[tuple[int, int, int]]:
        out = self.pseudo_moves()
        if not self.ko:
            return out
        keep = []
        for m in out:                       # a move that recreates an earlier position is illegal
            self.make(m)
            if self.position() not in self.seen:
                keep.append(m)
            self.unmake()
        return keep

    def pseudo_moves(self) -> list[tuple[int, int, int]]:
        p = self.side
        out = []
        targets = self.targets
        for i, s in enumerate(self.st):
            if s and s[-1] == p:
                ti = targets[i]
                for k in range(1, len(s) + 1):
                    for j in ti[k]:
                        out.append((i, j, k))
        if self.res[p]:
            out.extend((-1, j, 1) for j in range(len(self.st)))
        return out

    def make(self, m: tuple[int, int, int]) -> None:
        src, dst, k = m
        p = self.side
        st = self.st
        res = self.res
        s = st[src] if src >= 0 else ()
        d = st[dst]
        self.undo.append((src, dst, s, d, res[p]))
        if src < 0:
            moving: tuple[int, ...] = (p,)
            res[p] -= 1
        else:
            moving = s[-k:]
            st[src] = s[:-k]
        new = d + moving
        cut = len(new) - self.caps[dst]
        if cut > 0:
            res[p] += new[:cut].count(p)
            new = new[cut:]
        st[dst] = new
        self.side = 1 - p

    def unmake(self) -> None:
        src, dst, s, d, r = self.undo.pop()
        self.side = p = 1 - self.side
        self.res[p] = r
        self.st[dst] = d
        if src >= 0:
            self.st[src] = s


def plain_perft(state: PlainState, depth: int) -> int:
    """Leaves of ``depth`` plies, making and taking back every move (leaves included).

    With ``state.ko`` every interior position joins the path's set while its
    replies are listed (a leaf's replies are never listed, so it need not).
    """
    if state.ko and depth > 1:
        return _on_path(state, depth, _plain)
    return _plain(state, depth)


def plain_bulk(state: PlainState, depth: int) -> int:
    """Leaves of ``depth`` plies, the last ply counted (``len(moves())``) instead of made.

    The same count as :func:`plain_perft`; the ko rule (``state.ko``) as there:
    the last ply's moves are the ko-filtered ones.
    """
    if depth == 0:
        return 1
    if depth == 1:
        return len(state.moves())
    if state.ko:
        return _on_path(state, depth, _bulk)
    return _bulk(state, depth)


def _on_path(state: PlainState, depth: int, walk: Callable[[PlainState, int], int]) -> int:
    """``walk(state, depth)`` with the position in the ko set while its replies are walked."""
    pos = state.position()
    state.seen.add(pos)
    try:
        return walk(state, depth)
    finally:
        if pos not in state.path:
            state.seen.discard(pos)


def _bulk(state: PlainState, depth: int) -> int:
    total = 0
    make = state.make
    unmake = state.unmake
    for m in state.moves():
        make(m)
        total += plain_bulk(state, depth - 1)
        unmake()
    return total


def _plain(state: PlainState, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    make = state.make
    unmake = state.unmake
    if depth == 1:
        for m in state.moves():
            make(m)
            unmake()
            total += 1
        return total
    for m in state.moves():
        make(m)
        total += plain_perft(state, depth - 1)
        unmake()
    return total
