"""The results store's journal is checked and kept like the main file (issue 23, part 2).

What the operator notices: a damaged ``-wal`` (a flipped bit on the SD card) is told on the
title screen and in the journal, and the file with its journal as they were is kept aside
byte for byte; a finished game is already in the main file, so such damage loses at most the
steps of the game in progress; an empty or foreign results file is kept aside and told, never
silently replaced by a new, empty store.  Checked against SQLite's documented WAL format.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.persist.storage import RESUME_CHECKPOINT_STEPS, WAL_FRAME_HEADER, WAL_HEADER, Results, wal_damage
from tests.test_store_damage import a_game

GAME = a_game(1)


def crashed_store(folder: Path, steps: int = 6, actions: int = 1) -> tuple[Path, dict[str, bytes]]:
    """A store as a kill -9 leaves it: one finished game, then ``steps`` steps of the game in
    progress still in the ``-wal`` (``actions`` actions more at each: many make a step several
    pages, so several frames); the three files' bytes."""
    live = folder / "live"
    live.mkdir()
    r = Results(live / "arcade.sqlite3")
    r.save(*GAME, game_key="done-1")
    for step in range(steps):
        r.save_resume("playing-2", {"family": "focusx", "mode": "classic", "seed": 7, "seats": [],
                                    "actions": list(range(step * actions)), "steps": step})
    crash = folder / "crash"
    crash.mkdir()
    for extra in ("", "-wal", "-shm"):
        shutil.copyfile(str(live / "arcade.sqlite3") + extra, str(crash / "arcade.sqlite3") + extra)
    r.close()
    path = crash / "arcade.sqlite3"
    return path, {extra: Path(str(path) + extra).read_bytes() for extra in ("", "-wal", "-shm")}


def kept_copies(path: Path) -> list[Path]:
    return sorted(p for p in path.parent.iterdir() if ".damaged-" in p.name and not p.name.endswith(("-wal", "-shm")))


def assert_byte_exact(copy: Path, files: dict[str, bytes]) -> None:
    for extra, data in files.items():
        assert Path(str(copy) + extra).read_bytes() == data, f"the kept {extra or 'file'} is not byte for byte"


def frame_size(wal: bytes) -> int:
    return WAL_FRAME_HEADER + int.from_bytes(wal[8:12], "big")


def test_a_sound_journal_is_no_damage(tmp_path: Path) -> None:
    path, files = crashed_store(tmp_path)
    assert len(files["-wal"]) > WAL_HEADER and wal_damage(files["-wal"]) is None
    assert wal_damage(files["-wal"][:-100]) is None          # a torn last frame was never committed
    r = Results(path)
    assert r.notices == [] and kept_copies(path) == []
    assert r.load_resume()["steps"] == 5                     # type: ignore[index]


def test_a_finished_game_is_in_the_main_file_at_once(tmp_path: Path) -> None:
    path, files = crashed_store(tmp_path, steps=0)
    alone = tmp_path / "alone.sqlite3"
    alone.write_bytes(files[""])                             # the main file without its journal
    db = sqlite3.connect(alone)
    assert db.execute("SELECT count(*) FROM games WHERE game_key = 'done-1'").fetchone() == (1,)
    db.close()


def test_a_flipped_bit_in_the_journal_is_told_and_kept_byte_for_byte(tmp_path: Path) -> None:
    path, files = crashed_store(tmp_path)
    wal = bytearray(files["-wal"])
    wal[WAL_HEADER + WAL_FRAME_HEADER + 100] ^= 0x10          # the first frame's page
    Path(str(path) + "-wal").write_bytes(bytes(wal))
    damaged = {**files, "-wal": bytes(wal)}
    r = Results(path)
    said = " ".join(r.notices)
    assert "journal" in said and "damaged" in said and "frame 1" in said
    copies = kept_copies(path)
    assert len(copies) == 1 and str(copies[0]) in said
    assert_byte_exact(copies[0], damaged)
    assert [g["game"] for g in r.recent()] == [GAME[0]["game"]]   # the finished game is not lost


def test_a_damaged_journal_header_is_told(tmp_path: Path) -> None:
    path, files = crashed_store(tmp_path)
    wal = bytearray(files["-wal"])
    wal[20] ^= 0x01                                           # salt-2: the header's checksum fails
    assert "header" in (wal_damage(bytes(wal)) or "")
    Path(str(path) + "-wal").write_bytes(bytes(wal))
    r = Results(path)
    assert any("journal" in n for n in r.notices) and len(kept_copies(path)) == 1


def _state(path: Path) -> tuple[object, ...]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return (db.execute("SELECT game_key FROM games ORDER BY id").fetchall(),
                db.execute("SELECT data FROM resume").fetchall())
    finally:
        db.close()


JOURNAL_FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@JOURNAL_FUZZ
@given(st.data())
def test_fuzz_any_damage_of_the_journal_that_loses_a_saved_change_is_told_and_kept(tmp_path_factory: object,
                                                                                   data: st.DataObject) -> None:
    folder = Path(tmp_path_factory.mktemp("wal"))             # type: ignore[attr-defined]
    path, files = crashed_store(folder)
    wal = bytearray(files["-wal"])
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(wal) - 1))
        wal[at] ^= data.draw(st.integers(1, 255))
    damaged = {**files, "-wal": bytes(wal)}
    sound = folder / "sound"
    sound.mkdir()
    for extra, b in files.items():
        Path(str(sound / "arcade.sqlite3") + extra).write_bytes(b)
    expected = _state(sound / "arcade.sqlite3")
    Path(str(path) + "-wal").write_bytes(bytes(wal))
    r = Results(path)
    got = (r.db.execute("SELECT game_key FROM games ORDER BY id").fetchall(),
           r.db.execute("SELECT data FROM resume").fetchall())
    r.close()
    copies = kept_copies(path)
    if got != expected:                                       # something saved is gone: told and kept
        assert any("journal" in n or "damaged" in n for n in r.notices), r.notices
        assert copies
    for copy in copies:
        assert_byte_exact(copy, damaged)
    assert ("done-1",) in got[0] or any("kept as" in n for n in r.notices)


def test_an_empty_results_file_is_kept_aside_and_told(tmp_path: Path) -> None:
    path = tmp_path / "arcade.sqlite3"
    path.write_bytes(b"")
    r = Results(path)
    said = " ".join(r.notices)
    assert "empty" in said and "kept as" in said
    copies = kept_copies(path)
    assert len(copies) == 1 and copies[0].read_bytes() == b"" and str(copies[0]) in said


def test_a_file_that_is_not_a_results_file_is_kept_aside_and_told(tmp_path: Path) -> None:
    path = tmp_path / "arcade.sqlite3"
    path.write_bytes(b"scores: P1 3, P2 5\n" * 40)
    r = Results(path)
    assert any("not an SQLite database" in n for n in r.notices)
    copies = kept_copies(path)
    assert len(copies) == 1 and copies[0].read_bytes() == b"scores: P1 3, P2 5\n" * 40
    r.save(*GAME)
    assert len(r.recent()) == 1


MAIN_FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@MAIN_FUZZ
@given(st.data())
def test_fuzz_every_copy_kept_of_a_damaged_main_file_is_byte_for_byte(tmp_path_factory: object,
                                                                      data: st.DataObject) -> None:
    folder = Path(tmp_path_factory.mktemp("main"))            # type: ignore[attr-defined]
    path, files = crashed_store(folder)
    main = bytearray(files[""])
    for _ in range(data.draw(st.integers(1, 6))):
        at = data.draw(st.integers(0, len(main) - 1))
        main[at] ^= data.draw(st.integers(1, 255))
    damaged = {**files, "": bytes(main)}
    path.write_bytes(bytes(main))
    r = Results(path)
    r.close()
    for copy in kept_copies(path):
        assert_byte_exact(copy, damaged)


# -- what a damaged, cut or deleted journal lost: in saved steps, and kept byte for byte (issue 23) ----

def commit_frames(wal: bytes) -> list[int]:
    """The frames (1-based) that end a transaction: "database size after commit" not 0."""
    size = frame_size(wal)
    return [i + 1 for i in range((len(wal) - WAL_HEADER) // size)
            if int.from_bytes(wal[WAL_HEADER + i * size + 4:WAL_HEADER + i * size + 8], "big")]


@pytest.mark.parametrize("damage", ["flipped bit", "cut", "emptied", "deleted"])
def test_what_a_journal_lost_is_told_in_saved_steps_and_the_file_is_kept(tmp_path: Path, damage: str) -> None:
    """Nine steps of the game in progress (one fewer than the steps between two checkpoints of
    the game in progress), each several frames of the journal: the message counts the steps
    lost (not frames), the same way for each kind of damage, and the file with what is left of
    its journal is kept byte for byte."""
    assert RESUME_CHECKPOINT_STEPS == 10
    path, files = crashed_store(tmp_path, steps=9, actions=500)
    commits = commit_frames(files["-wal"])
    assert len(commits) == 9 and commits[-1] > 20                # several frames a step
    size = frame_size(files["-wal"])
    first_lost = commits[5] + 1                                  # the 7th step's first frame
    at = WAL_HEADER + (first_lost - 1) * size
    if damage == "flipped bit":
        wal = bytearray(files["-wal"])
        wal[at + WAL_FRAME_HEADER + 50] ^= 0x04
        kept = {**files, "-wal": bytes(wal)}
    elif damage == "cut":
        kept = {**files, "-wal": files["-wal"][:at + size + 700]}  # in the middle of its second frame
    elif damage == "emptied":
        kept = {**files, "-wal": b""}
    else:
        kept = {"": files[""], "-shm": files["-shm"]}
    if "-wal" in kept:
        Path(f"{path}-wal").write_bytes(kept["-wal"])
    else:
        Path(f"{path}-wal").unlink()
    lost = 3 if damage in ("flipped bit", "cut") else 9
    r = Results(path)
    try:
        resume = r.load_resume()
        assert (resume["steps"] if resume else -1) == 8 - lost   # the steps really lost
        said = r.notice
        assert f"the last {lost} saved steps" in said and "frame(s)" not in said and "change(s)" not in said
        copies = kept_copies(path)
        assert len(copies) == 1 and str(copies[0]) in said
        assert_byte_exact(copies[0], kept)
        if "-wal" not in kept:
            assert not Path(f"{copies[0]}-wal").exists()
    finally:
        r.close()
    again = Results(path)                                        # told and kept once
    try:
        assert again.notices == [] and len(kept_copies(path)) == 1
    finally:
        again.close()


# -- a journal deleted with its index after a kill: told, not silent (issue 23) -----------------

def killed_mid_game(folder: Path, steps: int) -> Path:
    """A store as a kill -9 in the middle of a game of ``steps`` saved steps leaves it, with its
    journal and the journal's index then deleted (``rm arcade.sqlite3-wal arcade.sqlite3-shm``):
    the main file as it was on disk at the kill."""
    live = folder / "live"
    live.mkdir()
    r = Results(live / "arcade.sqlite3")
    r.save(*GAME, game_key="done-1")
    for step in range(1, steps + 1):
        r.save_resume("playing-2", {"family": "focusx", "mode": "classic", "title": "FocusX Classic", "seed": 7,
                                    "seats": [], "actions": list(range(step)), "steps": step})
    crash = folder / "crash"
    crash.mkdir()
    shutil.copyfile(live / "arcade.sqlite3", crash / "arcade.sqlite3")
    r.close()
    return crash / "arcade.sqlite3"


def test_a_journal_deleted_with_its_index_after_a_kill_is_told_with_what_is_lost(tmp_path: Path) -> None:
    """``rm arcade.sqlite3-wal arcade.sqlite3-shm`` after a kill -9 mid-game lost the game in
    progress (73 steps) without a word.  Now the start says the journal is missing and what it
    took; the game comes back at the step the main file holds, at most a few steps back."""
    path = killed_mid_game(tmp_path, 73)
    r = Results(path)
    try:
        note = r.notice
        assert "journal (arcade.sqlite3-wal) is missing" in note and "did not close the file" in note
        kept = r.load_resume()
        assert kept is not None and 73 - 10 <= int(kept["steps"]) <= 73          # type: ignore[call-overload]
        assert f"FocusX Classic) is in the file at step {kept['steps']}" in note
        assert len(r.recent()) == 1                                              # the finished game is there
    finally:
        r.close()
    again = Results(path)                    # told once: the next start, after a clean close, is quiet
    assert again.notices == []
    again.close()


def test_no_journal_after_a_clean_close_or_a_journal_kept_after_a_kill_is_no_news(tmp_path: Path) -> None:
    path, _ = crashed_store(tmp_path)            # killed: the journal and its index are there
    r = Results(path)
    assert r.notices == [] and r.load_resume() is not None
    r.close()
    assert not Path(f"{path}-wal").exists()      # a clean close leaves no journal ...
    again = Results(path)
    assert again.notices == []                   # ... and its absence is no loss
    again.close()
