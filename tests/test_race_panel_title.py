"""The FocusX race panel shows each race's title whole (issue 20: "no winner: first press at
1184.9 ms" was cut to its first 34 characters, "... first press at 1184.9 m").

A FocusX Classic game on kiosk/install.sh's configuration (MockFactory pins, a virtual clock):
P1 presses 1184.9 ms after a table without a focus showed; the window closes when the next card
is laid, and its panel entry is drawn on the TV layouts whole (tests/text_fit.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_event_day import BUZZ, MS, Day
from test_service_combo_buzzers import install_sh_config
from text_fit import TextSeen, cut_texts

from kiosk.persist.resume import start_game
from kiosk.scenes.lobby import lobby_games
from kiosk.scenes.seats import SeatInfo


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_long_race_title_is_drawn_whole(size: tuple[int, int], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch, size=size)
    try:
        game = next(g for g in lobby_games() if g.name == "focusx-classic")
        seats = [SeatInfo("gpio", "GPIO 17"), SeatInfo("gpio", "GPIO 27")]
        d.app.replace(start_game(d.app, game, seats))
        scene = d.top
        for _ in range(2000):                     # a table without a focus, just shown
            d.frames(1, 20 * MS)
            w = scene.referee.window
            if w is not None and w.opened_ns is not None and not scene.state.race_spec().valid_kinds \
                    and d.clock.t - w.opened_ns < 100 * MS:
                break
        else:
            raise AssertionError("no table without a focus came up")
        opened = w.opened_ns
        d.clock.t = opened + 1_184_900_000        # the pin's stamp: 1184.9 ms after the table showed
        d.pin(BUZZ[0]).drive_low()
        d.frames(1, 60 * MS)
        d.pin(BUZZ[0]).drive_high()
        title = "no winner: first press at 1184.9 ms"
        assert d.frames(400, 20 * MS, until=lambda: bool(scene.history) and scene.history[0].title == title), \
            [e.title for e in scene.history]
        seen = TextSeen(monkeypatch)
        seen.watch(d.screen)
        from kiosk import render
        render.redraw_everything()
        d.frames(1)
        lines = [m for m, *_ in seen.seen]
        assert any(title in " ".join(lines[i:i + 2]) for i in range(len(lines))), lines
        assert not cut_texts(seen, d.screen)
    finally:
        d.close()
