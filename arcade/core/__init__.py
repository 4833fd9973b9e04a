"""Game API, errors, the shout judge, debounce and replayable randomness."""

from arcade.core.api import (
    CHANCE,
    RACE,
    TERMINAL,
    Action,
    Game,
    Outcome,
    State,
)
from arcade.core.errors import (
    ArcadeError,
    IllegalActionError,
    RecordError,
    SettingsError,
)
from arcade.core.events import CONTROLS, Edge

__all__ = [
    "ArcadeError", "IllegalActionError", "RecordError", "SettingsError",
    "Edge", "CONTROLS", "CHANCE", "RACE", "TERMINAL", "Action", "Game",
    "Outcome", "State",
]
