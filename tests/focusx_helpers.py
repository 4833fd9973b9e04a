"""Test helpers shared by the FocusX mode tests (ThinkFocus, Duel, 4Focus).

* :class:`RaceTable`: the real referee and judge on a virtual CLOCK_MONOTONIC,
  pressing buttons at given milliseconds after a race window is shown;
* :func:`make_app` / :func:`run_until`: the kiosk App in demo mode (SDL dummy
  driver, see conftest.py) running a mode's scene.
"""

from __future__ import annotations

from waiting import WAIT_S, wait_until

from arcade.core.api import RACE
from arcade.core.events import Edge
from arcade.core.judge import JudgeSettings
from arcade.core.referee import Referee

MS = 1_000_000


class RaceTable:
    """The real referee and judge, with a virtual CLOCK_MONOTONIC."""

    def __init__(self, state, settings: JudgeSettings | None = None) -> None:
        self.state = state
        self.ref = Referee(state, settings or JudgeSettings())
        self.t = 1_000_000 * MS

    def play(self, action, seat=None) -> None:
        self.ref.apply(action, self.state.current_player() if seat is None else seat)

    def race(self, presses=(), close_after_ms: int | None = None, max_ms: int = 20_000) -> None:
        """Show the table; press ``(seat, ms after opening[, control[, double]])``; run until the race ends.

        ``close_after_ms``: the driver asks the referee to close the window that
        long after it opened (Duel's quiet windows)."""
        st = self.state
        assert st.current_player() == RACE
        no = st.race_no
        self.t += 16 * MS
        self.ref.frame_shown(self.t)
        opened = self.t
        if close_after_ms is not None:
            self.ref.request_close(opened + close_after_ms * MS)
        for p in presses:
            seat, ms = p[0], p[1]
            control = p[2] if len(p) > 2 else "buzzer"
            at = opened + int(ms * MS)
            self.ref.feed(Edge(at, seat, control, True))
            self.ref.feed(Edge(at + 80 * MS, seat, control, False))
            if len(p) > 3 and p[3]:                       # FX-3 double press
                self.ref.feed(Edge(at + 150 * MS, seat, control, True))
                self.ref.feed(Edge(at + 230 * MS, seat, control, False))
        end = opened + max_ms * MS
        while st.current_player() == RACE and st.race_no == no and self.t < end:
            self.t += 5 * MS
            self.ref.tick(self.t)
        assert self.t < end, "the race did not end"


def make_app(tmp_path, mode: str, players: int, **focusx):
    """An App in demo mode (simulated players on mock GPIO pins) running this mode's scene."""
    import argparse

    import pygame

    from kiosk import config as configmod
    from kiosk.app.loop import App
    from kiosk.players.demo import start_demo

    cfg = configmod.load_or_default(None)
    cfg.data["storage"]["path"] = str(tmp_path / "results.sqlite3")
    cfg.data["led"]["port"] = "none"
    cfg.data["focusx"].update(focusx)
    pygame.init()
    screen = pygame.display.set_mode((1280, 720))
    args = argparse.Namespace(command="demo", game="focusx", mode=mode, players=players, seed=7,
                              skill="expert", pace=0.4, loop=False, screenshot_dir="", frames=0)
    app = App(cfg, screen, args)
    start_demo(app, args)
    return app


def run_until(app, until, what: str, timeout_s: float = WAIT_S) -> None:
    """Step the App on the real clock until ``until()``: its simulated players press in real
    time on their own thread (hardware/simulated.py reads the wall clock), and between two
    frames the wait's back-off (about a frame's time at most) leaves them the CPU, as the
    kiosk's frame pacing does.  Fails saying ``what`` did not happen within ``timeout_s``
    (a hang guard: a slow machine just takes longer)."""
    import time

    def frame() -> bool:
        app.step(time.monotonic_ns())
        return bool(until())
    wait_until(frame, timeout_s, what, max_pause_s=0.004)
