"""FocusX Classic Mode (seed 001 "Classic Mode"; rulings FX-1..FX-8, FX-12).

Flow of a game::

    CHANCE  Deal(order)          shuffle; deal equally; leftovers to the box
    seat    Place(spot)          the active seat lays its top card (FX-4)
    RACE    RaceResult(...)      a race window: the judge's verdicts; false
                                 shouts cost a card (FX-7); a win takes the
                                 trio (FX-5, FX-6); ``closed`` ends the window
    ...                          when every pile is empty: most cards wins;
    CHANCE  Deal(order)          tied players play sudden death (FX-8)

Every change of the table opens a new race window (``race_no`` counts them):
with a focus showing it is a race; without one every claim is false.  The
window stays open until the driver closes it (by laying the next card).

Arcade decisions where the seed and rulings are silent (docs/rules-focusx.md):
  * FXA-1 several trios of the claimed kind: the winner takes the first in
    spot order (lexicographic spot numbers).
  * FXA-2 one false shout per seat per race window costs a card; further
    presses in the same window are ignored (protects against a hammered or
    chattering button).
  * FXA-3 sudden death uses the box and every card left on the table; if that
    deck cannot give each tied player a card, or it runs out with no outright
    winner, the tied players share the win.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from arcade.core.api import Action, Game, Setting
from arcade.core.race import RaceResult, RaceSpec
from arcade.focusx.base import Deal as Deal  # re-exported: defined once for every mode
from arcade.focusx.base import FocusXState
from arcade.focusx.cards import find_trios, full_deck, kinds_present
from arcade.i18n import N_, _

SPOTS = 4


@dataclass(frozen=True)
class Place(Action):
    """Lay the active seat's top card on ``spot`` (0..3, clockwise)."""

    spot: int


class ClassicGame(Game):
    """FocusX Classic for 2 to 8 seats (FX-12)."""

    name = "focusx-classic"
    title = "FocusX Classic"
    min_seats = 2
    max_seats = 8
    settings_spec: ClassVar[Mapping[str, Setting]] = {
        "x_rule": Setting(False, bool, help="FX-3: the FocusX rule"),
    }
    action_types = (Deal, Place, RaceResult)

    def new_initial_state(self) -> "ClassicState":
        return ClassicState(self)


class ClassicState(FocusXState):
    """A position of FocusX Classic.  See the module docstring."""

    game: ClassicGame
    chance_phases = ("deal", "sudden-deal")

    def __init__(self, game: ClassicGame) -> None:
        super().__init__(game)
        n = game.seats
        self.piles: list[list[int]] = [[] for _ in range(n)]      # face down, top = last
        self.victory: list[list[int]] = [[] for _ in range(n)]    # face up, top = last
        self.spots: list[list[int]] = [[] for _ in range(SPOTS)]  # top = last
        self.prev_spot: int | None = None
        self.phase = "deal"            # deal | turn | race | sudden-deal | over
        self.sudden: tuple[int, ...] = ()
        self.stats = {"races": 0, "debated": 0, "false": 0, "boxed": 0, "missed": 0}

    # -- queries ---------------------------------------------------------------
    def seats_in_play(self) -> tuple[int, ...]:
        return self.sudden or tuple(range(self.seats))

    def top_cards(self) -> list[int | None]:
        """The visible card of each spot (None if empty)."""
        return [s[-1] if s else None for s in self.spots]

    def trios(self) -> list[tuple[tuple[int, int, int], str]]:
        """Foci on the table as ``((spot, spot, spot), kind)`` (FX-2, FX-3)."""
        return find_trios(self.top_cards(), self.x_rule)

    def allowed_spots(self) -> list[int]:
        """The spots the active seat may lay on (FX-4 as reworded), in spot order.

        Empty spots first, but never the previous player's spot unless it is
        the only empty one: an empty spot other than the previous player's if
        there is one; the previous player's spot when it is the one empty spot
        (a take emptied it and every other spot is covered); with no spot
        empty, any spot except the previous player's.
        """
        empty = [i for i in range(SPOTS) if not self.spots[i]]
        others = [i for i in empty if i != self.prev_spot]
        if others:
            return others
        if empty:
            return empty
        return [i for i in range(SPOTS) if i != self.prev_spot]

    def default_action(self) -> Place:
        """The placement a buzzer-only station makes (FX-4)."""
        return Place(self.default_spot())

    def default_spot(self) -> int:
        """FX-4: the first allowed spot clockwise after the previous one."""
        allowed = self.allowed_spots()
        start = -1 if self.prev_spot is None else self.prev_spot
        return min(allowed, key=lambda s: (s - start - 1) % SPOTS)

    def race_spec(self) -> RaceSpec:
        """The open race window (only at RACE nodes)."""
        return RaceSpec(eligible=frozenset(self.seats_in_play()),
                        valid_kinds=kinds_present(self.trios()), x_rule=self.x_rule,
                        label=N_("focus") if self.trios() else N_("no focus"))

    def scores(self) -> tuple[int, ...]:
        return tuple(len(v) for v in self.victory)

    def all_cards(self) -> list[int]:
        """Every card the game holds, wherever it is (for conservation checks)."""
        out = [c for p in self.piles for c in p] + [c for v in self.victory for c in v]
        return out + [c for s in self.spots for c in s] + list(self.box)

    # -- API hooks (see arcade.focusx.base) ----------------------------------
    def _seat_actions(self, seat: int) -> list[Action]:
        return [Place(s) for s in self.allowed_spots()]

    def _cards_to_deal(self) -> list[int] | None:
        if self.phase == "deal":
            return full_deck()
        if self.phase == "sudden-deal":
            return sorted(self.box + [c for s in self.spots for c in s])
        return None

    def _deal_problem(self, order: tuple[int, ...]) -> str | None:
        if not isinstance(order, tuple) or not all(type(c) is int for c in order):
            return "a deal is a list of card numbers"
        if sorted(order) != self._cards_to_deal():
            return "the deal is not a shuffle of the cards to deal"
        return None

    def _check_move(self, cp: int, action: Action) -> str | None:
        if isinstance(action, Place):
            if cp < 0:
                return "no card is to be laid now"
            if not isinstance(action.spot, int) or isinstance(action.spot, bool):
                return f"a spot is a whole number 0..{SPOTS - 1}, got {action.spot!r}"
            if action.spot not in self.allowed_spots():
                return f"spot {action.spot} is not allowed (FX-4); allowed: {self.allowed_spots()}"
            return None
        return "not a Classic action"

    def _check_race(self, r: RaceResult) -> str | None:
        spec = self.race_spec()
        if len(set(r.winners)) != len(r.winners):
            return "a seat is among the winners twice"
        if r.winners:
            if r.kind not in spec.valid_kinds:
                return f"no {r.kind} is on the table"
            if not set(r.winners) <= spec.eligible:
                return f"seats {sorted(set(r.winners) - spec.eligible)} cannot win this race"
            if set(r.winners) & (self.race_out | set(r.false_shouts)):
                return "a seat that shouted falsely cannot win this race (FX-7)"
        if r.last or r.penalties:
            return "Classic has no last-to-press races or penalty presses"
        return None

    def _apply(self, player: int, action: Action) -> None:
        if isinstance(action, Deal):
            self._deal(action.order)
        elif isinstance(action, Place):
            card = self.piles[self.active].pop()
            self.spots[action.spot].append(card)
            self.prev_spot = action.spot
            self._open_window()
        elif isinstance(action, RaceResult):
            self._race(action)

    # -- internals -----------------------------------------------------------
    def _deal(self, order: tuple[int, ...]) -> None:
        seats = self.seats_in_play()
        if self.phase == "sudden-deal":
            self.box.clear()
            for spot in self.spots:
                spot.clear()
        deck = list(order)
        each = len(deck) // len(seats)
        for seat in range(self.seats):
            self.piles[seat] = []
        for i, seat in enumerate(seats):
            self.piles[seat] = deck[i * each:(i + 1) * each]
        self.box.extend(deck[each * len(seats):])   # leftovers to the box (seed, Setup)
        self.active = seats[0]
        self.prev_spot = None
        self.phase = "turn"

    def _open_window(self) -> None:
        self._open_race()

    def _race(self, r: RaceResult) -> None:
        self.last_race = r
        self._false_shouts(r.false_shouts, self.victory)   # FX-7, FXA-2
        if r.winners:
            self._award(r.winners, r.kind)
            return
        if r.closed:
            if self.trios():
                self.stats["missed"] += 1
            self._next_turn()

    def _award(self, winners: tuple[int, ...], kind: str) -> None:
        trio = next(t for t, k in self.trios() if k == kind)      # FXA-1
        cards = [self.spots[i].pop() for i in trio]
        self.stats["races"] += 1
        if len(winners) == 1:
            self.victory[winners[0]].extend(cards)
            if self.sudden:
                self._finish(winners, _("won the sudden-death focus (FX-8)"))
                return
        elif len(winners) <= 3:                                     # FX-6
            self.stats["debated"] += 1
            for seat, c in zip(winners, cards):
                self.victory[seat].append(c)
            if len(winners) == 2:
                self.spots[trio[2]].append(cards[2])
        else:
            self.stats["debated"] += 1
            self.stats["boxed"] += 1
            self.box.extend(cards)
        self._open_window()                                         # FX-5

    def _next_turn(self) -> None:
        seats = self.seats_in_play()
        if all(not self.piles[s] for s in seats):
            self._end_of_cards()
            return
        i = seats.index(self.active) if self.active in seats else -1
        for step in range(1, len(seats) + 1):
            nxt = seats[(i + step) % len(seats)]
            if self.piles[nxt]:
                self.active = nxt
                break
        self.phase = "turn"

    def _end_of_cards(self) -> None:
        if self.sudden:
            self._finish(self.sudden, _("sudden death ran out of cards: shared win (FXA-3)"))
            return
        scores = self.scores()
        best = max(scores)
        tied = tuple(s for s in range(self.seats) if scores[s] == best)
        if len(tied) == 1:
            self._finish(tied, _("most cards ({n})").format(n=best))
            return
        remaining = len(self.box) + sum(len(s) for s in self.spots)
        if remaining < len(tied):
            self._finish(tied, _("tied, and too few cards for sudden death: shared win (FXA-3)"))
            return
        self.sudden = tied
        self.phase = "sudden-deal"

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.phase, "active": self.active, "prev_spot": self.prev_spot,
            "piles": [list(p) for p in self.piles], "victory": [list(v) for v in self.victory],
            "spots": [list(s) for s in self.spots], "box": list(self.box),
            "race_no": self.race_no, "race_out": sorted(self.race_out),
            "sudden": list(self.sudden), **self._snapshot_end(),
        }
