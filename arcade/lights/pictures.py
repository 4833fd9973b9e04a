"""The pictures of the LED matrix: scores, the race winner's flash, ties, countdowns, text.

Pure: standard library only, no clock (animations take a ``phase`` or
``fraction`` the caller computes), no randomness.  Every picture is a tuple of
``height`` rows, each a tuple of ``width`` ``(r, g, b)`` triples (0..255), row 0
at the top and column 0 at the left: row-major, as WLED expects it
(``firmware_bridge.layout.MatrixLayout`` maps it to the wiring).  The default
matrix is 16x16; any size from 8x8 up to 65536 LEDs works.

Seats are numbered from 0 in code and shown from 1 (``P1`` is seat 0), as in
:func:`arcade.core.api.player_name`.  Colour is never the only cue (the
habit of ruling FX-1: every colour has a second cue): scores keep seat order left
to right, the flash shows the seat number, tie stripes carry the seat numbers
when they are wide enough.

Every function raises :class:`PictureError` (an ``ArcadeError`` and a
``ValueError``) with a clear message for a bad size, seat, score or text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from arcade.core.errors import ArcadeError

RGB = tuple[int, int, int]
"""One LED colour: red, green, blue, each 0..255."""

Picture = tuple[tuple[RGB, ...], ...]
"""Rows of pixels, row 0 at the top."""

BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
MIN_SIZE = 8
"""Smallest matrix side (LEDs) the pictures are drawn for."""
MAX_LEDS = 65536
"""Most LEDs one Adalight frame carries."""
MAX_SEATS = 8


class PictureError(ArcadeError, ValueError):
    """A picture that cannot be drawn: bad size, seat, score, phase or text."""


@dataclass(frozen=True)
class SeatColour:
    """A seat's LED colour: ``name`` for screens and logs, ``rgb`` at full brightness."""

    name: str
    rgb: RGB


SEAT_COLOURS: tuple[SeatColour, ...] = (
    SeatColour("orange", (255, 120, 0)),
    SeatColour("sky blue", (40, 160, 255)),
    SeatColour("white", (255, 255, 255)),
    SeatColour("reddish purple", (255, 40, 220)),
    SeatColour("bluish green", (0, 255, 140)),
    SeatColour("yellow", (255, 235, 0)),
    SeatColour("blue", (0, 30, 255)),
    SeatColour("red", (255, 0, 0)),
)
"""The colours of seats 0..7 (shown as P1..P8).

After the Okabe-Ito palette, pushed to full LED brightness.  The first seats
get the pairs that stay apart under the common colour-vision deficiencies
(orange / sky blue / white); with more seats, position and the seat number
carry the difference too.
"""

FONT: Mapping[str, tuple[str, ...]] = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", ".##", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "##."),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", "..#", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
    "P": ("##.", "#.#", "##.", "#..", "#.."),
    "X": ("#.#", "#.#", ".#.", "#.#", "#.#"),
    "F": ("###", "#..", "##.", "#..", "#.."),
    "O": (".#.", "#.#", "#.#", "#.#", ".#."),
    "C": (".##", "#..", "#..", "#..", ".##"),
    "U": ("#.#", "#.#", "#.#", "#.#", "###"),
    "S": (".##", "#..", ".#.", "..#", "##."),
    "W": ("#.#", "#.#", "#.#", "###", "#.#"),
    "I": ("###", ".#.", ".#.", ".#.", "###"),
    "N": ("##.", "#.#", "#.#", "#.#", "#.#"),
    "!": (".#.", ".#.", ".#.", "...", ".#."),
    " ": ("...", "...", "...", "...", "..."),
}
"""A 3x5 pixel font: each glyph is 5 rows of 3 characters, ``#`` lit, ``.`` off.

Digits 0-9 and the letters of the arcade's short messages (P1, WIN, FOCUS,
X, ...).  Lower case is drawn upper case.
"""

GLYPH_WIDTH = 3
GLYPH_HEIGHT = 5

_Canvas = list[list[RGB]]


# ---------------------------------------------------------------------- checks


def _check_size(width: int, height: int) -> None:
    for key, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise PictureError(f"matrix {key} = {value!r}: expected an int (LEDs)")
        if value < MIN_SIZE:
            raise PictureError(
                f"matrix {key} = {value}: expected at least {MIN_SIZE} LEDs "
                f"(pictures are drawn for {MIN_SIZE}x{MIN_SIZE} and up)"
            )
    if width * height > MAX_LEDS:
        raise PictureError(
            f"matrix {width}x{height} has {width * height} LEDs: expected at most {MAX_LEDS}"
        )


def _check_seat(seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_SEATS:
        raise PictureError(f"seat {seat!r}: expected an int 0..{MAX_SEATS - 1} (P1..P{MAX_SEATS})")
    return seat


def _check_colour(colour: object) -> RGB:
    if not isinstance(colour, (tuple, list)) or len(colour) != 3 or any(
        isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= 255 for c in colour
    ):
        raise PictureError(f"colour {colour!r}: expected (r, g, b) with each an int 0..255")
    return (colour[0], colour[1], colour[2])


def _check_unit(key: str, value: object) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or math.isnan(value)
        or not 0.0 <= value <= 1.0
    ):
        raise PictureError(f"{key} = {value!r}: expected a number from 0.0 to 1.0")
    return float(value)


# ---------------------------------------------------------------------- drawing


def _canvas(width: int, height: int) -> _Canvas:
    return [[BLACK] * width for _ in range(height)]


def _freeze(canvas: _Canvas) -> Picture:
    return tuple(tuple(row) for row in canvas)


def _dim(colour: RGB, factor: float) -> RGB:
    r, g, b = colour
    return (int(r * factor), int(g * factor), int(b * factor))


def _put(canvas: _Canvas, x: int, y: int, colour: RGB) -> None:
    if 0 <= y < len(canvas) and 0 <= x < len(canvas[0]):
        canvas[y][x] = colour


def _rect(canvas: _Canvas, x: int, y: int, w: int, h: int, colour: RGB) -> None:
    for yy in range(y, y + h):
        for xx in range(x, x + w):
            _put(canvas, xx, yy, colour)


def seat_colour(seat: int) -> RGB:
    """The full-brightness colour of ``seat`` (0..7). Raises :class:`PictureError`."""
    return SEAT_COLOURS[_check_seat(seat)].rgb


def text_width(text: str, scale: int = 1) -> int:
    """Width in LEDs of ``text`` in the 3x5 font at ``scale`` (1 LED gap between glyphs)."""
    if not text:
        return 0
    return len(text) * GLYPH_WIDTH * scale + (len(text) - 1) * scale


def _glyph(char: str) -> tuple[str, ...]:
    glyph = FONT.get(char.upper())
    if glyph is None:
        known = "".join(sorted(c for c in FONT if c != " "))
        raise PictureError(f"character {char!r} is not in the LED font: expected one of {known!r} or space")
    return glyph


def _draw_text(canvas: _Canvas, text: str, x: int, y: int, colour: RGB, scale: int = 1) -> None:
    for char in text:
        for gy, line in enumerate(_glyph(char)):
            for gx, cell in enumerate(line):
                if cell == "#":
                    _rect(canvas, x + gx * scale, y + gy * scale, scale, scale, colour)
        x += (GLYPH_WIDTH + 1) * scale


def _draw_centred(
    canvas: _Canvas, text: str, x: int, y: int, w: int, h: int, colour: RGB, scale: int
) -> None:
    tx = x + (w - text_width(text, scale)) // 2
    ty = y + (h - GLYPH_HEIGHT * scale) // 2
    _draw_text(canvas, text, tx, ty, colour, scale)


def _largest_scale(text: str, w: int, h: int) -> int:
    """The largest glyph scale at which ``text`` fits in ``w`` x ``h`` (0 if none)."""
    scale = 0
    while text_width(text, scale + 1) <= w and GLYPH_HEIGHT * (scale + 1) <= h:
        scale += 1
    return scale


# ---------------------------------------------------------------------- pictures


def blank(width: int = 16, height: int = 16) -> Picture:
    """An all-off picture of ``height`` rows of ``width`` black pixels."""
    _check_size(width, height)
    return _freeze(_canvas(width, height))


def compose(*layers: Picture) -> Picture:
    """Stack pictures: each later layer's lit pixels cover the layers below.

    Black ``(0, 0, 0)`` counts as transparent.  All layers must have one size
    (at least one layer); raises :class:`PictureError` otherwise.
    """
    if not layers:
        raise PictureError("compose() needs at least one picture")
    height = len(layers[0])
    width = len(layers[0][0]) if height else 0
    for i, layer in enumerate(layers):
        if len(layer) != height or any(len(row) != width for row in layer):
            raise PictureError(
                f"layer {i} is not {width}x{height} like layer 0: layers must have one size"
            )
    out = [list(row) for row in layers[0]]
    for layer in layers[1:]:
        for y, row in enumerate(layer):
            for x, pixel in enumerate(row):
                if pixel != BLACK:
                    out[y][x] = pixel
    return _freeze(out)


def _wrap(text: str, per_line: int) -> list[str]:
    """Greedy word wrap at spaces; a word longer than a line is cut."""
    lines: list[str] = []
    for word in text.split():
        while len(word) > per_line:
            lines.append(word[:per_line])
            word = word[per_line:]
        if not word:
            continue
        if lines and len(lines[-1]) + 1 + len(word) <= per_line:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def text_picture(
    text: str, colour: RGB = WHITE, width: int = 16, height: int = 16
) -> Picture:
    """``text`` in the 3x5 font, as large as fits, centred, wrapped at spaces.

    Lower case is drawn upper case; only the characters of :data:`FONT` are
    allowed.  A 16x16 matrix holds 3 lines of 4 characters at scale 1, or 2
    characters at double size (``"P1"``); lines are 1 LED apart, or touching
    when that is the only way they fit (``"P1 WINS!"`` on 16x16).  Raises
    :class:`PictureError` for an unknown character, a bad colour or size, or
    text too long for the matrix.
    """
    _check_size(width, height)
    colour = _check_colour(colour)
    if not isinstance(text, str):
        raise PictureError(f"text {text!r}: expected a str")
    text = text.upper()
    for char in text:
        _glyph(char)
    words = " ".join(text.split())
    canvas = _canvas(width, height)
    if not words:
        return _freeze(canvas)
    scale = max(1, min(width // GLYPH_WIDTH, height // GLYPH_HEIGHT))
    while scale >= 1:
        per_line = (width + scale) // ((GLYPH_WIDTH + 1) * scale)
        lines = _wrap(words, per_line) if per_line else []
        for gap in (scale, 0):  # a blank row between lines if there is room
            block = len(lines) * (GLYPH_HEIGHT * scale + gap) - gap
            if lines and block <= height:
                y = (height - block) // 2
                for line in lines:
                    _draw_centred(canvas, line, 0, y, width, GLYPH_HEIGHT * scale, colour, scale)
                    y += GLYPH_HEIGHT * scale + gap
                return _freeze(canvas)
        scale -= 1
    per_line = (width + 1) // (GLYPH_WIDTH + 1)
    max_lines = height // GLYPH_HEIGHT
    raise PictureError(
        f"text {text!r} does not fit a {width}x{height} matrix: expected at most "
        f"{max_lines} line(s) of {per_line} characters"
    )


def _check_scores(scores: Sequence[int]) -> list[int]:
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence):
        raise PictureError(f"scores {scores!r}: expected a sequence of ints, one a seat")
    if not 1 <= len(scores) <= MAX_SEATS:
        raise PictureError(f"{len(scores)} scores: expected 1..{MAX_SEATS} (one a seat)")
    out: list[int] = []
    for seat, score in enumerate(scores):
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise PictureError(f"score of seat {seat} (P{seat + 1}) = {score!r}: expected an int >= 0")
        out.append(score)
    return out


def _digit_grid(n: int, width: int, height: int) -> tuple[int, int] | None:
    """(columns, rows) of score cells of at least 7x7 LEDs, or None if n do not fit."""
    for rows in range(1, n + 1):
        cols = -(-n // rows)
        if width // cols >= 7 and height // rows >= 7:
            return cols, rows
    return None


def scores_picture(
    scores: Sequence[int], width: int = 16, height: int = 16, style: str = "auto"
) -> Picture:
    """The scoreboard: one block per seat, in seat order, in the seat's colour.

    ``scores[i]`` is seat ``i``'s score (an int >= 0; 1..8 seats).

    * ``style="digits"``: the matrix is cut into cells in reading order (2
      seats side by side, 3-4 seats in a 2x2 grid on 16x16), each showing the
      score in digits over a colour band.  Needs cells of 7x7 LEDs and scores
      up to 99.
    * ``style="bars"``: one bar per seat, left to right, filled from the
      bottom one LED per point (row by row, left to right) while the leader
      fits, otherwise one LED per ``ceil(leader / bar area)`` points; a score
      of 0 shows a dim base row so the seat is still seen.  Any number of
      seats up to 8, scores of any size (64 on a 16x16 panel with 8 seats:
      4 points an LED).
    * ``style="auto"`` (default): digits when they fit, else bars.

    Raises :class:`PictureError` for a bad size, score list or style, or digits
    that do not fit.
    """
    _check_size(width, height)
    values = _check_scores(scores)
    if style not in ("auto", "digits", "bars"):
        raise PictureError(f"style {style!r}: expected 'auto', 'digits' or 'bars'")
    n = len(values)
    grid = _digit_grid(n, width, height) if max(values) <= 99 else None
    if style == "digits" and grid is None:
        raise PictureError(
            f"{n} scores {values} do not fit as digits on {width}x{height}: "
            "expected cells of 7x7 LEDs and scores up to 99 (use style='bars')"
        )
    canvas = _canvas(width, height)
    if grid is not None and style != "bars":
        cols, rows = grid
        cw, ch = width // cols, height // rows
        widest = max(len(str(v)) for v in values)
        probe = "8" * widest
        scale = max(1, _largest_scale(probe, cw - 1, ch - 2))
        for seat, value in enumerate(values):
            colour = SEAT_COLOURS[seat].rgb
            x0, y0 = (seat % cols) * cw, (seat // cols) * ch
            _draw_centred(canvas, str(value), x0, y0, cw - 1, ch - 2, colour, scale)
            _rect(canvas, x0, y0 + ch - 1, cw - 1, 1, colour)
        return _freeze(canvas)
    gap = 1 if 2 * n - 1 <= width else 0
    bar_w = (width - gap * (n - 1)) // n
    margin = (width - (bar_w * n + gap * (n - 1))) // 2
    capacity = bar_w * height
    leader = max(values)
    unit = 1 if leader <= capacity else -(-leader // capacity)
    for seat, value in enumerate(values):
        colour = SEAT_COLOURS[seat].rgb
        x0 = margin + seat * (bar_w + gap)
        lit = min(capacity, -(-value // unit))
        if lit == 0:
            _rect(canvas, x0, height - 1, bar_w, 1, _dim(colour, 0.15))
        for i in range(lit):
            _put(canvas, x0 + i % bar_w, height - 1 - i // bar_w, colour)
    return _freeze(canvas)


def flash_picture(seat: int, phase: float, width: int = 16, height: int = 16) -> Picture:
    """The race winner's flash: a pulsing frame in the seat colour around the seat number.

    ``phase`` (0..1) is the position in one pulse, computed by the caller from
    its clock: the frame is brightest at 0 and 1 and dims to 30 % at 0.5.  The
    frame is 2 LEDs thick from 12x12 up (1 below); the number (``seat + 1``)
    stays at full brightness, as large as fits inside.  Raises
    :class:`PictureError` for a bad seat, phase or size.
    """
    _check_size(width, height)
    seat = _check_seat(seat)
    phase = _check_unit("phase", phase)
    colour = SEAT_COLOURS[seat].rgb
    level = 0.3 + 0.7 * (0.5 + 0.5 * math.cos(2.0 * math.pi * phase))
    edge = _dim(colour, level)
    thick = 2 if min(width, height) >= 12 else 1
    canvas = _canvas(width, height)
    _rect(canvas, 0, 0, width, thick, edge)
    _rect(canvas, 0, height - thick, width, thick, edge)
    _rect(canvas, 0, 0, thick, height, edge)
    _rect(canvas, width - thick, 0, thick, height, edge)
    label = str(seat + 1)
    inner_w, inner_h = width - 2 * thick - 2, height - 2 * thick - 2
    scale = max(1, _largest_scale(label, inner_w, inner_h))
    _draw_centred(canvas, label, thick + 1, thick + 1, inner_w, inner_h, colour, scale)
    return _freeze(canvas)


def tie_picture(seats: Sequence[int], width: int = 16, height: int = 16) -> Picture:
    """The seats in a debated race (a tie, R-5: no hidden tie-break) as stripes.

    One vertical stripe per seat, in the order given, in the seat's colour;
    widths differ by at most one LED.  Stripes 3 LEDs wide or more carry the
    seat number (``seat + 1``) cut out in black.  ``seats``: 2..8 distinct
    seats.  Raises :class:`PictureError` otherwise or for a bad size.
    """
    _check_size(width, height)
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
        raise PictureError(f"seats {seats!r}: expected a sequence of seats")
    chosen = [_check_seat(s) for s in seats]
    if not 2 <= len(chosen) <= MAX_SEATS or len(set(chosen)) != len(chosen):
        raise PictureError(f"seats {list(seats)!r}: expected 2..{MAX_SEATS} distinct seats in a tie")
    n = len(chosen)
    canvas = _canvas(width, height)
    base, extra = divmod(width, n)
    x = 0
    for i, seat in enumerate(chosen):
        w = base + (1 if i < extra else 0)
        _rect(canvas, x, 0, w, height, SEAT_COLOURS[seat].rgb)
        if base >= GLYPH_WIDTH:
            _draw_centred(canvas, str(seat + 1), x, 0, w, height, BLACK, 1)
        x += w
    return _freeze(canvas)


def _perimeter(width: int, height: int) -> list[tuple[int, int]]:
    """Outer ring positions clockwise from the top middle."""
    ring: list[tuple[int, int]] = []
    ring += [(x, 0) for x in range(width)]
    ring += [(width - 1, y) for y in range(1, height)]
    ring += [(x, height - 1) for x in range(width - 2, -1, -1)]
    ring += [(0, y) for y in range(height - 2, 0, -1)]
    start = width // 2
    return ring[start:] + ring[:start]


COUNTDOWN_GREEN: RGB = (0, 200, 0)
COUNTDOWN_AMBER: RGB = (255, 150, 0)
COUNTDOWN_RED: RGB = (255, 0, 0)


def countdown_picture(
    n: int, fraction: float, width: int = 16, height: int = 16, colour: RGB = WHITE
) -> Picture:
    """A countdown: the number ``n`` (0..99) large, inside a ring that shrinks.

    ``fraction`` (0..1) is the part of the current step still to run, computed
    by the caller from its clock: the outer ring is lit clockwise from the top
    middle over that fraction of its LEDs, green above 1/2, amber above 1/4,
    red below (the SL-3 3-second countdown is ``n`` = 3, 2, 1).  The number is
    drawn in ``colour``, as large as fits inside the ring.  Raises
    :class:`PictureError` for a bad number, fraction, colour or size.
    """
    _check_size(width, height)
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 99:
        raise PictureError(f"countdown number {n!r}: expected an int 0..99")
    fraction = _check_unit("fraction", fraction)
    colour = _check_colour(colour)
    canvas = _canvas(width, height)
    ring = _perimeter(width, height)
    lit = round(fraction * len(ring))
    if fraction > 0.5:
        ring_colour = COUNTDOWN_GREEN
    elif fraction > 0.25:
        ring_colour = COUNTDOWN_AMBER
    else:
        ring_colour = COUNTDOWN_RED
    for x, y in ring[:lit]:
        canvas[y][x] = ring_colour
    label = str(n)
    inner_w, inner_h = width - 4, height - 4
    scale = max(1, _largest_scale(label, inner_w, inner_h))
    _draw_centred(canvas, label, 2, 2, inner_w, inner_h, colour, scale)
    return _freeze(canvas)


def idle_picture(phase: float, width: int = 16, height: int = 16) -> Picture:
    """The arcade's own idle picture (title screen, attract loop): the eight seat
    colours in slow diagonal bands, dimmed to a quarter, drifting with ``phase``
    (0..1, one full turn; the caller takes it from its clock).  Raises
    :class:`PictureError` for a bad size or phase."""
    _check_size(width, height)
    phase = _check_unit("phase", phase)
    count = len(SEAT_COLOURS)
    band = max(2, (width + height) // count)
    shift = phase * count * band
    rows: list[tuple[RGB, ...]] = []
    for y in range(height):
        row: list[RGB] = []
        for x in range(width):
            at = (x + y + shift) / band
            seat = int(at) % count
            mix = at - int(at)
            (ar, ag, ab), (br, bg, bb) = seat_colour(seat), seat_colour((seat + 1) % count)
            row.append((int((ar * (1 - mix) + br * mix) * 0.25), int((ag * (1 - mix) + bg * mix) * 0.25),
                        int((ab * (1 - mix) + bb * mix) * 0.25)))
        rows.append(tuple(row))
    return tuple(rows)
