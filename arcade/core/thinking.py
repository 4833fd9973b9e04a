"""What a game offers the kiosk's thinking process (``kiosk/players/thinker.py``).

The thinking process is a separate Python process that works out computer moves so the
screen never waits for a search.  It knows no game: it asks the registry
(:func:`arcade.registry.position_search`, :func:`arcade.registry.thinking_player`), which
finds what is asked in the game's house (``arcade/<game>/house.py``):

* ``SEARCH`` - a :class:`PositionSearch`: a game whose searching player is sent a position
  as data (FOCUS and Crossfire: the ``"focus"`` requests, named by the family);
* ``THINKING_PLAYERS`` - ``{name: ThinkingPlayerFn}``: computer players that play any
  registry entry's game followed action by action (the ``"game"`` requests).  A name starts
  with its family and a dash (``"focusx-place"``, ``"coop-partner"``), which is how the
  registry finds its house.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Protocol, Sequence

from arcade.core.api import Action, State

#: ``(state, seat, level, rng) -> action``: a computer player the thinking process can be
#: asked for by name; the kiosk's own process calls the same function, so the same level
#: and seed make the same move in both places.
ThinkingPlayerFn = Callable[[State, int, str, random.Random], Action]


class PositionSearch(Protocol):
    """A game's position as the thinking process's data, and its search over it.

    A move travels as a list of integers (the game's own compact form); the protocol data
    is JSON-able.
    """

    def encode(self, state: State) -> dict[str, Any]:
        """``state`` as JSON-able data (cheap: it runs on the frame loop's thread)."""
        ...

    def decode(self, data: Mapping[str, Any]) -> State:
        """The state :meth:`encode` wrote.

        Raises:
            ValueError: data that does not make a position of this game (the reason said).
        """
        ...

    def search(self, state: State, level: str, rng: random.Random, clock: Callable[[], float],
               nodes: int | None, cap_s: float | None, stats: dict[str, int]) -> list[int]:
        """The searching player's move at ``level`` (``nodes``: the node budget, None the
        level's; ``cap_s``: the safety cap on ``clock``, None sized from the budget;
        ``stats["nodes"]``: the positions searched)."""
        ...

    def quick(self, state: State, rng: random.Random) -> list[int]:
        """A cheap player's move, made when the thinking process cannot answer."""
        ...

    def action(self, state: State, move: Sequence[int]) -> Action:
        """The action of a move's data in ``state``.

        Raises:
            ValueError: the move is not legal in ``state``.
        """
        ...

    def cap_s(self, level: str, nodes: int | None) -> float:
        """The search's safety cap (s of the thinking process's CPU time) at ``level`` and ``nodes``."""
        ...
