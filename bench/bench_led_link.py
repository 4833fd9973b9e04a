"""Benchmark: frames/s over a pty at 921600 and 115200 baud, and the cost of show().

Run:  .venv/bin/python bench/bench_led_link.py [--seconds 3]

For each baud rate a :class:`LedLink` drives a 16x16 :class:`VirtualMatrix`
with a new picture every 2 ms (faster than any wire), and the bench prints:

* frames/s decoded by the matrix when it reads at the wire speed of that baud
  rate (``VirtualMatrix(baudrate=...)``) and when it reads as fast as the pty
  allows (the link still paces itself at the baud rate);
* frames/s written by the link, write timeouts;
* the time one ``show()`` takes on the game's thread (median, 99th percentile
  and worst), which must not depend on the port.

The wire limit (8N1, 774-byte frame) is printed beside: 119 frames/s at
921600, 14.9 at 115200 (led_serial.md).  Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.adalight import wire_time_s  # noqa: E402
from firmware_bridge.link import LedLink  # noqa: E402
from firmware_bridge.virtual import VirtualMatrix  # noqa: E402

LEDS = 256


def run(baudrate: int, emulate_wire: bool, seconds: float) -> dict[str, float]:
    matrix = VirtualMatrix(16, 16, baudrate=baudrate if emulate_wire else None)
    link = LedLink(matrix.port, baudrate, keepalive_s=1.0)
    show_ns: list[int] = []
    try:
        level = 0
        link.show([(0, 0, 0)] * LEDS)
        matrix.wait_frames(1, 5.0)
        start_frames = matrix.frames
        start_sent = link.status().frames_sent
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            level = (level + 1) % 256
            pixels = [(level, (level * 7) % 256, 255 - level)] * LEDS
            t0 = time.perf_counter_ns()
            link.show(pixels)
            show_ns.append(time.perf_counter_ns() - t0)
            time.sleep(0.002)
        elapsed = time.monotonic() - start
        status = link.status()
        decoded = matrix.frames - start_frames
        sent = status.frames_sent - start_sent
    finally:
        link.close()
        matrix.close()
    show_ns.sort()
    return {
        "decoded_fps": decoded / elapsed,
        "sent_fps": sent / elapsed,
        "timeouts": status.write_timeouts,
        "garbage": matrix.garbage_bytes,
        "show_median_us": statistics.median(show_ns) / 1000,
        "show_p99_us": show_ns[int(len(show_ns) * 0.99)] / 1000,
        "show_worst_us": show_ns[-1] / 1000,
        "calls": len(show_ns),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="run time per case (s)")
    args = parser.parse_args()
    print(f"16x16 frame = {6 + 3 * LEDS} bytes; {args.seconds:g} s per case; a new picture every 2 ms")
    header = (
        f"{'baud':>8} {'matrix reads':>14} {'wire fps':>9} {'decoded fps':>12} {'sent fps':>9} "
        f"{'timeouts':>8} {'garbage B':>9} {'show() median/p99/worst us':>28}"
    )
    print(header)
    print("-" * len(header))
    for baudrate in (921600, 115200):
        for emulate in (True, False):
            r = run(baudrate, emulate, args.seconds)
            mode = "at wire speed" if emulate else "unthrottled"
            wire = 1 / wire_time_s(LEDS, baudrate)
            shows = f"{r['show_median_us']:.0f} / {r['show_p99_us']:.0f} / {r['show_worst_us']:.0f}"
            print(
                f"{baudrate:>8} {mode:>14} {wire:>9.1f} {r['decoded_fps']:>12.1f} {r['sent_fps']:>9.1f} "
                f"{r['timeouts']:>8.0f} {r['garbage']:>9.0f} {shows:>28}"
            )
    print("(show() encodes 256 LEDs on the caller's thread and hands the frame over; no I/O)")


if __name__ == "__main__":
    main()
