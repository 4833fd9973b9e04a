"""Who sits where: the lobby's choice for each seat, used by every game scene."""

from __future__ import annotations

from dataclasses import dataclass


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
