"""High scores: the score of a result, the ``highscores`` table, and initials entry.

The score of a result (:func:`result_score`) is the one notion every screen and
feed uses (the results screen, the attract loop, an MQTT leaderboard):

==================================  =========================  ==================
game (family)                       score of a seat            table ranks by
==================================  =========================  ==================
FocusX (``focusx``), but Duel       cards won                  best game
FocusX Duel (``focusx-duel[-x]``)   penalty cards (fewest)     best game, fewest first
Sherlook (``sherlook``)             points                     best game
Focus (2023), Sherlock rules        the pair's points          best game
(``coop`` modes with "sherlock")    (base rules: no score)
FOCUS / Crossfire (``focus``)       1 per game won             wins added up
==================================  =========================  ==================

The rule is the registry entry's own (``arcade.registry.GameSpec.winning``, declared once per
entry); this module only reads it.  Tables are per registry entry (``arcade.registry``: ``focusx-classic``,
``focusx-duel-x``, ``crossfire``, ``coop-sherlock``... the names the command
line, the configuration, the records and the event's boards use), for today
(since local midnight) and for all time.  The table lives in the results file
(SQLite), created with ``CREATE TABLE IF NOT EXISTS`` next to the ``games``
table.  A store written before the tables had registry names (``"focusx:classic"``,
``"focus:crossfire"``) is migrated when it is opened (:func:`migrate`): every
row keeps its initials, score, time and game, under its registry name; a key
no entry describes is kept as it is.  The methods also take the old form.

Initials are three letters entered with station controls (left/right change
the letter, OK takes it, X goes back a letter) or a buzzer alone (tap = next
letter, hold 0.6 s = take the letter, hold 2 s = back), see ``kiosk/controls/gestures.py``.
This module has no pygame in it.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from dataclasses import dataclass
from typing import Callable, Sequence

from arcade.i18n import N_, _, ngettext
from kiosk.controls.gestures import BACK, NEXT, OK, PREV

SCHEMA = """
CREATE TABLE IF NOT EXISTS highscores (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    game TEXT NOT NULL,
    initials TEXT NOT NULL,
    score REAL NOT NULL,
    game_id INTEGER
);
CREATE INDEX IF NOT EXISTS highscores_game ON highscores (game, score);
"""

#: How many lines a table shows, and the rank a score must reach to be entered.
TABLE_SIZE = 5
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class ScoreRule:
    """How a game's results become high scores.

    Attributes:
        unit: what the number counts ("cards", "penalty cards", "points", "wins").
        total: True: a name's scores are added up (wins); False: its best game counts.
        fewest: True: the fewest is best (FocusX Duel's penalty cards, FX-10); the tables
            list the lowest first and a lower score makes them.
    """

    unit: str
    total: bool = False
    fewest: bool = False


log = logging.getLogger("focus-arcade")

#: What a score counts (``ScoreRule.unit``, the registry's ``WinningRule.unit``) as the screens
#: name it in a caption ("bars: penalty cards").
UNIT_NAMES = {"cards": N_("cards"), "penalty cards": N_("penalty cards"), "points": N_("points"),
              "wins": N_("wins"), "rounds": N_("rounds")}


def unit_name(unit: str) -> str:
    """``unit`` as a caption names it, in the language spoken now ("cards")."""
    return _(UNIT_NAMES[unit]) if unit in UNIT_NAMES else unit


def score_words(score: float, unit: str) -> str:
    """A score with its unit, in the form the count takes in the language spoken now:
    "1 penalty card", "42 penalty cards" (Ukrainian: three forms; a fraction takes the form
    of 2).

    >>> score_words(1, "penalty cards"), score_words(3.0, "cards"), score_words(2, "goals")
    ('1 penalty card', '3 cards', '2 goals')
    """
    n = f"{score:g}"
    count = int(score) if float(score).is_integer() else 2
    if unit == "cards":
        return ngettext("{n} card", "{n} cards", count).format(n=n)
    if unit == "penalty cards":
        return ngettext("{n} penalty card", "{n} penalty cards", count).format(n=n)
    if unit == "points":
        return ngettext("{n} point", "{n} points", count).format(n=n)
    if unit == "wins":
        return ngettext("{n} win", "{n} wins", count).format(n=n)
    if unit == "rounds":
        return ngettext("{n} round", "{n} rounds", count).format(n=n)
    return f"{n} {unit.rstrip('s') if score == 1 else unit}"


def key(game: str) -> str:
    """The table key of ``game``: its registry name; an old ``"family:mode"`` key becomes
    its entry's name; anything else is returned as it is.

    >>> key("focusx:classic"), key("focus:crossfire"), key("coop:classic"), key("crossfire")
    ('focusx-classic', 'crossfire', 'coop-base', 'crossfire')
    """
    if ":" not in game:
        return game
    from arcade import registry
    from arcade.core.errors import ArcadeError
    family, mode = game.split(":", 1)
    try:
        return registry.resolve(family, mode or None).name
    except ArcadeError:
        return game


def _family_mode(name: str) -> tuple[str, str] | None:
    from arcade import registry
    from arcade.core.errors import ArcadeError
    try:
        spec = registry.get(key(name))
    except ArcadeError:
        return None
    return spec.family, spec.mode


def rule_of(name: str) -> ScoreRule | None:
    """The rule of the registry entry ``name`` (``"sherlook"``, ``"focusx-duel-x"``), or None."""
    fm = _family_mode(name)
    return None if fm is None else score_rule(*fm)


def score_of(name: str, seat: int, winners: Sequence[int], scores: Sequence[float]) -> float | None:
    """:func:`result_score` for the registry entry ``name``."""
    fm = _family_mode(name)
    return None if fm is None else result_score(fm[0], fm[1], seat, winners, scores)


def score_rule(family: str, mode: str) -> ScoreRule | None:
    """The rule for a family and mode: the registry entry's winning rule
    (``arcade.registry.GameSpec.winning``), or None for a game without high scores (a
    cooperative game won or lost together, an unknown game)."""
    from arcade import registry
    from arcade.core.errors import ArcadeError
    try:
        win = registry.resolve(family, mode or None).winning
    except ArcadeError:
        return None
    if win.kind == "solved":
        return None
    return ScoreRule(win.unit, total=win.total, fewest=win.fewest)


def result_score(family: str, mode: str, seat: int, winners: Sequence[int],
                 scores: Sequence[float]) -> float | None:
    """The high-score value of ``seat``'s result in one finished game, or None (no entry).

    Args:
        family, mode: the lobby's game ("focusx", "classic").
        seat: 0-based seat.
        winners, scores: the game's ``outcome()`` (winning seats; per-seat scores:
            FocusX cards won, Sherlook points, Focus (2023) Sherlock Mode points).

    FOCUS games give 1 to each winner and no entry to the others; a score of 0
    is no entry either, except where the fewest is best (FocusX Duel: no penalty card).
    """
    rule = score_rule(family, mode)
    if rule is None:
        return None
    if rule.unit == "wins":
        return 1.0 if seat in winners else None
    if seat >= len(scores):
        return None
    value = float(scores[seat])
    return value if value > 0 or (rule.fewest and value == 0) else None


def day_start(now: float) -> float:
    """Local midnight before ``now`` (seconds since the epoch)."""
    t = time.localtime(now)
    return time.mktime((t.tm_year, t.tm_mon, t.tm_mday, 0, 0, 0, 0, 0, -1))


class HighScores:
    """The ``highscores`` table of the results file.

    Args:
        db: the results file's open connection (``kiosk.persist.storage.Results.db``).

    Attributes:
        migrated: rows renamed from ``"family:mode"`` to registry names when opened.

    Raises:
        sqlite3.Error: the table cannot be made (the caller shows a message).
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        with db:
            db.executescript(SCHEMA)
        self.problem = ""                 # the migration could not be written (tried again next open)
        try:
            self.migrated = migrate(db)
        except sqlite3.Error as exc:
            self.migrated = 0
            self.problem = _("old high scores not renamed yet: {error}").format(error=exc)
            log.warning("high scores: %s", self.problem)

    def add(self, game: str, initials: str, score: float, at: float | None = None,
            game_id: int | None = None,
            also: Callable[[sqlite3.Connection], object] | None = None) -> None:
        """Save one entry (``game`` = the registry name, ``initials`` 1-3 characters).

        ``also(db)`` runs inside the same transaction (the event link's outbox message for
        this high score, issue 15): both are written or neither.

        Raises:
            sqlite3.Error: the write failed; nothing was saved.
        """
        with self.db:
            self.db.execute("INSERT INTO highscores (at, game, initials, score, game_id) VALUES (?, ?, ?, ?, ?)",
                            (time.time() if at is None else at, key(game), initials[:3], float(score), game_id))
            if also is not None:
                also(self.db)

    def table(self, game: str, rule: ScoreRule, since: float | None = None,
              limit: int = TABLE_SIZE) -> list[tuple[str, float]]:
        """The best ``(initials, score)`` lines, best first (since ``since`` if given)."""
        where, args = "game = ?", [key(game)]
        if since is not None:
            where += " AND at >= ?"
            args.append(since)   # type: ignore[arg-type]
        if rule.total:
            sql = (f"SELECT initials, SUM(score) AS s, MIN(id) FROM highscores WHERE {where} "
                   "GROUP BY initials ORDER BY s DESC, MIN(id) LIMIT ?")
        else:
            order = "ASC" if rule.fewest else "DESC"
            sql = f"SELECT initials, score, id FROM highscores WHERE {where} ORDER BY score {order}, id LIMIT ?"
        return [(r[0], float(r[1])) for r in self.db.execute(sql, (*args, limit))]

    def qualifies(self, game: str, rule: ScoreRule, score: float, now: float) -> bool:
        """Whether ``score`` would be in today's or the all-time table (wins always count)."""
        if rule.total:
            return True
        for since in (day_start(now), None):
            lines = self.table(game, rule, since)
            if len(lines) < TABLE_SIZE or (score < lines[-1][1] if rule.fewest else score > lines[-1][1]):
                return True
        return False

    def place(self, game: str, rule: ScoreRule, score: float, since: float | None = None) -> int | None:
        """The place ``score`` would take on the table (since ``since``): 1 + the lines better
        by the rule (a tie shares the place), or None when it would not make the table (and
        for a table of totals, where a name's place depends on its other games)."""
        if rule.total:
            return None
        lines = self.table(game, rule, since)
        if len(lines) >= TABLE_SIZE and not (score < lines[-1][1] if rule.fewest else score > lines[-1][1]):
            return None           # the table is full and this score beats none of it (as qualifies())
        return 1 + sum(1 for _initials, s in lines if (s < score if rule.fewest else s > score))

    def games(self) -> list[str]:
        """Every game with an entry (registry names), most recent first."""
        rows = self.db.execute("SELECT game, MAX(id) m FROM highscores GROUP BY game ORDER BY m DESC")
        return [r[0] for r in rows]

    def reset(self) -> int:
        """Delete every entry (the service menu's "reset high scores"); returns how many."""
        with self.db:
            return int(self.db.execute("DELETE FROM highscores").rowcount)


def migrate(db: sqlite3.Connection) -> int:
    """Give every row with an old ``"family:mode"`` key its registry name, in one
    transaction (all rows or none); returns how many rows changed.  Keys no registry
    entry describes stay as they are: nothing is lost.

    Raises:
        sqlite3.Error: the store cannot be written (nothing changed).
    """
    old = [r[0] for r in db.execute("SELECT DISTINCT game FROM highscores WHERE game LIKE '%:%'")]
    renames = {g: key(g) for g in old if key(g) != g}
    if not renames:
        return 0
    changed = 0
    with db:
        for was, now in renames.items():
            changed += db.execute("UPDATE highscores SET game = ? WHERE game = ?", (now, was)).rowcount
    log.info("high scores: %d rows renamed to registry names (%s)", changed,
             ", ".join(f"{a} -> {b}" for a, b in sorted(renames.items())))
    return changed


class InitialsEntry:
    """Three letters, entered with menu actions (:mod:`kiosk.controls.gestures`).

    ``prev``/``next`` change the letter under the cursor, ``ok`` takes it and
    moves on (the third ``ok`` finishes), ``back`` returns to the previous letter.
    """

    def __init__(self, seat: int, score: float, length: int = 3) -> None:
        self.seat = seat
        self.score = score
        self.letters = [0] * length
        self.pos = 0
        self.done = False
        self.touched = False
        #: its place on today's table and on the all-time table (None: not on it, or a table of totals)
        self.place_today: int | None = None
        self.place_ever: int | None = None

    @property
    def initials(self) -> str:
        return "".join(LETTERS[i] for i in self.letters)

    def act(self, action: str) -> None:
        if self.done:
            return
        self.touched = True
        if action in (NEXT, PREV):
            step = 1 if action == NEXT else -1
            self.letters[self.pos] = (self.letters[self.pos] + step) % len(LETTERS)
        elif action == OK:
            if self.pos == len(self.letters) - 1:
                self.done = True
            else:
                self.pos += 1
        elif action == BACK and self.pos > 0:
            self.pos -= 1
