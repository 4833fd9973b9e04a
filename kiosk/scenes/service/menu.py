"""The service menu's driving (:class:`ServiceScene`): the buzzer gestures, station controls
and keys, moving between pages and back to the menu, changing a value (a buzzer's quick taps go
further), the questions asked before restarting or shutting down, the new PIN's entry.  What a
choice does is ``actions.py``'s; the pages are drawn by ``pages.py`` and the modules it names.
"""

from __future__ import annotations

from typing import Callable

from arcade.core.events import Edge
from arcade.i18n import N_, _
from kiosk.controls.gestures import BACK, NEXT, OK, PREV
from kiosk.controls.input import Command
from kiosk.scenes.service.actions import Actions
from kiosk.scenes.service.pages import Pages
from kiosk.scenes.service.rows import LED_PATTERNS, MENU, SETTINGS, SOUNDS
from kiosk.service.tools import NewPin


class ServiceScene(Actions, Pages):
    """The service menu (see the package's docstring, kiosk/scenes/service/__init__.py)."""

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
        keys = [k for k, _label in MENU]
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
                self._ask(N_("Delete every high score?"), self._reset_scores)
            elif what == "restart":
                self._ask(N_("Restart the arcade now?"), self._restart)
            elif what == "stop":
                self._ask(N_("Stop the arcade? (it stays off until the Pi restarts)"), self._stop)
            elif what == "shutdown":
                self._ask(N_("Shut the Pi down now?"), self._shutdown)
            elif what == "reboot":
                self._ask(N_("Restart the Pi now?"), self._reboot)
        elif page == "confirm":
            assert self.confirm is not None
            _question, do = self.confirm
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
            self.status = _("The PIN was not changed")
        elif entry.result is not None:
            self.to_menu()
            self.save_pin(entry.result)

    def _ask(self, question: str, do: Callable[[], None]) -> None:
        """The confirm page: ``question`` (English, marked with ``N_``: translated where it is
        drawn), then ``do`` if the answer is "Yes"."""
        self.confirm = (question, do)
        self.menu_row = MENU[self.cursor][0]
        self.page, self.cursor = "confirm", 0
