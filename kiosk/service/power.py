"""The operator's commands that leave the arcade: shut the Pi down, reboot it, restart the arcade.

**Shutting down and rebooting** (service menu): ``[service] shutdown_command``
(default ``systemctl poweroff``) and ``reboot_command`` (``systemctl reboot``).
``systemctl`` asks systemd-logind over D-Bus; logind asks polkit whether the
service's user ``focus-arcade`` (no sudo) may, and the rule that
``kiosk/install.sh`` installs (``kiosk/systemd/focus-arcade.rules``) says yes
for power-off and reboot only.  The command runs in the background
(:class:`Running`): the frame never waits for it.  When it works, systemd stops
the arcade (SIGTERM, :mod:`kiosk.service.stopping`) on the way down.  When it is
refused or fails, :func:`refusal` turns its exit status and error output into
one line for the screen that says what to do, in the language the screens speak (its
English for the journal: kiosk/app/said.py).

**Restarting the arcade** (service menu, "Save and restart now"): under
systemd (the unit ``kiosk/systemd/focus-arcade.service``) the arcade exits with
:data:`kiosk.service.stopping.EXIT_RESTART` (75), which the unit restarts on
(``RestartForceExitStatus=75``); started by hand it starts itself again with
the same command line (:func:`restart_in_place`, ``os.execv``): same process
id, same terminal, same options.
"""

from __future__ import annotations

import logging
import os
import shlex
import subprocess
import sys
import threading
from typing import Callable, Mapping

from kiosk.app import said
from kiosk.app.said import Said, english

log = logging.getLogger("focus-arcade")

#: Where install.sh puts the polkit rule (named in the refusal's advice).
POLKIT_RULE = "/etc/polkit-1/rules.d/50-focus-arcade.rules"

#: Error output that means polkit said no (systemctl's and logind's wordings).
DENIED = ("access denied", "interactive authentication required", "not authorized", "permission denied")


class Running:
    """An operator's command running in the background (never waits in the frame).

    Args:
        command: the command line (split like a shell, no shell features).
        what: what it does, for the messages (the verb: "shut down", "reboot").
        done: called from the waiting thread with :meth:`refusal` (None when it
            worked) once the command has ended; e.g. ``kiosk.app.messages.Messages.post``.

    Attributes:
        returncode: the exit status once it ended (None while it runs, 127 when it
            could not be started).
        errors: its error output (the last 2000 characters).
    """

    def __init__(self, command: str, what: str, done: Callable[[str | None], None] | None = None) -> None:
        self.command = command
        self.what = what
        self.returncode: int | None = None
        self.errors = ""
        self._done = done
        self._ended = threading.Event()
        try:
            argv = shlex.split(command)
            if not argv:
                raise ValueError("the command is empty")
            self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                start_new_session=True)
        except (OSError, ValueError) as exc:
            self._proc = None
            self._end(127, str(exc))
            return
        threading.Thread(target=self._wait, name=f"command {what}", daemon=True).start()

    def _wait(self) -> None:
        assert self._proc is not None
        _, err = self._proc.communicate()
        self._end(self._proc.returncode, err.decode("utf-8", "replace"))

    def _end(self, code: int, errors: str) -> None:
        self.returncode, self.errors = code, errors[-2000:]
        self._ended.set()
        problem = self.refusal()
        if problem:
            log.warning("%s: %s (the polkit rule: %s; errors: %s)", self.command, english(problem), POLKIT_RULE,
                        self.errors.strip())
        if self._done is not None:
            self._done(problem)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the command has ended (tests); True if it has."""
        return self._ended.wait(timeout)

    @property
    def ended(self) -> bool:
        return self._ended.is_set()

    def refusal(self) -> Said | None:
        """One line for the screen when the command did not work, else None (in the language
        spoken now, its English kept for the journal)."""
        if self.returncode is None or self.returncode == 0:
            return None
        return refusal(self.what, self.command, self.returncode, self.errors)


def action_words(what: str) -> Said:
    """What an operator's command does (the ``what`` of :class:`Running`: "shut down",
    "reboot", "restart the arcade", "run the command") in the language spoken now, as the
    refusal's lines put it ("The Pi refused to {what}")."""
    return {"shut down": said.pgettext("power action", "shut down"),
            "reboot": said.pgettext("power action", "reboot"),
            "restart the arcade": said.pgettext("power action", "restart the arcade"),
            "run the command": said.pgettext("power action", "run the command")}.get(what) or Said(what, what)


def refusal(what: str, command: str, code: int, errors: str) -> Said:
    """The screen's line for a refused or failed ``command`` (exit status ``code``), in the
    language spoken now (its :attr:`~kiosk.app.said.Said.english` for the journal).  The
    command's own error output (``last``, its last line) stays as the command wrote it.

    ``what`` is the verb: "shut down", "reboot" (:func:`action_words`).

    >>> print(refusal("shut down", "systemctl poweroff", 1, "Call to PowerOff failed: Access denied"))
    The Pi refused to shut down (Call to PowerOff failed: Access denied). The polkit rule is missing: run sudo kiosk/install.sh again
    """
    last = next((line.strip() for line in reversed(errors.splitlines()) if line.strip()), "")
    last = last if len(last) <= 90 else last[:87] + "..."
    low = errors.lower()
    action, shown = action_words(what), repr(command)
    if code == 127:
        # TRANSLATORS: {what} is what the command does ("shut down", context "power action"); {command} the command line in quotes; {last} why, as the system says it.
        return said._("Could not {what}: {command} cannot be started ({last}); see [service] in the configuration",
                      what=action, command=shown, last=last or said._("not found"))
    if any(word in low for word in DENIED):
        return said._("The Pi refused to {what} ({last}). The polkit rule is missing: run sudo kiosk/install.sh again",
                      what=action, last=last)
    if "inhibit" in low:
        return said._("Could not {what} now: a program is blocking it ({last}). Try again in a minute",
                      what=action, last=last)
    if last:
        return said._("Could not {what}: {command} ended with status {code} ({last})", what=action, command=shown,
                      code=code, last=last)
    return said._("Could not {what}: {command} ended with status {code}", what=action, command=shown, code=code)


def under_systemd(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the arcade runs as the systemd service (not started by hand).

    The unit is ``Type=notify``: systemd gives the service both ``$NOTIFY_SOCKET``
    and ``$INVOCATION_ID``.  A shell started by hand has no ``$NOTIFY_SOCKET`` (a
    terminal of a desktop session may have an ``$INVOCATION_ID``).
    """
    env = os.environ if environ is None else environ
    return bool(env.get("NOTIFY_SOCKET")) and bool(env.get("INVOCATION_ID"))


def command_line() -> list[str]:
    """The arcade's own command line, interpreter and options included (``sys.orig_argv``):
    ``["/opt/focus-arcade/venv/bin/python", "/opt/focus-arcade/venv/bin/focus-arcade", "--config", ...]``
    or ``["python", "-m", "kiosk.cli", ...]``."""
    return list(getattr(sys, "orig_argv", None) or [sys.executable, *sys.argv])


def restart_in_place() -> None:
    """Start the arcade again in this process with the same command line (``os.execv``).

    Call it only once everything is closed (window, GPIO, LED link, the store).
    Returns only if the exec failed (the error is logged; the caller exits).
    """
    argv = command_line()
    log.info("restarting: %s", " ".join(shlex.quote(a) for a in argv))
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    try:
        os.execv(sys.executable, argv)
    except OSError as exc:
        log.error("could not start the arcade again (%s): exiting instead", exc)
