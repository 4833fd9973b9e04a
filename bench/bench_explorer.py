"""The buzzers-only explorer's long mode (tests/explorer.py): for every registry entry, goal
walks (title -> lobby -> the game to its results -> initials -> title; every other one then
a game of it that everyone leaves, which must be put away, the others a power cut in a game of
it and the offer answered at the next start: resumed, dropped with a long hold, dropped with a
tap and a hold, or left to resume by itself) and seeded monkeys started in its
game, at the four screen sizes in turn, until the entry has had ``--minutes`` virtual minutes; then the figures: gestures tried, frames run and checked,
invariants held (by name), per entry and in all.  Before them (or alone, ``--service``) the
service walk and the ways back (the lobby's long holds, the PIN screen's) at the four sizes, the text checked on every frame, and a crowd of guests mashing every
buzzer for ``--crowd-minutes`` (they must never reach the PIN screen).  The first failure stops the bench with
its seed, gesture trace and replay command (exit status 1).

    SDL_VIDEODRIVER=dummy nice python bench/bench_explorer.py --minutes 30
    python bench/bench_explorer.py --minutes 2 --entry coop-base      # one entry, quickly
    python bench/bench_explorer.py --replays                          # the walks that found a defect
    python bench/bench_explorer.py --service                          # the service walks and the crowd only
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.explorer import MONKEY_REPLAYS, REPLAYS, SIZES, Explorer, ExplorerFailure, keep_home_out  # noqa: E402

S = 1_000_000_000
#: The answers to the offer of an interrupted game, in turn (tests/explorer.py ``resume_walk``).
RESUME_ANSWERS = ("resume", "drop", "choose-drop", "wait")


def explore(entry: str, minutes: float, seed0: int, frame_ms: int, text_every: int,
            monkey_s: float) -> tuple[Counter[str], dict[str, float]]:
    """Walk ``entry`` for ``minutes`` virtual minutes; returns (invariants held, figures)."""
    held: Counter[str] = Counter()
    fig = {"walks": 0.0, "monkeys": 0.0, "left": 0.0, "resumes": 0.0, "gestures": 0.0, "frames": 0.0, "drawn": 0.0,
           "virtual_s": 0.0, "results": 0.0}
    k = 0
    while fig["virtual_s"] < minutes * 60:
        size = SIZES[k % len(SIZES)]
        seed = seed0 + k
        with tempfile.TemporaryDirectory() as tmp:
            ex = Explorer(Path(tmp), seed, size, text_every, frame_ms=frame_ms)
            t0 = ex.clock.t
            try:
                if k % 2 == 0:
                    ex.goal(entry)
                    fig["walks"] += 1
                    if k % 4 == 0:
                        ex.everyone_leaves(entry)
                        fig["left"] += 1
                    else:
                        ex.resume_walk(entry, RESUME_ANSWERS[(k // 4) % len(RESUME_ANSWERS)])
                        fig["resumes"] += 1
                else:
                    ex.monkey_from(entry, monkey_s)
                    fig["monkeys"] += 1
            except ExplorerFailure as exc:
                print(f"\nFAILED in {entry} (walk {k}):\n{exc}", flush=True)
                raise
            finally:
                fig["virtual_s"] += (ex.clock.t - t0) / S
                fig["gestures"] += len(ex.trace.steps)
                fig["frames"] += ex.checks.frames
                fig["drawn"] += ex.frames_run // text_every if text_every else 0
                fig["results"] += len(ex.checks.entries_done)
                held.update(ex.checks.held)
                ex.close()
        k += 1
    return held, fig


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=30.0, help="virtual minutes per registry entry")
    p.add_argument("--entry", action="append", default=[], help="only these registry names (repeat)")
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--frame-ms", type=int, default=50)
    p.add_argument("--text-every", type=int, default=10, help="check the text drawn every N frames")
    p.add_argument("--monkey-s", type=float, default=180.0, help="virtual seconds of each monkey")
    p.add_argument("--replays", action="store_true", help="only the walks that found a defect, again")
    p.add_argument("--service", action="store_true", help="only the service walks (the four sizes)")
    p.add_argument("--crowd-minutes", type=float, default=10.0,
                   help="virtual minutes of four seats mashing (with the service walks): never the PIN screen")
    a = p.parse_args(argv)
    logging.disable(logging.WARNING)               # the kiosk's own messages (away, back...) are expected
    home = tempfile.TemporaryDirectory()            # the machine's own store and config copy stay untouched
    keep_home_out(Path(home.name))
    from arcade import registry
    entries = a.entry or registry.names()
    total: Counter[str] = Counter()
    sums: Counter[str] = Counter()
    wall = time.perf_counter()
    if not a.entry or a.replays:
        print("the walks that found a defect, again:", flush=True)
        for entry, seed, size, frame_ms, every in REPLAYS:
            with tempfile.TemporaryDirectory() as tmp:
                ex = Explorer(Path(tmp), seed, size, every, frame_ms=frame_ms)
                try:
                    ex.goal(entry)
                except ExplorerFailure as exc:
                    print(f"\nFAILED again:\n{exc}", flush=True)
                    return 1
                finally:
                    ex.close()
                print(f"  ok  {entry} seed {seed} {size[0]}x{size[1]}: {ex.checks.frames} frames, "
                      f"{len(ex.trace.steps)} gestures, {sum(ex.checks.held.values())} checks held", flush=True)
        for start, seed, size, frame_ms, every, seconds in MONKEY_REPLAYS:
            with tempfile.TemporaryDirectory() as tmp:
                ex = Explorer(Path(tmp), seed, size, every, frame_ms=frame_ms)
                try:
                    ex.monkey_from(start, seconds)
                except ExplorerFailure as exc:
                    print(f"\nFAILED again:\n{exc}", flush=True)
                    return 1
                finally:
                    ex.close()
                print(f"  ok  monkey from {start} seed {seed} {size[0]}x{size[1]}: {ex.checks.frames} frames, "
                      f"{len(ex.trace.steps)} gestures", flush=True)
        if a.replays:
            return 0
    if not a.entry or a.service:
        print("the service menu with buzzers alone (every page, every setting both ways, the PIN):", flush=True)
        for k, size in enumerate(SIZES):
            with tempfile.TemporaryDirectory() as tmp:
                ex = Explorer(Path(tmp), a.seed + k, size, 1, frame_ms=a.frame_ms)
                t0 = ex.clock.t
                try:
                    ex.service_walk()
                    ex.lobby_back()
                    ex.pin_ways_out()
                except ExplorerFailure as exc:
                    print(f"\nFAILED:\n{exc}", flush=True)
                    return 1
                finally:
                    ex.close()
                total.update(ex.checks.held)
                print(f"  ok  {size[0]}x{size[1]}: {(ex.clock.t - t0) / S / 60:.1f} virtual min, "
                      f"{len(ex.trace.steps)} gestures, {ex.checks.frames} frames (each with its text), "
                      f"{sum(ex.checks.held.values())} checks held", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            ex = Explorer(Path(tmp), a.seed, SIZES[1], a.text_every, frame_ms=a.frame_ms)
            t0 = ex.clock.t
            try:
                ex.to_attract()
                ex.crowd(a.crowd_minutes * 60)
            except ExplorerFailure as exc:
                print(f"\nFAILED:\n{exc}", flush=True)
                return 1
            finally:
                ex.close()
            total.update(ex.checks.held)
            print(f"  ok  guests mashing every buzzer: {(ex.clock.t - t0) / S / 60:.1f} virtual min, "
                  f"{len(ex.trace.steps)} presses, {ex.checks.frames} frames, never the PIN screen", flush=True)
        if a.service:
            return 0
    print(f"{'entry':24} {'virt min':>8} {'walks':>5} {'monkeys':>7} {'left':>4} {'results':>7} {'gestures':>8} "
          f"{'frames':>8} {'text chk':>8} {'checks held':>11} {'wall s':>7}", flush=True)
    for i, entry in enumerate(entries):
        t0 = time.perf_counter()
        try:
            held, fig = explore(entry, a.minutes, a.seed + 100 * i, a.frame_ms, a.text_every, a.monkey_s)
        except ExplorerFailure:
            return 1
        total.update(held)
        sums.update({k: int(v) for k, v in fig.items()})
        print(f"{entry:24} {fig['virtual_s'] / 60:8.1f} {fig['walks']:5.0f} {fig['monkeys']:7.0f} {fig['left']:4.0f} "
              f"{fig['results']:7.0f} {fig['gestures']:8.0f} {fig['frames']:8.0f} {fig['drawn']:8.0f} "
              f"{sum(held.values()):11d} {time.perf_counter() - t0:7.0f}", flush=True)
    print(f"\nall: {len(entries)} entries, {sums['virtual_s'] / 60:.0f} virtual minutes, {sums['gestures']} gestures "
          f"tried, {sums['frames']} frames checked ({sums['drawn']} with their text), "
          f"{sum(total.values())} invariant checks held, {sums['results']} results reached, "
          f"{time.perf_counter() - wall:.0f} s wall")
    for name, n in sorted(total.items()):
        print(f"  {n:9d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
