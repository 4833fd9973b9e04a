"""Flat memory for a whole day (issue 23, part 5): every drawing cache has a bound in bytes,
and fonts hold no open file.

What the operator notices: a cabinet that runs from morning to night does not grow until
the Pi runs out of memory or file descriptors.  The soak itself is ``bench/bench_soak.py``
(two hours, RSS and open files every 10 minutes); these tests check the bounds it relies on.
"""

from __future__ import annotations

import os

import pygame
import pytest

from kiosk import render


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
            render.card_surface(number, w, int(w * 1.4))
    assert _bytes(render._cards) <= render.CARDS_MAX_BYTES
    face = render.card_surface(3, 250, 350)
    assert render.card_surface(3, 250, 350) is face          # still a cache


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
