"""FocusX Duel's table: the "NOW" beside a pile being raced and the "next" beside a waiting
one stay on the screen (issue 20's explorer in its long mode, ``python -m tests.explorer
--seed 1009 --size 800x480 --text-every 10 --frame-ms 50 --start coop-mycroft --monkey 180``:
the leftmost pile of an 800x480 table drew "NOW" at x = -9)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from kiosk import render  # noqa: E402
from kiosk.games.focusx.scene import DuelScene  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import TextSeen, cut_texts, sized_app  # noqa: E402


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("seats_n", [4, 5, 8])
def test_now_and_next_beside_every_pile_stay_on_the_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          size: tuple[int, int], seats_n: int) -> None:
    app = sized_app(tmp_path, size)
    try:
        scene = DuelScene(app, [SeatInfo("keyboard", f"key {i + 1}") for i in range(seats_n)], seed=1)
        app.push(scene)
        scene.update(10 ** 12)
        every = tuple(range(seats_n))
        for racing in ((every, []), ((), [every])):          # every pile "NOW", then every one "next"
            monkeypatch.setattr(scene, "_racing", lambda r=racing: r)
            seen = TextSeen(monkeypatch)
            seen.watch(app.screen)
            render.redraw_everything()
            scene.draw(app.screen)
            word = "NOW" if racing[0] else "next"
            shown = [r for m, r, *_ in seen.seen if m == word]
            assert len(shown) >= seats_n, seen.words()          # (the seat panels say "RACE NOW" too)
            bad = {m: v for m, v in cut_texts(seen, app.screen).items() if m in ("NOW", "next")}
            assert not bad, bad
    finally:
        app.close()
        pygame.display.quit()
