"""FocusX 4Focus Mode (seed 001 "4Focus Mode"; rulings FX-1..FX-3, FX-7, FX-11, FX-12).

Flow of a game::

    CHANCE  Deal(order)          shuffle; one card face down in the centre;
                                 hands of 3
    RACE    turn window          the active seat may claim an unnoticed
                                 4Focus and win; another seat's press while
                                 one exists opens a hint window (FX-11)
    seat    Place(card, x, y)    lay a card orthogonally next to a laid card,
                                 sharing an attribute with every orthogonal
                                 neighbour, within 4 of the centre (9x9)
            Discard(card)        no card can be laid, deck not empty: box
                                 one, draw (FXA-32)
            Pass()               no card can be laid, deck empty (FXA-32)
    RACE    placed window        every seat but the placer may press for
                                 ``claim_window_s``: with a new 4Focus the
                                 first press wins the game (FX-11)
    RACE    hint window          after an out-of-turn press while an
                                 unnoticed 4Focus exists: if the active seat
                                 presses in it, it wins (FX-11)
    ...                          draw back up to 3 while the deck lasts; the
                                 next seat plays; nobody can lay a card and
                                 the deck is empty: a drawn game

Cells are ``(x, y)`` with the centre at ``(0, 0)`` and ``-4 <= x, y <= 4``;
``y`` grows downwards as the screen shows it.  The face-down centre card
matches anything for placement and is never part of a 4Focus.  A 4Focus is
four connected cards (orthogonal adjacency) sharing one value of an
attribute; with the FocusX rule, one fantastic card with three cards of one
other category that share no value is a 4FocusX, claimed "focus-ex" (FXA-30).
Cards never leave the board, so a 4Focus once formed stays until claimed.

Arcade decisions: FXA-30..FXA-37 in docs/rules-focusx-modes.md.
Tied first claims share the win (FXA-34).  A seat whose claim was false is
locked out of claims until it has laid (or boxed, or passed) its next card
(FXA-37), so pressing at every window (mashing) is not a winning strategy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Iterator, Mapping

from arcade.core.api import Action, Game, Outcome, Setting, player_name
from arcade.core.race import FOCUS, FOCUS_EX, RaceResult, RaceSpec
from arcade.focusx.base import Deal, FocusXState
from arcade.focusx.cards import FANTASTIC, shared_attributes, shares_attribute
from arcade.i18n import N_, _

REACH = 4            # FX-11: no card more than 4 from the centre (a 9x9 grid)
HAND = 3
CENTRE = (0, 0)
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))

Cell = tuple[int, int]
Four = tuple[Cell, Cell, Cell, Cell]


@dataclass(frozen=True)
class Place(Action):
    """Lay ``card`` from the active seat's hand on cell ``(x, y)`` (centre ``(0, 0)``)."""

    card: int
    x: int
    y: int


@dataclass(frozen=True)
class Discard(Action):
    """No card of the hand can be laid and the deck is not empty: box ``card``, draw (FXA-32)."""

    card: int


@dataclass(frozen=True)
class Pass(Action):
    """No card of the hand can be laid and the deck is empty: the turn passes (FXA-32)."""


def four_kind(cards: list[int], x_rule: bool) -> str | None:
    """The claim a group of four connected cards makes: "focus", "focus-ex" (rule on) or None.

    FX-11: four cards sharing one value of an attribute.  FXA-30: with the
    FocusX rule, exactly one fantastic card plus three cards of one other
    category, sharing no value, is a 4FocusX.
    """
    if shared_attributes(cards):
        return FOCUS
    if x_rule:
        cats = sorted(c // 16 for c in cards)
        if cats.count(FANTASTIC) == 1 and cats[1] == cats[2] == cats[3]:
            return FOCUS_EX
    return None


class FourFocusGame(Game):
    """FocusX 4Focus for 2 to 4 seats (FX-12).

    Settings: ``x_rule`` (FX-3) and ``claim_window_s`` (FX-11, seconds a
    claim window stays open, default 4, 0.5 to 30).
    """

    name = "focusx-4focus"
    title = "FocusX 4Focus"
    min_seats = 2
    max_seats = 4
    settings_spec: ClassVar[Mapping[str, Setting]] = {
        "x_rule": Setting(False, bool, help="FX-3: the FocusX rule"),
        "claim_window_s": Setting(4.0, float, 0.5, 30.0, help="FX-11: claim window, seconds"),
    }
    action_types = (Deal, Place, Discard, Pass, RaceResult)

    def new_initial_state(self) -> "FourFocusState":
        return FourFocusState(self)


class FourFocusState(FocusXState):
    """A position of FocusX 4Focus.  See the module docstring.

    Attributes (read by the screens, the pictures and the bots):
        deck: face-down cards, top = last; hands: each seat's hand.
        board: face-up cards by cell; centre_card: the face-down centre card.
        box: cards out of the game (discards and false-focus costs).
        active: the seat whose turn it is; placer: who laid the last card.
        window: the open race: "turn", "placed" or "hint".
        fours: every 4Focus on the board as ``(cells, kind)``, in order of forming.
        new_fours: the ones the last placement formed (raced in "placed").
        claimed: ``(seat, cells, kind)`` of the winning claim, once there is one.
        notes: what happened, oldest first, as ``(how, seats)``; ``how`` is
            "hint" (an out-of-turn press gave the active seat a window),
            "false", "discard" or "pass".
        locked: seats locked out of claims after a false claim, until they
            have laid (or boxed, or passed) their next card (FXA-37): their
            presses are ignored.
    """

    game: FourFocusGame

    def __init__(self, game: FourFocusGame) -> None:
        super().__init__(game)
        n = game.seats
        self.window_ms = int(round(game.settings["claim_window_s"] * 1000))
        self.deck: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.board: dict[Cell, int] = {}
        self.centre_card: int | None = None
        self.placer: int | None = None
        self.phase = "deal"            # deal | race | turn | over
        self.window = ""               # turn | placed | hint
        self.hint_then = "turn"        # after a hint window: "turn" (lay a card) or "end"
        self.fours: list[tuple[Four, str]] = []
        self.new_fours: list[tuple[Four, str]] = []
        self.old_fours: list[tuple[Four, str]] = []
        self.claimed: tuple[int, Four, str] | None = None
        self.locked: set[int] = set()
        self.notes: list[tuple[str, tuple[int, ...]]] = []
        self.stats = {"races": 0, "debated": 0, "false": 0, "missed": 0, "hints": 0,
                      "placements": 0, "discards": 0, "passes": 0}

    # -- queries ---------------------------------------------------------------
    def occupied(self, cell: Cell) -> bool:
        """A card (face up, or the centre) lies on ``cell``."""
        return cell == CENTRE or cell in self.board

    def targets(self) -> list[Cell]:
        """Empty cells orthogonally next to a laid card and within reach, in reading order."""
        out = set()
        for (x, y) in list(self.board) + [CENTRE]:
            for dx, dy in STEPS:
                c = (x + dx, y + dy)
                if max(abs(c[0]), abs(c[1])) <= REACH and not self.occupied(c):
                    out.add(c)
        return sorted(out, key=lambda c: (c[1], c[0]))

    def can_place(self, card: int, cell: Cell) -> bool:
        """FX-11: ``cell`` is free, within 4 of the centre, next to a laid card, and
        ``card`` shares an attribute with every face-up orthogonal neighbour (the
        centre matches anything)."""
        x, y = cell
        if max(abs(x), abs(y)) > REACH or self.occupied(cell):
            return False
        touching = False
        for dx, dy in STEPS:
            nb = (x + dx, y + dy)
            if nb == CENTRE:
                touching = True
            elif nb in self.board:
                touching = True
                if not shares_attribute(card, self.board[nb]):
                    return False
        return touching

    def placements(self, seat: int) -> list[Place]:
        """Every legal ``Place`` for the seat's hand, hand order then reading order."""
        cells = self.targets()
        return [Place(c, x, y) for c in self.hands[seat] for (x, y) in cells if self.can_place(c, (x, y))]

    def anyone_can_place(self) -> bool:
        return any(self.placements(s) for s in range(self.seats))

    def fours_through(self, cell: Cell, board: Mapping[Cell, int] | None = None) -> list[tuple[Four, str]]:
        """Every 4Focus on ``board`` (default: this board) that contains ``cell``, in a fixed order."""
        b = self.board if board is None else board
        out = []
        for group in connected_groups(b, cell, 4):
            kind = four_kind([b[c] for c in group], self.x_rule)
            if kind is not None:
                out.append(((group[0], group[1], group[2], group[3]), kind))
        return out

    def race_spec(self) -> RaceSpec:
        """The open race (only at RACE nodes), see the module docstring (FX-11).

        Seats in ``locked`` (FXA-37) are never eligible and their presses are
        ignored (``RaceSpec.exempt``)."""
        kinds = frozenset(k for _, k in self.fours)
        locked = frozenset(self.locked)
        if self.window == "placed":
            placer = self.placer if self.placer is not None else self.active
            return RaceSpec(eligible=frozenset(range(self.seats)) - {placer} - locked,
                            valid_kinds=frozenset(k for _, k in self.new_fours), x_rule=self.x_rule,
                            window_ms=self.window_ms, label=N_("4Focus?"), exempt=locked)
        if self.window == "hint":
            return RaceSpec(eligible=frozenset({self.active}) - locked, valid_kinds=kinds, x_rule=self.x_rule,
                            window_ms=self.window_ms, label=N_("your claim window"), exempt=locked)
        return RaceSpec(eligible=frozenset({self.active}) - locked, valid_kinds=kinds, x_rule=self.x_rule,
                        penalise_ineligible=True, window_ms=self.window_ms, label=N_("turn start"), exempt=locked)

    def turn_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do at its turn with this board and hand, whatever the
        phase: its placements, else discards (deck not empty) or a pass (FXA-32).
        Lets a player choose during the turn-start window."""
        places: list[Action] = list(self.placements(seat))
        if places:
            return places
        if self.deck and self.hands[seat]:
            return [Discard(c) for c in self.hands[seat]]
        return [Pass()]

    def scores(self) -> tuple[int, ...]:
        """1 for the winner, 0 for everyone else (4Focus has no points)."""
        winners = self.result.winners if self.result is not None else ()
        return tuple(1 if s in winners else 0 for s in range(self.seats))

    def all_cards(self) -> list[int]:
        """Every card the game holds, wherever it is (for conservation checks)."""
        out = list(self.deck) + [c for h in self.hands for c in h] + list(self.board.values())
        out += [] if self.centre_card is None else [self.centre_card]
        return out + list(self.box)

    # -- API hooks (see arcade.focusx.base) ----------------------------------
    def _seat_actions(self, seat: int) -> list[Action]:
        return self.turn_actions(seat)

    def _check_move(self, cp: int, action: Action) -> str | None:
        if isinstance(action, (Place, Discard, Pass)):
            if cp < 0:
                return "no card is to be laid now"
            if isinstance(action, Pass):
                if self.placements(cp) or (self.deck and self.hands[cp]):
                    return "a card can be laid or boxed, so the turn cannot pass (FXA-32)"
                return None
            if action.card not in self.hands[cp]:
                return f"card {action.card!r} is not in {player_name(cp)}'s hand {self.hands[cp]}"
            if isinstance(action, Discard):
                if self.placements(cp):
                    return "a card of the hand can be laid, so none may be boxed (FXA-32)"
                if not self.deck:
                    return "the deck is empty: pass instead (FXA-32)"
                return None
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (action.x, action.y)):
                return f"cell {(action.x, action.y)!r}: expected two integers"
            if not self.can_place(action.card, (action.x, action.y)):
                return (f"card {action.card} cannot go on {(action.x, action.y)}: it must be free, within "
                        f"{REACH} of the centre, next to a laid card and share an attribute with every "
                        "neighbour (FX-11)")
            return None
        return "not a 4Focus action"

    def _check_race(self, r: RaceResult) -> str | None:
        spec = self.race_spec()
        if r.last:
            return "4Focus has no last-to-press races"
        if r.penalties and not spec.penalise_ineligible:
            return "no out-of-turn presses count in this window"
        if set(r.penalties) & spec.eligible:
            return "an eligible seat's press is not out of turn"
        if len(set(r.winners)) != len(r.winners):
            return "a seat is among the winners twice"
        if r.winners:
            if not set(r.winners) <= spec.eligible:
                return f"seats {sorted(set(r.winners) - spec.eligible)} cannot claim in this window"
            if r.kind not in spec.valid_kinds:
                return f"no {r.kind} 4Focus can be claimed now"
            if set(r.winners) & (self.race_out | set(r.false_shouts)):
                return "a seat that shouted falsely cannot win this race (FX-7)"
        return None

    def _apply(self, player: int, action: Action) -> None:
        if isinstance(action, (Place, Discard, Pass)):
            self.locked.discard(self.active)                         # FXA-37: until its next card
        if isinstance(action, Deal):
            deck = list(action.order)
            self.centre_card = deck.pop()
            for _ in range(HAND):
                for s in range(self.seats):
                    self.hands[s].append(deck.pop())
            self.deck = deck
            self.active = 0
            self._open("turn")
        elif isinstance(action, Place):
            cell = (action.x, action.y)
            self.hands[self.active].remove(action.card)
            self.board[cell] = action.card
            self.placer = self.active
            self.stats["placements"] += 1
            self.old_fours = list(self.fours)
            self.new_fours = self.fours_through(cell)
            self.fours += self.new_fours
            self._open("placed")
        elif isinstance(action, Discard):
            self.hands[self.active].remove(action.card)
            self.box.append(action.card)
            self.stats["discards"] += 1
            self.notes.append(("discard", (self.active,)))
            self._end_turn()
        elif isinstance(action, Pass):
            self.stats["passes"] += 1
            self.notes.append(("pass", (self.active,)))
            self._end_turn()
        elif isinstance(action, RaceResult):
            self._race(action)

    # -- internals -----------------------------------------------------------
    def _open(self, window: str) -> None:
        self.window = window
        self._open_race()

    def _false(self, s: int) -> None:
        """FX-7 in 4Focus (FXA-31): a false claim boxes the presser's last hand card, and
        (FXA-37) locks the seat out of claims until it has laid its next card."""
        if not self._first_false(s):
            return
        self.locked.add(s)
        self.notes.append(("false", (s,)))
        if self.hands[s]:
            self.box.append(self.hands[s].pop())

    def _hint(self, s: int, then: str) -> None:
        """FX-11: an out-of-turn press while an unnoticed 4Focus exists: the active seat's window."""
        self.stats["hints"] += 1
        self.notes.append(("hint", (s,)))
        self.hint_then = then
        self._open("hint")

    def _race(self, r: RaceResult) -> None:
        self.last_race = r
        w = self.window
        if r.winners:
            self._win(r, w)
            return
        if w == "turn":
            for s in r.false_shouts:
                self._false(s)
            for s in r.penalties:
                if s in self.race_out:
                    continue
                if self.fours:                                       # out of turn: a hint window
                    self._hint(s, "turn")
                    return
                self._false(s)
        elif w == "placed":
            for s in r.false_shouts:
                if s in self.race_out:
                    continue
                if self.old_fours and not self.new_fours:            # FXA-33
                    self._hint(s, "end")
                    return
                self._false(s)
        else:
            for s in r.false_shouts:
                self._false(s)
        if not r.decisive:
            return
        if w == "turn" or (w == "hint" and self.hint_then == "turn"):
            if not self.deck and not self.anyone_can_place():        # FX-11 drawn game, FXA-35
                self._finish((), "no one can lay a card and the deck is empty: drawn game (FX-11)")
                return
            self.phase = "turn"
            return
        if w == "placed" and self.new_fours:
            self.stats["missed"] += 1
        self._end_turn()

    def _win(self, r: RaceResult, w: str) -> None:
        kinds = self.new_fours if w == "placed" else self.fours
        cells = next(c for c, k in kinds if k == r.kind)
        self.claimed = (r.winners[0], cells, r.kind)
        self.stats["races"] += 1
        if len(r.winners) > 1:
            self.stats["debated"] += 1
        reason = {"placed": _("first to claim the 4Focus just formed (FX-11)"),
                  "turn": _("claimed an unnoticed 4Focus at the start of the turn (FX-11)"),
                  "hint": _("claimed the 4Focus in the window another player's press gave (FX-11)")}[w]
        if len(r.winners) > 1:
            names = [player_name(s) for s in r.winners]
            together = _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])
            reason = _("{names} claimed the 4Focus together: shared win (FXA-34)").format(names=together)
        self._finish(tuple(r.winners), reason)

    def _end_turn(self) -> None:
        hand = self.hands[self.active]
        while len(hand) < HAND and self.deck:                        # FX-11: draw back up to 3
            hand.append(self.deck.pop())
        self.active = (self.active + 1) % self.seats
        self.placer = None
        self._open("turn")

    def _finish(self, winners: tuple[int, ...], reason: str) -> None:
        self.phase = "over"
        self.result = Outcome(winners, reason, tuple(1.0 if s in winners else 0.0 for s in range(self.seats)))

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.phase, "window": self.window, "active": self.active, "placer": self.placer,
            "deck": list(self.deck), "hands": [list(h) for h in self.hands],
            "board": sorted([x, y, c] for (x, y), c in self.board.items()),
            "centre_card": self.centre_card, "box": list(self.box), "race_no": self.race_no,
            "race_out": sorted(self.race_out), "hint_then": self.hint_then, "locked": sorted(self.locked),
            "fours": [[list(map(list, f)), k] for f, k in self.fours],
            "new_fours": [[list(map(list, f)), k] for f, k in self.new_fours],
            "old_fours": len(self.old_fours),
            "claimed": None if self.claimed is None else
            [self.claimed[0], list(map(list, self.claimed[1])), self.claimed[2]],
            "notes": [[h, list(s)] for h, s in self.notes], **self._snapshot_end(),
        }


def connected_groups(board: Mapping[Cell, int], start: Cell, size: int) -> Iterator[tuple[Cell, ...]]:
    """Every set of ``size`` face-up cells, connected orthogonally, that contains ``start``.

    Sorted cell tuples, in a deterministic order.  The centre is never in
    ``board``, so it never takes part (FX-11).
    """
    if start not in board:
        return
    level: set[frozenset[Cell]] = {frozenset([start])}
    for _step in range(size - 1):
        nxt: set[frozenset[Cell]] = set()
        for group in level:
            for (x, y) in group:
                for dx, dy in STEPS:
                    c = (x + dx, y + dy)
                    if c in board and c not in group:
                        nxt.add(group | {c})
        level = nxt
    yield from sorted(tuple(sorted(g)) for g in level)
