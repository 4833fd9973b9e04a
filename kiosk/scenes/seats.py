"""Who sits where: the lobby's choice for each seat, used by every game scene; the games the
lobby offers (each game's screen package, found by name from the registry)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Callable

from arcade import registry
from arcade.core.errors import SettingsError
from arcade.i18n import _
from arcade.registry import GameSpec

if TYPE_CHECKING:
    from arcade.core.api import State
    from kiosk.scene import Host
    from kiosk.scenes.game import GameScene


@dataclass(frozen=True)
class SeatInfo:
    """One seat of a game.

    Attributes:
        station: "keyboard", "gpio", "gamepad", "simulated" or "computer".
        label: how the screen names the station ("key 1", "GPIO 17"...).
        skill: the computer player's skill (also used by simulated players).
        can_choose: the station has left/right/ok controls (FX-4 choice).
    """

    station: str
    label: str
    skill: str = "medium"
    can_choose: bool = False

    @property
    def is_computer(self) -> bool:
        """Presses planned by the arcade (computer players and the demo's simulated ones)."""
        return self.station in ("computer", "simulated")


@dataclass(frozen=True)
class LobbyGame:
    """A game (or mode) the lobby and ``focus-arcade demo`` offer: a registry entry and the
    screen that plays it.

    Attributes:
        spec: the registry entry (:class:`arcade.registry.GameSpec`): its name, label,
            family, mode and seats are read from it (:attr:`name`, :attr:`label`...).
        make: ``(app, seats, spec) -> GameScene``: the screen module's maker, called by
            :meth:`start` with :attr:`spec`; the scene keeps that spec (``GameScene.spec``).
    """

    spec: GameSpec
    make: "Callable[[Host, list[SeatInfo], GameSpec], GameScene[State]]"

    @property
    def name(self) -> str:
        """The registry name (``arcade.registry``): the one the command line, the config and
        records use."""
        return self.spec.name

    @property
    def label(self) -> str:
        """What the lobby shows ("FocusX Classic")."""
        return self.spec.label

    @property
    def family(self) -> str:
        """The command line's ``--game``."""
        return self.spec.family

    @property
    def mode(self) -> str:
        """The command line's ``--mode`` (or variant)."""
        return self.spec.mode

    @property
    def min_seats(self) -> int:
        """The fewest seats (FX-12 and the like)."""
        return self.spec.min_seats

    @property
    def max_seats(self) -> int:
        """The most seats."""
        return self.spec.max_seats

    @property
    def demo_seats(self) -> int:
        """How many seats ``focus-arcade demo`` fills by default."""
        return self.spec.demo_seats if self.spec.demo_seats is not None else self.spec.default_seats

    def start(self, app: Host, seats: list[SeatInfo]) -> GameScene[State]:
        """A game of this entry with these seats: :attr:`make` given :attr:`spec`."""
        return self.make(app, seats, self.spec)

    def __hash__(self) -> int:
        # The spec holds a dict (``fixed``): a lobby game hashes by its entry's name and maker.
        return hash((self.spec.name, self.make))


def lobby_game(name: str, make: "Callable[[Host, list[SeatInfo], GameSpec], GameScene[State]]") -> LobbyGame:
    """The lobby's entry for the registry entry ``name``: its label, names and seats
    are the registry's (:mod:`arcade.registry`); the scene module gives only ``make``,
    ``(app, seats, spec) -> GameScene``, which gets the entry's spec.

    Raises:
        SettingsError: ``name`` is not in the registry.
    """
    return LobbyGame(registry.get(name), make)


def screen_package(spec: GameSpec) -> str:
    """The screen package of a registry entry: ``kiosk.games.<package>`` for the rules in
    ``arcade.<package>`` (its house's package)."""
    return f"kiosk.games.{spec.house.split('.')[1]}"


def screen_part(spec: GameSpec, part: str) -> ModuleType | None:
    """The module ``part`` of a registry entry's screen package (``kiosk.games.<package>.<part>``),
    found by name so that a shared screen names no game; None when the game's screens are not
    built into this arcade or have no such part."""
    name = f"{screen_package(spec)}.{part}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return None
        raise


def screen_module(spec: GameSpec) -> str:
    """The screen module of a registry entry: ``kiosk.games.<package>.scene`` for the rules in
    ``arcade.<package>`` (each lists the entries it draws in ``LOBBY_GAMES``)."""
    return f"{screen_package(spec)}.scene"


#: The screen modules, one per rules package of the registry, in the lobby's order.
GAME_MODULES = tuple(dict.fromkeys(screen_module(s) for s in registry.SPECS))


def lobby_games() -> list[LobbyGame]:
    """Every game the lobby offers, in the registry's order (:data:`arcade.registry.SPECS`).

    The screens come from the modules in :data:`GAME_MODULES` (each lists the
    registry entries it draws, ``LOBBY_GAMES``); a registry entry whose screen
    module is not built is left out.
    """
    by_name: dict[str, LobbyGame] = {}
    for name in GAME_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:     # that game is not built yet
                continue
            raise
        for g in getattr(module, "LOBBY_GAMES", []):
            by_name[g.name] = g
    order = {n: i for i, n in enumerate(registry.names())}
    return sorted(by_name.values(), key=lambda g: order.get(g.name, len(order)))


def offered(games: list[LobbyGame], names: list[str]) -> list[LobbyGame]:
    """The games of ``names`` (``[lobby] games``) in that order; every game when empty or
    when none of them has a screen here."""
    if not names:
        return games
    by_name = {g.name: g for g in games}
    chosen = [by_name[n] for n in names if n in by_name]
    return chosen or games


def find_game(game: str, mode: str | None, x_rule: bool = False) -> LobbyGame:
    """The lobby game for ``--game`` (a registry name, or a family with ``--mode``;
    the family's first mode if None; ``x_rule``: its FocusX-rule twin).

    Raises:
        KeyError: unknown game or mode, or no such screen (the message lists the choices).
    """
    try:
        spec = registry.resolve(game, mode, x_rule=x_rule)
    except SettingsError as exc:
        raise KeyError(str(exc)) from None
    for g in lobby_games():
        if g.name == spec.name:
            return g
    raise KeyError(_("the game {name} has no screen in this arcade; expected one of {names}").format(
        name=repr(spec.name), names=[g.name for g in lobby_games()]))
