"""The tests' one way of waiting (tests/waiting.py): on a condition, failing with what did not happen."""

from __future__ import annotations

import threading

import pytest
from waiting import NotHappened, joined, wait_until


def test_wait_until_returns_the_first_true_answer_as_soon_as_it_comes() -> None:
    answers = iter([None, 0, "", "the broker listens"])
    assert wait_until(lambda: next(answers), what="the broker listens") == "the broker listens"


def test_a_wait_that_runs_out_says_what_did_not_happen() -> None:
    with pytest.raises(NotHappened, match="the worker answered: did not happen within 0.05 s"):
        wait_until(lambda: False, timeout_s=0.05, what="the worker answered")
    with pytest.raises(AssertionError):                     # a failure, not an error, in pytest's report
        wait_until(lambda: False, timeout_s=0.01)


def test_an_exception_in_the_condition_is_not_swallowed() -> None:
    def broken() -> bool:
        raise RuntimeError("mosquitto exited")
    with pytest.raises(RuntimeError, match="mosquitto exited"):
        wait_until(broken)


def test_joined_fails_naming_a_thread_that_does_not_end() -> None:
    go = threading.Event()
    t = threading.Thread(target=go.wait, name="sherlook-photos", daemon=True)
    t.start()
    with pytest.raises(NotHappened, match="sherlook-photos did not end"):
        joined(t, timeout_s=0.05)
    go.set()
    joined(t)
    assert not t.is_alive()
