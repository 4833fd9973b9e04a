"""What Sherlook shows on the LED matrix (pure pictures, ``arcade.lights.pictures`` format).

* :func:`markers_picture`: the ten markers as blocks, 1-5 on top and 6-10
  below: a free marker dim white, a taken one in its holder's seat colour, the
  buzzer highlight bright gold; under them the seat colours of the players
  still choosing, or, in the last seconds, nothing (the countdown picture
  takes over: :func:`arcade.lights.pictures.countdown_picture`, SL-3).
* :func:`reveal_picture`: at the reveal, the number of differences and, under
  it, the round's tokens (SL-4): a green disc, a yellow square and a red
  triangle, each over a bar in the colour of the seat that took it (nothing
  where a token went to nobody).

Pure: standard library only.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from arcade.lights.pictures import RGB, Picture, PictureError, seat_colour, text_picture

FREE: RGB = (70, 70, 70)
HIGHLIGHT: RGB = (255, 200, 0)
COUNT: RGB = (255, 255, 255)
TOKENS: dict[str, RGB] = {"green": (40, 220, 70), "yellow": (255, 200, 0), "red": (240, 30, 30)}
TOKEN_SHAPES: dict[str, tuple[str, ...]] = {     # 4 x 4: the shape is a second cue besides the colour
    "green": (".##.", "####", "####", ".##."),
    "yellow": ("####", "####", "####", "####"),
    "red": (".##.", ".##.", "####", "####"),
}


def markers_picture(holders: Mapping[int, int], highlight: int = 0, waiting: Sequence[int] = (),
                    width: int = 16, height: int = 16, markers: int = 10) -> Picture:
    """Markers taken / free and who is still choosing (SL-3).

    Args:
        holders: marker (1..markers) -> seat holding it.
        highlight: the marker the buzzer highlight is on (0: none).
        waiting: seats still without a marker (shown as a row of seat colours).
        width, height: matrix size (at least 12 x 8).

    Raises:
        PictureError: a matrix too small, or a bad seat.
    """
    if width < 12 or height < 8:
        raise PictureError(f"matrix {width}x{height}: the markers picture needs at least 12x8")
    per_row = (markers + 1) // 2
    block = max(1, min((width - (per_row - 1)) // per_row, (height - 4) // 3))
    canvas = [[(0, 0, 0)] * width for _ in range(height)]
    x0 = (width - (per_row * block + (per_row - 1))) // 2
    for m in range(1, markers + 1):
        row, col = divmod(m - 1, per_row)
        x = x0 + col * (block + 1)
        y = 1 + row * (block + 1)
        if m in holders:
            colour = seat_colour(holders[m])
        elif m == highlight:
            colour = HIGHLIGHT
        else:
            colour = FREE
        for yy in range(y, min(height, y + block)):
            for xx in range(x, min(width, x + block)):
                canvas[yy][xx] = colour
    y = 1 + 2 * (block + 1) + 1
    if waiting and y + 2 <= height:
        w = max(1, width // max(1, len(waiting)))
        for i, seat in enumerate(waiting):
            c = seat_colour(seat)
            for yy in range(y, min(height, y + max(2, height - y - 1))):
                for xx in range(i * w, min(width, (i + 1) * w - (1 if w > 2 else 0))):
                    canvas[yy][xx] = c
    return tuple(tuple(r) for r in canvas)


def reveal_picture(count: int, green: int | None = None, yellow: int | None = None, red: int | None = None,
                   width: int = 16, height: int = 16) -> Picture:
    """The reveal on the LED matrix: the number of differences and the round's tokens (SL-4).

    Args:
        count: the number of differences (1..10).
        green, yellow, red: the seat that took each token, or None.
        width, height: matrix size.  From 15 x 16 up the number (3x5 font at
            double size) sits in the top 10 rows and the tokens (4 x 4 shapes:
            green disc, yellow square, red triangle, left to right) in rows
            11..14 with the taker's seat colour as a bar in row 15; a smaller
            matrix shows the number only.

    Raises:
        PictureError: a bad size or seat.
    """
    if width < 15 or height < 16:
        return text_picture(str(count), COUNT, width, height)
    canvas = [[(0, 0, 0)] * width for _ in range(height)]
    number = text_picture(str(count), COUNT, width, 10)
    for y in range(10):
        canvas[y] = list(number[y])
    x0 = (width - 14) // 2
    for i, (kind, seat) in enumerate((("green", green), ("yellow", yellow), ("red", red))):
        if seat is None:
            continue
        x = x0 + i * 5
        for dy, line in enumerate(TOKEN_SHAPES[kind]):
            for dx, cell in enumerate(line):
                if cell == "#":
                    canvas[11 + dy][x + dx] = TOKENS[kind]
        bar = seat_colour(seat)
        for dx in range(4):
            canvas[15][x + dx] = bar
    return tuple(tuple(r) for r in canvas)
