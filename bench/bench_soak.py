"""Soak: the attract loop and demo games of every family for hours; RSS and open files (issue 23).

The real :class:`kiosk.app.loop.App` (SDL's dummy driver, 1280x720, a results file in a
temporary folder, the LED link off) on a virtual clock: every frame is drawn in full
(``App.step``), at most ``--fps`` frames per second of real time, and each frame moves the
games' clock on by ``--speed`` frames, so the demo games run ``--speed`` times faster than
at an event while every frame is still drawn.  The title waits ``idle_s`` = 5 s, then the
attract loop plays a demo game of each family in turn, the high scores between them.

Every ``--every`` minutes of real time one line: elapsed minutes, the process's resident
memory (VmRSS, MB) now, the lowest and the highest RSS seen in the window since the last line
(read every 2 s of real time), its high-water mark (VmHWM, MB), the open file descriptors,
the thinking process's RSS (MB), Python's traced objects, demo games started so far and frames
drawn.  A single reading depends on the moment it falls on (a game's layers and pictures are
2-5 MB more than the title's), so the verdict compares each window's highest RSS, which covers
many demo games of every family: after the first 30 minutes the highest RSS of each window and
the open files stay within 5 % of their values in the window that ends at 30 minutes, and peak
RSS is at most 100 MB.  (The single readings' spread is printed too.)

    nice -n 10 python bench/bench_soak.py [--hours 2] [--every 10] [--speed 4] [--fps 30]
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# SIGTERM ends the bench (SDL would turn it into a quit event that nothing here reads).
os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

FRAME_NS = 16_666_667


def status_mb(pid: int | str, field: str) -> float:
    """``field`` (VmRSS, VmHWM) of /proc/PID/status in MB (0 when the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


class Clock:
    """The games' clock (ns): moved on by the bench, never by the real time."""

    def __init__(self) -> None:
        self.t = 10_000 * 1_000_000_000

    def module(self) -> Any:
        import time as real
        return types.SimpleNamespace(monotonic_ns=lambda: self.t, monotonic=lambda: self.t / 1e9,
                                     perf_counter=real.perf_counter, perf_counter_ns=real.perf_counter_ns,
                                     time=real.time, sleep=real.sleep)


def make_app(home: Path, clock: Clock, size: tuple[int, int]) -> Any:
    import argparse as ap

    import kiosk.app.loop as kapp
    import kiosk.scenes.game as kgame
    from kiosk.config import Config, validate
    kapp.time = clock.module()          # type: ignore[assignment]
    kgame.time = clock.module()         # type: ignore[assignment]
    pygame.init()
    screen = pygame.display.set_mode(size)
    raw = {"storage": {"path": str(home / "results.sqlite3")}, "led": {"port": "none"},
           "attract": {"idle_s": 5, "demo_s": 75, "scores_s": 10, "demo_games": True}}
    app = kapp.App(Config(validate(raw)), screen, ap.Namespace(command=None, screenshot_dir="", frames=0))
    app.home()
    return app


def surface_bytes(s: Any) -> int:
    try:
        return int(s.get_width() * s.get_height() * s.get_bytesize())
    except Exception:  # noqa: BLE001 - only a figure
        return 0


def detail() -> str:
    """Open files by kind and the sizes of the drawing caches (MB)."""
    import collections

    from kiosk import render
    from kiosk.games.focusx import cards as fx_cards
    kinds: collections.Counter[str] = collections.Counter()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        kinds[re.sub(r"\[\d+\]|\d+", "N", target)] += 1
    caches = {name: sum(surface_bytes(v) for v in getattr(render, name).values()) / 2**20
              for name in ("_texts", "_narrowed")}
    caches["cards"] = sum(surface_bytes(v) for v in fx_cards._cards.values()) / 2**20
    from kiosk.games.coop.draw import FACES
    caches["faces"] = sum(surface_bytes(v) for v in FACES.values()) / 2**20
    caches["fonts"] = len(render._fonts) + len(render._any_fonts)
    out = ", ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}" for k, v in caches.items())
    return out + " | " + ", ".join(f"{k} x{n}" for k, n in kinds.most_common())


def thinker_pid() -> int | None:
    try:
        from kiosk.players import thinker
        proc = getattr(thinker.shared(), "_proc", None)
        return int(proc.pid) if proc is not None else None
    except Exception:  # noqa: BLE001 - only a figure
        return None


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--hours", type=float, default=2.0)
    p.add_argument("--every", type=float, default=10.0, help="minutes between two lines")
    p.add_argument("--speed", type=int, default=4, help="game frames per drawn frame")
    p.add_argument("--fps", type=float, default=30.0, help="drawn frames per second of real time, at most")
    p.add_argument("--size", default="1280x720")
    p.add_argument("--trace", action="store_true", help="also count Python's allocations (tracemalloc; slower)")
    p.add_argument("--detail", action="store_true", help="also the open files by kind and the caches' sizes")
    a = p.parse_args()
    if a.trace:
        import tracemalloc
        tracemalloc.start()
    size = tuple(int(v) for v in a.size.split("x"))
    clock = Clock()
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(Path(tmp), clock, (size[0], size[1]))
        t0 = time.monotonic()
        end = t0 + a.hours * 3600
        next_line = t0
        period = 1.0 / a.fps
        rows: list[tuple[float, float, int]] = []      # minutes, window's highest RSS, open files
        singles: list[tuple[float, float]] = []          # minutes, RSS at the line
        window_lo, window_hi = float("inf"), 0.0
        next_read = t0
        base_snap: Any = None
        print(f"soak: {a.hours} h, a line every {a.every} min, speed x{a.speed}, at most {a.fps} fps, "
              f"{size[0]}x{size[1]}, pid {os.getpid()}", flush=True)
        print(f"{'min':>6} {'RSS MB':>7} {'lo MB':>6} {'hi MB':>6} {'peak MB':>7} {'files':>5} {'thinker MB':>10} {'py MB':>6} "
              f"{'demos':>5} {'frames':>8}  families", flush=True)
        while True:
            now = time.monotonic()
            if now >= next_read:
                reading = status_mb("self", "VmRSS")
                window_lo, window_hi = min(window_lo, reading), max(window_hi, reading)
                next_read = now + 2.0
            if now >= next_line:
                gc.collect()
                rss, hwm, fds = status_mb("self", "VmRSS"), status_mb("self", "VmHWM"), open_files()
                tp = thinker_pid()
                think = status_mb(tp, "VmRSS") if tp else 0.0
                py = 0.0
                if a.trace:
                    import tracemalloc
                    py = tracemalloc.get_traced_memory()[0] / 2**20
                shown = list(app.attract.shown) if app.attract is not None else []
                demos = app.attract.turn if app.attract is not None else 0
                fams = sorted({s.split(":")[0] for s in shown})
                minutes = (now - t0) / 60
                window_lo, window_hi = min(window_lo, rss), max(window_hi, rss)
                rows.append((minutes, window_hi, fds))
                singles.append((minutes, rss))
                print(f"{minutes:6.1f} {rss:7.1f} {window_lo:6.1f} {window_hi:6.1f} {hwm:7.1f} {fds:5d} {think:10.1f} {py:6.2f} "
                      f"{demos:5d} {app.frame:8d}  {','.join(fams)}", flush=True)
                if a.detail:
                    print("       " + detail(), flush=True)
                if a.trace and minutes >= 2 and a.detail:
                    import tracemalloc
                    snap = tracemalloc.take_snapshot()
                    if base_snap is None:
                        base_snap = snap
                    else:
                        for stat in snap.compare_to(base_snap, "lineno")[:8]:
                            print(f"       {stat}", flush=True)
                window_lo, window_hi = float("inf"), 0.0
                next_line += a.every * 60
                if now >= end:
                    break
            start = time.monotonic()
            clock.t += FRAME_NS * a.speed
            try:
                app.step(clock.t)
            except Exception as exc:     # the app's own loop would do the same: note it, go home
                print(f"scene failed: {type(exc).__name__}: {exc}", flush=True)
                app.home()
            app.frame += 1
            left = period - (time.monotonic() - start)
            if left > 0:
                time.sleep(left)
        hwm = status_mb("self", "VmHWM")
        if a.detail:
            from kiosk import render
            before = status_mb("self", "VmRSS")
            render.reset_caches()
            gc.collect()
            after = status_mb("self", "VmRSS")
            trimmed = after
            try:
                import ctypes
                ctypes.CDLL("libc.so.6").malloc_trim(0)
                trimmed = status_mb("self", "VmRSS")
            except (OSError, AttributeError):
                pass
            print(f"at the end: RSS {before:.1f} MB, {after:.1f} MB without the drawing caches, "
                  f"{trimmed:.1f} MB after malloc_trim", flush=True)
        app.close()
    settled = [r for r in rows if r[0] >= 30 - 1e-6]
    if len(settled) >= 2:
        base_rss, base_fds = settled[0][1], settled[0][2]
        rss_dev = max(abs(r[1] - base_rss) / base_rss for r in settled)
        fds_dev = max(abs(r[2] - base_fds) / base_fds for r in settled)
        ok = rss_dev <= 0.05 and fds_dev <= 0.05 and hwm <= 100
        single = [r[1] for r in singles if r[0] >= 30 - 1e-6]
        print(f"after 30 min: each window's highest RSS within {100 * rss_dev:.1f} %, open files within "
              f"{100 * fds_dev:.1f} % of their 30-minute values; peak RSS {hwm:.1f} MB -> "
              f"{'PASS' if ok else 'FAIL'} (target: 5 %, 5 %, 100 MB); single readings "
              f"{min(single):.1f}-{max(single):.1f} MB", flush=True)
    else:
        print(f"ran {rows[-1][0]:.1f} min: too short for the 30-minute verdict; peak RSS {hwm:.1f} MB", flush=True)


if __name__ == "__main__":
    main()
