"""The one game API shared by every game of the arcade.

Every game module has the same skeleton: a :class:`Game` subclass (seat counts,
settings with defaults, the action types, a factory of initial states) and a
:class:`State` subclass.  The state never reads a clock or a global random
generator:

* ``current_player()`` is a seat (``0 .. seats-1``) or one of the pseudo-players
  :data:`CHANCE` (a shuffle or deal is due: the driver asks
  ``chance_outcome(rng)`` for a recorded outcome and applies it), :data:`RACE`
  (a shout race is open: the driver judges stamped presses with
  :mod:`arcade.core.judge` and applies a :class:`~arcade.core.race.RaceResult`)
  or :data:`TERMINAL`;
* ``apply(action)`` validates first and raises :class:`IllegalActionError`
  without changing anything, then changes the state and appends to ``history``;
* ``outcome()`` gives the winners and the reason, kept apart from the state.

Chance outcomes are actions too, so a game record (``arcade.core.record``)
replays to the identical state without depending on any random generator.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, ClassVar, Mapping, Self, Sequence

from arcade.core.errors import IllegalActionError, RecordError, SettingsError


class PseudoPlayer(IntEnum):
    """Who acts when no seat does (values are negative so seats stay 0..n-1)."""

    CHANCE = -1
    RACE = -2
    TERMINAL = -3


CHANCE = PseudoPlayer.CHANCE
RACE = PseudoPlayer.RACE
TERMINAL = PseudoPlayer.TERMINAL


def player_name(player: int) -> str:
    """``"P1"`` for seat 0, or the pseudo-player's name."""
    if player >= 0:
        return f"P{player + 1}"
    return PseudoPlayer(player).name


def _to_jsonable(value: Any) -> Any:
    if isinstance(value, Action):
        return value.to_json()
    if isinstance(value, (tuple, list)):
        return [_to_jsonable(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return sorted(_to_jsonable(v) for v in value)
    return value


@dataclass(frozen=True)
class Action:
    """Base of every action: a frozen dataclass of JSON-able fields.

    ``to_json()`` gives ``{"type": <class name>, <field>: <value>, ...}`` and
    ``Game.action_from_json`` reads it back (lists become tuples).
    """

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": type(self).__name__}
        for f in dataclasses.fields(self):
            out[f.name] = _to_jsonable(getattr(self, f.name))
        return out


def _from_jsonable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_jsonable(v) for v in value)
    return value


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    Attributes:
        winners: the winning seats (several when shared; empty for a draw).
        reason: why the game ended, in words a player understands.
        scores: one number per seat (cards, points...) where the game has them.
    """

    winners: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] = ()

    @property
    def is_draw(self) -> bool:
        return not self.winners


@dataclass(frozen=True)
class Setting:
    """One game setting: default value, type and allowed range or choices."""

    default: Any
    kind: type
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] = ()
    help: str = ""

    def check(self, key: str, value: Any) -> Any:
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, self.kind) or (self.kind is int and isinstance(value, bool)):
            raise SettingsError(key, value, f"a {self.kind.__name__}")
        if self.choices and value not in self.choices:
            raise SettingsError(key, value, f"one of {list(self.choices)}")
        number: Any = value
        if self.low is not None and number < self.low:
            raise SettingsError(key, value, f"at least {self.low}")
        if self.high is not None and number > self.high:
            raise SettingsError(key, value, f"at most {self.high}")
        return value


class Game(ABC):
    """A game: its name, seat range, settings and action types.

    Subclasses set the class variables and implement ``new_initial_state``.

    Raises:
        SettingsError: ``seats`` outside ``min_seats..max_seats``, an unknown
            setting key, or a value of the wrong type or out of range.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    settings_spec: ClassVar[Mapping[str, Setting]] = {}
    action_types: ClassVar[Sequence[type[Action]]] = ()

    def __init__(self, seats: int, settings: Mapping[str, Any] | None = None) -> None:
        if not isinstance(seats, int) or not self.min_seats <= seats <= self.max_seats:
            raise SettingsError("seats", seats, f"{self.min_seats} to {self.max_seats} for {self.title}")
        self.seats = seats
        merged: dict[str, Any] = {k: s.default for k, s in self.settings_spec.items()}
        for key, value in (settings or {}).items():
            if key not in self.settings_spec:
                raise SettingsError(key, value, f"one of the settings {sorted(self.settings_spec)}")
            merged[key] = self.settings_spec[key].check(key, value)
        self.settings: dict[str, Any] = merged

    @abstractmethod
    def new_initial_state(self) -> "State":
        """A fresh state at the start of a game (usually at a CHANCE node)."""

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        """Read back an action written by ``Action.to_json``.

        Raises:
            RecordError: unknown action type or fields.
        """
        if not isinstance(data, Mapping) or "type" not in data:
            raise RecordError(f"an action must be an object with a 'type', got {data!r}")
        by_name = {t.__name__: t for t in self.action_types}
        cls = by_name.get(data["type"])
        if cls is None:
            raise RecordError(f"unknown action type {data['type']!r} for {self.name}; expected one of {sorted(by_name)}")
        kwargs = {k: _from_jsonable(v) for k, v in data.items() if k != "type"}
        try:
            return cls(**kwargs)
        except TypeError as exc:
            raise RecordError(f"bad fields for {data['type']}: {exc}") from None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seats={self.seats}, settings={self.settings!r})"


class State(ABC):
    """A position of a game.  See the module docstring for the contract."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history: list[tuple[int, Action]] = []

    @property
    def seats(self) -> int:
        return self.game.seats

    # -- to implement -------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """A seat, or CHANCE, RACE or TERMINAL."""

    @abstractmethod
    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The actions ``player`` (default: the current player) may take now.

        At a RACE node this lists only the race's closing action; race results
        are built by the judge (see ``check``).
        """

    @abstractmethod
    def _apply(self, player: int, action: Action) -> None:
        """Change the state; called only after ``check`` found no fault."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome once TERMINAL, else None."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The whole position as JSON-able data (for replay checks and seat views)."""

    def chance_outcome(self, rng: random.Random) -> Action:
        """At a CHANCE node, draw the outcome from the injected ``rng``."""
        raise IllegalActionError("chance", player_name(self.current_player()), "no chance event is due")

    def check(self, player: int, action: Action) -> str | None:
        """Why ``action`` by ``player`` is illegal, or None.  Default: must be listed."""
        if action not in self.legal_actions(player):
            return "not among the legal actions here"
        return None

    # -- provided -----------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def apply(self, action: Action, player: int | None = None) -> None:
        """Validate, then apply ``action`` for ``player`` (default: current player).

        Raises:
            IllegalActionError: the action is not allowed now; nothing changed.
        """
        actor = self.current_player() if player is None else player
        if self.current_player() == TERMINAL:
            raise IllegalActionError(action, player_name(actor), "the game is over")
        if not isinstance(action, tuple(self.game.action_types)):
            raise IllegalActionError(action, player_name(actor), f"not an action of {self.game.title}")
        reason = self.check(actor, action)
        if reason is not None:
            raise IllegalActionError(action, player_name(actor), reason)
        self._apply(actor, action)
        self.history.append((actor, action))

    def clone(self) -> Self:
        """An independent copy (for search and for "what if")."""
        return copy.deepcopy(self)

    def resolve_chance(self, rng: random.Random) -> None:
        """Apply chance outcomes from ``rng`` while the state is at a CHANCE node."""
        while self.current_player() == CHANCE:
            self.apply(self.chance_outcome(rng))
