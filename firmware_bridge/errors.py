"""The error classes of the LED link.

Every error subclasses :class:`BridgeError`, which subclasses
:class:`arcade.core.errors.ArcadeError` and :class:`RuntimeError`; errors that
come from a bad value (a pixel out of range, a wrong setting, a picture of the
wrong shape) also subclass :class:`ValueError`.  Messages name the bad value and
what was expected.

Faults of the serial port itself (a stalled write, an unplugged device) are
*not* raised to the caller: :class:`firmware_bridge.link.LedLink` reports them
in its ``status()`` and carries on (field reports L-1, L-2).
"""

from __future__ import annotations

from arcade.core.errors import ArcadeError


class BridgeError(ArcadeError, RuntimeError):
    """Base class of every error raised by :mod:`firmware_bridge`."""


class FrameError(BridgeError, ValueError):
    """A frame that cannot be encoded: no pixels, too many, or a bad pixel.

    ``index`` is the position of the bad pixel along the chain (``None`` when
    the whole frame is wrong, e.g. its length); ``value`` the offending value.
    """

    def __init__(self, message: str, *, index: int | None = None, value: object = None) -> None:
        self.index = index
        self.value = value
        super().__init__(message)


class LinkSettingsError(BridgeError, ValueError):
    """A link, layout or virtual-matrix setting out of range.

    ``key`` names the setting, ``value`` is what was given, ``expected`` says
    what would have been accepted.
    """

    def __init__(self, key: str, value: object, expected: str) -> None:
        self.key = key
        self.value = value
        self.expected = expected
        super().__init__(f"setting {key!r} = {value!r}: expected {expected}")


class LayoutError(BridgeError, ValueError):
    """A picture whose shape does not match the matrix layout (rows x columns)."""
