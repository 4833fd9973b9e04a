"""FocusX Classic Mode (seed 001, "Classic Mode"; rulings FX-1 .. FX-8, FX-12).

Tables are built through the public API: :func:`laid` deals the deck so that
the seats, laying their top cards in turn on the FX-4 default spots (card k on
spot k % 4), lay exactly the cards a test asks for.  Only the end-of-game tests
(FX-8) arrange piles directly with :func:`rig`, which checks that each of the
64 cards is still somewhere exactly once.
"""

from __future__ import annotations

import json
import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade.core.api import CHANCE, RACE, TERMINAL
from arcade.core.errors import ArcadeError, IllegalActionError, SettingsError
from arcade.core.events import Edge
from arcade.core.judge import JudgeSettings
from arcade.core.race import FOCUS, FOCUS_EX, RaceResult
from arcade.core.referee import Referee
from arcade.focusx.cards import (
    COLOUR_SHAPES,
    COLOURS,
    DECK_SIZE,
    card,
    claim_kind,
    full_deck,
    is_focus,
    is_focus_ex,
    make_card,
)
from arcade.focusx.classic import SPOTS, ClassicGame, ClassicState, Deal, Place

MS = 1_000_000
C = make_card       # C(category, quantity, colour); categories 0 fantastic, 1 aquatic, 2 terrestrial, 3 aerial


def laid(cards: list[int], seats: int = 2, x_rule: bool = False) -> ClassicState:
    """A game in which the k-th card laid is ``cards[k]``, left at the race it opened.

    Seats lay in turn (seat k % seats) on the FX-4 default spots (spot k % 4);
    every earlier race window is closed without a claim.
    """
    each = DECK_SIZE // seats
    positions = [((k % seats + 1) * each - 1 - k // seats, c) for k, c in enumerate(cards)]
    order = [c for c in full_deck() if c not in cards]
    for pos, c in sorted(positions):
        order.insert(pos, c)
    state = ClassicGame(seats, {"x_rule": x_rule}).new_initial_state()
    state.apply(Deal(tuple(order)))
    for k in range(len(cards)):
        assert state.current_player() == k % seats
        state.apply(state.default_action())
        if k < len(cards) - 1:
            state.apply(RaceResult(closed=True))
    assert state.current_player() == RACE and state.top_cards()[(len(cards) - 1) % SPOTS] == cards[-1]
    return state


def rig(state: ClassicState, piles: list[list[int]], victory: list[list[int]],
        spots: list[list[int]] | None = None) -> None:
    """Arrange a dealt game's piles (the box takes every other card); checks the 64 cards."""
    spots = spots or [[] for _ in range(SPOTS)]
    used = [c for p in piles + victory + spots for c in p]
    assert len(used) == len(set(used))
    state.piles = [list(p) for p in piles]
    state.victory = [list(v) for v in victory]
    state.spots = [list(s) for s in spots]
    state.box = [c for c in full_deck() if c not in set(used)]
    assert sorted(state.all_cards()) == full_deck()


def dealt(seats: int = 2, seed: int = 1, x_rule: bool = False) -> ClassicState:
    state = ClassicGame(seats, {"x_rule": x_rule}).new_initial_state()
    state.resolve_chance(random.Random(seed))
    return state


def conserved(state: ClassicState) -> bool:
    return sorted(state.all_cards()) == full_deck()


# Tables used below (each trio checked where it is used).
QTY2 = [C(0, 2, 0), C(1, 2, 1), C(2, 2, 2)]           # a focus by quantity (2)
ODD = C(3, 4, 3)                                        # makes no focus with QTY2
FX_TRIO = [C(0, 1, 0), C(3, 2, 1), C(3, 3, 2)]         # fantastic + two aerial: a FocusX only


# -- FX-1 deck ----------------------------------------------------------------------------------

def test_FX1_deck_of_64_unique_combinations() -> None:
    deck = full_deck()
    assert len(deck) == 64 == len(set(deck))
    combos = {(card(n).category, card(n).quantity, card(n).colour) for n in deck}
    assert combos == {(cat, q, col) for cat in range(4) for q in (1, 2, 3, 4) for col in range(4)}
    assert all(make_card(card(n).category, card(n).quantity, card(n).colour) == n for n in deck)
    # Every colour has its own second cue (a shape), so colour is never the only cue.
    assert len(set(COLOUR_SHAPES)) == len(COLOURS) == 4
    assert card(5).label() == "2 blue fantastic"
    for bad in (-1, 64, 3.0, "1"):
        with pytest.raises(ValueError):
            card(bad)  # type: ignore[arg-type]


# -- FX-2 focus -----------------------------------------------------------------------------------

def test_FX2_a_focus_shares_one_attribute_value() -> None:
    assert is_focus(QTY2)                                            # quantity
    assert is_focus([C(1, 1, 0), C(1, 3, 1), C(1, 4, 2)])            # category
    assert is_focus([C(0, 1, 3), C(2, 2, 3), C(3, 4, 3)])            # colour
    assert not is_focus([C(0, 1, 0), C(1, 1, 1), C(2, 2, 1)])        # pairs agree, never all three
    assert not is_focus(FX_TRIO)


def test_FX2_and_FX3_count_over_every_trio_of_the_deck() -> None:
    # Counted by hand: 3 attributes x 4 values x C(16, 3) trios, less the 3 x 16 x C(4, 3) counted
    # twice (no trio can share all three): 6720 - 192 = 6528 foci.  FocusX: 16 fantastic x
    # 3 other categories x C(16, 2) pairs = 5760, less 2 x 16 x 3 x C(4, 2) = 576 plain foci.
    foci = focus_ex = 0
    for trio in combinations(range(64), 3):
        foci += is_focus(trio)
        focus_ex += is_focus_ex(trio)
    assert (foci, focus_ex) == (6528, 5184)


# -- FX-3 FocusX ------------------------------------------------------------------------------------

def test_FX3_focusx_counts_only_with_the_rule() -> None:
    table = FX_TRIO + [C(1, 4, 3)]
    assert claim_kind(FX_TRIO, x_rule=False) is None and claim_kind(FX_TRIO, x_rule=True) == FOCUS_EX
    off = laid(table, x_rule=False)
    assert off.trios() == [] and off.race_spec().valid_kinds == frozenset()
    on = laid(table, x_rule=True)
    assert on.trios() == [((0, 1, 2), FOCUS_EX)]
    spec = on.race_spec()
    assert spec.valid_kinds == {FOCUS_EX} and spec.x_rule


def test_FX3_a_focus_without_the_wild_card_is_a_plain_focus() -> None:
    # Fantastic + two aerial that also share a colour: a plain focus, not a FocusX.
    trio = [C(0, 1, 2), C(3, 2, 2), C(3, 4, 2)]
    assert is_focus(trio) and not is_focus_ex(trio) and claim_kind(trio, x_rule=True) == FOCUS


def test_FX3_the_wrong_kind_is_false_and_both_kinds_are_right_when_both_show() -> None:
    only_x = laid(FX_TRIO + [C(1, 4, 3)], x_rule=True)
    before = only_x.snapshot()
    with pytest.raises(IllegalActionError, match="no focus is on the table"):
        only_x.apply(RaceResult(winners=(0,), kind=FOCUS))
    assert only_x.snapshot() == before
    # Fantastic + two aerial (FocusX) and three aerial (focus by category) on one table.
    both = FX_TRIO + [C(3, 4, 3)]
    for kind, taken in ((FOCUS_EX, {0, 1, 2}), (FOCUS, {1, 2, 3})):
        st_ = laid(both, x_rule=True)
        assert st_.race_spec().valid_kinds == {FOCUS, FOCUS_EX}
        st_.apply(RaceResult(winners=(1,), kind=kind))
        assert sorted(st_.victory[1]) == sorted(both[i] for i in taken)


def test_FX3_through_the_judge_a_focus_ex_claim_on_a_focus_table_costs_a_card() -> None:
    state = laid(QTY2 + [ODD], x_rule=True)
    state.apply(RaceResult(winners=(0,), kind=FOCUS))                  # P1 has 3 cards now
    state.apply(RaceResult(closed=True))
    state = _continue_to_focus(state, frozenset({FOCUS}))
    ref = Referee(state, JudgeSettings())
    ref.frame_shown(0)
    for e in [Edge(100 * MS, 0, "x", True), Edge(150 * MS, 0, "x", False),      # focus-ex: wrong
              Edge(700 * MS, 0, "buzzer", True), Edge(760 * MS, 0, "buzzer", False),
              Edge(900 * MS, 1, "buzzer", True), Edge(960 * MS, 1, "buzzer", False)]:
        ref.feed(e)
    for t in range(0, 2000, 16):
        ref.tick(t * MS)
    assert state.last_race is not None and state.last_race.winners == (1,)
    assert len(state.victory[0]) == 2 and state.stats["false"] == 1


def _continue_to_focus(state: ClassicState, kinds: frozenset[str] | None = None) -> ClassicState:
    """Lay default cards (closing races) until a focus shows (exactly ``kinds`` if given)."""
    def ready() -> bool:
        present = frozenset(k for _, k in state.trios())
        return state.current_player() == RACE and bool(present) and (kinds is None or present == kinds)
    while not ready():
        if state.current_player() == RACE:
            state.apply(RaceResult(closed=True))
        state.apply(state.default_action())
    return state


# -- FX-4 placement --------------------------------------------------------------------------------

def test_FX4_empty_spots_first_then_not_the_previous_players_spot() -> None:
    state = dealt(3)
    seen_allowed = []
    for _ in range(6):
        seen_allowed.append(state.allowed_spots())
        spot = state.default_spot()
        state.apply(Place(spot))
        if state.current_player() == RACE:
            state.apply(RaceResult(closed=True))
    assert seen_allowed[:4] == [[0, 1, 2, 3], [1, 2, 3], [2, 3], [3]]
    assert seen_allowed[4] == [0, 1, 2] and seen_allowed[5] == [1, 2, 3]


def test_FX4_a_player_may_choose_any_allowed_spot() -> None:
    state = dealt(2)
    state.apply(Place(2))
    state.apply(RaceResult(closed=True))
    assert state.allowed_spots() == [0, 1, 3]
    assert state.default_spot() == 3                      # first allowed clockwise after spot 2
    state.apply(Place(0))
    assert state.spots[0] and state.prev_spot == 0


def test_FX4_clockwise_default_when_every_spot_is_full() -> None:
    state = laid([C(1, 1, 0), C(2, 3, 1), C(3, 4, 2), C(0, 2, 3)])    # no focus among them
    state.apply(RaceResult(closed=True))
    assert state.prev_spot == 3 and state.allowed_spots() == [0, 1, 2]
    assert state.default_spot() == 0
    before = state.snapshot()
    with pytest.raises(IllegalActionError) as err:
        state.apply(Place(3))
    assert "FX-4" in err.value.reason and state.snapshot() == before


# -- FX-5 piles ---------------------------------------------------------------------------------------

def test_FX5_cards_beneath_become_visible_and_open_a_new_race() -> None:
    beneath = [C(1, 1, 3), C(2, 3, 3), C(0, 1, 0), C(3, 3, 1)]
    top = QTY2 + [C(3, 4, 3)]
    state = laid(beneath + top)
    assert state.trios() == [((0, 1, 2), FOCUS)]
    race = state.race_no
    state.apply(RaceResult(winners=(1,), kind=FOCUS))
    assert sorted(state.victory[1]) == sorted(QTY2)
    # The top cards only were taken; those beneath show, and with the card on spot 3
    # they make a new focus (colour 3): a new race is open.
    assert state.top_cards() == [beneath[0], beneath[1], beneath[2], top[3]]
    assert state.current_player() == RACE and state.race_no == race + 1
    assert state.trios() == [((0, 1, 3), FOCUS)] and state.race_spec().valid_kinds == {FOCUS}


def test_FX5_a_table_without_a_new_focus_still_opens_a_window_where_claims_are_false() -> None:
    state = laid(QTY2 + [ODD])
    state.apply(RaceResult(winners=(0,), kind=FOCUS))
    assert state.current_player() == RACE and state.race_spec().valid_kinds == frozenset()
    assert state.race_spec().label == "no focus"


# -- FX-6 debated focus --------------------------------------------------------------------------------

def test_FX6_two_tied_take_one_card_each_and_the_last_stays() -> None:
    state = laid(QTY2 + [ODD])
    state.apply(RaceResult(winners=(1, 0), kind=FOCUS))           # press order: P2 then P1
    assert state.victory[1] == [QTY2[0]] and state.victory[0] == [QTY2[1]]   # spot order
    assert state.top_cards() == [None, None, QTY2[2], ODD]
    assert state.stats["debated"] == 1 and conserved(state)


def test_FX6_three_tied_take_one_card_each() -> None:
    state = laid(QTY2 + [ODD], seats=4)
    state.apply(RaceResult(winners=(2, 0, 3), kind=FOCUS))
    assert (state.victory[2], state.victory[0], state.victory[3]) == ([QTY2[0]], [QTY2[1]], [QTY2[2]])
    assert state.victory[1] == [] and state.top_cards() == [None, None, None, ODD]


@pytest.mark.parametrize("n", [4, 5])
def test_FX6_four_or_more_tied_send_the_trio_to_the_box(n: int) -> None:
    state = laid(QTY2 + [ODD], seats=6)
    box = len(state.box)
    state.apply(RaceResult(winners=tuple(range(n)), kind=FOCUS))
    assert all(v == [] for v in state.victory)
    assert len(state.box) == box + 3 and set(QTY2) <= set(state.box)
    assert state.stats["boxed"] == 1 and conserved(state)


# -- FX-7 false focus ----------------------------------------------------------------------------------

def test_FX7_a_false_focus_costs_the_top_victory_card() -> None:
    state = laid(QTY2 + [ODD])
    state.apply(RaceResult(winners=(0,), kind=FOCUS))
    top = state.victory[0][-1]
    box = len(state.box)
    state.apply(RaceResult(false_shouts=(0, 1)))                   # no focus showing now
    assert len(state.victory[0]) == 2 and state.box[-1] == top and len(state.box) == box + 1
    assert state.victory[1] == []                                   # nothing to lose: nothing lost
    assert state.stats["false"] == 2 and state.current_player() == RACE
    # The same window's verdicts are cumulative: a seat pays once per window (FXA-2).
    state.apply(RaceResult(false_shouts=(0,)))
    state.apply(RaceResult(false_shouts=(0, 1), late=(1,), closed=True))
    assert len(state.victory[0]) == 2 and len(state.box) == box + 1 and conserved(state)


def test_FX7_a_false_shouter_cannot_win_this_race() -> None:
    state = laid(QTY2 + [ODD], seats=3)
    state.apply(RaceResult(false_shouts=(0,)))
    before = state.snapshot()
    for bad in (RaceResult(winners=(0,), kind=FOCUS), RaceResult(winners=(1, 0), kind=FOCUS),
                RaceResult(winners=(2,), kind=FOCUS, false_shouts=(2,))):
        with pytest.raises(IllegalActionError) as err:
            state.apply(bad)
        assert "FX-7" in err.value.reason and state.snapshot() == before
    state.apply(RaceResult(winners=(1,), kind=FOCUS))
    assert sorted(state.victory[1]) == sorted(QTY2)


def test_FX7_late_presses_cost_nothing() -> None:
    state = laid(QTY2 + [ODD])
    state.apply(RaceResult(winners=(0,), kind=FOCUS))
    before = state.snapshot()
    state.apply(RaceResult(late=(0, 1)))
    after = state.snapshot()
    assert after["victory"] == before["victory"] and after["box"] == before["box"]


# -- FX-8 end ---------------------------------------------------------------------------------------

def _finish_piles(state: ClassicState) -> None:
    """Lay every remaining card, closing each race without a claim."""
    while state.current_player() not in (TERMINAL, CHANCE):
        if state.current_player() == RACE:
            state.apply(RaceResult(closed=True))
        else:
            state.apply(state.default_action())


def test_FX8_most_cards_wins() -> None:
    state = dealt(3)
    deck = full_deck()
    rig(state, piles=[[deck[0]], [deck[21]], [deck[42]]],
        victory=[deck[1:6], deck[22:30], deck[43:47]])
    _finish_piles(state)
    out = state.outcome()
    assert state.is_terminal() and out is not None
    assert out.winners == (1,) and out.scores == (5.0, 8.0, 4.0) and "most cards (8)" in out.reason


def test_FX8_tied_players_play_sudden_death_among_themselves() -> None:
    state = dealt(3)
    deck = full_deck()
    rig(state, piles=[[deck[0]], [deck[21]], [deck[42]]],
        victory=[deck[1:9], deck[22:26], deck[43:51]])                 # P1 and P3 tied at 8
    _finish_piles(state)
    assert state.current_player() == CHANCE and state.sudden == (0, 2)
    left = sorted(state.box + [c for s in state.spots for c in s])
    deal = state.chance_outcome(random.Random(3))
    assert isinstance(deal, Deal) and sorted(deal.order) == left        # box + table, shuffled
    state.apply(deal)
    each = len(left) // 2
    assert [len(p) for p in state.piles] == [each, 0, each]
    assert state.box == list(deal.order[2 * each:]) and conserved(state)
    assert state.race_spec().eligible == {0, 2} and state.current_player() == 0
    # Play until a focus shows; the first tied player to win it wins the game.
    state = _continue_to_focus(state)
    assert state.race_spec().eligible == {0, 2}
    with pytest.raises(IllegalActionError):
        state.apply(RaceResult(winners=(1,), kind=FOCUS))               # P2 is not in sudden death
    kind = state.trios()[0][1]
    state.apply(RaceResult(winners=(2,), kind=kind))
    out = state.outcome()
    assert state.is_terminal() and out is not None and out.winners == (2,)
    assert "sudden" in out.reason


def test_FX8_a_tie_with_too_few_cards_for_sudden_death_is_a_shared_win() -> None:
    state = dealt(2)
    trio = [C(0, 1, 0), C(1, 1, 1), C(2, 1, 2)]                    # a focus by quantity
    rest = [c for c in full_deck() if c not in trio]
    # P1 lays the last card, making a focus that P2 takes: 32 cards each, and no card
    # is left anywhere to deal a sudden death.
    rig(state, piles=[[trio[2]], []], victory=[rest[:32], rest[32:]], spots=[[trio[0]], [trio[1]], [], []])
    state.apply(state.default_action())
    state.apply(RaceResult(winners=(1,), kind=FOCUS))
    _finish_piles(state)
    out = state.outcome()
    assert out is not None and out.winners == (0, 1) and "shared" in out.reason


def test_FX8_sudden_death_without_a_focus_is_a_shared_win() -> None:
    state = dealt(2)
    deck = full_deck()
    # After the tie only two cards remain (box): one each, no focus can form.
    rig(state, piles=[[deck[0]], [deck[5]]], victory=[deck[10:41], deck[41:64] + deck[1:5] + deck[6:10]])
    _finish_piles(state)
    state.resolve_chance(random.Random(1))
    _finish_piles(state)
    out = state.outcome()
    assert out is not None and out.winners == (0, 1) and "sudden death ran out" in out.reason


# -- FX-12 seats and the deal ------------------------------------------------------------------------

@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7, 8])
def test_FX12_two_to_eight_seats_and_leftovers_go_to_the_box(seats: int) -> None:
    state = dealt(seats, seed=seats)
    each = 64 // seats
    assert [len(p) for p in state.piles] == [each] * seats
    assert len(state.box) == 64 - each * seats and conserved(state)
    assert state.current_player() == 0
    if seats == 3:
        assert each == 21 and len(state.box) == 1


@pytest.mark.parametrize("seats", [0, 1, 9, -2, "4", 2.0, True])
def test_FX12_other_seat_counts_are_refused(seats: Any) -> None:
    with pytest.raises(SettingsError) as err:
        ClassicGame(seats)
    assert err.value.key == "seats" and "2 to 8" in str(err.value)


def test_settings_are_checked() -> None:
    with pytest.raises(SettingsError) as err:
        ClassicGame(4, {"x_rule": "yes"})
    assert err.value.key == "x_rule"
    with pytest.raises(SettingsError) as err:
        ClassicGame(4, {"focus_ex": True})
    assert err.value.key == "focus_ex" and "x_rule" in str(err.value)


# -- illegal actions -----------------------------------------------------------------------------------

def _illegal(state: ClassicState, action: Any, reason: str, player: int | None = None) -> None:
    before, history = state.snapshot(), list(state.history)
    with pytest.raises(IllegalActionError) as err:
        state.apply(action, player)
    assert reason in err.value.reason, err.value.reason
    assert isinstance(err.value, ArcadeError) and isinstance(err.value, ValueError)
    assert state.snapshot() == before and state.history == history


def test_illegal_actions_name_the_reason_and_change_nothing() -> None:
    fresh = ClassicGame(2).new_initial_state()
    _illegal(fresh, Deal(tuple(range(63))), "not a shuffle")
    _illegal(fresh, Deal(tuple([0] * 64)), "not a shuffle")
    _illegal(fresh, Place(0), "turn", player=0)
    state = dealt(2)
    _illegal(state, Place(0), "P1's turn, not P2's", player=1)
    _illegal(state, Place(7), "not allowed")
    _illegal(state, RaceResult(closed=True), "no race is open")
    _illegal(state, Deal(tuple(full_deck())), "no deal is due")
    race = laid(QTY2 + [ODD])
    _illegal(race, Place(0), "no card is to be laid now")
    _illegal(race, RaceResult(winners=(0,), kind=FOCUS_EX), "no focus-ex")
    _illegal(race, RaceResult(winners=(5,), kind=FOCUS), "not at the table")
    _illegal(race, RaceResult(winners=(0, 0), kind=FOCUS), "twice")
    _illegal(race, RaceResult(last=(0,)), "no last-to-press")
    _illegal(race, RaceResult(penalties=(1,)), "penalty")
    _illegal(race, "Place(0)", "not an action of FocusX Classic")
    over = dealt(2)
    rig(over, piles=[[0], [1]], victory=[list(range(2, 40)), list(range(40, 64))])
    _finish_piles(over)
    assert over.is_terminal()
    _illegal(over, RaceResult(closed=True), "game is over")


def test_legal_actions_follow_the_node() -> None:
    state = ClassicGame(2).new_initial_state()
    assert state.current_player() == CHANCE and state.legal_actions() == []
    state.resolve_chance(random.Random(0))
    assert state.legal_actions() == [Place(s) for s in range(4)]
    assert state.legal_actions(1) == []
    state.apply(Place(1))
    assert state.legal_actions() == [RaceResult(closed=True)]


# -- random play -------------------------------------------------------------------------------------

def _random_result(state: ClassicState, rng: random.Random) -> RaceResult:
    spec = state.race_spec()
    free = sorted(spec.eligible - state.race_out)
    false = tuple(s for s in free if rng.random() < 0.08)
    if spec.valid_kinds and rng.random() < 0.85:
        pool = [s for s in free if s not in false]
        k = min(len(pool), rng.choices([1, 2, 3, 4, 5], weights=[70, 12, 8, 6, 4])[0])
        if k:
            winners = tuple(rng.sample(pool, k))
            return RaceResult(winners=winners, kind=rng.choice(sorted(spec.valid_kinds)), false_shouts=false)
    return RaceResult(false_shouts=false, closed=rng.random() < 0.9)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 8), st.booleans(), st.integers(0, 2**32 - 1))
def test_random_play_keeps_all_64_cards_somewhere_once(seats: int, x_rule: bool, seed: int) -> None:
    rng = random.Random(seed)
    state = ClassicGame(seats, {"x_rule": x_rule}).new_initial_state()
    for _ in range(5000):
        cp = state.current_player()
        if cp == TERMINAL:
            break
        if cp == CHANCE:
            state.apply(state.chance_outcome(rng))
        elif cp == RACE:
            state.apply(_random_result(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        assert conserved(state)
    assert state.is_terminal()
    out = state.outcome()
    assert out is not None and out.winners and set(out.winners) <= set(range(seats))
    scores = state.scores()
    if out.reason.startswith("most cards"):
        assert out.winners == (scores.index(max(scores)),) and scores.count(max(scores)) == 1
    json.dumps(state.snapshot())                          # the whole position is JSON-able


@pytest.mark.parametrize("make", [
    lambda st: Place(1.0), lambda st: Place(True), lambda st: Place("1"),
    lambda st: RaceResult(winners=(0.0,)), lambda st: RaceResult(false_shouts=("0",)),
    lambda st: RaceResult(winners=(True,)), lambda st: RaceResult(kind="focus!"),
    lambda st: RaceResult(closed=1), lambda st: RaceResult(presses=((0, "focus", 1.5, "first"),)),
])
def test_malformed_actions_are_refused_before_anything_changes(make: Any) -> None:
    game = ClassicGame(3)
    state = game.new_initial_state()
    state.apply(state.chance_outcome(random.Random(4)))
    for _ in range(2):                       # one placement (a turn), then the race window it opens
        action = make(state)
        if state.current_player() >= 0 and isinstance(action, RaceResult):
            state.apply(Place(state.default_spot()))
            continue
        if state.current_player() < 0 and isinstance(action, Place):
            break
        before = state.snapshot()
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert state.snapshot() == before
        assert sorted(state.all_cards()) == list(range(64))
        break
