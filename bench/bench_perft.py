"""Perft speed of the FOCUS / Crossfire move generator (prints figures, asserts nothing).

    python bench/bench_perft.py [--depth-square 4] [--depth-hex 3]

For each board: leaves/s with bulk counting (the last ply is counted, not
played) and without (every leaf is made and taken back), and the time of the
two-player depth-4 bulk perft from the start (target: under 2 s).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arcade.sackson import SacksonGame, perft  # noqa: E402


def timed(state, depth: int, bulk: bool) -> tuple[int, float]:
    t0 = time.perf_counter()
    n = perft(state, depth, bulk=bulk)
    return n, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth-square", type=int, default=4, help="bulk depth on the square board (default 4)")
    ap.add_argument("--depth-hex", type=int, default=3, help="bulk depth on the hex board (default 3)")
    args = ap.parse_args(argv)
    rows = []
    for label, variant, depth in (("FOCUS 2p", "2p", args.depth_square), ("Crossfire", "crossfire", args.depth_hex),
                                  ("FOCUS 3p", "3p", args.depth_square), ("FOCUS 4p-teams", "4p-teams", args.depth_square)):
        s = SacksonGame({"2p": 2, "crossfire": 2, "3p": 3, "4p-teams": 4}[variant], {"variant": variant}).new_initial_state()
        for bulk, d in ((True, depth), (False, depth - 1)):
            n, dt = timed(s, d, bulk)
            rows.append((label, d, "bulk" if bulk else "make/unmake", n, dt, n / dt if dt else float("inf")))
    print(f"{'board':<16}{'depth':>6}  {'mode':<12}{'leaves':>12}{'seconds':>10}{'leaves/s':>14}")
    for label, d, mode, n, dt, rate in rows:
        print(f"{label:<16}{d:>6}  {mode:<12}{n:>12,}{dt:>10.3f}{rate:>14,.0f}")
    s = SacksonGame(2).new_initial_state()
    n, dt = timed(s, 4, True)
    print(f"\n2p depth-4 bulk perft from the start: {n:,} leaves in {dt:.3f} s (target < 2 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
