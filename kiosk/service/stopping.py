"""Clean exits: SIGTERM (systemd's stop), SIGHUP (the terminal or the console's
session hung up, systemd's TTYVHangup) and SIGINT (Ctrl+C) end the arcade within
2 s, through the normal way out (scenes left, the game in progress kept in the
store, the results file checkpointed and closed so that no ``-wal`` stays, the LED
link and GPIO closed), with no traceback.

The first signal asks the main loop to stop after the frame it is drawing.  If
the main thread is busy (a computer player thinking), a timer interrupts it
after :data:`GRACE_S`, and the same way out runs.  A second signal interrupts
at once.  Exit status: 0 after SIGTERM (a stop, not a failure), 130 after
SIGINT (the shell's convention); SIGHUP is a stop like SIGTERM (status 0; issue 23:
it used to kill the arcade at once and leave the results file's ``-wal`` behind).

Before the arcade runs (the command still loading its modules and reading its
configuration, 0.2-0.9 s here, more on a Raspberry Pi), :func:`install_early`, the
command's first step, makes any of these signals end it at once with one line and
the same exit status, never a traceback nor a silent death (issue 23).
"""

from __future__ import annotations

import _thread
import logging
import signal
import threading
import time
from types import FrameType
from typing import Callable, Protocol

#: A signal's disposition, as ``signal.getsignal`` gives it and ``signal.signal`` takes it.
Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None


class Stoppable(Protocol):
    """The app a stop signal ends: its main loop runs while ``running``."""

    running: bool

log = logging.getLogger("focus-arcade")

#: Seconds the main loop gets to finish its frame before it is interrupted.
GRACE_S = 1.2
#: Exit status asking systemd to start the arcade again (the unit has RestartForceExitStatus=75);
#: started by hand, the arcade starts itself again instead (kiosk/service/power.py).
EXIT_RESTART = 75
#: Exit status that stops the arcade (the unit has RestartPreventExitStatus=3).
EXIT_STOP = 3


STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


class EarlyStop(KeyboardInterrupt):
    """A stop signal (``signum``) that came while the command was still starting."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: The first stop signal that came while starting (None: none yet).
_early_signum: int | None = None


def _on_early_signal(signum: int, frame: FrameType | None) -> None:
    global _early_signum
    if _early_signum is not None:
        return                     # already on the way out (systemd may send SIGHUP right after SIGTERM)
    _early_signum = signum
    raise EarlyStop(signum)


def install_early() -> None:
    """Make SIGTERM, SIGHUP and SIGINT raise :class:`EarlyStop` (a KeyboardInterrupt) in the
    main thread: the command's first step, before its modules load (issue 23).  A SIGINT or
    SIGHUP that was ignored when the command started (``nohup``) stays ignored."""
    global _early_signum
    _early_signum = None
    for sig in STOP_SIGNALS:
        if sig != signal.SIGTERM and signal.getsignal(sig) == signal.SIG_IGN:
            continue
        signal.signal(sig, _on_early_signal)


def stopped_early(exc: KeyboardInterrupt) -> int:
    """The one line for a stop that came before the arcade ran (on stderr) and the exit
    status: 130 after SIGINT (or a plain KeyboardInterrupt), 0 after SIGTERM or SIGHUP."""
    import sys
    signum = exc.signum if isinstance(exc, EarlyStop) else _early_signum or signal.SIGINT
    if signum == signal.SIGINT:
        print("focus-arcade: interrupted", file=sys.stderr)
        return 130
    print(f"focus-arcade: {signal.Signals(signum).name}: stopped", file=sys.stderr)
    return 0


class StopSignals:
    """Installs the SIGTERM, SIGHUP and SIGINT handlers for the kiosk (``restore()`` undoes it).

    A SIGINT or SIGHUP that was ignored when the arcade started (``nohup``) stays ignored.
    """

    def __init__(self) -> None:
        self.app: Stoppable | None = None
        self.signum: int | None = None
        self.at = 0.0
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()
        self._done = False
        self._old: dict[int, Handler] = {}
        for sig in STOP_SIGNALS:
            old = signal.getsignal(sig)
            if sig in (signal.SIGINT, signal.SIGHUP) and old == signal.SIG_IGN:
                continue
            self._old[sig] = old
            signal.signal(sig, self._on_signal)

    def attach(self, app: Stoppable) -> None:
        """The App to stop (a signal that came before it existed stops it at once)."""
        self.app = app
        if self.signum is not None:
            app.running = False

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if self.signum is not None:
            raise KeyboardInterrupt          # a second signal: leave now (the way out still runs)
        self.signum = signum
        self.at = time.monotonic()
        log.info("%s: stopping", signal.Signals(signum).name)
        if self.app is not None:
            self.app.running = False
        self._timer = threading.Timer(GRACE_S, self._late)
        self._timer.daemon = True
        self._timer.start()

    def _late(self) -> None:
        """The main loop did not notice the stop in time: interrupt what it is doing."""
        with self._lock:
            if self._done:
                return
            log.warning("the main loop is busy; interrupting it to stop")
            # As the signal that came (SIGTERM's handler is always ours): a plain interrupt_main()
            # simulates SIGINT, which does nothing where SIGINT is ignored (a kiosk started in the
            # background by a script, or under nohup).
            _thread.interrupt_main(signal.Signals(self.signum or signal.SIGTERM))

    def done(self) -> None:
        """The main loop has ended (the way out follows): no more interrupting."""
        with self._lock:
            self._done = True
        if self._timer is not None:
            self._timer.cancel()

    def restore(self) -> None:
        for sig, old in self._old.items():
            try:
                signal.signal(sig, old)
            except (TypeError, ValueError):
                pass

    def exit_status(self, normal: int) -> int:
        if self.signum == signal.SIGINT:
            return 130
        if self.signum in (signal.SIGTERM, signal.SIGHUP):
            return 0
        return normal
