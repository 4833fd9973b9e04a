"""The Sherlook scene on SDL's dummy video driver, in virtual time.

An :class:`~kiosk.app.App` on the default configuration (results in a
temporary folder, LED matrix off) is driven through its own ``App.step`` with
a virtual clock, so stamps are exact and a round takes well under a second.
Asserted is what players notice: the lobby offers Sherlook; the green token,
then the photos; keyboard players take markers with their buzzer or with
A/D/S and the arrow keys; computer players take theirs; the countdown shows
and sounds; the reveal; the results and the saved record.
"""

from __future__ import annotations

import argparse
import types
from pathlib import Path
from typing import Any, Iterator

import pygame
import pytest

import kiosk.app as kapp
from hardware.keyboard import KeyboardBuzzers
from kiosk import cli
from kiosk.config import Config, validate
from kiosk.scenes.lobby import LobbyScene, find_game, lobby_games
from kiosk.scenes.results import ResultsScene
from kiosk.scenes.seats import SeatInfo
from kiosk.scenes.sherlook import SherlookScene

FRAME = 16_666_667


class Clock:
    def __init__(self) -> None:
        self.t = 5_000 * 1_000_000_000
        self.last = 0

    def stamp(self) -> int:
        self.last = max(self.t, self.last + 1000)
        return self.last

    def module(self) -> Any:
        import time as real
        return types.SimpleNamespace(monotonic_ns=lambda: self.t, monotonic=lambda: self.t / 1e9,
                                     perf_counter=real.perf_counter, time=real.time)


class Sounds:
    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, name: str) -> None:
        self.played.append(name)


@pytest.fixture
def kiosk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[kapp.App, Clock]]:
    clock = Clock()
    monkeypatch.setattr(kapp, "time", clock.module())
    pygame.init()
    screen = pygame.display.set_mode((1280, 720))
    raw = {"storage": {"path": str(tmp_path / "results.sqlite3")}, "led": {"port": "none"},
           "sherlook": {"token_s": 0.5, "reveal_s": 2.0}}
    app = kapp.App(Config(validate(raw)), screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))
    app.keyboard = KeyboardBuzzers(queue=app.queue, clock=clock.stamp)
    app.sounds = Sounds()  # type: ignore[assignment]
    pygame.event.clear()
    try:
        yield app, clock
    finally:
        app.close()
        pygame.display.quit()


def run(app: kapp.App, clock: Clock, n: int, until: Any = None) -> int:
    for i in range(n):
        app.step(clock.t)
        clock.t += FRAME
        if until is not None and until():
            return i + 1
    return n


def key(k: int, down: bool = True) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN if down else pygame.KEYUP, key=k, mod=0, unicode=""))


def tap(app: kapp.App, clock: Clock, k: int) -> None:
    key(k)
    run(app, clock, 2)
    key(k, down=False)
    run(app, clock, 2)


def test_lobby_offers_sherlook_for_two_to_six() -> None:
    g = find_game("sherlook", None)
    assert (g.min_seats, g.max_seats) == (2, 6)
    assert any(x.family == "sherlook" for x in lobby_games())


def test_lobby_to_sherlook_with_keyboard_buzzers(kiosk: tuple[kapp.App, Clock]) -> None:
    app, clock = kiosk
    app.push(LobbyScene(app))
    run(app, clock, 1)
    lobby = app.scenes[-1]
    lobby.game_i = next(i for i, g in enumerate(lobby.games) if g.family == "sherlook")
    key(pygame.K_RETURN)
    run(app, clock, 2)
    scene = app.scenes[-1]
    assert isinstance(scene, SherlookScene)
    assert [s.station for s in scene.seats][:2] == ["keyboard", "keyboard"]


def test_a_round_played_with_keys_and_computers(kiosk: tuple[kapp.App, Clock]) -> None:
    """P1 takes a marker with A/D/S, P2 with its buzzer when the number lights up, the two
    computer players with theirs; the round is scored and the reveal shown."""
    app, clock = kiosk
    seats = [SeatInfo("keyboard", "key 1", "medium", True), SeatInfo("keyboard", "key 2", "medium", True),
             SeatInfo("computer", "c3", "expert"), SeatInfo("computer", "c4", "expert")]
    scene = SherlookScene(app, seats, seed=12, rounds=1)
    app.push(scene)
    run(app, clock, 60, until=lambda: scene.phase == "race")
    st = scene.state
    run(app, clock, 3)
    race = scene.referee.current()
    assert race is not None and race.opened_ns is not None           # opened at a flip
    # P1: cursor starts on 4; D moves right, S takes
    tap(app, clock, pygame.K_d)
    assert race.cursor_of(0) in (5, 6)
    want = race.cursor_of(0)
    tap(app, clock, pygame.K_s)
    run(app, clock, 3)
    assert st.markers.get(0) == want
    # P2 presses key 2 while the highlight is on a free marker
    run(app, clock, 400, until=lambda: (race.schedule(clock.t, clock.t) or [(0, 0, 0)])[0][2] not in st.markers.values()
        and clock.t - race.schedule(clock.t, clock.t)[0][0] > 300_000_000)
    lit = race.schedule(clock.t, clock.t)[0][2]
    tap(app, clock, pygame.K_2)
    run(app, clock, 3)
    assert st.markers.get(1) == lit
    # the computers take theirs; the last one may get the countdown
    run(app, clock, 60 * 90, until=lambda: scene.phase == "reveal")
    assert scene.phase == "reveal" and len(st.rounds) == 1
    assert "press" in app.sounds.played and "flip" in app.sounds.played  # type: ignore[attr-defined]
    led = scene.led_picture(clock.t)
    assert led is not None and len(led) == 16
    run(app, clock, 60 * 6, until=lambda: isinstance(app.scenes[-1], ResultsScene))
    assert isinstance(app.scenes[-1], ResultsScene)
    assert app.results is not None and app.results.recent(1)[0]["game"] == "sherlook"


def test_countdown_is_shown_and_heard_then_time_up(kiosk: tuple[kapp.App, Clock]) -> None:
    app, clock = kiosk
    seats = [SeatInfo("keyboard", "key 1", "medium", True), SeatInfo("keyboard", "key 2", "medium", True)]
    scene = SherlookScene(app, seats, seed=3, rounds=1)
    app.push(scene)
    run(app, clock, 60, until=lambda: scene.phase == "race")
    run(app, clock, 3)
    tap(app, clock, pygame.K_s)                                      # P1 takes the marker under its cursor
    run(app, clock, 5)
    race = scene.referee.current()
    assert race is not None and race.countdown_start is not None     # P2 is the last one: 3 s
    screen = app.screen.copy()
    assert screen.get_size() == (1280, 720)
    ticks_before = app.sounds.played.count("tick")  # type: ignore[attr-defined]
    run(app, clock, 60 * 4, until=lambda: scene.phase == "reveal")
    assert app.sounds.played.count("tick") - ticks_before >= 2  # type: ignore[attr-defined]
    assert scene.state.rounds[-1].timed_out == (1,)
    assert scene.state.rounds[-1].score.points.get(1, 0) == 0


def test_every_layout_draws_in_the_race_and_the_reveal(kiosk: tuple[kapp.App, Clock]) -> None:
    app, clock = kiosk
    seats = [SeatInfo("computer", f"c{i}", "expert") for i in range(6)]
    scene = SherlookScene(app, seats, seed=5)
    app.push(scene)
    seen = set()
    for _ in range(3):
        run(app, clock, 60 * 120, until=lambda: scene.phase == "reveal")
        assert scene.phase == "reveal"
        seen.add(scene.state.layout_key)
        run(app, clock, 5)
        run(app, clock, 60 * 5, until=lambda: scene.phase == "race")
    assert len(seen) == 3


def test_demo_command_runs_sherlook() -> None:
    assert cli.main(["--frames", "30", "demo", "--game", "sherlook", "--players", "3"]) == 0
