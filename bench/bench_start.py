"""Seconds from the process's start to the arcade's first frame on screen, and the CPU it took
(prints figures, asserts nothing; issue 22: the target is 1.0 s here).

Starts ``focus-arcade`` (SDL's dummy driver, a fresh results file, the default configuration)
in a fresh process with compiled bytecode, and stops it at its first ``display.flip``: the wall
time since the kernel started the process, and the process's CPU time.  With ``--before ROOT``
the checkout at ROOT runs too, alternating with this one (ratios hold on a noisy machine).

    .venv/bin/python bench/bench_start.py [--repeat 5] [--before ROOT]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r'''
import json, os, sys, time
def since_start():
    start = int(open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
    return float(open("/proc/uptime").read().split()[0]) - start
import pygame
real_flip = pygame.display.flip
def flip():
    real_flip()
    print(json.dumps({"wall": since_start(), "cpu": time.process_time()}), flush=True)
    os._exit(0)
pygame.display.flip = flip
sys.argv = ["focus-arcade"]
from kiosk.cli import main
main()
'''


def one(root: str, home: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=root, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               XDG_DATA_HOME=home, XDG_STATE_HOME=home, XDG_CONFIG_HOME=home, PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("FOCUS_ARCADE_CONFIG", None)
    p = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, cwd=root, env=env)
    lines = [line for line in p.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise SystemExit(f"{root}: no first frame: {p.stderr.strip().splitlines()[-3:]}")
    return json.loads(lines[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--before", default=None, metavar="ROOT")
    a = ap.parse_args()
    here = str(Path(__file__).resolve().parents[1])
    roots = ([("before", a.before)] if a.before else []) + [("after" if a.before else "this", here)]
    for _tag, root in roots:                       # compiled bytecode, as install.sh leaves it
        for pkg in ("arcade", "hardware", "firmware_bridge", "kiosk"):
            compileall.compile_dir(str(Path(root) / pkg), quiet=1)
    got: dict[str, list[dict[str, float]]] = {tag: [] for tag, _ in roots}
    with tempfile.TemporaryDirectory() as home:
        for _tag, root in roots:
            one(root, home)                         # warm-up (disk cache)
        for _ in range(a.repeat):
            for tag, root in roots:
                got[tag].append(one(root, home))
    print(f"first frame after the process started, {a.repeat} runs each (median, min-max)")
    for tag, runs in got.items():
        wall = sorted(r["wall"] for r in runs)
        cpu = sorted(r["cpu"] for r in runs)
        print(f"{tag:<7} wall {statistics.median(wall):.2f} s ({wall[0]:.2f}-{wall[-1]:.2f}), "
              f"CPU {statistics.median(cpu):.2f} s ({cpu[0]:.2f}-{cpu[-1]:.2f})")


if __name__ == "__main__":
    main()
