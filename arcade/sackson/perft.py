"""Perft: count the move paths of a given depth, to check and time the move generator.

``perft(state, 1)`` is the number of legal moves; ``perft(state, n)`` the number
of legal sequences of ``n`` plies (a finished game contributes nothing).  With
``bulk=True`` the last ply is counted instead of played (the generator's count
must equal the number of moves it would list); with ``bulk=False`` every leaf is
made and taken back, which also exercises make/unmake.  Both must agree.  On the two-player square
board bulk counting reaches one ply further without making moves: the reply
count after a move follows from the two cells it touches (``_count_after``).

Known counts live in ``tests/data/sackson_perft.json``.  The command line is
``perft_main`` (wired as ``focus-arcade perft`` by the kiosk's CLI).
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, TextIO

from arcade.core.errors import ArcadeError
from arcade.sackson.game import SacksonGame, SacksonState


def _perft(s: SacksonState, depth: int, bulk: bool) -> int:
    if depth == 0:
        return 1
    if bulk and depth == 1:
        return s._count()
    moves = s._moves()
    make = s._make
    unmake = s._unmake
    total = 0
    if depth == 1:
        for m in moves:
            make(m)
            unmake()
            total += 1
        return total
    if bulk and depth == 2:
        if s._fast2 and not s._swaps and s._result is None:
            after = s._count_after       # the reply count without making the move
            for m in moves:
                total += after(m)
            return total
        count = s._count
        for m in moves:
            make(m)
            total += count()
            unmake()
        return total
    for m in moves:
        make(m)
        total += _perft(s, depth - 1, bulk)
        unmake()
    return total


def perft(state: SacksonState, depth: int, bulk: bool = True) -> int:
    """Number of legal move sequences of ``depth`` plies from ``state`` (which is not changed).

    Args:
        state: any position (opening swaps count as plies).
        depth: plies, >= 0 (``perft(state, 0) == 1``).
        bulk: count the last ply's moves instead of making them.

    Raises:
        ValueError: negative depth.
    """
    if not isinstance(depth, int) or depth < 0:
        raise ValueError(f"perft depth {depth!r}: expected a whole number >= 0")
    return _perft(state.copy(), depth, bulk)


def divide(state: SacksonState, depth: int, bulk: bool = True) -> dict[str, int]:
    """Perft split by first move: notation of each legal move -> ``perft`` of the rest.

    The values add up to ``perft(state, depth)``.  Raises ValueError for depth < 1.
    """
    from arcade.sackson.notation import format_action

    if not isinstance(depth, int) or depth < 1:
        raise ValueError(f"divide depth {depth!r}: expected a whole number >= 1")
    s = state.copy()
    out: dict[str, int] = {}
    for m in s._moves():
        s._make(m)
        out[format_action(s._t.action(m), s)] = _perft(s, depth - 1, bulk)
        s._unmake()
    return out


def perft_main(argv: list[str], clock: Callable[[], float] | None = None,
               out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``perft --game focus|crossfire --depth N [--moves "c3-c4 +e5 ..."] [--no-bulk] [--divide]``.

    Prints the count on ``out`` (default stdout); with ``--divide`` one line
    ``move count`` per first move, then the total.  When a ``clock`` (seconds,
    e.g. ``time.perf_counter``; the rule modules never read a clock themselves)
    is given, the time and the leaves per second go to ``err`` (default stderr).

    Returns:
        0 on success, 2 on a bad argument or an illegal/unreadable move.
    """
    from arcade.sackson.notation import play

    out = out or sys.stdout
    err = err or sys.stderr
    ap = argparse.ArgumentParser(prog="focus-arcade perft", description="Count FOCUS / Crossfire move paths.")
    ap.add_argument("--game", choices=("focus", "crossfire"), default="focus")
    ap.add_argument("--variant", choices=("2p", "3p", "4p-teams", "4p"), default=None,
                    help="FOCUS variant (default 2p); ignored for crossfire")
    ap.add_argument("--depth", type=int, required=True)
    ap.add_argument("--moves", default="", help="moves from the start, e.g. \"c2-c1 f7-f8\"")
    ap.add_argument("--no-bulk", action="store_true", help="make every leaf move instead of counting")
    ap.add_argument("--divide", action="store_true", help="one count per first move")
    try:
        args = ap.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else 2
    variant = "crossfire" if args.game == "crossfire" else (args.variant or "2p")
    seats = {"2p": 2, "3p": 3, "4p-teams": 4, "4p": 4, "crossfire": 2}[variant]
    try:
        state = SacksonGame(seats, {"variant": variant}).new_initial_state()
        play(state, args.moves)
    except (ArcadeError, ValueError) as exc:
        print(f"perft: {exc}", file=err)
        return 2
    if args.depth < 0 or (args.divide and args.depth < 1):
        print(f"perft: depth {args.depth}: expected at least {1 if args.divide else 0}", file=err)
        return 2
    t0 = clock() if clock else 0.0
    if args.divide:
        parts = divide(state, args.depth, bulk=not args.no_bulk)
        for move, n in parts.items():
            print(f"{move} {n}", file=out)
        total = sum(parts.values())
        print(f"total {total}", file=out)
    else:
        total = perft(state, args.depth, bulk=not args.no_bulk)
        print(total, file=out)
    if clock:
        dt = clock() - t0
        rate = total / dt if dt > 0 else float("inf")
        print(f"{total} leaves in {dt:.3f} s: {rate:,.0f} leaves/s", file=err)
    return 0
