"""The kiosk's frame time while buzzers storm: 8 seats hammering, or one pin chattering.

Runs the real App and the FocusX Classic scene (8 keyboard seats, 1280x720, SDL
dummy driver) frame by frame on a virtual CLOCK_MONOTONIC (16.7 ms a frame), so
a 3-minute run takes as long as its frames' work; the stamped edges of the
storm are put on the App's edge queue when due, each delivered 0-8 ms late in
shuffled order.  For each scenario it prints the work per frame (events,
judging, drawing, flip; median, p99, worst) and the time spent in the referee
(``feed`` + ``tick``) per frame, by minute, to show whether it grows over the run.

Scenarios: ``idle`` (no press), ``press2`` / ``press10`` / ``press50`` (every
seat presses 2, 10 or 50 times a second, each contact bouncing a little) and
``chatter`` (one pin chattering at 1 kHz: an edge every millisecond, the whole
run).  A finished game is followed by a new one.

    SDL_VIDEODRIVER=dummy .venv/bin/python bench/bench_storm.py [--seconds 180] [--only press50]

It runs in any checkout of the arcade with the same App and Classic scene (the
before/after comparison runs it with ``PYTHONPATH`` at the other checkout).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from typing import Any, Callable

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

MS = 1_000_000
FRAME_NS = 16_666_667
SCENARIOS = ("idle", "press2", "press10", "press50", "chatter")


def storm_edges(kind: str, seats: int, until_ns: int, rng: random.Random) -> list[tuple[int, int, str, bool]]:
    """``(t_ns, seat, control, pressed)`` of one scenario, in stamp order."""
    out: list[tuple[int, int, str, bool]] = []
    if kind == "idle":
        return out
    if kind == "chatter":
        t, level = 0, False
        while t < until_ns:
            level = not level
            out.append((t, 3, "buzzer", level))
            t += MS
        return out
    rate = {"press2": 2, "press10": 10, "press50": 50}[kind]
    period = 1_000_000_000 // rate
    for seat in range(seats):
        t = rng.randint(0, period)
        while t < until_ns:
            hold = period // 2
            out.append((t, seat, "buzzer", True))
            for k in range(rng.randint(0, 3)):                  # contact bounce, under 1 ms
                out.append((t + (2 * k + 1) * 150_000, seat, "buzzer", False))
                out.append((t + (2 * k + 2) * 150_000, seat, "buzzer", True))
            out.append((t + hold, seat, "buzzer", False))
            t += period + rng.randint(-period // 10, period // 10)
    out.sort()
    return out


class Timed:
    """Wraps a referee's ``feed`` and ``tick`` to add up the time spent in them."""

    def __init__(self) -> None:
        self.spent = 0.0
        self.wrapped: Any = None

    def wrap(self, referee: Any) -> None:
        if referee is self.wrapped:
            return
        self.wrapped = referee
        for name in ("feed", "tick"):
            inner: Callable[..., Any] = getattr(referee, name)

            def timed(*a: Any, _inner: Callable[..., Any] = inner) -> Any:
                t0 = time.perf_counter()
                try:
                    return _inner(*a)
                finally:
                    self.spent += time.perf_counter() - t0

            setattr(referee, name, timed)


def retained(referee: Any) -> int:
    """How many edges (and presses) the referee keeps: its whole working set."""
    deb = getattr(referee, "debouncer", None)
    if deb is not None:
        return int(deb.retained())
    return len(getattr(referee, "edges", ()))


def run(kind: str, seconds: float, seed: int) -> dict[str, Any]:
    import pygame

    import kiosk.app.loop as kiosk_app
    from arcade.core.events import Edge
    from kiosk import config
    from kiosk.app.loop import App
    try:
        from kiosk.games.focusx.scene import ClassicScene
    except ImportError:                    # a checkout from before the per-family screen folders
        from kiosk.scenes.classic import ClassicScene  # type: ignore[no-redef]
    from kiosk.scenes.seats import SeatInfo

    clock = {"now": 10_000 * MS}
    real_monotonic_ns = time.monotonic_ns

    class VirtualTime:
        """``time`` for kiosk.app.loop: its flip stamps come from the virtual clock."""

        def __getattr__(self, name: str) -> Any:
            return getattr(time, name)

        @staticmethod
        def monotonic_ns() -> int:
            return clock["now"]

    rng = random.Random(seed)
    seats = [SeatInfo("keyboard", f"key {i + 1}") for i in range(8)]
    frames = int(seconds * 1e9 / FRAME_NS)
    edges = storm_edges(kind, len(seats), frames * FRAME_NS, rng)
    start = clock["now"]
    deliveries = sorted((start + t + rng.randint(0, 8 * MS), rng.random(), Edge(start + t, s, c, p, "keyboard"))
                        for t, s, c, p in edges)
    times: list[float] = []
    judge: list[float] = []
    kept: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        cfg = config.load(None)
        cfg.data["storage"]["path"] = os.path.join(tmp, "bench.sqlite3")
        pygame.init()
        screen = pygame.display.set_mode((1280, 720))
        args = argparse.Namespace(command=None, screenshot_dir="", frames=0)
        saved_time = kiosk_app.time
        kiosk_app.time = VirtualTime()  # type: ignore[assignment]
        try:
            app = App(cfg, screen, args)
            app.push(ClassicScene(app, seats, seed=seed, pace_s=3.0))
            timer = Timed()
            i = 0
            for _ in range(frames):
                clock["now"] += FRAME_NS
                now = clock["now"]
                scene = app.scenes[-1]
                if not isinstance(scene, ClassicScene):
                    app.replace(ClassicScene(app, seats, seed=rng.randrange(1 << 30), pace_s=3.0))
                    scene = app.scenes[-1]
                timer.wrap(scene.referee)
                while i < len(deliveries) and deliveries[i][0] <= now:
                    app.queue.put(deliveries[i][2])
                    i += 1
                timer.spent = 0.0
                t0 = time.perf_counter()
                app.step(now)
                times.append((time.perf_counter() - t0) * 1000)
                judge.append(timer.spent * 1000)
                kept.append(retained(scene.referee))
            state = app.scenes[-1].state
            from arcade.core.record import dumps
            record_kb = len(dumps(state)) / 1024
            record_races = getattr(state, "race_no", 0)
            app.close()
        finally:
            kiosk_app.time = saved_time  # type: ignore[assignment]
        pygame.quit()
    del real_monotonic_ns
    return {"kind": kind, "times": times[30:], "judge": judge[30:], "edges": len(edges), "kept": kept[30:],
            "record_kb": record_kb, "record_races": record_races}


def report(r: dict[str, Any], idle: dict[str, Any] | None) -> None:
    times, judge = r["times"], r["judge"]
    q = statistics.quantiles(times, n=100)
    med, p99 = statistics.median(times), q[98]
    line = (f"{r['kind']:8} edges {r['edges']:7d}  frame median {med:6.2f} ms  p99 {p99:6.2f} ms  "
            f"worst {max(times):7.2f} ms  judge/frame median {statistics.median(judge):6.3f} ms "
            f"p99 {statistics.quantiles(judge, n=100)[98]:6.3f} ms")
    if idle is not None and idle is not r:
        iq = statistics.quantiles(idle["times"], n=100)
        line += f"  (vs idle: median {med - statistics.median(idle['times']):+.2f} ms, p99 {p99 - iq[98]:+.2f} ms)"
    print(line)
    print(f"          game record so far: {r['record_kb']:.1f} KiB over {r['record_races']} race windows")
    per_min = 3600
    chunks = [judge[k:k + per_min] for k in range(0, len(judge), per_min) if len(judge[k:k + per_min]) > 100]
    if len(chunks) > 1:
        print("          judge/frame by minute (median, p99 ms): " + "  ".join(
            f"{statistics.median(c):.3f}/{statistics.quantiles(c, n=100)[98]:.3f}" for c in chunks))
    kept = r["kept"]
    parts = [kept[k:k + per_min] for k in range(0, len(kept), per_min) if kept[k:k + per_min]]
    print("          edges and presses the referee keeps, most in each minute: "
          + "  ".join(str(max(c)) for c in parts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=180.0, help="virtual seconds per scenario (default 180)")
    ap.add_argument("--only", choices=SCENARIOS, action="append", help="run only these scenarios")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    kinds = a.only or list(SCENARIOS)
    if "idle" not in kinds:
        kinds = ["idle"] + kinds
    print(f"FocusX Classic, 8 seats, 1280x720, {a.seconds:.0f} s of virtual time per scenario "
          f"(frame = the kiosk's work per frame, judge = referee feed + tick)")
    idle = None
    for kind in kinds:
        r = run(kind, a.seconds, a.seed)
        if kind == "idle":
            idle = r
        report(r, idle)


if __name__ == "__main__":
    main()
