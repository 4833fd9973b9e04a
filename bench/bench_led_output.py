"""CPU time the frame loop spends handing a picture to the LED output (prints figures, asserts
nothing; issue 22: a 64x64 picture was laid out, held to the current budget and encoded on the
game thread, 1.06 ms a frame).

:meth:`kiosk.output.led.LedOutput.update` with a new picture every frame (a 64x64 game picture,
brightness 0.6, a current budget that dims it) on a link that is off (nothing written), timed
on the calling thread (``time.thread_time_ns``): the work the game thread does; with
``--before ROOT`` the same on the checkout at ROOT, alternating runs in fresh processes.

    .venv/bin/python bench/bench_led_output.py [--size 64x64] [--frames 600] [--repeat 3] [--before ROOT]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path


def run_one(w: int, h: int, frames: int) -> list[float]:
    from kiosk import config
    from kiosk.output.led import LedOutput

    data, _problems = config.check_all({"led": {"port": "none", "width": w, "height": h, "brightness": 0.6,
                                                 "max_current_ma": 850}})
    out = LedOutput(config.Config(data), message=lambda m: None)
    out.link.off = False                          # the link takes frames (an off link still encodes them)
    rng = random.Random(1)
    pics = [tuple(tuple((rng.randrange(256), rng.randrange(256), 0) for _x in range(w)) for _y in range(h))
            for _ in range(8)]
    cpu: list[float] = []
    now = 10**12
    for i in range(frames):
        now += 40_000_000                          # a new picture each time the output takes one (25/s)
        c0 = time.thread_time_ns()
        out.update(pics[i % 8], now)
        cpu.append((time.thread_time_ns() - c0) / 1e6)
        time.sleep(0.002)                         # the rest of a frame: the encoder may run
    wait = getattr(out, "wait_sent", None)
    if wait is not None:
        wait(10)
    out.close()
    return cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", default="64x64")
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--before", default=None, metavar="ROOT")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.split("x"))
    if a.one:
        print(json.dumps(run_one(w, h, a.frames)))
        return
    here = str(Path(__file__).resolve().parents[1])
    roots = ([("before", a.before)] if a.before else []) + [("after" if a.before else "this", here)]
    print(f"LED picture {a.size}, a new one every frame, CPU ms on the game thread per update")
    print(f"{'code':<8}{'median':>8}{'p99':>8}{'worst':>8}")
    for _ in range(a.repeat):
        for tag, root in roots:
            env = dict(os.environ, PYTHONPATH=root)
            p = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--one", "--size", a.size,
                                "--frames", str(a.frames)], capture_output=True, text=True, cwd=root, env=env)
            if p.returncode != 0:
                print(f"{tag:<8} failed: {p.stderr.strip().splitlines()[-1:]}")
                continue
            cpu = json.loads(p.stdout.strip().splitlines()[-1])[5:]
            q = statistics.quantiles(cpu, n=100, method="inclusive")
            print(f"{tag:<8}{statistics.median(cpu):>8.3f}{q[98]:>8.3f}{max(cpu):>8.3f}", flush=True)


if __name__ == "__main__":
    main()
