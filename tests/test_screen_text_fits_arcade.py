"""The arcade's own screens, on every display size from a 480x320 panel to a 1080p TV, show
their text whole (tests/text_fit.py): the attract loop (title, the band over a demo game,
the high scores), the lobby (every game, every row, seats joined), the results with a high
score's initials, the PIN screen and the service menu with each of its pages.  The arcade
is driven as on an event day (tests/test_event_day.py: mock GPIO pins, a virtual clock).

The games' own screens are checked by tests/test_screen_text_fits.py; here only what the
arcade draws (over a game: the demo band and messages) counts.  Every language the arcade
speaks, each at every size (issue 26: translations run longer)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from kiosk import render  # noqa: E402
from kiosk.scenes.attract import AttractScene  # noqa: E402
from kiosk.scenes.lobby import LobbyScene  # noqa: E402
from kiosk.scenes.results import ResultsScene  # noqa: E402
from kiosk.scenes.service.menu import ServiceScene  # noqa: E402
from kiosk.scenes.service.pin import PinScene  # noqa: E402
from kiosk.scenes.service.rows import MENU, SETTINGS  # noqa: E402
from tests.test_event_day import BUZZ, MS, P1, P2, Day, choose_game, enter_pin, event_config, menu_to, play_to_results  # noqa: E402
from tests.text_fit import TextSeen, cut_texts, language_fixture  # noqa: E402,F401  (the fixture "language")

SIZES = [(480, 320), (640, 480), (800, 480), (1280, 720), (1920, 1080)]
SHOTS = os.environ.get("FOCUS_ARCADE_FIT_SHOTS", "")


class SeenDay(Day):
    """An event day whose every frame is looked at: the lines cut on the screen, by where
    in the day they were drawn (``where``).  What a game scene draws itself is left out."""

    def __init__(self, path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
        super().__init__(path, monkeypatch, size=size)
        self.seen = TextSeen(monkeypatch)
        self.seen.watch(self.screen)
        self.where = "start"
        self._frame = 0
        self.bad: dict[str, tuple[pygame.Rect, pygame.Rect, float]] = {}
        self.words: set[str] = set()
        self._off = pygame.Surface((1, 1))
        self._quiet: set[int] = set()
        stack = self.app.stack
        drawn = stack.drawn

        def drawn_quietly() -> Any:
            scenes = drawn()
            for scene in scenes:
                self._leave_out_game(scene)
            return scenes
        stack.drawn = drawn_quietly             # type: ignore[method-assign]

    def at(self, where: str) -> None:
        """What follows is ``where`` in the day; every part of the screen is drawn again."""
        self.where = where
        self._frame = 0
        render.redraw_everything()

    def _leave_out_game(self, top: Any) -> None:
        if not self.app.is_game(top) or id(top) in self._quiet:
            return
        self._quiet.add(id(top))
        draw = top.draw

        def quiet_draw(surface: pygame.Surface, *a: Any, **k: Any) -> Any:
            self.seen.watch(self._off)          # the game's own words: tests/test_screen_text_fits.py
            try:
                return draw(surface, *a, **k)
            finally:
                self.seen.watch(self.screen)
        top.draw = quiet_draw                   # type: ignore[method-assign]

    def frames(self, n: int, step_ns: int = 16_666_667, until: Callable[[], bool] | None = None) -> bool:
        for _ in range(n):
            self.seen.seen.clear()
            if not super().frames(1, step_ns):
                return False
            self.words.update(m for m, *_ in self.seen.seen)
            if SHOTS and self._frame % 8 == 0:    # FOCUS_ARCADE_FIT_SHOTS=<folder>: pictures to look at
                w, h = self.screen.get_size()
                name = "".join(c if c.isalnum() else "-" for c in self.where)
                pygame.image.save(self.screen, os.path.join(SHOTS, f"{w}x{h}-{name}-{self._frame:04d}.png"))
            self._frame += 1
            for msg, where in cut_texts(self.seen, self.screen).items():
                self.bad.setdefault(f"{self.where}: {msg}", where)
            if until is not None and until():
                return True
        return until() if until is not None else True

    def assert_whole(self) -> None:
        assert not self.bad, "\n".join(f"{m!r}: drawn {r[0]}, part {r[1]}, kept {r[2]}" for m, r in self.bad.items())


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def day(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        language: str) -> Iterator[SeenDay]:
    d = SeenDay(event_config(tmp_path), monkeypatch, request.param)
    try:
        yield d
    finally:
        d.close()


def test_attract_title_demo_band_and_high_scores(day: SeenDay) -> None:
    d, app = day, day.app
    for initials, cards in (("ACE", 21), ("BOB", 17), ("ZOE", 14), ("MAX", 25), ("IDA", 9)):
        app.highscores.add("focusx:classic", initials, cards)
    app.home()
    d.at("title")
    d.frames(3)
    d.at("demo game")
    assert d.frames(200, 50 * MS, until=lambda: app.is_game(d.top))
    d.frames(60, 50 * MS)
    d.at("high scores")
    assert d.frames(400, 50 * MS, until=lambda: isinstance(d.top, AttractScene))
    d.frames(20, 50 * MS)
    assert {"1. MAX", "2. ACE"} <= d.words, sorted(d.words)           # the table was drawn
    d.assert_whole()


def test_lobby_every_game_every_row_and_seats_joined(day: SeenDay) -> None:
    d, app = day, day.app
    app.home()
    d.frames(2)
    d.at("lobby")
    d.press(BUZZ[0])                                         # P1 joins
    lobby = d.top
    assert isinstance(lobby, LobbyScene)
    for _ in range(len(lobby.games)):
        d.at(f"lobby, game {lobby.games[lobby.game_i].name}")
        d.frames(2)
        d.press(P1["right"])
    d.at("lobby, seats joined")
    d.press(BUZZ[2])                                         # P3 joins with its buzzer
    d.press(BUZZ[1])
    assert {0, 1, 2} <= set(lobby.joined)
    choose_game(d, "focusx", "classic")
    while lobby.row < lobby.start_row:
        d.at(f"lobby, row {lobby.row}")
        d.press(P1["ok"])
        d.frames(2)
    d.at("lobby, start row")
    d.frames(4)
    d.assert_whole()


def test_results_with_the_initials_of_a_high_score(day: SeenDay) -> None:
    d, app = day, day.app
    app.home()
    d.frames(2)
    d.press(BUZZ[0])
    lobby = choose_game(d, "focusx", "classic")
    d.press(P1["ok"])
    d.press(P1["left"])
    d.press(P1["left"])
    while lobby.row < lobby.start_row:
        d.press(P1["ok"])
    d.press(P1["ok"])                                        # Start
    assert app.is_game(d.top)
    d.at("over the game")
    results = play_to_results(d)
    d.at("results, initials")
    d.frames(10, 50 * MS)
    assert results.entering
    d.press(P1["ok"])
    d.press(P1["right"])
    d.press(P1["ok"])
    d.frames(4)
    d.press(P1["ok"])
    d.at("results, high scores")
    d.frames(40, 50 * MS)
    assert isinstance(d.top, ResultsScene) and not results.entering
    d.assert_whole()


def test_pin_screen_service_menu_and_every_page(day: SeenDay) -> None:
    d, app = day, day.app
    app.home()
    d.frames(2)
    d.at("PIN")
    d.hold([P1["ok"], P2["ok"]], 3.2)
    assert isinstance(d.top, PinScene)
    enter_pin(d, "1111")                                     # a wrong PIN: its message
    d.frames(4)
    enter_pin(d, "2580")
    svc = d.top
    assert isinstance(svc, ServiceScene)
    d.at("menu")
    for _ in MENU:
        d.press(P1["right"])
    d.at("button test")
    menu_to(d, svc, "buttons")
    d.press(BUZZ[2])
    d.pin(BUZZ[3]).drive_low()                               # a stuck buzzer
    d.frames(130, 50 * MS)
    d.pin(BUZZ[3]).drive_high()
    d.frames(2)
    d.hold([P1["ok"], P2["ok"]], 3.2)                        # the way back
    assert svc.page == "menu"
    for page in ("led", "sound"):
        d.at(f"{page} page")
        menu_to(d, svc, page)
        for _ in range(3):
            d.press(P1["right"])
            d.frames(4, 100 * MS)
        d.press(P1["x"])
        assert svc.page == "menu"
    d.at("settings")
    menu_to(d, svc, "settings")
    for _ in range(len(SETTINGS) + 2):
        d.press(P1["right"])
    d.press(P1["x"])
    for what in ("reset", "restart", "stop", "shutdown", "reboot"):
        d.at(f"{what}: are you sure")
        menu_to(d, svc, what)
        assert svc.page == "confirm"
        d.frames(2)
        d.press(P1["ok"])                                    # "No" first: back to the menu
        assert svc.page == "menu"
    assert d.commands == []
    d.assert_whole()
