"""kiosk.render's text fitting helpers for small panels: the first wording that fits
(text_best), an even pair of lines (wrap_even) and word-wrapped drawing (text_lines)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from kiosk import render  # noqa: E402


@pytest.fixture()
def surface() -> pygame.Surface:
    pygame.init()
    return pygame.Surface((400, 200))


def test_text_best_takes_the_first_wording_that_fits_at_the_largest_size(surface: pygame.Surface) -> None:
    long, short = "cards in hand", "in hand"
    room = render.font(24).size(short)[0] + 2
    r = render.text_best(surface, [long, short], (0, 0), room, (30, 24))
    assert r.w == render.font(24).size(short)[0]                 # the short wording, whole
    big = render.text_best(surface, [long, short], (0, 0), 400, (30, 24))
    assert big.w == render.font(30).size(long)[0]                # room: the clear wording, larger
    squeezed = render.text_best(surface, [long, short], (0, 0), 40, (30, 24))
    assert squeezed.w == 40                                      # nothing fits: squeezed, never cut
    with pytest.raises(ValueError):
        render.text_best(surface, [], (0, 0), 40)


def test_wrap_even_splits_two_lines_where_the_wider_is_narrowest() -> None:
    f = render.font(24)
    hint = "choose: left/right, OK"
    room = f.size("choose: left/right,")[0]
    assert render.wrap(hint, room, 24, 2) == ["choose: left/right,", "OK"]
    assert render.wrap_even(hint, room, 24, 2) == ["choose:", "left/right, OK"]
    assert render.wrap_even(hint, 1000, 24, 2) == [hint]         # one line when it fits


def test_text_lines_draws_each_line_within_the_width(surface: pygame.Surface) -> None:
    msg = "Race panel (ms after the first press)"
    step = render.font(24).get_linesize()
    r = render.text_lines(surface, msg, (10, 10), 200, 2, 24)
    assert r.w <= 200 and r.y == 10 and r.h > step                # two rows, none wider than asked
    assert render.text_lines(surface, "", (10, 10), 200, 2).size == (0, 0)
