"""The scene base and the scene stack (no pygame window, no frame loop here).

A scene is one screen of the kiosk: the title, the lobby, a game, the results.
Scenes live on a stack (:class:`SceneStack`): the top one gets the input and
the updates; scenes marked ``overlay`` are drawn over the one below.  The
frame loop that drives the stack is :mod:`kiosk.app`; this module imports
nothing of it, so a scene module never imports the app (no import cycle).

What a scene gets, once per frame, in this order::

    on_command(command)   menu commands from the input layer (kiosk/input.py): back, ok, up ...
    on_edge(edge)         station events: stamped edges of buzzers and controls (R-1)
    update(now_ns)        the clock, integer ns on CLOCK_MONOTONIC
    draw(surface)         never changes state
    frame_shown(t_ns)     the flip time of the frame just drawn (R-2: races open here)
    led_picture(now_ns)   the LED matrix picture, or None for the default

Scenes never read ``pygame.K_*``: keys, gamepad buttons and GPIO pins reach
them as station events and commands (:mod:`kiosk.input`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from arcade.core.events import Edge

if TYPE_CHECKING:
    import pygame

    from kiosk.app import App
    from kiosk.input import Command

__all__ = ["Scene", "SceneStack"]


class Scene:
    """Base scene: enter/exit/pause/resume, on_command, on_edge, update, draw.

    Attributes:
        app: the running arcade (``kiosk.app.App``, imported for the type checker only).
        overlay: drawn over the scene below it (that scene is drawn first).
        led_idle: a screen between games (title, attract loop): when its
            ``led_picture`` is None the matrix shows the idle picture or is
            handed back to the controller (``[led] idle``), instead of keeping
            the last picture.
    """

    overlay = False
    led_idle = False

    def __init__(self, app: App) -> None:
        self.app = app

    def enter(self) -> None:
        """Pushed on the stack (or replaced another)."""

    def exit(self) -> None:
        """Taken off the stack: stop workers, cancel planned presses."""

    def pause(self) -> None:
        """Another scene was pushed over this one."""

    def resume(self) -> None:
        """The scene over this one was popped."""

    def handle(self, event: "pygame.event.Event") -> None:
        """A raw pygame event: turned into commands by the app's input layer and passed
        to :meth:`on_command` (the loop calls :meth:`on_command` itself; this is for
        callers holding a raw event)."""
        for command in self.app.input.commands(event):
            self.on_command(command)

    def on_command(self, command: "Command") -> None:
        """A menu command (``command.name`` in :data:`kiosk.input.COMMANDS`)."""

    def on_edge(self, edge: Edge) -> None:
        """A station event: one stamped edge of one seat's control."""

    def update(self, now_ns: int) -> None:
        """Advance to ``now_ns`` (integer ns, CLOCK_MONOTONIC)."""

    def draw(self, surface: "pygame.Surface") -> None:
        """Draw the scene; never changes state."""

    def draw_overlay(self, surface: "pygame.Surface") -> None:
        """Drawn after :meth:`draw` of the top scene (dialogs); never changes state."""

    def frame_shown(self, t_ns: int) -> None:
        """The frame just drawn was flipped at ``t_ns`` (R-2)."""

    def led_picture(self, now_ns: int) -> Any:
        """The LED matrix picture for this moment, or None for the default."""
        return None


class SceneStack:
    """The scenes on screen, top last.

    ``push`` pauses the top and enters the new one; ``pop`` exits the top and
    resumes the one below; ``replace`` exits the top and enters the new one;
    ``clear`` exits them all (top first).

    Args:
        on_clear: called after :meth:`clear` (the app cancels planned computer
            presses there).
    """

    def __init__(self, on_clear: Callable[[], None] | None = None) -> None:
        self.scenes: list[Scene] = []
        self._on_clear = on_clear

    @property
    def top(self) -> Scene | None:
        """The scene that gets input and updates, or None when empty."""
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        """Put ``scene`` on top (the old top is paused)."""
        if self.scenes:
            self.scenes[-1].pause()
        self.scenes.append(scene)
        scene.enter()

    def pop(self) -> None:
        """Take the top scene off (the one below resumes)."""
        if self.scenes:
            self.scenes.pop().exit()
        if self.scenes:
            self.scenes[-1].resume()

    def replace(self, scene: Scene) -> None:
        """Exchange the top scene for ``scene``."""
        if self.scenes:
            self.scenes.pop().exit()
        self.scenes.append(scene)
        scene.enter()

    def clear(self) -> None:
        """Exit every scene, top first."""
        while self.scenes:
            self.scenes.pop().exit()
        if self._on_clear is not None:
            self._on_clear()

    def drawn(self) -> list[Scene]:
        """The scenes to draw, bottom first: the top and the overlays' scenes below it."""
        first = len(self.scenes) - 1
        while first > 0 and self.scenes[first].overlay:
            first -= 1
        return self.scenes[max(first, 0):]
