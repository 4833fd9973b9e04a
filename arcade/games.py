"""The registry of every game the arcade plays: one explicit list.

``make(name, seats, settings)`` builds a :class:`~arcade.core.api.Game` by its
record name (``"focusx-classic"``, ``"focus"``...).  Modules are imported on
first use so a missing game never stops the others from loading.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Mapping

from arcade.core.api import Game
from arcade.core.errors import SettingsError


@dataclass(frozen=True)
class Entry:
    """One registered game: its record name, family, mode label and class path."""

    name: str
    family: str
    mode: str
    path: str       # "module:Class"

    def load(self) -> type[Game]:
        module, cls = self.path.split(":")
        return getattr(importlib.import_module(module), cls)  # type: ignore[no-any-return]


REGISTRY: tuple[Entry, ...] = (
    Entry("focusx-classic", "focusx", "classic", "arcade.focusx.classic:ClassicGame"),
    Entry("focusx-thinkfocus", "focusx", "thinkfocus", "arcade.focusx.thinkfocus:ThinkFocusGame"),
    Entry("focusx-duel", "focusx", "duel", "arcade.focusx.duel:DuelGame"),
    Entry("focusx-4focus", "focusx", "4focus", "arcade.focusx.fourfocus:FourFocusGame"),
    Entry("focus", "focus", "any", "arcade.sackson.game:SacksonGame"),
    Entry("sherlook", "sherlook", "classic", "arcade.sherlook.game:SherlookGame"),
    Entry("coop", "coop", "any", "arcade.coop.game:CoopGame"),
)


def entry(name: str) -> Entry:
    """The registry entry for a record name.

    Raises:
        SettingsError: unknown game (the message lists the known ones).
    """
    for e in REGISTRY:
        if e.name == name:
            return e
    raise SettingsError("game", name, f"one of {[e.name for e in REGISTRY]}")


def find(family: str, mode: str) -> Entry:
    """The entry for a family and mode as the command line names them."""
    for e in REGISTRY:
        if e.family == family and e.mode == mode:
            return e
    modes = [e.mode for e in REGISTRY if e.family == family]
    if not modes:
        raise SettingsError("game", family, f"one of {sorted({e.family for e in REGISTRY})}")
    raise SettingsError("mode", mode, f"one of {modes} for {family}")


def make(name: str, seats: int, settings: Mapping[str, Any] | None = None) -> Game:
    """Build the game registered as ``name``.

    Raises:
        SettingsError: unknown game, bad seat count or bad settings.
    """
    return entry(name).load()(seats, settings)
