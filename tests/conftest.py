"""Shared test set-up: no screen, no sound card, no writes to the real home.

Set at import, before any test module imports pygame or reads a path:

* ``SDL_VIDEODRIVER`` / ``SDL_AUDIODRIVER`` = ``dummy`` (headless machines, CI);
* ``XDG_DATA_HOME`` and ``XDG_CONFIG_HOME`` point into a fresh temporary
  folder, and ``FOCUS_ARCADE_CONFIG`` is unset, so the results store and the
  configuration look-up never touch the real ``~/.local`` or ``~/.config``.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

_HOME = tempfile.mkdtemp(prefix="focus-arcade-tests-")
atexit.register(shutil.rmtree, _HOME, True)
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ.pop("FOCUS_ARCADE_CONFIG", None)
