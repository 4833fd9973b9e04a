"""What the buzzer lamps cost a frame: ``BuzzerLamps.show`` on gpiozero's MockFactory.

Prints the median and 99th percentile time of one frame's lamp update for a
frame where nothing changed (the common case: a tuple comparison per seat) and
for a frame where every lamp changes (a race opens, a verdict blinks), with 8
lamps.  On a real Pi, lgpio writes a pin in a few microseconds; the blink runs
on gpiozero's own threads.

    .venv/bin/python bench/bench_lamps.py [--frames 5000]
"""

from __future__ import annotations

import argparse
import statistics
import time

from gpiozero.pins.mock import MockFactory

from arcade.lights.lamps import LampMemory, lamp_pattern
from hardware.lamps import BuzzerLamps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=5000)
    args = ap.parse_args()
    factory = MockFactory()
    pins = [12, 13, 16, 19, 20, 21, 26, 4]
    direct = BuzzerLamps(pins, pin_factory=factory)
    start = time.perf_counter()
    direct.show(("blink",) * 8)
    blink_direct = (time.perf_counter() - start) * 1e6
    direct.close()
    lamps = BuzzerLamps(pins, pin_factory=factory, threaded=True)     # as the kiosk runs them
    memory = LampMemory()
    seats = set(range(8))
    same: list[float] = []
    change: list[float] = []
    t = 0
    for i in range(args.frames):
        t += 16_666_667
        cue = memory.observe(8, True, seats, (), (), t)
        lamps.show(lamp_pattern(cue, 8))
        start = time.perf_counter()
        lamps.show(lamp_pattern(memory.observe(8, True, seats, (), (), t), 8))    # the same again
        same.append((time.perf_counter() - start) * 1e6)
        pattern = ("on", "off") * 4 if i % 2 else ("off", "ready") * 4
        start = time.perf_counter()
        lamps.show(pattern)
        change.append((time.perf_counter() - start) * 1e6)
    start = time.perf_counter()
    lamps.show(("blink",) * 8)
    blink = (time.perf_counter() - start) * 1e6
    lamps.close()
    factory.close()

    def q(xs: list[float], p: float) -> float:
        return sorted(xs)[int(p * (len(xs) - 1))]
    print(f"lamp update, nothing changed : median {statistics.median(same):7.1f} us   p99 {q(same, 0.99):7.1f} us")
    print(f"lamp update, lamps changed   : median {statistics.median(change):7.1f} us   p99 {q(change, 0.99):7.1f} us")
    print(f"8 lamps start blinking       : {blink:7.1f} us in the frame (threaded, as the kiosk runs them)")
    print(f"  ... without the worker     : {blink_direct:7.1f} us (gpiozero starts 8 blink threads)")


if __name__ == "__main__":
    main()
