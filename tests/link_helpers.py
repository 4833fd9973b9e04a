"""What the LED link tests share: waiting on a condition (never a fixed sleep) and a solid picture."""

from __future__ import annotations

import threading
import time
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


class WriterClock:
    """A link's clock (``LedLink(clock=...)``) on real time that counts its writer's waits.

    Between two waits the writer looks at the newest picture (every state goes back to LISTEN,
    which takes it), so two waits begun after a ``show()`` mean the writer has seen that
    picture: :meth:`writer_waited`, called right after the show, is that condition."""

    def __init__(self) -> None:
        self.waits = 0

    def now(self) -> float:
        return time.monotonic()

    def wait(self, cond: threading.Condition, seconds: float) -> None:
        self.waits += 1
        cond.wait(seconds)

    def writer_waited(self, times: int = 2) -> Callable[[], bool]:
        """A condition: the writer has begun ``times`` more waits from now."""
        start = self.waits
        return lambda: self.waits >= start + times


def solid(colour: tuple[int, int, int], leds: int = 16) -> list[tuple[int, int, int]]:
    """A picture of ``leds`` LEDs all of one colour (R, G, B, 0-255)."""
    return [colour] * leds
