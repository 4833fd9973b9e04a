"""Shared test set-up: no screen, no sound card, no writes to the real home.

Set at import, before any test module imports pygame or reads a path:

* ``SDL_VIDEODRIVER`` / ``SDL_AUDIODRIVER`` = ``dummy`` (headless machines, CI);
* ``XDG_DATA_HOME``, ``XDG_CONFIG_HOME``, ``XDG_STATE_HOME`` and ``XDG_CACHE_HOME`` point into a fresh
  temporary folder, and ``FOCUS_ARCADE_CONFIG`` and ``STATE_DIRECTORY`` are unset, so
  the results store, the configuration look-up and its last good copy never touch the
  real ``~/.local`` or ``~/.config``;
* ``LANGUAGE`` = ``en``: the screens speak English whatever the machine's locale, and after
  each test (a test of Ukrainian screens puts it back);
* each test gets its own ``XDG_STATE_HOME`` (a last good configuration copied by one
  test is never another's);
* hypothesis has no deadline: tests never time anything, and a loaded machine made a
  property test "flaky" by its 200 ms default.

The ``app`` fixture is the kiosk App most screen tests start from (see its docstring).
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Iterator

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
os.environ["XDG_CACHE_HOME"] = os.path.join(_HOME, "cache")     # catalogs compiled at run time (arcade.i18n)
os.environ.pop("FOCUS_ARCADE_CONFIG", None)
os.environ.pop("STATE_DIRECTORY", None)
# The screens speak English in the tests whatever this machine's locale (an arcade with the default
# [display] language = "" follows LANGUAGE/LANG: arcade.i18n.system_language); a test of another
# language asks for it, and is put back to English after it (_english_after).
os.environ["LANGUAGE"] = "en"


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    from arcade import i18n
    i18n.use(i18n.SOURCE)


@pytest.fixture(autouse=True)
def _own_state_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "kiosk_app(size, command, pace): how the `app` fixture's App is made")


@pytest.fixture
def app(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A kiosk App on the default configuration, its results in ``tmp_path``, the LED matrix
    off, on SDL's dummy screen (1280 x 720), no key or button waiting; closed after the test.

    A module (``pytestmark``) or a test changes it with ``pytest.mark.kiosk_app(...)``:
    ``size=(w, h)`` the screen, ``command="demo"`` the command it was started for, ``pace=s``
    its ``pace_override`` (seconds a computer move or a table is shown: ``demo --pace``)."""
    import pygame

    from kiosk import config
    from kiosk.app.loop import App
    mark = request.node.get_closest_marker("kiosk_app")
    made = {"size": (1280, 720), "command": None, "pace": None, **(mark.kwargs if mark else {})}
    pygame.init()
    screen = pygame.display.set_mode(made["size"])
    cfg = config.load_or_default(None)
    cfg.data["storage"]["path"] = str(tmp_path / "results.sqlite3")
    cfg.data["led"]["port"] = "none"
    a = App(cfg, screen, argparse.Namespace(command=made["command"], screenshot_dir="", frames=0))
    if made["pace"] is not None:
        a.pace_override = made["pace"]
    pygame.event.clear()
    try:
        yield a
    finally:
        a.close()
