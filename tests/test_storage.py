"""The results store (kiosk/persist/storage.py): finished games in a local SQLite file.

What the admin notices: every finished game is listed newest first and its
record replays; results survive a restart; a damaged file never stops the
kiosk: it is kept aside (with a notice on screen) and a new one is started.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from arcade import registry as games
from arcade.core.record import replay, to_record
from arcade.focusx.autoplay import SimConfig, first_legal, simulate
from arcade.focusx.classic import ClassicGame
from kiosk.persist.storage import Results, StorageError


def a_record(seats: int = 3, seed: int = 5) -> tuple[dict[str, object], tuple[int, ...], str, tuple[float, ...]]:
    state = ClassicGame(seats).new_initial_state()
    simulate(state, random.Random(seed), SimConfig(skills=["hard"] * seats), first_legal)
    out = state.outcome()
    assert out is not None
    return to_record(state, seed), out.winners, out.reason, out.scores


def test_save_recent_record_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "arcade.sqlite3"       # parent folders are created
    r = Results(path)
    assert r.notice == "" and r.recent() == []
    saved = []
    for seed in (1, 2, 3):
        rec, winners, reason, scores = a_record(seed=seed)
        saved.append((r.save(rec, winners, reason, scores), rec, winners, reason, scores))
    recent = r.recent()
    assert [g["id"] for g in recent] == [s[0] for s in reversed(saved)]          # newest first
    for row, (gid, rec, winners, reason, scores) in zip(recent, reversed(saved)):
        assert row["game"] == "focusx-classic" and row["seats"] == 3
        assert row["winners"] == list(winners) and row["reason"] == reason and row["scores"] == list(scores)
        assert r.record(gid) == json.loads(json.dumps(rec))
        assert replay(r.record(gid), games.make).snapshot()["victory"] == replay(rec, games.make).snapshot()["victory"]
    assert len(r.recent(limit=2)) == 2
    with pytest.raises(KeyError):
        r.record(999)
    r.close()
    # A restart finds everything again.
    again = Results(path)
    assert [g["id"] for g in again.recent()] == [s[0] for s in reversed(saved)]
    again.close()


def test_an_in_memory_store_for_tests() -> None:
    r = Results(":memory:")
    rec, winners, reason, scores = a_record(2, 9)
    gid = r.save(rec, winners, reason, scores)
    assert r.recent()[0]["id"] == gid and r.record(gid)["seats"] == 2


def test_a_damaged_file_is_moved_aside_with_a_notice_and_a_new_one_works(tmp_path: Path) -> None:
    path = tmp_path / "arcade.sqlite3"
    garbage = b"this is not a database " * 200
    path.write_bytes(garbage)
    r = Results(path)
    assert "damaged" in r.notice and "new one" in r.notice
    asides = list(tmp_path.glob("arcade.sqlite3.damaged-*"))
    assert len(asides) == 1 and asides[0].read_bytes() == garbage and str(asides[0]) in r.notice
    rec, winners, reason, scores = a_record()
    gid = r.save(rec, winners, reason, scores)
    assert r.recent()[0]["id"] == gid
    r.close()
    # A second damage in the same second keeps both damaged copies.
    path.write_bytes(garbage)
    r = Results(path)
    assert len(list(tmp_path.glob("arcade.sqlite3.damaged-*"))) == 2
    r.close()


def test_a_truncated_database_is_moved_aside_with_its_write_ahead_log(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    r = Results(live)
    rec, winners, reason, scores = a_record()
    for _ in range(60):
        r.save({**rec, "pad": "x" * 3000}, winners, reason, scores)
    r.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    # A finished game goes into the main file at once (issue 23); the step of the game in
    # progress lives in the -wal file.
    r.save_resume("in-progress", {"family": "focusx", "mode": "classic", "seed": 1, "seats": [], "actions": []})
    # A power cut: the files as they are on disk now, the main file cut in half.
    path = tmp_path / "arcade.sqlite3"
    data = live.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    wal = Path(str(live) + "-wal").read_bytes()
    assert wal
    Path(str(path) + "-wal").write_bytes(wal)
    r.close()
    fresh = Results(path)
    assert "damaged" in fresh.notice
    aside = next(p for p in tmp_path.glob("arcade.sqlite3.damaged-*") if not p.name.endswith(("-wal", "-shm")))
    assert aside.read_bytes() == data[: len(data) // 2]
    assert Path(str(aside) + "-wal").read_bytes() == wal    # the log stays with the damaged copy
    assert fresh.recent() == []                            # the new file starts empty, and works
    assert fresh.save(rec, winners, reason, scores) == 1
    fresh.close()


def test_a_path_that_cannot_be_opened_is_a_storage_error_and_is_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "arcade.sqlite3"
    folder.mkdir()
    with pytest.raises(StorageError) as err:
        Results(folder)
    assert str(folder) in str(err.value) and isinstance(err.value, OSError)
    assert folder.is_dir() and list(tmp_path.iterdir()) == [folder]         # not moved aside


def test_a_failed_write_is_a_storage_error(tmp_path: Path) -> None:
    r = Results(tmp_path / "a.sqlite3")
    r.db.close()
    rec, winners, reason, scores = a_record()
    with pytest.raises(StorageError, match="could not save the game"):
        r.save(rec, winners, reason, scores)
    with pytest.raises(StorageError, match="could not read the results"):
        r.recent()
    with pytest.raises(sqlite3.Error):
        r.db.execute("SELECT 1")


def test_a_file_with_another_programs_games_table_is_kept_aside(tmp_path: Path) -> None:
    import sqlite3
    path = tmp_path / "arcade.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (name TEXT, score INTEGER)")
    db.execute("INSERT INTO games VALUES ('pacman', 3333360)")
    db.commit()
    db.close()
    results = Results(path)
    assert "other columns" in results.notice
    game_id = results.save({"game": "focusx-classic", "seats": 2}, (0,), "most cards", (20.0, 10.0))
    assert results.recent(1)[0]["id"] == game_id
    kept = [p for p in tmp_path.iterdir() if ".damaged-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    assert len(kept) == 1
    old = sqlite3.connect(kept[0])
    assert old.execute("SELECT name FROM games").fetchall() == [("pacman",)]
    old.close()
