"""FocusX ThinkFocus Mode (seed 001 "ThinkFocus Mode"; rulings FX-1..FX-3, FX-7, FX-9, FX-12).

Flow of a game::

    CHANCE  Deal(order)            shuffle; a column of 4 cards without a focus
                                   (FX-9, FXA-10); hands of 3
    RACE    turn window            the active seat may claim a focus left on
                                   the table (forgotten focus, FX-9); it may
                                   choose its card meanwhile
    seat    Play(card, row)        lay a card at the end of a row: it must
                                   share an attribute with the card to its left
            Discard(card)          no card can be laid: box one, draw (FX-9)
    RACE    claim window           ``claim_window_s``: the active seat's press
                                   claims a column focus, the previous seat's
                                   press a row focus; a row focus goes first
    RACE    shift race             a focus formed by cards shifting left is an
                                   open race for everyone (first press wins)
    ...                            draw; the next seat with cards plays; the
                                   game ends when deck and hands are empty

Rows are the four lines that start at the column cards; column ``k`` is the
``k``-th card of every row (FX-9).  A card is taken out of its row and the
cards after it shift left.  Every open window is a race (``race_no`` counts
them) whose ``RaceSpec`` says who may claim what; windows close by
themselves after ``claim_window_s``.

Arcade decisions where the seed and rulings are silent are FXA-10..FXA-19 in
docs/rules-focusx-modes.md; the code cites them where it applies them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from arcade.core.api import Action, Game, Setting, player_name
from arcade.core.race import RaceResult, RaceSpec
from arcade.focusx.base import Deal, FocusXState, Take, takes_snapshot
from arcade.focusx.cards import FANTASTIC, find_trios, kinds_present, shares_attribute
from arcade.i18n import N_, _

ROWS = 4
AERIAL = 3
HAND = 3

Trio = tuple[int, int, int]


@dataclass(frozen=True)
class Play(Action):
    """Lay ``card`` (a card number in the active seat's hand) at the end of ``row`` (0..3)."""

    card: int
    row: int


@dataclass(frozen=True)
class Discard(Action):
    """No card of the hand can be laid: show the hand, box ``card``, draw (FX-9)."""

    card: int


class ThinkFocusGame(Game):
    """FocusX ThinkFocus for 4 to 6 seats (FX-12).

    Settings: ``x_rule`` (FX-3, default off) and ``claim_window_s`` (FX-9,
    seconds a claim window stays open, default 4, 0.5 to 30).
    """

    name = "focusx-thinkfocus"
    title = "FocusX ThinkFocus"
    min_seats = 4
    max_seats = 6
    settings_spec: ClassVar[Mapping[str, Setting]] = {
        "x_rule": Setting(False, bool, help="FX-3: the FocusX rule"),
        "claim_window_s": Setting(4.0, float, 0.5, 30.0, help="FX-9: claim window, seconds"),
    }
    action_types = (Deal, Play, Discard, RaceResult)

    def new_initial_state(self) -> "ThinkFocusState":
        return ThinkFocusState(self)


def _claim_kind(r: RaceResult, seat: int) -> str:
    """The kind ``seat`` claimed in a claim window (its "claim" press), else the result's kind."""
    for s, kind, _off, status in r.presses:
        if s == seat and status == "claim":
            return kind
    return r.kind


class ThinkFocusState(FocusXState):
    """A position of FocusX ThinkFocus.  See the module docstring.

    Attributes (read by the screens, the pictures and the bots):
        deck: face-down cards, top = last.
        hands: each seat's hand (card numbers).
        rows: the four rows, left to right (index 0 = the column card).
        victory: each seat's victory pile; box: cards out of the game.
        active: the seat whose turn it is; previous: the seat that played
            the turn before (the seat before the active one at the start).
        window: the open race's kind: "turn", "claim" or "shift".
        placed: the card laid this turn (None before the placement).
        takes: what happened to foci, oldest first, as
            ``(how, seats, cards)``; ``how`` is "row", "column", "shift",
            "forgotten", "debated", "boxed", "overruled" or "discard".
    """

    game: ThinkFocusGame

    def __init__(self, game: ThinkFocusGame) -> None:
        super().__init__(game)
        n = game.seats
        self.window_ms = int(round(game.settings["claim_window_s"] * 1000))
        self.deck: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.rows: list[list[int]] = [[] for _ in range(ROWS)]
        self.victory: list[list[int]] = [[] for _ in range(n)]
        self.previous = n - 1
        self.phase = "deal"           # deal | race | turn | over
        self.window = ""              # turn | claim | shift (while phase == "race")
        self.placed: int | None = None
        self.shift_trios: list[tuple[Trio, str]] = []
        self.after_shift = "end"      # "turn": back to the placement; "end": end the turn
        self.takes: list[Take] = []
        self.stats = {"races": 0, "debated": 0, "false": 0, "missed": 0, "boxed": 0,
                      "forgotten": 0, "discards": 0}

    # -- queries ---------------------------------------------------------------
    def column(self, k: int) -> list[int | None]:
        """Column ``k``: the ``k``-th card of every row (None where a row is shorter)."""
        return [row[k] if len(row) > k else None for row in self.rows]

    def width(self) -> int:
        """The length of the longest row."""
        return max(len(r) for r in self.rows)

    def position(self, card: int) -> tuple[int, int] | None:
        """``(row, index)`` of a card on the table, or None."""
        for r, row in enumerate(self.rows):
            if card in row:
                return r, row.index(card)
        return None

    def row_trios(self, r: int) -> list[tuple[Trio, str]]:
        """Foci among the cards of row ``r`` as ``(cards, kind)`` (FX-2, FX-3, FX-9)."""
        row = self.rows[r]
        return [(tuple(row[i] for i in t), k) for t, k in find_trios(row, self.x_rule)]  # type: ignore[misc]

    def column_trios(self, k: int) -> list[tuple[Trio, str]]:
        """Foci among the cards of column ``k`` as ``(cards, kind)``."""
        col = self.column(k)
        return [(tuple(col[i] for i in t), kd) for t, kd in find_trios(col, self.x_rule)]  # type: ignore[misc]

    def table_trios(self) -> list[tuple[Trio, str]]:
        """Every focus on the table in reading order: rows 0..3, then columns (FXA-13)."""
        out: list[tuple[Trio, str]] = []
        for r in range(ROWS):
            out += self.row_trios(r)
        for k in range(self.width()):
            out += self.column_trios(k)
        return out

    def placement_trios(self) -> tuple[list[tuple[Trio, str]], list[tuple[Trio, str]]]:
        """The foci the card laid this turn formed: ``(row foci, column foci)`` (FX-9, FXA-11)."""
        if self.placed is None:
            return [], []
        pos = self.position(self.placed)
        if pos is None:
            return [], []
        r, k = pos
        rows = [t for t in self.row_trios(r) if self.placed in t[0]]
        cols = [t for t in self.column_trios(k) if self.placed in t[0]]
        return rows, cols

    def can_lay(self, card: int, row: int) -> bool:
        """FX-9: ``card`` shares an attribute with the last card of ``row`` (any card on an empty row, FXA-12)."""
        cards = self.rows[row]
        return not cards or shares_attribute(card, cards[-1])

    def playable(self, seat: int) -> list[Play]:
        """Every ``Play`` the seat's hand allows, in hand order then row order."""
        return [Play(c, r) for c in self.hands[seat] for r in range(ROWS) if self.can_lay(c, r)]

    def turn_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do at its turn with this table and hand, whatever the phase:
        its plays, or its discards if no card can be laid (FX-9).  Lets a player
        choose during the turn-start window."""
        plays: list[Action] = list(self.playable(seat))
        return plays if plays else [Discard(c) for c in self.hands[seat]]

    def race_spec(self) -> RaceSpec:
        """The open race (only at RACE nodes).

        * "turn": only the active seat may claim, any focus on the table (FX-9 forgotten focus);
        * "claim": a ``"window"`` race; the active seat's press claims a column focus formed by
          the card laid, the previous seat's press a row focus (FX-9, FXA-11, FXA-19);
        * "shift": every seat, the foci formed by cards shifting left (FX-9).
        """
        if self.window == "claim":
            rows, cols = self.placement_trios()
            rk, ck = kinds_present(rows), kinds_present(cols)
            if self.previous == self.active:                      # FXA-16
                seat_kinds: tuple[tuple[int, frozenset[str]], ...] = ((self.active, rk | ck),)
            else:
                seat_kinds = ((self.previous, rk), (self.active, ck))
            return RaceSpec(eligible=frozenset({self.active, self.previous}), valid_kinds=rk | ck,
                            mode="window", x_rule=self.x_rule, window_ms=self.window_ms,
                            label=N_("row / column claim"), seat_kinds=seat_kinds)
        if self.window == "shift":
            return RaceSpec(eligible=frozenset(range(self.seats)),
                            valid_kinds=kinds_present(self.shift_trios), x_rule=self.x_rule,
                            window_ms=self.window_ms, label=N_("shift focus"))
        return RaceSpec(eligible=frozenset({self.active}), valid_kinds=kinds_present(self.table_trios()),
                        x_rule=self.x_rule, window_ms=self.window_ms, label=N_("turn start"))   # FXA-17

    def scores(self) -> tuple[int, ...]:
        """Cards in each seat's victory pile."""
        return tuple(len(v) for v in self.victory)

    def all_cards(self) -> list[int]:
        """Every card the game holds, wherever it is (for conservation checks)."""
        out = list(self.deck) + [c for h in self.hands for c in h] + [c for r in self.rows for c in r]
        return out + [c for v in self.victory for c in v] + list(self.box)

    # -- API hooks (see arcade.focusx.base) ----------------------------------
    def _seat_actions(self, seat: int) -> list[Action]:
        return self.turn_actions(seat)

    def _check_move(self, cp: int, action: Action) -> str | None:
        if isinstance(action, (Play, Discard)):
            if cp < 0:
                return "no card is to be laid now"
            if action.card not in self.hands[cp]:
                return f"card {action.card!r} is not in {player_name(cp)}'s hand {self.hands[cp]}"
            if isinstance(action, Play):
                if not isinstance(action.row, int) or not 0 <= action.row < ROWS:
                    return f"row {action.row!r}: expected 0 to {ROWS - 1}"
                if not self.can_lay(action.card, action.row):
                    return f"card {action.card} shares no attribute with the last card of row {action.row} (FX-9)"
                return None
            if self.playable(cp):
                return "a card of the hand can be laid, so none may be boxed (FX-9)"
            return None
        return "not a ThinkFocus action"

    def _check_race(self, r: RaceResult) -> str | None:
        spec = self.race_spec()
        if r.last:
            return "ThinkFocus has no last-to-press races"
        if r.penalties:
            return "ThinkFocus has no penalty presses"
        if len(set(r.winners)) != len(r.winners):
            return "a seat is among the winners twice"
        if not set(r.winners) <= spec.eligible:
            return f"seats {sorted(set(r.winners) - spec.eligible)} cannot claim in this window"
        if set(r.winners) & (self.race_out | set(r.false_shouts)):
            return "a seat that shouted falsely cannot win this race (FX-7)"
        for w in r.winners:
            kind = _claim_kind(r, w) if spec.mode == "window" else r.kind
            if kind not in spec.kinds_for(w):
                return f"no {kind} that {player_name(w)} may claim is on the table"
        return None

    def _apply(self, player: int, action: Action) -> None:
        if isinstance(action, Deal):
            self._deal(action.order)
        elif isinstance(action, Play):
            self.hands[self.active].remove(action.card)
            self.rows[action.row].append(action.card)
            self.placed = action.card
            self._open("claim")
        elif isinstance(action, Discard):
            self.hands[self.active].remove(action.card)
            self.box.append(action.card)
            self.stats["discards"] += 1
            self.takes.append(("discard", (self.active,), (action.card,)))
            self._end_turn()
        elif isinstance(action, RaceResult):
            self._race(action)

    # -- internals -----------------------------------------------------------
    def _deal(self, order: tuple[int, ...]) -> None:
        deck = list(order)
        column = [deck.pop() for _ in range(ROWS)]
        # FX-9: "if a Focus comes up, replace one of the cards until there isn't".
        # FXA-10: the last card of the first focus goes under the deck and the
        # top card takes its place (a FocusX counts when the rule is on).
        for _tries in range(4 * len(deck)):
            trios = find_trios(column, self.x_rule)
            if not trios:
                break
            i = trios[0][0][2]
            deck.insert(0, column[i])
            column[i] = deck.pop()
        self.rows = [[c] for c in column]
        for _card in range(HAND):
            for s in range(self.seats):
                self.hands[s].append(deck.pop())
        self.deck = deck
        self.active = 0
        self.previous = self.seats - 1                              # FXA-15
        self._start_turn()

    def _open(self, window: str) -> None:
        self.window = window
        self._open_race()

    def _start_turn(self) -> None:
        self.placed = None
        self._open("turn")

    def _race(self, r: RaceResult) -> None:
        self.last_race = r
        self._false_shouts(r.false_shouts, self.victory)            # FX-7, FXA-2
        if not r.decisive:
            return
        if self.window == "turn":
            if r.winners:
                trio = next(t for t, k in self.table_trios() if k == r.kind)      # FXA-13
                self.stats["forgotten"] += 1
                self._take("forgotten", (r.winners[0],), trio, after="turn")
            else:
                self.phase = "turn"
        elif self.window == "claim":
            self._resolve_claims(r)
        else:
            self._resolve_shift(r)

    def _resolve_claims(self, r: RaceResult) -> None:
        rows, cols = self.placement_trios()
        kinds = {w: _claim_kind(r, w) for w in r.winners}
        row_claimer = self.previous if self.previous in kinds else None
        if row_claimer is not None:
            trio = next((t for t, k in rows if k == kinds[row_claimer]), None)
            if trio is not None:                                    # FX-9: row first
                if self.active in kinds and self.active != row_claimer:
                    self.takes.append(("overruled", (self.active,), ()))
                self._take("row", (row_claimer,), trio, after="end")
                return
        if self.active in kinds:
            trio = next((t for t, k in cols if k == kinds[self.active]), None)
            if trio is not None:
                self._take("column", (self.active,), trio, after="end")
                return
        if rows or cols:
            self.stats["missed"] += 1
        self._end_turn()

    def _resolve_shift(self, r: RaceResult) -> None:
        if not r.winners:
            self.stats["missed"] += 1
            self._proceed()
            return
        trio = next(t for t, k in self.shift_trios if k == r.kind)              # FXA-13
        winners = r.winners
        if len(winners) == 1:
            self._take("shift", winners, trio, after=self.after_shift)
            return
        # FX-6 applied to ThinkFocus's open races (FXA-14): 2-3 tied players each
        # take one card in press order and table order; with two the last card
        # stays; four or more: the trio goes to the box.
        self.stats["debated"] += 1
        order = sorted(trio, key=lambda c: self.position(c) or (0, 0))
        if len(winners) <= 3:
            gone = order[:len(winners)]
            for seat, c in zip(winners, gone):
                self.victory[seat].append(c)
            self.takes.append(("debated", winners, tuple(gone)))
        else:
            gone = order
            self.box.extend(gone)
            self.stats["boxed"] += 1
            self.takes.append(("boxed", winners, tuple(gone)))
        self.stats["races"] += 1
        self._remove(gone, after=self.after_shift)

    def _take(self, how: str, seats: tuple[int, ...], trio: Trio, after: str) -> None:
        self.stats["races"] += 1
        self.victory[seats[0]].extend(trio)
        self.takes.append((how, seats, tuple(trio)))
        self._remove(list(trio), after)

    def _column_sets(self) -> set[frozenset[int]]:
        return {frozenset(t) for k in range(self.width()) for t, _ in self.column_trios(k)}

    def _remove(self, cards: list[int], after: str) -> None:
        """Take cards off the table; the cards after them shift left (FX-9).

        The shift foci to race are the column foci this removal formed, plus
        those an earlier shift formed that are still on the table and were not
        raced yet: a shift can form several, and each goes to the first to
        shout, one race after another (FX-9, FXA-13: column order)."""
        before = self._column_sets()
        waiting = {frozenset(t) for t, _k in self.shift_trios}
        for c in cards:
            for row in self.rows:
                if c in row:
                    row.remove(c)
        self.shift_trios = [(t, k) for kk in range(self.width()) for t, k in self.column_trios(kk)
                            if frozenset(t) not in before or frozenset(t) in waiting]
        self.after_shift = after
        if self.shift_trios:
            self._open("shift")                                     # FX-9 shift focus
        else:
            self._proceed()

    def _proceed(self) -> None:
        self.shift_trios = []
        if self.after_shift == "turn":                              # FXA-17
            self.phase = "turn"
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        seat = self.active
        if self.deck:
            self.hands[seat].append(self.deck.pop())                # FX-9: draw
        n = self.seats
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            if self.hands[nxt]:
                self.previous = seat
                self.active = nxt
                self._start_turn()
                return
        self._end_of_game()

    def _end_of_game(self) -> None:
        scores = self.scores()
        best = max(scores)
        tied = [s for s in range(self.seats) if scores[s] == best]
        reason = _("most cards ({n})").format(n=best)
        # FX-9 end ties: the most fantastic cards, then the most aerial ones
        for cat, then in ((FANTASTIC, N_("most cards ({n}), then most fantastic cards ({top})")),
                          (AERIAL, N_("most cards ({n}), then most aerial cards ({top})"))):
            if len(tied) == 1:
                break
            counts = {s: sum(1 for c in self.victory[s] if c // 16 == cat) for s in tied}
            top = max(counts.values())
            tied = [s for s in tied if counts[s] == top]
            reason = _(then).format(n=best, top=top)
        if len(tied) > 1:
            reason = _("tied on cards ({n}), fantastic and aerial cards: shared win (FX-9)").format(n=best)
        self._finish(tuple(tied), reason)

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.phase, "window": self.window, "active": self.active, "previous": self.previous,
            "deck": list(self.deck), "hands": [list(h) for h in self.hands],
            "rows": [list(r) for r in self.rows], "victory": [list(v) for v in self.victory],
            "box": list(self.box), "placed": self.placed, "race_no": self.race_no,
            "race_out": sorted(self.race_out), "after_shift": self.after_shift,
            "shift_trios": [[list(t), k] for t, k in self.shift_trios],
            "takes": takes_snapshot(self.takes), **self._snapshot_end(),
        }
