"""What a UART at one baud rate reads from bytes sent at another, bit for bit.

A serial line carries 8N1 frames: a start bit (low), eight data bits (least
significant first), a stop bit (high), and stays high (idle) between frames.
A receiver set to another rate still starts a byte at every falling edge and
samples the line in the middle of each of *its* bit times, so a stream sent at
921600 baud reads at 115200 as other bytes (and the other way round): some of
them may be command bytes to a firmware such as WLED (0xB0..0xB7 set its baud).

:func:`misread` computes those bytes exactly for an ideal line (no noise, no
clock error).  A byte whose stop bit samples low (a framing error) is kept, as
most receivers put it in their input buffer anyway: the model errs on the side
of more garbage, never less.  The tests use it, through
:class:`~firmware_bridge.virtual.VirtualMatrix`, to make a WLED that restarted
at 115200 hear what a link still sending at its fast rate really puts on the
wire.
"""

from __future__ import annotations


def line_levels(data: bytes, idle_bits: int = 0) -> list[int]:
    """The line's level (1 high, 0 low) for each bit time of ``data`` sent back to
    back as 8N1 frames, with ``idle_bits`` high bit times after each frame."""
    levels: list[int] = []
    for byte in data:
        levels.append(0)
        levels.extend((byte >> bit) & 1 for bit in range(8))
        levels.append(1)
        levels.extend([1] * idle_bits)
    return levels


def misread(data: bytes, sent_baud: int, heard_baud: int, idle_bits: int = 0) -> bytes:
    """The bytes a receiver at ``heard_baud`` decodes from ``data`` sent at ``sent_baud``.

    ``data`` is one burst (back to back, ``idle_bits`` idle bit times after each
    byte); the line is idle before and after it.  Same rates give ``data``
    itself.  Raises ValueError for a rate that is not positive.

    >>> misread(b"v", 115200, 115200)
    b'v'
    >>> misread(b"v", 921600, 115200)  # one fast byte is over before the slow receiver's first data bit
    b'\\xff'
    """
    if sent_baud <= 0 or heard_baud <= 0:
        raise ValueError(f"baud rates must be positive, not {sent_baud} and {heard_baud}")
    if sent_baud == heard_baud:
        return bytes(data)
    levels = line_levels(data, idle_bits)
    # Integer time: a sender's bit is 2 * heard_baud ticks, a receiver's bit 2 * sent_baud.
    tx_bit, rx_bit, half = 2 * heard_baud, 2 * sent_baud, sent_baud
    end = len(levels) * tx_bit

    def level_at(t: int) -> int:
        index = t // tx_bit
        return levels[index] if index < len(levels) else 1

    out = bytearray()
    t = 0
    while t < end:
        # t is on a high level: the next falling edge is where the next low sender bit begins.
        first = -(-t // tx_bit)
        while first < len(levels) and levels[first] == 1:
            first += 1
        if first >= len(levels):
            break
        start = first * tx_bit
        if level_at(start + half) != 0:  # low for less than half a bit: no start bit
            t = start + half
            continue
        value = 0
        for bit in range(8):
            value |= level_at(start + rx_bit * (bit + 1) + half) << bit
        out.append(value)
        t = start + rx_bit * 9 + half  # the middle of the stop bit
        if level_at(t) == 0:
            # Framing error: the receiver waits for the line to go high again.
            while t < end and level_at(t) == 0:
                t = (t // tx_bit + 1) * tx_bit
    return bytes(out)
