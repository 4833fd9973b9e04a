"""A value changed by damage is found, never shown as a result (issue 23, kiosk/persist/storage.py).

Cells that still read as well-formed values (a score digit flipped, a winner list that is
still a list of seats) passed every shape check: the title screen and the high scores
showed the damaged value as if it had been played.  Each row now carries the checksum of
its cells as saved (schema 3): such a row is put aside like any other damaged row (the
file copied byte for byte first), and the operator is told.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from kiosk.persist.storage import SCHEMA_VERSION, Results
from tests.test_store_damage import a_game, store_with_damage

#: Changes that every shape check accepts: only the checksum can tell.
PLAUSIBLE = [
    "UPDATE games SET scores = '[9, 0, 0]' WHERE id = 3",
    "UPDATE games SET winners = '[1]' WHERE id = 3",
    "UPDATE games SET finished_at = finished_at + 86400 WHERE id = 3",
    "UPDATE games SET reason = 'most cards (changed)' WHERE id = 3",
    "UPDATE games SET record = json_set(record, '$.seed', 12345) WHERE id = 3",
]


@pytest.mark.parametrize("damage", PLAUSIBLE)
def test_a_plausible_changed_value_is_put_aside_and_told(tmp_path: Path, damage: str) -> None:
    path, before = store_with_damage(tmp_path, damage)
    r = Results(path)
    try:
        assert [g["id"] for g in r.recent()] == [2, 1]
        assert "Put aside game result 3" in r.notice and "not the ones saved" in r.notice
        aside = r.set_aside()
        assert [(a["source"], a["row_id"]) for a in aside] == [("games", 3)]
        for extra, data in before.items():                     # the file as it was, byte for byte
            assert Path(aside[0]["copy"] + extra).read_bytes() == data
    finally:
        r.close()


def saved_store(path: Path, games: int = 5) -> list[dict[str, object]]:
    r = Results(path)
    for seed in range(1, games + 1):
        r.save(*a_game(seed))
    listed = r.recent(50)
    r.close()                                                   # everything in the main file, no -wal
    assert not Path(f"{path}-wal").exists()
    return listed


def test_a_flipped_digit_in_the_file_itself_is_found(tmp_path: Path) -> None:
    path = tmp_path / "arcade.sqlite3"
    listed = saved_store(path)
    scores = [g["scores"] for g in listed]
    data = bytearray(path.read_bytes())
    needle = repr(scores[0]).encode()                            # e.g. b"[7, 10, 2]": newest game's scores
    at = data.find(needle)
    assert at > 0
    digit = next(i for i in range(at, at + len(needle)) if chr(data[i]).isdigit())
    data[digit] = ord("9") if data[digit] != ord("9") else ord("8")
    path.write_bytes(bytes(data))
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone() == ("ok",)  # SQLite sees nothing
    r = Results(path)
    try:
        shown = r.recent(50)
        assert listed[0]["id"] not in {g["id"] for g in shown}
        assert [g["scores"] for g in shown] == scores[1:]        # the others exactly as saved
        assert "not the ones saved" in r.notice
    finally:
        r.close()


def test_random_damage_to_the_file_is_told_or_changes_nothing(tmp_path: Path) -> None:
    """Any one to three bytes of the main file changed: the arcade either says so, or lists
    exactly what was saved, with every record as saved.  Never a changed result in silence."""
    template = tmp_path / "template.sqlite3"
    saved_store(template)
    ref = Results(template)
    listed = ref.recent(50)
    records = {g["id"]: ref.record(g["id"]) for g in listed}
    ref.close()
    original = template.read_bytes()
    rng = random.Random(2026)
    silent_changes = []
    for n in range(150):
        data = bytearray(original)
        for _ in range(rng.randint(1, 3)):
            data[rng.randrange(100, len(data))] ^= 1 << rng.randrange(8)   # past the file header
        folder = tmp_path / f"d{n}"
        folder.mkdir()
        path = folder / "arcade.sqlite3"
        path.write_bytes(bytes(data))
        r = Results(path)
        try:
            shown = r.recent(50)
            same = shown == listed and all(r.record(g["id"]) == records[g["id"]] for g in shown)
            if not r.notices and not same:
                silent_changes.append(n)
        except KeyError:
            pass                                                 # a record put aside while read: told
        finally:
            r.close()
    assert silent_changes == []


def test_a_changed_game_in_progress_is_not_resumed_and_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "arcade.sqlite3"
    r = Results(path)
    r.save_resume("g-1", {"family": "focusx", "mode": "classic", "seed": 4, "seats": [{}, {}], "actions": [3, 1]})
    r.db.execute("UPDATE resume SET data = replace(data, '[3, 1]', '[3, 2]')")
    r.db.commit()
    r.close()
    again = Results(path)
    try:
        assert again.load_resume() is None
        assert "the saved game in progress" in again.notice and "not the ones saved" in again.notice
        assert [a["source"] for a in again.set_aside()] == ["resume"]
    finally:
        again.close()


def test_an_old_file_gets_checksums_for_the_games_it_keeps(tmp_path: Path) -> None:
    path = tmp_path / "arcade.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""CREATE TABLE games (id INTEGER PRIMARY KEY, finished_at REAL NOT NULL, game TEXT NOT NULL,
        seats INTEGER NOT NULL, winners TEXT NOT NULL, reason TEXT NOT NULL, scores TEXT NOT NULL,
        record TEXT NOT NULL, game_key TEXT);
        INSERT INTO games VALUES (1, 1.5, 'focusx-classic', 2, '[0]', 'most cards', '[3, 1]',
        '{"game": "focusx-classic", "seats": 2, "actions": []}', NULL);
        PRAGMA user_version = 2;""")
    db.commit()
    db.close()
    r = Results(path)
    assert r.notices == [] and r.recent()[0]["scores"] == [3, 1]        # kept, nothing said
    assert r.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    r.db.execute("UPDATE games SET scores = '[1, 3]'")
    r.db.commit()
    r.close()
    again = Results(path)
    try:
        assert again.recent() == [] and "not the ones saved" in again.notice
    finally:
        again.close()


# -- a journal left without its file (a power cut, a mistaken delete) -------------------------------

def cut_while_open(folder: Path) -> dict[str, bytes]:
    """A store of two finished games and a game in progress, copied while the arcade has it
    open (as a power cut leaves it): the game in progress is only in the -wal."""
    live = folder / "live"
    live.mkdir()
    r = Results(live / "arcade.sqlite3")
    for seed in (1, 2):
        r.save(*a_game(seed))
    r.save_resume("g-9", {"family": "focusx", "mode": "classic", "seed": 9, "seats": [{}, {}], "actions": [1]})
    files = {extra: (live / f"arcade.sqlite3{extra}").read_bytes() for extra in ("", "-wal", "-shm")
             if (live / f"arcade.sqlite3{extra}").exists()}
    r.close()
    assert len(files.get("-wal", b"")) > 32
    return files


@pytest.mark.parametrize("main", ["empty", "missing"])
def test_a_journal_beside_an_empty_or_missing_file_is_kept_and_told(tmp_path: Path, main: str) -> None:
    files = cut_while_open(tmp_path)
    store = tmp_path / "store"
    store.mkdir()
    path = store / "arcade.sqlite3"
    for extra in ("-wal", "-shm"):
        if extra in files:
            Path(f"{path}{extra}").write_bytes(files[extra])
    if main == "empty":
        path.write_bytes(b"")
    r = Results(path)
    try:
        said = r.notice
        assert ("is empty (0 bytes)" if main == "empty" else "is missing") in said and "journal" in said
        kept = [p for p in store.iterdir() if p.name.endswith("-wal") and ".damaged-" in p.name]
        assert len(kept) == 1 and kept[0].read_bytes() == files["-wal"]          # byte for byte
        assert kept[0].name[:-4] in said
        assert r.recent() == [] and r.load_resume() is None                       # a new store, said so
    finally:
        r.close()
    again = Results(path)                                                          # and only once
    try:
        assert again.notices == []
    finally:
        again.close()


def test_a_demo_game_is_never_queued_for_the_hall(tmp_path: Path) -> None:
    """``focus-arcade demo`` on a cabinet at an event: simulated games stay on the cabinet."""
    r = Results(tmp_path / "arcade.sqlite3")
    sent: list[int] = []

    def hook(gid: int, *rest: object) -> tuple[str, str, str, str]:
        sent.append(gid)
        return f"uid-{gid}", "ev", "topic", "{}"
    r.outbox_hook = hook
    try:
        record, winners, reason, scores = a_game(1)
        r.save({**record, "demo": True}, winners, reason, scores)
        r.save(record, winners, reason, scores)
        assert sent == [2]
        assert r.db.execute("SELECT count(*) FROM outbox").fetchone() == (1,)
    finally:
        r.close()


@pytest.mark.parametrize("journal", ["deleted", "emptied"])
def test_a_journal_deleted_or_emptied_with_saved_changes_is_told(tmp_path: Path, journal: str) -> None:
    files = cut_while_open(tmp_path)                 # the game in progress only in the -wal
    assert "-shm" in files
    store = tmp_path / "store"
    store.mkdir()
    path = store / "arcade.sqlite3"
    path.write_bytes(files[""])
    Path(f"{path}-shm").write_bytes(files["-shm"])
    if journal == "emptied":
        Path(f"{path}-wal").write_bytes(b"")
    r = Results(path)
    try:
        assert r.load_resume() is None               # gone with the journal ...
        said = r.notice
        assert "journal" in said and ("is missing" if journal == "deleted" else "cut to 0 bytes") in said
        assert "game in progress" in said            # ... and said so
        assert len(r.recent()) == 2                  # the finished games, in the main file, stay
    finally:
        r.close()


def test_a_journal_left_whole_is_not_reported(tmp_path: Path) -> None:
    files = cut_while_open(tmp_path)
    store = tmp_path / "store"
    store.mkdir()
    for extra, data in files.items():
        Path(f"{store / 'arcade.sqlite3'}{extra}").write_bytes(data)
    r = Results(store / "arcade.sqlite3")
    try:
        assert r.notices == [] and r.load_resume() is not None
    finally:
        r.close()
