"""What the four FocusX mode states share (seed 001; rulings FX-4, FX-7, FX-12; FXA-2).

:class:`FocusXState` is the common base of ``ClassicState``, ``ThinkFocusState``,
``DuelState`` and ``FourFocusState``: the node kinds by phase, the order of the
checks of an action, the deal of the whole deck, the seat checks of a race
result, the once-per-window bookkeeping of false shouts (FXA-2), opening a race
window, the end of a game and the common parts of a snapshot.  Each mode fills
in its own moves, race rules and costs through the ``_``-hooks named below.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from arcade.core.api import CHANCE, RACE, TERMINAL, Action, Game, Outcome, State, player_name
from arcade.core.race import RaceResult, result_problem
from arcade.focusx.cards import full_deck

Take = tuple[str, tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class Deal(Action):
    """Chance: the shuffled deck, top card last (a permutation of the cards dealt)."""

    order: tuple[int, ...]


class FocusXState(State):
    """Base of the FocusX mode states (FX-12).  Not a game of its own.

    Sets ``x_rule`` (FX-3), ``box``, ``active``, ``race_no``, ``race_out``,
    ``result`` and ``last_race``.  A subclass sets in ``__init__``: ``phase``
    ("deal", "race", "over" or a mode's own phases; anything else is a seat's
    turn) and ``stats`` (with a ``"false"`` count), and implements
    ``_check_race``, ``_check_move`` and ``scores`` (and ``_seat_actions``
    unless it overrides ``_actions_for``; ``_form_problem`` and
    ``_deal_problem`` where its checks differ).
    """

    #: phases that are CHANCE nodes (a Deal is due)
    chance_phases: ClassVar[tuple[str, ...]] = ("deal",)

    phase: str
    stats: dict[str, int]

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.x_rule: bool = game.settings["x_rule"]     # FX-3
        self.box: list[int] = []                        # cards out of the game
        self.active = 0
        self.race_no = 0                                # race windows opened so far
        self.race_out: set[int] = set()                 # seats whose false shout this window counted
        self.result: Outcome | None = None
        self.last_race: RaceResult | None = None

    # -- API -----------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase in self.chance_phases:
            return CHANCE
        if self.phase == "race":
            return RACE
        if self.phase == "over":
            return TERMINAL
        return self.active

    def legal_actions(self, player: int | None = None) -> list[Action]:
        p = self.current_player() if player is None else player
        if p != self.current_player() or p in (TERMINAL, CHANCE):
            return []
        return self._actions_for(p)

    def default_action(self) -> Action:
        """The first legal action at a seat node (a buzzer-only station's fallback)."""
        return self.legal_actions()[0]

    def chance_outcome(self, rng: random.Random) -> Action:
        cards = self._cards_to_deal()
        if cards is None:
            return super().chance_outcome(rng)
        rng.shuffle(cards)
        return Deal(tuple(cards))

    def check(self, player: int, action: Action) -> str | None:
        cp = self.current_player()
        if player != cp:
            return f"it is {player_name(cp)}'s turn, not {player_name(player)}'s"
        if isinstance(action, Deal):
            if cp != CHANCE:
                return "no deal is due"
            return self._deal_problem(action.order)
        if isinstance(action, RaceResult):
            if cp != RACE:
                return "no race is open"
            return self._form_problem(action) or self._check_race(action)
        return self._check_move(cp, action)

    def outcome(self) -> Outcome | None:
        return self.result

    # -- hooks ---------------------------------------------------------------
    def _actions_for(self, p: int) -> list[Action]:
        """The legal actions of ``p``, the current player (a seat or RACE)."""
        if p == RACE:
            return [RaceResult(closed=True)]
        return self._seat_actions(p)

    def _seat_actions(self, seat: int) -> list[Action]:
        """The legal actions of ``seat`` at its turn."""
        raise NotImplementedError

    def _cards_to_deal(self) -> list[int] | None:
        """The cards a Deal due now shuffles, sorted; None when no deal is due."""
        return full_deck() if self.phase == "deal" else None

    def _deal_problem(self, order: tuple[int, ...]) -> str | None:
        """Why a due Deal's ``order`` is wrong (default: not the 64 cards), or None."""
        if sorted(order) != full_deck():
            return "the deal is not a shuffle of the 64 cards"
        return None

    def _form_problem(self, r: RaceResult) -> str | None:
        """Why ``r`` is not well formed for this table, or None (:func:`arcade.core.race.result_problem`:
        every mode, not only Classic, refuses a seat given as ``True``, a press stamped before the
        race opened, a malformed press row, a drawn order or press count that cannot be)."""
        return result_problem(r, self.seats)

    def _check_race(self, r: RaceResult) -> str | None:
        """Why the well-formed race result ``r`` breaks this mode's rules, or None (at RACE nodes)."""
        raise NotImplementedError

    def _check_move(self, cp: int, action: Action) -> str | None:
        """Why ``action`` (not a Deal nor a RaceResult) by the current player ``cp`` is illegal, or None."""
        raise NotImplementedError

    # -- shared internals ----------------------------------------------------
    def _open_race(self) -> None:
        """Open a new race window: it gets the next ``race_no``; nobody has shouted yet."""
        self.phase = "race"
        self.race_no += 1
        self.race_out = set()

    def _first_false(self, seat: int) -> bool:
        """FX-7, FXA-2: count ``seat``'s false shout if it is its first in this window.

        True if it was (the caller charges the cost); False for a repeat, which is ignored."""
        if seat in self.race_out:
            return False
        self.race_out.add(seat)
        self.stats["false"] += 1
        return True

    def _false_shouts(self, seats: tuple[int, ...], piles: list[list[int]]) -> None:
        """FX-7, FXA-2: each seat's first false shout in the window boxes the top card of
        its pile in ``piles`` (nothing if that pile is empty)."""
        for s in seats:
            if self._first_false(s) and piles[s]:
                self.box.append(piles[s].pop())

    def _finish(self, winners: tuple[int, ...], reason: str) -> None:
        """End the game: ``winners`` and ``reason``, this position's scores as the points."""
        self.result = Outcome(tuple(winners), reason, tuple(float(s) for s in self.scores()))
        self.phase = "over"

    def scores(self) -> tuple[int, ...]:
        """Each seat's score (the mode says what counts)."""
        raise NotImplementedError

    def _snapshot_end(self) -> dict[str, Any]:
        """The last entries of every mode's snapshot: ``stats`` and ``outcome``."""
        return {
            "stats": dict(self.stats),
            "outcome": None if self.result is None else
            {"winners": list(self.result.winners), "reason": self.result.reason},
        }


def takes_snapshot(takes: list[Take]) -> list[list[Any]]:
    """``(how, seats, cards)`` records as JSON-able lists."""
    return [[h, list(s), list(c)] for h, s, c in takes]
