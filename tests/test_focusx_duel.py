"""FocusX Duel (seed 001 "Duel Mode"; rulings FX-10, FX-5, FX-3, FX-12; FXA-20..FXA-23).

Cards are ``mk(category, quantity, colour)``: categories 0 fantastic, 1
aquatic, 2 terrestrial, 3 aerial; colours 0 red, 1 blue, 2 green, 3 yellow.
Races go through the real referee and judge with stamped presses.
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from focusx_helpers import MS, RaceTable, make_app, run_until

from arcade.core.api import CHANCE, RACE, TERMINAL
from arcade.core.errors import IllegalActionError, SettingsError
from arcade.core.events import Edge
from arcade.core.judge import JudgeSettings
from arcade.core.race import RaceResult
from arcade.core.referee import Referee
from arcade.focusx.autoplay import SimConfig, simulate
from arcade.focusx.cards import full_deck
from arcade.focusx.cards import make_card as mk
from arcade.focusx.classic import Deal, Place
from arcade.focusx.duel import DuelGame, DuelState, Reveal

DEADLINE = 1500


def position(piles, reveal=None, penalty=None, active=0, seats=None, x_rule=False, deck=None) -> DuelState:
    """A Duel state with these piles (bottom first); ``reveal`` is the deck's top card."""
    seats = seats or len(piles)
    st = DuelGame(seats, {"x_rule": x_rule, "duel_deadline_ms": DEADLINE}).new_initial_state()
    st.apply(Deal(tuple(full_deck())))
    penalty = penalty or [[] for _ in range(seats)]
    used = [c for p in piles for c in p] + [c for p in penalty for c in p] + ([reveal] if reveal is not None else [])
    assert len(set(used)) == len(used)
    rest = [c for c in full_deck() if c not in used]
    st.piles = [list(p) for p in piles]
    st.penalty = [list(p) for p in penalty]
    if deck is None:
        st.deck = rest + ([reveal] if reveal is not None else [])
        st.box = []
    else:
        st.deck = list(deck) + ([reveal] if reveal is not None else [])
        st.box = [c for c in rest if c not in deck]
    st.active = active
    assert sorted(st.all_cards()) == full_deck()
    return st


class Table(RaceTable):
    """The real referee and judge on a virtual clock; the active seat reveals."""

    def reveal(self) -> None:
        self.ref.apply(Reveal(), self.state.active)


# Five seats; P5 (seat 4) reveals mk(3, 2, 0): a quantity-2 focus with P2 and P3.
BASIC = dict(piles=[[mk(0, 1, 0)], [mk(1, 2, 1)], [mk(2, 2, 2)], [mk(3, 3, 3)], []], reveal=mk(3, 2, 0), active=4)


def basic(**kw) -> tuple[Table, DuelState]:
    args = {**BASIC, **kw}
    st = position(**args)
    assert st.trios() == []
    table = Table(st)
    table.reveal()
    return table, st


def test_FX12_duel_is_for_4_to_8_players() -> None:
    for n in (4, 8):
        DuelGame(n)
    for n in (3, 9):
        with pytest.raises(SettingsError):
            DuelGame(n)
    assert DuelGame(4).settings["duel_deadline_ms"] == 3000


def test_FX10_each_turn_the_active_seat_reveals_the_deck_top_onto_its_own_pile() -> None:
    st = DuelGame(4).new_initial_state()
    st.resolve_chance(random.Random(1))
    top = st.deck[-1]
    assert st.current_player() == 0 and st.legal_actions() == [Reveal()]
    st.apply(Reveal())
    assert st.piles[0] == [top] and len(st.deck) == 63


def test_FX10_only_the_three_owners_are_in_the_race() -> None:
    table, st = basic()
    spec = st.race_spec()
    assert st.trio == (1, 2, 4)
    assert spec.mode == "last" and spec.eligible == frozenset({1, 2, 4})
    assert spec.penalise_ineligible and spec.deadline_ms == DEADLINE


def test_FX10_last_to_press_takes_the_trio_into_their_penalty_pile() -> None:
    table, st = basic()
    table.race([(4, 300), (1, 450), (2, 900)])
    assert sorted(st.penalty[2]) == sorted([mk(1, 2, 1), mk(2, 2, 2), mk(3, 2, 0)])
    assert st.piles[1] == [] and st.piles[2] == [] and st.piles[4] == []
    assert st.takes[-1][:2] == ("last", (2,))
    assert st.current_player() == RACE and st.trio is None     # the quiet window until the next reveal


def test_FX10_players_tied_for_last_take_only_their_own_card() -> None:
    table, st = basic()
    table.race([(4, 300), (1, 900), (2, 910)])                # 10 ms apart: within the tie window
    assert st.penalty[1] == [mk(1, 2, 1)] and st.penalty[2] == [mk(2, 2, 2)]
    assert st.piles[4] == [mk(3, 2, 0)] and st.penalty[4] == []
    assert st.takes[-1][0] == "tied-last"


def test_FX10_an_owner_who_does_not_press_counts_as_pressing_at_the_deadline() -> None:
    table, st = basic()
    opened = table.t + 16 * MS
    table.race([(4, 300), (2, 1400)])                         # P2 never presses
    assert len(st.penalty[1]) == 3 and st.takes[-1][:2] == ("last", (1,))
    assert table.t >= opened + DEADLINE * MS                  # decided only after the deadline
    table, st = basic()
    table.race([(4, 300)])                                    # two owners never press: tied at the deadline
    assert st.penalty[1] == [mk(1, 2, 1)] and st.penalty[2] == [mk(2, 2, 2)] and st.penalty[4] == []


def test_FX10_a_press_by_a_player_who_owns_no_focus_card_costs_their_top_card() -> None:
    table, st = basic()
    table.race([(0, 200), (4, 300), (1, 450), (2, 900), (0, 950)])
    assert st.penalty[0] == [mk(0, 1, 0)] and st.piles[0] == []   # once, not twice
    assert len(st.penalty[2]) == 3


def test_FX10_a_press_when_no_focus_is_showing_costs_the_top_card() -> None:
    st = position([[mk(0, 1, 0)], [mk(1, 2, 1)], [mk(2, 2, 2)], [mk(3, 3, 3)]], reveal=mk(3, 1, 2), active=3)
    table = Table(st)
    table.reveal()
    assert st.trio is None and st.race_spec().eligible == frozenset()
    table.race([(0, 400), (0, 800)], close_after_ms=2000)
    assert st.penalty[0] == [mk(0, 1, 0)]
    assert st.current_player() == 0                           # the next seat reveals


def test_FX5_cards_beneath_a_penalty_form_a_new_focus_raced_next() -> None:
    piles = [[mk(0, 2, 3), mk(0, 1, 0)], [mk(1, 2, 1)], [mk(2, 2, 2)], [mk(3, 3, 3)], []]
    st = position(piles, reveal=mk(3, 1, 1), active=4)
    table = Table(st)
    table.reveal()
    assert st.trio is None
    table.race([(0, 300)], close_after_ms=3000)               # P1's press: top card to penalty ...
    assert st.penalty[0] == [mk(0, 1, 0)]
    assert st.trio == (0, 1, 2)                               # ... and the card beneath makes a focus
    table.race([(0, 200), (1, 300), (2, 700)])
    assert len(st.penalty[2]) == 3


def test_FX10_several_foci_are_raced_one_at_a_time_from_the_seat_after_the_active_player() -> None:
    piles = [[mk(1, 3, 2)], [], [mk(3, 2, 0)], [mk(0, 2, 0)], [mk(2, 3, 2)]]
    st = position(piles, reveal=mk(3, 2, 2), active=1)
    table = Table(st)
    table.reveal()
    assert sorted(t for t, _ in st.trios()) == [(0, 1, 4), (1, 2, 3)]
    assert st.trio == (1, 2, 3)                               # P3 (the seat after P2) first
    table.race([(1, 200), (2, 900), (3, 905)])                # P3 and P4 tied for last
    assert st.penalty[2] == [mk(3, 2, 0)] and st.penalty[3] == [mk(0, 2, 0)]
    assert st.trio == (0, 1, 4)                               # the revealed card is still there: next focus
    table.race([(0, 200), (1, 300), (4, 800)])
    assert len(st.penalty[4]) == 3


TWO_FOCI = dict(piles=[[mk(1, 3, 2)], [], [mk(3, 2, 0)], [mk(0, 2, 0)], [mk(2, 3, 2)]], reveal=mk(3, 2, 2), active=1)


def test_FXA24_owners_of_a_waiting_focus_are_not_penalised_during_the_first_race() -> None:
    st = position(**TWO_FOCI)
    table = Table(st)
    table.reveal()
    assert st.trio == (1, 2, 3)                               # raced first (FX-10: from P3 on)
    assert st.race_spec().exempt == frozenset({0, 4})         # P1 and P5 own the waiting focus
    table.race([(0, 100), (4, 150), (1, 200), (2, 900), (3, 905)])
    assert st.penalty[0] == [] and st.penalty[4] == []        # their presses cost nothing ...
    assert st.penalty[2] == [mk(3, 2, 0)] and st.penalty[3] == [mk(0, 2, 0)]   # ... P3, P4 tied last
    statuses = {seat: status for seat, _k, _off, status in st.last_race.presses}
    assert statuses[0] == statuses[4] == "ignored"
    assert st.trio == (0, 1, 4) and st.race_spec().exempt == frozenset()
    table.race([(0, 200), (1, 300), (4, 800)])                # their own race: P5 presses last
    assert len(st.penalty[4]) == 3 and st.penalty[0] == []


def test_FXA24_a_press_by_a_player_owning_no_focus_still_costs_a_card_with_several_foci() -> None:
    piles = [[mk(1, 3, 2)], [], [mk(3, 2, 0)], [mk(0, 2, 0)], [mk(2, 3, 2)], [mk(2, 4, 1)]]
    st = position(piles, reveal=mk(3, 2, 2), active=1)
    table = Table(st)
    table.reveal()
    assert st.trio == (1, 2, 3) and st.race_spec().exempt == frozenset({0, 4})
    table.race([(5, 100), (1, 200), (2, 400), (3, 900)])      # P6 owns no focus card
    assert st.penalty[5] == [mk(2, 4, 1)]


# BASIC with a card under P3's: P3's top card goes with the trio, the one beneath stays.
BENEATH = mk(2, 4, 1)
SLOW = dict(BASIC, piles=[[mk(0, 1, 0)], [mk(1, 2, 1)], [BENEATH, mk(2, 2, 2)], [mk(3, 3, 3)], []])


def test_FXA25_a_press_just_after_the_deadline_is_late_not_a_second_penalty() -> None:
    table, st = basic(**SLOW)
    assert st.trio == (1, 2, 4)
    table.race([(1, 200), (4, 300), (2, DEADLINE + 120)])     # P3 presses 120 ms after the deadline
    assert len(st.penalty[2]) == 3                            # P3 counts as last: takes the trio ...
    assert st.trio is None and st.piles[2] == [BENEATH]
    table.race(close_after_ms=1000)                           # ... and the press lands in the next window
    assert st.penalty[2] == [mk(1, 2, 1), mk(2, 2, 2), mk(3, 2, 0)]   # not a penalty card on top
    assert st.piles[2] == [BENEATH]
    assert (2, "late") in [(seat, status) for seat, _k, _off, status in st.last_race.presses]
    # A press after the grace is a penalty press again (FX-10).
    table, st = basic(**SLOW)
    table.race([(1, 200), (4, 300), (2, DEADLINE + 600)])
    table.race(close_after_ms=1000)
    assert st.penalty[2][-1] == BENEATH


def test_FXA25_the_race_panel_shows_exactly_what_was_applied() -> None:
    # P4 owns no focus card: a press 10 ms before the last owner's press is a penalty press,
    # one 10 ms after it (before the verdict is applied, R-6) is late and costs nothing.
    table, st = basic()
    table.race([(1, 200), (4, 300), (3, 690), (2, 700), (0, 710)])
    shown = {seat: status for seat, _k, _off, status in st.last_race.presses}
    assert shown[3] == "penalty" and st.penalty[3] == [mk(3, 3, 3)]
    assert shown[0] == "late" and st.penalty[0] == [] and st.piles[0] == [mk(0, 1, 0)]
    assert shown[2] == "last" and len(st.penalty[2]) == 3
    for seat, status in shown.items():                        # every "penalty" cost its card
        assert (status == "penalty") == any(t == ("penalty", (seat,), tuple(st.penalty[seat][:1]))
                                            for t in st.takes)


def test_FX10_end_when_the_deck_runs_out_fewest_cards_wins() -> None:
    penalty = [[mk(1, 1, 0)], [mk(1, 1, 1), mk(1, 1, 2)], [mk(1, 1, 3), mk(1, 3, 0)], [mk(1, 3, 1), mk(1, 3, 2)]]
    st = position([[mk(0, 1, 0)], [mk(1, 2, 1)], [mk(2, 2, 2)], [mk(3, 3, 3)]], reveal=mk(3, 1, 2),
                  penalty=penalty, active=3, deck=[])
    table = Table(st)
    table.reveal()
    table.race(close_after_ms=500)
    assert st.current_player() == TERMINAL
    assert st.outcome().winners == (0,) and st.outcome().scores == (1.0, 2.0, 2.0, 2.0)


def fx10_tied() -> Any:
    """The last race of a Duel that leaves P1 and P2 tied for the fewest penalty cards (FX-10)."""
    penalty = [[mk(1, 1, 0)], [mk(1, 1, 1)], [mk(1, 1, 3), mk(1, 3, 0)], [mk(1, 3, 1), mk(1, 3, 2)]]
    st = position([[mk(0, 1, 0), mk(2, 4, 0)], [mk(1, 2, 1)], [mk(2, 2, 2)], [mk(3, 3, 3)]], reveal=mk(3, 1, 2),
                  penalty=penalty, active=3, deck=[])
    table = Table(st)
    table.reveal()
    table.race(close_after_ms=500)
    return st


def test_FX10_tie_for_fewest_cards_plays_a_classic_tiebreak_round() -> None:
    st = fx10_tied()
    assert st.current_player() == CHANCE and st.tiebreak is not None
    assert st.tiebreak.sudden == (0, 1)
    cards = sorted(c for p in st.tiebreak.box for c in [p])   # the playing areas' cards (FXA-22)
    assert mk(2, 4, 0) in cards and mk(3, 1, 2) in cards and all(p == [] for p in st.piles)
    st.resolve_chance(random.Random(3))
    tb = st.tiebreak
    assert [len(p) for p in tb.piles][2:] == [0, 0]           # only the tied players get cards
    assert len(tb.piles[0]) == len(tb.piles[1]) == len(cards) // 2
    assert st.legal_actions() and isinstance(st.legal_actions()[0], Place)
    with pytest.raises(IllegalActionError):
        st.apply(Reveal())
    simulate(st, random.Random(4), SimConfig(skills=["expert"] * 4))
    out = st.outcome()
    assert set(out.winners) <= {0, 1}
    if len(out.winners) == 1:
        assert "tie-break" in out.reason
    assert out.scores == (1.0, 1.0, 2.0, 2.0)                 # scores stay the penalty cards
    assert sorted(st.all_cards()) == full_deck()


def _tied_at_the_end(seed: int) -> DuelState:
    """A Duel whose deck just ran out with P1 and P2 tied for fewest penalty cards, the
    playing areas holding one card each (as real games end: 0 to 5 cards there)."""
    rng = random.Random(seed)
    cards = full_deck()
    rng.shuffle(cards)
    piles = [[cards.pop()] for _ in range(4)]
    penalty = [[cards.pop() for _ in range(n)] for n in (14, 14, 16, 15)]
    st = position(piles, penalty=penalty, active=3, deck=[])
    st.box = []
    st.penalty[3] += cards                                   # every other card counts against P4
    assert sorted(st.all_cards()) == full_deck()
    return st


def test_FXA22_the_tiebreak_round_is_dealt_the_whole_deck_and_finds_a_winner() -> None:
    st = _tied_at_the_end(0)
    before = tuple(len(p) for p in st.penalty)
    st._end_of_deck()                                        # the deck ran out: P1 and P2 tied
    assert st.tiebreak is not None and st.tiebreak.sudden == (0, 1)
    assert sorted(st.tiebreak.box) == full_deck()            # all 64 cards, penalty piles too
    assert st.scores() == before == (14, 14, 16, 16)         # the penalty counts stay the scores
    st.resolve_chance(random.Random(1))
    assert len(st.tiebreak.piles[0]) == len(st.tiebreak.piles[1]) == 32
    assert sorted(st.all_cards()) == full_deck()
    # "the first to win a Focus wins" (FX-10): with the whole deck nearly every tie-break
    # round finds its winner (with the playing areas' 4 cards alone none could).
    decided = 0
    for seed in range(12):
        st = _tied_at_the_end(seed)
        st._end_of_deck()
        simulate(st, random.Random(seed), SimConfig(skills=["medium"] * 4))
        out = st.outcome()
        assert set(out.winners) <= {0, 1} and out.scores == (14.0, 14.0, 16.0, 16.0)
        assert sorted(st.all_cards()) == full_deck()
        decided += len(out.winners) == 1 and "tie-break" in out.reason
    assert decided >= 11


def test_FX3_with_the_rule_owners_of_a_focusx_must_claim_focus_ex() -> None:
    # P1 fantastic, P2 and P5 aerial: a FocusX (no plain focus).
    st = position([[mk(0, 1, 0)], [mk(3, 2, 1)], [mk(2, 3, 2)], [mk(1, 4, 3)], []], reveal=mk(3, 3, 3),
                  active=4, x_rule=True)
    table = Table(st)
    table.reveal()
    assert st.trio == (0, 1, 4) and st.trio_kind == "focus-ex"
    table.race([(0, 200, "x"), (4, 300, "x"), (1, 250)])     # P2 pressed, but claimed a plain focus
    assert len(st.penalty[1]) == 3                            # counts as not pressing: last
    assert st.stats["false"] == 1


def test_FXA21_race_results_that_break_the_rules_are_refused() -> None:
    table, st = basic()
    before = st.snapshot()
    for bad in (RaceResult(winners=(1,)), RaceResult(last=(0,)), RaceResult(penalties=(1,)),
                RaceResult(last=(1, 1))):
        with pytest.raises(IllegalActionError):
            st.apply(bad)
    assert st.snapshot() == before


def test_bots_owners_press_in_duel_races_and_headless_is_reproducible() -> None:
    from kiosk.players.headless import run_focusx
    outs = []
    for _ in range(2):
        buf = io.StringIO()
        run_focusx("duel", 5, 2, 3, ["medium"] * 5, {"x_rule": False}, buf)
        outs.append(buf.getvalue())
    assert outs[0] == outs[1]
    lines = [json.loads(x) for x in outs[0].splitlines()]
    for line in lines:
        assert line["mode"] == "duel" and line["races"] >= 1
        assert sum(line["cards"]) <= 64
        assert min(line["cards"][w - 1] for w in line["winners"]) == min(line["cards"])


# -- the scene (SDL dummy driver) ----------------------------------------------------

def test_scene_duel_demo_game_with_simulated_players(tmp_path) -> None:
    import time

    from kiosk.games.focusx.scene import DuelScene
    from kiosk.scenes.results import ResultsScene
    app = make_app(tmp_path, "duel", 5, duel_deadline_ms=800)
    try:
        scene = app.scenes[-1]
        assert isinstance(scene, DuelScene)
        run_until(app, lambda: scene.state.race_no >= 6 or scene.state.is_terminal(),
                  "six races played by the simulated players")
        assert not [m for m, _ in app.messages if "went wrong" in m]
        assert isinstance(app.scenes[-1], (DuelScene, ResultsScene))
        st = scene.state
        assert len(st.deck) < 60 and st.race_no >= 4
        assert len(scene.led_picture(time.monotonic_ns())) == 16
    finally:
        app.close()


def test_scene_duel_race_panel_shows_the_last_to_press_order(tmp_path) -> None:
    import time

    from kiosk.games.focusx.scene import DuelScene
    from kiosk.scenes.seats import SeatInfo
    app = make_app(tmp_path, "duel", 5)
    try:
        seats = [SeatInfo("keyboard", f"key {i + 1}") for i in range(5)]
        scene = DuelScene(app, seats, seed=1, pace_s=5.0)
        st = position(**BASIC)
        st.game = scene.game
        scene.state = st
        scene.referee = Referee(st, JudgeSettings())
        app.replace(scene)
        plan = [(4, 150), (1, 300), (2, 700)]            # P3 presses last
        opened = None

        def pressed_as_planned() -> bool:        # after each frame: the next planned press once due
            nonlocal opened
            w = scene.referee.window
            if opened is None and w is not None and w.opened_ns is not None and st.trio is not None:
                opened = w.opened_ns
            if opened is not None and plan and time.monotonic_ns() - opened > plan[0][1] * MS:
                seat, _ = plan.pop(0)
                t = time.monotonic_ns()
                scene.on_edge(Edge(t, seat, "buzzer", True))
                scene.on_edge(Edge(t + 60 * MS, seat, "buzzer", False))
            return bool(scene.history) and not plan
        run_until(app, pressed_as_planned, "the race with the three planned presses shown")
        entry = scene.history[0]
        assert entry.title.startswith("P3 pressed last")
        assert [(s, status) for s, _k, _ms, status in entry.rows] == [(4, "safe"), (1, "safe"), (2, "last")]
        assert "last to press: P3" in entry.extra
        offsets = [ms for _s, _k, ms, _st in entry.rows]
        assert offsets == sorted(offsets) and offsets[0] > 0
    finally:
        app.close()
