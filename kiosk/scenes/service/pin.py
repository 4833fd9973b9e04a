"""The way into the service menu: the opening combination in words, the PIN lock (kept in a
file, on the wall clock) and the PIN screen (:class:`PinScene`), entered with station controls
or buzzer gestures.  ``pin_panel.py`` draws it.
"""

from __future__ import annotations

import time
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from arcade.core.events import Edge
from arcade.i18n import _
from kiosk.app import said
from kiosk.controls.gestures import BACK, NEXT, OK, PREV
from kiosk.controls.input import Command, choose_controls
from kiosk.scene import Scene
from kiosk.scenes.service import pin_panel
from kiosk.scenes.service.rows import control_word, plain_number
from kiosk.service.tools import PinEntry, PinLock, ReleaseGestures, format_minutes, held_line

if TYPE_CHECKING:
    from kiosk.scene import Host

PIN_TIMEOUT_NS = 60_000_000_000


def lock_file(cfg: Any) -> Path | None:
    """Where the PIN lock is kept: ``service-lock.json`` beside the results file (the
    state folder: ``/var/lib/focus-arcade`` on an installed cabinet); None for results in
    memory."""
    p = cfg.storage_path()
    if str(p) == ":memory:":
        return None
    return Path(p).parent / "service-lock.json"


_LOCKS: "weakref.WeakKeyDictionary[Host, PinLock]" = weakref.WeakKeyDictionary()


def pin_lock(app: Host) -> PinLock:
    """The arcade's one :class:`~kiosk.service.tools.PinLock` (read from its file once), on
    the wall clock (``time.time``: a lock outlives a restart)."""
    lock = _LOCKS.get(app)
    if lock is None:
        lock = _LOCKS[app] = PinLock(lock_file(app.cfg), clock=lambda: time.time())
    return lock


def combo_words(app: Host) -> str:
    """The opening combination as the operator presses it: "P1 buzzer + P2 buzzer for 3 s"."""
    svc = app.cfg["service"]
    keys = []
    for key in svc["combo"]:
        seat, _dot, control = key.partition(".")
        keys.append(f"{seat} {'OK' if control == 'ok' else control_word(control)}")
    return _("{keys} for {s} s").format(keys=" + ".join(keys), s=plain_number(float(svc["hold_s"])))


def pin_words() -> dict[str, str]:
    """What letting go of a held buzzer does while a PIN is entered (for :func:`held_line`)."""
    return {NEXT: _("change the digit"), OK: _("take it"), BACK: _("take the last digit back")}


def pin_hint(controls: bool) -> str:
    """The gestures of a PIN's entry (``controls``: some seat has left/right/OK)."""
    if controls:
        return _("left/right or tap: digit   OK or hold: take it   X or hold 2 s: back")
    return _("tap: next digit   hold: take it   hold 2 s: back")


class PinScene(Scene):
    """The PIN, entered with station controls, before the service menu opens.

    Buzzer gestures are judged when the buzzer is let go (:class:`ReleaseGestures`): a tap
    changes the digit, a hold (0.6 s) takes it, a long hold (2 s) takes the last one back
    (with none taken: leaves, and that is not a wrong try).  Leaving it without the menu
    (given up, :data:`PIN_TIMEOUT_NS`, locked) goes back to the title screen (:meth:`leave`).  Three wrong PINs in a row lock
    the menu, longer with each lock (:class:`~kiosk.service.tools.PinLock`, kept in a file:
    a restart does not open it)."""

    @property
    def overlay(self) -> bool:  # type: ignore[override]
        """Drawn over the scene below, except the lobby (:meth:`veils_lobby`: not drawn at all)."""
        return not self.veils_lobby()

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        self.pin_entry = PinEntry(app.cfg["service"]["pin"])
        self.gestures = ReleaseGestures()
        self.lock = pin_lock(app)
        self.now = 0
        self.opened: int | None = None

    def on_edge(self, edge: Edge) -> None:
        if self.lock.remaining() > 0:
            return
        for _seat, action in self.gestures.feed(edge):
            self.act(action)

    def on_command(self, command: Command) -> None:
        if command.station_key:
            return                              # its station event does it
        act = {"left": PREV, "right": NEXT, "up": NEXT, "down": PREV, "ok": OK, "x": BACK,
               "back": BACK}.get(command.name)
        if act:
            self.act(act)

    def act(self, action: str) -> None:
        if self.app.scenes[-1] is not self:
            return
        self.pin_entry.act(action)
        if self.pin_entry.result is True:
            self.lock.right_pin()
            self.app.enter_service()
        elif self.pin_entry.cancelled:
            self.leave()                        # left before a PIN was entered: not a try
        elif self.pin_entry.result is False:
            lock = self.lock.wrong_pin()
            if lock:
                self.app.message(said.ngettext("Wrong PIN {n} time: the service menu is locked for {time}",
                                               "Wrong PIN {n} times: the service menu is locked for {time}",
                                               PinLock.TRIES, n=PinLock.TRIES, time=format_minutes(lock)), 8.0)
                self.leave()
            else:
                left = self.lock.tries_left()
                self.app.message(said.ngettext("Wrong PIN ({n} try left)", "Wrong PIN ({n} tries left)", left, n=left),
                                 4.0)
                self.pin_entry = PinEntry(self.pin_entry.pin)

    def update(self, now_ns: int) -> None:
        self.now = now_ns
        if self.opened is None:
            self.opened = now_ns
            left = self.lock.remaining()
            if left > 0:
                self.app.message(said._("The service menu is locked for {time} more after wrong PINs",
                                        time=format_minutes(left)), 5.0)
                self.leave()
                return
        if self.app.scenes and self.app.scenes[-1] is self and now_ns - self.opened > PIN_TIMEOUT_NS:
            self.leave()

    def leave(self) -> None:
        """The PIN screen goes without opening the menu (given up, timed out, locked): back to
        the title screen.  The lobby under it was opened by the combination's own presses
        (its first key went down on the title screen, kiosk/service/tools.py ``Combination``)
        with the operator's seats joined: it is no guest's, and left there it would start a
        game nobody asked for ``[lobby] auto_start_s`` later (issue 20)."""
        from kiosk.scenes.lobby import LobbyScene
        below = self.app.scenes[-2] if len(self.app.scenes) > 1 else None
        if isinstance(below, LobbyScene):
            self.app.home()
        else:
            self.app.pop()

    def hint(self) -> str:
        """The gestures of this screen (while a buzzer is held: what letting go does)."""
        held = held_line(self.gestures.would(self.now), pin_words())
        if held:
            return held
        return pin_hint(choose_controls(self.app.cfg))

    def veils_lobby(self) -> bool:
        """Whether the PIN is over the lobby the combination opened.  Leaving the PIN goes back
        to the title screen, not to that lobby, and the lobby stands still under it: so it is
        hidden whole, never a frozen "Starting in 7 s" with the operator's seats JOINED
        (issue 20)."""
        from kiosk.scenes.lobby import LobbyScene
        scenes = self.app.scenes
        return self in scenes and scenes.index(self) > 0 and isinstance(scenes[scenes.index(self) - 1], LobbyScene)

    def draw(self, surface: pygame.Surface) -> None:
        pin_panel.draw(surface, self.pin_entry.shown(), self.hint(), self.veils_lobby())
