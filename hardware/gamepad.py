"""Gamepads standing in for stations: one pad per seat.

A pad SDL knows as a *game controller* (its game-controller mapping: Xbox,
PlayStation, Switch Pro and most others, via ``pygame._sdl2.controller``) is
read by the mapping's names, whatever its raw button numbers:
:data:`CONTROLLER_CONTROLS` (A = buzzer, B = ok, X / Y = x, d-pad left /
right), the left stick's horizontal axis = left / right.  SDL sends such a
pad's raw joystick events too; they are consumed without edges, so one press
is one edge.  Start and Back are the kiosk's commands (``kiosk/controls/input.py``),
not station controls.

A pad without a mapping falls back to raw numbers (defaults): button 0 =
buzzer, button 1 = ok, button 2 = x; the hat's and the left stick's
horizontal direction = left / right.  The stick has a
dead zone with hysteresis: "left" is pressed when the axis goes to
``-dead_zone`` or beyond and released only when it comes back inside
``dead_zone * release_ratio``, so a stick resting near the threshold does not
chatter; each crossing gives exactly one edge.

Seats: with ``seats=None`` each pad gets the lowest free seat when it is first
seen (``JOYDEVICEADDED`` or its first event), so pads take seats 0, 1, 2 ... in
the order they appear, and a pad unplugged and plugged back in (a new SDL
instance id) gets its seat back if nobody took it.  With ``seats={instance_id:
seat}`` the mapping is fixed and other pads are ignored.

Timing: like the keyboard, an edge is stamped with the injected clock when
:meth:`GamepadBuzzers.handle` sees the event (R-1 time line, up to a frame
late).  pygame is imported inside the methods; the module imports without a
display.
"""

from __future__ import annotations

import queue as queue_mod
import time
from typing import Any, Callable, Mapping

from arcade.core.events import CONTROLS, Edge
from hardware.errors import InputMapError
from hardware.sink import EdgeSink

__all__ = ["GamepadBuzzers", "DEFAULT_BUTTONS", "CONTROLLER_CONTROLS"]

#: Default button numbers -> controls (pads without an SDL game-controller mapping).
DEFAULT_BUTTONS: Mapping[int, str] = {0: "buzzer", 1: "ok", 2: "x"}

#: SDL game-controller buttons (``pygame.CONTROLLER_BUTTON_<name>``) -> controls.
CONTROLLER_CONTROLS: Mapping[str, str] = {"A": "buzzer", "B": "ok", "X": "x", "Y": "x",
                                          "DPAD_LEFT": "left", "DPAD_RIGHT": "right"}

_AXIS_MAX = 32767.0      # SDL game-controller axis values are -32768 .. 32767


class GamepadBuzzers:
    """Gamepad buttons, hats and sticks turned into stamped edges.

    Args:
        queue: where the edges go (share it); a new :class:`queue.SimpleQueue`
            if ``None``.
        clock: integer ns on the judge's clock (default
            :func:`time.monotonic_ns`); injected for tests.
        seats: ``{joystick instance id: seat}``; ``None`` assigns seats in the
            order pads appear (see the module text).
        buttons: ``{button number: control}``; :data:`DEFAULT_BUTTONS` if None.
        axes: the axis numbers read as left/right (default ``(0,)``, the left
            stick's horizontal axis).
        dead_zone: axis value (0 < dead_zone < 1) at which a direction counts
            as pressed.
        release_ratio: the direction is released when ``|value|`` falls below
            ``dead_zone * release_ratio`` (0 < ratio <= 1; 1 = no hysteresis).

    Raises:
        InputMapError: a bad seat or button mapping, or dead zone.
    """

    def __init__(
        self,
        queue: EdgeSink | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        seats: Mapping[int, int] | None = None,
        buttons: Mapping[int, str] | None = None,
        axes: tuple[int, ...] = (0,),
        dead_zone: float = 0.5,
        release_ratio: float = 0.6,
    ) -> None:
        self._queue: EdgeSink = queue if queue is not None else queue_mod.SimpleQueue()
        self._clock = clock
        if not 0.0 < dead_zone < 1.0:
            raise InputMapError("dead_zone", f"a value between 0 and 1, got {dead_zone!r}")
        if not 0.0 < release_ratio <= 1.0:
            raise InputMapError("release_ratio", f"a value in (0, 1], got {release_ratio!r}")
        self._dead_zone = float(dead_zone)
        self._release = float(dead_zone) * float(release_ratio)
        self._buttons = dict(DEFAULT_BUTTONS if buttons is None else buttons)
        for button, control in self._buttons.items():
            if control not in CONTROLS:
                raise InputMapError(button, f"a control in {CONTROLS}, got {control!r}")
        self._axes = tuple(axes)
        self._fixed = seats is not None
        self._seat_of: dict[int, int] = {}
        if seats is not None:
            for inst, seat in seats.items():
                if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
                    raise InputMapError(inst, f"a seat number >= 0, got {seat!r}")
                self._seat_of[int(inst)] = seat
        self._joysticks: dict[int, Any] = {}
        # (instance, ("hat"|"axis", n)) -> -1 / 0 / +1
        self._dirs: dict[tuple[int, tuple[str, int]], int] = {}
        # held controls: (instance, control)
        self._held: set[tuple[int, str]] = set()
        # instances read through SDL's game-controller mapping -> their Controller (or None)
        self._controllers: dict[int, Any] = {}
        self._pad_buttons: dict[int, str] | None = None

    @property
    def controllers(self) -> frozenset[int]:
        """Instance ids of the pads read through SDL's game-controller mapping."""
        return frozenset(self._controllers)

    @property
    def queue(self) -> EdgeSink:
        """The queue the edges are put on."""
        return self._queue

    @property
    def seats(self) -> dict[int, int]:
        """A copy of ``{instance id: seat}`` as assigned so far."""
        return dict(self._seat_of)

    def seat_of(self, instance_id: int) -> int | None:
        """The seat of a pad, assigning the lowest free one in automatic mode.

        Returns:
            the seat, or None when the mapping is fixed and this pad is not in it.
        """
        seat = self._seat_of.get(instance_id)
        if seat is None and not self._fixed:
            taken = set(self._seat_of.values())
            seat = next(s for s in range(len(taken) + 1) if s not in taken)
            self._seat_of[instance_id] = seat
        return seat

    def handle(self, event: Any) -> bool:
        """Turn one pygame joystick event into edges.

        Handles ``JOYBUTTONDOWN/UP`` (mapped buttons), ``JOYHATMOTION`` and
        ``JOYAXISMOTION`` (left / right), ``JOYDEVICEADDED`` (opens the pad so
        SDL sends its events, assigns a seat) and ``JOYDEVICEREMOVED`` (release
        edges for everything it held, frees its seat in automatic mode).

        Returns:
            True if the event was consumed (a mapped input or a device event of
            a pad in use), False otherwise.
        """
        import pygame

        etype = getattr(event, "type", None)
        if etype in _controller_types():
            return self._controller_event(event)
        if etype in (pygame.JOYBUTTONDOWN, pygame.JOYBUTTONUP, pygame.JOYHATMOTION, pygame.JOYAXISMOTION):
            inst = self._instance(event)
            if inst is not None and inst in self._controllers:
                return True      # the game-controller events carry this pad's input
        if etype in (pygame.JOYBUTTONDOWN, pygame.JOYBUTTONUP):
            inst = self._instance(event)
            control = self._buttons.get(getattr(event, "button", -1))
            if inst is None or control is None:
                return False
            seat = self.seat_of(inst)
            if seat is None:
                return False
            self._set_held(inst, seat, control, etype == pygame.JOYBUTTONDOWN)
            return True
        if etype == pygame.JOYHATMOTION:
            inst = self._instance(event)
            if inst is None:
                return False
            value = getattr(event, "value", (0, 0))
            x = int(value[0]) if value else 0
            return self._set_dir(inst, ("hat", int(getattr(event, "hat", 0))),
                                 (x > 0) - (x < 0))
        if etype == pygame.JOYAXISMOTION:
            inst = self._instance(event)
            axis = int(getattr(event, "axis", -1))
            if inst is None or axis not in self._axes:
                return False
            return self._axis(inst, ("axis", axis), float(getattr(event, "value", 0.0)))
        if etype == pygame.JOYDEVICEADDED:
            return self._added(event)
        if etype == pygame.JOYDEVICEREMOVED:
            inst = self._instance(event)
            if inst is None:
                return False
            return self.remove(inst)
        return False

    def remove(self, instance_id: int) -> bool:
        """Forget a pad: release edges for what it held, free its seat.

        Returns:
            True if the pad was known.
        """
        known = instance_id in self._seat_of or instance_id in self._joysticks
        seat = self._seat_of.get(instance_id)
        if seat is not None:
            for inst, control in sorted(self._held):
                if inst == instance_id:
                    self._set_held(inst, seat, control, False)
        for key in [k for k in self._dirs if k[0] == instance_id]:
            del self._dirs[key]
        self._joysticks.pop(instance_id, None)
        self._controllers.pop(instance_id, None)
        if not self._fixed:
            self._seat_of.pop(instance_id, None)
        return known

    # -- internals

    @staticmethod
    def _instance(event: Any) -> int | None:
        inst = getattr(event, "instance_id", None)
        if inst is None:
            inst = getattr(event, "joy", None)
        return None if inst is None else int(inst)

    def _added(self, event: Any) -> bool:
        import pygame

        index = getattr(event, "device_index", None)
        if index is None:
            return False
        pad = _open_controller(int(index))
        if pad is not None:
            inst, controller = pad
            self._controllers[inst] = controller
            return self.seat_of(inst) is not None
        try:
            if not pygame.joystick.get_init():
                pygame.joystick.init()
            joystick = pygame.joystick.Joystick(int(index))
            inst = int(joystick.get_instance_id())
        except Exception:
            return False  # gone again already, or no joystick subsystem
        self._joysticks[inst] = joystick
        return self.seat_of(inst) is not None

    def _controller_event(self, event: Any) -> bool:
        """A game-controller event (SDL's mapping names, not raw numbers)."""
        import pygame

        etype = event.type
        if etype == pygame.CONTROLLERDEVICEADDED:
            return self._added(event)
        inst = self._instance(event)
        if inst is None:
            return False
        if etype == pygame.CONTROLLERDEVICEREMOVED:
            return self.remove(inst)
        self._controllers.setdefault(inst, None)     # its raw joystick events are now ignored
        if etype == pygame.CONTROLLERAXISMOTION:
            if int(getattr(event, "axis", -1)) != pygame.CONTROLLER_AXIS_LEFTX:
                return False
            return self._axis(inst, ("pad-axis", 0), float(getattr(event, "value", 0)) / _AXIS_MAX)
        if self._pad_buttons is None:
            self._pad_buttons = {getattr(pygame, f"CONTROLLER_BUTTON_{name}"): control
                                 for name, control in CONTROLLER_CONTROLS.items()}
        control = self._pad_buttons.get(int(getattr(event, "button", -1)))
        if control is None:
            return False
        pressed = etype == pygame.CONTROLLERBUTTONDOWN
        if control in ("left", "right"):
            direction = -1 if control == "left" else 1
            return self._set_dir(inst, ("dpad", direction), direction if pressed else 0)
        seat = self.seat_of(inst)
        if seat is None:
            return False
        self._set_held(inst, seat, control, pressed)
        return True

    def _axis(self, inst: int, source: tuple[str, int], value: float) -> bool:
        """A stick axis at ``value`` (-1 .. 1): left / right with the dead zone's hysteresis."""
        old = self._dirs.get((inst, source), 0)
        if value <= -self._dead_zone:
            new = -1
        elif value >= self._dead_zone:
            new = 1
        elif old != 0 and abs(value) >= self._release and (value > 0) == (old > 0):
            new = old  # inside the hysteresis band: keep the direction
        else:
            new = 0
        return self._set_dir(inst, source, new)

    def _set_held(self, inst: int, seat: int, control: str, pressed: bool) -> None:
        key = (inst, control)
        if pressed == (key in self._held):
            return  # a repeated down (or up) is not a new edge
        if pressed:
            self._held.add(key)
        else:
            self._held.discard(key)
        self._queue.put(Edge(int(self._clock()), seat, control, pressed, "gamepad"))

    def _set_dir(self, inst: int, source: tuple[str, int], value: int) -> bool:
        seat = self.seat_of(inst)
        if seat is None:
            return False
        if value:
            self._dirs[(inst, source)] = value
        else:
            self._dirs.pop((inst, source), None)
        dirs = [v for (i, _), v in self._dirs.items() if i == inst]
        # left is held while any of the pad's sources points left; likewise right
        self._set_held(inst, seat, "left", -1 in dirs)
        self._set_held(inst, seat, "right", 1 in dirs)
        return True


def _controller_types() -> tuple[int, ...]:
    import pygame

    return (pygame.CONTROLLERBUTTONDOWN, pygame.CONTROLLERBUTTONUP, pygame.CONTROLLERAXISMOTION,
            pygame.CONTROLLERDEVICEADDED, pygame.CONTROLLERDEVICEREMOVED)


def _open_controller(index: int) -> tuple[int, Any] | None:
    """Open device ``index`` as an SDL game controller if SDL has a mapping for it.

    Returns:
        ``(instance id, controller)``, or None (no mapping, gone, no subsystem).
    """
    try:
        from pygame._sdl2 import controller as sdl_controller

        if not sdl_controller.get_init():
            sdl_controller.init()
        if not sdl_controller.is_controller(index):
            return None
        pad = sdl_controller.Controller(index)
        return int(pad.as_joystick().get_instance_id()), pad
    except Exception:
        return None
