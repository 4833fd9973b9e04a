"""The FOCUS / Crossfire screen asks the thinking process for computer moves: the screen keeps
drawing while it thinks, the expert skill plays the expert search, and a worker killed in the
middle of a move is replaced while that move is still made (by the fallback player)."""

from __future__ import annotations

import os
import signal
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402
from test_thinker import searching  # noqa: E402
from waiting import wait_until  # noqa: E402

from kiosk.games.sackson.scene import SacksonScene  # noqa: E402
from kiosk.players import thinker as thinker_mod  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402

T0 = 10 ** 12
STEP = 100_000_000


pytestmark = pytest.mark.kiosk_app(pace=0.05)   # the `app` fixture (conftest.py)


def frame(app: Any, f: int) -> None:
    now = T0 + f * STEP
    app.scenes[-1].update(now)
    app.draw()


def test_the_expert_thinks_in_the_worker_process_while_the_screen_draws(app: Any) -> None:
    expert = SeatInfo("computer", "computer (expert)", "expert")
    scene = SacksonScene(app, [expert, expert], "crossfire", seed=5, max_nodes=3000)
    app.push(scene)
    assert scene.thinker is thinker_mod.shared() and scene.search_levels == ["expert", "expert"]
    frame(app, 0)
    assert scene.future is not None and scene.state.history == []
    answer = scene.future.result(timeout=60)
    assert answer.source == "worker" and answer.nodes > 2000      # the expert's own search ran there
    frame(app, 1)
    assert len(scene.state.history) == 1


def test_killing_the_worker_mid_move_still_makes_the_move(app: Any) -> None:
    hard = SeatInfo("computer", "computer (hard)", "hard")
    scene = SacksonScene(app, [hard, hard], "2p", seed=8, max_nodes=50_000_000)   # a very long think
    app.push(scene)
    frame(app, 0)
    fut = scene.future
    assert fut is not None
    th = scene.thinker
    wait_until(lambda: searching(th), what="the worker searching the move (its first progress report)")
    os.kill(th.pid, signal.SIGKILL)
    answer = fut.result(timeout=60)
    assert answer.source == "fallback"
    scene.max_nodes = 2000             # the next thought (a level is its node budget: no clock ends it)
    frame(app, 1)
    assert len(scene.state.history) == 1 and scene.state.history[0][0] == 0
    assert any("stopped" in m for m, _t in app.messages)        # said on screen, the game goes on
    for f in range(2, 400):
        frame(app, f)
        if scene.future is not None:
            scene.future.result(timeout=60)
        if len(scene.state.history) >= 3:
            break
    assert len(scene.state.history) >= 3 and th.pid is not None    # a new worker plays on
