"""The lobby's and the initials' hints name only the controls that are wired (issue 20: on
``kiosk/install.sh``'s cabinet, four GPIO buzzers and nothing else, they said "left/right",
"OK" and "X").  With buzzers only they name the buzzer's gestures; with choose controls the
controls too."""

from __future__ import annotations

import os
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pytest

from arcade.core.api import Outcome
from kiosk.scenes.lobby import LobbyScene, find_game
from kiosk.scenes.results import ResultsScene
from kiosk.scenes.seats import SeatInfo
from tests.explorer import SIZES, Explorer
from tests.text_fit import cut_texts

#: Words that name a control a buzzers-only cabinet does not have.
UNWIRED = re.compile(r"left/right|Left/Right|\bOK\b|\bX back\b|\bEnter\b")


@pytest.fixture(params=SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return tuple(request.param)  # type: ignore[return-value]


def walk(tmp_path: Path, size: tuple[int, int], **extra: dict[str, object]) -> Iterator[Explorer]:
    e = Explorer(tmp_path, seed=3, size=size, check_text=0, **extra)
    try:
        yield e
    finally:
        e.close()


def screen_words(ex: Explorer) -> str:
    ex._draw_now = True                  # (the explorer draws only the frames it checks)
    ex.app.draw()
    if os.environ.get("FOCUS_ARCADE_TEST_SHOTS"):
        import pygame
        w, h = ex.screen.get_size()
        pygame.image.save(ex.screen, f"{os.environ['FOCUS_ARCADE_TEST_SHOTS']}/hint-{type(ex.top).__name__}-{w}x{h}.png")
    assert not cut_texts(ex.seen, ex.screen), cut_texts(ex.seen, ex.screen)
    return ex.seen.words()


def initials_results(ex: Explorer) -> ResultsScene:
    ex.app.current_game = find_game("focusx-classic", None)
    state = SimpleNamespace(game=SimpleNamespace(name="focusx-classic"), stats={"races": 30},
                            outcome=lambda: Outcome((0,), "the deck ran out", (9.0, 4.0)))
    r = ResultsScene(ex.app, "FocusX Classic", state, [SeatInfo("gpio", "GPIO 17"), SeatInfo("computer", "c")],
                     entry="focusx-classic")
    assert r.entering
    return r


def test_buzzers_only_the_hints_name_the_buzzer_gestures(tmp_path: Path, size: tuple[int, int]) -> None:
    for ex in walk(tmp_path, size):
        ex.to_attract()
        ex.gesture(0, "tap")
        assert isinstance(ex.top, LobbyScene)
        words = screen_words(ex)
        assert "tap" in words and "hold" in words, words
        assert not UNWIRED.search(words), words
        ex.app.replace(initials_results(ex))
        words = screen_words(ex)
        assert "tap = next letter" in words and "hold = take it" in words, words
        assert not UNWIRED.search(words), words


def test_with_choose_controls_the_hints_name_them(tmp_path: Path, size: tuple[int, int]) -> None:
    for ex in walk(tmp_path, size, gpio={"controls": [[2, 3, 4, 7]]}):
        ex.to_attract()
        ex.gesture(0, "tap")
        words = screen_words(ex)
        assert "left/right" in words and "OK" in words, words
        ex.app.replace(initials_results(ex))
        assert "left/right letter" in screen_words(ex)


#: Sherlook's words for a control a buzzers-only cabinet does not have.
UNWIRED_SHERLOOK = re.compile(r"left ?/ ?right|\bOK\b")


def test_buzzers_only_sherlook_tells_how_to_take_a_marker_with_the_buzzer(tmp_path: Path,
                                                                          size: tuple[int, int]) -> None:
    for ex in walk(tmp_path, size):
        ex.to_attract()
        ex.choose_in_lobby("sherlook", players=2)
        scene = ex.top
        assert ex.run(60, lambda scene=scene: getattr(scene, "phase", "") == "token"), "no token screen"
        words = screen_words(ex)
        assert "buzzer" in words and "gold ring" in words, words
        assert not UNWIRED_SHERLOOK.search(words), words


def test_with_choose_controls_sherlook_names_them_too(tmp_path: Path) -> None:
    for ex in walk(tmp_path, (1920, 1080), gpio={"controls": [[2, 3, 4, 7]]}):
        ex.to_attract()
        ex.choose_in_lobby("sherlook", players=2)
        scene = ex.top
        assert ex.run(60, lambda scene=scene: getattr(scene, "phase", "") == "token"), "no token screen"
        words = screen_words(ex)
        assert "left / right" in words and "OK" in words, words
