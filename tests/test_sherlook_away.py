"""Sherlook never waits for a seat that nobody is at (issue 10; SL-3, SLA-3).

A Sherlook round has no turns: every seat races for a marker at once, so the
away-player rule (kiosk/players/away.py: a computer plays an idle person's *turn*) has
nothing to take over.  What the host notices instead: a seat nobody is at never
holds a round up.  When everyone else has a marker, the last seat's countdown
(``countdown_s``) runs out; when several seats never press, the round limit
(``round_limit_s``, SLA-3) gives all of them the countdown.  The round is
scored without them and the game goes on to its end and the results.  When no
person has pressed for two whole rounds, everyone has left: the game is put
away and the title comes back (issue 20, kiosk/players/away.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arcade.core.api import RACE
from kiosk.games.sherlook.scene import SherlookScene
from kiosk.scenes.results import ResultsScene
from kiosk.scenes.seats import SeatInfo
from tests.test_event_day import MS, Day, S, event_config
from tests.waiting import joined

ROUND_LIMIT_S = 5          # event_config's [sherlook] round_limit_s (the smallest allowed)
COUNTDOWN_S = 3.0


def play(d: Day, scene: SherlookScene, limit_frames: int = 6000) -> tuple[ResultsScene, list[float]]:
    """Frames until the results, nobody pressing at the absent seats; returns the results and how
    long (virtual seconds) each round's race stayed open."""
    opened: int | None = None
    lasted: list[float] = []
    for _ in range(limit_frames):
        top = d.top
        if isinstance(top, ResultsScene):
            return top, lasted
        race = scene.referee.current()
        racing = scene.state.current_player() == RACE and race is not None and race.opened_ns is not None
        if racing and opened is None:
            opened = race.opened_ns
        elif not racing and opened is not None:
            lasted.append((d.clock.t - opened) / S)
            opened = None
        if scene.next_round is not None:     # the next photos are made in a worker thread (real time)
            joined(scene.next_round[1], what="Sherlook's next photos")
        d.frames(1, 50 * MS)
    raise AssertionError(f"the game did not end: round {scene.state.round_no}, phase {scene.phase}")


@pytest.fixture
def day(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    d = Day(event_config(tmp_path, idle={"turn_s": 5}), monkeypatch)
    try:
        yield d
    finally:
        d.close()


@pytest.fixture
def day_long_turns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """``turn_s`` 60: an empty room is not called before the short games below end."""
    d = Day(event_config(tmp_path, idle={"turn_s": 60}), monkeypatch)
    try:
        yield d
    finally:
        d.close()


def test_a_seat_nobody_is_at_runs_out_of_time_each_round_and_the_game_ends(day_long_turns: Day) -> None:
    d, app = day_long_turns, day_long_turns.app
    seats = [SeatInfo("gpio", "GPIO 17"), SeatInfo("computer", "computer 2", "hard"),
             SeatInfo("computer", "computer 3", "hard")]
    scene = SherlookScene(app, list(seats), rounds=2)
    app.replace(scene)
    results, lasted = play(d, scene)
    st = scene.state
    assert st.is_terminal() and len(st.rounds) >= 2
    for r in st.rounds:
        if not r.extra:                                          # (an extra round is the tied computers')
            assert 0 not in r.markers and 0 in r.timed_out      # P1 never pressed: no marker, no score
    assert st.points[0] == 0 and st.outcome().winners and 0 not in st.outcome().winners
    # never waited for P1: at most the round limit and the countdown, however the computers play
    assert lasted and max(lasted) <= ROUND_LIMIT_S + COUNTDOWN_S + 1
    # the away rule did not take the seat: there are no turns to take over
    assert scene.seats[0] == seats[0] and not app.idle.away
    assert not any("seems to be away" in m for m, _ in app.messages)
    assert results.seats[0].station == "gpio"


def test_rounds_where_nobody_presses_end_at_the_round_limit_and_then_the_game_is_put_away(day: Day) -> None:
    from kiosk.scenes.attract import AttractScene
    d, app = day, day.app
    scene = SherlookScene(app, [SeatInfo("gpio", "GPIO 17"), SeatInfo("gpio", "GPIO 27")], rounds=1)
    app.replace(scene)
    start = d.clock.t
    opened: int | None = None
    lasted: list[float] = []
    for _ in range(6000):
        if d.top is not scene:
            break
        race = scene.referee.current()
        racing = scene.state.current_player() == RACE and race is not None and race.opened_ns is not None
        if racing and opened is None:
            opened = race.opened_ns
        elif not racing and opened is not None:
            lasted.append((d.clock.t - opened) / S)
            opened = None
        if scene.next_round is not None:     # the next photos are made in a worker thread (real time)
            joined(scene.next_round[1], what="Sherlook's next photos")
        d.frames(1, 50 * MS)
    st = scene.state
    assert all(set(r.timed_out) == {0, 1} for r in st.rounds)      # every round: both ran out of time
    assert all(ROUND_LIMIT_S <= x <= ROUND_LIMIT_S + COUNTDOWN_S + 1 for x in lasted), lasted
    # tied at 0 the extra rounds (SLA-5) would follow for nobody: after two rounds' time (each its
    # limit, countdown, reveal and token) with no press the room is empty, the game is put away
    # and the title comes back (issue 20)
    assert lasted and not st.is_terminal()
    assert isinstance(d.top, AttractScene)
    assert (d.clock.t - start) / S >= 2 * (ROUND_LIMIT_S + COUNTDOWN_S)
    assert any("everyone seems to have left" in m for m, _ in app.messages)
