"""What keeping the game in progress costs per step, and how big the journal gets (issue 23).

Plays FocusX Classic games (4 computer seats) and saves the game in progress after each step
as the kiosk does (``Results.save_resume``: every action so far, one transaction), then the
finished game (``Results.save``).  Twice, in the same folder: with the journal bounds and the
checkpoints of the game in progress (:data:`kiosk.persist.storage.WAL_AUTOCHECKPOINT_PAGES`,
:data:`~kiosk.persist.storage.JOURNAL_SIZE_LIMIT`, :data:`~kiosk.persist.storage.RESUME_CHECKPOINT_STEPS`), and
with SQLite's defaults and no checkpoint but the finished game's.  Prints per setting: the
milliseconds of a step's save (median, 95th percentile, slowest), the largest ``-wal`` seen and
the main file's size.

    python bench/bench_store_steps.py [--games 5] [--dir FOLDER]

``--dir``: where the store is made (default: a temporary folder); the cost is mostly the
fsyncs, so run it on the disk that matters (the Pi's SD card).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from arcade.core.record import to_record
from arcade.focusx.autoplay import SimConfig, first_legal, simulate
from arcade.focusx.classic import ClassicGame
from kiosk.persist import storage
from kiosk.persist.storage import Results


def played(seed: int) -> tuple[list[dict[str, object]], dict[str, object], tuple[int, ...], str, tuple[float, ...]]:
    """A played game: its actions as the resume slot holds them, and its result."""
    state = ClassicGame(4).new_initial_state()
    simulate(state, random.Random(seed), SimConfig(skills=["hard"] * 4), first_legal)
    out = state.outcome()
    assert out is not None
    actions = [{"player": int(p), "action": a.to_json()} for p, a in state.history]
    return actions, to_record(state, seed), out.winners, out.reason, out.scores


def run(folder: Path, games: int, bounded: bool) -> None:
    if not bounded:
        storage.WAL_AUTOCHECKPOINT_PAGES = 1000        # SQLite's default
        storage.JOURNAL_SIZE_LIMIT = -1                # no limit
        storage.RESUME_CHECKPOINT_STEPS = 10**9
        storage.RESUME_CHECKPOINT_S = float("inf")
    path = folder / f"{'bounded' if bounded else 'defaults'}.sqlite3"
    r = Results(path)
    times: list[float] = []
    wal_max = 0
    for seed in range(games):
        actions, record, winners, reason, scores = played(seed)
        key = f"game-{seed}"
        for step in range(1, len(actions) + 1):
            data = {"family": "focusx", "mode": "classic", "title": "FocusX Classic", "seed": seed,
                    "seats": [], "actions": actions[:step], "steps": step}
            t0 = time.perf_counter()
            r.save_resume(key, data)
            times.append(time.perf_counter() - t0)
            try:
                wal_max = max(wal_max, os.stat(f"{path}-wal").st_size)
            except OSError:
                pass
        r.save(record, winners, reason, scores, game_key=key)
    main_size = path.stat().st_size
    r.close()
    ms = sorted(t * 1000 for t in times)
    print(f"{'bounded' if bounded else 'defaults':9} {len(ms):6} {statistics.median(ms):8.2f} "
          f"{ms[int(len(ms) * 0.95)]:8.2f} {ms[-1]:8.2f} {wal_max / 1024:9.0f} {main_size / 1024:9.0f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--dir", default=None)
    a = ap.parse_args()
    print(json.dumps({k: getattr(storage, k) for k in ("WAL_AUTOCHECKPOINT_PAGES", "JOURNAL_SIZE_LIMIT",
                                                       "RESUME_CHECKPOINT_STEPS", "RESUME_CHECKPOINT_S")}))
    print(f"{'setting':9} {'steps':>6} {'med ms':>8} {'p95 ms':>8} {'max ms':>8} {'wal kB':>9} {'file kB':>9}")
    with tempfile.TemporaryDirectory(dir=a.dir) as tmp:
        run(Path(tmp), a.games, bounded=True)
        run(Path(tmp), a.games, bounded=False)


if __name__ == "__main__":
    main()
