"""Who sits where: the lobby's choice for each seat, used by every game scene; the games the
lobby offers (each game's screen package, found by name from the registry)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Callable

from arcade import registry
from arcade.core.errors import SettingsError
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
    """A game (or mode) the lobby and ``focus-arcade demo`` offer.

    Attributes:
        label: what the lobby shows ("FocusX Classic").
        family, mode: the command line's ``--game`` and ``--mode`` (or variant).
        min_seats, max_seats: seat range (FX-12 and the like).
        start: ``(app, seats) -> GameScene`` for a game with these seats.
        demo_seats: how many seats ``focus-arcade demo`` fills by default.
        name: the registry name (``arcade.registry``): the one the command
            line, the config and records use.
    """

    label: str
    family: str
    mode: str
    min_seats: int
    max_seats: int
    start: "Callable[[Host, list[SeatInfo]], GameScene[State]]"
    demo_seats: int = 4
    name: str = ""


def lobby_game(name: str, start: "Callable[[Host, list[SeatInfo]], GameScene[State]]") -> LobbyGame:
    """The lobby's entry for the registry entry ``name``: its label, names and seats
    come from :mod:`arcade.registry`; the scene module gives only ``start``.

    Raises:
        SettingsError: ``name`` is not in the registry.
    """
    spec = registry.get(name)
    demo = spec.demo_seats if spec.demo_seats is not None else spec.default_seats
    return LobbyGame(spec.label, spec.family, spec.mode, spec.min_seats, spec.max_seats, start, demo, spec.name)


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
            by_name[g.name or f"{g.family}-{g.mode}"] = g
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
    raise KeyError(f"the game {spec.name!r} has no screen in this arcade; expected one of "
                   f"{[g.name for g in lobby_games()]}")
