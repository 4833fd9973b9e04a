"""Several cabinets, one event: results and cabinet status through an MQTT broker (issue 15).

Off unless ``[event] host`` is set (kiosk/config.py); then the cabinet is an MQTT
*client* of the hall's broker (Mosquitto) and never listens on a port.

Topics (``<event>`` and ``<cabinet>`` as in ``[event]``)::

    focus-arcade/<event>/results/<game id>   one retained message per finished game
    focus-arcade/<event>/status/<cabinet>    the cabinet's state, retained; last will "offline"

Why one retained message per game id: every client that subscribes (a cabinet
joining late, one that restarts, ``leaderboard-web``) gets the whole event's
results from the broker at once, with no replay protocol and no cabinet acting as
a server.  A game published twice (a lost acknowledgement, a cabinet killed
before it deleted the outbox row) lands on the same topic with the same game id,
and the :class:`Leaderboard` counts a game id once.

Nothing lost: :meth:`kiosk.storage.Results.save` writes the game, its outbox row
and its game id in one SQLite transaction (``outbox_hook``).  A pump thread hands
outbox rows to paho in order (QoS 1, retained, a persistent session under a fixed
client id); paho's network thread (``loop_start``) sends them and resends the
unacknowledged ones after a reconnect; a row is deleted only when its PUBACK came
back (``on_publish`` with its mid).  The frame loop never calls paho: it only
writes SQLite and sets the wanted status.

Payloads are JSON objects with ``"v": 1`` (:data:`PAYLOAD_VERSION`) and a ``kind``;
:func:`parse` checks every field, and anything else on our topics is logged and
ignored.
"""

from __future__ import annotations

import collections
import json
import logging
import math
import socket
import sqlite3
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

log = logging.getLogger("focus-arcade.event")

PAYLOAD_VERSION = 1
ROOT = "focus-arcade"
#: Outbox rows handed to paho and not yet acknowledged, at most (paho sends 20 at a time).
WINDOW = 100
STATES = ("idle", "playing", "offline")
#: Games whose boards add up each cabinet's wins instead of listing single games
#: (the kiosk's high scores rank FOCUS the same way: 1 per game won, added up).
TOTAL_GAMES = frozenset({"focus"})


def version() -> str:
    """This arcade's version (the installed package's)."""
    try:
        from importlib.metadata import version as v
        return v("focus-arcade")
    except Exception:
        return "0.0.0"


def results_topic(event: str, game_id: str = "+") -> str:
    return f"{ROOT}/{event}/results/{game_id}"


def status_topic(event: str, cabinet: str = "+") -> str:
    return f"{ROOT}/{event}/status/{cabinet}"


def highscore_topic(event: str, game_id: str = "+", seat: int | None = None) -> str:
    """Initials a player entered for a high score: one retained message per game and seat."""
    return f"{ROOT}/{event}/highscores/{game_id if seat is None else f'{game_id}-P{seat + 1}'}"


def sync_topic(event: str, cabinet: str) -> str:
    """A cabinet's own echo topic: its probe comes back after the retained results."""
    return f"{ROOT}/{event}/sync/{cabinet}"


#: Host names many machines share out of the box: a cabinet named after one gets a suffix.
GENERIC_HOSTS = ("raspberrypi", "localhost", "debian", "ubuntu", "pi", "kiosk", "")


def cabinet_name(settings: Mapping[str, Any]) -> str:
    """``[event] cabinet``, else this machine's host name (topic-safe, at most 40 characters);
    a stock host name such as "raspberrypi" gets 4 characters of ``/etc/machine-id``, so two
    fresh Pis never share a name (and a client id: the broker would keep dropping one)."""
    name = str(settings.get("cabinet") or "")
    if name:
        return name
    host = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in socket.gethostname()).strip("-.")
    if host.lower() in GENERIC_HOSTS:
        try:
            suffix = Path("/etc/machine-id").read_text().strip()[:4]
        except OSError:
            suffix = uuid.uuid5(uuid.NAMESPACE_DNS, str(uuid.getnode())).hex[:4]
        host = f"{host or 'cabinet'}-{suffix}"
    return host[:40]


# -- the leaderboard's score ------------------------------------------------------------

@dataclass(frozen=True)
class Score:
    """One game's entry on its board.

    ``value`` ranks (higher first), ``tiebreak`` then ranks equal values, earlier
    games first after that; ``seat`` is the seat it belongs to (None: the whole
    team); ``text`` is what the boards show.
    """

    value: float
    tiebreak: float
    seat: int | None
    text: str


def board_of(record: Mapping[str, Any]) -> str:
    """The board a game belongs to: its registry entry (``arcade.registry``: ``focusx-duel-x``,
    ``focus-3p``, ``coop-sherlock``...); for a record without one, its game name with the FOCUS
    variant, the Focus (2023) mode or ``-x`` for the FocusX rule."""
    entry = record.get("entry")
    if isinstance(entry, str) and entry:
        return entry
    game = str(record.get("game", "?"))
    settings = record.get("settings") or {}
    if game == "focus" and settings.get("variant"):
        return f"focus-{settings['variant']}"
    if game == "coop" and settings.get("mode"):
        return f"coop-{settings['mode']}"
    if game.startswith("focusx") and settings.get("x_rule"):
        return f"{game}-x"
    return game


def score_of(game: str, winners: Sequence[int], scores: Sequence[float]) -> Score:
    """The leaderboard's score of one finished game: the best seat's result in the game's own unit,
    the same notion as the kiosk's high scores (a seat's cards, points or wins).

    * FocusX: the cards the best seat won (``outcome().scores``, the mode's count); Duel, whose
      fewest penalty cards wins (``GameSpec.winning``): that count, negative (fewest first).
    * Sherlook: the best seat's points (SL rules' scoring, docs/rules-sherlook.md).
    * Focus (2023): the pair's Sherlock Mode points; with the base rules (no points) 1 for a
      solved case, 0 for a lost one.
    * FOCUS / Crossfire: 1 for a win, 0 for a draw (the winner's captured stones are kept as
      ``tiebreak``); their boards add the wins up per cabinet (:data:`TOTAL_GAMES`).
    * any other game: the best seat's score.
    """
    sc = [float(s) for s in scores]
    if game == "coop":
        total = sc[0] if sc else 0.0
        return Score(total, 0.0, None, f"{total:g} points" if total not in (0.0, 1.0) or not winners
                     else ("case solved" if total == 1.0 else "0 points"))
    if game == "focus":
        if not winners:
            return Score(0.0, max(sc, default=0.0), None, "draw")
        w = winners[0]
        caps = sc[w] if w < len(sc) else 0.0
        return Score(1.0, caps, w, f"win, {caps:g} captured")
    if not sc:
        return Score(0.0, 0.0, winners[0] if winners else None, "0")
    from arcade.registry import winning_of
    rule = winning_of(game)
    if rule is not None and rule.fewest:
        # FocusX Duel (FX-10): the fewest penalty cards is best; the board sorts by the value,
        # highest first, so the value is the count made negative.
        low = min(sc)
        seat = next((w for w in winners if w < len(sc) and sc[w] == low), sc.index(low))
        return Score(-low, 0.0, seat, f"{low:g} {rule.unit}")
    best = max(sc)
    seat = next((w for w in winners if w < len(sc) and sc[w] == best), sc.index(best))
    unit = "cards" if game.startswith("focusx") else "points"
    return Score(best, 0.0, seat, f"{best:g} {unit}")


# -- payloads -----------------------------------------------------------------------------

#: The largest score (absolute) a seat can have in a game of each family: FocusX counts
#: cards of its 64-card deck (``arcade.focusx.cards.DECK_SIZE``); FOCUS's tie-break
#: counts captured stones (at most the 52 of a four-player board).
SCORE_LIMITS: dict[str, float] = {"focusx": 64.0, "focus": 52.0, "crossfire": 52.0}
#: Any other game (Sherlook and Focus (2023) points): far above any real game.
MAX_SCORE = 999.0
#: How far (s) a result's ``finished_at`` may be ahead of the receiver's clock (cabinets'
#: clocks differ; a Pi without network time can be behind, rarely ahead).
FUTURE_SLACK_S = 3600.0

class PayloadError(ValueError):
    """A message on our topics that is not a valid payload (what is wrong, in words)."""


@dataclass(frozen=True)
class Result:
    """A finished game as published (``kind: "result"``)."""

    game_id: str
    event: str
    cabinet: str
    game: str
    board: str
    seats: int
    winners: tuple[int, ...]
    reason: str
    scores: tuple[float, ...]
    score: float
    tiebreak: float
    seat: int | None
    score_text: str
    finished_at: float
    version: str = ""

    def to_json(self) -> str:
        return json.dumps({"v": PAYLOAD_VERSION, "kind": "result", "game_id": self.game_id, "event": self.event,
                           "cabinet": self.cabinet, "game": self.game, "board": self.board, "seats": self.seats,
                           "winners": list(self.winners), "reason": self.reason, "scores": list(self.scores),
                           "score": self.score, "tiebreak": self.tiebreak, "seat": self.seat,
                           "score_text": self.score_text, "finished_at": self.finished_at,
                           "version": self.version}, sort_keys=True)


@dataclass(frozen=True)
class HighScore:
    """Initials entered for a seat's high score in a game (``kind: "highscore"``)."""

    game_id: str
    event: str
    cabinet: str
    seat: int
    initials: str

    def to_json(self) -> str:
        return json.dumps({"v": PAYLOAD_VERSION, "kind": "highscore", "game_id": self.game_id, "event": self.event,
                           "cabinet": self.cabinet, "seat": self.seat, "initials": self.initials}, sort_keys=True)


@dataclass(frozen=True)
class Status:
    """A cabinet's state as published (``kind: "status"``)."""

    cabinet: str
    event: str
    state: str
    game: str = ""
    led: str = ""
    errors: tuple[str, ...] = ()
    version: str = ""
    outbox: int = 0
    at: float = 0.0

    def to_json(self) -> str:
        return json.dumps({"v": PAYLOAD_VERSION, "kind": "status", "cabinet": self.cabinet, "event": self.event,
                           "state": self.state, "game": self.game, "led": self.led, "errors": list(self.errors),
                           "version": self.version, "outbox": self.outbox, "at": self.at}, sort_keys=True)


def _field(d: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    if key not in d:
        raise PayloadError(f"no {key!r}")
    v = d[key]
    if isinstance(v, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise PayloadError(f"{key!r} is {v!r}, expected {what}")
    if not isinstance(v, kind):
        raise PayloadError(f"{key!r} is {v!r}, expected {what}")
    if isinstance(v, float) and not math.isfinite(v):
        raise PayloadError(f"{key!r} is {v!r}, expected a finite number")
    return v


def _name(d: Mapping[str, Any], key: str) -> str:
    v = _field(d, key, str, "a name")
    if not 1 <= len(v) <= 40 or any(ch in v for ch in "/+#") or any(ch.isspace() for ch in v):
        raise PayloadError(f"{key!r} is {v!r}, expected 1 to 40 characters without '/', '+', '#' or spaces")
    return str(v)


def _text(d: Mapping[str, Any], key: str, limit: int = 200) -> str:
    return str(_field(d, key, str, "text"))[:limit]


def parse(topic: str, payload: bytes, event: str, now: float | None = None) -> Result | Status | HighScore:
    """Check one message from our event's topics.

    A result must also be one a game can give: every score within
    :data:`SCORE_LIMITS` (or :data:`MAX_SCORE`), the ``score`` and ``tiebreak``
    the ones :func:`score_of` gives for its scores (the text shown is made here,
    never taken from the message), and ``finished_at`` (s since 1970) at most
    :data:`FUTURE_SLACK_S` after ``now`` (default: this machine's clock).

    Raises:
        PayloadError: not UTF-8 JSON, another payload version, a missing or
            wrong-typed field, another event, a topic that does not match
            the payload's game id / cabinet, or a result no game can give.
    """
    if len(payload) > 64_000:
        raise PayloadError(f"{len(payload)} bytes, more than a result ever takes")
    try:
        d = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise PayloadError(f"not JSON ({exc})") from None
    if not isinstance(d, dict):
        raise PayloadError("not a JSON object")
    if d.get("v") != PAYLOAD_VERSION:
        raise PayloadError(f"payload version {d.get('v')!r}, this cabinet reads version {PAYLOAD_VERSION}")
    if _field(d, "event", str, "the event's name") != event:
        raise PayloadError(f"event {d['event']!r}, this is {event!r}")
    kind = d.get("kind")
    parts = topic.split("/")
    if kind == "result":
        gid = _field(d, "game_id", str, "a game id")
        try:
            uuid.UUID(gid)
        except ValueError:
            raise PayloadError(f"game_id {gid!r} is not a UUID") from None
        if parts[-2:] != ["results", gid]:
            raise PayloadError(f"game_id {gid!r} on topic {topic!r}")
        seats = _field(d, "seats", int, "a number of seats")
        if not 1 <= seats <= 8:
            raise PayloadError(f"'seats' is {seats}, expected 1 to 8")
        winners = _field(d, "winners", list, "a list of seats")
        scores = _field(d, "scores", list, "a list of numbers")
        if not all(isinstance(w, int) and not isinstance(w, bool) and 0 <= w < seats for w in winners):
            raise PayloadError(f"'winners' is {winners!r}, expected seats 0 to {seats - 1}")
        if len(scores) > seats or not all(isinstance(s, (int, float)) and not isinstance(s, bool)
                                          and math.isfinite(s) for s in scores):
            raise PayloadError(f"'scores' is {scores!r}, expected at most {seats} numbers")
        seat = d.get("seat")
        if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats):
            raise PayloadError(f"'seat' is {seat!r}, expected a seat or null")
        game = _text(d, "game", 40)
        limit = SCORE_LIMITS.get(game.split("-")[0], MAX_SCORE)
        if any(abs(s) > limit for s in scores):
            raise PayloadError(f"'scores' is {scores!r}: more than a {game} game gives (at most {limit:g})")
        score = float(_field(d, "score", (int, float), "a number"))
        tiebreak = float(_field(d, "tiebreak", (int, float), "a number"))
        expected = score_of(game, winners, scores)
        if (score, tiebreak) != (expected.value, expected.tiebreak):
            raise PayloadError(f"'score' {score:g} (tie-break {tiebreak:g}) does not follow from the scores "
                               f"{scores!r} (that is {expected.value:g}, tie-break {expected.tiebreak:g})")
        finished_at = float(_field(d, "finished_at", (int, float), "a time in seconds"))
        clock = time.time() if now is None else now
        if not 0 <= finished_at <= clock + FUTURE_SLACK_S:
            raise PayloadError(f"'finished_at' is {finished_at!r}: in the future (this cabinet's clock says "
                               f"{clock:.0f}) or before 1970")
        return Result(game_id=gid, event=event, cabinet=_name(d, "cabinet"), game=game,
                      board=_text(d, "board", 60), seats=seats, winners=tuple(winners),
                      reason=_text(d, "reason"), scores=tuple(float(s) for s in scores),
                      score=score, tiebreak=tiebreak, seat=seat,
                      score_text=expected.text, finished_at=finished_at,
                      version=_text(d, "version", 40) if "version" in d else "")
    if kind == "status":
        cab = _name(d, "cabinet")
        if parts[-2:] != ["status", cab]:
            raise PayloadError(f"cabinet {cab!r} on topic {topic!r}")
        state = _field(d, "state", str, f"one of {list(STATES)}")
        if state not in STATES:
            raise PayloadError(f"'state' is {state!r}, expected one of {list(STATES)}")
        errors = d.get("errors", [])
        if not isinstance(errors, list) or not all(isinstance(e, str) for e in errors):
            raise PayloadError(f"'errors' is {errors!r}, expected a list of texts")
        outbox = d.get("outbox", 0)
        if not isinstance(outbox, int) or isinstance(outbox, bool) or outbox < 0:
            raise PayloadError(f"'outbox' is {outbox!r}, expected a count")
        at = d.get("at", 0.0)
        if not isinstance(at, (int, float)) or isinstance(at, bool):
            raise PayloadError(f"'at' is {at!r}, expected a time in seconds")
        return Status(cabinet=cab, event=event, state=state, game=_text(d, "game", 60) if "game" in d else "",
                      led=_text(d, "led", 80) if "led" in d else "",
                      errors=tuple(e[:200] for e in errors[:5]),
                      version=_text(d, "version", 40) if "version" in d else "", outbox=outbox, at=float(at))
    if kind == "highscore":
        gid = _field(d, "game_id", str, "a game id")
        try:
            uuid.UUID(gid)
        except ValueError:
            raise PayloadError(f"game_id {gid!r} is not a UUID") from None
        seat = _field(d, "seat", int, "a seat")
        if not 0 <= seat < 8:
            raise PayloadError(f"'seat' is {seat}, expected 0 to 7")
        if parts[-2:] != ["highscores", f"{gid}-P{seat + 1}"]:
            raise PayloadError(f"game_id {gid!r} seat {seat} on topic {topic!r}")
        initials = _field(d, "initials", str, "1 to 3 letters")
        if not (1 <= len(initials) <= 3 and initials.isascii() and initials.isalpha() and initials.isupper()):
            raise PayloadError(f"'initials' is {initials!r}, expected 1 to 3 capital letters")
        return HighScore(gid, event, _name(d, "cabinet"), seat, initials)
    raise PayloadError(f"kind {kind!r}, expected 'result', 'status' or 'highscore'")


def make_result(event: str, cabinet: str, record: Mapping[str, Any], winners: Sequence[int], reason: str,
                scores: Sequence[float], finished_at: float, game_id: str | None = None) -> Result:
    """The message for one finished game (a new game id unless given)."""
    game = str(record["game"])
    s = score_of(game, winners, scores)
    return Result(game_id=game_id or str(uuid.uuid4()), event=event, cabinet=cabinet, game=game,
                  board=board_of(record), seats=int(record["seats"]), winners=tuple(int(w) for w in winners),
                  reason=str(reason)[:200], scores=tuple(float(x) for x in scores), score=s.value,
                  tiebreak=s.tiebreak, seat=s.seat, score_text=s.text, finished_at=finished_at,
                  version=version())


# -- the leaderboard -----------------------------------------------------------------------

BOARD_TITLES = {"focusx-classic": "FocusX Classic", "focusx-thinkfocus": "FocusX ThinkFocus",
                "focusx-duel": "FocusX Duel", "focusx-4focus": "FocusX 4Focus", "sherlook": "Sherlook",
                "focus-2p": "FOCUS (2 players)", "focus-3p": "FOCUS (3 players)",
                "focus-4p-teams": "FOCUS (4, teams)", "focus-4p": "FOCUS (4 players)",
                "focus-crossfire": "Crossfire"}


def board_title(board: str) -> str:
    """A board's heading: the registry's label for the entry, else a readable name."""
    try:
        from arcade import registry
        return str(registry.get(board).label)
    except Exception:
        pass
    if board in BOARD_TITLES:
        return BOARD_TITLES[board]
    if board.endswith("-x") and board[:-2] in BOARD_TITLES:
        return BOARD_TITLES[board[:-2]] + " (FocusX rule)"
    if board.startswith("coop-"):
        return "Focus (2023) " + board[5:].replace("-", " + ").title()
    return board


class Leaderboard:
    """Every game of the event seen so far, each game id once; thread-safe.

    ``changes`` goes up by one for each new game or status, so a screen redraws
    only when it moved.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.games: dict[str, Result] = {}
        self.statuses: dict[str, Status] = {}
        self.duplicates = 0               # deliveries of a game id already counted (not our own echo)
        self.ignored = 0                  # bad or foreign payloads
        self.unconfirmed: set[str] = set()  # our own games not yet seen back from the broker
        self.confirmed: set[str] = set()    # game ids the broker delivered to us since start
        self.initials: dict[tuple[str, int], str] = {}   # (game id, seat) -> initials entered
        self.changes = 0
        self.listeners: list[Callable[[], None]] = []

    def add(self, result: Result, own: bool = False) -> bool:
        """Add one game (``own``: this cabinet's, not from the broker); False if its game
        id was already counted."""
        with self.lock:
            gid = result.game_id
            if not own:
                self.confirmed.add(gid)
            if gid in self.games:
                if not own and gid in self.unconfirmed:
                    self.unconfirmed.discard(gid)      # our own game back from the broker
                else:
                    self.duplicates += 1
                return False
            self.games[gid] = result
            if own:
                self.unconfirmed.add(gid)
            self.changes += 1
        self._tell()
        return True

    def set_initials(self, hs: HighScore) -> None:
        """A player's initials for a seat of a game (shown instead of "P2"; the game may come later)."""
        with self.lock:
            if self.initials.get((hs.game_id, hs.seat)) == hs.initials:
                return
            self.initials[(hs.game_id, hs.seat)] = hs.initials
            self.changes += 1
        self._tell()

    def add_item(self, item: "Result | Status | HighScore", own: bool = False) -> None:
        """Add whatever :func:`parse` returned."""
        if isinstance(item, Result):
            self.add(item, own)
        elif isinstance(item, HighScore):
            self.set_initials(item)
        else:
            self.set_status(item)

    def receive(self, topic: str, payload: bytes, event: str, level: int = logging.INFO
                ) -> "Result | Status | HighScore | None":
        """One message from the broker: checked by :func:`parse` and added; a bad one is
        counted in ``ignored`` and logged at ``level`` (the kiosk keeps running).
        Returns what was added, or None."""
        try:
            item = parse(topic, payload, event)
        except PayloadError as exc:
            self.ignored += 1
            log.log(level, "ignored a message on %s: %s", topic, exc)
            return None
        self.add_item(item)
        return item

    def set_status(self, status: Status) -> None:
        with self.lock:
            self.statuses[status.cabinet] = status
            self.changes += 1
        self._tell()

    def _tell(self) -> None:
        for f in list(self.listeners):
            try:
                f()
            except Exception:
                log.exception("leaderboard listener")

    def boards(self, top: int = 10) -> dict[str, list[Result]]:
        """Per board (sorted by name), its best ``top`` games: score, tie-break, then earliest first."""
        with self.lock:
            games = list(self.games.values())
        out: dict[str, list[Result]] = {}
        for g in games:
            out.setdefault(g.board, []).append(g)
        return {b: sorted(v, key=lambda r: (-r.score, -r.tiebreak, r.finished_at, r.game_id))[:top]
                for b, v in sorted(out.items())}

    def counts(self) -> dict[str, int]:
        """Games per board."""
        with self.lock:
            return dict(collections.Counter(g.board for g in self.games.values()))

    def rows(self, top: int = 10) -> dict[str, list[dict[str, Any]]]:
        """Per board (sorted by name), its best ``top`` rows as shown.

        A row: ``rank``, ``score`` (text), ``cabinet``, ``who`` ("P2", "team" or ""),
        ``game_id`` and ``finished_at``.  Most boards list single games (see
        :func:`score_of`); the boards of :data:`TOTAL_GAMES` (FOCUS) list each
        cabinet's wins added up, as the kiosk's high scores do (``game_id`` None).
        """
        with self.lock:
            initials = dict(self.initials)

        def who(r: Result) -> str:
            if r.seat is None:
                return "team"
            return initials.get((r.game_id, r.seat), f"P{r.seat + 1}")

        out: dict[str, list[dict[str, Any]]] = {}
        for b, games in self.boards(10 ** 9).items():
            if games and games[0].game in TOTAL_GAMES:
                # Wins added up per player who entered initials at a cabinet, else per cabinet.
                wins: dict[tuple[str, str], list[float]] = {}
                for g in games:
                    name = initials.get((g.game_id, g.seat), "") if g.seat is not None else ""
                    w = wins.setdefault((name, g.cabinet), [0.0, 0.0])
                    w[0] += g.score
                    w[1] = max(w[1], g.finished_at)
                ranked = sorted(wins.items(), key=lambda kv: (-kv[1][0], kv[1][1], kv[0]))[:top]
                out[b] = [{"rank": i + 1, "score": f"{n:g} win{'s' if n != 1 else ''}", "cabinet": cab, "who": name,
                           "game_id": None, "finished_at": last}
                          for i, ((name, cab), (n, last)) in enumerate(ranked)]
            else:
                out[b] = [{"rank": i + 1, "score": r.score_text, "cabinet": r.cabinet, "who": who(r),
                           "game_id": r.game_id, "finished_at": r.finished_at} for i, r in enumerate(games[:top])]
        return out

    def snapshot(self, top: int = 10) -> dict[str, Any]:
        """JSON-able view: ``games`` (count), ``boards`` (board, title, games, ``top`` rows
        from :meth:`rows`), ``cabinets`` (each one's last status)."""
        counts = self.counts()
        with self.lock:
            statuses = sorted(self.statuses.values(), key=lambda s: s.cabinet)
            total = len(self.games)
        return {"games": total,
                "boards": [{"board": b, "title": board_title(b), "games": counts.get(b, 0), "top": rows}
                           for b, rows in self.rows(top).items()],
                "cabinets": [{"cabinet": s.cabinet, "state": s.state, "game": s.game, "led": s.led,
                              "errors": list(s.errors), "version": s.version, "outbox": s.outbox, "at": s.at}
                             for s in statuses]}


# -- the link to the broker ------------------------------------------------------------------

def read_password(settings: Mapping[str, Any]) -> str | None:
    """``[event] password``, else the first line of ``password_file``; None without a user name.

    Raises:
        OSError: the password file cannot be read.
    """
    if not settings.get("username"):
        return None
    if settings.get("password_file"):
        text = Path(settings["password_file"]).expanduser().read_text(encoding="utf-8")
        return text.splitlines()[0].strip() if text.strip() else ""
    return str(settings.get("password") or "")


def make_client(settings: Mapping[str, Any], client_id: str, persistent: bool) -> Any:
    """A paho-mqtt 2.x client for ``[event]`` (MQTT 3.1.1, TLS and login as configured).

    Raises:
        OSError: the password or CA file cannot be read.
        ssl.SSLError: a CA file that is not a certificate.
    """
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=not persistent, protocol=mqtt.MQTTv311)
    password = read_password(settings)
    if settings.get("username"):
        client.username_pw_set(settings["username"], password)
    if settings.get("tls"):
        client.tls_set(ca_certs=str(Path(settings["ca_file"]).expanduser()) if settings.get("ca_file") else None)
    client.reconnect_delay_set(min_delay=1, max_delay=15)
    return client


def unreachable_text(exc: BaseException | None, settings: Mapping[str, Any]) -> str:
    """Why the broker could not be reached, in words (``exc``: the connect attempt's error)."""
    import ssl
    where = f"{settings.get('host')}:{settings.get('port')}"
    if isinstance(exc, ssl.SSLCertVerificationError):
        ca = settings.get("ca_file") or "the system's CA certificates"
        why = f"its TLS certificate is not trusted ({exc.verify_message}; checked against {ca})"
    elif isinstance(exc, ssl.SSLError):
        why = f"TLS failed ({exc.reason or exc}); is [event] tls right for port {settings.get('port')}?"
    elif isinstance(exc, ConnectionRefusedError):
        why = "nothing answers on that port (is Mosquitto running?)"
    elif isinstance(exc, socket.gaierror):
        why = f"the host name {settings.get('host')!r} is not known"
    elif isinstance(exc, (TimeoutError, socket.timeout)):
        why = "no answer (Wi-Fi or network down?)"
    elif exc is not None:
        why = str(exc) or type(exc).__name__
    else:
        why = "no connection"
    return f"Event broker {where} cannot be reached: {why}. Games are kept and sent when it is back."


def refusal_text(reason: Any, settings: Mapping[str, Any]) -> str:
    """What to tell the operator when the broker refuses the connection."""
    where = f"{settings.get('host')}:{settings.get('port')}"
    text = str(reason)
    low = text.lower()
    if "user name or password" in low or "bad user" in low or "not authori" in low:
        who = settings.get("username") or "(no user name)"
        return (f"Event broker {where} refused the login for user {who!r}: wrong user name or password. "
                "Check [event] username and password (or password_file).")
    return f"Event broker {where} refused this cabinet: {text}."


class EventLink:
    """One cabinet's connection to the event: outbox pump, status, leaderboard.

    Args:
        settings: the validated ``[event]`` section (host must be set).
        store_path: the cabinet's SQLite results file (the outbox lives there).
        message: called with a text for the screen (wrong credentials, broker gone...),
            from paho's thread; it must be thread-safe (the app passes ``App.post_message``).
        cabinet: this cabinet's name (default :func:`cabinet_name` of ``settings``).

    Attributes:
        leaderboard: the event's games and cabinets as received (and this cabinet's own).
        connected: whether the broker has accepted us right now.
        problem: the last connection problem, for the screen ("" when connected).
    """

    def __init__(self, settings: Mapping[str, Any], store_path: str | Path,
                 message: Callable[[str], None] | None = None, cabinet: str | None = None) -> None:
        self.settings = dict(settings)
        self.event = str(settings["event"])
        self.cabinet = cabinet or cabinet_name(settings)
        self.store_path = str(store_path)
        self.message = message or (lambda text: log.warning("%s", text))
        self.leaderboard = Leaderboard()
        self.connected = False
        self.problem = ""
        self.sent = 0                     # outbox rows acknowledged by the broker
        self.queued = 0                   # outbox rows waiting (the pump's last count; for screens)
        self._acks: collections.deque[int] = collections.deque()
        self._inflight: dict[int, tuple[int, str]] = {}   # mid -> (outbox seq, game uid)
        self._acked_now: set[str] = set()     # uids the broker acknowledged on this connection
        self._last_handed = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._status_wanted = Status(self.cabinet, self.event, "idle", version=version())
        self._status_sent: Status | None = None
        self._refused = False
        self._pump: threading.Thread | None = None
        self._saving: dict[str, Result] = {}
        self._seen: set[str] = set()          # game ids the broker gave us since the last connect
        self._sync_nonce = ""
        self._synced = ""
        self._resynced = ""
        self.resent = 0                       # own games re-sent because the broker had lost them
        self.client: Any = None

    # -- outbox (called in the save transaction, from the frame loop) --------------------------
    def outbox_hook(self, games_id: int, finished_at: float, record: dict[str, Any], winners: tuple[int, ...],
                    reason: str, scores: tuple[float, ...]) -> tuple[str, str, str, str]:
        """:data:`kiosk.storage.OutboxHook`: the game's id, event, topic and payload."""
        r = make_result(self.event, self.cabinet, record, winners, reason, scores, finished_at)
        self._saving[r.game_id] = r
        return r.game_id, self.event, results_topic(self.event, r.game_id), r.to_json()

    def committed(self, game_id: str) -> None:
        """The save transaction holding ``game_id`` committed: show the game on this
        cabinet's own board at once and send it soon."""
        r = self._saving.pop(game_id, None)
        if r is not None:
            self.leaderboard.add(r, own=True)
        self._wake.set()

    def queue_high_score(self, db: sqlite3.Connection, games_id: int, seat: int, initials: str) -> bool:
        """Put the initials a player entered for ``seat`` of the saved game ``games_id`` into the
        outbox, on ``db`` (the results file's connection) inside the caller's transaction, so
        the high score and its message are written together.  False: that game was not
        played in this event (no game id), nothing queued.

        Raises:
            ValueError: ``initials`` are not 1 to 3 capital letters, or ``seat`` is not 0 to 7.
            sqlite3.Error: the write failed (the caller's transaction rolls back).
        """
        if not (1 <= len(initials) <= 3 and initials.isascii() and initials.isalpha() and initials.isupper()):
            raise ValueError(f"initials {initials!r}: expected 1 to 3 capital letters")
        if not 0 <= seat < 8:
            raise ValueError(f"seat {seat}: expected 0 to 7")
        row = db.execute("SELECT game_uid FROM event_games WHERE games_id = ? AND event = ?",
                         (games_id, self.event)).fetchone()
        if row is None:
            return False
        hs = HighScore(row[0], self.event, self.cabinet, seat, initials)
        db.execute("INSERT OR REPLACE INTO outbox (game_uid, topic, payload, created_at) VALUES (?, ?, ?, ?)",
                   (f"{hs.game_id}-P{seat + 1}", highscore_topic(self.event, hs.game_id, seat), hs.to_json(),
                    time.time()))
        self.leaderboard.set_initials(hs)
        self._wake.set()
        return True

    def poke(self) -> None:
        """Something new in the outbox: hand it to paho soon."""
        self._wake.set()

    def set_status(self, state: str, game: str = "", led: str = "", errors: Sequence[str] = ()) -> None:
        """The state to publish (retained); sent by the pump thread when it changed."""
        s = Status(self.cabinet, self.event, state, game, led, tuple(errors), version(), 0, 0.0)
        if (s.state, s.game, s.led, s.errors) != (self._status_wanted.state, self._status_wanted.game,
                                                  self._status_wanted.led, self._status_wanted.errors):
            self._status_wanted = s
            self._wake.set()

    # -- life ------------------------------------------------------------------------------
    def start(self) -> None:
        """Connect in the background (paho's loop thread); returns at once.

        Raises:
            OSError: the password or CA file cannot be read (``[event]`` checked them
                at start-up, so this is a file removed since).
        """
        client_id = f"focus-arcade-{self.event}-{self.cabinet}"[:64]
        self.client = make_client(self.settings, client_id, persistent=True)
        offline = Status(self.cabinet, self.event, "offline", version=version())
        self.client.will_set(status_topic(self.event, self.cabinet), offline.to_json(), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message
        self.client.connect_async(self.settings["host"], int(self.settings["port"]), keepalive=20)
        self.client.loop_start()
        self._pump = threading.Thread(target=self._pump_loop, name="event-outbox", daemon=True)
        self._pump.start()

    def stop(self, goodbye: bool = True, timeout: float = 2.0) -> None:
        """Say "offline" (retained) if connected, then disconnect; unsent games stay in the outbox."""
        self._stop.set()
        self._wake.set()
        if self._pump is not None:
            self._pump.join(timeout)
        if self.client is None:
            return
        try:
            if goodbye and self.connected:
                info = self.client.publish(status_topic(self.event, self.cabinet),
                                           Status(self.cabinet, self.event, "offline", version=version(),
                                                  at=time.time()).to_json(), qos=1, retain=True)
                info.wait_for_publish(timeout)
            self.client.disconnect()
        except Exception as exc:
            log.info("event link stop: %s", exc)
        self.client.loop_stop()

    def pending(self) -> int:
        """Games still waiting in the outbox."""
        db = sqlite3.connect(self.store_path, timeout=5)
        try:
            return int(db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])
        except sqlite3.Error:
            return 0
        finally:
            db.close()

    # -- paho callbacks (paho's network thread; short, never take our locks) -----------------
    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            self.connected = False
            text = refusal_text(reason_code, self.settings)
            if text != self.problem or not self._refused:
                self.message(text)
            self.problem, self._refused = text, True
            return
        self.connected = True
        if self.problem:
            self.message(f"Event {self.event!r}: connected to the broker again.")
        self.problem, self._refused = "", False
        self._status_sent = None
        self._seen = set()
        self._acked_now = set()
        self._sync_nonce = uuid.uuid4().hex
        self._synced = ""
        client.subscribe([(results_topic(self.event), 1), (status_topic(self.event), 1),
                          (highscore_topic(self.event), 1), (sync_topic(self.event, self.cabinet), 1)])
        self._wake.set()

    def _on_subscribe(self, client: Any, userdata: Any, mid: int, reason_codes: Any, properties: Any) -> None:
        # The broker queues the retained results to us before it handles anything we
        # send after its SUBACK, so this probe comes back after the last of them.
        client.publish(sync_topic(self.event, self.cabinet), self._sync_nonce, qos=1)

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        self.connected = False
        text = unreachable_text(sys.exc_info()[1], self.settings)   # paho calls this inside its except
        if text != self.problem:
            self.problem = text
            self.message(text)

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        was = self.connected
        self.connected = False
        if self._stop.is_set() or self._refused:
            pass
        elif was:
            self.problem = (f"Lost the event broker {self.settings['host']}:{self.settings['port']} ({reason_code}); "
                            "games are kept and sent when it is back.")
            self.message(self.problem)
        else:
            text = (f"Event broker {self.settings['host']}:{self.settings['port']} hung up before accepting this "
                    f"cabinet: is [event] tls = {'true' if self.settings.get('tls') else 'false'} right for that "
                    "port? Games are kept and sent when it is back.")
            if text != self.problem:
                self.problem = text
                self.message(text)
        self._wake.set()

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason_code: Any, properties: Any) -> None:
        self._acks.append(mid)
        self._wake.set()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        if msg.topic == sync_topic(self.event, self.cabinet):
            if msg.payload.decode("ascii", "replace") == self._sync_nonce:
                self._synced = self._sync_nonce
                self._wake.set()
            return
        item = self.leaderboard.receive(msg.topic, msg.payload, self.event, logging.WARNING)
        if isinstance(item, Result):
            self._seen.add(item.game_id)

    # -- the pump thread ---------------------------------------------------------------------
    def _pump_loop(self) -> None:
        db: sqlite3.Connection | None = None
        while True:
            self._wake.wait(0.5)
            self._wake.clear()
            stopping = self._stop.is_set()
            try:
                if db is None:
                    db = sqlite3.connect(self.store_path, timeout=10)
                    db.execute("PRAGMA busy_timeout=10000")
                    # A delete lost in a power cut only means the game is sent once more
                    # (counted once): no need to wait for the SD card on each one, which
                    # would also hold the lock the frame loop's next save needs.
                    db.execute("PRAGMA synchronous=NORMAL")
                self._pump_once(db)
            except sqlite3.Error as exc:
                log.warning("event outbox: %s", exc)
                if db is not None:
                    db.close()
                db = None
            except Exception:
                log.exception("event outbox")
            if stopping:
                break
        if db is not None:
            db.close()

    def _resend_lost(self, db: sqlite3.Connection) -> None:
        """Our games (``event_games``) the broker no longer holds (it lost its store, or an
        operator cleared a topic by mistake) go back into the outbox with their own game id."""
        # Games acknowledged on this connection are with the broker, their echo may still be
        # on its way after the probe; only older ones can be missing.
        seen = set(self._seen) | set(self._acked_now)
        rows = db.execute("SELECT e.game_uid, g.finished_at, g.record, g.winners, g.reason, g.scores "
                          "FROM event_games e JOIN games g ON g.id = e.games_id "
                          "WHERE e.event = ? AND e.game_uid NOT IN (SELECT game_uid FROM outbox) "
                          "ORDER BY g.id", (self.event,)).fetchall()
        lost = [r for r in rows if r[0] not in seen]
        if not lost:
            return
        with db:
            for uid, finished, record, winners, reason, scores in lost:
                r = make_result(self.event, self.cabinet, json.loads(record), json.loads(winners), reason,
                                json.loads(scores), finished, game_id=uid)
                db.execute("INSERT OR IGNORE INTO outbox (game_uid, topic, payload, created_at) VALUES (?, ?, ?, ?)",
                           (uid, results_topic(self.event, uid), r.to_json(), time.time()))
        self.resent += len(lost)
        log.warning("event %s: the broker had lost %d of this cabinet's games; sending them again",
                    self.event, len(lost))

    def _pump_once(self, db: sqlite3.Connection) -> None:
        self._send_some(db)
        self.queued = int(db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])

    def _send_some(self, db: sqlite3.Connection) -> None:
        acked: list[int] = []
        while self._acks:
            handed = self._inflight.pop(self._acks.popleft(), None)
            if handed is not None:
                acked.append(handed[0])
                self._acked_now.add(handed[1])
        if acked:
            with db:
                db.executemany("DELETE FROM outbox WHERE seq = ?", [(s,) for s in acked])
            self.sent += len(acked)
        if not self.connected or self._stop.is_set():
            return
        if self._synced and self._synced != self._resynced:
            self._resynced = self._synced
            self._resend_lost(db)
        room = WINDOW - len(self._inflight)
        if room > 0:
            rows = db.execute("SELECT seq, topic, payload, game_uid FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?",
                              (self._last_handed, room)).fetchall()
            for seq, topic, payload, uid in rows:
                info = self.client.publish(topic, payload, qos=1, retain=True)
                if info.rc not in (0, 4):      # 4 = not connected: paho keeps it and sends it on reconnect
                    log.warning("event outbox: publish of %s refused (rc %s); will retry", topic, info.rc)
                    break
                self._inflight[info.mid] = (seq, uid)
                self._last_handed = seq
            if len(rows) == room:
                self._wake.set()             # more waiting: go on after the acks
        wanted = self._status_wanted
        if wanted is not self._status_sent:
            n = self.queued
            s = Status(wanted.cabinet, wanted.event, wanted.state, wanted.game, wanted.led, wanted.errors,
                       wanted.version, n, time.time())
            self.client.publish(status_topic(self.event, self.cabinet), s.to_json(), qos=1, retain=True)
            self._status_sent = wanted


class Watcher:
    """A read-only subscriber (``event status``, ``leaderboard-web``): a clean session under
    a random client id, the event's results and statuses into :attr:`leaderboard`.

    Attributes:
        synced: set once the retained messages present at connect time have all arrived.
        problem: the connection problem in words ("" while fine).
    """

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self.settings = dict(settings)
        self.event = str(settings["event"])
        self.leaderboard = Leaderboard()
        self.synced = threading.Event()
        self.refused = threading.Event()
        self.problem = ""
        self.connected = False
        self.name = f"watch-{uuid.uuid4().hex[:12]}"
        self._nonce = uuid.uuid4().hex
        self.client = make_client(settings, f"focus-arcade-{self.name}", persistent=False)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message

    def start(self) -> "Watcher":
        self.client.connect_async(self.settings["host"], int(self.settings["port"]), keepalive=20)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        try:
            self.client.disconnect()
        finally:
            self.client.loop_stop()

    def _on_connect(self, c: Any, u: Any, f: Any, rc: Any, p: Any) -> None:
        if rc.is_failure:
            self.problem = refusal_text(rc, self.settings)
            self.refused.set()
            self.leaderboard._tell()
            return
        self.connected, self.problem = True, ""
        c.subscribe([(results_topic(self.event), 1), (status_topic(self.event), 1),
                     (highscore_topic(self.event), 1), (sync_topic(self.event, self.name), 1)])

    def _on_connect_fail(self, c: Any, u: Any) -> None:
        self.connected = False
        self.problem = unreachable_text(sys.exc_info()[1], self.settings).split(". Games")[0] + "."
        self.refused.set()
        self.leaderboard._tell()

    def _on_disconnect(self, c: Any, u: Any, f: Any, rc: Any, p: Any) -> None:
        self.connected = False

    def _on_subscribe(self, c: Any, u: Any, mid: int, rcs: Any, p: Any) -> None:
        c.publish(sync_topic(self.event, self.name), self._nonce, qos=1)

    def _on_message(self, c: Any, u: Any, msg: Any) -> None:
        if msg.topic == sync_topic(self.event, self.name):
            self.synced.set()
            return
        self.leaderboard.receive(msg.topic, msg.payload, self.event)


def watch(settings: Mapping[str, Any], seconds: float = 5.0) -> tuple[Leaderboard, str]:
    """Collect the event's retained results and statuses (``event status``): returns
    the leaderboard and a problem text ("" = fine) within ``seconds``."""
    w = Watcher(settings).start()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not w.synced.is_set() and not w.refused.is_set():
        time.sleep(0.02)
    w.stop()
    if w.synced.is_set():
        return w.leaderboard, ""
    return w.leaderboard, w.problem or f"no answer from the broker within {seconds:g} s"


def format_status(board: Leaderboard) -> str:
    """The hall for the operator: one line per cabinet (state, game, games on the boards,
    messages still to send, version, LED link, errors), then the games and best per board."""
    snap = board.snapshot(1)
    per_cab = collections.Counter(g.cabinet for g in list(board.games.values()))
    lines = [f"{'cabinet':<20} {'state':<8} {'game':<20} {'games':>5} {'to send':>7}  {'version':<8} "
             f"{'LED':<24} errors"]
    def cell(value: object, width: int) -> str:
        # One line per cabinet whatever a payload holds: control characters become spaces and a
        # long value is cut to its column (the operator's table stays aligned).
        s = "".join(ch if ch.isprintable() else " " for ch in str(value))
        return s if width <= 0 or len(s) <= width else s[:width - 1] + "~"

    for c in snap["cabinets"]:
        state = c["state"]               # "offline" is the broker's word (the cabinet's last will)
        lines.append(f"{cell(c['cabinet'], 20):<20} {cell(state, 8):<8} {cell(c['game'] or '-', 20):<20} "
                     f"{per_cab.get(c['cabinet'], 0):>5} {c['outbox']:>7}  {cell(c['version'], 8):<8} "
                     f"{cell(c['led'] or '-', 24):<24} {cell('; '.join(c['errors']) or '-', 0)}")
    if not snap["cabinets"]:
        lines.append("(no cabinet has reported yet)")
    lines.append("")
    lines.append(f"{snap['games']} games")
    for b in snap["boards"]:
        best = b["top"][0] if b["top"] else None
        lines.append(f"  {b['title']:<28} {b['games']:>5} games" +
                     (f", best {best['score']} ({(best['who'] + ' @ ') if best['who'] else ''}{best['cabinet']})"
                      if best else ""))
    if board.ignored:
        lines.append(f"{board.ignored} messages on the event's topics were not valid payloads (ignored)")
    return "\n".join(lines)
