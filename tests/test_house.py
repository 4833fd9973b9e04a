"""The game-driving loop exists once: the match driver (arcade/core/driver.py).

What this guards, as a player would notice it: every game screen plays a whole game with
computer players at every seat, and each move, deal and race result reaches the game only
through the driver (a screen that dealt, drew a chance outcome or applied a move itself
fails here, for every registry entry's screen, with no test written per game).  The FOCUS
screen's searching computer plays through the driver from the thinking process while the
frame loop goes on; a killed worker still gets the move made; leaving cancels the thought.
And the driver's own frame-loop API: a thought is polled, never waited for; a chance
source that is not ready yet is waited for without blocking; seats that move at once;
a person's turn that runs out.
"""

from __future__ import annotations

import os
import random
import signal
import sys
from pathlib import Path
from typing import Any, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from virtual_kiosk import FRAME, Clock, thoughts_back, virtual_app  # noqa: E402
from waiting import WAIT_S, wait_until  # noqa: E402

import kiosk.app.loop as kapp  # noqa: E402
from arcade import registry  # noqa: E402
from arcade.core.api import CHANCE, Action, State  # noqa: E402
from arcade.core.driver import MS, ComputerPlayer, Driver, DriverSettings  # noqa: E402
from kiosk.controls.input import Command  # noqa: E402
from kiosk.scenes.lobby import lobby_games  # noqa: E402
from kiosk.scenes.results import ResultsScene  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402

DRIVER_FILE = os.path.join("arcade", "core", "driver.py")
GAMES = {g.name: g for g in lobby_games()}


@pytest.fixture
def kiosk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[kapp.App, Clock]]:
    clock = Clock()
    app = virtual_app(tmp_path, monkeypatch, clock, {"token_s": 0.2, "reveal_s": 1.0})
    app.pace_override = 0.05
    pygame.event.clear()
    try:
        yield app, clock
    finally:
        app.close()


def play_through(app: kapp.App, clock: Clock, scene: Any, minutes: int) -> None:
    """Run the app's frames until ``scene`` leaves the top (at most ``minutes`` of kiosk time).
    While a thought is out (a computer in the worker, Sherlook's photos being made) the
    virtual clock waits for it to come back (the frame that asked it has returned already)."""
    for _ in range(60 * 60 * minutes):
        if app.scenes[-1] is not scene:
            return
        app.step(clock.t)
        clock.t += FRAME
        if scene.driver.waiting():
            thoughts_back(scene)


def through_driver() -> bool:
    """True when the match driver is on the call stack (its frame-loop or virtual-time code)."""
    f = sys._getframe(2)
    while f is not None:
        if f.f_code.co_filename.endswith(DRIVER_FILE):
            return True
        f = f.f_back
    return False


class Watch:
    """Records every change of the live state of ``scene``: was the driver on the stack?"""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, scene: Any) -> None:
        self.scene = scene
        self.applied = 0
        self.outside: list[str] = []
        self.submits = 0
        cls = type(scene.state)
        apply, chance = cls.apply, cls.chance_outcome
        watch = self

        def watched_apply(state: State, action: Action, player: int | None = None) -> None:
            live = state is watch.scene.state
            if live and not through_driver():
                watch.outside.append(f"apply {action!r}")
            apply(state, action, player)
            if live:
                watch.applied += 1

        def watched_chance(state: State, rng: random.Random) -> Action:
            # drawn by the driver itself, not by a screen's hook the driver happens to call
            if state is watch.scene.state and not sys._getframe(1).f_code.co_filename.endswith(DRIVER_FILE):
                watch.outside.append("chance_outcome")
            return chance(state, rng)  # type: ignore[no-any-return]

        real_submit = Driver.submit

        def watched_submit(driver: Driver, seat: int, action: Action) -> None:
            watch.submits += 1
            real_submit(driver, seat, action)

        monkeypatch.setattr(cls, "apply", watched_apply)
        monkeypatch.setattr(cls, "chance_outcome", watched_chance)
        monkeypatch.setattr(Driver, "submit", watched_submit)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_screen_plays_a_whole_game_of_computers_only_through_the_driver(
        kiosk: tuple[kapp.App, Clock], monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    app, clock = kiosk
    game = GAMES[name]
    seats = [SeatInfo("computer", f"computer {i + 1}", "easy") for i in range(max(game.min_seats, 2))]
    scene = game.start(app, seats)
    monkeypatch.setattr(type(scene), "draw", lambda self, surface: None)     # drawing is not what is asked
    app.push(scene)
    if getattr(scene, "setup", False):
        scene.on_command(Command("ok"))               # Focus (2023): start with all the cards
    watch = Watch(monkeypatch, scene)
    play_through(app, clock, scene, minutes=20)
    assert scene.state.is_terminal(), f"{name}: the game did not end"
    assert isinstance(app.scenes[-1], ResultsScene), name
    assert watch.outside == [], f"{name}: changed by the screen itself: {watch.outside[:3]}"
    assert watch.applied == len(scene.state.history) > 0, f"{name}: a change bypassed State.apply"
    assert watch.submits == 0, f"{name}: a computer's move or chance was submitted by the screen"


# -- the FOCUS screen's searching computer, through the driver ---------------------------------

def test_a_FOCUS_game_with_a_searching_computer_finishes_from_the_worker_and_never_blocks(
        kiosk: tuple[kapp.App, Clock]) -> None:
    from kiosk.games.sackson.scene import SacksonScene
    from kiosk.players import thinker as thinker_mod
    app, clock = kiosk
    hard = SeatInfo("computer", "computer (hard)", "hard")
    scene = SacksonScene(app, [hard, SeatInfo("computer", "computer (easy)", "easy")], "2p", seed=4,
                         max_nodes=300)
    app.push(scene)
    futures: dict[int, Any] = {}                   # id -> future of each computer move asked
    seat_of: dict[int, int] = {}
    returned_while_thinking = [0]
    tick = scene.driver.tick

    def counted_tick(now_ns: int) -> list[Any]:
        events = tick(now_ns)
        fut = scene.future
        if fut is not None:
            futures.setdefault(id(fut), fut)
            seat_of.setdefault(id(fut), next(iter(scene.driver.thinking())))
            if not fut.done():                     # tick() returned while the worker still thinks
                returned_while_thinking[0] += 1
        return events

    scene.driver.tick = counted_tick  # type: ignore[method-assign]
    play_through(app, clock, scene, minutes=30)
    st = scene.state
    assert st.is_terminal() and isinstance(app.scenes[-1], ResultsScene)
    answers = [f.result() for f in futures.values()]
    assert len(answers) == len(st.history)                   # one request per computer move
    assert all(a.source == "worker" for a in answers)        # every move came from the worker process
    searched = [a.nodes for k, a in zip(futures, answers) if seat_of[k] == 0]
    assert searched and all(n > 0 for n in searched)         # the hard seat's search ran there
    assert returned_while_thinking[0] >= len(searched)        # the frame loop never waited for a search
    assert scene.thinker is thinker_mod.shared() and scene.thinker.pid not in (None, os.getpid())


def test_a_killed_worker_still_gets_the_move_made_through_the_driver(kiosk: tuple[kapp.App, Clock]) -> None:
    from kiosk.games.sackson.scene import SacksonScene
    app, clock = kiosk
    hard = SeatInfo("computer", "computer (hard)", "hard")
    scene = SacksonScene(app, [hard, hard], "crossfire", seed=9, max_nodes=50_000_000)  # a very long think
    app.push(scene)
    app.step(clock.t)
    fut = scene.future
    assert fut is not None and scene.driver.thinking() == {0: clock.t}
    th = scene.thinker
    os.kill(wait_until(lambda: th.pid, what="the thinking worker running"), signal.SIGKILL)
    scene.max_nodes = 2000             # the next thought (a level is its node budget: no clock ends it)
    assert fut.result(timeout=WAIT_S).source == "fallback"          # the thinker saw it die
    frames = 0
    while not scene.state.history and frames < 60 * 60:
        clock.t += FRAME
        app.step(clock.t)
        frames += 1
    assert len(scene.state.history) == 1 and scene.state.history[0][0] == 0
    assert any("stopped" in m for m, _t in app.messages)


def test_leaving_while_the_computer_thinks_cancels_the_thought(kiosk: tuple[kapp.App, Clock]) -> None:
    from kiosk.games.sackson.scene import SacksonScene
    app, clock = kiosk
    hard = SeatInfo("computer", "computer (hard)", "hard")
    scene = SacksonScene(app, [hard, hard], "2p", seed=3, max_nodes=50_000_000)
    app.push(scene)
    app.step(clock.t)
    fut = scene.future
    assert fut is not None and not fut.done() and scene.thinker.busy
    scene.leave()
    assert app.scenes[-1] is not scene
    assert fut.cancelled() and not scene.thinker.busy and scene.driver.thinking() == {}
    assert scene.state.history == []


# -- the driver's frame-loop API, pure -----------------------------------------------------------

class Later:
    """A thought answered when the test says so."""

    def __init__(self) -> None:
        self.action: Action | None = None
        self.cancelled = False

    def result(self) -> Action | None:
        return self.action

    def cancel(self) -> None:
        self.cancelled = True


class Elsewhere(ComputerPlayer):
    """Thinks "elsewhere" in the frame loop; in virtual time plays the first legal move."""

    think_ns = 200 * MS

    def __init__(self) -> None:
        self.thoughts: list[Later] = []

    def begin(self, state: State, seat: int, rng: random.Random) -> Later:
        self.thoughts.append(Later())
        return self.thoughts[-1]

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return state.legal_actions(seat)[0]


def test_a_thought_is_polled_not_waited_for_and_shows_no_sooner_than_its_pause() -> None:
    spec = registry.get("focus-2p")
    state = spec.new_state()
    player = Elsewhere()
    driver = Driver(state, [player, None], random.Random(1), DriverSettings(pace_ns=None))
    for t in range(0, 1000 * MS, 50 * MS):
        driver.tick(t)                                     # returns at once: nothing to wait for
    assert state.history == [] and len(player.thoughts) == 1 and driver.thinking() == {0: 0}
    move = state.legal_actions(0)[3]
    player.thoughts[0].action = move
    driver.tick(1000 * MS)
    assert state.history == [(0, move)] and driver.thinking() == {}
    # a person's move, then the computer again: ready at once, but shown only after its pause
    driver.submit(1, state.legal_actions(1)[0])
    driver.tick(2000 * MS)
    player.thoughts[1].action = state.legal_actions(0)[0]
    driver.tick(2000 * MS + 150 * MS)
    assert len(state.history) == 2
    driver.tick(2000 * MS + 200 * MS)
    assert len(state.history) == 3


def test_a_thought_whose_turn_is_gone_is_cancelled_and_virtual_time_never_asks_for_one() -> None:
    spec = registry.get("focus-2p")
    state = spec.new_state()
    player = Elsewhere()
    driver = Driver(state, [player, None], random.Random(1), DriverSettings(pace_ns=None))
    driver.tick(0)
    first = player.thoughts[0]
    driver.set_player(0, None)                        # a person takes the seat back
    assert first.cancelled and driver.thinking() == {}
    driver.set_player(0, player)
    driver.tick(10 * MS)
    driver.cancel()                                   # the screen is left
    assert player.thoughts[1].cancelled
    other = spec.new_state()
    Driver(other, [player, Elsewhere()], random.Random(1),
           DriverSettings(pace_ns=None, stop=lambda st: len(st.history) >= 6)).run_to_end()
    assert len(other.history) == 6 and len(player.thoughts) == 2     # choose(), no new thought


def test_a_chance_source_not_ready_yet_is_waited_for_after_the_pause() -> None:
    spec = registry.get("coop-base")
    state = spec.new_state()
    assert state.current_player() == CHANCE
    pending = Later()
    asked: list[int] = []

    drawn: list[Action] = []

    def source(st: State, outcome: Action) -> Later:
        asked.append(len(st.history))
        drawn.append(outcome)
        return pending

    driver = spec.driver(state, [None, None], random.Random(2), chance_pause=lambda st: 500 * MS,
                         chance_source=source)
    driver.tick(0)
    driver.tick(800 * MS)
    assert state.current_player() == CHANCE and asked == [0]          # begun once, not ready
    assert drawn == [state.chance_outcome(random.Random(2))]            # the driver drew it, from its rng
    assert driver.waiting()                                               # the screen can say "dealing..."
    pending.action = drawn[0]
    driver.tick(900 * MS)
    assert state.history[0][0] == CHANCE and asked == [0]
    assert not driver.waiting()


class Partner(ComputerPlayer):
    """Focus (2023): takes the first card it may; ``eager`` offers and accepts at once."""

    think_ns = 0

    def __init__(self, eager: bool) -> None:
        self.eager = eager

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        from arcade.coop.game import Accept, Offer, Pass, Take
        st: Any = state
        acts = st.legal_actions(seat)
        if self.eager:
            for a in acts:
                if isinstance(a, (Offer, Accept)):
                    return a
        if st.phase == "point":
            return acts[0]  # type: ignore[no-any-return]
        if st.phase == "end":
            return Pass()
        return next(a for a in acts if isinstance(a, (Take, Accept)))


def test_both_seats_point_at_once_the_computer_not_waiting_for_the_person() -> None:
    """CO-5: while pointing, the driver asks the computer seat even though the person's
    seat is "first"; the person's point is taken too."""
    spec = registry.get("coop-sherlock")
    state: Any = spec.new_state()
    driver = spec.driver(state, [Partner(True), Partner(True)], random.Random(3),
                         stop=lambda st: st.phase == "point")
    t = 0
    while state.phase != "point" and t < 10**12:
        driver.tick(t)
        t += 100 * MS
    assert state.phase == "point" and state.points == {} or not state.points
    driver.settings.stop = None
    driver.set_player(0, None)                       # seat 1 is a person now
    assert state.current_player() == 0
    driver.tick(t)
    assert 1 in state.points and 0 not in state.points
    driver.submit(0, state.legal_actions(0)[0])
    assert 0 in state.points or state.phase != "point"


def test_a_persons_turn_that_runs_out_is_passed_by_the_driver() -> None:
    """CO-6: the end of a person's turn passes by itself when the offer window closes."""
    from arcade.coop.game import Pass
    spec = registry.get("coop-sherlock")
    state: Any = spec.new_state()
    driver = spec.driver(state, [Partner(False), Partner(False)], random.Random(4),
                         stop=lambda st: st.phase == "end",
                         time_limit=lambda st, seat: (300 * MS, Pass()) if st.phase == "end" else None)
    t = 0
    while state.phase != "end" and t < 10**12:
        driver.tick(t)
        t += 100 * MS
    assert state.phase == "end"
    seat = state.active
    driver.settings.stop = None
    driver.set_player(seat, None)
    driver.tick(t)
    assert driver.due(seat) == t + 300 * MS and driver.next_due() == t + 300 * MS
    driver.tick(t + 299 * MS)
    assert state.phase == "end" and state.active == seat
    moves = len(state.history)
    driver.tick(t + 300 * MS)
    assert state.history[moves] == (seat, Pass())


def test_next_due_is_when_the_computer_moves_after_its_pause() -> None:
    """A loop that sleeps until ``next_due()`` wakes for the computer's move, not twice its pause."""
    spec = registry.get("focus-2p")
    state = spec.new_state()
    player = Elsewhere()
    player.begin = lambda st, seat, rng: None  # type: ignore[method-assign]   # thinks in place
    driver = Driver(state, [None, player], random.Random(1), DriverSettings(pace_ns=None))
    driver.tick(1000 * MS)
    driver.submit(0, state.legal_actions(0)[0])
    due = driver.next_due()
    assert due == 1000 * MS + player.think_ns
    driver.tick(due - 1)
    assert len(state.history) == 1
    driver.tick(due)
    assert len(state.history) == 2 and state.history[1][0] == 1


def _turn_window(players: list[Any], seed: int = 1) -> tuple[Any, Driver, int]:
    """A ThinkFocus match in the frame loop, ticked (16 ms frames) to the first turn-start
    window (FX-4: the active seat lays a card; its choice ends the window)."""
    spec = registry.get("focusx-thinkfocus")
    state: Any = spec.new_state(4)
    driver = spec.driver(state, players, random.Random(seed), pace_ns=None)
    t = 0
    while not (driver.early_seat() is not None and state.window == "turn"):
        driver.tick(t)
        driver.frame_shown(t + 1)
        t += 16 * MS
        assert t < 60_000 * MS, "no turn-start window"
    return state, driver, t


def _frames(state: Any, driver: Driver, t: int, until: Any, limit_ms: int = 20_000) -> int:
    end = t + limit_ms * MS
    while not until() and t < end:
        t += 16 * MS
        driver.tick(t)
        driver.frame_shown(t + 1)
    return t


def test_a_persons_card_chosen_in_the_turn_start_window_ends_it_and_is_laid() -> None:
    """ThinkFocus (FX-4): the person chooses during the 4 s turn-start window; the window
    ends at once (judged after the settle time) and the card is laid at their turn."""
    state, driver, t = _turn_window([None] * 4)
    seat = state.active
    play = list(state.turn_actions(seat))[0]
    assert state.race_spec().window_ms == 4000
    driver.submit(seat, play)
    assert driver.held(seat) and len(state.history) == (moves := len(state.history))
    t2 = _frames(state, driver, t, lambda: not driver.held(seat))
    assert (seat, play) in state.history[moves:]
    assert t2 - t < 500 * MS                       # not the window's 4 s


def test_an_illegal_held_card_is_dropped_and_the_person_chooses_again() -> None:
    from arcade.focusx.thinkfocus import Play
    state, driver, t = _turn_window([None] * 4, seed=2)
    seat = state.active
    moves = len(state.history)
    driver.submit(seat, Play(card=63 if 63 not in state.hands[seat] else 62, row=0))
    _frames(state, driver, t, lambda: not driver.held(seat))
    assert state.current_player() == seat and not driver.held(seat)
    assert all(actor != seat for actor, _a in state.history[moves:])   # nothing laid for them
    driver.submit(seat, list(state.legal_actions(seat))[0])             # their own choice is taken
    assert state.history[-1][0] == seat


class Placer(ComputerPlayer):
    """Lays its first card after ``think_ns``; counts its choices."""

    think_ns = 600 * MS

    def __init__(self) -> None:
        self.chosen = 0

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        self.chosen += 1
        return list(state.legal_actions(seat))[0]


def test_a_computer_ends_its_turn_start_window_after_its_pause_and_lays_without_a_second() -> None:
    players: list[Any] = [Placer() for _ in range(4)]
    state, driver, t = _turn_window(players)
    seat = state.active
    moves = len(state.history)
    t_mid = _frames(state, driver, t, lambda: False, limit_ms=400)
    assert state.current_player() < 0 and state.window == "turn"        # still pausing
    laid = _frames(state, driver, t_mid, lambda: any(a == seat for a, _x in state.history[moves:]))
    assert any(a == seat for a, _x in state.history[moves:])
    # one pause (600 ms) plus the settle time: not the 4 s window, not a second 600 ms pause
    assert 600 * MS <= laid - t < 1100 * MS


def test_no_screen_asks_computer_players_for_their_race_presses_itself() -> None:
    """Only the match driver asks computer players for presses when a race opens (issue 9):
    a screen's own copy of that loop (FocusX's ``_plan_computers``) drifts from the driver's."""
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[1] / "kiosk"
    found = [f"{p.relative_to(root)}:{i}" for p in sorted(root.rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if ".race_opened(" in line and "def race_opened" not in line
             and "self.inner.race_opened(" not in line]
    assert found == []


@pytest.mark.parametrize("name", [n for n in GAMES if n.startswith("focusx") or n == "sherlook"])
def test_a_screen_and_its_results_name_the_entry_by_its_registry_label(kiosk: tuple[kapp.App, Clock],
                                                                      name: str) -> None:
    """The title strip, the results screen and a resumed game say "FocusX Duel + FocusX rule",
    not the rules' plain "FocusX Duel"."""
    app, _clock = kiosk
    game = GAMES[name]
    seats = [SeatInfo("computer", f"computer {i + 1}", "easy") for i in range(game.min_seats)]
    scene = game.start(app, seats)
    assert scene.title == registry.get(name).label
