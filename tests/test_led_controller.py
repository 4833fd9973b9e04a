"""Issue 12: the controller found by itself, a link never behind, stock WLED, DDP.

Real ptys stand in for USB serial devices (decoys that say nothing or answer
like a modem, a WLED emulation, an Adalight device); fake ``list_ports``
entries give them USB ids.  Pacing and reconnect timing run on a fake clock
(no test times anything); waits in real time only poll with generous limits.
"""

from __future__ import annotations

import os
import select
import socket
import threading
import time
import tty
from typing import Any, Callable

import pytest
import serial
from link_helpers import solid, wait_for
from serial.tools import list_ports_common
from waiting import wait_until

from firmware_bridge.adalight import AdalightDecoder, frame_length
from firmware_bridge.ddp import DDP_PORT, DdpDecoder, DdpLink, ddp_packets
from firmware_bridge.discovery import ControllerFinder, candidates
from firmware_bridge.layout import MatrixLayout
from firmware_bridge.link import LedLink
from firmware_bridge.virtual import VirtualMatrix

WAIT_S = 15.0


def port_info(device: str, vid: int | None, pid: int | None, serial_number: str | None = None) -> Any:
    info = list_ports_common.ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, serial_number
    return info


class Decoy:
    """A USB serial device that is not an LED controller: a pty whose other end
    records every byte it gets and, if ``answer`` is set, answers each read."""

    def __init__(self, answer: bytes = b"") -> None:
        self.master, slave = os.openpty()
        tty.setraw(self.master)
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self._slave = slave
        self.answer = answer
        self.received = bytearray()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                ready, _, _ = select.select([self.master], [], [], 0.02)
                if ready:
                    data = os.read(self.master, 4096)
                    self.received += data
                    if self.answer:
                        os.write(self.master, self.answer)
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def things() -> Any:
    made: list[Any] = []
    yield made
    for thing in reversed(made):
        thing.close()


# ---------------------------------------------------------------------- found by itself


def test_auto_finds_the_wled_among_decoys_and_never_sends_them_a_frame(things: list[Any]) -> None:
    silent, modem = Decoy(), Decoy(answer=b"OK\r\n")
    wled = VirtualMatrix(4, 4, firmware="wled")
    things += [silent, modem, wled]
    ports = [
        port_info("/dev/ttyAMA0", None, None),  # the Pi's own UART: not USB, never touched
        port_info(silent.port, 0x1A86, 0x7523),  # a CH340 board with other firmware
        port_info(modem.port, 0x0403, 0x6001),  # an FTDI device that answers everything
        port_info(wled.port, 0x10C4, 0xEA60, "W1"),  # the WLED controller
    ]
    finder = ControllerFinder(None, [115200], comports=lambda: list(ports), wait_s=0.6)
    link = LedLink(None, 115200, locate=finder, layout=MatrixLayout(4, 4))
    things.append(link)
    link.show(solid((10, 200, 30)))
    assert wait_for(lambda: wled.latest_chain == tuple(solid((10, 200, 30)))), link.status()
    status = link.status()
    assert status.state == "connected" and status.url == wled.port and status.device.startswith("WLED")
    # The decoys got the one-byte question at most, never frame bytes.
    for decoy in (silent, modem):
        assert set(decoy.received) <= {ord("v")}, decoy.received[:20]
    assert finder.problem == ""


def test_an_adalight_device_found_by_its_hello(things: list[Any]) -> None:
    silent = Decoy()
    ada = VirtualMatrix(4, 4)
    things += [silent, ada]
    ports = [port_info(silent.port, 0x2341, 0x0043), port_info(ada.port, 0x2341, 0x0043, "X")]
    # The sketch prints Ada when it starts (opening the port restarts an Arduino).
    stop = threading.Event()

    def hello_loop() -> None:
        while not stop.wait(0.1):
            ada.send_hello()

    t = threading.Thread(target=hello_loop, daemon=True)
    t.start()
    try:
        finder = ControllerFinder(None, [115200], comports=lambda: list(ports), wait_s=0.6)
        found = finder()
        assert found is not None and found.url == ada.port and found.kind == "adalight"
        found.port.close()
    finally:
        stop.set()
        t.join(1)
    assert set(silent.received) <= {ord("v")}


def test_nothing_answering_says_what_was_seen_and_writes_no_frame(things: list[Any]) -> None:
    decoy = Decoy(answer=b"\x00garbage\r\n")
    things.append(decoy)
    finder = ControllerFinder(None, [115200], comports=lambda: [port_info(decoy.port, 0x1A86, 0x7523)], wait_s=0.3)
    link = LedLink(None, locate=finder, backoff=(0.05,))
    things.append(link)
    link.show(solid((255, 255, 255)))
    assert wait_for(lambda: "no LED controller answered" in link.status().last_error)
    status = link.status()
    assert status.state == "searching" and "does not answer as WLED or Adalight" in status.advice
    assert set(decoy.received) <= {ord("v")}
    assert ControllerFinder(None, comports=lambda: [])() is None


def test_a_configured_usb_id_is_preferred_and_trusted() -> None:
    ports = [port_info("/dev/ttyUSB0", 0x1A86, 0x7523), port_info("/dev/ttyACM0", 0x303A, 0x1001),
             port_info("/dev/ttyS0", None, None), port_info("/dev/ttyACM1", 0x1234, 0x5678)]
    order = [p.device for p in candidates((0x303A, 0x1001), lambda: ports)]
    assert order == ["/dev/ttyACM0", "/dev/ttyUSB0", "/dev/ttyACM1"]  # configured, known chips, other USB


def test_renamed_on_replug_and_found_again(things: list[Any]) -> None:
    wled = VirtualMatrix(4, 4, firmware="wled")
    things.append(wled)
    ports = [port_info(wled.port, 0x303A, 0x1001, "AB12")]
    finder = ControllerFinder(None, [115200], comports=lambda: list(ports), wait_s=0.6)
    link = LedLink(None, locate=finder, layout=MatrixLayout(4, 4), keepalive_s=0.3)
    things.append(link)
    red, blue = solid((255, 0, 0)), solid((0, 0, 255))
    link.show(red)
    assert wait_for(lambda: wled.latest_chain == tuple(red))
    old = wled.port
    wled.unplug()
    ports.clear()
    assert wait_for(lambda: link.status().state in ("searching", "disconnected"))
    new = wled.replug()
    assert new != old
    ports.append(port_info(new, 0x303A, 0x1001, "AB12"))  # same board, another name
    link.show(blue)
    assert wait_for(lambda: wled.latest_chain == tuple(blue)), link.status()
    assert link.status().url == new and link.status().reconnects >= 1


# ---------------------------------------------------------------------- never behind (fake clock)


class FakeClock:
    """Time that moves only when the writer waits."""

    def __init__(self) -> None:
        self.t = 1000.0
        self.waits = 0

    def now(self) -> float:
        return self.t

    def wait(self, cond: threading.Condition, seconds: float) -> None:
        self.t += max(seconds, 1e-4)
        self.waits += 1

    def writer_waited(self, times: int = 2) -> Callable[[], bool]:
        """A condition: the writer has waited ``times`` more times from now (between two waits
        it looks at the newest picture: called right after a show, it has seen that one)."""
        start = self.waits
        return lambda: self.waits >= start + times


class Wire:
    """A serial port whose device reads ``rate`` bytes per (fake) second out of a
    driver queue of ``capacity`` bytes; ``out_waiting`` is what is still queued.
    Records, each time the device finishes reading a frame, how many frames were
    queued behind it."""

    def __init__(self, clock: FakeClock, rate: float, capacity: int = 16384) -> None:
        self.clock, self.rate, self.capacity = clock, rate, capacity
        self.queue = bytearray()
        self.read_bytes = bytearray()
        self.at = clock.now()
        self.behind: list[int] = []
        self.frame_len = 0
        self.closed = False
        self.rx = bytearray()
        self.first_write_at: float | None = None

    def _move(self) -> None:
        now = self.clock.now()
        n = min(len(self.queue), int((now - self.at) * self.rate))
        if n or self.rate == 0:
            self.at = now
        for _ in range(n):
            self.read_bytes.append(self.queue.pop(0))
            if self.frame_len and len(self.read_bytes) % self.frame_len == 0:
                self.behind.append(len(self.queue) // self.frame_len)

    @property
    def out_waiting(self) -> int:
        self._move()
        return len(self.queue)

    @property
    def in_waiting(self) -> int:
        return 0

    def read(self, size: int = 1) -> bytes:
        return b""

    def write(self, data: bytes) -> int:
        self._move()
        if data == b"v":
            return 1  # the question goes nowhere (a device that never answers)
        take = max(0, min(len(data), self.capacity - len(self.queue)))
        self.queue += data[:take]
        if take and self.first_write_at is None:
            self.first_write_at = self.clock.now()
        return take

    def reset_input_buffer(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("rate_fraction", [1.0, 0.3, 0.05])
def test_a_slow_reader_gets_whole_frames_never_more_than_two_behind(rate_fraction: float) -> None:
    clock = FakeClock()
    baud = 115200
    wire = Wire(clock, rate=baud / 10 * rate_fraction)
    wire.frame_len = frame_length(16)
    link = LedLink("wire", baud, open_fn=lambda *a, **k: wire, layout=MatrixLayout(4, 4),
                   clock=clock, keepalive_s=60)
    try:
        for level in range(1, 200):  # the game shows a new picture faster than any wire
            link.show(solid((level, 0, 0)))
            start = clock.now()
            wait_until(lambda start=start: clock.now() - start >= 0.01 or link._thread is None
                       or not link._thread.is_alive(),
                       what="10 ms of the link's clock", max_pause_s=0.0005)
        assert wait_for(lambda: wire.out_waiting == 0 and link.status().frames_sent >= 3)
    finally:
        link.close()
    frames = AdalightDecoder(leds=16).feed(bytes(wire.read_bytes))
    assert frames, "no frame through"
    decoder = AdalightDecoder(leds=16)
    decoder.feed(bytes(wire.read_bytes))
    assert decoder.garbage_bytes == 0  # no frame cut
    levels = [f[0][0] for f in frames]
    assert levels == sorted(set(levels))  # never one twice, never an older one after a newer
    assert max(wire.behind) <= 1  # at most the next frame queued behind the one being read


def test_a_reader_that_stops_and_starts_again() -> None:
    clock = FakeClock()
    wire = Wire(clock, rate=11520)
    wire.frame_len = frame_length(16)
    link = LedLink("wire", 115200, open_fn=lambda *a, **k: wire, layout=MatrixLayout(4, 4),
                   clock=clock, keepalive_s=60, stall_s=0.5)
    try:
        link.show(solid((1, 0, 0)))
        assert wait_for(lambda: link.status().frames_sent >= 1)
        wire.rate = 0  # the device stops reading
        wire.capacity = len(wire.queue) + 30
        for level in range(2, 40):
            link.show(solid((level, 0, 0)))
            wait_until(clock.writer_waited(), what="the writer looking at the new picture")
        assert wait_for(lambda: link.status().state == "stalled")
        link.show(solid((99, 0, 0)))
        wire.capacity = 16384
        wire.rate = 11520  # reads again
        assert wait_for(lambda: bool(AdalightDecoder(leds=16).feed(bytes(wire.read_bytes + wire.queue)))
                        and AdalightDecoder(leds=16).feed(bytes(wire.read_bytes + wire.queue))[-1][0][0] == 99)
        assert wait_for(lambda: link.status().state == "connected")
    finally:
        link.close()
    decoder = AdalightDecoder(leds=16)
    frames = decoder.feed(bytes(wire.read_bytes + wire.queue))
    levels = [f[0][0] for f in frames]
    assert decoder.garbage_bytes == 0 and levels == sorted(set(levels)) and levels[-1] == 99
    assert len(levels) <= 4  # the frame under way, maybe one more, then the newest: no backlog


def test_64x64_at_115200_gets_frames_through_at_the_wire_rate() -> None:
    clock = FakeClock()
    wire = Wire(clock, rate=11520, capacity=4096)
    wire.frame_len = frame_length(4096)
    layout = MatrixLayout(64, 64)
    link = LedLink("wire", 115200, open_fn=lambda *a, **k: wire, layout=layout, clock=clock, keepalive_s=60)
    try:
        assert link.write_timeout > 2.0  # scaled to a 1.07 s frame
        for level in range(1, 6):
            link.show([(level, 0, 0)] * 4096)
            assert wait_for(lambda level=level: link.status().frames_sent >= level)
        status = link.status()
        latencies = link.latencies()
    finally:
        link.close()
    assert status.write_timeouts == 0 and status.state == "connected"
    assert abs(status.fps_limit - 0.94) < 0.01
    assert len(latencies) == 5 and max(latencies) < 1.07 * 1.5  # (fake) wire time, no stall, no padding
    frames = AdalightDecoder(leds=4096).feed(bytes(wire.read_bytes + wire.queue))
    assert [f[0][0] for f in frames][-1] == 5


def test_frames_flow_again_within_one_second_of_the_device_returning() -> None:
    clock = FakeClock()
    back_at = {"t": float("inf")}
    ports: list[Wire] = []

    def open_fn(url: str, *a: Any, **k: Any) -> Wire:
        if clock.now() < back_at["t"]:
            raise serial.SerialException(2, f"could not open port {url}: No such file or directory")
        w = Wire(clock, rate=11520)
        ports.append(w)
        return w

    link = LedLink("/dev/ttyACM0", 115200, open_fn=open_fn, layout=MatrixLayout(4, 4), clock=clock)
    try:
        link.show(solid((5, 5, 5)))
        assert wait_for(lambda: clock.now() > 1030)  # gone for 30 (fake) seconds of retries
        assert link.status().state == "disconnected" and "plug in" in link.status().advice
        back_at["t"] = clock.now() + 0.01
        assert wait_for(lambda: bool(ports) and ports[0].first_write_at is not None)
        first_byte_at = ports[0].first_write_at
        assert first_byte_at is not None
    finally:
        link.close()
    assert first_byte_at - back_at["t"] <= 1.0


# ---------------------------------------------------------------------- stock WLED, faster baud


def test_stock_wled_at_115200_shows_frames_and_is_named(things: list[Any]) -> None:
    wled = VirtualMatrix(4, 4, firmware="wled")
    link = LedLink(wled.port, 115200, layout=MatrixLayout(4, 4))
    things += [wled, link]
    link.show(solid((0xB5, 0x7B, 0x49)))  # bytes WLED would run as commands after a loss
    assert wait_for(lambda: wled.frames >= 1 and link.status().device.startswith("WLED"))
    assert wled.wled is not None and wled.wled.baud == 115200
    assert wled.wled.kinds() <= {"version"}  # only the link's own question
    shown = wled.latest_chain
    assert shown is not None and all(abs(a - b) <= 4 for a, b in zip(shown[0], (0xB5, 0x7B, 0x49)))


def test_wled_switched_to_921600_with_its_own_command_and_recovered_after_it_restarts(things: list[Any]) -> None:
    wled = VirtualMatrix(4, 4, firmware="wled")
    link = LedLink(wled.port, 115200, wled_baud=921600, layout=MatrixLayout(4, 4), keepalive_s=0.2,
                   heartbeat_s=0.3)
    things += [wled, link]
    link.show(solid((1, 2, 3)))
    assert wait_for(lambda: link.status().baudrate == 921600 and wled.wled is not None and wled.wled.baud == 921600
                    and link.status().answers is True)
    assert wled.received is not None and bytes([0xB5]) in wled.received  # WLED's own command, once
    wled.reboot()  # power cycle: WLED is back at 115200
    assert wled.wled is not None and wled.wled.baud == 115200
    link.show(solid((7, 8, 9)))
    assert wait_for(lambda: wled.wled is not None and wled.wled.baud == 921600
                    and wled.latest_chain == tuple(solid((7, 8, 9)))), link.status()
    assert wled.wled.kinds() <= {"version", "baud"}


def test_arcade_restart_finds_a_wled_left_at_the_fast_baud(things: list[Any]) -> None:
    wled = VirtualMatrix(4, 4, firmware="wled")
    things.append(wled)
    assert wled.wled is not None
    wled.wled.feed(bytes([0xB5]))  # an earlier run switched it
    wled.wled.replies.clear()
    link = LedLink(wled.port, 115200, wled_baud=921600, layout=MatrixLayout(4, 4), keepalive_s=0.2)
    things.append(link)
    link.show(solid((4, 4, 4)))
    assert wait_for(lambda: wled.latest_chain == tuple(solid((4, 4, 4))) and link.status().baudrate == 921600)


# ---------------------------------------------------------------------- hand the panel back


def test_release_stops_sending_and_show_resumes(things: list[Any]) -> None:
    clock = FakeClock()
    wire = Wire(clock, rate=11520)
    keepalive = 0.1
    link = LedLink("wire", 115200, open_fn=lambda *a, **k: wire, layout=MatrixLayout(4, 4), clock=clock,
                   keepalive_s=keepalive)
    things.append(link)

    def on_the_wire() -> list[Any]:
        return AdalightDecoder(leds=16).feed(bytes(wire.read_bytes + wire.queue))

    def clock_passes(seconds: float) -> None:      # the link's own clock moves on as its writer waits
        end = clock.now() + seconds
        wait_until(lambda: clock.now() >= end, what=f"{seconds:g} s of the link's clock")

    link.show(solid((9, 9, 9)))
    assert wait_for(lambda: link.status().frames_sent >= 2)  # keepalive resends
    link.release()
    assert wait_for(lambda: link.status().state == "released")
    clock_passes(keepalive)                                   # a frame under way at the release is through
    sent, frames = link.status().frames_sent, len(on_the_wire())
    clock_passes(4 * keepalive)       # four keepalive periods: nothing comes (WLED would return to its effect)
    assert link.status().frames_sent == sent and len(on_the_wire()) == frames and link.released
    link.show(solid((1, 1, 1)))
    assert wait_for(lambda: on_the_wire()[-1] == tuple(solid((1, 1, 1))) and link.status().state == "connected")


# ---------------------------------------------------------------------- DDP over Wi-Fi


def test_ddp_packets_split_at_480_leds_with_push_on_the_last() -> None:
    rgb = bytes(range(256)) * 12  # 1024 LEDs
    packets = ddp_packets(rgb[: 3 * 1000], 7)
    assert [len(p) - 10 for p in packets] == [1440, 1440, 120]
    assert [p[0] for p in packets] == [0x40, 0x40, 0x41] and {p[1] for p in packets} == {7}
    assert packets[1][2:4] == b"\x0b\x01" and packets[1][4:8] == (1440).to_bytes(4, "big")
    decoder = DdpDecoder(1000)
    assert [decoder.feed(p) for p in packets][:2] == [None, None]
    assert decoder.frames[0] == tuple(zip(rgb[0:3000:3], rgb[1:3000:3], rgb[2:3000:3]))


def test_ddp_link_frames_decoded_on_a_loopback_socket(things: list[Any]) -> None:
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))  # the test's stand-in for WLED; the link itself never binds
    receiver.settimeout(0.05)
    things.append(receiver)
    layout = MatrixLayout(32, 32)  # 1024 LEDs: three packets a frame
    link = DdpLink("127.0.0.1", receiver.getsockname()[1], layout=layout, keepalive_s=0.2)
    things.append(link)
    decoder = DdpDecoder(1024)
    picture = [[(x * 8, y * 8, 77) for x in range(32)] for y in range(32)]
    link.show_picture(picture)
    deadline = time.monotonic() + WAIT_S
    while len(decoder.frames) < 3 and time.monotonic() < deadline:
        try:
            decoder.feed(receiver.recv(2048))
        except TimeoutError:
            pass
    assert len(decoder.frames) >= 3  # the frame and its keepalive resends
    assert decoder.frames[0] == tuple(layout.to_chain(picture)) and decoder.rejected == 0
    # a frame is counted once its last packet is out: the receiver may have it a moment before
    assert wait_for(lambda: link.status().frames_sent >= 3)
    status = link.status()
    assert status.transport == "ddp" and status.state == "connected"
    link.release()
    assert wait_for(lambda: link.status().state == "released")


def test_ddp_to_a_port_nobody_listens_on_is_reported(things: list[Any]) -> None:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe.bind(("127.0.0.1", 0))
    free = probe.getsockname()[1]
    probe.close()
    link = DdpLink("127.0.0.1", free, layout=MatrixLayout(4, 4), keepalive_s=0.05, backoff=(0.05,))
    things.append(link)
    link.show(solid((1, 1, 1)))
    assert wait_for(lambda: "refused" in link.status().last_error.lower())
    assert "DDP" in link.status().advice or "WLED" in link.status().advice
    bad = DdpLink("no-such-host.invalid", DDP_PORT, layout=MatrixLayout(4, 4), backoff=(0.05,))
    things.append(bad)
    bad.show(solid((1, 1, 1)))
    assert wait_for(lambda: bad.status().state == "disconnected" and bad.status().advice)
