"""Keyboard stand-ins for the buzzers (a laptop, or a spare keyboard on the Pi).

The kiosk passes its pygame events to :meth:`KeyboardBuzzers.handle`; a mapped
key turns into an :class:`arcade.core.events.Edge` on the shared queue.

Timing: pygame does not give a keyboard event's hardware time, so the edge is
stamped with the injected clock (default :func:`time.monotonic_ns`, the judge's
time line, R-1) when :meth:`~KeyboardBuzzers.handle` sees it, which can be up to
a frame after the key moved.  That is fine for trying games out; for fair races
use the GPIO buzzers.

pygame is imported inside the methods, so this module imports without pygame
initialised and without a display.
"""

from __future__ import annotations

import queue as queue_mod
import time
from types import MappingProxyType
from typing import Any, Callable, Mapping

from arcade.core.events import CONTROLS, Edge
from arcade.i18n import _
from hardware.errors import InputMapError
from hardware.sink import EdgeSink

__all__ = ["KeyboardBuzzers", "default_keymap"]


def default_keymap() -> dict[int, tuple[int, str]]:
    """The default keys: ``{pygame key code: (seat, control)}``.

    * keys ``1`` .. ``8``: the buzzers of seats 0 .. 7;
    * seat 0's choose controls: ``A`` left, ``D`` right, ``S`` ok, ``W`` x;
    * seat 1's choose controls: arrow keys, ``Down`` = ok, ``Up`` = x.
    """
    import pygame

    keymap: dict[int, tuple[int, str]] = {}
    digits = (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4,
              pygame.K_5, pygame.K_6, pygame.K_7, pygame.K_8)
    for seat, key in enumerate(digits):
        keymap[key] = (seat, "buzzer")
    keymap.update({
        pygame.K_a: (0, "left"), pygame.K_d: (0, "right"),
        pygame.K_s: (0, "ok"), pygame.K_w: (0, "x"),
        pygame.K_LEFT: (1, "left"), pygame.K_RIGHT: (1, "right"),
        pygame.K_DOWN: (1, "ok"), pygame.K_UP: (1, "x"),
    })
    return keymap


def _check_keymap(keymap: Mapping[int, tuple[int, str]]) -> dict[int, tuple[int, str]]:
    out: dict[int, tuple[int, str]] = {}
    for key, target in dict(keymap).items():
        if not isinstance(key, int) or isinstance(key, bool):
            raise InputMapError(key, "a pygame key code (int)")
        if not (isinstance(target, tuple) and len(target) == 2):
            raise InputMapError(key, f"a (seat, control) pair, got {target!r}")
        seat, control = target
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
            raise InputMapError(key, f"a seat number >= 0, got {seat!r}")
        if control not in CONTROLS:
            raise InputMapError(key, f"a control in {CONTROLS}, got {control!r}")
        out[key] = (seat, control)
    return out


class KeyboardBuzzers:
    """Keys standing in for buzzers and choose controls.

    Args:
        keymap: ``{pygame key code: (seat, control)}``; :func:`default_keymap`
            if ``None``.  Several keys may map to one control.
        queue: where the edges go (share it with the other adapters); a new
            :class:`queue.SimpleQueue` if ``None``.
        clock: returns integer ns on the judge's clock (CLOCK_MONOTONIC);
            injected so tests choose the stamps.

    Raises:
        InputMapError: a keymap entry that is not ``key -> (seat, control)``.
    """

    def __init__(
        self,
        keymap: Mapping[int, tuple[int, str]] | None = None,
        queue: EdgeSink | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self._keymap = MappingProxyType(
            _check_keymap(default_keymap() if keymap is None else keymap))
        self._queue: EdgeSink = queue if queue is not None else queue_mod.SimpleQueue()
        self._clock = clock
        self._down: set[int] = set()

    @property
    def queue(self) -> EdgeSink:
        """The queue the edges are put on."""
        return self._queue

    @property
    def keymap(self) -> Mapping[int, tuple[int, str]]:
        """Read-only ``{key code: (seat, control)}``."""
        return self._keymap

    @property
    def held(self) -> frozenset[int]:
        """Key codes currently held down (as far as the events told)."""
        return frozenset(self._down)

    def handle(self, event: Any) -> bool:
        """Turn one pygame event into an edge if it belongs to a mapped key.

        ``KEYDOWN`` of a mapped key puts a press edge; ``KEYUP`` a release
        edge.  A ``KEYDOWN`` of a key already down is the key's auto-repeat:
        consumed, no edge.  A ``KEYUP`` of a key not known to be down (held
        before the game started) is consumed without an edge.  On
        ``WINDOWFOCUSLOST`` every held key gets its release edge (no ``KEYUP``
        would come), and the event is not consumed.

        Returns:
            True if the event was a mapped key's (the caller should not use it
            for anything else), False otherwise.
        """
        import pygame

        etype = getattr(event, "type", None)
        if etype == pygame.KEYDOWN or etype == pygame.KEYUP:
            key = getattr(event, "key", None)
            if not isinstance(key, int):
                return False
            target = self._keymap.get(key)
            if target is None:
                return False
            if etype == pygame.KEYDOWN:
                if key in self._down:
                    return True  # auto-repeat
                self._down.add(key)
                self._emit(target, True)
            else:
                if key not in self._down:
                    return True
                self._down.discard(key)
                self._emit(target, False)
            return True
        if etype == pygame.WINDOWFOCUSLOST:
            self.release_all()
        return False

    def release_all(self) -> None:
        """Put a release edge for every key held (focus lost, scene change)."""
        down, self._down = sorted(self._down), set()
        for key in down:
            self._emit(self._keymap[key], False)

    def _emit(self, target: tuple[int, str], pressed: bool) -> None:
        seat, control = target
        self._queue.put(Edge(int(self._clock()), seat, control, pressed, "keyboard"))

    def key_names(self, seat: int, control: str = "buzzer") -> list[str]:
        """The names of the keys of this seat's control, as printed on them, in keymap order
        (``["1"]``, ``["A"]``, ``["Left"]``); none if no key is mapped."""
        import pygame

        names = []
        for key in [k for k, t in self._keymap.items() if t == (seat, control)]:
            name = pygame.key.name(key) or f"#{key}"
            names.append(name.upper() if len(name) == 1 else name.title())
        return names

    def describe(self, seat: int, control: str = "buzzer") -> str:
        """Human text for the lobby, in the language spoken now: which key is this seat's control.

        Returns:
            e.g. ``"key 1"``, ``"key A"``, ``"key Left"``; several keys are
            joined with ``" or "`` in keymap order; ``"no key"`` if none.
        """
        names = [_("key {name}").format(name=n) for n in self.key_names(seat, control)]
        if not names:
            return _("no key")
        text = names[0]
        for more in names[1:]:
            text = _("{a} or {b}").format(a=text, b=more)
        return text
