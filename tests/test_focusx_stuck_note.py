"""FocusX's "buzzer stuck" note never covers the title row (issue 20: a newcomer's run on the
installer's configuration saw "Buzzer stuck down: P1 ..." drawn over "race 4 | cards left" at
1280x720).  The note goes into the game's own message strip; the seat's panel says STUCK."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from arcade.core.events import Edge  # noqa: E402
from kiosk import render  # noqa: E402
from kiosk.games.focusx.scene import ClassicScene  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import TextSeen, cut_texts, sized_app  # noqa: E402

MS = 1_000_000


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1280, 720), (1920, 1080)])
def test_the_stuck_note_is_shown_and_leaves_the_title_row_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  size: tuple[int, int]) -> None:
    app = sized_app(tmp_path, size)
    try:
        scene = ClassicScene(app, [SeatInfo("gpio", f"GPIO {17 + i}") for i in range(4)], seed=1)
        app.push(scene)
        t = 10 ** 12
        scene.update(t)
        scene.on_edge(Edge(t, 0, "buzzer", True, "gpio"))     # P1's buzzer goes down and stays down
        stuck_ns = int(float(app.cfg["judge"]["stuck_after_s"]) * 1e9)
        while t < 10 ** 12 + stuck_ns + 500 * MS:
            t += 20 * MS
            scene.update(t)
            app.draw()
            scene.frame_shown(t)
        assert 0 in scene.referee.stuck
        seen = TextSeen(monkeypatch)
        seen.watch(app.screen)
        render.redraw_everything()
        app.draw()
        lines = [(m, r) for m, r, *_ in seen.seen if m.strip()]
        notes = [r for m, r in lines if "stuck" in m.lower()]
        assert notes, seen.words()                            # the guests are told
        title = [(m, r) for m, r in lines if m.startswith(("FocusX", "race ", "Classic"))]
        assert len(title) >= 2, seen.words()
        for m, r in title:
            assert r.bottom <= scene.regions.title.bottom + 4
            covered = [n for n in notes if n.colliderect(r)]
            assert not covered, (m, r, covered)               # the title row stays readable
        assert not cut_texts(seen, app.screen)
    finally:
        app.close()
        pygame.display.quit()


def test_a_stuck_buzzer_is_one_warning_in_the_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The technician reads the journal after the event (the Pi rehearsal holds a real GPIO
    line down, issue 25): the stuck buzzer is there once, by seat, while it stays down."""
    import logging
    app = sized_app(tmp_path, (1280, 720))
    caplog.set_level(logging.WARNING, logger="focus-arcade")
    try:
        scene = ClassicScene(app, [SeatInfo("gpio", f"GPIO {17 + i}") for i in range(4)], seed=1)
        app.push(scene)
        t = 10 ** 12
        scene.update(t)
        scene.on_edge(Edge(t, 1, "buzzer", True, "gpio"))     # P2's buzzer goes down and stays down
        stuck_ns = int(float(app.cfg["judge"]["stuck_after_s"]) * 1e9)
        while t < 10 ** 12 + 3 * stuck_ns:
            t += 20 * MS
            scene.update(t)
            scene.frame_shown(t)
        said = [r.getMessage() for r in caplog.records if "stuck" in r.getMessage()]
        assert said == ["buzzer stuck down: P2 (ignored until released)"], said
    finally:
        app.close()
        pygame.display.quit()
