"""The error classes of the input adapters.

Every error subclasses :class:`HardwareError`, which subclasses
:class:`arcade.core.errors.ArcadeError` and :class:`RuntimeError`; errors that
come from a bad setting (a wrong mapping, a pin used twice) also subclass
:class:`ValueError`.  Messages name the pin or setting and what was expected, so
the kiosk can show them as they are.
"""

from __future__ import annotations

from arcade.core.errors import ArcadeError


class HardwareError(ArcadeError, RuntimeError):
    """Base class of every error raised by :mod:`hardware`."""


class InputMapError(HardwareError, ValueError):
    """A mapping of inputs to ``(seat, control)`` that cannot be used.

    ``key`` is the offending entry (a ``(seat, control)`` pair, a key code, a
    joystick id ...); the message says what was expected.
    """

    def __init__(self, key: object, expected: str) -> None:
        self.key = key
        self.expected = expected
        super().__init__(f"input mapping entry {key!r}: expected {expected}")


class PinInUseError(HardwareError, ValueError):
    """A GPIO pin given twice, or already held by another device.

    ``pin`` is the pin as given (BCM number or gpiozero name); ``users`` the
    ``(seat, control)`` pairs (or description) that asked for it.
    """

    def __init__(self, pin: object, users: str) -> None:
        self.pin = pin
        self.users = users
        super().__init__(f"GPIO pin {pin!r} is used twice: {users}")


class PinOpenError(HardwareError):
    """A GPIO pin that the pin factory could not open (invalid number, no
    permission, no edge detection ...).  ``pin`` names it; the original
    exception is chained as ``__cause__``."""

    def __init__(self, pin: object, reason: str) -> None:
        self.pin = pin
        self.reason = reason
        super().__init__(f"cannot open GPIO pin {pin!r}: {reason}")


class PinFactoryError(HardwareError):
    """The requested gpiozero pin factory cannot be used.

    Raised by :func:`hardware.gpio.pin_factory_from_env` instead of letting
    gpiozero fall back silently to another factory (reference
    ``gpio_timing.md``: lgpio's working directory, ``LG_WD``).
    """
