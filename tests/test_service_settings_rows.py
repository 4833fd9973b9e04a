"""The service menu's settings page at 1280x720: 31 rows (the settings, one per game, Save...)
were squeezed to 16 px each, overlapping, text below 24 px (issue 10).  The page scrolls
instead: every row shown is at least 44 px high and the cursor's row is always on screen.
Each row's words and value are drawn whole as the page scrolls, in every language the arcade
speaks (issue 26: "Computer takes an idle turn after" runs longer in Ukrainian)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_event_day import P1, Day, event_config, menu_to, open_service
from text_fit import TextSeen, cut_texts, language_fixture  # noqa: F401  (the fixture "language")

from kiosk import render
from kiosk.scenes.service.rows import SETTINGS


def test_settings_page_scrolls_with_readable_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  language: str) -> None:
    d = Day(event_config(tmp_path), monkeypatch, size=(1280, 720))
    try:
        d.app.home()
        d.frames(2)
        svc = open_service(d)
        menu_to(d, svc, "settings")
        n = len(svc.rows())
        assert svc.page == "settings" and n > 20
        assert (svc.rows()[0] == SETTINGS[0].label) == (language == "en"), svc.rows()[0]   # the language spoken
        seen = TextSeen(monkeypatch, ink=False)
        seen.watch(d.screen)
        shown: set[str] = set()
        cut: dict[str, object] = {}
        for _ in range(n):                         # P1's right control walks every row down to Save
            first, count, step = svc.list_window(720, n)
            assert step >= svc.MIN_ROW and first <= svc.cursor < first + count
            assert 90 + count * step <= 720 - 130  # above the status lines
            seen.seen.clear()
            render.redraw_everything()
            svc.draw(d.screen)
            shown.update(m for m, *_ in seen.seen)
            cut.update(cut_texts(seen, d.screen))
            d.press(P1["right"])
        assert set(svc.rows()) <= shown            # every row was on screen at some point
        assert not cut, cut
    finally:
        d.close()
