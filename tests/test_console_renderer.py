"""The arcade's frames reach the console's screen (issue 25).

On the Pi's console (SDL's KMSDRM driver) ``pygame.display.flip`` shows the
window through an SDL renderer.  SDL tries its desktop OpenGL renderer first,
and on the console (EGL on GBM, Mesa 22.3) that renderer clears the screen and
draws nothing else: the install rehearsal's arcade ran, page-flipped and saved
its games while every frame on the screen was black.  The OpenGL ES 2 renderer
shows them.  What the technician notices:
the title screen, not a black screen.  Without a KMSDRM device here, the tests
look at the renderer SDL is told to use at the moment the window opens.
"""

from __future__ import annotations

import argparse
import os

import pygame
import pytest

import kiosk.app.window as kwindow
from kiosk.config import Config, validate


def renderer_when_the_window_opens(monkeypatch: pytest.MonkeyPatch, video_driver: str,
                                   owner_set: str | None = None) -> str | None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    if owner_set is None:
        monkeypatch.delenv("SDL_RENDER_DRIVER", raising=False)
    else:
        monkeypatch.setenv("SDL_RENDER_DRIVER", owner_set)
    monkeypatch.setattr(pygame.display, "get_driver", lambda: video_driver)
    seen: dict[str, str | None] = {}

    def set_mode(*args: object, **kwargs: object) -> pygame.Surface:
        seen["renderer"] = os.environ.get("SDL_RENDER_DRIVER")
        raise pygame.error("no screen in the test")        # run() stops here with status 1

    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    assert kwindow.run(Config(validate({})), argparse.Namespace(windowed=False)) == 1
    assert "renderer" in seen, "the window was never opened"
    return seen["renderer"]


def test_on_the_console_the_window_opens_with_the_opengl_es_2_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    assert renderer_when_the_window_opens(monkeypatch, "KMSDRM") == "opengles2"


def test_a_renderer_the_owner_chose_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    assert renderer_when_the_window_opens(monkeypatch, "KMSDRM", owner_set="software") == "software"


def test_a_desktop_window_keeps_sdl_s_own_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    assert renderer_when_the_window_opens(monkeypatch, "x11") is None
