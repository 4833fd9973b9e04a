"""The virtual matrix (a pty that decodes Adalight) and the panel layout.

The virtual matrix stands in for the controller on laptops and in tests, so
it must behave like one: show what a real port sends, count garbage, refuse
frames for another panel size, disappear on unplug and come back under a new
name.  The layout maps pictures onto the wiring of panels whose firmware
does not map 2-D itself.
"""

from __future__ import annotations

import os
import time
from typing import Iterator

import pytest
import serial
from link_helpers import WAIT_S, wait_for

from arcade.lights.pictures import scores_picture
from firmware_bridge.adalight import encode_frame
from firmware_bridge.errors import LayoutError, LinkSettingsError
from firmware_bridge.layout import (
    MatrixLayout,
    estimate_current_ma,
    limit_current,
    scale_brightness,
)
from firmware_bridge.link import LedLink
from firmware_bridge.virtual import VirtualMatrix, render_text


@pytest.fixture
def vm() -> Iterator[VirtualMatrix]:
    matrix = VirtualMatrix(4, 3)
    yield matrix
    matrix.close()


def open_port(path: str) -> serial.Serial:
    return serial.serial_for_url(path, 921600, timeout=0, write_timeout=1.0)


def picture_4x3() -> list[list[tuple[int, int, int]]]:
    return [[(10 * y + x, 0, 0) for x in range(4)] for y in range(3)]


# ---------------------------------------------------------------------- virtual matrix


def test_frames_from_a_real_serial_port_are_shown_row_major(vm: VirtualMatrix) -> None:
    picture = picture_4x3()
    port = open_port(vm.port)
    try:
        port.write(encode_frame([p for row in picture for p in row]))
        assert vm.wait_frames(1, WAIT_S)
    finally:
        port.close()
    assert vm.latest == tuple(tuple(row) for row in picture)
    assert vm.frames == 1 and vm.garbage_bytes == 0


def test_garbage_and_frames_for_another_panel_size_are_not_shown(vm: VirtualMatrix) -> None:
    port = open_port(vm.port)
    try:
        junk = b"hello\x00\xffAd"
        wrong_size = encode_frame([(9, 9, 9)] * 5)
        good = encode_frame([(1, 2, 3)] * 12)
        port.write(junk + wrong_size + good)
        assert vm.wait_frames(1, WAIT_S)
    finally:
        port.close()
    assert vm.latest_chain == ((1, 2, 3),) * 12
    assert vm.garbage_bytes == len(junk) + len(wrong_size)


def test_poll_mode_reads_without_a_thread() -> None:
    matrix = VirtualMatrix(4, 3, threaded=False)
    port = open_port(matrix.port)
    try:
        assert matrix.poll() == 0 and matrix.latest is None
        port.write(encode_frame([(5, 5, 5)] * 12) + encode_frame([(6, 6, 6)] * 12))

        def polled() -> bool:
            matrix.poll()
            return matrix.frames == 2

        assert wait_for(polled)
        assert matrix.latest_chain == ((6, 6, 6),) * 12
    finally:
        port.close()
        matrix.close()


def test_unplug_removes_the_port_and_replug_gives_a_new_name(vm: VirtualMatrix) -> None:
    port = open_port(vm.port)
    old = vm.port
    vm.unplug()
    assert not vm.present
    with pytest.raises(serial.SerialException):
        port.write(b"x" * 10)
    port.close()
    with pytest.raises(serial.SerialException):
        open_port(old)
    new = vm.replug()
    assert vm.present and new != old and os.path.exists(new)
    port = open_port(new)
    try:
        port.write(encode_frame([(7, 7, 7)] * 12))
        assert vm.wait_frames(1, WAIT_S)
    finally:
        port.close()
    assert vm.latest_chain == ((7, 7, 7),) * 12


def test_device_hello_reaches_the_host(vm: VirtualMatrix) -> None:
    port = open_port(vm.port)
    try:
        vm.send_hello()
        assert wait_for(lambda: port.in_waiting >= 4)
        assert port.read(4) == b"Ada\n"
    finally:
        port.close()


def test_baudrate_emulation_is_no_faster_than_the_wire() -> None:
    # 10 frames of 774 bytes at 115200 baud take at least 0.67 s on a real wire.
    matrix = VirtualMatrix(16, 16, baudrate=115200)
    port = open_port(matrix.port)
    try:
        start = time.monotonic()
        for level in range(10):
            port.write(encode_frame([(level, 0, 0)] * 256))
        assert matrix.wait_frames(10, WAIT_S * 2)
        elapsed = time.monotonic() - start
    finally:
        port.close()
        matrix.close()
    wire = 10 * 774 * 10 / 115200
    assert elapsed >= 0.8 * wire, (elapsed, wire)


def test_render_text_names_hues_and_dim_pixels() -> None:
    picture = [
        [(255, 0, 0), (0, 255, 0), (0, 0, 255), (0, 0, 0)],
        [(255, 255, 0), (255, 120, 0), (255, 255, 255), (40, 0, 0)],
    ]
    assert render_text(picture) == "RGB.\nYOWr"


def test_bad_matrix_settings_are_refused() -> None:
    with pytest.raises(LinkSettingsError):
        VirtualMatrix(0, 16)
    with pytest.raises(LinkSettingsError):
        VirtualMatrix(16, 16, baudrate=0)


def test_scoreboard_travels_from_picture_to_virtual_matrix() -> None:
    # End to end: pure picture -> layout -> link -> pty -> decoded picture.
    matrix = VirtualMatrix(16, 16)
    link = LedLink(matrix.port, keepalive_s=30)
    try:
        picture = scores_picture([3, 12], 16, 16)
        link.show_picture(picture)
        assert wait_for(lambda: matrix.latest == picture), matrix.render_text()
    finally:
        link.close()
        matrix.close()


# ---------------------------------------------------------------------- layout


def numbered(width: int, height: int) -> list[list[tuple[int, int, int]]]:
    """Each pixel carries its own (x, y) so the chain order can be read back."""
    return [[(x, y, 0) for x in range(width)] for y in range(height)]


def order(layout: MatrixLayout) -> list[tuple[int, int]]:
    return [(r, g) for r, g, _ in layout.to_chain(numbered(layout.width, layout.height))]


def test_default_layout_is_plain_row_major_as_wled_expects() -> None:
    assert order(MatrixLayout(3, 2)) == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]


def test_serpentine_runs_every_other_row_backwards() -> None:
    assert order(MatrixLayout(3, 3, serpentine=True)) == [
        (0, 0), (1, 0), (2, 0),
        (2, 1), (1, 1), (0, 1),
        (0, 2), (1, 2), (2, 2),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "origin, first, second",
    [
        ("top-left", (0, 0), (1, 0)),
        ("top-right", (2, 0), (1, 0)),
        ("bottom-left", (0, 1), (1, 1)),
        ("bottom-right", (2, 1), (1, 1)),
    ],
)
def test_chain_starts_at_the_origin_corner(origin: str, first: tuple[int, int], second: tuple[int, int]) -> None:
    got = order(MatrixLayout(3, 2, origin=origin))
    assert got[:2] == [first, second]


def test_transposed_serpentine_runs_down_and_up_columns() -> None:
    assert order(MatrixLayout(2, 3, serpentine=True, transpose=True)) == [
        (0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0),
    ]  # fmt: skip


@pytest.mark.parametrize("serpentine", [False, True])
@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("origin", ["top-left", "top-right", "bottom-left", "bottom-right"])
def test_every_layout_uses_each_led_once(serpentine: bool, transpose: bool, origin: str) -> None:
    layout = MatrixLayout(5, 4, serpentine=serpentine, origin=origin, transpose=transpose)
    got = order(layout)
    assert sorted(got) == [(x, y) for x in range(5) for y in range(4)]
    for i, (x, y) in enumerate(got):
        assert layout.position(i) == (x, y) and layout.index(x, y) == i
    # Neighbours along the chain are neighbours on the panel (no long wires) when serpentine.
    if serpentine:
        assert all(abs(ax - bx) + abs(ay - by) == 1 for (ax, ay), (bx, by) in zip(got, got[1:]))


def test_wrong_picture_shape_is_refused() -> None:
    layout = MatrixLayout(4, 3)
    with pytest.raises(LayoutError, match="2 rows"):
        layout.to_chain(numbered(4, 2))
    with pytest.raises(LayoutError, match="row 1 has 3"):
        layout.to_chain([[(0, 0, 0)] * 4, [(0, 0, 0)] * 3, [(0, 0, 0)] * 4])
    with pytest.raises(LinkSettingsError):
        MatrixLayout(4, 3, origin="middle")
    with pytest.raises(LinkSettingsError):
        MatrixLayout(4, 3, brightness=1.5)


def test_brightness_scales_every_channel() -> None:
    layout = MatrixLayout(2, 1, brightness=0.5)
    assert layout.to_chain([[(255, 100, 0), (10, 11, 12)]]) == [(127, 50, 0), (5, 5, 6)]
    assert scale_brightness([(200, 100, 50)], 0.0) == [(0, 0, 0)]


def test_current_limit_dims_a_white_flash_uniformly_under_the_budget() -> None:
    white = [(255, 255, 255)] * 256
    assert estimate_current_ma(white) == pytest.approx(256 * 60)
    dimmed = limit_current(white, 850)
    assert estimate_current_ma(dimmed) <= 850
    assert len(set(dimmed)) == 1 and dimmed[0][0] > 0  # still white, still lit
    mixed = [(255, 128, 0)] * 100 + [(0, 0, 255)] * 100
    limited = limit_current(mixed, 1000)
    assert estimate_current_ma(limited) <= 1000
    r, g, _ = limited[0]
    assert abs(g / r - 128 / 255) < 0.1  # hue kept
    small = [(10, 0, 0)] * 4
    assert limit_current(small, 850) == small  # under budget: unchanged
    with pytest.raises(LinkSettingsError):
        limit_current(small, 0)
