"""The title screen of last resort, shown when the real one cannot be built."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from arcade.core.events import Edge
from arcade.i18n import _
from kiosk import render
from kiosk.scene import Scene

if TYPE_CHECKING:
    from kiosk.controls.input import Command


class PlainTitle(Scene):
    """The title screen of last resort, when the real one cannot be built: the
    messages (drawn by the app) say why; OK (Enter) or a buzzer opens the lobby."""

    def _lobby(self) -> None:
        from kiosk.scenes.lobby import LobbyScene
        self.app.replace(LobbyScene(self.app))

    def on_command(self, command: Command) -> None:
        if command.name == "ok":
            self._lobby()

    def on_edge(self, edge: Edge) -> None:
        if edge.pressed and edge.control in ("buzzer", "ok"):
            self._lobby()

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(render.BG)
        W, H = surface.get_size()
        render.text(surface, "FOCUS ARCADE", (W // 2, H // 3), int(H * 0.12), render.GOLD, "center", bold=True)
        render.text(surface, _("Press Enter or a buzzer to play"), (W // 2, H // 2 + 20), int(H * 0.05),
                    render.TEXT, "center")
