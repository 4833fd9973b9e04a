"""Perft: count the move paths of a given depth, to check and time the move generator.

``perft(state, 1)`` is the number of legal moves; ``perft(state, n)`` the number
of legal sequences of ``n`` plies (a finished game contributes nothing).  With
``bulk=True`` the last ply is counted instead of played (the generator's count
must equal the number of moves it would list); with ``bulk=False`` every leaf is
made and taken back, which also exercises make/unmake.  Both must agree.  On the
two-player square board bulk counting by default also takes a shortcut one ply
earlier: the reply count after a move follows from the two cells it touches
(``_count_after``), so the second-to-last ply is not made either
(``shortcut=False`` gives the plain last-ply-bulk walk; same count, slower).
Depths go up to :data:`MAX_DEPTH`.

Known counts live in ``tests/data/sackson_perft.json``.  The command line is
``perft_main`` (wired as ``focus-arcade perft`` by the kiosk's CLI).
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, TextIO

from arcade.core.errors import ArcadeError
from arcade.sackson.game import VARIANTS, SacksonGame, SacksonState

#: Deepest perft accepted: deeper counts from a live position would run for years, and a
#: depth-first walk that deep could exceed Python's recursion limit.
MAX_DEPTH = 20


def _perft(s: SacksonState, depth: int, bulk: bool, shortcut: bool = True) -> int:
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
        if shortcut and s._fast2 and not s._swaps and s._result is None:
            after = s._count_after       # the reply count without making the move
            mq = s._mobility()[1 - s._side]
            for m in moves:
                total += after(m, mq)
            return total
        count = s._count
        for m in moves:
            make(m)
            total += count()
            unmake()
        return total
    for m in moves:
        make(m)
        total += _perft(s, depth - 1, bulk, shortcut)
        unmake()
    return total


def _check_depth(depth: object, low: int, what: str) -> int:
    if not isinstance(depth, int) or isinstance(depth, bool) or not low <= depth <= MAX_DEPTH:
        raise ValueError(f"{what} depth {depth!r}: expected a whole number from {low} to {MAX_DEPTH}")
    return depth


def perft(state: SacksonState, depth: int, bulk: bool = True, shortcut: bool = True) -> int:
    """Number of legal move sequences of ``depth`` plies from ``state`` (which is not changed).

    Args:
        state: any position (opening swaps count as plies).
        depth: plies, 0 .. :data:`MAX_DEPTH` (``perft(state, 0) == 1``).
        bulk: count the last ply's moves instead of making them ("last-ply bulk").
        shortcut: with ``bulk`` on the two-player square board, also skip making the
            second-to-last ply: the reply count follows from the two cells a move
            touches (``_count_after``).  False gives the plain last-ply-bulk walk.
            The count is the same either way; only the speed differs.

    Raises:
        ValueError: a depth outside 0 .. MAX_DEPTH.
    """
    _check_depth(depth, 0, "perft")
    return _perft(state.copy(), depth, bulk, shortcut)


def divide(state: SacksonState, depth: int, bulk: bool = True, shortcut: bool = True) -> dict[str, int]:
    """Perft split by first move: notation of each legal move -> ``perft`` of the rest.

    The values add up to ``perft(state, depth)``.

    Raises:
        ValueError: a depth outside 1 .. MAX_DEPTH.
    """
    from arcade.sackson.notation import format_action

    _check_depth(depth, 1, "divide")
    s = state.copy()
    out: dict[str, int] = {}
    for m in s._moves():
        s._make(m)
        out[format_action(s._t.action(m), s)] = _perft(s, depth - 1, bulk, shortcut)
        s._unmake()
    return out


def perft_parser() -> argparse.ArgumentParser:
    """The options of ``focus-arcade perft`` (see :func:`perft_main`)."""
    ap = argparse.ArgumentParser(
        prog="focus-arcade perft", description="Count FOCUS / Crossfire move paths (SF-2, SF-3, SF-6).",
        epilog="Examples: perft --depth 4;  perft --game crossfire --depth 3 --moves \"G2-G0 C10-C12\";  "
               "perft --variant 3p --depth 3;  perft --opening-swap --depth 2 --moves c2<>d2;  "
               "perft --depth 2 --position \"d4=BBABA e4=AAB c5=B | reserves A2 B1 | A to move\"")
    ap.add_argument("--game", choices=("focus", "crossfire"), default="focus")
    ap.add_argument("--variant", choices=tuple(VARIANTS), default=None,
                    help="2p (default), 3p, 4p-teams, 4p; crossfire is also --game crossfire")
    ap.add_argument("--depth", type=int, required=True, help=f"plies to count, 0..{MAX_DEPTH}")
    ap.add_argument("--moves", default="", help="moves from the start (or --position), e.g. \"c2-c1 f7-f8\"")
    ap.add_argument("--position", default=None,
                    help="start from this position instead of the variant's start position: \"d4=BA e6=A | reserves A0 B1 | "
                         "B to move\" (stacks bottom first, as in error messages)")
    ap.add_argument("--opening-swap", action="store_true", help="SF-3 opening swap (2-player variants)")
    ap.add_argument("--mirror-rule", action="store_true", help="SF-3 mirror rule (2-player variants)")
    ap.add_argument("--max-plies-without-capture", type=int, default=None, metavar="N",
                    help="the game ends after N plies without a capture (default 200; 0 = never)")
    ap.add_argument("--no-bulk", action="store_true", help="make every leaf move instead of counting")
    ap.add_argument("--no-shortcut", action="store_true",
                    help="plain last-ply bulk counting (no two-ply shortcut on the 2-player square board)")
    ap.add_argument("--divide", action="store_true", help="one count per first move")
    return ap


def perft_state(args: argparse.Namespace) -> SacksonState:
    """The position ``perft_main``'s options describe.

    Raises:
        SettingsError: a variant or setting that does not fit the game.
        MoveListError: a bad token in ``--moves``.
        NotationError / SetupError: a bad ``--position``.
    """
    from arcade.core.errors import SettingsError
    from arcade.sackson.notation import parse_position, play_list

    if args.game == "crossfire":
        if args.variant not in (None, "crossfire"):
            raise SettingsError("variant", args.variant, "nothing (or 'crossfire') with --game crossfire")
        variant = "crossfire"
    else:
        variant = args.variant or "2p"
    settings: dict[str, object] = {"variant": variant}
    if args.opening_swap:
        settings["opening_swap"] = True
    if args.mirror_rule:
        settings["mirror_rule"] = True
    if args.max_plies_without_capture is not None:
        settings["max_plies_without_capture"] = args.max_plies_without_capture
    game = SacksonGame(VARIANTS[variant], settings)
    if args.position is not None:
        if args.opening_swap:
            raise SettingsError("opening_swap", True, "off with --position (a set-up position has no opening swap)")
        state = parse_position(args.position, game)
    else:
        state = game.new_initial_state()
    return play_list(state, args.moves)


def perft_main(argv: list[str], clock: Callable[[], float] | None = None,
               out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``perft --game focus|crossfire --depth N [--moves "c3-c4 +e5 ..."] [options]``.

    Options (``perft_parser``): ``--variant`` (2p, 3p, 4p-teams, 4p, crossfire),
    ``--position`` (a set-up start), ``--opening-swap``, ``--mirror-rule``,
    ``--max-plies-without-capture N`` (SF-3), ``--no-bulk``, ``--no-shortcut``,
    ``--divide``.  Prints the count on ``out`` (default stdout); with
    ``--divide`` one line ``move count`` per first move, then the total.  When a
    ``clock`` (seconds, e.g. ``time.perf_counter``; the rule modules never read a
    clock themselves) is given, the time and the leaves per second go to ``err``
    (default stderr).

    Returns:
        0 on success, 2 on a bad argument, depth, position or move (the message,
        on ``err``, names it; a bad move by its whole token, its place in the
        list and the position it was played in).
    """
    out = out or sys.stdout
    err = err or sys.stderr
    ap = perft_parser()
    try:
        args = ap.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else 2
    low = 1 if args.divide else 0
    if not low <= args.depth <= MAX_DEPTH:
        print(f"perft: --depth {args.depth}: expected {low} to {MAX_DEPTH} plies "
              f"(each ply multiplies the count by about 70; depth 5 already takes minutes)", file=err)
        return 2
    try:
        state = perft_state(args)
    except (ArcadeError, ValueError) as exc:
        where = "--moves " if type(exc).__name__ == "MoveListError" else ""
        print(f"perft: {where}{exc}", file=err)
        return 2
    t0 = clock() if clock else 0.0
    bulk, shortcut = not args.no_bulk, not args.no_shortcut
    if args.divide:
        parts = divide(state, args.depth, bulk=bulk, shortcut=shortcut)
        for move, n in parts.items():
            print(f"{move} {n}", file=out)
        total = sum(parts.values())
        print(f"total {total}", file=out)
    else:
        total = perft(state, args.depth, bulk=bulk, shortcut=shortcut)
        print(total, file=out)
    if clock:
        dt = clock() - t0
        rate = total / dt if dt > 0 else float("inf")
        mode = "make/unmake" if not bulk else ("last-ply bulk" if not shortcut or not state._fast2
                                               else "bulk with the two-ply shortcut")
        print(f"{total} leaves in {dt:.3f} s: {rate:,.0f} leaves/s ({mode})", file=err)
    return 0
