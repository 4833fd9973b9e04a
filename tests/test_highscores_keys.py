"""High scores are kept under the registry's names (issue 10).

What the host notices: the tables are named as everywhere else
(``focusx-classic``, ``crossfire``, ``coop-sherlock``...), and a results file
from before, whose tables were keyed ``"family:mode"``, opens with every score
still there, in the right table, and the event's boards still get the initials.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from arcade import registry
from kiosk.persist.highscores import HighScores, key, rule_of, score_of, score_rule
from kiosk.persist.storage import Results
from tests.test_event_day import Day, event_config

OLD_SCHEMA = """
CREATE TABLE highscores (id INTEGER PRIMARY KEY, at REAL NOT NULL, game TEXT NOT NULL,
                         initials TEXT NOT NULL, score REAL NOT NULL, game_id INTEGER);
CREATE INDEX highscores_game ON highscores (game, score);
"""
#: Rows as the arcade wrote them before, and the table each belongs to now.
OLD_ROWS = [
    ("focusx:classic", "ACE", 21.0, "focusx-classic"),
    ("focusx:classic", "BOB", 17.0, "focusx-classic"),
    ("focusx:duel-x", "CAT", 9.0, "focusx-duel-x"),
    ("focus:crossfire", "DAN", 1.0, "crossfire"),
    ("focus:crossfire", "DAN", 1.0, "crossfire"),
    ("focus:2p", "EVE", 1.0, "focus-2p"),
    ("sherlook:classic", "FOX", 14.0, "sherlook"),
    ("coop:sherlock", "GUS", 11.0, "coop-sherlock"),
    ("coop:classic", "HAL", 3.0, "coop-base"),           # an older spelling of Focus (2023)'s base mode
    ("mystery:thing", "IVY", 5.0, "mystery:thing"),      # no entry describes it: kept as it is
]


def old_store(path: Path) -> None:
    """A results file with a high-score table in the old form (a real SQLite file on disk)."""
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    now = time.time()
    db.executemany("INSERT INTO highscores (at, game, initials, score, game_id) VALUES (?, ?, ?, ?, NULL)",
                   [(now - i, g, ini, sc) for i, (g, ini, sc, _) in enumerate(OLD_ROWS)])
    db.commit()
    db.close()


def rows(path: Path) -> list[tuple[str, str, float]]:
    db = sqlite3.connect(path)
    try:
        return sorted(db.execute("SELECT game, initials, score FROM highscores"))
    finally:
        db.close()


def test_an_old_store_is_migrated_on_open_and_nothing_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "arcade.sqlite3"
    old_store(path)
    results = Results(path)
    try:
        hs = HighScores(results.db)
        assert hs.migrated == len(OLD_ROWS) - 1
        for name in ("focusx-classic", "crossfire", "sherlook", "coop-sherlock"):
            assert name in hs.games()
        assert hs.table("focusx-classic", score_rule("focusx", "classic")) == [("ACE", 21.0), ("BOB", 17.0)]
        assert hs.table("crossfire", score_rule("focus", "crossfire")) == [("DAN", 2.0)]      # wins added up
        assert hs.table("coop-base", score_rule("coop", "sherlock")) == [("HAL", 3.0)]
        # the old spelling still reads the same table
        assert hs.table("focusx:classic", score_rule("focusx", "classic")) == [("ACE", 21.0), ("BOB", 17.0)]
    finally:
        results.close()
    assert rows(path) == sorted((new, ini, sc) for _, ini, sc, new in OLD_ROWS)          # every row, renamed
    again = Results(path)
    try:
        assert HighScores(again.db).migrated == 0                                           # once only
    finally:
        again.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()


def test_a_store_that_cannot_be_written_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "arcade.sqlite3"
    old_store(path)
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    hs = HighScores(db)                      # opens; the renaming waits for a store it can write
    assert hs.migrated == 0 and "not renamed" in hs.problem
    db.close()
    assert sorted(g for g, _, _ in rows(path)) == sorted(g for g, _, _, _ in OLD_ROWS)     # untouched
    results = Results(path)
    try:
        assert HighScores(results.db).migrated == len(OLD_ROWS) - 1                          # next time
    finally:
        results.close()


def test_every_entry_has_its_rule_and_its_key_is_its_name() -> None:
    for spec in registry.SPECS:
        assert key(spec.name) == spec.name
        assert key(f"{spec.family}:{spec.mode}") == spec.name
        assert rule_of(spec.name) == score_rule(spec.family, spec.mode)
    assert score_of("focusx-duel-x", 1, (0,), (3, 9, 1)) == 9.0
    assert score_of("crossfire", 0, (0,), (0, 0)) == 1.0
    assert rule_of("coop-base") is None and rule_of("nothing") is None


def test_the_kiosk_opens_an_old_store_and_shows_its_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = Path(str(event_config(tmp_path)).replace("arcade.toml", "arcade.sqlite3"))
    old_store(path)
    d = Day(event_config(tmp_path), monkeypatch)
    try:
        hs = d.app.highscores
        assert hs.table("sherlook", score_rule("sherlook", "classic")) == [("FOX", 14.0)]
        # a game's high score goes to its registry name, next to the migrated ones
        hs.add("sherlook", "JOE", 20)
        assert [i for i, _ in hs.table("sherlook", score_rule("sherlook", "classic"))] == ["JOE", "FOX"]
    finally:
        d.close()
