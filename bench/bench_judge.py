"""The judge's verdict delay after the settle window, over many races.

For each of N random races (2-8 seats, human-like presses, bouncing contacts,
shuffled delivery), the referee is ticked at the exact moment the settle window
ends (R-6) and the time its tick takes to produce the verdict is measured: that
is the delay the judge adds.  A kiosk ticks once a frame, so the figure a
player sees is this plus the wait for the next frame (0 to 16.7 ms at 60 fps),
also printed.

    .venv/bin/python bench/bench_judge.py [--races 10000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from arcade.core.events import Edge
from arcade.core.judge import JudgeSettings
from arcade.core.race import RaceSpec
from arcade.core.referee import Referee

MS = 1_000_000


class _Stub:
    """A minimal racing state: one open race, results recorded."""

    def __init__(self, seats: int) -> None:
        self.race_no = 1
        self.seats = seats
        self.results: list = []

    def current_player(self) -> int:
        return -2 if not self.results or not self.results[-1].decisive else -3

    def race_spec(self) -> RaceSpec:
        return RaceSpec(eligible=frozenset(range(self.seats)), valid_kinds=frozenset({"focus"}))

    def apply(self, action, player=None) -> None:  # noqa: ANN001
        self.results.append(action)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--races", type=int, default=10000)
    args = ap.parse_args()
    rng = random.Random(7)
    settings = JudgeSettings()
    delays = []
    frame_delays = []
    for _ in range(args.races):
        seats = rng.randint(2, 8)
        state = _Stub(seats)
        ref = Referee(state, settings)  # type: ignore[arg-type]
        opened = 1_000 * MS
        ref.frame_shown(opened)
        edges = []
        for s in range(seats):
            t = opened + int(rng.lognormvariate(6.6, 0.3) * MS)
            for b in range(rng.choice([0, 0, 1, 3])):
                edges += [Edge(t + b * 400_000, s, "buzzer", True), Edge(t + b * 400_000 + 200_000, s, "buzzer", False)]
            edges += [Edge(t + 2 * MS, s, "buzzer", True), Edge(t + 90 * MS, s, "buzzer", False)]
        rng.shuffle(edges)
        for e in edges:
            ref.feed(e)
        first = min(e.t_ns for e in edges)
        decided = first + settings.settle_ns
        t0 = time.perf_counter_ns()
        ref.tick(decided)
        dt = time.perf_counter_ns() - t0
        assert state.results and state.results[-1].winners, "the verdict was not ready at the settle time"
        delays.append(dt / 1e6)
        frame_delays.append(dt / 1e6 + rng.uniform(0, 1000 / 60))
    q = statistics.quantiles(delays, n=100)
    print(f"races: {args.races}")
    print(f"verdict delay after the settle window (judge work): median {statistics.median(delays):.3f} ms, "
          f"p99 {q[98]:.3f} ms, worst {max(delays):.3f} ms")
    print(f"with a 60 fps loop (work + wait for the frame): median {statistics.median(frame_delays):.2f} ms, "
          f"worst {max(frame_delays):.2f} ms")


if __name__ == "__main__":
    main()
