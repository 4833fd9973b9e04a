"""The service menu's pure parts: the opening combination, the PIN, the button test.

No pygame here; the scenes in ``kiosk/scenes/service/`` drive and draw them.

* :class:`Combination`: ``[service] combo`` (default ``["P1.ok", "P2.ok"]``)
  pressed together on the title screen (or in the service menu) and held, with
  nothing else pressed, for ``hold_s`` seconds (default 3) opens the service menu
  (after the PIN, if ``[service] pin`` is set).  Times are edge stamps (R-1).
* :class:`PinEntry`: digits entered with menu actions (kiosk/controls/gestures.py):
  left/right (or a buzzer tap) change the digit, OK (or a buzzer hold) takes it.
* :class:`ButtonTest`: every edge of every seat's controls with its kernel
  stamp, the gap to that control's previous edge in ms, the bounces of each
  press (edges within the debounce time of the press, R-3), and stuck controls
  (held longer than ``judge.stuck_after_s``, R-8).
* :class:`ReleaseGestures`: buzzer gestures judged when the buzzer is let go,
  so a long hold never does what a hold does first.
* :class:`NewPin`: a new PIN chosen with the same actions, entered twice.
* :class:`PinLock`: the lock after wrong PINs, kept in a file so that it
  survives a restart, longer with each lock.
"""

from __future__ import annotations

import json
import logging
import os
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from arcade import i18n
from arcade.core.events import CONTROLS, Edge
from arcade.i18n import N_, _
from kiosk.app import said
from kiosk.config import PIN_DIGITS
from kiosk.controls.gestures import BACK, HOLD_NS, LONG_HOLD_NS, NEXT, OK, PREV, Gestures

log = logging.getLogger(__name__)

NS_PER_MS = 1_000_000


def parse_combo(items: list[str]) -> frozenset[tuple[int, str]]:
    """``["P1.ok", "P2.ok"]`` -> ``{(0, "ok"), (1, "ok")}`` (validated by kiosk/config.py)."""
    out = set()
    for item in items:
        seat, control = item.split(".")
        out.add((int(seat[1:]) - 1, control))
    return frozenset(out)


#: The keys of the opening combination must all go down within this time of the first (ns):
#: pressed together, as an operator does with two hands, not one guest after another.
CHORD_NS = 1_000_000_000


class Combination:
    """Whether the opening combination has been held long enough, on purpose (issue 20).

    Guests mashing their buzzers held P1's and P2's together for 3 s often enough (three
    times in 35 minutes of four seats at random) to reach the PIN screen, in a game too, where
    the combination's presses were the game's presses.  So the combination counts only when
    it is plainly deliberate:

    * its first key goes down where it does nothing else: the title screen or the attract
      loop (the press opens the lobby with that seat joined, and the others' presses there
      only join), or the service menu itself (the button test's way out) -- ``here`` of
      :meth:`feed`; never in a game, the lobby or the results, where the keys are the
      guests' own;
    * all its keys go down within :data:`CHORD_NS` of the first;
    * no other control is pressed while it is held (one held down all along, a stuck
      buzzer, does not stop it: the operator opens the menu to test it).

    A combination spoilt by any of these counts again only after all its keys were let go.

    Args:
        keys: ``{(seat, control)}`` that must all be held.
        hold_ns: how long they must all be held together (ns).
    """

    def __init__(self, keys: frozenset[tuple[int, str]], hold_ns: int) -> None:
        self.keys = keys
        self.hold_ns = hold_ns
        self.held: dict[tuple[int, str], int] = {}
        self.spoilt = False
        self.fired = False

    def feed(self, edge: Edge, here: bool = True) -> None:
        """A person's edge; ``here``: whether the screen it reaches lets the combination begin."""
        k = (edge.seat, edge.control)
        if k not in self.keys:
            if edge.pressed and self.held:
                self.spoilt = True              # someone else pressed: not the operator's gesture
            return
        if edge.pressed:
            if not self.held:
                self.spoilt = not here
            elif edge.t_ns - min(self.held.values()) > CHORD_NS:
                self.spoilt = True              # one after another, not together
            self.held.setdefault(k, edge.t_ns)
        else:
            self.held.pop(k, None)
            self.fired = False          # release everything, then it may fire again
            if not self.held:
                self.spoilt = False

    def since(self) -> int | None:
        """The stamp from which every key has been held, or None."""
        if len(self.held) < len(self.keys) or self.spoilt:
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
        self.cancelled = False          # "back" before any digit was taken: not a try

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
                self.result, self.cancelled = False, True

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


class ReleaseGestures(Gestures):
    """Buzzer gestures judged at the release (station controls act at once, as in
    :class:`~kiosk.controls.gestures.Gestures`): shorter than 0.6 s ``next``, up to 2 s ``ok``,
    longer ``back``.  Nothing fires while the buzzer is held, so a long hold meant as
    "back" never first chooses the highlighted row (a long hold on "Save and restart now"
    must not restart the arcade); :meth:`would` says what letting go now would do, for
    the screen."""

    def poll(self, now_ns: int) -> list[tuple[int, str]]:
        return []

    def would(self, now_ns: int) -> tuple[int, str, float] | None:
        """(seat, action, held s) of the buzzer held longest, or None if none is held."""
        if not self.down:
            return None
        seat, start = min(self.down.items(), key=lambda kv: kv[1])
        held = now_ns - start
        action = NEXT if held < HOLD_NS else OK if held < LONG_HOLD_NS else BACK
        return seat, action, held / 1e9


class NewPin:
    """A new PIN chosen with menu actions, then entered again to check it.

    ``next``/``prev`` change the digit being chosen; once :attr:`MIN` digits are
    taken the choice after 9 is "done".  ``ok`` takes the digit (or, on "done", ends
    the entry; after :attr:`MAX` digits it ends by itself); ``back`` takes back the
    last digit, or, with none taken, gives up (``cancelled``).  After both entries
    ``result`` is the new PIN; when they differ, ``problem`` says so and the entry
    starts again.
    """

    MIN, MAX = PIN_DIGITS
    DONE = 10
    #: PINs that are printed in the README: never accepted as a new PIN.
    WELL_KNOWN = ("2580",)

    def __init__(self) -> None:
        self.digits: list[int] = []
        self.current = 0
        self.first: str | None = None
        self.result: str | None = None
        self.cancelled = False
        self.problem = ""

    @property
    def stage(self) -> str:
        """``"new"`` while the PIN is chosen, ``"again"`` while it is entered again."""
        return "new" if self.first is None else "again"

    def act(self, action: str) -> None:
        if self.result is not None or self.cancelled:
            return
        choices = 11 if len(self.digits) >= self.MIN else 10
        if action in (PREV, NEXT):
            self.current = (self.current + (1 if action == NEXT else -1)) % choices
        elif action == OK:
            if self.current == self.DONE:
                self._done()
                return
            self.digits.append(self.current)
            self.current = 0
            if len(self.digits) == self.MAX:
                self._done()
        elif action == BACK:
            if self.digits:
                self.current = self.digits.pop()
            elif self.first is not None:
                self.first, self.current = None, 0       # back to choosing it
            else:
                self.cancelled = True

    def _done(self) -> None:
        pin = "".join(map(str, self.digits))
        self.digits, self.current = [], 0
        if self.first is None:
            if pin in self.WELL_KNOWN:
                self.problem = _("{pin} is printed in the README: choose another PIN").format(pin=pin)
                return
            self.first, self.problem = pin, ""
        elif pin == self.first:
            self.result, self.problem = pin, ""
        else:
            self.first, self.problem = None, _("The two entries differ: choose the new PIN again")

    def shown(self) -> str:
        """The digits taken as ``*``, then the one being chosen (``OK`` for "done")."""
        now = "OK" if self.current == self.DONE else str(self.current)
        return "*" * len(self.digits) + now


class PinLock:
    """The lock of the service menu after wrong PINs.

    :attr:`TRIES` wrong PINs in a row lock the menu; the n-th lock in a row lasts
    ``BASE_S * 2 ** (n - 1)`` seconds (1, 2, 4 ... minutes), at most ``MAX_S``; the
    right PIN ends the row.  The count and the lock's end are kept in ``path`` (JSON,
    written to a temporary file and renamed), so a restart or a power cut does not
    open the menu again.  Times are the wall clock ``clock()`` (seconds): it survives a
    restart, which CLOCK_MONOTONIC does not; set back (a Pi without a clock battery), a
    lock never lasts longer than its own length from now.  A file that cannot be read
    or written is logged and the lock works in memory (``problem``).

    Args:
        path: the file (beside the results file), or None for memory only.
        clock: wall-clock seconds (``time.time``).
    """

    TRIES = 3
    BASE_S = 60.0
    MAX_S = 3600.0

    def __init__(self, path: Path | None, clock: Callable[[], float]) -> None:
        self.path = path
        self.clock = clock
        self.wrong = 0            # wrong PINs since the last lock or the right PIN
        self.locks = 0            # locks since the right PIN
        self.until = 0.0          # the lock's end (wall clock, s)
        self.problem = ""
        self._load()

    def length(self, locks: int) -> float:
        """How long the ``locks``-th lock in a row lasts (s)."""
        return min(self.MAX_S, self.BASE_S * 2 ** max(0, locks - 1)) if locks else 0.0

    def remaining(self) -> float:
        """Seconds the menu stays locked (0: open)."""
        left = self.until - self.clock()
        if left > self.length(self.locks):          # the clock was set back
            self.until = self.clock() + self.length(self.locks)
            left = self.length(self.locks)
        return max(0.0, left)

    def tries_left(self) -> int:
        return self.TRIES - self.wrong

    def wrong_pin(self) -> float:
        """A wrong PIN: returns the length of the lock it starts (s), or 0."""
        self.wrong += 1
        lock = 0.0
        if self.wrong >= self.TRIES:
            self.wrong = 0
            self.locks += 1
            lock = self.length(self.locks)
            self.until = self.clock() + lock
        self._save()
        return lock

    def right_pin(self) -> None:
        if self.wrong or self.locks or self.until:
            self.wrong, self.locks, self.until = 0, 0, 0.0
            self._save()

    def _load(self) -> None:
        if self.path is None:
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.wrong = max(0, min(self.TRIES - 1, int(data.get("wrong", 0))))
            self.locks = max(0, min(64, int(data.get("locks", 0))))
            self.until = float(data.get("until", 0.0))
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            self.problem = f"the PIN lock file {self.path} could not be read ({exc}); it is written anew"
            log.warning(self.problem)

    def _save(self) -> None:
        if self.path is None:
            return
        data = json.dumps({"wrong": self.wrong, "locks": self.locks, "until": self.until}).encode()
        tmp = self.path.with_name(f".{self.path.name}.tmp-{os.getpid()}")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            self.problem = f"the PIN lock could not be kept in {self.path} ({exc}): it holds until a restart"
            log.warning(self.problem)
            try:
                tmp.unlink()
            except OSError:
                pass


def format_minutes(seconds: float) -> str:
    """``"1 minute"``, ``"4 minutes"``, ``"1 hour"`` (rounded up to a whole minute).

    >>> format_minutes(60), format_minutes(61), format_minutes(3600)
    ('1 minute', '2 minutes', '1 hour')
    """
    minutes = max(1, -(-int(seconds) // 60))
    if minutes % 60 == 0:
        hours = minutes // 60
        return said.ngettext("{n} hour", "{n} hours", hours, n=hours)
    return said.ngettext("{n} minute", "{n} minutes", minutes, n=minutes)


#: What letting go of a held buzzer does, by the gesture it would be (the service menu's words,
#: in English: translate them where they are shown, :func:`held_line`'s ``words``).
LET_GO = {NEXT: N_("move on"), OK: N_("choose"), BACK: N_("go back")}


def held_line(would: tuple[int, str, float] | None, words: dict[str, str] = LET_GO) -> str:
    """The line shown while a buzzer is held: what letting go now does and what holding on does
    (``words``: what each gesture does, in the language spoken now; the line's own words are
    translated here).

    >>> held_line((0, "ok", 0.8))
    'P1 held 0.8 s: let go to choose (hold 2 s: go back)'
    >>> held_line((2, "back", 2.4))
    'P3 held 2.4 s: let go to go back'
    """
    if would is None:
        return ""
    seat, action, held = would
    says = {"seat": seat + 1, "s": i18n.number(held, 1), "what": words[action]}
    if action == NEXT:
        return _("P{seat} held {s} s: let go to {what} (hold: {hold})").format(hold=words[OK], **says)
    if action == OK:
        return _("P{seat} held {s} s: let go to {what} (hold 2 s: {hold})").format(hold=words[BACK], **says)
    return _("P{seat} held {s} s: let go to {what}").format(**says)
