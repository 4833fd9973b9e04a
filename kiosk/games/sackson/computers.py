"""The computer seats of a FOCUS / Crossfire screen: who thinks for each and at what level.

A computer seat's player thinks in the kiosk's thinking process
(:class:`kiosk.players.thinker.SearchThinker`: ``arcade.bots.sackson.decide`` at the seat's skill, by
nodes, so it plays the same on any machine).  A decision function substituted for
:data:`choose_action` (tests) cannot be sent to that process and runs in a worker thread in
this one instead (:func:`kiosk.players.thinker.thread_player`).
A dead or stuck process is restarted and that move is made by the one-ply player in this
process.
"""

from __future__ import annotations

import random
import time
from typing import Callable, Sequence

from arcade.bots import sackson as bots
from arcade.bots.sackson import choose_action
from arcade.core.api import Action, State
from arcade.core.driver import ComputerPlayer
from arcade.sackson.game import SacksonState
from kiosk.players import thinker as thinker_mod
from kiosk.players.thinker import ThinkingPlayer
from kiosk.scenes.seats import SeatInfo

#: ``choose_action`` is the worker thread's search, which a test may substitute.
__all__ = ["LEVEL_OF_SKILL", "SEARCH_OF_SKILL", "ComputerSeats", "choose_action", "level_for", "use_process"]

#: Lobby skill -> bot level (``expert`` plays the ``hard`` search).
LEVEL_OF_SKILL = {"easy": "easy", "medium": "medium", "hard": "hard", "expert": "hard"}
#: Lobby skill -> the search the thinking process runs (``decide``'s levels: the expert is its own).
SEARCH_OF_SKILL = {"easy": "easy", "medium": "medium", "hard": "hard", "expert": "expert"}


def level_for(skill: str) -> str:
    """The bot level for a lobby skill name (unknown names play ``medium``)."""
    return LEVEL_OF_SKILL.get(skill, "medium")


def use_process() -> bool:
    """True unless ``choose_action`` was replaced (that function can only run in this process)."""
    return choose_action is bots.choose_action


class ComputerSeats:
    """The computer players of a screen's seats, each made the first time the driver asks.

    Args:
        levels: the bot level a seat (the worker thread's search).
        search_levels: the thinking process's level a seat.
        pause_ns: the least time a computer's move takes to show (ns).
        budget_s: the worker thread's thinking time per move (s).
        max_nodes: the search's node limit per move (tests; None: the level's or time only).
        note: where a dead or stuck thinking process is said (``app.message``).
        process: think in the kiosk's thinking process (started now), else in worker threads.
    """

    def __init__(self, levels: list[str], search_levels: list[str], pause_ns: int, budget_s: float,
                 max_nodes: int | None, note: Callable[[str], None], process: bool) -> None:
        self.levels = levels
        self.search_levels = search_levels
        self.pause_ns = pause_ns
        self.budget_s = budget_s
        self._max_nodes = max_nodes
        self.note = note
        self.players: dict[int, ThinkingPlayer] = {}
        self.thinker: thinker_mod.Thinker | None = None   # the thinking process, while it thinks for us
        if process:
            self.thinker = thinker_mod.shared()
            self.thinker.start()          # warm: the process is up before the first computer move

    def for_driver(self, seats: Sequence[SeatInfo]) -> list[ComputerPlayer | None]:
        """One entry per seat: the computer player that thinks for a computer seat, None for a
        person (the scene submits their move)."""
        out: list[ComputerPlayer | None] = []
        for seat, info in enumerate(seats):
            if not info.is_computer:
                out.append(None)
                continue
            if seat not in self.players:
                self.players[seat] = self._make(seat)
            out.append(self.players[seat])
        return out

    def _make(self, seat: int) -> ThinkingPlayer:
        if self.thinker is not None:
            return thinker_mod.SearchThinker("focus", self.search_levels[seat], self.pause_ns, self._max_nodes,
                                             self.note, self.thinker)
        level = self.levels[seat]

        def search(state: State, rng: random.Random) -> Action:
            if not isinstance(state, SacksonState):
                raise TypeError(f"a FOCUS computer player was given a {type(state).__name__}")
            return choose_action(state, level, rng, time.monotonic, self.budget_s, self._max_nodes)

        return thinker_mod.thread_player(search, self.pause_ns, self.note)

    @property
    def max_nodes(self) -> int | None:
        """Node limit of the search per move (tests; None = the level's or time only)."""
        return self._max_nodes

    @max_nodes.setter
    def max_nodes(self, value: int | None) -> None:
        self._max_nodes = value
        for player in self.players.values():
            if isinstance(player, thinker_mod.SearchThinker):
                player.nodes = value

    def close(self) -> None:
        """Cancel every player's thought (the screen goes)."""
        for player in self.players.values():
            player.close()
