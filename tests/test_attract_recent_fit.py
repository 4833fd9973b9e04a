"""The title screen's "Recent games" on every display size: each game one whole line, inside
the screen, none over another (issue 20's explorer in its long mode, ``python -m
tests.explorer --seed 1004 --size 480x320 --text-every 10 --frame-ms 50 --entry
coop-mycroft-sherlock``: Focus (2023)'s "Oh dear, there are some difficulties to understand
each other..." ran off both edges of a 480x320 screen, and a fourth game fell below its bottom).
In every language the arcade speaks (issue 26)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from arcade import i18n  # noqa: E402
from kiosk import render  # noqa: E402
from kiosk.scenes.attract import AttractScene  # noqa: E402
from tests.text_fit import TextSeen, cut_texts, language_fixture, sized_app  # noqa: E402,F401  (the fixture "language")

REASON = "Oh dear, there are some difficulties to understand each other..."


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1280, 720), (1920, 1080)])
def test_recent_games_are_whole_lines_inside_the_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       size: tuple[int, int], language: str) -> None:
    app = sized_app(tmp_path, size)
    try:
        for _ in range(5):
            app.results.save({"game": "coop", "seats": 2}, (), REASON, (0.0, 0.0))
        scene = AttractScene(app)
        assert len(scene.recent_lines) == 4
        seen = TextSeen(monkeypatch)
        seen.watch(app.screen)
        render.redraw_everything()
        scene.draw(app.screen)
        assert cut_texts(seen, app.screen) == {}
        lines = [(m, r) for m, r, *_ in seen.seen if m.startswith("Focus (2023)")]
        assert lines, seen.words()
        for i, (m1, a) in enumerate(lines):
            assert app.screen.get_rect().contains(a), (m1, a)
            for m2, b in lines[i + 1:]:
                assert not a.colliderect(b), (m1, a, m2, b)
        if size[0] >= 1280:                              # a TV has room for the reason, in the language spoken
            assert all(i18n._(REASON) in m for m, _ in lines)
    finally:
        app.close()
        pygame.display.quit()
