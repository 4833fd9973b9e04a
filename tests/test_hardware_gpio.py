"""GPIO buzzers on gpiozero's MockFactory: the real gpiozero wiring, no Pi.

What a player would notice: every press arrives once per raw edge, with the
seat and control of the pin, stamped with the edge's own time (R-1), even when
the rest of the arcade is busy (B-3, B-4) or delivers out of order (B-5), and a
fault while delivering one press never silences later presses.
"""

from __future__ import annotations

import gc
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from waiting import WAIT_S, joined

from arcade.core.errors import ArcadeError
from arcade.core.events import Edge
from hardware import drain
from hardware.errors import (
    HardwareError,
    InputMapError,
    PinFactoryError,
    PinInUseError,
    PinOpenError,
)
from hardware.gpio import GpioBuzzers, pin_factory_from_env, ticks_to_ns

ROOT = Path(__file__).resolve().parents[1]
MS = 1_000_000

PINS = {(0, "buzzer"): 17, (1, "buzzer"): 27, (0, "left"): 22}


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.close()
    f.reset()


@pytest.fixture
def buzzers(factory):
    b = GpioBuzzers(PINS, pin_factory=factory)
    yield b
    b.close()


class PinClock:
    """The clock gpiozero's mock pins stamp their edges with (s), moved on only by the test."""

    def __init__(self) -> None:
        self.t = 5.0

    def now(self) -> float:
        return self.t

    def ns(self) -> int:
        return round(self.t * 1e9)


@pytest.fixture
def pin_clock(monkeypatch):
    """Mock pins on a virtual clock: a hold or a busy spell takes no real time."""
    import gpiozero.pins.mock as mock
    clock = PinClock()
    monkeypatch.setattr(mock, "monotonic", clock.now)
    return clock


def _stamped_drive(pin, low: bool) -> tuple[int, int]:
    before = time.monotonic_ns()
    (pin.drive_low if low else pin.drive_high)()
    return before, time.monotonic_ns()


# -- one edge per raw edge, right seat / control / stamp (R-1) ---------------


def test_R1_one_edge_per_raw_edge_with_its_own_stamp(factory, buzzers):
    windows = []
    windows.append(_stamped_drive(factory.pin(17), low=True))   # P1 presses
    windows.append(_stamped_drive(factory.pin(17), low=False))  # P1 releases
    windows.append(_stamped_drive(factory.pin(22), low=True))   # P1 presses left
    edges = drain(buzzers.queue)
    assert [(e.seat, e.control, e.pressed) for e in edges] == [
        (0, "buzzer", True), (0, "buzzer", False), (0, "left", True)]
    for edge, (before, after) in zip(edges, windows):
        assert type(edge.t_ns) is int
        # float seconds -> ns may round by a microsecond; the window is the call
        assert before - MS <= edge.t_ns <= after + MS
    assert buzzers.errors == 0


def test_R1_stamp_is_the_ticks_gpiozero_passes_not_the_delivery_time(factory, buzzers):
    # lgpio passes the kernel's integer ns divided by 1e9 as `ticks`
    handler = buzzers.gpio_pin(1, "buzzer").when_changed
    kernel_ns = 98_765_432_101_234
    handler(kernel_ns / 1e9, 0)
    handler((kernel_ns + 5 * MS) / 1e9, 1)
    edges = drain(buzzers.queue)
    assert edges == [Edge(kernel_ns, 1, "buzzer", True),
                     Edge(kernel_ns + 5 * MS, 1, "buzzer", False)]


@pytest.mark.parametrize("kernel_ns", [0, 1, 999_999_999, 123_456_789_012_345,
                                       2**51 - 1])
def test_ticks_to_ns_recovers_lgpio_kernel_nanoseconds(kernel_ns):
    assert ticks_to_ns(kernel_ns / 1e9) == kernel_ns


def test_lgpio_watchdog_timeout_level_is_not_a_press(factory, buzzers):
    handler = buzzers.gpio_pin(0, "buzzer").when_changed
    handler(12.5, 2)  # lgpio: level 2 = watchdog timeout, no level change
    assert drain(buzzers.queue) == []
    assert buzzers.errors == 0


def test_pull_down_wiring_presses_on_high(factory):
    with GpioBuzzers({(3, "buzzer"): 5}, pin_factory=factory, pull_up=False) as b:
        factory.pin(5).drive_high()
        factory.pin(5).drive_low()
        assert [(e.seat, e.pressed) for e in drain(b.queue)] == [(3, True), (3, False)]


def test_B1_bounces_are_passed_on_raw_with_their_own_stamps(factory, buzzers):
    pin = factory.pin(17)
    for low in (True, False, True, False, True):  # a bouncy closing contact
        pin.drive_low() if low else pin.drive_high()
    edges = drain(buzzers.queue)
    # the adapter never debounces (R-3 is pure code, keeping the first stamp)
    assert [e.pressed for e in edges] == [True, False, True, False, True]
    assert [e.t_ns for e in edges] == sorted(e.t_ns for e in edges)
    assert all(e.seat == 0 and e.control == "buzzer" for e in edges)


def test_callback_survives_garbage_collection(factory, buzzers):
    # gpiozero keeps only a weak reference to the pin-level callback
    gc.collect()
    factory.pin(27).drive_low()
    assert [(e.seat, e.pressed) for e in drain(buzzers.queue)] == [(1, True)]


def test_all_adapters_share_one_given_queue(factory):
    shared: queue.SimpleQueue[Edge] = queue.SimpleQueue()
    with GpioBuzzers({(0, "buzzer"): 17}, pin_factory=factory, queue=shared) as a, \
            GpioBuzzers({(1, "buzzer"): 27}, pin_factory=factory, queue=shared) as b:
        assert a.queue is shared and b.queue is shared
        factory.pin(27).drive_low()
        factory.pin(17).drive_low()
        assert [e.seat for e in drain(shared)] == [1, 0]


# -- a handler that raises stops no later press ---------------------------------


class _PutFailsOnce:
    def __init__(self) -> None:
        self.items: list[Edge] = []
        self.calls = 0

    def put(self, item: Edge) -> None:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("downstream broke")
        self.items.append(item)


def test_a_handler_that_raises_stops_no_later_press(factory):
    sink = _PutFailsOnce()
    with GpioBuzzers(PINS, pin_factory=factory, queue=sink) as b:
        factory.pin(17).drive_low()      # lost: the sink raised, but nothing else
        factory.pin(17).drive_high()
        factory.pin(27).drive_low()
        assert b.errors == 1
        assert "downstream broke" in b.last_error and "17" in b.last_error
        assert [(e.seat, e.pressed) for e in sink.items] == [(0, False), (1, True)]


def test_a_handler_that_raises_on_a_callback_thread_keeps_the_thread_alive(factory):
    # lgpio delivers every edge from ONE thread with no try/except around the
    # callback: if the callback raised, every later GPIO event would be lost.
    sink = _PutFailsOnce()
    with GpioBuzzers(PINS, pin_factory=factory, queue=sink) as b:
        handler = b.gpio_pin(1, "buzzer").when_changed
        events = [(1.000, 0), (1.010, 1), (1.020, None), (1.030, 0), (1.040, 1)]
        finished = threading.Event()

        def dispatch() -> None:  # like lgpio's loop: no protection of its own
            for ticks, level in events:
                handler(ticks, level)
            finished.set()

        t = threading.Thread(target=dispatch)
        t.start()
        t.join(timeout=10)
        assert finished.is_set()
        # the first put raised, the garbage level was refused: two errors
        assert b.errors == 2
        assert [(e.t_ns, e.pressed) for e in sink.items] == [
            (1_010_000_000, False), (1_030_000_000, True), (1_040_000_000, False)]


# -- B-3 / B-4 / B-5 at the adapter: busy consumers, slow downstream ------------


def test_B4_quick_tap_while_the_consumer_is_busy_records_both_edges(factory, buzzers, pin_clock):
    pin = factory.pin(17)
    stamps: dict[str, int] = {}

    def tap() -> None:  # a 5 ms tap on another thread while nobody reads the queue
        stamps["press"] = pin_clock.ns()
        pin.drive_low()
        pin_clock.t += 0.005
        stamps["release"] = pin_clock.ns()
        pin.drive_high()

    presser = threading.Thread(target=tap)
    presser.start()
    joined(presser, what="the tap")
    pin_clock.t += 0.3       # the consumer is busy with something else
    read_at = pin_clock.ns()
    edges = drain(buzzers.queue)
    assert [(e.seat, e.control, e.pressed) for e in edges] == [
        (0, "buzzer", True), (0, "buzzer", False)]
    press, release = edges
    assert (press.t_ns, release.t_ns) == (stamps["press"], stamps["release"])   # their own stamps ...
    assert release.t_ns - press.t_ns == 5 * MS
    assert read_at - release.t_ns == 300 * MS                                  # ... not the time read


class _SlowFirstPut:
    """A downstream whose first put hangs until told to go on (slow work)."""

    def __init__(self) -> None:
        self.items: list[Edge] = []
        self.lock = threading.Lock()
        self.entered = threading.Event()
        self.go_on = threading.Event()
        self.first = True

    def put(self, item: Edge) -> None:
        with self.lock:
            first, self.first = self.first, False
        if first:
            self.entered.set()
            self.go_on.wait(timeout=10)
        with self.lock:
            self.items.append(item)


def test_B3_B5_slow_work_in_the_input_path_keeps_press_order_by_stamp(factory, pin_clock):
    sink = _SlowFirstPut()
    with GpioBuzzers(PINS, pin_factory=factory, queue=sink) as b:
        a = threading.Thread(target=factory.pin(17).drive_low)  # P1 presses first
        a.start()
        assert sink.entered.wait(timeout=WAIT_S)  # P1's edge is stuck downstream
        pin_clock.t += 0.005
        factory.pin(27).drive_low()           # P2 presses 5 ms later
        sink.go_on.set()
        joined(a, what="P1's press delivered")
        assert b.errors == 0
    # delivered in the wrong order (B-5) ...
    assert [e.seat for e in sink.items] == [1, 0]
    # ... but the stamps keep the true order: P1 first (B-3)
    first, second = sorted(sink.items)
    assert (first.seat, second.seat) == (0, 1)
    assert second.t_ns - first.t_ns == 5 * MS


# -- opening and closing pins ---------------------------------------------------


def test_duplicate_pin_is_a_clear_error_naming_the_pin(factory):
    with pytest.raises(PinInUseError) as info:
        GpioBuzzers({(0, "buzzer"): 17, (1, "buzzer"): 17}, pin_factory=factory)
    err = info.value
    assert isinstance(err, HardwareError) and isinstance(err, ArcadeError)
    assert isinstance(err, ValueError)
    assert "17" in str(err) and "(0, 'buzzer')" in str(err) and "(1, 'buzzer')" in str(err)
    # nothing was left reserved
    with GpioBuzzers({(0, "buzzer"): 17}, pin_factory=factory):
        pass


def test_same_pin_under_two_names_is_caught_by_the_reservation(factory):
    with pytest.raises(PinInUseError) as info:
        GpioBuzzers({(0, "buzzer"): 17, (1, "buzzer"): "GPIO17"}, pin_factory=factory)
    assert "GPIO17" in str(info.value)


def test_pin_held_by_another_adapter_is_a_clear_error(factory, buzzers):
    with pytest.raises(PinInUseError, match="27"):
        GpioBuzzers({(4, "buzzer"): 27}, pin_factory=factory)


def test_pin_that_cannot_be_opened_names_it_and_releases_the_others(factory):
    with pytest.raises(PinOpenError) as info:
        GpioBuzzers({(0, "buzzer"): 17, (1, "buzzer"): 99}, pin_factory=factory)
    assert "99" in str(info.value) and isinstance(info.value, RuntimeError)
    assert info.value.__cause__ is not None
    with GpioBuzzers({(0, "buzzer"): 17}, pin_factory=factory) as again:
        factory.pin(17).drive_low()
        assert len(drain(again.queue)) == 1


@pytest.mark.parametrize("pins, bad", [
    ({(0, "jump"): 17}, "jump"),
    ({(-1, "buzzer"): 17}, "-1"),
    ({(0, "buzzer"): True}, "True"),
    ({0: 17}, "0"),
])
def test_bad_mapping_is_refused_with_the_entry_named(factory, pins, bad):
    with pytest.raises(InputMapError, match=bad):
        GpioBuzzers(pins, pin_factory=factory)


def test_close_releases_pins_and_is_idempotent(factory):
    first = GpioBuzzers(PINS, pin_factory=factory)
    first.close()
    first.close()
    assert first.closed
    with GpioBuzzers(PINS, pin_factory=factory) as second:  # re-open works
        factory.pin(17).drive_low()
        assert [e.seat for e in drain(second.queue)] == [0]
    assert drain(first.queue) == []  # the closed adapter heard nothing
    assert second.closed


def test_read_now_shows_held_controls_for_the_lobby(factory, buzzers):
    assert buzzers.read_now() == {}
    factory.pin(27).drive_low()
    factory.pin(22).drive_low()
    assert buzzers.read_now() == {(1, "buzzer"): True, (0, "left"): True}
    factory.pin(27).drive_high()
    assert (1, "buzzer") not in buzzers.read_now()
    buzzers.close()
    with pytest.raises(HardwareError):
        buzzers.read_now()


def test_pins_property_is_the_mapping_given(buzzers):
    assert dict(buzzers.pins) == PINS
    with pytest.raises(TypeError):
        buzzers.pins[(5, "buzzer")] = 4  # type: ignore[index]


# -- choosing the pin factory (reference gpio_timing.md: LG_WD, no fallback) ----


def _forget_lgpio(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "lgpio", None)  # import lgpio -> ImportError
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)


def test_pin_factory_unset_means_gpiozero_default():
    assert pin_factory_from_env({}) is None


def test_pin_factory_mock_from_env():
    f = pin_factory_from_env({"GPIOZERO_PIN_FACTORY": "mock"})
    try:
        assert isinstance(f, MockFactory)
    finally:
        f.close()


def test_lgpio_requested_but_missing_fails_loudly(monkeypatch, tmp_path):
    _forget_lgpio(monkeypatch)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
    monkeypatch.setenv("LG_WD", str(tmp_path))
    with pytest.raises(PinFactoryError, match="lgpio") as info:
        pin_factory_from_env(require="lgpio")
    assert isinstance(info.value, RuntimeError)
    assert "--system-site-packages" in str(info.value)


def test_lgpio_with_unwritable_LG_WD_fails_loudly(monkeypatch, tmp_path):
    _forget_lgpio(monkeypatch)
    with pytest.raises(PinFactoryError, match="LG_WD"):
        pin_factory_from_env({"GPIOZERO_PIN_FACTORY": "lgpio",
                              "LG_WD": str(tmp_path / "missing")})


def test_kiosk_requiring_lgpio_refuses_an_unset_or_other_factory():
    with pytest.raises(PinFactoryError, match="GPIOZERO_PIN_FACTORY=lgpio"):
        pin_factory_from_env({}, require="lgpio")
    with pytest.raises(PinFactoryError, match="requires 'lgpio'"):
        pin_factory_from_env({"GPIOZERO_PIN_FACTORY": "mock"}, require="lgpio")


def test_unknown_pin_factory_is_named():
    with pytest.raises(PinFactoryError, match="'nosuch'"):
        pin_factory_from_env({"GPIOZERO_PIN_FACTORY": "nosuch"})


def test_importing_the_gpio_adapter_does_not_load_lgpio():
    code = ("import sys, hardware.gpio; "
            "print('lgpio' in sys.modules, 'gpiozero.pins.lgpio' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"]


# -- a lost or out-of-order release edge never eats a later press ---------------------------------


def _presses(edges):
    from arcade.core.judge import debounce
    return debounce(edges, 15 * MS, now_ns=max(e.t_ns for e in edges) + 100 * MS)


def test_FXA42_a_lost_release_edge_never_eats_the_next_press(factory, buzzers, pin_clock):
    """The release of P1's first press never reaches the adapter (the callback missed
    it); P1's next press must still be a new press, at its own stamp."""
    pin = factory.pin(17)
    pin.drive_low()                                   # press
    callback = pin.when_changed
    pin.when_changed = None                           # the release edge is lost ...
    pin_clock.t += 0.02
    pin.drive_high()
    pin.when_changed = callback
    pin_clock.t += 0.03
    before = pin_clock.ns()
    pin.drive_low()                                   # ... and the next press comes
    edges = drain(buzzers.queue)
    assert [e.pressed for e in edges] == [True, False, True]
    assert edges[1].t_ns == edges[2].t_ns - 1         # the missing release, just before
    presses = _presses(edges)
    assert len(presses) == 2 and presses[1].t_ns == before
    assert buzzers.lost_edges == 1


def test_FXA42_an_out_of_order_release_edge_never_eats_the_next_press(factory, buzzers):
    """lgpio delivers P2's next press before the release that came between (B-5)."""
    handler = buzzers.gpio_pin(1, "buzzer").when_changed
    handler(5.000, 0)                                 # press at 5.000 s
    handler(5.300, 0)                                 # the next press at 5.300 s ...
    handler(5.100, 1)                                 # ... its release at 5.100 s, delivered last
    edges = drain(buzzers.queue)
    presses = _presses(edges)
    assert [p.t_ns for p in presses] == [5_000_000_000, 5_300_000_000]
    assert presses[0].released_ns == 5_100_000_000


def test_FXA42_resync_reads_the_level_when_a_release_never_came(factory, buzzers):
    """A button let go whose release edge was lost: nothing would ever tell the judge, so
    it would be held (and, after 5 s, stuck); resync reads the pin level and reports it."""
    pin = factory.pin(27)
    pin.drive_low()
    callback = pin.when_changed
    pin.when_changed = None
    pin.drive_high()                                  # let go; the edge is lost
    pin.when_changed = callback
    assert [e.pressed for e in drain(buzzers.queue)] == [True]
    assert buzzers.resync() == 1
    (release,) = drain(buzzers.queue)
    assert (release.seat, release.control, release.pressed, release.source) == (1, "buzzer", False, "gpio")
    assert buzzers.resync() == 0 and drain(buzzers.queue) == []   # nothing more in doubt
    pin.drive_low()                                   # a held button is left alone
    assert buzzers.resync() == 0 and [e.pressed for e in drain(buzzers.queue)] == [True]
    assert buzzers.lost_edges == 1 and buzzers.errors == 0

