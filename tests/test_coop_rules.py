"""Focus (2023) rules: the exhibits (CO-1), markers (CO-2), taking (CO-3), the win
(CO-4), what each seat may see (CO-5 at the rule level), Sherlock Mode (CO-6),
the seed's scoring example, the four case lists, records and the headless runner.
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from arcade import registry as games
from arcade.coop.exhibits import CARDS, CASES, EXHIBITS, FACES, ExhibitError, card_faces, case_faces, exhibit
from arcade.coop.game import (
    GRID,
    SIDE_POSITIONS,
    Accept,
    CoopGame,
    CoopState,
    Deal,
    Offer,
    Pass,
    Point,
    Refuse,
    Take,
    cell_name,
    rating,
)
from arcade.core.api import CHANCE, TERMINAL
from arcade.core.errors import ArcadeError, IllegalActionError, SettingsError
from arcade.core.record import replay, to_record

SEED_FILE = Path("/work/shared/seeds/000_27d490c7c429b1c9.txt")

#: The case lists as the seed prints them ("The cases").
SEED_CASES = {
    "scarlet": (13, 16, 19, 21, 28, 32, 45, 53, 55, 60, 61, 63, 89, 96, 97, 124, 136, 144, 159, 165),
    "sign": (10, 17, 35, 39, 49, 51, 57, 71, 75, 81, 91, 93, 111, 115, 127, 131, 135, 147, 153, 166),
    "pips": (1, 3, 23, 33, 36, 42, 43, 50, 64, 65, 83, 87, 120, 126, 128, 130, 141, 158, 163, 168),
    "hound": (5, 8, 12, 26, 30, 41, 67, 69, 73, 77, 79, 99, 101, 103, 119, 125, 137, 145, 149, 157),
}

# A fixed table: faces 1..20 ... use 20 faces on 20 different cards (odd faces 1..39).
FACES20 = tuple(range(1, 40, 2))


def dealt(mode: str = "base", markers: tuple[tuple[int, ...], ...] = ((5,), (10,)), first: int = 0,
          case: str = "", faces: tuple[int, ...] = FACES20) -> CoopState:
    state = CoopGame(2, {"mode": mode, "case": case}).new_initial_state()
    state.apply(Deal(faces, markers, first))
    return state


def take(state: CoopState, pos: int) -> None:
    state.apply(Take(pos), state.current_player())


def play_takes(state: CoopState, order: list[int]) -> None:
    """Alternate takes in ``order`` (Sherlock rules: each taker passes)."""
    for pos in order:
        seat = state.current_player()
        state.apply(Take(pos), seat)
        if state.phase == "end":
            state.apply(Pass(), seat)


# ---------------------------------------------------------------- CO-1 exhibits
def test_CO1_168_faces_on_84_cards_card_n_is_faces_2n_minus_1_and_2n() -> None:
    assert len(EXHIBITS) == FACES == 168 and CARDS == 84
    for n in range(1, CARDS + 1):
        a, b = card_faces(n)
        assert (a, b) == (2 * n - 1, 2 * n)
        assert exhibit(a).card == exhibit(b).card == n
        assert exhibit(a).other_face == b and exhibit(b).other_face == a
    names = [e.name for e in EXHIBITS.values()]
    assert len(set(names)) == 168, "every face shows a different exhibit"
    for e in EXHIBITS.values():
        assert 3 <= len(e.tags) <= 5 and all(t == t.lower() for t in e.tags)
    with pytest.raises(ExhibitError):
        exhibit(169)
    with pytest.raises(ArcadeError):
        card_faces(0)


def test_CO1_no_case_needs_both_faces_of_one_card() -> None:
    for key in CASES:
        cards = [exhibit(f).card for f in case_faces(key)]
        assert len(set(cards)) == 20, key


def test_CO1_case_faces_show_objects_of_their_story() -> None:
    for key, faces in SEED_CASES.items():
        assert all(exhibit(f).case == key for f in faces)
    others = [e for e in EXHIBITS.values() if not e.case]
    assert len(others) == 168 - 80


def test_CO1_a_deal_never_shows_both_faces_of_one_card() -> None:
    for k in range(200):
        state = CoopGame(2).new_initial_state()
        state.resolve_chance(random.Random(k))
        cards = [exhibit(f).card for f in state.faces if f is not None]
        assert len(cards) == 20 and len(set(cards)) == 20
    state = CoopGame(2).new_initial_state()
    with pytest.raises(IllegalActionError, match="CO-1"):
        state.apply(Deal((1, 2) + FACES20[2:], ((5,), (10,)), 0))


def test_CO1_deals_flip_cards_so_both_faces_appear() -> None:
    seen_odd = seen_even = 0
    for k in range(50):
        state = CoopGame(2).new_initial_state()
        state.resolve_chance(random.Random(k))
        seen_odd += sum(1 for f in state.faces if f and f % 2)
        seen_even += sum(1 for f in state.faces if f and not f % 2)
    assert seen_odd > 300 and seen_even > 300


# ---------------------------------------------------------------- the four case lists
def test_case_lists_are_the_seed_lists() -> None:
    for key, faces in SEED_CASES.items():
        assert case_faces(key) == faces
    assert {CASES[k][0] for k in CASES} == {"A Study in Scarlet", "The Sign of the Four",
                                           "The Five Orange Pips", "The Hound of the Baskervilles"}


@pytest.mark.skipif(not SEED_FILE.exists(), reason="the shared seed file is not beside this checkout")
def test_case_lists_match_the_seed_file_text() -> None:
    text = SEED_FILE.read_text()
    for _key, (title, faces) in CASES.items():
        m = re.search(re.escape(title) + r"\s*\nCard no\. ([\d, ]+)", text)
        assert m, title
        assert tuple(int(x) for x in m.group(1).split(",")) == faces


@pytest.mark.parametrize("case", sorted(SEED_CASES))
def test_case_game_lays_exactly_the_case_faces(case: str) -> None:
    for k in range(5):
        state = CoopGame(2, {"case": case}).new_initial_state()
        state.resolve_chance(random.Random(k))
        assert sorted(f for f in state.faces if f) == sorted(SEED_CASES[case])
    state = CoopGame(2, {"case": case}).new_initial_state()
    with pytest.raises(IllegalActionError, match="case"):
        state.apply(Deal(FACES20, ((5,), (10,)), 0))


# ---------------------------------------------------------------- CO-2 markers
def test_CO2_markers_are_different_grid_cells_side_row_is_top() -> None:
    for k in range(300):
        for mode in ("base", "mycroft"):
            state = CoopGame(2, {"mode": mode}).new_initial_state()
            state.resolve_chance(random.Random(k))
            cells = [c for m in state.markers for c in m]
            assert len(set(cells)) == len(cells) == (4 if mode == "mycroft" else 2)
            assert all(0 <= c < GRID for c in cells)
    state = CoopGame(2).new_initial_state()
    with pytest.raises(IllegalActionError, match="CO-2"):
        state.apply(Deal(FACES20, ((5,), (5,)), 0))
    with pytest.raises(IllegalActionError, match="CO-2"):
        state.apply(Deal(FACES20, ((5,), (17,)), 0))      # a side-row position is no marker
    # row A is the grid row next to the side row ("top")
    assert [cell_name(p) for p in (0, 3, 12, 15, 16)] == ["A1", "A4", "D1", "D4", "side 1"]


# ---------------------------------------------------------------- CO-3 taking
def test_CO3_first_card_of_the_game_comes_from_the_side_row() -> None:
    state = dealt(first=1)
    assert state.current_player() == 1
    with pytest.raises(IllegalActionError, match="side row"):
        state.apply(Take(0), 1)
    assert {a.pos for a in state.legal_actions(1) if isinstance(a, Take)} == set(SIDE_POSITIONS)
    state.apply(Take(17), 1)
    assert state.clues(1) == [FACES20[17]]
    assert state.faces[17] is None
    take(state, 0)                   # afterwards the grid is open
    assert state.clues(0) == [FACES20[0]]


def test_CO3_taking_own_card_is_refused_and_nothing_changes() -> None:
    state = dealt()
    take(state, 16)
    before = state.snapshot()
    with pytest.raises(IllegalActionError, match="own exhibit"):
        state.apply(Take(10), 1)          # seat 1's own marker is cell 10
    assert state.snapshot() == before
    assert Take(10) not in state.legal_actions(1)


def test_CO3_taking_the_partners_card_loses_at_once() -> None:
    state = dealt()
    take(state, 16)
    state.apply(Take(5), 1)               # seat 0's exhibit
    assert state.is_terminal()
    out = state.outcome()
    assert out is not None and out.winners == () and "P2 took P1's exhibit" in out.reason
    assert state.results[-1].lost_by == 1


# ---------------------------------------------------------------- CO-4 win
def test_CO4_win_when_only_the_exhibits_remain_in_the_grid_side_cards_may_stay() -> None:
    state = dealt()
    order = [16] + [p for p in range(GRID) if p not in (5, 10)]
    for i, pos in enumerate(order):
        assert not state.is_terminal(), f"ended early at take {i}"
        take(state, pos)
    assert state.is_terminal()
    out = state.outcome()
    assert out is not None and out.winners == (0, 1)
    assert [p for p in SIDE_POSITIONS if state.faces[p] is not None] == [17, 18, 19]


def test_CO4_mycroft_needs_all_four_exhibits_left() -> None:
    state = dealt("mycroft", markers=((0, 1), (14, 15)))
    order = [16] + [p for p in range(GRID) if p not in (0, 1, 14, 15)]
    for pos in order[:-1]:
        take(state, pos)
        assert not state.is_terminal()
    take(state, order[-1])
    assert state.is_terminal() and state.outcome().winners == (0, 1)  # type: ignore[union-attr]
    lost = dealt("mycroft", markers=((0, 1), (14, 15)))
    take(lost, 16)
    lost.apply(Take(1), 1)               # the second of P1's two exhibits
    assert lost.is_terminal() and lost.outcome().winners == ()  # type: ignore[union-attr]


# ---------------------------------------------------------------- CO-5 at the rule level
def test_CO5_a_seats_view_never_holds_the_partners_marker_or_pointing() -> None:
    state = dealt("sherlock")
    view = state.view(0)
    assert view.own_cells == (5,)
    # the view is the same whichever cell the partner's marker is on
    for other in (3, 10, 12):
        assert dealt("sherlock", markers=((5,), (other,))).view(0) == view
    take(state, 16)
    state.apply(Offer(), 0)
    state.apply(Accept(), 1)
    state.apply(Point((10,)), 0)
    v1 = state.view(1)
    assert not hasattr(v1, "points") and v1.own_cells == (10,)


# ---------------------------------------------------------------- CO-6 Sherlock Mode
def test_CO6_offer_at_start_or_end_of_a_turn() -> None:
    state = dealt("sherlock")
    assert state.may_offer(0) and not state.may_offer(1)       # start of P1's turn
    take(state, 16)
    assert state.phase == "end"
    assert state.may_offer(0) and state.may_offer(1)           # end of P1's turn: either may
    state.apply(Pass(), 0)
    assert state.current_player() == 1 and state.may_offer(1) and not state.may_offer(0)
    base = dealt("base")
    with pytest.raises(IllegalActionError, match="Sherlock"):
        base.apply(Offer(), 0)


def test_CO6_after_a_refusal_only_the_refuser_may_offer_and_must_be_accepted() -> None:
    state = dealt("sherlock")
    take(state, 16)
    state.apply(Offer(), 0)
    assert state.current_player() == 1
    state.apply(Refuse(), 1)
    assert state.refused_by == 1 and state.phase == "end"
    with pytest.raises(IllegalActionError, match="only the player who refused"):
        state.apply(Offer(), 0)
    state.apply(Pass(), 0)
    state.apply(Offer(), 1)                                   # the refuser offers
    assert Refuse() not in state.legal_actions(0)
    with pytest.raises(IllegalActionError, match="must be accepted"):
        state.apply(Refuse(), 0)
    state.apply(Accept(), 0)
    assert state.phase == "point"


def test_CO6_choices_are_secret_and_revealed_together() -> None:
    state = dealt("sherlock")
    take(state, 16)
    state.apply(Offer(), 0)
    state.apply(Accept(), 1)
    state.apply(Point((10,)), 0)
    assert state.results == [] and state.current_player() == 1   # nothing scored or shown yet
    with pytest.raises(IllegalActionError, match="own exhibit"):
        state.apply(Point((10,)), 1)
    state.apply(Point((5,)), 1)
    assert state.results[-1].found == (True, True)
    assert state.results[-1].points == ((10,), (5,))


def test_CO6_three_rounds_and_the_rating_table() -> None:
    game = CoopGame(2, {"mode": "sherlock"})
    assert game.rounds == 3
    state = game.new_initial_state()
    rng = random.Random(3)
    for rnd in range(3):
        state.resolve_chance(rng)
        assert state.round_no == rnd + 1
        a, b = state.markers[0][0], state.markers[1][0]
        first = state.current_player()
        side = next(p for p in SIDE_POSITIONS if state.faces[p] is not None)
        state.apply(Take(side), first)
        state.apply(Offer(), first)
        state.apply(Accept(), 1 - first)
        state.apply(Point((b,)), 0)
        state.apply(Point((a,)), 1)
        assert state.results[-1].score == 19
    assert state.current_player() == TERMINAL
    out = state.outcome()
    assert out is not None and out.scores == (57.0, 57.0) and "Brilliant" in out.reason
    assert [rating(t).split()[0] for t in (0, 12, 13, 21, 22, 30, 31, 39, 40, 57)] == [
        "Oh", "Oh", "Interesting", "Interesting", "Well", "Well", "Congratulations!", "Congratulations!",
        "Brilliant!", "Brilliant!"]


def test_sherlock_scoring_example_13_cards_left_both_found_13_points() -> None:
    """Seed, "Calculating points": 13 cards left (the two exhibits included), both found: 13."""
    state = dealt("sherlock")
    play_takes(state, [16, 0, 1, 2, 3, 4, 6])          # 7 cards taken: 13 left
    assert state.remaining() == 13
    state.apply(Offer(), state.current_player())
    state.apply(Accept(), state.current_player())
    state.apply(Point((10,)), 0)
    state.apply(Point((5,)), 1)
    assert state.results[-1].score == 13


@pytest.mark.parametrize("p0,p1,points", [((10,), (4,), 6), ((3,), (5,), 6), ((3,), (4,), 0)])
def test_sherlock_one_found_half_rounded_down_none_found_nothing(p0: tuple[int], p1: tuple[int],
                                                                  points: int) -> None:
    state = dealt("sherlock")
    play_takes(state, [16, 0, 1, 2, 6, 7, 8])          # 13 left: half is 6
    state.apply(Offer(), state.current_player())
    state.apply(Accept(), state.current_player())
    state.apply(Point(p0), 0)
    state.apply(Point(p1), 1)
    assert state.results[-1].score == points


def test_mycroft_sherlock_points_all_four_or_half() -> None:
    state = dealt("mycroft-sherlock", markers=((0, 1), (14, 15)))
    play_takes(state, [16, 2, 3])                       # 17 left
    state.apply(Offer(), state.current_player())
    state.apply(Accept(), state.current_player())
    with pytest.raises(IllegalActionError, match="2 different"):
        state.apply(Point((14,)), 0)
    state.apply(Point((15, 14)), 0)
    state.apply(Point((0, 4)), 1)                       # only one of the two: not found
    assert state.results[-1].score == 8 and state.results[-1].found == (True, False)


def test_sherlock_partners_card_taken_scores_nothing_and_next_round_deals() -> None:
    state = dealt("sherlock")
    take(state, 16)
    state.apply(Pass(), 0)
    state.apply(Take(5), 1)
    assert state.results[-1].score == 0 and state.current_player() == CHANCE


# ---------------------------------------------------------------- API, records, settings
def test_registry_settings_and_errors() -> None:
    game = games.make("coop", 2, {"mode": "mycroft", "case": "hound"})
    assert isinstance(game, CoopGame) and game.exhibits_per_seat == 2
    with pytest.raises(SettingsError):
        games.make("coop", 3)
    with pytest.raises(SettingsError):
        CoopGame(2, {"mode": "watson"})
    with pytest.raises(SettingsError):
        CoopGame(2, {"case": "the red-headed league"})


def test_record_replays_to_the_same_table() -> None:
    from arcade.bots.coop import CoopPartner, play_out
    for mode in ("base", "sherlock", "mycroft-sherlock"):
        state = CoopGame(2, {"mode": mode}).new_initial_state()
        play_out(games.get(f"coop-{mode}"), state, [CoopPartner(0), CoopPartner(1)], random.Random(9))
        again = replay(json.loads(json.dumps(to_record(state, 9))), games.make)
        assert isinstance(again, CoopState)
        assert again.snapshot() == state.snapshot() and again.outcome() == state.outcome()


def test_headless_lines_same_seed_same_lines() -> None:
    from kiosk.players.headless import run

    def lines(mode: str, case: str | None = None, **more: object) -> list[dict[str, object]]:
        out = io.StringIO()
        args = dict(game="coop", mode=mode, case=case, games=3, seed=42, skills=["medium"] * 2)
        args.update(more)
        run(SimpleNamespace(**args), out)
        return [json.loads(x) for x in out.getvalue().splitlines()]

    a = lines("sherlock")
    assert a == lines("sherlock")
    assert len(a) == 3 and [x["index"] for x in a] == [0, 1, 2]
    for x in a:
        assert {"seed", "index", "mode", "case", "result", "win", "score", "turns", "reason"} <= set(x)
        assert x["score"] == sum(x["rounds"])  # type: ignore[arg-type]
    b = lines("mycroft", "pips")
    assert all(x["case"] == "pips" and x["score"] is None and x["result"] in ("win", "loss") for x in b)
    with pytest.raises(SettingsError):
        lines("watson")


def test_headless_lines_name_the_players_and_winners_like_focusx() -> None:
    """D9: ``players`` is 2 and ``winners`` the 1-based seats, [1, 2] when the pair
    won and [] when it lost (as the FocusX lines)."""
    from kiosk.players.headless import run
    out = io.StringIO()
    run(SimpleNamespace(game="coop", mode="base", case=None, games=12, seed=5, skills=["easy"], players=None), out)
    rows = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(rows) == 12 and all(r["players"] == 2 for r in rows)
    assert {tuple(r["winners"]) for r in rows} <= {(1, 2), ()}
    assert all((r["winners"] == [1, 2]) == r["win"] for r in rows)


@pytest.mark.parametrize("option, value, words", [
    ("players", 3, "game for two"), ("players", 4, "game for two"),
    ("x_rule", True, "FocusX rule"), ("variant", "2p", "--mode")])
def test_headless_refuses_options_coop_does_not_have(option: str, value: object, words: str) -> None:
    from kiosk.players.headless import run
    args = dict(game="coop", mode="base", case=None, games=1, seed=0, skills=["medium"], players=2,
                x_rule=False, variant=None)
    args[option] = value
    with pytest.raises(SettingsError, match=words):
        run(SimpleNamespace(**args), io.StringIO())


def test_headless_one_skill_per_seat_without_players() -> None:
    """``headless --game coop --skill easy,expert``: two seats, one skill each."""
    from kiosk.players.headless import run
    out = io.StringIO()
    run(SimpleNamespace(game="coop", mode="base", case=None, games=1, seed=0, skills=["easy", "expert"],
                        players=2, x_rule=False, variant=None), out)
    assert json.loads(out.getvalue())["skills"] == ["easy", "expert"]
    with pytest.raises(SettingsError, match="one per seat"):
        run(SimpleNamespace(game="coop", mode="base", case=None, games=1, seed=0,
                            skills=["easy", "expert", "hard"]), io.StringIO())


def test_headless_command_line_defaults_to_two_players_for_coop() -> None:
    """Through the real command line: ``--skill easy,expert`` without ``--players``."""
    import contextlib

    from kiosk import cli
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["headless", "--game", "coop", "--skill", "easy,expert", "--games", "1", "--seed", "3"])
    assert code == 0
    line = json.loads(out.getvalue())
    assert line["players"] == 2 and line["skills"] == ["easy", "expert"]
