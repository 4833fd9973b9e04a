"""Sherlook's race and reveal (R-7: every claim in stamp order) on every display size from a
480x320 panel to a 1080p TV, with both photo arrangements ("side": the photos side by side,
the lists below; "stack": one above the other, the lists in a narrow column): every line
whole (tests/text_fit.py), in every language the arcade speaks (no English message of the
catalog left on a screen in another).  tests/test_screen_text_fits.py reaches the start and
token screens only (the photos are made in real time)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from kiosk import render
from kiosk.scenes.seats import SeatInfo
from tests.test_sherlook_scene import Sounds, run, start_round
from tests.text_fit import LANGUAGES, TextSeen, cut_texts, speaking, untranslated
from tests.virtual_kiosk import Clock, virtual_app

SIZES = [(480, 320), (640, 480), (800, 480), (1280, 720), (1920, 1080)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_of_the_race_and_the_reveal_is_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        lang: str, size: tuple[int, int]) -> None:
    with speaking(lang):
        _race_and_reveal(tmp_path, monkeypatch, size)


def _race_and_reveal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    set_mode = pygame.display.set_mode
    monkeypatch.setattr(pygame.display, "set_mode", lambda _s, *a, **k: set_mode(size, *a, **k))
    clock = Clock()
    app = virtual_app(tmp_path, monkeypatch, clock, {"token_s": 0.5, "reveal_s": 2.0})
    app.sounds = Sounds()  # type: ignore[assignment]
    assert app.screen.get_size() == size
    seen = TextSeen(monkeypatch, ink=False)      # only cut_texts reads it
    seen.watch(app.screen)
    bad: dict[str, Any] = {}
    english: set[str] = set()
    seats = [SeatInfo("computer", f"c{i}", "expert") for i in range(6)]
    try:
        for lay, rounds in (("side", 1), ("stack", 1), ("stack", 10)):   # "Round 1/10" is the widest
            scene = start_round(app, clock, seats, lay, rounds=rounds)
            phases = set()
            for i in range(60 * 120):
                if i % 30 == 0:
                    render.redraw_everything()
                seen.seen.clear()
                run(app, clock, 1)
                phases.add(scene.phase)
                for msg, where in cut_texts(seen, app.screen).items():
                    bad.setdefault(f"{lay}, {rounds} rounds, {scene.phase}: {msg}", where)
                english |= untranslated(seen)
                if scene.phase == "reveal" and i % 200 == 199:
                    break
            assert {"race", "reveal"} <= phases, phases
    finally:
        app.close()
        pygame.display.quit()
    assert not bad, "\n".join(f"{m!r}: drawn {r[0]}, part {r[1]}, kept {r[2]}" for m, r in bad.items())
    assert not english, f"English left on the screen: {sorted(english)}"
