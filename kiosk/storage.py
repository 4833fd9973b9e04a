"""Results and game records in a local SQLite file.

Every finished game is one row with its JSON record, so the admin can replay
"what happened".  SQLite's transactions make each save all-or-nothing, even on
a power cut.  A damaged file is moved aside (``*.damaged-<time>``) with a
message, and a fresh one is started: the kiosk keeps running.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any, Callable

from arcade.core.errors import ArcadeError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    finished_at REAL NOT NULL,
    game TEXT NOT NULL,
    seats INTEGER NOT NULL,
    winners TEXT NOT NULL,
    reason TEXT NOT NULL,
    scores TEXT NOT NULL,
    record TEXT NOT NULL
);
"""


#: Events (issue 15, kiosk/event.py): a finished game's message waits in ``outbox``
#: until the broker has acknowledged it (then the row is deleted); ``event_games``
#: keeps which game id each local game was given.  Both written in the game's own
#: save transaction, so a result is never saved without its message or the reverse.
EVENT_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_uid TEXT NOT NULL UNIQUE,
    topic TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS event_games (
    game_uid TEXT PRIMARY KEY,
    games_id INTEGER NOT NULL,
    event TEXT NOT NULL
);
"""

#: ``(games id, finished_at, record, winners, reason, scores) -> (game uid, event, topic, payload)``
OutboxHook = Callable[[int, float, dict[str, Any], tuple[int, ...], str, tuple[float, ...]],
                      tuple[str, str, str, str]]


COLUMNS = {"id", "finished_at", "game", "seats", "winners", "reason", "scores", "record"}


class StorageError(ArcadeError, OSError):
    """The results file could not be opened or written."""


class Results:
    """The results store.

    Args:
        path: SQLite file (parent folders are created); ``":memory:"`` for tests.

    Attributes:
        notice: a message for the screen when the file had to be replaced.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.notice = ""
        #: Set by the event link: each saved game also gets an outbox message.
        self.outbox_hook: OutboxHook | None = None
        #: ... and is told the game id once that transaction committed.
        self.outbox_committed: Callable[[str], None] | None = None
        #: The id of the last game saved (0: none yet), e.g. for the high score entered after it.
        self.last_id = 0
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = self._open()
        except sqlite3.OperationalError as exc:
            # Cannot open, locked, I/O error: not a damaged file, so never move it aside.
            raise StorageError(f"could not open the results file {self.path}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            if self.path == ":memory:":
                raise StorageError(str(exc)) from None
            aside = f"{self.path}.damaged-{int(time.time())}"
            n = 1
            while Path(aside).exists():
                aside = f"{self.path}.damaged-{int(time.time())}-{n}"
                n += 1
            Path(self.path).rename(aside)
            # The write-ahead log and its index belong to the damaged file: keep them with
            # it (they may hold its last games) and never let the new file read them.
            for extra in ("-wal", "-shm"):
                if Path(self.path + extra).exists():
                    Path(self.path + extra).rename(aside + extra)
            self.notice = f"The results file was damaged ({exc}); it was kept as {aside} and a new one started."
            try:
                self.db = self._open()
            except sqlite3.Error as exc2:
                raise StorageError(f"could not start a new results file at {self.path}: {exc2}") from None

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path)
        try:
            db.execute("PRAGMA journal_mode=WAL" if self.path != ":memory:" else "PRAGMA journal_mode=MEMORY")
            db.execute("PRAGMA synchronous=FULL")
            row = db.execute("PRAGMA quick_check").fetchone()
            if row is None or row[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {row}")
            db.executescript(SCHEMA)
            db.executescript(EVENT_SCHEMA)
            columns = {r[1] for r in db.execute("PRAGMA table_info(games)")}
            if columns != COLUMNS:
                # Another program's table: treat the file as not ours (moved aside, kept).
                raise sqlite3.DatabaseError(f"its games table has other columns ({', '.join(sorted(columns))})")
        except sqlite3.Error:
            db.close()
            raise
        return db

    def save(self, record: dict[str, Any], winners: tuple[int, ...], reason: str,
             scores: tuple[float, ...]) -> int:
        """Save one finished game; returns its id.

        With ``outbox_hook`` set (an event, kiosk/event.py), the game's event
        message and game id are written in the same transaction.

        Raises:
            StorageError: the write failed (disk full, file removed...).
        """
        uid = ""
        try:
            finished = time.time()
            with self.db:
                cur = self.db.execute(
                    "INSERT INTO games (finished_at, game, seats, winners, reason, scores, record) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (finished, record["game"], record["seats"], json.dumps(list(winners)), reason,
                     json.dumps(list(scores)), json.dumps(record)))
                row = int(cur.lastrowid or 0)
                if self.outbox_hook is not None:
                    uid, event, topic, payload = self.outbox_hook(row, finished, record, tuple(winners), reason,
                                                                  tuple(scores))
                    self.db.execute("INSERT INTO outbox (game_uid, topic, payload, created_at) VALUES (?, ?, ?, ?)",
                                    (uid, topic, payload, finished))
                    self.db.execute("INSERT INTO event_games (game_uid, games_id, event) VALUES (?, ?, ?)",
                                    (uid, row, event))
        except sqlite3.Error as exc:
            raise StorageError(f"could not save the game to {self.path}: {exc}") from None
        self.last_id = row
        if uid and self.outbox_committed is not None:
            self.outbox_committed(uid)
        return row

    def recent(self, limit: int = 10) -> list[dict[str, Any]]:
        """The latest games, newest first (without their records).

        Raises:
            StorageError: the file cannot be read (damaged since it was opened).
        """
        try:
            rows = self.db.execute("SELECT id, finished_at, game, seats, winners, reason, scores FROM games "
                                   "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        except sqlite3.Error as exc:
            raise StorageError(f"could not read the results from {self.path}: {exc}") from None
        return [{"id": r[0], "finished_at": r[1], "game": r[2], "seats": r[3], "winners": json.loads(r[4]),
                 "reason": r[5], "scores": json.loads(r[6])} for r in rows]

    def record(self, game_id: int) -> dict[str, Any]:
        row = self.db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id}")
        return json.loads(row[0])  # type: ignore[no-any-return]

    def close(self) -> None:
        self.db.close()
