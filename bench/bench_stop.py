"""Time from SIGTERM / SIGHUP / SIGINT to exit of a running ``focus-arcade demo`` (issue 11).

Starts the real command (SDL dummy driver, a fresh store and config folder),
waits for its systemd READY=1 notification (a NOTIFY_SOCKET of our own), lets
the game run for a moment, sends the signal and measures until the process has
exited.  Prints, per game and signal: exit codes, runs with a traceback, median
and slowest seconds.

    python bench/bench_stop.py [--runs 5] [--games focusx,focus,sherlook,coop]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def start(game: str, home: Path, extra: list[str] | None = None) -> tuple[subprocess.Popen[bytes], socket.socket]:
    """A running ``focus-arcade demo --game GAME --loop`` that has sent READY=1."""
    sock_path = home / "notify.sock"
    if sock_path.exists():
        sock_path.unlink()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(60)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
           "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
           "NOTIFY_SOCKET": str(sock_path)}
    env.pop("FOCUS_ARCADE_CONFIG", None)
    env.pop("WATCHDOG_USEC", None)
    cmd = [sys.executable, "-m", "kiosk.cli", "demo", "--game", game, "--loop", "--pace", "0.5", *(extra or [])]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    while True:
        data = sock.recv(4096)
        if b"READY=1" in data:
            return proc, sock


def stop(proc: subprocess.Popen[bytes], sig: int, timeout: float = 30) -> tuple[float, int, str]:
    """Send ``sig``; (seconds until the process exited, exit code, stderr)."""
    t0 = time.perf_counter()
    proc.send_signal(sig)
    proc.wait(timeout)
    dt = time.perf_counter() - t0
    _, err = proc.communicate()
    return dt, proc.returncode, err.decode("utf-8", "replace")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games", default="focusx,focus,sherlook,coop")
    a = ap.parse_args()
    rng = random.Random(1)
    print(f"{'game':10} {'signal':8} {'runs':>4} {'codes':>10} {'tracebacks':>10} {'median s':>9} {'max s':>7}")
    for game in a.games.split(","):
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            times, codes, tb = [], set(), 0
            for _ in range(a.runs):
                with tempfile.TemporaryDirectory() as home:
                    proc, sock = start(game, Path(home))
                    time.sleep(rng.uniform(0.5, 3.0))
                    dt, code, err = stop(proc, sig)
                    sock.close()
                times.append(dt)
                codes.add(code)
                tb += "Traceback" in err
            print(f"{game:10} {sig.name:8} {a.runs:4} {','.join(map(str, sorted(codes))):>10} {tb:10} "
                  f"{statistics.median(times):9.3f} {max(times):7.3f}")


if __name__ == "__main__":
    main()
