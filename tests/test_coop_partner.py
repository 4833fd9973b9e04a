"""The computer partner of Focus (2023) and its association table."""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path

import pytest

from arcade import registry
from arcade.bots.coop import SKILLS, CoopPartner, PartnerError, belief, play_out
from arcade.coop.exhibits import EXHIBITS, FACES
from arcade.coop.game import GRID, SIDE_POSITIONS, Accept, CoopGame, CoopState, Deal, Offer, Pass, Point, Refuse, Take
from arcade.coop.similarity import (
    DATA_FILE,
    SimilarityError,
    SimilarityTable,
    decode_pairs,
    default_table,
    load_table,
    tag_table,
)
from arcade.core.api import CHANCE

FACES20 = tuple(range(1, 40, 2))


def synthetic(pairs: dict[tuple[int, int], float], base: float = 0.1) -> SimilarityTable:
    m = [[base] * FACES for _ in range(FACES)]
    for (a, b), v in pairs.items():
        m[a - 1][b - 1] = m[b - 1][a - 1] = v
    return SimilarityTable.from_rows(m, "test")


# ---------------------------------------------------------------- the shipped table
def test_shipped_table_is_small_complete_and_from_the_model() -> None:
    raw = json.loads(DATA_FILE.read_text())
    assert DATA_FILE.stat().st_size < 64_000
    assert raw["faces"] == 168 and "MiniLM" in raw["model"]
    assert len(base64.b64decode(raw["pairs"])) == 168 * 167 // 2
    t = load_table()
    assert t.faces == 168
    vals = [t.similarity(a, b) for a in range(1, 169) for b in range(a + 1, 169)]
    assert min(vals) == 0.0 and max(vals) == 1.0
    assert all(t.similarity(a, b) == t.similarity(b, a) for a in (1, 50, 168) for b in range(1, 169))


def test_shipped_table_associates_like_a_person_would() -> None:
    t = default_table()
    by_name = {e.name: f for f, e in EXHIBITS.items()}

    def s(a: str, b: str) -> float:
        return t.similarity(by_name[a], by_name[b])

    assert s("smoking pipe", "cigar") > s("smoking pipe", "apple")
    assert s("sailing boat", "rowing boat") > s("sailing boat", "piano")
    assert s("top hat", "bowler hat") > s("top hat", "anchor")
    assert s("orange", "five orange pips") > s("orange", "typewriter")
    assert by_name["cigar"] in t.nearest(by_name["smoking pipe"], 3)


def test_table_errors_are_clear(tmp_path: Path) -> None:
    bad = tmp_path / "s.json"
    bad.write_text("{}")
    with pytest.raises(SimilarityError, match="not a"):
        load_table(bad)
    with pytest.raises(SimilarityError, match="no such file"):
        load_table(tmp_path / "missing.json")
    with pytest.raises(SimilarityError, match="expected"):
        decode_pairs(b"\x00" * 5, 168)
    with pytest.raises(SimilarityError, match="symmetric"):
        SimilarityTable.from_rows([[1.0, 0.2], [0.3, 1.0]])
    assert tag_table().similarity(1, 1) == 1.0


# ---------------------------------------------------------------- reading clues
def state_with(takes: list[tuple[int, int]], markers: tuple[tuple[int, ...], ...] = ((5,), (10,)),
               mode: str = "base", first: int = 0, faces: tuple[int, ...] = FACES20) -> CoopState:
    state = CoopGame(2, {"mode": mode}).new_initial_state()
    state.apply(Deal(faces, markers, first))
    for seat, pos in takes:
        if state.phase == "end" and state.active != seat:
            state.apply(Pass(), state.active)
        state.apply(Take(pos), seat)
    if state.phase == "end":
        state.apply(Pass(), state.active)
    return state


def test_partner_reads_the_clue_file_and_early_clues_say_more() -> None:
    a_cell, b_cell = 3, 7
    a, b = FACES20[a_cell], FACES20[b_cell]
    clue1, clue2 = FACES20[16], FACES20[17]
    table = synthetic({(clue1, a): 0.9, (clue2, b): 0.9})
    # P1 (seat 0) took clue1 first, then clue2; P2 reads the file
    state = state_with([(0, 16), (1, 18), (0, 17)], markers=((a_cell,), (12,)))
    bot = CoopPartner(1, table=table)
    marg = bot.belief(state.view(1))
    # the first clue was the partner's best association: its card leads clearly, and
    # the card of the later clue is doubted (it would have been taken first)
    assert marg[a_cell] >= 0.6 and marg[a_cell] > 2 * max(v for c, v in marg.items() if c != a_cell)
    assert marg[a_cell] > marg[b_cell]
    # the same clues in the other order point the other way
    state2 = state_with([(0, 17), (1, 18), (0, 16)], markers=((a_cell,), (12,)))
    marg2 = bot.belief(state2.view(1))
    assert marg2[b_cell] == max(marg2.values()) and marg2[b_cell] > marg2[a_cell]


def test_partner_never_takes_its_partners_card_when_the_clues_make_it_clear_synthetic() -> None:
    """The clue strongly calls the partner's exhibit to mind: the bot avoids it,
    even when it is down to that card and one other."""
    human_cell = 6
    human_face = FACES20[human_cell]
    clue = FACES20[16]
    table = synthetic({(clue, human_face): 0.95})
    bot_cell = 9
    takes = [(0, 16)]
    others = [p for p in range(GRID) if p not in (human_cell, bot_cell)]
    state = state_with(takes, markers=((human_cell,), (bot_cell,)))
    bot = CoopPartner(1, "medium", table=table)
    seat = 1
    while not state.is_terminal():
        if state.current_player() == seat:
            action = bot.act(state.view(seat))
            assert not (isinstance(action, Take) and action.pos == human_cell)
            state.apply(action, seat)
        else:                                  # the human takes the other grid cards in order
            pos = next(p for p in others if state.faces[p] is not None)
            state.apply(Take(pos), 0)
    assert state.outcome() is not None and state.outcome().winners == (0, 1)  # type: ignore[union-attr]


def test_partner_never_takes_the_card_a_humans_clues_point_to_shipped_table() -> None:
    """With the shipped table: the human (seat 0) takes, in order, the cards that
    call its exhibit to mind most; whenever that makes the exhibit the clear
    favourite (the cell the clues fit best among the grid), the partner's next
    take is never that card."""
    table = default_table()
    checked = 0
    for k in range(60):
        rng = random.Random(k)
        exhibit_face = rng.randrange(1, FACES + 1)
        near = [f for f in table.nearest(exhibit_face, 12) if (f + 1) // 2 != (exhibit_face + 1) // 2]
        clues = []
        for f in near:
            if len(clues) == 3:
                break
            if all((f + 1) // 2 != (c + 1) // 2 for c in clues):
                clues.append(f)
        pool = [f for f in range(1, FACES + 1)
                if (f + 1) // 2 not in {(g + 1) // 2 for g in clues + [exhibit_face]}]
        rng.shuffle(pool)
        fill: list[int] = []
        for f in pool:
            if all((f + 1) // 2 != (g + 1) // 2 for g in fill):
                fill.append(f)
            if len(fill) == 16:
                break
        human_cell, bot_cell = 5, 10
        grid = fill[:14]
        grid.insert(human_cell, exhibit_face)
        grid.insert(bot_cell, fill[14])
        faces = tuple(grid[:16]) + (clues[0], fill[15], clues[1], clues[2])
        # the human's clues: side 16, then (after the bot's side 17) side 18, then side 19
        state = state_with([(0, 16)], markers=((human_cell,), (bot_cell,)), faces=faces)
        bot = CoopPartner(1, "medium", table=table)
        state.apply(bot.act(state.view(1)), 1)
        for pos in (18, 19):
            if state.is_terminal() or state.faces[pos] is None:
                break
            state.apply(Take(pos), 0)
            if state.is_terminal():
                break
            view = state.view(1)
            fit = {c: sum(table.similarity(f, state.faces[c]) for f in state.clues(0))  # type: ignore[arg-type]
                   for c in range(GRID) if state.faces[c] is not None and c != bot_cell}
            clear = max(fit, key=lambda c: fit[c]) == human_cell
            action = bot.act(view)
            if clear:
                checked += 1
                assert action != Take(human_cell), f"deal {k}: took the exhibit the clues point to"
            state.apply(action, 1)
    assert checked >= 30


def test_partner_gives_clues_by_association_with_its_own_exhibit() -> None:
    bot_cell = 9
    own = FACES20[bot_cell]
    near_side = FACES20[18]
    table = synthetic({(near_side, own): 0.9})
    state = state_with([], markers=((2,), (bot_cell,)), first=1)
    take = CoopPartner(1, "expert", table=table).act(state.view(1))
    assert take == Take(18)


def test_partner_offers_accepts_and_points_when_its_belief_is_strong() -> None:
    human_cell, bot_cell = 6, 9
    hf, bf = FACES20[human_cell], FACES20[bot_cell]
    table = synthetic({(FACES20[0], hf): 0.95, (FACES20[2], hf): 0.95, (FACES20[1], bf): 0.95})
    state = state_with([(0, 16), (1, 17), (0, 0), (1, 1)], markers=((human_cell,), (bot_cell,)), mode="sherlock")
    state.apply(Take(2), 0)                  # the human's second clue, then its offer
    bot = CoopPartner(1, "medium", table=table)
    cells, p = bot.best_guess(state.view(1))
    assert cells == (human_cell,) and p > 0.7 > bot.skill.accept_at
    state.apply(Offer(), 0)
    assert bot.act(state.view(1)) == Accept()
    state.apply(Accept(), 1)
    assert bot.act(state.view(1)) == Point((human_cell,))
    # with no clue at all it neither offers nor accepts
    blank = state_with([], markers=((human_cell,), (bot_cell,)), mode="sherlock", first=0)
    blank.apply(Offer(), 0)
    assert bot.act(blank.view(1)) == Refuse()


def test_partner_refuses_nothing_it_must_accept_and_complains_when_idle() -> None:
    state = state_with([(0, 16)], markers=((6,), (9,)), mode="sherlock")
    state.apply(Offer(), 1)
    state.apply(Refuse(), 0)
    bot0 = CoopPartner(0, "medium", table=tag_table())
    with pytest.raises(PartnerError, match="nothing to do"):
        bot0.act(state.view(0))
    with pytest.raises(PartnerError):
        CoopPartner(2)
    with pytest.raises(PartnerError):
        CoopPartner(0, "genius")


@pytest.mark.parametrize("mode", ["base", "sherlock", "mycroft", "mycroft-sherlock"])
def test_two_partners_finish_every_mode_legally(mode: str) -> None:
    wins = 0
    for k in range(12):
        state = CoopGame(2, {"mode": mode}).new_initial_state()
        play_out(registry.get(f"coop-{mode}"), state,
                 [CoopPartner(0, rng=random.Random(k)), CoopPartner(1, rng=random.Random(-k))],
                 random.Random(k))
        out = state.outcome()
        assert out is not None
        wins += bool(out.winners)
    if mode in ("base", "sherlock"):
        assert wins >= 6            # far above chance; bench/bench_coop.py has the figures


def test_skills_are_ordered_by_care() -> None:
    assert SKILLS["easy"].noise > SKILLS["medium"].noise >= SKILLS["hard"].noise >= SKILLS["expert"].noise
    assert set(SKILLS) == {"easy", "medium", "hard", "expert"}


def test_belief_sums_to_the_number_of_exhibits() -> None:
    state = state_with([(0, 16), (1, 17), (0, 2)], markers=((0, 1), (14, 15)), mode="mycroft")
    marg, joint = belief(state.view(1), default_table(), SKILLS["medium"])
    assert abs(sum(marg.values()) - 2.0) < 1e-9 and abs(sum(joint.values()) - 1.0) < 1e-9
    assert 14 not in marg and 15 not in marg and 2 not in marg
    assert all(p not in marg for p in SIDE_POSITIONS)


# ---------------------------------------------------------------- D1: the partner's reading
NAMES = {e.name: f for f, e in EXHIBITS.items()}


def test_D1_seed94_a_clear_first_clue_keeps_its_weight_and_the_orange_is_never_taken() -> None:
    """Seed 94 (base game): the human's exhibit is the orange; its clues are apple
    (clear), fish, butterfly, newspaper advert (ever weaker).  The partner's belief
    in the orange must stay high and it must never take the orange."""
    state = CoopGame(2, {"mode": "base"}).new_initial_state()
    state.apply(state.chance_outcome(random.Random(94)))
    orange = state.markers[0][0]
    assert state.faces[orange] == NAMES["orange"] and state.current_player() == 0
    bot = CoopPartner(1, "medium", rng=random.Random(94))
    beliefs = []
    for clue in ("apple", "fish", "butterfly", "newspaper advert"):
        state.apply(Take(state.faces.index(NAMES[clue])), 0)
        view = state.view(1)
        beliefs.append(bot.belief(view)[orange])
        action = bot.act(view)
        assert action != Take(orange), f"after {clue!r} the partner took the human's orange"
        state.apply(action, 1)
        assert not state.is_terminal()
    assert beliefs[0] >= 0.5, "a clear first clue (apple) makes the orange the favourite"
    assert min(beliefs[1:]) >= beliefs[0], "later, weaker clues never erase it"


def teapot_state() -> CoopState:
    """The tester's table: the partner took a side card, then the human took the
    teapot from the grid, a clue that calls nothing on the table strongly to mind."""
    grid = ["teapot", "hammer", "bonnet", "old manuscript", "poisoned thorn", "butterfly", "cigar", "tape measure",
            "phosphorus tin", "mysterious letter", "drum", "banknote", "cricket bat", "map of the four",
            "loaf of bread", "orange"]
    side = ["chess knight", "Agra diamonds", "bowler hat", "police constable"]
    state = CoopGame(2, {"mode": "sherlock"}).new_initial_state()
    state.apply(Deal(tuple(NAMES[x] for x in grid + side), ((4,), (7,)), 1))
    state.apply(Take(19), 1)
    state.apply(Pass(), 1)
    state.apply(Take(0), 0)                 # the end of the human's turn (it may offer now)
    return state


def test_D1_one_unrelated_clue_gives_a_weak_belief_and_no_pointing() -> None:
    """After one weak clue the partner's favourite stays a long shot (it was 0.886
    once), so it refuses to point when the human offers at the end of that turn."""
    state = teapot_state()
    table = default_table()
    teapot = NAMES["teapot"]
    assert max(table.similarity(teapot, f) for f in state.faces if f is not None) < 0.4     # truly weak
    bot = CoopPartner(1, "medium")
    assert max(bot.belief(state.view(1)).values()) < 0.45
    state.apply(Offer(), 0)
    assert bot.act(state.view(1)) == Refuse()


def test_D1_a_clear_single_clue_gives_a_strong_belief() -> None:
    """The other side of the calibration: apple calls the orange to mind."""
    state = CoopGame(2, {"mode": "base"}).new_initial_state()
    state.apply(state.chance_outcome(random.Random(94)))
    state.apply(Take(state.faces.index(NAMES["apple"])), 0)
    marg = CoopPartner(1, "medium").belief(state.view(1))
    assert max(marg, key=lambda c: marg[c]) == state.markers[0][0] and marg[state.markers[0][0]] >= 0.5


def test_D1_a_card_the_human_skipped_because_it_is_the_partners_is_no_evidence() -> None:
    """The human's exhibit H calls the partner's own card B to mind most, but the
    human never took B (it was the partner's: the round went on).  That must not
    count against H: H stays ahead of a look-alike X and is never taken."""
    human_cell, bot_cell, x_cell = 6, 9, 2
    h, b, x = FACES20[human_cell], FACES20[bot_cell], FACES20[x_cell]
    c1, c2 = FACES20[16], FACES20[0]
    table = synthetic({(h, b): 0.9, (c1, h): 0.55, (c1, x): 0.5, (c2, h): 0.5, (c2, x): 0.5})
    state = state_with([(0, 16), (1, 18), (0, 0)], markers=((human_cell,), (bot_cell,)))
    bot = CoopPartner(1, "medium", table=table)
    marg = bot.belief(state.view(1))
    assert marg[human_cell] > marg[x_cell]
    assert bot.act(state.view(1)) != Take(human_cell)


def _round_until_first_human_clue(seed: int, mode: str, table: object) -> tuple[CoopState, CoopPartner, bool]:
    """Deal ``seed``; the partner (seat 1) plays, the human (seat 0) takes the card
    that calls its exhibit most to mind (avoiding the partner's card, as a good
    partner does).  Stops after the human's first clue: is it clear?"""
    state = CoopGame(2, {"mode": mode}).new_initial_state()
    state.apply(state.chance_outcome(random.Random(seed)))
    bot = CoopPartner(1, "medium", rng=random.Random(seed))
    while True:
        if state.current_player() == CHANCE or state.is_terminal():
            return state, bot, False                 # the round ended before the human's first clue
        if state.current_player() == 1:
            state.apply(bot.act(state.view(1)), 1)
            continue
        if state.phase != "take":
            state.apply(state.legal_actions(0)[0], 0)
            continue
        best = _human_pick(state, table)
        clue = state.faces[best]
        mine = state.markers[0][0]
        grid = [c for c in range(GRID) if state.faces[c] is not None and c not in state.markers[1]]
        ranked = sorted(grid, key=lambda c: -table.similarity(clue, state.faces[c]))  # type: ignore[attr-defined]
        top, second = (table.similarity(clue, state.faces[c]) for c in ranked[:2])  # type: ignore[attr-defined]
        state.apply(Take(best), 0)
        return state, bot, ranked[0] == mine and top >= 0.5 and top - second >= 0.1


def _human_pick(state: CoopState, table: object) -> int:
    mine = state.markers[0]
    legal = [a.pos for a in state.legal_actions(0) if isinstance(a, Take) and a.pos not in state.markers[1]]
    return max(legal, key=lambda q: (max(table.similarity(state.faces[q], state.faces[m]) for m in mine), -q))  # type: ignore[attr-defined]


@pytest.mark.parametrize("mode", ["base", "sherlock"])
def test_D1_partner_never_takes_the_humans_card_after_a_clear_first_clue_many_deals(mode: str) -> None:
    """The tester's clear_probe over many deals: when the human's first clue calls
    its own exhibit to mind clearly (the best match on the table, similarity at
    least 0.5 and 0.1 above the next), the partner never takes that exhibit in the
    round, whatever the human takes later."""
    table = default_table()
    clear = 0
    for seed in range(3000):
        state, bot, is_clear = _round_until_first_human_clue(seed, mode, table)
        if not is_clear:
            continue
        clear += 1
        human = state.markers[0][0]
        while not state.is_terminal() and state.current_player() != CHANCE:
            seat = state.current_player()
            if seat == 1:
                action = bot.act(state.view(1))
                assert action != Take(human), f"deal {seed}: the partner took the human's exhibit"
            elif state.phase == "take":
                action = Take(_human_pick(state, table))
            else:
                action = state.legal_actions(0)[0]
            state.apply(action, seat)
    assert clear >= 50, f"only {clear} deals with a clear first clue: the probe says too little"


def test_mycroft_sherlock_partners_point_before_they_take_a_partners_card() -> None:
    """Mycroft Mode with Sherlock rules: two partners used to take a partner's card
    in 82% of rounds; offering when pointing is worth it keeps that rare."""
    rounds = taken = 0
    for k in range(16):
        state = CoopGame(2, {"mode": "mycroft-sherlock"}).new_initial_state()
        play_out(registry.get("coop-mycroft-sherlock"), state,
                 [CoopPartner(s, rng=random.Random(f"{k}-{s}")) for s in (0, 1)], random.Random(k))
        rounds += len(state.results)
        taken += sum(1 for r in state.results if r.lost_by is not None)
    assert taken / rounds < 0.45
