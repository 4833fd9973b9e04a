"""Resume through the registry's hook, and a resumed game ends like any other (issue 10).

What the party notices: a game interrupted by a power cut comes back (the
registry's "start this entry and replay these actions" hook, no patched game
classes) and, played to its end, shows the results screen where the person who
scored enters initials into the high-score table, as after a game that was
never interrupted.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from arcade import registry
from arcade.core.api import CHANCE, RACE, Game
from arcade.core.errors import RecordError, SettingsError
from kiosk.persist import resume
from kiosk.persist.highscores import score_rule
from kiosk.scenes.lobby import find_game
from kiosk.scenes.results import ResultsScene
from kiosk.scenes.seats import SeatInfo
from tests.test_event_day import BUZZ, MS, P1, Day, event_config, play_to_results


def some_actions(spec: registry.GameSpec, rng: random.Random, steps: int = 40) -> list[dict[str, object]]:
    """Up to ``steps`` actions of a game of ``spec``: chance outcomes, seats' legal moves and
    a race's legal ends (a race-only game, Buzz Race, has nothing else)."""
    state = spec.new_state()
    for _ in range(steps):
        cp = state.current_player()
        if cp == CHANCE:
            state.apply(state.chance_outcome(rng), cp)
        elif (cp >= 0 or cp == RACE) and state.legal_actions():
            state.apply(rng.choice(state.legal_actions()), cp)
        else:
            break
    return [{"player": int(p), "action": a.to_json()} for p, a in state.history]


@pytest.mark.parametrize("name", registry.names() + [s.name for s in registry.EXAMPLES])
def test_start_from_rebuilds_every_entry_at_the_same_step(name: str) -> None:
    with registry.examples():
        spec = registry.get(name)
        actions = some_actions(spec, random.Random(name))
        assert actions, "the game got going"
        state = spec.start_from(actions)
        assert [{"player": int(p), "action": a.to_json()} for p, a in state.history] == actions
        # on a game the screen made (its configuration's settings), too
        again = spec.start_from(actions, game=spec.make())
        assert resume.digest(again) == resume.digest(state)


def test_a_race_only_game_resumes_at_the_same_race_and_plays_on_to_its_end() -> None:
    """Buzz Race (no chance node, no seat's move): three rounds judged from the computers'
    presses, rebuilt from the record's actions, stand at the same race and score, and the
    rebuilt game plays on through the driver to its end."""
    with registry.examples():
        spec = registry.get("buzzrace")
        state = spec.new_state()
        rng = random.Random(3)
        driver = spec.driver(state, spec.computer_players(state, ["medium", "hard"], registry.PlayerContext(rng)),
                             rng)
        driver.settings.stop = lambda st: len(st.history) >= 3
        driver.run_to_end()
        actions = [{"player": int(p), "action": a.to_json()} for p, a in state.history]
        assert len(actions) == 3 and any(a["action"]["winners"] for a in actions)     # real race results
        again = spec.start_from(actions)
        assert resume.digest(again) == resume.digest(state)
        assert (again.race_no, again.wins) == (4, state.wins)
        rest = spec.driver(again, spec.computer_players(again, ["easy", "easy"], registry.PlayerContext(rng)), rng)
        rest.run_to_end()
        assert again.is_terminal() and again.history[:3] == state.history


def test_start_from_refuses_what_it_cannot_do() -> None:
    coop = registry.get("coop-sherlock")
    assert coop.start_from([], options={"case": "hound"}).game.settings["case"] == "hound"
    with pytest.raises(SettingsError, match="case"):
        registry.get("sherlook").start_from([], options={"case": "hound"})        # sherlook takes no option
    with pytest.raises(SettingsError, match="focusx-classic"):
        registry.get("focusx-classic").start_from([], game=registry.get("focusx-duel").make())
    with pytest.raises(SettingsError, match="focusx-classic-x"):          # the FocusX rule is the entry's
        registry.get("focusx-classic-x").start_from([], game=registry.get("focusx-classic").make())
    bad = some_actions(registry.get("focus-2p"), random.Random(1), 3)
    bad[1] = bad[0]                                                       # the same move twice
    with pytest.raises(RecordError, match="action 1"):
        registry.get("focus-2p").start_from(bad)


def test_a_resume_patches_no_game_class_and_touches_no_other_state(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(event_config(tmp_path), monkeypatch)
    try:
        app = d.app
        game = find_game("focusx-classic", None)
        app.replace(resume.start_game(app, game, [SeatInfo("computer", "a", "easy"), SeatInfo("computer", "b")]))
        d.frames(400, 25 * MS, until=lambda: len(d.top.state.history) >= 4)
        data = resume.progress(d.top) | {"game_key": d.top.game_key}
        assert data["entry"] == "focusx-classic"

        def methods() -> dict[type, object]:
            out: dict[type, object] = {}
            todo: list[type] = [Game]
            while todo:
                cls = todo.pop()
                out[cls] = cls.__dict__.get("new_initial_state")
                todo.extend(cls.__subclasses__())
            return out
        before = methods()
        app.resume_plan = resume.ResumePlan("focusx-classic", data["actions"])
        assert registry.get("focusx-classic").new_state(4).history == []     # only the scene's state replays
        app.resume_plan = None
        scene = resume.restore(app, data)
        assert methods() == before
        assert resume.digest(scene.state) == data["digest"] and app.resume_plan is None
        # a slot saved before the registry name was kept (family and mode only) resumes the same
        older = {k: v for k, v in data.items() if k != "entry"}
        again = resume.restore(app, older)
        assert again.entry == "focusx-classic" and resume.digest(again.state) == data["digest"]
    finally:
        d.close()


def test_a_game_resumed_after_a_power_cut_ends_with_the_high_score_entry(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = event_config(tmp_path)
    d = Day(cfg, monkeypatch)
    game = find_game("focusx-classic", None)
    seats = [SeatInfo("gpio", "GPIO 17"), SeatInfo("computer", "computer 2", "easy")]
    d.app.replace(resume.start_game(d.app, game, seats))
    d.frames(400, 25 * MS, until=lambda: len(d.top.state.history) >= 3)
    steps = len(d.top.state.history)
    saved = d.app.results.load_resume()
    assert saved["steps"] == steps
    d.app.results.db.close()                           # the power cut: nothing more is written
    d.app.results = None
    d.close()

    d2 = Day(cfg, monkeypatch)
    try:
        app = d2.app
        app.home()
        app.resume_offer.offer()
        assert isinstance(d2.top, resume.ResumeScene)
        assert app.current_game is None                  # a new start: nobody chose a game in the lobby
        d2.press(BUZZ[0])                                # P1's tap: the other choice, "Drop it"
        assert isinstance(d2.top, resume.ResumeScene) and d2.top.choice == 1
        d2.press(P1["left"])                             # back to "Resume"
        d2.press(P1["ok"])                               # P1's OK: resume
        scene = d2.top
        assert app.is_game(scene) and any(f"at step {steps}" in m for m, _ in app.messages)
        assert [{"player": int(p), "action": a.to_json()} for p, a in scene.state.history[:steps]] == saved["actions"]
        assert [s.station for s in scene.seats] == ["gpio", "computer"]
        results = play_to_results(d2)
        assert isinstance(results, ResultsScene) and results.game_key == "focusx-classic"
        assert results.entries and results.entries[0].seat == 0              # P1's cards make the table
        cards = results.entries[0].score
        assert cards == len(scene.state.victory[0]) > 0
        d2.press(P1["ok"])                                                   # "AAA": OK three times
        d2.press(P1["ok"])
        d2.press(P1["ok"])
        assert not results.entering
        assert app.highscores.table("focusx-classic", score_rule("focusx", "classic")) == [("AAA", float(cards))]
        assert app.results.load_resume() is None                             # stored once, the slot cleared
    finally:
        d2.close()
