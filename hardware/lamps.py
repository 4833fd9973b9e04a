"""Lamps in the buzzers: one gpiozero ``LED`` (or ``PWMLED``) per seat.

:class:`BuzzerLamps` takes the pattern of :func:`arcade.views.lamps.lamp_pattern`
each frame and touches a pin only when its seat's state changed, so a frame
costs a tuple comparison.  Blinking and flashing run on gpiozero's own
background blink threads, never in the frame or the judge; debated seats start
their blink in the same call, so they blink together.

Pins come from ``[gpio] lamps`` (BCM numbers, 0 = no lamp for that seat).
A lamp that cannot be opened is reported in :attr:`problems` and left out; the
arcade runs without it.
"""

from __future__ import annotations

from typing import Any, Sequence

from arcade.views.lamps import BLINK, FLASH, OFF, ON, READY

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
    """

    def __init__(self, pins: Sequence[int | None], pwm: bool = False, pin_factory: Any = None) -> None:
        from gpiozero import LED, PWMLED  # type: ignore[import-untyped]
        self.pwm = pwm
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

    def __len__(self) -> int:
        return len(self.devices)

    def show(self, pattern: Sequence[str]) -> int:
        """Apply ``pattern`` (one state per seat); returns how many lamps changed.

        Never raises: a failing lamp is dropped with a line in :attr:`problems`.
        """
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
        for d in self.devices:
            if d is not None:
                try:
                    d.close()
                except Exception:
                    pass
        self.devices = [None] * len(self.devices)
