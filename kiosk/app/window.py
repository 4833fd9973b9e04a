"""The arcade's window: SDL's renderer chosen, the window opened, the arcade run in it until it
stops, and the exit status (the service menu's restart or stop, a signal's).
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from typing import MutableMapping

import pygame

from kiosk.app.loop import App
from kiosk.app.options import RunOptions
from kiosk.config import Config
from kiosk.service.stopping import EXIT_RESTART

log = logging.getLogger("focus-arcade")


#: SDL's renderer for the window's frames on the console (KMSDRM): OpenGL ES 2.
CONSOLE_RENDERER = "opengles2"


def console_renderer(video_driver: str, environ: MutableMapping[str, str] = os.environ) -> str | None:
    """Choose SDL's renderer before the window opens; returns the one chosen, if any.

    On the console (SDL's KMSDRM driver) ``pygame.display.flip`` shows the
    window's surface through an SDL renderer, and SDL tries its desktop OpenGL
    renderer first.  On the console (EGL on GBM) that renderer clears the screen
    but draws nothing on it: the screen stays black while the arcade runs and
    page-flips (issue 25: the install rehearsal, Mesa 22.3 on Debian bookworm,
    with or without libGL).  Its OpenGL ES 2 renderer shows the frames; GLES 2
    is the API EGL on the console is made for (vc4/v3d on a Pi).  A renderer the
    owner sets in SDL_RENDER_DRIVER is kept; other video drivers are left alone.

    >>> env = {}
    >>> console_renderer("KMSDRM", env), env
    ('opengles2', {'SDL_RENDER_DRIVER': 'opengles2'})
    >>> console_renderer("x11", {}) is None
    True
    """
    if video_driver.lower() != "kmsdrm":
        return None
    return str(environ.setdefault("SDL_RENDER_DRIVER", CONSOLE_RENDERER))


def run(cfg: Config, args: argparse.Namespace) -> int:
    """Open the window and run the arcade until quit; returns the exit status.

    SIGTERM, SIGHUP and SIGINT end it through the same way out as Ctrl+Q (see
    :mod:`kiosk.service.stopping`): status 0 after SIGTERM or SIGHUP, 130 after SIGINT.
    """
    from kiosk.service.stopping import StopSignals
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")      # our handlers, not SDL's
    stop = StopSignals()
    app: App | None = None
    status = 0
    try:
        pygame.init()
        if pygame.display.get_init():
            console_renderer(pygame.display.get_driver())    # before the window: its frames' renderer
        d = cfg["display"]
        flags = pygame.FULLSCREEN if d["fullscreen"] and not RunOptions.of(args).windowed else 0
        try:
            screen = pygame.display.set_mode((d["width"], d["height"]), flags)
        except pygame.error as exc:
            print(f"focus-arcade: cannot open a window: {exc}. On a machine without a screen set "
                  "SDL_VIDEODRIVER=dummy (or use 'focus-arcade headless').")
            return 1
        pygame.display.set_caption("Focus Arcade")
        pygame.mouse.set_visible(False)
        app = App(cfg, screen, args)
        stop.attach(app)
        if app.demo:
            from kiosk.players.demo import DemoError, start_demo
            try:
                start_demo(app, args)
            except (KeyError, DemoError) as exc:
                print(f"focus-arcade: {exc.args[0]}")
                status = 2
        else:
            app.home()
        if status == 0:
            app.resume_offer.offer()
        if status == 0 and stop.signum is None:
            app.loop(max_frames=app.options.frames)
        stop.done()
    except KeyboardInterrupt:
        stop.done()
        if stop.signum is None:
            stop.signum = 2
    finally:
        stop.done()
        try:
            if app is not None:
                app.close()
            pygame.quit()
        except KeyboardInterrupt:
            pass
        stop.restore()
        if stop.signum is not None:
            log.info("stopped %.2f s after the signal", time.monotonic() - stop.at if stop.at else 0.0)
    if status == 0 and app is not None:
        status = app.exit_code            # the service menu's restart / stop
    status = stop.exit_status(status)
    if status == EXIT_RESTART and stop.signum is None:
        from kiosk.service import power
        if not power.under_systemd():
            power.restart_in_place()      # started by hand: the same command line again (no return)
    return status
