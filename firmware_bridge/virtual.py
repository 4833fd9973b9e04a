"""A virtual LED matrix on a pseudo-terminal, for laptops, demos and tests.

:class:`VirtualMatrix` opens a pty pair (``os.openpty()``, both ends raw).  The
link opens the slave end (:attr:`VirtualMatrix.port`, e.g. ``/dev/pts/3``) as
if it were the controller's USB serial port; the matrix reads the master end,
decodes Adalight exactly as a device would and keeps the latest picture.

A pty behaves like a real port where it matters (a USB CDC serial port as the
LED controllers present it): it buffers about 10 KB, a write
blocks when nobody reads (:meth:`VirtualMatrix.pause`, case L-1), and closing
the master end (:meth:`VirtualMatrix.unplug`) makes the link's port fail with
``SerialException``, ``OSError`` and ``termios.error`` just as a USB unplug
does (case L-2).  :meth:`VirtualMatrix.replug` brings a *new* pty with a new
path, like a board that comes back as ``ttyACM1``.

A pty has no baud rate; give ``baudrate`` to make the matrix read no faster
than a real wire at that rate (8N1: 10 bits a byte).

``firmware="wled"`` makes the matrix act as stock WLED: the bytes go through
:class:`~firmware_bridge.wled.WledSerialModel` (commands run, ``v`` answered,
baud commands obeyed), the matrix listens at 115200 baud and ignores what the
link sends at any other rate (the pty carries the link's termios speed), and
:meth:`VirtualMatrix.reboot` brings it back to 115200 as a power cycle does.
With ``wrong_baud="garble"`` it hears instead what a real UART hears from bytes
sent at another rate (:func:`firmware_bridge.uart.misread`: other bytes, some of
them commands), and the link reads WLED's answers garbled the same way.

POSIX only (Linux, macOS).
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from typing import Sequence

from firmware_bridge.adalight import HELLO, MAX_LEDS, RGB, AdalightDecoder
from firmware_bridge.errors import LinkSettingsError
from firmware_bridge.uart import misread
from firmware_bridge.wled import WledSerialModel

Picture = tuple[tuple[RGB, ...], ...]
"""Rows of ``(r, g, b)``, row 0 at the top (row-major, as sent)."""


class LedPicture(tuple):  # type: ignore[type-arg]
    """A :data:`Picture` that also carries its pixels as RGB bytes, row-major (``raw``),
    so a screen can draw it in one blit without reading 4096 tuples."""

    raw: bytes

_SELECT_S = 0.02  # longest time the reader holds the pty before looking at its flags again


def _colour_char(pixel: RGB) -> str:
    r, g, b = pixel
    top = max(r, g, b)
    if top < 16:
        return "."
    half = top / 2
    if r >= half and b < half and 0.35 * top <= g < 0.75 * top:
        letter = "o"  # orange: red with some green
    else:
        letter = {
            (True, False, False): "r",
            (False, True, False): "g",
            (False, False, True): "b",
            (True, True, False): "y",
            (True, False, True): "m",
            (False, True, True): "c",
            (True, True, True): "w",
        }[(r >= half, g >= half, b >= half)]
    return letter.upper() if top >= 128 else letter


def render_text(picture: Sequence[Sequence[RGB]]) -> str:
    """Small ASCII art of a picture, one character a pixel, one line a row.

    ``.`` is off (every channel < 16); a letter names the hue: ``R`` red,
    ``G`` green, ``B`` blue, ``Y`` yellow, ``O`` orange, ``M`` magenta/purple,
    ``C`` cyan, ``W`` white; upper case when the brightest channel is >= 128,
    lower case when dimmer.  For debugging and test failure messages.

    >>> print(render_text([[(255, 0, 0), (0, 0, 0)], [(0, 40, 0), (255, 255, 255)]]))
    R.
    gW
    """
    return "\n".join("".join(_colour_char(p) for p in row) for row in picture)


class VirtualMatrix:
    """A ``width`` x ``height`` LED matrix behind a pty, decoding Adalight.

    ``port``: the path for the link to open.  ``latest``: the last complete
    frame as rows (row-major, as sent), ``None`` before the first one;
    ``latest_chain`` the same pixels as one list.  ``frames`` / ``garbage_bytes``:
    the decoder's counters (kept across :meth:`replug`).  Frames for another
    LED count than ``width * height`` count as garbage, as on a real chain.

    ``threaded`` (default): a daemon thread reads the pty; otherwise call
    :meth:`poll` (e.g. once a kiosk frame).  ``baudrate``: read no faster than
    a wire at that rate (``None``: as fast as possible).  ``hello_on_plug``:
    say ``Ada`` on :meth:`replug` like a booting device.

    Raises :class:`LinkSettingsError` for a size outside 1..65536 LEDs or a bad
    baud rate.
    """

    def __init__(
        self,
        width: int = 16,
        height: int = 16,
        *,
        threaded: bool = True,
        baudrate: int | None = None,
        hello_on_plug: bool = False,
        firmware: str = "adalight",
        wrong_baud: str = "ignore",
    ) -> None:
        for key, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise LinkSettingsError(key, value, "a positive int (LEDs)")
        if width * height > MAX_LEDS:
            raise LinkSettingsError("width x height", (width, height), f"at most {MAX_LEDS} LEDs")
        if baudrate is not None and (
            isinstance(baudrate, bool) or not isinstance(baudrate, int) or baudrate <= 0
        ):
            raise LinkSettingsError("baudrate", baudrate, "None or a positive int (bit/s)")
        if firmware not in ("adalight", "wled"):
            raise LinkSettingsError("firmware", firmware, "'adalight' or 'wled'")
        if wrong_baud not in ("ignore", "garble"):
            raise LinkSettingsError("wrong_baud", wrong_baud, "'ignore' or 'garble'")
        self.wrong_baud = wrong_baud
        self.width = width
        self.height = height
        self.firmware = firmware
        self.wled: WledSerialModel | None = WledSerialModel(width * height) if firmware == "wled" else None
        self.ignored_bytes = 0  # bytes sent at a baud the WLED emulation was not listening at
        self.received = bytearray() if firmware == "wled" else None  # what the WLED emulation heard
        self.baudrate = baudrate
        self.hello_on_plug = hello_on_plug
        self.decoder = AdalightDecoder(leds=width * height)
        self.latest: Picture | None = None
        self.latest_chain: tuple[RGB, ...] | None = None

        self._io_lock = threading.Lock()  # held while the master fd is used or swapped
        self._cond = threading.Condition()  # frame arrivals
        self._paused = False
        self._closed = False
        self._stop = threading.Event()
        self._budget = 0.0
        self._budget_at = time.monotonic()
        self._old_slave: int | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._port = ""
        self._open_pty()

        self._thread: threading.Thread | None = None
        if threaded:
            self._thread = threading.Thread(target=self._reader, name="virtual-matrix", daemon=True)
            self._thread.start()

    # ------------------------------------------------------------------ properties

    @property
    def port(self) -> str:
        """Path of the pty slave to open as the serial port (changes on :meth:`replug`)."""
        return self._port

    @property
    def present(self) -> bool:
        """False between :meth:`unplug` and :meth:`replug` (and after :meth:`close`)."""
        return self._master is not None

    @property
    def frames(self) -> int:
        """Frames decoded so far (all ptys of this matrix)."""
        if self.wled is not None:
            return len(self.wled.frames)
        return self.decoder.frames

    @property
    def garbage_bytes(self) -> int:
        """Bytes that were not part of a decoded frame."""
        return self.decoder.garbage_bytes

    def __repr__(self) -> str:
        state = "present" if self.present else "unplugged"
        return f"<VirtualMatrix {self.width}x{self.height} {self._port} {state}, {self.frames} frames>"

    # ------------------------------------------------------------------ pty handling

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._port = os.ttyname(slave)
        if self._old_slave is not None:
            # Held until now so the new pty cannot get the old number: a new path.
            os.close(self._old_slave)
            self._old_slave = None

    def unplug(self) -> None:
        """Close the master end: the link's port fails as after a USB unplug (L-2).

        The old path disappears; :meth:`replug` makes a new one.  Idempotent.
        """
        with self._io_lock:
            if self._master is None:
                return
            os.close(self._master)
            self._master = None
            self._old_slave, self._slave = self._slave, None
            self.decoder.reset()

    def replug(self) -> str:
        """Plug in again: a NEW pty (new :attr:`port` path); returns that path.

        Unplugs first if needed.  With ``hello_on_plug`` the matrix says ``Ada``.
        """
        if self._closed:
            raise LinkSettingsError("replug", self._port, "a VirtualMatrix that is not closed")
        self.unplug()
        with self._io_lock:
            self._open_pty()
            self.decoder.reset()
        if self.hello_on_plug:
            self.send_hello()
        return self._port

    def pause(self) -> None:
        """Stop reading: the pty fills up and the link's writes time out (L-1)."""
        self._paused = True

    def resume(self) -> None:
        """Read again after :meth:`pause`."""
        self._paused = False

    def reboot(self) -> None:
        """WLED only: a power cycle (back to 115200 baud, parser idle); the pty stays."""
        if self.wled is not None:
            with self._io_lock:
                frames = self.wled.frames
                self.wled.reboot()
                self.wled.frames = frames

    def _link_baud(self, master: int) -> int | None:
        try:
            import termios

            speed = termios.tcgetattr(master)[5]
        except Exception:  # noqa: BLE001 - not a tty
            return None
        for name in dir(termios):
            if name.startswith("B") and name[1:].isdigit() and getattr(termios, name) == speed:
                return int(name[1:])
        return None

    def send_hello(self) -> None:
        """Send ``Ada\\n`` to the host, as a device does when it (re)boots."""
        with self._io_lock:
            if self._master is not None:
                try:
                    os.write(self._master, HELLO)
                except OSError:
                    pass

    # ------------------------------------------------------------------ reading

    def _allowance(self) -> int:
        """Bytes the emulated wire may deliver now (unlimited without a baud rate)."""
        if self.baudrate is None:
            return 1 << 16
        now = time.monotonic()
        rate = self.baudrate / 10.0
        cap = max(64.0, rate * 0.02)
        self._budget = min(cap, self._budget + (now - self._budget_at) * rate)
        self._budget_at = now
        return int(self._budget)

    def _read_once(self, wait_s: float) -> int:
        """Read and decode what is waiting (wait up to ``wait_s``); frames completed."""
        with self._io_lock:
            master = self._master
            if master is None or self._paused or self._closed:
                return 0
            allowance = self._allowance()
            if allowance < 1:
                return 0
            try:
                ready, _, _ = select.select([master], [], [], wait_s)
                if not ready:
                    return 0
                data = os.read(master, allowance)
            except (OSError, ValueError):
                return 0
            if self.baudrate is not None:
                self._budget -= len(data)
            if self.wled is not None:
                model = self.wled
                link_baud = self._link_baud(master)
                heard_at = model.baud
                if link_baud not in (None, heard_at):
                    self.ignored_bytes += len(data)
                    if self.wrong_baud == "ignore":
                        return 0
                    assert link_baud is not None
                    data = misread(data, link_baud, heard_at)  # what WLED's UART makes of it
                assert self.received is not None
                self.received += data
                before = len(model.frames)
                model.feed(data)
                decoded = list(model.frames[before:])
                if model.replies:
                    reply = bytes(model.replies)
                    if self.wrong_baud == "garble" and link_baud not in (None, heard_at):
                        assert link_baud is not None
                        reply = misread(reply, heard_at, link_baud)  # printed at WLED's rate
                    try:
                        os.write(master, reply)
                    except OSError:
                        pass
                    model.replies.clear()
            else:
                decoded = self.decoder.feed(data)
        if decoded:
            chain = decoded[-1]
            rows = LedPicture(
                tuple(chain[y * self.width : (y + 1) * self.width]) for y in range(self.height)
            )
            rows.raw = getattr(self.decoder, "last_body", b"")
            with self._cond:
                self.latest_chain = chain
                self.latest = rows
                self._cond.notify_all()
        return len(decoded)

    def _reader(self) -> None:
        while not self._stop.is_set():
            if self._master is None or self._paused:
                self._stop.wait(_SELECT_S)
                continue
            got = self._read_once(_SELECT_S)
            if self.baudrate is not None and got == 0 and self._budget < 1:
                self._stop.wait(0.001)

    def poll(self) -> int:
        """Read what the link has written so far, without blocking; frames completed.

        For a matrix made with ``threaded=False`` (call it once a kiosk frame);
        harmless, and usually 0, when the reader thread runs.
        """
        total = 0
        while True:
            got = self._read_once(0.0)
            total += got
            if got == 0:
                # one more non-blocking look in case the last read only held part of a frame
                with self._io_lock:
                    master = self._master
                    more = (
                        master is not None
                        and not self._paused
                        and bool(select.select([master], [], [], 0)[0])
                        and self._allowance() >= 1
                    )
                if not more:
                    return total

    def wait_frames(self, count: int, timeout: float) -> bool:
        """Wait until at least ``count`` frames were decoded or ``timeout`` s passed.

        Returns whether the count was reached.  Polls the pty itself when there
        is no reader thread.
        """
        deadline = time.monotonic() + timeout
        while self.frames < count:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self._thread is None:
                self.poll()
                time.sleep(min(0.01, left))
            else:
                with self._cond:
                    if self.frames < count:
                        self._cond.wait(min(0.05, left))
        return True

    def render_text(self) -> str:
        """:func:`render_text` of the latest picture (``""`` before the first frame)."""
        latest = self.latest
        return "" if latest is None else render_text(latest)

    def close(self) -> None:
        """Stop the reader and close every fd (idempotent)."""
        if self._closed:
            return
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
        with self._io_lock:
            self._closed = True
            for fd in (self._master, self._slave, self._old_slave):
                if fd is not None:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            self._master = self._slave = self._old_slave = None

    def __enter__(self) -> "VirtualMatrix":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
