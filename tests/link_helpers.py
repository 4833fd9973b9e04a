"""What the LED link tests share: waiting on a condition (never a fixed sleep) and a solid picture."""

from __future__ import annotations

from typing import Callable

from waiting import NotHappened, wait_until

#: How long a test waits for the link before it fails: generous, so that a slow shared
#: machine never fails a test by timing (a passing test waits only as long as it needs).
WAIT_S = 20.0


def wait_for(condition: Callable[[], bool], timeout: float = WAIT_S) -> bool:
    """True as soon as ``condition()`` is; its last answer after ``timeout`` seconds
    (for ``assert wait_for(...), what_the_link_shows``)."""
    try:
        return bool(wait_until(condition, timeout, "the link's condition"))
    except NotHappened:
        return bool(condition())


def solid(colour: tuple[int, int, int], leds: int = 16) -> list[tuple[int, int, int]]:
    """A picture of ``leds`` LEDs all of one colour (R, G, B, 0-255)."""
    return [colour] * leds
