"""The kiosk's frame time at 1280x720 while a game runs (FocusX Classic by default).

Runs the real App with simulated players (MockFactory pins) and the virtual LED
matrix under the SDL dummy driver, and prints the median and 99th percentile of
the work per frame (event handling, judging, drawing, flip; not the sleep).

    SDL_VIDEODRIVER=dummy .venv/bin/python bench/bench_frame.py [--frames 1800]
        [--game focusx|sherlook|focus|coop] [--mode M] [--players N]

``--players`` defaults to the game's demo seats (FOCUS 2p and Focus (2023): 2).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=1800)
    ap.add_argument("--game", default="focusx")
    ap.add_argument("--mode", default=None)
    ap.add_argument("--players", type=int, default=None, help="seats (default: the game's demo seats)")
    a = ap.parse_args()
    import pygame
    from kiosk import config
    from kiosk.app import App
    from kiosk.demo import start_demo

    with tempfile.TemporaryDirectory() as tmp:
        cfg = config.load(None)
        cfg.data["storage"]["path"] = os.path.join(tmp, "bench.sqlite3")
        cfg.data["display"]["fps"] = 240
        pygame.init()
        screen = pygame.display.set_mode((1280, 720))
        args = argparse.Namespace(command="demo", game=a.game, mode=a.mode, players=a.players, seed=1,
                                  skill="medium", pace=1.0, loop=True, screenshot_dir="", frames=0)
        app = App(cfg, screen, args)
        start_demo(app, args)
        app.loop(max_frames=a.frames)
        times = app.frame_times[30:]
        app.close()
        pygame.quit()
    q = statistics.quantiles(times, n=100)
    seats = a.players or "the demo's"
    print(f"frames: {len(times)} at 1280x720 ({a.game} {a.mode or ''} demo, {seats} simulated players, virtual LED)")
    print(f"frame time: median {statistics.median(times):.2f} ms, p99 {q[98]:.2f} ms, worst {max(times):.2f} ms")


if __name__ == "__main__":
    main()
