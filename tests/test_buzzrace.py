"""The example game kept in the tree, Buzz Race (docs/new-game.md), as a player and the
operator would notice it: its screen plays a whole game of computers through the match
driver to the results; a person's buzzer press after GO takes the round, a press before GO
does not; the screen reads at every size; and the arcade never offers it (not in the lobby,
the attract loop, the command line's names), while the tests find it through
``registry.examples()``.  The rules-level checks are the conformance suite's
(tests/test_conformance.py runs every test there on it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from virtual_kiosk import FRAME, Clock, virtual_app  # noqa: E402

import kiosk.app.loop as kapp  # noqa: E402
from arcade import registry  # noqa: E402
from arcade.core.api import RACE  # noqa: E402
from arcade.core.errors import SettingsError  # noqa: E402
from arcade.core.events import Edge  # noqa: E402
from kiosk import render  # noqa: E402
from kiosk.scenes.results import ResultsScene  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.test_house import Watch, play_through  # noqa: E402

MS = 1_000_000


@pytest.fixture
def kiosk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[kapp.App, Clock]]:
    clock = Clock()
    app = virtual_app(tmp_path, monkeypatch, clock, {})
    pygame.event.clear()
    try:
        with registry.examples():
            yield app, clock
    finally:
        app.close()


def _scene(app: kapp.App, seats: list[SeatInfo]) -> Any:
    from kiosk.games.buzzrace.scene import LOBBY_GAMES
    return LOBBY_GAMES[0].start(app, seats)


def test_the_arcade_never_offers_the_example() -> None:
    from kiosk import cli
    from kiosk.scenes.lobby import lobby_games
    assert "buzzrace" not in registry.names() and "buzzrace" not in registry.families()
    assert all(s.name != "buzzrace" for s in registry.SPECS)
    with pytest.raises(SettingsError, match="unknown game 'buzzrace'"):
        registry.get("buzzrace")
    assert cli.main(["headless", "--game", "buzzrace", "--games", "0"]) == 2
    with registry.examples():                     # even while the tests find it
        assert registry.get("buzzrace").label == "Buzz Race (example)"
        assert "buzzrace" not in [g.name for g in lobby_games()]     # (the attract loop's demo games too)
        assert "buzzrace" not in registry.names()
    with pytest.raises(SettingsError):
        registry.get("buzzrace")                  # ... and only while they do


def test_the_screen_plays_a_whole_game_of_computers_through_the_driver(
        kiosk: tuple[kapp.App, Clock], monkeypatch: pytest.MonkeyPatch) -> None:
    app, clock = kiosk
    seats = [SeatInfo("computer", "computer 1", "easy"), SeatInfo("computer", "computer 2", "expert")]
    scene = _scene(app, seats)
    app.push(scene)
    watch = Watch(monkeypatch, scene)
    play_through(app, clock, scene, minutes=3)
    st = scene.state
    assert st.is_terminal() and isinstance(app.scenes[-1], ResultsScene)
    assert max(st.wins) == 5 and watch.outside == [] and watch.applied == len(st.history) > 0
    assert watch.submits == 0
    assert app.scenes[-1].title == "Buzz Race (example)"


def _frames(app: kapp.App, clock: Clock, until: Any, seconds: float = 10.0) -> bool:
    for _ in range(int(seconds * 60)):
        if until():
            return True
        app.step(clock.t)
        clock.t += FRAME
    return bool(until())


def test_a_persons_press_after_go_takes_the_round_and_one_before_go_does_not(
        kiosk: tuple[kapp.App, Clock]) -> None:
    app, clock = kiosk
    seats = [SeatInfo("keyboard", "key 1"), SeatInfo("keyboard", "key 2")]
    scene = _scene(app, seats)
    app.push(scene)
    assert _frames(app, clock, lambda: scene.phase == "ready" and scene.ready_until is not None)
    assert scene.centre_lines()[0] == "GET READY"
    # P2 presses (and lets go) while GET READY shows: not in the race
    t = clock.t
    scene.on_edge(Edge(t, 1, "buzzer", True, "keyboard"))
    scene.on_edge(Edge(t + 80 * MS, 1, "buzzer", False, "keyboard"))
    assert _frames(app, clock, lambda: scene.driver.races.referee.window.opened_ns is not None)
    assert scene.centre_lines()[0] == "GO!" and scene.state.rounds == []
    opened = scene.driver.races.referee.window.opened_ns
    scene.on_edge(Edge(opened + 300 * MS, 0, "buzzer", True, "keyboard"))       # P1, 300 ms after GO
    scene.on_edge(Edge(opened + 390 * MS, 0, "buzzer", False, "keyboard"))
    clock.t = max(clock.t, opened + 300 * MS)
    assert _frames(app, clock, lambda: scene.state.rounds != [])
    assert scene.state.wins == [1, 0] and scene.state.rounds[0].reaction_ms == pytest.approx(300, abs=1)
    big, small, _colour = scene.centre_lines()
    assert big == "GET READY" and small == "P1 took round 1 in 300 ms"
    assert scene.state.current_player() == RACE and scene.phase == "ready"      # no race until GO again


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1280, 720), (1920, 1080)])
def test_the_screen_reads_at_every_size(kiosk: tuple[kapp.App, Clock], size: tuple[int, int],
                                        tmp_path: Path) -> None:
    app, clock = kiosk
    scene = _scene(app, [SeatInfo("keyboard", "key 1"), SeatInfo("computer", "computer 2", "medium")])
    app.push(scene)
    scene.state.wins[:] = [4, 2]
    surface = pygame.Surface(size)
    for phase in ("ready", "go"):
        scene.phase = phase
        scene.held = (0,) if phase == "go" else ()
        scene.draw(surface)
        pygame.image.save(surface, str(tmp_path / f"buzzrace-{size[0]}x{size[1]}-{phase}.png"))
        if os.environ.get("BUZZRACE_SHOTS"):
            pygame.image.save(surface, f"{os.environ['BUZZRACE_SHOTS']}/buzzrace-{size[0]}x{size[1]}-{phase}.png")
        # The big line shows in its colour; nothing was drawn outside the screen's text sizes.
        colour = render.GOOD if phase == "go" else render.TEXT
        assert any(surface.get_at((x, y))[:3] == colour for x in range(0, size[0], 2)
                   for y in range(size[1] // 3, size[1], 2))
