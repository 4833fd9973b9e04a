"""Keyboard and gamepad stand-ins fed synthetic pygame events (no display).

What a player would notice: their key or pad button is their seat's buzzer,
holding a key does not machine-gun presses, and every edge carries the time the
clock gave (injected here, so the stamps are exact).
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import itertools  # noqa: E402
import queue  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from arcade.core.events import Edge  # noqa: E402
from hardware import drain  # noqa: E402
from hardware.errors import InputMapError  # noqa: E402
from hardware.gamepad import GamepadBuzzers  # noqa: E402
from hardware.keyboard import KeyboardBuzzers, default_keymap  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def key(kind: int, code: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0)


def down(code: int) -> pygame.event.Event:
    return key(pygame.KEYDOWN, code)


def up(code: int) -> pygame.event.Event:
    return key(pygame.KEYUP, code)


@pytest.fixture
def clock():
    ticks = itertools.count(1_000_000, 250_000)  # ns: 1 ms, 1.25 ms, ...
    return lambda: next(ticks)


# -- keyboard --------------------------------------------------------------------


def test_default_keymap_digits_are_seat_buzzers_and_two_seats_can_choose():
    km = default_keymap()
    digits = [pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4,
              pygame.K_5, pygame.K_6, pygame.K_7, pygame.K_8]
    assert [km[k] for k in digits] == [(s, "buzzer") for s in range(8)]
    assert km[pygame.K_a] == (0, "left") and km[pygame.K_d] == (0, "right")
    assert km[pygame.K_s] == (0, "ok") and km[pygame.K_w] == (0, "x")
    assert km[pygame.K_LEFT] == (1, "left") and km[pygame.K_RIGHT] == (1, "right")
    assert km[pygame.K_DOWN] == (1, "ok") and km[pygame.K_UP] == (1, "x")


def test_key_press_and_release_become_stamped_edges(clock):
    kb = KeyboardBuzzers(clock=clock)
    assert kb.handle(down(pygame.K_3)) is True
    assert kb.handle(up(pygame.K_3)) is True
    assert kb.handle(down(pygame.K_LEFT)) is True
    assert drain(kb.queue) == [Edge(1_000_000, 2, "buzzer", True),
                               Edge(1_250_000, 2, "buzzer", False),
                               Edge(1_500_000, 1, "left", True)]


def test_key_auto_repeat_is_not_a_new_press(clock):
    kb = KeyboardBuzzers(clock=clock)
    kb.handle(down(pygame.K_1))
    for _ in range(5):  # pygame.key.set_repeat sends KEYDOWN again and again
        assert kb.handle(down(pygame.K_1)) is True
    kb.handle(up(pygame.K_1))
    kb.handle(down(pygame.K_1))
    assert [e.pressed for e in drain(kb.queue)] == [True, False, True]


def test_custom_keymap_only_mapped_keys_are_consumed(clock):
    shared: queue.SimpleQueue[Edge] = queue.SimpleQueue()
    kb = KeyboardBuzzers({pygame.K_SPACE: (3, "buzzer")}, queue=shared, clock=clock)
    assert kb.queue is shared
    assert kb.handle(down(pygame.K_1)) is False       # not in this keymap
    assert kb.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1))) is False
    assert kb.handle(down(pygame.K_SPACE)) is True
    assert drain(shared) == [Edge(1_000_000, 3, "buzzer", True)]


def test_release_of_a_key_held_before_start_is_ignored(clock):
    kb = KeyboardBuzzers(clock=clock)
    assert kb.handle(up(pygame.K_2)) is True
    assert drain(kb.queue) == []


def test_focus_loss_releases_held_keys(clock):
    kb = KeyboardBuzzers(clock=clock)
    kb.handle(down(pygame.K_1))
    kb.handle(down(pygame.K_a))
    drain(kb.queue)
    assert kb.handle(pygame.event.Event(pygame.WINDOWFOCUSLOST)) is False
    released = drain(kb.queue)
    assert sorted((e.seat, e.control, e.pressed) for e in released) == [
        (0, "buzzer", False), (0, "left", False)]
    assert kb.held == frozenset()


def test_describe_names_the_key_for_the_lobby():
    kb = KeyboardBuzzers()
    assert kb.describe(0) == "key 1"
    assert kb.describe(7) == "key 8"
    assert kb.describe(0, "left") == "key A"
    assert kb.describe(1, "x") == "key Up"
    assert kb.describe(9) == "no key"
    two = KeyboardBuzzers({pygame.K_1: (0, "buzzer"), pygame.K_SPACE: (0, "buzzer")})
    assert two.describe(0) == "key 1 or key Space"


def test_describe_speaks_the_lobby_s_language():
    """In Ukrainian the lobby's seat rows name the key in Ukrainian, never "key 1" (issue 26)."""
    from arcade import i18n
    from tests.text_fit import compiled
    compiled("uk")
    was = i18n.current()
    i18n.use("uk")
    try:
        assert KeyboardBuzzers().describe(0) == "клавіша 1"
        assert KeyboardBuzzers().describe(9) == "немає клавіші"
        two = KeyboardBuzzers({pygame.K_1: (0, "buzzer"), pygame.K_SPACE: (0, "buzzer")})
        assert two.describe(0) == "клавіша 1 або клавіша Space"
        assert two.key_names(0) == ["1", "Space"]
    finally:
        i18n.use(was)


@pytest.mark.parametrize("keymap", [
    {pygame.K_1: (0, "jump")},
    {pygame.K_1: (-1, "buzzer")},
    {pygame.K_1: 0},
    {"1": (0, "buzzer")},
])
def test_bad_keymap_is_refused(keymap):
    with pytest.raises(InputMapError):
        KeyboardBuzzers(keymap)


def test_keyboard_and_gamepad_modules_import_without_display_or_pygame_init():
    code = ("import sys, hardware.keyboard, hardware.gamepad; "
            "print('pygame' in sys.modules); "
            "kb = hardware.keyboard.KeyboardBuzzers(); print(len(kb.keymap))")
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["PYTHONPATH"] = str(ROOT)
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "16"]


# -- gamepad ---------------------------------------------------------------------


def button(kind: int, inst: int, number: int) -> pygame.event.Event:
    return pygame.event.Event(kind, joy=inst, instance_id=inst, button=number)


def hat(inst: int, x: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.JOYHATMOTION, joy=inst, instance_id=inst,
                              hat=0, value=(x, 0))


def axis(inst: int, value: float, number: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.JOYAXISMOTION, joy=inst, instance_id=inst,
                              axis=number, value=value)


def edges_of(pad: GamepadBuzzers) -> list[tuple[int, str, bool]]:
    return [(e.seat, e.control, e.pressed) for e in drain(pad.queue)]


def test_gamepad_button_0_is_the_buzzer(clock):
    pad = GamepadBuzzers(clock=clock)
    assert pad.handle(pygame.event.Event(pygame.JOYBUTTONDOWN, joy=0, instance_id=0,
                                         button=0)) is True
    assert pad.handle(button(pygame.JOYBUTTONUP, 0, 0)) is True
    assert drain(pad.queue) == [Edge(1_000_000, 0, "buzzer", True),
                                Edge(1_250_000, 0, "buzzer", False)]


def test_gamepad_buttons_ok_and_x_and_unmapped_buttons(clock):
    pad = GamepadBuzzers(clock=clock)
    assert pad.handle(button(pygame.JOYBUTTONDOWN, 0, 1)) is True
    assert pad.handle(button(pygame.JOYBUTTONDOWN, 0, 2)) is True
    assert pad.handle(button(pygame.JOYBUTTONDOWN, 0, 7)) is False
    assert pad.handle(button(pygame.JOYBUTTONDOWN, 0, 1)) is True  # no new edge
    assert edges_of(pad) == [(0, "ok", True), (0, "x", True)]


def test_pads_take_seats_in_the_order_they_appear(clock):
    pad = GamepadBuzzers(clock=clock)
    pad.handle(button(pygame.JOYBUTTONDOWN, 5, 0))   # first pad seen -> seat 0
    pad.handle(button(pygame.JOYBUTTONDOWN, 2, 0))   # second -> seat 1
    assert edges_of(pad) == [(0, "buzzer", True), (1, "buzzer", True)]
    assert pad.seats == {5: 0, 2: 1}


def test_unplugged_pad_releases_what_it_held_and_frees_its_seat(clock):
    pad = GamepadBuzzers(clock=clock)
    pad.handle(button(pygame.JOYBUTTONDOWN, 0, 0))
    pad.handle(button(pygame.JOYBUTTONDOWN, 1, 0))
    pad.handle(hat(0, -1))
    drain(pad.queue)
    assert pad.handle(pygame.event.Event(pygame.JOYDEVICEREMOVED, instance_id=0)) is True
    assert sorted(edges_of(pad)) == [(0, "buzzer", False), (0, "left", False)]
    pad.handle(button(pygame.JOYBUTTONDOWN, 9, 0))   # plugged back: new instance id
    assert edges_of(pad) == [(0, "buzzer", True)]    # ... same seat again
    assert pad.handle(pygame.event.Event(pygame.JOYDEVICEREMOVED, instance_id=42)) is False


def test_added_pad_without_a_real_device_is_harmless(clock):
    pad = GamepadBuzzers(clock=clock)
    assert pad.handle(pygame.event.Event(pygame.JOYDEVICEADDED, device_index=99)) is False
    assert drain(pad.queue) == []


def test_hat_left_right_edges(clock):
    pad = GamepadBuzzers(clock=clock)
    assert pad.handle(hat(0, -1)) is True
    pad.handle(hat(0, 1))        # straight across: release left, press right
    pad.handle(hat(0, 0))
    assert edges_of(pad) == [(0, "left", True), (0, "left", False),
                             (0, "right", True), (0, "right", False)]


def test_stick_dead_zone_gives_one_edge_per_crossing(clock):
    pad = GamepadBuzzers(clock=clock, dead_zone=0.5, release_ratio=0.6)
    for value in (0.1, 0.3, -0.49, -0.6, -0.9, -0.4, -0.55, -0.2, 0.0, 0.7, 0.35, 0.1):
        pad.handle(axis(0, value))
    assert edges_of(pad) == [(0, "left", True), (0, "left", False),
                             (0, "right", True), (0, "right", False)]
    assert pad.handle(axis(0, -1.0, number=1)) is False  # vertical axis: not mapped


def test_hat_and_stick_together_hold_left_until_both_let_go(clock):
    pad = GamepadBuzzers(clock=clock)
    pad.handle(hat(0, -1))
    pad.handle(axis(0, -0.9))
    pad.handle(hat(0, 0))
    assert edges_of(pad) == [(0, "left", True)]
    pad.handle(axis(0, 0.0))
    assert edges_of(pad) == [(0, "left", False)]


def test_fixed_pad_to_seat_mapping_ignores_other_pads(clock):
    pad = GamepadBuzzers(clock=clock, seats={3: 5})
    assert pad.handle(button(pygame.JOYBUTTONDOWN, 3, 0)) is True
    assert pad.handle(button(pygame.JOYBUTTONDOWN, 4, 0)) is False
    assert edges_of(pad) == [(5, "buzzer", True)]


def test_bad_gamepad_settings_are_refused():
    with pytest.raises(InputMapError):
        GamepadBuzzers(buttons={0: "jump"})
    with pytest.raises(InputMapError):
        GamepadBuzzers(dead_zone=1.5)
    with pytest.raises(InputMapError):
        GamepadBuzzers(seats={0: -1})
