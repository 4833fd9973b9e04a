"""Every game's screen, on every display size from a 480x320 panel to a 1080p TV, shows its
text whole: no line runs off the screen or out of its part of it, none is squeezed
unreadably (tests/text_fit.py), in every language the arcade speaks (and in one other than
English no line is an English message of its catalog left untranslated).  The games are
played a while by one person's seat (P1, on GPIO) and computers, so the person's prompts and
hints are on screen."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

import kiosk.app.loop as kapp  # noqa: E402
from kiosk import render  # noqa: E402
from kiosk.players.thinker import wait_shared_idle  # noqa: E402
from kiosk.scenes.lobby import lobby_games  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import LANGUAGES, TextSeen, cut_texts, sized_app, speaking, untranslated  # noqa: E402
from tests.virtual_kiosk import Clock  # noqa: E402

SIZES = [(480, 320), (640, 480), (800, 480), (1280, 720), (1920, 1080)]
FRAME = 50_000_000          # 50 ms of virtual time a frame: the games move on quickly
GAMES = [g.name for g in lobby_games()]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_of_a_game_screen_is_shown_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    lang: str, name: str, size: tuple[int, int]) -> None:
    game = next(g for g in lobby_games() if g.name == name)
    app = sized_app(tmp_path, size)
    screen = app.screen
    seen = TextSeen(monkeypatch, ink=False)      # only cut_texts reads it
    seen.watch(screen)
    bad: dict[str, object] = {}
    english: set[str] = set()
    clock = Clock()
    clock.t = 10 ** 12
    monkeypatch.setattr(kapp, "time", clock.module())    # the flip's moment on the test's clock too
    with speaking(lang):
        _play(app, clock, game, seen, bad, english)
    assert not bad, "\n".join(f"{m!r}: drawn {r[0]}, part {r[1]}, kept {r[2]}" for m, r in bad.items())  # type: ignore[index]
    assert not english, f"English left on a {lang} screen: {sorted(english)}"


def _play(app: Any, clock: Clock, game: Any, seen: TextSeen, bad: dict[str, object], english: set[str]) -> None:
    """Plays ``game`` on ``clock``, the app's only clock, so the races open and close as in a
    real game whatever the machine's uptime (its real clock neither ahead nor behind)."""
    screen = app.screen
    try:
        for n in sorted({max(game.min_seats, 2), game.max_seats}):
            seats = [SeatInfo("gpio", "GPIO 17", "medium", True)] + \
                    [SeatInfo("computer", f"computer {i + 2}", "easy") for i in range(n - 1)]
            scene = game.start(app, seats)
            app.push(scene)
            for f in range(160):
                if f % 40 == 0:
                    render.redraw_everything()          # every part drawn again, not only what changed
                seen.seen.clear()
                wait_shared_idle()
                app.step(clock.t)
                clock.t += FRAME
                for msg, where in cut_texts(seen, screen).items():
                    bad.setdefault(f"{n} seats: {msg}", where)
                english |= untranslated(seen)
                if app.scenes[-1] is not scene:
                    break
            app.home()
    finally:
        app.close()
        pygame.display.quit()
