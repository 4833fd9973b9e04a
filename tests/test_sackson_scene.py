"""FOCUS and Crossfire on the TV (kiosk/games/sackson/scene.py) under SDL's dummy driver: every
variant plays with computer seats, a person chooses a move with left/right/OK alone, Escape
and the buzzer step back, the computer thinks in a worker thread while the screen keeps
drawing and its move is applied on the main thread, and a finished game is saved."""

from __future__ import annotations

import argparse
import os
import threading
from pathlib import Path
from typing import Any, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from arcade.core.events import Edge  # noqa: E402
from arcade.core.record import replay  # noqa: E402
from arcade.sackson import Drop, Move, Swap, make_game  # noqa: E402
from kiosk import config, render  # noqa: E402
from kiosk.app.loop import App  # noqa: E402
from kiosk.games.sackson import (
    computers,  # noqa: E402
    panel,  # noqa: E402
)
from kiosk.games.sackson import draw as sd  # noqa: E402
from kiosk.games.sackson import scene as scene_mod  # noqa: E402
from kiosk.games.sackson.chooser import RESERVE  # noqa: E402
from kiosk.games.sackson.computers import level_for  # noqa: E402
from kiosk.games.sackson.scene import LOBBY_GAMES, SacksonScene  # noqa: E402
from kiosk.scenes.lobby import find_game  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402

T0 = 10 ** 12
STEP = 100_000_000          # 0.1 s of virtual time per frame

HUMAN = SeatInfo("keyboard", "keys A S D W", "medium", True)
HUMAN2 = SeatInfo("keyboard", "arrow keys", "medium", True)
HUMAN3 = SeatInfo("keyboard", "key 3", "medium", False)
COMP = SeatInfo("computer", "computer (medium)", "medium")
SIM = SeatInfo("simulated", "sim GPIO 17", "medium")


@pytest.fixture()
def make_app(tmp_path: Path) -> Iterator[Any]:
    pygame.init()
    screen = pygame.display.set_mode((1280, 720))
    apps: list[App] = []

    def make(demo: bool = False) -> App:
        cfg = config.load_or_default(None)
        cfg.data["storage"]["path"] = str(tmp_path / "results.sqlite3")
        cfg.data["led"]["port"] = "none"
        app = App(cfg, screen, argparse.Namespace(command="demo" if demo else None, screenshot_dir=""))
        app.pace_override = 0.05
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.close()


def frame(app: App, f: int) -> int:
    """One frame at virtual time T0 + f * STEP: update, draw, flip."""
    now = T0 + f * STEP
    app.scenes[-1].update(now)
    app.draw()
    app.scenes[-1].frame_shown(now)
    return now


def run_until(app: App, scene: SacksonScene, plies: int, start: int = 0, limit: int = 400) -> int:
    """Step frames (waiting for the worker when it thinks) until ``plies`` actions happened."""
    f = start
    while len(scene.state.history) < plies and f < start + limit and app.scenes[-1] is scene:
        frame(app, f)
        if scene.future is not None:
            scene.future.result(timeout=60)
        f += 1
    return f


def key(scene: SacksonScene, k: int) -> None:
    scene.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))


def edge(scene: SacksonScene, seat: int, control: str, f: int = 0) -> None:
    scene.on_edge(Edge(T0 + f * STEP, seat, control, True))


# -- computer seats, every variant -----------------------------------------------------------

@pytest.mark.parametrize("variant", ["2p", "3p", "4p-teams", "4p", "crossfire"])
def test_every_variant_starts_from_the_lobby_and_computers_play(make_app: Any, variant: str) -> None:
    app = make_app(demo=True)
    game = find_game("focus", variant)
    n = game.min_seats
    scene = game.start(app, [SIM] * n)
    assert isinstance(scene, SacksonScene) and scene.variant == variant and scene.game.seats == n
    app.push(scene)
    run_until(app, scene, 2 * n)
    assert len(scene.state.history) >= 2 * n
    movers = [p for p, _a in scene.state.history]
    assert set(movers[:n]) == set(range(n))                # every seat moved, in turn
    assert scene.log and scene.last is not None


def test_the_player_card_names_the_expert_that_thinks_for_a_seat(make_app: Any) -> None:
    app = make_app()
    expert = SeatInfo("computer", "computer (expert)", "expert")
    scene = SacksonScene(app, [expert, SeatInfo("computer", "computer (hard)", "hard")], "2p", seed=6)
    app.push(scene)
    assert scene.thinker is not None                       # the thinking process plays the expert
    assert scene.prompt() == ("thinking...", "computer, expert")


def test_lobby_lists_the_five_variants() -> None:
    assert [(g.family, g.mode, g.min_seats, g.max_seats) for g in LOBBY_GAMES] == [
        ("focus", "2p", 2, 2), ("focus", "3p", 3, 3), ("focus", "4p-teams", 4, 4), ("focus", "4p", 4, 4),
        ("focus", "crossfire", 2, 2)]
    assert [level_for(s) for s in ("easy", "medium", "hard", "expert")] == ["easy", "medium", "hard", "hard"]


def test_a_computer_game_ends_in_the_results_scene_and_is_saved(make_app: Any) -> None:
    app = make_app()
    scene = SacksonScene(app, [COMP, COMP], "2p", seed=3)
    app.push(scene)
    f = run_until(app, scene, 10_000, limit=3000)
    assert scene.state.is_terminal(), "the game did not finish"
    for g in range(f, f + 60):
        if app.scenes[-1] is not scene:
            break
        frame(app, g)
    assert type(app.scenes[-1]).__name__ == "ResultsScene"
    saved = app.results.recent(1)
    assert saved
    rebuilt = replay(scene_record(scene), make_game)
    assert rebuilt.position_text() == scene.state.position_text()


def scene_record(scene: SacksonScene) -> dict[str, Any]:
    from arcade.core.record import to_record
    return to_record(scene.state, scene.seed)


# -- a person chooses with left / right / OK -----------------------------------------------------

def test_human_picks_a_stack_and_a_target_with_left_right_ok_edges(make_app: Any) -> None:
    app = make_app()
    scene = SacksonScene(app, [HUMAN, COMP], "2p", seed=1)
    app.push(scene)
    frame(app, 0)
    ch = scene.chooser
    assert ch is not None and ch.phase == "source"
    first = ch.current()
    edge(scene, 0, "right")
    assert ch.current() != first and ch.items().index(ch.current()) == ch.items().index(first) + 1
    src = ch.current()
    edge(scene, 1, "ok")                                   # P2's station: not P2's turn, ignored
    assert ch.phase == "source"
    edge(scene, 0, "ok")
    assert ch.phase == "target"                            # single stones: no count step
    targets = ch.items()
    assert targets and set(targets) == {a.dst for a in scene.state.legal_actions()
                                        if isinstance(a, Move) and a.src == src}
    edge(scene, 0, "left")
    wanted = ch.preview()
    edge(scene, 0, "ok")
    assert scene.state.history == [(0, wanted)]
    assert isinstance(wanted, Move) and wanted.src == src and wanted.count == 1
    frame(app, 1)
    assert scene.chooser is None and scene.future is not None   # the computer's turn now


def test_count_step_for_a_tall_stack_then_its_targets(make_app: Any) -> None:
    app = make_app()
    scene = SacksonScene(app, [HUMAN, COMP], "2p", seed=1)
    scene.state = scene.game.setup({"d4": "BAA", "f6": "B"}, reserves=[0, 0])
    app.push(scene)
    frame(app, 0)
    ch = scene.chooser
    assert ch is not None and ch.items() == ["d4"]
    edge(scene, 0, "ok")
    assert ch.phase == "count" and ch.items() == [1, 2, 3] and ch.current() == 1
    edge(scene, 0, "right")
    assert ch.current() == 2
    assert set(ch.marked_targets()) == {"d6", "f4", "d2", "b4"}      # exactly two squares away (SF-2)
    edge(scene, 0, "ok")
    assert ch.phase == "target" and set(ch.items()) == {"d6", "f4", "d2", "b4"}
    target = ch.current()
    edge(scene, 0, "ok")
    assert scene.state.history == [(0, Move("d4", target, 2))]
    assert scene.state.stack("d4") == (1,) and scene.state.stack(target) == (0, 0)


def test_drop_from_the_reserve(make_app: Any) -> None:
    app = make_app()
    scene = SacksonScene(app, [HUMAN, COMP], "2p", seed=1)
    scene.state = scene.game.setup({"d4": "A", "f6": "B"}, reserves=[2, 0])
    app.push(scene)
    frame(app, 0)
    ch = scene.chooser
    assert ch is not None and ch.items()[-1] == RESERVE
    edge(scene, 0, "left")                                 # wraps round to the reserve
    assert ch.current() == RESERVE
    edge(scene, 0, "ok")
    assert ch.phase == "target" and len(ch.items()) == 52
    edge(scene, 0, "right")
    cell = ch.current()
    edge(scene, 0, "ok")
    assert scene.state.history == [(0, Drop(cell))] and scene.state.reserve(0) == 1


def test_the_stations_back_controls_cancel_a_half_chosen_move_and_escape_leaves(make_app: Any) -> None:
    app = make_app()
    scene = SacksonScene(app, [HUMAN, COMP], "2p", seed=1)
    app.push(scene)
    frame(app, 0)
    ch = scene.chooser
    assert ch is not None
    edge(scene, 0, "right")
    src = ch.current()
    edge(scene, 0, "ok")
    assert ch.phase == "target" and ch.half_chosen
    edge(scene, 0, "x")                                    # P1's W key
    assert ch.phase == "source" and ch.current() == src and scene.state.history == []
    edge(scene, 0, "ok")
    edge(scene, 0, "buzzer")                               # P1's key 1
    assert ch.phase == "source" and scene.state.history == []
    edge(scene, 0, "ok")
    key(scene, pygame.K_ESCAPE)              # not a back key for P1 (who has W): asks before leaving
    assert ch.phase == "target" and app.scenes[-1] is scene
    assert scene.banner is not None and "Esc again" in scene.banner[0]
    key(scene, pygame.K_ESCAPE)
    assert app.scenes[-1] is not scene                     # second Escape leaves


def test_plain_keys_choose_for_a_keyboard_seat_without_choose_keys(make_app: Any) -> None:
    app = make_app()
    scene = SacksonScene(app, [COMP, COMP, HUMAN3], "3p", seed=2, levels=["easy", "easy", "easy"])
    app.push(scene)
    f = run_until(app, scene, 2)
    frame(app, f)
    assert scene.state.current_player() == 2
    ch = scene.chooser
    assert ch is not None
    first = ch.current()
    key(scene, pygame.K_RIGHT)                             # P2's station key: never P3's
    key(scene, pygame.K_DOWN)
    assert ch.current() == first and ch.phase == "source"
    key(scene, pygame.K_KP6)                               # the keypad is nobody's station
    assert ch.current() != first
    second = ch.current()
    key(scene, pygame.K_KP2)
    below = ch.current()
    assert scene.geometry().centres[scene.state.board.index[below]][1] >= \
        scene.geometry().centres[scene.state.board.index[second]][1]
    key(scene, pygame.K_RETURN)
    assert ch.phase == "target"
    key(scene, pygame.K_BACKSPACE)
    assert ch.phase == "source"
    key(scene, pygame.K_RETURN)
    key(scene, pygame.K_ESCAPE)                            # Escape steps back too
    assert ch.phase == "source" and app.scenes[-1] is scene
    key(scene, pygame.K_RETURN)
    key(scene, pygame.K_SPACE)
    assert len(scene.state.history) == 3 and scene.state.history[-1][0] == 2
    assert "keypad" in scene.controls_hint(2) and "3: tap" in scene.controls_hint(2)


def post_key(app: App, k: int, f: int) -> None:
    """Press and release key ``k`` through the whole kiosk: keyboard stations, then the scene."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    app.step(T0 + f * STEP)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
    app.step(T0 + f * STEP + 1)


def test_on_one_keyboard_nobody_can_make_the_other_players_move(make_app: Any) -> None:
    app = make_app()
    scene = SacksonScene(app, [HUMAN, HUMAN2], "2p", seed=1)
    app.push(scene)
    pygame.event.clear()
    app.step(T0)
    ch = scene.chooser
    assert ch is not None and scene.state.current_player() == 0
    first = ch.current()
    f = 1
    for k in (pygame.K_RIGHT, pygame.K_LEFT, pygame.K_DOWN, pygame.K_UP, pygame.K_RETURN, pygame.K_SPACE,
              pygame.K_KP6, pygame.K_BACKSPACE, pygame.K_2):   # P2's keys and the laptop keys: P1's turn
        post_key(app, k, f)
        f += 1
        assert scene.chooser is ch and ch.phase == "source" and ch.current() == first, pygame.key.name(k)
    assert scene.state.history == []
    post_key(app, pygame.K_d, f)                           # P1's own keys: D = right, S = take
    assert ch.current() != first
    post_key(app, pygame.K_s, f + 1)
    assert ch.phase == "target"
    post_key(app, pygame.K_s, f + 2)
    assert [p for p, _a in scene.state.history] == [0]
    ch2 = scene.chooser
    assert ch2 is not None and ch2.seat == 1
    start = ch2.current()
    for k in (pygame.K_a, pygame.K_d, pygame.K_s, pygame.K_w, pygame.K_RETURN, pygame.K_1):  # now P2's turn
        f += 1
        post_key(app, k, f + 3)
        assert ch2.phase == "source" and ch2.current() == start, pygame.key.name(k)
    post_key(app, pygame.K_RIGHT, f + 4)                   # P2's own keys: Right, Down = take
    assert ch2.current() != start
    post_key(app, pygame.K_DOWN, f + 5)
    post_key(app, pygame.K_DOWN, f + 6)
    assert [p for p, _a in scene.state.history] == [0, 1]
    assert scene.controls_hint(0).startswith("A/D choose, S take") and "Esc" not in scene.controls_hint(0)


def test_a_seats_own_station_key_is_not_counted_twice(make_app: Any) -> None:
    app = make_app()
    scene = SacksonScene(app, [COMP, HUMAN2], "2p", seed=4, levels=["easy", "easy"])
    app.push(scene)
    f = run_until(app, scene, 1)
    frame(app, f)
    ch = scene.chooser
    assert ch is not None and scene.state.current_player() == 1
    before = ch.current()
    key(scene, pygame.K_RIGHT)               # P2's station key: the keyboard adapter sends its edge
    assert ch.current() == before
    edge(scene, 1, "right")
    assert ch.current() != before


def test_buzzer_only_station_taps_to_move_on_holds_to_take_and_long_holds_to_go_back(make_app: Any) -> None:
    app = make_app()
    buzzer = SeatInfo("gpio", "GPIO 17", "medium", False)
    scene = SacksonScene(app, [buzzer, COMP], "2p", seed=8)
    app.push(scene)
    frame(app, 0)
    ch = scene.chooser
    assert ch is not None and "hold" in scene.prompt()[1]

    def press(ms: int, at: int) -> None:
        scene.on_edge(Edge(T0 + at * STEP, 0, "buzzer", True))
        scene.on_edge(Edge(T0 + at * STEP + ms * 1_000_000, 0, "buzzer", False))

    first = ch.current()
    press(120, 1)                                          # tap: next stack
    assert ch.phase == "source" and ch.items().index(ch.current()) == ch.items().index(first) + 1
    src = ch.current()
    press(800, 2)                                          # hold: take it
    assert ch.phase == "target" and scene.state.history == []
    press(2500, 5)                                         # long hold: back
    assert ch.phase == "source" and ch.current() == src
    press(800, 9)
    target = ch.current()
    press(800, 10)
    assert scene.state.history == [(0, Move(src, target, 1))]


def test_opening_swap_is_chosen_in_two_steps(make_app: Any) -> None:
    app = make_app()
    scene = SacksonScene(app, [HUMAN, COMP], "crossfire", seed=5, settings={"opening_swap": True})
    app.push(scene)
    frame(app, 0)
    ch = scene.chooser
    assert ch is not None and ch.phase == "swap-a"
    edge(scene, 0, "ok")
    assert ch.phase == "swap-b"
    first = ch.first
    partner = ch.current()
    assert scene.state.stack(first)[-1] != scene.state.stack(partner)[-1]
    edge(scene, 0, "buzzer")
    assert ch.phase == "swap-a"
    edge(scene, 0, "ok")
    edge(scene, 0, "ok")
    assert scene.state.history == [(0, Swap(first, partner))]
    run_until(app, scene, 2, start=1)
    assert isinstance(scene.state.history[1][1], Swap) and not scene.state.in_opening_swap


# -- the worker thread ---------------------------------------------------------------------------

def test_search_runs_in_a_worker_and_its_move_is_applied_on_the_main_thread(make_app: Any,
                                                                            monkeypatch: Any) -> None:
    release = threading.Event()
    seen: dict[str, int] = {}
    real = computers.choose_action

    def slow_choice(state: Any, level: str, rng: Any, clock: Any = None, budget_s: float = 1.0,
                    max_nodes: Any = None, max_depth: Any = None) -> Any:
        seen["worker"] = threading.get_ident()
        seen["clock"] = int(clock is not None)
        assert release.wait(30)
        return real(state, level, rng, None, budget_s, 50)

    monkeypatch.setattr(computers, "choose_action", slow_choice)
    app = make_app()
    scene = SacksonScene(app, [SeatInfo("computer", "computer (hard)", "hard"), COMP], "2p", seed=6)
    app.push(scene)
    for f in range(5):                                     # the screen keeps drawing while it thinks
        frame(app, f)
    assert scene.future is not None and not scene.future.done()
    assert scene.state.history == [] and scene.prompt()[0] == "thinking..."
    release.set()
    scene.future.result(timeout=30)
    assert scene.state.history == []                       # not applied by the worker
    frame(app, 5)
    assert len(scene.state.history) == 1 and scene.state.history[0][0] == 0
    assert scene.applied_thread == threading.get_ident() != seen["worker"]
    assert seen["clock"] == 1


def test_computer_waits_the_pause_before_its_move_shows(make_app: Any) -> None:
    app = make_app()
    app.pace_override = None
    scene = SacksonScene(app, [COMP, COMP], "2p", seed=7)
    app.push(scene)
    assert scene.pause_ns == int(scene_mod.sackson_cfg(app)["move_pause_s"] * 1e9)
    frame(app, 0)
    assert scene.future is not None
    scene.future.result(timeout=30)
    frame(app, 1)                                          # 0.1 s in: too soon to show
    assert scene.state.history == []
    frame(app, 1 + scene.pause_ns // STEP)
    assert len(scene.state.history) == 1


# -- the picture ---------------------------------------------------------------------------------

def test_stacks_are_drawn_with_owner_colour_and_targets_marked(make_app: Any) -> None:
    app = make_app()
    scene = SacksonScene(app, [HUMAN, COMP], "2p", seed=1)
    scene.state = scene.game.setup({"d4": "BAA", "f6": "B"}, reserves=[0, 0])
    app.push(scene)
    frame(app, 0)
    geo = scene.geometry()
    i = scene.state.board.index["d4"]
    box = geo.content(i)
    colours = {tuple(app.screen.get_at((x, y))[:3]) for x in range(box.x, box.right) for y in range(box.y, box.bottom)}
    assert sd.seat_colour(0) in colours and sd.seat_colour(1) in colours    # the top and the stone under it
    edge(scene, 0, "ok")
    edge(scene, 0, "right")
    frame(app, 1)
    d6 = geo.centres[scene.state.board.index["d6"]]
    px = tuple(app.screen.get_at((round(d6[0]), round(d6[1])))[:3])
    assert px != sd.CELL_LIGHT and px != sd.CELL_DARK                      # the target is washed in colour


# -- what the couch sees: banners, skipped seats, chips ------------------------------------------

def side_area(app: App) -> pygame.Rect:
    W, H = app.screen.get_size()
    return pygame.Rect(int(W * 0.63) + 6, 8, W - int(W * 0.63) - 14, H - 16)


def count_colour(surface: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int]) -> int:
    rect = rect.clip(surface.get_rect())
    return sum(1 for x in range(rect.x, rect.right) for y in range(rect.y, rect.bottom)
               if tuple(surface.get_at((x, y))[:3]) == colour)


def test_capture_banner_leaves_the_title_and_move_counter_visible_and_goes_with_the_next_move(make_app: Any) -> None:
    app = make_app()
    scene = SacksonScene(app, [HUMAN, COMP], "2p", seed=1)
    scene.state = scene.game.setup({"d4": "BBBBB", "d5": "A", "f6": "B", "g7": "B"})
    app.push(scene)
    frame(app, 0)
    scene._apply(Move("d5", "d4", 1), 0)
    assert scene.banner is not None and scene.banner[0] == "P1 captures 1 stone!"
    scene.draw(app.screen)
    side = side_area(app)
    title_row = pygame.Rect(side.x, side.y, side.w, 40)                     # title and "move 2"
    assert count_colour(app.screen, title_row, sd.seat_colour(0)) == 0
    assert count_colour(app.screen, title_row, render.TEXT) > 50   # the title is still there
    card_bottom = side.y + 40 + 128 + 8 + 2 * 92
    assert scene.shown_banner() is not None
    where = panel.banner_rect(side, card_bottom)
    assert where.top >= card_bottom                   # below the title, turn and cards
    assert count_colour(app.screen, where, sd.seat_colour(0)) > 1000
    scene._apply(Move("g7", "g6", 1), 1)                                     # the next move: no capture
    assert scene.banner is None
    scene._apply(Move("d4", "d5", 1), 0)
    scene.now += scene_mod.BANNER_NS                                         # nor does it outlive its time
    assert scene.shown_banner() is None


def test_4p_teams_a_skipped_seat_is_shown(make_app: Any) -> None:
    app = make_app()
    scene = SacksonScene(app, [HUMAN, COMP, COMP, COMP], "4p-teams", seed=1)
    scene.state = scene.game.setup({"d4": "A", "d5": "B", "a4": "C", "h4": "D"})
    app.push(scene)
    frame(app, 0)
    scene._apply(Move("d4", "d5", 1), 0)                  # covers P2's only stone: P2 is skipped (SF-5)
    assert scene.state.current_player() == 2
    assert scene.banner is not None and scene.banner[0] == "P2 has no move: skipped this turn"
    assert scene.log[-1] == (1, "has no move: skipped this turn")
    scene.draw(app.screen)
    side = side_area(app)
    card = pygame.Rect(side.x, side.y + 40 + 128 + 8 + 74, side.w, 68)      # P2's player card
    others = pygame.Rect(side.x, side.y + 40 + 128 + 8 + 2 * 74, side.w, 68)
    assert count_colour(app.screen, card, render.GOLD) > 300     # the SKIPPED tag
    assert count_colour(app.screen, others, render.GOLD) == 0
    assert scene.skipped == {1}


def test_every_stone_of_a_stack_shows_its_colour_in_a_chip_big_enough_to_read() -> None:
    pygame.init()
    for variant, cell, stack, least in (("crossfire", "E6", [0, 1, 0, 1, 0, 1], 100), ("2p", "d4", [1, 0, 1, 0, 1], 150)):
        game = make_game("focus", 2, {"variant": variant})
        surf = pygame.Surface((820, 720))
        geo = sd.BoardGeometry(game.board, pygame.Rect(8, 8, 794, 704))
        i = game.board.index[cell]
        surf.fill((0, 0, 0))
        sd.draw_cell_stack(surf, geo, i, tuple(stack), game.capacity[i], max(game.capacity))
        g = geo.gauge_rect(i)
        sh = g.h / max(game.capacity)
        for j, seat in enumerate(stack):                   # bottom first
            row = pygame.Rect(g.x - 2, round(g.bottom - (j + 1) * sh) - 1, g.w + 4, round(sh) + 2)
            assert count_colour(surf, row, sd.seat_colour(seat)) >= least, (variant, j)


def test_the_four_seats_chips_have_different_outlines_and_marks() -> None:
    pygame.init()
    masks = []
    for seat in range(4):
        surf = pygame.Surface((40, 20))
        surf.fill((0, 0, 0))
        sd.draw_chip(surf, seat, pygame.Rect(2, 2, 34, 15))
        masks.append(frozenset((x, y) for x in range(40) for y in range(20)
                               if tuple(surf.get_at((x, y))[:3]) == sd.seat_colour(seat)))
        assert len(masks[-1]) > 150
    assert len(set(masks)) == 4                            # colour is never the only cue


def test_a_game_from_a_set_up_position_is_saved_with_its_positions(make_app: Any) -> None:
    from arcade.sackson.record import replay as sackson_replay
    app = make_app()
    scene = SacksonScene(app, [HUMAN, COMP], "crossfire", seed=1)
    scene.state = scene.game.setup({"E6": "A", "E8": "B"})
    app.push(scene)
    frame(app, 0)
    scene._apply(Move("E6", "E8", 1), 0)                  # P2 cannot move any more: P1 wins
    frame(app, 1)
    saved = app.results.recent(1)
    assert saved and saved[0]["winners"] == [0]
    rec = app.results.record(saved[0]["id"])
    assert rec["start"]["source"] == "setup" and rec["start"]["stacks"] == {"E6": [0], "E8": [1]}
    assert rec["final"]["stacks"] == {"E8": [1, 0]} and rec["final"]["to_move"] is None
    assert sackson_replay(rec).outcome() == scene.state.outcome()
