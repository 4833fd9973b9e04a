"""The hardware contract on a real Raspberry Pi (skipped anywhere else).

Wire a jumper from BCM 20 (output) to BCM 21 (input) before running:
    FOCUS_ONPI=1 .venv/bin/python -m pytest tests/onpi -q
The same contract as the MockFactory tests: one stamped edge per change, stamps
on CLOCK_MONOTONIC in integer ns, close to time.monotonic_ns().
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest


def _on_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="ignore")
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not (_on_pi() and os.environ.get("FOCUS_ONPI")),
                                reason="needs a Raspberry Pi with BCM 20 jumpered to BCM 21 (FOCUS_ONPI=1)")


def test_onpi_edges_are_kernel_stamped() -> None:
    from gpiozero import DigitalOutputDevice

    from hardware.gpio import GpioBuzzers, pin_factory_from_env
    from hardware.sink import drain, make_queue

    factory = pin_factory_from_env({**os.environ, "GPIOZERO_PIN_FACTORY": "lgpio"})
    q = make_queue()
    out = DigitalOutputDevice(20, initial_value=True, pin_factory=factory)   # idle high = released
    with GpioBuzzers({(0, "buzzer"): 21}, pin_factory=factory, queue=q, pull_up=True):
        before = time.monotonic_ns()
        out.off()                 # press (active low)
        time.sleep(0.05)
        out.on()                  # release
        time.sleep(0.05)
        edges = drain(q)
    out.close()
    assert [e.pressed for e in edges] == [True, False]
    assert before <= edges[0].t_ns < edges[1].t_ns <= time.monotonic_ns()
    assert 40_000_000 <= edges[1].t_ns - edges[0].t_ns <= 80_000_000
