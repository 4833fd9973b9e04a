"""Several cabinets, one event: results and cabinet status through an MQTT broker (issues 15, 24).

Off unless ``[event] host`` is set (kiosk/config.py); then the cabinet is an MQTT
*client* of the hall's broker (Mosquitto) and never listens on a port.

Topics (``<event>`` and ``<cabinet>`` as in ``[event]``; docs/event-protocol.md)::

    focus-arcade/<event>/cabinet/<cabinet>/results/<game id>   one retained message per finished game
    focus-arcade/<event>/cabinet/<cabinet>/highscores/<game id>-P<seat>
    focus-arcade/<event>/cabinet/<cabinet>/status              retained; last will "offline"
    focus-arcade/<event>/operator/removed/<game id>            retained: the operator removed that game
    focus-arcade/<event>/operator/closed                       retained: the event is closed
    focus-arcade/<event>/operator/final/<part>                 retained: the game ids that count, once closed
    focus-arcade/<event>/sync/<user>/<client>                  a client's own echo (not retained)

Each cabinet logs in as its own user (its cabinet name) and the hall's ACL
(kiosk/hall/focus-arcade.acl) lets it write only under ``cabinet/<its name>/``;
a consumer takes a result only from its own cabinet's topic, for a board of the
registry and within that board's score range (``GameSpec.score_range``).

Why one retained message per game id: every client that subscribes (a cabinet
joining late, one that restarts, ``leaderboard-web``) gets the whole event's
results from the broker at once, with no replay protocol and no cabinet acting as
a server.  A game published twice (a lost acknowledgement, a cabinet killed
before it deleted the outbox row) lands on the same topic with the same game id,
and the :class:`Leaderboard` counts a game id once.

Nothing lost: :meth:`kiosk.persist.storage.Results.save` writes the game, its outbox row
and its game id in one SQLite transaction (``outbox_hook``).  A pump thread hands
outbox rows to paho in order (QoS 1, retained, under a fixed client id); paho's
network thread (``loop_start``) sends them and resends the unacknowledged ones after
a reconnect; a row is deleted only when its PUBACK came back (``on_publish`` with its
mid).  The session is clean: the broker keeps no queue for a cabinet that is off (one
login's flood meanwhile would fill it and push real messages out), and on each
connection the cabinet reads the event again from the retained messages, stepwise.  The frame loop never calls paho: it only
writes SQLite and sets the wanted status.

No message stops a client: :func:`parse` bounds a payload's size, nesting and
numbers before it builds anything, every text that came in is cleaned by
:func:`clean_text`, and every paho callback runs inside :func:`guarded`, which
logs whatever went wrong with the topic and drops that message.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import json
import logging
import math
import re
import socket
import sqlite3
import sys
import threading
import time
import unicodedata
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, NoReturn, ParamSpec, Sequence, TypedDict, TypeVar

from kiosk import version

if TYPE_CHECKING:                       # paho and the registry are imported where they are used
    import paho.mqtt.client as mqtt
    from paho.mqtt.properties import Properties
    from paho.mqtt.reasoncodes import ReasonCode

    from arcade.registry import GameSpec

log = logging.getLogger("focus-arcade.event")

#: Version 2: per-cabinet topics, the operator's topics, ``instance`` in statuses (issue 24).
PAYLOAD_VERSION = 2
ROOT = "focus-arcade"
#: Outbox rows handed to paho and not yet acknowledged, at most (paho sends 20 at a time).
WINDOW = 100
STATES = ("idle", "playing", "offline")
#: Games whose boards add up each cabinet's wins instead of listing single games
#: (the kiosk's high scores rank FOCUS the same way: 1 per game won, added up).
TOTAL_GAMES = frozenset({"focus"})


def cabinet_topic(event: str, cabinet: str = "+") -> str:
    """Everything one cabinet writes lives under this (its lines in the hall's ACL: :func:`cabinet_acl`)."""
    return f"{ROOT}/{event}/cabinet/{cabinet}"


def results_topic(event: str, game_id: str = "+", cabinet: str = "+") -> str:
    return f"{cabinet_topic(event, cabinet)}/results/{game_id}"


def status_topic(event: str, cabinet: str = "+") -> str:
    return f"{cabinet_topic(event, cabinet)}/status"


def highscore_topic(event: str, game_id: str = "+", seat: int | None = None, cabinet: str = "+") -> str:
    """Initials a player entered for a high score: one retained message per game and seat."""
    return f"{cabinet_topic(event, cabinet)}/highscores/{game_id if seat is None else f'{game_id}-P{seat + 1}'}"


def removed_topic(event: str, game_id: str = "+", cabinet: str = "") -> str:
    """The operator's note that a game is off every board (retained; only the operator writes it):
    with ``cabinet``, only that cabinet's game of that id (a game is known by its cabinet and its
    id: another login may publish a game under an id it copied)."""
    return f"{ROOT}/{event}/operator/removed/{game_id}" + (f"/{cabinet}" if cabinet else "")


def closed_topic(event: str) -> str:
    """The operator's note that the event is closed (retained)."""
    return f"{ROOT}/{event}/operator/closed"


def final_topic(event: str, part: int | str = "+") -> str:
    """One part of the closed event's final results: the game ids that count (retained;
    only the operator writes it)."""
    return f"{ROOT}/{event}/operator/final/{part}"


def sync_topic(event: str, client: str, user: str = "") -> str:
    """A client's own echo topic: its probe comes back after the retained messages.
    Under the login's name (``user``), which the ACL lets each login write."""
    return f"{ROOT}/{event}/sync/{user or '-'}/{client}"


def subscriptions(event: str) -> list[tuple[str, int]]:
    """What every consumer subscribes to (QoS 1): the operator's notes, every cabinet's status,
    results and high scores.

    The operator's notes come first, then the statuses: the broker queues a new subscriber's
    retained messages filter by filter, in this order, and drops what is past its
    ``max_queued_messages``, so a login that floods its own results topics can never push
    a removal, the close or the final results out of a board's queue."""
    return [(f"{ROOT}/{event}/operator/#", 1), (status_topic(event), 1), (results_topic(event), 1),
            (highscore_topic(event), 1)]


#: Host names many machines share out of the box: a cabinet named after one gets a suffix.
GENERIC_HOSTS = ("raspberrypi", "localhost", "debian", "ubuntu", "pi", "kiosk", "")


def cabinet_name(settings: Mapping[str, object]) -> str:
    """``[event] cabinet``, else the broker login (``username``: each cabinet logs in as
    itself), else this machine's host name (topic-safe, at most 40 characters); a stock
    host name such as "raspberrypi" gets 4 characters of ``/etc/machine-id``, so two
    fresh Pis never share a name (and a client id: the broker would keep dropping one)."""
    name = str(settings.get("cabinet") or "")
    if name:
        return name
    user = str(settings.get("username") or "")
    if user and valid_name(user):
        return user
    host = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in socket.gethostname()).strip("-.")
    if host.lower() in GENERIC_HOSTS:
        host = f"{host or 'cabinet'}-{machine_id()[:4]}"
    return host[:40]


def machine_id() -> str:
    """This machine's id (``/etc/machine-id``, else one made from its network address)."""
    try:
        found = Path("/etc/machine-id").read_text().strip()
        if found:
            return found
    except OSError:
        pass
    return uuid.uuid5(uuid.NAMESPACE_DNS, str(uuid.getnode())).hex


#: The hall's logins that are no cabinet (kiosk/hall/focus-arcade.acl): the operator may write
#: anywhere, so messages "from" these as cabinets are refused.
HALL_LOGINS = frozenset({"board", "operator"})
_NAME = re.compile(r"[\w.\-]{1,40}")


def valid_name(name: str) -> bool:
    """An event or cabinet name: 1 to 40 letters, digits, ``-``, ``_`` or ``.`` (a topic level
    and an MQTT user name; never a wildcard, a separator, a space or a control character)."""
    return _NAME.fullmatch(name) is not None


# -- text that came from the network ----------------------------------------------------------

#: Characters that steer the direction of the text around them (Unicode bidi controls).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
ELLIPSIS = "\u2026"


def clean_text(text: str, limit: int = 40) -> str:
    """Text from a message as every screen shows it (the kiosk's leaderboard, ``event
    status``, the web page): one line of at most ``limit`` characters (cut with "…").

    NUL and other control characters become spaces (runs of spaces one), a lone
    surrogate (not text: no font or terminal can show it) becomes U+FFFD, and format
    characters (bidi embeddings, overrides and isolates, zero-width characters) are
    dropped, so a name can never reverse or hide what is shown after it; each screen
    then isolates the name (:func:`isolate`, ``<bdi>`` on the page).

    >>> clean_text("ab\\x00c\\u202e)1(\\ud800 " + "x" * 50, 12)
    'ab c)1(\\ufffd xx…'
    """
    if text.isascii() and text.isprintable():       # the usual case: nothing to replace
        s = " ".join(text.split())
        return s if len(s) <= limit else s[:max(0, limit - 1)].rstrip() + ELLIPSIS
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Cs":
            out.append("\ufffd")
        elif cat == "Cf" or ch in BIDI_CONTROLS:
            continue
        elif cat in ("Cc", "Zl", "Zp") or ch.isspace():
            out.append(" ")
        else:
            out.append(ch)
    s = " ".join("".join(out).split())
    return s if len(s) <= limit else s[:max(0, limit - 1)].rstrip() + ELLIPSIS


def is_rtl(text: str) -> bool:
    """Whether ``text`` has a right-to-left letter (Hebrew, Arabic...)."""
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def isolate(text: str) -> str:
    """``text`` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE when it has
    right-to-left letters, so a terminal lays out what follows it (" (1 game)") as usual."""
    return f"\u2068{text}\u2069" if is_rtl(text) else text


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


def board_of(record: Mapping[str, object]) -> str:
    """The board a game belongs to: its registry entry (``arcade.registry``: ``focusx-duel-x``,
    ``focus-3p``, ``coop-sherlock``...); for a record without one, its game name with the FOCUS
    variant, the Focus (2023) mode or ``-x`` for the FocusX rule."""
    entry = record.get("entry")
    if isinstance(entry, str) and entry:
        return entry
    game = str(record.get("game", "?"))
    settings = as_dict(record.get("settings")) or {}
    if game == "focus" and settings.get("variant"):
        return "crossfire" if settings["variant"] == "crossfire" else f"focus-{settings['variant']}"
    if game == "coop" and settings.get("mode"):
        return f"coop-{settings['mode']}"
    if game.startswith("focusx") and settings.get("x_rule"):
        return f"{game}-x"
    if game == "coop":
        return "coop-base"
    return game


def board_spec(board: str) -> GameSpec | None:
    """The registry entry (``arcade.registry.GameSpec``) of a board, None if it is no board.
    ``focus-crossfire`` (an older record's name) is Crossfire's."""
    from arcade import registry
    try:
        return registry.get("crossfire" if board == "focus-crossfire" else board)
    except Exception:
        return None


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

#: The longest payload read (bytes): a result takes under 1 KB; the hall's broker refuses
#: packets over 64 KiB (kiosk/hall/focus-arcade.conf, ``max_packet_size``).
MAX_PAYLOAD = 16_000
#: The deepest nesting of lists and objects read (a result has 2: the object, its lists).
MAX_DEPTH = 4
#: Lists and objects in one payload, at most (a result has 3).
MAX_CONTAINERS = 32
#: The most digits an integer may have (times in ms, counts; nothing real has more).
MAX_DIGITS = 15
#: How far (s) a result's ``finished_at`` may be ahead of the receiver's clock (cabinets'
#: clocks differ; a Pi without network time can be behind, rarely ahead).
FUTURE_SLACK_S = 3600.0
#: No game of this payload version finished before it existed (2026-01-01 00:00 UTC, s since
#: 1970): a result that says it did is refused (a backdated forgery, or a Pi whose clock never
#: got the time: it shows 1970 until it has network time).
EARLIEST_GAME = 1767225600.0
#: Game families whose boards count whole things (FocusX: cards): a fraction is no result of theirs.
WHOLE_SCORES = frozenset({"focusx"})
#: Outbox counts, seats, times: any number read is within this (and finite).
MAX_NUMBER = 1e12


class PayloadError(ValueError):
    """A message on our topics that is not a valid payload (what is wrong, in words)."""


def as_dict(value: object) -> dict[str, object] | None:
    """``value`` when it is a JSON object (a dict whose keys are all text), else None."""
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return value
    return None


def to_int(value: object, what: str) -> int:
    """``int(value)`` of a number or a numeral (our own records and settings, checked when written).

    Raises:
        TypeError: ``value`` is neither (``what`` it is, in the message).
        ValueError: a text that is no numeral.
    """
    if isinstance(value, (int, float, str)):
        return int(value)
    raise TypeError(f"{what} is {_show(value)}, expected a number")


def as_int(value: object) -> int | None:
    """``value`` when it is an integer (never a bool: JSON's ``true`` is no count), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def dumps(obj: object) -> str:
    """JSON as every part of the event link writes it: sorted keys, and never NaN or an
    infinity (which no browser or strict reader takes).

    Raises:
        ValueError: ``obj`` holds NaN or an infinity.
    """
    return json.dumps(obj, sort_keys=True, allow_nan=False)


def _no_constant(name: str) -> NoReturn:
    raise PayloadError(f"{name} is not a number JSON allows")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise PayloadError(f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > MAX_NUMBER:
        raise PayloadError(f"the number {text[:20]!r} is out of range")
    return value


def _depth(value: dict[str, object] | list[object], level: int = 1) -> int:
    """How deep lists and objects nest in ``value`` (itself 1); bounded by MAX_CONTAINERS."""
    deepest = level
    for v in (value.values() if isinstance(value, dict) else value):
        if isinstance(v, (dict, list)):
            deepest = max(deepest, _depth(v, level + 1))
    return deepest


_DECODER = json.JSONDecoder(parse_int=_bounded_int, parse_float=_finite_float, parse_constant=_no_constant)


def loads(payload: bytes | bytearray) -> dict[str, object]:
    """A payload's JSON object, read within bounds: at most :data:`MAX_PAYLOAD` bytes of
    UTF-8, at most :data:`MAX_CONTAINERS` lists and objects nested at most
    :data:`MAX_DEPTH` deep, integers of at most :data:`MAX_DIGITS` digits, finite numbers.

    Raises:
        PayloadError: anything else, in words.
    """
    if len(payload) > MAX_PAYLOAD:
        raise PayloadError(f"{len(payload)} bytes, more than a message ever takes (at most {MAX_PAYLOAD})")
    # Counted before parsing: a payload of brackets costs the parser no stack at all.
    containers = payload.count(b"[") + payload.count(b"{")
    if containers > MAX_CONTAINERS:
        raise PayloadError(f"more than {MAX_CONTAINERS} lists and objects")
    try:
        d = _DECODER.decode(payload.decode("utf-8"))
    except PayloadError:
        raise
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise PayloadError(f"not JSON ({str(exc)[:80]})") from None
    if not isinstance(d, dict):
        raise PayloadError("not a JSON object")
    if containers > MAX_DEPTH and _depth(d) > MAX_DEPTH:     # fewer cannot nest deeper
        raise PayloadError(f"nested deeper than {MAX_DEPTH}")
    return d


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
        return dumps({"v": PAYLOAD_VERSION, "kind": "result", "game_id": self.game_id, "event": self.event,
                      "cabinet": self.cabinet, "game": self.game, "board": self.board, "seats": self.seats,
                      "winners": list(self.winners), "reason": self.reason, "scores": list(self.scores),
                      "score": self.score, "tiebreak": self.tiebreak, "seat": self.seat,
                      "score_text": self.score_text, "finished_at": self.finished_at,
                      "version": self.version})

    def same_game(self, other: "Result") -> bool:
        """Whether ``other`` says the same about the game (what the boards show of it)."""
        return (self.board, self.seats, self.winners, self.scores, self.finished_at, self.cabinet) == \
            (other.board, other.seats, other.winners, other.scores, other.finished_at, other.cabinet)


@dataclass(frozen=True)
class HighScore:
    """Initials entered for a seat's high score in a game (``kind: "highscore"``)."""

    game_id: str
    event: str
    cabinet: str
    seat: int
    initials: str

    def to_json(self) -> str:
        return dumps({"v": PAYLOAD_VERSION, "kind": "highscore", "game_id": self.game_id, "event": self.event,
                      "cabinet": self.cabinet, "seat": self.seat, "initials": self.initials})


@dataclass(frozen=True)
class Status:
    """A cabinet's state as published (``kind: "status"``); ``instance`` tells two machines
    that use the same cabinet name apart (:func:`instance_id`)."""

    cabinet: str
    event: str
    state: str
    game: str = ""
    led: str = ""
    errors: tuple[str, ...] = ()
    version: str = ""
    outbox: int = 0
    at: float = 0.0
    instance: str = ""

    def to_json(self) -> str:
        return dumps({"v": PAYLOAD_VERSION, "kind": "status", "cabinet": self.cabinet, "event": self.event,
                      "state": self.state, "game": self.game, "led": self.led, "errors": list(self.errors),
                      "version": self.version, "outbox": self.outbox, "at": self.at, "instance": self.instance})


@dataclass(frozen=True)
class Removed:
    """A game off every board (``kind: "removed"`` from the operator; or its retained result
    cleared, ``by_operator`` False, which its cabinet repairs)."""

    game_id: str
    event: str
    at: float = 0.0
    cabinet: str = ""
    by_operator: bool = True

    def to_json(self) -> str:
        return dumps({"v": PAYLOAD_VERSION, "kind": "removed", "event": self.event, "game_id": self.game_id,
                      "at": self.at, **({"cabinet": self.cabinet} if self.cabinet else {})})


@dataclass(frozen=True)
class Closed:
    """The event closed by the operator at ``at`` (s since 1970).  From then on only the
    ``games`` game ids listed in the ``parts`` :class:`FinalPart` messages count: a result
    that is not listed (however early its ``finished_at`` says it finished) is on no board."""

    event: str
    at: float
    parts: int = 0
    games: int = 0

    def to_json(self) -> str:
        return dumps({"v": PAYLOAD_VERSION, "kind": "closed", "event": self.event, "at": self.at,
                      "parts": self.parts, "games": self.games})


#: Games in one :class:`FinalPart` (``<cabinet>/<game id>``, at most 77 characters each: a part
#: stays under 13 KB, well inside :data:`MAX_PAYLOAD`).
FINAL_PART_SIZE = 150
#: Parts of a closed event's final results, at most (300,000 games).
MAX_FINAL_PARTS = 2000

#: A game as the final results list it: (cabinet, game id).  A game is known by its cabinet and
#: its id, so a copy of a listed id under another login's name is not listed.
GameKey = tuple[str, str]


@dataclass(frozen=True)
class FinalPart:
    """Part ``part`` of the games (cabinet, game id) that count in the event closed at ``close_at``."""

    event: str
    close_at: float
    part: int
    games: frozenset[GameKey]

    def to_json(self) -> str:
        return dumps({"v": PAYLOAD_VERSION, "kind": "final", "event": self.event, "close_at": self.close_at,
                      "part": self.part, "games": [f"{c}/{g}" for c, g in sorted(self.games)]})


def final_parts(event: str, close_at: float, games: Sequence[GameKey] | set[GameKey]) -> list[FinalPart]:
    """The final results (cabinet, game id) of an event closed at ``close_at`` cut into parts (at least one)."""
    keys = sorted(games)
    chunks = [keys[i:i + FINAL_PART_SIZE] for i in range(0, len(keys), FINAL_PART_SIZE)] or [[]]
    return [FinalPart(event, close_at, k, frozenset(c)) for k, c in enumerate(chunks)]


Item = Result | Status | HighScore | Removed | Closed | FinalPart


def instance_id(store_path: str | Path) -> str:
    """The same for one cabinet (machine and results file) across restarts, different for
    two machines: 12 hex digits of the machine id and the results file's path."""
    return hashlib.sha256(f"{machine_id()}:{Path(store_path).resolve()}".encode()).hexdigest()[:12]


T = TypeVar("T")


def _field(d: Mapping[str, object], key: str, kind: type[T] | tuple[type[T], ...], what: str) -> T:
    """``d[key]`` when it is of ``kind`` (never a bool unless ``kind`` says so; a number finite
    and at most :data:`MAX_NUMBER` either way).

    Raises:
        PayloadError: ``key`` missing or of another kind, in words (``what`` it should be).
    """
    if key not in d:
        raise PayloadError(f"no {key!r}")
    v = d[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(v, bool) and bool not in kinds:
        raise PayloadError(f"{key!r} is {v!r}, expected {what}")
    if not isinstance(v, kinds):
        raise PayloadError(f"{key!r} is {_show(v)}, expected {what}")
    if isinstance(v, (int, float)) and not isinstance(v, bool) and not (math.isfinite(v) and abs(v) <= MAX_NUMBER):
        raise PayloadError(f"{key!r} is {v!r}, expected a finite number")
    return v


def _list(d: Mapping[str, object], key: str, what: str) -> list[object]:
    """``d[key]`` when it is a list (its items still to be checked); :func:`_field`'s errors."""
    items: list[object] = _field(d, key, list, what)
    return items


def _show(v: object) -> str:
    return repr(v)[:60]


def _number(d: Mapping[str, object], key: str, what: str, default: float | None = None) -> float:
    if key not in d and default is not None:
        return default
    return float(_field(d, key, (int, float), what))


def _name(d: Mapping[str, object], key: str) -> str:
    v = _field(d, key, str, "a name")
    if not valid_name(v):
        raise PayloadError(f"{key!r} is {_show(v)}, expected 1 to 40 letters, digits, '-', '_' or '.'")
    return str(v)


def _text(d: Mapping[str, object], key: str, limit: int = 200) -> str:
    if key not in d:
        return ""
    return clean_text(str(_field(d, key, str, "text")), limit)


def _game_id(d: Mapping[str, object]) -> str:
    gid = _field(d, "game_id", str, "a game id")
    try:
        if str(uuid.UUID(gid)) != gid:
            raise ValueError
    except ValueError:
        raise PayloadError(f"game_id {_show(gid)} is not a UUID") from None
    return str(gid)


def _topic_kind(topic: str, event: str) -> tuple[str, str, str]:
    """(kind, cabinet, last level) of one of our topics.

    Raises:
        PayloadError: not one of the event's topics.
    """
    parts = topic.split("/")
    if parts[:2] == [ROOT, event]:
        rest = parts[2:]
        if len(rest) == 4 and rest[0] == "cabinet" and rest[2] in ("results", "highscores"):
            return ("result" if rest[2] == "results" else "highscore"), rest[1], rest[3]
        if len(rest) == 3 and rest[0] == "cabinet" and rest[2] == "status":
            return "status", rest[1], ""
        if len(rest) == 3 and rest[:2] == ["operator", "removed"]:
            return "removed", "", rest[2]
        if len(rest) == 4 and rest[:2] == ["operator", "removed"]:
            return "removed", rest[3], rest[2]
        if rest == ["operator", "closed"]:
            return "closed", "", ""
        if len(rest) == 3 and rest[:2] == ["operator", "final"]:
            return "final", "", rest[2]
    raise PayloadError(f"topic {topic[:120]!r} is none of event {event!r}'s")


def parse(topic: str, payload: bytes | bytearray, event: str, now: float | None = None) -> Item:
    """Check one message from our event's topics.

    The payload is read within bounds (:func:`loads`); its ``kind`` must be the
    topic's, and a result, high score or status must come from its own cabinet's
    topic (``cabinet/<name>/...``, the one the ACL lets that cabinet write). A
    result must also be one a game can give: a board of the registry, its seats and
    every score within that entry's ``score_range``, the ``score`` and ``tiebreak``
    the ones :func:`score_of` gives for its scores (the text shown is made here,
    never taken from the message), and ``finished_at`` (s since 1970) at most
    :data:`FUTURE_SLACK_S` after ``now`` (default: this machine's clock). Texts are
    cleaned (:func:`clean_text`). An empty payload on a results topic (the retained
    result cleared) is a :class:`Removed` with ``by_operator`` False.

    Raises:
        PayloadError: whatever is wrong, in words (the caller logs it and goes on).
    """
    kind, cab, last = _topic_kind(topic, event)
    if not payload:
        if kind == "result":
            return Removed(last, event, 0.0, cab, by_operator=False)
        raise PayloadError("an empty message (a retained message cleared)")
    d = loads(payload)
    if d.get("v") != PAYLOAD_VERSION:
        raise PayloadError(f"payload version {_show(d.get('v'))}, this cabinet reads version {PAYLOAD_VERSION}")
    if _field(d, "event", str, "the event's name") != event:
        raise PayloadError(f"event {_show(d['event'])}, this is {event!r}")
    if d.get("kind") != kind:
        raise PayloadError(f"kind {_show(d.get('kind'))} on a {kind} topic")
    if kind in ("result", "highscore", "status"):
        name = _name(d, "cabinet")
        if name != cab:
            raise PayloadError(f"cabinet {name!r} on cabinet {cab[:40]!r}'s topic")
        if name in HALL_LOGINS:
            raise PayloadError(f"{name!r} is one of the hall's own logins, not a cabinet")
    if kind == "result":
        return _parse_result(d, event, cab, last, now)
    if kind == "status":
        return _parse_status(d, event, cab)
    if kind == "highscore":
        gid = _game_id(d)
        seat = _field(d, "seat", int, "a seat")
        if not 0 <= seat < 8:
            raise PayloadError(f"'seat' is {seat}, expected 0 to 7")
        if last != f"{gid}-P{seat + 1}":
            raise PayloadError(f"game_id {gid!r} seat {seat} on topic {topic[:120]!r}")
        initials = _field(d, "initials", str, "1 to 3 letters")
        if not (1 <= len(initials) <= 3 and initials.isascii() and initials.isalpha() and initials.isupper()):
            raise PayloadError(f"'initials' is {_show(initials)}, expected 1 to 3 capital letters")
        return HighScore(gid, event, cab, seat, initials)
    if kind == "removed":
        gid = _game_id(d)
        if gid != last:
            raise PayloadError(f"game_id {gid!r} on topic {topic[:120]!r}")
        if cab and _name(d, "cabinet") != cab:
            raise PayloadError(f"cabinet {d['cabinet']!r} on the removal of cabinet {cab[:40]!r}'s game")
        return Removed(gid, event, _number(d, "at", "a time in seconds", 0.0), cab)
    if kind == "final":
        part = _field(d, "part", int, "a part number")
        if not (0 <= part < MAX_FINAL_PARTS and last == str(part)):
            raise PayloadError(f"'part' {_show(part)} on topic {topic[:120]!r}")
        listed = _list(d, "games", "a list of '<cabinet>/<game id>'")
        names = [g for g in listed[:FINAL_PART_SIZE + 1] if isinstance(g, str) and g.count("/") == 1]
        if len(listed) > FINAL_PART_SIZE or len(names) != len(listed):
            raise PayloadError(f"'games' holds more than {FINAL_PART_SIZE} games or something else than "
                               "'<cabinet>/<game id>'")
        keys = []
        for g in names:
            cab_of, gid = g.split("/")
            if not valid_name(cab_of):
                raise PayloadError(f"'games' lists {_show(g)}: no cabinet's name")
            keys.append((cab_of, _game_id({"game_id": gid})))
        return FinalPart(event, _number(d, "close_at", "a time in seconds"), part, frozenset(keys))
    parts = _field(d, "parts", int, "a number of parts")
    games = _field(d, "games", int, "a number of games")
    if not (0 <= parts <= MAX_FINAL_PARTS and 0 <= games <= parts * FINAL_PART_SIZE):
        raise PayloadError(f"'parts' {parts} / 'games' {games}: not a closed event's final results")
    return Closed(event, _number(d, "at", "a time in seconds"), parts, games)


def _parse_result(d: Mapping[str, object], event: str, cab: str, last: str, now: float | None) -> Result:
    gid = _game_id(d)
    if gid != last:
        raise PayloadError(f"game_id {gid!r} on the topic of game {last[:40]!r}")
    board = _field(d, "board", str, "a board (a game of the registry)")
    spec = board_spec(board)
    if spec is None:
        raise PayloadError(f"'board' is {_show(board)}: no game of this arcade")
    game = _field(d, "game", str, "a game name")
    if not (game == spec.family or (spec.family == "focusx" and spec.name in (game, game + "-x"))):
        raise PayloadError(f"'game' is {_show(game)}, not the {spec.label} board's")
    seats = _field(d, "seats", int, "a number of seats")
    if not spec.min_seats <= seats <= spec.max_seats:
        raise PayloadError(f"'seats' is {seats}, {spec.label} takes {spec.min_seats} to {spec.max_seats}")
    listed_winners = _list(d, "winners", "a list of seats")
    listed_scores = _list(d, "scores", "a list of numbers")
    winners = [w for w in map(as_int, listed_winners) if w is not None and 0 <= w < seats]
    if len(winners) != len(listed_winners) or len(listed_winners) > seats:
        raise PayloadError(f"'winners' is {_show(listed_winners)}, expected seats 0 to {seats - 1}")
    scores = [s for s in listed_scores
              if isinstance(s, (int, float)) and not isinstance(s, bool) and math.isfinite(s)]
    if len(listed_scores) > seats or len(scores) != len(listed_scores):
        raise PayloadError(f"'scores' is {_show(listed_scores)}, expected at most {seats} numbers")
    listed_seat = d.get("seat")
    seat = as_int(listed_seat)
    if listed_seat is not None and not (seat is not None and 0 <= seat < seats):
        raise PayloadError(f"'seat' is {_show(listed_seat)}, expected a seat or null")
    lo, hi = spec.score_range
    if any(not lo <= s <= hi for s in scores):
        raise PayloadError(f"'scores' is {_show(scores)}: outside what a {spec.label} game gives ({lo:g} to {hi:g})")
    if spec.family in WHOLE_SCORES and any(float(s) != int(s) for s in scores):
        raise PayloadError(f"'scores' is {_show(scores)}: a {spec.label} game counts whole cards")
    score = _number(d, "score", "a number")
    tiebreak = _number(d, "tiebreak", "a number")
    expected = score_of(game, winners, scores)
    if (score, tiebreak) != (expected.value, expected.tiebreak):
        raise PayloadError(f"'score' {score:g} (tie-break {tiebreak:g}) does not follow from the scores "
                           f"{scores!r} (that is {expected.value:g}, tie-break {expected.tiebreak:g})")
    finished_at = _number(d, "finished_at", "a time in seconds")
    clock = time.time() if now is None else now
    if not EARLIEST_GAME <= finished_at <= clock + FUTURE_SLACK_S:
        raise PayloadError(f"'finished_at' is {finished_at!r}: in the future (this cabinet's clock says "
                           f"{clock:.0f}) or before any event of this arcade ({EARLIEST_GAME:.0f})")
    return Result(game_id=gid, event=event, cabinet=cab, game=game, board=spec.name, seats=seats,
                  winners=tuple(winners), reason=_text(d, "reason"), scores=tuple(float(s) for s in scores),
                  score=score, tiebreak=tiebreak, seat=seat, score_text=expected.text, finished_at=finished_at,
                  version=_text(d, "version", 40))


def _parse_status(d: Mapping[str, object], event: str, cab: str) -> Status:
    state = _field(d, "state", str, f"one of {list(STATES)}")
    if state not in STATES:
        raise PayloadError(f"'state' is {_show(state)}, expected one of {list(STATES)}")
    listed_errors = d.get("errors", [])
    errors = [e for e in listed_errors if isinstance(e, str)] if isinstance(listed_errors, list) else []
    if not isinstance(listed_errors, list) or len(errors) != len(listed_errors):
        raise PayloadError(f"'errors' is {_show(listed_errors)}, expected a list of texts")
    listed_outbox = d.get("outbox", 0)
    outbox = as_int(listed_outbox)
    if outbox is None or not 0 <= outbox <= MAX_NUMBER:
        raise PayloadError(f"'outbox' is {_show(listed_outbox)}, expected a count")
    at = _number(d, "at", "a time in seconds", 0.0)
    instance = d.get("instance", "")
    if not isinstance(instance, str) or len(instance) > 40:
        raise PayloadError(f"'instance' is {_show(instance)}, expected an id")
    return Status(cabinet=cab, event=event, state=state, game=_text(d, "game", 60), led=_text(d, "led", 80),
                  errors=tuple(clean_text(e, 200) for e in errors[:5]), version=_text(d, "version", 40),
                  outbox=outbox, at=at, instance=clean_text(instance, 40))


def make_result(event: str, cabinet: str, record: Mapping[str, object], winners: Sequence[int], reason: str,
                scores: Sequence[float], finished_at: float, game_id: str | None = None) -> Result:
    """The message for one finished game (a new game id unless given)."""
    game = str(record["game"])
    s = score_of(game, winners, scores)
    return Result(game_id=game_id or str(uuid.uuid4()), event=event, cabinet=cabinet, game=game,
                  board=board_of(record), seats=to_int(record["seats"], "a record's seats"),
                  winners=tuple(int(w) for w in winners),
                  reason=str(reason)[:200], scores=tuple(float(x) for x in scores), score=s.value,
                  tiebreak=s.tiebreak, seat=s.seat, score_text=s.text, finished_at=finished_at,
                  version=version())


P = ParamSpec("P")


def guarded(fn: Callable[P, None]) -> Callable[P, None]:
    """One guard around a paho callback: whatever it raises is logged with the message's
    topic and the message dropped, so paho's network thread (and with it the client's
    link) never dies of one message."""
    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            fn(*args, **kwargs)
        except Exception:
            # paho is imported already: it runs the callbacks.
            from paho.mqtt.client import MQTTMessage
            topic = next((a.topic[:200] for a in args if isinstance(a, MQTTMessage)), "")
            log.exception("event link: %s failed%s; dropped", fn.__name__,
                          f" on a message on {topic!r}" if topic else "")
    return wrapper


# -- the leaderboard -----------------------------------------------------------------------

BOARD_TITLES = {"focusx-classic": "FocusX Classic", "focusx-thinkfocus": "FocusX ThinkFocus",
                "focusx-duel": "FocusX Duel", "focusx-4focus": "FocusX 4Focus", "sherlook": "Sherlook",
                "focus-2p": "FOCUS (2 players)", "focus-3p": "FOCUS (3 players)",
                "focus-4p-teams": "FOCUS (4, teams)", "focus-4p": "FOCUS (4 players)",
                "focus-crossfire": "Crossfire"}
#: Boards a screen shows at most (the registry has 15; a page never grows past this).
MAX_BOARDS = 24
#: Two statuses of one cabinet name from different machines within this many seconds:
#: two machines use that name (each one's connection drops the other's).
DUPLICATE_WINDOW_S = 600.0


def board_title(board: str) -> str:
    """A board's heading: the registry's label for the entry, else a readable name."""
    spec = board_spec(board)
    if spec is not None:
        return str(spec.label)
    if board in BOARD_TITLES:
        return BOARD_TITLES[board]
    if board.endswith("-x") and board[:-2] in BOARD_TITLES:
        return BOARD_TITLES[board[:-2]] + " (FocusX rule)"
    if board.startswith("coop-"):
        return "Focus (2023) " + board[5:].replace("-", " + ").title()
    return clean_text(board, 40)


class BoardRow(TypedDict):
    """One row of a board as the screens show it (:meth:`Leaderboard.rows`)."""

    rank: int
    score: str                # the score as text ("12 cards", "3 wins")
    cabinet: str
    who: str                  # initials entered, "P2", "team", or "" (a cabinet's wins added up)
    game_id: str | None       # None: a row of wins added up (:data:`TOTAL_GAMES`)
    finished_at: float        # s since 1970 (the latest game of a row added up)


class BoardView(TypedDict):
    """One board in :meth:`Leaderboard.snapshot`."""

    board: str
    title: str
    games: int
    top: list[BoardRow]


class CabinetView(TypedDict):
    """One cabinet's last status in :meth:`Leaderboard.snapshot`."""

    cabinet: str
    state: str
    game: str
    led: str
    errors: list[str]
    version: str
    outbox: int
    at: float                 # s since 1970, the cabinet's clock
    duplicate: bool           # two machines use this cabinet's name
    seen_at: float            # its latest status or game, s since 1970 (0.0 unknown)


class Snapshot(TypedDict):
    """:meth:`Leaderboard.snapshot`: the boards and cabinets, JSON-able (every number finite)."""

    games: int
    boards: list[BoardView]
    more_boards: int
    cabinets: list[CabinetView]
    closed: float | None      # s since 1970, None while open
    updated_at: float         # s since 1970
    flooding: list[str]


class Leaderboard:
    """Every game of the event seen so far, each game id once; thread-safe.

    ``changes`` goes up by one for each new, changed or removed game, status or
    note of the operator, so a screen redraws only when it moved; ``updated_at`` is
    when (s since 1970). Games the operator removed (``removed``) never come back,
    and once the event is closed (``closed_at``) only the games of its final results
    (``final``, the game ids the operator's :class:`FinalPart` messages list) count:
    any other result, whatever its ``finished_at``, waits in ``held`` (off every board).
    """

    #: Results held back at most (games a closed event's final results do not list, or not yet).
    MAX_HELD = 100_000
    #: Games of one cabinet held at most (on the boards, beside another's id or held back): a
    #: game a minute for two weeks.  A login that sends more floods every client's memory
    #: (each game takes about 1 KB): the rest are refused and it is named in :attr:`over_cap`.
    MAX_GAMES_PER_CABINET = 20_000

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.lock = threading.RLock()          # all_games() and games_of() may be called under it
        self.clock = clock
        self.games: dict[str, Result] = {}
        self.statuses: dict[str, Status] = {}
        self.duplicates = 0               # deliveries of a game id already counted (not our own echo)
        self.ignored = 0                  # bad or foreign payloads
        self.refused: collections.Counter[str] = collections.Counter()   # ignored, by reason (short)
        self.unconfirmed: set[str] = set()  # our own games not yet seen back from the broker
        self.confirmed: set[str] = set()    # game ids the broker delivered to us since start
        # (cabinet, game id, seat) -> initials entered: a high score names a seat of a game of the
        # same cabinet only (one login's message can never rename another cabinet's rows).
        self.initials: dict[tuple[str, str, int], str] = {}
        self.removed: set[str] = set()      # game ids the operator removed (a cabinet's game of it, or all)
        self.removed_pairs: set[tuple[str, str]] = set()   # (cabinet, game id) the operator removed
        self._removed_any: set[str] = set()  # game ids removed whichever cabinet's game has them
        # (cabinet, game id) -> a game whose id another cabinet's game on the board has: a game is
        # known by its cabinet and its id, so both are on the boards (a copied id hides nothing).
        self.shared: dict[tuple[str, str], Result] = {}
        self.closed_at: float | None = None
        self.closed_parts = 0               # parts of the final results the close note announced
        self.final_parts: dict[int, FinalPart] = {}
        # (cabinet, game id) of the games that count once closed (the parts received so far)
        self.final: frozenset[GameKey] = frozenset()
        self.final_complete = False         # every announced part is here
        self.held: dict[GameKey, Result] = {}   # valid results the closed event does not (yet) list
        self.flooding: dict[str, int] = {}  # cabinets that flooded their topics (Watcher, stepwise)
        self.flood_why: dict[str, str] = {}  # ... and why, in words (which rule: Watcher)
        self.over_cap: dict[str, int] = {}  # cabinets with more games than MAX_GAMES_PER_CABINET -> refused
        # (cabinet, game id) of the games refused for it, each counted once in over_cap however
        # often it is delivered (readers subscribe in steps); at most MAX_HELD of them
        self._refused_games: set[GameKey] = set()
        self._held_by: collections.Counter[str] = collections.Counter()   # cabinet -> games held (any dict)
        self.seen_at: dict[str, float] = {}  # cabinet -> its latest status or game (s since 1970, its clock)
        self.instances: dict[str, dict[str, float]] = {}   # cabinet -> instance -> when last heard
        self.changes = 0
        self.updated_at = 0.0
        self.listeners: list[Callable[[], None]] = []
        self._log_minute = -1e9                  # when this minute of logging ignored messages began
        self._logged = 0
        self._unlogged = 0

    def _changed(self) -> None:          # under the lock
        self.changes += 1
        self.updated_at = self.clock()

    def add(self, result: Result, own: bool = False, retained: bool = False) -> bool:
        """Add one game (``own``: this cabinet's, not from the broker); False if its game
        id was already counted with the same content, the operator removed it, the event
        closed before it finished.  A game is known by its cabinet and its id: another
        cabinet's game with an id already held is kept beside it (:attr:`shared`, on the
        boards too).  A game sent again by its cabinet with other content (a repair) replaces
        the one held.  ``retained``: the broker's retained copy, handed over on a (new)
        subscription; readers subscribe in steps and get such copies more than once, which
        are no duplicate sends and not counted in :attr:`duplicates`."""
        with self.lock:
            gid = result.game_id
            if gid in self._removed_any or (result.cabinet, gid) in self.removed_pairs:
                return False
            key = (result.cabinet, gid)
            known = key in self.held or key in self.shared or \
                (gid in self.games and self.games[gid].cabinet == result.cabinet)
            if not known and self._held_by[result.cabinet] >= self.MAX_GAMES_PER_CABINET:
                # More games than a cabinet plays: a flood (issue 24); its games so far stay.
                if key not in self._refused_games:
                    if len(self._refused_games) < self.MAX_HELD:
                        self._refused_games.add(key)
                    self.over_cap[result.cabinet] = self.over_cap.get(result.cabinet, 0) + 1
                return False
            if not known:
                self._held_by[result.cabinet] += 1
            if self.closed_at is not None and key not in self.final:
                # A closed event counts only the games its final results list, each by its
                # cabinet and id: a result sent later (finished_at may say anything), or a copy
                # of a listed id under another login's name, stays off every board (issue 24).
                if len(self.held) < self.MAX_HELD or key in self.held:
                    self.held[key] = result
                elif not known:
                    self._held_by[result.cabinet] -= 1
                return False
            held = self.games.get(gid)
            if not own and (held is None or held.cabinet == result.cabinet):
                self.confirmed.add(gid)
            if held is not None:
                if held.cabinet != result.cabinet:
                    key = (result.cabinet, gid)
                    twin = self.shared.get(key)
                    if twin is not None and twin.same_game(result):
                        self.duplicates += not retained
                        return False
                    if twin is None and len(self.shared) >= self.MAX_HELD:
                        self._held_by[result.cabinet] -= not known
                        return False
                    self.shared[key] = result
                    self._changed()
                elif not own and gid in self.unconfirmed:
                    self.unconfirmed.discard(gid)      # our own game back from the broker
                elif held.same_game(result):
                    self.duplicates += not retained
                    return False
                if held.cabinet != result.cabinet:
                    pass                               # kept in shared (above)
                elif held.same_game(result):
                    return False
                else:
                    self.games[gid] = result
                    self._changed()
            else:
                self.games[gid] = result
                if own:
                    self.unconfirmed.add(gid)
                if result.finished_at > self.seen_at.get(result.cabinet, 0.0):
                    self.seen_at[result.cabinet] = result.finished_at
                self._changed()
        self._tell()
        return True

    def remove(self, note: Removed) -> bool:
        """A game off the boards: for good when the operator removed it; a cleared retained
        result only drops that cabinet's game (its cabinet sends it again)."""
        gid, cab = note.game_id, note.cabinet
        with self.lock:
            held = self.games.get(gid)
            twins = [k for k in self.shared if k[1] == gid and (not cab or k[0] == cab)]
            if note.by_operator:
                if cab:
                    if (cab, gid) in self.removed_pairs and not twins and (held is None or held.cabinet != cab):
                        return False
                    self.removed_pairs.add((cab, gid))
                else:
                    if gid in self._removed_any and held is None and not twins:
                        return False
                    self._removed_any.add(gid)
                self.removed.add(gid)
            elif (held is None or held.cabinet != cab) and not twins:
                return False
            for k in twins:
                del self.shared[k]
                self._held_by[k[0]] -= 1
            if held is not None and (not cab or held.cabinet == cab):
                del self.games[gid]
                self._held_by[held.cabinet] -= 1
                self.confirmed.discard(gid)
                promote = next((k for k in self.shared if k[1] == gid), None)
                if promote is not None:         # the other cabinet's game of that id stays on the boards
                    self.games[gid] = self.shared.pop(promote)
            for k in [k for k in self.held if k[1] == gid and (not cab or k[0] == cab)]:
                del self.held[k]
                self._held_by[k[0]] -= 1
            self._changed()
        self._tell()
        return True

    def games_of(self, game_id: str) -> list[Result]:
        """Every cabinet's game of this id on the boards (more than one: another login copied it)."""
        with self.lock:
            held = self.games.get(game_id)
            return ([held] if held is not None else []) + sorted(
                (r for k, r in self.shared.items() if k[1] == game_id), key=lambda r: r.cabinet)

    def all_games(self) -> list[Result]:
        """Every game on the boards (also those whose id another cabinet's game has)."""
        with self.lock:
            return list(self.games.values()) + [r for k, r in self.shared.items()
                                                if self.closed_at is None or k in self.final]

    def close(self, note: Closed) -> None:
        """The event closed at ``note.at``: only the games its final results list stay on the boards."""
        with self.lock:
            if (self.closed_at, self.closed_parts) == (note.at, note.parts):
                return
            self.closed_at, self.closed_parts = note.at, note.parts
            self._refinal()
            self._changed()
        self._tell()

    def add_final(self, part: FinalPart) -> None:
        """One part of a closed event's final results (it may come before or after the close note)."""
        with self.lock:
            if self.final_parts.get(part.part) == part:
                return
            self.final_parts[part.part] = part
            if self.closed_at is None:
                return
            self._refinal()
            self._changed()
        self._tell()

    def _refinal(self) -> None:          # under the lock
        parts = [p for k, p in self.final_parts.items() if k < self.closed_parts and p.close_at == self.closed_at]
        self.final = frozenset().union(*(p.games for p in parts))
        self.final_complete = len(parts) == self.closed_parts
        for gid, r in [(g, r) for g, r in self.games.items() if (r.cabinet, g) not in self.final]:
            self.held[(r.cabinet, gid)] = self.games.pop(gid)
            promote = next((k for k in self.shared if k[1] == gid and k in self.final), None)
            if promote is not None:             # the listed cabinet's game of that id takes its place
                self.games[gid] = self.shared.pop(promote)
        for key in [k for k in self.held if k in self.final]:
            r = self.held.pop(key)
            if key[1] not in self.games:
                self.games[key[1]] = r
            elif self.games[key[1]].cabinet != key[0]:
                self.shared[key] = r

    @property
    def late(self) -> int:
        """Results held off the boards because the closed event's final results do not list them."""
        with self.lock:
            return len(self.held) if self.closed_at is not None and self.final_complete else 0

    def counts_game(self, game_id: str, cabinet: str) -> bool:
        """Whether ``cabinet``'s game of this id would be on the boards now (not removed; listed
        in the final results if the event is closed)."""
        with self.lock:
            return game_id not in self._removed_any and (cabinet, game_id) not in self.removed_pairs and \
                (self.closed_at is None or (cabinet, game_id) in self.final)

    def set_initials(self, hs: HighScore) -> None:
        """A player's initials for a seat of a game (shown instead of "P2"; the game may come later)."""
        with self.lock:
            key = (hs.cabinet, hs.game_id, hs.seat)
            if self.initials.get(key) == hs.initials:
                return
            self.initials[key] = hs.initials
            self._changed()
        self._tell()

    def add_item(self, item: Item, own: bool = False, retained: bool = False) -> None:
        """Add whatever :func:`parse` returned."""
        if isinstance(item, Result):
            self.add(item, own, retained)
        elif isinstance(item, HighScore):
            self.set_initials(item)
        elif isinstance(item, Removed):
            self.remove(item)
        elif isinstance(item, Closed):
            self.close(item)
        elif isinstance(item, FinalPart):
            self.add_final(item)
        else:
            self.set_status(item)

    def receive(self, topic: str, payload: bytes | bytearray, event: str, level: int = logging.INFO,
                retained: bool = False) -> Item | None:
        """One message from the broker: checked by :func:`parse` and added; a bad one is
        counted in ``ignored`` and logged at ``level`` with its topic (the kiosk keeps
        running), and so is one that trips a fault of this reader.  Returns what was added,
        or None.

        A bad one on a result's topic also takes that cabinet's game of that id off the
        boards, as a cleared topic does, and a bad or empty one on a status topic that
        cabinet off the list of cabinets (:meth:`drop_replaced`): the broker now holds no
        valid message there, so a reader that starts now never sees it, and every running
        reader must agree with it (issue 24)."""
        try:
            item = parse(topic, payload, event)
            self.add_item(item, retained=retained)
        except PayloadError as exc:
            self._ignore(str(exc), str(exc).split(",")[0][:60])
            log.log(self._log_level(level), "ignored a message on %s: %s", topic[:200], exc)
            self.drop_replaced(topic, event)
            return None
        except Exception:
            self._ignore("fault", "a fault reading it")
            log.log(self._log_level(logging.ERROR), "ignored a message on %s: this reader failed on it",
                    topic[:200], exc_info=True)
            return None
        return item

    def drop_replaced(self, topic: str, event: str) -> bool:
        """A message that is no valid payload came on one of a cabinet's topics.  On a result's
        topic (``.../cabinet/<name>/results/<game id>``): that cabinet's game of that id, if
        held, leaves the boards as if its topic had been cleared; its cabinet, if it has the
        game, sends it again (:class:`EventLink`), and it comes back on every board.  On a
        status topic (cleared by ``event clear-cabinet``, or junk): that cabinet leaves the
        list of cabinets until a valid status comes.  Returns whether anything was dropped."""
        try:
            kind, cab, last = _topic_kind(topic, event)
        except PayloadError:
            return False
        if kind == "result":
            return self.remove(Removed(last, event, 0.0, cab, by_operator=False))
        if kind != "status":
            return False
        with self.lock:
            if self.statuses.pop(cab, None) is None:
                return False
            self.instances.pop(cab, None)
            self._changed()
        self._tell()
        return True

    #: Ignored messages logged one by one per minute, at most: a flood of junk would otherwise
    #: write a log line each (tens of thousands a minute on a cabinet's SD card).
    LOG_IGNORED_PER_MINUTE = 20

    def _log_level(self, level: int) -> int:
        """``level`` for the first :data:`LOG_IGNORED_PER_MINUTE` ignored messages of a minute,
        DEBUG for the rest (counted, and said in one line when the next minute starts)."""
        now = time.monotonic()
        with self.lock:
            if now - self._log_minute >= 60.0:
                unlogged, self._unlogged = self._unlogged, 0
                self._log_minute, self._logged = now, 0
                if unlogged:
                    log.log(level, "%d more messages on the event's topics were ignored in the last minute "
                            "(not logged one by one)", unlogged)
            self._logged += 1
            if self._logged <= self.LOG_IGNORED_PER_MINUTE:
                return level
            self._unlogged += 1
            return logging.DEBUG

    def _ignore(self, why: str, short: str) -> None:
        with self.lock:
            self.ignored += 1
            if len(self.refused) < 100 or short in self.refused:
                self.refused[short] += 1

    def set_status(self, status: Status) -> None:
        with self.lock:
            self.statuses[status.cabinet] = status
            if status.at > self.seen_at.get(status.cabinet, 0.0):   # a last will says 0: not news
                self.seen_at[status.cabinet] = status.at
            if status.instance and status.state != "offline":   # a last will may be an old machine's
                seen = self.instances.setdefault(status.cabinet, {})
                if len(seen) < 16 or status.instance in seen:
                    seen[status.instance] = self.clock()
            self._changed()
        self._tell()

    def duplicate_names(self, now: float | None = None) -> list[str]:
        """Cabinet names that two or more machines used within :data:`DUPLICATE_WINDOW_S`."""
        t = self.clock() if now is None else now
        with self.lock:
            return sorted(c for c, seen in self.instances.items()
                          if sum(1 for at in seen.values() if t - at <= DUPLICATE_WINDOW_S) > 1)

    def _tell(self) -> None:
        for f in list(self.listeners):
            try:
                f()
            except Exception:
                log.exception("leaderboard listener")

    def boards(self, top: int = 10) -> dict[str, list[Result]]:
        """Per board (sorted by name), its best ``top`` games: score, tie-break, then earliest first."""
        games = self.all_games()
        out: dict[str, list[Result]] = {}
        for g in games:
            out.setdefault(g.board, []).append(g)
        return {b: sorted(v, key=lambda r: (-r.score, -r.tiebreak, r.finished_at, r.game_id))[:top]
                for b, v in sorted(out.items())}

    def counts(self) -> dict[str, int]:
        """Games per board."""
        return dict(collections.Counter(g.board for g in self.all_games()))

    def rows(self, top: int = 10) -> dict[str, list[BoardRow]]:
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
            return initials.get((r.cabinet, r.game_id, r.seat), f"P{r.seat + 1}")

        out: dict[str, list[BoardRow]] = {}
        for b, games in self.boards(10 ** 9).items():
            if games and games[0].game in TOTAL_GAMES:
                # Wins added up per player who entered initials at a cabinet, else per cabinet.
                wins: dict[tuple[str, str], list[float]] = {}
                for g in games:
                    name = initials.get((g.cabinet, g.game_id, g.seat), "") if g.seat is not None else ""
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

    def snapshot(self, top: int = 10, max_boards: int = MAX_BOARDS) -> Snapshot:
        """JSON-able view (every number finite): ``games`` (count), ``boards`` (at most
        ``max_boards``, the ones with most games: board, title, games, ``top`` rows from
        :meth:`rows`, most games first, equal ones by board name: a screen with room for
        fewer shows the first, the most played; issue 24), ``more_boards`` (boards left out), ``cabinets``
        (each one's last status, ``duplicate`` when two machines use its name, ``seen_at``
        its latest status or game, s since 1970 by its own clock, 0.0 if unknown),
        ``closed`` (s since 1970, or None), ``updated_at`` (the last change, s since 1970),
        ``flooding`` (logins that flood their topics: some of their own games may be missing)."""
        counts = self.counts()
        dup = set(self.duplicate_names())
        with self.lock:
            statuses = sorted(self.statuses.values(), key=lambda s: s.cabinet)
            seen = dict(self.seen_at)
            total = len(self.games) + sum(1 for k in self.shared if self.closed_at is None or k in self.final)
            closed, updated = self.closed_at, self.updated_at
            flooding = sorted(set(self.flooding) | set(self.over_cap))
        rows = self.rows(top)
        shown = sorted(rows, key=lambda b: (-counts.get(b, 0), b))[:max_boards]
        return {"games": total,
                "boards": [{"board": b, "title": board_title(b), "games": counts.get(b, 0), "top": rows[b]}
                           for b in shown],
                "more_boards": max(0, len(rows) - len(shown)),
                "cabinets": [{"cabinet": s.cabinet, "state": s.state, "game": s.game, "led": s.led,
                              "errors": list(s.errors), "version": s.version, "outbox": s.outbox, "at": s.at,
                              "duplicate": s.cabinet in dup, "seen_at": seen.get(s.cabinet, 0.0)}
                             for s in statuses],
                "closed": closed, "updated_at": updated, "flooding": flooding}


# -- the link to the broker ------------------------------------------------------------------

def broker_address(settings: Mapping[str, object]) -> tuple[str, int]:
    """``[event]``'s ``host`` and ``port`` (kiosk/config.py checked them: a host name, 1 to 65535).

    Raises:
        KeyError: either is missing.
        TypeError, ValueError: the port is no number.
    """
    return str(settings["host"]), to_int(settings["port"], "[event] port")


def read_password(settings: Mapping[str, object]) -> str | None:
    """``[event] password``, else the first line of ``password_file``; None without a user name.

    Raises:
        OSError: the password file cannot be read.
    """
    if not settings.get("username"):
        return None
    if settings.get("password_file"):
        text = Path(str(settings["password_file"])).expanduser().read_text(encoding="utf-8")
        return text.splitlines()[0].strip() if text.strip() else ""
    return str(settings.get("password") or "")


def make_client(settings: Mapping[str, object], client_id: str, persistent: bool) -> mqtt.Client:
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
        client.username_pw_set(str(settings["username"]), password)
    if settings.get("tls"):
        client.tls_set(ca_certs=str(Path(str(settings["ca_file"])).expanduser()) if settings.get("ca_file") else None)
    client.reconnect_delay_set(min_delay=1, max_delay=15)
    # Our callbacks each have their own guard (:func:`guarded`); this is paho's own, in case.
    client.suppress_exceptions = True
    return client


def unreachable_text(exc: BaseException | None, settings: Mapping[str, object]) -> str:
    """Why the broker could not be reached, in words (``exc``: the connect attempt's error)."""
    import ssl
    where = f"{settings.get('host')}:{settings.get('port')}"
    if isinstance(exc, ssl.SSLCertVerificationError) and "mismatch" in str(exc.verify_message).lower():
        # OpenSSL's X509_V_ERR_HOSTNAME_MISMATCH / IP_ADDRESS_MISMATCH: a trusted certificate of another machine.
        why = (f"its TLS certificate is not for {settings.get('host')!r} ({exc.verify_message}); set [event] host "
               "to a name the broker's certificate holds (its subjectAltName)")
    elif isinstance(exc, ssl.SSLCertVerificationError):
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


def refusal_text(reason: object, settings: Mapping[str, object]) -> str:
    """What to tell the operator when the broker refuses the connection."""
    where = f"{settings.get('host')}:{settings.get('port')}"
    text = str(reason)
    low = text.lower()
    if "user name or password" in low or "bad user" in low or "not authori" in low:
        who = settings.get("username") or "(no user name)"
        return (f"Event broker {where} refused the login for user {who!r}: wrong user name or password. "
                "Check [event] username and password (or password_file).")
    return f"Event broker {where} refused this cabinet: {text}."


def _replaced_note(topic: str, event: str, cabinet: str) -> Removed | None:
    """The note "cleared" for ``cabinet``'s game whose results topic is ``topic`` (None when its
    last level is no game id: junk on a topic no game of ours has)."""
    try:
        gid = _game_id({"game_id": topic.rsplit("/", 1)[1]})
    except PayloadError:
        return None
    return Removed(gid, event, 0.0, cabinet, by_operator=False)


class EventLink:
    """One cabinet's connection to the event: outbox pump, status, leaderboard.

    Args:
        settings: the validated ``[event]`` section (host must be set).
        store_path: the cabinet's SQLite results file (the outbox lives there).
        message: called with a text for the screen (wrong credentials, broker gone...),
            from paho's thread; it must be thread-safe (the app passes ``kiosk.app.messages.Messages.post``).
        cabinet: this cabinet's name (default :func:`cabinet_name` of ``settings``).

    Attributes:
        leaderboard: the event's games and cabinets as received (and this cabinet's own).
        connected: whether the broker has accepted us right now.
        problem: the last connection problem, for the screen ("" when connected).
    """

    def __init__(self, settings: Mapping[str, object], store_path: str | Path,
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
        self._status_wanted = Status(self.cabinet, self.event, "idle", version=version(), instance="")
        self._status_sent: Status | None = None
        self._refused = False
        self._pump: threading.Thread | None = None
        self._saving: dict[str, Result] = {}
        self._dropped: set[str] = set()
        self._seen: set[str] = set()          # game ids the broker gave us since the last connect
        self._sync_nonce = ""
        self._synced = ""
        self._resynced = ""
        # After the first read (the operator's notes, the statuses, our own games): the other
        # cabinets one by one, then everything (a flood costs only the flooding login's games).
        self._steps: list[str] = []
        self._step_nonce = ""
        self._step_sent = 0.0
        self._wide_done = False
        self.resent = 0                       # own games re-sent because the broker had lost them
        self.repaired = 0                     # own games re-sent because the broker held other content
        self.instance = instance_id(store_path)
        self.user = str(settings.get("username") or "")
        self._broker_copy: dict[str, Result] = {}   # our games as the broker holds them (this connection)
        self._own: dict[str, Result] = {}     # our games as our results file says (those known so far)
        self._removed: set[str] = set()       # game ids the operator removed (never sent again)
        self._closed_at: float | None = None  # the operator closed the event then
        self._repair = False                  # our retained results changed on the broker: check them
        self.duplicate = ""                   # another machine's instance id that uses our cabinet name
        # When (monotonic) a connection of ours found another machine's last will on our status
        # topic: the broker sends it when a connection with our client id takes over another's.
        self._foreign_wills: list[float] = []
        self._connection = 0                  # connections so far (one will counted per connection)
        self._will_counted = -1
        self.client: mqtt.Client | None = None

    # -- outbox (called in the save transaction, from the frame loop) --------------------------
    def outbox_hook(self, games_id: int, finished_at: float, record: Mapping[str, object], winners: tuple[int, ...],
                    reason: str, scores: tuple[float, ...]) -> tuple[str, str, str, str]:
        """:data:`kiosk.persist.storage.OutboxHook`: the game's id, event, topic and payload."""
        r = make_result(self.event, self.cabinet, record, winners, reason, scores, finished_at)
        self._saving[r.game_id] = r
        return r.game_id, self.event, results_topic(self.event, r.game_id, self.cabinet), r.to_json()

    def committed(self, game_id: str) -> None:
        """The save transaction holding ``game_id`` committed: show the game on this
        cabinet's own board at once and send it soon."""
        r = self._saving.pop(game_id, None)
        if r is not None:
            self._own[game_id] = r
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
        # The newest line of that game: a file from before issue 24 may still name an id put aside.
        row = db.execute("SELECT game_uid FROM event_games WHERE games_id = ? AND event = ? ORDER BY rowid DESC "
                         "LIMIT 1", (games_id, self.event)).fetchone()
        if row is None:
            return False
        hs = HighScore(row[0], self.event, self.cabinet, seat, initials)
        db.execute("INSERT OR REPLACE INTO outbox (game_uid, topic, payload, created_at) VALUES (?, ?, ?, ?)",
                   (f"{hs.game_id}-P{seat + 1}", highscore_topic(self.event, hs.game_id, seat, self.cabinet),
                    hs.to_json(),
                    time.time()))
        self.leaderboard.set_initials(hs)
        self._wake.set()
        return True

    def poke(self) -> None:
        """Something new in the outbox: hand it to paho soon."""
        self._wake.set()

    def set_status(self, state: str, game: str = "", led: str = "", errors: Sequence[str] = ()) -> None:
        """The state to publish (retained); sent by the pump thread when it changed."""
        s = Status(self.cabinet, self.event, state, game, led, tuple(errors), version(), 0, 0.0, self.instance)
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
        if self.user and self.user != self.cabinet:
            self.message(f"Event {self.event!r}: this cabinet is named {self.cabinet!r} but logs in as "
                         f"{self.user!r}; the hall's broker lets a cabinet write only under its own login's "
                         "name, so set [event] username to the cabinet's name.")
        self._status_wanted = Status(self.cabinet, self.event, "idle", version=version(), instance=self.instance)
        # A clean session: nothing queued for us while we are off (issue 24: a flood filled that
        # queue); what we send waits in the outbox, what we read is retained on the broker.
        self.client = make_client(self.settings, client_id, persistent=False)
        offline = Status(self.cabinet, self.event, "offline", version=version(), instance=self.instance)
        self.client.will_set(status_topic(self.event, self.cabinet), offline.to_json(), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message
        self.client.connect_async(*broker_address(self.settings), keepalive=20)
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
                                                  at=time.time(), instance=self.instance).to_json(),
                                           qos=1, retain=True)
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
    @guarded
    def _on_connect(self, client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags, reason_code: ReasonCode,
                    properties: Properties | None) -> None:
        if reason_code.is_failure:
            self.connected = False
            text = refusal_text(reason_code, self.settings)
            if text != self.problem or not self._refused:
                self.message(text)
            self.problem, self._refused = text, True
            return
        self.connected = True
        self._connection += 1
        if self.problem:
            self.message(f"Event {self.event!r}: connected to the broker again.")
        # Two machines with one name keep dropping each other's connection: that stays said.
        self.problem, self._refused = (self.problem if self.duplicate else ""), False
        self._status_sent = None
        self._seen = set()
        self._acked_now = set()
        self._broker_copy = {}
        self._sync_nonce = uuid.uuid4().hex
        self._synced = ""
        self._steps, self._step_nonce, self._wide_done = [], "", False
        # The operator's notes and the statuses first, then our own games: the broker queues
        # retained messages filter by filter, so no flood can push these out of our queue.
        client.subscribe([(f"{ROOT}/{self.event}/operator/#", 1), (status_topic(self.event), 1),
                          (results_topic(self.event, "+", self.cabinet), 1),
                          (highscore_topic(self.event, cabinet=self.cabinet), 1),
                          (sync_topic(self.event, self.cabinet, self.user), 1)])
        self._wake.set()

    @guarded
    def _on_subscribe(self, client: mqtt.Client, userdata: object, mid: int, reason_codes: list[ReasonCode],
                      properties: Properties | None) -> None:
        # The broker queues the retained results to us before it handles anything we
        # send after its SUBACK, so this probe comes back after the last of them.
        self._step_sent = time.monotonic()
        client.publish(sync_topic(self.event, self.cabinet, self.user), self._step_nonce or self._sync_nonce, qos=1)

    def _next_step(self, client: mqtt.Client) -> None:
        """The current read came to its end: the next cabinet's topics, then all at once."""
        self._step_nonce = uuid.uuid4().hex
        if self._steps:
            cab = self._steps.pop(0)
            client.subscribe([(results_topic(self.event, "+", cab), 1), (highscore_topic(self.event, cabinet=cab), 1)])
        elif not self._wide_done:
            self._wide_done = True
            client.subscribe(subscriptions(self.event))
        else:
            self._step_nonce = ""

    def _reprobe(self) -> None:
        """(pump thread) A step's probe lost (a flood filled our queue): send it again."""
        nonce = self._step_nonce or ("" if self._synced else self._sync_nonce)
        if nonce and self.connected and self.client is not None and time.monotonic() - self._step_sent > 1.0:
            self._step_sent = time.monotonic()
            self.client.publish(sync_topic(self.event, self.cabinet, self.user), nonce, qos=1)

    @guarded
    def _on_connect_fail(self, client: mqtt.Client, userdata: object) -> None:
        self.connected = False
        text = unreachable_text(sys.exc_info()[1], self.settings)   # paho calls this inside its except
        if text != self.problem:
            self.problem = text
            self.message(text)

    @guarded
    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: mqtt.DisconnectFlags,
                       reason_code: ReasonCode, properties: Properties | None) -> None:
        was = self.connected
        self.connected = False
        if self._stop.is_set() or self._refused:
            pass
        elif was:
            self.problem = (f"Lost the event broker {self.settings['host']}:{self.settings['port']} ({reason_code}); "
                            "games are kept and sent when it is back.")
            self.message(self.problem)
        elif "keep alive" in str(reason_code).lower():
            # the port took the connection but the broker never answered (frozen or swamped): not a TLS question
            text = (f"Event broker {self.settings['host']}:{self.settings['port']} took the connection but did not "
                    "answer in time (busy or hung?). Games are kept and sent when it is back.")
            if text != self.problem:
                self.problem = text
                self.message(text)
        else:
            text = (f"Event broker {self.settings['host']}:{self.settings['port']} hung up before accepting this "
                    f"cabinet: is [event] tls = {'true' if self.settings.get('tls') else 'false'} right for that "
                    "port? Games are kept and sent when it is back.")
            if text != self.problem:
                self.problem = text
                self.message(text)
        self._wake.set()

    @guarded
    def _on_publish(self, client: mqtt.Client, userdata: object, mid: int, reason_code: ReasonCode,
                    properties: Properties) -> None:
        self._acks.append(mid)
        self._wake.set()

    @guarded
    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == sync_topic(self.event, self.cabinet, self.user):
            nonce = msg.payload.decode("ascii", "replace")
            if nonce == self._sync_nonce and not self._synced:
                self._synced = self._sync_nonce
                with self.leaderboard.lock:
                    self._steps = sorted(n for n in self.leaderboard.statuses
                                         if n != self.cabinet and n not in HALL_LOGINS)
                self._next_step(client)
                self._wake.set()
            elif nonce and nonce == self._step_nonce:
                self._next_step(client)
            return
        item = self.leaderboard.receive(msg.topic, msg.payload, self.event, logging.WARNING, bool(msg.retain))
        if item is None and msg.payload and msg.topic.startswith(results_topic(self.event, "", self.cabinet)):
            # Something that is no result on one of our results' topics: the broker holds no
            # result of that game now; like a cleared topic, we send ours again (if we have it).
            item = _replaced_note(msg.topic, self.event, self.cabinet)
        elif item is None and msg.topic == status_topic(self.event, self.cabinet):
            self._status_sent = None             # our status cleared or spoilt on the broker: say it again
            self._wake.set()
        if isinstance(item, Result):
            self._seen.add(item.game_id)
            if item.cabinet == self.cabinet:
                self._broker_copy[item.game_id] = item
                mine = self._own.get(item.game_id)
                if self._synced and mine is not None and not mine.same_game(item):
                    self._repair = True          # someone changed one of our games: send ours again
                    self._wake.set()
        elif isinstance(item, Removed):
            if item.by_operator:
                if item.cabinet in ("", self.cabinet):     # another cabinet's game of a copied id is not ours
                    self._removed.add(item.game_id)
                self._wake.set()
            elif item.cabinet == self.cabinet:
                self._seen.discard(item.game_id)
                self._acked_now.discard(item.game_id)
                self._broker_copy.pop(item.game_id, None)
                self._repair = True              # one of our games cleared on the broker: send it again
                self._wake.set()
        elif isinstance(item, (Closed, FinalPart)):
            self._closed_at = self.leaderboard.closed_at
            self._wake.set()
        elif isinstance(item, Status) and item.cabinet == self.cabinet and item.instance \
                and item.instance != self.instance and self._another_machine(item, bool(msg.retain)):
            if self.duplicate != item.instance:
                self.duplicate = item.instance
                self.problem = (f"Another machine also uses the cabinet name {self.cabinet!r}: the broker keeps "
                                "dropping one of the two. Give each cabinet its own name and login.")
                self.message(self.problem)

    def _another_machine(self, status: Status, retained: bool) -> bool:
        """Whether another machine's ``status`` on our own topic shows it uses our name now.
        Its live state does; its last will ("offline") only when we find one on two
        connections within :data:`DUPLICATE_WINDOW_S`: our clean session makes the broker
        send the will of the connection we took over, and the two machines keep taking over
        each other's; a machine that had the name before us leaves one will, once."""
        if status.state != "offline":
            return True
        if not retained or self._will_counted == self._connection:
            return False
        self._will_counted = self._connection
        now = time.monotonic()
        self._foreign_wills = [t for t in self._foreign_wills if now - t <= DUPLICATE_WINDOW_S] + [now]
        return len(self._foreign_wills) >= 2

    # -- the pump thread ---------------------------------------------------------------------
    def _pump_loop(self) -> None:
        db: sqlite3.Connection | None = None
        while True:
            self._wake.wait(0.5)
            self._wake.clear()
            stopping = self._stop.is_set()
            if self.client is not None and not stopping:
                try:
                    self._reprobe()
                except Exception:                # paho refusing a publish: the next round tries again
                    log.exception("event link: probe")
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
        operator cleared a topic by mistake) go back into the outbox with their own game id.

        A game id is sent only with the game it was given to: a row of the results file is
        that game only through the newest ``event_games`` line naming it (a file from before
        issue 24 kept the line of a game put aside, whose row id SQLite then gave the next
        game: that older game id is never sent again, least of all with the next game's content)."""
        # Games acknowledged on this connection are with the broker, their echo may still be
        # on its way after the probe; only older ones can be missing.
        seen = set(self._seen) | set(self._acked_now)
        pending = {r[0] for r in db.execute("SELECT game_uid FROM outbox")}
        rows = db.execute("SELECT e.game_uid, g.finished_at, g.record, g.winners, g.reason, g.scores "
                          "FROM event_games e JOIN games g ON g.id = e.games_id "
                          "JOIN (SELECT games_id AS id, max(rowid) AS newest FROM event_games GROUP BY games_id) n "
                          "ON n.newest = e.rowid "
                          "WHERE e.event = ? AND e.game_uid NOT IN (SELECT game_uid FROM outbox) "
                          "ORDER BY g.id", (self.event,)).fetchall()
        lost, changed = [], []
        for uid, finished, record, winners, reason, scores in rows:
            if uid in self._removed or uid in pending or \
                    (self._closed_at is not None and not self.leaderboard.counts_game(uid, self.cabinet)):
                continue
            held = self._broker_copy.get(uid)
            if uid not in seen or held is not None:
                r = self._own.get(uid) or make_result(self.event, self.cabinet, json.loads(record),
                                                      json.loads(winners), reason, json.loads(scores), finished,
                                                      game_id=uid)
                self._own[uid] = r
                if uid not in seen:
                    lost.append(r)
                elif held is not None and not held.same_game(r):
                    changed.append(r)      # the broker holds other content for our game: ours is right
        if not lost and not changed:
            return
        with db:
            for r in lost + changed:
                db.execute("INSERT OR IGNORE INTO outbox (game_uid, topic, payload, created_at) VALUES (?, ?, ?, ?)",
                           (r.game_id, results_topic(self.event, r.game_id, self.cabinet), r.to_json(), time.time()))
        self.resent += len(lost)
        self.repaired += len(changed)
        if lost:
            log.warning("event %s: the broker had lost %d of this cabinet's games; sending them again",
                        self.event, len(lost))
        if changed:
            log.warning("event %s: the broker held other content for %d of this cabinet's games; sending "
                        "this cabinet's own again", self.event, len(changed))

    def _drop_not_sendable(self, db: sqlite3.Connection) -> None:
        """Results the operator removed, or that the closed event's final results do not list,
        leave the outbox (the games stay in the results file; the boards would not count them).
        A listed game is on the broker already: the final results are made from what it held."""
        gone = [u for u in self._removed if u not in self._dropped]
        if gone:
            with db:
                db.executemany("DELETE FROM outbox WHERE game_uid = ? AND seq > ?", [(u, self._last_handed) for u in gone])
            self._dropped.update(gone)
        if self._closed_at is not None:
            rows = db.execute("SELECT seq, game_uid FROM outbox WHERE seq > ? AND topic LIKE ?",
                              (self._last_handed, "%/results/%")).fetchall()
            late = [(seq,) for seq, uid in rows if not self.leaderboard.counts_game(uid, self.cabinet)]
            with db:
                db.executemany("DELETE FROM outbox WHERE seq = ?", late)
            n = len(late)
            if n:
                log.warning("event %s is closed: %d games played since are kept in this cabinet's results "
                            "file only", self.event, n)

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
        client = self.client
        if not self.connected or self._stop.is_set() or client is None:
            return
        self._drop_not_sendable(db)
        if self._synced and (self._synced != self._resynced or self._repair):
            self._resynced = self._synced
            self._repair = False
            self._resend_lost(db)
        room = WINDOW - len(self._inflight)
        if room > 0:
            rows = db.execute("SELECT seq, topic, payload, game_uid FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?",
                              (self._last_handed, room)).fetchall()
            for seq, topic, payload, uid in rows:
                info = client.publish(topic, payload, qos=1, retain=True)
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
                       wanted.version, n, time.time(), self.instance)
            client.publish(status_topic(self.event, self.cabinet), s.to_json(), qos=1, retain=True)
            self._status_sent = wanted


class Watcher:
    """A read-only subscriber (``event status``, ``leaderboard-web``): a clean session under
    a random client id, the event's results and statuses into :attr:`leaderboard`.

    Args:
        settings: the validated ``[event]`` section.
        stepwise: read one cabinet at a time (the operator's commands): first every
            cabinet's status and the operator's notes, then each cabinet's results and
            high scores in turn, each read to its end (a probe echoed back) before the
            next.  One login that floods its own topics with retained messages (more than
            the broker queues for one client, ``max_queued_messages``) then costs only
            its own results, never the answer; it is named in :attr:`flooding`.  Last,
            every cabinet's topics at once (the logins that have no status message: their
            games are on every board too), where a login with more than
            :data:`FLOOD_MESSAGES` messages is named a flooding one.  ``leaderboard-web``
            reads this way too (the default); False: everything at once.
        game_id: read only this game's results and the operator's notes (``event remove``).

    Attributes:
        synced: set once the retained messages present at connect time have all arrived.
        problem: the connection problem in words ("" while fine): refused, unreachable, lost
            (a disconnect, a missed keep-alive), or nothing from the broker for :data:`SILENT_S`
            although connected (a hung broker; :meth:`heartbeat`).
        flooding: (stepwise) cabinet -> messages read from its topics, for each cabinet that
            sent more than a reader can be handed at once (its probe was lost), more than
            :data:`FLOOD_MESSAGES`, or over :data:`FLOOD_INVALID` messages that were no valid
            payloads (also live, after the first read); :attr:`flood_why` says which.
        unread: (stepwise) cabinets whose topics were not read to their end yet.
    """

    #: Invalid messages from one cabinet's topics that make it a flooding one (read from the
    #: broker's retained ones, or live, non-empty: a clear is no invalid message).
    FLOOD_INVALID = 100
    #: Why a login is named flooding, in words (:attr:`flood_why`, ``event status``).
    FLOODED_QUEUE = "more than the broker hands one reader at once"
    FLOODED_MANY = "more than a cabinet sends in an event"

    #: Messages from one login's topics that no cabinet sends in an event (a game a minute
    #: for three days is 4,320): more makes it a flooding one.
    FLOOD_MESSAGES = 5000

    #: Seconds without a clear on a flooding login's topics before a running reader counts
    #: what that login has left on the broker (``event clear-cabinet`` clears thousands).
    RECOUNT_QUIET_S = 1.0
    #: A recount whose end never comes (a flood ahead of it again) is given up after this.
    RECOUNT_GIVE_UP_S = 60.0
    #: Seconds between two heartbeats: a message to this reader's own echo topic, so that a
    #: quiet hall (no game for an hour) and a hung broker (``kill -STOP``: the connection
    #: stays up, nothing comes) look different (issue 24).
    HEARTBEAT_S = 5.0
    #: Seconds with nothing from the broker (not even a heartbeat's echo) after which
    #: :attr:`problem` says the boards may be out of date.
    SILENT_S = 20.0

    def __init__(self, settings: Mapping[str, object], stepwise: bool = True, game_id: str | None = None) -> None:
        self.settings = dict(settings)
        self.event = str(settings["event"])
        self.leaderboard = Leaderboard()
        self.synced = threading.Event()
        self.refused = threading.Event()
        self.problem = ""
        self.connected = False
        self.name = f"watch-{uuid.uuid4().hex[:12]}"
        self.user = str(settings.get("username") or "")
        self.stepwise = stepwise
        self.game_id = game_id
        self.flooding: dict[str, int] = {}
        self.flood_why: dict[str, str] = {}
        self._live_invalid: collections.Counter[str] = collections.Counter()   # login -> since the first read
        self.unread: list[str] = []
        self.progress = 0                   # probes come back so far
        self._probe = uuid.uuid4().hex      # the probe whose echo ends the current step
        self._core_done = False
        self._step = ""                     # the cabinet being read ("" = the statuses and notes)
        self._step_messages = 0
        self._step_invalid = 0
        self._step_reprobed = False
        self._wide = False                  # the last step: every cabinet's topics at once
        self._stepped: set[str] = set()     # cabinets read one by one
        self._wide_counts: collections.Counter[str] = collections.Counter()
        self._wide_invalid: collections.Counter[str] = collections.Counter()
        # A flooding login's topics cleared after the first read (issue 24: the page named it
        # for good): login -> when its last clear came; then its topics are read again.
        self._cleared: dict[str, float] = {}
        self._recount = ""                  # the login being counted again ("" = none)
        self._recount_probe = ""
        self._recount_started = 0.0
        self._recount_messages = 0
        self._recount_invalid = 0
        self._recount_lock = threading.Lock()
        self._stopping = threading.Event()
        self._checker: threading.Thread | None = None
        self._heard = time.monotonic()      # the last message from the broker (monotonic s)
        self._beat_sent = 0.0
        self._silent = False                # :attr:`problem` says the broker went silent
        self.beats = 0                      # heartbeats echoed back
        self.client = make_client(settings, f"focus-arcade-{self.name}", persistent=False)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message

    def start(self) -> "Watcher":
        self.client.connect_async(*broker_address(self.settings), keepalive=20)
        self.client.loop_start()
        if self.stepwise and self.game_id is None:
            self._checker = threading.Thread(target=self._check_loop, name=f"{self.name}-check", daemon=True)
            self._checker.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        try:
            self.client.disconnect()
        finally:
            self.client.loop_stop()
            if self._checker is not None and self._checker is not threading.current_thread():
                self._checker.join(2)

    def _check_loop(self) -> None:
        while not self._stopping.wait(0.25):
            try:
                self.heartbeat()
                self.recount_due()
            except Exception:                # never let the page's reader die on it
                log.exception("the page's reader: heartbeat or recounting a flooding login")

    def _say(self, problem: str) -> None:
        """:attr:`problem` is now ``problem``; the page is told at once."""
        if problem != self.problem:
            self.problem = problem
            self.leaderboard._tell()

    def heartbeat(self, now: float | None = None) -> None:
        """(the checker thread) Send a heartbeat every :data:`HEARTBEAT_S`; once nothing has
        come from the broker for :data:`SILENT_S` while connected, :attr:`problem` says so
        (the first message that comes clears it)."""
        now = time.monotonic() if now is None else now
        if not self.connected or not self.synced.is_set():
            return
        if now - self._beat_sent >= self.HEARTBEAT_S:
            self._beat_sent = now
            self.client.publish(sync_topic(self.event, self.name, self.user), b"heartbeat", qos=0)
        if now - self._heard >= self.SILENT_S and not self._silent:
            self._silent = True
            self._say(f"No answer from the event broker {self.settings.get('host')}:{self.settings.get('port')} "
                      f"for more than {self.SILENT_S:g} s: what is shown may be out of date.")

    def recount_due(self, now: float | None = None) -> str:
        """Start reading again the topics of one flooding login whose topics were cleared (no
        clear for :data:`RECOUNT_QUIET_S`); when that read ends with no more than a cabinet
        has (:meth:`_recounted`), it is no longer named.  Returns the login started ("" none)."""
        now = time.monotonic() if now is None else now
        with self._recount_lock:
            if self._recount and now - self._recount_started > self.RECOUNT_GIVE_UP_S:
                self.client.unsubscribe(cabinet_topic(self.event, self._recount) + "/#")
                self._recount = ""           # still named; the next clear tries again
            if self._recount or not self.connected or not self.synced.is_set():
                return ""
            due = [n for n, t in self._cleared.items() if now - t >= self.RECOUNT_QUIET_S]
            if not due:
                return ""
            name = due[0]
            del self._cleared[name]
            if name not in self.flooding and name not in self.leaderboard.over_cap:
                return ""
            self._recount, self._recount_started = name, now
            self._recount_messages = self._recount_invalid = 0
            self._recount_probe = uuid.uuid4().hex
        # The broker hands the retained messages of a new subscription over before the echo
        # of a message published after it.
        self.client.subscribe(cabinet_topic(self.event, name) + "/#", 1)
        self.client.publish(sync_topic(self.event, self.name, self.user), self._recount_probe, qos=1)
        return name

    def _recounted(self) -> None:
        """(network thread) The recount's echo came: the login's retained messages all counted."""
        with self._recount_lock:
            name, n, bad = self._recount, self._recount_messages, self._recount_invalid
            self._recount, self._recount_probe = "", ""
        self.client.unsubscribe(cabinet_topic(self.event, name) + "/#")
        if n > self.FLOOD_MESSAGES or bad > self.FLOOD_INVALID:
            return
        board = self.leaderboard
        with board.lock:
            self.flooding.pop(name, None)
            self.flood_why.pop(name, None)
            self._live_invalid.pop(name, None)
            if board._held_by[name] < board.MAX_GAMES_PER_CABINET:
                board.over_cap.pop(name, None)
                board._refused_games = {k for k in board._refused_games if k[0] != name}
            board.flooding, board.flood_why = dict(self.flooding), dict(self.flood_why)
            board._changed()
        board._tell()
        log.info("login %s no longer floods its topics (%d retained messages left)", name, n)

    def reprobe(self) -> None:
        """Send the current step's probe again (the broker drops it when this reader's
        queue is full: a flood ahead of it); its echo comes once the queue has room."""
        if self.connected and not self.synced.is_set():
            self._step_reprobed = True
            self.client.publish(sync_topic(self.event, self.name, self.user), self._probe, qos=1)

    def _first_subscriptions(self) -> list[tuple[str, int]]:
        notes = [(f"{ROOT}/{self.event}/operator/#", 1)]
        if self.game_id is not None:
            return [(results_topic(self.event, self.game_id), 1)] + notes
        if self.stepwise:
            return [(status_topic(self.event), 1)] + notes
        return subscriptions(self.event)

    @guarded
    def _on_connect(self, c: mqtt.Client, u: object, f: mqtt.ConnectFlags, rc: ReasonCode, p: Properties | None) -> None:
        if rc.is_failure:
            self.problem = refusal_text(rc, self.settings)
            self.refused.set()
            self.leaderboard._tell()
            return
        self.connected, self._heard, self._silent = True, time.monotonic(), False
        self._say("")
        if self.synced.is_set():            # a reconnect: read everything again, at once (and our echo)
            c.subscribe((subscriptions(self.event) if self.game_id is None else self._first_subscriptions())
                        + [(sync_topic(self.event, self.name, self.user), 1)])
            return
        self._probe, self._core_done, self._step = uuid.uuid4().hex, False, ""
        c.subscribe(self._first_subscriptions() + [(sync_topic(self.event, self.name, self.user), 1)])

    @guarded
    def _on_connect_fail(self, c: mqtt.Client, u: object) -> None:
        self.connected = False
        self.problem = unreachable_text(sys.exc_info()[1], self.settings).split(". Games")[0] + "."
        self.refused.set()
        self.leaderboard._tell()

    @guarded
    def _on_disconnect(self, c: mqtt.Client, u: object, f: mqtt.DisconnectFlags, rc: ReasonCode,
                       p: Properties | None) -> None:
        was, self.connected = self.connected, False
        if was and not self._stopping.is_set():      # (a refused login keeps the refusal's words)
            self._say(f"Lost the event broker {self.settings.get('host')}:{self.settings.get('port')} ({rc}): "
                      "what is shown may be out of date; reconnecting...")

    @guarded
    def _on_subscribe(self, c: mqtt.Client, u: object, mid: int, rcs: list[ReasonCode], p: Properties | None) -> None:
        if not self.synced.is_set():
            c.publish(sync_topic(self.event, self.name, self.user), self._probe, qos=1)

    def _next_step(self, c: mqtt.Client) -> None:
        """The current step read to its end: on to the next cabinet, or done."""
        self.progress += 1
        if self._step and self._step_invalid > self.FLOOD_INVALID:
            self._flooded(self._step, self._step_messages, self._invalid_why(self._step_invalid))
        elif self._step and self._step_reprobed:
            self._flooded(self._step, self._step_messages, self.FLOODED_QUEUE)
        if self._step:
            self._stepped.add(self._step)
        if not self.stepwise or self.game_id is not None:
            self.synced.set()
            return
        if self._wide:
            # Logins read only in this step (no status message): the one that filled the
            # queue (its probe was lost) or sent more than a cabinet ever does is flooding.
            counts = {n: k for n, k in self._wide_counts.items() if n not in self._stepped}
            for n, k in counts.items():
                if self._wide_invalid[n] > self.FLOOD_INVALID:
                    self._flooded(n, k, self._invalid_why(self._wide_invalid[n]))
                elif k > self.FLOOD_MESSAGES:
                    self._flooded(n, k, f"{self.FLOODED_MANY} ({self.FLOOD_MESSAGES})")
            if self._step_reprobed and counts and not any(n in self.flooding for n in counts):
                n, k = max(counts.items(), key=lambda kv: kv[1])
                self._flooded(n, k, self.FLOODED_QUEUE)
            self._step = ""
            self._tell_floods()
            self.synced.set()
            return
        if not self._core_done:
            self._core_done = True
            with self.leaderboard.lock:
                self.unread = sorted(n for n in self.leaderboard.statuses if n not in HALL_LOGINS)
        if not self.unread:
            # Last, everything at once: the logins with no status message (and what came new).
            self._step, self._wide = "", True
            self._step_reprobed = False
            self._probe = uuid.uuid4().hex
            self._tell_floods()
            c.subscribe(subscriptions(self.event))
            return
        self._step = self.unread.pop(0)
        self._step_messages = self._step_invalid = 0
        self._step_reprobed = False
        self._probe = uuid.uuid4().hex
        c.subscribe([(results_topic(self.event, "+", self._step), 1),
                     (highscore_topic(self.event, cabinet=self._step), 1)])

    def _invalid_why(self, invalid: int) -> str:
        return f"{invalid} of them no valid payload, more than the {self.FLOOD_INVALID} a cabinet ever sends"

    def _flooded(self, name: str, messages: int, why: str) -> None:
        """Name ``name`` a flooding login (``messages`` read from its topics, ``why`` in words)."""
        self.flooding[name] = messages
        self.flood_why[name] = why

    def _tell_floods(self) -> None:
        """The leaderboard (and the page) gets :attr:`flooding` and :attr:`flood_why` as they are now."""
        board = self.leaderboard
        with board.lock:
            if (board.flooding, board.flood_why) == (self.flooding, self.flood_why):
                return
            board.flooding, board.flood_why = dict(self.flooding), dict(self.flood_why)
            board._changed()
        board._tell()

    @guarded
    def _on_message(self, c: mqtt.Client, u: object, msg: mqtt.MQTTMessage) -> None:
        self._heard = time.monotonic()
        if self._silent:                    # the broker answers again
            self._silent = False
            self._say("")
        if msg.topic == sync_topic(self.event, self.name, self.user):
            if msg.payload == b"heartbeat":
                self.beats += 1
            elif not self.synced.is_set() and msg.payload == self._probe.encode():
                self._next_step(c)
            elif self._recount_probe and msg.payload == self._recount_probe.encode():
                self._recounted()
            return
        recounting = ""
        if self.synced.is_set() and (self.flooding or self.leaderboard.over_cap):
            parts = msg.topic.split("/", 4)
            if len(parts) > 4 and parts[2] == "cabinet":
                who = parts[3]
                if not msg.payload and (who in self.flooding or who in self.leaderboard.over_cap):
                    self._cleared[who] = time.monotonic()
                elif msg.retain and msg.payload and who == self._recount:
                    recounting = who
                    self._recount_messages += 1
        counting = self._step and msg.topic.startswith(cabinet_topic(self.event, self._step) + "/")
        if counting:
            self._step_messages += 1
        wide = ""
        if self._wide and not self.synced.is_set():
            parts = msg.topic.split("/", 4)
            if len(parts) > 4 and parts[2] == "cabinet":
                wide = parts[3][:40]
                if wide in self._wide_counts or len(self._wide_counts) < 10_000:
                    self._wide_counts[wide] += 1
        if self.leaderboard.receive(msg.topic, msg.payload, self.event, retained=bool(msg.retain)) is None:
            if recounting:
                self._recount_invalid += 1
            if counting:
                self._step_invalid += 1
            elif wide and wide in self._wide_counts:
                self._wide_invalid[wide] += 1
            elif self.synced.is_set() and msg.payload and not recounting:
                self._live_flood(msg.topic)

    def _live_flood(self, topic: str) -> None:
        """(after the first read) One more invalid message on a login's topics: past
        :data:`FLOOD_INVALID` of them that login is named flooding, on a running page too."""
        parts = topic.split("/", 4)
        if len(parts) < 5 or parts[2] != "cabinet":
            return
        who = parts[3][:40]
        if who in self.flooding or (who not in self._live_invalid and len(self._live_invalid) >= 10_000):
            return
        self._live_invalid[who] += 1
        if self._live_invalid[who] > self.FLOOD_INVALID:
            self._flooded(who, self._live_invalid[who], self._invalid_why(self._live_invalid[who]))
            self._tell_floods()


def watch(settings: Mapping[str, object], seconds: float = 5.0, stepwise: bool = True,
          game_id: str | None = None) -> tuple[Leaderboard, str]:
    """Collect the event's retained results and statuses (``event status``; see
    :class:`Watcher` for ``stepwise`` and ``game_id``) within ``seconds``.

    Returns:
        (the leaderboard, a problem text: "" when everything was read; when only some
        cabinets' results could not be read in time, the leaderboard of the rest and the
        problem naming those cabinets).
    """
    w = Watcher(settings, stepwise=stepwise, game_id=game_id).start()
    deadline = time.monotonic() + seconds
    seen, quiet_since = -1, time.monotonic()
    while time.monotonic() < deadline and not w.synced.is_set() and not w.refused.is_set():
        time.sleep(0.02)
        if w.progress != seen:
            seen, quiet_since = w.progress, time.monotonic()
        elif time.monotonic() - quiet_since > 1.0:       # the probe may have been dropped: again
            w.reprobe()
            quiet_since = time.monotonic()
    w.stop()
    if w.synced.is_set():
        return w.leaderboard, ""
    if w._core_done:
        left = ([w._step] if w._step else []) + w.unread
        w._tell_floods()
        if not left:
            return w.leaderboard, (f"within {seconds:g} s the broker did not hand over all games of the logins "
                                   "that have no status message (--wait for longer)")
        return w.leaderboard, (f"within {seconds:g} s the broker did not hand over all games of "
                               f"{len(left)} cabinet{'s' if len(left) != 1 else ''}: "
                               f"{', '.join(isolate(clean_text(n, 40)) for n in left[:10])}"
                               f"{' ...' if len(left) > 10 else ''} (--wait for longer)")
    return w.leaderboard, w.problem or f"no answer from the broker within {seconds:g} s"


def format_status(board: Leaderboard) -> str:
    """The hall for the operator: one line per cabinet (state, game, games on the boards,
    messages still to send, version, LED link, errors), warnings (two machines with one
    name, the event closed), then the games and best per board with the game ids of the
    top three (for ``event remove``)."""
    snap = board.snapshot(3)
    per_cab = collections.Counter(g.cabinet for g in board.all_games())
    lines = [f"{'cabinet':<20} {'state':<8} {'game':<20} {'games':>5} {'to send':>7}  {'version':<8} "
             f"{'LED':<24} errors"]
    def cell(value: object, width: int) -> str:
        # One line per cabinet whatever a payload holds: the texts were cleaned when they came in
        # (clean_text); cut to the column again here (the operator's table stays aligned), and a
        # right-to-left name is isolated so the columns after it keep their order.
        s = clean_text(str(value), width if width > 0 else 400)
        return s + " " * (width - len(s)) if width > 0 else s

    dup = set(board.duplicate_names())
    for c in snap["cabinets"]:
        state = c["state"]               # "offline" is the broker's word (the cabinet's last will)
        lines.append(f"{isolate(cell(c['cabinet'], 20))} {cell(state, 8)} {isolate(cell(c['game'] or '-', 20))} "
                     f"{per_cab.get(c['cabinet'], 0):>5} {c['outbox']:>7}  {cell(c['version'], 8)} "
                     f"{isolate(cell(c['led'] or '-', 24))} {isolate(cell('; '.join(c['errors']) or '-', 0))}")
    if not snap["cabinets"]:
        lines.append("(no cabinet has reported yet)")
    for name, n in sorted(board.flooding.items()):
        why = board.flood_why.get(name) or Watcher.FLOODED_QUEUE
        lines.append(f"WARNING: cabinet {isolate(clean_text(name, 40))} floods its topics ({n} messages, {why}): some "
                     "of its own games may be missing here; every other cabinet was read in full. Remove its login "
                     "if it is no cabinet of yours")
    for name, n in sorted(board.over_cap.items()):
        lines.append(f"WARNING: cabinet {isolate(clean_text(name, 40))} sent more games than any cabinet plays "
                     f"({board.MAX_GAMES_PER_CABINET} kept, {n} more refused). Remove its login if it is no "
                     "cabinet of yours")
    for name in sorted(dup):
        lines.append(f"WARNING: two machines use the cabinet name {isolate(name)!s}: each one's connection "
                     "drops the other's; give each cabinet its own name and login")
    if board.closed_at is not None:
        lines.append(f"The event was closed at {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(board.closed_at))}:"
                     f" only the {len(board.final)} games of its final results count"
                     f"{'' if board.final_complete else ' (not all of its list has come yet)'}.")
    lines.append("")
    lines.append(f"{snap['games']} games")
    for b in snap["boards"]:
        best = b["top"][0] if b["top"] else None
        lines.append(f"  {b['title']:<28} {b['games']:>5} games" +
                     (f", best {best['score']} ({(best['who'] + ' @ ') if best['who'] else ''}"
                      f"{isolate(best['cabinet'])})" if best else ""))
        for r in b["top"]:
            if r["game_id"]:      # the ids `event remove` takes
                lines.append(f"      {r['rank']}. {r['score']:<16} {r['who']:<4} {isolate(clean_text(r['cabinet'], 24))}  "
                             f"{r['game_id']}")
    if snap["more_boards"]:
        lines.append(f"  ... and {snap['more_boards']} more boards")
    if board.ignored:
        lines.append(f"{board.ignored} messages on the event's topics were not valid payloads (ignored)")
    if board.removed:
        lines.append(f"{len(board.removed)} games removed by the operator")
    if board.late:
        lines.append(f"{board.late} results came after the close and are not in its final results (refused)")
    return "\n".join(lines)


# -- the operator ------------------------------------------------------------------------------

#: Where the hall's broker keeps its logins and its ACL (kiosk/hall/focus-arcade.conf).
HALL_PASSWD = "/etc/mosquitto/focus-arcade/passwd"
HALL_ACL = "/etc/mosquitto/focus-arcade/acl"
#: What a cabinet's login may write under its event (and nothing else: reading is for every login).
CABINET_WRITES = ("results/+", "highscores/+", "status")


def cabinet_acl(name: str, event: str) -> list[str]:
    """The ACL lines that let login ``name`` write its own results, high scores and status under
    ``event`` and under no other event (Mosquitto: ``user`` then that user's ``topic`` lines; a
    second ``user`` line for the same name adds to the first)."""
    return [f"user {name}"] + [f"topic write {cabinet_topic(event, name)}/{w}" for w in CABINET_WRITES]


def acl_events(acl_file: str | Path, name: str) -> set[str]:
    """The events whose cabinet topics the ACL file lets login ``name`` write (all of them).

    Raises:
        OSError: the file cannot be read.
    """
    granted: dict[str, set[str]] = {}
    user = None
    prefix = f"{ROOT}/"
    for raw in Path(acl_file).read_text(encoding="utf-8", errors="replace").splitlines():
        words = raw.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "user" and len(words) == 2:
            user = words[1]
        elif words[0] == "topic" and user == name and len(words) == 3 and words[1] in ("write", "readwrite"):
            parts = words[2].split("/")
            if words[2].startswith(prefix) and len(parts) >= 5 and parts[2:4] == ["cabinet", name]:
                granted.setdefault(parts[1], set()).add("/".join(parts[4:]))
    return {e for e, w in granted.items() if set(CABINET_WRITES) <= w}


def grant_event(acl_file: str | Path, name: str, event: str) -> bool:
    """Append :func:`cabinet_acl` for ``name`` and ``event`` to the ACL file unless it has them;
    True if it changed (Mosquitto reads it again on ``systemctl reload mosquitto``).

    Raises:
        OSError: the file cannot be read or written.
        ValueError: ``name`` or ``event`` is no valid name.
    """
    if not (valid_name(name) and valid_name(event)):
        raise ValueError(f"{name!r} / {event!r}: not a cabinet and an event name")
    path = Path(acl_file)
    if event in acl_events(path, name):
        return False
    text = path.read_text(encoding="utf-8")
    block = "\n".join([f"# cabinet {name}, event {event} (focus-arcade event add-cabinet)"] + cabinet_acl(name, event))
    with path.open("a", encoding="utf-8") as f:        # appending keeps the file's owner and mode
        f.write(("" if text.endswith("\n") or not text else "\n") + "\n" + block + "\n")
    return True


def _operator_publish(settings: Mapping[str, object], messages: Sequence[tuple[str, str]], seconds: float) -> str:
    """Publish ``messages`` (topic, payload; retained, QoS 1) with the ``[event]`` login;
    returns a problem ("" = all acknowledged)."""
    done = threading.Event()
    problem: list[str] = []
    client = make_client(settings, f"focus-arcade-operator-{uuid.uuid4().hex[:8]}", persistent=False)

    @guarded
    def on_connect(c: mqtt.Client, u: object, f: mqtt.ConnectFlags, rc: ReasonCode, p: Properties | None) -> None:
        if rc.is_failure:
            problem.append(refusal_text(rc, settings))
        done.set()

    @guarded
    def on_connect_fail(c: mqtt.Client, u: object) -> None:
        problem.append(unreachable_text(sys.exc_info()[1], settings).split(". Games")[0] + ".")
        done.set()

    client.on_connect, client.on_connect_fail = on_connect, on_connect_fail
    client.connect_async(*broker_address(settings), keepalive=20)
    client.loop_start()
    try:
        if not done.wait(seconds):
            return f"no answer from the broker within {seconds:g} s"
        if problem:
            return problem[0]
        for topic, payload in messages:
            info = client.publish(topic, payload, qos=1, retain=True)
            info.wait_for_publish(seconds)
            if not info.is_published():
                return f"the broker did not acknowledge {topic} within {seconds:g} s"
        return ""
    finally:
        client.disconnect()
        client.loop_stop()


#: Where Debian's own mosquitto.conf has the hall's broker write its pid and its store (README.md).
BROKER_PID_FILE = "/run/mosquitto/mosquitto.pid"
BROKER_STORE = "/var/lib/mosquitto/mosquitto.db"
#: The documented ``autosave_interval`` (kiosk/hall/focus-arcade.conf): the broker writes its
#: store to disk this often; what it took since is lost if it crashes (``kill -9``, power).
AUTOSAVE_S = 60


def _store_key(store: Path) -> tuple[int, int, int] | None:
    try:
        st = store.stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


def save_broker_store(pid_file: str | Path = BROKER_PID_FILE, store: str | Path = BROKER_STORE,
                      seconds: float = 5.0) -> tuple[bool, str]:
    """The broker running on this machine writes its whole store to disk now (Mosquitto does
    that on SIGUSR1; it writes a new file and renames it over the old one), and this waits until
    it has: the operator's note just acknowledged then survives a broker crash (issue 24: the
    broker saves every ``autosave_interval`` only, so a ``kill -9`` a second after ``event
    remove`` brought the game back).  Once per operator command, not per message.

    Returns:
        (saved, "" or why not in words).
    """
    import os
    import signal
    try:
        pid = int(Path(pid_file).read_text(encoding="ascii").split()[0])
    except (OSError, ValueError, IndexError):
        return False, f"no broker on this machine ({pid_file} names none)"
    try:
        comm = Path(f"/proc/{pid}/comm").read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        comm = "mosquitto"                   # no /proc here: trust the pid file
    if comm != "mosquitto":
        return False, f"no broker on this machine (pid {pid} of {pid_file} is not mosquitto)"
    path = Path(store)
    before = _store_key(path)
    try:
        os.kill(pid, signal.SIGUSR1)
    except ProcessLookupError:
        return False, f"no broker on this machine (pid {pid} of {pid_file} is gone)"
    except PermissionError:
        return False, "this user may not ask the broker to save (run the command with sudo)"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        now = _store_key(path)
        if now is not None and now != before:
            return True, ""
        time.sleep(0.05)
    return False, f"the broker did not write {store} within {seconds:g} s (is that its persistence file?)"


def keep_through_crash(save: Mapping[str, str | Path] | None, seconds: float) -> str:
    """What to add to an operator command's answer once the broker acknowledged its note:
    saved on the broker's disk (``save``: :func:`save_broker_store`'s ``pid_file`` and ``store``),
    or plainly how long until it is and the command that makes it safe now."""
    if save is None:
        return ""
    ok, why = save_broker_store(save.get("pid_file", BROKER_PID_FILE), save.get("store", BROKER_STORE), seconds)
    if ok:
        return "\nThe broker has written it to its disk: it stays through a broker crash or a power cut."
    return (f"\nNot on the broker's disk yet ({why}): the broker writes it within {AUTOSAVE_S} s; if it crashes "
            "before (kill -9, power cut) the note is lost and this command must be run again. To make it safe "
            "now, on the broker's machine: sudo systemctl kill -s USR1 mosquitto (or run this command there "
            "with sudo).")


def remove_game(settings: Mapping[str, object], game_id: str, seconds: float = 5.0,
                cabinet: str | None = None, save: Mapping[str, str | Path] | None = None) -> tuple[bool, str]:
    """``focus-arcade event remove GAME_ID [--cabinet NAME]``: one cabinet's game off every
    board, for good.

    A game is known by its cabinet and its id: when two cabinets' games have the id (a login
    copied another cabinet's), nothing is removed unless ``cabinet`` says whose.  Publishes
    the operator's retained ``removed`` note for that cabinet's game (consumers drop it and
    never take it again, its cabinet never sends it again; the other cabinet's game of that
    id stays) and clears its retained result, then reads the event back to check the broker
    took both: a login without the operator's rights is acknowledged but ignored by Mosquitto.
    Then the broker on this machine writes its store to disk (:func:`keep_through_crash`, with
    ``save``), or the answer says how long until it does.

    Returns:
        (done, what happened in words).
    """
    event = str(settings["event"])
    try:
        gid = str(uuid.UUID(game_id))
    except ValueError:
        if not re.fullmatch(r"[0-9a-f-]{8,35}", game_id.lower()):
            return False, (f"{clean_text(game_id, 60)!r} is not a game id (a UUID as `event status` shows it, or "
                           "its first 8 characters or more, as the page shows them)")
        # The short id the page shows: the one game on the boards whose id starts with it.
        board, problem = watch(settings, seconds)
        if problem:
            return False, problem
        found = sorted({g.game_id for g in board.all_games() if g.game_id.startswith(game_id.lower())})
        if len(found) != 1:
            return False, (f"no game on the boards has an id starting with {game_id!r}" if not found else
                           f"{len(found)} games have an id starting with {game_id!r}: " + ", ".join(found[:5]) +
                           "; give more of it")
        gid = found[0]
    # Only this game's topics: a flood on some cabinet's topics cannot stand in the way.
    board, problem = watch(settings, seconds, game_id=gid)
    if problem:
        return False, problem
    games = [r for r in board.games_of(gid) if cabinet is None or r.cabinet == cabinet]
    if cabinet is not None and not games:
        others = ", ".join(isolate(r.cabinet) for r in board.games_of(gid))
        return False, (f"cabinet {isolate(clean_text(cabinet, 40))} has no game {gid} on the boards"
                       + (f" (cabinet {others} has)" if others else ""))
    if len(games) > 1:
        return False, (f"{len(games)} cabinets have a game of id {gid}: " +
                       "; ".join(f"{isolate(r.cabinet)} ({r.score_text} on {board_title(r.board)})" for r in games) +
                       ". Nothing removed: say whose with --cabinet NAME")
    held = games[0] if games else None
    whose = held.cabinet if held is not None else ""
    messages = [(removed_topic(event, gid, whose), Removed(gid, event, time.time(), whose).to_json())]
    if held is not None:
        messages.append((results_topic(event, gid, held.cabinet), ""))
    problem = _operator_publish(settings, messages, seconds)
    if problem:
        return False, problem
    after, problem = watch(settings, seconds, game_id=gid)
    if problem:
        return False, problem
    taken = (whose, gid) in after.removed_pairs if whose else gid in after._removed_any
    if not taken or any(r.cabinet == whose or not whose for r in after.games_of(gid)):
        return False, (f"the broker did not take the removal: log in as the hall's operator ([event] username "
                       f"= \"operator\"; its ACL lets only the operator write focus-arcade/{event}/operator/)")
    what = (f"game {gid} ({held.score_text} on {board_title(held.board)}, cabinet {held.cabinet}) removed "
            "from every board" if held is not None else
            f"game {gid} is on no board now; it is marked removed, so it will not count if it comes")
    return True, what + keep_through_crash(save, seconds)


def close_event(settings: Mapping[str, object], seconds: float = 5.0, at: float | None = None,
                save: Mapping[str, str | Path] | None = None) -> tuple[bool, str]:
    """``focus-arcade event close``: the event's boards frozen at ``at`` (default now).

    Reads the event, then publishes (retained) its final results, the game ids on the
    boards that finished by ``at`` (:class:`FinalPart`, :data:`FINAL_PART_SIZE` a part), and
    then the close note (:class:`Closed`).  From then on every board counts only those
    games: a result published later is refused whatever its ``finished_at`` says, and
    cabinets stop sending games (they keep them in their results files).  A cabinet's login
    cannot write the operator's topics (the hall's ACL), so it can neither forge nor extend
    the list.  Checked by reading the event back, and saved on the broker's disk, as
    :func:`remove_game`.

    Returns:
        (done, what happened in words; it names cabinets that still had games to send).
    """
    event = str(settings["event"])
    when = time.time() if at is None else at
    before, problem = watch(settings, seconds)
    if problem:
        return False, problem
    # The stepwise read skips a cabinet that has no status on the broker; a read of everything
    # at once finds its games too (under a flood it may miss some, hence both).
    wide, _ = watch(settings, seconds, stepwise=False)
    # Each game by its cabinet and its id: a copied id counts for the login that sent it only
    # if that copy was on the boards itself (issue 24).
    extra = {(r.cabinet, r.game_id) for r in wide.all_games() if r.finished_at <= when}
    with before.lock:
        listed = {(r.cabinet, r.game_id) for r in before.all_games() if r.finished_at <= when}
        listed |= {k for k in extra if before.counts_game(k[1], k[0])}
        old_parts = sorted(before.final_parts)
        unsent = {s.cabinet: s.outbox for s in before.statuses.values() if s.outbox and s.state != "offline"}
    parts = final_parts(event, when, listed)
    messages = [(final_topic(event, p.part), p.to_json()) for p in parts]
    # Parts of an earlier close beyond this one's: cleared (they name another close time anyway).
    messages += [(final_topic(event, k), "") for k in old_parts if k >= len(parts)]
    messages.append((closed_topic(event), Closed(event, when, len(parts), len(listed)).to_json()))
    problem = _operator_publish(settings, messages, seconds)
    if problem:
        return False, problem
    after, problem = watch(settings, seconds)
    if problem:
        return False, problem
    if after.closed_at != when or not after.final_complete or after.final != frozenset(listed):
        return False, (f"the broker did not take the close: log in as the hall's operator ([event] username "
                       f"= \"operator\"; its ACL lets only the operator write focus-arcade/{event}/operator/)")
    text = (f"event {event!r} closed at {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(when))}: "
            f"{len(listed)} games on its boards are the final results")
    if unsent:
        text += ("\nnot counted: games these cabinets had still to send when the event closed: " +
                 ", ".join(f"{isolate(clean_text(c, 40))} ({n})" for c, n in sorted(unsent.items())))
    return True, text + keep_through_crash(save, seconds)


@dataclass
class _Clearing:
    """What :func:`clear_cabinet`'s callbacks (paho's thread) tell it: the probe whose echo ends
    one read (``done``), the connection accepted or refused (``connected``, ``problem``)."""

    probe: str = ""
    done: threading.Event = field(default_factory=threading.Event)
    connected: threading.Event = field(default_factory=threading.Event)
    problem: str = ""


def clear_cabinet(settings: Mapping[str, object], name: str, seconds: float = 15.0) -> tuple[bool, str]:
    """``focus-arcade event clear-cabinet NAME``: every retained message under that login's own
    topics (``focus-arcade/<any event>/cabinet/NAME/...``: results, high scores, status) cleared
    on the broker, with the operator's login; read and cleared again until none is left, so a
    flood larger than the broker hands one reader at once goes too.  Remove the login first
    (``mosquitto_passwd -D``), or it can publish again; an honest cabinet that is still running
    sends its own games again.

    Returns:
        (done, what happened in words).
    """
    if not valid_name(name) or name in HALL_LOGINS:
        return False, f"{clean_text(name, 60)!r} is no cabinet's name"
    event = str(settings["event"])
    client = make_client(settings, f"focus-arcade-clear-{uuid.uuid4().hex[:8]}", persistent=False)
    user = str(settings.get("username") or "")
    probe_topic = sync_topic(event, f"clear-{uuid.uuid4().hex[:8]}", user)
    found: list[str] = []
    state = _Clearing()

    @guarded
    def on_connect(c: mqtt.Client, u: object, f: mqtt.ConnectFlags, rc: ReasonCode, p: Properties | None) -> None:
        if rc.is_failure:
            state.problem = refusal_text(rc, settings)
        state.connected.set()

    @guarded
    def on_message(c: mqtt.Client, u: object, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == probe_topic:
            if msg.payload.decode("ascii", "replace") == state.probe:
                state.done.set()
        elif msg.retain and msg.payload and len(found) < 1_000_000:
            found.append(msg.topic)

    client.on_connect, client.on_message = on_connect, on_message
    client.connect_async(*broker_address(settings), keepalive=20)
    client.loop_start()
    cleared = 0
    mine = f"{ROOT}/+/cabinet/{name}/#"
    try:
        if not state.connected.wait(seconds) or state.problem:
            return False, state.problem or f"no answer from the broker within {seconds:g} s"
        client.subscribe(probe_topic, 1)
        for _ in range(1000):
            found.clear()
            state.done = threading.Event()
            state.probe = uuid.uuid4().hex
            client.subscribe(mine, 1)
            deadline, last, quiet = time.monotonic() + seconds, -1, time.monotonic()
            while not state.done.is_set() and time.monotonic() < deadline:
                if len(found) != last or time.monotonic() - quiet > 1.0:        # probe again when quiet
                    if len(found) == last:
                        client.publish(probe_topic, state.probe, qos=1)
                    last, quiet = len(found), time.monotonic()
                time.sleep(0.05)
            client.unsubscribe(mine)
            if not state.done.is_set():
                return False, f"the broker did not hand over {name}'s topics within {seconds:g} s (--wait)"
            if not found:
                break
            info = None
            for topic in dict.fromkeys(found):
                info = client.publish(topic, b"", qos=1, retain=True)
                cleared += 1
                if cleared % 500 == 0:
                    info.wait_for_publish(seconds)
            if info is not None:
                info.wait_for_publish(seconds)
        return True, (f"cleared {cleared} retained messages under cabinet {name!r}'s topics"
                      if cleared else f"cabinet {name!r} has no retained messages on the broker")
    finally:
        client.disconnect()
        client.loop_stop()


def logins(passwd_file: str | Path) -> set[str]:
    """The user names in a Mosquitto password file (``user:hash`` lines); empty if it does not exist.

    Raises:
        OSError: the file exists but cannot be read.
    """
    path = Path(passwd_file)
    if not path.exists():
        return set()
    return {line.split(":", 1)[0] for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
            if ":" in line and not line.lstrip().startswith("#")}


#: Names that mean "this machine" wherever they are used: a cabinet given one connects to itself.
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback", "local"})


def is_loopback(host: str) -> bool:
    """``host`` names the machine it is used on (``localhost``, ``127.0.1.1``, ``::1``, ``0.0.0.0``...),
    not one other machines reach.  No name lookup (slow, and it says nothing about the hall's network).

    >>> [is_loopback(h) for h in ("localhost", "127.0.1.1", "::1", "", "arcade-broker.local", "192.168.1.10")]
    [True, True, True, True, False, False]

    The C library's short and numeric IPv4 forms and IPv4-mapped IPv6 addresses count too (a
    cabinet given ``127.1`` or ``::ffff:127.0.0.1`` connects to itself as well):

    >>> [is_loopback(h) for h in ("127.1", "2130706433", "0x7f000001", "::ffff:127.0.0.1", "10.1")]
    [True, True, True, True, False]
    """
    import ipaddress
    import socket
    name = host.strip().strip("[]").rstrip(".").lower()
    if not name or name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        addr: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(name)
    except ValueError:
        try:
            addr = ipaddress.IPv4Address(socket.inet_aton(name))      # 127.1, 2130706433, 0x7f000001
        except OSError:
            return False
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    return addr.is_loopback or addr.is_unspecified


def broker_host(given: str | None, configured: str | None) -> tuple[str, str]:
    """The host the cabinets reach the broker by, for ``event add-cabinet``'s ``[event]`` lines
    (issue 24: ``socket.getfqdn()`` said "localhost" on many machines, and a cabinet given it
    connects to itself): ``given`` (``--host``), else ``configured`` (this machine's ``[event]
    host``) if it is no loopback name, else this machine's name (``.local`` added to a name
    without a dot: what mDNS answers on Raspberry Pi OS) if it is none.

    Returns:
        (host, "") or ("", why there is none).
    """
    if given is not None:
        if is_loopback(given) or not re.fullmatch(r"[A-Za-z0-9.:_\[\]-]{1,253}", given):
            return "", (f"--host {clean_text(given, 60)!r} is not a name other machines reach the broker by: "
                        "give the broker's host name or address on the hall's network")
        return given, ""
    if configured and not is_loopback(configured):
        return configured, ""
    name = socket.gethostname()
    if name and not is_loopback(name) and re.fullmatch(r"[A-Za-z0-9.-]{1,253}", name):
        return (name if "." in name else f"{name}.local"), ""
    return "", ("cannot tell the host the cabinets reach the broker by (this machine calls itself "
                f"{clean_text(name, 60)!r}): pass --host NAME, the broker's host name or address on the hall's network")


def add_cabinet(name: str, passwd_file: str | Path = HALL_PASSWD, password: str | None = None,
                mosquitto_passwd: str = "mosquitto_passwd", replace: bool = False,
                event: str | None = None, acl_file: str | Path = HALL_ACL, host: str | None = None,
                configured_host: str | None = None) -> tuple[bool, str]:
    """``focus-arcade event add-cabinet NAME --event EVENT`` on the broker's machine: a login for
    one more cabinet in the hall's password file (``mosquitto_passwd``; a new random password
    unless given), its lines in the hall's ACL (:func:`grant_event`: it may write its own topics
    under ``event`` only), and the ``[event]`` lines for that cabinet.  Mosquitto reads both files
    again on ``systemctl reload mosquitto``.  A login that exists already keeps its password
    unless ``replace`` (``--replace``: a new password; the cabinet needs the new one); given
    another event, it may write under that event too.  ``event`` (``--event``, else the
    configuration's) is needed: a login may write under the events it was added for only.
    A password file it makes is readable by root and the ``mosquitto`` group only (0640).
    The lines' ``host`` is :func:`broker_host` of ``host`` (``--host``) and ``configured_host``;
    with none, nothing is made.

    Returns:
        (done, the text to show: the cabinet's configuration, or what went wrong).
    """
    import secrets
    import subprocess
    if not valid_name(name) or name in HALL_LOGINS:
        return False, (f"{name!r}: a cabinet's name is 1 to 40 letters, digits, '-', '_' or '.' (not "
                       "'operator' or 'board', the hall's other logins)")
    if not event:
        return False, (f"event add-cabinet {name} needs the event's name (--event NAME, or [event] event in "
                       "this machine's configuration): a cabinet's login may write under its own event only")
    if not valid_name(event):
        return False, f"{clean_text(event, 60)!r}: an event's name is 1 to 40 letters, digits, '-', '_' or '.'"
    reach, problem = broker_host(host, configured_host)
    if problem:
        return False, problem
    path, acl = Path(passwd_file), Path(acl_file)
    try:
        known = name in logins(path)
        granted = event in acl_events(acl, name)
    except FileNotFoundError:
        return False, (f"there is no ACL file {acl}: copy the hall's (kiosk/hall/focus-arcade.acl) there first "
                       "(README.md: \"A broker for the hall\")")
    except OSError as exc:
        return False, (f"cannot read {exc.filename or path}: {exc.strerror or exc} (run it with sudo on the "
                       "broker's machine)")
    if known and granted and not replace:
        return False, (f"cabinet {name!r} has a login in {path} and may write under event {event!r} already; "
                       f"nothing changed. To give it a new password (its cabinet then needs the new one): "
                       f"event add-cabinet {name} --event {event} --replace")
    event_line = f"event = \"{event}\"   # the hall's event name, the same on every cabinet\n"
    settings_text = ("In that cabinet's ~/.config/focus-arcade/arcade.toml:\n\n"
                     f"[event]\nhost = \"{reach}\"   # how the cabinets reach the broker (--host NAME for another)\nport = 8883\ntls = true\n"
                     "ca_file = \"/home/pi/hall-ca.pem\"\n"
                     f"username = \"{name}\"\ncabinet = \"{name}\"\n"
                     "password_file = \"/home/pi/.config/focus-arcade/broker-password\"\n" + event_line)
    if known and not replace:
        try:
            grant_event(acl, name, event)
        except OSError as exc:
            return False, f"cannot write {acl}: {exc.strerror or exc} (run it with sudo on the broker's machine)"
        return True, (f"Cabinet {name!r} may now write under event {event!r} too (after `sudo systemctl reload "
                      f"mosquitto`); its login and password are unchanged.\n\n" + settings_text)
    secret = password or secrets.token_urlsafe(18)
    created = not path.exists()
    args = [mosquitto_passwd, "-b"] + (["-c"] if created else []) + [str(path), name, secret]
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, f"could not run {mosquitto_passwd} ({exc}): is mosquitto installed on this machine?"
    if done.returncode != 0:
        return False, f"{mosquitto_passwd} failed: {(done.stderr or done.stdout).strip()}"
    if created:
        import os
        import shutil
        try:
            os.chmod(path, 0o640)            # mosquitto_passwd -c leaves it readable by every user
            shutil.chown(path, group="mosquitto")
        except (OSError, LookupError):
            pass                             # no such group here (not the broker's machine): 0640 stays
    try:
        grant_event(acl, name, event)
    except OSError as exc:
        return False, (f"the login {name!r} is made, but {acl} could not be written: {exc.strerror or exc}; "
                       f"run event add-cabinet {name} --event {event} again with sudo")
    return True, ((f"Cabinet {name!r}: its old password no longer works; the new one below does (after "
                   "`sudo systemctl reload mosquitto`).\n") if known else
                  f"Cabinet {name!r} can log in now (after `sudo systemctl reload mosquitto`) and write under "
                  f"event {event!r} only.\n") + (
                  f"Its password, for its ~/.config/focus-arcade/broker-password (one line):\n\n{secret}\n\n"
                  + settings_text)


def operator_main(what: str, target: str | None, settings: Mapping[str, object], seconds: float = 5.0,
                  passwd_file: str = HALL_PASSWD, replace: bool = False, cabinet: str | None = None,
                  event: str | None = None, acl_file: str = HALL_ACL, host: str | None = None,
                  broker_pid_file: str = BROKER_PID_FILE, broker_store: str = BROKER_STORE) -> int:
    """``focus-arcade event remove GAME_ID [--cabinet NAME] | close | add-cabinet NAME --event EVENT
    [--host NAME] | clear-cabinet NAME``: prints what happened; returns the exit status (0 done,
    1 not done, 2 a wrong command line).  ``remove`` and ``close`` then have the broker on this
    machine (``broker_pid_file``) write its store (``broker_store``) to disk."""
    save = {"pid_file": broker_pid_file, "store": broker_store}
    if what in ("remove", "add-cabinet", "clear-cabinet") and not target:
        print(f"focus-arcade: event {what} needs {'a game id' if what == 'remove' else 'a cabinet name'}",
              file=sys.stderr)
        return 2
    if what == "clear-cabinet":
        ok, text = clear_cabinet(settings, str(target), seconds)
    elif what == "remove":
        ok, text = remove_game(settings, str(target), seconds, cabinet, save=save)
    elif what == "close":
        ok, text = close_event(settings, seconds, save=save)
    else:
        ok, text = add_cabinet(str(target), passwd_file, replace=replace, event=event, acl_file=acl_file,
                               host=host, configured_host=str(settings.get("host") or "") or None)
    print(text if ok else f"focus-arcade: {text}", file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1
