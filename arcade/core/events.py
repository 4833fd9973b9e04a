"""Stamped input edges: what every input device turns a press into.

An :class:`Edge` is one change of one control of one seat's station, stamped with
the kernel's edge time in integer nanoseconds on CLOCK_MONOTONIC (ruling R-1).
Hardware adapters (``hardware/``) produce them; the debounce and the judge in
this package consume them.  They are plain data: no clock is read here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: The controls a station may have.  ``buzzer`` is the FOCUS buzzer; the others
#: are the optional choose controls (FX-3 ``x`` claims "focus-ex").
CONTROLS = ("buzzer", "left", "right", "ok", "x")


@dataclass(frozen=True, order=True)
class Edge:
    """One edge of one control.

    Attributes:
        t_ns: edge time, integer nanoseconds, CLOCK_MONOTONIC (R-1).
        seat: the seat (0-based) whose station it is.
        control: one of :data:`CONTROLS`.
        pressed: True for the press edge (contact closes), False for release.
        source: which kind of station made it ("gpio", "keyboard", "gamepad",
            "computer"; "" if unknown), so the kiosk can ignore a key pressed
            for a seat that a computer player holds.  Not part of comparisons.

    Ordering is by time first, so ``sorted(edges)`` is the true order of events
    whatever order they were delivered in (R-1, case B-5).
    """

    t_ns: int
    seat: int
    control: str = "buzzer"
    pressed: bool = True
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.t_ns, int) or isinstance(self.t_ns, bool):
            raise TypeError(f"Edge.t_ns must be integer nanoseconds, got {self.t_ns!r}")
        if self.control not in CONTROLS:
            raise ValueError(f"Edge.control {self.control!r}: expected one of {CONTROLS}")
        if self.seat < 0:
            raise ValueError(f"Edge.seat {self.seat!r}: expected a seat number >= 0")
