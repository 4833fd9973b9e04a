"""The service menu's pure parts: the opening combination, the PIN, the button test.

No pygame here; the scenes in ``kiosk/scenes/service.py`` draw them.

* :class:`Combination`: ``[service] combo`` (default ``["P1.ok", "P2.ok"]``)
  held together for ``hold_s`` seconds (default 3) opens the service menu
  (after the PIN, if ``[service] pin`` is set).  Times are edge stamps (R-1).
* :class:`PinEntry`: digits entered with menu actions (kiosk/gestures.py):
  left/right (or a buzzer tap) change the digit, OK (or a buzzer hold) takes it.
* :class:`ButtonTest`: every edge of every seat's controls with its kernel
  stamp, the gap to that control's previous edge in ms, the bounces of each
  press (edges within the debounce time of the press, R-3), and stuck controls
  (held longer than ``judge.stuck_after_s``, R-8).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from arcade.core.events import CONTROLS, Edge
from kiosk.gestures import BACK, NEXT, OK, PREV

NS_PER_MS = 1_000_000


def parse_combo(items: list[str]) -> frozenset[tuple[int, str]]:
    """``["P1.ok", "P2.ok"]`` -> ``{(0, "ok"), (1, "ok")}`` (validated by kiosk/config.py)."""
    out = set()
    for item in items:
        seat, control = item.split(".")
        out.add((int(seat[1:]) - 1, control))
    return frozenset(out)


class Combination:
    """Whether the opening combination has been held long enough.

    Args:
        keys: ``{(seat, control)}`` that must all be held.
        hold_ns: how long they must all be held together (ns).
    """

    def __init__(self, keys: frozenset[tuple[int, str]], hold_ns: int) -> None:
        self.keys = keys
        self.hold_ns = hold_ns
        self.held: dict[tuple[int, str], int] = {}
        self.fired = False

    def feed(self, edge: Edge) -> None:
        k = (edge.seat, edge.control)
        if k not in self.keys:
            return
        if edge.pressed:
            self.held.setdefault(k, edge.t_ns)
        else:
            self.held.pop(k, None)
            self.fired = False          # release everything, then it may fire again

    def since(self) -> int | None:
        """The stamp from which every key has been held, or None."""
        if len(self.held) < len(self.keys):
            return None
        return max(self.held.values())

    def poll(self, now_ns: int) -> bool:
        """True once when the keys have been held together for ``hold_ns``."""
        t = self.since()
        if t is None or self.fired or now_ns - t < self.hold_ns:
            return False
        self.fired = True
        return True

    def progress(self, now_ns: int) -> float:
        t = self.since()
        return 0.0 if t is None else max(0.0, min(1.0, (now_ns - t) / self.hold_ns))


class PinEntry:
    """A PIN of digits, entered with menu actions; ``result`` is None, True or False."""

    def __init__(self, pin: str) -> None:
        self.pin = pin
        self.digits: list[int] = [0]
        self.result: bool | None = None

    def act(self, action: str) -> None:
        if self.result is not None:
            return
        if action in (PREV, NEXT):
            self.digits[-1] = (self.digits[-1] + (1 if action == NEXT else -1)) % 10
        elif action == OK:
            if len(self.digits) == len(self.pin):
                self.result = "".join(map(str, self.digits)) == self.pin
            else:
                self.digits.append(0)
        elif action == BACK:
            if len(self.digits) > 1:
                self.digits.pop()
            else:
                self.result = False

    def shown(self) -> str:
        """What the screen shows: the digits taken as ``*``, the current one as itself."""
        return "*" * (len(self.digits) - 1) + str(self.digits[-1]) + "_" * (len(self.pin) - len(self.digits))


@dataclass
class EdgeNote:
    """One edge in the button test: its stamp (ns, CLOCK_MONOTONIC), the gap to the same
    control's previous edge (ms, None for the first), and whether it is a bounce."""

    edge: Edge
    gap_ms: float | None
    bounce: bool


@dataclass
class ControlStats:
    down: bool = False
    down_since: int = 0
    presses: int = 0
    bounces_last: int = 0          # bounce edges of the last press
    bounces_total: int = 0
    last_press: int | None = None
    last_real: int | None = None   # the last edge that was not a bounce (press or release)
    last_edge: int | None = None
    stuck: bool = False
    sources: set[str] = field(default_factory=set)


class ButtonTest:
    """Live state of every seat's controls.

    Args:
        debounce_ms: edges within this time of a press are its bounces (R-3).
        stuck_after_s: a control held longer than this is flagged stuck (R-8).
    """

    def __init__(self, debounce_ms: float = 15.0, stuck_after_s: float = 5.0, keep: int = 14) -> None:
        self.debounce_ns = int(debounce_ms * NS_PER_MS)
        self.stuck_ns = int(stuck_after_s * 1e9)
        self.controls: dict[tuple[int, str], ControlStats] = {}
        self.log: deque[EdgeNote] = deque(maxlen=keep)

    def feed(self, edge: Edge) -> EdgeNote:
        c = self.controls.setdefault((edge.seat, edge.control), ControlStats())
        c.sources.add(edge.source or "?")
        gap = None if c.last_edge is None else (edge.t_ns - c.last_edge) / NS_PER_MS
        c.last_edge = edge.t_ns
        bounce = c.last_real is not None and edge.t_ns - c.last_real < self.debounce_ns
        if bounce:
            c.bounces_last += 1
            c.bounces_total += 1
            c.down = edge.pressed
        elif edge.pressed:
            c.presses += 1
            c.last_press = c.last_real = edge.t_ns
            c.bounces_last = 0
            c.down, c.down_since, c.stuck = True, edge.t_ns, False
        else:
            c.last_real = edge.t_ns
            c.down, c.stuck = False, False
        note = EdgeNote(edge, gap, bounce)
        self.log.appendleft(note)
        return note

    def tick(self, now_ns: int) -> None:
        for c in self.controls.values():
            c.stuck = c.down and now_ns - c.down_since > self.stuck_ns

    def seat_controls(self, seat: int) -> dict[str, ControlStats]:
        return {ctl: self.controls[(seat, ctl)] for ctl in CONTROLS if (seat, ctl) in self.controls}
