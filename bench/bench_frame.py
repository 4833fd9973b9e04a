"""The kiosk's frame time for every game entry, at 1280x720 and 1920x1080, with medium and with the
strongest computer players (prints figures, asserts nothing).

Runs the real App under the SDL dummy driver with the game's own demo seats
(simulated players pressing through MockFactory pins, computer players moving
for them) and the virtual LED matrix, one fresh process per run, and prints per
run the median, 99th percentile and worst of the work per frame (event
handling, judging, drawing, flip; not the sleep) after the first ten frames,
the frames over the 60 fps budget (16.7 ms) and over 8 ms, and the first ten
frames apart (the first one is the scene's first frame).

    SDL_VIDEODRIVER=dummy .venv/bin/python bench/bench_frame.py [--frames 1200]
        [--games NAME,NAME] [--sizes 1280x720,1920x1080] [--skills medium,expert]
    SDL_VIDEODRIVER=dummy .venv/bin/python bench/bench_frame.py --led 64x64
    SDL_VIDEODRIVER=dummy .venv/bin/python bench/bench_frame.py --games NAME --size 1920x1080 --skill expert

The entries are :mod:`arcade.registry`'s (each with its demo seats, or its
default seats); on a checkout without the registry, every lobby game and mode
with its demo seats.  ``--led WxH`` times the virtual LED matrix alone: the
drawing of a new picture and of an unchanged one, per frame.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

BUDGET_MS = 1000 / 60
SKILLS = ("easy", "medium", "hard", "expert")


def entries() -> list[tuple[str, str, str, int]]:
    """(name, family, mode, seats) of every game entry."""
    try:
        from arcade import registry
    except ImportError:
        registry = None  # type: ignore[assignment]
    if registry is not None and hasattr(registry, "SPECS"):
        return [(s.name, s.family, s.mode, s.demo_seats or s.default_seats) for s in registry.SPECS]
    from kiosk.scenes.lobby import lobby_games

    return [(f"{g.family}-{g.mode}", g.family, g.mode, g.demo_seats) for g in lobby_games()]


def run_one(one: str, size: tuple[int, int], skill: str, frames: int) -> dict[str, object]:
    """One run: ``one`` is ``family:mode:seats``."""
    import pygame

    from kiosk import config
    from kiosk.app.loop import App
    from kiosk.players.demo import simulated_seats
    from kiosk.scenes.lobby import find_game

    family, mode, seats_text = one.split(":")
    seats = int(seats_text)
    name = f"{family}-{mode}"
    with tempfile.TemporaryDirectory() as tmp:
        cfg = config.load(None)
        cfg.data["storage"]["path"] = os.path.join(tmp, "bench.sqlite3")
        cfg.data["display"]["fps"] = 240
        pygame.init()
        screen = pygame.display.set_mode(size)
        args = argparse.Namespace(command="demo", game=family, mode=mode, players=seats, seed=1,
                                  skill=skill, pace=1.0, loop=True, screenshot_dir="", frames=0)
        app = App(cfg, screen, args)
        app.pace_override = 1.0
        if hasattr(app, "seed_override"):
            app.seed_override = 1
        game = find_game(family, mode)
        wall: list[float] = []
        cpu: list[float] = []
        step = app.step

        def timed_step(now_ns: int) -> None:
            # The render thread's CPU time holds under load (a shared machine); wall time
            # also shows waiting for the GIL and for the CPU.
            c0, t0 = time.thread_time_ns(), time.perf_counter_ns()
            step(now_ns)
            wall.append((time.perf_counter_ns() - t0) / 1e6)
            cpu.append((time.thread_time_ns() - c0) / 1e6)

        app.step = timed_step  # type: ignore[method-assign]
        c0, t0 = time.thread_time_ns(), time.perf_counter_ns()
        app.push(game.start(app, simulated_seats(app, seats, skill)))
        start = ((time.perf_counter_ns() - t0) / 1e6, (time.thread_time_ns() - c0) / 1e6)
        app.loop(max_frames=frames)
        app.close()
        pygame.quit()
    return {"name": name, "seats": seats, "size": f"{size[0]}x{size[1]}", "skill": skill, "times": wall,
            "cpu": cpu, "start": start}


def _figures(times: list[float]) -> str:
    first, rest = times[:10], times[10:]
    q = statistics.quantiles(rest, n=100, method="inclusive")
    over = sum(1 for t in rest if t > BUDGET_MS)
    over8 = sum(1 for t in rest if t > 8.0)
    return (f"{statistics.median(rest):>8.2f}{q[98]:>8.2f}{max(rest):>8.2f}{over:>6}{over8:>6}   "
            + " ".join(f"{t:.1f}" for t in first))


def summary(r: dict[str, object]) -> str:
    """Two lines: wall time per frame, then the render thread's CPU time per frame (ms);
    ``start`` is the time to make the scene (before its first frame)."""
    head = f"{r['name']:<28}{r['seats']:>3} {r['size']:>10} {r['skill']:<7}"
    wall: list[float] = r["times"]  # type: ignore[assignment]
    lines = [f"{head}wall{_figures(wall)}"]
    cpu: list[float] | None = r.get("cpu")  # type: ignore[assignment]
    if cpu:
        start = r.get("start") or (0.0, 0.0)
        lines.append(f"{'':<28}{'':>3} {'':>10} {'':<7} cpu{_figures(cpu)}   "
                     f"(scene made in {start[0]:.1f} ms wall, {start[1]:.1f} ms cpu)")  # type: ignore[index]
    return "\n".join(lines)


def led(size: str, frames: int) -> None:
    import random

    import pygame

    from firmware_bridge.virtual import LedPicture
    from kiosk import render

    w, h = (int(v) for v in size.split("x"))
    pygame.init()
    screen = pygame.display.set_mode((1920, 1080))
    rng = random.Random(1)
    pics = []
    for _ in range(8):
        rows = tuple(tuple((rng.randrange(256), rng.randrange(256), 0) if rng.random() < 0.4 else (0, 0, 0)
                           for _x in range(w)) for _y in range(h))
        p = LedPicture(rows)
        p.raw = bytes(v for row in rows for px in row for v in px)
        pics.append(p)
    rect = pygame.Rect(1420, 560, 480, 480)
    for label, pick in (("a new picture every frame", lambda i: pics[i % 8]),
                        ("a new picture every second frame (30 LED fps at 60 fps)", lambda i: pics[(i // 2) % 8]),
                        ("the same picture", lambda i: pics[0])):
        ts, cs = [], []
        for i in range(frames):
            p = pick(i)
            screen.fill((18, 22, 34))             # as a scene does each frame: nothing left warm in the cache
            c0, t0 = time.thread_time_ns(), time.perf_counter_ns()
            render.led_matrix(screen, rect, p)
            ts.append((time.perf_counter_ns() - t0) / 1e6)
            cs.append((time.thread_time_ns() - c0) / 1e6)
        print(f"virtual LED matrix {size} in a 480x480 box, {label} ({frames} frames):\n"
              f"    wall median {statistics.median(ts):.3f} ms, mean {statistics.fmean(ts):.3f} ms, "
              f"p99 {statistics.quantiles(ts, n=100, method='inclusive')[98]:.3f} ms, worst {max(ts):.3f} ms\n"
              f"    cpu  median {statistics.median(cs):.3f} ms, mean {statistics.fmean(cs):.3f} ms, "
              f"p99 {statistics.quantiles(cs, n=100, method='inclusive')[98]:.3f} ms, worst {max(cs):.3f} ms")
    pygame.quit()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=1200)
    ap.add_argument("--games", default="", help="entry names, comma-separated (default: every entry)")
    ap.add_argument("--sizes", default="1280x720,1920x1080")
    ap.add_argument("--skills", default="medium,expert")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--size", default=None, help="one size (the same as --sizes SIZE)")
    ap.add_argument("--skill", default=None, help="one computer skill (the same as --skills SKILL)")
    ap.add_argument("--led", default=None, metavar="WxH", help="time the virtual LED matrix alone")
    ap.add_argument("--json", default=None, help="also write every run's frame times to this file")
    ap.add_argument("--before", default=None, metavar="ROOT",
                    help="also run every configuration on the checkout at ROOT (the code before), "
                         "alternating with this one, and print both")
    a = ap.parse_args()
    if a.led:
        led(a.led, max(a.frames, 200))
        return
    if a.one:
        w, h = (int(v) for v in (a.size or "1280x720").split("x"))
        print(json.dumps(run_one(a.one, (w, h), a.skill or "medium", a.frames)))
        return
    if a.size:
        a.sizes = a.size
    if a.skill:
        a.skills = a.skill
    todo = entries()
    if a.games:
        want = [n for n in a.games.split(",") if n]
        unknown = [n for n in want if n not in {e[0] for e in todo}]
        if unknown:
            ap.error(f"unknown entry {', '.join(unknown)}; the entries: {', '.join(e[0] for e in todo)}")
        todo = [e for e in todo if e[0] in want]
    bad = [s for s in a.skills.split(",") if s not in SKILLS]
    if bad:
        ap.error(f"unknown skill {', '.join(bad)}; the skills: {', '.join(SKILLS)}")
    print(f"{'entry':<28}{'pl':>3} {'size':>10} {'skill':<7}    {'median':>8}{'p99':>8}{'worst':>8}"
          f"{'>16.7':>6}{'>8ms':>6}   first 10 frames (ms)")
    results = []
    here = str(Path(__file__).resolve().parents[1])
    roots = ([("before", a.before)] if a.before else []) + [("after" if a.before else "", here)]
    for name, family, mode, seats in todo:
        for size in a.sizes.split(","):
            for skill in a.skills.split(","):
                for tag, root in roots:
                    env = dict(os.environ, PYTHONPATH=root)
                    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", f"{family}:{mode}:{seats}",
                           "--size", size, "--skill", skill, "--frames", str(a.frames)]
                    p = subprocess.run(cmd, capture_output=True, text=True, cwd=root, env=env)
                    label = f"{name} {tag}".strip()
                    if p.returncode != 0:
                        print(f"{label:<24} {size:>10} {skill:<7} failed: {p.stderr.strip().splitlines()[-1:]}")
                        continue
                    r = json.loads(p.stdout.strip().splitlines()[-1])
                    r["name"] = label
                    results.append(r)
                    print(summary(r), flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(results))


if __name__ == "__main__":
    main()
