"""GPIO buzzers through gpiozero: one stamped edge per raw edge (R-1).

Each mapped pin is opened as a gpiozero :class:`~gpiozero.InputDevice` and its
*pin-level* callback ``pin.when_changed(ticks, state)`` is set, because that is
the only place gpiozero passes the edge's timestamp (``Button.when_pressed``
does not).  With the lgpio pin factory ``ticks`` is the kernel's edge time on
CLOCK_MONOTONIC, in seconds (lgpio's integer nanoseconds divided by 1e9); with
gpiozero's ``MockFactory`` it is ``time.monotonic()`` at the moment the mock pin
was driven.  Both are the clock behind :func:`time.monotonic_ns`, so the
adapter turns ``ticks`` back into integer nanoseconds with ``round`` and
produces :class:`arcade.core.events.Edge` objects on the same time line as every
other part of the arcade.

What the handler does, and does not do (reference ``gpio_timing.md``):

* it only stamps and enqueues; it never blocks and never raises (an exception
  would end lgpio's single callback thread and silently stop every later GPIO
  event), so errors are counted in :attr:`GpioBuzzers.errors`;
* it does not debounce: gpiozero's ``bounce_time`` would stamp a bouncy press
  late and drop short taps.  Every raw edge is passed on and the pure debounce
  in :mod:`arcade.core` keeps the first edge's stamp (R-3, case B-1);
* it does not judge: edges may be delivered out of order (B-5); the judge sorts
  by stamp and waits ``settle_ms`` (R-6);
* it keeps each pin's last reported level, so a lost edge cannot leave the
  judge believing a button is still held: a press reported while the pin was
  already reported pressed means its release was lost, and a release is put
  on the queue 1 ns before the new press (so the press counts); when in doubt
  it reads the pin's level (gpiozero ``pin.state``), and :meth:`GpioBuzzers.resync`
  (the kiosk calls it every frame) reports a release whose edge never came,
  stamped when it was read.  :attr:`GpioBuzzers.lost_edges` counts them.

Example (a laptop, with gpiozero's mock pins)::

    >>> from gpiozero.pins.mock import MockFactory
    >>> factory = MockFactory()
    >>> with GpioBuzzers({(0, "buzzer"): 17}, pin_factory=factory) as buzzers:
    ...     factory.pin(17).drive_low()          # press (active low)
    ...     edge = buzzers.queue.get_nowait()
    >>> (edge.seat, edge.control, edge.pressed)
    (0, 'buzzer', True)
    >>> factory.close()
"""

from __future__ import annotations

import os
import queue as queue_mod
import threading
import time
from types import MappingProxyType
from typing import Any, Mapping

from gpiozero import InputDevice  # type: ignore[import-untyped]
from gpiozero.exc import GPIOPinInUse  # type: ignore[import-untyped]
from gpiozero.pins import Factory, Pin  # type: ignore[import-untyped]

from arcade.core.events import CONTROLS, Edge
from hardware.errors import (
    HardwareError,
    InputMapError,
    PinFactoryError,
    PinInUseError,
    PinOpenError,
)
from hardware.sink import EdgeSink

__all__ = ["GpioBuzzers", "pin_factory_choice", "pin_factory_from_env", "ticks_to_ns"]

#: lgpio reports ``level == 2`` for a watchdog timeout: no edge happened.
LGPIO_TIMEOUT_LEVEL = 2

_NS_PER_S = 1_000_000_000


def ticks_to_ns(ticks: float) -> int:
    """gpiozero ``ticks`` (float seconds, CLOCK_MONOTONIC) -> integer ns.

    lgpio's gpiozero pin divides the kernel's integer nanoseconds by 1e9;
    multiplying back and rounding gives the kernel's value exactly for uptimes
    below 2**51 ns (26 days), within 1 ns up to 2**53 ns (104 days) and within
    a few ns after that (the float carries no more), far below the 1 ms that
    matters for a race.

    Raises:
        TypeError / ValueError: for a non-number or a NaN / infinite value.
    """
    return round(float(ticks) * _NS_PER_S)


def _check_key(key: object) -> tuple[int, str]:
    if not (isinstance(key, tuple) and len(key) == 2):
        raise InputMapError(key, "a (seat, control) pair")
    seat, control = key
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise InputMapError(key, "a seat number >= 0")
    if control not in CONTROLS:
        raise InputMapError(key, f"a control in {CONTROLS}")
    return seat, control


class _Line:
    """One open pin: its ``(seat, control)``, the gpiozero device, and the
    callback handed to gpiozero.  gpiozero keeps only a weak reference to the
    callback (a :class:`weakref.WeakMethod` for a bound method), so the
    :class:`GpioBuzzers` keeps every ``_Line`` alive in a list."""

    def __init__(self, owner: "GpioBuzzers", seat: int, control: str, pin: object) -> None:
        self.owner = owner
        self.seat = seat
        self.control = control
        self.pin = pin
        self.device: Any = None
        self.pressed = False       # the level last put on the queue
        self.last_ns = 0           # the stamp last put on the queue

    def on_change(self, ticks: float, state: Any) -> None:
        """gpiozero's ``pin.when_changed(ticks, state)``; never raises."""
        self.owner._on_change(self, ticks, state)


class GpioBuzzers:
    """Buzzers and controls wired to GPIO pins, one edge per raw pin edge.

    Args:
        pins: ``{(seat, control): pin}``; ``seat`` 0-based, ``control`` one of
            :data:`arcade.core.events.CONTROLS`, ``pin`` a BCM number (``17``)
            or any name gpiozero accepts (``"GPIO17"``, ``"BOARD11"``).
        pin_factory: the gpiozero pin factory (``MockFactory()`` in tests, the
            result of :func:`pin_factory_from_env` on the kiosk).  ``None``
            uses gpiozero's global default, which may fall back silently.
        queue: where the :class:`~arcade.core.events.Edge` objects go (anything
            with ``put``); a new :class:`queue.SimpleQueue` if ``None``.  Give
            every adapter the same queue.
        pull_up: ``True`` (default): the switch connects the pin to ground and
            the internal pull-up holds it high, so level 0 means pressed
            (active low).  ``False``: pull-down, level 1 means pressed.

    Each edge is ``Edge(t_ns, seat, control, pressed)`` with ``t_ns`` the
    kernel's edge time in integer ns on CLOCK_MONOTONIC (R-1).  Bounces are
    passed on as they are (R-3 is applied later, in pure code).

    Raises:
        InputMapError: a key that is not a ``(seat, control)`` pair.
        PinInUseError: the same pin given twice, or already held by another
            gpiozero device on this factory (names the pin).
        PinOpenError: the factory cannot open a pin (names the pin).

    All pins opened before a failure are released again before raising.
    """

    def __init__(
        self,
        pins: Mapping[tuple[int, str], int | str],
        pin_factory: Factory | None = None,
        queue: EdgeSink | None = None,
        pull_up: bool = True,
    ) -> None:
        self._queue: EdgeSink = queue if queue is not None else queue_mod.SimpleQueue()
        self._factory = pin_factory
        self._active_level = 0 if pull_up else 1
        self._pull_up = bool(pull_up)
        self._lock = threading.Lock()
        self._errors = 0
        self._last_error: str | None = None
        self._closed = False
        self._lines: list[_Line] = []
        self._lost = 0

        checked: dict[tuple[int, str], int | str] = {}
        users: dict[object, tuple[int, str]] = {}
        for key, pin in dict(pins).items():
            seat, control = _check_key(key)
            if isinstance(pin, bool) or not isinstance(pin, (int, str)):
                raise InputMapError(key, f"a BCM pin number or pin name, got {pin!r}")
            if isinstance(pin, int) and pin < 0:
                raise InputMapError(key, f"a BCM pin number >= 0, got {pin!r}")
            norm = pin.strip().upper() if isinstance(pin, str) else pin
            if norm in users:
                raise PinInUseError(
                    pin, f"given for {users[norm]!r} and for {(seat, control)!r}")
            users[norm] = (seat, control)
            checked[(seat, control)] = pin
        self._pins: Mapping[tuple[int, str], int | str] = MappingProxyType(checked)

        try:
            for (seat, control), pin in checked.items():
                self._lines.append(self._open(seat, control, pin))
        except BaseException:
            self.close()
            raise

    def _open(self, seat: int, control: str, pin: int | str) -> _Line:
        line = _Line(self, seat, control, pin)
        try:
            device = InputDevice(pin, pull_up=self._pull_up, pin_factory=self._factory)
        except GPIOPinInUse as exc:
            raise PinInUseError(pin, f"{(seat, control)!r} asked for it but {exc}") from exc
        except Exception as exc:
            raise PinOpenError(pin, f"for {(seat, control)!r}: {type(exc).__name__}: {exc}") from exc
        line.device = device
        try:
            gpin = device.pin
            try:
                gpin.bounce = None  # raw edges: never the driver's debounce
            except Exception:
                pass  # a factory without debounce has nothing to switch off
            gpin.edges = "both"
            line.pressed = self._level_pressed(gpin)
            gpin.when_changed = line.on_change
        except Exception as exc:
            try:
                device.close()
            except Exception:
                pass
            raise PinOpenError(
                pin, f"no edge detection for {(seat, control)!r}: "
                f"{type(exc).__name__}: {exc}") from exc
        return line

    # -- the callback (runs on lgpio's thread, or the caller's with MockFactory)

    def _on_change(self, line: _Line, ticks: float, state: Any) -> None:
        try:
            if self._closed:
                return
            level = int(state)
            if level == LGPIO_TIMEOUT_LEVEL:
                return  # lgpio watchdog timeout: the level did not change
            if level not in (0, 1):
                raise ValueError(f"pin {line.pin!r}: unexpected level {state!r}")
            pressed = level == self._active_level
            t_ns = ticks_to_ns(ticks)
            with self._lock:
                repeat = pressed and line.pressed
                previous = line.last_ns
                line.pressed, line.last_ns = pressed, max(line.last_ns, t_ns)
            if repeat:
                # A press while the pin was reported pressed: its release was lost (or
                # comes later, out of order; a second release then changes nothing).
                # Report it just before this press, so this press is a new press.
                self._count_lost()
                t_release = t_ns - 1 if t_ns - 1 > previous else (previous + t_ns) // 2
                self._queue.put(Edge(t_release, line.seat, line.control, False, "gpio"))
            self._queue.put(Edge(t_ns, line.seat, line.control, pressed, "gpio"))
            if repeat and not self._level_pressed(line.device.pin):
                # In doubt, the pin's own level: already let go again.
                self._resync_line(line)
        except Exception as exc:
            self._record_error(line, exc)
        except BaseException as exc:
            # SystemExit / KeyboardInterrupt: swallowed on lgpio's thread (it
            # would die), passed on when a mock pin is driven from the main thread.
            self._record_error(line, exc)
            if threading.current_thread() is threading.main_thread():
                raise

    def _level_pressed(self, gpin: Any) -> bool:
        """The pin's level read now (gpiozero ``pin.state``): pressed or not."""
        return int(gpin.state) == self._active_level

    def _count_lost(self) -> None:
        with self._lock:
            self._lost += 1

    def _resync_line(self, line: _Line) -> bool:
        """Report a release whose edge never came (read the level now); True if one was."""
        with self._lock:
            if not line.pressed:
                return False
            line.pressed = False
            t_ns = max(time.monotonic_ns(), line.last_ns + 1)
            line.last_ns = t_ns
            self._lost += 1
        self._queue.put(Edge(t_ns, line.seat, line.control, False, "gpio"))
        return True

    def resync(self) -> int:
        """Read the level of every pin last reported pressed; report a release for each
        that reads released (its release edge was lost).  Cheap enough to call every
        frame: only held pins are read.  Never raises (a pin that cannot be read is
        counted in :attr:`errors`).

        Returns:
            how many releases were reported.
        """
        found = 0
        for line in list(self._lines):
            if self._closed or not line.pressed:
                continue
            try:
                if not self._level_pressed(line.device.pin) and self._resync_line(line):
                    found += 1
            except Exception as exc:
                self._record_error(line, exc)
        return found

    @property
    def lost_edges(self) -> int:
        """Edges the pins never reported that the adapter put in (releases), so far."""
        return self._lost

    def _record_error(self, line: _Line, exc: BaseException) -> None:
        try:
            text = (f"pin {line.pin!r} {(line.seat, line.control)!r}: "
                    f"{type(exc).__name__}: {exc}")
        except Exception:  # pragma: no cover - a repr that raises
            text = type(exc).__name__
        with self._lock:
            self._errors += 1
            self._last_error = text

    # -- public API

    @property
    def queue(self) -> EdgeSink:
        """The queue the edges are put on."""
        return self._queue

    @property
    def pins(self) -> Mapping[tuple[int, str], int | str]:
        """Read-only ``{(seat, control): pin}`` as given."""
        return self._pins

    @property
    def errors(self) -> int:
        """How many edges the handler could not deliver (it never raises)."""
        return self._errors

    @property
    def last_error(self) -> str | None:
        """Text of the last handler error (pin, seat/control, exception), or None."""
        return self._last_error

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self._closed

    def gpio_pin(self, seat: int, control: str = "buzzer") -> Pin:
        """The gpiozero pin object of ``(seat, control)`` (tests and the
        simulator drive mock pins through it).

        Raises:
            KeyError: no pin for that seat and control.
            HardwareError: after :meth:`close`.
        """
        if self._closed:
            raise HardwareError("GpioBuzzers is closed")
        for line in self._lines:
            if (line.seat, line.control) == (seat, control):
                return line.device.pin
        raise KeyError((seat, control))

    def read_now(self) -> dict[tuple[int, str], bool]:
        """The controls held down right now, read from the pins' levels.

        For the lobby's "press your buzzer" check and the stuck-button display
        (R-8); never for judging (that uses stamped edges, R-1).

        Returns:
            ``{(seat, control): True}`` for each control currently pressed;
            controls not pressed are absent (so ``key in result`` works).

        Raises:
            HardwareError: after :meth:`close`, or when a pin cannot be read.
        """
        if self._closed:
            raise HardwareError("GpioBuzzers is closed")
        out: dict[tuple[int, str], bool] = {}
        for line in self._lines:
            try:
                level = int(line.device.pin.state)
            except Exception as exc:
                raise HardwareError(f"cannot read GPIO pin {line.pin!r}: {exc}") from exc
            if level == self._active_level:
                out[(line.seat, line.control)] = True
        return out

    def close(self) -> None:
        """Stop the callbacks and release every pin (idempotent).

        After this the same pins can be opened again on the same factory.
        """
        self._closed = True
        lines, self._lines = self._lines, []
        for line in lines:
            device = line.device
            if device is None:
                continue
            try:
                device.pin.when_changed = None
            except Exception:
                pass
            try:
                device.close()
            except Exception:
                pass

    def __enter__(self) -> "GpioBuzzers":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"{len(self._lines)} pins"
        return f"<GpioBuzzers {state} errors={self._errors}>"


def _check_lg_wd(environ: Mapping[str, str]) -> None:
    wd = environ.get("LG_WD")
    if wd:
        if not os.path.isdir(wd) or not os.access(wd, os.W_OK | os.X_OK):
            raise PinFactoryError(
                f"LG_WD={wd!r} is not a writable directory: lgpio creates its "
                "notification pipe there (use the service's RuntimeDirectory, "
                "e.g. /run/focus-arcade)")
        return
    cwd = os.getcwd()
    if not os.access(cwd, os.W_OK | os.X_OK):
        raise PinFactoryError(
            f"LG_WD is not set and the working directory {cwd!r} is not "
            "writable: lgpio creates its notification pipe there. Set LG_WD to "
            "a writable runtime directory (systemd RuntimeDirectory=)")


def pin_factory_choice(configured: str, environ: Mapping[str, str] | None = None) -> tuple[str, str]:
    """Which pin factory the kiosk opens for a configuration's ``[gpio] pin_factory`` here.

    An explicit ``GPIOZERO_PIN_FACTORY`` in the environment wins over the file: the systemd
    unit sets ``lgpio`` (as the installer's file says), and someone trying the cabinet's
    file on a laptop sets ``mock`` for gpiozero's MockFactory pins.  Without the variable the
    file's name is used; with neither, ``""`` (gpiozero's own order, lgpio first on a Pi).
    The name is then opened loudly by :func:`pin_factory_from_env` (never a quiet fallback).

    Returns:
        ``(name, note)``: the factory's name (lower case, ``""`` for gpiozero's default) and,
        when the environment overrides a different name in the file, a sentence saying so
        (for the log and the doctor), else ``""``.

    >>> pin_factory_choice("lgpio", {"GPIOZERO_PIN_FACTORY": "mock"})
    ('mock', 'GPIOZERO_PIN_FACTORY=mock in the environment overrides [gpio] pin_factory = "lgpio"')
    >>> pin_factory_choice("lgpio", {}), pin_factory_choice("", {"GPIOZERO_PIN_FACTORY": "lgpio"})
    (('lgpio', ''), ('lgpio', ''))
    """
    env = os.environ if environ is None else environ
    named = (env.get("GPIOZERO_PIN_FACTORY") or "").strip().lower()
    configured = (configured or "").strip().lower()
    if not named:
        return configured, ""
    note = "" if not configured or configured == named else \
        f'GPIOZERO_PIN_FACTORY={named} in the environment overrides [gpio] pin_factory = "{configured}"'
    return named, note


def pin_factory_from_env(
    environ: Mapping[str, str] | None = None, *, require: str | None = None
) -> Factory | None:
    """The gpiozero pin factory named by ``GPIOZERO_PIN_FACTORY``, loudly.

    gpiozero, left to itself, tries lgpio and quietly falls back to another
    factory when lgpio cannot load (for instance when its notification pipe
    cannot be made in a read-only working directory); on a Pi 5 the fallback
    then fails later or reads nothing.  This function never falls back: the
    kiosk sets ``GPIOZERO_PIN_FACTORY=lgpio`` and calls it with
    ``require="lgpio"``.

    For ``lgpio``: ``LG_WD`` (if set) must be a writable directory, otherwise
    the current directory must be writable.  Note that lgpio *changes the
    process's working directory* to ``LG_WD`` when it loads, so the kiosk must
    use absolute asset paths.  If ``environ`` is not ``os.environ`` its
    ``LG_WD`` is copied into ``os.environ``, because lgpio reads the process
    environment.  lgpio is imported only here, never at module import.

    Args:
        environ: the environment to read (default :data:`os.environ`).
        require: a factory name that must be the one configured (``"lgpio"``
            on the kiosk); ``None`` accepts any, or none.

    Returns:
        a new factory, or ``None`` when ``GPIOZERO_PIN_FACTORY`` is unset and
        nothing is required (gpiozero then picks its default).

    Raises:
        PinFactoryError: the variable names a different factory than
            ``require``, an unknown factory, or one that cannot load (the
            message says why and what to do).
    """
    env = os.environ if environ is None else environ
    name = (env.get("GPIOZERO_PIN_FACTORY") or "").strip().lower()
    if require is not None and name != require.lower():
        raise PinFactoryError(
            f"GPIOZERO_PIN_FACTORY={name or '(unset)'!s}: this installation "
            f"requires {require!r}; set GPIOZERO_PIN_FACTORY={require}")
    if not name:
        return None
    if name == "mock":
        from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]
        return MockFactory()
    if name == "lgpio":
        _check_lg_wd(env)
        wd = env.get("LG_WD")
        if wd and env is not os.environ and os.environ.get("LG_WD") != wd:
            os.environ["LG_WD"] = wd
        try:
            from gpiozero.pins.lgpio import LGPIOFactory  # type: ignore[import-untyped]
            return LGPIOFactory()
        except Exception as exc:
            raise PinFactoryError(
                "GPIOZERO_PIN_FACTORY=lgpio was requested but lgpio cannot be "
                f"used: {type(exc).__name__}: {exc}. Install lgpio in the venv or "
                "make the venv with --system-site-packages (python3-lgpio); the "
                "user needs the gpio group; LG_WD must be writable") from exc
    from importlib.metadata import entry_points
    group = entry_points(group="gpiozero_pin_factories")
    known = sorted(ep.name for ep in group)
    for ep in group:
        if ep.name.lower() == name:
            try:
                return ep.load()()
            except Exception as exc:
                raise PinFactoryError(
                    f"GPIOZERO_PIN_FACTORY={name} cannot be used: "
                    f"{type(exc).__name__}: {exc}") from exc
    raise PinFactoryError(
        f"GPIOZERO_PIN_FACTORY={name!r} is not a known pin factory: expected one of {known}")
