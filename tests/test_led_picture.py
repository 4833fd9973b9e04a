"""The LED pictures: what players see on the matrix.

The checks read the pictures the way a player does: which colour is where,
which digit is shown (a small reader matches lit pixels against the 3x5
font), whether only the changed seat's block changes.
"""

from __future__ import annotations

import math
import subprocess
import sys
from itertools import combinations
from typing import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arcade.core.errors import ArcadeError
from arcade.lights.pictures import (
    BLACK,
    COUNTDOWN_AMBER,
    COUNTDOWN_GREEN,
    COUNTDOWN_RED,
    FONT,
    SEAT_COLOURS,
    WHITE,
    Picture,
    PictureError,
    blank,
    compose,
    countdown_picture,
    flash_picture,
    scores_picture,
    seat_colour,
    text_picture,
    tie_picture,
)

RGB = tuple[int, int, int]
_GLYPH_NAMES = {rows: char for char, rows in FONT.items()}


def read_text(
    picture: Picture, x0: int, y0: int, x1: int, y1: int, lit: Callable[[RGB], bool]
) -> str:
    """Read 3x5-font text (any scale) from the box [x0, x1) x [y0, y1); '?' for unknown."""
    cells = [(x, y) for y in range(y0, y1) for x in range(x0, x1) if lit(picture[y][x])]
    if not cells:
        return ""
    left, top = min(x for x, _ in cells), min(y for _, y in cells)
    right, bottom = max(x for x, _ in cells), max(y for _, y in cells)
    assert (bottom - top + 1) % 5 == 0, "text is not 5 rows (times a scale) tall"
    scale = (bottom - top + 1) // 5
    out = ""
    x = left
    while x <= right:
        rows = tuple(
            "".join("#" if lit(picture[top + gy * scale][x + gx * scale]) else "." for gx in range(3))
            for gy in range(5)
        )
        out += _GLYPH_NAMES.get(rows, "?")
        x += 4 * scale
    return out


def is_colour(colour: RGB) -> Callable[[RGB], bool]:
    return lambda pixel: pixel == colour


def colours_in(picture: Picture, x0: int, x1: int, y0: int = 0, y1: int | None = None) -> set[RGB]:
    rows = picture[y0:y1]
    return {p for row in rows for p in row[x0:x1]} - {BLACK}


def same_hue(a: RGB, b: RGB) -> bool:
    """b is a (possibly dimmed) copy of a."""
    top = max(a)
    factor = max(b) / top
    return all(abs(x * factor - y) <= 1.5 for x, y in zip(a, b))


ALL_PICTURES: list[tuple[str, Callable[[int, int], Picture]]] = [
    ("blank", lambda w, h: blank(w, h)),
    ("scores-2", lambda w, h: scores_picture([3, 12], w, h)),
    ("scores-4", lambda w, h: scores_picture([0, 7, 64, 9], w, h)),
    ("scores-8", lambda w, h: scores_picture([64, 1, 0, 33, 12, 5, 60, 64], w, h)),
    ("flash", lambda w, h: flash_picture(3, 0.25, w, h)),
    ("tie", lambda w, h: tie_picture([0, 4, 7], w, h)),
    ("tie-8", lambda w, h: tie_picture(list(range(8)), w, h)),
    ("countdown", lambda w, h: countdown_picture(3, 0.6, w, h)),
    ("countdown-2-digits", lambda w, h: countdown_picture(10, 0.1, w, h)),
    ("text", lambda w, h: text_picture("P1", (255, 0, 0), w, h)),
]


# ---------------------------------------------------------------------- sizes


@pytest.mark.parametrize("size", [(8, 8), (16, 16), (32, 8), (8, 32), (20, 12)])
@pytest.mark.parametrize("name, make", ALL_PICTURES, ids=[n for n, _ in ALL_PICTURES])
def test_every_picture_has_the_matrix_size(name: str, make: Callable[[int, int], Picture], size: tuple[int, int]) -> None:
    width, height = size
    picture = make(width, height)
    assert len(picture) == height
    for row in picture:
        assert len(row) == width
        for pixel in row:
            assert len(pixel) == 3 and all(isinstance(c, int) and 0 <= c <= 255 for c in pixel)
    if name != "blank":
        assert any(p != BLACK for row in picture for p in row), "nothing lit"


@pytest.mark.parametrize("size", [(7, 16), (16, 7), (0, 0), (-16, 16), (16.0, 16), (True, 16), (300, 300)])
@pytest.mark.parametrize("name, make", ALL_PICTURES, ids=[n for n, _ in ALL_PICTURES])
def test_bad_matrix_size_raises_a_clear_error(name: str, make: Callable[[int, int], Picture], size: tuple[object, object]) -> None:
    with pytest.raises(PictureError) as info:
        make(*size)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError) and isinstance(info.value, ArcadeError)
    assert "width" in str(info.value) or "height" in str(info.value) or "LEDs" in str(info.value)


# ---------------------------------------------------------------------- seat colours and font


def test_eight_seat_colours_are_named_bright_and_far_apart() -> None:
    assert len(SEAT_COLOURS) == 8
    assert len({c.name for c in SEAT_COLOURS}) == 8
    assert all(max(c.rgb) == 255 for c in SEAT_COLOURS), "every seat colour at full brightness"
    closest = min(math.dist(a.rgb, b.rgb) for a, b in combinations(SEAT_COLOURS, 2))
    assert closest >= 100
    assert seat_colour(0) == SEAT_COLOURS[0].rgb
    with pytest.raises(PictureError, match="seat 8"):
        seat_colour(8)


def test_font_has_every_digit_and_message_letter_and_no_two_look_alike() -> None:
    assert set("0123456789PXFOCUSWIN!") <= set(FONT)
    for char, rows in FONT.items():
        assert len(rows) == 5 and all(len(r) == 3 and set(r) <= {"#", "."} for r in rows), char
    shapes = [rows for char, rows in FONT.items() if char != " "]
    assert len(set(shapes)) == len(shapes)


# ---------------------------------------------------------------------- scores


def test_two_seat_scores_are_digits_in_the_seat_colours_left_and_right() -> None:
    picture = scores_picture([3, 12])
    left, right = SEAT_COLOURS[0].rgb, SEAT_COLOURS[1].rgb
    assert colours_in(picture, 0, 8) == {left}
    assert colours_in(picture, 8, 16) == {right}
    assert read_text(picture, 0, 0, 8, 15, is_colour(left)) == "3"
    assert read_text(picture, 8, 0, 16, 15, is_colour(right)) == "12"


def test_four_seat_scores_sit_in_reading_order() -> None:
    picture = scores_picture([0, 7, 64, 9])
    cells = [(0, 0), (8, 0), (0, 8), (8, 8)]
    for seat, ((x, y), score) in enumerate(zip(cells, [0, 7, 64, 9])):
        colour = SEAT_COLOURS[seat].rgb
        assert colours_in(picture, x, x + 8, y, y + 8) == {colour}
        assert read_text(picture, x, y, x + 8, y + 7, is_colour(colour)) == str(score)


def test_a_score_change_changes_only_that_seats_block() -> None:
    before = scores_picture([4, 4, 4])
    after = scores_picture([4, 5, 4])
    changed = {(x, y) for y in range(16) for x in range(16) if before[y][x] != after[y][x]}
    assert changed and all(8 <= x < 16 and y < 8 for x, y in changed)  # seat 1's cell only
    bars_before = scores_picture([4] * 6)
    bars_after = scores_picture([4, 4, 4, 9, 4, 4])
    changed = {x for y in range(16) for x in range(16) if bars_before[y][x] != bars_after[y][x]}
    colour = SEAT_COLOURS[3].rgb
    assert changed and all(colour in {bars_after[y][x] for y in range(16)} for x in changed)


def bar_lengths(picture: Picture, seats: int) -> list[int]:
    return [sum(p == SEAT_COLOURS[s].rgb for row in picture for p in row) for s in range(seats)]


def test_eight_seat_bars_run_left_to_right_in_seat_order() -> None:
    scores = [64, 1, 0, 33, 12, 5, 60, 64]
    picture = scores_picture(scores)
    first_column = []
    for seat in range(8):
        colour = SEAT_COLOURS[seat].rgb
        columns = [x for x in range(16) for y in range(16) if same_hue(colour, picture[y][x]) and picture[y][x] != BLACK]
        first_column.append(min(columns))
    assert first_column == sorted(first_column) and len(set(first_column)) == 8
    lengths = bar_lengths(picture, 8)
    assert lengths[0] == lengths[7] == 16  # the leaders fill their bar
    assert lengths[2] == 0 and lengths[1] >= 1
    # A seat on 0 is still seen: a dim base in its colour.
    dim = {p for row in picture for p in row if p != BLACK and same_hue(SEAT_COLOURS[2].rgb, p)}
    assert dim and all(max(p) < 255 for p in dim)


@given(st.lists(st.integers(0, 64), min_size=2, max_size=8))
def test_more_points_never_show_a_shorter_bar(scores: list[int]) -> None:
    lengths = bar_lengths(scores_picture(scores, style="bars"), len(scores))
    for (a, la), (b, lb) in combinations(zip(scores, lengths), 2):
        if a < b:
            assert la <= lb
        if a == b:
            assert la == lb
    assert all((length > 0) == (score > 0) for score, length in zip(scores, lengths))


def test_small_scores_show_one_led_a_point() -> None:
    assert bar_lengths(scores_picture([3, 0, 7, 2, 11], style="bars"), 5) == [3, 0, 7, 2, 11]


@pytest.mark.parametrize(
    "scores, style, message",
    [
        ([], "auto", "0 scores"),
        ([1] * 9, "auto", "9 scores"),
        ([1, -2], "auto", "seat 1"),
        ([1, True], "auto", "seat 1"),
        ([1, 2.5], "auto", "seat 1"),
        ([1, 2], "pie", "style"),
        ([1, 2, 3, 4, 5], "digits", "7x7"),
        ([100, 2], "digits", "99"),
    ],
)
def test_bad_scores_raise(scores: list[object], style: str, message: str) -> None:
    with pytest.raises(PictureError, match=message):
        scores_picture(scores, 16, 16, style)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- flash, tie, countdown


@pytest.mark.parametrize("seat", range(8))
def test_flash_shows_the_winners_number_in_a_frame_of_their_colour(seat: int) -> None:
    colour = SEAT_COLOURS[seat].rgb
    picture = flash_picture(seat, 0.0)
    border = [picture[y][x] for y in range(16) for x in range(16) if min(x, y, 15 - x, 15 - y) < 2]
    assert set(border) == {colour}
    assert read_text(picture, 2, 2, 14, 14, is_colour(colour)) == str(seat + 1)


def test_flash_pulses_with_the_phase() -> None:
    bright, dim, again = flash_picture(1, 0.0), flash_picture(1, 0.5), flash_picture(1, 1.0)
    assert max(dim[0][0]) < max(bright[0][0])
    assert same_hue(SEAT_COLOURS[1].rgb, dim[0][0])
    assert again == bright
    # The number stays readable at every phase.
    for phase in (0.0, 0.3, 0.5, 0.9):
        assert read_text(flash_picture(1, phase), 2, 2, 14, 14, is_colour(SEAT_COLOURS[1].rgb)) == "2"


@pytest.mark.parametrize("seat, phase", [(8, 0.0), (-1, 0.0), (True, 0.0), (0, 1.5), (0, -0.1), (0, math.nan), (0, "0")])
def test_bad_flash_arguments_raise(seat: object, phase: object) -> None:
    with pytest.raises(PictureError):
        flash_picture(seat, phase)  # type: ignore[arg-type]


def test_tie_shows_the_debated_seats_as_numbered_stripes_in_order() -> None:
    seats = [0, 4, 7]
    picture = tie_picture(seats)
    widths = [6, 5, 5]
    x = 0
    for seat, width in zip(seats, widths):
        colour = SEAT_COLOURS[seat].rgb
        assert colours_in(picture, x, x + width) == {colour}
        assert read_text(picture, x, 0, x + width, 16, is_colour(BLACK)) == str(seat + 1)
        x += width


def test_tie_with_many_seats_keeps_every_colour() -> None:
    picture = tie_picture([6, 5, 4, 3, 2, 1, 0])
    order = []
    for x in range(16):
        colour = picture[0][x]
        if not order or order[-1] != colour:
            order.append(colour)
    assert order == [SEAT_COLOURS[s].rgb for s in [6, 5, 4, 3, 2, 1, 0]]


@pytest.mark.parametrize("seats", [[0], [], [1, 1], [0, 8], "01", [0, 1, 2, 3, 4, 5, 6, 7, 0]])
def test_bad_ties_raise(seats: object) -> None:
    with pytest.raises(PictureError):
        tie_picture(seats)  # type: ignore[arg-type]


def test_countdown_digits_are_readable_and_all_different() -> None:
    pictures = [countdown_picture(n, 1.0) for n in range(10)]
    assert len(set(pictures)) == 10
    for n, picture in enumerate(pictures):
        assert read_text(picture, 2, 2, 14, 14, is_colour(WHITE)) == str(n)
    assert read_text(countdown_picture(10, 1.0), 2, 2, 14, 14, is_colour(WHITE)) == "10"


def test_countdown_ring_shrinks_and_turns_red() -> None:
    def ring(fraction: float) -> list[RGB]:
        picture = countdown_picture(3, fraction)
        return [picture[y][x] for y in range(16) for x in range(16) if min(x, y, 15 - x, 15 - y) == 0 and picture[y][x] != BLACK]

    sizes = [len(ring(f)) for f in (1.0, 0.75, 0.5, 0.25, 0.1, 0.0)]
    assert sizes[0] == 60 and sizes[-1] == 0
    assert sizes == sorted(sizes, reverse=True)
    assert set(ring(0.9)) == {COUNTDOWN_GREEN}
    assert set(ring(0.4)) == {COUNTDOWN_AMBER}
    assert set(ring(0.2)) == {COUNTDOWN_RED}


@pytest.mark.parametrize("n, fraction", [(-1, 0.5), (100, 0.5), (1.0, 0.5), (3, 1.01), (3, math.nan)])
def test_bad_countdowns_raise(n: object, fraction: object) -> None:
    with pytest.raises(PictureError):
        countdown_picture(n, fraction)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- text and compose


def test_text_is_centred_large_and_readable() -> None:
    picture = text_picture("p1", (255, 0, 0))
    assert read_text(picture, 0, 0, 16, 16, is_colour((255, 0, 0))) == "P1"
    lit_rows = [y for y in range(16) if any(p != BLACK for p in picture[y])]
    assert len(lit_rows) == 10  # drawn at double size on 16x16
    assert text_picture("P1", (255, 0, 0)) == picture


def test_long_text_wraps_and_too_long_text_raises() -> None:
    picture = text_picture("P1 WINS!", WHITE)
    assert read_text(picture, 0, 0, 16, 5, is_colour(WHITE)) == "P1"
    assert read_text(picture, 0, 5, 16, 10, is_colour(WHITE)) == "WINS"
    with pytest.raises(PictureError, match="does not fit"):
        text_picture("FOCUS FOCUS FOCUS FOCUS")
    with pytest.raises(PictureError, match="'Z'"):
        text_picture("ZAP")
    with pytest.raises(PictureError, match="colour"):
        text_picture("P1", (256, 0, 0))
    assert text_picture("  ") == blank()


def test_compose_puts_lit_pixels_on_top() -> None:
    base = scores_picture([1, 2])
    top = text_picture("!", WHITE)
    both = compose(base, top)
    for y in range(16):
        for x in range(16):
            assert both[y][x] == (top[y][x] if top[y][x] != BLACK else base[y][x])
    with pytest.raises(PictureError):
        compose(base, blank(16, 8))
    with pytest.raises(PictureError):
        compose()


def test_pictures_module_stays_pure() -> None:
    code = (
        "import sys, arcade.lights.pictures\n"
        "bad = {'pygame', 'serial', 'gpiozero', 'firmware_bridge'} & set(sys.modules)\n"
        "print(sorted(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_idle_picture_is_dim_seat_colours_drifting_with_phase() -> None:
    from arcade.lights.pictures import idle_picture

    a, b = idle_picture(0.0, 16, 16), idle_picture(0.5, 16, 16)
    assert len(a) == 16 and all(len(row) == 16 for row in a) and a != b
    assert max(max(p) for row in a for p in row) <= 64  # a quarter of full: calm between games
    assert idle_picture(1.0, 8, 8) == idle_picture(1.0, 8, 8)  # pure: same phase, same picture
    with pytest.raises(ValueError):
        idle_picture(1.5)
