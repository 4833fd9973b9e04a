"""FocusX's "RELEASE your buzzer" (FXA-39) stays inside its seat panel on a TV with many
seats (issue 20's explorer in its long mode, ``python -m tests.explorer --seed 1703 --size
1920x1080 --text-every 10 --frame-ms 50 --start focusx-4focus-x --monkey 180``: with eight
seats at 1920x1080 the label began at x = -30, off the screen)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from kiosk import render  # noqa: E402
from kiosk.games.focusx.scene import ClassicScene, FourFocusScene  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import TextSeen, cut_texts, sized_app  # noqa: E402


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("scene_class, seats_n", [(ClassicScene, 8), (ClassicScene, 6), (FourFocusScene, 4)])
def test_the_release_label_of_every_held_seat_stays_in_its_panel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 size: tuple[int, int], scene_class: type,
                                                                 seats_n: int) -> None:
    app = sized_app(tmp_path, size)
    try:
        scene = scene_class(app, [SeatInfo("gpio", f"GPIO {17 + i}") for i in range(seats_n)], seed=1)
        app.push(scene)
        scene.update(10 ** 12)
        every = tuple(range(seats_n))
        monkeypatch.setattr(scene.referee, "held", every)         # every buzzer held since before the opening
        seen = TextSeen(monkeypatch)
        seen.watch(app.screen)
        render.redraw_everything()
        scene.draw(app.screen)
        shown = [r for m, r, *_ in seen.seen if m.startswith("RELEASE")]
        assert len(shown) == seats_n, seen.words()            # one for every held seat ...
        bad = {m: v for m, v in cut_texts(seen, app.screen).items() if m.startswith("RELEASE")}
        assert not bad, bad                                   # ... each whole, on the screen
    finally:
        app.close()
        pygame.display.quit()
