"""What a computer decision costs the render thread once it thinks in the worker (prints figures).

Issue 14: the players whose decision can take over 1 ms (the FocusX placement players, the
Focus (2023) partner) think in the worker process (``kiosk/players/thinker.py``, ``"game"``
requests).  For each of them this plays ``--games`` headless games (:func:`kiosk.players.headless.play`,
the registry's own players), then walks every game again move by move and, at each move of
a seat, times on the calling thread (``time.thread_time_ns``, CPU):

* ``here``: the decision made in this process (:func:`kiosk.players.thinker.decide_here`, what the
  render loop paid before);
* ``render``: what the render thread pays with the worker: :meth:`WorkerChoice.begin`
  (only the actions since the last request are encoded) plus every ``result()`` poll until
  the move is there (the pump thread writes and reads the pipes; it is not the render thread);

and prints the median, 99th percentile and worst of both (ms), with the number of
decisions, and checks that the worker's move is the one made here.

    .venv/bin/python bench/bench_worker_decisions.py [--games 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import time

from arcade import registry
from kiosk.players import headless
from kiosk.players import thinker as th

#: (entry, seats, player, level): the players the kiosk now sends to the worker
CASES = [
    ("focusx-4focus", 4, "focusx-place", "medium"),
    ("focusx-4focus", 4, "focusx-place", "hard"),
    ("focusx-4focus", 4, "focusx-place", "expert"),
    ("focusx-thinkfocus", 4, "focusx-place", "expert"),
    ("coop-base", 2, "coop-partner", "hard"),
    ("coop-sherlock", 2, "coop-partner", "expert"),
]


def stats(xs: list[float]) -> str:
    p99 = min(statistics.quantiles(xs, n=100)[98], max(xs)) if len(xs) >= 2 else xs[0]
    return f"{statistics.median(xs):>8.3f}{p99:>8.3f}{max(xs):>8.3f}"


def measure(entry: str, seats: int, name: str, level: str, games: int, seed: int,
            thinker: th.Thinker) -> tuple[list[float], list[float], int, int]:
    spec = registry.get(entry)
    here_ms: list[float] = []
    render_ms: list[float] = []
    same = differ = 0
    for k in range(games):
        final = headless.play(spec, seats, [level] * seats, seed, k)
        state = spec.start_from((), seats, dict(final.game.settings))
        choice = th.WorkerChoice(name, thinker, entry=spec.name)
        for p, a in final.history:
            if p >= 0:
                seed_n = th.decision_seed(seed, state, p)
                c0 = time.thread_time_ns()
                mine = th.decide_here(name, state, p, level, seed_n)
                here_ms.append((time.thread_time_ns() - c0) / 1e6)
                c0 = time.thread_time_ns()
                thought = choice.begin(state, p, level, seed_n)
                assert thought is not None
                cost = time.thread_time_ns() - c0
                while True:
                    c0 = time.thread_time_ns()
                    got = thought.result()
                    cost += time.thread_time_ns() - c0
                    if got is not None:
                        break
                    time.sleep(0.001)                  # a frame's other work
                render_ms.append(cost / 1e6)
                if got.to_json() == mine.to_json():
                    same += 1
                else:
                    differ += 1
            state.apply(a, p)
    return here_ms, render_ms, same, differ


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    thinker = th.Thinker()
    thinker.start()
    print(f"{'entry':<20}{'player':<14}{'level':<8}{'moves':>6}   {'here: med    p99    max':<25}"
          f"{'render thread: med p99 max':<28}{'same move':>10}  (ms, CPU of the calling thread)")
    try:
        for entry, seats, name, level in CASES:
            here_ms, render_ms, same, differ = measure(entry, seats, name, level, a.games, a.seed, thinker)
            print(f"{entry:<20}{name:<14}{level:<8}{len(here_ms):>6}   {stats(here_ms)}  {stats(render_ms)}"
                  f"    {same}/{same + differ}", flush=True)
        print(f"worker answers {thinker.answers}, restarts {thinker.restarts}")
    finally:
        thinker.close()


if __name__ == "__main__":
    main()
