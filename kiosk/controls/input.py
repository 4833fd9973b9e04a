"""The kiosk's one input layer: keyboard, gamepads and GPIO turned into station events.

Two kinds of events leave this layer, and scenes see nothing else (no scene
reads ``pygame.K_*`` or a gamepad button number):

* **station events**: :class:`arcade.core.events.Edge` objects (seat, control
  in ``buzzer / left / right / ok / x``, pressed or released, the stamp in
  integer ns on CLOCK_MONOTONIC, R-1), put on the app's one queue by the
  adapters in ``hardware/``: GPIO buzzers stamped by the kernel
  (``hardware/gpio.py``, the only stamps fair enough for a race), keys
  (``hardware/keyboard.py``) and gamepads through SDL's game-controller
  mapping (``hardware/gamepad.py``), both stamped when the frame sees them.
  The scene gets them through ``Scene.on_edge`` and the referee orders them
  by stamp.
* **commands** (:class:`Command`): what is not a seat's control: ``back``
  (Esc, a gamepad's Back button), ``quit`` (Ctrl+Q), and the menu keys of the
  lobby and of a keyboard seat without choose keys (``ok``, ``up``, ``down``,
  ``left``, ``right``, ``x``).  A command made by a key that is also a
  station key (P2's arrows) says so (``station_key``): a game scene leaves
  it to the station event, a menu uses it.

The keyboard's table, as the README documents it:

====================  ===========================================
keys                  meaning
====================  ===========================================
``1`` .. ``8``        the buzzers of seats P1 .. P8 (station events)
``A`` ``D`` ``S`` ``W``  P1's left, right, OK, X (station events)
arrows                P2's left, right, OK (Down), X (Up) (station events)
Esc                   ``back`` (in a game: the leave dialog)
Enter, keypad Enter,  ``ok`` (lobby: start; results: play again)
Space
Up / keypad 8         ``up``;  Down / keypad 2 / Tab: ``down``
Left / keypad 4       ``left``; Right / keypad 6: ``right``
Backspace             ``x`` (step back)
F12, Print Screen     ``screenshot`` (the app's: a PNG with ``--screenshot-dir``)
Ctrl+Q                ``quit``
====================  ===========================================

Gamepads (SDL game-controller names): A = buzzer, B = OK, X and Y = X,
d-pad and left stick left/right = left/right (station events); Start =
``ok``, Back = ``back``, Guide (the logo button) = ``screenshot`` (commands).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping

from arcade.core.events import CONTROLS
from hardware.gamepad import GamepadBuzzers
from hardware.keyboard import KeyboardBuzzers, default_keymap
from hardware.sink import EdgeSink

if TYPE_CHECKING:
    import pygame

    from kiosk.config import Config

__all__ = ["COMMANDS", "Command", "StationInput", "default_key_commands", "station_keymap"]

#: Every command name a scene may get.
COMMANDS = ("back", "quit", "ok", "up", "down", "left", "right", "x", "screenshot")

#: Command keys by pygame key name (``pygame.key.key_code`` names).
KEY_COMMANDS: Mapping[str, str] = {
    "escape": "back",
    "return": "ok", "enter": "ok", "space": "ok",
    "up": "up", "[8]": "up",
    "down": "down", "[2]": "down", "tab": "down",
    "left": "left", "[4]": "left",
    "right": "right", "[6]": "right",
    "backspace": "x",
    "f12": "screenshot", "print screen": "screenshot",     # the app's, never a scene's
}

#: Gamepad buttons (SDL game-controller names, ``pygame.CONTROLLER_BUTTON_*``) that are commands.
PAD_COMMANDS: Mapping[str, str] = {"START": "ok", "BACK": "back", "GUIDE": "screenshot"}


@dataclass(frozen=True)
class Command:
    """One command from the input layer.

    Attributes:
        name: one of :data:`COMMANDS`.
        t_ns: when the frame saw it, integer ns (CLOCK_MONOTONIC).
        source: "keyboard" or "gamepad".
        station_key: the key is also a seat's station control (its edge went on
            the queue too); game scenes leave such a command to the edge.
    """

    name: str
    t_ns: int = 0
    source: str = "keyboard"
    station_key: bool = False

    def __post_init__(self) -> None:
        if self.name not in COMMANDS:
            raise ValueError(f"Command.name {self.name!r}: expected one of {COMMANDS}")


def station_keymap() -> dict[int, tuple[int, str]]:
    """The keyboard's station keys ``{pygame key code: (seat, control)}`` (README: keys 1-8
    buzzers, P1 A/D/S/W, P2 arrows); the table is :func:`hardware.keyboard.default_keymap`."""
    return default_keymap()


def default_key_commands() -> dict[int, str]:
    """``{pygame key code: command}`` from :data:`KEY_COMMANDS` (Ctrl+Q is ``quit``, apart)."""
    import pygame

    return {pygame.key.key_code(name): command for name, command in KEY_COMMANDS.items()}


def pad_commands() -> dict[int, str]:
    """``{pygame.CONTROLLER_BUTTON_* : command}`` from :data:`PAD_COMMANDS`."""
    import pygame

    buttons = {"START": pygame.CONTROLLER_BUTTON_START, "BACK": pygame.CONTROLLER_BUTTON_BACK,
               "GUIDE": pygame.CONTROLLER_BUTTON_GUIDE, "A": pygame.CONTROLLER_BUTTON_A,
               "B": pygame.CONTROLLER_BUTTON_B, "X": pygame.CONTROLLER_BUTTON_X, "Y": pygame.CONTROLLER_BUTTON_Y}
    return {buttons[name]: command for name, command in PAD_COMMANDS.items()}


class StationInput:
    """Keyboard and gamepad stations on one edge queue, and the commands.

    Args:
        queue: the app's edge queue (GPIO buzzers put theirs there too).
        clock: integer ns on CLOCK_MONOTONIC, for the stamps of keys, pads and
            commands (injected: tests run on a virtual clock).
        message: where a problem goes (e.g. "Gamepads unavailable").

    Attributes:
        keyboard: the :class:`~hardware.keyboard.KeyboardBuzzers` (replaceable).
        gamepad: the :class:`~hardware.gamepad.GamepadBuzzers`, or None.
    """

    def __init__(self, queue: EdgeSink, clock: Callable[[], int] = time.monotonic_ns,
                 message: Callable[[str], None] | None = None) -> None:
        self.clock = clock
        self.keyboard: KeyboardBuzzers = KeyboardBuzzers(station_keymap(), queue=queue, clock=clock)
        self.gamepad: GamepadBuzzers | None = None
        try:
            self.gamepad = GamepadBuzzers(queue=queue, clock=clock)
        except Exception as exc:       # no joystick subsystem: keys and GPIO still work
            if message is not None:
                message(f"Gamepads unavailable: {exc}")
        self._key_commands: dict[int, str] | None = None
        self._pad_commands: dict[int, str] | None = None

    def handle(self, event: pygame.event.Event) -> list[Command]:
        """One pygame event: station edges go on the queue; returns its commands."""
        self.keyboard.handle(event)
        if self.gamepad is not None:
            self.gamepad.handle(event)
        return self.commands(event)

    def commands(self, event: pygame.event.Event) -> list[Command]:
        """The commands of one pygame event (no edges are made here).

        Returns:
            ``[]`` for an event that is no command; ``[Command("quit")]`` for Ctrl+Q.
        """
        import pygame

        etype, fields = event.type, event.dict      # an event has the fields of its type only
        if etype == pygame.KEYDOWN:
            key = fields.get("key")
            if key == pygame.K_q and fields.get("mod", 0) & pygame.KMOD_CTRL:
                return [Command("quit", int(self.clock()))]
            if self._key_commands is None:
                self._key_commands = default_key_commands()
            name = self._key_commands.get(key) if isinstance(key, int) else None
            if name is None:
                return []
            return [Command(name, int(self.clock()), "keyboard", key in self.keyboard.keymap)]
        if etype == pygame.CONTROLLERBUTTONDOWN:
            if self._pad_commands is None:
                self._pad_commands = pad_commands()
            name = self._pad_commands.get(fields.get("button", -1))
            return [] if name is None else [Command(name, int(self.clock()), "gamepad")]
        return []

    def is_station_key(self, name: str) -> bool:
        """Whether the key called ``name`` (a :data:`KEY_COMMANDS` name, e.g. ``"right"``) is
        also a seat's station key in the keyboard's table."""
        import pygame

        return pygame.key.key_code(name) in self.keyboard.keymap

    def release_all(self) -> None:
        """Release edges for every key held (the window lost focus, a scene ended)."""
        self.keyboard.release_all()


def wired_controls(cfg: Config, gpio_open: bool) -> dict[int, tuple[str, ...]]:
    """The controls the configuration wires for each seat: ``{seat: controls}`` in
    :data:`~arcade.core.events.CONTROLS` order, a seat with none left out.

    A ``"gpio"`` seat has its buzzer pin and its ``[gpio] controls`` row (when the GPIO buzzers
    opened; else keys 1-8 stand in, as the lobby says); a ``"keyboard"`` seat its key of 1-8 and,
    P1 and P2, their choose keys (:func:`station_keymap`); a ``"gamepad"`` seat every control; a
    computer or ``"off"`` seat none.  With ``kiosk/install.sh``'s configuration (four GPIO
    buzzers, no controls): P1-P4, each a buzzer alone."""
    keys: dict[int, set[str]] = {}
    for seat, control in station_keymap().values():
        keys.setdefault(seat, set()).add(control)
    buzzers = list(cfg["gpio"]["buzzers"])
    rows = list(cfg["gpio"].get("controls", []))
    out: dict[int, tuple[str, ...]] = {}
    for seat, station in enumerate(cfg["seats"]["stations"]):
        have: set[str] = set()
        if station == "gpio" and gpio_open:
            if seat < len(buzzers) and buzzers[seat]:
                have.add("buzzer")
            row = rows[seat] if seat < len(rows) else []
            have |= {control for control, pin in zip(("left", "right", "ok", "x"), row) if pin}
        elif station in ("gpio", "keyboard"):
            have |= keys.get(seat, {"buzzer"} if seat < 8 else set())
        elif station == "gamepad":
            have |= set(CONTROLS)
        if have:
            out[seat] = tuple(c for c in CONTROLS if c in have)
    return out


def choose_controls(cfg: Config) -> bool:
    """Whether some seat has left/right/OK controls (keyboard or gamepad stations, or GPIO
    controls in ``[gpio] controls``); without them the screens' hints name the buzzer gestures
    only (tap, hold, hold 2 s), as on ``kiosk/install.sh``'s four-buzzer cabinet."""
    if any(s in ("keyboard", "gamepad") for s in cfg["seats"]["stations"]):
        return True
    return any(any(row[:3]) for row in cfg["gpio"].get("controls", []))
