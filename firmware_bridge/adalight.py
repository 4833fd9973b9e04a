"""The Adalight serial protocol: encoder, streaming decoder, device hello.

Adalight is the frame format that stock WLED and the FastLED Adalight sketch
both accept on their USB serial port (the README's LED matrix section)::

    'A' 'd' 'a'  count-hi  count-lo  checksum  r g b  r g b ...
    count    = LEDs - 1                  (16 bits, big-endian)
    checksum = count-hi XOR count-lo XOR 0x55

Only the header is checked, so a receiver that loses a byte shows one garbled
frame and drops at most one more before it locks on to a header again.  A
16x16 panel (256 LEDs) gives ``6 + 3 * 256 = 774`` bytes a frame.

The device side prints ``Ada\\n`` at boot (classic Adalight sketches repeat it
every second while idle); :func:`is_hello` recognises that line so the link can
notice that the device restarted and resend its frame.
"""

from __future__ import annotations

from itertools import chain
from typing import Sequence

from firmware_bridge.errors import FrameError, LinkSettingsError
from firmware_bridge.wled import COMMAND_BYTES

RGB = tuple[int, int, int]
"""One LED colour: red, green, blue, each 0..255."""

MAGIC = b"Ada"
"""The three bytes every Adalight header starts with."""

HEADER_LENGTH = 6
"""Bytes in an Adalight header: magic, count-hi, count-lo, checksum."""

MAX_LEDS = 65536
"""Most LEDs one frame can carry (the count field is 16 bits of LEDs - 1)."""

HELLO = b"Ada\n"
"""The line an Adalight device prints when it boots (and, classic sketches, while idle)."""


def header(leds: int) -> bytes:
    """The 6-byte Adalight header for a frame of ``leds`` LEDs (1..65536).

    Raises :class:`FrameError` for a count out of range.

    >>> header(3).hex()
    '416461000257'
    """
    if isinstance(leds, bool) or not isinstance(leds, int) or not 1 <= leds <= MAX_LEDS:
        raise FrameError(
            f"an Adalight frame carries 1..{MAX_LEDS} LEDs, got {leds!r}", value=leds
        )
    count = leds - 1
    hi, lo = count >> 8, count & 0xFF
    return MAGIC + bytes((hi, lo, hi ^ lo ^ 0x55))


def frame_length(leds: int) -> int:
    """Bytes on the wire for one frame of ``leds`` LEDs: ``6 + 3 * leds``."""
    return HEADER_LENGTH + 3 * leds


def wire_time_s(leds: int, baudrate: int) -> float:
    """Seconds one frame of ``leds`` LEDs takes on a serial line at ``baudrate``.

    8N1 framing: 10 bits a byte.  256 LEDs at 921600 baud: 8.4 ms (119 frames/s).
    """
    if baudrate <= 0:
        raise LinkSettingsError("baudrate", baudrate, "a positive number of bits per second")
    return frame_length(leds) * 10.0 / baudrate


def _bad_pixel(index: int, pixel: object) -> FrameError:
    return FrameError(
        f"pixel {index} = {pixel!r}: expected (r, g, b) with each an int 0..255",
        index=index,
        value=pixel,
    )


UNSAFE_COLOUR_BYTES: frozenset[int] = COMMAND_BYTES | {MAGIC[0]}
"""Byte values a WLED-safe frame never carries in its pixel data: WLED's idle
command bytes (:data:`firmware_bridge.wled.COMMAND_BYTES`) and ``'A'`` (so
the only ``'A'`` in the stream starts a real header and a receiver that lost
its place locks on to the next frame)."""

_UNSAFE_HEADER_BYTES: frozenset[int] = COMMAND_BYTES | frozenset(MAGIC)


def _nearest_safe(value: int, avoid: frozenset[int] | set[int]) -> int:
    for step in range(256):
        for candidate in (value - step, value + step):
            if 0 <= candidate <= 255 and candidate not in avoid:
                return candidate
    raise AssertionError("no safe byte")  # pragma: no cover - avoid never holds every value


SAFE_COLOUR_TABLE: bytes = bytes(_nearest_safe(v, UNSAFE_COLOUR_BYTES) for v in range(256))
"""``bytes.translate`` table: each colour byte -> the nearest value not in
:data:`UNSAFE_COLOUR_BYTES` (ties go down).  The largest change is 4 levels
(0xB3 -> 0xAF, 0xB4 -> 0xB8); most values are unchanged."""


def header_is_safe(leds: int) -> bool:
    """True when the header of a ``leds``-LED frame has no WLED command byte and
    no ``A``/``d``/``a`` in its count and checksum bytes."""
    hi, lo, check = header(leds)[3:]
    return not {hi, lo, check} & _UNSAFE_HEADER_BYTES


def safe_led_count(leds: int) -> int:
    """The LED count a WLED-safe frame for ``leds`` LEDs announces: ``leds`` itself
    when :func:`header_is_safe`, else the next count that is (the extra LEDs are
    black; WLED ignores pixels past its strip).  Raises :class:`FrameError` when
    no count up to 65536 is safe."""
    for n in range(leds, MAX_LEDS + 1):
        if header_is_safe(n):
            return n
    raise FrameError(f"no safe Adalight header for {leds} LEDs", value=leds)


def encode_frame(pixels: Sequence[RGB], *, wled_safe: bool = False) -> bytes:
    """Encode one frame: ``pixels`` in chain order -> the Adalight bytes.

    ``pixels`` is a sequence of 1..65536 ``(r, g, b)`` triples of ints 0..255
    (the first is the LED nearest the controller).  Returns ``6 + 3 * len``
    bytes.  Raises :class:`FrameError` (a ``ValueError``) naming the index of
    the first bad pixel, or the length when there are 0 or more than 65536.

    >>> encode_frame([(255, 0, 0), (0, 255, 0), (0, 0, 255)]).hex()
    '416461000257ff000000ff000000ff'

    ``wled_safe``: shape the bytes so that a WLED receiver that lost a byte can
    never read a command from them (its serial parser, ``wled00/wled_serial.cpp``,
    treats bytes outside a frame as commands: 0xB0..0xB7 change the baud until
    reboot, ``{`` starts JSON, ``v`` the version, ``I`` Improv):

    * every colour byte goes through :data:`SAFE_COLOUR_TABLE` (at most 4 levels
      off, no command byte and no ``'A'`` left);
    * the LED count is raised to :func:`safe_led_count` with black LEDs when the
      count or checksum byte would be a command byte.

    So no byte of the stream is a command byte: wherever a receiver that lost a
    byte starts reading, it can only show pixels.  A byte lost in the pixel data
    garbles that frame and drops the next (no ``'A'`` in pixel data: it locks on
    to the following header); a lost count byte may make it read a long bogus
    frame before it locks on again (tests/test_wled_parser.py).
    """
    try:
        n = len(pixels)
    except TypeError:
        raise FrameError(f"pixels must be a sequence of (r, g, b), got {pixels!r}") from None
    if n == 0 or n > MAX_LEDS:
        raise FrameError(f"an Adalight frame carries 1..{MAX_LEDS} LEDs, got {n} pixels", value=n)
    body = _fast_body(pixels, n)
    if body is None:
        body = _checked_body(pixels, n)
    if not wled_safe:
        return header(n) + bytes(body)
    count = safe_led_count(n)
    head = header(count)
    body = bytearray(bytes(body).translate(SAFE_COLOUR_TABLE))
    body += bytes(3 * (count - n))
    return head + bytes(body)


def _fast_body(pixels: Sequence[RGB], n: int) -> bytearray | None:
    """The pixel bytes when every pixel is a 3-tuple of plain ints 0..255 (C-speed
    checks), else None (the checked path then names the bad pixel)."""
    if set(map(type, pixels)) != {tuple} or set(map(len, pixels)) != {3}:
        return None
    try:
        body = bytearray(chain.from_iterable(pixels))  # ints 0..255, else ValueError / TypeError
    except (ValueError, TypeError):
        return None
    if set(map(type, chain.from_iterable(pixels))) != {int}:  # bools (and int subclasses) are refused
        return None
    return body


def _checked_body(pixels: Sequence[RGB], n: int) -> bytearray:
    body = bytearray(3 * n)
    at = 0
    for index, pixel in enumerate(pixels):
        try:
            r, g, b = pixel
        except (TypeError, ValueError):
            raise _bad_pixel(index, pixel) from None
        for channel in (r, g, b):
            if isinstance(channel, bool) or not isinstance(channel, int) or not 0 <= channel <= 255:
                raise _bad_pixel(index, pixel)
        body[at] = r
        body[at + 1] = g
        body[at + 2] = b
        at += 3
    return body


def is_hello(line: bytes | str) -> bool:
    """True when ``line`` is the device's boot greeting ``Ada`` (line end optional).

    Accepts bytes or text, with or without ``\\n`` / ``\\r\\n``; anything else
    (JSON answers, debug prints) is False.
    """
    if isinstance(line, str):
        text = line.encode("latin-1", "replace")
    else:
        text = bytes(line)
    return text.rstrip(b"\r\n").strip() == MAGIC


class AdalightDecoder:
    """Streaming Adalight decoder, as a receiving device would run it.

    ``feed(data)`` takes any slice of the byte stream and returns the frames
    completed by it, each a tuple of ``(r, g, b)``.  A partial frame is kept
    for the next call.  Bytes before a valid header (``Ada`` + count whose
    checksum matches) are skipped and counted in ``garbage_bytes``; ``frames``
    counts the frames returned so far.

    With ``leds`` set, a header for any other LED count is treated as garbage
    (a receiver with a fixed chain, e.g. the virtual matrix), except the count
    a WLED-safe frame announces (:func:`safe_led_count`): its extra black LEDs
    are dropped, as WLED and the Adalight sketch drop pixels past their chain.  Raises
    :class:`LinkSettingsError` for ``leds`` outside 1..65536.

    Like WLED, only the header is checked: a byte lost inside the pixel data
    garbles that frame and the one whose header it swallows; the frame after
    decodes again.
    """

    def __init__(self, leds: int | None = None) -> None:
        if leds is not None and (
            isinstance(leds, bool) or not isinstance(leds, int) or not 1 <= leds <= MAX_LEDS
        ):
            raise LinkSettingsError("leds", leds, f"None or an int 1..{MAX_LEDS}")
        self.last_body: bytes = b""   # RGB bytes of the last frame completed (row-major, as sent)
        self.leds = leds
        self._counts = None if leds is None else {leds, safe_led_count(leds)}
        self.frames = 0
        self.garbage_bytes = 0
        self._buffer = bytearray()
        self._need: int | None = None  # LED count of the frame whose header starts the buffer

    @property
    def pending(self) -> int:
        """Bytes held back: an unfinished frame or a possible header start."""
        return len(self._buffer)

    def reset(self) -> None:
        """Forget any partial frame (the counters stay)."""
        self._buffer.clear()
        self._need = None

    def feed(self, data: bytes) -> list[tuple[RGB, ...]]:
        """Add ``data`` to the stream; return the frames it completed, oldest first."""
        buf = self._buffer
        buf += data
        out: list[tuple[RGB, ...]] = []
        pos = 0
        while True:
            if self._need is None:
                found = buf.find(MAGIC, pos)
                if found < 0:
                    keep = 0
                    if len(buf) - pos >= 2 and buf.endswith(MAGIC[:2]):
                        keep = 2
                    elif len(buf) - pos >= 1 and buf.endswith(MAGIC[:1]):
                        keep = 1
                    self.garbage_bytes += len(buf) - pos - keep
                    pos = len(buf) - keep
                    break
                self.garbage_bytes += found - pos
                pos = found
                if len(buf) - pos < HEADER_LENGTH:
                    break
                hi, lo, check = buf[pos + 3], buf[pos + 4], buf[pos + 5]
                count = (hi << 8 | lo) + 1
                if check != hi ^ lo ^ 0x55 or (self._counts is not None and count not in self._counts):
                    self.garbage_bytes += 1
                    pos += 1
                    continue
                self._need = count
            end = pos + HEADER_LENGTH + 3 * self._need
            if len(buf) < end:
                break
            body = bytes(buf[pos + HEADER_LENGTH : end])
            if self.leds is not None:
                body = body[: 3 * self.leds]
            out.append(tuple(zip(body[0::3], body[1::3], body[2::3])))
            self.last_body = body     # the last frame's RGB bytes as sent (for drawing it in one go)
            self.frames += 1
            self._need = None
            pos = end
        del buf[:pos]
        return out
