"""The registry entry flows to the screen that plays it (issue 21, item 2).

What a player notices: the game on screen, its title, its saved record and its high-score
board are the entry chosen in the lobby, asked for with ``focus-arcade demo --game NAME``,
or resumed after a power cut; never another entry guessed back from the game's state.
Every scene keeps the :class:`arcade.registry.GameSpec` it was started as (``scene.spec``),
and the registry has no way left to recover an entry from a state (``of_state`` is gone).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arcade import registry
from kiosk import cli
from kiosk.app.loop import App
from kiosk.persist import resume
from kiosk.players.demo import demo_game
from kiosk.scenes.game import GameScene
from kiosk.scenes.lobby import lobby_games
from kiosk.scenes.seats import LobbyGame, SeatInfo

ROOT = Path(__file__).resolve().parents[1]
NAMES = registry.names()


pytestmark = pytest.mark.kiosk_app(size=(640, 360), pace=0.5)   # the `app` fixture (conftest.py)


def people(n: int) -> list[SeatInfo]:
    """``n`` people at keyboard stations (no computer player: no thinking process)."""
    return [SeatInfo("keyboard", f"key {i + 1}", "medium", True) for i in range(n)]


def started(app: App, game: LobbyGame) -> GameScene:
    """``game`` started as the lobby starts it (marked for resuming), its game made (a
    screen that first asks for a set-up, Focus (2023)'s case, skips it)."""
    scene = resume.start_game(app, game, people(game.min_seats))
    if scene.game_state() is None:
        scene.begin_resumed({})
    return scene


def test_of_state_is_gone_from_the_registry_and_nothing_calls_it() -> None:
    assert "of_state" not in vars(registry)
    callers = [str(p.relative_to(ROOT)) for folder in ("arcade", "kiosk") for p in sorted((ROOT / folder).rglob("*.py"))
               if "of_state" in p.read_text(encoding="utf-8")]
    assert callers == []


@pytest.mark.parametrize("name", NAMES)
def test_the_lobby_s_game_its_resume_and_the_demo_s_choice_play_the_entry_chosen(app: App, name: str) -> None:
    game = next(g for g in lobby_games() if g.name == name)
    spec = registry.get(name)
    assert game.spec is spec and game.label == spec.label          # the lobby reads the entry, copies nothing
    scene = started(app, game)
    assert scene.spec is spec
    assert scene.record()["entry"] == name                          # its record names the entry
    data = resume.progress(scene)
    assert data is not None
    scene.exit()

    again = resume.restore(app, {**data, "game_key": "k"})          # after a power cut
    assert again.spec is spec and again.record()["entry"] == name
    again.exit()

    chosen, players = demo_game(cli._parser().parse_args(["demo", "--game", name]))
    assert chosen.spec is spec
    demo = chosen.start(app, people(players))
    assert demo.spec is spec
    demo.exit()


def test_a_scene_made_directly_finds_its_entry_by_its_own_arguments(app: App) -> None:
    from kiosk.games.coop.scene import CoopScene
    from kiosk.games.focusx.scene import ClassicScene, DuelScene
    from kiosk.games.sackson.scene import SacksonScene
    from kiosk.games.sherlook.scene import SherlookScene

    made: list[tuple[GameScene, str]] = [
        (ClassicScene(app, people(2)), "focusx-classic"),
        (DuelScene(app, people(4), x_rule=True), "focusx-duel-x"),
        (SacksonScene(app, people(2), "crossfire"), "crossfire"),
        (SacksonScene(app, people(3), "3p"), "focus-3p"),
        (CoopScene(app, people(2), "mycroft", setup=False), "coop-mycroft"),
        (SherlookScene(app, people(2)), "sherlook"),
    ]
    for scene, name in made:
        assert (scene.spec.name, scene.record()["entry"], scene.again().spec.name) == (name, name, name)
        scene.exit()


def test_a_plain_focusx_entry_played_with_the_configured_focusx_rule_is_its_x_twin(app: App) -> None:
    """FX-3: ``[focusx] x_rule = true`` turns the rule on for the plain entries; the game
    played is then the ``-x`` entry's, and its title and record say so."""
    app.cfg.data["focusx"]["x_rule"] = True
    game = next(g for g in lobby_games() if g.name == "focusx-4focus")
    scene = started(app, game)
    twin = registry.get("focusx-4focus-x")
    assert scene.spec is twin and scene.title == twin.label and scene.record()["entry"] == twin.name
    scene.exit()
