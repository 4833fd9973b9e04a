"""Issue 20, a newcomer at 800x480: the arcade's notes hid the screens' words (the lock after
three wrong PINs over the lobby's Game row, "Wrong PIN (1 try left)" over the PIN box's title,
a broken configuration's two notes over the title), the results screen broke a figure's label
away from its value ("missed:" / "0 penalties: 86"), and Focus (2023)'s "YOURS" tag was half
under the highlight of its card.

What a guest notices, at 480x320, 800x480, 1280x720 and 1920x1080: every word of the screen
can still be read with the notes up (they take a band along the top, the screen is laid out
below it), every figure reads whole, the tag is on top.  The checks are the text recorder's
(tests/text_fit.py), the same the explorer makes at every frame it draws."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import SimpleNamespace

import pygame
import pytest

from arcade import registry
from arcade.core.api import Outcome
from kiosk import render
from kiosk.scenes.seats import LobbyGame, SeatInfo, screen_module
from tests.explorer import SIZES
from tests.text_fit import TextSeen, cut_texts, hidden_texts, sized_app, split_figures, text_faults

IDS = [f"{w}x{h}" for w, h in SIZES]
LOCKED = "Wrong PIN 3 times: the service menu is locked for 1 minute"
CONFIG_NOTES = (
    "The configuration file /etc/focus-arcade/arcade.toml could not be read (line 3: expected '=' after a key); "
    "the arcade runs on the last good copy: display.kiosk, seats.stations and gpio.buzzers were taken from it.",
    "Results will not be saved: disk full. This session's games are kept in memory.")


@pytest.fixture
def app(tmp_path: Path, request: pytest.FixtureRequest) -> object:
    a = sized_app(tmp_path, request.param)
    try:
        yield a
    finally:
        a.close()
        pygame.display.quit()


def frame(app: object, seen: TextSeen) -> dict[str, object]:
    """One frame of the app drawn, and what is wrong with its words."""
    seen.watch(app.screen)  # type: ignore[attr-defined]
    seen.clear()
    app.draw()  # type: ignore[attr-defined]
    return text_faults(seen, app.screen)  # type: ignore[attr-defined]


def words(seen: TextSeen) -> str:
    return " | ".join(m for m, *_ in seen.seen)


@pytest.mark.parametrize("app", SIZES, ids=IDS, indirect=True)
def test_the_title_reads_whole_under_two_configuration_notes(app: object, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = TextSeen(monkeypatch)
    app.home()  # type: ignore[attr-defined]
    for note in CONFIG_NOTES:
        app.message(note, 30)  # type: ignore[attr-defined]
    bad = frame(app, seen)
    assert not bad, bad
    assert "FOCUS ARCADE" in words(seen) and "The configuration file" in words(seen)


@pytest.mark.parametrize("app", SIZES, ids=IDS, indirect=True)
def test_the_lobby_reads_whole_under_the_service_lock_note(app: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk.scenes.lobby import LobbyScene
    seen = TextSeen(monkeypatch)
    app.replace(LobbyScene(app))  # type: ignore[attr-defined]
    app.message(LOCKED, 8)  # type: ignore[attr-defined]
    bad = frame(app, seen)
    assert not bad, bad
    shown = words(seen)
    assert "Game" in shown and "locked" in shown


@pytest.mark.parametrize("app", SIZES, ids=IDS, indirect=True)
def test_the_lobbys_countdown_reads_whole_with_eight_rows_under_two_notes(
        app: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by the explorer (seed 11, focus-4p at 480x320): with four seats, two notes up and
    three guests joined, "Starting in 4 s" was drawn over the Start row's hint."""
    from kiosk.scenes.lobby import LobbyScene
    seen = TextSeen(monkeypatch)
    lobby = LobbyScene(app)
    app.replace(lobby)  # type: ignore[attr-defined]
    lobby.players = 4
    lobby.joined = {0: 0, 1: 0, 2: 0}
    lobby.now = lobby.last_join = 10 ** 12
    app.message("P1 seems to be away: a computer plays P1's turns until P1 presses again", 8)  # type: ignore[attr-defined]
    app.message("Nobody has pressed for 20 s: everyone seems to have left, so the game was put away", 8)  # type: ignore[attr-defined]
    bad = frame(app, seen)
    assert not bad, bad
    shown = words(seen)
    assert "Starting in" in shown and "Start" in shown and "P4" in shown, shown


@pytest.mark.parametrize("app", SIZES, ids=IDS, indirect=True)
def test_the_pin_box_reads_whole_under_a_wrong_pin_note(app: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk.scenes.lobby import LobbyScene
    from kiosk.scenes.service.pin import PinScene
    seen = TextSeen(monkeypatch)
    app.replace(LobbyScene(app))  # type: ignore[attr-defined]
    app.push(PinScene(app))  # type: ignore[attr-defined]
    app.message("Wrong PIN (1 try left)", 4)  # type: ignore[attr-defined]
    bad = frame(app, seen)
    assert not bad, bad                    # the lobby under the PIN box is hidden by it on purpose
    assert "Service PIN" in words(seen) and "1 try left" in words(seen)


@pytest.mark.parametrize("app", SIZES, ids=IDS, indirect=True)
@pytest.mark.parametrize("entry, stats, bar_px", [
    ("focusx-duel", {"races": 31, "missed": 0, "penalties": 86, "false starts": 2}, 50),
    ("sherlook", {"rounds": 11, "extra rounds": 0, "exact guesses": 3, "markers lost": 1}, 50),
    # eight figures (explorer seed 12153, 480x320: two lines of four squeezed to 55 %)
    ("focusx-4focus-x", {"races": 60, "debated": 0, "false": 2, "missed": 0, "hints": 0, "placements": 30,
                         "discards": 0, "passes": 0}, 25)])
def test_the_results_keep_each_figure_whole(app: object, monkeypatch: pytest.MonkeyPatch, entry: str,
                                            stats: dict[str, int], bar_px: int) -> None:
    from kiosk.scenes.lobby import find_game
    from kiosk.scenes.results import ResultsScene
    seen = TextSeen(monkeypatch)
    app.current_game = find_game(entry, None)  # type: ignore[attr-defined]
    state = SimpleNamespace(game=SimpleNamespace(name=entry), stats=stats,
                            outcome=lambda: Outcome((0,), "the deck ran out", (9.0, 4.0)))
    seats = [SeatInfo("gpio", "GPIO 17"), SeatInfo("gpio", "GPIO 27")]
    app.replace(ResultsScene(app, app.current_game.label, state, seats, entry=entry))  # type: ignore[attr-defined]
    bad = frame(app, seen)
    assert not bad, bad
    shown = [" ".join(m.split()) for m, *_ in seen.seen]
    for k, v in stats.items():
        assert any(f"{k}: {v}" in line for line in shown), (k, shown)
    # the standings are seen: the winner's bar (P1's colour) keeps a height of its own
    # (at 480x320 four lines of figures once left the bars none)
    bar = pygame.mask.from_threshold(app.screen, render.SEAT_COLOURS[0], (8, 8, 8, 255))  # type: ignore[attr-defined]
    tallest = max((r.h for r in bar.get_bounding_rects() if r.w >= 20), default=0)
    assert tallest >= bar_px, tallest


@pytest.mark.parametrize("app", SIZES, ids=IDS, indirect=True)
def test_the_yours_tag_is_on_top_of_its_highlighted_card(app: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk.games.coop.scene import CoopScene
    seen = TextSeen(monkeypatch)
    scene = CoopScene(app, [SeatInfo("gpio", "GPIO 17"), SeatInfo("computer", "computer 2", "easy")], "base",
                      seed=4, setup=False)
    app.replace(scene)  # type: ignore[attr-defined]
    scene.update(10 ** 12)
    me = scene.humans[0]
    mine = sorted(scene.state.markers[me])[0]
    scene.cursor[me] = mine                # the cursor on it, the card lifted: both frames drawn
    scene.lifted[me] = mine
    render.redraw_everything()
    bad = frame(app, seen)
    assert not bad, bad
    if app.screen.get_width() >= 800:  # type: ignore[attr-defined]
        assert "YOURS" in words(seen)


# -- the recorder itself: what it calls hidden, and what not ------------------------------------
def test_the_recorder_calls_words_under_a_later_box_hidden_and_under_a_veil_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pygame.init()
    screen = pygame.display.set_mode((400, 200))
    try:
        seen = TextSeen(monkeypatch)
        seen.watch(screen)
        screen.fill(render.BG)
        render.text(screen, "Game", (20, 20), 40)
        render.text(screen, "Players", (20, 100), 40)
        pygame.draw.rect(screen, (120, 30, 30), (0, 15, 400, 30))           # a note over "Game"
        getattr(render, "veil", lambda *a: None)(screen, pygame.Rect(0, 90, 400, 60))
        pygame.draw.rect(screen, render.PANEL, (0, 90, 400, 60))            # a dialog over "Players"
        assert list(hidden_texts(seen, screen)) == ["Game"]
        # a part of the screen (a subsurface) counts, at its place on the screen
        seen.clear()
        screen.fill(render.BG)
        below = screen.subsurface((0, 50, 400, 150))
        r = render.text(below, "Start", (10, 10), 40)
        assert seen.seen[0][1] == r.move(0, 50)
        assert not cut_texts(seen, screen) and not hidden_texts(seen, screen)
    finally:
        pygame.display.quit()


def test_the_recorder_calls_a_figure_broken_over_two_lines_split(monkeypatch: pytest.MonkeyPatch) -> None:
    pygame.init()
    screen = pygame.display.set_mode((400, 200))
    try:
        seen = TextSeen(monkeypatch)
        seen.watch(screen)
        screen.fill(render.BG)
        render.text_lines(screen, "Press your buzzer to join and then play the game of the day", (10, 10), 300, 3)
        assert not split_figures(seen)       # a sentence wraps between any words
        seen.clear()
        render.text_block(screen, "races: 31   extra rounds: 0   exact guesses: 3", (200, 10), 300, 28, 3)
        lines = [m for m, *_ in seen.seen]
        assert len(lines) >= 2 and not split_figures(seen), lines
        seen.blocks.append(("races: 31   extra rounds: 0", 0, 2))
        seen.seen[:] = [("races: 31 extra", pygame.Rect(0, 0, 9, 9), screen.get_rect(), 1.0),
                        ("rounds: 0", pygame.Rect(0, 9, 9, 9), screen.get_rect(), 1.0)]
        assert split_figures(seen)
    finally:
        pygame.display.quit()


GAME_NOTE = "Results will not be saved: disk full. This session's games are kept in memory."


@pytest.mark.parametrize("app", SIZES, ids=IDS, indirect=True)
@pytest.mark.parametrize("entry, players, play_s", [
    ("focusx-4focus-x", 4, 4), ("coop-base", 2, 4), ("coop-base", 2, 40), ("focus-4p-teams", 4, 4),
    ("sherlook", 2, 4), ("sherlook", 2, 30)])
def test_a_note_in_a_game_takes_the_title_line_and_moves_nothing(app: object, monkeypatch: pytest.MonkeyPatch,
                                                                 entry: str, players: int, play_s: int) -> None:
    """A note in a game goes over the game's title line and nowhere else: every other pixel of
    the screen is the same with the note up (the game keeps its layout: at 1280x720 a game
    jumped to its small layout while a note was up), and every word the note does not hide on
    purpose still reads whole."""
    from kiosk.scenes.lobby import find_game
    _note_over_the_title(app, monkeypatch, find_game(entry, None), players, play_s)


def _every_entry() -> list[str]:
    with registry.examples() as examples:
        return [s.name for s in registry.SPECS + examples]


def _screen_of(entry: str) -> LobbyGame:
    """The lobby game ``entry``'s screen module lists (``LOBBY_GAMES``), examples included."""
    spec = registry.get(entry)
    return next(g for g in importlib.import_module(screen_module(spec)).LOBBY_GAMES if g.name == entry)


@pytest.mark.parametrize("app", SIZES, ids=IDS, indirect=True)
@pytest.mark.parametrize("entry", _every_entry())
def test_every_game_says_where_its_title_is_so_a_note_hides_only_that(app: object, monkeypatch: pytest.MonkeyPatch,
                                                                     entry: str) -> None:
    """Every registry entry, the example too (a newcomer's Nim copied Buzz Race, which left
    ``Scene.note_strip`` unset, and the arcade's notes went along the top edge over its title
    and seats): two seconds in, a note goes over the title line only and every word reads."""
    with registry.examples():
        game = _screen_of(entry)
        _note_over_the_title(app, monkeypatch, game, registry.get(entry).min_seats, 2)


def _note_over_the_title(app: object, monkeypatch: pytest.MonkeyPatch, game: LobbyGame, players: int,
                         play_s: int) -> None:
    """Play ``game`` for ``play_s`` seconds (P1 a person, the other ``players - 1`` seats
    computers), then check a note goes over its ``note_strip`` (at most a sixth of the screen
    high) and nowhere else, every word whole."""
    from kiosk.persist.resume import start_game
    seen = TextSeen(monkeypatch)
    entry = game.name
    app.current_game = game  # type: ignore[attr-defined]
    seats = [SeatInfo("gpio", "GPIO 17")] + [SeatInfo("computer", f"computer {i + 2}", "easy")
                                             for i in range(players - 1)]
    scene = start_game(app, game, seats)
    app.replace(scene)  # type: ignore[attr-defined]
    t = 10 ** 12
    for _ in range(play_s * 10):                     # the game played on for a while (its clock)
        t += 100_000_000
        scene.update(t)
    assert not frame(app, seen)
    before = app.screen.copy()  # type: ignore[attr-defined]
    app.message(GAME_NOTE, 30)  # type: ignore[attr-defined]
    bad = frame(app, seen)
    assert not bad, bad
    assert "Results" in words(seen)                  # (a narrow strip: the note's first part)
    strip = scene.note_strip
    assert strip is not None and strip.h <= app.screen.get_height() // 6, strip  # type: ignore[attr-defined]
    after = app.screen  # type: ignore[attr-defined]
    W, H = after.get_size()
    for band in (pygame.Rect(0, 0, W, strip.y), pygame.Rect(0, strip.bottom, W, H - strip.bottom),
                 pygame.Rect(0, strip.y, strip.x, strip.h), pygame.Rect(strip.right, strip.y, W - strip.right, strip.h)):
        if band.w > 0 and band.h > 0:
            a, b = before.subsurface(band), after.subsurface(band)
            assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB"), (entry, band, strip)


@pytest.mark.parametrize("app", SIZES, ids=IDS, indirect=True)
def test_the_markers_tags_keep_to_their_cards(app: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """Focus (2023) at a reveal (seed 17, Mycroft, 480x320): "TAKEN by P1" was wider than its
    card and covered the next cell's name "D4", and two "YOURS" tags side by side overlapped.
    Each tag now keeps to its card and the gap beside it, in the clearest wording that fits."""
    from kiosk.games.coop import table as coop_table
    seen = TextSeen(monkeypatch)
    screen = app.screen  # type: ignore[attr-defined]
    W, H = screen.get_size()
    small = render.small_screen(W, H)
    head = 30 if small else 52
    table = pygame.Rect(6 if small else 10, head, int(W * 0.47), H - head - 4)
    rects = coop_table.cell_rects(table)
    seen.watch(screen)
    seen.clear()
    screen.fill(render.BG)
    cells = sorted(rects, key=lambda p: (rects[p].y, rects[p].x))
    row = [p for p in cells if rects[p].y == rects[cells[-1]].y]      # the bottom row: four cells
    a, b, c, d = row[:4]
    render.text(screen, "D4", rects[d].center, 26, (80, 86, 105), "center")
    coop_table.draw_tags(screen, [(("YOURS", "YOU"), (20, 20, 20), (255, 140, 0), rects[a]),
                                  (("YOURS", "YOU"), (20, 20, 20), (255, 140, 0), rects[b]),
                                  (("TAKEN by P1", "TAKEN", "P1"), (255, 255, 255), render.BAD, rects[c])])
    bad = text_faults(seen, screen)
    assert not bad, bad
    tags = [r for m, r, *_ in seen.seen if m != "D4"]
    assert len(tags) == 3
    for tag, p in zip(tags, (a, b, c)):
        assert tag.w <= rects[p].w + coop_table.CARD_GAP - 10, (tag, rects[p])
    if W >= 1280:
        assert "YOURS" in words(seen) and "TAKEN by P1" in words(seen)


@pytest.mark.parametrize("app", SIZES, ids=IDS, indirect=True)
def test_a_skipped_seats_badge_leaves_its_name_readable(app: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """FOCUS, 4 players in teams (explorer monkey seed 13001, 800x480): the "SKIPPED: no move"
    badge covered P3's "P3  team P1+P3" line.  The badge now stands beside the name."""
    from kiosk.persist.resume import start_game
    from kiosk.scenes.lobby import find_game
    seen = TextSeen(monkeypatch)
    game = find_game("focus-4p-teams", None)
    app.current_game = game  # type: ignore[attr-defined]
    seats = [SeatInfo("gpio", "GPIO 17")] + [SeatInfo("computer", f"computer {i + 2}", "medium") for i in range(3)]
    scene = start_game(app, game, seats)
    app.replace(scene)  # type: ignore[attr-defined]
    scene.update(10 ** 12)
    scene.skipped.add(2)
    render.redraw_everything()
    bad = frame(app, seen)
    assert not bad, bad
    shown = words(seen)
    assert "SKIPPED" in shown and "P3" in shown, shown


@pytest.mark.parametrize("app", SIZES, ids=IDS, indirect=True)
@pytest.mark.parametrize("won", [True, False], ids=["solved", "lost"])
def test_a_cooperative_case_shows_its_seats_as_one_team_not_empty_bars(app: object, monkeypatch: pytest.MonkeyPatch,
                                                                      won: bool) -> None:
    """A newcomer at 800x480: Focus (2023)'s base game (won or lost together, no points) showed
    "bars: points" over two bars of 0 and a large empty space.  Now the seats stand side by side
    under "played together", every word whole."""
    from kiosk.scenes.lobby import find_game
    from kiosk.scenes.results import ResultsScene
    seen = TextSeen(monkeypatch)
    app.current_game = find_game("coop-base", None)  # type: ignore[attr-defined]
    state = SimpleNamespace(game=SimpleNamespace(name="coop"), stats={"rounds": 1, "cards taken": 9},
                            outcome=lambda: Outcome((0, 1) if won else (), "P2 took P1's exhibit", (0.0, 0.0)))
    seats = [SeatInfo("gpio", "GPIO 17"), SeatInfo("gpio", "GPIO 27")]
    app.replace(ResultsScene(app, app.current_game.label, state, seats, entry="coop-base"))  # type: ignore[attr-defined]
    bad = frame(app, seen)
    assert not bad, bad
    shown = [" ".join(m.split()) for m, *_ in seen.seen]
    assert "played together" in shown and "P1" in shown and "P2" in shown, shown
    assert not any(line.startswith("bars:") for line in shown), shown
    assert ("Solved together!" if won else "The case was lost") in shown, shown
