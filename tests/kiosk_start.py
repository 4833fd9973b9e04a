"""Start the kiosk in this process, as ``focus-arcade`` would, for a few title frames.

Shared by the damaged-store and fuzz tests: the App gets a small dummy-driver
window (SDL ``dummy``), opens its results store and LED output from ``cfg``,
goes to the title screen and runs ``frames`` frames.  Exceptions are not
caught here: a test that uses it fails when the start fails.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pygame

from kiosk.app.loop import App
from kiosk.config import Config, load_or_default


def screen() -> pygame.Surface:
    if not pygame.get_init():
        pygame.init()
    surface = pygame.display.get_surface()
    if surface is None:
        surface = pygame.display.set_mode((640, 360))
    return surface


def start_kiosk(cfg: Config, frames: int = 3) -> App:
    """An App on the title screen after ``frames`` frames (close it when done)."""
    app = App(cfg, screen(), argparse.Namespace(command=None, frames=0, screenshot_dir=""))
    try:
        app.home()
        for _ in range(frames):
            app.step(time.monotonic_ns())
    except BaseException:
        app.close()
        raise
    return app


def config_for(config_file: Path | None, store: Path, led_port: str = "none") -> Config:
    """``load_or_default(config_file)`` with the store at ``store`` and the LED port given
    (a fuzzed file must not send the test to a real serial port)."""
    cfg = load_or_default(config_file)
    cfg.data["storage"]["path"] = str(store)
    cfg.data["led"]["port"] = led_port
    return cfg
