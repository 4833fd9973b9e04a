"""Flat memory for a whole day (issue 23, part 5): every drawing cache has a bound in bytes,
and fonts hold no open file.

What the operator notices: a cabinet that runs from morning to night does not grow until
the Pi runs out of memory or file descriptors.  The soak itself is ``bench/bench_soak.py``
(two hours, RSS and open files every 10 minutes); these tests check the bounds it relies on.
"""

from __future__ import annotations

import gc
import os
import time
import weakref
from pathlib import Path
from typing import Any

import pygame
import pytest

from kiosk import render
from kiosk.games.focusx import cards as fx_cards


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()
    render.reset_caches()


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc (Linux)")
def test_a_hundred_font_sizes_open_no_file_and_the_font_caches_stay_bounded() -> None:
    render.font(30)
    before = _open_files()
    for size in range(24, 124):
        render.font(size).render("Focus Arcade", True, render.TEXT)
        render.any_font(size - 12, True)
    assert _open_files() <= before + 1            # one a size was 100 more descriptors
    assert len(render._fonts) <= render.FONTS_MAX and len(render._any_fonts) <= render.FONTS_MAX


def test_fonts_from_memory_measure_and_draw_as_pygames_default_font() -> None:
    for size in (24, 31, 58):
        mine, theirs = render.font(size), pygame.font.Font(None, size)
        assert mine.size("Press your buzzer to play!") == theirs.size("Press your buzzer to play!")
        a, b = mine.render("FOCUS 42", True, render.GOLD), theirs.render("FOCUS 42", True, render.GOLD)
        assert pygame.image.tobytes(a, "RGBA") == pygame.image.tobytes(b, "RGBA")


def _bytes(cache: render.SurfaceCache) -> int:
    return sum(render.SurfaceCache.size_of(s) for s in cache.values())


def test_the_text_image_cache_stays_within_its_bytes() -> None:
    for i in range(3000):                          # a day of changing words: scores, times, names
        render.text_image(f"P{i % 8 + 1} {i} points in round {i}", 24 + i % 40, render.TEXT, bool(i % 2))
    assert 0 < _bytes(render._texts) <= render.TEXTS_MAX_BYTES
    assert render._texts.bytes == _bytes(render._texts)
    newest = render.text_image("P1 2999 points in round 2999", 24 + 2999 % 40, render.TEXT, True)
    assert render.text_image("P1 2999 points in round 2999", 24 + 2999 % 40, render.TEXT, True) is newest


def test_squeezed_lines_and_card_faces_stay_within_their_bytes() -> None:
    screen = pygame.Surface((1280, 720))
    for i in range(600):
        render.text_within(screen, f"a long line number {i} that is squeezed to fit", (0, 0), 200, 40)
    assert _bytes(render._narrowed) <= render.NARROWED_MAX_BYTES
    for w in range(60, 260, 10):                   # many table sizes (small panels, TVs, the title)
        for number in range(0, 48, 3):
            fx_cards.card_surface(number, w, int(w * 1.4))
    assert _bytes(fx_cards._cards) <= fx_cards.CARDS_MAX_BYTES
    face = fx_cards.card_surface(3, 250, 350)
    assert fx_cards.card_surface(3, 250, 350) is face          # still a cache


def test_the_least_recently_used_picture_goes_first() -> None:
    cache = render.SurfaceCache(3 * 10 * 10 * 4)
    for key in "abc":
        cache.put(key, pygame.Surface((10, 10), pygame.SRCALPHA))
    assert cache.get("a") is not None             # a used again: b is now the oldest
    cache.put("d", pygame.Surface((10, 10), pygame.SRCALPHA))
    assert cache.get("b") is None and cache.get("a") is not None and cache.get("d") is not None


def test_freed_memory_goes_back_without_error() -> None:
    render.tune_memory()
    render.release_freed_memory()                 # glibc here; a no-op where there is none


def test_the_caches_are_sized_for_the_screen() -> None:
    """At 1280x720 the text and card caches keep 0.75 of a screen's pixels (2.6 MB each, they
    were 6 and 8 MB) and the Focus (2023) faces one screen's; a 1080p TV gets more, never
    more than the fixed bounds; a tiny panel still 1 MB."""
    from kiosk.games.coop.draw import FACES
    try:
        render.fit_caches((1280, 720))
        screen = 1280 * 720 * 4
        assert render._texts.max_bytes == fx_cards._cards.max_bytes == int(0.75 * screen)
        assert FACES.max_bytes == screen
        render.fit_caches((1920, 1080))
        tv = int(0.75 * 1920 * 1080 * 4)
        assert render._texts.max_bytes == fx_cards._cards.max_bytes == tv <= render.TEXTS_MAX_BYTES
        render.fit_caches((480, 320))
        assert render._texts.max_bytes == fx_cards._cards.max_bytes == render.MIN_CACHE_BYTES
    finally:
        render.fit_caches((1280, 720))


def test_a_smaller_bound_lets_the_oldest_pictures_go_at_once() -> None:
    render.fit_caches((1920, 1080))
    try:
        for i in range(400):
            render.text_image(f"round {i}: {i * 7} points", 40, render.TEXT)
        assert render._texts.bytes > 4 * 2**20
        newest = render.text_image("round 399: 2793 points", 40, render.TEXT)
        render.fit_caches((1280, 720))
        assert render._texts.bytes == _bytes(render._texts) <= render._texts.max_bytes
        assert render.text_image("round 399: 2793 points", 40, render.TEXT) is newest
    finally:
        render.fit_caches((1280, 720))


def test_focus_2023_card_faces_stay_within_a_screens_bytes() -> None:
    """A day of Focus (2023) at many table sizes: the faces, clue cards and thumbnails made
    stay within their bound (512 faces of any size were kept: 28 MB at 1280x720)."""
    from kiosk.games.coop.draw import FACES, clue_surface, face_surface, thumb_surface
    render.fit_caches((1280, 720))
    FACES.clear()
    for w in (90, 110, 127, 150):
        for face in range(1, 169):
            face_surface(face, w, int(w * 0.9))
            clue_surface(face, w, int(w * 1.2))
            thumb_surface(face, w // 3)
    assert 0 < FACES.bytes == _bytes(FACES) <= FACES.max_bytes == 1280 * 720 * 4
    face = face_surface(7, 127, 114)
    assert face_surface(7, 127, 114) is face                  # still a cache


def _game_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    import argparse
    import types

    from kiosk import config
    from kiosk.app import loop as kapp
    clock = types.SimpleNamespace(t=10 ** 15)
    monkeypatch.setattr(kapp, "time", types.SimpleNamespace(
        monotonic_ns=lambda: clock.t, monotonic=lambda: clock.t / 1e9,
        perf_counter=time.perf_counter, time=time.time))
    screen = pygame.display.set_mode((1280, 720))
    cfg = config.load_or_default(None)
    cfg.data["storage"]["path"] = str(tmp_path / "results.sqlite3")
    cfg.data["led"]["port"] = "none"
    app = kapp.App(cfg, screen, argparse.Namespace(command=None, screenshot_dir=""))
    return app, clock


@pytest.mark.parametrize("entry", ["sherlook", "focusx-classic", "coop-base", "focus-2p"])
def test_leaving_a_game_for_the_title_releases_its_screen_at_once(
        entry: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Back at the title, the game's scene with its layers and pictures is gone in that very
    step, not many games later when Python next looks for reference cycles (a Sherlook
    screen kept 2-5 MB so between games: the soak's RSS rose and fell by 15 MB)."""
    from kiosk.scenes.lobby import find_game
    from kiosk.scenes.seats import SeatInfo
    app, clock = _game_app(tmp_path, monkeypatch)
    try:
        game = find_game(entry, None)
        seats = [SeatInfo("computer", f"computer {s + 1}", "medium") for s in range(game.demo_seats)]
        scene = game.start(app, seats)
        app.push(scene)
        for _ in range(120):
            clock.t += 16_666_667
            app.step(clock.t)
        gone = weakref.ref(scene)
        del scene
        gc.disable()                              # only the title's own release may free it
        try:
            app.home()
            assert gone() is None, f"{entry}: the game's scene is still held after going home"
        finally:
            gc.enable()
    finally:
        app.close()


def test_a_cache_made_after_the_screen_was_known_gets_the_screens_bound() -> None:
    """A game's picture cache made when its first game starts (its module imported then,
    after the app sized the caches) is bounded for that screen at once: the Focus (2023)
    faces kept 8 MB instead of one 1280x720 screen's 3.5 MB in the soak."""
    render.fit_caches((1280, 720))
    late = render.screen_cache(1.0, 8 * 2**20)
    try:
        assert late.max_bytes == 1280 * 720 * 4
        for i in range(40):
            late.put(i, pygame.Surface((400, 300), 0, 32))
        assert late.bytes == _bytes(late) <= 1280 * 720 * 4
    finally:
        render._SCREEN_CACHES[:] = [c for c in render._SCREEN_CACHES if c[0] is not late]
