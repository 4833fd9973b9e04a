"""Issue 14 newcomer: on a 480x320 panel the title screen's results-file notice (it names the
damaged file's copy) was cut at both edges of the screen.  In every language the arcade speaks
(issue 26)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402

from arcade.i18n import _  # noqa: E402
from kiosk.scenes.attract import AttractScene  # noqa: E402
from tests.text_fit import TextSeen, language_fixture, sized_app  # noqa: E402,F401  (the fixture "language")

NOTICE = ("1 damaged row of the results file put aside (table set_aside); the file as it was is kept "
          "as /tmp/nc14w/dmg/a.sqlite3.damaged-1796194338.")


@pytest.mark.parametrize("size", [(480, 320), (640, 480), (800, 480), (1280, 720)])
def test_the_results_file_notice_shows_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             size: tuple[int, int], language: str) -> None:
    app = sized_app(tmp_path, size)
    try:
        title = AttractScene(app)
        title.store_notices = [NOTICE]
        seen = TextSeen(monkeypatch)
        seen.watch(app.screen)
        title.draw(app.screen)
        shown = _("Results file: {notice}").format(notice=NOTICE)
        lines = [(m, r, kept) for m, r, _clip, kept in seen.seen if m and m in shown and len(m) > 12]
        assert " ".join(m for m, *_ in lines).split() == shown.split(), lines
        screen = app.screen.get_rect()
        for m, r, kept in lines:
            assert screen.contains(r), (m, r)
            assert kept >= 0.6, (m, kept)
    finally:
        app.close()
