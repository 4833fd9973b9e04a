"""Finding the LED controller among the USB serial devices (``[led] port = "auto"``).

:class:`ControllerFinder` is the link's ``locate`` for ``auto``:

* it lists the serial ports (:func:`serial.tools.list_ports.comports`) and
  keeps the USB ones, a configured ``usb_id`` first, then the usual
  USB-serial chips and boards (:data:`USB_SERIAL_VIDS`: CH340/CH9102, CP210x,
  FTDI, Prolific, ESP32 native USB, Arduino, Adafruit, SparkFun, Teensy), then
  any other USB serial device;
* it **probes** each one (:func:`probe`): opens it, listens for the Adalight
  sketch's ``Ada`` line (printed when the board starts, and opening the port
  restarts an Arduino), and asks ``v``, which only WLED answers
  (``WLED <version>``).  A device that says neither never gets a frame;
* it probes at every rate a controller may be at (:func:`probe_rates`): the
  configured one, ``wled_baud``, then each of WLED's own rates, twice round,
  since a WLED that an earlier run switched, or that misread bytes sent at a
  wrong rate, can sit at any of them until it restarts, and a question at a
  wrong rate can itself move it (issue 25).  At the configured rate and the
  Adalight sketch's usual rates (:data:`ADALIGHT_RATES`) it listens long
  enough for a restarted Arduino's ``Ada``; elsewhere only for WLED's answer;
* it remembers the controller it found (USB serial number, vid:pid, kind and
  baud rate), so after a replug, under the same name or another one
  (``ttyACM0`` -> ``ttyACM1``), it is found again at once without a probe;
* a device named by a configured ``usb_id`` is trusted without an answer (the
  operator said it is the controller).

``problem`` says why nothing was found, for the link's status.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import serial
import serial.tools.list_ports

from firmware_bridge.adalight import is_hello
from firmware_bridge.link import PORT_ERRORS, Found, baud_hunt
from firmware_bridge.wled import DEFAULT_BAUD, VERSION_COMMAND, is_version_line

log = logging.getLogger("focus-arcade.led")

USB_SERIAL_VIDS: dict[int, str] = {
    0x1A86: "QinHeng CH340/CH9102",
    0x10C4: "Silicon Labs CP210x",
    0x0403: "FTDI",
    0x067B: "Prolific PL2303",
    0x303A: "Espressif ESP32 native USB",
    0x2341: "Arduino",
    0x2A03: "Arduino",
    0x239A: "Adafruit",
    0x1B4F: "SparkFun",
    0x16C0: "Teensy",
}
"""USB vendor ids of the chips and boards LED controllers use."""


ADALIGHT_RATES: tuple[int, ...] = (115200, 500000)
"""The FastLED Adalight sketch's rates (bit/s): it ships at 115200; 500000 is exact on a
16 MHz Uno or Nano.  A probe at these listens for the ``Ada`` of a restarting board."""


def probe_rates(baudrate: int = DEFAULT_BAUD, wled_baud: int = 0) -> list[int]:
    """The rates ``port = "auto"`` probes a device at, in order: ``baudrate``, ``wled_baud``,
    then WLED's other rates ascending (:func:`firmware_bridge.link.baud_hunt`).

    >>> probe_rates(115200, 921600)
    [115200, 921600, 230400, 460800, 500000, 576000, 1000000, 1500000]
    >>> probe_rates(500000)
    [500000, 115200, 230400, 460800, 576000, 921600, 1000000, 1500000]
    """
    return baud_hunt(int(baudrate), int(wled_baud or 0))


def probe_schedule(bauds: Sequence[int], wait_s: float = 2.5, answer_s: float = 0.6,
                   rounds: int = 2) -> list[tuple[int, float]]:
    """``(rate, seconds to listen)`` of every probe of one device, in order: ``bauds``
    ``rounds`` times round; ``wait_s`` in the first round at the first rate and at
    :data:`ADALIGHT_RATES`, ``answer_s`` (at most ``wait_s``) at every other.

    >>> probe_schedule([115200, 921600, 500000], 2.5, 0.6, 2)
    [(115200, 2.5), (921600, 0.6), (500000, 2.5), (115200, 0.6), (921600, 0.6), (500000, 0.6)]
    """
    out = []
    for round_no in range(max(1, rounds)):
        for i, baud in enumerate(bauds):
            long = round_no == 0 and (i == 0 or baud in ADALIGHT_RATES)
            out.append((int(baud), wait_s if long else min(answer_s, wait_s)))
    return out


def parse_usb_id(text: str) -> tuple[int, int] | None:
    """``"303a:1001"`` -> ``(0x303A, 0x1001)``; ``""`` -> None.  Raises ValueError for bad text."""
    text = (text or "").strip()
    if not text:
        return None
    vid, pid = text.split(":")
    return int(vid, 16), int(pid, 16)


def candidates(usb_id: tuple[int, int] | None = None, comports: Callable[[], Sequence[Any]] | None = None) -> list[Any]:
    """USB serial ports, best first: the configured ``usb_id``, known LED-controller
    chips, other USB devices; by path within each group.  Never raises: an error
    listing ports gives ``[]``."""
    lister = comports or serial.tools.list_ports.comports
    try:
        ports = [p for p in lister() if getattr(p, "vid", None) is not None]
    except PORT_ERRORS:
        return []

    def rank(p: Any) -> tuple[int, str]:
        if usb_id is not None and (p.vid, p.pid) == usb_id:
            return 0, str(p.device)
        return (1 if p.vid in USB_SERIAL_VIDS else 2), str(p.device)

    return sorted(ports, key=rank)


def describe(info: Any) -> str:
    """``/dev/ttyUSB0 (1a86:7523 QinHeng CH340/CH9102)``."""
    vid, pid = getattr(info, "vid", None), getattr(info, "pid", None)
    ident = f"{vid:04x}:{pid:04x}" if vid is not None and pid is not None else "no USB id"
    chip = USB_SERIAL_VIDS.get(vid or -1, getattr(info, "product", "") or "")
    return f"{info.device} ({ident}{' ' + chip if chip else ''})"


def _read_lines(port: Any, rx: bytearray) -> list[bytes]:
    waiting = port.in_waiting
    if not waiting:
        return []
    rx += port.read(min(int(waiting), 4096))
    *lines, rest = bytes(rx).split(b"\n")
    rx[:] = rest[-256:]
    return lines


def probe(
    url: str,
    baudrate: int,
    *,
    open_fn: Callable[..., Any] = serial.serial_for_url,
    wait_s: float = 2.5,
    ask_every_s: float = 0.5,
    keep_open: bool = True,
) -> Found | None:
    """Is there an LED controller on ``url`` at ``baudrate``?

    Opens the port, listens for ``Ada`` (Adalight sketch) and asks ``v`` every
    ``ask_every_s`` (WLED answers ``WLED <version>``) for at most ``wait_s``
    seconds (an Arduino restarted by the open needs about 2 s).  Returns a
    :class:`Found` with the port still open (``keep_open``) or None, after
    closing it, when nothing answered or the port cannot be opened.  Writes
    nothing but the one-byte question."""
    try:
        port = open_fn(url, baudrate, timeout=0, write_timeout=0.25, exclusive=True)
    except Exception:  # noqa: BLE001 - busy, gone, no permission: not this one
        return None
    rx = bytearray()
    found: Found | None = None
    deadline = time.monotonic() + wait_s
    next_ask = time.monotonic() + min(0.1, ask_every_s)
    try:
        while time.monotonic() < deadline and found is None:
            for line in _read_lines(port, rx):
                if is_version_line(line):
                    version = line.strip().decode("latin-1")[5:].strip()
                    found = Found(url, port, "wled", version, baudrate)
                    break
                if is_hello(line):
                    found = Found(url, port, "adalight", "", baudrate)
                    break
            if found is None and time.monotonic() >= next_ask:
                port.write(VERSION_COMMAND)
                next_ask = time.monotonic() + ask_every_s
            time.sleep(0.01)
    except PORT_ERRORS + (serial.SerialTimeoutException,):
        found = None
    if found is None or not keep_open:
        try:
            port.close()
        except Exception:  # noqa: BLE001
            pass
        return None if found is None else Found(url, None, found.kind, found.version, baudrate)
    return found


@dataclass
class _Known:
    vid: int | None
    pid: int | None
    serial_number: str | None
    kind: str
    version: str
    baudrate: int


class ControllerFinder:
    """``locate`` for ``port = "auto"``: finds, probes and remembers the controller.

    ``usb_id``: a ``(vid, pid)`` to prefer and trust, or None.  ``bauds``: the
    rates to probe at, in order (default :func:`probe_rates`: 115200, then
    WLED's other rates), ``rounds`` times round.  ``comports`` / ``open_fn``:
    for tests.  ``wait_s``: how long a probe listens in the first round at the
    first rate and at :data:`ADALIGHT_RATES` (a restarted Arduino prints ``Ada``
    after about 2 s); ``answer_s``: how long every other probe waits for WLED's
    answer (seconds).  ``retry_decoys_s``: a device that did not answer is
    probed again only after that long.  After a call, ``problem`` says why
    nothing was found (``""`` when found) and ``seen`` lists the devices looked at.
    """

    def __init__(
        self,
        usb_id: tuple[int, int] | None = None,
        bauds: Sequence[int] | None = None,
        *,
        comports: Callable[[], Sequence[Any]] | None = None,
        open_fn: Callable[..., Any] = serial.serial_for_url,
        wait_s: float = 2.5,
        answer_s: float = 0.6,
        rounds: int = 2,
        retry_decoys_s: float = 30.0,
    ) -> None:
        self.usb_id = usb_id
        self.bauds = list(dict.fromkeys(int(b) for b in (probe_rates() if bauds is None else bauds) if b))
        self.answer_s = answer_s
        self.rounds = max(1, int(rounds))
        self.comports = comports
        self.open_fn = open_fn
        self.wait_s = wait_s
        self.retry_decoys_s = retry_decoys_s
        self.known: _Known | None = None
        self.decoys: dict[str, float] = {}
        self.problem = ""
        self.seen: list[str] = []

    def _same(self, info: Any) -> bool:
        k = self.known
        if k is None or (info.vid, info.pid) != (k.vid, k.pid):
            return False
        return k.serial_number is None or getattr(info, "serial_number", None) == k.serial_number

    def __call__(self) -> Found | None:
        ports = candidates(self.usb_id, self.comports)
        self.seen = [describe(p) for p in ports]
        if not ports:
            self.problem = "device not found: no USB serial device is plugged in"
            return None
        for info in ports:  # the controller found before, maybe under a new name
            if self._same(info):
                k = self.known
                assert k is not None
                self.problem = ""
                return Found(str(info.device), None, k.kind, k.version, k.baudrate)
        now = time.monotonic()
        for info in ports:
            device = str(info.device)
            trusted = self.usb_id is not None and (info.vid, info.pid) == self.usb_id
            if not trusted and self.decoys.get(device, float("-inf")) > now:
                continue
            for baud, listen_s in probe_schedule(self.bauds, self.wait_s, self.answer_s, self.rounds):
                found = probe(device, baud, open_fn=self.open_fn, wait_s=listen_s)
                if found is not None:
                    log.info("LED controller found: %s is %s at %d baud", describe(info),
                             f"WLED {found.version}" if found.kind == "wled" else "an Adalight device", baud)
                    self.known = _Known(info.vid, info.pid, getattr(info, "serial_number", None),
                                        found.kind, found.version, baud)
                    self.problem = ""
                    self.decoys.pop(device, None)
                    return found
            if trusted:
                log.info("LED: %s matches [led] usb_id but did not answer; using it", describe(info))
                self.problem = ""
                return Found(device, None, "", "", self.bauds[0] if self.bauds else None)
            log.info("LED: %s is not an LED controller (no Ada, no WLED answer)", describe(info))
            self.decoys[device] = now + self.retry_decoys_s
        self.problem = ("no LED controller answered among " + ", ".join(self.seen)
                        + f" at {' / '.join(str(b) for b in self.bauds)} baud")
        return None
