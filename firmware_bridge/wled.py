"""What stock WLED does with the bytes on its USB serial port, as facts and as a model.

Facts from WLED's source (``wled00/wled_serial.cpp``, ``wled00/wled.cpp``):

* it starts its serial port at 115200 baud (``Serial.begin(115200)``);
* its serial parser is a byte-at-a-time state machine.  Outside a frame (the
  ``Header_A`` state) it treats single bytes as commands: ``A`` starts an
  Adalight header, 0xC9 a TPM2 packet, ``I`` Improv, ``v`` prints
  ``WLED <version>`` and a line end, 0xB0..0xB7 set the baud rate (115200,
  230400, 460800, 500000, 576000, 921600, 1000000, 1500000: until reboot),
  ``l``/``L`` print the LEDs (JSON array / TPM2 bytes), ``o``/``O`` turn
  continuous LED output off/on, ``{`` starts a JSON API object; every other
  byte is ignored;
* an Adalight header byte that does not match sends the parser back to
  ``Header_A`` *and is consumed* (it is not looked at again as a command);
* the count is ``hi * 256 + lo + 1`` in 16 bits and only the header checksum
  is checked; pixels past the strip's end are ignored;
* a baud command for the baud already in use does nothing; another prints
  ``Baud is now <rate>`` at the old rate, then switches.

:class:`WledSerialModel` replays that state machine byte for byte (written
from these facts, not translated from the C++), records every command it
would run, and keeps the realtime pixels it would show.  The tests feed it the
arcade's byte stream with lost bytes (tests/test_wled_parser.py); the
:class:`~firmware_bridge.virtual.VirtualMatrix` uses it to act as a WLED.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]

DEFAULT_BAUD = 115200
"""The baud rate WLED listens at after boot."""

BAUD_COMMANDS: dict[int, int] = {
    115200: 0xB0,
    230400: 0xB1,
    460800: 0xB2,
    500000: 0xB3,
    576000: 0xB4,
    921600: 0xB5,
    1000000: 0xB6,
    1500000: 0xB7,
}
"""WLED's one-byte serial commands that set its baud rate (until reboot)."""

COMMAND_BYTES: frozenset[int] = frozenset(
    set(BAUD_COMMANDS.values()) | {0xC9} | {ord(c) for c in "IvlLoO{"}
)
"""Bytes that make WLED's serial parser *do* something when read outside a frame."""

VERSION_COMMAND = b"v"
"""Asks WLED for its version: it answers ``WLED <version>`` and a line end."""

_STATES = (
    "Header_A",
    "Header_d",
    "Header_a",
    "Header_CountHi",
    "Header_CountLo",
    "Header_CountCheck",
    "Data_Red",
    "Data_Green",
    "Data_Blue",
    "TPM2_Header_Type",
    "TPM2_Header_CountHi",
    "TPM2_Header_CountLo",
)


def is_version_line(line: bytes | str) -> bool:
    """True for WLED's answer to ``v``: a line starting ``WLED `` (line end optional)."""
    text = line.encode("latin-1", "replace") if isinstance(line, str) else bytes(line)
    return text.strip().startswith(b"WLED ") or text.strip() == b"WLED"


@dataclass(frozen=True)
class WledEvent:
    """One command the parser ran: ``kind`` (``"baud"``, ``"version"``, ``"json"``,
    ``"improv"``, ``"tpm2"``, ``"print-json"``, ``"print-tpm2"``, ``"stream-on"``,
    ``"stream-off"``), ``offset`` (byte index in everything fed), ``value``
    (the baud rate for ``"baud"``)."""

    kind: str
    offset: int
    value: int = 0


class WledSerialModel:
    """WLED's serial parser for a strip of ``leds`` LEDs, byte for byte.

    ``feed(data)`` runs every byte.  ``frames`` holds each picture WLED would
    show (a tuple of ``leds`` ``(r, g, b)``, pixels not written keep their last
    colour, as in WLED's realtime buffer); ``events`` every command run
    (:class:`WledEvent`); ``baud`` the rate it listens at now; ``replies`` the
    bytes it would print.  ``version`` is what ``v`` answers.
    """

    def __init__(self, leds: int, *, baud: int = DEFAULT_BAUD, version: str = "0.15.0") -> None:
        self.leds = leds
        self.baud = baud
        self.version = version
        self.state = "Header_A"
        self.count = 0
        self.pixel = 0
        self.check = 0
        self.red = 0
        self.green = 0
        self.continuous = False
        self.pixels: list[RGB] = [(0, 0, 0)] * leds
        self.frames: list[tuple[RGB, ...]] = []
        self.events: list[WledEvent] = []
        self.replies = bytearray()
        self.offset = 0

    def reboot(self) -> None:
        """Power cycle: back to 115200 baud, parser idle (pixels kept dark)."""
        self.__init__(self.leds, version=self.version)  # type: ignore[misc]

    @property
    def idle(self) -> bool:
        """True when the next byte would be read as a command (``Header_A``)."""
        return self.state == "Header_A"

    def kinds(self) -> set[str]:
        """The kinds of every event so far."""
        return {e.kind for e in self.events}

    def _event(self, kind: str, value: int = 0) -> None:
        self.events.append(WledEvent(kind, self.offset, value))

    def _set_baud(self, rate: int) -> None:
        self._event("baud", rate)
        if rate // 100 == self.baud // 100 or rate // 100 < 96:
            return
        self.replies += f"Baud is now {rate}\r\n".encode()
        self.baud = rate

    def feed(self, data: bytes) -> None:
        """Run every byte of ``data`` through the parser."""
        baud_of = {v: k for k, v in BAUD_COMMANDS.items()}
        for next_byte in data:
            state = self.state
            if state == "Header_A":
                if next_byte == 0x41:  # 'A'
                    self.state = "Header_d"
                elif next_byte == 0xC9:
                    self._event("tpm2")
                    self.state = "TPM2_Header_Type"
                elif next_byte == 0x49:  # 'I': WLED hands the stream to its Improv reader
                    self._event("improv")
                elif next_byte == 0x76:  # 'v'
                    self._event("version")
                    self.replies += f"WLED {self.version}\r\n".encode()
                elif next_byte in baud_of:
                    self._set_baud(baud_of[next_byte])
                elif next_byte == 0x6C:  # 'l'
                    self._event("print-json")
                elif next_byte == 0x4C:  # 'L'
                    self._event("print-tpm2")
                elif next_byte == 0x6F:  # 'o'
                    self._event("stream-off")
                    self.continuous = False
                elif next_byte == 0x4F:  # 'O'
                    self._event("stream-on")
                    self.continuous = True
                elif next_byte == 0x7B:  # '{': WLED reads a JSON object from the stream
                    self._event("json")
            elif state == "Header_d":
                self.state = "Header_a" if next_byte == 0x64 else "Header_A"
            elif state == "Header_a":
                self.state = "Header_CountHi" if next_byte == 0x61 else "Header_A"
            elif state == "Header_CountHi":
                self.pixel = 0
                self.count = (next_byte * 0x100) & 0xFFFF
                self.check = next_byte
                self.state = "Header_CountLo"
            elif state == "Header_CountLo":
                self.count = (self.count + next_byte + 1) & 0xFFFF
                self.check = self.check ^ next_byte ^ 0x55
                self.state = "Header_CountCheck"
            elif state == "Header_CountCheck":
                self.state = "Data_Red" if self.check == next_byte else "Header_A"
            elif state == "TPM2_Header_Type":
                self.state = "Header_A"
                if next_byte == 0xDA:
                    self.state = "TPM2_Header_CountHi"
                elif next_byte == 0xAA:
                    self.replies += b"\xac"
            elif state == "TPM2_Header_CountHi":
                self.pixel = 0
                self.count = (next_byte * 0x100) // 3
                self.state = "TPM2_Header_CountLo"
            elif state == "TPM2_Header_CountLo":
                self.count = (self.count + next_byte // 3) & 0xFFFF
                self.state = "Data_Red"
            elif state == "Data_Red":
                self.red = next_byte
                self.state = "Data_Green"
            elif state == "Data_Green":
                self.green = next_byte
                self.state = "Data_Blue"
            else:  # Data_Blue
                if self.pixel < self.leds:
                    self.pixels[self.pixel] = (self.red, self.green, next_byte)
                self.pixel = (self.pixel + 1) & 0xFFFF
                self.count = (self.count - 1) & 0xFFFF
                if self.count > 0:
                    self.state = "Data_Red"
                else:
                    self.frames.append(tuple(self.pixels))
                    self.state = "Header_A"
            if self.continuous and next_byte != 0x4F:
                self.continuous = False
            self.offset += 1
