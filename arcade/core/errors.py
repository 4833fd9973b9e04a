"""The error classes of the rule modules.

Every error subclasses :class:`ArcadeError` and the matching builtin, so callers
may catch either.  Messages name the bad value and what was expected.
"""

from __future__ import annotations


class ArcadeError(Exception):
    """Base class of every error raised by :mod:`arcade`."""


class IllegalActionError(ArcadeError, ValueError):
    """An action that the rules do not allow in this position.

    Raised by ``State.apply`` before anything changes: the state is untouched.
    ``action`` is the refused action, ``player`` who tried it, ``reason`` why.
    """

    def __init__(self, action: object, player: object, reason: str) -> None:
        self.action = action
        self.player = player
        self.reason = reason
        super().__init__(f"illegal action {action!r} by {player!r}: {reason}")


class SettingsError(ArcadeError, ValueError):
    """A game or judge setting out of range: names the key and the expected value."""

    def __init__(self, key: str, value: object, expected: str) -> None:
        self.key = key
        self.value = value
        self.expected = expected
        super().__init__(f"setting {key!r} = {value!r}: expected {expected}")


class RecordError(ArcadeError, ValueError):
    """A game record (JSON) that cannot be read or replayed."""
