"""What the LED link tests share: waiting on a condition (never a fixed sleep) and a solid picture."""

from __future__ import annotations

import time
from typing import Callable

#: How long a test waits for the link before it fails: generous, so that a slow shared
#: machine never fails a test by timing (a passing test waits only as long as it needs).
WAIT_S = 20.0


def wait_for(condition: Callable[[], bool], timeout: float = WAIT_S) -> bool:
    """True as soon as ``condition()`` is; its last answer after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return condition()


def solid(colour: tuple[int, int, int], leds: int = 16) -> list[tuple[int, int, int]]:
    """A picture of ``leds`` LEDs all of one colour (R, G, B, 0-255)."""
    return [colour] * leds
