"""What drawing a FocusX screen costs per frame on each display size (prints figures,
asserts nothing).

The small panels (480x320, 640x480, 800x480) draw the compact regions
(``kiosk.games.focusx.panels.screen_regions``), the TVs the full ones.  For each mode and size
this prints the mean time of a frame drawn whole (every part again, as after a dialog) and of
a frame where nothing changed (the parts kept), over ``--frames`` frames.

    .venv/bin/python bench/bench_focusx_small_frame.py [--frames 300]

Run it on main and on a branch in one go (``farm-bench`` pairs the two) to compare.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame  # noqa: E402

import kiosk.app.loop as kapp  # noqa: E402
from kiosk import render  # noqa: E402
from kiosk.config import Config, validate  # noqa: E402
from kiosk.games.focusx.scene import ClassicScene, DuelScene, FourFocusScene, ThinkFocusScene  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402

SIZES = [(480, 320), (640, 480), (800, 480), (1280, 720), (1920, 1080)]
MODES = [(ClassicScene, 8), (ThinkFocusScene, 4), (DuelScene, 8), (FourFocusScene, 4)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=300)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for size in SIZES:
            for cls, n in MODES:
                pygame.init()
                screen = pygame.display.set_mode(size)
                raw = {"storage": {"path": str(Path(tmp) / "r.sqlite3")}, "led": {"port": "none"}}
                app = kapp.App(Config(validate(raw)), screen,
                               argparse.Namespace(command=None, screenshot_dir="", frames=0))
                seats = [SeatInfo("computer", f"computer {i + 1}", "easy") for i in range(n)]
                scene = cls(app, seats, seed=7)
                scene.think_elsewhere = False
                app.push(scene)
                for _ in range(20):
                    render.redraw_everything()
                    scene.draw(screen)
                t = time.perf_counter()
                for _ in range(args.frames):
                    render.redraw_everything()
                    scene.draw(screen)
                whole = (time.perf_counter() - t) / args.frames * 1000
                t = time.perf_counter()
                for _ in range(args.frames * 10):
                    scene.draw(screen)
                kept = (time.perf_counter() - t) / (args.frames * 10) * 1000
                print(f"{size[0]:>4}x{size[1]:<4} {cls.__name__:<16} {n} seats: whole frame {whole:6.2f} ms, "
                      f"unchanged frame {kept:6.3f} ms", flush=True)
                app.close()
                pygame.display.quit()


if __name__ == "__main__":
    main()
