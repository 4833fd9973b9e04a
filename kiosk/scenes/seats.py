"""Who sits where: the lobby's choice for each seat, used by every game scene."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from kiosk.app import App
    from kiosk.scene import Scene


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
        start: ``(app, seats) -> Scene`` for a game with these seats.
        demo_seats: how many seats ``focus-arcade demo`` fills by default.
        name: the registry name (``arcade.registry``): the one the command
            line, the config and records use.
    """

    label: str
    family: str
    mode: str
    min_seats: int
    max_seats: int
    start: "Callable[[App, list[SeatInfo]], Scene]"
    demo_seats: int = 4
    name: str = ""


def lobby_game(name: str, start: "Callable[[App, list[SeatInfo]], Scene]") -> LobbyGame:
    """The lobby's entry for the registry entry ``name``: its label, names and seats
    come from :mod:`arcade.registry`; the scene module gives only ``start``.

    Raises:
        SettingsError: ``name`` is not in the registry.
    """
    from arcade import registry
    spec = registry.get(name)
    demo = spec.demo_seats if spec.demo_seats is not None else spec.default_seats
    return LobbyGame(spec.label, spec.family, spec.mode, spec.min_seats, spec.max_seats, start, demo, spec.name)
