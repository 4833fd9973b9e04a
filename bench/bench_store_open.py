"""How long the results store takes to open (every row checked) as it grows (issue 11).

Builds a store of N finished games (records of a played FocusX game, padded
to about --record-kb kB each), then opens it with :class:`kiosk.persist.storage.Results`
(the read-only check of every row, then the write probe) a few times and prints
the median, per 1000 games.

    python bench/bench_store_open.py [--games 2000] [--record-kb 20] [--repeat 5]

Before/after a change, on the same machine in one run: the same bench file against the
other checkout, ``PYTHONPATH=<other checkout> python bench/bench_store_open.py``.
"""

from __future__ import annotations

import argparse
import json
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--record-kb", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    state = ClassicGame(4).new_initial_state()
    simulate(state, random.Random(1), SimConfig(skills=["hard"] * 4), first_legal)
    out = state.outcome()
    record = to_record(state, 1)
    record["pad"] = "x" * max(0, a.record_kb * 1024 - len(str(record)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "arcade.sqlite3"
        r = Results(path)
        sealed = "checksum" in {c[1] for c in r.db.execute("PRAGMA table_info(games)")}
        with r.db:
            for _ in range(a.games):
                cells = (time.time(), record["game"], 4, str(list(out.winners)), out.reason, str(list(out.scores)),
                         json.dumps(record), None)
                if sealed:            # schema 3 (issue 23): each row with the checksum of its cells
                    r.db.execute("INSERT INTO games (finished_at, game, seats, winners, reason, scores, record, "
                                 "game_key, checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 (*cells, storage.row_checksum(*cells)))
                else:                 # an arcade from before the checksums, for a before/after figure
                    r.db.execute("INSERT INTO games (finished_at, game, seats, winners, reason, scores, record, "
                                 "game_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", cells)
        r.close()
        size = path.stat().st_size / 1e6
        times = []
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            Results(path).close()
            times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    print(f"{a.games} games, {size:.1f} MB: open median {med * 1000:.0f} ms "
          f"({med * 1000 / a.games * 1000:.0f} ms per 1000 games), max {max(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
