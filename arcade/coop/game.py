"""Focus (2023) on the core game API: base game, Sherlock Mode, Mycroft Mode, cases.

Seed ``000_27d490c7c429b1c9.txt``; rulings CO-1..CO-6 in ``RULINGS.md``;
decisions where both are silent in ``docs/rules-coop.md``.

The table has 20 positions: ``0..15`` are the 4x4 grid in reading order (row 0
is the row next to the side row, which is "top" for the markers, CO-2) and
``16..19`` are the side row.  A position holds one exhibit face (1..168) or
nothing once taken.

Flow of one round (``current_player()``):

* ``CHANCE``: :class:`Deal` lays 20 faces, gives each seat its marker cell(s)
  (one each; two each in Mycroft Mode; all different, CO-2) and picks who
  starts (the rulebook's "either player can go first" as a recorded chance
  outcome, ruling R-5's habit).
* the active seat :class:`Take` s a card (the first card of a round from the
  side row; never its own exhibit, CO-3).  Taking the partner's exhibit ends
  the round at once with nothing (CO-3).  When only exhibit cards remain in the
  grid the round is won (CO-4).
* with Sherlock rules, after every take the taker may :class:`Offer` or
  :class:`Pass` (end of the turn) - the other seat may offer at that moment
  too - and the next seat may offer instead of taking (start of its turn).
  The partner then must :class:`Accept` or :class:`Refuse`; after a refusal
  only the refuser may offer and that offer must be accepted (CO-6).  After
  acceptance each seat :class:`Point` s secretly at the card(s) it believes
  are the partner's; the round scores when both have pointed.

Sherlock rules play ``rounds`` rounds (3, CO-6) and rate the total with the
seed's table (:func:`rating`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

from arcade.coop.exhibits import CARDS, CASES, case_faces, exhibit
from arcade.core.api import CHANCE, TERMINAL, Action, Game, Outcome, Setting, State, player_name
from arcade.i18n import N_, _, ngettext

GRID = 16
SIDE = 4
POSITIONS = GRID + SIDE
SIDE_POSITIONS = tuple(range(GRID, POSITIONS))
MODES = ("base", "sherlock", "mycroft", "mycroft-sherlock")

#: The seed's rating table for the 3-round total (Sherlock Mode, "Final score"), in English:
#: translated where it is shown (``arcade.i18n``).
RATINGS: tuple[tuple[int, str], ...] = (
    (40, N_("Brilliant! You are just as close as Sherlock and Watson...")),
    (31, N_("Congratulations! You are masters of deduction!")),
    (22, N_("Well done, a duo who truly understands one another!")),
    (13, N_("Interesting deductions, but still a bit imprecise...")),
    (0, N_("Oh dear, there are some difficulties to understand each other...")),
)


def rating(total: int) -> str:
    """The seed's words for a Sherlock Mode total over 3 rounds (0-12 .. 40+).

    Raises:
        ValueError: a negative total.
    """
    if total < 0:
        raise ValueError(f"total {total!r}: expected points >= 0")
    for low, words in RATINGS:
        if total >= low:
            return words
    raise AssertionError("unreachable")      # pragma: no cover


def cell_name(pos: int) -> str:
    """``"B3"`` for grid cells (row letter A..D from the side row, column 1..4), ``"side 2"``."""
    if pos >= GRID:
        return _("side {n}").format(n=pos - GRID + 1)
    return f"{'ABCD'[pos // 4]}{pos % 4 + 1}"


# --------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Deal(Action):
    """Chance: ``faces[p]`` lies at position p (0..19); ``markers[s]`` are seat s's
    exhibit cells (grid cells 0..15, CO-2); ``first`` takes the first card."""

    faces: tuple[int, ...]
    markers: tuple[tuple[int, ...], ...]
    first: int


@dataclass(frozen=True)
class Take(Action):
    """Take the card at position ``pos`` (0..15 grid, 16..19 side row) into one's clue file."""

    pos: int


@dataclass(frozen=True)
class Offer(Action):
    """Sherlock rules: suggest that both point at each other's exhibit (CO-6)."""


@dataclass(frozen=True)
class Pass(Action):
    """Sherlock rules: end one's turn without offering."""


@dataclass(frozen=True)
class Accept(Action):
    """Accept the partner's offer: both point (CO-6)."""


@dataclass(frozen=True)
class Refuse(Action):
    """Refuse the partner's offer; from now on only the refuser may offer (CO-6)."""


@dataclass(frozen=True)
class Point(Action):
    """Point secretly at the grid cell(s) believed to be the partner's exhibit(s)."""

    cells: tuple[int, ...]


@dataclass(frozen=True)
class RoundResult:
    """How one round ended.

    Attributes:
        score: points (Sherlock rules) - 0 in base rules.
        won: base rules: only the exhibits were left (CO-4); Sherlock rules:
            both found (all four in Mycroft Mode).
        reason: in words.
        remaining: exhibit cards left at the centre and on the side.
        found: per seat, whether it pointed at all its partner's cards.
        turns: cards taken in the round.
        faces, markers, points, clues: the table at the end, for the reveal.
    """

    score: int
    won: bool
    reason: str
    remaining: int
    found: tuple[bool, bool]
    turns: int
    faces: tuple[int | None, ...]
    markers: tuple[tuple[int, ...], ...]
    points: tuple[tuple[int, ...], ...]
    clues: tuple[tuple[int, ...], ...]
    lost_by: int | None = None


@dataclass(frozen=True)
class CoopView:
    """What seat ``seat`` may know (no partner marker, no partner pointing).

    ``takes`` is the public order of every take this round: (seat, pos, face).
    """

    seat: int
    mode: str
    faces: tuple[int | None, ...]
    own_cells: tuple[int, ...]
    partner_exhibits: int
    takes: tuple[tuple[int, int, int], ...]
    phase: str
    active: int
    offer_by: int | None
    refused_by: int | None
    sherlock_rules: bool
    round_no: int

    @property
    def partner(self) -> int:
        return 1 - self.seat

    def clues(self, seat: int) -> list[int]:
        """Seat's clue file this round (faces, in order taken)."""
        return [f for s, _p, f in self.takes if s == seat]

    def remaining(self) -> int:
        return sum(1 for f in self.faces if f is not None)


# --------------------------------------------------------------------- game
class CoopGame(Game):
    """Focus (2023), two seats, cooperative.

    Settings:
        mode: ``base`` | ``sherlock`` | ``mycroft`` (base rules) |
            ``mycroft-sherlock`` (Mycroft Mode with Sherlock rules).
        case: ``""`` (the 84 cards shuffled with flips) or a Mrs. Hudson case
            key ``scarlet`` | ``sign`` | ``pips`` | ``hound`` (its 20 faces).
        rounds: rounds with Sherlock rules (default 3, CO-6).

    Raises:
        SettingsError: seats other than 2, an unknown mode or case.
    """

    name = "coop"
    title = "Focus (2023)"
    min_seats = 2
    max_seats = 2
    settings_spec: ClassVar[Mapping[str, Setting]] = {
        "mode": Setting("base", str, choices=MODES, help="base, sherlock, mycroft or mycroft-sherlock"),
        "case": Setting("", str, choices=("",) + tuple(CASES), help="a Mrs. Hudson case, or '' for all cards"),
        "rounds": Setting(3, int, low=1, high=10, help="rounds with Sherlock rules (CO-6: 3)"),
    }
    action_types = (Deal, Take, Offer, Pass, Accept, Refuse, Point)

    @property
    def mode(self) -> str:
        return str(self.settings["mode"])

    @property
    def sherlock_rules(self) -> bool:
        """Offers, pointing and points (Sherlock Mode, or Mycroft with Sherlock rules)."""
        return self.mode in ("sherlock", "mycroft-sherlock")

    @property
    def mycroft(self) -> bool:
        return self.mode.startswith("mycroft")

    @property
    def exhibits_per_seat(self) -> int:
        """1, or 2 in Mycroft Mode (seed: "Each player draws two Marker cards")."""
        return 2 if self.mycroft else 1

    @property
    def rounds(self) -> int:
        return int(self.settings["rounds"]) if self.sherlock_rules else 1

    def new_initial_state(self) -> "CoopState":
        return CoopState(self)


class CoopState(State):
    """A position of Focus (2023); see the module docstring for the flow."""

    game: CoopGame

    def __init__(self, game: CoopGame) -> None:
        super().__init__(game)
        self.round_no = 0
        self.faces: list[int | None] = [None] * POSITIONS
        self.markers: tuple[tuple[int, ...], ...] = ((), ())
        self.takes: list[tuple[int, int, int]] = []
        self.phase = "deal"             # deal, take, end, answer, point, over
        self.active = 0
        self.offer_by: int | None = None
        self.refused_by: int | None = None
        self.resume_phase = "take"
        self.points: dict[int, tuple[int, ...]] = {}
        self.results: list[RoundResult] = []

    # -- helpers ---------------------------------------------------------------
    @property
    def mode(self) -> str:
        return self.game.mode

    def clues(self, seat: int) -> list[int]:
        """Seat's clue file this round: faces in the order taken."""
        return [f for s, _p, f in self.takes if s == seat]

    def present(self) -> list[int]:
        """Positions that still hold a card."""
        return [p for p, f in enumerate(self.faces) if f is not None]

    def remaining(self) -> int:
        """Cards left at the centre and on the side (the Sherlock points, seed)."""
        return len(self.present())

    def exhibit_cells(self) -> set[int]:
        return {c for cells in self.markers for c in cells}

    def total(self) -> int:
        """Points so far over the rounds played (Sherlock rules)."""
        return sum(r.score for r in self.results)

    def may_offer(self, seat: int) -> bool:
        """Whether ``seat`` may offer now (CO-6: start or end of a turn; after a
        refusal only the refuser)."""
        if not self.game.sherlock_rules or self.offer_by is not None:
            return False
        if self.refused_by is not None and self.refused_by != seat:
            return False
        if self.phase == "take":
            return seat == self.active
        return self.phase == "end"

    def view(self, seat: int) -> CoopView:
        """What ``seat`` may see (CO-5: never the partner's marker or pointing)."""
        return CoopView(seat, self.mode, tuple(self.faces), tuple(self.markers[seat]) if self.markers[seat] else (),
                        self.game.exhibits_per_seat, tuple(self.takes), self.phase, self.active,
                        self.offer_by, self.refused_by, self.game.sherlock_rules, self.round_no)

    # -- API ---------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == "deal":
            return CHANCE
        if self.phase == "over":
            return TERMINAL
        if self.phase in ("take", "end"):
            return self.active
        if self.phase == "answer":
            assert self.offer_by is not None
            return 1 - self.offer_by
        # point: the first seat that has not pointed
        return 0 if 0 not in self.points else 1

    def legal_actions(self, player: int | None = None) -> list[Action]:
        seat = self.current_player() if player is None else player
        if self.phase == "over":
            return []
        if self.phase == "deal":
            return []           # chance: see chance_outcome
        out: list[Action] = []
        if self.phase == "take" and seat == self.active:
            out += [Take(p) for p in self.present() if self._take_problem(seat, p) is None]
        if self.phase == "end" and seat == self.active:
            out.append(Pass())
        if self.may_offer(seat):
            out.append(Offer())
        if self.phase == "answer" and seat == self.current_player():
            out.append(Accept())
            if self.offer_by != self.refused_by:
                out.append(Refuse())
        if self.phase == "point" and seat in (0, 1) and seat not in self.points:
            # all choices would be too many in Mycroft; list the single-card ones
            # (or pairs) lazily: callers normally build Point themselves.
            cand = self._point_candidates(seat)
            if self.game.exhibits_per_seat == 1:
                out += [Point((c,)) for c in cand]
            else:
                out += [Point((a, b)) for i, a in enumerate(cand) for b in cand[i + 1:]]
        return out

    def _point_candidates(self, seat: int) -> list[int]:
        return [p for p in range(GRID) if self.faces[p] is not None and p not in self.markers[seat]]

    def _take_problem(self, seat: int, pos: int) -> str | None:
        if not isinstance(pos, int) or isinstance(pos, bool) or not 0 <= pos < POSITIONS:
            return f"position {pos!r}: expected 0..{POSITIONS - 1}"
        if self.faces[pos] is None:
            return _("{cell} is empty: that card was taken already").format(cell=cell_name(pos))
        if not self.takes and pos < GRID:
            return _("the first card of a round comes from the side row (seed, First turn; CO-3)")
        if pos in self.markers[seat]:
            return _("{cell} is your own exhibit: taking it is refused (CO-3)").format(cell=cell_name(pos))
        return None

    def check(self, player: int, action: Action) -> str | None:
        if isinstance(action, Deal):
            if self.phase != "deal":
                return "no deal is due"
            if player != CHANCE:
                return f"a deal is chance's, not {player_name(player)}'s"
            return self._deal_problem(action)
        if player not in (0, 1):
            return f"seat {player!r}: expected 0 or 1"
        if self.phase == "deal":
            return "the cards are not dealt yet"
        if isinstance(action, Take):
            if self.phase != "take":
                return f"no card may be taken now (phase {self.phase})"
            if player != self.active:
                return _("it is {seat}'s turn").format(seat=player_name(self.active))
            return self._take_problem(player, action.pos)
        if isinstance(action, Offer):
            if not self.game.sherlock_rules:
                return _("offers belong to Sherlock Mode (CO-6)")
            if self.may_offer(player):
                return None
            if self.offer_by is not None:
                return _("an offer is already waiting for an answer")
            if self.refused_by is not None and self.refused_by != player:
                return _("after a refusal only the player who refused may offer (CO-6)")
            return _("an offer is made at the start or the end of a turn (CO-6)")
        if isinstance(action, Pass):
            if self.phase != "end" or player != self.active:
                return _("only the player whose turn is ending may pass")
            return None
        if isinstance(action, (Accept, Refuse)):
            if self.phase != "answer" or player == self.offer_by:
                return _("there is no offer from the partner to answer")
            if isinstance(action, Refuse) and self.offer_by == self.refused_by:
                return _("the offer of the player who refused must be accepted (CO-6)")
            return None
        if isinstance(action, Point):
            if self.phase != "point":
                return _("pointing comes after an accepted offer")
            if player in self.points:
                return _("you have pointed already")
            return self._point_problem(player, action.cells)
        return "not an action of Focus (2023)"

    def _deal_problem(self, deal: Deal) -> str | None:
        faces = deal.faces
        if len(faces) != POSITIONS or any(isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 2 * CARDS
                                          for f in faces):
            return f"a deal lays {POSITIONS} faces numbered 1..{2 * CARDS}"
        cards = [(f + 1) // 2 for f in faces]
        if len(set(cards)) != POSITIONS:
            return "a deal uses each card at most once (CO-1)"
        case = self.game.settings["case"]
        if case and set(faces) != set(case_faces(case)):
            return f"the case {case!r} lays exactly its 20 faces"
        k = self.game.exhibits_per_seat
        if len(deal.markers) != 2 or any(len(m) != k for m in deal.markers):
            return f"each seat gets {k} marker(s)"
        cells = [c for m in deal.markers for c in m]
        if any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < GRID for c in cells):
            return "markers name grid cells 0..15 (CO-2)"
        if len(set(cells)) != len(cells):
            return "every marker is a different cell (CO-2)"
        if deal.first not in (0, 1):
            return "first must be seat 0 or 1"
        return None

    def _point_problem(self, seat: int, cells: Sequence[int]) -> str | None:
        k = self.game.exhibits_per_seat
        if not isinstance(cells, tuple) or len(cells) != k or len(set(cells)) != k:
            return ngettext("point at {n} card", "point at {n} different cards", k).format(n=k)
        cand = self._point_candidates(seat)
        for c in cells:
            if c not in cand:
                if isinstance(c, int) and 0 <= c < GRID and c in self.markers[seat]:
                    return _("{cell} is your own exhibit").format(cell=cell_name(c))
                return f"{c!r} is not a card left in the grid"
        return None

    def chance_outcome(self, rng: random.Random) -> Action:
        """The deal: 20 cards (the case's, or 20 of 84 each shown on a random
        face: the seed's flipping while shuffling), shuffled onto the 20
        positions; 16 markers shuffled and drawn (CO-2); a random first seat."""
        if self.phase != "deal":
            return super().chance_outcome(rng)
        case = self.game.settings["case"]
        if case:
            faces = list(case_faces(case))
            rng.shuffle(faces)
        else:
            cards = rng.sample(range(1, CARDS + 1), POSITIONS)
            faces = [2 * c - 1 + rng.randrange(2) for c in cards]
        k = self.game.exhibits_per_seat
        cells = rng.sample(range(GRID), 2 * k)
        return Deal(tuple(faces), (tuple(cells[:k]), tuple(cells[k:])), rng.randrange(2))

    def _apply(self, player: int, action: Action) -> None:
        if isinstance(action, Deal):
            self.round_no += 1
            self.faces = list(action.faces)
            self.markers = tuple(tuple(m) for m in action.markers)
            self.takes = []
            self.active = action.first
            self.offer_by = None
            self.refused_by = None
            self.points = {}
            self.phase = "take"
        elif isinstance(action, Take):
            face = self.faces[action.pos]
            assert face is not None
            self.faces[action.pos] = None
            self.takes.append((player, action.pos, face))
            partner = 1 - player
            if action.pos in self.markers[partner]:
                said = _("{seat} took {partner}'s exhibit, the {name}: no points this round") \
                    if self.game.sherlock_rules else _("{seat} took {partner}'s exhibit, the {name}: you both lose")
                self._end_round(0, False, said.format(seat=player_name(player), partner=player_name(partner),
                                                      name=_(exhibit(face).name)), (False, False), lost_by=player)
            elif all(self.faces[p] is None for p in range(GRID) if p not in self.exhibit_cells()):
                r = self.remaining()
                if self.game.sherlock_rules:
                    # only the partner's cards are left to point at: pointing is automatic
                    self.points = {0: tuple(self.markers[1]), 1: tuple(self.markers[0])}
                    self._end_round(r, True, ngettext(
                        "only the exhibits are left in the grid: both found, {n} card left",
                        "only the exhibits are left in the grid: both found, {n} cards left", r).format(n=r),
                        (True, True))
                else:
                    self._end_round(0, True, _("only the exhibits are left in the grid: you both win (CO-4)"),
                                    (True, True))
            elif self.game.sherlock_rules:
                self.phase = "end"
            else:
                self.active = partner
        elif isinstance(action, Pass):
            self.phase = "take"
            self.active = 1 - self.active
        elif isinstance(action, Offer):
            self.offer_by = player
            self.resume_phase = self.phase
            self.phase = "answer"
        elif isinstance(action, Refuse):
            self.refused_by = player
            self.offer_by = None
            self.phase = self.resume_phase
        elif isinstance(action, Accept):
            self.offer_by = None
            self.phase = "point"
            self.points = {}
        elif isinstance(action, Point):
            self.points[player] = tuple(action.cells)
            if len(self.points) == 2:
                self._score_points()

    def _score_points(self) -> None:
        found = tuple(set(self.points[s]) == set(self.markers[1 - s]) for s in (0, 1))
        r = self.remaining()
        if all(found):
            said = ngettext("both found: both exhibits, {n} card left", "both found: both exhibits, {n} cards left",
                            r) if not self.game.mycroft else \
                ngettext("both found: all four exhibits, {n} card left", "both found: all four exhibits, {n} cards left",
                         r)
            self._end_round(r, True, said.format(n=r), (found[0], found[1]))
        elif any(found):
            who = player_name(0 if found[0] else 1)
            self._end_round(r // 2, False, ngettext("only {seat} found: half of {n} card, rounded down",
                                                    "only {seat} found: half of {n} cards, rounded down",
                                                    r).format(seat=who, n=r), (found[0], found[1]))
        else:
            self._end_round(0, False, _("neither found the partner's cards") if self.game.mycroft else
                            _("neither found the partner's card"), (False, False))

    def _end_round(self, score: int, won: bool, reason: str, found: tuple[bool, bool],
                   lost_by: int | None = None) -> None:
        self.results.append(RoundResult(
            score, won, reason, self.remaining(), found, len(self.takes), tuple(self.faces),
            self.markers, tuple(self.points.get(s, ()) for s in (0, 1)),
            tuple(tuple(self.clues(s)) for s in (0, 1)), lost_by))
        self.offer_by = None
        self.phase = "deal" if self.round_no < self.game.rounds else "over"

    def outcome(self) -> Outcome | None:
        """Base rules: both win (CO-4) or both lose.  Sherlock rules: the total
        over the rounds and the seed's rating; ``winners`` is both seats from
        13 points (the first band above "Oh dear"), see docs/rules-coop.md."""
        if self.phase != "over":
            return None
        if not self.game.sherlock_rules:
            r = self.results[-1]
            winners = (0, 1) if r.won else ()
            return Outcome(winners, r.reason, (1.0, 1.0) if r.won else (0.0, 0.0))
        total = self.total()
        return Outcome((0, 1) if total >= 13 else (), ngettext("{n} point: {rating}", "{n} points: {rating}",
                                                               total).format(n=total, rating=_(rating(total))),
                       (float(total), float(total)))

    def snapshot(self) -> dict[str, Any]:
        return {
            "mode": self.mode, "case": self.game.settings["case"], "round": self.round_no,
            "faces": list(self.faces), "markers": [list(m) for m in self.markers],
            "takes": [list(t) for t in self.takes], "phase": self.phase, "active": self.active,
            "offer_by": self.offer_by, "refused_by": self.refused_by,
            "points": {str(k): list(v) for k, v in sorted(self.points.items())},
            "scores": [r.score for r in self.results],
        }

    @property
    def stats(self) -> dict[str, Any]:
        """Figures for the results screen."""
        out: dict[str, Any] = {"rounds": len(self.results), "cards taken": sum(r.turns for r in self.results)}
        if self.game.sherlock_rules:
            out["points"] = self.total()
        return out


__all__ = ["CoopGame", "CoopState", "CoopView", "Deal", "Take", "Offer", "Pass", "Accept", "Refuse", "Point",
           "RoundResult", "rating", "cell_name", "RATINGS", "MODES", "GRID", "SIDE", "POSITIONS",
           "SIDE_POSITIONS"]

