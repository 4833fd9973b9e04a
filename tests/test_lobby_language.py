"""The lobby offers a language for the game night (issue 26, item 2): a row after the seats,
before Start, showing each language by its own name; changed with station controls or a
buzzer alone like every other row; the next frame speaks it, and so does every screen after it
(the game, its results, the title, the next lobby) until the arcade starts again."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from arcade import i18n  # noqa: E402
from kiosk import render  # noqa: E402
from kiosk.controls.input import Command  # noqa: E402
from kiosk.scenes.attract import AttractScene  # noqa: E402
from kiosk.scenes.lobby import LobbyScene  # noqa: E402
from tests.explorer import Explorer  # noqa: E402
from tests.text_fit import TextSeen, compiled, cut_texts, sized_app  # noqa: E402


@pytest.fixture
def app(tmp_path: Path) -> Iterator[object]:
    compiled("uk")
    a = sized_app(tmp_path, (1280, 720))
    try:
        yield a
    finally:
        a.close()
        pygame.display.quit()


def drawn(app: object, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The words of the next frame."""
    seen = TextSeen(monkeypatch, ink=False)
    seen.watch(app.screen)  # type: ignore[attr-defined]
    render.redraw_everything()
    app.draw()  # type: ignore[attr-defined]
    return [m for m, *_ in seen.seen]


def test_the_language_row_sits_after_the_seats_and_names_each_language_in_its_own_words(
        app: object, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = LobbyScene(app)  # type: ignore[arg-type]
    app.replace(lobby)  # type: ignore[attr-defined]
    rows = lobby.row_texts()
    assert len(rows) == lobby.start_row + 1 and lobby.language_row == 3 + lobby.players
    assert rows[lobby.language_row] == ("Language", "< English >")
    assert rows[lobby.start_row][0] == "Start"
    lobby.row = lobby.language_row
    lobby.on_command(Command("right"))                  # station controls: right changes the row
    assert i18n.current() == "uk"
    words = drawn(app, monkeypatch)                      # the very next frame speaks it
    assert "Лобі" in words and "Мова" in words and "< Українська >" in words, words
    assert "Lobby" not in words and "Start" not in words
    seen = TextSeen(monkeypatch, ink=False)
    seen.watch(app.screen)  # type: ignore[attr-defined]
    render.redraw_everything()
    app.draw()  # type: ignore[attr-defined]
    at = {m: r for m, r, *_ in seen.seen}
    for name, value in lobby.row_texts():                # a longer name never runs into its value
        assert at[name].right + 8 <= at[value].left, (name, at[name], value, at[value])
    lobby.on_command(Command("right"))                  # and comes round
    assert i18n.current() == "en" and "Lobby" in drawn(app, monkeypatch)
    lobby.on_command(Command("left"))
    assert i18n.current() == "uk"


def test_the_nights_language_lasts_past_the_lobby_and_the_title(app: object,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = LobbyScene(app)  # type: ignore[arg-type]
    app.replace(lobby)  # type: ignore[attr-defined]
    lobby.row = lobby.language_row
    lobby.on_command(Command("right"))
    app.home()  # type: ignore[attr-defined]
    assert isinstance(app.scenes[-1], AttractScene)  # type: ignore[attr-defined]
    words = drawn(app, monkeypatch)
    assert "Натисніть кнопку, щоб грати" in words, words
    again = LobbyScene(app)  # type: ignore[arg-type]
    app.replace(again)  # type: ignore[attr-defined]
    assert i18n.current() == "uk" and dict(again.row_texts())["Мова"] == "< Українська >"


@pytest.mark.parametrize("size", [(480, 320), (1920, 1080)])
def test_a_buzzer_alone_reaches_the_language_row_chooses_and_leaves_it(tmp_path: Path,
                                                                        size: tuple[int, int]) -> None:
    """The buzzers-only cabinet (tests/explorer.py): holds reach the row, taps choose, the frame
    after is in Ukrainian and every line of it whole, a hold goes on to Start, a long hold
    leaves; then a whole game night in Ukrainian: a game chosen, played to its results, the
    initials entered, back to the title, every line whole at every frame checked."""
    ex = Explorer(tmp_path, seed=26, size=size, check_text=5)
    try:
        ex.language_row("uk")
        assert ex.checks.held.get("lobby: the language row (uk)") == 1
        ex.goal("focusx-classic")
        assert i18n.current() == "uk"
        assert ex.checks.held.get("results: the winning rule") == 1
    finally:
        ex.close()


@pytest.mark.parametrize("size", [(480, 320), (800, 480)])
def test_eight_seats_and_the_language_row_on_a_small_panel_show_the_highlighted_row_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """Thirteen rows under two notes on a 480x320 panel do not fit: the rows around the
    highlighted one are shown, whole, in both languages."""
    compiled("uk")
    a = sized_app(tmp_path, size)
    try:
        lobby = LobbyScene(a)
        a.replace(lobby)
        lobby.players = 8
        a.message("P1 seems to be away: a computer plays P1's turns until P1 presses again", 8)
        a.message("Nobody has pressed for 20 s: everyone seems to have left, so the game was put away", 8)
        for code in ("en", "uk"):
            i18n.use(code)
            for row in range(lobby._rows()):
                lobby.row = row
                seen = TextSeen(monkeypatch, ink=False)
                seen.watch(a.screen)
                render.redraw_everything()
                a.draw()
                assert cut_texts(seen, a.screen) == {}, (code, row)
                name = lobby.row_texts()[row][0]
                assert name in [m for m, *_ in seen.seen], (code, row, name)
    finally:
        a.close()
        pygame.display.quit()
