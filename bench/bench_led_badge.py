"""What the LED badge costs a frame (prints figures, asserts nothing).

While the LED matrix is not connected, every frame outside the service menu looks for a corner
whose pixels are plain background (``kiosk.app.led_badge.led_badge_rect``) before it draws the small
"LED" badge there.  This times that search on frames of 480x320 to 1920x1080: a plain frame
(the first corner is taken), and the worst case, a frame with no plain corner (all twelve
candidate spots are checked and no badge is drawn).  CPU time of this thread
(``time.thread_time_ns``: it holds on a loaded machine), median of many runs; a Raspberry Pi 3
is about 8-10x slower.

    .venv/bin/python bench/bench_led_badge.py [--runs 400]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from kiosk.app.led_badge import draw_led_badge, led_badge_rect  # noqa: E402


def timed(surface: pygame.Surface, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.thread_time_ns()
        r = led_badge_rect(surface)
        if r is not None:
            draw_led_badge(surface, r)
        times.append(time.thread_time_ns() - t)
    return statistics.median(times) / 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=400)
    args = ap.parse_args()
    pygame.init()
    pygame.display.set_mode((64, 64))
    print(f"{'frame':>10}  {'plain corner (us)':>18}  {'no plain corner (us)':>21}")
    for size in ((480, 320), (800, 480), (1280, 720), (1920, 1080)):
        plain = pygame.Surface(size).convert()
        plain.fill((18, 22, 34))
        busy = plain.copy()
        for x in range(0, size[0], 3):                 # every corner covered by something
            pygame.draw.line(busy, (200, 200, 200), (x, 0), (x, size[1]))
        a = timed(plain, args.runs)
        b = timed(busy, args.runs)
        print(f"{size[0]:>5}x{size[1]:<4}  {a:>18.1f}  {b:>21.1f}")


if __name__ == "__main__":
    main()
