"""Is the referee fair?  Races between equal simulated players, each seat's share of wins.

Every seat has the same reaction times (log-normal, median 450 ms, never under
150 ms, 10 % of races missed), bouncing contacts (30 % of presses chatter 1-3
times within 1.5 ms) and hold times; edges reach the referee 0-8 ms late in
shuffled order (R-1, B-5) and it is ticked whenever something arrives or is
due (``next_deadline``).  Equal players must share the wins equally: for each
race mode and table size the bench prints every seat's share of wins (of the
first card, FX-6), the debated rate (R-4), and the largest deviation from a
fair share with its 99 % confidence interval (normal approximation).

* ``first``: first valid press wins (Classic, shift races); the "win" is the
  first card of the trio, so a debated race counts for the first in order.
* ``last``: last to press takes the trio (Duel, FX-10); the share is of taking
  it (ties for last split the count).
* ``window``: a claim window (ThinkFocus, 4Focus): the first right claim.
* ``same-stamp``: every seat presses at the very same nanosecond (as two
  buzzers wired to one input would, or a coarse clock): who gets the first
  card is then a chance draw (R-5), never seat order.

``--gpio-races`` more races go through the GPIO adapter (``hardware.gpio``) on
gpiozero's MockFactory pins, driven in real time by one thread (time scaled
down ``--gpio-scale`` times, and the judge's windows with it), so the stamps
are real CLOCK_MONOTONIC readings of the pins' edges.

    .venv/bin/python bench/bench_fairness.py [--races 100000] [--gpio-races 5000] [--seats 2-8]
"""

from __future__ import annotations

import argparse
import heapq
import math
import random
import time
from collections import Counter
from typing import Any

from arcade.core.events import Edge
from arcade.core.judge import JudgeSettings
from arcade.core.race import FOCUS, RaceResult, RaceSpec
from arcade.core.referee import Referee

MS = 1_000_000
Z99 = 2.576


class OneRace:
    """A game state that is one open race window; the results it was given are kept."""

    def __init__(self, seats: int, spec: RaceSpec) -> None:
        self.race_no = 1
        self.seats = seats
        self.spec = spec
        self.results: list[RaceResult] = []
        self.history: list[Any] = []

    def current_player(self) -> int:
        return -3 if self.results and self.results[-1].decisive else -2

    def race_spec(self) -> RaceSpec:
        return self.spec

    def apply(self, action: Any, player: Any = None) -> None:
        self.results.append(action)


def make_referee(state: OneRace, js: JudgeSettings, rng: random.Random) -> Referee:
    try:
        return Referee(state, js, random.Random(rng.getrandbits(64)))  # type: ignore[arg-type]
    except TypeError:                     # a referee without a chance draw (older checkout)
        return Referee(state, js)  # type: ignore[arg-type]


def spec_for(mode: str, n: int) -> RaceSpec:
    seats = frozenset(range(n))
    if mode == "last":
        return RaceSpec(eligible=seats, valid_kinds=frozenset({FOCUS}), mode="last", deadline_ms=3000)
    if mode == "window":
        return RaceSpec(eligible=seats, valid_kinds=frozenset({FOCUS}), mode="window", window_ms=4000)
    return RaceSpec(eligible=seats, valid_kinds=frozenset({FOCUS}))


def press_edges(rng: random.Random, seat: int, t_ns: int, scale: float = 1.0) -> list[Edge]:
    """One press at ``t_ns``: maybe chattering, then held and released."""
    edges = [Edge(t_ns, seat, "buzzer", True)]
    if rng.random() < 0.3:
        t, level = t_ns, True
        for _ in range(rng.randint(1, 3)):
            t += int(rng.uniform(0.05, 0.5) * MS / scale)
            level = not level
            edges.append(Edge(t, seat, "buzzer", level))
        if not level:
            edges.append(Edge(t + int(0.05 * MS / scale), seat, "buzzer", True))
    edges.append(Edge(t_ns + int(rng.uniform(60, 200) * MS / scale), seat, "buzzer", False))
    return edges


def reaction_ns(rng: random.Random) -> int:
    return int(max(150.0, rng.lognormvariate(math.log(450.0), 0.3)) * MS)


def race_edges(rng: random.Random, mode: str, n: int, opened: int) -> list[Edge]:
    edges: list[Edge] = []
    if mode == "same-stamp":
        t = opened + reaction_ns(rng)
        for s in range(n):
            edges += press_edges(rng, s, t)
        return edges
    for s in range(n):
        if rng.random() < 0.1:
            continue                                   # missed it
        edges += press_edges(rng, s, opened + reaction_ns(rng))
    return edges


def judge_one(state: OneRace, ref: Referee, deliveries: list[tuple[int, float, Edge]], opened: int,
              limit_ns: int) -> RaceResult | None:
    """Feed ``(delivery ns, order, edge)`` and tick at every delivery and deadline."""
    heapq.heapify(deliveries)
    ref.frame_shown(opened)
    t = opened
    for _ in range(10_000):
        if state.current_player() != -2:
            break
        nxt = [x for x in (ref.next_deadline(), deliveries[0][0] if deliveries else None) if x is not None]
        if not nxt:
            t += 16 * MS
        else:
            t = max(t, min(nxt))
        if t > limit_ns:
            ref.request_close(t)
            t += 100 * MS
        while deliveries and deliveries[0][0] <= t:
            ref.feed(heapq.heappop(deliveries)[2])
        ref.tick(t)
    decisive = [r for r in state.results if r.decisive]
    return decisive[-1] if decisive else None


def credit(mode: str, r: RaceResult | None, wins: Counter[int]) -> bool:
    """Add the race's win to ``wins``; True if it was debated (R-4) or tied for last."""
    if r is None:
        return False
    if mode == "last":
        for s in r.last:
            wins[s] += 1.0 / len(r.last)  # type: ignore[assignment]
        return len(r.last) > 1
    if r.winners:
        wins[r.winners[0]] += 1
    if mode == "window":
        # every right claim counts in a window; "debated": the first two within the tie window
        claims = sorted(us for _s, _k, us, status in r.presses if status == "claim")
        return len(claims) > 1 and claims[1] - claims[0] <= JudgeSettings().tie_window_ms * 1000
    return len(r.winners) > 1


def summary(mode: str, n: int, races: int, wins: Counter[int], debated: int, label: str = "") -> float:
    decided = sum(wins.values())
    if not decided:
        print(f"{label}{mode:10} {n} seats: no race decided")
        return 0.0
    fair = 1.0 / n
    shares = [wins[s] / decided for s in range(n)]
    worst = max(range(n), key=lambda s: abs(shares[s] - fair))
    dev = shares[worst] - fair
    half = Z99 * math.sqrt(shares[worst] * (1 - shares[worst]) / decided)
    cells = " ".join(f"{100 * x:5.2f}" for x in shares)
    print(f"{label}{mode:10} {n} seats {races:6d} races  shares % [{cells}]  debated {100 * debated / races:5.2f} %  "
          f"largest deviation P{worst + 1} {100 * dev:+.2f} % (99% CI {100 * (dev - half):+.2f} .. {100 * (dev + half):+.2f})")
    return dev


def run_judge(modes: list[str], seat_counts: list[int], races: int, seed: int) -> list[tuple[str, int, float]]:
    js = JudgeSettings()
    out = []
    for mode in modes:
        per = max(1, races // len(seat_counts)) if mode != "same-stamp" else max(1, min(races // len(seat_counts), 3000))
        for n in seat_counts:
            rng = random.Random(f"{seed}-{mode}-{n}")
            wins: Counter[int] = Counter()
            debated = 0
            for _ in range(per):
                sp = spec_for("first" if mode == "same-stamp" else mode, n)
                state = OneRace(n, sp)
                ref = make_referee(state, js, rng)
                opened = 1_000 * MS
                edges = race_edges(rng, mode, n, opened)
                deliveries = [(e.t_ns + rng.randint(0, 8 * MS), rng.random(), e) for e in edges]
                r = judge_one(state, ref, deliveries, opened, opened + 6_000 * MS)
                debated += credit(mode, r, wins)
            out.append((mode, n, summary(mode, n, per, wins, debated)))
    return out


def run_gpio(races: int, seat_counts: list[int], scale: float, seed: int) -> None:
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    from hardware import drain
    from hardware.gpio import GpioBuzzers

    js = JudgeSettings(debounce_ms=15 / scale, tie_window_ms=20 / scale, settle_ms=max(20 / scale, 30 / scale),
                       late_grace_ms=400 / scale if 400 / scale >= 0 else 0)
    factory = MockFactory()
    per = max(1, races // len(seat_counts))
    try:
        for n in seat_counts:
            rng = random.Random(f"{seed}-gpio-{n}")
            pins = {(s, "buzzer"): 4 + s for s in range(n)}
            wins: Counter[int] = Counter()
            debated = 0
            with GpioBuzzers(pins, pin_factory=factory) as buzzers:
                for _ in range(per):
                    opened = time.monotonic_ns() + int(2 * MS)
                    plan: list[tuple[int, float, int, bool]] = []
                    for s in range(n):
                        if rng.random() < 0.1:
                            continue
                        t = opened + int(reaction_ns(rng) / scale)
                        for e in press_edges(rng, s, t, scale):
                            plan.append((e.t_ns, rng.random(), s, e.pressed))
                    plan.sort()
                    for t, _, s, pressed in plan:
                        while time.monotonic_ns() < t:
                            pass
                        pin = factory.pin(4 + s)
                        pin.drive_low() if pressed else pin.drive_high()
                    for s in range(n):                     # every button up again
                        factory.pin(4 + s).drive_high()
                    edges = drain(buzzers.queue)
                    state = OneRace(n, spec_for("first", n))
                    ref = make_referee(state, js, rng)
                    deliveries = [(e.t_ns, rng.random(), e) for e in edges]
                    r = judge_one(state, ref, deliveries, opened, opened + int(6_000 * MS / scale))
                    debated += credit("first", r, wins)
            summary("first", n, per, wins, debated, label="GPIO ")
    finally:
        factory.close()
        factory.reset()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--races", type=int, default=100_000, help="races per mode through the referee (default 100000)")
    ap.add_argument("--gpio-races", type=int, default=5_000, help="races through the GPIO adapter (default 5000)")
    ap.add_argument("--gpio-scale", type=float, default=20.0, help="real time runs this many times faster (default 20)")
    ap.add_argument("--seats", default="2-8", help="table sizes, e.g. 2-8 or 2,4 (default 2-8)")
    ap.add_argument("--modes", default="first,last,window,same-stamp")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if "-" in a.seats:
        lo, hi = (int(x) for x in a.seats.split("-"))
        seat_counts = list(range(lo, hi + 1))
    else:
        seat_counts = [int(x) for x in a.seats.split(",")]
    modes = [m for m in a.modes.split(",") if m]
    print(f"equal simulated players; {a.races} races per mode over {seat_counts} seats; shares are of "
          "the win (first card; Duel: taking the trio); fair share = 1/seats")
    t0 = time.perf_counter()
    results = run_judge(modes, seat_counts, a.races, a.seed)
    worst = max(results, key=lambda r: abs(r[2])) if results else None
    if worst is not None:
        print(f"largest deviation of any seat: {100 * worst[2]:+.2f} % ({worst[0]}, {worst[1]} seats); "
              f"{time.perf_counter() - t0:.0f} s")
    if a.gpio_races:
        t1 = time.perf_counter()
        run_gpio(a.gpio_races, seat_counts, a.gpio_scale, a.seed)
        print(f"GPIO races: {a.gpio_races} through MockFactory pins, time scaled 1/{a.gpio_scale:g}; "
              f"{time.perf_counter() - t1:.0f} s")


if __name__ == "__main__":
    main()
