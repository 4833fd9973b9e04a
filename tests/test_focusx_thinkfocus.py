"""FocusX ThinkFocus (seed 001 "ThinkFocus Mode"; rulings FX-9, FX-3, FX-7, FX-12; FXA-10..FXA-19).

Positions are built with ``mk(category, quantity, colour)``: categories 0
fantastic, 1 aquatic, 2 terrestrial, 3 aerial; colours 0 red, 1 blue, 2
green, 3 yellow.  Races go through the real referee and judge with stamped
presses (``Table.race``).
"""

from __future__ import annotations

import io
import json
import random

import pytest
from focusx_helpers import MS, make_app, run_until
from focusx_helpers import RaceTable as Table

from arcade.core.api import RACE, TERMINAL
from arcade.core.errors import IllegalActionError, SettingsError
from arcade.core.events import Edge
from arcade.core.judge import JudgeSettings
from arcade.focusx.cards import find_trios, full_deck
from arcade.focusx.cards import make_card as mk
from arcade.focusx.classic import Deal
from arcade.focusx.thinkfocus import Discard, Play, ThinkFocusGame, ThinkFocusState


def new_game(seats: int = 4, x_rule: bool = False, window_s: float = 1.0) -> ThinkFocusState:
    return ThinkFocusGame(seats, {"x_rule": x_rule, "claim_window_s": window_s}).new_initial_state()


def position(rows, hands=None, victory=None, deck=None, active=0, previous=None, seats=4,
             x_rule=False, at="turn") -> ThinkFocusState:
    """A ThinkFocus state with this table; every other card goes to the deck (or the box)."""
    st = new_game(seats, x_rule)
    st.apply(Deal(tuple(full_deck())))
    hands = hands or [[] for _ in range(seats)]
    victory = victory or [[] for _ in range(seats)]
    used = [c for r in rows for c in r] + [c for h in hands for c in h] + [c for v in victory for c in v]
    assert len(set(used)) == len(used), "a card twice in the position"
    rest = [c for c in full_deck() if c not in used]
    st.rows = [list(r) for r in rows]
    st.hands = [list(h) for h in hands]
    st.victory = [list(v) for v in victory]
    st.deck = rest if deck is None else list(deck)
    st.box = [c for c in rest if c not in st.deck]
    st.active = active
    st.previous = (active - 1) % seats if previous is None else previous
    st.placed = None
    if at == "turn":
        st.phase = "turn"           # the seat node, after the turn-start window
    else:
        st._start_turn()            # the turn-start window (forgotten focus)
    assert sorted(st.all_cards()) == full_deck()
    return st


# Positions found by search and checked by the tests themselves.
COLUMN_POS = dict(rows=[[mk(2, 1, 0)], [mk(1, 3, 2), mk(3, 2, 3)], [mk(0, 4, 3), mk(1, 2, 0)],
                        [mk(3, 4, 1), mk(0, 3, 2)]], card=mk(2, 2, 1))          # column 1: quantity 2
PRECEDENCE_POS = dict(rows=[[mk(1, 1, 0), mk(1, 4, 3), mk(0, 1, 1)],
                            [mk(3, 1, 2), mk(2, 3, 1), mk(1, 3, 2), mk(2, 2, 0)],
                            [mk(3, 4, 0), mk(0, 1, 3), mk(2, 4, 0), mk(1, 2, 2)],
                            [mk(2, 2, 1), mk(0, 3, 0)]], card=mk(1, 2, 1))     # row 0 aquatic, column 3 quantity 2
SHIFT_POS = dict(rows=[[mk(0, 3, 2)], [mk(2, 2, 0), mk(2, 4, 0), mk(3, 2, 1)],
                       [mk(3, 3, 3), mk(2, 3, 2), mk(2, 4, 1)], [mk(0, 1, 1), mk(0, 4, 1)]],
                 card=mk(2, 3, 3))                                             # column 1 terrestrial
FOCUSX_POS = dict(rows=[[mk(2, 2, 0)], [mk(2, 4, 1), mk(1, 4, 3)], [mk(1, 3, 1), mk(0, 1, 0)],
                        [mk(1, 3, 0), mk(2, 1, 3)]], card=mk(1, 2, 1))         # column 1: a FocusX only


def placed(pos, active=0, x_rule=False, victory=None, seats=4) -> tuple[Table, ThinkFocusState]:
    """Lay ``pos['card']`` at the end of row 0 by the active seat; the claim window is open."""
    hands = [[] for _ in range(seats)]
    hands[active] = [pos["card"]]
    st = position(pos["rows"], hands=hands, active=active, x_rule=x_rule, victory=victory, seats=seats)
    for s in range(seats):
        if s != active:
            st.hands[s].append(st.deck.pop())           # everyone holds a card: the game goes on
    assert st.table_trios() == [], "the position must start without a focus"
    table = Table(st)
    table.play(Play(pos["card"], 0))
    assert st.window == "claim"
    return table, st


# -- setup -------------------------------------------------------------------------

@pytest.mark.parametrize("x_rule", [False, True])
def test_FX9_setup_column_of_four_without_a_focus_and_hands_of_three(x_rule: bool) -> None:
    for seed in range(40):
        st = new_game(5, x_rule)
        st.resolve_chance(random.Random(seed))
        column = [r[0] for r in st.rows]
        assert all(len(r) == 1 for r in st.rows)
        assert find_trios(column, x_rule) == []
        assert [len(h) for h in st.hands] == [3] * 5
        assert len(st.deck) == 64 - 4 - 15
        assert st.current_player() == RACE and st.window == "turn" and st.active == 0


def test_FXA10_a_focus_in_the_column_is_replaced_from_the_deck() -> None:
    # The four top cards (last four of the order) are 1-red of three categories + one more: a focus.
    top = [mk(0, 1, 0), mk(1, 1, 0), mk(2, 1, 0), mk(3, 3, 3)]
    order = [c for c in full_deck() if c not in top] + list(reversed(top))
    st = new_game()
    st.apply(Deal(tuple(order)))
    column = [r[0] for r in st.rows]
    assert find_trios(column, False) == []
    assert mk(0, 1, 0) in column and mk(1, 1, 0) in column
    assert mk(2, 1, 0) not in column                  # the last card of the focus was replaced ...
    assert st.deck[0] == mk(2, 1, 0)                  # ... and went under the deck
    assert sorted(st.all_cards()) == full_deck()


def test_FX12_thinkfocus_is_for_4_to_6_players() -> None:
    for n in (4, 5, 6):
        ThinkFocusGame(n)
    for n in (3, 7):
        with pytest.raises(SettingsError):
            ThinkFocusGame(n)
    with pytest.raises(SettingsError):
        ThinkFocusGame(4, {"claim_window_s": 0.1})
    assert ThinkFocusGame(4).settings["claim_window_s"] == 4.0      # FX-9 default


# -- placement ---------------------------------------------------------------------

def test_FX9_a_card_must_share_an_attribute_with_the_card_to_its_left() -> None:
    rows = [[mk(0, 1, 0)], [mk(1, 2, 1)], [mk(2, 3, 2)], [mk(3, 4, 3)]]
    hand = [mk(0, 3, 3), mk(1, 1, 2)]
    st = position(rows, hands=[hand, [], [], []])
    legal = {(a.card, a.row) for a in st.legal_actions()}
    for card in hand:
        for r in range(4):
            e = rows[r][0]
            shares = card // 16 == e // 16 or (card // 4) % 4 == (e // 4) % 4 or card % 4 == e % 4
            assert ((card, r) in legal) == shares
    with pytest.raises(IllegalActionError):
        st.apply(Play(mk(1, 1, 2), 3))                # nothing in common with 4 yellow aerial
    st.apply(Play(mk(0, 3, 3), 3))                    # shares the colour yellow
    assert st.rows[3] == [mk(3, 4, 3), mk(0, 3, 3)]


def test_FX9_no_placeable_card_shows_the_hand_boxes_one_and_draws() -> None:
    rows = [[mk(0, 1, 0)], [mk(0, 2, 1)], [mk(1, 1, 1)], [mk(1, 2, 0)]]
    hand = [mk(3, 3, 2), mk(3, 4, 3), mk(2, 3, 3)]
    st = position(rows, hands=[hand, [mk(2, 1, 1)], [mk(2, 2, 2)], [mk(2, 4, 2)]])
    assert st.legal_actions() == [Discard(c) for c in hand]
    with pytest.raises(IllegalActionError):
        st.apply(Play(hand[0], 0))
    top = st.deck[-1]
    st.apply(Discard(mk(3, 4, 3)))
    assert mk(3, 4, 3) in st.box
    assert st.hands[0] == [mk(3, 3, 2), mk(2, 3, 3), top]       # drew the deck's top card
    assert st.active == 1 and st.previous == 0                 # the turn passed


def test_FXA12_discard_is_refused_while_a_card_can_be_laid() -> None:
    st = position([[mk(0, 1, 0)], [mk(1, 2, 1)], [mk(2, 3, 2)], [mk(3, 4, 3)]], hands=[[mk(0, 2, 2)], [], [], []])
    with pytest.raises(IllegalActionError):
        st.apply(Discard(mk(0, 2, 2)))


# -- claims --------------------------------------------------------------------------

def test_FX9_column_focus_only_the_active_players_press_claims_it() -> None:
    # The previous player (P4) presses first: a false focus (no row focus), costs a card (FX-7).
    table, st = placed(COLUMN_POS, victory=[[], [], [], [mk(3, 1, 0)]])
    table.race([(3, 300), (0, 600)])
    assert st.victory[3] == [] and mk(3, 1, 0) in st.box
    assert sorted(st.victory[0]) == sorted([COLUMN_POS["card"], mk(3, 2, 3), mk(1, 2, 0)])
    assert st.takes[-1][0] == "column"
    # a bystander's press (P3) is ignored: no cost
    table, st = placed(COLUMN_POS, victory=[[], [], [mk(3, 1, 0)], []])
    table.race([(2, 200)])
    assert st.victory[2] == [mk(3, 1, 0)]
    assert st.victory[0] == [] and st.stats["missed"] == 1


def test_FX9_row_focus_only_the_previous_players_press_claims_it() -> None:
    rows = [[mk(1, 1, 0), mk(1, 4, 3)], [mk(3, 1, 2)], [mk(3, 4, 0)], [mk(2, 2, 1)]]
    card = mk(1, 2, 1)                                  # third aquatic in row 0: a row focus
    st = position(rows, hands=[[card], [], [], []], victory=[[mk(0, 4, 2)], [], [], []])
    table = Table(st)
    table.play(Play(card, 0))
    table.race([(0, 200), (3, 700)])                    # the active player's press is false
    assert st.victory[0] == [] and mk(0, 4, 2) in st.box
    assert sorted(st.victory[3]) == sorted([mk(1, 1, 0), mk(1, 4, 3), card])
    assert st.takes[-1] == ("row", (3,), (mk(1, 1, 0), mk(1, 4, 3), card))


def test_FX9_row_focus_takes_precedence_over_column_focus() -> None:
    table, st = placed(PRECEDENCE_POS, victory=[[mk(3, 3, 0)], [], [], []])
    table.race([(0, 150), (3, 900)])                    # active first, previous later, both in the window
    row_trio = {mk(1, 1, 0), mk(1, 4, 3), PRECEDENCE_POS["card"]}
    assert set(st.victory[3]) == row_trio
    assert st.victory[0] == [mk(3, 3, 0)]               # overruled, not false: no cost
    assert ("overruled", (0,), ()) in st.takes


def test_FX9_cards_after_a_removed_card_shift_left() -> None:
    table, st = placed(PRECEDENCE_POS)
    table.race([(3, 300)])
    assert st.rows[0] == [mk(0, 1, 1)]                  # the fantastic card shifted to the column
    table2, st2 = placed(COLUMN_POS)
    table2.race([(0, 300)])
    assert st2.rows[1] == [mk(1, 3, 2)] and st2.rows[2] == [mk(0, 4, 3)] and st2.rows[0] == [mk(2, 1, 0)]


def test_FX9_focus_formed_by_shifting_is_an_open_race_for_everyone() -> None:
    table, st = placed(SHIFT_POS)
    table.race([(0, 300)])                              # the column focus, by the active player
    assert st.window == "shift" and st.current_player() == RACE
    spec = st.race_spec()
    assert spec.eligible == frozenset(range(4)) and spec.valid_kinds == frozenset({"focus"})
    table.race([(2, 400), (1, 650)])                    # a bystander is first
    assert set(st.victory[2]) == {mk(3, 2, 1), mk(2, 4, 1), mk(0, 4, 1)}
    assert st.takes[-1][0] == "shift"


# Column 1 (blue) is a forgotten focus.  Taking it shifts rows 1-3: columns 1 and 2 then
# hold two new foci at once (red: mk(1, 2, 0), mk(0, 4, 0), mk(3, 3, 0); aerial:
# mk(3, 4, 0), mk(3, 2, 0), mk(3, 1, 3)), and taking the red one leaves the aerial one.
DOUBLE_SHIFT_ROWS = [[mk(0, 2, 1), mk(1, 2, 0), mk(3, 4, 0), mk(2, 4, 3)], [mk(0, 1, 1), mk(0, 2, 2)],
                     [mk(1, 4, 1), mk(0, 4, 0), mk(3, 2, 0)], [mk(3, 3, 0), mk(3, 1, 3)]]


def test_FX9_FXA13_a_second_focus_formed_by_the_same_shift_is_raced_next() -> None:
    hands = [[mk(2, 1, 1)], [mk(2, 2, 1)], [mk(2, 3, 1)], [mk(2, 1, 2)]]
    st = position(DOUBLE_SHIFT_ROWS, hands=hands, active=0, at="window")
    table = Table(st)
    table.race([(0, 300)])                              # P1 claims the forgotten column focus
    assert st.takes[-1][0] == "forgotten"
    red = {mk(1, 2, 0), mk(0, 4, 0), mk(3, 3, 0)}
    aerial = {mk(3, 4, 0), mk(3, 2, 0), mk(3, 1, 3)}
    assert st.window == "shift" and {frozenset(t) for t, _ in st.shift_trios} == {frozenset(red), frozenset(aerial)}
    table.race([(2, 450)])                              # P3 shouts first: the first in column order
    assert set(st.victory[2]) == red
    assert st.window == "shift", "the other focus the shift formed must be raced, not forgotten"
    table.race([(3, 500), (1, 700)])                    # P4 shouts first this time
    assert set(st.victory[3]) == aerial and st.victory[1] == []
    assert [h for h, _s, _c in st.takes] == ["forgotten", "shift", "shift"]
    assert st.current_player() == 0                     # then P1 lays its card


def test_FXA13_a_forgotten_focus_claim_takes_the_first_trio_in_reading_order() -> None:
    # Row 2 holds an aquatic focus and column 1 a quantity-1 focus (they share mk(1, 1, 1)):
    # rows come before columns in reading order, so the row trio is taken.
    rows = [[mk(2, 1, 0), mk(0, 2, 1)], [mk(1, 1, 1), mk(1, 3, 0), mk(1, 4, 2)], [mk(3, 1, 2)], [mk(0, 3, 3)]]
    st = position(rows, hands=[[mk(2, 2, 2)], [mk(3, 3, 3)], [], []], active=0, at="window")
    kinds = [(set(t), k) for t, k in st.table_trios()]
    assert len(kinds) == 2
    Table(st).race([(0, 300)])
    assert set(st.victory[0]) == {mk(1, 1, 1), mk(1, 3, 0), mk(1, 4, 2)}
    assert st.rows[0] == [mk(2, 1, 0), mk(0, 2, 1)] and st.rows[1] == []


def test_FXA14_tied_shouts_in_a_shift_race_share_the_trio() -> None:
    table, st = placed(SHIFT_POS)
    table.race([(0, 300)])                              # the column focus: a shift race opens
    shift = [set(t) for t, _ in st.shift_trios][0]
    table.race([(2, 400), (1, 408)])                    # P3 and P2 within the tie window
    assert st.takes[-1][0] == "debated" and st.takes[-1][1] == (2, 1)
    assert len(st.victory[2]) == 1 and len(st.victory[1]) == 1      # one card each, in press order
    left = shift - set(st.victory[2]) - set(st.victory[1])
    assert len(left) == 1 and st.position(left.pop()) is not None    # with two, the last card stays
    table, st = placed(SHIFT_POS)
    table.race([(0, 300)])
    shift = [set(t) for t, _ in st.shift_trios][0]
    table.race([(0, 400), (1, 405), (2, 410), (3, 415)])  # four tied: the trio goes to the box
    assert st.takes[-1][0] == "boxed" and shift <= set(st.box)
    assert all(len(v) == (3 if s == 0 else 0) for s, v in enumerate(st.victory))


def test_FXA15_on_the_first_turn_the_previous_player_is_the_seat_before_the_first() -> None:
    for seats in (4, 6):
        st = new_game(seats)
        st.resolve_chance(random.Random(seats))
        assert st.active == 0 and st.previous == seats - 1
        table = Table(st)
        table.race()                                    # P1's turn-start window
        table.play(st.legal_actions()[0])
        spec = st.race_spec()
        assert st.window == "claim" and spec.eligible == frozenset({0, seats - 1})
        assert dict(spec.seat_kinds).keys() == {0, seats - 1}


def test_FXA16_alone_with_cards_the_active_player_is_also_the_previous_and_claims_the_row() -> None:
    rows = [[mk(1, 1, 0), mk(1, 4, 3)], [mk(3, 1, 2)], [mk(3, 4, 0)], [mk(2, 2, 1)]]
    first, card = mk(0, 3, 2), mk(1, 2, 1)              # ``card`` makes a row focus in row 0
    st = position(rows, hands=[[first, card], [], [], []], deck=[], active=0, previous=3)
    table = Table(st)
    table.play(Play(first, 1))                          # green, like the green aerial ending row 1
    table.race()
    assert st.active == 0 and st.previous == 0          # everyone else is out of cards
    table.race()                                        # P1's turn-start window
    table.play(Play(card, 0))
    assert st.race_spec().kinds_for(0) == frozenset({"focus"})
    table.race([(0, 300)])
    assert st.takes[-1][0] == "row" and set(st.victory[0]) == {mk(1, 1, 0), mk(1, 4, 3), card}


def test_FXA17_turn_start_window_only_the_active_players_press_counts() -> None:
    rows = [[mk(1, 1, 0), mk(1, 4, 3), mk(0, 1, 1), mk(1, 2, 1)], [mk(3, 1, 2)], [mk(3, 4, 0)], [mk(2, 2, 1)]]
    hands = [[mk(2, 3, 3)], [mk(3, 2, 2)], [mk(0, 2, 3)], [mk(0, 3, 3)]]
    victory = [[mk(2, 4, 3)], [mk(2, 4, 2)], [], [mk(2, 1, 1)]]
    st = position(rows, hands=hands, active=1, victory=victory, at="window")
    spec = st.race_spec()
    assert spec.label == "turn start" and spec.window_ms == 1000 and spec.eligible == frozenset({1})
    table = Table(st)
    table.race([(0, 100), (3, 150)])                    # others press; P2 does not claim
    assert st.victory[0] == [mk(2, 4, 3)] and st.victory[3] == [mk(2, 1, 1)]   # ignored: no cost
    assert [p[3] for p in st.last_race.presses] == ["ignored", "ignored"]
    assert st.current_player() == 1 and st.table_trios()           # the focus stays; P2 lays a card
    # A claim with no focus on the table is false (FX-7): the active player pays.
    rows2 = [[mk(0, 1, 0)], [mk(1, 2, 1)], [mk(2, 3, 2)], [mk(3, 4, 3)]]
    st2 = position(rows2, hands=hands, active=1, victory=victory, at="window")
    table2 = Table(st2)
    table2.race([(1, 200)])
    assert st2.victory[1] == [] and mk(2, 4, 2) in st2.box
    # Laying the card closes the window early (the kiosk asks the referee to close it).
    st3 = position(rows2, hands=hands, active=1, at="window")
    table3 = Table(st3)
    table3.t += 16 * MS
    opened = table3.t
    table3.ref.frame_shown(opened)
    table3.ref.request_close(opened + 200 * MS)
    while st3.current_player() == RACE and table3.t < opened + 2000 * MS:
        table3.t += 5 * MS
        table3.ref.tick(table3.t)
    assert st3.current_player() == 1 and table3.t - opened < 300 * MS   # not the whole 1 s window


def test_FX9_forgotten_focus_is_claimed_by_the_active_player_at_the_start_of_the_turn() -> None:
    rows = [[mk(1, 1, 0), mk(1, 4, 3), mk(0, 1, 1), mk(1, 2, 1)], [mk(3, 1, 2)], [mk(3, 4, 0)], [mk(2, 2, 1)]]
    hands = [[mk(2, 3, 3)], [mk(3, 2, 2)], [mk(0, 2, 3)], [mk(0, 3, 3)]]
    st = position(rows, hands=hands, active=1, victory=[[], [], [mk(2, 4, 3)], []], at="window")
    assert st.window == "turn" and st.race_spec().eligible == frozenset({1})
    table = Table(st)
    table.race([(2, 100), (1, 500)])                    # P3 noticed first, but it is not their turn
    assert st.victory[2] == [mk(2, 4, 3)]               # ignored, no cost
    assert set(st.victory[1]) == {mk(1, 1, 0), mk(1, 4, 3), mk(1, 2, 1)}
    assert st.takes[-1][0] == "forgotten"
    assert st.current_player() == 1                     # then P2 lays a card as usual


def test_FX7_a_claim_at_the_start_of_a_turn_without_a_focus_is_false() -> None:
    st = position([[mk(0, 1, 0)], [mk(1, 2, 1)], [mk(2, 3, 2)], [mk(3, 4, 3)]],
                  hands=[[mk(0, 2, 2)], [], [], []], victory=[[mk(1, 1, 1), mk(2, 2, 2)], [], [], []], at="window")
    Table(st).race([(0, 300)])
    assert st.victory[0] == [mk(1, 1, 1)] and mk(2, 2, 2) in st.box
    assert st.current_player() == 0


def test_FX9_claim_window_closes_by_itself_after_claim_window_s() -> None:
    table, st = placed(COLUMN_POS)
    opened_before = table.t
    table.race([(0, 1100)])                             # the window is 1.0 s: this press is too late
    assert st.victory[0] == []
    assert st.window == "turn" and st.active == 1       # the next turn started
    assert table.t - opened_before < 1300 * MS          # closed at 1 s + settle, not later
    assert st.stats["missed"] == 1


def test_FX9_draw_after_the_turn_and_end_when_deck_and_hands_are_empty() -> None:
    rows = [[mk(0, 1, 0)], [mk(1, 2, 1)], [mk(2, 3, 2)], [mk(3, 4, 3)]]
    st = position(rows, hands=[[mk(0, 2, 2)], [mk(1, 3, 3)], [], []], deck=[], victory=[[mk(2, 2, 0)], [], [], []])
    table = Table(st)
    table.play(Play(mk(0, 2, 2), 0))
    table.race()
    assert st.hands[0] == [] and st.active == 1         # no draw: the deck is empty
    table.race()                                        # P2's turn-start window
    table.play(Play(mk(1, 3, 3), 1))
    table.race()
    assert st.current_player() == TERMINAL
    assert st.outcome().winners == (0,)


def _end_with(victory) -> ThinkFocusState:
    rows = [[mk(0, 1, 0)], [mk(1, 2, 1)], [mk(2, 3, 2)], [mk(3, 4, 3)]]
    st = position(rows, hands=[[mk(0, 2, 2)], [], [], []], deck=[], victory=victory)
    table = Table(st)
    table.play(Play(mk(0, 2, 2), 0))
    table.race()
    assert st.is_terminal()
    return st


def test_FX9_end_ties_most_fantastic_then_most_aerial_then_shared() -> None:
    st = _end_with([[mk(1, 1, 1), mk(0, 3, 3)], [mk(0, 1, 1), mk(0, 4, 0)], [mk(3, 1, 0)], []])
    assert st.outcome().winners == (1,) and "fantastic" in st.outcome().reason
    st = _end_with([[mk(0, 3, 3), mk(3, 1, 1), mk(3, 2, 1)], [mk(0, 1, 1), mk(3, 4, 0), mk(2, 4, 0)], [], []])
    assert st.outcome().winners == (0,) and "aerial" in st.outcome().reason
    st = _end_with([[mk(0, 3, 3), mk(1, 1, 1)], [mk(0, 1, 1), mk(2, 4, 0)], [], [mk(3, 3, 3)]])
    assert st.outcome().winners == (0, 1) and "shared" in st.outcome().reason


# -- FX-3 --------------------------------------------------------------------------

def test_FX3_focusx_rule_in_thinkfocus_x_control_claims_the_focusx() -> None:
    table, st = placed(FOCUSX_POS, x_rule=True)
    assert st.race_spec().kinds_for(0) == frozenset({"focus-ex"})
    table.race([(0, 300, "x")])
    assert st.takes[-1][0] == "column" and len(st.victory[0]) == 3


def test_FX3_a_plain_claim_of_a_focusx_is_false() -> None:
    table, st = placed(FOCUSX_POS, x_rule=True, victory=[[mk(3, 1, 0)], [], [], []])
    table.race([(0, 300)])                              # one buzzer press claims "focus": wrong kind
    assert st.victory[0] == [] and st.stats["false"] == 1


def test_FX3_double_press_claims_focusx_without_an_x_control() -> None:
    table, st = placed(FOCUSX_POS, x_rule=True)
    table.race([(0, 300, "buzzer", True)])
    assert len(st.victory[0]) == 3


def test_FX3_without_the_rule_a_focusx_is_no_focus() -> None:
    table, st = placed(FOCUSX_POS, x_rule=False)
    assert st.race_spec().kinds_for(0) == frozenset()


# -- computer players and headless -----------------------------------------------------

def test_bot_medium_and_up_avoid_laying_a_row_focus_for_the_previous_player() -> None:
    from arcade.bots.focusx_place import choose_action
    rows = [[mk(1, 1, 0), mk(1, 4, 3)], [mk(3, 1, 2)], [mk(3, 4, 0)], [mk(2, 2, 1)]]
    card = mk(1, 2, 1)                                  # row 0 would give P4 a row focus
    st = position(rows, hands=[[card], [], [], []])
    for level in ("hard", "expert"):
        for seed in range(20):
            a = choose_action(st, 0, random.Random(seed), level)
            assert a.row != 0
    picks = [choose_action(st, 0, random.Random(s), "medium").row for s in range(200)]
    assert picks.count(0) < 40                          # errs one time in four, among 4 rows
    assert 0 in [choose_action(st, 0, random.Random(s), "easy").row for s in range(200)]


def test_bot_hard_lays_its_own_column_focus() -> None:
    from arcade.bots.focusx_place import choose_action
    st = position(COLUMN_POS["rows"], hands=[[COLUMN_POS["card"]], [], [], []])
    rows = [choose_action(st, 0, random.Random(s), "expert").row for s in range(10)]
    assert rows == [0] * 10


def test_headless_thinkfocus_same_seed_same_lines() -> None:
    from kiosk.players.headless import run_focusx
    outs = []
    for _ in range(2):
        buf = io.StringIO()
        run_focusx("thinkfocus", 4, 2, 9, ["easy", "medium", "hard", "expert"], {"x_rule": True}, buf)
        outs.append(buf.getvalue())
    assert outs[0] == outs[1]
    lines = [json.loads(x) for x in outs[0].splitlines()]
    assert len(lines) == 2 and all(x["mode"] == "thinkfocus" and len(x["cards"]) == 4 for x in lines)
    assert all(sum(x["cards"]) <= 64 and x["races"] >= 1 for x in lines)


# -- the scene (SDL dummy driver) ----------------------------------------------------

def test_scene_thinkfocus_demo_game_with_simulated_players(tmp_path) -> None:
    import time

    import pygame

    from kiosk.games.focusx.scene import ThinkFocusScene
    from kiosk.scenes.results import ResultsScene
    app = make_app(tmp_path, "thinkfocus", 4, claim_window_s=0.5)
    try:
        scene = app.scenes[-1]
        assert isinstance(scene, ThinkFocusScene)
        run_until(app, lambda: scene.state.race_no >= 8 or scene.state.is_terminal(),   # a slow machine just takes longer
                  "eight races played by the simulated players")
        assert not [m for m, _ in app.messages if "went wrong" in m]
        assert isinstance(app.scenes[-1], (ThinkFocusScene, ResultsScene))
        st = scene.state
        assert st.race_no >= 6 and sum(len(r) for r in st.rows) + sum(map(len, st.victory)) > 4
        before = st.snapshot()
        scene.draw(pygame.Surface((1280, 720)))            # drawing never changes the game
        assert st.snapshot() == before
        assert len(scene.led_picture(time.monotonic_ns())) == 16
    finally:
        app.close()


def test_scene_thinkfocus_a_person_chooses_card_and_row_with_left_right_ok(tmp_path) -> None:
    import time

    from kiosk.games.focusx.scene import ThinkFocusScene
    from kiosk.scenes.seats import SeatInfo
    app = make_app(tmp_path, "thinkfocus", 4)
    try:
        seats = [SeatInfo("keyboard", "key 1", "medium", can_choose=True)] + \
                [SeatInfo("simulated", f"sim {i}", "medium") for i in range(1, 4)]
        scene = ThinkFocusScene(app, seats, seed=5, settings={"claim_window_s": 0.5})
        app.replace(scene)
        run_until(app, lambda: scene.chooser is not None, "the person asked to choose a card")
        assert scene.chooser.seat == 0
        st = scene.state
        hand = list(st.hands[0])
        i = next(k for k, c in enumerate(hand) if scene.place_options(0, c))
        now = time.monotonic_ns()
        for _ in range(i):
            scene.on_edge(Edge(now, 0, "right", True))
        scene.on_edge(Edge(now, 0, "ok", True))
        assert scene.chooser.stage == "place"
        target = scene.cursor_place()
        assert target is not None and target.card == hand[i]
        scene.on_edge(Edge(now, 0, "ok", True))
        run_until(app, lambda: hand[i] in st.rows[target.row] or hand[i] in sum(st.victory, []),
                  "the chosen card laid in its row")
        assert st.rows[target.row][-1] == hand[i] or hand[i] in sum(st.victory, [])
    finally:
        app.close()


# -- the judge's claim window (race mode "window", used by FX-9) ------------------------

def test_FX9_judge_claim_window_counts_each_eligible_seats_first_claim() -> None:
    from arcade.core.judge import judge_race
    from arcade.core.race import RaceSpec
    spec = RaceSpec(eligible=frozenset({0, 1}), valid_kinds=frozenset({"focus"}), mode="window", window_ms=1000,
                    seat_kinds=((0, frozenset({"focus"})), (1, frozenset())))
    o = 10_000 * MS
    edges = []
    for seat, ms in ((1, 200), (2, 300), (0, 500), (0, 600)):
        edges += [Edge(o + ms * MS, seat, "buzzer", True), Edge(o + (ms + 50) * MS, seat, "buzzer", False)]
    settings = JudgeSettings()
    v = judge_race(spec, o, edges, settings, o + 450 * MS)
    assert not v.final and v.false_shouts == (1,)              # P1 has not claimed yet: still open
    v = judge_race(spec, o, edges, settings, o + 500 * MS + settings.settle_ns)
    assert v.final and v.winners == (0,) and v.false_shouts == (1,)   # both claimed: no need to wait
    assert [(p.seat, p.status) for p in v.presses] == [(1, "false"), (2, "ignored"), (0, "claim"), (0, "again")]
    alone = [e for e in edges if e.seat == 1]                   # only one eligible seat claims
    v = judge_race(spec, o, alone, settings, o + 999 * MS)
    assert not v.final
    v = judge_race(spec, o, alone, settings, o + 1000 * MS + settings.settle_ns)
    assert v.final and v.winners == () and v.closed
