"""Perft speed of the FOCUS / Crossfire move generator (prints figures, asserts nothing).

    python bench/bench_perft.py [--depth-square 4] [--depth-hex 3]

For each board three ways of counting the same leaves:

* ``make/unmake`` - every leaf move is made and taken back (one ply less deep);
* ``last-ply bulk`` - the plain bulk count: the last ply's moves are counted
  (``_count``), not made;
* ``shortcut bulk`` - the two-player square board only: the second-to-last
  ply is not made either, the reply count follows from the two cells a move
  touches (``_count_after``).  This is ``perft``'s default there and what
  ``focus-arcade perft`` prints without ``--no-shortcut``.

and the time of the two-player depth-4 perft from the start both ways (the
issue's target, "bulk-counted, under 2 s", is met by the shortcut figure; the
last-ply figure is the one to compare with other engines' bulk perft).

Then the engine against a plain reference in the same run (``bench/plain_perft.py``:
stacks, reserves and side only), both ways at the same depth:

* make/unmake: every move made and taken back, leaves included (``perft(...,
  bulk=False)`` against ``plain_perft``);
* last-ply bulk: the last ply counted, not made (``perft(..., bulk=True,
  shortcut=False)`` against ``plain_bulk``, which counts ``len(moves())``).

The reference is the plain generator of the same rules the engine must keep: on
the square board the move rules alone (no ko there, and from the start no
repetition or plies-without-capture limit can change a count at these depths);
for Crossfire the one with the ko rule (SF-6), which the engine cannot drop.
Crossfire's plain run without ko is printed too, for scale only.  Each run is
repeated ``--rounds`` times, alternating, and the best round of each is
printed, so a busy machine hurts all alike.  The last lines give the ratios
against the reference (issue 22: each >= 1.0x).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from plain_perft import PlainState, plain_bulk, plain_perft  # noqa: E402

from arcade.sackson import SacksonGame, SacksonState, perft  # noqa: E402


def timed(state: SacksonState, depth: int, bulk: bool, shortcut: bool = True) -> tuple[int, float]:
    t0 = time.perf_counter()
    n = perft(state, depth, bulk=bulk, shortcut=shortcut)
    return n, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth-square", type=int, default=4, help="bulk depth on the square board (default 4)")
    ap.add_argument("--depth-hex", type=int, default=3, help="bulk depth on the hex board (default 3)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds of the comparison with the plain reference")
    ap.add_argument("--compare-only", action="store_true", help="only the comparison with the plain reference")
    args = ap.parse_args(argv)
    if not args.compare_only:
        bulk_table(args)
    compare(args)
    return 0


def compare(args: argparse.Namespace) -> None:
    """Engine against the plain reference, make/unmake and last-ply bulk, best of ``rounds`` alternating runs."""
    boards = (("FOCUS 2p", "2p", args.depth_square - 1), ("Crossfire", "crossfire", args.depth_hex))
    modes = (("make/unmake", False), ("last-ply bulk", True))
    refs = {"2p": (("plain", False),), "crossfire": (("plain+ko", True), ("plain", False))}
    # runs[(board, mode, who)] = [(leaves, seconds), ...]
    runs: dict[tuple[str, str, str], list[tuple[int, float]]] = {}
    for _ in range(args.rounds):
        for label, variant, depth in boards:
            for mode, bulk in modes:
                s = SacksonGame(2, {"variant": variant}).new_initial_state()
                runs.setdefault((label, mode, "engine"), []).append(timed(s, depth, bulk, False))
                for who, ko in refs[variant]:
                    ps = PlainState(variant, ko=ko)
                    walk = plain_bulk if bulk else plain_perft
                    t0 = time.perf_counter()
                    n = walk(ps, depth)
                    runs.setdefault((label, mode, who), []).append((n, time.perf_counter() - t0))
    names = {
        ("2p", "engine"): "engine (all rules)",
        ("2p", "plain"): "plain reference (move rules)",
        ("crossfire", "engine"): "engine (all rules)",
        ("crossfire", "plain+ko"): "plain reference with the ko rule",
        ("crossfire", "plain"): "plain without ko (scale only)",
    }
    headers = {"make/unmake": "every move made and taken back, leaves included",
               "last-ply bulk": "the last ply counted, not made; perft(bulk=True, shortcut=False)"}
    summary = []
    for mode, _bulk in modes:
        print(f"\n{mode} perft ({headers[mode]}), best of {args.rounds} rounds:")
        print(f"{'board':<12}{'depth':>6}  {'perft':<34}{'leaves':>10}{'leaves/s':>13}{'engine/x':>11}")
        for label, variant, depth in boards:
            rate = {who: max(n / dt for n, dt in runs[(label, mode, who)])
                    for who in ["engine"] + [w for w, _ko in refs[variant]]}
            counts = {who: runs[(label, mode, who)][0][0] for who in rate}
            for who, r in rate.items():
                ratio = "" if who == "engine" else f"{rate['engine'] / r:>10.2f}x"
                print(f"{label:<12}{depth:>6}  {names[(variant, who)]:<34}{counts[who]:>10,}{r:>13,.0f}{ratio}")
            if len(set(counts.values())) != 1:
                print(f"  COUNTS DIFFER: {counts}")
            ref = refs[variant][0][0]
            summary.append(f"{label} {mode} {rate['engine'] / rate[ref]:.2f}x")
    print("\nengine / reference (the plain generator of the rules the engine keeps: Crossfire's has "
          "the ko rule, SF-6; target >= 1.0x):")
    print("  " + ", ".join(summary))


def bulk_table(args: argparse.Namespace) -> None:
    rows = []
    for label, variant, depth in (("FOCUS 2p", "2p", args.depth_square), ("Crossfire", "crossfire", args.depth_hex),
                                  ("FOCUS 3p", "3p", args.depth_square), ("FOCUS 4p-teams", "4p-teams", args.depth_square)):
        s = SacksonGame({"2p": 2, "crossfire": 2, "3p": 3, "4p-teams": 4}[variant], {"variant": variant}).new_initial_state()
        modes = [("last-ply bulk", depth, True, False)]
        if s._fast2:
            modes.insert(0, ("shortcut bulk", depth, True, True))
        modes.append(("make/unmake", depth - 1, False, False))
        for mode, d, bulk, shortcut in modes:
            n, dt = timed(s, d, bulk, shortcut)
            rows.append((label, d, mode, n, dt, n / dt if dt else float("inf")))
    print(f"{'board':<16}{'depth':>6}  {'mode':<14}{'leaves':>12}{'seconds':>10}{'leaves/s':>14}")
    for label, d, mode, n, dt, rate in rows:
        print(f"{label:<16}{d:>6}  {mode:<14}{n:>12,}{dt:>10.3f}{rate:>14,.0f}")
    s = SacksonGame(2).new_initial_state()
    n, dt = timed(s, 4, True, True)
    n2, dt2 = timed(s, 4, True, False)
    print(f"\n2p depth-4 perft from the start, {n:,} leaves: shortcut bulk {dt:.3f} s, "
          f"last-ply bulk {dt2:.3f} s (target < 2 s)")


if __name__ == "__main__":
    raise SystemExit(main())
