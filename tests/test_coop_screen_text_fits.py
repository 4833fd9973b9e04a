"""Focus (2023) in play (past the setup screen, which tests/test_screen_text_fits.py reaches),
on every display size from a 480x320 panel to a 1080p TV, in every language the arcade speaks:
every line whole (tests/text_fit.py; no English message of the catalog left on a screen in
another), and the prompt, both seats and the score on the screen.  Two simulated
partners play a whole game (Sherlock rules: three rounds, offers, the reveals)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

import kiosk.app.loop as kapp  # noqa: E402
from kiosk import render  # noqa: E402
from kiosk.config import Config, validate  # noqa: E402
from kiosk.games.coop import words as coop_words  # noqa: E402
from kiosk.games.coop.scene import CoopScene  # noqa: E402
from kiosk.players.thinker import wait_shared_idle  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import LANGUAGES, TextSeen, cut_texts, speaking, untranslated  # noqa: E402
from tests.virtual_kiosk import Clock  # noqa: E402

SIZES = [(480, 320), (640, 480), (800, 480), (1280, 720), (1920, 1080)]
STEP = 100_000_000          # 0.1 s of virtual time a frame


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("mode", ["base", "sherlock"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_of_a_coop_game_in_play_is_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
                                                    mode: str, size: tuple[int, int]) -> None:
    with speaking(lang):
        _play(tmp_path, monkeypatch, mode, size)


def _play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, size: tuple[int, int]) -> None:
    pygame.init()
    screen = pygame.display.set_mode(size)
    raw = {"storage": {"path": str(tmp_path / "r.sqlite3")}, "led": {"port": "virtual"}}
    app = kapp.App(Config(validate(raw)), screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))
    clock = Clock()
    clock.t = 10 ** 12
    monkeypatch.setattr(kapp, "time", clock.module())    # the flip's moment on the test's clock too
    seen = TextSeen(monkeypatch, ink=False)      # only cut_texts reads it
    seen.watch(screen)
    bad: dict[str, object] = {}
    english: set[str] = set()
    prompts_shown = 0
    sim = SeatInfo("simulated", "sim GPIO 17")
    try:
        scene = CoopScene(app, [sim, SeatInfo("computer", "computer 2", "easy")], mode, seed=4, setup=False)
        app.push(scene)
        for f in range(3000):
            if f % 25 == 0:
                render.redraw_everything()
            seen.seen.clear()
            wait_shared_idle()
            app.step(clock.t)
            clock.t += STEP
            if app.scenes[-1] is not scene:
                break
            for msg, where in cut_texts(seen, screen).items():
                bad.setdefault(msg, where)
            english |= untranslated(seen)
            words = " ".join(m for m, *_ in seen.seen)
            prompt = render.plain(coop_words.prompt(scene.prompt_shown())[0]) \
                if not coop_words.looking_away(scene.peeks_shown()) else ""
            if seen.seen and prompt and render.small_screen(*size):
                # the prompt is drawn (on two or three lines perhaps; the TV's layout draws it
                # with its own wrapping, which tests/text_fit.py does not see)
                assert prompt.split()[0] in words and prompt.split()[-1] in words, (prompt, words)
                assert "P1" in words and "P2" in words
                prompts_shown += 1
        assert scene.state.is_terminal(), "the game did not finish"
    finally:
        app.close()
        pygame.display.quit()
    assert prompts_shown > 10 or not render.small_screen(*size)
    assert not bad, "\n".join(f"{m!r}: drawn {r[0]}, part {r[1]}, kept {r[2]}" for m, r in bad.items())  # type: ignore[index]
    assert not english, f"English left on the screen: {sorted(english)}"
