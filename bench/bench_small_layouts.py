"""What drawing a whole screen costs on each display size (prints figures, asserts nothing).

The small-display layouts (480x320, 640x480, 800x480) set their words with
``kiosk.render.fit_lines`` (cached) instead of fixed sizes; this prints, per screen and size,
the median and worst CPU time of a full redraw (every part drawn again, as after a message
goes away), so the small layouts can be compared with the TV's on the same machine.

    .venv/bin/python bench/bench_small_layouts.py [--frames 60]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

import kiosk.app.loop as kapp  # noqa: E402
from kiosk import render  # noqa: E402
from kiosk.config import Config, validate  # noqa: E402
from kiosk.games.coop.scene import CoopScene  # noqa: E402
from kiosk.players.thinker import wait_shared_idle  # noqa: E402
from kiosk.scenes.lobby import LobbyScene  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402

SIZES = [(480, 320), (640, 480), (800, 480), (1280, 720), (1920, 1080)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=60)
    args = ap.parse_args()
    print(f"{'screen':<22}{'size':>11}{'median ms':>11}{'worst ms':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in SIZES:
            pygame.init()
            screen = pygame.display.set_mode(size)
            raw = {"storage": {"path": str(Path(tmp) / "r.sqlite3")}, "led": {"port": "none"}}
            app = kapp.App(Config(validate(raw)), screen,
                           argparse.Namespace(command=None, screenshot_dir="", frames=0))
            sim = SeatInfo("simulated", "sim GPIO 17")
            screens = [("coop sherlock in play",
                        CoopScene(app, [sim, SeatInfo("computer", "c", "easy")], "sherlock", seed=4, setup=False)),
                       ("coop setup", CoopScene(app, [sim, SeatInfo("computer", "c", "easy")], "sherlock", seed=4,
                                                setup=True)),
                       ("lobby", LobbyScene(app))]
            for name, scene in screens:
                app.push(scene)
                t = 10 ** 12
                times = []
                for _ in range(args.frames):
                    wait_shared_idle()
                    render.redraw_everything()
                    app.scenes[-1].update(t)
                    c0 = time.thread_time_ns()
                    app.draw()
                    times.append((time.thread_time_ns() - c0) / 1e6)
                    t += 100_000_000
                print(f"{name:<22}{size[0]:>6}x{size[1]:<4}{statistics.median(times):>11.2f}{max(times):>10.2f}")
                app.home()
            app.close()
            pygame.display.quit()


if __name__ == "__main__":
    main()
