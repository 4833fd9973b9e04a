"""The serial link to the LED matrix controller: never blocks the game, survives unplugging.

The game loop calls :meth:`LedLink.show` once a frame.  ``show`` encodes the
pixels (Adalight, :mod:`firmware_bridge.adalight`), keeps them as the latest
frame and returns: it does no I/O on the caller's thread.  One background
writer thread owns the port:

* it opens the port with pyserial (``serial_for_url``: a device path,
  ``loop://``, ``socket://``, ``spy://`` ...), ``write_timeout`` set, exclusive
  access where the platform has it, non-blocking reads;
* it writes the latest frame when it changes (frames shown in between are
  skipped: latest frame wins), no faster than the wire carries them at
  ``baudrate`` plus ``frame_gap_s``;
* it resends the last frame at least every ``keepalive_s`` (WLED leaves
  realtime mode after 2.5 s without a frame);
* a write that times out (the device stopped reading: case **L-1**) is counted
  and the state becomes ``"stalled"`` until a write goes through again; the
  next attempt starts with one frame length of zero bytes so the receiver's
  decoder finishes the cut frame and locks on to the fresh one at once.
  ``flush()`` (tcdrain) is never called: it has no timeout and would hang on
  a stalled device;
* any port failure (case **L-2**: after an unplug pyserial raises
  ``SerialException``, a bare ``OSError`` and ``termios.error``, which is not an
  ``OSError``) closes the port, sets ``"disconnected"`` and reopens it after the
  ``backoff`` delays (the last one repeats).  ``locate`` (e.g.
  ``lambda: find_port_by_usb_id(0x303A, 0x1001)``) finds the port again before
  every attempt, since a replugged device may get another name;
* it drains what the device sends without blocking; an ``Ada`` hello line
  (the device rebooted) makes it resend the frame at once.

``status()`` gives a :class:`LinkStatus` snapshot for the admin screen.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

import serial
import serial.tools.list_ports

from firmware_bridge.adalight import RGB, encode_frame, is_hello
from firmware_bridge.errors import LinkSettingsError
from firmware_bridge.layout import MatrixLayout

try:
    import termios

    _TermiosError: type[BaseException] = termios.error
except ImportError:  # pragma: no cover - not POSIX

    class _NoTermiosError(Exception):
        """Stands in for termios.error where there is no termios."""

    _TermiosError = _NoTermiosError

PORT_ERRORS: tuple[type[BaseException], ...] = (serial.SerialException, OSError, _TermiosError)
"""What a serial port raises when it fails or disappears (case L-2).

``termios.error`` is not an ``OSError``, so catching ``OSError`` alone misses
the error that ``reset_input_buffer()`` / ``flush()`` raise after an unplug.
"""

STATES = ("off", "connecting", "connected", "stalled", "disconnected", "closed")
"""The values of :attr:`LinkStatus.state`."""

_RX_LINE_LIMIT = 256  # bytes of an unfinished device line kept while looking for "Ada"


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
    """A snapshot of the link for the admin screen and the logs.

    ``state``: one of :data:`STATES` (``"off"`` for a link with no port,
    ``"stalled"`` while writes time out, ``"disconnected"`` while waiting to
    reopen).  ``url``: the port in use or last tried (``None`` when off).
    ``frames_sent``: frames written in full, keepalive resends included.
    ``write_timeouts``: writes that timed out (L-1).  ``reconnects``: times the
    port was opened again after it was lost (L-2).  ``last_error``: the text of
    the last fault (``""`` if none).  ``since``: ``time.monotonic()`` seconds
    when ``state`` last changed.  ``hellos``: ``Ada`` boot lines seen from the
    device.
    """

    state: str
    url: str | None
    frames_sent: int
    write_timeouts: int
    reconnects: int
    last_error: str
    since: float
    hellos: int = 0


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


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


class LedLink:
    """A serial link to an LED controller that never blocks the caller.

    ``url``: a pyserial port or URL (``"/dev/ttyACM0"``, ``"loop://"``,
    ``"socket://host:port"``); ``None`` or ``"none"`` (with no ``locate``)
    makes a no-op link whose status is ``"off"``.  ``baudrate`` in bit/s
    (921600 for an ESP32 running WLED; 500000 for an Arduino Uno/Nano).
    ``locate``: called before every (re)open, returns the port to open or
    ``None`` if the device is absent; its answer replaces ``url``.
    ``write_timeout`` (s): how long one write may wait for a device that is not
    reading.  ``keepalive_s`` (s): the longest time between two frames (keep it
    under WLED's 2.5 s realtime timeout).  ``backoff`` (s): delays before
    successive reopen attempts, the last one repeating; back to the first once
    a frame went through.  ``open_fn``: makes the port (tests pass fakes).
    ``layout``: the :class:`MatrixLayout` used by :meth:`show_picture`.
    ``pace``: never start a frame before the previous one is through the wire;
    ``frame_gap_s`` (s): extra quiet time after each frame (about 0.01 for the
    FastLED Adalight sketch, which drops input while it updates the LEDs).

    The writer thread starts at once; :meth:`close` stops it.  Raises
    :class:`LinkSettingsError` for a setting out of range.  Rules: field
    reports L-1 (write that never returns) and L-2 (unplugged).
    """

    def __init__(
        self,
        url: str | None,
        baudrate: int = 921600,
        *,
        locate: Callable[[], str | None] | None = None,
        write_timeout: float = 0.25,
        keepalive_s: float = 1.0,
        backoff: Sequence[float] = (0.25, 0.5, 1, 2, 4),
        open_fn: Callable[..., Any] = serial.serial_for_url,
        layout: MatrixLayout | None = None,
        pace: bool = True,
        frame_gap_s: float = 0.0,
        poll_s: float = 0.05,
    ) -> None:
        if isinstance(baudrate, bool) or not isinstance(baudrate, int) or baudrate <= 0:
            raise LinkSettingsError("baudrate", baudrate, "a positive int (bit/s), e.g. 921600")
        self.write_timeout = _positive("write_timeout", write_timeout)
        self.keepalive_s = _positive("keepalive_s", keepalive_s)
        self.poll_s = _positive("poll_s", poll_s)
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
        self.backoff: tuple[float, ...] = tuple(float(d) for d in delays)
        self.frame_gap_s = float(frame_gap_s)
        self.pace = bool(pace)
        self.layout = layout if layout is not None else MatrixLayout()
        self._url = url
        self._locate = locate
        self._open_fn = open_fn
        self.off = locate is None and (url is None or url.strip().lower() in ("", "none"))

        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._frame: bytes | None = None
        self._seq = 0
        self._stopping = False
        self._closed = False
        self._port: Any = None

        now = time.monotonic()
        self._state = "off" if self.off else "connecting"
        self._status_url: str | None = None if self.off else url
        self._frames_sent = 0
        self._write_timeouts = 0
        self._reconnects = 0
        self._hellos = 0
        self._last_error = ""
        self._since = now

        self._thread: threading.Thread | None = None
        if not self.off:
            self._thread = threading.Thread(target=self._run, name="led-link-writer", daemon=True)
            self._thread.start()

    # ------------------------------------------------------------------ caller side

    def show(self, pixels: Sequence[RGB]) -> None:
        """Make ``pixels`` (chain order, ``(r, g, b)`` 0..255) the frame to display.

        Encodes on the caller's thread (so a bad frame raises
        :class:`~firmware_bridge.errors.FrameError` here) and returns without any
        I/O: the writer thread sends it when it can.  A newer ``show`` replaces a
        frame not yet sent.  After :meth:`close` it does nothing.
        """
        frame = encode_frame(pixels)
        with self._lock:
            if self._closed:
                return
            self._frame = frame
            self._seq += 1
            self._wake.notify_all()

    def show_picture(self, picture: Sequence[Sequence[RGB]]) -> None:
        """Like :meth:`show` for a row-major picture, mapped through ``self.layout``.

        Raises :class:`~firmware_bridge.errors.LayoutError` for a picture of the
        wrong shape.
        """
        self.show(self.layout.to_chain(picture))

    def status(self) -> LinkStatus:
        """A consistent snapshot of the link's state and counters."""
        with self._lock:
            return LinkStatus(
                state=self._state,
                url=self._status_url,
                frames_sent=self._frames_sent,
                write_timeouts=self._write_timeouts,
                reconnects=self._reconnects,
                last_error=self._last_error,
                since=self._since,
                hellos=self._hellos,
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
        return f"<LedLink {s.url!r} {self.baudrate} baud {s.state}, {s.frames_sent} frames>"

    # ------------------------------------------------------------------ writer side

    def _set_state(self, state: str, *, error: str | None = None, url: str | None = None) -> None:
        with self._lock:
            self._set_state_locked(state, error=error, url=url)

    def _set_state_locked(self, state: str, *, error: str | None = None, url: str | None = None) -> None:
        if self._state == "closed":
            return
        if state != self._state:
            self._state = state
            self._since = time.monotonic()
        if error is not None:
            self._last_error = error
        if url is not None:
            self._status_url = url

    def _stop_requested(self) -> bool:
        with self._lock:
            return self._stopping

    def _sleep(self, seconds: float) -> bool:
        """Wait ``seconds`` unless close() is called; True if stopping."""
        deadline = time.monotonic() + seconds
        with self._lock:
            while not self._stopping:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._wake.wait(left)
            return self._stopping

    def _find_url(self) -> tuple[str | None, str]:
        if self._locate is None:
            return self._url, ""
        try:
            found = self._locate()
        except Exception as exc:  # noqa: BLE001 - user code must not kill the writer
            return None, f"locate failed: {_error_text(exc)}"
        if found is None:
            return None, "device not found"
        return str(found), ""

    def _open(self, url: str) -> tuple[Any, str]:
        try:
            port = self._open_fn(
                url,
                self.baudrate,
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
            url, problem = self._find_url()
            port = None
            if url is not None:
                self._set_state("connecting", url=url)
                port, problem = self._open(url)
            if port is None:
                self._set_state("disconnected", error=problem)
                delay = self.backoff[min(attempt, len(self.backoff) - 1)]
                attempt += 1
                if self._sleep(delay):
                    break
                continue
            with self._lock:
                self._port = port
                if had_connection:
                    self._reconnects += 1
                self._set_state_locked("connected")
            had_connection = True
            try:
                delivered, problem = self._serve(port)
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

    def _drain(self, port: Any, rx: bytearray) -> bool:
        """Read what the device sent (never blocks); True if it said hello."""
        waiting = port.in_waiting
        if not waiting:
            return False
        data = port.read(min(int(waiting), 4096))
        if not data:
            return False
        rx += data
        hello = False
        *lines, rest = bytes(rx).split(b"\n")
        for line in lines:
            if is_hello(line):
                hello = True
        rx[:] = rest[-_RX_LINE_LIMIT:]
        if hello:
            with self._lock:
                self._hellos += 1
        return hello

    def _serve(self, port: Any) -> tuple[bool, str]:
        """Write frames to an open port until it fails or close(); (delivered any, error)."""
        delivered = False
        rx = bytearray()
        last_seq = -1
        last_bytes: bytes | None = None
        last_send = float("-inf")
        next_allowed = 0.0
        force = True  # a fresh connection: the device may have reset, send at once
        pad = False
        try:
            port.reset_input_buffer()  # stale boot chatter
        except PORT_ERRORS as exc:
            return delivered, f"reset_input_buffer failed: {_error_text(exc)}"
        while True:
            try:
                if self._drain(port, rx):
                    force = True
            except PORT_ERRORS as exc:
                return delivered, f"read failed: {_error_text(exc)}"
            with self._lock:
                if self._stopping:
                    return delivered, ""
                frame, seq = self._frame, self._seq
            now = time.monotonic()
            due: float | None = None
            if frame is not None:
                if seq != last_seq and frame == last_bytes:
                    last_seq = seq  # same picture shown again: nothing new to send
                if force or seq != last_seq:
                    due = max(now, next_allowed)
                else:
                    due = last_send + self.keepalive_s
            if frame is not None and due is not None and now >= due:
                data = bytes(len(frame)) + frame if pad else frame
                started = time.monotonic()
                try:
                    port.write(data)
                except serial.SerialTimeoutException as exc:
                    with self._lock:
                        self._write_timeouts += 1
                        self._set_state_locked(
                            "stalled",
                            error=f"write timed out after {self.write_timeout:g} s "
                            f"(device not reading): {exc}",
                        )
                    # The cut frame stays queued; the zero pad lets the receiver
                    # finish it and lock on to the next header at once.  The
                    # output buffer is not flushed: a flush would make room and
                    # hide a stall that is still going on.
                    pad = True
                    force = True
                    continue
                except PORT_ERRORS as exc:
                    return delivered, f"write failed: {_error_text(exc)}"
                delivered = True
                pad = False
                force = False
                last_seq, last_bytes = seq, frame
                last_send = time.monotonic()
                if self.pace:
                    next_allowed = started + len(data) * 10.0 / self.baudrate  # 8N1
                else:
                    next_allowed = last_send
                next_allowed += self.frame_gap_s
                with self._lock:
                    self._frames_sent += 1
                    if self._state != "connected":
                        self._set_state_locked("connected")
                continue
            wait = self.poll_s if due is None else min(self.poll_s, max(0.0, due - now))
            with self._lock:
                if not self._stopping and self._seq == seq and wait > 0:
                    self._wake.wait(wait)
