"""A stop signal while ``focus-arcade`` is still starting (issue 23).

What the operator notices: Ctrl+C, ``systemctl stop`` (SIGTERM) or a hang-up (SIGHUP) in the
first second of a start, while the modules still load, ends the command with one line and
no traceback (it printed a KeyboardInterrupt traceback, or died at once with status 143 or
129 and no word).  The signal is sent by the process itself at the moment a given module is
imported (a ``sitecustomize`` hook), so the moment is the same at every run: no timing.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).parent / "focus-arcade"

HOOK = '''
import os, signal, sys

class _SignalAtImport:
    """Sends KILL_SIG to this process when the module KILL_AT is first looked up."""

    def find_spec(self, name, path=None, target=None):
        if name == os.environ.get("KILL_AT"):
            sys.meta_path.remove(self)
            os.kill(os.getpid(), int(os.environ["KILL_SIG"]))
        return None

sys.meta_path.insert(0, _SignalAtImport())
'''


def start_with_signal_at(module: str, sig: int, tmp_path: Path) -> tuple[int, str]:
    """Run the installed ``focus-arcade`` (a fresh store and configuration folder) with ``sig``
    sent while ``module`` is being imported; (exit status, stderr)."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(HOOK)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PYTHONPATH": str(hook), "KILL_AT": module, "KILL_SIG": str(int(sig))}
    env.pop("FOCUS_ARCADE_CONFIG", None)
    env.pop("NOTIFY_SOCKET", None)

    def default_signals() -> None:           # as a login shell leaves them (the suite may run under nohup)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_DFL)

    # --frames: should the signal not stop it, it ends by itself (and the test fails on its output)
    done = subprocess.run([str(SCRIPT), "--frames", "20"], env=env, capture_output=True, text=True, timeout=120,
                          preexec_fn=default_signals)
    return done.returncode, done.stderr


@pytest.mark.skipif(not SCRIPT.exists(), reason="the focus-arcade command is not installed beside this Python")
@pytest.mark.parametrize("module", [
    "kiosk.config",          # the configuration's modules (0.2 s of the start here)
    "pygame",                # the arcade's modules, before the window
])
@pytest.mark.parametrize("sig, status, line", [
    (signal.SIGINT, 130, "focus-arcade: interrupted"),
    (signal.SIGTERM, 0, "focus-arcade: SIGTERM: stopped"),
    (signal.SIGHUP, 0, "focus-arcade: SIGHUP: stopped"),
])
def test_a_stop_signal_while_the_modules_load_ends_with_one_line(tmp_path: Path, module: str, sig: int, status: int,
                                                                 line: str) -> None:
    code, err = start_with_signal_at(module, sig, tmp_path)
    assert "Traceback" not in err, err
    assert code == status, err
    assert err.strip().splitlines() == [line]
