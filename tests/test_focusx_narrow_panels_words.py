"""FocusX's seat panels at 8 seats on a 480x320 panel (45 px inside each) say their labels and
tags whole in every language: a shorter wording where the long one does not fit (issue 26's
screenshots: the Ukrainian "виграно" squeezed to 69 %, "РАПТОВА СМЕРТЬ", "ЗАБІГ ЗАРАЗ" and
"ДАЛІ: чекайте" had no shorter wording at all)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from arcade import i18n  # noqa: E402
from kiosk import render  # noqa: E402
from kiosk.games.focusx.panels import SeatPanel, screen_regions, seat_panels  # noqa: E402
from tests.text_fit import LANGUAGES, TextSeen, speaking  # noqa: E402

#: The 8-seat games' labels (Classic: cards won; Duel: penalty cards) and tags (Classic's sudden
#: death and race out, Duel's racing now and next), in English as the scenes mark them.
LABELS = ("cards won", "penalty cards")
TAGS = ("SUDDEN DEATH", "OUT this race", "RACE NOW", "NEXT: wait")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_eight_seat_panel_says_its_label_and_tag_whole(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    pygame.init()
    screen = pygame.Surface((480, 320))
    area = screen_regions(*screen.get_size()).seats
    squeezed: dict[str, float] = {}
    with speaking(lang):
        seen = TextSeen(monkeypatch, ink=False)
        seen.watch(screen)
        for label in LABELS:
            for tag in TAGS:
                seen.clear()
                seats = [SeatPanel("3", i18n._(label), ("pile 3",), s == 0, False, False,
                                   (i18n._(tag), render.GOLD), f"computer {s + 1}") for s in range(8)]
                seat_panels(screen, area, seats, True)
                drawn = {m: kept for m, _r, _clip, kept in seen.seen}
                assert any(m.startswith("P8") for m in drawn)                 # all eight drawn
                assert len([m for m in drawn if m != "3" and not m.startswith("P")]) >= 2, drawn
                squeezed |= {f"{label} / {tag}: {m!r}": kept for m, kept in drawn.items() if kept < 1.0}
    assert not squeezed, squeezed
