"""A full disk loses nothing (issue 23, part 4), on a small tmpfs this test mounts.

What the party notices: a game that ends while the results disk is full says "not saved
yet" on screen, its result is on the title's recent games marked "not saved yet", and once
space is back the result is written to the file (nothing lost, nothing doubled).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

from kiosk.persist.storage import WAL_FRAME_HEADER, WAL_HEADER, NotSavedYet, Results, StorageError
from tests.test_store_damage import a_game


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB tmpfs mounted for this test (root only); skipped where mounting is impossible."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(disk: Path) -> Path:
    """Fill the disk to the last byte."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 512)
        except OSError:
            pass
    return filler


def test_games_that_end_on_a_full_disk_are_kept_shown_and_written_when_space_returns(small_disk: Path) -> None:
    path = small_disk / "arcade.sqlite3"
    r = Results(path)
    first = r.save(*a_game(1), game_key="g1")
    filler = fill(small_disk)
    for n in (2, 3):
        with pytest.raises(NotSavedYet, match="not saved yet"):
            r.save(*a_game(n), game_key=f"g{n}")
    assert len(r.pending) == 2
    shown = r.recent(5)
    assert [g.get("saved", True) for g in shown] == [False, False, True]
    assert all("not saved yet" in g["reason"] for g in shown[:2])
    filler.unlink()                                            # space is back
    shown = r.recent(5)                                        # the title screen reads the store again
    assert r.pending == [] and all(g.get("saved", True) for g in shown) and len(shown) == 3
    assert any("now saved" in n for n in r.notices)
    r.close()
    db = sqlite3.connect(path)
    keys = [k for (k,) in db.execute("SELECT game_key FROM games ORDER BY id")]
    db.close()
    assert keys == ["g1", "g2", "g3"] and first == 1          # each once, in the order they ended


def test_the_game_scene_shows_not_saved_yet(small_disk: Path) -> None:
    from types import SimpleNamespace

    from kiosk.scenes.game import GameScene
    path = small_disk / "arcade.sqlite3"
    r = Results(path)
    fill(small_disk)
    said: list[str] = []
    rec, winners, reason, scores = a_game(4)
    scene = SimpleNamespace(saved=False, app=SimpleNamespace(results=r, demo=False,
                                                             message=lambda text, *_, **__: said.append(text)),
                            state=SimpleNamespace(outcome=lambda: SimpleNamespace(winners=winners, reason=reason,
                                                                                  scores=scores)),
                            record=lambda: rec, game_key="g4")
    GameScene.save(scene)                                      # type: ignore[arg-type]
    assert said and "not saved yet" in said[0] and len(r.pending) == 1


def test_results_in_memory_at_a_stop_on_a_full_disk_are_saved_at_the_next_start(small_disk: Path) -> None:
    """The party stops the arcade while the disk is full: nothing is lost (issue 23)."""
    path = small_disk / "arcade.sqlite3"
    r = Results(path)
    r.save(*a_game(1), game_key="g1")
    filler = fill(small_disk)
    for n in (2, 3):
        with pytest.raises(NotSavedYet):
            r.save(*a_game(n), game_key=f"g{n}")
    r.close()                                                  # the stop, the disk still full
    kept = sorted(small_disk.glob("arcade.sqlite3.unsaved-*.json"))
    assert len(kept) == 1
    filler.unlink()                                            # space is back
    again = Results(path)
    try:
        assert [g["id"] for g in again.recent()] == [3, 2, 1]
        assert any("2 results kept while the disk was full" in n for n in again.notices)
        assert not list(small_disk.glob("arcade.sqlite3.unsaved-*.json"))
    finally:
        again.close()
    once_more = Results(path)                                  # saved once, not at every start
    try:
        assert len(once_more.recent()) == 3 and once_more.notices == []
    finally:
        once_more.close()


def test_a_full_disk_at_start_says_full_and_leaves_no_cut_copy(small_disk: Path) -> None:
    path = small_disk / "arcade.sqlite3"
    r = Results(path)
    r.save(*a_game(1), game_key="g1")
    r.close()
    (small_disk / "arcade.sqlite3.reserve").unlink(missing_ok=True)
    before = sorted(p.name for p in small_disk.iterdir())
    fill(small_disk)
    try:
        Results(path).close()
    except StorageError as exc:
        assert "full" in str(exc) and str(path) in str(exc)
    else:
        pytest.fail("a store on a full disk opened as if it could be written")
    after = sorted(p.name for p in small_disk.iterdir() if p.name != "filler")
    assert [n for n in after if ".damaged-" in n] == []        # no 0-byte "copy" that keeps nothing
    assert set(before) <= set(after) and path.stat().st_size > 0


# -- a damaged results file on a full disk: nothing changed, no "kept as nowhere" (issue 23) ----------

@pytest.mark.parametrize("damage", ["flipped bit", "cut journal"])
def test_a_damaged_journal_on_a_full_disk_is_left_as_it_is_and_said_plainly(small_disk: Path, damage: str) -> None:
    """No byte-exact copy can be made: the file and its journal are not opened for writing
    (no recovery over them), the screen says so plainly, and the next start with space keeps
    the copy and goes on."""
    import time

    from kiosk.app.messages import Messages
    from kiosk.app.stores import open_results
    from tests.test_store_journal import assert_byte_exact, crashed_store, frame_size, kept_copies
    path, files = crashed_store(small_disk, steps=8)
    wal = bytearray(files["-wal"])
    if damage == "flipped bit":
        wal[WAL_HEADER + WAL_FRAME_HEADER + 100] ^= 0x10           # the first frame's page
    else:
        wal = wal[:WAL_HEADER + 3 * frame_size(files["-wal"]) + 100]  # cut in the middle of frame 4
    Path(f"{path}-wal").write_bytes(bytes(wal))
    damaged = {**files, "-wal": bytes(wal)}
    filler = fill(small_disk)
    with pytest.raises(StorageError) as caught:
        Results(path)
    said = str(caught.value)
    assert "disk is full" in said and "nothing was changed" in said and "kept in memory" in said
    assert "nowhere" not in said and caught.value.no_space
    assert_byte_exact(path, damaged)                               # not recovered over: every byte as it was
    assert kept_copies(path) == []                                 # and no cut copy that looks like a kept one
    notes = Messages(clock=time.monotonic)
    r = open_results(path, notes)
    assert r is not None and r.path == ":memory:"                  # this session's games are kept in memory
    assert [m for m, _ in notes] == [said]                         # one plain sentence, not wrapped in another
    assert_byte_exact(path, damaged)
    filler.unlink()                                                # space again: the copy, then the file goes on
    again = Results(path)
    try:
        copies = kept_copies(path)
        assert len(copies) == 1 and str(copies[0]) in again.notice
        assert_byte_exact(copies[0], damaged)
        assert [g["game"] for g in again.recent()] == [a_game(1)[0]["game"]]
    finally:
        again.close()


def test_high_scores_on_a_full_disk_are_said_once_and_not_tried_at_every_frame(
        small_disk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The results screen asks for the high-score table at every frame: on a full disk the
    journal says so once (not 38 lines a second), it is tried again every few seconds, and
    said once more when it works again."""
    import kiosk.persist.highscores as khs
    from kiosk.app.stores import HIGHSCORES_RETRY_S, HighScoreTable
    r = Results(small_disk / "arcade.sqlite3")
    filler = fill(small_disk)
    now = [100.0]
    opened: list[int] = []
    real = khs.HighScores

    def counted(db: sqlite3.Connection) -> khs.HighScores:
        opened.append(1)
        return real(db)
    monkeypatch.setattr(khs, "HighScores", counted)
    said: list[str] = []
    table = HighScoreTable(lambda: r, said.append, clock=lambda: now[0])
    try:
        for _ in range(25 * 38):                                   # 25 s of frames at the same moment
            assert table.get() is None
        now[0] += 25
        for _ in range(38):
            assert table.get() is None
        assert len(said) == 1 and "High scores unavailable" in said[0] and "full" in said[0]
        assert len(opened) == 2                                     # the first frame, then once after the wait
        filler.unlink()                                             # space again
        now[0] += HIGHSCORES_RETRY_S
        assert table.get() is not None
        assert len(said) == 2 and "available again" in said[1]
    finally:
        r.close()


def test_the_journal_of_a_long_game_does_not_fill_a_small_disk(small_disk: Path) -> None:
    """Issue 23: on a small disk one FocusX game's ``-wal`` grew to fill it (the main file stayed
    4 kB, no checkpoint during the game), so the game in progress could no longer be kept.  Now
    every step of two whole games is kept, both results are saved, and the journal stays a
    fraction of the 1 MB disk."""
    import random

    from arcade.core.record import to_record
    from arcade.focusx.autoplay import SimConfig, first_legal, simulate
    from arcade.focusx.classic import ClassicGame
    path = small_disk / "arcade.sqlite3"
    r = Results(path)
    biggest = 0
    try:
        for seed in (1, 2):
            state = ClassicGame(4).new_initial_state()
            simulate(state, random.Random(seed), SimConfig(skills=["hard"] * 4), first_legal)
            actions = [{"player": int(p), "action": a.to_json()} for p, a in state.history]
            for step in range(1, len(actions) + 1):
                r.save_resume(f"game-{seed}", {"family": "focusx", "mode": "classic", "seed": seed, "seats": [],
                                               "actions": actions[:step], "steps": step})
                biggest = max(biggest, os.stat(f"{path}-wal").st_size)
            out = state.outcome()
            assert out is not None
            r.save(to_record(state, seed), out.winners, out.reason, out.scores, game_key=f"game-{seed}")
        assert len(r.recent()) == 2 and r.load_resume() is None
        assert biggest < 600 * 1024, biggest
    finally:
        r.close()


def test_a_newer_store_note_replaces_the_older_one_on_screen(small_disk: Path) -> None:
    """Issue 23: the results screen showed "1 result ... is now saved" above the newer "Result
    not saved yet" at once.  The newer note about the results file replaces the older one."""
    from types import SimpleNamespace

    from kiosk.scenes.game import GameScene
    from tests.kiosk_start import config_for, start_kiosk
    app = start_kiosk(config_for(None, small_disk / "arcade.sqlite3"), frames=1)
    try:
        assert app.results is not None
        filler = fill(small_disk)

        def a_game_ends(key: str) -> None:
            rec, winners, reason, scores = a_game(len(key))
            scene = SimpleNamespace(saved=False, app=app, record=lambda: rec, game_key=key,
                                    state=SimpleNamespace(outcome=lambda: SimpleNamespace(
                                        winners=winners, reason=reason, scores=scores)))
            GameScene.save(scene)                              # type: ignore[arg-type]

        a_game_ends("g1")
        filler.unlink()                                        # space is back: the result is written
        app.results.recent(3)
        filler = fill(small_disk)
        a_game_ends("g22")                                     # the disk is full again
        shown = [m for m, _ in app.messages]
        assert any("not saved yet" in m for m in shown), shown
        assert not any("now saved" in m for m in shown), shown
    finally:
        filler.unlink(missing_ok=True)
        app.close()
