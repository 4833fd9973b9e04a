"""DDP over UDP: the same frames to a WLED on the Wi-Fi, no USB cable.

DDP packet (the fields WLED's receiver reads, ``wled00/e131.cpp``)::

    byte 0   flags: version 1 (0x40), push (0x01) on the last packet of a frame
    byte 1   sequence number, low 4 bits 1..15 (0 = not used)
    byte 2   data type 0x0B (RGB, 8 bits a channel)
    byte 3   destination id 1 (the default display)
    4..7     data offset in bytes (big-endian), 8..9 data length (big-endian)
    10..     RGB bytes

WLED listens on UDP port 4048, reads at most 1440 channels (480 LEDs) per
packet, renders on the push flag and leaves realtime mode 2.5 s after the last
packet, like serial.  The sender never binds or listens: it only sends.

:class:`DdpLink` is :class:`~firmware_bridge.link.LedLink` with a UDP socket
instead of a serial port: the same latest-wins frames, pacing (``max_fps``),
keepalive, :meth:`~firmware_bridge.link.LedLink.release`, status and logging.
"""

from __future__ import annotations

import socket
import struct
from typing import Any, Sequence

from firmware_bridge.adalight import HEADER_LENGTH, RGB, encode_frame
from firmware_bridge.errors import LinkSettingsError
from firmware_bridge.link import Found, LedLink, WriterState, _Conn, _error_text

DDP_PORT = 4048
"""WLED's DDP port."""

HEADER = 10
"""Bytes in a DDP header (no timecode)."""

MAX_DATA = 1440
"""Data bytes per packet: 480 RGB LEDs, WLED's ``DDP_CHANNELS_PER_PACKET``."""

FLAG_VER1 = 0x40
FLAG_PUSH = 0x01
TYPE_RGB24 = 0x0B
DEST_DISPLAY = 0x01


def ddp_packets(rgb: bytes, sequence: int) -> list[bytes]:
    """The DDP packets of one frame: ``rgb`` bytes (3 a LED) split in
    :data:`MAX_DATA`-byte pieces, the last with the push flag.  ``sequence``
    (1..15) goes into every packet.  Raises :class:`LinkSettingsError` for an
    empty frame or a bad sequence number."""
    if not rgb or len(rgb) % 3:
        raise LinkSettingsError("rgb", len(rgb), "a non-empty multiple of 3 bytes")
    if not 1 <= sequence <= 15:
        raise LinkSettingsError("sequence", sequence, "1..15")
    packets = []
    for offset in range(0, len(rgb), MAX_DATA):
        data = rgb[offset : offset + MAX_DATA]
        last = offset + MAX_DATA >= len(rgb)
        flags = FLAG_VER1 | (FLAG_PUSH if last else 0)
        packets.append(struct.pack(">BBBBIH", flags, sequence, TYPE_RGB24, DEST_DISPLAY, offset, len(data)) + data)
    return packets


class DdpDecoder:
    """What WLED does with DDP packets, for tests: ``feed(packet)`` returns the
    frame (a tuple of ``(r, g, b)``) when a push packet completes it, else None.
    ``leds``: the strip length (pixels past it are ignored).  Malformed packets
    (short, bad version, query/reply flags) are counted in ``rejected``."""

    def __init__(self, leds: int) -> None:
        self.leds = leds
        self.buffer = bytearray(3 * leds)
        self.frames: list[tuple[RGB, ...]] = []
        self.sequences: list[int] = []
        self.rejected = 0

    def feed(self, packet: bytes) -> tuple[RGB, ...] | None:
        if len(packet) < HEADER or packet[0] & 0xC0 != FLAG_VER1 or packet[0] & 0x06:
            self.rejected += 1
            return None
        flags, seq, _kind, dest, offset, length = struct.unpack(">BBBBIH", packet[:HEADER])
        data = packet[HEADER : HEADER + length]
        if len(data) < length or dest in (246, 250, 251):
            self.rejected += 1
            return None
        end = min(len(self.buffer), offset + length)
        if offset < end:
            self.buffer[offset:end] = data[: end - offset]
        self.sequences.append(seq & 0x0F)
        if flags & FLAG_PUSH:
            b = bytes(self.buffer)
            frame = tuple(zip(b[0::3], b[1::3], b[2::3]))
            self.frames.append(frame)
            return frame
        return None


class _UdpPort:
    """A connected UDP socket that looks like a port to the link's writer."""

    def __init__(self, host: str, port: int) -> None:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_DGRAM)
        family, kind, proto, _, address = infos[0]
        self.sock = socket.socket(family, kind, proto)
        self.sock.setblocking(False)
        self.sock.connect(address)  # only the target's datagrams could come back; none are read
        self.address = address
        self.sequence = 0

    def send_frame(self, rgb: bytes) -> None:
        self.sequence = self.sequence % 15 + 1
        for packet in ddp_packets(rgb, self.sequence):
            self.sock.send(packet)

    def close(self) -> None:
        self.sock.close()


class DdpLink(LedLink):
    """The LED link over Wi-Fi: DDP packets to ``host``:``port`` (WLED: 4048).

    Same use as :class:`~firmware_bridge.link.LedLink` (``show``,
    ``show_picture``, ``release``, ``status``, ``close``); frames are plain RGB
    (no Adalight header, no byte shaping), at most ``max_fps`` a second, the
    last one resent every ``keepalive_s``.  A host name that does not resolve,
    a network that is down or an ICMP "port unreachable" (nothing receives DDP
    there) makes the state ``"disconnected"`` with advice; the socket is made
    again after ``backoff``.  Raises :class:`LinkSettingsError` for a bad host,
    port or rate.
    """

    transport = "ddp"

    def __init__(self, host: str, port: int = DDP_PORT, *, max_fps: float = 60.0, **kwargs: Any) -> None:
        if not isinstance(host, str) or not host.strip():
            raise LinkSettingsError("host", host, "WLED's host name or IP address")
        if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
            raise LinkSettingsError("port", port, "a UDP port 1..65535 (WLED: 4048)")
        if isinstance(max_fps, bool) or not isinstance(max_fps, (int, float)) or not 1 <= max_fps <= 1000:
            raise LinkSettingsError("max_fps", max_fps, "1 to 1000 frames a second")
        self.host, self.port, self.max_fps = host.strip(), port, float(max_fps)
        kwargs.setdefault("wled_safe", False)
        super().__init__(f"{self.host}:{self.port}", 115200, **kwargs)

    def encode(self, pixels: Sequence[RGB]) -> bytes:
        return encode_frame(pixels)[HEADER_LENGTH:]

    def _open(self, url: str, baudrate: int) -> tuple[Any, str]:
        try:
            return _UdpPort(self.host, self.port), ""
        except OSError as exc:
            return None, f"cannot reach {url}: {_error_text(exc)}"

    def _find(self) -> tuple[Found | None, str]:
        return Found(f"{self.host}:{self.port}"), ""

    # The writer's states (LedLink._serve) that differ over UDP: nothing to read, no
    # questions, and a frame goes out whole; WAIT is the serial link's.

    def _opened(self, c: _Conn) -> WriterState:
        """OPENED: a fresh socket; the first frame waits for a picture (no ``force``)."""
        c.force = False
        c.next_allowed = self.clock.now()
        with self._lock:
            self._baud_now = 0
            self._device = "WLED (DDP)"
        return WriterState.LISTEN

    def _listen(self, c: _Conn) -> WriterState:
        """LISTEN: take the caller's newest picture (the socket is never read)."""
        return WriterState.START if self._take_picture(c) else WriterState.END

    def _start(self, c: _Conn) -> WriterState:
        """START: send the picture's packets when a frame is due (at most ``max_fps``)."""
        frame = c.frame
        if frame is None or c.released or not self._frame_due(c):
            return WriterState.WAIT
        try:
            c.port.send_frame(frame)
        except OSError as exc:
            return c.fail(f"send to {c.found.url} failed: {_error_text(exc)}")
        now = self.clock.now()
        self._frame_through(now - c.frame_at if frame != c.last_bytes else None)
        c.delivered = True
        c.last_seq, c.last_bytes, c.last_done = c.seq, frame, now
        c.next_allowed = now + 1.0 / self.max_fps
        return WriterState.LISTEN
