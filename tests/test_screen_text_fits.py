"""Every game's screen, on every display size from a 480x320 panel to a 1080p TV, shows its
text whole: no line runs off the screen or out of its part of it, none is squeezed
unreadably (tests/text_fit.py).  The games are played a while by one person's seat (P1,
on GPIO) and computers, so the person's prompts and hints are on screen."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from kiosk import render  # noqa: E402
from kiosk.players.thinker import wait_shared_idle  # noqa: E402
from kiosk.scenes.lobby import lobby_games  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import TextSeen, cut_texts, sized_app  # noqa: E402

SIZES = [(480, 320), (640, 480), (800, 480), (1280, 720), (1920, 1080)]
FRAME = 50_000_000          # 50 ms of virtual time a frame: the games move on quickly
GAMES = [g.name for g in lobby_games()]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", GAMES)
def test_every_line_of_a_game_screen_is_shown_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    name: str, size: tuple[int, int]) -> None:
    game = next(g for g in lobby_games() if g.name == name)
    app = sized_app(tmp_path, size)
    screen = app.screen
    seen = TextSeen(monkeypatch, ink=False)      # only cut_texts reads it
    seen.watch(screen)
    bad: dict[str, object] = {}
    try:
        for n in sorted({max(game.min_seats, 2), game.max_seats}):
            seats = [SeatInfo("gpio", "GPIO 17", "medium", True)] + \
                    [SeatInfo("computer", f"computer {i + 2}", "easy") for i in range(n - 1)]
            scene = game.start(app, seats)
            app.push(scene)
            t = 10 ** 12
            for f in range(160):
                if f % 40 == 0:
                    render.redraw_everything()          # every part drawn again, not only what changed
                seen.seen.clear()
                wait_shared_idle()
                app.step(t)
                t += FRAME
                for msg, where in cut_texts(seen, screen).items():
                    bad.setdefault(f"{n} seats: {msg}", where)
                if app.scenes[-1] is not scene:
                    break
            app.home()
    finally:
        app.close()
        pygame.display.quit()
    assert not bad, "\n".join(f"{m!r}: drawn {r[0]}, part {r[1]}, kept {r[2]}" for m, r in bad.items())  # type: ignore[index]
