"""Lamps in the buzzers: one gpiozero ``LED`` (or ``PWMLED``) per seat.

:class:`BuzzerLamps` takes the pattern of :func:`arcade.lights.lamps.lamp_pattern`
each frame and touches a pin only when its seat's state changed, so a frame
costs a tuple comparison.  Blinking and flashing run on gpiozero's own
background blink threads; debated seats start their blink in the same call, so
they blink together.  With ``threaded=True`` (the kiosk) even the pin writes and
the start of a blink thread (milliseconds on a busy Pi) happen on the lamps' own
worker thread: ``show`` only hands the new pattern over, so lamps never delay
the frame or the judge.

Pins come from ``[gpio] lamps`` (BCM numbers, 0 = no lamp for that seat).
A lamp that cannot be opened is reported in :attr:`problems` and left out; the
arcade runs without it.
"""

from __future__ import annotations

import threading
from typing import Any, Sequence

from arcade.lights.lamps import BLINK, FLASH, OFF, ON, READY

__all__ = ["BuzzerLamps", "BLINK_S", "FLASH_S", "READY_LEVEL"]

#: Debated seats blink this long on, this long off (s).
BLINK_S = 0.25
#: A false shout's lamp flashes this long on, this long off (s).
FLASH_S = 0.08
#: A PWM lamp's brightness while its seat may press (the winner's is 1.0).
READY_LEVEL = 0.3


class BuzzerLamps:
    """The buzzer lamps of every seat.

    Args:
        pins: one BCM pin per seat, 0 or None for a seat without a lamp.
        pwm: use ``PWMLED`` (dim "ready", full "on"); else ``LED`` (on/off).
        pin_factory: a gpiozero pin factory (``MockFactory`` in tests; for PWM
            lamps ``MockFactory(pin_class=MockPWMPin)``), None = gpiozero's default.
        threaded: apply patterns on a worker thread (``show`` never waits for a pin);
            :meth:`flush` waits until the last pattern is on the pins.
    """

    def __init__(self, pins: Sequence[int | None], pwm: bool = False, pin_factory: Any = None,
                 threaded: bool = False) -> None:
        from gpiozero import LED, PWMLED  # type: ignore[import-untyped]
        self.pwm = pwm
        self._cond = threading.Condition()
        self._wanted: tuple[str, ...] | None = None
        self._busy = False
        self._closing = False
        self._worker: threading.Thread | None = None
        self.devices: list[Any] = []
        self.problems: list[str] = []
        self.states: list[str] = []
        for seat, pin in enumerate(pins):
            device = None
            if pin:
                try:
                    device = (PWMLED if pwm else LED)(pin, pin_factory=pin_factory)
                except Exception as exc:           # a missing lamp must not stop the arcade
                    self.problems.append(f"P{seat + 1}'s buzzer lamp on pin {pin}: {type(exc).__name__}: {exc}")
            self.devices.append(device)
            self.states.append(OFF)
        self.requested: tuple[str, ...] = tuple(self.states)
        if threaded:
            self._worker = threading.Thread(target=self._run, name="buzzer-lamps", daemon=True)
            self._worker.start()

    def __len__(self) -> int:
        return len(self.devices)

    def show(self, pattern: Sequence[str]) -> int:
        """Apply ``pattern`` (one state per seat); returns how many lamps change.

        Threaded: hands the pattern to the worker and returns at once.  Never
        raises: a failing lamp is dropped with a line in :attr:`problems`.
        """
        wanted = tuple(pattern[i] if i < len(pattern) else OFF for i in range(len(self.devices)))
        if wanted == self.requested:
            return 0
        changed = sum(1 for a, b in zip(wanted, self.requested) if a != b)
        self.requested = wanted
        if self._worker is None:
            self._apply_all(wanted)
        else:
            with self._cond:
                self._wanted = wanted
                self._cond.notify()
        return changed

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._wanted is None and not self._closing:
                    self._cond.wait()
                if self._closing:
                    return
                wanted, self._wanted = self._wanted, None
                self._busy = True
            try:
                assert wanted is not None
                self._apply_all(wanted)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until the last pattern given to :meth:`show` is on the pins (threaded mode)."""
        if self._worker is None:
            return True
        with self._cond:
            return self._cond.wait_for(lambda: self._wanted is None and not self._busy, timeout)

    def _apply_all(self, pattern: Sequence[str]) -> int:
        changed = 0
        for seat, device in enumerate(self.devices):
            state = pattern[seat] if seat < len(pattern) else OFF
            if state == self.states[seat]:
                continue
            self.states[seat] = state
            changed += 1
            if device is None:
                continue
            try:
                self._apply(device, state)
            except Exception as exc:
                self.problems.append(f"P{seat + 1}'s buzzer lamp failed: {exc}")
                self.devices[seat] = None
        return changed

    def _apply(self, device: Any, state: str) -> None:
        if state == OFF:
            device.off()
        elif state == READY:
            if self.pwm:
                device.value = READY_LEVEL
            else:
                device.on()
        elif state == ON:
            device.on()
        elif state == BLINK:
            device.blink(on_time=BLINK_S, off_time=BLINK_S, background=True)
        elif state == FLASH:
            device.blink(on_time=FLASH_S, off_time=FLASH_S, background=True)
        else:
            raise ValueError(f"unknown lamp state {state!r}")

    def lit(self) -> list[bool]:
        """Whether each lamp is lit right now (False for seats without one)."""
        return [bool(d is not None and d.value) for d in self.devices]

    def close(self) -> None:
        if self._worker is not None:
            with self._cond:
                self._closing = True
                self._cond.notify_all()
            self._worker.join(timeout=2.0)
            self._worker = None
        for d in self.devices:
            if d is not None:
                try:
                    d.close()
                except Exception:
                    pass
        self.devices = [None] * len(self.devices)
