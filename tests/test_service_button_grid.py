"""The button test shows the seats and controls the configuration wires (issue 20: on
``kiosk/install.sh``'s four-buzzer cabinet it showed P1-P8 with left/right/OK/X tiles, and at
480x320 the LED advice covered its P7/P8 rows).  In every language the arcade speaks (issue 26)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pygame
import pytest
from test_event_day import BUZZ, Day
from test_service_combo_buzzers import install_sh_config
from text_fit import TextSeen, cut_texts, language_fixture  # noqa: F401  (the fixture "language")

from arcade.i18n import pgettext
from kiosk.output.led import LedTrouble
from kiosk.scenes.service.menu import ServiceScene
from kiosk.scenes.service.rows import control_word

SIZES = [(480, 320), (800, 480), (1280, 720), (1920, 1080)]
TROUBLE = LedTrouble("searching", "/dev/ttyACM0", "plug in the LED controller's USB cable (WLED or Adalight)")


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
    if shot and os.environ.get("FOCUS_ARCADE_TEST_SHOTS"):
        w, h = d.screen.get_size()
        pygame.image.save(d.screen, f"{os.environ['FOCUS_ARCADE_TEST_SHOTS']}/{shot}-{w}x{h}.png")
    assert not cut_texts(seen, d.screen), cut_texts(seen, d.screen)
    return [(m, r) for m, r, *_ in seen.seen]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_four_buzzer_cabinet_tests_four_buzzers(size: tuple[int, int], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch, size=size)
    try:
        svc, seen = button_page(d, monkeypatch)
        lines = drawn(d, seen, "buttons-4")
        seats = sorted({m for m, _ in lines if re.fullmatch(r"P\d", m)})
        assert seats == ["P1", "P2", "P3", "P4"], seats
        words = [m.split()[0] for m, _ in lines if m.split()]
        for control in ("left", "right", "ok", "x"):
            assert control_word(control) not in words, (control, seen.words())
        buzzer, stuck = re.escape(control_word("buzzer")), re.escape(pgettext("button test", "STUCK"))
        tiles = [m for m, _ in lines if re.fullmatch(rf"{buzzer}( \d+x b\d+| {stuck})?", m)]
        assert len(tiles) == 4, seen.words()
        d.press(BUZZ[2])                                     # P3's buzzer: its tile counts the press
        assert any(m.endswith("1x b0") or m == "1x b0" for m, _ in drawn(d, seen)), seen.words()
    finally:
        d.close()


def eight_seats(tmp_path: Path, controls: bool) -> Path:
    """The installer's configuration with eight GPIO seats (and, ``controls``, P1's and P2's
    left/right/OK/X on GPIO pins)."""
    path = install_sh_config(tmp_path, lamps=True)
    text = path.read_text()
    text = re.sub(r'(?m)^stations = .*', 'stations = ["gpio", "gpio", "gpio", "gpio", "gpio", "gpio", "gpio", "gpio"]',
                  text)
    if controls:                                          # P1's and P2's choose controls
        text = re.sub(r'(?m)^controls = \[\]', "controls = [[2, 3, 4, 7], [8, 9, 10, 11]]", text)
    path.write_text(text)
    return path


@pytest.mark.parametrize("controls", [False, True], ids=["buzzers", "controls"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_status_panel_never_covers_a_seat_of_the_button_test(size: tuple[int, int], controls: bool,
                                                                   tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   language: str) -> None:
    """Eight seats, the README's PIN advice and the LED advice: every seat's row stays readable."""
    d = Day(eight_seats(tmp_path, controls), monkeypatch, size=size)
    try:
        monkeypatch.setattr(d.app.led, "trouble", lambda: TROUBLE)
        svc, seen = button_page(d, monkeypatch)
        assert svc.status_lines()                            # the PIN advice and the LED line
        lines = drawn(d, seen, f"buttons-8-{'controls' if controls else 'buzzers'}")
        rows = [(m, r) for m, r in lines if re.fullmatch(r"P\d", m)]
        assert sorted(m for m, _ in rows) == [f"P{s}" for s in range(1, 9)]
        names = {control_word(c) for c in ("buzzer", "left", "right", "ok", "x")}
        tiles = [r for m, r in lines if m.split() and m.split()[0] in names]
        status = [r for m, r in lines if len(m) > 6 and any(m in t for t, _ in svc.status_lines())]
        for m, r in rows:
            assert r.bottom <= size[1], m
            assert not any(r.colliderect(s) for s in status), (m, r, status)
        for r in tiles:
            assert not any(r.colliderect(s) for s in status), (r, status)
        # the panel's own pixels: none of it over a seat's row
        if status:
            panel_top = min(s.top for s in status) - 8
            assert max(r.bottom for _, r in rows) <= panel_top, (rows, status)
    finally:
        d.close()
