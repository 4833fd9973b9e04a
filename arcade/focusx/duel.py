"""FocusX Duel Mode (seed 001 "Duel Mode"; rulings FX-1..FX-3, FX-5, FX-7, FX-10, FX-12).

Flow of a game::

    CHANCE  Deal(order)        shuffle the deck into the centre
    seat    Reveal()           the active seat turns the deck's top card onto
                               its own pile (playing area)
    RACE    focus race         a focus among the piles' top cards: only its
                               three owners race; the LAST to press takes the
                               trio into their penalty pile (judge mode
                               "last", ``duel_deadline_ms``); players tied for
                               last each take only their own card (FX-10)
    RACE    quiet window       no focus showing: any press costs the presser
                               their own top card (FX-10); the driver closes
                               it when the next card is to be revealed
    ...                        when the deck runs out: fewest penalty cards
    CHANCE  Deal(order)        wins; tied players play a Classic tie-break
                               round with the whole deck, the first to win a
                               focus wins (FX-10, FXA-22)

A press by a seat that owns none of the focus cards, or any press in a quiet
window, is a penalty press: the presser's own top card goes into their
penalty pile (once per seat and window).  Cards beneath become visible and
may form a new focus, which is raced next (FX-5).  Several foci are raced one
at a time, starting with the seat after the active player (FX-10, FXA-20);
while one is raced, the owners of the others are not penalised for pressing
(their press is ignored, FXA-24).  A press just after a race was decided is
late, not a penalty (FX-7's grace, FXA-25).
Arcade decisions: FXA-20..FXA-25 in docs/rules-focusx-modes.md.

The tie-break is a Classic sudden-death round (``arcade.focusx.classic``)
played inside this state with the same seat numbers; its actions (``Deal``,
``Place``, ``RaceResult``) are recorded in this game's history.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from arcade.core.api import RACE, Action, Game, Setting
from arcade.core.race import RaceResult, RaceSpec
from arcade.focusx.base import Deal, FocusXState, Take, takes_snapshot
from arcade.focusx.cards import find_trios
from arcade.focusx.classic import ClassicGame, ClassicState, Place
from arcade.i18n import N_, _

Trio = tuple[int, int, int]


@dataclass(frozen=True)
class Reveal(Action):
    """The active seat turns the deck's top card face up onto its own pile."""


class DuelGame(Game):
    """FocusX Duel for 4 to 8 seats (FX-12).

    Settings: ``x_rule`` (FX-3) and ``duel_deadline_ms`` (FX-10: an owner who
    has not pressed by then counts as pressing at the deadline; default
    3000, 500 to 20000).
    """

    name = "focusx-duel"
    title = "FocusX Duel"
    min_seats = 4
    max_seats = 8
    settings_spec: ClassVar[Mapping[str, Setting]] = {
        "x_rule": Setting(False, bool, help="FX-3: the FocusX rule"),
        "duel_deadline_ms": Setting(3000, int, 500, 20000, help="FX-10: last-press deadline, ms"),
    }
    action_types = (Deal, Reveal, Place, RaceResult)

    def new_initial_state(self) -> "DuelState":
        return DuelState(self)


class DuelState(FocusXState):
    """A position of FocusX Duel.  See the module docstring.

    Attributes (read by the screens, the pictures and the bots):
        deck: the centre deck, top = last.
        piles: each seat's playing-area pile, top = last.
        penalty: each seat's penalty pile (the cards that count against it).
        box: cards out of the game (none in normal play).
        active: the seat whose turn it is (who revealed last).
        trio: the seats owning the focus being raced, or None (quiet window).
        tiebreak: the Classic sudden-death round, once the deck ran out with
            a tie for fewest cards (FXA-22: played with all 64 cards).
        final_scores: the penalty counts when the deck ran out, kept as the
            scores once a tie-break round gathered the cards (None before).
        takes: what happened, oldest first, as ``(how, seats, cards)``;
            ``how`` is "last" (one seat took the trio), "tied-last" (each took
            its own card), "penalty" (a penalty press), or in the tie-break
            round "tiebreak-won", "tiebreak-debated", "tiebreak-boxed".
    """

    game: DuelGame

    def __init__(self, game: DuelGame) -> None:
        super().__init__(game)
        n = game.seats
        self.deadline_ms: int = game.settings["duel_deadline_ms"]
        self.deck: list[int] = []
        self.piles: list[list[int]] = [[] for _ in range(n)]
        self.penalty: list[list[int]] = [[] for _ in range(n)]
        self.phase = "deal"            # deal | turn | race | tiebreak | over
        self.wrong_kind: set[int] = set()
        self.trio: Trio | None = None
        self.trio_kind = ""
        self.tiebreak: ClassicState | None = None
        self.final_scores: tuple[int, ...] | None = None
        self._race_base = 0
        self.takes: list[Take] = []
        self.stats = {"races": 0, "debated": 0, "false": 0, "missed": 0, "penalties": 0}

    # -- queries ---------------------------------------------------------------
    def top_cards(self) -> list[int | None]:
        """Each seat's visible top card (None for an empty pile)."""
        return [p[-1] if p else None for p in self.piles]

    def trios(self) -> list[tuple[Trio, str]]:
        """Foci among the top cards as ``((seat, seat, seat), kind)``, in race order (FX-10).

        The order starts with the seat after the active player: trios are
        compared by their owners' places counted from that seat (FXA-20).
        """
        n = self.seats
        found = find_trios(self.top_cards(), self.x_rule)
        return sorted(found, key=lambda tk: sorted((s - self.active - 1) % n for s in tk[0]))

    def waiting_owners(self) -> frozenset[int]:
        """Owners of the foci on the table other than the one being raced (FXA-24): their
        presses are ignored in this race; they race when their focus comes."""
        if self.trio is None:
            return frozenset()
        others = {s for t, _k in self.trios() for s in t}
        return frozenset(others - set(self.trio))

    def race_spec(self) -> RaceSpec:
        """The open race: a focus race among the owners, or a quiet window (FX-10)."""
        if self.tiebreak is not None:
            return self.tiebreak.race_spec()
        if self.trio is not None:
            return RaceSpec(eligible=frozenset(self.trio), valid_kinds=frozenset({self.trio_kind}),
                            mode="last", x_rule=self.x_rule, penalise_ineligible=True,
                            deadline_ms=self.deadline_ms, label=N_("duel focus"), exempt=self.waiting_owners())
        return RaceSpec(eligible=frozenset(), valid_kinds=frozenset(), mode="last",
                        x_rule=self.x_rule, penalise_ineligible=True, label=N_("no focus"))

    def default_action(self) -> Action:
        """The action a buzzer-only station takes at its turn (reveal; or lay, in the tie-break)."""
        if self.tiebreak is not None:
            return self.tiebreak.default_action()
        return Reveal()

    def scores(self) -> tuple[int, ...]:
        """Cards in each seat's penalty pile (fewest wins, FX-10; the playing area does not count, FXA-23).

        Once a tie-break round has gathered every card (FXA-22), the counts the
        deck's end left are kept as the scores."""
        if self.final_scores is not None:
            return self.final_scores
        return tuple(len(p) for p in self.penalty)

    def all_cards(self) -> list[int]:
        """Every card the game holds, wherever it is (for conservation checks)."""
        out = list(self.deck) + [c for p in self.piles for c in p] + [c for p in self.penalty for c in p]
        out += list(self.box)
        if self.tiebreak is not None:
            out += self.tiebreak.all_cards()
        return out

    # -- API (the rest in arcade.focusx.base) ----------------------------------
    def current_player(self) -> int:
        if self.phase == "tiebreak":
            assert self.tiebreak is not None
            return self.tiebreak.current_player()
        return super().current_player()

    def chance_outcome(self, rng: random.Random) -> Action:
        if self.tiebreak is not None:
            return self.tiebreak.chance_outcome(rng)
        return super().chance_outcome(rng)

    def check(self, player: int, action: Action) -> str | None:
        if self.tiebreak is not None and player == self.current_player():
            return self.tiebreak.check(player, action)
        return super().check(player, action)

    def _actions_for(self, p: int) -> list[Action]:
        if self.tiebreak is not None:
            return self.tiebreak.legal_actions(p)
        if p == RACE and self.trio is not None:
            return [RaceResult(last=tuple(sorted(self.trio)))]           # nobody pressed
        return super()._actions_for(p)

    def _seat_actions(self, seat: int) -> list[Action]:
        return [Reveal()]

    def _check_move(self, cp: int, action: Action) -> str | None:
        if isinstance(action, Reveal):
            if cp < 0:
                return "no card is to be revealed now"
            return None
        if isinstance(action, Place):
            return "cards are laid on spots only in the Classic tie-break round"
        return "not a Duel action"

    def _check_race(self, r: RaceResult) -> str | None:
        spec = self.race_spec()
        if r.winners:
            return "Duel races have no winners, only a last to press (FX-10)"
        if len(set(r.last)) != len(r.last):
            return "a seat is among the last twice"
        if r.last and self.trio is None:
            return "no focus is being raced"
        if not set(r.last) <= spec.eligible:
            return f"seats {sorted(set(r.last) - spec.eligible)} own no card of the focus"
        if set(r.penalties) & spec.eligible:
            return "an owner of the focus cannot make a penalty press in its race"
        return None

    def _apply(self, player: int, action: Action) -> None:
        if self.tiebreak is not None:
            tb = self.tiebreak
            before = [len(v) for v in tb.victory]
            tb.apply(action, player)
            self.race_no = self._race_base + tb.race_no
            if isinstance(action, RaceResult) and action.winners:
                n = len(action.winners)
                how = "tiebreak-won" if n == 1 else "tiebreak-debated" if n <= 3 else "tiebreak-boxed"
                gained = tuple(c for s in action.winners for c in tb.victory[s][before[s]:])
                self.takes.append((how, tuple(action.winners), gained))
            if self.tiebreak.is_terminal():
                out = self.tiebreak.outcome()
                assert out is not None
                self.stats["races"] += self.tiebreak.stats["races"]
                self.stats["debated"] += self.tiebreak.stats["debated"]
                self.stats["false"] += self.tiebreak.stats["false"]
                self.stats["missed"] += self.tiebreak.stats["missed"]
                reason = _("won the tie-break focus (FX-10)") if len(out.winners) == 1 else \
                    _("tie-break round ended without a single winner: shared win (FXA-22)")
                self._finish(out.winners, reason)
            return
        if isinstance(action, Deal):
            self.deck = list(action.order)
            self.active = 0
            self.phase = "turn"
        elif isinstance(action, Reveal):
            self.piles[self.active].append(self.deck.pop())
            self._next_race()
        elif isinstance(action, RaceResult):
            self._race(action)

    # -- internals -----------------------------------------------------------
    def _open(self) -> None:
        self._open_race()
        self.wrong_kind = set()

    def _next_race(self) -> None:
        """After a change of the table: race the next focus, or open a quiet window."""
        found = self.trios()
        if found:
            self.trio, self.trio_kind = found[0]
        else:
            self.trio, self.trio_kind = None, ""
        self._open()

    def _penalise(self, seats: tuple[int, ...]) -> bool:
        """FX-10 penalty presses: the presser's top card into their penalty pile, once per
        seat and window, nothing with an empty pile (FXA-23).  True if the table changed."""
        changed = False
        for s in seats:
            if not self._first_false(s):
                continue
            self.stats["penalties"] += 1
            if self.piles[s]:
                c = self.piles[s].pop()
                self.penalty[s].append(c)
                self.takes.append(("penalty", (s,), (c,)))
                changed = True
        return changed

    def _race(self, r: RaceResult) -> None:
        self.last_race = r
        for s in r.false_shouts:                # FXA-21: an owner's wrong-kind claim costs no card
            if s not in self.wrong_kind:
                self.wrong_kind.add(s)
                self.stats["false"] += 1
        changed = self._penalise(r.penalties)
        trio = self.trio
        if trio is not None:
            if not r.decisive:
                return                          # the trio is untouched by others' penalties
            last = r.last or self._unpressed(r, trio)   # closed without a verdict (FXA-23)
            if len(last) == 1:
                loser = last[0]
                cards = tuple(self.piles[s].pop() for s in trio)
                self.penalty[loser].extend(cards)
                self.stats["races"] += 1
                self.takes.append(("last", (loser,), cards))
            else:
                cards = tuple(self.piles[s].pop() for s in last)
                for s, c in zip(last, cards):
                    self.penalty[s].append(c)
                self.stats["races"] += 1
                self.stats["debated"] += 1
                self.takes.append(("tied-last", tuple(last), cards))
            self._next_race()
            return
        # quiet window
        if changed and self.trios():
            self._next_race()                   # FX-5: cards beneath form a focus
            return
        if r.decisive:
            self._next_turn()

    @staticmethod
    def _unpressed(r: RaceResult, trio: Trio) -> tuple[int, ...]:
        """FXA-23: a race closed before its verdict: the owners who had not pressed count as
        pressing at the deadline, so they are the last (all of them if everyone had)."""
        pressed = {s for s, _k, _off, status in r.presses if status in ("safe", "last", "tied-last")}
        late = tuple(s for s in sorted(trio) if s not in pressed)
        return late or tuple(sorted(trio))

    def _next_turn(self) -> None:
        self.trio = None
        if not self.deck:
            self._end_of_deck()
            return
        self.active = (self.active + 1) % self.seats
        self.phase = "turn"

    def _end_of_deck(self) -> None:
        scores = self.scores()
        best = min(scores)
        tied = tuple(s for s in range(self.seats) if scores[s] == best)
        if len(tied) == 1:
            self._finish(tied, _("fewest cards ({n})").format(n=best))
            return
        # FX-10: a Classic tie-break round among the tied players.  FXA-22: a Classic
        # round is played with the whole deck, so every card (playing areas, penalty
        # piles, box) is gathered and dealt evenly among them; the penalty counts
        # stay the scores.
        cards = [c for p in self.piles for c in p] + [c for p in self.penalty for c in p] + list(self.box)
        if len(cards) < len(tied):                                   # FXA-22
            self._finish(tied, _("tied, and too few cards for a tie-break round: shared win (FXA-22)"))
            return
        self.final_scores = scores
        tb = ClassicGame(self.seats, {"x_rule": self.x_rule}).new_initial_state()
        tb.box = sorted(cards)
        tb.sudden = tied
        tb.phase = "sudden-deal"
        for p in self.piles + self.penalty:
            p.clear()
        self.box = []
        self.tiebreak = tb
        self._race_base = self.race_no
        self.phase = "tiebreak"

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.phase, "active": self.active, "deck": list(self.deck),
            "piles": [list(p) for p in self.piles], "penalty": [list(p) for p in self.penalty],
            "box": list(self.box), "race_no": self.race_no, "race_out": sorted(self.race_out),
            "wrong_kind": sorted(self.wrong_kind), "trio": None if self.trio is None else list(self.trio), "trio_kind": self.trio_kind,
            "tiebreak": None if self.tiebreak is None else self.tiebreak.snapshot(),
            "final_scores": None if self.final_scores is None else list(self.final_scores),
            "takes": takes_snapshot(self.takes), **self._snapshot_end(),
        }
