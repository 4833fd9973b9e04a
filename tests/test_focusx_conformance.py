"""One conformance suite over every FocusX mode (Classic, ThinkFocus, Duel, 4Focus).

* random play with random press storms (bounces, X presses, presses before a
  window opens, double presses, presses by anyone) through the real referee
  and judge never raises and always ends;
* ``apply()`` of an illegal action raises ``IllegalActionError`` and leaves
  ``snapshot()`` unchanged; an action ``check()`` accepts never fails later;
* the 64 cards are always all somewhere (deck, hands, table, piles, victory
  and penalty piles, box) and never twice (FX-1), a hypothesis property;
* records replay to the identical state.
"""

from __future__ import annotations

import heapq
import json
import random
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcade import registry as games
from arcade.core.api import CHANCE, RACE, Action
from arcade.core.errors import IllegalActionError
from arcade.core.events import Edge
from arcade.core.judge import JudgeSettings
from arcade.core.race import FOCUS, FOCUS_EX, RaceResult
from arcade.core.record import replay, to_record
from arcade.core.referee import Referee
from arcade.focusx.cards import DECK_SIZE

MS = 1_000_000

def _seat_counts(spec: games.GameSpec) -> tuple[int, ...]:
    lo, hi = spec.min_seats, spec.max_seats
    return (lo, (lo + hi) // 2, hi) if hi - lo >= 6 else (lo, hi)


#: mode -> (registry name, seat counts to try): every FocusX entry of the registry
#: (the FocusX-rule twins are the same rules with ``x_rule``, tried by each test).
MODES = {s.mode: (s.name, _seat_counts(s)) for s in games.SPECS
         if s.family == "focusx" and "x_rule" not in s.fixed}


def make_state(mode: str, seats: int, x_rule: bool, **extra: Any):
    name = MODES[mode][0]
    settings_: dict[str, Any] = {"x_rule": x_rule}
    spec = games.get(name).game_class().settings_spec
    if "claim_window_s" in spec:
        settings_["claim_window_s"] = extra.get("claim_window_s", 1.0)
    if "duel_deadline_ms" in spec:
        settings_["duel_deadline_ms"] = extra.get("duel_deadline_ms", 1000)
    return games.make(name, seats, settings_).new_initial_state()


def assert_cards_conserved(state) -> None:
    cards = state.all_cards()
    assert sorted(cards) == list(range(DECK_SIZE)), (
        f"cards lost or doubled: missing {sorted(set(range(DECK_SIZE)) - set(cards))}, "
        f"doubled {sorted(c for c in set(cards) if cards.count(c) > 1)}")


def _storm(rng: random.Random, seats: int, t: int, intensity: float = 1.0) -> list[Edge]:
    """A few random presses around ``t``: bounces, X presses, double presses, anyone.

    ``intensity`` (0..1) is the chance that there are any presses at all."""
    edges: list[Edge] = []
    if rng.random() >= intensity:
        return edges
    for _ in range(rng.choice((1, 1, 2, 3, 6))):
        seat = rng.randrange(seats)
        control = rng.choice(("buzzer", "buzzer", "buzzer", "x", "left", "ok"))
        at = t + rng.randint(-80, 900) * MS
        hold = rng.randint(5, 300) * MS
        edges.append(Edge(at, seat, control, True))
        for b in range(rng.choice((0, 0, 2))):          # contact bounce
            edges.append(Edge(at + (b + 1) * 300_000, seat, control, b % 2 == 1))
        edges.append(Edge(at + hold, seat, control, False))
        if rng.random() < 0.2:                          # a double press (FX-3)
            at2 = at + hold + rng.randint(20, 200) * MS
            edges += [Edge(at2, seat, control, True), Edge(at2 + 60 * MS, seat, control, False)]
    rng.shuffle(edges)                                  # delivery order is not stamp order
    return edges


def storm_play(state, rng: random.Random, on_step=None, max_steps: int = 6000) -> Referee:
    """Play to the end: random legal seat actions, random presses, random closes."""
    ref = Referee(state, JudgeSettings(tie_window_ms=rng.choice((0, 20, 120))))
    intensity = rng.choice((0.05, 0.2, 0.5, 1.0))
    t = 10_000 * MS
    steps = 0
    queue: list[tuple[int, int, Edge]] = []      # (delivery time, n, edge): delivered late, shuffled
    count = 0

    def send(edges: list[Edge]) -> None:
        nonlocal count
        for e in edges:
            count += 1
            heapq.heappush(queue, (e.t_ns + rng.randint(0, 8 * MS), count, e))

    def deliver(now: int) -> None:
        while queue and queue[0][0] <= now:
            ref.feed(heapq.heappop(queue)[2])

    while not state.is_terminal():
        steps += 1
        assert steps < max_steps, "the game did not end"
        cp = state.current_player()
        if cp == CHANCE:
            ref.apply(state.chance_outcome(rng))
        elif cp >= 0:
            legal = state.legal_actions()
            assert legal, f"seat {cp} has no legal action"
            ref.apply(legal[rng.randrange(len(legal))], cp)
        else:
            assert cp == RACE
            w = ref.window
            assert w is not None
            if w.opened_ns is None:
                send(_storm(rng, state.seats, t - 100 * MS, intensity))   # presses around the opening
                t += 16 * MS
                ref.frame_shown(t)
                if w.spec.window_ms is None and (w.spec.mode != "last" or not w.spec.eligible):
                    ref.request_close(t + rng.randint(100, 3000) * MS)
                elif rng.random() < 0.1:
                    ref.request_close(t + rng.randint(100, 3000) * MS)
            send(_storm(rng, state.seats, t, intensity))
            t += rng.randint(1, 600) * MS
            deliver(t)
            ref.tick(t)
        if on_step is not None:
            on_step(state)
    return ref


CASES = [(mode, seats, x) for mode, (_, counts) in MODES.items() for seats in counts for x in (False, True)]


@pytest.mark.parametrize("mode,seats,x_rule", CASES)
def test_storm_play_never_raises_and_conserves_cards(mode: str, seats: int, x_rule: bool) -> None:
    for k in range(2):
        rng = random.Random(f"storm-{mode}-{seats}-{x_rule}-{k}")
        state = make_state(mode, seats, x_rule)
        storm_play(state, rng, on_step=assert_cards_conserved)
        out = state.outcome()
        assert out is not None and set(out.winners) <= set(range(seats))
        assert len(out.scores) == seats
        for key in ("races", "debated", "false", "missed"):
            assert isinstance(state.stats[key], int) and state.stats[key] >= 0


@pytest.mark.parametrize("mode", list(MODES))
def test_records_replay_to_the_same_state(mode: str) -> None:
    seats = MODES[mode][1][0]
    state = make_state(mode, seats, True)
    storm_play(state, random.Random(f"replay-{mode}"))
    record = json.loads(json.dumps(to_record(state, seed=5)))
    again = replay(record, games.make)
    assert again.snapshot() == state.snapshot()
    assert again.outcome() == state.outcome()


# -- illegal actions ---------------------------------------------------------------

def _random_value(rng: random.Random, name: str, state) -> Any:
    n = state.seats
    if name in ("card",):
        return rng.choice((rng.randrange(-2, DECK_SIZE + 2), rng.randrange(DECK_SIZE), "7", None))
    if name in ("row", "spot"):
        return rng.choice((rng.randrange(-1, 6), "1"))
    if name in ("x", "y"):
        return rng.choice((rng.randrange(-6, 7), 1.5, True))
    if name == "order":
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        return tuple(rng.choice((deck, deck[:-1], deck + [0], [c if c else 1 for c in deck])))
    if name in ("winners", "last", "false_shouts", "penalties", "late"):
        return tuple(rng.choice((rng.randrange(-1, n + 1), rng.randrange(n))) for _ in range(rng.choice((0, 0, 1, 2, 4))))
    if name == "kind":
        return rng.choice((FOCUS, FOCUS_EX, "focus-4"))
    if name == "closed":
        return rng.random() < 0.5
    if name == "presses":
        return tuple((rng.randrange(n), rng.choice((FOCUS, FOCUS_EX)), rng.randrange(10_000),
                      rng.choice(("claim", "first", "false"))) for _ in range(rng.choice((0, 1, 2))))
    return rng.randrange(-2, 10)


def fuzz_actions(state, rng: random.Random, count: int = 12) -> list[tuple[int, Action]]:
    """Random actions of every type of the game, by the current player or another."""
    out = []
    types = list(state.game.action_types)
    for _ in range(count):
        cls = rng.choice(types)
        kwargs = {f.name: _random_value(rng, f.name, state) for f in fields(cls)}
        player = state.current_player() if rng.random() < 0.8 else rng.randrange(-3, state.seats)
        out.append((player, cls(**kwargs)))
    for a in state.legal_actions()[:3]:                   # right action, wrong player
        wrong = rng.choice([p for p in range(-3, state.seats) if p != state.current_player()])
        out.append((wrong, a))
    return out


@pytest.mark.parametrize("mode", list(MODES))
def test_illegal_actions_raise_and_change_nothing(mode: str) -> None:
    seats = MODES[mode][1][1 if mode == "classic" else -1]
    checked = {"refused": 0, "accepted": 0}

    def probe(state) -> None:
        if state.is_terminal() or prng.random() < 0.7:
            return
        for player, action in fuzz_actions(state, prng, 8):
            before = state.snapshot()
            history = len(state.history)
            reason = state.check(player, action) if player == state.current_player() else "wrong player"
            if reason is not None:
                with pytest.raises(IllegalActionError):
                    state.apply(action, player)
                assert state.snapshot() == before
                assert len(state.history) == history
                checked["refused"] += 1
            else:
                trial = state.clone()
                trial.apply(action, player)                 # accepted: must not fail inside
                assert_cards_conserved(trial)
                checked["accepted"] += 1

    for x_rule in (False, True):
        prng = random.Random(f"fuzz-{mode}-{x_rule}")
        storm_play(make_state(mode, seats, x_rule), random.Random(f"fuzzplay-{mode}-{x_rule}"), on_step=probe)
    assert checked["refused"] > 100


@pytest.mark.parametrize("mode", list(MODES))
def test_apply_after_the_end_is_refused(mode: str) -> None:
    state = make_state(mode, MODES[mode][1][0], False)
    storm_play(state, random.Random(f"end-{mode}"))
    before = state.snapshot()
    for action in state.game.action_types:
        try:
            a = action() if not fields(action) else None
        except TypeError:
            a = None
        if a is not None:
            with pytest.raises(IllegalActionError):
                state.apply(a)
    with pytest.raises(IllegalActionError):
        state.apply(RaceResult(closed=True))
    assert state.snapshot() == before


# -- the hypothesis property (FX-1) --------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(sorted(MODES)), seed=st.integers(0, 2**32 - 1),
       x_rule=st.booleans(), data=st.data())
def test_the_64_cards_are_always_all_somewhere_and_never_twice(mode: str, seed: int,
                                                                x_rule: bool, data: st.DataObject) -> None:
    seats = data.draw(st.sampled_from(MODES[mode][1]), label="seats")
    state = make_state(mode, seats, x_rule)
    storm_play(state, random.Random(seed), on_step=assert_cards_conserved)
    assert_cards_conserved(state)


def test_a_buzzer_press_then_an_x_press_is_never_false_then_first() -> None:
    """Found by the storms: with the FocusX rule a single buzzer press waits for a possible
    second press (FX-3); an X press of the same seat meanwhile must not be judged false
    while the buzzer claim can still win (the engines refuse a winner who shouted falsely)."""
    state = make_state("classic", 2, True)
    ref = Referee(state, JudgeSettings())
    state.resolve_chance(random.Random(0))
    ref._sync()
    # lay cards until a plain focus shows
    t = 10_000 * MS
    while not (state.current_player() == RACE and FOCUS in state.race_spec().valid_kinds):
        if state.current_player() == RACE:
            t += 16 * MS
            ref.frame_shown(t)
            ref.request_close(t)
            t += 100 * MS
            ref.tick(t)
        else:
            ref.apply(state.default_action(), state.current_player())
        assert not state.is_terminal()
    t += 16 * MS
    ref.frame_shown(t)
    for e in (Edge(t + 100 * MS, 0, "buzzer", True), Edge(t + 180 * MS, 0, "buzzer", False),
              Edge(t + 250 * MS, 0, "x", True), Edge(t + 300 * MS, 0, "x", False)):
        ref.feed(e)
    won = state.stats["races"]
    for step in range(1, 300):
        ref.tick(t + step * 5 * MS)
        assert 0 not in state.race_out, "seat 0 was judged false before its first claim was known"
    assert state.stats["races"] == won + 1 and state.stats["false"] == 0
