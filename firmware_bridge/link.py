"""The link to the LED matrix controller: never blocks the game, never behind, survives unplugging.

The game loop calls :meth:`LedLink.show` once a frame.  ``show`` encodes the
pixels (Adalight, :mod:`firmware_bridge.adalight`; WLED-safe bytes by
default), keeps them as the latest frame and returns: it does no I/O on the
caller's thread.  One background writer thread owns the port:

* **whole frames only, latest wins.**  A frame once started is finished
  (never cut, never sent twice): the writer keeps the bytes not yet taken and
  writes them when the device takes more.  Pictures shown meanwhile are
  skipped; the next frame is the newest picture.
* **never behind.**  A new frame starts only when the previous one is through
  the wire at ``baudrate`` (8N1) *and* the port's output queue
  (``out_waiting``, the bytes the driver still holds) is nearly empty: nothing
  queues in the tty buffer, so the picture on the matrix is at most two frames
  behind the newest one whatever the device's read speed.
* **what the device takes.**  On a real serial port the writer does
  non-blocking writes of the port's file descriptor and counts the bytes the
  kernel took, so pyserial's write timeout raised after every byte went out
  cannot happen (issue 12).  Other pyserial ports (``loop://``, ``socket://``,
  test fakes) get small chunks through ``write()``, whose return value is
  honoured; a ``SerialTimeoutException`` after which ``out_waiting`` grew
  counts as written.  A device that takes nothing for ``stall_s`` is
  ``"stalled"`` (case **L-1**); it is ``"connected"`` again at its first byte.
* **keepalive.**  The last frame is resent at least every ``keepalive_s``
  (WLED leaves realtime mode after 2.5 s without a frame), unless
  :meth:`release` handed the panel back to the controller's own effect.
* **unplugged** (case **L-2**: pyserial raises ``SerialException``, a bare
  ``OSError`` and ``termios.error``): the port is closed, ``"disconnected"``,
  and reopened after the short ``backoff`` delays, so frames flow again well
  within 1 s of the device's return.  ``locate`` finds the port again before
  every attempt (a replugged device may get another name); it may return a
  :class:`Found` with an already open, already identified port.
* **WLED.**  The writer asks ``v`` at idle moments; a ``WLED <version>``
  answer identifies WLED (``Ada`` lines identify an Adalight sketch and make
  the writer resend at once).  With ``wled_baud`` set it switches WLED to that
  rate with WLED's own one-byte command and checks WLED answers there.  When
  WLED stops answering (silence after two questions, or garbled bytes: it
  prints at another rate) the writer sends no more frames, since bytes at a
  wrong rate reach WLED as other bytes and some of them change its baud
  (:mod:`firmware_bridge.uart`), and asks ``v`` at each rate of
  :func:`baud_hunt` in turn: ``baudrate`` first (WLED restarted at its stock
  115200), then ``wled_baud``, then WLED's other rates; where WLED answers it
  is switched to ``wled_baud`` again, without a human (issue 25).  An unknown
  device on a link with ``wled_baud`` gets its first frame once it answered or
  was asked twice at every rate (then it is taken for an Adalight sketch).

The writer on one open port is a small state machine, :class:`WriterState`
(the transitions in a table at ``LedLink._serve``).  Every state change is
logged (logger ``focus-arcade.led``) and
:meth:`LedLink.status` gives a :class:`LinkStatus` with an operator's
``advice``.  :class:`DdpLink` (``firmware_bridge.ddp``) sends the same frames
over Wi-Fi.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Protocol, Sequence

import serial
import serial.tools.list_ports

from firmware_bridge.adalight import RGB, encode_frame, frame_length, is_hello
from firmware_bridge.errors import LinkSettingsError
from firmware_bridge.layout import MatrixLayout
from firmware_bridge.wled import BAUD_COMMANDS, VERSION_COMMAND, is_version_line

try:
    import termios

    _TermiosError: type[BaseException] = termios.error
except ImportError:  # pragma: no cover - not POSIX

    class _NoTermiosError(Exception):
        """Stands in for termios.error where there is no termios."""

    _TermiosError = _NoTermiosError

log = logging.getLogger("focus-arcade.led")

PORT_ERRORS: tuple[type[BaseException], ...] = (serial.SerialException, OSError, _TermiosError)
"""What a serial port raises when it fails or disappears (case L-2).

``termios.error`` is not an ``OSError``, so catching ``OSError`` alone misses
the error that ``reset_input_buffer()`` / ``flush()`` raise after an unplug.
"""

STATES = ("off", "searching", "connecting", "connected", "stalled", "disconnected", "released", "closed")
"""The values of :attr:`LinkStatus.state`.  ``"released"``: the link sends
nothing so the controller shows its own effect (:meth:`LedLink.release`)."""

_RX_LINE_LIMIT = 256  # bytes of an unfinished device line kept while looking for "Ada" / "WLED"
_ANSWER_S = 0.4  # how long WLED may take to answer "v"


@dataclass(frozen=True)
class Found:
    """What ``locate`` found: the port ``url``; an already open ``port`` (or ``None``:
    the link opens ``url``); the controller ``kind`` (``"wled"``, ``"adalight"`` or
    ``""`` unknown), its ``version`` text and the ``baudrate`` it answered at
    (``None``: the link's own)."""

    url: str
    port: Any = None
    kind: str = ""
    version: str = ""
    baudrate: int | None = None


class WriterState(Enum):
    """The states of the writer thread on one open port (:meth:`LedLink._serve`).

    Not :attr:`LinkStatus.state` (what the operator sees): the writer goes through
    several of these for every frame; the table in :meth:`LedLink._serve` says which
    of them change what the operator sees.
    """

    OPENED = "opened"
    """A fresh connection: forget the device's boot chatter."""
    LISTEN = "listen"
    """Read what the device said (``Ada``, ``WLED ...``, garbled bytes); stop on close()."""
    IDLE = "idle"
    """Between frames: WLED's parser reads a command byte as a command."""
    SWITCH = "switch"
    """Send WLED its one-byte command for ``wled_baud`` and follow it there."""
    UNANSWERED = "unanswered"
    """A ``v`` went unanswered: count it, look at the next rate or stop asking."""
    ASK = "ask"
    """Send ``v`` when a question is due."""
    START = "start"
    """Begin the next frame when one is due and the wire and the port's queue allow."""
    SEND = "send"
    """Write what the device takes of the frame under way."""
    WAIT = "wait"
    """Nothing to write: wait for a new picture, the wire, the keepalive or a question."""
    END = "end"
    """Leave the port: close() was called, or the port failed (:attr:`_Conn.error`)."""


@dataclass
class _Conn:
    """What the writer knows about one open port; the states of :class:`WriterState` read
    and change it."""

    port: Any
    found: Found
    fd: int | None = None
    error: str = ""  # why the port was left ("" after close())
    delivered: bool = False  # a frame went through on this port
    # The caller's picture as LISTEN took it, at the clock time ``now``.
    now: float = 0.0
    frame: bytes | None = None
    seq: int = 0
    frame_at: float = 0.0
    released: bool = False
    # Frames: the last one through, the one under way (``pending``), the wire's pace.
    force: bool = True  # a fresh connection: the device may have reset, send at once
    last_seq: int = -1
    last_bytes: bytes | None = None
    last_done: float = float("-inf")
    next_allowed: float = 0.0
    pending: memoryview | None = None
    pending_frame: bytes = b""
    pending_seq: int = -1
    pending_at: float = 0.0
    new_picture: bool = False
    last_progress: float = 0.0
    connected_at: float = 0.0
    # The device: its kind ("wled", "adalight", "" unknown), the rate, the questions.
    kind: str = ""
    baud: int = 0
    rx: bytearray = field(default_factory=bytearray)
    asked_at: float | None = None
    ask_due: float = float("inf")
    unanswered: int = 0
    holding: bool = False  # no frame for an unknown device while it is looked for at each rate
    fast_confirmed: bool = False
    switch_failed: bool = False
    fast_unconfirmed: int = 0  # losses at wled_baud before WLED ever answered there
    # With wled_baud: the rates a WLED that stopped answering is looked for at, and where in
    # that list the hunt is; garbage read before quiet_until (a baud change) is not held
    # against the new rate.
    hunt: list[int] = field(default_factory=list)
    hunt_i: int = 0
    quiet_until: float = 0.0
    give_up_after: int = 3  # questions before an unknown device is taken for an Adalight sketch

    def fail(self, error: str) -> WriterState:
        """Leave the port because of ``error``."""
        self.error = error
        return WriterState.END


class PortLike(Protocol):
    """What the link uses of a pyserial port (``open_fn`` must return one)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = ...) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class LinkStatus:
    """A snapshot of the link for the operator, the service menu and the logs.

    ``state``: one of :data:`STATES`.  ``url``: the port (or ``host:port``) in
    use or last tried (``None`` when off).  ``frames_sent``: frames written in
    full, keepalive resends included.  ``write_timeouts``: writes that timed out
    with nothing taken (L-1).  ``reconnects``: times the port was opened again
    after it was lost (L-2).  ``last_error``: the last fault (``""`` if none).
    ``since``: clock seconds when ``state`` last changed.  ``hellos``: ``Ada``
    lines seen.  ``transport``: ``"serial"`` or ``"ddp"``.  ``baudrate``: the
    rate in use (0 for DDP).  ``device``: what answered (``"WLED 0.15.0"``,
    ``"Adalight"``, ``""``).  ``answers``: the controller answered its last
    question (``None``: not known).  ``fps_limit``: frames/s the wire carries for
    the current frame size.  ``advice``: what the operator should do, ``""``
    when all is well.
    """

    state: str
    url: str | None
    frames_sent: int
    write_timeouts: int
    reconnects: int
    last_error: str
    since: float
    hellos: int = 0
    transport: str = "serial"
    baudrate: int = 0
    device: str = ""
    answers: bool | None = None
    fps_limit: float = 0.0
    advice: str = ""

    @property
    def ok(self) -> bool:
        """True when frames reach the controller (or the link is released/off on purpose)."""
        return self.state in ("connected", "released", "off")

    @property
    def text(self) -> str:
        """One line for the screen: state, where, what, and what to do."""
        where = f" {self.url}" if self.url else ""
        what = f" ({self.device})" if self.device else ""
        rate = f" at {self.baudrate} baud" if self.baudrate else ""
        line = f"LED {self.state}{where}{what}{rate}"
        if self.state == "connected" and self.fps_limit:
            line += f", up to {self.fps_limit:.0f} frames/s"
        if self.advice:
            line += f" - {self.advice}"
        return line


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def advice_for(error: str, transport: str = "serial") -> str:
    """What to do about a link fault ``error`` (a :attr:`LinkStatus.last_error`)."""
    low = error.lower()
    if transport == "ddp":
        if "name" in low or "resolve" in low or "getaddrinfo" in low:
            return "WLED's host name is not known: set [led] host to its IP address (WLED: Info page)"
        if "refused" in low:
            return "nothing receives DDP there: check [led] host and that WLED runs (port 4048)"
        return "check that WLED is on the Wi-Fi and [led] host is its address"
    if "permission denied" in low or "errno 13" in low:
        return "no permission for the port: add the user to the dialout group (sudo usermod -aG dialout USER), log in again"
    if "busy" in low or "errno 16" in low or "lock" in low:
        return "another program has the port open (close it: Arduino IDE, serial monitor)"
    if "no led controller" in low or "did not answer" in low:
        return ("a USB serial device is plugged in but does not answer as WLED or Adalight: "
                "check the firmware and [led] baudrate (stock WLED: 115200)")
    if "not found" in low or "no such file" in low or "errno 2" in low:
        return "plug in the LED controller's USB cable (WLED or the Adalight sketch); set [led] usb_id if it is not found"
    if "timed out" in low or "not reading" in low:
        return "the controller takes no data: power-cycle it"
    if "not answering" in low:
        return "WLED stopped answering: it may be restarting; check its power supply"
    return "check the LED controller's cable and power" if error else ""


def baud_hunt(baudrate: int, wled_baud: int) -> list[int]:
    """The rates a link asks a lost WLED ``v`` at, in order: ``baudrate`` (WLED's start rate
    after a restart: stock 115200), ``wled_baud``, then WLED's other rates, ascending.

    Bytes at a wrong rate reach WLED as other bytes (:mod:`firmware_bridge.uart`), and
    any 0xB0..0xB7 among them moves WLED to another of its rates until it restarts, so
    a WLED that heard a fast stream after a brown-out can be at any of them.

    >>> baud_hunt(115200, 921600)
    [115200, 921600, 230400, 460800, 500000, 576000, 1000000, 1500000]
    """
    order = [baudrate] + ([wled_baud] if wled_baud else [])
    return list(dict.fromkeys(order + sorted(BAUD_COMMANDS)))


def _garbage(data: bytes) -> int:
    """Bytes of ``data`` that no controller prints (WLED and Adalight print text lines):
    what a port reads from a device that prints at another baud rate."""
    return sum(1 for b in data if not (0x20 <= b <= 0x7E or b in (0x09, 0x0A, 0x0D)))


def find_port_by_usb_id(vid: int, pid: int, serial_number: str | None = None) -> str | None:
    """The device path of the first serial port with USB ``vid``:``pid``, or ``None``.

    Uses :func:`serial.tools.list_ports.comports` (ports sorted by path, so the
    answer is stable).  ``serial_number`` narrows the match when two identical
    boards are plugged in.  A device that comes back as ``/dev/ttyACM1`` after
    being ``/dev/ttyACM0`` is still found.  Typical ids: CH340 ``0x1A86:0x7523``,
    CP2102 ``0x10C4:0xEA60``, ESP32-S3 native USB ``0x303A:0x1001``.  Never
    raises for a port error: returns ``None``.
    """
    try:
        ports = list(serial.tools.list_ports.comports())
    except PORT_ERRORS:
        return None
    for info in sorted(ports, key=lambda p: str(p.device)):
        if info.vid == vid and info.pid == pid:
            if serial_number is None or info.serial_number == serial_number:
                return str(info.device)
    return None


def _positive(key: str, value: object, expected: str = "a positive number of seconds") -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise LinkSettingsError(key, value, expected)
    return float(value)


def scaled_write_timeout(leds: int, baudrate: int) -> float:
    """Seconds one write may wait: twice the frame's wire time, at least 0.25 s.

    A 64x64 panel at 115200 baud (1.07 s a frame) gets 2.13 s, so a frame that
    merely takes long is never taken for a stalled device."""
    return max(0.25, 2.0 * frame_length(leds) * 10.0 / baudrate)


class _RealClock:
    """Real time: ``now()`` is ``time.monotonic()``; ``wait`` blocks on the link's condition."""

    def now(self) -> float:
        return time.monotonic()

    def wait(self, cond: threading.Condition, seconds: float) -> None:
        cond.wait(seconds)


class LedLink:
    """A serial link to an LED controller that never blocks the caller.

    ``url``: a pyserial port or URL (``"/dev/ttyACM0"``, ``"loop://"``,
    ``"socket://host:port"``); ``None`` or ``"none"`` (with no ``locate``)
    makes a no-op link whose status is ``"off"``.  ``baudrate`` in bit/s: the
    rate the controller listens at when it starts (stock WLED: 115200; the
    FastLED Adalight sketch: what it was compiled with).  ``locate``: called
    before every (re)open, returns the port to open (a path or a :class:`Found`)
    or ``None`` if the device is absent.  ``wled_baud``: 0, or a WLED baud
    (:data:`firmware_bridge.wled.BAUD_COMMANDS`) to switch an identified WLED
    to.  ``write_timeout`` (s, ``None``: :func:`scaled_write_timeout` of the
    layout's frame).  ``stall_s`` (s, ``None``: the write timeout): a device
    that takes no byte for that long is ``"stalled"``.  ``keepalive_s`` (s):
    the longest time between two frames (keep it under WLED's 2.5 s).
    ``backoff`` (s): delays before successive reopen attempts, the last one
    repeating; back to the first once a frame went through.  ``open_fn``: makes
    the port (tests pass fakes).  ``layout``: the :class:`MatrixLayout` used by
    :meth:`show_picture`.  ``pace``: start a frame only when the previous one
    is through the wire; ``frame_gap_s`` (s): extra quiet time after each
    frame (about 0.01 for the FastLED Adalight sketch).  ``wled_safe``: shape
    the frame bytes so a lost byte never becomes a WLED command
    (:func:`~firmware_bridge.adalight.encode_frame`).  ``clock``: an object
    with ``now()`` and ``wait(condition, seconds)`` (tests pass a fake clock;
    default real time).  ``heartbeat_s`` (s): how often an identified WLED is
    asked ``v``.

    Raises :class:`LinkSettingsError` for a setting out of range.  Rules: field
    reports L-1 (write that never returns) and L-2 (unplugged); issue 12.
    """

    transport = "serial"

    def __init__(
        self,
        url: str | None,
        baudrate: int = 115200,
        *,
        locate: Callable[[], str | Found | None] | None = None,
        write_timeout: float | None = None,
        stall_s: float | None = None,
        keepalive_s: float = 1.0,
        backoff: Sequence[float] = (0.05, 0.1, 0.25),
        open_fn: Callable[..., Any] = serial.serial_for_url,
        layout: MatrixLayout | None = None,
        pace: bool = True,
        frame_gap_s: float = 0.0,
        poll_s: float = 0.02,
        wled_safe: bool = True,
        wled_baud: int = 0,
        heartbeat_s: float = 2.0,
        clock: Any = None,
    ) -> None:
        if isinstance(baudrate, bool) or not isinstance(baudrate, int) or baudrate <= 0:
            raise LinkSettingsError("baudrate", baudrate, "a positive int (bit/s), e.g. 115200")
        if wled_baud and wled_baud not in BAUD_COMMANDS:
            raise LinkSettingsError("wled_baud", wled_baud, f"0 or one of {sorted(BAUD_COMMANDS)}")
        self.layout = layout if layout is not None else MatrixLayout()
        self.write_timeout = (
            scaled_write_timeout(self.layout.leds, baudrate) if write_timeout is None
            else _positive("write_timeout", write_timeout)
        )
        self.stall_s = self.write_timeout if stall_s is None else _positive("stall_s", stall_s)
        self.keepalive_s = _positive("keepalive_s", keepalive_s)
        self.poll_s = _positive("poll_s", poll_s)
        self.heartbeat_s = _positive("heartbeat_s", heartbeat_s)
        if isinstance(frame_gap_s, bool) or not isinstance(frame_gap_s, (int, float)) or frame_gap_s < 0:
            raise LinkSettingsError("frame_gap_s", frame_gap_s, "a number of seconds >= 0")
        delays = tuple(backoff) if not isinstance(backoff, (str, bytes)) else ()
        if not delays or any(
            isinstance(d, bool) or not isinstance(d, (int, float)) or d < 0 for d in delays
        ):
            raise LinkSettingsError("backoff", backoff, "a non-empty sequence of seconds >= 0")
        if url is not None and not isinstance(url, str):
            raise LinkSettingsError("url", url, "a port path or pyserial URL, or None")
        self.baudrate = baudrate
        self.wled_baud = int(wled_baud or 0)
        self.backoff: tuple[float, ...] = tuple(float(d) for d in delays)
        self.frame_gap_s = float(frame_gap_s)
        self.pace = bool(pace)
        self.wled_safe = bool(wled_safe)
        self.clock = clock if clock is not None else _RealClock()
        self._url = url
        self._locate = locate
        self._open_fn = open_fn
        self.off = locate is None and (url is None or url.strip().lower() in ("", "none"))

        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._frame: bytes | None = None
        self._frame_at = 0.0  # clock time the current picture was first shown
        self._seq = 0
        self._released = False
        self._stopping = False
        self._closed = False
        self._port: Any = None
        self._latencies: deque[float] = deque(maxlen=4096)

        now = self.clock.now()
        self._state = "off" if self.off else "connecting"
        self._status_url: str | None = None if self.off else url
        self._frames_sent = 0
        self._write_timeouts = 0
        self._reconnects = 0
        self._hellos = 0
        self._last_error = ""
        self._since = now
        self._device = ""
        self._answers: bool | None = None
        self._baud_now = baudrate if self.transport == "serial" else 0
        self._frame_len = frame_length(self.layout.leds)

        self._thread: threading.Thread | None = None
        if not self.off:
            self._thread = threading.Thread(target=self._run, name=f"led-link-{self.transport}", daemon=True)
            self._thread.start()

    # ------------------------------------------------------------------ caller side

    def encode(self, pixels: Sequence[RGB]) -> bytes:
        """The bytes this link sends for ``pixels`` (chain order).

        Raises :class:`~firmware_bridge.errors.FrameError` for a bad frame."""
        return encode_frame(pixels, wled_safe=self.wled_safe)

    def show(self, pixels: Sequence[RGB]) -> None:
        """Make ``pixels`` (chain order, ``(r, g, b)`` 0..255) the frame to display.

        Encodes on the caller's thread (so a bad frame raises
        :class:`~firmware_bridge.errors.FrameError` here) and returns without any
        I/O: the writer thread sends it when it can.  A newer ``show`` replaces a
        frame not yet started.  Undoes :meth:`release`.  After :meth:`close` it
        does nothing.
        """
        frame = self.encode(pixels)
        with self._lock:
            if self._closed:
                return
            if frame != self._frame:
                self._frame_at = self.clock.now()
            self._frame = frame
            self._seq += 1
            if self._released:
                self._released = False
                if self._state == "released":
                    self._set_state_locked("connected")
            self._wake.notify_all()

    def show_picture(self, picture: Sequence[Sequence[RGB]]) -> None:
        """Like :meth:`show` for a row-major picture, mapped through ``self.layout``.

        Raises :class:`~firmware_bridge.errors.LayoutError` for a picture of the
        wrong shape.
        """
        self.show(self.layout.to_chain(picture))

    def release(self) -> None:
        """Stop sending (no keepalive) so the controller returns to its own effect
        after its realtime timeout (WLED: 2.5 s).  The next :meth:`show` resumes."""
        with self._lock:
            if self._closed or self._released:
                return
            self._released = True
            self._frame = None
            if self._state in ("connected", "stalled"):
                self._set_state_locked("released")
            self._wake.notify_all()

    @property
    def released(self) -> bool:
        """True between :meth:`release` and the next :meth:`show`."""
        return self._released

    def latencies(self) -> list[float]:
        """Seconds from each picture change to the last byte of its frame written
        (the latest 4096 frames that carried a new picture)."""
        with self._lock:
            return list(self._latencies)

    def status(self) -> LinkStatus:
        """A consistent snapshot of the link's state and counters."""
        with self._lock:
            advice = ""
            if self._state in ("disconnected", "stalled", "searching", "connecting") and self._last_error:
                advice = advice_for(self._last_error, self.transport)
            elif self._state == "connected" and self._answers is False:
                advice = advice_for("not answering", self.transport)
            fps = 0.0
            if self._baud_now:
                fps = self._baud_now / 10.0 / self._frame_len
            return LinkStatus(
                state=self._state,
                url=self._status_url,
                frames_sent=self._frames_sent,
                write_timeouts=self._write_timeouts,
                reconnects=self._reconnects,
                last_error=self._last_error,
                since=self._since,
                hellos=self._hellos,
                transport=self.transport,
                baudrate=self._baud_now,
                device=self._device,
                answers=self._answers,
                fps_limit=fps,
                advice=advice,
            )

    def close(self, timeout: float | None = None) -> None:
        """Stop the writer thread, close the port and wait (idempotent).

        Waits at most ``timeout`` seconds (default: a few write timeouts) for the
        thread; a thread stuck in a driver call is asked to cancel its write and
        is left behind as a daemon.  The status becomes ``"closed"``.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._stopping = True
            self._wake.notify_all()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout if timeout is not None else max(1.0, 4 * self.write_timeout))
            if thread.is_alive():
                port = self._port
                cancel = getattr(port, "cancel_write", None)
                if cancel is not None:
                    try:
                        cancel()
                    except Exception:  # noqa: BLE001 - best effort on a stuck port
                        pass
                thread.join(0.5)
        self._set_state("closed")

    def __enter__(self) -> "LedLink":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        s = self.status()
        return f"<{type(self).__name__} {s.url!r} {s.baudrate} baud {s.state}, {s.frames_sent} frames>"

    # ------------------------------------------------------------------ writer side

    def _set_state(self, state: str, *, error: str | None = None, url: str | None = None) -> None:
        with self._lock:
            self._set_state_locked(state, error=error, url=url)

    def _set_state_locked(self, state: str, *, error: str | None = None, url: str | None = None) -> None:
        if self._state == "closed":
            return
        if error is not None:
            self._last_error = error
        if url is not None:
            self._status_url = url
        if state != self._state:
            old, self._state = self._state, state
            self._since = self.clock.now()
            where = self._status_url or "-"
            if state in ("disconnected", "stalled", "searching") and self._last_error:
                log.warning("LED link %s -> %s (%s): %s; %s", old, state, where, self._last_error,
                            advice_for(self._last_error, self.transport))
            else:
                log.info("LED link %s -> %s (%s%s)", old, state, where,
                         f", {self._device}" if self._device else "")

    def _stop_requested(self) -> bool:
        with self._lock:
            return self._stopping

    def _sleep(self, seconds: float) -> bool:
        """Wait ``seconds`` unless close() is called; True if stopping."""
        deadline = self.clock.now() + seconds
        with self._lock:
            while not self._stopping:
                left = deadline - self.clock.now()
                if left <= 0:
                    break
                self.clock.wait(self._wake, left)
            return self._stopping

    def _find(self) -> tuple[Found | None, str]:
        if self._locate is None:
            return (Found(self._url) if self._url is not None else None), ""
        try:
            found = self._locate()
        except Exception as exc:  # noqa: BLE001 - user code must not kill the writer
            return None, f"locate failed: {_error_text(exc)}"
        if found is None:
            problem = getattr(self._locate, "problem", "") or "device not found"
            return None, str(problem)
        if isinstance(found, Found):
            return found, ""
        return Found(str(found)), ""

    def _open(self, url: str, baudrate: int) -> tuple[Any, str]:
        try:
            port = self._open_fn(
                url,
                baudrate,
                timeout=0,
                write_timeout=self.write_timeout,
                exclusive=True,
            )
        except Exception as exc:  # noqa: BLE001 - serial, OS, termios or a bad URL
            return None, f"open {url} failed: {_error_text(exc)}"
        return port, ""

    @staticmethod
    def _close_quietly(port: Any) -> None:
        try:
            port.close()
        except Exception:  # noqa: BLE001 - the port is gone anyway (L-2)
            pass

    def _run(self) -> None:
        attempt = 0
        had_connection = False
        while not self._stop_requested():
            found, problem = self._find()
            port = None
            if found is not None:
                with self._lock:  # a retry after a loss stays "disconnected" until it works: no log flood
                    self._set_state_locked(
                        self._state if self._state in ("disconnected", "searching") else "connecting",
                        url=found.url)
                port = found.port
                if port is None:
                    port, problem = self._open(found.url, found.baudrate or self.baudrate)
            if port is None:
                self._set_state("searching" if self._locate is not None and found is None else "disconnected",
                                error=problem)
                delay = self.backoff[min(attempt, len(self.backoff) - 1)]
                attempt += 1
                if self._sleep(delay):
                    break
                continue
            assert found is not None
            with self._lock:
                self._port = port
                if had_connection:
                    self._reconnects += 1
                self._baud_now = found.baudrate or self.baudrate
                if found.kind == "wled":
                    self._device, self._answers = f"WLED {found.version}".strip(), True
                elif found.kind == "adalight":
                    self._device, self._answers = "Adalight", None
                else:
                    self._answers = None  # not asked yet on this connection
                self._set_state_locked("released" if self._released else "connected")
            had_connection = True
            try:
                delivered, problem = self._serve(port, found)
            except Exception as exc:  # noqa: BLE001 - a port failing in an unforeseen way is lost too
                delivered, problem = False, f"port failed: {_error_text(exc)}"
            with self._lock:
                self._port = None
            self._close_quietly(port)
            if self._stop_requested():
                break
            if delivered:
                attempt = 0
            self._set_state("disconnected", error=problem)
            delay = self.backoff[min(attempt, len(self.backoff) - 1)]
            attempt += 1
            if self._sleep(delay):
                break

    # ------------------------------------------------------------------ one open port

    @staticmethod
    def _fd_of(port: Any) -> int | None:
        """The file descriptor of a real (POSIX) pyserial port, else None."""
        try:
            import serial.serialposix as posix
        except ImportError:  # pragma: no cover - not POSIX
            return None
        if isinstance(port, posix.Serial):
            fd = getattr(port, "fd", None)
            return fd if isinstance(fd, int) else None
        return None

    @staticmethod
    def _out_waiting(port: Any) -> int | None:
        """Bytes the driver still holds for the wire, or None when the port cannot say."""
        try:
            value = port.out_waiting
        except (AttributeError, NotImplementedError, TypeError):
            return None
        return int(value) if isinstance(value, int) else None

    def _write_some(self, port: Any, fd: int | None, data: memoryview, chunk: int) -> int:
        """Write what the port takes now (never blocks long); bytes taken."""
        if fd is not None:
            try:
                return os.write(fd, data)
            except BlockingIOError:
                return 0
            except InterruptedError:
                return 0
        piece = bytes(data[:chunk])
        before = self._out_waiting(port)
        try:
            written = port.write(piece)
        except serial.SerialTimeoutException:
            after = self._out_waiting(port)
            if before is not None and after is not None and after > before:
                return len(piece)  # the bytes went out; the timeout came late
            with self._lock:
                self._write_timeouts += 1
            return 0
        return len(piece) if written is None else max(0, min(int(written), len(piece)))

    def _drain(self, port: Any, rx: bytearray) -> tuple[list[bytes], int]:
        """Read what the device sent (never blocks); the complete lines and the number of
        garbage bytes read (:func:`_garbage`)."""
        waiting = port.in_waiting
        if not waiting:
            return [], 0
        data = port.read(min(int(waiting), 4096))
        if not data:
            return [], 0
        rx += data
        *lines, rest = bytes(rx).split(b"\n")
        rx[:] = rest[-_RX_LINE_LIMIT:]
        return lines, _garbage(data)

    def _wait_writable(self, fd: int | None, seconds: float) -> None:
        if fd is not None and isinstance(self.clock, _RealClock):
            try:
                select.select([], [fd], [], seconds)
            except (OSError, ValueError):
                pass
            return
        self._sleep(seconds)

    def _serve(self, port: Any, found: Found) -> tuple[bool, str]:
        """Write frames to an open port until it fails or close(); (delivered any, error).

        A small state machine: each state of :class:`WriterState` is a method that
        returns the next state, from ``OPENED`` until ``END``.  The transitions, and
        what the operator sees change (:attr:`LinkStatus.state`, ``advice``)::

            state       next        when                                          the operator sees
            ----------  ----------  --------------------------------------------  -------------------------
            OPENED      LISTEN      the device's boot chatter is dropped          "connected" (set on open)
            OPENED      END         the port fails                                "disconnected"
            LISTEN      END         close(); reading fails                        "closed"; "disconnected"
            LISTEN      SEND        a frame is under way
            LISTEN      IDLE        no frame under way
            IDLE        SWITCH      WLED answered at another rate than wled_baud
            IDLE        UNANSWERED  a "v" went 0.4 s without an answer
            IDLE        ASK         otherwise
            SWITCH      LISTEN      WLED switched (or took nothing: it stays)     the new baud rate
            SWITCH      END         the port fails                                "disconnected"
            UNANSWERED  ASK         counted; the hunt moves to another rate       "not answering" advice
            UNANSWERED  END         the port fails at the new rate                "disconnected"
            ASK         START       "v" sent if one is due
            ASK         END         writing fails                                 "disconnected"
            START       SEND        a new picture, a hello or the keepalive is
                                    due and the wire and the port's queue allow
            START       WAIT        nothing due; released; WLED lost; an
                                    unknown device still looked for
            START       END         the port fails                                "disconnected"
            SEND        LISTEN      bytes taken (the last: a frame through)       "stalled" -> "connected"
            SEND        LISTEN      nothing taken (for stall_s: stalled)          "stalled" + advice
            SEND        END         writing fails                                 "disconnected"
            WAIT        LISTEN      a new picture, release(), close(), time

        :class:`~firmware_bridge.ddp.DdpLink` goes OPENED, LISTEN (it reads nothing),
        START (which sends a whole frame and goes to LISTEN), WAIT.
        """
        steps: dict[WriterState, Callable[[_Conn], WriterState]] = {
            WriterState.OPENED: self._opened,
            WriterState.LISTEN: self._listen,
            WriterState.IDLE: self._idle,
            WriterState.SWITCH: self._switch,
            WriterState.UNANSWERED: self._unanswered,
            WriterState.ASK: self._ask,
            WriterState.START: self._start,
            WriterState.SEND: self._send,
            WriterState.WAIT: self._wait,
        }
        conn = _Conn(port, found)
        state = WriterState.OPENED
        while state is not WriterState.END:
            state = steps[state](conn)
        return conn.delivered, conn.error

    # The states of the writer on one open port: each returns the next (see _serve).

    def _opened(self, c: _Conn) -> WriterState:
        """OPENED: a fresh connection; what is known of the device comes from ``locate``."""
        now = self.clock.now()
        c.fd = self._fd_of(c.port)
        c.kind = c.found.kind
        c.baud = c.found.baudrate or self.baudrate
        c.next_allowed = c.last_progress = c.connected_at = c.quiet_until = now
        c.ask_due = now if c.kind != "adalight" else float("inf")
        c.hunt = baud_hunt(self.baudrate, self.wled_baud) if self.wled_baud else [self.baudrate]
        # An unknown device is asked at each rate twice before it is taken for an Adalight sketch.
        c.give_up_after = 2 * len(c.hunt) if self.wled_baud else 3
        try:
            c.port.reset_input_buffer()  # stale boot chatter
        except PORT_ERRORS as exc:
            return c.fail(f"reset_input_buffer failed: {_error_text(exc)}")
        return WriterState.LISTEN

    def _listen(self, c: _Conn) -> WriterState:
        """LISTEN: read what the device said, then take the caller's newest picture."""
        try:
            lines, garbage = self._drain(c.port, c.rx)
        except PORT_ERRORS as exc:
            return c.fail(f"read failed: {_error_text(exc)}")
        if garbage:
            self._heard_garbage(c, garbage)
        for line in lines:
            self._heard_line(c, line)
        if not self._take_picture(c):
            return WriterState.END
        return WriterState.SEND if c.pending is not None else WriterState.IDLE

    def _idle(self, c: _Conn) -> WriterState:
        """IDLE: between frames, where WLED's parser reads a command byte as a command."""
        if (c.kind == "wled" and self.wled_baud and c.baud != self.wled_baud and not c.switch_failed
                and c.asked_at is None and c.unanswered == 0 and self._answers):
            return WriterState.SWITCH
        if c.asked_at is not None and c.now - c.asked_at > _ANSWER_S:
            return WriterState.UNANSWERED
        return WriterState.ASK

    def _switch(self, c: _Conn) -> WriterState:
        """SWITCH: send WLED its one-byte command for ``wled_baud``, then follow it there."""
        try:
            self._write_all(c.port, c.fd, bytes([BAUD_COMMANDS[self.wled_baud]]))
            self._sleep(max(0.02, 30 * 10.0 / c.baud))  # "Baud is now ..." then WLED restarts its UART
        except serial.SerialTimeoutException:
            c.switch_failed = True  # the device takes nothing now: stay at the start rate
            return WriterState.LISTEN
        except PORT_ERRORS as exc:
            return c.fail(f"baud switch failed: {_error_text(exc)}")
        problem = self._set_rate(c, self.wled_baud)
        if problem:
            return c.fail(problem)
        log.info("LED: asked WLED on %s to switch to %d baud", c.found.url, self.wled_baud)
        c.asked_at, c.ask_due = None, self.clock.now()
        return WriterState.LISTEN

    def _unanswered(self, c: _Conn) -> WriterState:
        """UNANSWERED: a question went without an answer; twice at the rate WLED answered
        at, then once at each rate of the hunt, the rate moves on."""
        c.asked_at = None
        c.unanswered += 1
        if c.kind == "wled" and c.unanswered == 2:
            with self._lock:
                self._answers = False
            log.warning("LED: WLED on %s stopped answering at %d baud", c.found.url, c.baud)
        hunting = bool(self.wled_baud) and c.kind != "adalight" and (
            c.kind == "wled" or c.unanswered <= c.give_up_after)
        if hunting and c.unanswered >= 2 and (c.unanswered % 2 == 0 or c.kind == "wled"):
            problem = self._set_rate(c, self._hunt_target(c))
            if problem:
                return c.fail(problem)
        if c.kind == "" and c.unanswered >= c.give_up_after:
            c.ask_due = float("inf")  # never answers: an Adalight sketch without its hello
            problem = self._set_rate(c, self.baudrate)
            if problem:
                return c.fail(problem)
        else:
            c.ask_due = c.now + (0.05 if c.kind == "wled" or self.wled_baud else 0.3)
        return WriterState.ASK

    def _ask(self, c: _Conn) -> WriterState:
        """ASK: send ``v`` when a question is due: after a frame went through, while an
        unknown device is looked for, or half a second into a link with nothing to show."""
        # With wled_baud, an unknown device gets no frame while it is looked for at each
        # rate: bytes at a wrong rate would reach a WLED as commands.
        c.holding = bool(self.wled_baud) and c.kind == "" and c.ask_due != float("inf")
        if c.asked_at is None and c.now >= c.ask_due and (
                c.delivered or c.holding or ((c.frame is None or c.released) and c.now - c.connected_at > 0.5)):
            try:
                self._write_all(c.port, c.fd, VERSION_COMMAND)
                c.asked_at = c.now
            except serial.SerialTimeoutException:
                pass  # the device takes nothing now (stalled): ask later, it is no loss
            except PORT_ERRORS as exc:
                return c.fail(f"write failed: {_error_text(exc)}")
            c.ask_due = c.now + self.heartbeat_s
        return WriterState.START

    def _start(self, c: _Conn) -> WriterState:
        """START: begin the next frame when one is due, the wire is through the last one
        and the port's output queue is nearly empty."""
        frame = c.frame
        lost_wled = c.kind == "wled" and bool(self.wled_baud) and self._answers is False
        if frame is None or c.released or lost_wled or c.holding or not self._frame_due(c):
            return WriterState.WAIT
        try:
            queued = self._out_waiting(c.port)
        except PORT_ERRORS as exc:
            return c.fail(f"out_waiting failed: {_error_text(exc)}")
        if queued is not None and queued > max(64, len(frame) // 8):
            return WriterState.WAIT
        c.pending = memoryview(frame)
        c.pending_frame, c.pending_seq, c.pending_at = frame, c.seq, c.frame_at
        c.new_picture = frame != c.last_bytes
        wire = len(frame) * 10.0 / c.baud if self.pace else 0.0
        # Paced from the planned start when the writer woke a little late, so the average
        # rate is the wire's (never more than one frame ahead).
        base = c.next_allowed if 0 <= c.now - c.next_allowed < wire else c.now
        c.next_allowed = base + wire + self.frame_gap_s
        c.last_progress = c.now
        return WriterState.SEND

    def _send(self, c: _Conn) -> WriterState:
        """SEND: write what the device takes of the frame under way (never cut, never
        sent twice); a device that takes nothing for ``stall_s`` is "stalled"."""
        assert c.pending is not None
        chunk = max(64, int(c.baud / 10 * 0.02))
        try:
            taken = self._write_some(c.port, c.fd, c.pending, chunk)
        except PORT_ERRORS as exc:
            return c.fail(f"write failed: {_error_text(exc)}")
        now = self.clock.now()
        if taken:
            c.pending = c.pending[taken:]
            c.last_progress = now
            if self._state == "stalled":
                self._set_state("connected")
            if len(c.pending) == 0:
                c.pending = None
                c.delivered = True
                c.force = False
                c.last_seq, c.last_bytes, c.last_done = c.pending_seq, c.pending_frame, now
                self._frame_through(now - c.pending_at if c.new_picture else None)
            return WriterState.LISTEN
        if now - c.last_progress >= self.stall_s and self._state != "stalled":
            self._set_state(
                "stalled",
                error=f"write timed out: the device took no byte for {self.stall_s:.2g} s (not reading)",
            )
        self._wait_writable(c.fd, min(self.poll_s, max(0.001, chunk * 10.0 / c.baud)))
        return WriterState.LISTEN

    def _wait(self, c: _Conn) -> WriterState:
        """WAIT: nothing to write now: wait for a new picture, the wire, the keepalive or a question."""
        waits = [self.poll_s]
        if c.frame is not None and not c.released:
            waits.append(max(0.0, c.next_allowed - c.now))
            waits.append(max(0.0, c.last_done + self.keepalive_s - c.now))
        if c.ask_due != float("inf"):
            waits.append(max(0.0, c.ask_due - c.now))
        wait = max(0.0005, min(waits))
        with self._lock:
            if not self._stopping and self._seq == c.seq and self._released == c.released:
                self.clock.wait(self._wake, wait)
        return WriterState.LISTEN

    # What the states share.

    def _take_picture(self, c: _Conn) -> bool:
        """Take the caller's newest picture into ``c`` at the clock's now; False after close()."""
        c.now = self.clock.now()
        with self._lock:
            if self._stopping:
                return False
            c.frame, c.seq, c.frame_at, c.released = self._frame, self._seq, self._frame_at, self._released
        return True

    def _frame_due(self, c: _Conn) -> bool:
        """True when the picture in ``c`` should be sent now: new, forced (a fresh connection,
        a hello) or the keepalive, and the wire is through the last frame."""
        if c.seq != c.last_seq and c.frame == c.last_bytes:
            c.last_seq = c.seq  # same picture shown again: nothing new to send
        due = c.force or c.seq != c.last_seq or c.now - c.last_done >= self.keepalive_s
        return due and c.now >= c.next_allowed

    def _frame_through(self, latency: float | None) -> None:
        """Count a frame written in full (``latency``: seconds since its picture was
        shown, None when it showed no new picture); the link is "connected"."""
        with self._lock:
            self._frames_sent += 1
            if latency is not None:
                self._latencies.append(latency)
            if self._state not in ("connected", "released", "closed"):
                self._set_state_locked("connected")

    def _heard_garbage(self, c: _Conn, garbage: int) -> None:
        """``garbage`` bytes no controller prints were read: with ``wled_baud``, the rate is wrong."""
        if not self.wled_baud or self.clock.now() < c.quiet_until:
            return
        if c.kind != "adalight" and c.asked_at is not None:
            # The device prints at another rate (WLED answering "v" there, or a restart's
            # chatter): this rate is wrong, try the next one at once.
            log.info("LED: %d garbled bytes from %s at %d baud: looking for WLED at another rate",
                     garbage, c.found.url, c.baud)
            c.asked_at = self.clock.now() - _ANSWER_S - 1.0
            c.unanswered = max(c.unanswered, 1)
        elif c.kind == "wled":
            c.ask_due = self.clock.now()  # WLED printing garbage between questions: ask now

    def _heard_line(self, c: _Conn, line: bytes) -> None:
        """A line from the device: ``Ada`` (an Adalight sketch, resend at once) or ``WLED ...``."""
        if is_hello(line):
            c.force = True
            with self._lock:
                self._hellos += 1
                if not self._device:
                    self._device = "Adalight"
                    log.info("LED controller on %s says Ada: an Adalight device", c.found.url)
            if c.kind == "":
                c.kind, c.ask_due = "adalight", float("inf")
        elif is_version_line(line):
            text = line.strip().decode("latin-1")
            c.asked_at, c.unanswered, c.hunt_i = None, 0, 0
            if c.baud == self.wled_baud:
                c.fast_confirmed = True
            if c.kind != "wled":
                log.info("LED controller on %s is %s at %d baud", c.found.url, text, c.baud)
                c.force = True
            c.kind = "wled"
            c.ask_due = self.clock.now() + self.heartbeat_s
            with self._lock:
                self._device, self._answers = text, True

    def _hunt_target(self, c: _Conn) -> int:
        """The rate to ask at next after WLED restarted (back at its start rate, or moved to
        another rate by the bytes it heard at the wrong one), the arcade restarted while WLED
        runs at the fast rate, or the switch did not take."""
        if c.baud == self.wled_baud and c.kind == "wled" and not c.fast_confirmed:
            c.fast_unconfirmed += 1
        if c.fast_unconfirmed >= 2 and not c.switch_failed:
            # Twice switched and never heard there (a restart can explain once).
            c.switch_failed = True
            log.warning("LED: WLED does not answer at %d baud: staying at %d "
                        "(set [led] wled_baud = 0 if the USB adapter cannot carry it)",
                        self.wled_baud, self.baudrate)
        if c.switch_failed and c.baud == self.wled_baud:
            return self.baudrate
        # The next rate of the hunt after c.baud (the start rate first after each loss).
        rates = [r for r in c.hunt if not (c.switch_failed and r == self.wled_baud)] or [self.baudrate]
        for _ in range(len(rates) + 1):
            target = rates[c.hunt_i % len(rates)]
            c.hunt_i += 1
            if target != c.baud:
                return target
        return c.baud

    def _set_rate(self, c: _Conn, target: int) -> str:
        """Set the port to ``target`` baud; "" or the error."""
        if target == c.baud:
            return ""
        try:
            c.port.baudrate = target
            c.port.reset_input_buffer()  # bytes read at the old rate are no answer at the new one
        except PORT_ERRORS as exc:
            return f"baud change failed: {_error_text(exc)}"
        c.baud = target
        c.rx = bytearray()
        c.quiet_until = self.clock.now() + 0.1
        with self._lock:
            self._baud_now = c.baud
        return ""

    def _write_all(self, port: Any, fd: int | None, data: bytes) -> None:
        """Write a few control bytes (a command) completely, waiting for room."""
        view = memoryview(data)
        deadline = self.clock.now() + min(self.write_timeout, 0.1)
        while len(view):
            taken = self._write_some(port, fd, view, len(view))
            view = view[taken:]
            if len(view) and self.clock.now() > deadline:
                raise serial.SerialTimeoutException("command not taken")
            if len(view):
                self._wait_writable(fd, 0.005)
