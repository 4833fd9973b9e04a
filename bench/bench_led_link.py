"""Benchmark: LED latency and frames/s, serial over a pty at 115200 and 921600 baud, and DDP.

Run:  .venv/bin/python bench/bench_led_link.py [--seconds 3] [--size 16]

For each case a link drives a receiver while the "game" shows a new picture
every 2 ms (faster than any wire):

* serial: :class:`LedLink` -> a pty -> :class:`VirtualMatrix` reading no faster
  than the wire at that baud (8N1), decoding Adalight as a device does;
* DDP: :class:`DdpLink` -> a UDP socket on 127.0.0.1 decoding DDP in a thread.

Printed per case: the wire limit (frames/s for this frame size; DDP: the
link's 60 frames/s cap), frames/s written by the link and decoded by the
receiver, the LED latency (a picture change to the last byte of its frame
written: median and worst, ms), the lag at the receiver (a picture change to
the receiver decoding that picture or a newer one: median and worst, ms; two
frame times at most by design), frames decoded with garbage bytes (a cut or
doubled frame), and the cost of show() on the game's thread.  Figures only;
nothing is asserted.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.adalight import frame_length, safe_led_count  # noqa: E402
from firmware_bridge.ddp import DdpDecoder, DdpLink  # noqa: E402
from firmware_bridge.layout import MatrixLayout  # noqa: E402
from firmware_bridge.link import LedLink  # noqa: E402
from firmware_bridge.virtual import VirtualMatrix  # noqa: E402


def _picture(index: int, leds: int) -> list[tuple[int, int, int]]:
    # The index rides in LED 0 (hi, lo) so the receiver can tell which picture it shows;
    # values stay below 0x41 so WLED-safe shaping never changes them.
    return [(index // 64, index % 64, 0x20)] + [((index * 7) % 64, 0x30, (index * 3) % 64)] * (leds - 1)


def _index(pixel0: tuple[int, int, int]) -> int:
    return pixel0[0] * 64 + pixel0[1]


def _drive(link: LedLink, leds: int, seconds: float, arrivals: dict[int, float]) -> dict[str, float]:
    shown_at: dict[int, float] = {}
    show_ns: list[int] = []
    start = time.monotonic()
    index = 0
    while time.monotonic() - start < seconds:
        index += 1
        pixels = _picture(index % 4096, leds)
        t0 = time.perf_counter_ns()
        link.show(pixels)
        show_ns.append(time.perf_counter_ns() - t0)
        shown_at[index % 4096] = time.monotonic()
        time.sleep(0.002)
    time.sleep(0.3)
    elapsed = time.monotonic() - start
    lags = []
    ordered = sorted(shown_at.items(), key=lambda kv: kv[1])
    arrivals_sorted = sorted((t, i) for i, t in arrivals.items())
    j = 0
    for _idx, t_show in ordered:
        # the first arrival after t_show whose picture is this one or newer
        while j < len(arrivals_sorted) and arrivals_sorted[j][0] < t_show:
            j += 1
        if j < len(arrivals_sorted):
            lags.append(arrivals_sorted[j][0] - t_show)
    lat = link.latencies()
    show_ns.sort()
    return {
        "sent_fps": link.status().frames_sent / elapsed,
        "lat_median_ms": statistics.median(lat) * 1000 if lat else float("nan"),
        "lat_worst_ms": max(lat) * 1000 if lat else float("nan"),
        "lag_median_ms": statistics.median(lags) * 1000 if lags else float("nan"),
        "lag_worst_ms": max(lags) * 1000 if lags else float("nan"),
        "show_median_us": statistics.median(show_ns) / 1000,
        "show_worst_us": show_ns[-1] / 1000,
        "elapsed": elapsed,
    }


def run_serial(baud: int, size: int, seconds: float) -> dict[str, float]:
    leds = size * size
    matrix = VirtualMatrix(size, size, baudrate=baud)
    arrivals: dict[int, float] = {}
    stop = threading.Event()

    def watch() -> None:
        last = None
        while not stop.is_set():
            chain = matrix.latest_chain
            if chain is not None and chain is not last:
                arrivals.setdefault(_index(chain[0]), time.monotonic())
                last = chain
            time.sleep(0.0005)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    link = LedLink(matrix.port, baud, layout=MatrixLayout(size, size), keepalive_s=1.0)
    try:
        link.show(_picture(0, leds))
        matrix.wait_frames(1, 5.0)
        start_frames = matrix.frames
        r = _drive(link, leds, seconds, arrivals)
        r["decoded_fps"] = (matrix.frames - start_frames) / r["elapsed"]
        r["garbage"] = matrix.garbage_bytes
        r["timeouts"] = link.status().write_timeouts
    finally:
        stop.set()
        link.close()
        matrix.close()
    r["wire_fps"] = baud / 10.0 / frame_length(safe_led_count(leds))
    return r


def run_ddp(size: int, seconds: float) -> dict[str, float]:
    leds = size * size
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    receiver.settimeout(0.05)
    decoder = DdpDecoder(leds)
    arrivals: dict[int, float] = {}
    stop = threading.Event()

    def listen() -> None:
        while not stop.is_set():
            try:
                frame = decoder.feed(receiver.recv(4096))
            except TimeoutError:
                continue
            if frame is not None:
                arrivals.setdefault(_index(frame[0]), time.monotonic())

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    link = DdpLink("127.0.0.1", receiver.getsockname()[1], layout=MatrixLayout(size, size))
    try:
        start_frames = len(decoder.frames)
        r = _drive(link, leds, seconds, arrivals)
        r["decoded_fps"] = (len(decoder.frames) - start_frames) / r["elapsed"]
        r["garbage"] = decoder.rejected
        r["timeouts"] = 0
    finally:
        stop.set()
        link.close()
        thread.join(1)
        receiver.close()
    r["wire_fps"] = link.max_fps
    return r


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="run time per case (s)")
    parser.add_argument("--size", type=int, default=16, help="panel side (LEDs), e.g. 16 or 64")
    args = parser.parse_args()
    leds = args.size * args.size
    print(f"{args.size}x{args.size} panel, Adalight frame {frame_length(safe_led_count(leds))} bytes; "
          f"{args.seconds:g} s per case; a new picture every 2 ms")
    header = (f"{'case':>16} {'wire fps':>9} {'sent fps':>9} {'decoded':>8} {'latency med/worst ms':>21} "
              f"{'lag med/worst ms':>17} {'garbage':>8} {'show() med/worst us':>20}")
    print(header)
    print("-" * len(header))
    cases = [("serial 115200", lambda: run_serial(115200, args.size, args.seconds)),
             ("serial 921600", lambda: run_serial(921600, args.size, args.seconds)),
             ("DDP loopback", lambda: run_ddp(args.size, args.seconds))]
    for name, fn in cases:
        r = fn()
        print(f"{name:>16} {r['wire_fps']:>9.1f} {r['sent_fps']:>9.1f} {r['decoded_fps']:>8.1f} "
              f"{r['lat_median_ms']:>10.1f} / {r['lat_worst_ms']:<8.1f} "
              f"{r['lag_median_ms']:>7.1f} / {r['lag_worst_ms']:<7.1f} {r['garbage']:>8.0f} "
              f"{r['show_median_us']:>9.0f} / {r['show_worst_us']:<8.0f}")
    print("latency: picture change -> last byte of its frame written; lag: picture change -> the receiver "
          "decoded it (or a newer one)")


if __name__ == "__main__":
    main()
