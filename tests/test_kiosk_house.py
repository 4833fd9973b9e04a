"""The kiosk house: the scene stack, the one input layer, the one leave dialog of every game.

What a player notices: every game asks the same question before it is left
("Leave this game?") and answers to the station controls (OK leaves, any other
control stays; the computer players' presses never answer it); keys, gamepads
and GPIO buttons reach every screen as the same station events, so no screen
reads a key code; a gamepad SDL knows is read by its mapping's names.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

import pygame
import pytest

from arcade.core.events import Edge
from kiosk.app.loop import App
from kiosk.controls.input import COMMANDS, Command
from kiosk.scene import Scene, SceneStack
from kiosk.scenes.attract import AttractScene
from kiosk.scenes.game import LEAVE_NS, GameScene
from kiosk.scenes.lobby import lobby_games
from kiosk.scenes.seats import SeatInfo

ROOT = Path(__file__).resolve().parents[1]
T0 = 10 ** 15
STEP = 16_666_667
PERSON = SeatInfo("keyboard", "key 1", "medium", True)
OTHER = SeatInfo("keyboard", "key 2", "medium", True)
COMP = SeatInfo("computer", "computer (medium)", "medium")


pytestmark = pytest.mark.kiosk_app(size=(640, 360), pace=0.5)   # the `app` fixture (conftest.py)


def keydown(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


# -- no screen reads a key code ------------------------------------------------------------------

def test_no_scene_reads_key_codes_or_raw_gamepad_buttons() -> None:
    offenders = []
    for folder in ("kiosk/games", "kiosk/scenes"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if re.search(r"pygame\.(K_|KMOD_|KEYDOWN|KEYUP|JOYBUTTON|JOYHAT|JOYAXIS|CONTROLLER)", line):
                    offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


def test_the_keyboard_table_is_the_readme_s() -> None:
    pygame.init()
    from kiosk.controls.input import station_keymap
    km = station_keymap()
    digits = [pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_6, pygame.K_7, pygame.K_8]
    assert [km[k] for k in digits] == [(s, "buzzer") for s in range(8)]
    assert [km[k] for k in (pygame.K_a, pygame.K_d, pygame.K_s, pygame.K_w)] == \
        [(0, "left"), (0, "right"), (0, "ok"), (0, "x")]
    assert [km[k] for k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_UP)] == \
        [(1, "left"), (1, "right"), (1, "ok"), (1, "x")]


def test_keys_become_commands_and_station_events(app: App) -> None:
    got = app.input.handle(keydown(pygame.K_ESCAPE))
    assert [c.name for c in got] == ["back"] and not got[0].station_key
    assert [c.name for c in app.input.handle(keydown(pygame.K_RETURN))] == ["ok"]
    assert [c.name for c in app.input.handle(keydown(pygame.K_q, pygame.KMOD_LCTRL))] == ["quit"]
    assert app.input.handle(keydown(pygame.K_q)) == []
    assert app.input.handle(keydown(pygame.K_3)) == []                  # a buzzer: an edge, no command
    right = app.input.handle(keydown(pygame.K_RIGHT))                   # P2's right: both, marked
    assert [(c.name, c.station_key) for c in right] == [("right", True)]
    assert [(c.name, c.station_key) for c in app.input.handle(keydown(pygame.K_KP6))] == [("right", False)]
    edges = []
    while True:
        try:
            edges.append(app.queue.get_nowait())
        except Exception:
            break
    assert [(e.seat, e.control, e.pressed, e.source) for e in edges] == \
        [(2, "buzzer", True, "keyboard"), (1, "right", True, "keyboard")]
    with pytest.raises(ValueError):
        Command("jump")
    assert "back" in COMMANDS


def test_ctrl_q_quits_from_any_screen(app: App) -> None:
    app.home()
    pygame.event.post(keydown(pygame.K_q, pygame.KMOD_LCTRL))
    app.step(T0)
    assert app.running is False


# -- gamepads through SDL's game-controller mapping ----------------------------------------------

def pad_button(down: bool, inst: int, button: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.CONTROLLERBUTTONDOWN if down else pygame.CONTROLLERBUTTONUP,
                              instance_id=inst, button=button)


def test_a_game_controller_is_read_by_its_mapping_names(app: App) -> None:
    pad = app.gamepad
    assert pad is not None
    clock = iter(range(1000, 10 ** 6, 1000))
    pad._clock = lambda: next(clock)
    for ev in (pad_button(True, 7, pygame.CONTROLLER_BUTTON_A), pad_button(False, 7, pygame.CONTROLLER_BUTTON_A),
               pad_button(True, 7, pygame.CONTROLLER_BUTTON_B), pad_button(True, 7, pygame.CONTROLLER_BUTTON_Y),
               pad_button(True, 7, pygame.CONTROLLER_BUTTON_DPAD_LEFT),
               pygame.event.Event(pygame.CONTROLLERAXISMOTION, instance_id=7,
                                  axis=pygame.CONTROLLER_AXIS_LEFTX, value=-30000),
               pad_button(False, 7, pygame.CONTROLLER_BUTTON_DPAD_LEFT),     # the stick still holds left
               pygame.event.Event(pygame.CONTROLLERAXISMOTION, instance_id=7,
                                  axis=pygame.CONTROLLER_AXIS_LEFTX, value=0)):
        assert pad.handle(ev) is True
    # SDL also sends the pad's raw joystick events: they make no second edge
    assert pad.handle(pygame.event.Event(pygame.JOYBUTTONDOWN, joy=7, instance_id=7, button=0)) is True
    edges = []
    while True:
        try:
            edges.append(app.queue.get_nowait())
        except Exception:
            break
    assert [(e.seat, e.control, e.pressed, e.source) for e in edges] == [
        (0, "buzzer", True, "gamepad"), (0, "buzzer", False, "gamepad"), (0, "ok", True, "gamepad"),
        (0, "x", True, "gamepad"), (0, "left", True, "gamepad"), (0, "left", False, "gamepad")]
    assert 7 in pad.controllers
    start = app.input.commands(pad_button(True, 7, pygame.CONTROLLER_BUTTON_START))
    back = app.input.commands(pad_button(True, 7, pygame.CONTROLLER_BUTTON_BACK))
    assert [(c.name, c.source) for c in start + back] == [("ok", "gamepad"), ("back", "gamepad")]
    assert pad.handle(pygame.event.Event(pygame.CONTROLLERDEVICEREMOVED, instance_id=7)) is True
    assert 7 not in pad.controllers


# -- the scene stack -----------------------------------------------------------------------------

def test_the_scene_stack_enters_pauses_resumes_and_exits_in_order() -> None:
    log: list[str] = []

    class Probe(Scene):
        def __init__(self, name: str, overlay: bool = False) -> None:
            super().__init__(None)
            self.name, self.overlay = name, overlay

        def enter(self) -> None: log.append(f"enter {self.name}")
        def exit(self) -> None: log.append(f"exit {self.name}")
        def pause(self) -> None: log.append(f"pause {self.name}")
        def resume(self) -> None: log.append(f"resume {self.name}")

    cleared: list[bool] = []
    stack = SceneStack(on_clear=lambda: cleared.append(True))
    a, b, c, d = Probe("a"), Probe("b", overlay=True), Probe("c"), Probe("d")
    stack.push(a)
    stack.push(b)
    assert stack.drawn() == [a, b] and stack.top is b          # an overlay over the scene below
    stack.pop()
    stack.replace(c)
    stack.push(d)
    assert stack.drawn() == [d]
    stack.clear()
    assert log == ["enter a", "pause a", "enter b", "exit b", "resume a", "exit a", "enter c", "pause c",
                   "enter d", "exit d", "exit c"]
    assert stack.top is None and cleared == [True]


def test_scene_modules_do_not_import_the_app_loop() -> None:
    """The scene base, the input layer and the base game scene never import the app loop when
    they run; the scenes' ``app`` is typed ``App`` for the type checker only (an import under
    ``if TYPE_CHECKING:``, issue 21)."""
    import ast

    def runtime_imports(tree: ast.AST) -> list[str]:
        out: list[str] = []
        for node in ast.iter_child_nodes(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                out += runtime_imports(ast.Module(body=node.orelse, type_ignores=[]))
                continue
            if isinstance(node, ast.ImportFrom) and node.module:
                out.append(node.module)
            elif isinstance(node, ast.Import):
                out += [a.name for a in node.names]
            out += runtime_imports(node)
        return out

    for path in [ROOT / "kiosk" / "scene.py", ROOT / "kiosk" / "controls" / "input.py", ROOT / "kiosk" / "scenes" / "game.py"]:
        found = runtime_imports(ast.parse(path.read_text()))
        assert not [m for m in found if m == "kiosk.app" or m.startswith("kiosk.app.")], path
        assert found, path                                    # the walk sees the module's imports


# -- one leave dialog in every game --------------------------------------------------------------

def one_of_each(app: App) -> list[tuple[str, Callable[[], GameScene]]]:
    """A person on seat 0 and computers elsewhere, for every lobby entry's first mode of each kind."""
    out: list[tuple[str, Callable[[], GameScene]]] = []
    seen: set[str] = set()
    for g in lobby_games():
        kind = g.family + ":" + g.mode.removesuffix("-x")
        if kind in seen:
            continue
        seen.add(kind)
        seats = [PERSON] + [COMP] * (max(g.min_seats, 2) - 1)
        out.append((g.label, lambda g=g, seats=seats: g.start(app, seats)))     # type: ignore[misc]
    return out


def run(app: App, frames: int, start: int = 0) -> int:
    for f in range(start, start + frames):
        app.step(T0 + f * STEP)
    return start + frames


def drain(app: App) -> None:
    while True:
        try:
            app.queue.get_nowait()
        except Exception:
            return


def test_every_game_asks_the_same_question_before_it_is_left(app: App) -> None:
    games = one_of_each(app)
    assert len(games) >= 12           # FocusX x4, Sherlook, FOCUS x5, Focus (2023) x4 (some modes share a kind)
    for label, make in games:
        scene = make()
        app.stack.clear()
        app.push(scene)
        f = run(app, 3)
        pygame.event.post(keydown(pygame.K_ESCAPE))
        f = run(app, 1, f)
        assert app.scenes[-1] is scene and scene.leave_until is not None, label
        assert scene.banner is not None and scene.banner[0].startswith("Leave this game?"), label
        # a computer player's press never answers the dialog
        scene.on_edge(Edge(T0 + f * STEP, 1, "buzzer", True, "computer"))
        assert scene.leave_until is not None, label
        # a person's other control: stay (and the press is used for nothing else)
        scene.on_edge(Edge(T0 + f * STEP, 0, "left", True, "keyboard"))
        assert scene.leave_until is None and app.scenes[-1] is scene, label
        # open it again: the person's OK control leaves
        pygame.event.post(keydown(pygame.K_ESCAPE))
        f = run(app, 1, f)
        assert scene.leave_until is not None, label
        scene.on_edge(Edge(T0 + f * STEP, 0, "ok", True, "keyboard"))
        assert isinstance(app.scenes[-1], AttractScene), label
        drain(app)


def test_the_leave_dialog_closes_by_itself_and_esc_twice_leaves(app: App) -> None:
    from kiosk.games.focusx.scene import ClassicScene
    scene = ClassicScene(app, [PERSON, OTHER], seed=3, pace_s=0.5)
    app.push(scene)
    f = run(app, 2)
    scene.on_command(Command("back"))
    assert scene.leave_until is not None
    f = run(app, LEAVE_NS // STEP + 2, f)
    assert scene.leave_until is None and app.scenes[-1] is scene        # nobody answered: the game goes on
    assert sum(len(s) for s in scene.state.spots) >= 1                   # and it went on under the dialog
    scene.on_command(Command("back"))
    scene.on_command(Command("down", station_key=True))                  # P2's OK key: its edge decides
    assert scene.leave_until is not None
    scene.on_command(Command("back"))
    assert isinstance(app.scenes[-1], AttractScene)


def test_the_dialog_is_drawn_over_the_game(app: App) -> None:
    from kiosk.games.sherlook.scene import SherlookScene
    scene = SherlookScene(app, [PERSON, COMP], seed=2)
    app.push(scene)
    run(app, 2)
    before = pygame.image.tobytes(app.screen, "RGB")
    scene.on_command(Command("back"))
    app.draw()
    after = pygame.image.tobytes(app.screen, "RGB")
    assert before != after
    w, h = app.screen.get_size()
    assert app.screen.get_at((w // 2, h // 2 - 60))[:3] != app.screen.get_at((5, h - 5))[:3]


# -- the kernel stamp reaches the scene unchanged --------------------------------------------------

def test_a_gpio_edge_reaches_the_game_with_its_kernel_stamp(app: App) -> None:
    from gpiozero.pins.mock import MockFactory

    from hardware.gpio import GpioBuzzers
    from kiosk.games.focusx.scene import ClassicScene

    factory = MockFactory()
    got: list[Edge] = []
    gpio = GpioBuzzers({(0, "buzzer"): 17}, pin_factory=factory, queue=app.queue)
    try:
        scene = ClassicScene(app, [SeatInfo("gpio", "GPIO 17"), COMP], seed=1, pace_s=0.5)
        app.gpio = gpio
        app.push(scene)
        feed: Any = scene.referee.feed
        scene.referee.feed = lambda e: (got.append(e), feed(e))[1]     # type: ignore[method-assign]
        factory.pin(17).drive_low()
        factory.pin(17).drive_high()
        app.step(T0)
    finally:
        gpio.close()
        factory.close()
        app.gpio = None
    assert [(e.seat, e.control, e.pressed, e.source) for e in got] == [(0, "buzzer", True, "gpio"),
                                                                        (0, "buzzer", False, "gpio")]
    assert got[0].t_ns < got[1].t_ns and got[0].t_ns > 0       # the pin's own stamps, not the frame's time
    assert all(e.t_ns != T0 for e in got)


# -- the lobby's games are the registry's --------------------------------------------------------

def test_every_registry_entry_has_a_screen_and_the_lobby_and_demo_take_its_name(app: App) -> None:
    from arcade import registry
    from kiosk.scenes.lobby import find_game

    games = lobby_games()
    assert [g.name for g in games] == registry.names()             # the registry's order, no other
    for g, spec in zip(games, registry.SPECS):
        assert (g.label, g.family, g.mode, g.min_seats, g.max_seats) == \
            (spec.label, spec.family, spec.mode, spec.min_seats, spec.max_seats)
        assert find_game(spec.name, None) is not None and find_game(spec.name, None).name == spec.name
        assert find_game(spec.family, spec.mode).name == spec.name
        scene = g.start(app, [COMP] * g.min_seats)
        assert isinstance(scene, GameScene) and len(scene.seat_infos()) == g.min_seats
        scene.exit()
    with pytest.raises(KeyError, match="unknown game 'chess'.*focusx-classic"):
        find_game("chess", None)
