"""FocusX 4Focus (seed 001 "4Focus Mode"; rulings FX-11, FX-3, FX-7, FX-12; FXA-30..FXA-36).

Cells are ``(x, y)`` around the face-down centre ``(0, 0)``.  Cards are
``mk(category, quantity, colour)``: categories 0 fantastic, 1 aquatic, 2
terrestrial, 3 aerial; colours 0 red, 1 blue, 2 green, 3 yellow.  Races go
through the real referee and judge with stamped presses.
"""

from __future__ import annotations

import io
import json
import random

import pytest
from focusx_helpers import RaceTable as Table
from focusx_helpers import make_app, run_until

from arcade.core.api import RACE, TERMINAL
from arcade.core.errors import IllegalActionError, SettingsError
from arcade.core.events import Edge
from arcade.focusx.cards import full_deck
from arcade.focusx.cards import make_card as mk
from arcade.focusx.classic import Deal
from arcade.focusx.fourfocus import Discard, FourFocusGame, FourFocusState, Pass, Place, four_kind

CENTRE_CARD = mk(0, 4, 0)


def position(board, hands, deck=None, active=0, x_rule=False, centre=CENTRE_CARD, at="turn") -> FourFocusState:
    """A 4Focus state with this board and hands; other cards go to the deck (or the box)."""
    seats = len(hands)
    st = FourFocusGame(seats, {"x_rule": x_rule, "claim_window_s": 1.0}).new_initial_state()
    st.apply(Deal(tuple(full_deck())))
    used = list(board.values()) + [c for h in hands for c in h] + [centre]
    assert len(set(used)) == len(used)
    rest = [c for c in full_deck() if c not in used]
    st.board = dict(board)
    st.centre_card = centre
    st.hands = [list(h) for h in hands]
    st.deck = rest if deck is None else list(deck)
    st.box = [c for c in rest if c not in st.deck]
    st.active = active
    st.fours = []
    if at == "turn":
        st.phase = "turn"
    else:
        st._open("turn")
    assert sorted(st.all_cards()) == full_deck()
    return st


# Three aquatic cards in a line right of the centre; mk(1, 4, 3) at (4, 0) makes a 4Focus.
LINE = {(1, 0): mk(1, 1, 0), (2, 0): mk(1, 2, 1), (3, 0): mk(1, 3, 2)}
FOURTH = mk(1, 4, 3)


def line_placed(placer=1, seats=3, hands=None) -> tuple[Table, FourFocusState]:
    hands = hands or [[mk(2, 1, 1)], [FOURTH], [mk(3, 1, 2)]][:seats]
    st = position(LINE, hands, active=placer)
    table = Table(st)
    table.play(Place(FOURTH, 4, 0))
    return table, st


def test_FX12_4focus_is_for_2_to_4_players() -> None:
    for n in (2, 3, 4):
        FourFocusGame(n)
    for n in (1, 5):
        with pytest.raises(SettingsError):
            FourFocusGame(n)


def test_FX11_setup_centre_card_face_down_and_hands_of_three() -> None:
    st = FourFocusGame(3).new_initial_state()
    st.resolve_chance(random.Random(5))
    assert st.centre_card is not None and st.board == {}
    assert [len(h) for h in st.hands] == [3, 3, 3] and len(st.deck) == 64 - 1 - 9
    assert st.current_player() == RACE and st.window == "turn"


def test_FX11_the_centre_card_matches_anything_for_placement() -> None:
    st = position({}, [[mk(3, 3, 3), mk(2, 1, 2)], [mk(1, 1, 1)]], centre=mk(0, 1, 0))
    cells = {(a.x, a.y) for a in st.legal_actions() if a.card == mk(3, 3, 3)}
    assert cells == {(1, 0), (-1, 0), (0, 1), (0, -1)}
    with pytest.raises(IllegalActionError):
        st.apply(Place(mk(3, 3, 3), 1, 1))                    # only orthogonally next to a card


def test_FX11_a_placement_shares_an_attribute_with_every_orthogonal_neighbour() -> None:
    board = {(1, 0): mk(1, 1, 0), (0, 1): mk(2, 2, 1)}        # (1, 1) touches both
    st = position(board, [[mk(1, 3, 2), mk(2, 1, 3), mk(3, 4, 3)], [mk(0, 2, 2)]])
    assert st.can_place(mk(2, 1, 3), (1, 1))                  # 1 with the first, terrestrial with the second
    assert not st.can_place(mk(1, 3, 2), (1, 1))              # aquatic with the first, nothing with the second
    with pytest.raises(IllegalActionError):
        st.apply(Place(mk(1, 3, 2), 1, 1))
    assert not st.can_place(mk(3, 4, 3), (2, 0))              # nothing in common with its only neighbour
    st.apply(Place(mk(2, 1, 3), 1, 1))
    assert st.board[(1, 1)] == mk(2, 1, 3)


def test_FX11_no_card_more_than_4_from_the_centre() -> None:
    board = {(1, 0): mk(1, 1, 0), (2, 0): mk(1, 2, 0), (3, 0): mk(2, 3, 0), (4, 0): mk(3, 4, 0)}
    st = position(board, [[mk(3, 1, 0)], [mk(0, 2, 2)]])
    assert not st.can_place(mk(3, 1, 0), (5, 0))
    assert all(max(abs(x), abs(y)) <= 4 for x, y in st.targets())
    assert (4, 1) in st.targets() and (4, -1) in st.targets()
    with pytest.raises(IllegalActionError):
        st.apply(Place(mk(3, 1, 0), 5, 0))


def test_FX11_players_draw_back_up_to_3_while_the_deck_lasts() -> None:
    st = position({}, [[mk(1, 1, 0), mk(2, 2, 2)], [mk(3, 3, 3)]], deck=[mk(0, 1, 1)])
    table = Table(st)
    table.play(Place(mk(1, 1, 0), 1, 0))
    table.race()
    assert sorted(st.hands[0]) == sorted([mk(2, 2, 2), mk(0, 1, 1)]) and st.deck == []
    assert st.active == 1


def test_FX11_four_connected_cards_sharing_one_value_are_a_4focus() -> None:
    st = position({}, [[], []])
    blue = {(1, 0): mk(0, 1, 1), (2, 0): mk(1, 2, 1), (2, 1): mk(2, 3, 1), (2, 2): mk(3, 4, 1)}   # an L
    assert [k for _, k in st.fours_through((2, 2), blue)] == ["focus"]
    diagonal = {(1, 0): mk(0, 1, 1), (2, 0): mk(1, 2, 1), (3, 0): mk(2, 3, 1), (0, 1): mk(3, 4, 1)}
    assert st.fours_through((0, 1), diagonal) == []          # (0, 1) touches (1, 0) only at a corner
    assert four_kind([mk(0, 1, 1), mk(1, 2, 2), mk(2, 3, 3), mk(3, 4, 0)], False) is None


def test_FX11_the_centre_card_is_never_part_of_a_4focus() -> None:
    board = {(-1, 0): mk(1, 1, 1), (1, 0): mk(2, 1, 1), (2, 0): mk(3, 1, 1)}
    st = position(board, [[mk(0, 1, 1)], [mk(2, 2, 2)]], centre=mk(1, 1, 2))
    table = Table(st)
    table.play(Place(mk(0, 1, 1), 3, 0))                      # four blue 1s in the row, the centre between
    assert st.new_fours == [] and st.fours == []
    assert st.race_spec().valid_kinds == frozenset()


def test_FX11_a_4focus_placement_opens_a_race_for_everyone_but_the_placer_first_press_wins() -> None:
    table, st = line_placed(placer=1)
    spec = st.race_spec()
    assert st.window == "placed" and spec.eligible == frozenset({0, 2}) and spec.valid_kinds == {"focus"}
    table.race([(1, 100), (2, 400), (0, 600)])                # the placer's own press does not count
    assert st.current_player() == TERMINAL
    assert st.outcome().winners == (2,) and "4Focus" in st.outcome().reason
    assert st.claimed[0] == 2 and set(st.claimed[1]) == {(1, 0), (2, 0), (3, 0), (4, 0)}


def test_FX11_an_unnoticed_4focus_is_won_by_the_active_player_at_the_start_of_the_turn() -> None:
    table, st = line_placed(placer=1)
    table.race()                                              # nobody noticed
    assert not st.is_terminal() and st.stats["missed"] == 1
    assert st.active == 2 and st.window == "turn"
    assert st.race_spec().eligible == frozenset({2}) and st.race_spec().valid_kinds == {"focus"}
    table.race([(2, 700)])
    assert st.outcome().winners == (2,) and "start of the turn" in st.outcome().reason


def test_FX11_out_of_turn_claim_gives_the_active_player_a_claim_window() -> None:
    table, st = line_placed(placer=1)
    table.race()                                              # unnoticed
    table.race([(0, 300)])                                    # P1 presses during P3's turn start
    assert st.window == "hint" and st.race_spec().eligible == frozenset({2})
    assert st.notes[-1] == ("hint", (0,))
    table.race([(0, 100), (2, 500)])                          # P3 presses in the window: P3 wins
    assert st.outcome().winners == (2,) and "window" in st.outcome().reason


def test_FX11_out_of_turn_claim_window_unused_the_game_goes_on() -> None:
    table, st = line_placed(placer=1)
    table.race()
    table.race([(0, 300)])
    assert st.window == "hint"
    table.race()                                              # P3 does not press
    assert not st.is_terminal() and st.current_player() == 2  # P3 lays a card as usual


def test_FXA31_a_false_claim_boxes_a_hand_card() -> None:
    st = position({}, [[mk(1, 1, 0), mk(2, 2, 2)], [mk(3, 3, 3)]], at="window")
    table = Table(st)
    table.race([(1, 200)])                                    # out of turn, and no 4Focus: false
    assert st.hands[1] == [] and mk(3, 3, 3) in st.box and st.stats["false"] == 1
    assert st.current_player() == 0


def test_FXA33_a_press_in_a_placement_window_without_a_new_4focus_gives_the_placer_a_window() -> None:
    table, st = line_placed(placer=1, hands=[[mk(2, 1, 1)], [FOURTH, mk(2, 2, 1)], [mk(3, 1, 2), mk(0, 3, 1)]])
    table.race()                                              # nobody noticed the 4Focus
    assert st.active == 2 and st.fours
    table.race()                                              # P3 does not claim it at its turn start
    table.play(next(a for a in st.legal_actions() if not st.fours_through((a.x, a.y), {**st.board, (a.x, a.y): a.card})))
    assert st.window == "placed" and st.new_fours == []
    table.race([(2, 100), (0, 300)])                          # the placer's own press is ignored ...
    assert st.window == "hint" and st.notes[-1] == ("hint", (0,)) and st.stats["false"] == 0
    assert st.race_spec().eligible == frozenset({2})          # ... P1's press gives P3 the window
    table.race([(2, 400)])
    assert st.outcome().winners == (2,) and "window" in st.outcome().reason


def test_FXA34_players_tied_for_the_first_claim_share_the_win() -> None:
    table, st = line_placed(placer=1)
    table.race([(2, 400), (0, 410)])                          # within the tie window
    assert st.outcome().winners == (2, 0) and "shared win" in st.outcome().reason
    table, st = line_placed(placer=1)
    table.race([(2, 400), (0, 450)])                          # 50 ms apart: the first wins alone
    assert st.outcome().winners == (2,)


def test_FXA37_a_false_claim_locks_the_seat_out_of_claims_until_its_next_card() -> None:
    hands = [[mk(2, 1, 1)], [FOURTH, mk(2, 2, 2)], [mk(3, 1, 2)]]
    st = position(LINE, hands, active=1, at="window")
    table = Table(st)
    table.race([(0, 200)])                                    # P1 out of turn, no 4Focus: false
    assert st.locked == {0} and st.hands[0] == []
    table.play(Place(FOURTH, 4, 0))                           # P2 forms a 4Focus
    assert st.race_spec().eligible == frozenset({2}) and st.race_spec().exempt == frozenset({0})
    table.race([(0, 150), (2, 700)])                          # P1 first, but locked out: P3 wins
    assert st.outcome().winners == (2,)
    assert [(seat, status) for seat, _k, _o, status in st.last_race.presses] == [(0, "ignored"), (2, "first")]
    # The lock ends when the seat lays (or boxes, or passes) its next card.
    st = position({}, [[mk(1, 1, 0), mk(1, 2, 0)], [mk(3, 3, 3), mk(3, 2, 3)]], at="window")
    table = Table(st)
    table.race([(1, 200)])                                    # P2 false: locked
    table.play(st.legal_actions()[0])                         # P1 lays a card
    table.race()
    assert st.locked == {1} and st.active == 1
    table.race([(1, 100)])                                    # its own turn start: still locked, ignored
    assert st.stats["false"] == 1 and st.hands[1] == [mk(3, 3, 3)]
    table.play(st.legal_actions()[0])
    assert st.locked == set()


def test_FXA37_a_button_masher_loses_most_games_against_medium_computer_players() -> None:
    from arcade.bots.shout import masher_plan
    from arcade.focusx.autoplay import SimConfig, simulate
    for seats in (2, 3):
        wins = 0
        for k in range(16):
            st = FourFocusGame(seats).new_initial_state()
            simulate(st, random.Random(f"masher-{seats}-{k}"), SimConfig(skills=["medium"] * seats,
                                                                         plans={0: masher_plan}))
            wins += 0 in st.outcome().winners
        assert wins <= 4, f"a masher won {wins} of 16 {seats}-player games"


def test_FX11_no_one_can_place_and_the_deck_is_empty_a_drawn_game() -> None:
    board = {(1, 0): mk(0, 1, 0), (-1, 0): mk(0, 2, 1), (0, 1): mk(1, 1, 1), (0, -1): mk(1, 2, 0)}
    hands = [[mk(3, 3, 2)], [mk(3, 4, 3)], [mk(2, 3, 3)]]
    st = position(board, hands, deck=[], at="window")
    assert not st.anyone_can_place()
    Table(st).race()
    assert st.is_terminal() and st.outcome().winners == () and "drawn" in st.outcome().reason


def test_FXA32_no_placement_box_one_and_draw_or_pass() -> None:
    board = {(1, 0): mk(0, 1, 0), (-1, 0): mk(0, 2, 1), (0, 1): mk(1, 1, 1), (0, -1): mk(1, 2, 0)}
    st = position(board, [[mk(3, 3, 2), mk(3, 4, 3)], [mk(2, 1, 1)]])
    assert st.legal_actions() == [Discard(mk(3, 3, 2)), Discard(mk(3, 4, 3))]
    st.apply(Discard(mk(3, 4, 3)))
    assert mk(3, 4, 3) in st.box and len(st.hands[0]) == 3
    st2 = position(board, [[mk(3, 3, 2)], [mk(2, 1, 1)]], deck=[])
    assert st2.legal_actions() == [Pass()]
    with pytest.raises(IllegalActionError):
        st2.apply(Discard(mk(3, 3, 2)))


def test_FX3_with_the_rule_a_fantastic_card_and_three_of_one_category_is_a_4focusx() -> None:
    board = {(1, 0): mk(3, 1, 0), (2, 0): mk(3, 2, 1), (3, 0): mk(3, 4, 2)}      # three aerials
    fantastic = mk(0, 4, 3)                                   # shares the quantity 4 with (3, 0)
    hands = [[mk(2, 2, 2)], [fantastic], [mk(2, 1, 1)]]
    st = position(board, hands, active=1, x_rule=False)
    Table(st).play(Place(fantastic, 4, 0))
    assert st.new_fours == []                                 # without the rule: nothing
    st = position(board, hands, active=1, x_rule=True)
    table = Table(st)
    table.play(Place(fantastic, 4, 0))
    assert [k for _, k in st.new_fours] == ["focus-ex"]
    table.race([(0, 300)])                                    # a plain claim: the wrong kind, false
    assert st.stats["false"] == 1 and not st.is_terminal()
    st = position(board, hands, active=1, x_rule=True)
    table = Table(st)
    table.play(Place(fantastic, 4, 0))
    table.race([(2, 300, "x")])                               # the X control claims "focus-ex"
    assert st.outcome().winners == (2,)


def test_bots_hard_and_expert_never_form_a_4focus_when_they_can_avoid_it() -> None:
    from arcade.bots.focusx_place import choose_action
    st = position(LINE, [[FOURTH, mk(2, 1, 2)], [mk(3, 3, 3)]])
    gifts = {"easy": 0, "hard": 0, "expert": 0}
    for level in gifts:
        for seed in range(30):
            a = choose_action(st, 0, random.Random(seed), level)
            board = {**st.board, (a.x, a.y): a.card}
            gifts[level] += bool(st.fours_through((a.x, a.y), board))
    assert gifts["hard"] == 0 and gifts["expert"] == 0
    assert gifts["easy"] > 0


def test_headless_4focus_same_seed_same_lines() -> None:
    from kiosk.players.headless import run_focusx
    outs = []
    for _ in range(2):
        buf = io.StringIO()
        run_focusx("4focus", 3, 3, 21, ["medium", "hard", "expert"], {"x_rule": False}, buf)
        outs.append(buf.getvalue())
    assert outs[0] == outs[1]
    for line in map(json.loads, outs[0].splitlines()):
        assert line["mode"] == "4focus" and len(line["winners"]) <= 1 or "shared" in line["reason"]
        assert sum(line["cards"]) == len(line["winners"])


# -- the scene (SDL dummy driver) ----------------------------------------------------

def test_scene_4focus_demo_game_with_simulated_players(tmp_path) -> None:
    import time

    import pygame

    from kiosk.games.focusx.scene import FourFocusScene
    from kiosk.scenes.results import ResultsScene
    app = make_app(tmp_path, "4focus", 3, claim_window_s=0.5)
    try:
        scene = app.scenes[-1]
        assert isinstance(scene, FourFocusScene)
        run_until(app, lambda: scene.state.stats["placements"] >= 3 or scene.state.is_terminal(),
                  "three cards placed by the simulated players")
        assert not [m for m, _ in app.messages if "went wrong" in m]
        assert isinstance(app.scenes[-1], (FourFocusScene, ResultsScene))
        st = scene.state
        assert st.stats["placements"] >= 3 or st.is_terminal()
        before = st.snapshot()
        scene.draw(pygame.Surface((1280, 720)))
        assert st.snapshot() == before
        assert len(scene.led_picture(time.monotonic_ns())) == 16
    finally:
        app.close()


def test_scene_4focus_a_person_chooses_a_cell(tmp_path) -> None:
    import time

    from kiosk.games.focusx.scene import FourFocusScene
    from kiosk.scenes.seats import SeatInfo
    app = make_app(tmp_path, "4focus", 2)
    try:
        seats = [SeatInfo("gamepad", "pad", "medium", can_choose=True), SeatInfo("simulated", "sim", "medium")]
        scene = FourFocusScene(app, seats, seed=2, settings={"claim_window_s": 0.5})
        app.replace(scene)
        run_until(app, lambda: scene.chooser is not None, "the person asked to choose a cell")
        now = time.monotonic_ns()
        card = scene.state.hands[0][0]
        scene.on_edge(Edge(now, 0, "ok", True))
        for _ in range(2):
            scene.on_edge(Edge(now, 0, "right", True))
        target = scene.cursor_place()
        assert (target.x, target.y) in {(1, 0), (-1, 0), (0, 1), (0, -1)} and target.card == card
        scene.on_edge(Edge(now, 0, "ok", True))
        run_until(app, lambda: bool(scene.state.board), "the chosen card on the board")
        assert scene.state.board == {(target.x, target.y): card}
    finally:
        app.close()
