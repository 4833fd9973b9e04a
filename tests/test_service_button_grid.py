"""The button test shows the seats and controls the configuration wires (issue 20: on
``kiosk/install.sh``'s four-buzzer cabinet it showed P1-P8 with left/right/OK/X tiles, and at
480x320 the LED advice covered its P7/P8 rows)."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest
from test_event_day import BUZZ, Day
from test_service_combo_buzzers import install_sh_config
from text_fit import TextSeen, cut_texts

from kiosk.scenes.service import ServiceScene

SIZES = [(480, 320), (800, 480), (1280, 720), (1920, 1080)]
LINE = "LED matrix searching (/dev/ttyACM0): plug in the LED controller's USB cable (WLED or Adalight)"


def button_page(d: Day, monkeypatch: pytest.MonkeyPatch) -> tuple[ServiceScene, TextSeen]:
    d.app.enter_service()
    d.frames(2)
    svc = d.top
    assert isinstance(svc, ServiceScene)
    svc.page = "buttons"
    seen = TextSeen(monkeypatch)
    seen.watch(d.screen)
    return svc, seen


def drawn(d: Day, seen: TextSeen, shot: str = "") -> list[tuple[str, pygame.Rect]]:
    seen.seen.clear()
    d.frames(1)
    assert not cut_texts(seen, d.screen), cut_texts(seen, d.screen)
    return [(m, r) for m, r, *_ in seen.seen]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_four_buzzer_cabinet_tests_four_buzzers(size: tuple[int, int], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch, size=size)
    try:
        svc, seen = button_page(d, monkeypatch)
        lines = drawn(d, seen)
        seats = sorted({m for m, _ in lines if re.fullmatch(r"P\d", m)})
        assert seats == ["P1", "P2", "P3", "P4"], seats
        words = [m.split()[0] for m, _ in lines if m.split()]
        for control in ("left", "right", "ok", "x"):
            assert control not in words, (control, seen.words())
        tiles = [m for m, _ in lines if re.fullmatch(r"buzzer( \d+x b\d+| STUCK)?", m)]
        assert len(tiles) == 4, seen.words()
        d.press(BUZZ[2])                                     # P3's buzzer: its tile counts the press
        assert any(m.endswith("1x b0") or m == "1x b0" for m, _ in drawn(d, seen)), seen.words()
    finally:
        d.close()
