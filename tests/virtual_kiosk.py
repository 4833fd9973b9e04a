"""An :class:`~kiosk.app.loop.App` on a virtual clock, for tests that run whole games through
``App.step``: stamps are exact and a game takes seconds (SDL's dummy driver, results in a
temporary folder, the LED matrix off)."""

from __future__ import annotations

import argparse
import types
from pathlib import Path
from typing import Any

import pygame
import pytest

import kiosk.app.loop as kapp
from kiosk.config import Config, validate

FRAME = 16_666_667


class Clock:
    """The kiosk's clock (ns), moved on by the test; ``stamp`` gives increasing press stamps."""

    def __init__(self) -> None:
        self.t = 5_000 * 1_000_000_000
        self.last = 0

    def stamp(self) -> int:
        self.last = max(self.t, self.last + 1000)
        return self.last

    def module(self) -> Any:
        import time as real
        return types.SimpleNamespace(monotonic_ns=lambda: self.t, monotonic=lambda: self.t / 1e9,
                                     perf_counter=real.perf_counter, time=real.time, sleep=real.sleep)


def virtual_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: Clock,
                sherlook: dict[str, Any]) -> kapp.App:
    """The app, its clock replaced by ``clock``; ``sherlook``: the ``[sherlook]`` settings."""
    monkeypatch.setattr(kapp, "time", clock.module())
    pygame.init()
    screen = pygame.display.set_mode((1280, 720))
    raw = {"storage": {"path": str(tmp_path / "results.sqlite3")}, "led": {"port": "none"}, "sherlook": sherlook}
    return kapp.App(Config(validate(raw)), screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))


def thoughts_back(scene: Any) -> None:
    """Wait until what ``scene`` has worked out in real time is done, so the virtual clock
    never outruns it: every request to the kiosk's thinking worker answered, and a Sherlook
    screen's next photos made (its worker thread ended).  Fails naming what did not come."""
    from waiting import WAIT_S, NotHappened, joined

    from kiosk.players.thinker import wait_shared_idle
    if not wait_shared_idle(WAIT_S):
        raise NotHappened(f"the thinking worker's answer: did not come within {WAIT_S:g} s")
    photos = getattr(scene, "next_round", None)
    if photos is not None:
        joined(photos[1], what="Sherlook's next photos")
