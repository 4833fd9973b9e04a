"""The way into the service menu: the combination (``[service] combo``, held ``hold_s``
seconds), which may begin only where a guest's press does nothing else (issue 20).  What opens
then (the PIN screen, the menu) is the app's scene switching (``App.open_service``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arcade.core.events import Edge
from kiosk.app.plain_title import PlainTitle
from kiosk.config import Config

if TYPE_CHECKING:
    from kiosk.scene import Scene


class ServiceDoor:
    """The combination that opens the service menu, fed with every person's edge.

    Args:
        cfg: the configuration (``[service] combo`` and ``hold_s``).
    """

    def __init__(self, cfg: Config) -> None:
        from kiosk.service.tools import Combination, parse_combo
        svc = cfg.data.get("service", {})
        self.combination = Combination(parse_combo(svc.get("combo", ["P1.ok", "P2.ok"])),
                                       int(svc.get("hold_s", 3.0) * 1e9))

    def feed(self, edge: Edge, top: Scene | None, attract_on: bool) -> None:
        """A person's ``edge``, on its way to ``top`` (the screen shown); ``attract_on``: the
        attract loop's demo games are playing."""
        self.combination.feed(edge, here=may_begin(top, attract_on))

    def held(self, now_ns: int) -> bool:
        """Whether the combination has been held long enough at ``now_ns`` (the menu opens)."""
        return self.combination.poll(now_ns)


def may_begin(top: Scene | None, attract_on: bool) -> bool:
    """Whether the opening combination may begin on the screen shown now (``top``; issue 20): on
    the title screen and in the attract loop (``attract_on``), where its first press only opens
    the lobby, and in the service menu (the button test's way out).  In a game, the lobby or
    the results the buttons are the guests': their presses there never open the PIN screen,
    which would also have taken the releases of presses the game had already counted."""
    from kiosk.scenes.attract import AttractScene
    from kiosk.scenes.service.menu import ServiceScene
    return attract_on or isinstance(top, (AttractScene, ServiceScene, PlainTitle))
