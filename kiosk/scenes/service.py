"""The operator's service menu, and the PIN that guards it.

Opening: press ``[service] combo`` (default P1's and P2's OK; with buzzers only, P1's and P2's
buzzers) together on the title screen (or in the attract loop) and hold them, nothing else
pressed, for ``hold_s`` seconds (default 3) (kiosk/service/tools.py, ``Combination``: in a
game, the lobby or the results these are the guests' buttons and open nothing); then enter
``[service] pin`` with left/right (or buzzer taps) and OK (or a buzzer hold).  Three
wrong PINs in a row lock the menu, longer with each lock; the lock survives a restart
(kiosk/service/tools.py, ``PinLock``).

Moving in the menu, from any seat's station (kiosk/controls/gestures.py): left/right (or a buzzer
tap) move the highlight, OK (or a buzzer hold of 0.6 s) chooses, X (or a 2 s hold) goes
back.  A buzzer acts when it is let go (``ReleaseGestures``): a long hold never chooses
first.  On a value, OK starts changing it: left/right change it, OK keeps it; with a
buzzer a tap steps it, a hold turns the direction round (so does the end of its range)
and a long hold keeps it; quick taps (0.8 s apart at most) step 10, then 100 times as far (a third of the range at most).  In the button test every control is under test, so the way
back is the opening combination held again.  Keyboard (for a developer): arrows, Enter,
Backspace.  Every page says its gestures (only the buzzer's with buzzers only).

Leaving a page goes back to the menu with the highlight on that page's row (:meth:`ServiceScene.to_menu`).

Pages: button test, LED test, sound test and volume, settings (saved to the configuration
file with "Save", in force after the restart; left without it: the changes are dropped and the
menu says so), change the PIN, reset high scores, restart the arcade,
stop the arcade, shut the Pi down, restart the Pi.
"""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import pygame

from arcade.core.events import CONTROLS, Edge
from arcade.lights import pictures as ledv
from kiosk import render
from kiosk.controls.gestures import BACK, NEXT, OK, PREV
from kiosk.controls.input import Command
from kiosk.scene import LedPicture, Scene
from kiosk.service.stopping import EXIT_RESTART, EXIT_STOP
from kiosk.service.tools import (
    LET_GO,
    ButtonTest,
    NewPin,
    PinEntry,
    PinLock,
    ReleaseGestures,
    format_minutes,
    held_line,
)

if TYPE_CHECKING:
    from kiosk.scene import Host

#: The power commands when ``[service]`` leaves them empty (systemd-logind, via polkit).
DEFAULT_POWER = {"shutdown_command": "systemctl poweroff", "reboot_command": "systemctl reboot"}

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

#: The settings each arcade saved to its configuration file since it started (in force after
#: the restart): a menu opened again shows them, not the running values (issue 20).
_SAVED: "weakref.WeakKeyDictionary[Host, dict[tuple[str, str], Any]]" = weakref.WeakKeyDictionary()


def pin_lock(app: Host) -> PinLock:
    """The arcade's one :class:`~kiosk.service.tools.PinLock` (read from its file once), on
    the wall clock (``time.time``: a lock outlives a restart)."""
    lock = _LOCKS.get(app)
    if lock is None:
        lock = _LOCKS[app] = PinLock(lock_file(app.cfg), clock=lambda: time.time())
    return lock


def choose_controls(app: Host) -> bool:
    """Whether some seat has left/right/OK controls (:func:`kiosk.controls.input.choose_controls`)."""
    from kiosk.controls.input import choose_controls as wired
    return wired(app.cfg)


def combo_words(app: Host) -> str:
    """The opening combination as the operator presses it: "P1 buzzer + P2 buzzer for 3 s"."""
    svc = app.cfg["service"]
    keys = " + ".join(k.replace(".", " ").replace(" ok", " OK") for k in svc["combo"])
    return f"{keys} for {svc['hold_s']:g} s"


#: What letting go of a held buzzer does, for the screens' "let go now" line.
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
                self.app.message(f"Wrong PIN {PinLock.TRIES} times: the service menu is locked for "
                                 f"{format_minutes(lock)}", 8.0)
                self.leave()
            else:
                left = self.lock.tries_left()
                self.app.message(f"Wrong PIN ({left} {'try' if left == 1 else 'tries'} left)", 4.0)
                self.pin_entry = PinEntry(self.pin_entry.pin)

    def update(self, now_ns: int) -> None:
        self.now = now_ns
        if self.opened is None:
            self.opened = now_ns
            left = self.lock.remaining()
            if left > 0:
                self.app.message(f"The service menu is locked for {format_minutes(left)} more after wrong PINs",
                                 5.0)
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
        held = held_line(self.gestures.would(self.now), {NEXT: "change the digit", OK: "take it",
                                                          BACK: "take the last digit back"})
        if held:
            return held
        if choose_controls(self.app):
            return "left/right or tap: digit   OK or hold: take it   X or hold 2 s: back"
        return "tap: next digit   hold: take it   hold 2 s: back"

    def veils_lobby(self) -> bool:
        """Whether the PIN is over the lobby the combination opened.  Leaving the PIN goes back
        to the title screen, not to that lobby, and the lobby stands still under it: so it is
        hidden whole, never a frozen "Starting in 7 s" with the operator's seats JOINED
        (issue 20)."""
        from kiosk.scenes.lobby import LobbyScene
        scenes = self.app.scenes
        return self in scenes and scenes.index(self) > 0 and isinstance(scenes[scenes.index(self) - 1], LobbyScene)

    def draw(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        if self.veils_lobby():
            surface.fill(render.BG)
        if render.small_screen(W, H):
            self._draw_small(surface)
            return
        box = pygame.Rect(W // 2 - 360, H // 2 - 170, 720, 340)
        render.panel(surface, box, render.PANEL, render.GOLD, 4)
        render.text(surface, "Service PIN", (box.centerx, box.y + 20), 52, render.GOLD, "midtop", bold=True)
        render.text(surface, self.pin_entry.shown(), (box.centerx, box.centery + 4), 96, render.TEXT, "center", bold=True)
        render.text_block(surface, self.hint(), (box.centerx, box.bottom - 14), box.w - 40, 28, 2, render.DIM,
                          "midbottom")

    def _draw_small(self, surface: pygame.Surface) -> None:
        """The PIN panel on a small display: as large as the screen lets it be."""
        W, H = surface.get_size()
        box = pygame.Rect(0, 0, min(720, W - 16), min(340, H - 16))
        box.center = (W // 2, H // 2)
        render.panel(surface, box, render.PANEL, render.GOLD, 4)
        head = render.text_block(surface, "Service PIN", (box.centerx, box.y + 8), box.w - 24, min(52, H // 8), 1,
                                 render.GOLD, "midtop", bold=True)
        hint = render.text_block(surface, self.hint(), (box.centerx, box.bottom - 8), box.w - 24, 30, 2, render.DIM,
                                 "midbottom")
        mid = (box.centerx, (head.bottom + hint.top) // 2)
        render.text_block(surface, self.pin_entry.shown(), mid, box.w - 24, max(24, min(96, hint.top - head.bottom - 4)),
                          1, render.TEXT, "center", bold=True)


@dataclass
class Setting:
    """One row of the settings page: ``section.key`` with its range from kiosk/config.py."""

    section: str
    key: str
    label: str
    step: float = 1
    unit: str = ""
    #: a 0-to-1 setting shown as a percentage ("80%", a step "+10%"): the volume, the same on
    #: every page and status line (issue 20: "80%" on the sound page, "0.8" in the settings)
    percent: bool = False

    def checker(self) -> Any:
        from kiosk.config import SCHEMA
        return SCHEMA[self.section][self.key]

    def stepped(self, value: Any, direction: int, times: int = 1) -> Any:
        """``value`` moved ``times`` steps in ``direction`` (+1 / -1), held inside its range;
        a choice setting moves to the next (previous) choice."""
        check = self.checker()
        choices = getattr(check, "choices", None)
        if choices:
            i = choices.index(value) if value in choices else 0
            return choices[(i + direction) % len(choices)]
        low, high, integer = check.low, check.high, check.integer
        v = round(value + direction * self.step * times, 4)
        v = max(low, min(high, v))
        return int(v) if integer else float(v)

    def fast_times(self, run: int) -> int:
        """How many steps the ``run``-th quick buzzer tap in a row makes (1 for the first
        :data:`FAST_AFTER` taps, then 10, then 100), never more than a third of the range
        in one tap (a choice setting: always 1).  With buzzers alone a range of 719 steps
        ("Attract loop after", 5 to 3600 s) is crossed in about 20 taps instead of 719."""
        check = self.checker()
        if getattr(check, "choices", None):
            return 1
        times = (1, 10, 100)[min(2, max(0, run - 1) // FAST_AFTER)]
        while times > 1 and times * self.step > (check.high - check.low) / 3:
            times //= 10
        return times

    def show(self, value: Any) -> str:
        """``value`` as the screens show it: "20 ms", "0.6", "80%" (a :attr:`percent` setting)."""
        if self.percent and isinstance(value, (int, float)):
            return f"{value:.0%}"
        if isinstance(value, float):
            return f"{value:g}{self.unit}"
        return f"{value}{self.unit}"


def volume_setting() -> Setting:
    """The volume's row of :data:`SETTINGS` (one presentation of the volume everywhere)."""
    return next(x for x in SETTINGS if x.key == "volume")


#: Buzzer taps on a value this close after the previous one (ns) make a quick run: after
#: :data:`FAST_AFTER` taps of the run each one steps 10 times as far, after twice as many 100
#: times (:meth:`Setting.fast_times`); a slower tap, a hold (turn round) or the end of the
#: range starts over at one step.
FAST_TAP_NS = 800_000_000
FAST_AFTER = 4

SETTINGS = [
    Setting("judge", "tie_window_ms", "Tie window", 5, " ms"),
    Setting("judge", "settle_ms", "Settle (0 = auto)", 5, " ms"),
    Setting("judge", "debounce_ms", "Debounce", 1, " ms"),
    Setting("seats", "computer_skill", "Computer skill"),
    Setting("lobby", "auto_start_s", "Lobby auto-start", 1, " s"),
    Setting("attract", "idle_s", "Attract loop after", 5, " s"),
    Setting("idle", "turn_s", "Computer takes an idle turn after", 5, " s"),
    Setting("led", "brightness", "LED brightness", 0.05),
    Setting("led", "max_current_ma", "LED current limit", 50, " mA"),
    Setting("sound", "volume", "Volume", 0.1, percent=True),
]

MENU = [
    ("buttons", "Button test"),
    ("led", "LED test"),
    ("sound", "Sound test and volume"),
    ("settings", "Settings"),
    ("pin", "Change the PIN"),
    ("reset", "Reset high scores"),
    ("restart", "Restart the arcade"),
    ("stop", "Stop the arcade (leave to the console)"),
    ("shutdown", "Shut the Pi down"),
    ("reboot", "Restart the Pi"),
    ("close", "Close this menu"),
]

LED_PATTERNS = ("seat colours", "walking pixel", "full white (current limit)", "off")
SOUNDS = ("press", "won", "debated", "false", "flip", "over")


class ServiceScene(Scene):
    """The service menu (see the module's docstring)."""

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        self.page: str = "menu"
        self.cursor = 0
        self.editing = False
        self.direction = 1                # a buzzer tap's step while editing: +1 up, -1 down
        self.run = 0                      # buzzer taps in the current quick run (FAST_TAP_NS apart)
        self.last_tap: int | None = None  # when the last of them came (ns)
        self.gestures = ReleaseGestures()
        self.newpin: NewPin | None = None
        j = app.cfg["judge"]
        self.buttons = ButtonTest(j["debounce_ms"], j["stuck_after_s"])
        self.pattern = 0
        self.now = 0
        self.led_t0 = 0
        self.fps = 0.0
        self._fps_mark: tuple[int, int] | None = None
        from kiosk.scenes.seats import lobby_games
        self.all_games = lobby_games()
        # what the configuration file says: the running values and what this run saved since
        saved = _SAVED.setdefault(app, {})
        self.saved: dict[tuple[str, str], Any] = {(s.section, s.key): saved.get((s.section, s.key),
                                                                               app.cfg[s.section][s.key])
                                                  for s in SETTINGS}
        offered = saved.get(("lobby", "games"), app.cfg.data.get("lobby", {}).get("games") or [])
        self.saved_offered = {g.name: (not offered or g.name in offered) for g in self.all_games}   # registry names
        self.values = dict(self.saved)
        self.offered = dict(self.saved_offered)
        self.confirm: tuple[str, Callable[[], None]] | None = None
        self.status = ""
        self.power: Any = None            # kiosk.service.power.Running: shutting down / rebooting
        if app.cfg["service"].get("pin", "") in NewPin.WELL_KNOWN:
            self.status = "The PIN is the one printed in the README: choose your own (Change the PIN)"

    # -- input ---------------------------------------------------------------------------
    def combination(self) -> None:
        """The opening combination held again: back to the menu (the button test's way out)."""
        self.editing = False
        self.to_menu()
        self.gestures.down.clear()              # the combination's own releases do nothing

    def on_edge(self, edge: Edge) -> None:
        if self.page == "buttons":
            self.buttons.feed(edge)             # every control is under test: none acts
            return
        for _seat, action in self.gestures.feed(edge):
            self.act(action, buzzer=edge.control == "buzzer")

    def on_command(self, command: Command) -> None:
        if self.page == "buttons":
            if command.name == "back" and not self.app.kiosk_mode:
                self.combination()              # a developer's Esc; at an event: the combination
            return
        if command.station_key:
            return                              # its station event does it
        act = {"left": PREV, "up": PREV, "right": NEXT, "down": NEXT, "ok": OK, "x": BACK,
               "back": BACK}.get(command.name)
        if act:
            self.act(act)

    def rows(self) -> list[str]:
        if self.page == "menu":
            return [label for _, label in MENU]
        if self.page == "settings":
            return ([s.label for s in SETTINGS] + [f"Lobby offers {g.label}" for g in self.all_games]
                    + ["Save (in force after the restart)", "Save and restart now", "Back without saving"])
        if self.page == "sound":
            return ["Volume"] + [f"Play '{s}'" for s in SOUNDS] + ["Back"]
        if self.page == "led":
            return list(LED_PATTERNS) + ["Back"]
        if self.page == "confirm":
            return ["No", "Yes"]
        return []

    def act(self, action: str, buzzer: bool = False) -> None:
        """A menu action; ``buzzer``: made by a buzzer gesture (while a value is changed a
        tap steps it in :attr:`direction`, a hold turns the direction round, a long hold
        keeps the value; station controls: left/right change it, OK or X keeps it)."""
        if self.app.scenes[-1] is not self:
            return
        self.app.sounds.play("tick")
        if self.page == "pin":
            self._pin_act(action)
            return
        rows = self.rows()
        if self.editing:
            if buzzer:
                if action == NEXT:
                    self.run = self.run + 1 if self._quick() else 1
                    self.last_tap = self.now
                    self._change(self.direction, bounce=True, times=self.edited().fast_times(self.run))
                else:
                    self.run, self.last_tap = 0, None
                    if action == OK:
                        self.direction = -self.direction
                    elif action == BACK:
                        self.editing = False
            elif action in (PREV, NEXT):
                self._change(-1 if action == PREV else 1)
            elif action in (OK, BACK):
                self.editing = False
            return
        if action in (PREV, NEXT) and rows:
            self.cursor = (self.cursor + (1 if action == NEXT else -1)) % len(rows)
            if self.page == "led" and self.cursor < len(LED_PATTERNS):
                self.pattern, self.led_t0 = self.cursor, self.now
        elif action == BACK:
            if self.page == "menu":
                self.app.home()
            else:
                if self.page == "sound":
                    self._keep_volume()
                elif self.page == "settings":
                    self._drop_unsaved()
                self.to_menu()
        elif action == OK:
            self._choose()

    def to_menu(self) -> None:
        """Back to the menu with the highlight on the row of the page just left (issue 20: it
        went to the top row, "Button test", and the operator's usual hold opened that, which
        only the opening combination leaves); a question's answer: on the row that asked it."""
        keys = [k for k, _ in MENU]
        left = self.menu_row if self.page == "confirm" else self.page
        self.cursor = keys.index(left) if left in keys else 0
        self.page, self.confirm, self.newpin = "menu", None, None

    #: The menu's row whose question the confirm page asks.
    menu_row = "menu"

    def _choose(self) -> None:
        page, c = self.page, self.cursor
        if page == "menu":
            what = MENU[c][0]
            if what in ("buttons", "led", "sound", "settings"):
                self.page, self.cursor = what, 0
                self.led_t0 = self.now
                self.pattern = 0
                self.gestures.down.clear()
                return
            if what == "pin":
                self.page, self.newpin = "pin", NewPin()
                return
            if what == "close":
                self.app.home()
            elif what == "reset":
                self._ask("Delete every high score?", self._reset_scores)
            elif what == "restart":
                self._ask("Restart the arcade now?", self._restart)
            elif what == "stop":
                self._ask("Stop the arcade? (it stays off until the Pi restarts)", self._stop)
            elif what == "shutdown":
                self._ask("Shut the Pi down now?", self._shutdown)
            elif what == "reboot":
                self._ask("Restart the Pi now?", self._reboot)
        elif page == "confirm":
            assert self.confirm is not None
            _, do = self.confirm
            self.to_menu()
            if c == 1:
                do()
        elif page == "settings":
            n = len(SETTINGS)
            if c < n:
                self.editing, self.direction = True, 1
            elif c < n + len(self.all_games):
                g = self.all_games[c - n]
                key = g.name
                self.offered[key] = not self.offered[key]
            elif c == n + len(self.all_games):
                self.save()
            elif c == n + len(self.all_games) + 1:
                if self.save():
                    self._restart()
            else:
                self._drop_unsaved()
                self.to_menu()
        elif page == "sound":
            if c == 0:
                self.editing, self.direction = True, 1
            elif c <= len(SOUNDS):
                self.app.sounds.play(SOUNDS[c - 1])
            else:
                self._keep_volume()
                self.to_menu()
        elif page == "led":
            if c < len(LED_PATTERNS):
                self.pattern, self.led_t0 = c, self.now
            else:
                self.to_menu()

    def edited(self) -> Setting:
        """The setting being changed (the volume on the sound page)."""
        if self.page == "sound":
            return volume_setting()
        return SETTINGS[self.cursor]

    def _quick(self) -> bool:
        """Whether a buzzer tap now continues the quick run (:data:`FAST_TAP_NS`)."""
        return self.last_tap is not None and self.run > 0 and self.now - self.last_tap <= FAST_TAP_NS

    def _change(self, direction: int, bounce: bool = False, times: int = 1) -> None:
        """``times`` steps of the value being changed; ``bounce`` (buzzer taps): at the end
        of its range the direction turns round (and the quick run starts over), so every
        value is reached with taps alone."""
        s = self.edited()
        k = (s.section, s.key)
        new = s.stepped(self.values[k], direction, times)
        if bounce and new == self.values[k]:
            self.direction = direction = -direction
            self.run = 1
            new = s.stepped(self.values[k], direction)
        self.values[k] = new
        if bounce and s.stepped(new, direction) == new:
            self.direction = -direction            # at the end: the next tap goes back (the hint says so)
            self.run, self.last_tap = 0, None
        if k == ("sound", "volume"):
            self.app.sounds.set_volume(self.values[k])
            self.app.sounds.play("press")

    def _pin_act(self, action: str) -> None:
        """The "Change the PIN" page: the new PIN twice, then saved to the configuration file
        (kiosk/service/config_save.py) and in force at once."""
        entry = self.newpin
        assert entry is not None
        entry.act(action)
        if entry.cancelled:
            self.to_menu()
            self.status = "The PIN was not changed"
        elif entry.result is not None:
            self.to_menu()
            self.save_pin(entry.result)

    def save_pin(self, pin: str) -> bool:
        """Save ``pin`` as ``[service] pin``; in force for the next opening of the menu."""
        path = self._write({"service": {"pin": pin}}, "The PIN was not changed")
        if path is None:
            return False
        self.app.cfg["service"]["pin"] = pin
        self.status = f"New PIN saved to {path}; it is asked from now on"
        return True

    def _write(self, changes: dict[str, dict[str, Any]], refused: str) -> Path | None:
        """Write ``changes`` to the configuration file (kiosk/config_save, atomically); its path,
        or None with ``refused`` and the reason in the status line."""
        from kiosk.config import ConfigError
        from kiosk.service.config_save import config_file, save_settings
        path = config_file(self.app.cfg)
        try:
            save_settings(path, changes)
        except ConfigError as exc:
            self.status = f"{refused}: {exc.key} {exc.expected}"
            return None
        except OSError as exc:
            self.status = f"{refused}: {exc}"
            return None
        return path

    def _ask(self, question: str, do: Callable[[], None]) -> None:
        self.confirm = (question, do)
        self.menu_row = MENU[self.cursor][0]
        self.page, self.cursor = "confirm", 0

    # -- actions ----------------------------------------------------------------------------
    def changes(self) -> dict[str, dict[str, Any]]:
        """The settings that differ from the configuration file (:attr:`saved`), by section."""
        out: dict[str, dict[str, Any]] = {}
        for (section, key), v in self.values.items():
            if self.saved[(section, key)] != v:
                out.setdefault(section, {})[key] = v
        if self.offered != self.saved_offered:
            games = [k for k, on in self.offered.items() if on]
            out.setdefault("lobby", {})["games"] = [] if len(games) == len(self.offered) else games
        return out

    def _drop_unsaved(self) -> None:
        """Leaving the settings without saving: the changed values go back to the saved ones
        (re-entering shows what the file says) and the status line says what was not saved
        (issue 20: a long hold left silently, and the unsaved value still showed afterwards)."""
        changes = self.changes()
        if not changes:
            return
        words = [f"{s.label} stays {s.show(self.saved[(s.section, s.key)])}" for s in SETTINGS
                 if s.key in changes.get(s.section, {})]
        if "games" in changes.get("lobby", {}):
            words.append("the lobby's games stay as they were")
        more = f" and {len(words) - 2} more" if len(words) > 2 else ""
        self.status = f"Not saved: {', '.join(words[:2])}{more} (Save is at the end of Settings)"
        if self.values[("sound", "volume")] != self.saved[("sound", "volume")]:
            self.app.sounds.set_volume(self.saved[("sound", "volume")])   # it sounded while it changed
        self.values = dict(self.saved)
        self.offered = dict(self.saved_offered)

    def _saved(self, changes: dict[str, dict[str, Any]]) -> None:
        """``changes`` are in the configuration file now: the page's saved values."""
        for section, keys in changes.items():
            for key, v in keys.items():
                if (section, key) in self.saved:
                    self.saved[(section, key)] = v
                _SAVED.setdefault(self.app, {})[(section, key)] = v
        if "games" in changes.get("lobby", {}):
            self.saved_offered = dict(self.offered)

    def save(self) -> bool:
        """Save the changed settings to the configuration file (atomically); True if saved."""
        changes = self.changes()
        if not changes:
            self.status = "Nothing changed"
            return True
        if "lobby" in changes and changes["lobby"].get("games") == [] and not any(self.offered.values()):
            self.status = "The lobby must offer at least one game"
            return False
        path = self._write(changes, "Not saved")
        if path is None:
            return False
        self._saved(changes)
        self.status = f"Saved to {path}; in force after the restart"    # the page's own status line
        return True

    def _keep_volume(self) -> None:
        """Leaving the sound page saves a changed volume to the configuration file at once
        (it is already in force: the sounds were set while it changed)."""
        v = self.values[("sound", "volume")]
        if v == self.app.cfg["sound"]["volume"]:
            return
        from kiosk.service.config_save import config_file, save_settings
        try:
            save_settings(config_file(self.app.cfg), {"sound": {"volume": v}})
            self.app.cfg["sound"]["volume"] = v
            self._saved({"sound": {"volume": v}})
            self.status = f"Volume {volume_setting().show(v)} saved"
        except Exception as exc:
            self.status = f"Volume not saved: {exc}"

    def _reset_scores(self) -> None:
        hs = self.app.highscores
        try:
            n = hs.reset() if hs is not None else 0
            self.status = f"{n} high scores deleted"
        except Exception as exc:
            self.status = f"High scores not reset: {exc}"
        self.app.message(self.status, 5.0)

    def _restart(self) -> None:
        """Restart the arcade: ``[service] restart_command`` if set, then exit with
        EXIT_RESTART (systemd starts the arcade again; started by hand, it starts itself
        again with the same command line: kiosk/service/power.py)."""
        cmd = self.app.cfg["service"].get("restart_command", "")
        if cmd:
            self.app.run_command(cmd, "restart the arcade")
        self.app.exit_code = EXIT_RESTART
        self.app.running = False

    def _stop(self) -> None:
        self.app.exit_code = EXIT_STOP
        self.app.running = False

    def _shutdown(self) -> None:
        self._power("shutdown_command", "shut down", "Shutting down...")

    def _reboot(self) -> None:
        self._power("reboot_command", "reboot", "Restarting the Pi...")

    def _power(self, key: str, what: str, saying: str) -> None:
        """Run the power command through logind (kiosk/service/power.py); if the Pi refuses, the
        menu stays and says why (``status``, and a message)."""
        svc = self.app.cfg["service"]
        self.status = saying
        self.power = self.app.run_command(svc.get(key) or DEFAULT_POWER[key], what, False)

    # -- time --------------------------------------------------------------------------------
    def update(self, now_ns: int) -> None:
        self.now = now_ns
        power = self.power
        if power is not None and getattr(power, "ended", False):
            self.power = None
            problem = power.refusal()
            if problem:
                self.status = problem          # along the bottom of the menu (and in the journal)
        self.buttons.tick(now_ns)
        link = getattr(self.app.led, "link", None)
        if link is not None:
            try:
                sent = link.status().frames_sent
            except Exception:
                sent = 0
            if self._fps_mark is None:
                self._fps_mark = (now_ns, sent)
            elif now_ns - self._fps_mark[0] >= 1_000_000_000:
                self.fps = (sent - self._fps_mark[1]) / ((now_ns - self._fps_mark[0]) / 1e9)
                self._fps_mark = (now_ns, sent)

    def led_picture(self, now_ns: int) -> LedPicture | None:
        if self.page != "led":
            return None
        led = self.app.cfg["led"]
        return led_test_picture(LED_PATTERNS[self.pattern], now_ns - self.led_t0, led["width"], led["height"])

    # -- drawing ----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        surface.fill(render.BG)
        title = {"menu": "Service menu", "buttons": "Button test", "led": "LED test", "sound": "Sound test",
                 "settings": "Settings", "confirm": "Are you sure?", "pin": "Change the PIN"}[self.page]
        hint = self.hint()
        self._status_room = None
        held = self.page != "buttons" and self.gestures.would(self.now) is not None
        colour = render.GOLD if held or self.page == "buttons" else render.DIM
        if render.small_screen(W, H):
            t = render.text_block(surface, title, (8, 4), W // 3, max(24, min(56, H // 9)), 1, render.GOLD, "topleft",
                                  bold=True)
            h = render.text_block(surface, hint, (t.right + 12, 4), W - t.right - 20, 28, 3, colour, "topleft")
            self._top = max(t.bottom, h.bottom) + 6
        else:
            t = render.text(surface, title, (40, 16), 56, render.GOLD, bold=True)
            render.text_block(surface, hint, (t.right + 30, 12), W - t.right - 70, 28, 2, colour, "topleft")
        if self.page == "buttons":
            self._draw_buttons(surface)
        elif self.page == "led":
            self._draw_led(surface)
        elif self.page == "pin":
            self._draw_pin(surface)
        else:
            self._draw_list(surface)
        if self.status_lines():
            self._draw_status(surface)

    def status_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """What the panel along the bottom says: the last result (saved, refused...) and, while
        the LED matrix is not connected, the LED link's whole line with its advice (the other
        screens show only a small badge: kiosk/app.py)."""
        out = [(self.status, render.GOLD)] if self.status else []
        led = self.app.led.attention() if self.app.led is not None else None
        if led:
            if self.page != "led" and self._small():
                led = short_led_line(led)       # issue 20: the whole advice took a quarter of 320 px
            out.append((led, render.BAD))
        return out

    #: Where a page's content starts on a small display (below the title and the hint).
    _top = 90

    def hint(self) -> str:
        """The gestures of the page as they work now (while a buzzer is held: what letting go
        does).  Station controls are named only when some seat has them."""
        if self.page == "buttons":
            return f"Every control is under test. To leave: hold {combo_words(self.app)}"
        controls = choose_controls(self.app)
        if self.page == "pin":
            words = {NEXT: "change the digit", OK: "take it", BACK: "take the last digit back"}
            plain = ("left/right or tap: digit   OK or hold: take it   X or hold 2 s: back"
                     if controls else "tap: next digit   hold: take it   hold 2 s: back")
        elif self.editing:
            step = self.step_words()
            words = {NEXT: step, OK: "turn round", BACK: "keep the value"}
            plain = (f"left/right: change   OK or X: keep it   buzzer: tap {step}, hold: turn round" if controls
                     else f"tap: {step}   hold: turn round   hold 2 s: keep the value")
        else:
            words = LET_GO
            plain = ("left/right or tap: move   OK or hold: choose   X or hold 2 s: back" if controls
                     else "tap: next row   hold: choose   hold 2 s: back")
        return held_line(self.gestures.would(self.now), words) or plain

    def step_words(self) -> str:
        """What a buzzer tap does to the value being changed: "+5 ms", "-0.1", "next choice";
        during a quick run the bigger step it makes now ("+50 s"), and where quick taps
        go further, "(quick: faster)"."""
        s = self.edited()
        if getattr(s.checker(), "choices", None):
            return "next choice"
        times = s.fast_times(self.run + 1) if self._quick() else 1
        more = " (quick: faster)" if times == 1 and s.fast_times(2 * FAST_AFTER + 1) > 1 else ""
        return f"{'+' if self.direction > 0 else '-'}{s.show(round(s.step * times, 4))}{more}"

    def _draw_pin(self, surface: pygame.Surface) -> None:
        """The "Change the PIN" page: which entry it is, the digits, the last problem."""
        W, H = surface.get_size()
        entry = self.newpin
        if entry is None:
            return
        top = self._top if render.small_screen(W, H) else 110
        bottom = H - 8 - (self._status_height(W) if render.small_screen(W, H) else (130 if self.status_lines() else 20))
        ask = (f"Choose the new PIN ({entry.MIN} to {entry.MAX} digits)" if entry.stage == "new"
               else "Enter the new PIN again")
        r = render.text_block(surface, ask, (W // 2, top), W - 40, 44, 2, render.TEXT, "midtop", bold=True)
        y = r.bottom + 8
        if entry.problem:
            r = render.text_block(surface, entry.problem, (W // 2, y), W - 40, 30, 2, render.BAD, "midtop")
            y = r.bottom + 8
        if len(entry.digits) >= entry.MIN:
            r = render.text_block(surface, "after 9 comes OK: take it to finish", (W // 2, bottom), W - 40, 28, 1,
                                  render.DIM, "midbottom")
            bottom = r.top - 4
        size = max(24, min(120, bottom - y))
        render.text_block(surface, entry.shown(), (W // 2, (y + bottom) // 2), W - 40, size, 1, render.GOLD,
                          "center", bold=True)

    def _small(self) -> bool:
        return render.small_screen(*self.app.screen.get_size())

    def _status_height(self, W: int) -> int:
        """How high the status panel of a small display is (0: no status)."""
        parts = self._status_parts(W)
        if not parts:
            return 0
        return sum(render.lines_height(text, W - 40, 28, 3) for text, _ in parts) + 12

    #: The height (px) a page leaves the status panel of a small display (None: what it needs).
    _status_room: int | None = None

    def _status_parts(self, W: int) -> list[tuple[str, tuple[int, int, int]]]:
        """:meth:`status_lines` that the panel of a small display shows: all of them, or, where
        a page keeps only :attr:`_status_room` for it (the button test's seats come first), the
        ones that fit whole (the menu's page shows them all)."""
        parts = self.status_lines()
        if self._status_room is None:
            return parts
        out, h = [], 12
        for text, colour in parts:
            need = render.lines_height(text, W - 40, 28, 3)
            if h + need <= self._status_room:
                out.append((text, colour))
                h += need
        return out

    def _status_wrapped(self, W: int) -> list[tuple[str, tuple[int, int, int]]]:
        """:meth:`status_lines` broken into the large display's 28 px lines (at most 3 each)."""
        f = render.font(28)
        lines: list[tuple[str, tuple[int, int, int]]] = []
        for text, colour in self.status_lines():
            own: list[str] = []
            for word in text.split(" "):
                if own and f.size(f"{own[-1]} {word}")[0] <= W - 120:
                    own[-1] = f"{own[-1]} {word}"
                else:
                    own.append(word)
            lines += [(line, colour) for line in own[:3]]
        return lines

    def _status_top(self, W: int, H: int) -> int:
        """Where the status panel begins (``H``: no status): a page's lines end above it."""
        if not self.status_lines():
            return H
        if render.small_screen(W, H):
            return H - 4 - self._status_height(W) if self._status_parts(W) else H
        return H - 16 - 34 * len(self._status_wrapped(W)) - 12

    def _draw_status(self, surface: pygame.Surface) -> None:
        """:meth:`status_lines` along the bottom, each on as many lines as it needs (at most 3,
        28 px), on a panel so it reads over the page."""
        W, H = surface.get_size()
        parts = self.status_lines()
        if render.small_screen(W, H):
            parts = self._status_parts(W)
            if not parts:
                return
            h = self._status_height(W)
            box = pygame.Rect(6, H - 4 - h, W - 12, h)
            render.panel(surface, box, render.PANEL, render.GOLD, 2)
            y = box.y + 6
            for text, colour in parts:
                y = render.text_block(surface, text, (W // 2, y), W - 40, 28, 3, colour, "midtop").bottom
            return
        lines = self._status_wrapped(W)
        box = pygame.Rect(40, H - 16 - 34 * len(lines) - 12, W - 80, 34 * len(lines) + 12)
        render.panel(surface, box, render.PANEL, render.GOLD, 2)
        for i, (line, colour) in enumerate(lines):
            render.text(surface, line, (W // 2, box.y + 8 + 34 * i), 28, colour, "midtop")

    def _draw_list(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        rows = self.rows()
        small = render.small_screen(W, H)
        if small:
            top = self._top
            if self.page == "confirm" and self.confirm is not None:
                q = render.text_block(surface, self.confirm[0], (W // 2, top), W - 24, 44, 2, render.TEXT, "midtop",
                                      bold=True)
                top = q.bottom + 6
            self._list_top = top
        else:
            if self.page == "confirm" and self.confirm is not None:
                render.text(surface, self.confirm[0], (W // 2, 130), 44, render.TEXT, "midtop", bold=True)
            top = 200 if self.page == "confirm" else 90
        first, count, step = self.list_window(H, len(rows))
        if small:
            top = self._list_top + (render.line_height(24) if first > 0 else 0)
        if first > 0:
            render.text(surface, f"{first} more above", (W // 2, top - 4), 24, render.DIM, "midbottom")
        if first + count < len(rows):
            render.text(surface, f"{len(rows) - first - count} more below", (W // 2, top + count * step), 24,
                        render.DIM, "midtop")
        for i, label in enumerate(rows):
            if not first <= i < first + count:
                continue
            sel = i == self.cursor
            if small:
                self._draw_row_small(surface, pygame.Rect(6, top + (i - first) * step, W - 12, step - 3), i, label)
                continue
            r = pygame.Rect(60, top + (i - first) * step, W - 120, step - 6)
            render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL, render.GOLD if sel else None, 3)
            fs = max(24, min(34, step - 16))
            render.text(surface, label, (r.x + 20, r.centery), fs, render.TEXT, "midleft", bold=sel)
            value = self._value_text(i)
            if value:
                col = render.GOLD if sel and self.editing else render.TEXT
                shown = f"< {value} >" if sel and self.editing else value
                render.text(surface, shown, (r.right - 20, r.centery), fs, col, "midright", bold=True)

    def _draw_row_small(self, surface: pygame.Surface, r: pygame.Rect, i: int, label: str) -> None:
        """A row of a list page on a small display: the label squeezed beside its value."""
        sel = i == self.cursor
        render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL, render.GOLD if sel else None, 2)
        fs = max(24, min(34, r.h - 10))
        value = self._value_text(i)
        right = r.right - 10
        if value:
            col = render.GOLD if sel and self.editing else render.TEXT
            shown = f"< {value} >" if sel and self.editing else value
            v = render.text_block(surface, shown, (right, r.centery), r.w // 3, fs, 1, col, "midright", bold=True)
            right = v.x - 12
        render.text_block(surface, label, (r.x + 10, r.centery), right - r.x - 10, fs, 1, render.TEXT, "midleft",
                          bold=sel)

    #: Where the rows of a list page start on a small display (set as it is drawn).
    _list_top = 90

    #: The smallest row of a list page: 28 px text in it (readable from 3 m; 24 px at least).
    MIN_ROW = 44
    #: The smallest row on a small display: a line of 24 px text and a margin.
    MIN_ROW_SMALL = 28

    def list_window(self, H: int, n: int) -> tuple[int, int, int]:
        """(first row shown, rows shown, row height) of a list page ``H`` px high with ``n``
        rows: rows never shrink below :attr:`MIN_ROW` (the settings page has 31 rows: it
        scrolls to keep the cursor's row in view instead of squeezing them to 16 px)."""
        if self._small():
            W = self.app.screen.get_width()
            lh = render.line_height(24)
            room = H - self._list_top - lh - self._status_height(W) - 8     # and "more below"
            step = min(54, max(self.MIN_ROW_SMALL, room // max(1, n)))
            count = max(1, min(n, room // step))
            first = min(max(0, self.cursor - count // 2), max(0, n - count))
            if first > 0:                          # "more above" too (the top of the list: no line)
                count = max(1, min(n, (room - lh) // step))
                first = min(max(0, self.cursor - count // 2), max(0, n - count))
            return first, count, step
        top = 200 if self.page == "confirm" else 90
        room = H - top - 130 - 30                  # the status lines below, "more below"
        step = min(54, max(self.MIN_ROW, room // max(1, n)))
        count = max(1, min(n, room // step))
        first = min(max(0, self.cursor - count // 2), max(0, n - count))
        return first, count, step

    def _value_text(self, i: int) -> str:
        if self.page == "settings":
            if i < len(SETTINGS):
                s = SETTINGS[i]
                return s.show(self.values[(s.section, s.key)])
            j = i - len(SETTINGS)
            if j < len(self.all_games):
                g = self.all_games[j]
                return "yes" if self.offered[g.name] else "no"
        if self.page == "sound" and i == 0:
            return volume_setting().show(self.values[("sound", "volume")])
        return ""

    def button_grid(self) -> tuple[list[int], dict[int, tuple[str, ...]], tuple[str, ...]]:
        """What the button test shows: the seats, each seat's controls and the columns (the
        controls of any seat, in :data:`CONTROLS` order).  Only what the configuration wires
        (:func:`kiosk.controls.input.wired_controls`: four GPIO buzzers show P1-P4, a buzzer each), and
        any other control that sent an edge during the test, so no press goes unseen; nothing
        wired at all: every seat's every control."""
        from kiosk.controls.input import wired_controls
        own = {seat: set(ctls) for seat, ctls in wired_controls(self.app.cfg, self.app.gpio is not None).items()}
        for seat, control in self.buttons.controls:
            own.setdefault(seat, set()).add(control)
        if not own:
            own = {seat: set(CONTROLS) for seat in range(8)}
        seats = sorted(own)
        per_seat = {seat: tuple(c for c in CONTROLS if c in own[seat]) for seat in seats}
        columns = tuple(c for c in CONTROLS if any(c in own[seat] for seat in seats))
        return seats, per_seat, columns

    def _draw_buttons(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        gpio = self.app.gpio
        errors = gpio.errors if gpio is not None else 0
        last = (gpio.last_error or "") if gpio is not None else ""
        head = (f"GPIO adapter: {'open' if gpio is not None else 'not open'}, {errors} errors"
                + (f" (last: {last[:70]})" if last else ""))
        if render.small_screen(W, H):
            self._draw_buttons_small(surface, head, render.BAD if errors else render.TEXT)
            return
        render.text(surface, head, (40, 84), 28, render.BAD if errors else render.TEXT)
        render.text(surface, "3x b2 = 3 presses, 2 bounce edges in the last one", (W - 40, H - 250), 26,
                    render.DIM, "topright")
        seats, per_seat, columns = self.button_grid()
        col_w = (W - 80) // 2
        row_h = (H - 130 - 250) // 4
        tile_w = min(160, (col_w - 64 - 16) // len(columns) - 6)
        for i, seat in enumerate(seats):
            x = 40 + (i // 4) * col_w
            y = 120 + (i % 4) * row_h
            colour = render.SEAT_COLOURS[seat % 8]
            render.text(surface, f"P{seat + 1}", (x, y + 4), 36, colour, bold=True)
            stats = self.buttons.seat_controls(seat)
            for ctl in per_seat[seat]:
                cx = x + 64 + columns.index(ctl) * (tile_w + 6)
                c = stats.get(ctl)
                box = pygame.Rect(cx, y, tile_w, row_h - 8)
                down = c is not None and c.down
                fill = colour if down else render.PANEL
                pygame.draw.rect(surface, fill, box, border_radius=8)
                if c is not None and c.stuck:
                    pygame.draw.rect(surface, render.BAD, box, 4, border_radius=8)
                ink = render.BG if down else render.TEXT
                render.text(surface, ctl, (box.centerx, box.y + 2), 26, ink, "midtop", bold=True)
                if c is not None:
                    detail = "STUCK" if c.stuck else f"{c.presses}x b{c.bounces_last}"
                    render.text(surface, detail, (box.centerx, box.bottom - 2), 24,
                                render.BAD if c.stuck and not down else ink, "midbottom", bold=c.stuck)
        # the last edges: stamp, gap to that control's previous edge, bounce
        y0 = H - 250
        render.text(surface, "Last edges: kernel stamp (ns), gap to that control's previous edge",
                    (40, y0), 26, render.DIM)
        y = y0 + 30
        for note in list(self.buttons.log)[:6]:
            if y + 30 > self._status_top(W, H) - 4:
                break                     # the status panel (a saved setting, the PIN advice) stays readable
            e = note.edge
            gap = "first" if note.gap_ms is None else f"+{note.gap_ms:.1f} ms"
            line = (f"P{e.seat + 1} {e.control:<6} {'down' if e.pressed else 'up  '}  t={e.t_ns}  {gap}"
                    + ("  BOUNCE" if note.bounce else "") + f"  ({e.source or '?'})")
            render.text(surface, line, (40, y), 26, render.GOLD if note.bounce else render.TEXT)
            y += 30

    def _draw_buttons_small(self, surface: pygame.Surface, head: str, head_col: tuple[int, int, int]) -> None:
        """The button test on a small display: the adapter's line, the 8 seats' controls in
        two columns, the legend, then as many of the last edges as the height leaves."""
        W, H = surface.get_size()
        lh = render.line_height(24)
        r = render.text_block(surface, head, (8, self._top), W - 16, 28, 2, head_col, "topleft")
        top = r.bottom + 4
        notes = list(self.buttons.log)[:6]
        log_rows = min(len(notes), 2 if H < 400 else 4)
        seats, per_seat, columns = self.button_grid()
        n = len(seats)

        def grid(bottom: int) -> tuple[bool, int, int, int]:
            """(two lines a control, rows, column width, row height) above ``bottom``: up to
            four seats one column, two lines a control where the height allows; more: two
            columns of seats with two lines a control where they fit, else one column of one
            line a control ("buzzer 1x b0")."""
            grid_h = bottom - 4 - top - lh * (2 + log_rows) - 4
            if n <= 4:
                two, rows_n, col_w = grid_h // max(1, n) >= 2 * lh, max(1, n), W - 16
            else:
                two = (grid_h // 4 >= 2 * lh
                       and (W - 16) // 2 - 40 >= len(columns) * render.font(24, True).size("buzzer")[0] * 0.7)
                rows_n, col_w = (4, (W - 16) // 2) if two else (n, W - 16)
            return two, rows_n, col_w, max(lh + 2, grid_h // rows_n)

        bottom = self._status_top(W, H)               # above the status panel
        two, rows_n, col_w, row_h = grid(bottom)
        if top + rows_n * row_h > bottom - 4:
            # the seats first (issue 20: the LED advice covered P7 and P8 at 480x320): the
            # status panel keeps what fits whole under them (the menu's page shows it all)
            self._status_room = H - 4 - (top + rows_n * row_h + 4)
            bottom = self._status_top(W, H)
            two, rows_n, col_w, row_h = grid(bottom)
        for i, seat in enumerate(seats):
            x = 8 + (i // rows_n) * col_w
            y = top + (i % rows_n) * row_h
            colour = render.SEAT_COLOURS[seat % 8]
            tag = render.text(surface, f"P{seat + 1}", (x, y + (row_h - 3) // 2), 24, colour, "midleft", bold=True)
            stats = self.buttons.seat_controls(seat)
            bw = min(160, (col_w - (tag.w + 6) - 8 - 3 * (len(columns) - 1)) // len(columns))
            for ctl in per_seat[seat]:
                cx = tag.right + 6 + columns.index(ctl) * (bw + 3)
                c = stats.get(ctl)
                box = pygame.Rect(cx, y, bw, row_h - 3)
                down = c is not None and c.down
                pygame.draw.rect(surface, colour if down else render.PANEL, box, border_radius=6)
                if c is not None and c.stuck:
                    pygame.draw.rect(surface, render.BAD, box, 3, border_radius=6)
                ink = render.BG if down else render.TEXT
                detail = "" if c is None else "STUCK" if c.stuck else f"{c.presses}x b{c.bounces_last}"
                stuck_ink = render.BAD if c is not None and c.stuck and not down else ink
                if two:
                    render.text_within(surface, ctl, (box.centerx, box.y + 1), bw - 4, 24, ink, "midtop", bold=True)
                    if detail:
                        render.text_within(surface, detail, (box.centerx, box.bottom - 1), bw - 4, 24, stuck_ink,
                                           "midbottom", bold=c is not None and c.stuck)
                else:
                    words = f"{ctl} {detail}".strip()
                    render.text_within(surface, words, box.center, bw - 4, 24, stuck_ink if detail == "STUCK" else ink,
                                       "center")
        y = top + rows_n * row_h + 2
        for words in ("3x b2 = 3 presses, 2 bounce edges in the last one",
                      "Last edges: stamp (ns), gap to that control's previous edge"):
            if y + lh > bottom - 2:
                break                     # under a status panel the legend gives way first
            render.text_block(surface, words, (8, y), W - 16, 24, 1, render.DIM, "topleft")
            y += lh
        for note in notes:
            if y + lh > bottom - 2:
                break
            e = note.edge
            gap = "first" if note.gap_ms is None else f"+{note.gap_ms:.1f} ms"
            line = (f"P{e.seat + 1} {e.control:<6} {'down' if e.pressed else 'up  '}  t={e.t_ns}  {gap}"
                    + ("  BOUNCE" if note.bounce else "") + f"  ({e.source or '?'})")
            render.text_block(surface, line, (8, y), W - 16, 24, 1, render.GOLD if note.bounce else render.TEXT,
                              "topleft")
            y += lh

    def _draw_led(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        led = self.app.cfg["led"]
        rows = self.rows()
        if render.small_screen(W, H):
            self._draw_led_small(surface, rows)
            return
        for i, label in enumerate(rows):
            sel = i == self.cursor
            r = pygame.Rect(40, 90 + i * 56, 500, 50)
            render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL, render.GOLD if sel else None, 3)
            render.text(surface, label, (r.x + 16, r.centery), 30, render.TEXT, "midleft", bold=sel)
        box = pygame.Rect(W - 420, 90, 380, 380)
        pic = self.led_picture(self.now) if self.page == "led" else None
        render.led_matrix(surface, box, pic)
        render.text(surface, "what is sent (top-left = red corner)", (box.centerx, box.bottom + 6), 24,
                    render.DIM, "midtop")
        if LED_PATTERNS[self.pattern] == "walking pixel":
            i = walking_index(self.now - self.led_t0, led["width"] * led["height"])
            render.text(surface, f"pixel {i}: column {i % led['width'] + 1}, row {i // led['width'] + 1}",
                        (box.centerx, box.bottom + 36), 28, render.TEXT, "midtop", bold=True)
        y = 90 + len(rows) * 56 + 20
        lines: list[tuple[str, tuple[int, int, int]]] = []
        for text, col in self._link_lines():
            if text.startswith(("Last error: ", "To do: ")):     # a long error or advice on up to four lines
                lines.extend((part, col) for part in wrap_text(text, box.x - 60, 30, max_lines=4))
            else:
                lines.append((text, col))
        for text, col in lines:
            if y + 36 > self._status_top(W, H) - 4:
                break                     # the status panel stays readable
            render.text(surface, text, (40, y), 30, col)
            y += 36


    def _link_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """The LED link's state, port, rate and last error, and the matrix's settings."""
        led = self.app.cfg["led"]
        link = getattr(self.app.led, "link", None)
        lines: list[tuple[str, tuple[int, int, int]]] = []
        if link is None:
            lines.append(("Link: none (LED matrix off)", render.BAD))
        else:
            try:
                st = link.status()
                ok = st.state in ("connected",)
                lines.append((f"Link: {st.state}", render.GOOD if ok else render.BAD))
                lines.append((f"Port: {st.url or led['port']}   baud {led['baudrate']}", render.TEXT))
                lines.append((f"Frames/s sent: {self.fps:.1f}   (total {st.frames_sent})", render.TEXT))
                lines.append((f"Last error: {st.last_error or 'none'}", render.BAD if st.last_error else render.TEXT))
                if getattr(st, "advice", ""):
                    lines.append((f"To do: {st.advice}", render.GOLD))   # the advice the badge leaves out
            except Exception as exc:
                lines.append((f"Link status unavailable: {exc}", render.BAD))
        lines.append((f"Matrix {led['width']}x{led['height']}, brightness {led['brightness']:g}, "
                      f"limit {led['max_current_ma']} mA", render.DIM))
        return lines

    def _draw_led_small(self, surface: pygame.Surface, rows: list[str]) -> None:
        """The LED test on a small display: the patterns and the link's lines on the left,
        the picture sent on the right, as large as the height leaves it."""
        W, H = surface.get_size()
        led = self.app.cfg["led"]
        lh = render.line_height(24)
        side = max(40, min(W * 2 // 5, self._status_top(W, H) - self._top - 5 * lh - 8))   # caption above the status
        box = pygame.Rect(W - side - 8, self._top, side, side)
        left_w = box.x - 16
        step = lh + 8
        y = self._top
        for i, label in enumerate(rows):
            sel = i == self.cursor
            r = pygame.Rect(8, y, left_w, step - 3)
            render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL, render.GOLD if sel else None, 2)
            render.text_block(surface, label, (r.x + 8, r.centery), r.w - 16, 30, 1, render.TEXT, "midleft", bold=sel)
            y += step
        pic = self.led_picture(self.now) if self.page == "led" else None
        render.led_matrix(surface, box, pic)
        cap = render.text_block(surface, "what is sent (top-left = red corner)", (box.centerx, box.bottom + 4),
                                W - box.x - 8 if W - box.x - 8 > side else side, 24, 2, render.DIM, "midtop")
        if LED_PATTERNS[self.pattern] == "walking pixel":
            i = walking_index(self.now - self.led_t0, led["width"] * led["height"])
            render.text_block(surface, f"pixel {i}: column {i % led['width'] + 1}, row {i // led['width'] + 1}",
                              (box.centerx, cap.bottom + 2), side, 28, 2, render.TEXT, "midtop", bold=True)
        y += 4
        for text, col in self._link_lines():
            if y + render.lines_height(text, left_w, 30, 2) > self._status_top(W, H) - 2:
                break                     # the lowest lines give way on a 320 px panel (and to the status)
            r = render.text_block(surface, text, (8, y), left_w, 30, 2, col, "topleft")
            y = r.bottom + 2


def short_led_line(attention: str) -> str:
    """The LED line of a small display's pages other than the LED test: the matrix's state
    without the port and the advice, which the LED test shows whole.

    >>> short_led_line("LED matrix disconnected (/dev/ttyACM0): plug in the LED controller's USB cable")
    'LED matrix disconnected: see LED test'
    >>> short_led_line("LED matrix off: no port set")
    'LED matrix off: see LED test'
    """
    head = attention.split(" (", 1)[0].split(":", 1)[0].strip()
    if not head.startswith("LED matrix") or len(head) > 40:
        head = "LED matrix: a problem"
    return f"{head}: see LED test"


def wrap_text(msg: str, max_w: int, size: int, max_lines: int = 4) -> list[str]:
    """``msg`` split at spaces into lines of at most ``max_w`` px at ``size``; past
    ``max_lines`` the last line ends in "...".  The LED test's last error says what to do
    at its end ("plug in the LED controller's USB cable"): it must not be cut off."""
    f = render.font(size)
    lines: list[str] = []
    for word in msg.split(" "):
        if lines and f.size(lines[-1] + " " + word)[0] <= max_w:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > max_lines:
        last = lines[max_lines - 1]
        while last and f.size(last + " ...")[0] > max_w:
            last = last[:-1]
        lines = lines[:max_lines - 1] + [last + " ..."]
    return lines


def walking_index(elapsed_ns: int, count: int, step_ns: int = 120_000_000) -> int:
    """Which pixel the walking-pixel pattern lights after ``elapsed_ns`` (one step per ``step_ns``)."""
    return int(elapsed_ns // step_ns) % max(1, count)


def led_test_picture(pattern: str, elapsed_ns: int, width: int, height: int) -> list[list[tuple[int, int, int]]]:
    """A test picture (rows of RGB, row-major from the top-left).

    * "seat colours": one band per seat, P1 left, in the seats' LED colours;
    * "walking pixel": one white pixel walking row by row from the top-left, with
      the corners marked (top-left red, top-right green, bottom-left blue), so a
      mirrored, turned or serpentine-wired panel shows at once;
    * "full white (current limit)": every pixel white; the output's current limit
      (``[led] max_current_ma``) dims it on the way out;
    * "off": black.
    """
    black = (0, 0, 0)
    pic = [[black] * width for _ in range(height)]
    if pattern == "seat colours":
        for x in range(width):
            c = ledv.SEAT_COLOURS[min(7, x * 8 // width)].rgb
            for y in range(height):
                pic[y][x] = c
    elif pattern == "walking pixel":
        pic[0][0], pic[0][width - 1], pic[height - 1][0] = (255, 0, 0), (0, 255, 0), (0, 0, 255)
        i = walking_index(elapsed_ns, width * height)
        pic[i // width][i % width] = (255, 255, 255)
    elif pattern.startswith("full white"):
        pic = [[(255, 255, 255)] * width for _ in range(height)]
    return pic
