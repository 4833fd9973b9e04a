"""The LED link: never blocks the game loop (L-1), survives unplugging (L-2).

Fakes stand in for the port where a fault must be exact (a write that blocks,
each kind of exception an unplug raises); pyserial's ``loop://`` and a real pty
(:class:`VirtualMatrix`) run the real library code.  Waits poll with generous
timeouts; no test asserts a speed.
"""

from __future__ import annotations

import termios
import threading
import time
from typing import Any

import pytest
import serial
from link_helpers import WriterClock, solid, wait_for
from waiting import wait_until

from arcade.core.errors import ArcadeError
from firmware_bridge.adalight import AdalightDecoder, encode_frame
from firmware_bridge.errors import FrameError, LinkSettingsError
from firmware_bridge.layout import MatrixLayout
from firmware_bridge.link import LedLink, LinkStatus, find_port_by_usb_id
from firmware_bridge.virtual import VirtualMatrix

WAIT_S = 10.0  # generous: a slow shared machine must never fail a test by timing


class FakePort:
    """A scripted serial port: records writes; raises what the test asks for."""

    def __init__(self, name: str = "fake") -> None:
        self.name = name
        self.writes: list[bytes] = []
        self.write_times: list[float] = []
        self.rx = bytearray()
        self.closed = False
        self.lock = threading.Lock()
        # failures: method name -> exception raised on every call while set
        self.fail: dict[str, BaseException] = {}
        self.stalled = threading.Event()  # write raises SerialTimeoutException while set
        self.partial = 0  # this many more writes take only their first half (like os.write)
        self.late_timeouts = 0  # this many more writes take every byte, then raise a timeout
        self.timeouts_left = 0  # this many more writes time out
        self.block: threading.Event | None = None  # write waits for this event when set
        self.in_write = threading.Event()
        self.kwargs: dict[str, Any] = {}
        self.queued = 0  # what out_waiting reports

    @property
    def out_waiting(self) -> int:
        return self.queued

    @property
    def frame_writes(self) -> list[bytes]:
        """Writes that carried frame bytes (not the link's one-byte WLED version question)."""
        with self.lock:
            return [w for w in self.writes if w != b"v"]

    def _check(self, method: str) -> None:
        exc = self.fail.get(method)
        if exc is not None:
            raise exc

    @property
    def in_waiting(self) -> int:
        self._check("in_waiting")
        with self.lock:
            return len(self.rx)

    def read(self, size: int = 1) -> bytes:
        self._check("read")
        with self.lock:
            data = bytes(self.rx[:size])
            del self.rx[:size]
            return data

    def write(self, data: bytes) -> int:
        self._check("write")
        self.in_write.set()
        try:
            if self.block is not None:
                self.block.wait()
            if self.stalled.is_set() or self.timeouts_left > 0:
                self.timeouts_left -= 1     # at once: the link tells a stall by its own clock, not the write's
                raise serial.SerialTimeoutException("Write timeout")
            if self.partial > 0 and len(data) > 1:
                self.partial -= 1
                with self.lock:
                    self.writes.append(bytes(data[: len(data) // 2]))
                    self.write_times.append(time.monotonic())
                return len(data) // 2
            if self.late_timeouts > 0:
                self.late_timeouts -= 1
                with self.lock:
                    self.writes.append(bytes(data))
                    self.write_times.append(time.monotonic())
                    self.queued += len(data)
                raise serial.SerialTimeoutException("Write timeout")
            with self.lock:
                self.writes.append(bytes(data))
                self.write_times.append(time.monotonic())
            return len(data)
        finally:
            self.in_write.clear()

    def reset_input_buffer(self) -> None:
        self._check("reset_input_buffer")
        with self.lock:
            self.rx.clear()

    def flush(self) -> None:
        self._check("flush")

    def close(self) -> None:
        self.closed = True
        self._check("close")

    def frames(self, leds: int = 16) -> list[tuple[tuple[int, int, int], ...]]:
        """What a receiving device would have shown, from all frame bytes written."""
        return AdalightDecoder(leds=leds).feed(b"".join(self.frame_writes))


class FakeOpener:
    """``open_fn`` that hands out scripted ports or raises scripted open errors."""

    def __init__(self, script: list[FakePort | BaseException]) -> None:
        self.script = list(script)
        self.calls: list[tuple[float, str]] = []
        self.kwargs: list[dict[str, Any]] = []
        self.refuse = threading.Event()  # while set (and script used up): port missing
        self.last: FakePort | None = None

    def __call__(self, url: str, baudrate: int, **kwargs: Any) -> FakePort:
        self.calls.append((time.monotonic(), url))
        self.kwargs.append(dict(kwargs, baudrate=baudrate))
        if self.script:
            item = self.script.pop(0)
        elif self.refuse.is_set():
            item = serial.SerialException(2, f"could not open port {url}: No such file")
        else:
            item = FakePort("spare")
        if isinstance(item, BaseException):
            raise item
        item.kwargs = kwargs
        self.last = item
        return item


@pytest.fixture
def links() -> Any:
    made: list[Any] = []
    yield made
    for thing in reversed(made):
        thing.close()


# ---------------------------------------------------------------------- plain operation


def test_link_over_loop_url_writes_the_encoded_frame(links: list[Any]) -> None:
    written: list[bytes] = []
    ports: list[serial.SerialBase] = []

    def open_loop(url: str, *args: Any, **kwargs: Any) -> Any:
        port = serial.serial_for_url(url, *args, **kwargs)
        real_write = port.write

        def write(data: bytes) -> int | None:
            written.append(bytes(data))
            return real_write(data)

        port.write = write  # type: ignore[method-assign]
        ports.append(port)
        return port

    link = LedLink("loop://", open_fn=open_loop, keepalive_s=30)
    links.append(link)
    pixels = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
    link.show(pixels)
    assert wait_for(lambda: len(written) >= 1)
    assert written[0] == link.encode(pixels) == encode_frame(pixels)
    port = ports[0]
    # Stock WLED listens at 115200; the write timeout covers twice a 16x16 frame's wire time.
    assert port.write_timeout == 0.25 and port.baudrate == 115200 and port.exclusive is True
    assert wait_for(lambda: link.status().state == "connected")
    # The link drains what the device sends (loop:// echoes the frame back).
    assert wait_for(lambda: port.in_waiting == 0)


def test_show_picture_maps_through_the_layout(links: list[Any]) -> None:
    opener = FakeOpener([FakePort()])
    link = LedLink("fake", open_fn=opener, layout=MatrixLayout(2, 2, serpentine=True), keepalive_s=30)
    links.append(link)
    a, b, c, d = (1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4)
    link.show_picture([[a, b], [c, d]])
    assert wait_for(lambda: opener.last is not None and len(opener.last.frame_writes) == 1)
    assert opener.last is not None
    assert opener.last.frames(leds=4) == [(a, b, d, c)]


def test_bad_frame_raises_on_the_callers_thread(links: list[Any]) -> None:
    link = LedLink("fake", open_fn=FakeOpener([FakePort()]))
    links.append(link)
    with pytest.raises(FrameError) as info:
        link.show([(0, 0, 0), (0, 300, 0)])
    assert info.value.index == 1


def test_no_port_link_is_off_and_still_checks_frames() -> None:
    for url in (None, "none", "NONE"):
        link = LedLink(url)
        assert link.status().state == "off" and link.status().url is None
        link.show(solid((1, 2, 3)))
        with pytest.raises(FrameError):
            link.show([])
        link.close()
        assert link.status().state == "closed"


def test_settings_out_of_range_are_refused() -> None:
    for kwargs in (
        {"baudrate": 0},
        {"baudrate": 9600.5},
        {"keepalive_s": 0},
        {"write_timeout": -1},
        {"backoff": ()},
        {"backoff": (0.1, -1)},
        {"frame_gap_s": -0.1},
    ):
        with pytest.raises(LinkSettingsError) as info:
            LedLink("none", **kwargs)
        assert isinstance(info.value, ValueError) and isinstance(info.value, ArcadeError)


def test_close_is_idempotent_and_stops_the_writer(links: list[Any]) -> None:
    opener = FakeOpener([FakePort()])
    link = LedLink("fake", open_fn=opener)
    link.show(solid((5, 5, 5)))
    assert wait_for(lambda: link.status().frames_sent >= 1)
    link.close()
    link.close()
    assert link.status().state == "closed"
    assert link._thread is not None and not link._thread.is_alive()
    assert opener.last is not None and opener.last.closed
    link.show(solid((6, 6, 6)))  # after close: nothing happens, nothing raises
    assert link.status().state == "closed"


def test_same_picture_again_is_not_resent_before_keepalive(links: list[Any]) -> None:
    port = FakePort()
    clock = WriterClock()
    link = LedLink("fake", open_fn=FakeOpener([port]), keepalive_s=30, clock=clock)
    links.append(link)
    for _ in range(50):
        link.show(solid((7, 7, 7)))
        wait_until(clock.writer_waited(), what="the writer looking at the picture shown again")
    link.show(solid((8, 8, 8)))
    assert wait_for(lambda: len(port.frames()) >= 1 and port.frames()[-1] == tuple(solid((8, 8, 8))))
    # Fifty identical shows need one frame on the wire, the new picture one more.
    assert len(port.frame_writes) == 2


def test_keepalive_resends_the_last_frame(links: list[Any]) -> None:
    port = FakePort()
    keepalive = 0.2
    link = LedLink("fake", open_fn=FakeOpener([port]), keepalive_s=keepalive)
    links.append(link)
    link.show(solid((0, 0, 200)))
    # WLED leaves realtime mode after 2.5 s without a frame: with no new show(),
    # the same frame must come again, over and over.
    assert wait_for(lambda: len(port.frame_writes) >= 4)
    assert set(port.frame_writes) == {link.encode(solid((0, 0, 200)))}
    times = [t for t, w in zip(port.write_times, port.writes) if w != b"v"]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert min(gaps) >= keepalive - 0.01  # resends, not a flood
    assert link.status().frames_sent >= 4


def test_device_hello_makes_the_link_resend_at_once(links: list[Any]) -> None:
    port = FakePort()
    link = LedLink("fake", open_fn=FakeOpener([port]), keepalive_s=60)
    links.append(link)
    link.show(solid((9, 0, 9)))
    assert wait_for(lambda: len(port.frame_writes) == 1)
    with port.lock:
        port.rx += b"Ada\n"  # the controller rebooted: it shows its own effect now
    assert wait_for(lambda: len(port.frame_writes) == 2)
    assert port.frame_writes[1] == port.frame_writes[0]
    assert link.status().hellos == 1


def test_find_port_by_usb_id_follows_the_device_to_a_new_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from serial.tools import list_ports, list_ports_common

    def info(device: str, vid: int | None, pid: int | None, serial_number: str | None = None) -> Any:
        port = list_ports_common.ListPortInfo(device, skip_link_detection=True)
        port.vid, port.pid, port.serial_number = vid, pid, serial_number
        return port

    ports = [info("/dev/ttyAMA0", None, None), info("/dev/ttyACM0", 0x303A, 0x1001, "A1")]
    monkeypatch.setattr(list_ports, "comports", lambda *a, **k: list(ports))
    assert find_port_by_usb_id(0x303A, 0x1001) == "/dev/ttyACM0"
    ports[1] = info("/dev/ttyACM1", 0x303A, 0x1001, "A1")  # replugged under another name
    assert find_port_by_usb_id(0x303A, 0x1001) == "/dev/ttyACM1"
    assert find_port_by_usb_id(0x303A, 0x1001, serial_number="B2") is None
    assert find_port_by_usb_id(0x1A86, 0x7523) is None

    def broken(*a: Any, **k: Any) -> list[Any]:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(list_ports, "comports", broken)
    assert find_port_by_usb_id(0x303A, 0x1001) is None


def test_status_is_a_frozen_snapshot(links: list[Any]) -> None:
    link = LedLink("none")
    status = link.status()
    assert isinstance(status, LinkStatus)
    with pytest.raises(AttributeError):
        status.state = "connected"  # type: ignore[misc]


# ---------------------------------------------------------------------- L-1: write that never returns


def test_L1_show_returns_while_the_writer_is_blocked_and_latest_frame_wins(links: list[Any]) -> None:
    port = FakePort()
    port.block = threading.Event()
    clock = WriterClock()
    link = LedLink("fake", open_fn=FakeOpener([port]), keepalive_s=60, pace=False, clock=clock)
    links.append(link)
    first, second, third = solid((1, 0, 0)), solid((2, 0, 0)), solid((3, 0, 0))
    link.show(first)
    assert port.in_write.wait(WAIT_S), "the writer never started writing"

    # The device has stopped reading: the writer is stuck inside write().  The
    # game loop keeps calling show(); it must not wait for the writer.
    def game_loop() -> None:
        link.show(second)
        link.show(third)

    loop = threading.Thread(target=game_loop)
    loop.start()
    loop.join(WAIT_S)
    assert not loop.is_alive(), "show() waited for the blocked write"
    assert port.in_write.is_set() and not port.block.is_set()  # writer still stuck

    port.block.set()  # the device reads again
    assert wait_for(lambda: len(port.frame_writes) >= 2)
    wait_until(clock.writer_waited(), what="the writer idle after the newest frame")
    assert port.frames() == [tuple(first), tuple(third)]  # the skipped frame is never sent
    assert link.status().state == "connected"


def test_L1_write_timeouts_report_a_stall_and_the_link_recovers(links: list[Any]) -> None:
    port = FakePort()
    link = LedLink("fake", open_fn=FakeOpener([port]), keepalive_s=60)
    links.append(link)
    link.show(solid((10, 0, 0)))
    assert wait_for(lambda: len(port.frame_writes) == 1)
    port.stalled.set()
    link.show(solid((20, 0, 0)))
    assert wait_for(lambda: link.status().state == "stalled")
    status = link.status()
    assert status.write_timeouts >= 1 and "timed out" in status.last_error
    for level in range(30, 100):  # the game goes on while the device does not read
        link.show(solid((level, 0, 0)))
    port.stalled.clear()
    assert wait_for(lambda: link.status().state == "connected")
    # The device shows the newest picture once it reads again.
    assert wait_for(lambda: port.frames()[-1] == tuple(solid((99, 0, 0))))
    assert link.status().reconnects == 0  # a stall is not an unplug


@pytest.mark.parametrize("partial", [1, 2, 3])
def test_L1_a_write_that_takes_part_of_a_frame_is_finished_not_cut(links: list[Any], partial: int) -> None:
    # A device that takes only part of a write: the link writes the rest, so the
    # receiver gets the frame whole, once, at once (not at the next keepalive: never).
    port = FakePort()
    port.partial = partial
    link = LedLink("fake", open_fn=FakeOpener([port]), keepalive_s=60)
    links.append(link)
    picture = solid((0, 128, 255))
    link.show(picture)
    assert wait_for(lambda: link.status().frames_sent == 1)
    assert link.status().write_timeouts == 0 and link.status().state == "connected"
    assert port.frames() == [tuple(picture)]
    assert b"".join(port.frame_writes) == link.encode(picture)  # no byte twice, none missing


def test_L1_a_timeout_raised_after_every_byte_went_out_is_not_a_failure(links: list[Any]) -> None:
    # pyserial can raise a write timeout although the bytes are in the driver's
    # queue (out_waiting grew): neither a stall nor a reason to send them again.
    port = FakePort()
    port.late_timeouts = 3
    link = LedLink("fake", open_fn=FakeOpener([port]), keepalive_s=60)
    links.append(link)
    first, second = solid((1, 2, 3)), solid((4, 5, 6))
    link.show(first)
    assert wait_for(lambda: link.status().frames_sent == 1)
    port.queued = 0  # the wire carried them
    link.show(second)
    assert wait_for(lambda: link.status().frames_sent == 2)
    status = link.status()
    assert status.state == "connected" and status.write_timeouts == 0
    assert port.frames() == [tuple(first), tuple(second)]


def test_L1_real_pty_device_stops_reading_then_reads_again(links: list[Any]) -> None:
    vm = VirtualMatrix(4, 4)
    links.append(vm)
    link = LedLink(vm.port, keepalive_s=60, write_timeout=0.1)
    links.append(link)
    link.show(solid((1, 1, 1)))
    assert vm.wait_frames(1, WAIT_S)
    vm.pause()  # stops reading: the pty buffer fills, writes time out
    level = 0

    def stalled() -> bool:  # the game shows a new picture each time it looks
        nonlocal level
        if link.status().state == "stalled":
            return True
        level = level % 250 + 1
        link.show(solid((level, 0, 0)))
        return False
    wait_until(stalled, WAIT_S * 3, "the link stalled on a device that stopped reading", max_pause_s=0.001)
    assert "not reading" in link.status().last_error
    last = solid((0, 255, 0))
    link.show(last)
    vm.resume()
    assert wait_for(lambda: vm.latest_chain == tuple(last), WAIT_S * 2), vm.render_text()
    assert wait_for(lambda: link.status().state == "connected")


# ---------------------------------------------------------------------- L-2: unplugged


def test_L2_every_unplug_exception_kind_is_survived_with_backoff(links: list[Any]) -> None:
    a, b, c, d = FakePort("a"), FakePort("b"), FakePort("c"), FakePort("d")
    a.fail["write"] = serial.SerialException("write failed: [Errno 5] Input/output error")
    b.fail["in_waiting"] = OSError(5, "Input/output error")
    c.fail["reset_input_buffer"] = termios.error(5, "Input/output error")
    c.fail["close"] = termios.error(5, "Input/output error")
    opener = FakeOpener([a, serial.SerialException(2, "could not open port: gone"), b, c])
    opener.refuse.set()  # then the port stays missing until the test plugs it back
    backoff = (0.02, 0.05, 0.1)
    link = LedLink("fake", open_fn=opener, backoff=backoff, keepalive_s=60)
    links.append(link)
    link.show(solid((1, 2, 3)))

    assert wait_for(lambda: len(opener.calls) >= 6)
    status = link.status()
    assert status.state in ("disconnected", "connecting")
    assert link._thread is not None and link._thread.is_alive()
    # The game goes on: show() neither blocks nor raises while the port is gone.
    link.show(solid((4, 5, 6)))
    # Back-off: each retry waits at least the next delay, the last one repeating.
    times = [t for t, _ in opener.calls]
    gaps = [later - earlier for earlier, later in zip(times, times[1:])]
    expected = [backoff[min(i, len(backoff) - 1)] for i in range(len(gaps))]
    assert all(g >= e - 0.005 for g, e in zip(gaps, expected)), (gaps, expected)
    assert wait_for(lambda: link.status().state == "disconnected")
    assert "could not open port" in link.status().last_error

    d_port = d
    opener.script.append(d_port)  # plugged back in
    assert wait_for(lambda: link.status().state == "connected" and len(d_port.frame_writes) >= 1)
    assert d_port.frames()[-1] == tuple(solid((4, 5, 6)))
    assert link.status().reconnects == 3  # b, c and d were opened after a loss
    assert a.closed and b.closed and c.closed  # every lost port was closed (c's close raised)


def test_L2_a_port_failing_in_an_unforeseen_way_is_treated_as_lost(links: list[Any]) -> None:
    odd, good = FakePort("odd"), FakePort("good")
    odd.fail["write"] = RuntimeError("driver bug")
    link = LedLink("fake", open_fn=FakeOpener([odd, good]), backoff=(0.01,), keepalive_s=60)
    links.append(link)
    link.show(solid((3, 3, 3)))
    assert wait_for(lambda: len(good.frame_writes) == 1)
    assert "driver bug" in link.status().last_error and link.status().reconnects == 1


def test_L2_locate_finds_the_device_again_and_reports_absence(links: list[Any]) -> None:
    where: dict[str, str | None] = {"path": None}
    opener = FakeOpener([])
    link = LedLink(None, locate=lambda: where["path"], open_fn=opener, backoff=(0.02,))
    links.append(link)
    link.show(solid((1, 1, 1)))
    assert wait_for(lambda: "device not found" in link.status().last_error)
    assert opener.calls == []
    where["path"] = "/dev/ttyACM1"
    assert wait_for(lambda: link.status().state == "connected")
    assert opener.calls[0][1] == "/dev/ttyACM1" and link.status().url == "/dev/ttyACM1"


def test_L2_locate_that_raises_does_not_kill_the_link(links: list[Any]) -> None:
    calls = {"n": 0}

    def locate() -> str:
        calls["n"] += 1
        if calls["n"] < 3:
            raise RuntimeError("udev not ready")
        return "fake"

    link = LedLink(None, locate=locate, open_fn=FakeOpener([]), backoff=(0.01,))
    links.append(link)
    link.show(solid((1, 1, 1)))
    assert wait_for(lambda: link.status().frames_sent >= 1)
    assert "udev not ready" in link.status().last_error


def test_L2_real_pty_unplug_and_replug_under_a_new_name(links: list[Any]) -> None:
    vm = VirtualMatrix(4, 4)
    links.append(vm)
    link = LedLink(None, locate=lambda: vm.port, backoff=(0.05, 0.1, 0.2), keepalive_s=0.5)
    links.append(link)
    red, green, blue = solid((255, 0, 0)), solid((0, 255, 0)), solid((0, 0, 255))
    link.show(red)
    assert wait_for(lambda: vm.latest_chain == tuple(red)), vm.render_text()
    old_port = vm.port

    vm.unplug()
    link.show(green)  # the game goes on
    assert wait_for(lambda: link.status().state == "disconnected")
    error = link.status().last_error
    assert error  # the failure is reported, whatever kind pyserial raised

    new_port = vm.replug()
    assert new_port != old_port
    link.show(blue)
    assert wait_for(lambda: vm.latest_chain == tuple(blue)), vm.render_text()
    status = link.status()
    assert status.state == "connected" and status.url == new_port and status.reconnects >= 1
