"""The stations the app opens itself: the GPIO buzzers and controls of ``[gpio]``, the lamps in
the buzzers, and in the demo the simulated players on mock pins.  (The keyboard and the
gamepads are the input layer's, :mod:`kiosk.controls.input`.)  A station that cannot be
opened is a note on screen, never a stop: the keys 1-8 stand in for the buzzers.  And which
station's presses reach a screen: in a game, a seat's come only from its own station.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Callable

from arcade.core.events import Edge
from hardware.sink import EdgeSink
from kiosk.app import said
from kiosk.config import Config

if TYPE_CHECKING:
    from hardware.gpio import GpioBuzzers
    from hardware.lamps import BuzzerLamps
    from hardware.simulated import SimulatedPlayers
    from kiosk.scene import Scene

log = logging.getLogger("focus-arcade")

#: Which edge sources may press for a seat of each station kind.
SOURCES = {"keyboard": {"keyboard"}, "gpio": {"gpio"}, "gamepad": {"gamepad"},
           "computer": {"computer"}, "simulated": {"gpio", "computer"}}


def simulated_players(cfg: Config, queue: EdgeSink) -> SimulatedPlayers:
    """The demo's players: a simulated press on each seat's buzzer pin (gpiozero's mock pins),
    so the computer players' presses take the real adapter's path onto ``queue``."""
    from hardware.simulated import SimulatedPlayers
    pins = {(seat, "buzzer"): pin for seat, pin in enumerate(cfg["gpio"]["buzzers"])}
    return SimulatedPlayers(pins, queue=queue)


def open_gpio(cfg: Config, queue: EdgeSink,
              message: Callable[[str], None]) -> tuple[GpioBuzzers | None, BuzzerLamps | None]:
    """The GPIO buzzers and controls of ``cfg`` (their edges onto ``queue``) and the lamps in
    the buzzers (:func:`open_lamps`), or None for what cannot be opened (``message`` says why)."""
    from hardware.gpio import GpioBuzzers
    pins: dict[tuple[int, str], int] = {}
    for seat, pin in enumerate(cfg["gpio"]["buzzers"]):
        pins[(seat, "buzzer")] = pin
    for seat, row in enumerate(cfg["gpio"]["controls"]):
        for control, pin in zip(("left", "right", "ok", "x"), row):
            if pin:
                pins[(seat, control)] = pin
    try:
        from hardware.gpio import pin_factory_choice, pin_factory_from_env
        factory = None
        # GPIOZERO_PIN_FACTORY in the environment wins over [gpio] pin_factory (a cabinet's
        # file tried on a laptop with mock pins); the name is opened loudly, never a fallback
        name, note = pin_factory_choice(cfg["gpio"]["pin_factory"])
        if note:
            log.warning("%s", note)
        if name:
            factory = pin_factory_from_env({**os.environ, "GPIOZERO_PIN_FACTORY": name})
        gpio = GpioBuzzers(pins, pin_factory=factory, queue=queue)
    except Exception as exc:
        message(said._("GPIO buzzers unavailable ({error}); use keys 1-8 instead.", error=exc))
        return None, None
    return gpio, open_lamps(cfg, factory, message)


def open_lamps(cfg: Config, factory: object | None, message: Callable[[str], None]) -> BuzzerLamps | None:
    """The lamps in the buzzers (``[gpio] lamps``; None without pins, or when they cannot be
    opened: ``message`` says why), on the buzzers' pin factory (a gpiozero ``Factory``; None:
    gpiozero's default)."""
    pins = cfg["gpio"].get("lamps") or []
    if not any(pins):
        return None
    try:
        from hardware.lamps import BuzzerLamps
        lamps = BuzzerLamps(pins, pwm=cfg["gpio"].get("lamp_pwm", False), pin_factory=factory, threaded=True)
    except Exception as exc:
        message(said._("Buzzer lamps unavailable: {error}", error=exc))
        return None
    for problem in lamps.problems:
        message(problem)
    return lamps


def reaches(scene: Scene, edge: Edge, in_game: bool, gpio_open: bool) -> bool:
    """Whether ``edge`` may reach ``scene`` (``in_game``: a game being played): in a game, a
    seat's presses must come from its own station (a key pressed for a computer player's seat is
    ignored); ``gpio_open``: the GPIO buzzers are open (:func:`takes`)."""
    if edge.source == "computer" and not in_game:
        return False                  # a computer's press in a game never works a menu over it (PIN)
    seats = scene.seats
    if not seats or not edge.source or not in_game:
        return True                   # menus and the results screen: every station
    if edge.seat >= len(seats):
        return False
    return takes(seats[edge.seat].station, edge, gpio_open)


def takes(station: str, edge: Edge, gpio_open: bool) -> bool:
    """Whether a seat played from ``station`` (a :class:`~kiosk.scenes.seats.SeatInfo` station
    kind) takes ``edge``; without the GPIO buzzers open (``gpio_open``) a GPIO seat takes the
    keys (the lobby said to use keys 1-8)."""
    allowed = SOURCES.get(station, set())
    if station == "gpio" and not gpio_open:
        allowed = {"keyboard"}
    return edge.source in allowed
