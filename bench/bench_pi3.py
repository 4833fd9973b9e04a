"""A simulated Raspberry Pi 3: every screen of the arcade with its frame process held to a Pi 3's
single-core speed by a cgroup CPU quota (prints figures, asserts nothing; issue 22).

A Pi 3 runs Python about ``--factor`` (default 9) times slower than this machine on one core.
Each screen runs in a fresh process in a cgroup whose CPU quota is 1/``factor`` of one core,
given in small periods (``--period-ms``, default 9 ms: 1 ms of CPU every 9 ms), so that a frame
that needs 2 ms of CPU here takes about 18 ms of wall time, as on the Pi; the thinking process
(the computer players) is moved into a cgroup of its own with three such cores (a Pi 3 has
four).  The real frame loop runs at 60 fps on the real clock with SDL's dummy driver; per
screen the bench prints:

* late frames: the share of frames whose work (events, judging, drawing, flip) took longer
  than a 60 fps frame (16.7 ms) of wall time, under the quota;
* the first frame of the screen (wall ms, under the quota);
* CPU ms a frame of the frame thread (median, 99th percentile): this machine's speed, which
  the quota does not change.

The screens: ``title``, ``scores`` (the attract loop's high-score page), ``lobby``, ``service``
(the operator's menu page), and every registry entry (its demo seats, simulated players pressing
and computer players moving) with each ``--skills`` level.

Needs root and the cgroup v1 ``cpu`` controller (``/sys/fs/cgroup/cpu``) or cgroup v2 with the
``cpu`` controller; without them it says so and runs unthrottled (the CPU figures only).

    sudo SDL_VIDEODRIVER=dummy .venv/bin/python bench/bench_pi3.py [--frames 600]
        [--screens title,lobby,focus-2p] [--skills medium,expert] [--size 1920x1080] [--factor 9]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[1]
BUDGET_MS = 1000 / 60
MENUS = ("title", "scores", "lobby", "service")
V1 = Path("/sys/fs/cgroup/cpu")
V2 = Path("/sys/fs/cgroup")


class Cgroup:
    """One cgroup with a CPU quota of ``share`` cores, in periods of ``period_us``: v1's cpu
    controller or v2's cpu.max.  ``None`` from :meth:`make` when neither can be used."""

    def __init__(self, path: Path, v2: bool) -> None:
        self.path, self.v2 = path, v2

    @staticmethod
    def make(name: str, share: float, period_us: int) -> "Cgroup | None":
        quota = max(1000, int(period_us * share))
        try:
            if (V1 / "cpu.cfs_period_us").exists():
                path = V1 / name
                path.mkdir(exist_ok=True)
                (path / "cpu.cfs_period_us").write_text(str(period_us))
                (path / "cpu.cfs_quota_us").write_text(str(quota))
                return Cgroup(path, False)
            if "cpu" in (V2 / "cgroup.controllers").read_text().split():
                parent = V2 / "focus-arcade-bench"
                parent.mkdir(exist_ok=True)
                (V2 / "cgroup.subtree_control").write_text("+cpu")
                (parent / "cgroup.subtree_control").write_text("+cpu")
                path = parent / name
                path.mkdir(exist_ok=True)
                (path / "cpu.max").write_text(f"{quota} {period_us}")
                return Cgroup(path, True)
        except OSError as exc:
            print(f"no cgroup for the quota ({exc}): running unthrottled", file=sys.stderr)
        return None

    def add(self, pid: int) -> None:
        (self.path / "cgroup.procs").write_text(str(pid))

    def remove(self) -> None:
        try:
            self.path.rmdir()
        except OSError:
            pass


def screens(skills: list[str]) -> list[str]:
    from arcade import registry
    return list(MENUS) + [f"{s.name}:{k}" for s in registry.SPECS for k in skills]


def run_one(screen: str, size: tuple[int, int], frames: int, think_group: str) -> dict[str, object]:
    """In the child: make the screen, move the thinking process to its cgroup, run the real
    frame loop for ``frames`` frames; the frame thread's CPU and wall time per frame."""
    import pygame

    from kiosk import config
    from kiosk.app.loop import App
    from kiosk.players import thinker

    with tempfile.TemporaryDirectory() as tmp:
        cfg = config.load(None)
        cfg.data["storage"]["path"] = os.path.join(tmp, "bench.sqlite3")
        cfg.data["led"]["port"] = "virtual"
        cfg.data["attract"]["idle_s"] = 10_000
        pygame.init()
        win = pygame.display.set_mode(size)
        name, _, skill = screen.partition(":")
        args = argparse.Namespace(command="demo" if skill else None, screenshot_dir="", frames=0,
                                  game=name, mode=None, players=None, seed=1, skill=skill or "medium",
                                  pace=1.0, loop=True)
        app = App(cfg, win, args)
        proc = getattr(thinker.shared(), "_proc", None)
        if think_group and proc is not None:
            Path(think_group, "cgroup.procs").write_text(str(proc.pid))
        if name == "title":
            from kiosk.scenes.attract import AttractScene
            scene = AttractScene(app)
        elif name == "scores":
            from kiosk.scenes.attract import AttractLoop, AttractScene
            app.attract = AttractLoop(app)
            scene = AttractScene(app, loop=app.attract)
        elif name == "lobby":
            from kiosk.scenes.lobby import LobbyScene
            scene = LobbyScene(app)
        elif name == "service":
            from kiosk.scenes.service.menu import ServiceScene
            scene = ServiceScene(app)
        else:
            from kiosk.players.demo import simulated_seats
            from kiosk.scenes.lobby import find_game
            app.pace_override = 1.0
            app.seed_override = 1
            game = find_game(name, None)
            scene = game.start(app, simulated_seats(app, game.demo_seats, skill))
        wall: list[float] = []
        cpu: list[float] = []
        step = app.step

        def timed_step(now_ns: int) -> None:
            c0, t0 = time.thread_time_ns(), time.perf_counter_ns()
            step(now_ns)
            wall.append((time.perf_counter_ns() - t0) / 1e6)
            cpu.append((time.thread_time_ns() - c0) / 1e6)

        app.step = timed_step  # type: ignore[method-assign]
        app.push(scene)
        app.loop(max_frames=frames)
        app.close()
        pygame.quit()
    return {"screen": screen, "wall": wall, "cpu": cpu}


def line(r: dict[str, object], throttled: bool) -> str:
    wall: list[float] = r["wall"]  # type: ignore[assignment]
    cpu: list[float] = r["cpu"]  # type: ignore[assignment]
    rest_w, rest_c = wall[1:], cpu[1:]
    late = sum(1 for t in rest_w if t > BUDGET_MS)
    q = statistics.quantiles(rest_c, n=100, method="inclusive")
    share = f"{100 * late / len(rest_w):6.1f} %" if throttled else "     -  "
    return (f"{r['screen']:<30}{share}{wall[0]:>10.1f}{statistics.median(rest_c):>9.2f}{q[98]:>8.2f}"
            f"{max(rest_w):>9.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--screens", default="", help="comma-separated (default: every one)")
    ap.add_argument("--skills", default="medium,expert")
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--factor", type=float, default=9.0, help="how many times slower than one core here")
    ap.add_argument("--period-ms", type=float, default=9.0, help="the quota's period (ms)")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--think-group", default="", help=argparse.SUPPRESS)
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.split("x"))
    if a.one:
        print(json.dumps(run_one(a.one, (w, h), a.frames, a.think_group)))
        return
    todo = screens(a.skills.split(","))
    if a.screens:
        want = [s for s in a.screens.split(",") if s]
        todo = [s for s in todo if s in want or s.split(":")[0] in want]
    period = int(a.period_ms * 1000)
    tag = f"focus-arcade-pi3-{os.getpid()}"
    frame_group = Cgroup.make(f"{tag}-frame", 1 / a.factor, period)
    think_group = Cgroup.make(f"{tag}-think", 3 / a.factor, period) if frame_group else None
    how = (f"a quota of 1/{a.factor:g} of a core in {a.period_ms:g} ms periods (the thinking process "
           f"3/{a.factor:g})") if frame_group else "no quota (unthrottled)"
    print(f"simulated Pi 3: {how}, {a.size}, {a.frames} frames a screen at 60 fps")
    print(f"{'screen':<30}{'late':>8}{'first ms':>10}{'cpu med':>9}{'p99':>8}{'worst ms':>9}")
    try:
        for screen in todo:
            cmd = [sys.executable, str(Path(__file__).resolve()), "--one", screen, "--size", a.size,
                   "--frames", str(a.frames), "--think-group", str(think_group.path) if think_group else ""]
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            # the child joins the frame cgroup before it starts Python's imports: a shell that
            # moves itself in, then becomes the bench child
            if frame_group is not None:
                cmd = ["sh", "-c", f'echo $$ > "{frame_group.path}/cgroup.procs" && exec "$@"', "sh", *cmd]
            p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
            if p.returncode != 0:
                print(f"{screen:<30} failed: {p.stderr.strip().splitlines()[-1:]}", flush=True)
                continue
            print(line(json.loads(p.stdout.strip().splitlines()[-1]), frame_group is not None), flush=True)
    finally:
        for g in (think_group, frame_group):
            if g is not None:
                g.remove()


if __name__ == "__main__":
    main()
