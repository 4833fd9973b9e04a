"""Issue 14: computer players whose decision can take over 1 ms think in the worker process
for any registry entry (kiosk/players/thinker.py, the ``"game"`` requests): the 4Focus placement
players (expert computers, the arcade's own choice for a buzzer-only seat) and the
Focus (2023) partners.  A game plays to its end in the kiosk screen with the moves coming
from the worker, the same moves as the same players make in this process, a killed worker
still gets the move made, and leaving the screen cancels the thought.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402
from waiting import wait_until  # noqa: E402

from hardware.sink import drain  # noqa: E402
from kiosk.games.coop.scene import CoopScene  # noqa: E402
from kiosk.games.focusx.scene import FourFocusScene  # noqa: E402
from kiosk.players import thinker as th  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402

T0 = 10 ** 12
EXPERT = SeatInfo("computer", "computer (expert)", "expert")
SIM = SeatInfo("simulated", "sim GPIO 17")
BUZZER_ONLY = SeatInfo("keyboard", "key 1", "medium", False)


pytestmark = pytest.mark.kiosk_app(command="demo", pace=0.05)   # the `app` fixture (conftest.py)


def frame(app: Any, scene: Any, now: int) -> None:
    """One kiosk frame on a virtual clock (the computers' presses delivered, the flip shown);
    the clock waits for the worker so both ways play the same game."""
    th.shared().wait_idle()
    app.computer.pump(now)
    for edge in drain(app.queue):
        if app.accepts(scene, edge):
            scene.on_edge(edge)
    scene.update(now)
    app.draw()
    scene.frame_shown(now + 1_000_000)


def play(app: Any, scene: Any, step_ns: int, frames: int = 30_000) -> list[Any]:
    app.push(scene)
    for f in range(frames):
        frame(app, scene, T0 + f * step_ns)
        if scene.state.is_terminal():
            break
    assert scene.state.is_terminal(), "the game did not finish"
    return [(p, a.to_json()) for p, a in scene.state.history]


@pytest.fixture()
def checked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any]]:
    """Every worker answer next to the move the same player makes here for the same state and seed."""
    seen: list[tuple[Any, Any]] = []
    original = th.WorkerThought.result

    def result(self: th.WorkerThought) -> Any:
        fresh = self.action is None
        action = original(self)
        if fresh and action is not None and self.answer is not None and self.answer.source == "worker":
            seen.append((action.to_json(), self.here().to_json()))
        return action
    monkeypatch.setattr(th.WorkerThought, "result", result)
    return seen


def test_4focus_expert_computers_play_to_the_end_with_moves_from_the_worker(app, checked, monkeypatch) -> None:
    th.shared().start()
    answers = th.shared().answers
    scene = FourFocusScene(app, [EXPERT] * 4, seed=3)
    moves = play(app, scene, 20_000_000)
    assert th.shared().pid is not None and th.shared().answers - answers >= 20
    assert checked and all(w == h for w, h in checked)        # each one the move made here
    # the same seed, every placement made in this process: the same game
    monkeypatch.setattr(FourFocusScene, "think_elsewhere", False)
    here = FourFocusScene(app, [EXPERT] * 4, seed=3)
    assert here.placer is None
    before = th.shared().answers
    assert play(app, here, 20_000_000) == moves
    assert th.shared().answers == before


def test_the_arcades_choice_for_a_buzzer_only_seat_is_made_in_the_worker(app) -> None:
    scene = FourFocusScene(app, [BUZZER_ONLY, EXPERT], seed=5)
    assert scene.arcade_level(0) == "hard" and scene.placer is not None
    answers = th.shared().answers
    app.push(scene)
    seats_moved: set[int] = set()
    for f in range(20_000):
        frame(app, scene, T0 + f * 20_000_000)
        seats_moved |= {p for p, _a in scene.state.history if p >= 0}
        if {0, 1} <= seats_moved:
            break
    assert {0, 1} <= seats_moved and th.shared().answers - answers >= 2


def test_focus_2023_partners_play_to_the_end_with_moves_from_the_worker(app, checked, monkeypatch) -> None:
    th.shared().start()
    answers = th.shared().answers
    moves = play(app, CoopScene(app, [SIM, SIM], "sherlock", seed=4), 100_000_000)
    assert th.shared().answers - answers >= 20
    assert checked and all(w == h for w, h in checked)
    monkeypatch.setattr(CoopScene, "think_elsewhere", False)
    before = th.shared().answers
    assert play(app, CoopScene(app, [SIM, SIM], "sherlock", seed=4), 100_000_000) == moves
    assert th.shared().answers == before


def test_a_killed_worker_mid_game_still_gets_the_partners_move_made(app) -> None:
    t = th.shared()
    t.start()
    scene = CoopScene(app, [SIM, SIM], "base", seed=6)
    app.push(scene)
    killed = False
    restarts = t.restarts
    for f in range(5000):
        now = T0 + f * 100_000_000
        if not killed and len(scene.state.history) >= 6:
            os.kill(wait_until(lambda: t.pid, what="the thinking worker running"),
                    signal.SIGKILL)                  # the worker dies between two requests
            killed = True
        else:
            t.wait_idle()
        scene.update(now)
        app.draw()
        scene.frame_shown(now)
        if scene.state.is_terminal():
            break
    assert killed and scene.state.is_terminal()      # every move was made, the game ended
    assert t.restarts > restarts or t.answers > 0


def test_a_worker_killed_while_it_thinks_the_move_comes_from_the_same_player_here(app) -> None:
    t = th.Thinker()
    try:
        scene = FourFocusScene(app, [EXPERT] * 2, seed=9)
        scene.__dict__["_placer"] = th.WorkerChoice("focusx-place", t, entry=scene.spec.name)
        app.push(scene)
        fut = None
        for f in range(20_000):
            now = T0 + f * 20_000_000
            app.computer.pump(now)
            for edge in drain(app.queue):
                scene.on_edge(edge)
            scene.update(now)
            scene.frame_shown(now + 1_000_000)
            thinking = [scene.driver._turns[s].thought for s in scene.driver.thinking()]
            futs = [x.future for x in thinking if isinstance(x, th.WorkerThought)]
            if futs:
                fut = futs[0]
                break
        assert fut is not None
        os.kill(wait_until(lambda: t.pid, what="the thinking worker running"), signal.SIGKILL)
        ans = fut.result(timeout=60)
        # either the worker had already answered, or the same player chose here
        assert ans.source in ("worker", "fallback")
        if ans.source == "fallback":
            assert "stopped" in ans.note
        moves = len(scene.state.history)
        for f2 in range(f + 1, f + 2000):
            now = T0 + f2 * 20_000_000
            scene.update(now)
            if len(scene.state.history) > moves:
                break
        assert len(scene.state.history) > moves             # the card was laid
    finally:
        t.close()


def test_leaving_the_screen_cancels_the_partners_thought(app) -> None:
    t = th.Thinker(command=[sys.executable, "-c", "import json, sys;"
                            "print(json.dumps({'v': 1, 'type': 'ready', 'pid': 0}), flush=True);"
                            "sys.stdin.read()"])                # silent until its input closes
    try:
        scene = CoopScene(app, [SIM, SIM], "base", seed=6)
        scene.__dict__["_partner_worker"] = th.WorkerChoice("coop-partner", t, entry=scene.spec.name)
        scene.driver.set_player(0, scene._partner_player(0))
        scene.driver.set_player(1, scene._partner_player(1))
        app.push(scene)
        for f in range(400):
            scene.update(T0 + f * 100_000_000)
            if t.busy:
                break
        assert t.busy                                  # a partner waits for the (silent) worker
        waiting = [scene.driver._turns[s].thought for s in scene.driver.thinking()]
        app.pop()                                      # leaving the game
        assert not t.busy
        assert all(w.future.cancelled() for w in waiting if isinstance(w, th.WorkerThought))
    finally:
        t.close()


def test_the_worker_follows_a_session_by_the_actions_since_its_last_request() -> None:
    import random

    from arcade import registry

    spec = registry.get("coop-base")
    state = spec.new_state(2)
    session = th.GameSession(state, spec.name)
    rng = random.Random(1)
    state.apply(state.chance_outcome(rng))             # the deal
    first = session.message(1, session.sync(state))
    assert first["base"] == 0 and first["game"]["entry"] == "coop-base"
    while len(state.history) < 6 and not state.is_terminal():
        if state.current_player() < 0:
            state.apply(state.chance_outcome(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    upto = session.sync(state)
    later = session.message(1, upto)
    assert later["base"] == first["base"] + len(first["actions"]) and len(later["actions"]) == upto - later["base"]
    assert "game" not in later
    again = session.message(2, upto)                  # a new worker: everything again
    assert again["base"] == 0 and len(again["actions"]) == upto
    assert session.state_at(upto).history == state.history
