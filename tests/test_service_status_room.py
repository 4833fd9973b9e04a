"""The service pages keep their lines above the status panel (issue 20's explorer walking the
service menu with buzzers alone: with the README-PIN advice along the bottom, the button
test's last edges and legend, and the LED test's link lines and picture caption, ran under it
at 480x320 and 800x480).  In every language the arcade speaks (issue 26)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from arcade.core.events import Edge  # noqa: E402
from arcade.i18n import _  # noqa: E402
from kiosk import render  # noqa: E402
from kiosk.scenes.service.menu import ServiceScene  # noqa: E402
from kiosk.scenes.service.rows import LED_PATTERNS  # noqa: E402
from tests.text_fit import TextSeen, language_fixture, sized_app  # noqa: E402,F401  (the fixture "language")

ADVICE = "The PIN is the one printed in the README: choose your own (Change the PIN)"


@pytest.fixture()
def make(tmp_path: Path, language: str) -> Iterator[Any]:
    made: list[Any] = []

    def one(size: tuple[int, int]) -> ServiceScene:
        app = sized_app(tmp_path, size)
        made.append(app)
        svc = ServiceScene(app)
        app.push(svc)
        svc.status = _(ADVICE)
        return svc

    yield one
    for app in made:
        app.close()
    pygame.display.quit()


def lines_over_the_status(svc: ServiceScene, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen = TextSeen(monkeypatch)
    render.redraw_everything()
    svc.draw(svc.app.screen)
    status_words = set(_(ADVICE).split())
    status = [r for m, r, *_ in seen.seen if m.strip() and set(m.split()) <= status_words]
    assert status, seen.words()                          # the advice is shown
    top = min(r.top for r in status)
    return [f"{m!r} {r}" for m, r, *_ in seen.seen if m.strip() and r not in status and r.bottom > top]


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1280, 720), (1920, 1080)])
def test_the_button_tests_lines_end_above_the_status(make: Any, monkeypatch: pytest.MonkeyPatch,
                                                    size: tuple[int, int]) -> None:
    svc = make(size)
    svc.page = "buttons"
    t = 5_000_000_000
    for k in range(8):                                   # edges enough for a full log
        for pressed in (True, False):
            t += 40_000_000
            svc.buttons.feed(Edge(t, k % 4, "buzzer", pressed, "gpio"))
    assert lines_over_the_status(svc, monkeypatch) == []


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1280, 720), (1920, 1080)])
def test_the_led_tests_lines_end_above_the_status(make: Any, monkeypatch: pytest.MonkeyPatch,
                                                 size: tuple[int, int]) -> None:
    svc = make(size)
    svc.page = "led"
    svc.pattern = LED_PATTERNS.index("walking pixel")    # its "pixel 4: column 5, row 1" line too
    svc.now = svc.led_t0 + 500_000_000
    assert lines_over_the_status(svc, monkeypatch) == []
