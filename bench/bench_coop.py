#!/usr/bin/env python3
"""Focus (2023) with two computer partners over seeded deals: how well they do.

    .venv/bin/python bench/bench_coop.py [--deals 1000] [--seed 2023] [--skill medium]
                                         [--modes base,mycroft,sherlock] [--table shipped|tags]
                                         [--case scarlet]

Prints, for each mode, the win rate (base rules: only the exhibits left, CO-4)
or the mean Sherlock-Mode total over 3 rounds with its distribution over the
seed's rating table (40+ is "Brilliant"), and the time per game.  Deal ``k``
uses ``random.Random(f"{seed}-{k}")`` like ``focus-arcade headless``, so the
figures are reproducible.  ``--table tags`` plays with the tags-only table
(no language model) for comparison.  Figures only: nothing here asserts.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arcade import registry  # noqa: E402
from arcade.bots.coop import CoopPartner, play_out  # noqa: E402
from arcade.coop.game import RATINGS, CoopGame, CoopState  # noqa: E402
from arcade.coop.similarity import SimilarityTable, default_table, table_problem, tag_table  # noqa: E402


def play(mode: str, case: str, seed: int, k: int, skill: str, table: SimilarityTable) -> CoopState:
    state = CoopGame(2, {"mode": mode, "case": case}).new_initial_state()
    rng = random.Random(f"{seed}-{k}")
    partners = [CoopPartner(s, skill, table=table, rng=random.Random(f"{seed}-{k}-p{s}")) for s in (0, 1)]
    play_out(registry.get(f"coop-{mode}"), state, partners, rng)
    return state


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def band(total: int) -> str:
    for low, words in RATINGS:
        if total >= low:
            return f"{low}+" if low == 40 else words.split("!")[0].split(",")[0]
    return "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Focus (2023): two computer partners over seeded deals")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2023)
    ap.add_argument("--skill", default="medium")
    ap.add_argument("--modes", default="base,mycroft,sherlock")
    ap.add_argument("--table", choices=("shipped", "tags"), default="shipped")
    ap.add_argument("--case", default="")
    args = ap.parse_args(argv)
    table = default_table() if args.table == "shipped" else tag_table()
    if args.table == "shipped" and table_problem():
        print(f"WARNING: {table_problem()}; these figures are for the tags only", file=sys.stderr)
    print(f"Focus (2023) bench: {args.deals} deals, seed {args.seed}, skill {args.skill}, "
          f"table {args.table} ({table.source}), case {args.case or 'all cards'}")
    for mode in args.modes.split(","):
        t0 = time.perf_counter()
        states = [play(mode, args.case, args.seed, k, args.skill, table) for k in range(args.deals)]
        dt = (time.perf_counter() - t0) / max(1, args.deals)
        turns = sum(sum(r.turns for r in s.results) for s in states) / max(1, len(states))
        if CoopGame(2, {"mode": mode}).sherlock_rules:
            totals = [s.total() for s in states]
            mean = sum(totals) / len(totals)
            sd = math.sqrt(sum((t - mean) ** 2 for t in totals) / max(1, len(totals) - 1))
            rounds = [r for s in states for r in s.results]
            both = sum(1 for r in rounds if r.won) / len(rounds)
            lost = sum(1 for r in rounds if r.lost_by is not None) / len(rounds)
            print(f"{mode:17s} mean total over 3 rounds {mean:.1f} (sd {sd:.1f}, 95% CI of the mean "
                  f"{mean - 1.96 * sd / math.sqrt(len(totals)):.1f}..{mean + 1.96 * sd / math.sqrt(len(totals)):.1f}); "
                  f"rounds both found {both:.1%}, partner's card taken {lost:.1%}; "
                  f"{turns:.1f} cards taken per game; {dt * 1000:.0f} ms/game")
            counts = Counter(band(t) for t in totals)
            print("    rating table: " + ", ".join(
                f"{band(low)} {counts.get(band(low), 0) / len(totals):.1%}" for low, _w in RATINGS))
        else:
            wins = sum(1 for s in states if s.results[-1].won)
            lo, hi = wilson(wins, len(states))
            print(f"{mode:17s} win rate {wins / len(states):.1%} (95% CI {lo:.1%}..{hi:.1%}); "
                  f"{turns:.1f} cards taken per game; {dt * 1000:.0f} ms/game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
