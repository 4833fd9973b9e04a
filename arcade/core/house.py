"""The house: what a family's ``arcade/<family>/house.py`` gives the arcade.

A house is a plain module the registry imports on first use
(:meth:`arcade.registry.GameSpec.house_module`); :class:`House` is the protocol
it satisfies, generic over the family's own state class, so its functions take
that class (``state: CoopState``) and ``mypy --strict`` checks them against
this protocol (``arcade/registry.py`` lists every house under ``TYPE_CHECKING``).

Required, for every entry (see ``docs/new-game.md``):

* ``computer_player(spec, state, seat, skill, ctx)`` -> a :class:`ComputerPlayer`;
* ``driver(spec, state, players, rng, **options)`` -> the match :class:`Driver`
  (``options``: :class:`DriverOptions`);
* ``led_picture(state, width, height)`` -> the LED matrix picture;
* ``summary(spec, state, seed, index, skills)`` -> the headless line (JSON data);
* ``view(state, seat)`` -> what the seat may see (JSON data).

Optional, looked up by name where a house has them: ``redeal_hidden(state, seat,
rng)`` (a game with secrets), ``option_settings(option, value)`` (a game with
command-line options), ``notice()``, ``SEARCH``, ``THINKING_PLAYERS``,
``COMMANDS`` (see :mod:`arcade.registry`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable, Protocol, Sequence, TypedDict, TypeVar, Unpack

from arcade.core.api import Action, State
from arcade.core.driver import ComputerPlayer, Driver, Thought
from arcade.core.judge import JudgeSettings

if TYPE_CHECKING:
    from arcade.lights.pictures import Picture
    from arcade.registry import GameSpec, PlayerContext
    from arcade.sherlook.markers import MarkerSettings

#: A house's JSON-able answers (the headless line, a seat's view).
JsonObject = dict[str, object]

S = TypeVar("S", bound=State, contravariant=True)


class DriverOptions(TypedDict, total=False):
    """The options a screen or ``headless`` may give ``GameSpec.driver`` (each house reads
    what concerns it and ignores the rest): the :class:`~arcade.core.driver.DriverSettings`
    fields, then the families' own."""

    judge: JudgeSettings | None
    pace_ns: int | None
    hold_ns: int
    max_delivery_ns: int
    max_steps: int
    chance_pause: Callable[[State], int] | None
    stop: Callable[[State], bool] | None
    chance_source: Callable[[State, Action], Thought] | None
    chance_rng: random.Random | None
    movers: Callable[[State], Sequence[int]] | None
    time_limit: Callable[[State, int], tuple[int, Action] | None] | None
    early_move: Callable[[State], int | None] | None
    #: FOCUS: plies after which a game is left unfinished (None or 0: no cap).
    ply_cap: int | None
    #: Sherlook: the marker referee's settings, the reveal between rounds, a computer's
    #: press hold and the presses' delivery delay (ms).
    markers: MarkerSettings | None
    reveal_ms: int
    hold_ms: int
    max_delivery_ms: int


class House(Protocol[S]):
    """What every family's house module provides (``S``: the family's state class)."""

    def computer_player(self, spec: GameSpec, state: S, seat: int, skill: str,
                        ctx: PlayerContext) -> ComputerPlayer:
        """A computer player for ``seat`` at ``skill`` (``arcade.registry.SKILLS``)."""
        ...

    def driver(self, spec: GameSpec, state: S, players: Sequence[ComputerPlayer | None], rng: random.Random,
               **options: Unpack[DriverOptions]) -> Driver:
        """The match driver set up for this game."""
        ...

    def led_picture(self, state: S, width: int = ..., height: int = ...) -> Picture:
        """The LED matrix picture of ``state``."""
        ...

    def summary(self, spec: GameSpec, state: S, seed: int, index: int, skills: list[str]) -> JsonObject:
        """The headless line of a finished (or capped) game."""
        ...

    def view(self, state: S, seat: int) -> JsonObject:
        """What ``seat`` may see of ``state``: the others' secrets hidden."""
        ...
