"""Shared test set-up: no screen, no sound card, no writes to the real home.

Set at import, before any test module imports pygame or reads a path:

* ``SDL_VIDEODRIVER`` / ``SDL_AUDIODRIVER`` = ``dummy`` (headless machines, CI);
* ``XDG_DATA_HOME``, ``XDG_CONFIG_HOME`` and ``XDG_STATE_HOME`` point into a fresh
  temporary folder, and ``FOCUS_ARCADE_CONFIG`` and ``STATE_DIRECTORY`` are unset, so
  the results store, the configuration look-up and its last good copy never touch the
  real ``~/.local`` or ``~/.config``;
* each test gets its own ``XDG_STATE_HOME`` (a last good configuration copied by one
  test is never another's);
* hypothesis has no deadline: tests never time anything, and a loaded machine made a
  property test "flaky" by its 200 ms default;
* every test ends in English (``arcade.i18n.use``): a language a test chose (the lobby's
  language row, a text-fit test in Ukrainian) is the process's, and the next test's
  English assertions must not read it (issue 26).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from typing import Iterator

import pytest
from hypothesis import settings

settings.register_profile("focus-arcade", deadline=None)
settings.load_profile("focus-arcade")

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

_HOME = tempfile.mkdtemp(prefix="focus-arcade-tests-")
atexit.register(shutil.rmtree, _HOME, True)
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ["XDG_STATE_HOME"] = os.path.join(_HOME, "state")
os.environ.pop("FOCUS_ARCADE_CONFIG", None)
os.environ.pop("STATE_DIRECTORY", None)


@pytest.fixture(autouse=True)
def _own_state_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    from arcade import i18n
    i18n.use(i18n.SOURCE)
