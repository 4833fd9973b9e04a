"""The results screen's high-score panel (issue 20, a newcomer's run on the installer's
configuration): the attract loop's demo games ended on an empty "no scores yet" table.  A
results screen shows a board only when it has entries (or initials are being entered), and a
demo game, which takes no high score, shows its game's real board.  "New high score!" is said
only of a score the board ranks first; another score that makes the board is told its place."""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pytest

from arcade.core.api import Outcome
from kiosk.scenes.lobby import find_game
from kiosk.scenes.results import ResultsScene
from kiosk.scenes.seats import SeatInfo
from tests.explorer import SIZES, Explorer
from tests.text_fit import cut_texts

SHOTS = os.environ.get("FOCUS_ARCADE_TEST_SHOTS", "")


@pytest.fixture(params=SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def ex(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Explorer]:
    e = Explorer(tmp_path, seed=3, size=request.param, check_text=0)
    try:
        yield e
    finally:
        e.close()


def results(ex: Explorer, entry: str, scores: tuple[float, ...], winners: tuple[int, ...],
            people: int = 2) -> ResultsScene:
    ex.app.current_game = find_game(entry, None)
    state = SimpleNamespace(game=SimpleNamespace(name=entry), stats={"races": 30},
                            outcome=lambda: Outcome(winners, "the deck ran out", scores))
    seats = [SeatInfo("gpio", f"GPIO {p}") for p in (17, 27, 22, 23)[:people]] + \
        [SeatInfo("computer", "c")] * (len(scores) - people)
    return ResultsScene(ex.app, ex.app.current_game.label, state, seats, entry=entry)


def drawn(ex: Explorer, r: ResultsScene, name: str) -> str:
    import pygame
    ex.seen.seen.clear()
    r.draw(ex.screen)
    assert not cut_texts(ex.seen, ex.screen), cut_texts(ex.seen, ex.screen)
    if SHOTS:
        w, h = ex.screen.get_size()
        pygame.image.save(ex.screen, f"{SHOTS}/{name}-{w}x{h}.png")
    return ex.seen.words()


def test_a_demo_game_shows_no_empty_board(ex: Explorer) -> None:
    ex.app.attract_demo = True
    r = results(ex, "focusx-classic", (9.0, 4.0, 3.0, 2.0), (0,), people=0)
    words = drawn(ex, r, "demo-empty")
    assert "no scores" not in words and "All time" not in words, words
    assert not r.entries


def test_a_demo_game_shows_the_real_board_of_its_game(ex: Explorer) -> None:
    ex.app.highscores.add("focusx-classic", "ZED", 21, at=time.time())
    ex.app.attract_demo = True
    r = results(ex, "focusx-classic", (30.0, 4.0, 3.0, 2.0), (0,), people=0)
    words = drawn(ex, r, "demo-board")
    assert "ZED" in words, words                             # the board's real entry ...
    assert not r.entries and "New high score" not in words   # ... and the demo takes no place on it


def test_a_duel_score_that_ranks_last_is_not_called_a_new_high_score(ex: Explorer) -> None:
    """FocusX Duel: fewest penalty cards wins (the registry's rule).  A board with two entries
    (2 and 3 penalty cards) has room, so 42 penalty cards make it, third: not "New high score!"."""
    now = time.time()
    for initials, penalties in (("AAA", 2), ("BBB", 3)):
        ex.app.highscores.add("focusx-duel", initials, penalties, at=now)
    r = results(ex, "focusx-duel", (42.0, 1.0, 5.0, 6.0), (1,), people=1)
    assert [(e.seat, e.score) for e in r.entries] == [(0, 42.0)]
    words = drawn(ex, r, "duel-worst")
    assert "New high score" not in words and "best score" not in words, words
    assert "#3 today" in words, words                         # the place the board gives it
    r._act(0, "ok"), r._act(0, "ok"), r._act(0, "ok")
    assert [s for _, s in ex.app.highscores.table("focusx-duel", r.rule)] == [2.0, 3.0, 42.0]


def test_a_duel_score_with_the_fewest_penalty_cards_is_a_new_high_score(ex: Explorer) -> None:
    now = time.time()
    for initials, penalties in (("AAA", 2), ("BBB", 3)):
        ex.app.highscores.add("focusx-duel", initials, penalties, at=now)
    r = results(ex, "focusx-duel", (1.0, 9.0, 5.0, 6.0), (0,), people=2)
    assert [(e.seat, e.score, e.place_ever) for e in r.entries] == [(0, 1.0, 1), (1, 9.0, 4)]
    words = drawn(ex, r, "duel-best")
    assert "New high score!" in words and "best ever" in words and "#4 today" in words, words
    assert "1 penalty card," in words and "1 penalty cards" not in words, words   # one card, not "cards"
