"""The FOCUS / Crossfire side panel on every display size (issue 14's left-over: a 480x320
panel cut the turn box and the player cards): every seat's card, whose turn, what to do
and the control hint are shown whole, inside their parts, at a readable size."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

from kiosk import render  # noqa: E402
from kiosk.games.sackson import panel as side_panel  # noqa: E402
from kiosk.games.sackson.panel import panel_rects, side_rect  # noqa: E402
from kiosk.games.sackson.scene import SacksonScene  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import TextSeen, sized_app  # noqa: E402

SIZES = [(480, 320), (640, 480), (800, 480), (960, 540), (1280, 720), (1920, 1080)]
VARIANTS = {"2p": 2, "3p": 3, "4p-teams": 4, "4p": 4, "crossfire": 2}
PERSON = SeatInfo("keyboard", "keys A S D W", "medium", True)
STATIONS = {"keyboard": PERSON, "gpio": SeatInfo("gpio", "GPIO 17", "medium", True),
            "buzzer only": SeatInfo("gpio", "GPIO 17", "medium", False)}
COMP = SeatInfo("computer", "computer (medium)", "medium")
T0 = 10 ** 12


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_panel_parts_fit_the_area_and_never_overlap(size: tuple[int, int], seats: int) -> None:
    area = side_rect(size)
    lay = panel_rects(area, seats)
    rects = [lay.head, lay.turn, *lay.cards]
    assert len(lay.cards) == seats                                   # every seat has its card
    for r in rects:
        assert area.contains(r), (r, area)
    assert lay.below.h >= 0 and lay.below.top >= lay.cards[-1].bottom and lay.below.bottom <= area.bottom
    for i, a in enumerate(rects):
        assert a.h > 0
        for b in rects[i + 1:] + [lay.below]:
            assert not a.colliderect(b), (a, b)
    # the TVs and an 800x480 panel keep the full panel; 480x320 and 640x480 ones are compact
    assert lay.compact == (size[0] < 800)
    if lay.compact:
        assert lay.hint >= 1 and lay.card_rows in (1, 2)
    else:
        assert all(c.h >= side_panel.MIN_FULL_CARD_H for c in lay.cards)


@pytest.fixture()
def screen_app(tmp_path: Path) -> Iterator[Any]:
    made: list[Any] = []

    def make(size: tuple[int, int]) -> Any:
        made.append(sized_app(tmp_path, size))
        return made[-1]

    yield make
    for app in made:
        app.close()


def play_some(scene: SacksonScene, plies: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(plies):
        if scene.state.is_terminal():
            break
        scene._apply(rng.choice(scene.state.legal_actions()), scene.state.current_player())


@pytest.mark.parametrize("station", list(STATIONS))
@pytest.mark.parametrize("size", [(480, 320), (640, 480), (800, 480), (1280, 720)])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_small_display_shows_every_seat_the_turn_and_the_hint_whole(
        screen_app: Any, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], variant: str, station: str) -> None:
    app = screen_app(size)
    n = VARIANTS[variant]
    scene = SacksonScene(app, [STATIONS[station]] + [COMP] * (n - 1), variant, seed=2)
    app.push(scene)
    scene.update(T0)                                     # the game starts: P1 (the person) to move
    play_some(scene, 2 * n, seed=5)                      # a few moves each: the last moves show
    assert scene.state.current_player() == 0 and scene.human_to_move() == 0
    seen = TextSeen(monkeypatch)
    render.redraw_everything()
    scene.update(T0 + 10 ** 8)
    scene.draw(app.screen)
    side = side_rect(size)
    panel = [(m, r, clip, kept) for m, r, clip, kept in seen.seen if side.colliderect(r)]
    words = seen.words()
    for p in range(n):
        assert any(m.startswith(f"P{p + 1}") for m, *_ in panel), (p, words)   # each seat's card
    assert any(m == "P1 to move" for m, *_ in panel), words
    what, hint = scene.prompt()
    assert what and what in words
    lay = panel_rects(side, n)
    in_turn = [m for m, r, *_ in panel if lay.turn.contains(r) and m not in ("P1 to move", what)
               and not m.isdigit()]                                # (the seat badge's number)
    assert " ".join(in_turn).split() == hint.split(), (hint, in_turn)   # the whole hint, every word
    log = [m for m, r, *_ in panel if lay.below.colliderect(r) and m != "last moves"]
    if lay.below.h >= 2 * side_panel.COMPACT_ROW:                        # room below the cards:
        assert log and log[0] == f"P{n} {scene.log[-1][1]}", (log, words)   # the last move, newest first
    screen = app.screen.get_rect()
    for m, r, clip, kept in panel:
        assert screen.contains(r), (m, r)
        assert clip.contains(r), (m, r, clip)            # inside its part: nothing cut off
        assert kept >= 0.6, (m, kept)                    # squeezed a little at most: readable


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1280, 720)])
def test_a_capture_banner_shows_whole_on_every_size(screen_app: Any, monkeypatch: pytest.MonkeyPatch,
                                                    size: tuple[int, int]) -> None:
    from arcade.sackson import Move
    for variant in ("2p", "4p"):
        app = screen_app(size)
        n = VARIANTS[variant]
        scene = SacksonScene(app, [PERSON] + [COMP] * (n - 1), variant, seed=1)
        app.push(scene)
        scene.update(T0)
        scene.state = scene.game.setup({"d4": "BBBBB", "d5": "A", "f6": "B", "g7": "B"} if n == 2 else
                                       {"d4": "BBBBB", "d5": "A", "f6": "B", "g7": "C", "a4": "D"})
        scene._apply(Move("d5", "d4", 1), 0)
        assert scene.banner is not None
        seen = TextSeen(monkeypatch)
        render.redraw_everything()
        scene.draw(app.screen)
        hits = [(r, clip, kept) for m, r, clip, kept in seen.seen if m == scene.banner[0]]
        assert hits, seen.words()
        r, clip, kept = hits[0]
        assert app.screen.get_rect().contains(r) and clip.contains(r) and kept >= 0.6, (r, clip, kept)
        lay = panel_rects(side_rect(size), n)
        assert lay.head.contains(r) or lay.below.contains(r)         # never over whose turn or a card
        words = seen.words()
        assert "P1 to move" not in words and all(f"P{p + 1}" in words.split(" | ") for p in range(n))
        app.home()


@pytest.mark.parametrize("size", [(640, 480), (800, 480), (1280, 720)])
def test_the_last_moves_beside_the_virtual_matrix_stay_readable(screen_app: Any, monkeypatch: pytest.MonkeyPatch,
                                                                size: tuple[int, int]) -> None:
    """Issue 14 newcomer: on a 640x480 panel with the virtual LED matrix (the demo's, the
    default config's) every move with a caption ("P2 g6-f6 1 to reserve") was squeezed to a
    third of its width, about 8 px high, in the narrow column left of the matrix."""
    from types import SimpleNamespace
    app = screen_app(size)
    scene = SacksonScene(app, [PERSON, COMP], "crossfire", seed=2)
    app.push(scene)
    scene.update(T0)
    play_some(scene, 4, seed=5)
    scene.log = [(k % 2, "G6-F6 captures 1, 1 to reserve") for k in range(8)]
    monkeypatch.setattr(app, "led", SimpleNamespace(virtual=object(), virtual_picture=lambda: None))
    monkeypatch.setattr(render, "led_matrix", lambda *a, **k: None)
    seen = TextSeen(monkeypatch)
    render.redraw_everything()
    scene.draw(app.screen)
    log = [(m, kept) for m, r, clip, kept in seen.seen if m.startswith(("P1 G6-F6", "P2 G6-F6"))]
    assert log and log[0][0].startswith("P2 G6-F6"), seen.words()     # the newest move shows
    for m, kept in log:
        assert kept >= side_panel.MIN_LOG_KEPT - 0.01, (m, kept)
