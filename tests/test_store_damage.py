"""No file can stop the start (issue 11): the results store (kiosk/persist/storage.py).

What the operator notices: a result the arcade cannot read back no longer makes
the title screen fail at every start; the row is put aside (the file as it was
is copied byte for byte first, with its -wal and -shm), the title screen and the
journal say what was put aside and where the copy is, and the other results are
still listed.  A file that cannot be written is reported at start.
"""

from __future__ import annotations

import logging
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arcade.core.record import to_record
from arcade.focusx.autoplay import SimConfig, first_legal, simulate
from arcade.focusx.classic import ClassicGame
from kiosk.persist.storage import SCHEMA_VERSION, Results, StorageError
from kiosk.scenes.attract import AttractScene
from tests.kiosk_start import config_for, start_kiosk


def a_game(seed: int, seats: int = 3) -> tuple[dict[str, object], tuple[int, ...], str, tuple[float, ...]]:
    state = ClassicGame(seats).new_initial_state()
    simulate(state, random.Random(seed), SimConfig(skills=["hard"] * seats), first_legal)
    out = state.outcome()
    assert out is not None
    return to_record(state, seed), out.winners, out.reason, out.scores


def store_with_damage(folder: Path, damage: str, args: tuple[object, ...] = ()) -> tuple[Path, dict[str, bytes]]:
    """A store of three games, the newest damaged by ``damage`` (SQL on game 3), as a power
    cut leaves it: the files copied while the arcade still had them open (-wal, -shm).
    Returns the path and the bytes of the three files."""
    live = folder / "live"
    live.mkdir()
    r = Results(live / "arcade.sqlite3")
    for seed in (1, 2, 3):
        r.save(*a_game(seed))
    r.db.execute(damage, args)
    r.db.commit()
    folder = folder / "store"
    folder.mkdir()
    files = {}
    for extra in ("", "-wal", "-shm"):
        src = live / f"arcade.sqlite3{extra}"
        if src.exists():
            files[extra] = src.read_bytes()
            (folder / f"arcade.sqlite3{extra}").write_bytes(files[extra])
    r.close()
    check = sqlite3.connect(f"file:{folder / 'arcade.sqlite3'}?mode=ro", uri=True)    # read-only: no checkpoint
    assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)      # SQLite sees no damage
    check.close()
    # The files as the next start finds them (the check may have rebuilt the -shm index).
    files = {extra: (folder / f"arcade.sqlite3{extra}").read_bytes() for extra in files}
    return folder / "arcade.sqlite3", files


DAMAGES = [
    ("UPDATE games SET winners = '[0, ' WHERE id = 3", "winners is not readable JSON"),
    ("UPDATE games SET scores = CAST(X'5B31FF5D' AS TEXT) WHERE id = 3", "scores is not UTF-8"),
    ("UPDATE games SET record = '{\"game\": ' WHERE id = 3", "record is not a readable game record"),
    ("UPDATE games SET winners = '[7]' WHERE id = 3", "winners is not a list of seats"),
    ("UPDATE games SET seats = 'three' WHERE id = 3", "seats is not 1 to 8"),
    ("UPDATE games SET reason = X'00FF' WHERE id = 3", "reason is not UTF-8"),
    ("UPDATE games SET record = '{\"game\": \"sherlook\", \"seats\": 3, \"actions\": []}' WHERE id = 3",
     "record is not a readable game record"),
    ("UPDATE games SET record = CAST(X'7BFF7D' AS TEXT) WHERE id = 3", "record is not a readable game record"),
]


@pytest.mark.parametrize("damage, problem", DAMAGES, ids=[p for _, p in DAMAGES])
def test_a_damaged_cell_in_a_recent_result_is_put_aside_and_the_title_comes_up(
        tmp_path: Path, damage: str, problem: str, caplog: pytest.LogCaptureFixture) -> None:
    path, before = store_with_damage(tmp_path, damage)
    assert "-wal" in before
    caplog.set_level(logging.WARNING, "focus-arcade")
    app = start_kiosk(config_for(None, path))
    try:
        title = app.scenes[-1]
        assert isinstance(title, AttractScene)
        # The other results are still listed; the damaged one is not.
        assert [g["id"] for g in title.recent] == [2, 1]
        # The operator is told on screen, on the title screen, and in the journal.
        shown = " ".join(m for m, _ in app.messages)
        assert "Put aside game result 3" in shown and problem in shown
        assert any("put aside" in n for n in title.store_notices)
        assert "Put aside game result 3" in caplog.text
        # The file as it was, byte for byte, with its -wal and -shm, is named in the message.
        copies = sorted(p for p in tmp_path.joinpath("store").iterdir() if ".damaged-" in p.name)
        main_copy = next(p for p in copies if not p.name.endswith(("-wal", "-shm")))
        assert str(main_copy) in shown
        for extra, data in before.items():
            assert Path(f"{main_copy}{extra}").read_bytes() == data
        # The row itself is kept in the file (set_aside table) with the problem.
        aside = app.results.set_aside()
        assert [(a["source"], a["row_id"]) for a in aside] == [("games", 3)] and problem in aside[0]["problem"]
        # The store still works: a new game is saved and listed.
        gid = app.results.save(*a_game(9))
        assert app.results.recent(1)[0]["id"] == gid
    finally:
        app.close()
    # The next start is clean: nothing more to put aside, no new copy.
    again = Results(path)
    assert again.notices == [] and [g["id"] for g in again.recent()] == [gid, 2, 1]
    assert again.db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    again.close()
    assert len([p for p in tmp_path.joinpath("store").iterdir() if ".damaged-" in p.name]) == len(copies)


def test_a_result_damaged_while_running_is_put_aside_when_read(tmp_path: Path) -> None:
    r = Results(tmp_path / "arcade.sqlite3")
    for seed in (1, 2):
        r.save(*a_game(seed))
    r.db.execute("UPDATE games SET scores = 'NaN' WHERE id = 2")
    r.db.commit()
    assert [g["id"] for g in r.recent()] == [1]
    assert "Put aside game result 2" in r.notice
    with pytest.raises(KeyError):
        r.record(2)
    r.db.execute("UPDATE games SET record = '[1, 2' WHERE id = 1")
    r.db.commit()
    with pytest.raises(KeyError, match="put aside"):
        r.record(1)
    assert {a["row_id"] for a in r.set_aside()} == {1, 2} and r.recent() == []
    r.close()


def test_an_old_file_is_brought_to_the_current_schema_keeping_its_games(tmp_path: Path) -> None:
    path = tmp_path / "arcade.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""CREATE TABLE games (id INTEGER PRIMARY KEY, finished_at REAL NOT NULL, game TEXT NOT NULL,
        seats INTEGER NOT NULL, winners TEXT NOT NULL, reason TEXT NOT NULL, scores TEXT NOT NULL,
        record TEXT NOT NULL);
        INSERT INTO games VALUES (1, 1.5, 'focusx-classic', 2, '[0]', 'most cards', '[3, 1]',
        '{"game": "focusx-classic", "seats": 2, "actions": []}');""")
    db.commit()
    db.close()
    r = Results(path)
    assert r.notices == [] and r.recent()[0]["scores"] == [3, 1]
    assert r.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    r.close()


def test_a_file_from_a_newer_arcade_is_kept_aside(tmp_path: Path) -> None:
    path = tmp_path / "arcade.sqlite3"
    Results(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    r = Results(path)
    assert "newer Focus Arcade" in r.notice and r.recent() == []
    r.close()


def test_a_finished_game_with_a_key_is_stored_once(tmp_path: Path) -> None:
    r = Results(tmp_path / "arcade.sqlite3")
    game = a_game(4)
    first = r.save(*game, game_key="g-1")
    assert r.save(*game, game_key="g-1") == first
    assert [g["id"] for g in r.recent()] == [first]
    r.close()


UNWRITABLE = r"""
import resource, signal, sys
from kiosk.persist.storage import Results, StorageError
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))     # no file may grow past this: a full disk
try:
    Results(sys.argv[1])
    print("NOT REPORTED")
except StorageError as exc:
    print("REPORTED:", exc)
"""


def test_a_full_disk_is_reported_at_start(tmp_path: Path) -> None:
    limit, says = 1, "could not open"
    path = tmp_path / "arcade.sqlite3"
    r = Results(path)
    r.save(*a_game(1))
    r.close()
    out = subprocess.run([sys.executable, "-c", UNWRITABLE, str(path), str(limit)], capture_output=True,
                         text=True, timeout=60, cwd=Path(__file__).parent.parent)
    assert "REPORTED:" in out.stdout, out.stdout + out.stderr
    assert says in out.stdout and str(path) in out.stdout


def test_the_kiosk_starts_with_a_store_it_cannot_write_and_says_so(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Results) -> None:
        raise sqlite3.OperationalError("attempt to write a readonly database")
    monkeypatch.setattr(Results, "_probe", refuse)
    app = start_kiosk(config_for(None, tmp_path / "arcade.sqlite3"))
    try:
        shown = " ".join(m for m, _ in app.messages)
        assert "Results will not be saved" in shown and "readonly" in shown
        assert isinstance(app.scenes[-1], AttractScene) and app.results is not None
        app.results.save(*a_game(2))                   # kept in memory for this session
        assert len(app.results.recent()) == 1
    finally:
        app.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_a_read_only_folder_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "ro" / "arcade.sqlite3"
    Results(path).close()
    (tmp_path / "ro").chmod(0o555)
    try:
        with pytest.raises(StorageError, match="cannot be written|could not open"):
            Results(path)
    finally:
        (tmp_path / "ro").chmod(0o755)


def test_a_row_put_aside_from_a_cleanly_closed_file_keeps_only_the_files_that_were_there(tmp_path: Path) -> None:
    """Issue 23: after a clean close there is no ``-wal``; the kept set had an
    ``arcade.sqlite3.damaged-<t>-wal`` of 0 bytes that never existed (made by the start's
    read-only check).  Kept: exactly the files that were there, byte for byte."""
    path = tmp_path / "arcade.sqlite3"
    r = Results(path)
    for seed in (1, 2):
        r.save(*a_game(seed))
    r.db.execute("UPDATE games SET winners = '[0, ' WHERE id = 2")
    r.db.commit()
    r.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arcade.sqlite3", "arcade.sqlite3.reserve"]
    before = path.read_bytes()
    again = Results(path)
    try:
        assert "Put aside game result 2" in again.notice
        kept = sorted(p.name for p in tmp_path.iterdir() if ".damaged-" in p.name)
        assert len(kept) == 1 and not kept[0].endswith(("-wal", "-shm")), kept
        assert (tmp_path / kept[0]).read_bytes() == before
    finally:
        again.close()
