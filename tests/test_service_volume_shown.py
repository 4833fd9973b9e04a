"""The volume reads the same on every service page (issue 20: "80%" on the sound page, "0.8"
on the settings page): a percentage, its step too ("+10%")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kiosk.scenes.service.menu import ServiceScene
from kiosk.scenes.service.rows import SETTINGS
from tests.explorer import SIZES, Explorer


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_volume_is_a_percentage_on_the_settings_and_the_sound_pages(size: tuple[int, int],
                                                                         tmp_path: Path) -> None:
    ex = Explorer(tmp_path, seed=1, size=size, check_text=0)
    try:
        ex.app.enter_service()
        ex.run(0.1)
        svc = ex.top
        assert isinstance(svc, ServiceScene)
        for page, row in (("settings", next(i for i, s in enumerate(SETTINGS) if s.key == "volume")), ("sound", 0)):
            svc.page, svc.cursor = page, row
            svc.editing = True                               # the hint says what a tap does to it
            ex._draw_now = True
            ex.app.draw()
            words = ex.seen.words()
            assert "80%" in words, (page, words)
            assert "+10%" in words, (page, words)
            assert not re.search(r"\b0\.8\b|\+0\.1\b", words), (page, words)
            svc.editing = False
        svc.values[("sound", "volume")] = 0.5
        svc.page = "sound"
        svc._keep_volume()
        assert svc.status.startswith("Volume 50% saved"), svc.status
    finally:
        ex.close()
