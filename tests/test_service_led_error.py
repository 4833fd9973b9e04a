"""The LED test with the controller unplugged shows the link's whole last error (issue 10):
it was cut at 70 characters, mid-word ("... [Errno 2] could")."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_event_day import Day, event_config, menu_to, open_service

from kiosk import render
from kiosk.scenes.service.led_page import wrap_text

MS = 1_000_000


def test_led_test_with_the_controller_unplugged_shows_the_whole_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(event_config(tmp_path, led={"port": "/dev/ttyUSB9-unplugged"}), monkeypatch, size=(1280, 720))
    try:
        d.app.home()
        d.frames(2)
        svc = open_service(d)
        menu_to(d, svc, "led")
        d.frames(10, 100 * MS)
        st = d.app.led.link.status()
        assert st.state != "connected" and st.last_error and len(st.last_error) > 70
        msg = f"Last error: {st.last_error}"
        lines = wrap_text(msg, 1280 - 420 - 60, 30)               # as _draw_led: left of the matrix box
        assert " ".join(lines) == msg                       # every word of it, in order
        assert all(render.font(30).size(line)[0] <= 800 for line in lines)
        assert st.last_error.split()[-1] in lines[-1]        # down to its last word
        d.frames(1)
    finally:
        d.close()


def test_an_error_longer_than_four_lines_ends_in_dots() -> None:
    import pygame
    pygame.init()
    lines = wrap_text("word " * 200, 400, 30, max_lines=4)
    assert len(lines) == 4 and lines[-1].endswith(" ...")
    assert all(render.font(30).size(line)[0] <= 400 for line in lines)
