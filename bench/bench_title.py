"""CPU time per frame of the title screen, the attract loop's high-score page and the lobby (prints
figures, asserts nothing; issue 22: the title drew at about 12 fps on a simulated Pi 3).

The real :class:`kiosk.app.loop.App` under SDL's dummy driver, at 1920x1080 and 1280x720, on a
virtual clock moved 1/60 s a frame: the title screen (its drifting cards and the text over
them) and the high-score page between two demo games.  Each configuration runs in a fresh
process; with ``--before ROOT`` the same configurations also run on the checkout at ROOT,
alternating with this one (ratios hold on a noisy machine, single times do not).  Per run:
median, 99th percentile and worst CPU ms of the render thread per frame after the first ten
frames, the frames over 8 ms, and the first frame.

    SDL_VIDEODRIVER=dummy .venv/bin/python bench/bench_title.py [--frames 600] [--before ROOT]
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

FRAME_NS = 16_666_667
PAGES = ("title", "scores", "lobby")


def run_one(page: str, size: tuple[int, int], frames: int) -> dict[str, object]:
    import pygame

    from kiosk import config
    from kiosk.app.loop import App
    from kiosk.scenes.attract import AttractLoop, AttractScene

    with tempfile.TemporaryDirectory() as tmp:
        cfg = config.load(None)
        cfg.data["storage"]["path"] = os.path.join(tmp, "bench.sqlite3")
        cfg.data["led"]["port"] = "none"
        cfg.data["attract"]["idle_s"] = 10_000          # the title stays the title
        pygame.init()
        screen = pygame.display.set_mode(size)
        app = App(cfg, screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))
        now = 10_000 * 1_000_000_000
        c0 = time.thread_time_ns()
        if page == "title":
            app.push(AttractScene(app))
        elif page == "lobby":
            from kiosk.scenes.lobby import LobbyScene
            app.push(LobbyScene(app))
        else:
            loop = AttractLoop(app)
            app.attract = loop
            app.push(AttractScene(app, loop=loop))
        cpu: list[float] = []
        made = (time.thread_time_ns() - c0) / 1e6
        for _ in range(frames):
            now += FRAME_NS
            c0 = time.thread_time_ns()
            app.step(now)
            cpu.append((time.thread_time_ns() - c0) / 1e6)
        app.close()
        pygame.quit()
    return {"page": page, "size": f"{size[0]}x{size[1]}", "cpu": cpu, "made": made}


def line(label: str, r: dict[str, object]) -> str:
    cpu: list[float] = r["cpu"]  # type: ignore[assignment]
    rest = cpu[10:]
    q = statistics.quantiles(rest, n=100, method="inclusive")
    over8 = sum(1 for t in rest if t > 8.0)
    return (f"{label:<22}{r['size']:>10}{statistics.median(rest):>9.2f}{q[98]:>8.2f}{max(rest):>8.2f}"
            f"{over8:>6}{cpu[0]:>9.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--sizes", default="1920x1080,1280x720")
    ap.add_argument("--pages", default=",".join(PAGES))
    ap.add_argument("--repeat", type=int, default=1, help="runs of each configuration (alternating with --before)")
    ap.add_argument("--before", default=None, metavar="ROOT", help="also run on the checkout at ROOT")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--size", default="1920x1080", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        w, h = (int(v) for v in a.size.split("x"))
        print(json.dumps(run_one(a.one, (w, h), a.frames)))
        return
    here = str(Path(__file__).resolve().parents[1])
    roots = ([("before", a.before)] if a.before else []) + [("after" if a.before else "", here)]
    print(f"{'page':<22}{'size':>10}{'median':>9}{'p99':>8}{'worst':>8}{'>8ms':>6}{'first':>9}   (CPU ms a frame)")
    for page in a.pages.split(","):
        for size in a.sizes.split(","):
            for _ in range(a.repeat):
                for tag, root in roots:
                    env = dict(os.environ, PYTHONPATH=root)
                    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", page, "--size", size,
                           "--frames", str(a.frames)]
                    p = subprocess.run(cmd, capture_output=True, text=True, cwd=root, env=env)
                    label = f"{page} {tag}".strip()
                    if p.returncode != 0:
                        print(f"{label:<22}{size:>10} failed: {p.stderr.strip().splitlines()[-1:]}")
                        continue
                    print(line(label, json.loads(p.stdout.strip().splitlines()[-1])), flush=True)


if __name__ == "__main__":
    main()
