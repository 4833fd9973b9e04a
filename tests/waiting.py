"""Waiting in tests: for something to happen, never for a fixed time (issue 21).

A test that waits for a thread, a worker process, a broker, a file or a pty waits with
:func:`wait_until` on the thing itself, and a test of code that takes a clock gives it a
virtual one.  The time limit is a failure bound, never a pace: a passing test waits only
as long as the thing takes, and the bound is generous because the machine that runs the
suite is shared (2 cores, several busy processes: a sleep-based test failed there).

When the bound runs out the test fails saying WHAT did not happen.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, TypeVar

T = TypeVar("T")

#: How long a test waits for something before it fails (s): a hang guard, never a pace.
WAIT_S = 60.0


class NotHappened(AssertionError):
    """What a test waited for did not happen within its bound."""


def wait_until(predicate: Callable[[], T], timeout_s: float = WAIT_S, what: str = "the condition",
               max_pause_s: float = 0.05) -> T:
    """``predicate()``'s first true answer, asked again and again with a short back-off
    (1 ms doubling up to ``max_pause_s``: a predicate that steps a frame loop passes about a
    frame's time); raises :class:`NotHappened` naming ``what`` if none came within
    ``timeout_s`` seconds.  An exception in ``predicate`` goes to the caller."""
    deadline = time.monotonic() + timeout_s
    pause = min(0.001, max_pause_s)
    while True:
        got = predicate()
        if got:
            return got
        left = deadline - time.monotonic()
        if left <= 0:
            raise NotHappened(f"{what}: did not happen within {timeout_s:g} s")
        time.sleep(min(pause, left))  # the poll's back-off: the one sleep the tests' waits share
        pause = min(pause * 2, max_pause_s)


def joined(thread: threading.Thread, timeout_s: float = WAIT_S, what: str = "") -> None:
    """Wait for ``thread`` to end; fail naming ``what`` (default: the thread's name) if it
    is still running after ``timeout_s`` seconds."""
    thread.join(timeout_s)
    if thread.is_alive():
        raise NotHappened(f"{what or thread.name} did not end within {timeout_s:g} s")
