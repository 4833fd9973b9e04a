"""The physical inputs: presses turned into stamped edges on one queue.

Every adapter puts :class:`arcade.core.events.Edge` objects (integer ns on
CLOCK_MONOTONIC, R-1) on the queue it is given; give them all the same
:class:`queue.SimpleQueue` (:func:`make_queue`) and the kiosk drains it each
frame and feeds the judge, which orders by stamp (R-1, B-5) and debounces in
pure code (R-3).

* :class:`GpioBuzzers` (``hardware.gpio``): the real buzzers through gpiozero's
  pin-level callback (lgpio on the Pi, ``MockFactory`` elsewhere), and
  :func:`pin_factory_from_env` to get lgpio loudly or not at all;
* :class:`KeyboardBuzzers` / :class:`GamepadBuzzers`: stand-ins fed pygame
  events (pygame is imported only when they are used);
* :class:`SimulatedPlayers`: scheduled presses on mock pins, for the demo.

Attribute access is lazy, so ``import hardware`` loads neither gpiozero nor
pygame until a name that needs it is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hardware.errors import (
    HardwareError,
    InputMapError,
    PinFactoryError,
    PinInUseError,
    PinOpenError,
)
from hardware.sink import EdgeSink, drain, make_queue

if TYPE_CHECKING:  # pragma: no cover
    from hardware.gamepad import GamepadBuzzers
    from hardware.gpio import GpioBuzzers, pin_factory_from_env
    from hardware.keyboard import KeyboardBuzzers
    from hardware.simulated import SimulatedPlayers

_LAZY = {
    "GpioBuzzers": "hardware.gpio",
    "pin_factory_from_env": "hardware.gpio",
    "KeyboardBuzzers": "hardware.keyboard",
    "GamepadBuzzers": "hardware.gamepad",
    "SimulatedPlayers": "hardware.simulated",
}

__all__ = [
    "HardwareError", "InputMapError", "PinFactoryError", "PinInUseError",
    "PinOpenError", "EdgeSink", "drain", "make_queue",
    # the lazy names (_LAZY), spelled out so that linters see them exported
    "GpioBuzzers", "pin_factory_from_env", "KeyboardBuzzers", "GamepadBuzzers", "SimulatedPlayers",
]
assert set(_LAZY) <= set(__all__)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'hardware' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
