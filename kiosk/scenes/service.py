"""The operator's service menu, and the PIN that guards it.

Opening: hold ``[service] combo`` (default P1's and P2's OK) together for
``hold_s`` seconds (default 3), anywhere; then enter ``[service] pin`` with
left/right (or buzzer taps) and OK (or a buzzer hold).  A running game ends.
Three wrong PINs lock the menu for a minute.

Moving in the menu, from any seat's station (kiosk/gestures.py): left/right (or a
buzzer tap) move the highlight, OK (or a buzzer hold of 0.6 s) chooses, X (or a
2 s hold) goes back.  On a value, OK starts changing it: left/right change it,
OK keeps it.  In the button test every control is under test, so the way back
is the opening combination held again.  Keyboard (for a developer): arrows,
Enter, Backspace.

Pages: button test, LED test, sound test and volume, settings (saved
atomically to the configuration file, in force after the restart), reset high
scores, restart the arcade, stop the arcade, shut the Pi down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pygame

from arcade.core.events import CONTROLS, Edge
from arcade.views import pictures as ledv
from kiosk import render
from kiosk.app import EXIT_RESTART, EXIT_STOP, App
from kiosk.gestures import BACK, NEXT, OK, PREV, Gestures
from kiosk.input import Command
from kiosk.scene import Scene
from kiosk.service_tools import ButtonTest, PinEntry

#: The power commands when ``[service]`` leaves them empty (systemd-logind, via polkit).
DEFAULT_POWER = {"shutdown_command": "systemctl poweroff", "reboot_command": "systemctl reboot"}

PIN_TRIES = 3
LOCK_NS = 60_000_000_000
PIN_TIMEOUT_NS = 60_000_000_000
_locked_until = 0          # module-wide: a new PIN screen does not reset the lock


class PinScene(Scene):
    """The PIN, entered with station controls, before the service menu opens."""

    overlay = True

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.entry = PinEntry(app.cfg["service"]["pin"])
        self.gestures = Gestures()
        self.tries = 0
        self.now = 0
        self.opened: int | None = None

    def on_edge(self, edge: Edge) -> None:
        if self.now < _locked_until:
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
        global _locked_until
        if self.app.scenes[-1] is not self:
            return
        self.entry.act(action)
        if self.entry.result is True:
            self.app.enter_service()
        elif self.entry.result is False:
            self.tries += 1
            if self.tries >= PIN_TRIES:
                _locked_until = self.now + LOCK_NS
                self.app.message("Wrong PIN three times: the service menu is locked for a minute", 8.0)
                self.app.pop()
            else:
                self.app.message(f"Wrong PIN ({PIN_TRIES - self.tries} tries left)", 4.0)
                self.entry = PinEntry(self.entry.pin)

    def update(self, now_ns: int) -> None:
        self.now = now_ns
        if self.opened is None:
            self.opened = now_ns
            if now_ns < _locked_until:
                self.app.message("The service menu is locked for a minute after wrong PINs", 5.0)
                self.app.pop()
                return
        for _seat, action in self.gestures.poll(now_ns):
            self.act(action)
        if self.app.scenes and self.app.scenes[-1] is self and now_ns - self.opened > PIN_TIMEOUT_NS:
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        box = pygame.Rect(W // 2 - 360, H // 2 - 170, 720, 340)
        render.panel(surface, box, render.PANEL, render.GOLD, 4)
        render.text(surface, "Service PIN", (box.centerx, box.y + 20), 52, render.GOLD, "midtop", bold=True)
        render.text(surface, self.entry.shown(), (box.centerx, box.centery + 4), 96, render.TEXT, "center", bold=True)
        render.text_fit(surface, "left/right or tap: digit   OK or hold: next   X: back",
                        (box.centerx, box.bottom - 64), box.w - 40, 30, 24, render.DIM)


@dataclass
class Setting:
    """One row of the settings page: ``section.key`` with its range from kiosk/config.py."""

    section: str
    key: str
    label: str
    step: float = 1
    unit: str = ""

    def checker(self) -> Any:
        from kiosk.config import SCHEMA
        return SCHEMA[self.section][self.key]

    def stepped(self, value: Any, direction: int) -> Any:
        check = self.checker()
        choices = getattr(check, "choices", None)
        if choices:
            i = choices.index(value) if value in choices else 0
            return choices[(i + direction) % len(choices)]
        low, high, integer = check.low, check.high, check.integer
        v = round(value + direction * self.step, 4)
        v = max(low, min(high, v))
        return int(v) if integer else v

    def show(self, value: Any) -> str:
        if isinstance(value, float):
            return f"{value:g}{self.unit}"
        return f"{value}{self.unit}"


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
    Setting("sound", "volume", "Volume", 0.1),
]

MENU = [
    ("buttons", "Button test"),
    ("led", "LED test"),
    ("sound", "Sound test and volume"),
    ("settings", "Settings"),
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

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.page = "menu"
        self.cursor = 0
        self.editing = False
        self.gestures = Gestures()
        j = app.cfg["judge"]
        self.buttons = ButtonTest(j["debounce_ms"], j["stuck_after_s"])
        self.pattern = 0
        self.now = 0
        self.led_t0 = 0
        self.fps = 0.0
        self._fps_mark: tuple[int, int] | None = None
        self.values = {(s.section, s.key): app.cfg[s.section][s.key] for s in SETTINGS}
        from kiosk.scenes.lobby import lobby_games
        self.all_games = lobby_games()
        offered = app.cfg.data.get("lobby", {}).get("games") or []
        self.offered = {g.name: (not offered or g.name in offered) for g in self.all_games}   # registry names
        self.confirm: tuple[str, Callable[[], None]] | None = None
        self.status = ""
        self.power: Any = None            # kiosk.power.Running: shutting down / rebooting

    # -- input ---------------------------------------------------------------------------
    def combination(self) -> None:
        """The opening combination held again: back to the menu (the button test's way out)."""
        self.page, self.cursor, self.editing, self.confirm = "menu", 0, False, None

    def on_edge(self, edge: Edge) -> None:
        if self.page == "buttons":
            self.buttons.feed(edge)
            return
        for _seat, action in self.gestures.feed(edge):
            self.act(action)

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

    def act(self, action: str) -> None:
        if self.app.scenes[-1] is not self:
            return
        self.app.sounds.play("tick")
        rows = self.rows()
        if self.editing:
            if action in (PREV, NEXT):
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
                self.page, self.cursor, self.confirm = "menu", 0, None
        elif action == OK:
            self._choose()

    def _choose(self) -> None:
        page, c = self.page, self.cursor
        if page == "menu":
            what = MENU[c][0]
            if what in ("buttons", "led", "sound", "settings"):
                self.page, self.cursor = what, 0
                self.led_t0 = self.now
                self.pattern = 0
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
            self.page, self.cursor, self.confirm = "menu", 0, None
            if c == 1:
                do()
        elif page == "settings":
            n = len(SETTINGS)
            if c < n:
                self.editing = True
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
                self.page, self.cursor = "menu", 0
        elif page == "sound":
            if c == 0:
                self.editing = True
            elif c <= len(SOUNDS):
                self.app.sounds.play(SOUNDS[c - 1])
            else:
                self._keep_volume()
                self.page, self.cursor = "menu", 0
        elif page == "led":
            if c < len(LED_PATTERNS):
                self.pattern, self.led_t0 = c, self.now
            else:
                self.page, self.cursor = "menu", 0

    def _change(self, direction: int) -> None:
        if self.page == "sound":
            s = next(x for x in SETTINGS if x.key == "volume")
        else:
            s = SETTINGS[self.cursor]
        k = (s.section, s.key)
        self.values[k] = s.stepped(self.values[k], direction)
        if k == ("sound", "volume"):
            self.app.sounds.set_volume(self.values[k])
            self.app.sounds.play("press")

    def _ask(self, question: str, do: Callable[[], None]) -> None:
        self.confirm = (question, do)
        self.page, self.cursor = "confirm", 0

    # -- actions ----------------------------------------------------------------------------
    def changes(self) -> dict[str, dict[str, Any]]:
        """The settings that differ from the running configuration, by section."""
        out: dict[str, dict[str, Any]] = {}
        for (section, key), v in self.values.items():
            if self.app.cfg[section][key] != v:
                out.setdefault(section, {})[key] = v
        games = [k for k, on in self.offered.items() if on]
        wanted = [] if len(games) == len(self.offered) else games
        if wanted != (self.app.cfg.data.get("lobby", {}).get("games") or []):
            out.setdefault("lobby", {})["games"] = wanted
        return out

    def save(self) -> bool:
        """Save the changed settings to the configuration file (atomically); True if saved."""
        from kiosk.config import ConfigError
        from kiosk.config_save import config_file, save_settings
        changes = self.changes()
        if not changes:
            self.status = "Nothing changed"
            return True
        if "lobby" in changes and changes["lobby"].get("games") == [] and not any(self.offered.values()):
            self.status = "The lobby must offer at least one game"
            return False
        path = config_file(self.app.cfg)
        try:
            save_settings(path, changes)
        except ConfigError as exc:
            self.status = f"Not saved: {exc.key} {exc.expected}"
            return False
        except OSError as exc:
            self.status = f"Not saved: {exc}"
            return False
        self.status = f"Saved to {path}; in force after the restart"    # the page's own status line
        return True

    def _keep_volume(self) -> None:
        """Leaving the sound page saves a changed volume to the configuration file at once
        (it is already in force: the sounds were set while it changed)."""
        v = self.values[("sound", "volume")]
        if v == self.app.cfg["sound"]["volume"]:
            return
        from kiosk.config_save import config_file, save_settings
        try:
            save_settings(config_file(self.app.cfg), {"sound": {"volume": v}})
            self.app.cfg["sound"]["volume"] = v
            self.status = f"Volume {v:.0%} saved"
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
        again with the same command line: kiosk/power.py)."""
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
        """Run the power command through logind (kiosk/power.py); if the Pi refuses, the
        menu stays and says why (``status``, and a message)."""
        svc = self.app.cfg["service"]
        self.status = saying
        self.power = self.app.run_command(svc.get(key) or DEFAULT_POWER[key], what, False)

    # -- time --------------------------------------------------------------------------------
    def update(self, now_ns: int) -> None:
        self.now = now_ns
        for _seat, action in self.gestures.poll(now_ns):
            self.act(action)
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

    def led_picture(self, now_ns: int) -> Any:
        if self.page != "led":
            return None
        led = self.app.cfg["led"]
        return led_test_picture(LED_PATTERNS[self.pattern], now_ns - self.led_t0, led["width"], led["height"])

    # -- drawing ----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        surface.fill(render.BG)
        title = {"menu": "Service menu", "buttons": "Button test", "led": "LED test", "sound": "Sound test",
                 "settings": "Settings", "confirm": "Are you sure?"}[self.page]
        render.text(surface, title, (40, 16), 56, render.GOLD, bold=True)
        hint = ("hold the service combination again to go back" if self.page == "buttons" else
                "left/right or tap: move   OK or hold: choose   X or hold 2 s: back")
        render.text_fit(surface, hint, (W // 2 + 200, 28), W - 520, 28, 24, render.DIM)
        if self.page == "buttons":
            self._draw_buttons(surface)
        elif self.page == "led":
            self._draw_led(surface)
        else:
            self._draw_list(surface)
        if self.status:
            self._draw_status(surface)

    def _draw_status(self, surface: pygame.Surface) -> None:
        """The last result (saved, refused...) along the bottom, on as many lines as it needs
        (at most 3, 28 px), on a panel so it reads over the page."""
        W, H = surface.get_size()
        f = render.font(28)
        lines: list[str] = []
        for word in self.status.split(" "):
            if lines and f.size(f"{lines[-1]} {word}")[0] <= W - 120:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        lines = lines[:3]
        box = pygame.Rect(40, H - 16 - 34 * len(lines) - 12, W - 80, 34 * len(lines) + 12)
        render.panel(surface, box, render.PANEL, render.GOLD, 2)
        for i, line in enumerate(lines):
            render.text(surface, line, (W // 2, box.y + 8 + 34 * i), 28, render.GOLD, "midtop")

    def _draw_list(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        rows = self.rows()
        if self.page == "confirm" and self.confirm is not None:
            render.text(surface, self.confirm[0], (W // 2, 130), 44, render.TEXT, "midtop", bold=True)
        top = 200 if self.page == "confirm" else 90
        first, count, step = self.list_window(H, len(rows))
        if first > 0:
            render.text(surface, f"{first} more above", (W // 2, top - 4), 24, render.DIM, "midbottom")
        if first + count < len(rows):
            render.text(surface, f"{len(rows) - first - count} more below", (W // 2, top + count * step), 24,
                        render.DIM, "midtop")
        for i, label in enumerate(rows):
            if not first <= i < first + count:
                continue
            sel = i == self.cursor
            r = pygame.Rect(60, top + (i - first) * step, W - 120, step - 6)
            render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL, render.GOLD if sel else None, 3)
            fs = max(24, min(34, step - 16))
            render.text(surface, label, (r.x + 20, r.centery), fs, render.TEXT, "midleft", bold=sel)
            value = self._value_text(i)
            if value:
                col = render.GOLD if sel and self.editing else render.TEXT
                shown = f"< {value} >" if sel and self.editing else value
                render.text(surface, shown, (r.right - 20, r.centery), fs, col, "midright", bold=True)

    #: The smallest row of a list page: 28 px text in it (readable from 3 m; 24 px at least).
    MIN_ROW = 44

    def list_window(self, H: int, n: int) -> tuple[int, int, int]:
        """(first row shown, rows shown, row height) of a list page ``H`` px high with ``n``
        rows: rows never shrink below :attr:`MIN_ROW` (the settings page has 31 rows: it
        scrolls to keep the cursor's row in view instead of squeezing them to 16 px)."""
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
            return f"{self.values[('sound', 'volume')]:.0%}"
        return ""

    def _draw_buttons(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        gpio = self.app.gpio
        errors = gpio.errors if gpio is not None else 0
        last = (gpio.last_error or "") if gpio is not None else ""
        head = (f"GPIO adapter: {'open' if gpio is not None else 'not open'}, {errors} errors"
                + (f" (last: {last[:70]})" if last else ""))
        render.text(surface, head, (40, 84), 28, render.BAD if errors else render.TEXT)
        render.text(surface, "3x b2 = 3 presses, 2 bounce edges in the last one", (W - 40, H - 250), 26,
                    render.DIM, "topright")
        seats = 8
        col_w = (W - 80) // 2
        row_h = (H - 130 - 250) // 4
        for seat in range(seats):
            x = 40 + (seat // 4) * col_w
            y = 120 + (seat % 4) * row_h
            colour = render.SEAT_COLOURS[seat]
            render.text(surface, f"P{seat + 1}", (x, y + 4), 36, colour, bold=True)
            stats = self.buttons.seat_controls(seat)
            cx = x + 64
            for ctl in CONTROLS:
                c = stats.get(ctl)
                box = pygame.Rect(cx, y, 100, row_h - 8)
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
                cx += 106
        # the last edges: stamp, gap to that control's previous edge, bounce
        y0 = H - 250
        render.text(surface, "Last edges: kernel stamp (ns), gap to that control's previous edge",
                    (40, y0), 26, render.DIM)
        y = y0 + 30
        for note in list(self.buttons.log)[:6]:
            e = note.edge
            gap = "first" if note.gap_ms is None else f"+{note.gap_ms:.1f} ms"
            line = (f"P{e.seat + 1} {e.control:<6} {'down' if e.pressed else 'up  '}  t={e.t_ns}  {gap}"
                    + ("  BOUNCE" if note.bounce else "") + f"  ({e.source or '?'})")
            render.text(surface, line, (40, y), 26, render.GOLD if note.bounce else render.TEXT)
            y += 30

    def _draw_led(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        led = self.app.cfg["led"]
        rows = self.rows()
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
        link = getattr(self.app.led, "link", None)
        y = 90 + len(rows) * 56 + 20
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
                for part in wrap_text(f"Last error: {st.last_error or 'none'}", box.x - 60, 30, max_lines=4):
                    lines.append((part, render.BAD if st.last_error else render.TEXT))
            except Exception as exc:
                lines.append((f"Link status unavailable: {exc}", render.BAD))
        lines.append((f"Matrix {led['width']}x{led['height']}, brightness {led['brightness']:g}, "
                      f"limit {led['max_current_ma']} mA", render.DIM))
        for text, col in lines:
            render.text(surface, text, (40, y), 30, col)
            y += 36


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
