"""The computer partner of Focus (2023): plays by association.

Pure (standard library, injected ``random.Random``).  It sees only
``CoopState.view(seat)`` - its own marker(s), the table and the public order of
every take - never its partner's marker or pointing (CO-5, CO-6).

Reading the partner's clue file (Bayes over the grid cells):
    the partner is modelled as taking, from the cards it could take at that
    moment, a card with probability proportional to
    ``exp(sim(card, exhibit) / temperature)``.  Each clue in the partner's
    file multiplies the belief of each candidate cell by that likelihood,
    raised to ``decay ** k`` for the k-th clue (0 = first): early clues say
    more (seed, Tips: "The first chosen cards often reveal important hints").
    In Mycroft Mode a clue may be about either exhibit: the likelihood of a
    pair is the mean of the two.

Giving clues (taking a card):
    for every card it may take it weighs (a) the risk that the card is the
    partner's (its belief; side-row cards are safe, seed Tips) and (b) how
    strongly the partner would believe in the bot's own exhibit after seeing
    that clue (the same model, run from the partner's side).  A card whose
    risk is above ``max_risk`` is never taken while a safer card exists, so
    the bot never takes a card its partner's clues have made clear.

Sherlock rules:
    it offers when its belief in the partner's card is at least ``offer_at``
    and its estimate of the partner's belief in its own card at least
    ``offer_partner_at``; it accepts an offer when its belief is at least
    ``accept_at``; it points at the cell(s) it believes most.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations
from typing import Mapping, TypeVar

K = TypeVar("K")

from arcade.core.api import Action
from arcade.core.errors import ArcadeError
from arcade.coop.game import (GRID, SIDE_POSITIONS, Accept, CoopState, CoopView, Offer, Pass, Point, Refuse,
                              Take)
from arcade.coop.similarity import SimilarityTable, default_table


class PartnerError(ArcadeError, ValueError):
    """The partner was asked to act when it has nothing to do (names the phase)."""


@dataclass(frozen=True)
class PartnerSkill:
    """How the partner plays.

    Attributes:
        name: "easy", "medium", "hard" or "expert".
        temperature: how sharply a player is assumed to pick the most associated
            card (similarity units, 0..1; lower = sharper).
        decay: weight of the k-th clue is ``decay ** k`` (early clues say more).
        max_risk: never take a card whose belief of being the partner's exceeds
            this while a safer card exists (probability 0..1).
        risk_weight: how much risk costs against clue value when choosing.
        noise: random noise added to each card's value (easy players err).
        side_keep: cost of taking a side-row card after the first take (they are
            the risk-free clues, worth keeping for the end).
        offer_at, offer_partner_at, accept_at: Sherlock thresholds (probability).
    """

    name: str
    temperature: float
    decay: float
    max_risk: float
    risk_weight: float
    noise: float
    side_keep: float
    offer_at: float
    offer_partner_at: float
    accept_at: float


SKILLS: Mapping[str, PartnerSkill] = {
    # tuned with bench/bench_coop.py (two partners of one skill; see docs/rules-coop.md)
    "easy": PartnerSkill("easy", 0.06, 0.80, 0.30, 2.0, 0.30, 0.0, 0.70, 0.40, 0.50),
    "medium": PartnerSkill("medium", 0.03, 0.80, 0.15, 4.0, 0.06, 0.0, 0.75, 0.40, 0.50),
    "hard": PartnerSkill("hard", 0.03, 0.80, 0.15, 6.0, 0.02, 0.0, 0.75, 0.40, 0.50),
    "expert": PartnerSkill("expert", 0.025, 0.80, 0.12, 8.0, 0.0, 0.0, 0.75, 0.40, 0.50),
}


def partner_skill(name: str) -> PartnerSkill:
    """The skill named ``name``; raises :class:`PartnerError` listing the names."""
    if name not in SKILLS:
        raise PartnerError(f"skill {name!r}: expected one of {list(SKILLS)}")
    return SKILLS[name]


def initial_faces(view: CoopView) -> list[int | None]:
    """The table as dealt this round: current faces plus the taken ones."""
    faces = list(view.faces)
    for _s, pos, face in view.takes:
        faces[pos] = face
    return faces


def clue_likelihoods(view: CoopView, giver: int, table: SimilarityTable, temperature: float,
                     decay: float, candidates: list[int]) -> list[tuple[float, dict[int, float]]]:
    """For each clue of ``giver`` this round: (weight, {cell: log-likelihood}).

    The likelihood of clue c given exhibit e is
    ``exp(sim(c, e)/T) / sum over the cards the giver could take then of
    exp(sim(a, e)/T)`` (excluding e itself; the first card of a round from
    the side row only).
    """
    dealt = initial_faces(view)
    present = [f is not None for f in dealt]
    faces = [f if f is not None else 0 for f in dealt]
    out: list[tuple[float, dict[int, float]]] = []
    k = 0
    for n, (seat, pos, face) in enumerate(view.takes):
        if seat == giver:
            avail = [p for p in range(len(faces)) if present[p] and (n > 0 or p in SIDE_POSITIONS)]
            logs: dict[int, float] = {}
            for e in candidates:
                fe = faces[e]
                z = sum(math.exp(table.sim(faces[a], fe) / temperature) for a in avail if a != e)
                logs[e] = table.sim(face, fe) / temperature - math.log(z) if z > 0 else 0.0
            out.append((decay ** k, logs))
            k += 1
        present[pos] = False
    return out


def _normalise(logw: Mapping[K, float]) -> dict[K, float]:
    if not logw:
        return {}
    top = max(logw.values())
    w = {k: math.exp(v - top) for k, v in logw.items()}
    z = sum(w.values())
    return {k: v / z for k, v in w.items()}


def belief(view: CoopView, table: SimilarityTable, skill: PartnerSkill,
           giver: int | None = None, exclude: tuple[int, ...] | None = None,
           exhibits: int | None = None) -> tuple[dict[int, float], dict[tuple[int, ...], float]]:
    """Who believes what: P(cell is one of ``giver``'s exhibits) from the clues.

    Args:
        view: the viewer's view of the table.
        giver: whose clues are read (default: the viewer's partner).
        exclude: cells known not to be the giver's (default: the viewer's own).
        exhibits: exhibits per giver (default: from the view; 2 in Mycroft).

    Returns:
        (marginal {cell: probability}, joint {cells tuple: probability}); the
        marginals add up to ``exhibits``.
    """
    giver = view.partner if giver is None else giver
    exclude = view.own_cells if exclude is None else exclude
    k = view.partner_exhibits if exhibits is None else exhibits
    cand = [p for p in range(GRID) if view.faces[p] is not None and p not in exclude]
    if not cand:
        return {}, {}
    clues = clue_likelihoods(view, giver, table, skill.temperature, skill.decay, cand)
    if k == 1 or len(cand) < 2:
        logw: dict[tuple[int, ...], float] = {(e,): sum(w * logs[e] for w, logs in clues) for e in cand}
    else:
        logw = {}
        for a, b in combinations(cand, 2):
            s = 0.0
            for w, logs in clues:
                s += w * (math.log(0.5) + _logaddexp(logs[a], logs[b]))
            logw[(a, b)] = s
    joint = _normalise(logw)
    marginal = {c: 0.0 for c in cand}
    for cells, p in joint.items():
        for c in cells:
            marginal[c] += p
    return marginal, joint


def _logaddexp(a: float, b: float) -> float:
    m = max(a, b)
    return m + math.log(math.exp(a - m) + math.exp(b - m))


class CoopPartner:
    """A computer player for one seat of Focus (2023).

    Args:
        seat: 0 or 1.
        skill: a name of :data:`SKILLS` (default "medium").
        table: the association table (default: the shipped one).
        rng: randomness for the noise of easier skills (default seeded 0).

    ``act(view)`` returns the seat's next action; ``wants_offer(view)`` says
    whether it would offer now (Sherlock rules).
    """

    def __init__(self, seat: int, skill: str = "medium", table: SimilarityTable | None = None,
                 rng: random.Random | None = None) -> None:
        if seat not in (0, 1):
            raise PartnerError(f"seat {seat!r}: expected 0 or 1")
        self.seat = seat
        self.skill = partner_skill(skill)
        self.table = table if table is not None else default_table()
        self.rng = rng if rng is not None else random.Random(0)

    # -- reading --------------------------------------------------------------
    def belief(self, view: CoopView) -> dict[int, float]:
        """P(cell holds one of the partner's exhibits) for every candidate grid cell."""
        return belief(view, self.table, self.skill)[0]

    def best_guess(self, view: CoopView) -> tuple[tuple[int, ...], float]:
        """The cell(s) it believes are the partner's and that belief (0..1)."""
        _marg, joint = belief(view, self.table, self.skill)
        if not joint:
            return (), 0.0
        cells, p = max(joint.items(), key=lambda kv: (kv[1], [-c for c in kv[0]]))
        return tuple(sorted(cells)), p

    def partner_confidence(self, view: CoopView) -> float:
        """Estimate of the partner's belief in this seat's own exhibit(s), from
        this seat's clues as the partner sees them."""
        marg, _joint = belief(view, self.table, self.skill, giver=self.seat, exclude=(),
                              exhibits=len(view.own_cells))
        if not view.own_cells:
            return 0.0
        return min(marg.get(c, 0.0) for c in view.own_cells)

    # -- deciding ---------------------------------------------------------------
    def act(self, view: CoopView) -> Action:
        """The next action for this seat.

        Raises:
            PartnerError: it is not this seat's decision (phase named).
        """
        if view.phase == "take" and view.active == self.seat:
            if view.sherlock_rules and self._may_offer(view) and self.wants_offer(view):
                return Offer()
            return self.choose_take(view)
        if view.phase == "end" and view.active == self.seat:
            if self._may_offer(view) and self.wants_offer(view):
                return Offer()
            return Pass()
        if view.phase == "answer" and view.offer_by == 1 - self.seat:
            if view.refused_by == view.offer_by:
                return Accept()
            return Accept() if self.answer_accepts(view) else Refuse()
        if view.phase == "point":
            return self.point(view)
        raise PartnerError(f"seat {self.seat} has nothing to do in phase {view.phase!r}")

    def _may_offer(self, view: CoopView) -> bool:
        return view.offer_by is None and (view.refused_by is None or view.refused_by == self.seat)

    def wants_offer(self, view: CoopView) -> bool:
        """Offer when both beliefs are strong enough (Sherlock rules, CO-6).

        A refuser that must make the next offer also offers once few cards are
        left (its estimate rarely grows then)."""
        if not view.sherlock_rules:
            return False
        _cells, p = self.best_guess(view)
        q = self.partner_confidence(view)
        if p >= self.skill.offer_at and q >= self.skill.offer_partner_at:
            return True
        grid_left = sum(1 for c in range(GRID) if view.faces[c] is not None)
        return (view.refused_by == self.seat and p >= 0.5
                and grid_left <= 2 * view.partner_exhibits + 2)

    def answer_accepts(self, view: CoopView) -> bool:
        """Accept the partner's offer when its belief is at least ``accept_at``."""
        _cells, p = self.best_guess(view)
        return p >= self.skill.accept_at

    def point(self, view: CoopView) -> Point:
        """Point at the cell(s) it believes most."""
        cells, _p = self.best_guess(view)
        return Point(cells)

    def take_values(self, view: CoopView) -> dict[int, tuple[float, float]]:
        """For each position it may take: (risk it is the partner's, clue value).

        Clue value: log of the partner's belief in this seat's exhibit(s) after
        seeing that clue (higher = the partner will avoid them better)."""
        first = not view.takes
        legal = [p for p, f in enumerate(view.faces)
                 if f is not None and p not in view.own_cells and (not first or p in SIDE_POSITIONS)]
        marg = self.belief(view)
        sk = self.skill
        faces = [f if f is not None else 0 for f in view.faces]
        own = [faces[c] for c in view.own_cells]
        # the partner's reading of this seat's clues so far (cells: every grid card)
        cand = [p for p in range(GRID) if view.faces[p] is not None]
        past = clue_likelihoods(view, self.seat, self.table, sk.temperature, sk.decay, cand)
        base = {e: sum(w * logs[e] for w, logs in past) for e in cand}
        k_next = sum(1 for s, _p, _f in view.takes if s == self.seat)
        w_next = sk.decay ** k_next
        avail = [p for p in range(len(faces)) if view.faces[p] is not None and (not first or p in SIDE_POSITIONS)]
        out: dict[int, tuple[float, float]] = {}
        for pos in legal:
            clue = faces[pos]
            logw: dict[int, float] = {}
            for e in cand:
                if e == pos:
                    continue
                fe = faces[e]
                z = sum(math.exp(self.table.sim(faces[a], fe) / sk.temperature) for a in avail if a != e)
                logw[e] = base[e] + w_next * (self.table.sim(clue, fe) / sk.temperature - math.log(z))
            post = _normalise(logw)
            # each own exhibit must be protected: the mean of the logs (Mycroft: both)
            info = sum(math.log(max(post.get(c, 0.0), 1e-9)) for c in view.own_cells) / max(1, len(own))
            out[pos] = (marg.get(pos, 0.0), info)
        return out

    def choose_take(self, view: CoopView) -> Take:
        """The card to take: never one believed likely the partner's while a safer
        one exists; among the rest, the best clue for its own exhibit(s)."""
        values = self.take_values(view)
        if not values:
            raise PartnerError(f"seat {self.seat} has no card it may take")
        sk = self.skill
        safe = {p: v for p, v in values.items() if v[0] <= sk.max_risk}
        pool = safe if safe else {min(values, key=lambda p: (values[p][0], p)): values[min(values, key=lambda p: (values[p][0], p))]}

        first = not view.takes

        def score(p: int) -> float:
            risk, info = pool[p]
            noise = self.rng.gauss(0.0, sk.noise) if sk.noise else 0.0
            keep = sk.side_keep if (p in SIDE_POSITIONS and not first) else 0.0
            return info - sk.risk_weight * risk * 10 - keep + noise

        scored = {p: score(p) for p in sorted(pool)}
        return Take(max(scored, key=lambda p: (scored[p], -p)))


def play_out(state: CoopState, partners: "list[CoopPartner]", rng: random.Random) -> None:
    """Play ``state`` to its end with one computer partner per seat.

    Chance outcomes (deals) come from ``rng``; each partner sees only its own
    view.  Raises whatever ``State.apply`` raises for a faulty action (never
    expected).
    """
    from arcade.core.api import CHANCE
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(state.chance_outcome(rng))
            continue
        state.apply(partners[seat].act(state.view(seat)), seat)
