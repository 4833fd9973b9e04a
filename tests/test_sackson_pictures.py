"""The LED picture of a FOCUS / Crossfire board (arcade.sackson.pictures): what someone
looking at the matrix sees - who owns each cell, how tall it is, whose turn it is."""

from __future__ import annotations

import pytest

from arcade.lights.pictures import PictureError, seat_colour
from arcade.sackson import HEX, SQUARE, make_game
from arcade.sackson.pictures import EMPTY, LOW, board_picture, height_level, state_picture

SEAT_RGB = [seat_colour(s) for s in range(4)]


def _square_block(x: int, y: int, s: int = 2, x0: int = 0, y0: int = 0) -> list[tuple[int, int]]:
    """LEDs (col, row) of square (x, y) (x = file 0..7, y = rank-1 0..7)."""
    return [(x0 + x * s + i, y0 + (7 - y) * s + j) for i in range(s) for j in range(s)]


def _stacks(board, cells: dict[str, tuple[int, ...]]) -> list[tuple[int, ...]]:  # type: ignore[no-untyped-def]
    return [cells.get(c, ()) for c in board.cells]


def _is_shade_of(px: tuple[int, int, int], rgb: tuple[int, int, int]) -> bool:
    """px is rgb scaled by one factor (within rounding)."""
    top = max(range(3), key=lambda i: rgb[i])
    if px[top] == 0:
        return False
    k = px[top] / rgb[top]
    return all(abs(px[i] - rgb[i] * k) <= 2 for i in range(3))


def test_owner_colour_of_each_square_on_16x16_two_leds_a_side() -> None:
    pic = board_picture(SQUARE, _stacks(SQUARE, {"b2": (0,), "g7": (1,), "d4": (1, 0), "e5": (0, 2, 3)}), 0)
    assert len(pic) == 16 and all(len(r) == 16 for r in pic)
    for cell, owner in (("b2", 0), ("g7", 1), ("d4", 0), ("e5", 3)):
        x, y = SQUARE.coords[SQUARE.index[cell]]
        for cx, cy in _square_block(x, y):
            assert _is_shade_of(pic[cy][cx], SEAT_RGB[owner]), (cell, pic[cy][cx])
    # an empty square is faint grey, not off: the board's outline shows
    x, y = SQUARE.coords[SQUARE.index["c3"]]
    assert all(pic[cy][cx] == EMPTY for cx, cy in _square_block(x, y))


def test_taller_stack_is_brighter_and_full_at_the_limit() -> None:
    cells = {"c3": (0,), "d3": (1, 0, 0), "e3": (1, 1, 1, 1, 0)}
    pic = board_picture(SQUARE, _stacks(SQUARE, cells), None)
    levels = []
    for cell in ("c3", "d3", "e3"):
        x, y = SQUARE.coords[SQUARE.index[cell]]
        cx, cy = _square_block(x, y)[0]
        levels.append(max(pic[cy][cx]))
    assert levels[0] < levels[1] < levels[2]
    x, y = SQUARE.coords[SQUARE.index["e3"]]
    cx, cy = _square_block(x, y)[0]
    assert pic[cy][cx] == SEAT_RGB[0]                      # five stones: full colour


def test_height_level_rises_from_low_to_one() -> None:
    assert height_level(0, 5) == 0.0
    assert height_level(1, 5) == pytest.approx(LOW)
    assert [height_level(h, 5) for h in range(1, 6)] == sorted(height_level(h, 5) for h in range(1, 6))
    assert height_level(5, 5) == 1.0 and height_level(2, 2) == 1.0
    with pytest.raises(PictureError):
        height_level(-1, 5)
    with pytest.raises(PictureError):
        height_level(1, 0)


def test_turn_lights_the_missing_corners_in_the_movers_colour() -> None:
    stacks = _stacks(SQUARE, {"d4": (0,)})
    for seat in range(4):
        pic = board_picture(SQUARE, stacks, seat)
        for hole in ((0, 7), (1, 7), (0, 6), (7, 0), (6, 0), (7, 1)):   # a8 b8 a7, h1 g1 h2
            for cx, cy in _square_block(*hole):
                assert pic[cy][cx] == SEAT_RGB[seat]
    over = board_picture(SQUARE, stacks, None)
    assert all(over[cy][cx] == (0, 0, 0) for cx, cy in _square_block(0, 7))


def test_square_board_on_8x8_one_led_a_square_and_frame_on_18x18() -> None:
    stacks = _stacks(SQUARE, {"d4": (1,)})
    small = board_picture(SQUARE, stacks, 0, width=8, height=8)
    assert len(small) == 8 and _is_shade_of(small[7 - 3][3], SEAT_RGB[1])
    assert small[0][0] == SEAT_RGB[0]                      # a8 lit for the side to move
    big = board_picture(SQUARE, stacks, 2, width=18, height=18)
    assert big[0][5] == SEAT_RGB[2] and big[17][9] == SEAT_RGB[2]   # frame round the board
    assert _is_shade_of(big[1 + (7 - 3) * 2][1 + 3 * 2], SEAT_RGB[1])


def test_hex_mapping_every_cell_its_own_1x2_block_inside_a_turn_frame() -> None:
    seen: dict[tuple[int, int], str] = {}
    for cell in HEX.cells:
        pic = board_picture(HEX, _stacks(HEX, {cell: (1,)}), None, capacity=HEX.neighbour_count)
        lit = [(x, y) for y, row in enumerate(pic) for x, px in enumerate(row) if _is_shade_of(px, SEAT_RGB[1])]
        x, y = HEX.coords[HEX.index[cell]]
        assert sorted(lit) == [(3 + x, 1 + y), (3 + x, 2 + y)], cell     # documented mapping on 16x16
        for led in lit:
            assert led not in seen, f"{cell} and {seen[led]} share an LED"
            seen[led] = cell
    pic = board_picture(HEX, _stacks(HEX, {}), 1, capacity=HEX.neighbour_count)
    assert all(px == SEAT_RGB[1] for px in pic[0]) and all(row[15] == SEAT_RGB[1] for row in pic)


def test_crossfire_brightness_follows_each_cells_capacity() -> None:
    # two stones fill a point (capacity 2, SF-6) but not an inner cell (capacity 6)
    stacks = _stacks(HEX, {"A6": (0, 0), "E4": (0, 0)})
    pic = board_picture(HEX, stacks, None, capacity=HEX.neighbour_count)
    ax, ay = HEX.coords[HEX.index["A6"]]
    ex, ey = HEX.coords[HEX.index["E4"]]
    assert pic[1 + ay][3 + ax] == SEAT_RGB[0]
    assert max(pic[1 + ey][3 + ex]) < max(SEAT_RGB[0])


def test_state_picture_of_a_real_game_shows_the_side_to_move() -> None:
    state = make_game("focus", 2, {"variant": "crossfire"}).new_initial_state()
    pic = state_picture(state)
    assert pic[0][0] == SEAT_RGB[0]
    state.apply(state.legal_actions()[0])
    assert state_picture(state)[0][0] == SEAT_RGB[1]
    sq = make_game("focus", 4, {"variant": "4p"}).new_initial_state()
    pic = state_picture(sq)
    x, y = SQUARE.coords[SQUARE.index["c1"]]
    assert _is_shade_of(pic[(7 - y) * 2][x * 2], SEAT_RGB[sq.stack("c1")[-1]])


def test_hex_too_small_for_8x8_shows_the_turn_instead() -> None:
    pic = board_picture(HEX, _stacks(HEX, {"E6": (0,)}), 1, capacity=HEX.neighbour_count, width=8, height=8)
    assert len(pic) == 8 and pic[0][0] != (0, 0, 0)
    assert all(_is_shade_of(px, SEAT_RGB[1]) for px in pic[0])


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(PictureError, match="expected 52"):
        board_picture(SQUARE, [()] * 10, 0)
    with pytest.raises(PictureError, match="seat"):
        board_picture(SQUARE, _stacks(SQUARE, {"d4": (9,)}), 0)
    with pytest.raises(PictureError, match="seat"):
        board_picture(SQUARE, _stacks(SQUARE, {}), 8)
    with pytest.raises(PictureError):
        board_picture(SQUARE, _stacks(SQUARE, {}), 0, width=4, height=4)
