"""Results and game records in a local SQLite file.

Every finished game is one row with its JSON record, so the admin can replay
"what happened".  SQLite's transactions make each save all-or-nothing, even on
a power cut.  Nothing in the file can stop the kiosk:

* a file SQLite cannot read (not a database, failed integrity check, another
  program's table, written by a newer Focus Arcade) is moved aside
  (``*.damaged-<time>``, with its ``-wal`` and ``-shm``) and a new one started;
* a row whose cells cannot be read back (text that is not UTF-8, JSON that does
  not decode, values of the wrong kind or out of range) is *put aside*: first
  the whole file is copied byte for byte (``*.damaged-<time>``, with its
  ``-wal`` and ``-shm``, before anything writes to it), then the row is moved
  into the ``set_aside`` table (its raw cells and the problem) and out of the
  results; the rest of the file is kept;
* a ``-wal`` that SQLite would drop saved changes from (a frame whose own checksum
  fails; cut short, emptied or deleted while its index, the ``-shm``, still counts
  them) is copied aside byte for byte with the file and its index, and what was lost
  is told in saved steps (committed transactions); when no copy can be made (a full
  disk) the file is not opened at all: :class:`StorageError` (``whole``), nothing
  changed;
* a ``-wal`` deleted together with its index after a run that did not close the
  file (the main file itself says it was in use: :data:`IN_USE`) is told with what
  it took: the game in progress from the step the main file holds (it is written
  into the main file every :data:`RESUME_CHECKPOINT_STEPS` steps; the journal is
  bounded by :data:`WAL_AUTOCHECKPOINT_PAGES` and :data:`JOURNAL_SIZE_LIMIT`);
* a file that cannot be written (read-only folder or file, disk full) is found
  at start by a real write in a transaction and raises :class:`StorageError`.

Each of these leaves a sentence in :attr:`Results.notices` for the screen and
the journal.  The schema version is ``PRAGMA user_version``
(:data:`SCHEMA_VERSION`); other modules add their own tables with
``CREATE TABLE IF NOT EXISTS`` (see :data:`EXTRA_SCHEMA`).
"""

from __future__ import annotations

import errno
import json
import logging
import math
import os
import shutil
import sqlite3
import time
import zlib
from pathlib import Path
from typing import Any, Callable, Mapping, NotRequired, TypedDict, TypeGuard

from arcade.core.errors import ArcadeError

log = logging.getLogger("focus-arcade")

#: ``AUTOINCREMENT``: a game's id is never given to another game, even after the row with the
#: highest id was put aside (issue 24); files made before keep their table (see ``_set_aside_rows``).
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    finished_at REAL NOT NULL,
    game TEXT NOT NULL,
    seats INTEGER NOT NULL,
    winners TEXT NOT NULL,
    reason TEXT NOT NULL,
    scores TEXT NOT NULL,
    record TEXT NOT NULL
);
"""

#: Version 2: ``games.game_key`` (a finished game is stored once), ``meta`` (the start
#: probe), ``set_aside`` (rows that could not be read back), ``resume`` (the game in
#: progress).  Version 1 (no ``user_version``) is the ``games`` table alone.
#: Version 3: ``games.checksum`` and ``resume.checksum`` (:func:`row_checksum`), so that a
#: value changed by damage (a flipped bit in a score) is found, not shown as a result.
SCHEMA_VERSION = 3

SCHEMA_V2 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS set_aside (
    id INTEGER PRIMARY KEY,
    set_aside_at REAL NOT NULL,
    source TEXT NOT NULL,
    row_id INTEGER,
    problem TEXT NOT NULL,
    copy TEXT NOT NULL,
    raw TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS resume (
    slot INTEGER PRIMARY KEY CHECK (slot = 1),
    game_key TEXT NOT NULL,
    saved_at REAL NOT NULL,
    data TEXT NOT NULL
);
"""

#: Tables of other modules (each a ``CREATE TABLE IF NOT EXISTS`` script), run at every open.
EXTRA_SCHEMA: list[str] = []

#: Events (issue 15, kiosk/event/link.py): a finished game's message waits in ``outbox``
#: until the broker has acknowledged it (then the row is deleted); ``event_games``
#: keeps which game id each local game was given (a game put aside loses its line).  Both written in the game's own
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
EXTRA_SCHEMA.append(EVENT_SCHEMA)

#: ``(games id, finished_at, record, winners, reason, scores) -> (game uid, event, topic, payload)``
OutboxHook = Callable[[int, float, dict[str, object], tuple[int, ...], str, tuple[float, ...]],
                      tuple[str, str, str, str]]

COLUMNS = {"id", "finished_at", "game", "seats", "winners", "reason", "scores", "record"}
#: Columns added by later schema versions (the ``games`` table may have them or not).
LATER_COLUMNS = {"game_key", "checksum"}
MAX_SEATS = 8


class StorageError(ArcadeError, OSError):
    """The results file could not be opened or written (``no_space``: for want of space;
    ``whole``: the message is a whole sentence for the screen, already saying what this
    session does instead)."""

    no_space = False
    whole = False


class NotSavedYet(StorageError):
    """A finished game could not be written (the disk is full): it is kept in memory
    (:attr:`Results.pending`) and written once there is space again (issue 23)."""


#: Beside the results file: room kept on its disk for the results a full disk leaves in memory
#: at a stop (:meth:`Results.close`).
RESERVE = ".reserve"
RESERVE_BYTES = 64 * 1024

#: The journal's bounds (issue 23: one FocusX game grew it to 2 MB, filling a small disk, while
#: the main file stayed 4 kB): SQLite copies it into the main file once it passes this many
#: pages (``PRAGMA wal_autocheckpoint``; its default is 1000, 4 MB) and cuts it back to at most
#: this many bytes when it starts it again (``PRAGMA journal_size_limit``).
WAL_AUTOCHECKPOINT_PAGES = 100
JOURNAL_SIZE_LIMIT = 512 * 1024
#: The game in progress is copied into the main file (a checkpoint) every this many saved steps,
#: or at its first saved step this many seconds after the last checkpoint: a lost journal then
#: loses at most these of its steps (issue 23; the cost: ``bench/bench_store_open.py``).
RESUME_CHECKPOINT_STEPS = 10
RESUME_CHECKPOINT_S = 20.0
#: The ``meta`` row that marks the file in use, in the main file itself (checkpointed at
#: open, deleted at a clean close): found at the next start with no journal beside the file,
#: it says the last run's journal is gone (issue 23).
IN_USE = "in_use"

#: SQLite's words for a write that failed for want of space (SQLITE_FULL) or at the disk (SQLITE_IOERR).
_NO_SPACE = ("full", "disk i/o")


class GameRow(TypedDict):
    """A finished game as :meth:`Results.recent` gives it (without its record)."""

    id: int                     # 0: kept in memory, not saved yet (then ``saved`` is False)
    finished_at: float          # seconds since the epoch
    game: str                   # the record's game name
    seats: int
    winners: list[int]          # seats, 0-based
    reason: str
    scores: list[float]         # one per seat, or none
    saved: NotRequired[bool]


class SetAside(TypedDict):
    """A row put aside (:meth:`Results.set_aside`): from which table (``source``) and row, why
    (``problem``), a copy of what it held, when (``at``, seconds since the epoch)."""

    source: str
    row_id: int
    problem: str
    copy: str
    at: float


def record_head(record: Mapping[str, object]) -> tuple[str, int]:
    """A record's game name and seat count, as its ``games`` row holds them.

    Raises:
        KeyError: no ``game`` or ``seats``; TypeError, ValueError: ``seats`` is not a number.
    """
    seats = record["seats"]
    if not isinstance(seats, (int, float, str)):
        raise TypeError(f"the record's seats is not a number ({type(seats).__name__})")
    return str(record["game"]), int(seats)


def _text(cell: object, name: str) -> str:
    """A TEXT cell read as bytes (``CAST(x AS BLOB)``), decoded; ValueError names the column."""
    if isinstance(cell, str):
        return cell
    if not isinstance(cell, bytes):
        raise ValueError(f"{name} is not text ({type(cell).__name__})")
    try:
        return cell.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name} is not UTF-8 text (byte {exc.start})") from None


def _json(cell: object, name: str) -> object:
    text = _text(cell, name)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"{name} is not readable JSON ({str(exc)[:60]})") from None


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v: object) -> TypeGuard[int | float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


GAME_CELLS = ("id, finished_at, CAST(game AS BLOB), seats, CAST(winners AS BLOB), CAST(reason AS BLOB), "
              "CAST(scores AS BLOB)")


def row_checksum(*cells: object) -> int:
    """CRC-32 of a row's cells as SQLite stores them (issue 23): ``None``, ``int``, ``float``,
    ``str`` or ``bytes`` each, a text and its UTF-8 bytes alike (texts are read back as bytes).

    Each cell is framed by its kind and length, so moving bytes from one cell to the next
    changes the sum.  Returns an ``int`` in 0 .. 2**32 - 1.  It finds damage (a flipped bit,
    a torn page), not a deliberate edit.

    Raises:
        TypeError: a cell of another kind.
    """
    crc = 0
    for cell in cells:
        if cell is None:
            part = b"n"
        elif isinstance(cell, bool) or isinstance(cell, int):
            part = b"i" + str(int(cell)).encode()
        elif isinstance(cell, float):
            part = b"f" + repr(cell).encode()
        elif isinstance(cell, (str, bytes, bytearray, memoryview)):
            data = cell.encode("utf-8", "surrogatepass") if isinstance(cell, str) else bytes(cell)
            part = b"t" + str(len(data)).encode() + b":" + data
        else:
            raise TypeError(f"a cell of SQLite holds no {type(cell).__name__}")
        crc = zlib.crc32(part + b"\x1f", crc)
    return crc


#: The cells that :func:`row_checksum` covers, in its order, as read back.
GAME_SUM_CELLS = ("finished_at, CAST(game AS BLOB), seats, CAST(winners AS BLOB), CAST(reason AS BLOB), "
                  "CAST(scores AS BLOB), CAST(record AS BLOB), CAST(game_key AS BLOB)")


def check_checksum(stored: object, *cells: object) -> None:
    """Raises ValueError when ``stored`` (a row's ``checksum`` cell) is not the sum of ``cells``."""
    if not _is_int(stored) or stored != row_checksum(*cells):
        raise ValueError("its values are not the ones saved (checksum does not match: damaged in the file)")


def check_game_row(cells: tuple[object, ...]) -> GameRow:
    """One ``games`` row (``GAME_CELLS``) as the dict :meth:`Results.recent` returns.

    Raises:
        ValueError: a cell cannot be read back; the message names the column.
    """
    gid, finished_at, game_cell, seats, winners_cell, reason_cell, scores_cell = cells
    if not _is_int(gid):
        raise ValueError("id is not a whole number")
    if not _number(finished_at) or finished_at < 0:
        raise ValueError(f"finished_at is not a time ({finished_at!r:.40})")
    game = _text(game_cell, "game")
    if not game or len(game) > 200:
        raise ValueError("game is not a game name")
    if not _is_int(seats) or not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"seats is not 1 to {MAX_SEATS} ({seats!r:.40})")
    winners = _json(winners_cell, "winners")
    if not isinstance(winners, list) or not all(_is_int(w) and 0 <= w < seats for w in winners) \
            or len(set(winners)) != len(winners):
        raise ValueError(f"winners is not a list of seats 0 to {seats - 1}")
    reason = _text(reason_cell, "reason")
    scores = _json(scores_cell, "scores")
    if not isinstance(scores, list) or len(scores) not in (0, seats) or not all(_number(s) for s in scores):
        raise ValueError(f"scores is not a list of {seats} numbers")
    return {"id": gid, "finished_at": finished_at, "game": game, "seats": seats, "winners": winners,
            "reason": reason[:500], "scores": scores}


def check_record(cell: object, game: str | None = None, seats: int | None = None) -> dict[str, object]:
    """A ``record`` cell as the record dict (``arcade.core.record`` format).

    Raises:
        ValueError: not UTF-8 JSON, not an object with ``game``, ``seats`` and a list of
            ``actions``, or a game or seat count other than the row's.
    """
    rec = _json(cell, "record")
    if not isinstance(rec, dict) or not isinstance(rec.get("game"), str) or not _is_int(rec.get("seats")) \
            or not isinstance(rec.get("actions", []), list):
        raise ValueError("record is not a game record (game, seats, actions)")
    if game is not None and rec["game"] != game or seats is not None and rec["seats"] != seats:
        raise ValueError("record is of another game than its row")
    return rec


#: The -wal file's magic numbers (SQLite's WAL format, https://www.sqlite.org/fileformat2.html#walformat):
#: the last bit says the checksums' byte order (1: big-endian).
WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER = 32
WAL_FRAME_HEADER = 24


def _wal_checksum(data: bytes, big_endian: bool, s0: int = 0, s1: int = 0) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes) from ``(s0, s1)``: for each
    pair of 32-bit words x0, x1, s0 += x0 + s1, s1 += x1 + s0 (mod 2**32)."""
    import struct
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_damage(wal: bytes) -> str | None:
    """What SQLite would drop of a ``-wal`` file's committed transactions because of damage,
    as a sentence, or None when nothing committed is lost.

    Per SQLite's documented WAL format: the 32-byte header (magic, version 3007000, page
    size, salts, checksum of its first 24 bytes), then frames of a 24-byte header (page,
    database size for a commit frame, the header's salts, a running checksum over the
    frame header's first 8 bytes and the page) and the page.  SQLite replays frames up
    to the last commit frame whose salts and running checksum hold, and drops the rest.
    Not damage: an empty or header-only file, frames of an earlier generation (older
    salt) after the last good one, and frames or a torn frame after the last commit (a
    transaction that was never acknowledged).

    >>> wal_damage(b"") is None
    True
    """
    import struct
    if len(wal) < WAL_HEADER:
        return None                               # SQLite reads no frame from it; none was ever committed
    magic, version, page_size, _, salt1, salt2, c0, c1 = struct.unpack(">8I", wal[:WAL_HEADER])
    if magic not in WAL_MAGIC:
        return "its header is damaged (not SQLite's journal magic): everything in it is dropped"
    big = bool(magic & 1)
    if version != 3007000 or page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        return "its header is damaged (version or page size): everything in it is dropped"
    if _wal_checksum(wal[:24], big) != (c0, c1):
        frames = (len(wal) - WAL_HEADER) // (WAL_FRAME_HEADER + page_size)
        return f"its header's checksum does not hold: all {frames} frame(s) in it are dropped" if frames else None
    size = WAL_FRAME_HEADER + page_size
    s = (c0, c1)
    n = 0
    at = WAL_HEADER
    while at + size <= len(wal):
        page, commit, f1, f2, k0, k1 = struct.unpack(">6I", wal[at:at + WAL_FRAME_HEADER])
        if f1 != salt1:
            older = 0 < ((salt1 - f1) & 0xFFFFFFFF) < 2**31
            if older and f2 != salt2:
                return None                       # an earlier generation's frames: never replayed
            break
        s = _wal_checksum(wal[at:at + 8], big, *s)
        s = _wal_checksum(wal[at + WAL_FRAME_HEADER:at + size], big, *s)
        if f2 != salt2 or s != (k0, k1) or page == 0:
            break
        n += 1
        at += size
    else:
        return None                               # every frame holds (a torn last frame was never committed)
    later = 0
    j = at
    while j + size <= len(wal):                   # the committed transactions SQLite now drops
        _, commit, f1, f2, _, _ = struct.unpack(">6I", wal[j:j + WAL_FRAME_HEADER])
        if f1 == salt1 and commit:
            later += 1
        j += size
    first_commit_lost = struct.unpack(">I", wal[at + 4:at + 8])[0]
    if later == 0 and not first_commit_lost:
        # the damaged frame and all after it are of no committed transaction: nothing acknowledged is lost
        return None
    return f"frame {n + 1} is damaged: {_steps(max(later, 1))} from there on cannot be read"


def _steps(n: int, at_least: bool = False) -> str:
    """How much a damaged or lost journal takes, in the one unit every message uses: saved
    steps (SQLite's committed transactions: each completed turn, race or round of the game in
    progress, each finished game); ``at_least``: ``n`` is a count that may be low."""
    return (f"{'at least ' * at_least}the last {n} saved step{'s' * (n != 1)} (completed turns, races or "
            "rounds of the game in progress, or a game just finished)")


def _undecodable(exc: sqlite3.Error) -> bool:
    """Python's sqlite3 says "Could not decode to UTF-8 column ..." (an OperationalError) for
    text that damage made unreadable, and SQLite "unsupported file format" (also an
    OperationalError) for a header whose schema format number damage changed: that is damage
    to the file, not a failure to open it."""
    text = str(exc).lower()
    return "could not decode" in text or "unsupported file format" in text


def _shm_page(shm: bytes, frame: int) -> int | None:
    """The page number that the wal-index (``-shm``) keeps for ``frame`` (1-based), or None when
    the index is too short (SQLite's wal-index format: the first 32 KB block holds 4062 page
    numbers after the 136-byte header, each later block 4096; native byte order)."""
    import struct
    first = (32768 - 136 - 2 * 8192) // 4             # 4062: each block's hash table (8192 2-byte slots) follows
    if frame <= first:
        at = 136 + 4 * (frame - 1)
    else:
        j = frame - first - 1
        at = 32768 * (1 + j // 4096) + 4 * (j % 4096)
    if at + 4 > len(shm):
        return None
    page: int = struct.unpack_from("=I", shm, at)[0]
    return page


def journal_lost(shm: bytes | None, wal_size: int | None) -> int:
    """How many saved steps (committed transactions) the ``-wal`` should still hold and does
    not: the wal-index (``-shm``, as found before opening) says how many frames were valid
    (``mxFrame``, the last one a commit) and how many were already copied into the main file
    (``nBackfill``); a journal that is missing (``wal_size`` None), empty or shorter than
    those frames lost the rest.  0 when nothing is lost or the index does not read (SQLite's
    wal-index format, native byte order: ``iVersion`` at 0, ``isInit`` at 12, ``szPage`` at
    14, ``mxFrame`` at 16; ``nBackfill`` at 96; the page number of each frame after the
    header).

    The lost frames are gone, so their commit marks are too; the index still has each one's
    page number, and SQLite writes a transaction's pages in rising page order, so a frame whose
    page is not above the one before starts another transaction.  (Two transactions that each
    wrote only higher pages than the last would count as one: the count is never too high.)

    >>> journal_lost(None, None)
    0
    """
    import struct
    if shm is None or len(shm) < 100:
        return 0
    version: int = struct.unpack_from("=I", shm, 0)[0]
    is_init, _, page, max_frame = (int(v) for v in struct.unpack_from("=BBHI", shm, 12))
    backfill: int = struct.unpack_from("=I", shm, 96)[0]
    if version != 3007000 or not is_init or max_frame == 0 or backfill >= max_frame:
        return 0
    page_size = 65536 if page == 1 else page
    if page_size < 512 or page_size & (page_size - 1):
        return 0
    have = 0 if wal_size is None or wal_size < WAL_HEADER else (wal_size - WAL_HEADER) // (WAL_FRAME_HEADER + page_size)
    first = max(have, backfill) + 1
    if first > max_frame:
        return 0
    steps = 0
    before = None
    for frame in range(first, max_frame + 1):
        now = _shm_page(shm, frame)
        if now is None:
            break
        if before is None or now <= before:
            steps += 1
        before = now
    return max(steps, 1)


class Results:
    """The results store.

    Args:
        path: SQLite file (parent folders are created); ``":memory:"`` for tests.

    Attributes:
        notices: sentences for the screen and the journal: what was moved or put
            aside at start (and later, when a row turns out damaged), and where the
            copy is kept.

    Raises:
        StorageError: the file cannot be opened, or cannot be written (the message
            says why: read-only, disk full...).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.notices: list[str] = []
        #: Set by the event link: each saved game also gets an outbox message.
        self.outbox_hook: OutboxHook | None = None
        #: ... and is told the game id once that transaction committed.
        self.outbox_committed: Callable[[str], None] | None = None
        #: The id of the last game saved (0: none yet), e.g. for the high score entered after it.
        self.last_id = 0
        #: Called with each notice found while running (the App shows it); else it is logged.
        self.report: Callable[[str], None] | None = None
        #: Finished games not written yet (the disk was full), oldest first: the arguments of
        #: :meth:`save`; written at the next use of the store once there is space.
        self.pending: list[tuple[dict[str, object], tuple[int, ...], str, tuple[float, ...], str | None, float]] = []
        self.db: sqlite3.Connection
        self._found: set[str] | None = None
        self._journal_told = False     # a lost journal already told (by its index, the -shm)
        self._since_checkpoint = (0, time.monotonic())     # saved steps, and when, since the last checkpoint
        self._mark = ""
        if self.path == ":memory:":
            try:
                self.db = self._open(check=False)
            except sqlite3.Error as exc:
                raise StorageError(str(exc)) from None
            return
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"could not make the folder for the results file {self.path}: "
                               f"{exc.strerror or exc}") from None
        bad: list[tuple[str, int, str, str]] | None = None
        copy = ""
        checked = False
        before = ""               # a byte-for-byte copy taken before a writing connection checks the file
        self._shm: bytes | None = None
        self._kept = ""           # the byte-for-byte copy taken at this start (one for all the checks)
        self._journal_without_file()
        #: While starting: which of the journal and its index were there before any connection
        #: (a reading one makes an empty ``-wal`` and ``-shm``: never kept as if they had been).
        self._found = {extra for extra in ("-wal", "-shm") if Path(self.path + extra).exists()}
        if Path(self.path).is_file():
            shm = self._shm = self._read_shm()
            self._check_journal_kept(shm)
            if self._empty_or_not_sqlite():
                pass                                  # kept aside and told (issue 23)
            else:
                self._check_wal(shm)
                try:
                    bad = self._scan_readonly()
                    checked = True
                except sqlite3.OperationalError as exc:
                    bad = None
                    if _undecodable(exc):                 # text of the file's own structure damaged
                        self._move_aside(f"its structure cannot be read ({exc})")
                    else:         # cannot read it read-only here (locked, ...): the normal open checks it
                        try:
                            before = self._copy_aside(shm)    # so that a damaged file is still kept as it was
                        except OSError:
                            before = ""   # no room for a copy (a full disk): the open says what is wrong
                except sqlite3.DatabaseError as exc:
                    self._move_aside(str(exc))
                if bad:
                    copy = self._copy_or_stop(shm, f"{len(bad)} result(s) in it cannot be read back")
        try:
            try:
                self.db = self._open(check=not checked)
            except sqlite3.OperationalError as exc:
                if _undecodable(exc):            # text of the file's own structure damaged
                    raise sqlite3.DatabaseError(f"its structure cannot be read ({exc})") from None
                raise
        except sqlite3.OperationalError as exc:
            self._drop_copy(before)
            raise StorageError(f"could not open the results file {self.path}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            self._move_aside(str(exc), kept=before)
            before = ""
            bad = None
            try:
                self.db = self._open(check=True)
            except sqlite3.Error as exc2:
                raise StorageError(f"could not start a new results file at {self.path}: {exc2}") from None
        self._drop_copy(before)
        if bad:
            try:
                self._set_aside_rows(bad, copy)
            except sqlite3.DatabaseError as exc:          # damage that the quick check did not see
                self.db.close()
                self._move_aside(str(exc), kept=copy)
                try:
                    self.db = self._open(check=True)
                except sqlite3.Error as exc2:
                    raise StorageError(f"could not start a new results file at {self.path}: {exc2}") from None
        try:
            self._probe()
        except sqlite3.Error as exc:
            self.db.close()
            full = self._disk_full()
            failed = StorageError(f"the results file {self.path} cannot be written "
                                  f"({'its disk is full' if full else exc}): finished games will not be kept")
            failed.no_space = full
            raise failed from None
        journal_gone = "-wal" not in (self._found or ()) and not self._journal_told
        self._found = None
        self._mark_in_use(journal_gone)
        self._save_unsaved()
        self._make_reserve()

    @property
    def notice(self) -> str:
        """All :attr:`notices` as one text ("" when the file was fine)."""
        return " ".join(self.notices)

    @notice.setter
    def notice(self, text: str) -> None:
        self.notices = [text] if text else []

    # -- opening -----------------------------------------------------------------
    def _connect(self, readonly: bool = False) -> sqlite3.Connection:
        if readonly:
            uri = "file:" + Path(self.path).resolve().as_posix().replace("?", "%3f").replace("#", "%23") + "?mode=ro"
            return sqlite3.connect(uri, uri=True, timeout=2)
        return sqlite3.connect(self.path, timeout=2)

    def _read_shm(self) -> bytes | None:
        try:
            return Path(self.path + "-shm").read_bytes()
        except OSError:
            return None

    @staticmethod
    def _check_file(db: sqlite3.Connection) -> None:
        """Raises sqlite3.DatabaseError when the file is not (or no longer) ours."""
        try:
            Results._check_file_cells(db)
        except (UnicodeDecodeError, ValueError) as exc:    # damage in the schema's or the check's text
            raise sqlite3.DatabaseError(f"its structure cannot be read ({str(exc)[:80]})") from None

    @staticmethod
    def _check_file_cells(db: sqlite3.Connection) -> None:
        row = db.execute("PRAGMA quick_check").fetchone()
        if row is None or row[0] != "ok":
            raise sqlite3.DatabaseError(f"integrity check failed: {row}")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise sqlite3.DatabaseError(f"it was written by a newer Focus Arcade (schema {version}, "
                                        f"this one knows {SCHEMA_VERSION})")
        columns = {r[1] for r in db.execute("PRAGMA table_info(games)")}
        if columns and columns - LATER_COLUMNS != COLUMNS:
            # Another program's table: treat the file as not ours (moved aside, kept).
            raise sqlite3.DatabaseError(f"its games table has other columns ({', '.join(sorted(columns))})")

    def _scan_readonly(self) -> list[tuple[str, int, str, str]]:
        """Check the file without writing to it; the rows that cannot be read back.

        Returns: ``(table, rowid, problem, raw cells)`` for each damaged row.

        Raises:
            sqlite3.DatabaseError: the file is not ours or fails SQLite's check.
            sqlite3.OperationalError: it cannot be opened read-only here.
        """
        db = self._connect(readonly=True)
        try:
            self._check_file(db)
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            sealed = db.execute("PRAGMA user_version").fetchone()[0] >= 3
            bad = []
            if "games" in tables:
                bad += self._bad_game_rows(db, "", sealed=sealed)
            if "resume" in tables:
                bad += self._bad_resume_rows(db, sealed=sealed)
            return bad
        finally:
            db.close()

    #: The record cell checked inside SQLite (fast at start on a Pi: no JSON objects built).
    RECORD_OK = ("CASE WHEN typeof(record) = 'text' AND json_valid(record) THEN "
                 "json_type(record) = 'object' AND json_extract(record, '$.game') IS CAST(game AS TEXT) "
                 "AND json_extract(record, '$.seats') IS seats "
                 "AND coalesce(json_type(record, '$.actions'), 'array') = 'array' ELSE 0 END")

    def _bad_game_rows(self, db: sqlite3.Connection, where: str, args: tuple[object, ...] = (),
                       sealed: bool = True) -> list[tuple[str, int, str, str]]:
        """``sealed``: the file is of schema 3 or later, so every row carries its checksum."""
        sums = f"checksum, {GAME_SUM_CELLS}" if sealed else "NULL"
        try:
            rows = db.execute(f"SELECT rowid, {GAME_CELLS}, {self.RECORD_OK}, NULL, {sums} FROM games {where}",
                              args).fetchall()
            in_sql = True
        except sqlite3.OperationalError:          # an SQLite without JSON functions: check in Python
            rows = db.execute(f"SELECT rowid, {GAME_CELLS}, typeof(record), CAST(record AS BLOB), {sums} "
                              f"FROM games {where}", args).fetchall()
            in_sql = False
        bad = []
        for row in rows:
            try:
                summary = check_game_row(row[1:8])
                if in_sql:
                    if not row[8]:
                        raise ValueError("record is not a readable game record of this row's game")
                else:
                    if row[8] != "text":
                        raise ValueError(f"record is not text ({row[8]})")
                    check_record(row[9], summary["game"], summary["seats"])
                if sealed:
                    check_checksum(row[10], *row[11:])
            except ValueError as exc:
                bad.append(("games", row[0], str(exc), repr(row[1:8])[:2000]))
        return bad

    def _bad_resume_rows(self, db: sqlite3.Connection, sealed: bool = True) -> list[tuple[str, int, str, str]]:
        bad = []
        for rowid, key, saved_at, data, checksum in db.execute(
                f"SELECT rowid, CAST(game_key AS BLOB), saved_at, CAST(data AS BLOB), "
                f"{'checksum' if sealed else 'NULL'} FROM resume"):
            try:
                check_resume(key, saved_at, data)
                if sealed:
                    check_checksum(checksum, key, saved_at, data)
            except ValueError as exc:
                bad.append(("resume", rowid, str(exc), repr((key, saved_at))[:2000]))
        return bad

    def _open(self, check: bool) -> sqlite3.Connection:
        db = self._connect()
        try:
            if check:
                self._check_file(db)
            db.execute("PRAGMA journal_mode=WAL" if self.path != ":memory:" else "PRAGMA journal_mode=MEMORY")
            db.execute("PRAGMA synchronous=FULL")
            db.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}")
            db.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT}")
            self._migrate(db)
        except sqlite3.Error:
            db.close()
            raise
        return db

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        """Bring the file to :data:`SCHEMA_VERSION` in one transaction."""
        with db:
            db.execute("BEGIN IMMEDIATE")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            if version < 2:
                columns = {r[1] for r in db.execute("PRAGMA table_info(games)")}
                if "game_key" not in columns:
                    db.execute("ALTER TABLE games ADD COLUMN game_key TEXT")
            for script in (SCHEMA_V2, *EXTRA_SCHEMA):
                for statement in script.split(";"):
                    if statement.strip():
                        db.execute(statement)
            db.execute("CREATE UNIQUE INDEX IF NOT EXISTS games_game_key ON games (game_key)")
            if version < 3:
                # Rows of older files were checked cell by cell before this (the start's scan):
                # from now on each carries the checksum of its values as they are.
                for table, cells in (("games", GAME_SUM_CELLS),
                                     ("resume", "CAST(game_key AS BLOB), saved_at, CAST(data AS BLOB)")):
                    if "checksum" not in {r[1] for r in db.execute(f"PRAGMA table_info({table})")}:
                        db.execute(f"ALTER TABLE {table} ADD COLUMN checksum INTEGER")
                    for rowid, *values in db.execute(f"SELECT rowid, {cells} FROM {table}").fetchall():
                        db.execute(f"UPDATE {table} SET checksum = ? WHERE rowid = ?",
                                   (row_checksum(*values), rowid))
            if version < SCHEMA_VERSION:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _probe(self) -> None:
        """A real write, committed (and synced): a read-only or full disk shows now, not after a game."""
        with self.db:
            self.db.execute("INSERT INTO meta (key, value) VALUES ('last_start', ?) "
                            "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (repr(time.time()),))

    def _mark_in_use(self, journal_gone: bool) -> None:
        """Mark the file in use in the main file itself (a ``meta`` row, checkpointed at once);
        a clean close deletes it.  ``journal_gone``: no ``-wal`` was beside the file at this
        start (and none was told lost already): if the last run's mark is still there, that run
        did not close the file and its journal was deleted since (with its index, the ``-shm``:
        else :meth:`_check_journal_kept` tells it), so what the journal held since the last
        checkpoint is lost: told, with the step of the game in progress the main file holds
        (issue 23).  A failure here is only logged (the start's probe already wrote)."""
        if self.path == ":memory:":
            return
        try:
            row = self.db.execute("SELECT CAST(value AS BLOB) FROM meta WHERE key = ?", (IN_USE,)).fetchone()
            if row is not None and journal_gone:
                self._say(self._journal_gone_note(bytes(row[0]).decode("utf-8", "replace")))
            self._mark = json.dumps({"pid": os.getpid(), "at": time.time()})
            with self.db:
                self.db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE "
                                "SET value = excluded.value", (IN_USE, self._mark))
        except sqlite3.Error as exc:
            log.info("marking %s in use: %s", self.path, exc)
        self._checkpoint()

    def _journal_gone_note(self, mark: str) -> str:
        """What a journal deleted after an unclean stop took, as far as the main file tells."""
        name = f"{Path(self.path).name}-wal"
        try:
            since = time.strftime(" %Y-%m-%d %H:%M", time.localtime(float(json.loads(mark)["at"])))
        except (ValueError, KeyError, TypeError, OverflowError):
            since = ""
        head = (f"The results file's journal ({name}) is missing, but the run started{since} did not close the "
                f"file (a power cut or a kill, and then the journal was deleted). What it held since the last "
                f"checkpoint is lost")
        try:
            row = self.db.execute("SELECT CAST(data AS BLOB) FROM resume WHERE slot = 1").fetchone()
            data = json.loads(bytes(row[0])) if row is not None else None
        except (sqlite3.Error, ValueError, TypeError):
            data = None
        if isinstance(data, dict):
            title = str(data.get("title") or data.get("family") or "the game in progress")
            steps = data.get("steps")
            at = f"step {steps}" if _is_int(steps) else "a step"
            return (f"{head}: the game in progress ({title}) is in the file at {at}, where it resumes; its later "
                    f"steps are lost (at most {RESUME_CHECKPOINT_STEPS}, or {RESUME_CHECKPOINT_S:g} s of play).")
        return (f"{head}: a game in progress since then (its steps; the file holds none of it), or a game that "
                "had just finished.")

    # -- moving and putting aside -------------------------------------------------
    def _aside_name(self) -> str:
        aside = f"{self.path}.damaged-{int(time.time())}"
        n = 1
        while any(Path(aside + extra).exists() for extra in ("", "-wal", "-shm")):
            aside = f"{self.path}.damaged-{int(time.time())}-{n}"
            n += 1
        return aside

    def _say(self, text: str) -> None:
        self.notices.append(text)
        if self.report is not None:
            self.report(text)
        else:
            log.warning(text)

    def _move_aside(self, problem: str, kept: str = "", what: str = "was damaged") -> None:
        """Keep the file (with its ``-wal`` and, as it was before any connection, its ``-shm``)
        as ``*.damaged-<time>`` and start a new one; ``kept``: a byte-for-byte copy already
        taken before a writing connection touched the file (the file itself is then dropped)."""
        if kept:
            aside = kept
            for extra in ("", "-wal", "-shm"):
                Path(self.path + extra).unlink(missing_ok=True)
        else:
            aside = self._aside_name()
            Path(self.path).rename(aside)
            # The write-ahead log and its index belong to the damaged file: keep them with
            # it (they may hold its last games) and never let the new file read them; the
            # empty ones this start's reading connection made are not kept (issue 23).
            if self._made_here("-wal"):
                Path(self.path + "-wal").unlink(missing_ok=True)
            elif Path(self.path + "-wal").exists():
                Path(self.path + "-wal").rename(aside + "-wal")
            if self._shm is not None:                 # as found: a reading connection may have changed it
                Path(aside + "-shm").write_bytes(self._shm)
                Path(self.path + "-shm").unlink(missing_ok=True)
            elif self._made_here("-shm"):
                Path(self.path + "-shm").unlink(missing_ok=True)
            elif Path(self.path + "-shm").exists():
                Path(self.path + "-shm").rename(aside + "-shm")
        self._say(f"The results file {what} ({problem}); it was kept as {aside} and a new one started.")

    def _made_here(self, extra: str) -> bool:
        """Whether the file's ``extra`` (``-wal`` or ``-shm``) was not there when this start
        began: then it is one that a connection of this start made (empty), not the file's."""
        return self._found is not None and extra not in self._found

    def _drop_copy(self, aside: str) -> None:
        for extra in ("", "-wal", "-shm") if aside else ():
            Path(aside + extra).unlink(missing_ok=True)

    def _check_journal_kept(self, shm: bytes | None) -> None:
        """A ``-wal`` deleted, emptied or cut short while it still held saved changes (its index,
        the ``-shm``, says so): SQLite goes on silently without them, so the file, what is left
        of its journal and the index are copied aside byte for byte first, and it is told
        (issue 23).

        Raises:
            StorageError: no copy could be made (a full disk): nothing was changed.
        """
        wal = Path(self.path + "-wal")
        try:
            size: int | None = wal.stat().st_size
        except OSError:
            size = None
        lost = journal_lost(shm, size)
        if not lost:
            return
        self._journal_told = True
        what = "is missing" if size is None else f"was cut to {size} bytes"
        problem = f"its journal ({Path(self.path).name}-wal) {what}"
        aside = self._copy_or_stop(shm, problem)
        kept = "The file and its journal's index" if size is None else "The file, what is left of its journal and its index"
        self._say(f"The results file's journal ({Path(self.path).name}-wal) {what}: {_steps(lost, True)} in it are "
                  f"lost. {kept} as they were are kept as {aside} (byte for byte).")

    def _copy_or_stop(self, shm: bytes | None, problem: str) -> str:
        """The byte-for-byte copy of the file (:meth:`_copy_aside`) taken before anything that
        would change a damaged file, once per start; when none can be made (a full disk), the
        file is not opened at all: StorageError, nothing changed (issue 23)."""
        if self._kept:
            return self._kept
        try:
            self._kept = self._copy_aside(shm)
        except OSError as exc:
            full = exc.errno == errno.ENOSPC
            failed = StorageError(
                f"The results file is damaged ({problem}) and "
                f"{'the disk is full' if full else f'no copy of it could be made ({exc.strerror or exc})'}: "
                f"nothing was changed in {self.path}; this session's games are kept in memory. "
                f"{'Free some space on that disk' if full else 'Let the arcade write beside the file'} and "
                "restart the arcade to keep a copy and go on with the file.")
            failed.no_space = full
            failed.whole = True
            raise failed from None
        return self._kept

    def _journal_without_file(self) -> None:
        """A ``-wal`` with saved changes beside a missing or empty (0 bytes) results file, as a
        power cut or a mistaken delete leaves it: SQLite would start a new store and drop the
        journal.  Unless the journal holds the whole store on its own, the three files as they
        are (the file, its ``-wal`` and ``-shm``) are moved aside, byte for byte, and told;
        a new store is then started (issue 23)."""
        main, wal, shm = Path(self.path), Path(self.path + "-wal"), Path(self.path + "-shm")
        try:
            if main.exists() and (not main.is_file() or main.stat().st_size > 0):
                return
            if not wal.is_file() or wal.stat().st_size <= WAL_HEADER:
                return
            if self._journal_is_whole_store():
                return
            aside = self._aside_name()
            for src, extra in ((main, ""), (wal, "-wal"), (shm, "-shm")):
                if src.exists():
                    src.rename(aside + extra)
            size = Path(aside + "-wal").stat().st_size
        except OSError as exc:
            self._say(f"The results file {self.path} is {'empty' if main.exists() else 'missing'} beside its "
                      f"journal, and the journal could not be kept aside ({exc.strerror or exc}).")
            return
        what = "is empty (0 bytes)" if Path(aside).exists() else "is missing"
        self._say(f"The results file {what}, but its journal ({main.name}-wal, {size} bytes) still held saved "
                  f"changes that cannot be read without it: the journal and what was left are kept as {aside}-wal "
                  f"(byte for byte), and a new results file was started.")

    def _journal_is_whole_store(self) -> bool:
        """Whether a copy of the (empty or missing) file with its ``-wal`` reads as a whole
        store of ours (every page in the journal): then SQLite may go on with it as it is."""
        import tempfile
        with tempfile.TemporaryDirectory(prefix="focus-arcade-journal-") as tmp:
            probe = Path(tmp) / "probe.sqlite3"
            probe.write_bytes(b"")
            shutil.copyfile(self.path + "-wal", str(probe) + "-wal")
            try:
                db = sqlite3.connect(probe)
                try:
                    ok = db.execute("PRAGMA quick_check").fetchone() == ("ok",)
                    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                finally:
                    db.close()
            except sqlite3.Error:
                return False
        return ok and "games" in tables

    def _empty_or_not_sqlite(self) -> bool:
        """A zero-length file (with no journal that holds it) or a file that is not an SQLite
        database is kept aside and told, never silently replaced by a new store (issue 23)."""
        p = Path(self.path)
        try:
            size = p.stat().st_size
            with p.open("rb") as f:
                head = f.read(16)
            wal = Path(self.path + "-wal").read_bytes() if Path(self.path + "-wal").exists() else b""
        except OSError:
            return False                               # the open says what is wrong
        if size == 0:
            if len(wal) > WAL_HEADER:
                return False                           # the whole store is still in its journal
            self._move_aside("0 bytes: every result that was in it is gone from it", what="was empty")
            return True
        if head != b"SQLite format 3\x00":
            self._move_aside("it is not an SQLite database", what="is not a results file")
            return True
        return False

    def _check_wal(self, shm: bytes | None) -> None:
        """Before opening: a ``-wal`` whose committed frames SQLite would drop (checked by
        :func:`wal_damage`) is copied aside byte for byte with the file, and told.

        Raises:
            StorageError: no copy could be made (a full disk): nothing was changed.
        """
        try:
            wal = Path(self.path + "-wal").read_bytes()
        except OSError:
            return
        problem = wal_damage(wal)
        if problem is None:
            return
        aside = self._copy_or_stop(shm, f"its journal {Path(self.path).name}-wal: {problem}")
        self._say(f"The results file's journal ({Path(self.path).name}-wal) is damaged: {problem}; the file and "
                  f"its journal as they were are kept as {aside} (byte for byte), and the arcade goes on with "
                  "what can be read.")

    def _copy_aside(self, shm: bytes | None) -> str:
        """Copy the file, its -wal and (as read before opening) its -shm, byte for byte: only
        those that were there (issue 23: not the empty ``-wal`` a reading connection made)."""
        aside = self._aside_name()
        try:
            shutil.copyfile(self.path, aside)
            if Path(self.path + "-wal").exists() and not self._made_here("-wal"):
                shutil.copyfile(self.path + "-wal", aside + "-wal")
            if shm is not None:
                Path(aside + "-shm").write_bytes(shm)
        except OSError:
            self._drop_copy(aside)                # never a cut copy that looks like a kept one
            raise
        return aside

    def _set_aside_rows(self, bad: list[tuple[str, int, str, str]], copy: str) -> None:
        with self.db:
            for table, rowid, problem, raw in bad:
                self.db.execute("INSERT INTO set_aside (set_aside_at, source, row_id, problem, copy, raw) "
                                "VALUES (?, ?, ?, ?, ?, ?)", (time.time(), table, rowid, problem, copy, raw))
                self.db.execute(f"DELETE FROM {table} WHERE rowid = ?", (rowid,))
                if table == "games":      # its event game id is retired: never sent again, never another game's
                    self.db.execute("DELETE FROM event_games WHERE games_id = ?", (rowid,))
        for table, rowid, problem, _ in bad:
            what = f"game result {rowid}" if table == "games" else "the saved game in progress"
            self._say(f"Put aside {what}: {problem}.")
        self._say(f"{len(bad)} damaged row{'s' * (len(bad) != 1)} of the results file put aside "
                  f"(table set_aside); the file as it was is kept as {copy}.")

    def _put_aside_now(self, bad: list[tuple[str, int, str, str]]) -> None:
        """Rows found damaged while running: copy the file first, then put them aside."""
        copy = ""
        if self.path != ":memory:":
            try:
                self.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                copy = self._copy_aside(self._read_shm())
            except (OSError, sqlite3.Error) as exc:
                self._say(f"Could not copy the results file before putting rows aside: {exc}")
                return
        try:
            self._set_aside_rows(bad, copy)
        except sqlite3.Error as exc:
            self._say(f"Could not put damaged rows aside: {exc}")

    def set_aside(self) -> list[SetAside]:
        """What was put aside, newest first: ``{"source", "row_id", "problem", "copy", "at"}``."""
        rows = self.db.execute("SELECT CAST(source AS BLOB), row_id, CAST(problem AS BLOB), CAST(copy AS BLOB), "
                               "set_aside_at FROM set_aside ORDER BY id DESC").fetchall()
        return [{"source": bytes(s).decode("utf-8", "replace"), "row_id": r,
                 "problem": bytes(p).decode("utf-8", "replace"), "copy": bytes(c).decode("utf-8", "replace"),
                 "at": t} for s, r, p, c, t in rows]

    # -- results -------------------------------------------------------------------
    def save(self, record: dict[str, object], winners: tuple[int, ...], reason: str,
             scores: tuple[float, ...], game_key: str | None = None) -> int:
        """Save one finished game; returns its id.

        ``game_key`` (the game's id, as in the resume slot) makes the save happen once:
        a second save with the same key returns the first one's id, and the resume slot
        of that game is cleared in the same transaction.

        With ``outbox_hook`` set (an event, kiosk/event/link.py), the game's event message
        and game id are written in the same transaction (a game saved once is sent once).

        Raises:
            NotSavedYet: the disk is full: the game is kept in memory (:attr:`pending`) and
                written once there is space; the message says "not saved yet".
            StorageError: the write failed otherwise (file removed...).
        """
        self.flush_pending()
        try:
            return self._save(record, winners, reason, scores, game_key)
        except StorageError as exc:
            if not exc.no_space:
                raise
            self.pending.append((record, tuple(winners), reason, tuple(scores), game_key, time.time()))
            raise NotSavedYet(f"Result not saved yet: the disk of {self.path} is full. It is kept in memory "
                              f"({len(self.pending)} waiting) and written as soon as there is space.") from None

    def flush_pending(self) -> None:
        """Write the games kept in memory while the disk was full, oldest first (stops at the
        first that still does not fit)."""
        if not self.pending:
            return
        written = 0
        while self.pending:
            record, winners, reason, scores, game_key, finished = self.pending[0]
            try:
                self._save(record, winners, reason, scores, game_key, finished)
            except StorageError:
                break
            self.pending.pop(0)
            written += 1
        if written:
            self._say(f"{written} result{'s' * (written != 1)} kept in memory while the disk was full "
                      f"{'are' if written != 1 else 'is'} now saved in {self.path}.")

    def _save(self, record: dict[str, object], winners: tuple[int, ...], reason: str,
              scores: tuple[float, ...], game_key: str | None = None, finished_at: float | None = None) -> int:
        uid = ""
        try:
            finished = time.time() if finished_at is None else finished_at
            with self.db:
                if game_key is not None:
                    row = self.db.execute("SELECT id FROM games WHERE game_key = ?", (game_key,)).fetchone()
                    if row is not None:
                        self.db.execute("DELETE FROM resume WHERE game_key = ?", (game_key,))
                        return int(row[0])
                game, seats = record_head(record)
                cells = (float(finished), game, seats, json.dumps(list(winners)), reason,
                         json.dumps(list(scores)), json.dumps(record), game_key)
                cur = self.db.execute(
                    "INSERT INTO games (finished_at, game, seats, winners, reason, scores, record, game_key, "
                    "checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (*cells, row_checksum(*cells)))
                saved = int(cur.lastrowid or 0)
                if game_key is not None:
                    self.db.execute("DELETE FROM resume WHERE game_key = ?", (game_key,))
                if self.outbox_hook is not None and not record.get("demo"):   # a demo's game stays home
                    uid, event, topic, payload = self.outbox_hook(saved, finished, record, tuple(winners), reason,
                                                                  tuple(scores))
                    self.db.execute("INSERT INTO outbox (game_uid, topic, payload, created_at) VALUES (?, ?, ?, ?)",
                                    (uid, topic, payload, finished))
                    self.db.execute("INSERT INTO event_games (game_uid, games_id, event) VALUES (?, ?, ?)",
                                    (uid, saved, event))
        except sqlite3.Error as exc:
            failed = StorageError(f"could not save the game to {self.path}: {exc}")
            failed.no_space = any(w in str(exc).lower() for w in _NO_SPACE)
            raise failed from None
        self.last_id = saved
        self._checkpoint()
        if uid and self.outbox_committed is not None:
            self.outbox_committed(uid)
        return saved

    def _checkpoint(self) -> None:
        """A finished game goes into the main file at once (issue 23): a damaged journal can
        then lose at most the steps of the game in progress."""
        self._since_checkpoint = (0, time.monotonic())
        if self.path == ":memory:":
            return
        try:
            # never waits for another connection (the event link's): the frame goes on at once;
            # a busy checkpoint copies what it can and SQLite restarts the journal later
            self.db.execute("PRAGMA busy_timeout = 0")
            try:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            finally:
                self.db.execute("PRAGMA busy_timeout = 2000")
        except sqlite3.Error as exc:
            log.info("checkpoint of %s after a game: %s", self.path, exc)

    def recent(self, limit: int = 10) -> list[dict[str, Any]]:
        """The latest games, newest first (without their records), each a :class:`GameRow`
        as a plain dict (the attract screen's rows are loosely typed); every value checked.

        A row that cannot be read back is put aside (see the module docstring) and
        left out; :attr:`notices` says so.

        Raises:
            StorageError: the file cannot be read (damaged since it was opened).
        """
        self.flush_pending()
        try:
            rows = self.db.execute(f"SELECT {GAME_CELLS}, checksum, {GAME_SUM_CELLS} FROM games "
                                   "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        except sqlite3.Error as exc:
            raise StorageError(f"could not read the results from {self.path}: {exc}") from None
        out: list[GameRow] = []
        bad = []
        for record, winners, reason, scores, _, finished in reversed(self.pending):   # newest first
            game, seats = record_head(record)
            out.append({"id": 0, "finished_at": finished, "game": game, "seats": seats,
                        "winners": list(winners), "reason": f"{reason}; not saved yet", "scores": list(scores),
                        "saved": False})
        for row in rows:
            try:
                summary = check_game_row(row[:7])
                check_checksum(row[7], *row[8:])
                out.append(summary)
            except ValueError as exc:
                bad.append(("games", row[0], str(exc), repr(row[:7])[:2000]))
        if bad:
            self._put_aside_now(bad)
        return [dict(row) for row in out[:limit]]

    def record(self, game_id: int) -> dict[str, object]:
        """The JSON record of game ``game_id``.

        Raises:
            KeyError: no such game, or its record could not be read back (then it is put aside).
            StorageError: the file cannot be read.
        """
        try:
            row = self.db.execute("SELECT CAST(record AS BLOB), CAST(game AS BLOB), seats, checksum, "
                                  f"{GAME_SUM_CELLS} FROM games WHERE id = ?", (game_id,)).fetchone()
        except sqlite3.Error as exc:
            raise StorageError(f"could not read the results from {self.path}: {exc}") from None
        if row is None:
            raise KeyError(f"no game {game_id}")
        try:
            rec = check_record(row[0], _text(row[1], "game"), row[2])
            check_checksum(row[3], *row[4:])
            return rec
        except ValueError as exc:
            self._put_aside_now([("games", game_id, str(exc), repr(row[1:3])[:2000])])
            raise KeyError(f"game {game_id}'s record could not be read ({exc}); it was put aside") from None

    # -- the game in progress (kiosk/persist/resume.py) ------------------------------------
    def save_resume(self, game_key: str, data: Mapping[str, object]) -> None:
        """Keep the game in progress (one slot; one transaction).

        Raises:
            StorageError: the write failed.
        """
        self.flush_pending()
        try:
            with self.db:
                cells = (game_key, time.time(), json.dumps(data))
                self.db.execute("INSERT INTO resume (slot, game_key, saved_at, data, checksum) VALUES (1, ?, ?, ?, ?) "
                                "ON CONFLICT (slot) DO UPDATE SET game_key = excluded.game_key, "
                                "saved_at = excluded.saved_at, data = excluded.data, checksum = excluded.checksum",
                                (*cells, row_checksum(*cells)))
        except sqlite3.Error as exc:
            raise StorageError(f"could not keep the game in progress in {self.path}: {exc}") from None
        steps, since = self._since_checkpoint
        now = time.monotonic()
        if steps + 1 >= RESUME_CHECKPOINT_STEPS or now - since >= RESUME_CHECKPOINT_S:
            self._checkpoint()           # a lost journal then loses only the steps since (issue 23)
        else:
            self._since_checkpoint = (steps + 1, since)

    def load_resume(self) -> dict[str, object] | None:
        """The interrupted game (its data plus ``game_key`` and ``saved_at``), or None.

        A slot that cannot be read back is put aside (None).  A slot whose game was
        already stored as finished is dropped (None).
        """
        try:
            row = self.db.execute("SELECT rowid, CAST(game_key AS BLOB), saved_at, CAST(data AS BLOB), checksum "
                                  "FROM resume WHERE slot = 1").fetchone()
        except sqlite3.Error as exc:
            raise StorageError(f"could not read the game in progress from {self.path}: {exc}") from None
        if row is None:
            return None
        try:
            data = check_resume(row[1], row[2], row[3])
            check_checksum(row[4], row[1], row[2], row[3])
            for key in ("family", "mode", "seed", "seats", "actions"):
                if key not in data:
                    raise ValueError(f"data has no {key}")
            if not isinstance(data["actions"], list) or not isinstance(data["seats"], list):
                raise ValueError("data's actions or seats is not a list")
        except ValueError as exc:
            self._put_aside_now([("resume", row[0], str(exc), repr(row[1:3])[:2000])])
            return None
        done = self.db.execute("SELECT 1 FROM games WHERE game_key = ?", (data["game_key"],)).fetchone()
        if done:
            self.drop_resume(str(data["game_key"]))
            return None
        return data

    def put_resume_aside(self, game_key: str | None, problem: str) -> None:
        """The game in progress could be read but not played again (``problem``): move its slot,
        as saved, into ``set_aside`` (nothing is lost; the next start offers no resume).

        Raises:
            StorageError: the write failed.
        """
        try:
            with self.db:
                row = self.db.execute("SELECT rowid, CAST(game_key AS BLOB), CAST(data AS BLOB) FROM resume "
                                      "WHERE slot = 1").fetchone()
                if row is None or (game_key is not None and bytes(row[1]).decode("utf-8", "replace") != game_key):
                    return
                self.db.execute("INSERT INTO set_aside (set_aside_at, source, row_id, problem, copy, raw) "
                                "VALUES (?, 'resume', ?, ?, '', ?)",
                                (time.time(), row[0], problem, bytes(row[2]).decode("utf-8", "replace")))
                self.db.execute("DELETE FROM resume WHERE rowid = ?", (row[0],))
        except sqlite3.Error as exc:
            raise StorageError(f"could not put the game in progress aside in {self.path}: {exc}") from None

    def drop_resume(self, game_key: str | None = None) -> None:
        """Forget the game in progress (``game_key``: only if it is that game)."""
        try:
            with self.db:
                if game_key is None:
                    self.db.execute("DELETE FROM resume")
                else:
                    self.db.execute("DELETE FROM resume WHERE game_key = ?", (game_key,))
        except sqlite3.Error as exc:
            raise StorageError(f"could not drop the game in progress from {self.path}: {exc}") from None

    def close(self) -> None:
        """Write the journal into the file and close it: a clean close leaves no ``-wal``
        (SQLite removes it when the last connection closes; the checkpoint first makes the
        file whole also when another connection, the event link's, is still open)."""
        if self.path != ":memory:":
            try:
                self.flush_pending()
            except sqlite3.Error:
                pass
            self._keep_unsaved()
            try:
                with self.db:              # a clean close: the next start looks for no journal (issue 23)
                    self.db.execute("DELETE FROM meta WHERE key = ? AND value = ?", (IN_USE, self._mark))
            except sqlite3.Error as exc:
                log.info("unmarking %s: %s", self.path, exc)
            try:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            except sqlite3.Error as exc:
                log.warning("closing the results file: %s", exc)
        self.db.close()

    def _disk_full(self) -> bool:
        """Whether the file's disk has less than a few pages free (SQLite may then say "disk
        I/O error", from its shared memory file, rather than "full")."""
        try:
            st = os.statvfs(Path(self.path).parent)
        except OSError:
            return False
        return st.f_bavail * st.f_frsize < 64 * 1024

    def _make_reserve(self) -> None:
        """Keep :data:`RESERVE_BYTES` of the disk beside the file (``<file>.reserve``), freed
        at a stop on a full disk so that the results still in memory can be written."""
        reserve = Path(self.path + RESERVE)
        try:
            if reserve.exists() and reserve.stat().st_size == RESERVE_BYTES:
                return
            with open(reserve, "wb") as f:
                f.write(b"\0" * RESERVE_BYTES)
                f.flush()
                os.fsync(f.fileno())
        except OSError:
            reserve.unlink(missing_ok=True)            # no room for it now: made at a later start

    def unsaved_paths(self) -> list[Path]:
        """The files of results that could not be written before a stop (oldest first)."""
        p = Path(self.path)
        return sorted(p.parent.glob(p.name + ".unsaved-*.json"))

    def _keep_unsaved(self) -> None:
        """At a stop with results still in memory (the disk was full): write them beside the
        file as ``<file>.unsaved-<time>.json`` (a few hundred bytes, where a database page
        may not fit); when even that fails, each goes into the journal as JSON.  The next
        start saves them into the store (:meth:`_save_unsaved`)."""
        if not self.pending:
            return
        rows = [{"record": rec, "winners": list(w), "reason": reason, "scores": list(sc), "game_key": key,
                 "finished_at": at} for rec, w, reason, sc, key, at in self.pending]
        text = json.dumps({"focus_arcade_unsaved": 1, "games": rows})
        target = Path(f"{self.path}.unsaved-{int(time.time())}-{len(self.unsaved_paths())}.json")
        from kiosk.config import atomic_write
        try:
            try:
                atomic_write(target, text.encode("utf-8"))
            except OSError:
                # the full disk: the reserve kept for this moment makes the room
                Path(self.path + RESERVE).unlink(missing_ok=True)
                atomic_write(target, text.encode("utf-8"))
            log.warning("%d result(s) could not be saved before the stop (the disk of %s is full); they are kept "
                        "in %s and saved into the results file at the next start", len(rows), self.path, target)
        except OSError as exc:
            log.error("%d result(s) could not be saved before the stop (the disk of %s is full, and %s could not "
                      "be written: %s); each follows as JSON", len(rows), self.path, target, exc.strerror or exc)
            for row in rows:
                log.error("unsaved result: %s", json.dumps(row))
        self.pending = []

    def _save_unsaved(self) -> None:
        """Results kept beside the file at a stop (:meth:`_keep_unsaved`) go into the store,
        each once (by its game key); a file that does not read is left where it is and told."""
        saved = 0
        for f in self.unsaved_paths():
            try:
                data = json.loads(f.read_text("utf-8"))
                rows = data["games"]
                for row in rows:
                    check_record(json.dumps(row["record"]))
                    self._save(row["record"], tuple(row["winners"]), str(row["reason"]), tuple(row["scores"]),
                               row.get("game_key"), float(row["finished_at"]))
                    saved += 1
            except StorageError as exc:
                self._say(f"Results kept in {f} while the disk was full could not be saved yet ({exc}).")
                return
            except (OSError, ValueError, KeyError, TypeError) as exc:
                self._say(f"Results kept in {f} while the disk was full could not be read ({exc}); the file is left "
                          "as it is.")
                continue
            f.unlink(missing_ok=True)
        if saved:
            self._say(f"{saved} result{'s' * (saved != 1)} kept while the disk was full at the last stop "
                      f"{'are' if saved != 1 else 'is'} now saved in {self.path}.")


def check_resume(key: object, saved_at: object, data: object) -> dict[str, object]:
    """The resume slot's cells as ``{"game_key", "saved_at", ...data}``.

    Raises:
        ValueError: a cell cannot be read back (the message names it).
    """
    game_key = _text(key, "game_key")
    if not game_key or len(game_key) > 100:
        raise ValueError("game_key is not a game id")
    if not _number(saved_at):
        raise ValueError("saved_at is not a time")
    body = _json(data, "data")
    if not isinstance(body, dict):
        raise ValueError("data is not an object")
    return {**body, "game_key": game_key, "saved_at": saved_at}
