"""The computer partner of Focus (2023): plays by association.

Pure (standard library, injected ``random.Random``).  It sees only
``CoopState.view(seat)`` - its own marker(s), the table and the public order of
every take - never its partner's marker or pointing (CO-5, CO-6).

Reading the partner's clue file (Bayes over the grid cells, :func:`belief`):
    each clue in the file multiplies the belief of each candidate cell by its
    likelihood (:func:`clue_log`), raised to ``decay ** k`` for the k-th clue
    (0 = first: early clues say more, seed Tips).  The likelihood has two parts:

    * what the giver chose among the cards it could take then: a card with
      probability proportional to ``exp(sim(card, exhibit) / temperature)``,
      mixed with a uniform choice of weight ``slip`` (players also take cards
      for safety), so one weak later clue can never erase a strong early one;
      the cards it could take are those present then (the first card of a
      round from the side row only), less its own exhibit and less the
      reader's own card(s), which the giver skipped (the round went on) - so a
      card that fits the clue file better than the clues did, yet was never
      taken, gains belief, and the reader's card is no evidence against any;
    * what the clue calls to mind: an association above ``literal_from`` adds
      ``(sim - literal_from) / literal_temp`` (a clear first clue points at its
      card, as a person reads it).

    Calibration: a clue whose associations are all weak leaves the belief
    nearly flat (after one unrelated clue the favourite stays under 0.4), while
    a clear clue makes its card the strong favourite.  In Mycroft Mode a clue
    may be about either exhibit: the likelihood of a pair is the mean of the two.

Giving clues (taking a card, :meth:`CoopPartner.choose_take`):
    for every card it may take it weighs (a) the risk that the card is the
    partner's (its belief; side-row cards are safe) and (b) how strongly the
    partner would believe in the bot's own exhibit after seeing that clue (the
    same model, run from the partner's side).  A card whose risk is above
    ``max_risk``, or above ``risk_ratio`` times the mean belief, is never
    taken while a safer card exists, so the bot never takes a card its
    partner's clues have made clear.

Sherlock rules:
    with p its belief in its best guess and q its estimate of the partner's
    belief in its own card(s), pointing now is worth (p + q) / 2 of the cards
    left on average (both found: all; one found: half, seed).  It offers when
    that share reaches ``offer_at`` and q reaches ``offer_partner_at``, accepts
    an offer when p reaches ``accept_at`` (lower thresholds in Mycroft Mode,
    where waiting costs more), and points at the cell(s) it believes most.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Mapping, Sequence, TypeVar

from arcade.coop.game import GRID, SIDE_POSITIONS, Accept, CoopState, CoopView, Offer, Pass, Point, Refuse, Take
from arcade.coop.similarity import SimilarityTable, default_table
from arcade.core.api import Action
from arcade.core.errors import ArcadeError

if TYPE_CHECKING:
    from arcade.registry import GameSpec

K = TypeVar("K")


class PartnerError(ArcadeError, ValueError):
    """The partner was asked to act when it has nothing to do (names the phase)."""


@dataclass(frozen=True)
class PartnerSkill:
    """How the partner plays.

    Attributes:
        name: "easy", "medium", "hard" or "expert".
        temperature: how sharply a player is assumed to pick the most associated
            card (similarity units, 0..1; lower = sharper).
        floor: every card weighs at least ``exp(floor / temperature)`` in that
            choice (similarity 0..1): associations under it are noise.
        decay: weight of the k-th clue (0 = first) is ``decay ** k`` (early clues
            say more, seed Tips).
        slip: share of clues modelled as chosen for other reasons than the
            exhibit (safety, lack of a better card): bounds how much one later
            clue can count against a card (probability 0..1).
        literal_from, literal_temp: an association above ``literal_from`` adds
            ``(sim - literal_from) / literal_temp`` to the log-likelihood (what
            the clue calls to mind).
        max_risk, risk_ratio: never take a card whose belief of being (one of)
            the partner's exceeds ``max_risk`` or ``risk_ratio`` times the mean
            belief (per exhibit; the mean is 1 / candidate cells) while a safer
            card exists.
        risk_weight: how much risk (per exhibit) costs against clue value when
            choosing among the allowed cards.
        noise: random noise added to each card's value (easy players err).
        side_keep: cost of taking a side-row card after the first take (they are
            the risk-free clues, worth keeping for the end).
        offer_at, offer_partner_at, accept_at: Sherlock thresholds: the expected
            share of the cards left (p + q) / 2, the partner's belief q and its
            own belief p (probabilities 0..1).
        mycroft_offer_at, mycroft_offer_partner_at, mycroft_accept_at: the same
            in Mycroft Mode with Sherlock rules (beliefs about pairs of cards).
    """

    name: str
    temperature: float = 0.07
    floor: float = 0.0
    decay: float = 0.9
    slip: float = 0.2
    literal_from: float = 0.40
    literal_temp: float = 0.10
    max_risk: float = 0.15
    risk_ratio: float = 1.5
    risk_weight: float = 0.5
    noise: float = 0.0
    side_keep: float = 0.0
    offer_at: float = 0.50
    offer_partner_at: float = 0.30
    accept_at: float = 0.40
    mycroft_offer_at: float = 0.20
    mycroft_offer_partner_at: float = 0.05
    mycroft_accept_at: float = 0.10


SKILLS: Mapping[str, PartnerSkill] = {
    # tuned with bench/bench_coop.py and the partner-safety probes of
    # tests/test_coop_partner.py (see docs/rules-coop.md)
    "easy": PartnerSkill("easy", decay=0.8, noise=0.30, max_risk=0.30, risk_ratio=2.5, offer_at=0.40,
                         accept_at=0.30),
    "medium": PartnerSkill("medium", noise=0.06),
    "hard": PartnerSkill("hard", noise=0.02),
    "expert": PartnerSkill("expert", noise=0.0, max_risk=0.12, risk_ratio=1.3),
}


def partner_skill(name: "str | PartnerSkill") -> PartnerSkill:
    """The skill named ``name`` (a :class:`PartnerSkill` passes through); raises
    :class:`PartnerError` listing the names."""
    if isinstance(name, PartnerSkill):
        return name
    if name not in SKILLS:
        raise PartnerError(f"skill {name!r}: expected one of {list(SKILLS)}")
    return SKILLS[name]


def initial_faces(view: CoopView) -> list[int | None]:
    """The table as dealt this round: current faces plus the taken ones."""
    faces = list(view.faces)
    for _s, pos, face in view.takes:
        faces[pos] = face
    return faces


def clue_log(table: SimilarityTable, skill: PartnerSkill, clue: int, faces: Sequence[int | None],
             avail: Sequence[int], candidates: Sequence[int]) -> dict[int, float]:
    """log P(the giver takes face ``clue`` | its exhibit is at cell e) for each e.

    The giver is modelled as taking, among the positions ``avail`` (less e,
    its own card), a card with probability proportional to
    ``exp(sim/T) + exp(floor/T)`` (associations under ``floor`` are noise),
    mixed with a uniform choice of weight ``slip``.

    Args:
        faces: the face at each position (``faces[e]`` for every candidate e).
        avail: positions the giver could take at that moment.
        candidates: cells for which the likelihood is wanted.
    """
    t = skill.temperature
    u = math.exp(skill.floor / t)
    out: dict[int, float] = {}
    rows = table.rows                      # table.similarity(a, b) is rows[a][b]; read inline (hot loop)
    exp = math.exp
    taken = [faces[a] for a in avail]
    if None in taken:
        raise ValueError(f"a position of avail {list(avail)} has no face")
    for e in candidates:
        fe = faces[e]
        if fe is None:
            raise ValueError(f"candidate cell {e} has no face")
        n = 0
        z = 0.0
        for a, fa in zip(avail, taken):
            if a == e:
                continue
            z += exp(rows[fa][fe] / t) + u  # type: ignore[index]
            n += 1
        if n == 0:
            out[e] = 0.0
            continue
        s = rows[clue][fe]
        p = (math.exp(s / t) + u) / z
        out[e] = math.log((1.0 - skill.slip) * p + skill.slip / n)
        if s > skill.literal_from:
            out[e] += (s - skill.literal_from) / skill.literal_temp
    return out


def clue_likelihoods(view: CoopView, giver: int, table: SimilarityTable, skill: PartnerSkill,
                     candidates: list[int], skip: tuple[int, ...] = ()) -> list[tuple[float, dict[int, float]]]:
    """For each clue of ``giver`` this round: (weight, {cell: log-likelihood}).

    The k-th clue (0 = first) weighs ``decay ** k``.  What the giver could take
    then: the cards present at that moment (the first card of a round from the
    side row only), less ``skip`` (cells the reader knows the giver did not take
    because they are the reader's: the round went on) and less the candidate
    itself (one's own exhibit cannot be taken).  A card that fits the clue file
    better than the clues did, yet was skipped, therefore gains belief.
    """
    dealt = initial_faces(view)
    present = [f is not None for f in dealt]
    out: list[tuple[float, dict[int, float]]] = []
    k = 0
    for n, (seat, pos, face) in enumerate(view.takes):
        if seat == giver:
            avail = [p for p in range(len(dealt)) if present[p] and p not in skip
                     and (n > 0 or p in SIDE_POSITIONS)]
            out.append((skill.decay ** k, clue_log(table, skill, face, dealt, avail, candidates)))
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

    When the viewer reads its partner, its own cells are also left out of what
    the partner could take (:func:`clue_likelihoods` ``skip``): the partner
    skipped them, so they are no evidence against any candidate.

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
    skip = tuple(view.own_cells) if giver == view.partner else ()
    clues = clue_likelihoods(view, giver, table, skill, cand, skip)
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
        """Estimate of the partner's belief that this seat's exhibit(s) are where
        they are (Mycroft: both at once), from this seat's clues as the partner
        sees them (0..1)."""
        if not view.own_cells:
            return 0.0
        _marg, joint = belief(view, self.table, self.skill, giver=self.seat, exclude=(),
                              exhibits=len(view.own_cells))
        return joint.get(tuple(sorted(view.own_cells)), 0.0)

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

    def _thresholds(self, view: CoopView) -> tuple[float, float, float]:
        sk = self.skill
        if view.partner_exhibits > 1:
            return sk.mycroft_offer_at, sk.mycroft_offer_partner_at, sk.mycroft_accept_at
        return sk.offer_at, sk.offer_partner_at, sk.accept_at

    def wants_offer(self, view: CoopView) -> bool:
        """Offer when the expected share of the cards left is high enough and the
        partner's belief in its card at least ``offer_partner_at`` (Sherlock
        rules, CO-6; Mycroft has its own, lower thresholds: waiting costs more
        there, every take may hit one of four exhibits).

        A refuser that must make the next offer also offers once few cards are
        left (its estimate rarely grows then)."""
        if not view.sherlock_rules:
            return False
        offer_at, partner_at, _accept = self._thresholds(view)
        _cells, p = self.best_guess(view)
        q = self.partner_confidence(view)
        if (p + q) / 2 >= offer_at and q >= partner_at:
            return True
        grid_left = sum(1 for c in range(GRID) if view.faces[c] is not None)
        return (view.refused_by == self.seat and p >= 0.5
                and grid_left <= 2 * view.partner_exhibits + 2)

    def answer_accepts(self, view: CoopView) -> bool:
        """Accept the partner's offer when its belief is at least ``accept_at``."""
        _offer, _partner, accept_at = self._thresholds(view)
        _cells, p = self.best_guess(view)
        return p >= accept_at

    def point(self, view: CoopView) -> Point:
        """Point at the cell(s) it believes most."""
        cells, _p = self.best_guess(view)
        return Point(cells)

    def take_values(self, view: CoopView) -> dict[int, tuple[float, float]]:
        """For each position it may take: (risk it is the partner's, clue value).

        Clue value: log of the partner's belief in this seat's exhibit(s) after
        seeing that clue (higher = the partner will avoid them better), with the
        partner's reading modelled as this seat's own (:func:`clue_log`)."""
        first = not view.takes
        legal = [p for p, f in enumerate(view.faces)
                 if f is not None and p not in view.own_cells and (not first or p in SIDE_POSITIONS)]
        marg = self.belief(view)
        sk = self.skill
        faces = list(view.faces)
        # the partner's reading of this seat's clues so far (cells: every grid card)
        cand = [p for p in range(GRID) if view.faces[p] is not None]
        past = clue_likelihoods(view, self.seat, self.table, sk, cand)
        base = {e: sum(w * logs[e] for w, logs in past) for e in cand}
        k_next = sum(1 for s, _p, _f in view.takes if s == self.seat)
        w_next = sk.decay ** k_next
        avail = [p for p in range(len(faces)) if view.faces[p] is not None and (not first or p in SIDE_POSITIONS)]
        out: dict[int, tuple[float, float]] = {}
        for pos in legal:
            clue = faces[pos]
            assert clue is not None
            rest = [e for e in cand if e != pos]
            logs = clue_log(self.table, sk, clue, faces, avail, rest)
            post = _normalise({e: base[e] + w_next * logs[e] for e in rest})
            # each own exhibit must be protected: the mean of the logs (Mycroft: both)
            info = sum(math.log(max(post.get(c, 0.0), 1e-9)) for c in view.own_cells) / max(1, len(view.own_cells))
            out[pos] = (marg.get(pos, 0.0), info)
        return out

    def choose_take(self, view: CoopView) -> Take:
        """The card to take: never one believed likely the partner's while a safer
        one exists (belief above ``max_risk`` or ``risk_ratio`` times the mean);
        among the rest, the best clue for its own exhibit(s) less its risk."""
        values = self.take_values(view)
        if not values:
            raise PartnerError(f"seat {self.seat} has no card it may take")
        sk = self.skill
        cand = sum(1 for c in range(GRID) if view.faces[c] is not None and c not in view.own_cells)
        k = view.partner_exhibits
        limit = k * min(sk.max_risk, sk.risk_ratio / max(1, cand))
        pool = {p: v for p, v in values.items() if v[0] <= limit}
        if not pool:
            least = min(v[0] for v in values.values())
            pool = {p: v for p, v in values.items() if v[0] <= least + 1e-12}
        first = not view.takes

        def score(p: int) -> float:
            risk, info = pool[p]
            noise = self.rng.gauss(0.0, sk.noise) if sk.noise else 0.0
            keep = sk.side_keep if (p in SIDE_POSITIONS and not first) else 0.0
            return info - sk.risk_weight * 10 * risk / k - keep + noise

        scored = {p: score(p) for p in sorted(pool)}
        return Take(max(scored, key=lambda p: (scored[p], -p)))


def play_out(spec: GameSpec, state: CoopState, partners: "list[CoopPartner]", rng: random.Random) -> None:
    """Play ``state``, a game of the registry entry ``spec`` (``coop-base``...), to its end
    with one computer partner per seat.

    Chance outcomes (deals) come from ``rng``; each partner sees only its own
    view.  The loop is the match driver's (:class:`arcade.core.driver.Driver`).
    Raises whatever ``State.apply`` raises for a faulty action (never expected).
    """
    from arcade.coop.house import CoopPlayer, driver
    driver(spec, state, [CoopPlayer(p) for p in partners], rng).run_to_end()
