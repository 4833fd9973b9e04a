"""Station controls and buzzer-alone gestures -> menu actions, for every menu screen.

Each seat's station gives stamped edges (``arcade.core.events.Edge``).  Menus
(lobby, initials, PIN, service menu) use the same four actions:

=========  ===========================  ======================================
action     station controls             buzzer alone
=========  ===========================  ======================================
``prev``   left                         -
``next``   right                        tap (press and release within 0.6 s)
``ok``     OK                           hold 0.6 s (fires while still held)
``back``   X                            hold 2 s (fires while still held)
=========  ===========================  ======================================

A hold fires at its time, from :meth:`Gestures.poll`, so the screen answers
without waiting for the release; the release after a hold does nothing.
Times are the edges' own stamps (R-1) and the ``now_ns`` given to ``poll``.
"""

from __future__ import annotations

from arcade.core.events import Edge

PREV, NEXT, OK, BACK = "prev", "next", "ok", "back"

#: A buzzer held this long is "ok" (ns).
HOLD_NS = 600_000_000
#: ... and this long is "back" (ns).
LONG_HOLD_NS = 2_000_000_000
#: Presses shorter than this after the previous release are bounces (ns).
BOUNCE_NS = 30_000_000

_CONTROL_ACTIONS = {"left": PREV, "right": NEXT, "ok": OK, "x": BACK}


class Gestures:
    """Turns one screen's edges into ``(seat, action)`` pairs.

    Args:
        long_hold: whether a 2 s buzzer hold means ``back`` (off: a hold only
            accepts, however long).  Screens where a long hold must never first do what
            a hold does (the lobby, where it leaves; the PIN; the service menu; the offer of
            an interrupted game) judge at the release:
            :class:`kiosk.service.tools.ReleaseGestures`.
    """

    def __init__(self, long_hold: bool = True) -> None:
        self.long_hold = long_hold
        self.down: dict[int, int] = {}            # seat -> buzzer press stamp
        self.fired: dict[int, int] = {}           # seat -> how many hold actions fired in this press
        self.released: dict[int, int] = {}

    def feed(self, edge: Edge) -> list[tuple[int, str]]:
        """Actions made by ``edge`` right away (controls, and a buzzer tap on release)."""
        if edge.control != "buzzer":
            if edge.pressed and edge.control in _CONTROL_ACTIONS:
                return [(edge.seat, _CONTROL_ACTIONS[edge.control])]
            return []
        seat = edge.seat
        if edge.pressed:
            if seat in self.down:
                return []
            if edge.t_ns - self.released.get(seat, -BOUNCE_NS * 2) < BOUNCE_NS:
                return []                          # a bounce right after the release
            self.down[seat] = edge.t_ns
            self.fired[seat] = 0
            return []
        start = self.down.pop(seat, None)
        self.released[seat] = edge.t_ns
        if start is None:
            return []
        fired = self.fired.pop(seat, 0)
        held = edge.t_ns - start
        if fired == 0:          # released before poll() saw the hold: judge it by its stamps
            return [(seat, NEXT)] if held < HOLD_NS else [(seat, OK)] if not self.long_hold or held < LONG_HOLD_NS \
                else [(seat, BACK)]
        return []

    def poll(self, now_ns: int) -> list[tuple[int, str]]:
        """Hold actions due at ``now_ns`` for buzzers still held."""
        out: list[tuple[int, str]] = []
        for seat, start in list(self.down.items()):
            held = now_ns - start
            n = self.fired.get(seat, 0)
            if n == 0 and held >= HOLD_NS:
                self.fired[seat] = 1
                out.append((seat, OK))
            elif n == 1 and self.long_hold and held >= LONG_HOLD_NS:
                self.fired[seat] = 2
                out.append((seat, BACK))
        return out

    def holding(self, seat: int, now_ns: int) -> float:
        """How far ``seat``'s buzzer hold is towards "ok" (0..1; 0 if not held), for a progress ring."""
        start = self.down.get(seat)
        if start is None or self.fired.get(seat, 0):
            return 0.0
        return max(0.0, min(1.0, (now_ns - start) / HOLD_NS))
