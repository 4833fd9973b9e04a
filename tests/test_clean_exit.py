"""Clean exits (issue 11, 23): SIGTERM (systemd's stop), SIGHUP (a hang-up) and SIGINT (Ctrl+C).

What the event technician notices: ``systemctl stop`` or Ctrl+C ends the
arcade at once, with no traceback in the journal, exit status 0 for a stop and
130 for Ctrl+C, and the results already saved are still there.  Times are
measured by ``bench/bench_stop.py``; the timeouts here only guard against a hang.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest
from waiting import wait_until

from kiosk.service.stopping import StopSignals

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench_stop", ROOT / "bench" / "bench_stop.py")
assert _spec and _spec.loader
bench_stop = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_stop)


@pytest.fixture
def default_hangup() -> Iterator[None]:
    """SIGHUP as a login shell leaves it (the suite itself may run under ``nohup``, which
    ignores it, and a started arcade keeps an ignored hang-up ignored, as it should)."""
    old = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, old)


@pytest.mark.parametrize("game, sig, code", [
    ("focusx", signal.SIGTERM, 0),
    ("focusx", signal.SIGINT, 130),
    ("focus", signal.SIGTERM, 0),        # a computer player may be thinking
    ("focusx", signal.SIGHUP, 0),        # issue 23: the console hung up (systemd's TTYVHangup), like a stop
    ("sherlook", signal.SIGHUP, 0),
])
def test_a_signal_ends_the_running_arcade_cleanly(tmp_path: Path, game: str, sig: int, code: int,
                                                  default_hangup: None) -> None:
    proc, sock = bench_stop.start(game, tmp_path)
    store = tmp_path / "data" / "focus-arcade" / "arcade.sqlite3"
    try:
        # a condition, not a time: on a loaded machine the first step can take seconds
        wait_until(lambda: a_step_saved(store), 120, "the game saving a step")
        _, returncode, err = bench_stop.stop(proc, sig, timeout=30)
    finally:
        sock.close()
        if proc.poll() is None:
            proc.kill()
    assert returncode == code, err
    assert "Traceback" not in err
    assert "stopping" in err and "stopped" in err          # the journal says why it ended
    # Closed properly: the journal was checkpointed and removed (looked at before this test's own
    # connection, which would replay and remove a -wal left behind).
    assert not Path(f"{store}-wal").exists()
    db = sqlite3.connect(store)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    # The game in progress is kept for the next start (kiosk/persist/resume.py), at its last completed step.
    slot = db.execute("SELECT data FROM resume").fetchone()
    finished = db.execute("SELECT count(*) FROM games").fetchone()[0]
    db.close()
    assert slot is not None or finished > 0


def a_step_saved(store: Path) -> bool:
    """Whether the running arcade has saved a step of its game (or finished one): a read-only
    look at the results file, which never checkpoints or removes its journal."""
    if not store.exists():
        return False
    try:
        db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        try:
            return bool(db.execute("SELECT count(*) FROM resume").fetchone()[0]
                        or db.execute("SELECT count(*) FROM games").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return False                                    # not made yet, or its tables not yet


class BusyApp:
    running = True


@pytest.mark.parametrize("sigint", ["handled", "ignored"])   # ignored: started by `nohup` or `cmd &` in a script
def test_a_busy_main_thread_is_interrupted_then_the_way_out_runs(sigint: str) -> None:
    before = signal.getsignal(signal.SIGINT)
    if sigint == "ignored":
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        busy_main_thread_is_interrupted()
    finally:
        signal.signal(signal.SIGINT, before)


def busy_main_thread_is_interrupted() -> None:
    stop = StopSignals()
    app = BusyApp()
    stop.attach(app)
    ended = "no"
    try:
        threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGTERM)).start()
        guard = time.monotonic() + 30                       # hang guard only
        try:
            while time.monotonic() < guard:                  # a computer player that thinks too long
                sum(range(1000))
            ended = "ran to the end"
        except KeyboardInterrupt:
            ended = "interrupted"
        stop.done()
    finally:
        stop.restore()
    assert ended == "interrupted" and app.running is False
    assert stop.exit_status(1) == 0 and stop.signum == signal.SIGTERM


def test_an_ignored_sigint_stays_ignored() -> None:
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        stop = StopSignals()
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        stop.restore()
    finally:
        signal.signal(signal.SIGINT, old)


def test_a_hang_up_is_a_stop_and_an_ignored_one_stays_ignored(default_hangup: None) -> None:
    stop = StopSignals()
    try:
        assert signal.getsignal(signal.SIGHUP) == stop._on_signal
    finally:
        stop.restore()
    old = signal.signal(signal.SIGHUP, signal.SIG_IGN)       # nohup
    try:
        stop = StopSignals()
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
        stop.restore()
    finally:
        signal.signal(signal.SIGHUP, old)
    stop.signum = signal.SIGHUP
    assert stop.exit_status(1) == 0
