"""Headless games per second of every registry entry (prints figures, asserts nothing).

    python bench/bench_headless.py [--games 10] [--seed 1] [--skill medium] [--only focusx-duel,crossfire]

Plays ``--games`` games of each entry of ``arcade.registry`` with computer
players at its default seat count, through the one headless runner
(``kiosk.players.headless.play``: the match driver in virtual time), and prints games
per second, the median time per game and the actions per game.  Time is
``time.perf_counter`` around each game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arcade import registry  # noqa: E402
from kiosk.players.headless import play  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skill", default="medium")
    ap.add_argument("--only", default="", help="comma list of registry names (default: every entry)")
    args = ap.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or registry.names()
    print(f"headless games, {args.skill} computer players, {args.games} games per entry, seed {args.seed}")
    print(f"  {'entry':<24} {'seats':>5} {'games/s':>9} {'median ms/game':>15} {'actions/game':>13}")
    for name in names:
        spec = registry.get(name)
        seats = spec.default_seats
        times, actions = [], 0
        for k in range(args.games):
            t0 = time.perf_counter()
            state = play(spec, seats, [args.skill] * seats, args.seed, k)
            times.append(time.perf_counter() - t0)
            actions += len(state.history)
        gps = args.games / sum(times)
        print(f"  {name:<24} {seats:>5} {gps:9.2f} {1000 * statistics.median(times):15.1f} "
              f"{actions / args.games:13.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
