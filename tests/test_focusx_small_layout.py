"""The FocusX screen on a small panel (480x320, 640x480, 800x480) with the most text it
shows: a full race panel (R-7: every press of the last races), a long banner, the chooser's
hint, the seat tags.  Every line is whole and readable (tests/text_fit.py), every press of
the newest race is listed, and a TV keeps the full layout."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from kiosk import render  # noqa: E402
from kiosk.games.focusx.scene import ClassicScene, DuelScene, PanelEntry, ThinkFocusScene  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import TextSeen, cut_texts, sized_app  # noqa: E402

SMALL = [(480, 320), (640, 480), (800, 480)]


def _busy(scene: ClassicScene | DuelScene | ThinkFocusScene, n: int) -> None:
    """The race panel full (three races of n presses, the longest statuses) and a long banner."""
    statuses = ["won", "tied-last", "penalty", "safe", "late", "false", "last", "safe"]
    for k in range(3):
        rows = [(s, "focus-ex" if s == 0 else "focus", 1234.5 * s, statuses[s % 8]) for s in range(n)]
        scene.history.appendleft(PanelEntry(f"won: first press at {k}1234.5 ms", render.SEAT_COLOURS[k], rows,
                                            ["P3: no press by the deadline", "last to press: P1, P2, P3"]))
    scene.banner = ("Tie-break debated: P1, P2, P3 take one card each", render.GOLD, scene.now + 10**12)


@pytest.mark.parametrize("size", SMALL, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("cls,n", [(ClassicScene, 2), (ClassicScene, 8), (DuelScene, 8), (ThinkFocusScene, 4)])
def test_a_full_focusx_screen_on_a_small_panel_shows_every_line_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], cls: type, n: int) -> None:
    app = sized_app(tmp_path, size)
    try:
        seats = [SeatInfo("gpio", "GPIO 17", "medium", True)] + \
                [SeatInfo("computer", f"computer {i + 2}", "easy") for i in range(n - 1)]
        scene = cls(app, seats, seed=7, x_rule=True)
        app.push(scene)
        _busy(scene, n)
        if isinstance(scene, ClassicScene):
            scene.choose_seat, scene.choose_spot = 0, 0        # P1 choosing a spot: the hint shows
        screen = pygame.display.get_surface()
        seen = TextSeen(monkeypatch)
        seen.watch(screen)
        render.redraw_everything()
        scene.draw(screen)
        assert scene.regions.compact
        assert not cut_texts(seen, screen), cut_texts(seen, screen)
        words = seen.words()
        assert all(f"P{s + 1}" in words for s in range(n))
        newest = [m for m, r, _c, _k in seen.seen if m.startswith("P") and scene.regions.side.contains(r)]
        assert newest[:min(n, 4)] == [f"P{s + 1}{' X' if s == 0 else ''}" for s in range(min(n, 4))]
        assert "Tie-break" in words                              # the banner, whole (wrapped)
        if isinstance(scene, ClassicScene):
            assert "left/right choose, OK lays" in words         # the controls hint, complete
        if isinstance(scene, ThinkFocusScene):
            assert "ACTIVE" in words and "choose" in words
    finally:
        app.close()
        pygame.display.quit()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_tv_keeps_the_full_focusx_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           size: tuple[int, int]) -> None:
    app = sized_app(tmp_path, size)
    try:
        scene = ClassicScene(app, [SeatInfo("computer", f"computer {i + 1}", "easy") for i in range(2)], seed=7)
        app.push(scene)
        screen = pygame.display.get_surface()
        seen = TextSeen(monkeypatch)
        seen.watch(screen)
        render.redraw_everything()
        scene.draw(screen)
        assert not scene.regions.compact
        drawn = {m: r for m, r, _c, _k in seen.seen}
        assert drawn[scene.title].topleft == (20, 12)
        assert "Race panel (ms after the first press)" in drawn
        assert drawn["cards won"].y == scene.regions.seats.y + 58         # the label where the TV had it
    finally:
        app.close()
        pygame.display.quit()


@pytest.mark.parametrize("size", SMALL, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_duel_tiebreak_heading_is_whole_on_a_small_panel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              size: tuple[int, int]) -> None:
    from test_focusx_duel import fx10_tied  # the FX-10 tie for the fewest penalty cards

    st = fx10_tied()
    assert st.tiebreak is not None
    app = sized_app(tmp_path, size)
    try:
        scene = DuelScene(app, [SeatInfo("computer", f"computer {i + 1}", "easy") for i in range(4)], seed=7)
        app.push(scene)
        scene.state = st
        screen = pygame.display.get_surface()
        seen = TextSeen(monkeypatch)
        seen.watch(screen)
        render.redraw_everything()
        scene.draw(screen)
        assert not cut_texts(seen, screen), cut_texts(seen, screen)
        assert "Tie-break: P1, P2 - first to win a focus wins" in " ".join(m for m, *_ in seen.seen)
    finally:
        app.close()
        pygame.display.quit()
