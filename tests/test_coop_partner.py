"""The computer partner of Focus (2023) and its association table."""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path

import pytest

from arcade.bots.coop import SKILLS, CoopPartner, PartnerError, belief, play_out
from arcade.coop.exhibits import EXHIBITS, FACES
from arcade.coop.game import GRID, SIDE_POSITIONS, Accept, CoopGame, CoopState, Deal, Offer, Pass, Point, Refuse, Take
from arcade.coop.similarity import (DATA_FILE, SimilarityError, SimilarityTable, decode_pairs, default_table,
                                    load_table, tag_table)

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
    vals = [t.sim(a, b) for a in range(1, 169) for b in range(a + 1, 169)]
    assert min(vals) == 0.0 and max(vals) == 1.0
    assert all(t.sim(a, b) == t.sim(b, a) for a in (1, 50, 168) for b in range(1, 169))


def test_shipped_table_associates_like_a_person_would() -> None:
    t = default_table()
    by_name = {e.name: f for f, e in EXHIBITS.items()}

    def s(a: str, b: str) -> float:
        return t.sim(by_name[a], by_name[b])

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
    assert tag_table().sim(1, 1) == 1.0


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
    # the first clue was the partner's best association: its card leads, and the
    # card of the later clue is doubted (it would have been taken first)
    assert marg[a_cell] > 3 * max(v for c, v in marg.items() if c != a_cell)
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
            fit = {c: sum(table.sim(f, state.faces[c]) for f in state.clues(0))  # type: ignore[arg-type]
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
        play_out(state, [CoopPartner(0, rng=random.Random(k)), CoopPartner(1, rng=random.Random(-k))],
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
