"""Simulated players: scheduled presses on gpiozero's mock pins.

:class:`SimulatedPlayers` builds a :class:`~hardware.gpio.GpioBuzzers` on a
gpiozero ``MockFactory`` and drives the mock pins from a background thread at
the times it was told, so the demo and the bots exercise the real gpiozero path
(pin-level callback, stamps, queue) without a Pi.  It only executes a schedule;
reaction times come from ``arcade.bots``.

MockFactory facts that shape it (reference ``gpio_timing.md``): the mock pin's
stamp is the real ``time.monotonic()`` at the moment the pin is driven (it
cannot be chosen), so a press stamped "at ``at_ns``" really happens at about
``at_ns`` plus the thread's wake-up delay; callbacks run on the thread that
drives the pin (this one); pins stay reserved until released, so each instance
uses a fresh factory unless one is given.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from typing import Any, Mapping

from arcade.core.events import CONTROLS
from hardware.errors import HardwareError, InputMapError
from hardware.gpio import GpioBuzzers
from hardware.sink import EdgeSink

__all__ = ["SimulatedPlayers", "BOUNCE_SPAN_NS"]

#: The bounces of one press all happen within this time after its first edge.
BOUNCE_SPAN_NS = 2_000_000

_NS_PER_MS = 1_000_000

_Action = tuple[int, int, tuple[int, str], bool, tuple[tuple[int, bool], ...]]


class SimulatedPlayers:
    """Presses mock GPIO pins on a schedule, from one background thread.

    Args:
        pins: ``{(seat, control): pin}`` as for :class:`GpioBuzzers`.
        factory: a gpiozero ``MockFactory``; a new one (closed again by
            :meth:`close`) if ``None``.
        queue: where the edges go (share it with the other adapters).

    The pins are wired active low with pull-ups, like the real buzzers: a press
    drives the pin low, a release drives it high.

    Raises:
        the errors of :class:`GpioBuzzers` (bad mapping, pin in use).
    """

    def __init__(
        self,
        pins: Mapping[tuple[int, str], int | str],
        factory: Any = None,
        queue: EdgeSink | None = None,
    ) -> None:
        if factory is None:
            from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

            factory = MockFactory()
            self._own_factory = True
        else:
            self._own_factory = False
        self._factory = factory
        try:
            self._buzzers = GpioBuzzers(pins, pin_factory=factory, queue=queue, pull_up=True)
        except BaseException:
            if self._own_factory:
                factory.close()
            raise
        self._cond = threading.Condition()
        # (due ns, sequence, (seat, control), pressed, follow-ups): the first
        # edge of a press carries its follow-ups (bounces, release) as offsets
        # from the moment it was really driven, so a late wake-up shifts the
        # whole press and never shortens the hold.
        self._heap: list[_Action] = []
        self._seq = itertools.count()
        self._low: set[tuple[int, str]] = set()  # pins this thread holds low
        self._generation = 0  # bumped by cancel_all
        self._stopping = False
        self._closed = False
        self._errors = 0
        self._last_error: str | None = None
        self._thread = threading.Thread(
            target=self._run, name="SimulatedPlayers", daemon=True)
        self._thread.start()

    # -- public API

    @property
    def queue(self) -> EdgeSink:
        """The queue the edges are put on."""
        return self._buzzers.queue

    @property
    def buzzers(self) -> GpioBuzzers:
        """The :class:`GpioBuzzers` on the mock pins."""
        return self._buzzers

    @property
    def factory(self) -> Any:
        """The gpiozero ``MockFactory`` in use."""
        return self._factory

    @property
    def errors(self) -> int:
        """How many pin actions failed (the thread keeps going)."""
        return self._errors

    @property
    def last_error(self) -> str | None:
        """Text of the last failed pin action, or None."""
        return self._last_error

    @property
    def pending(self) -> int:
        """Actions waiting: presses not yet begun, and the bounce and release
        edges of presses under way."""
        with self._cond:
            return len(self._heap)

    @property
    def thread(self) -> threading.Thread:
        """The background thread (tests check it has ended after close)."""
        return self._thread

    def schedule_press(
        self,
        seat: int,
        at_ns: int,
        control: str = "buzzer",
        hold_ms: float = 90,
        bounces: int = 0,
    ) -> None:
        """Schedule one press of ``(seat, control)``.

        Args:
            seat: the seat (0-based).
            at_ns: when the contact first closes, integer ns on
                :func:`time.monotonic_ns`; a time in the past means "now".
            control: one of :data:`arcade.core.events.CONTROLS`.
            hold_ms: from the first closing edge to the final release, ms (> 0).
            bounces: extra open/close pairs right after the first closing edge,
                all within :data:`BOUNCE_SPAN_NS` (about 2 ms), like a bouncy
                switch; the press then gives ``2 + 2 * bounces`` edges.

        The bounces and the release are timed from the moment the first edge
        was really driven (the thread may wake late on a busy machine), so the
        hold and the bounce span are kept even when the whole press is late.

        Presses of one control must not overlap: a pin is one contact, so an
        overlapping press merges with the earlier one.

        Raises:
            InputMapError: no pin for ``(seat, control)``, or a bad hold/bounce.
            HardwareError: after :meth:`close`.
        """
        if control not in CONTROLS or (seat, control) not in self._buzzers.pins:
            raise InputMapError((seat, control), "a (seat, control) with a simulated pin")
        if not hold_ms > 0:
            raise InputMapError("hold_ms", f"a hold time > 0 ms, got {hold_ms!r}")
        if not isinstance(bounces, int) or bounces < 0:
            raise InputMapError("bounces", f"an int >= 0, got {bounces!r}")
        hold_ns = int(round(hold_ms * _NS_PER_MS))
        at_ns = int(at_ns)
        key = (seat, control)
        follow: list[tuple[int, bool]] = []
        if bounces:
            # 2 * bounces edges after the first, evenly within the bounce span
            step_ns = BOUNCE_SPAN_NS // (2 * bounces + 1)
            for i in range(1, 2 * bounces + 1):
                follow.append((i * step_ns, i % 2 == 0))
        last = follow[-1][0] if follow else 0
        follow.append((max(hold_ns, last + 1), False))
        with self._cond:
            if self._stopping:
                raise HardwareError("SimulatedPlayers is closed")
            heapq.heappush(self._heap, (at_ns, next(self._seq), key, True, tuple(follow)))
            self._cond.notify()

    def cancel_after(self, after_ns: int) -> int:
        """Drop the presses that have not begun and would begin after ``after_ns``
        (ns, :func:`time.monotonic_ns`); presses under way keep their bounces and
        release.  Returns how many presses were dropped."""
        with self._cond:
            keep = [x for x in self._heap if not (x[3] and x[4] and x[0] > after_ns)]
            dropped = len(self._heap) - len(keep)
            if dropped:
                heapq.heapify(keep)
                self._heap = keep
                self._cond.notify()
            return dropped

    def cancel_all(self) -> None:
        """Drop every scheduled action; pins held low are released at once
        (their release edges still arrive)."""
        with self._cond:
            self._generation += 1
            self._heap.clear()
            now = time.monotonic_ns()
            for key in sorted(self._low):
                heapq.heappush(self._heap, (now, next(self._seq), key, False, ()))
            self._cond.notify()

    def close(self) -> None:
        """Stop and join the thread, release the pins, close an own factory.

        Idempotent.  Actions not yet due are dropped.
        """
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._stopping = True
            self._heap.clear()
            self._cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=10)
        self._buzzers.close()
        if self._own_factory:
            try:
                self._factory.close()
                self._factory.reset()
            except Exception:
                pass

    def __enter__(self) -> "SimulatedPlayers":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the thread

    def _run(self) -> None:
        cond = self._cond
        with cond:
            while not self._stopping:
                if not self._heap:
                    cond.wait()
                    continue
                delay = self._heap[0][0] - time.monotonic_ns()
                if delay > 0:
                    cond.wait(delay / 1e9)
                    continue
                _, _, key, pressed, follow = heapq.heappop(self._heap)
                generation = self._generation
                cond.release()
                try:
                    ok = self._drive(key, pressed)
                    driven_ns = time.monotonic_ns()  # after the edge's own stamp
                finally:
                    cond.acquire()
                if not ok:
                    continue  # a failed press has no bounces or release
                if pressed:
                    self._low.add(key)
                else:
                    self._low.discard(key)
                if self._stopping:
                    break
                if generation != self._generation:
                    # cancel_all ran while this edge was driven: no follow-ups,
                    # but a contact just closed must be let go again
                    if pressed:
                        heapq.heappush(self._heap, (driven_ns, next(self._seq),
                                                    key, False, ()))
                    continue
                for delta_ns, level in follow:
                    heapq.heappush(self._heap, (driven_ns + delta_ns, next(self._seq),
                                                key, level, ()))

    def _drive(self, key: tuple[int, str], pressed: bool) -> bool:
        try:
            pin = self._buzzers.gpio_pin(*key)
            if pressed:
                pin.drive_low()
            else:
                pin.drive_high()
            return True
        except Exception as exc:  # one bad action must not end the thread
            self._errors += 1
            self._last_error = (f"{key!r} {'press' if pressed else 'release'}: "
                                f"{type(exc).__name__}: {exc}")
            return False
