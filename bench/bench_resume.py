"""SIGKILL a running ``focus-arcade demo`` at random moments, restart it, check the resume (issue 11).

For each game family, one store: start ``demo --game FAMILY --loop``, wait for
READY=1, kill -9 after a random 1-4 s, read the store's resume slot (game key,
steps, state digest), start again and wait for the log line ``resumed game KEY
at step N (digest D)``; it must match the slot.  After the last kill: every
stored result's game key appears once, and SQLite's integrity check passes.
Prints per family: kills, interrupted games found in the store, resumes that
matched, resumes that went on to a later step (within 45 s), results stored,
duplicate results, integrity.

    python bench/bench_resume.py [--kills 13] [--games focusx,focus,sherlook,coop] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Short Sherlook rounds, so that its demo games finish between kills (issue 23: they never did).
FAST = """\
[sherlook]
round_limit_s = 5
reveal_s = 1
token_s = 0
countdown_s = 0.5
"""
#: Seconds between two kills, per family (Sherlook's games take longer to finish).
WAITS = {"sherlook": (15.0, 50.0)}
RESUMED = re.compile(r"resumed game (\w+) at step (\d+) \(digest (\w+)\)")


class Arcade:
    """A running ``focus-arcade demo`` with its stderr collected on a thread."""

    def __init__(self, game: str, home: Path) -> None:
        conf = home / "config" / "focus-arcade" / "arcade.toml"
        if not conf.exists():
            conf.parent.mkdir(parents=True, exist_ok=True)
            conf.write_text(FAST)
        sock_path = home / "notify.sock"
        if sock_path.exists():
            sock_path.unlink()
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(sock_path))
        self.sock.settimeout(90)
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "PYGAME_HIDE_SUPPORT_PROMPT": "1", "XDG_DATA_HOME": str(home / "data"),
               "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state"),
               "NOTIFY_SOCKET": str(sock_path)}
        env.pop("FOCUS_ARCADE_CONFIG", None)
        env.pop("WATCHDOG_USEC", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "kiosk.cli", "demo", "--game", game, "--loop",
                                      "--pace", "0.4"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        while b"READY=1" not in self.sock.recv(4096):
            pass

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)

    def resumed(self) -> tuple[str, int, str] | None:
        for line in self.lines:
            m = RESUMED.search(line)
            if m:
                return m.group(1), int(m.group(2)), m.group(3)
        return None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        self.proc.send_signal(sig)
        self.proc.wait(60)
        self.sock.close()


def slot(store: Path) -> tuple[str, int, str] | None:
    if not store.exists():
        return None
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        row = db.execute("SELECT game_key, data FROM resume").fetchone()
    except sqlite3.Error:
        row = None
    db.close()
    if row is None:
        return None
    data = json.loads(row[1])
    return row[0], data["steps"], data["digest"]


def run_family(game: str, kills: int, rng: random.Random, wait: tuple[float, float] = (1.0, 4.0),
               went_on_s: float = 45.0) -> dict[str, object]:
    """``kills`` SIGKILLs of one family's demo, each after a random ``wait`` (s) and restarted;
    after each resume, up to ``went_on_s`` for the game to complete one more step."""
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        store = home / "data" / "focus-arcade" / "arcade.sqlite3"
        matched = went_on = offered = 0
        problems: list[str] = []
        arcade = Arcade(game, home)
        for _ in range(kills):
            time.sleep(rng.uniform(*wait))
            arcade.kill()
            saved = slot(store)
            arcade = Arcade(game, home)
            if saved is None:
                continue
            offered += 1
            deadline = time.monotonic() + 30
            while arcade.resumed() is None and time.monotonic() < deadline and arcade.proc.poll() is None:
                time.sleep(0.05)
            got = arcade.resumed()
            if got == saved:
                matched += 1
            else:
                problems.append(f"slot {saved} resumed as {got}")
            deadline = time.monotonic() + went_on_s
            while time.monotonic() < deadline:
                later = slot(store)
                if later is None or later[0] != saved[0] or later[1] > saved[1]:
                    went_on += 1                     # it played on (or finished and was stored)
                    break
                time.sleep(0.1)
        arcade.kill(signal.SIGTERM)
        db = sqlite3.connect(store)
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        rows = db.execute("SELECT game_key FROM games").fetchall()
        db.close()
        keys = [k for (k,) in rows if k]
        return {"game": game, "kills": kills, "offered": offered, "matched": matched, "went_on": went_on,
                "results": len(rows), "duplicates": len(keys) - len(set(keys)), "integrity": integrity,
                "problems": problems}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kills", type=int, default=13)
    ap.add_argument("--games", default="focusx,focus,sherlook,coop")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    print(f"{'game':10} {'kills':>5} {'slots':>5} {'matched':>7} {'went on':>7} {'results':>7} {'dupes':>5} integrity")
    total = {"kills": 0, "offered": 0, "matched": 0}
    for game in a.games.split(","):
        r = run_family(game, a.kills, rng, wait=WAITS.get(game, (1.0, 4.0)))
        for k in total:
            total[k] += int(r[k])                                                   # type: ignore[arg-type]
        print(f"{game:10} {r['kills']:5} {r['offered']:5} {r['matched']:7} {r['went_on']:7} {r['results']:7} "
              f"{r['duplicates']:5} {r['integrity']}")
        for p in r["problems"]:                                                     # type: ignore[attr-defined]
            print(f"    {p}")
    print(f"total: {total['kills']} kills, {total['offered']} interrupted games in the store, "
          f"{total['matched']} resumed at the saved step with the same state")


if __name__ == "__main__":
    main()
