"""What the service menu holds while it is open: the page, the highlight, the values being
changed (and the ones the configuration file holds), the button test's counts, the LED test's
pattern; the rows a page lists, the setting being changed, the menu's clock and the picture the
LED matrix is sent.  The driving (``menu.py``, ``actions.py``) and the drawing (``pages.py``
and the pages' own modules) build on :class:`ServiceState`.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Callable

from arcade.i18n import _, pgettext
from kiosk.scene import LedPicture, Scene
from kiosk.scenes.service.rows import (
    FAST_TAP_NS,
    LED_PATTERNS,
    MENU,
    SETTINGS,
    SOUNDS,
    Setting,
    led_test_picture,
    pattern_label,
    sound_label,
    volume_setting,
)
from kiosk.service.tools import ButtonTest, NewPin, ReleaseGestures

if TYPE_CHECKING:
    from kiosk.scene import Host

#: The settings each arcade saved to its configuration file since it started (in force after
#: the restart): a menu opened again shows them, not the running values (issue 20).
_SAVED: "weakref.WeakKeyDictionary[Host, dict[tuple[str, str], Any]]" = weakref.WeakKeyDictionary()


class ServiceState(Scene):
    """The service menu's state and what is read from it (see the package's docstring)."""

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
            self.status = _("The PIN is the one printed in the README: choose your own (Change the PIN)")

    def rows(self) -> list[str]:
        """The rows of a list page, in the language spoken now."""
        if self.page == "menu":
            return [_(label) for _key, label in MENU]
        if self.page == "settings":
            return ([s.shown_label() for s in SETTINGS]
                    + [_("Lobby offers {game}").format(game=_(g.label)) for g in self.all_games]
                    + [_("Save (in force after the restart)"), _("Save and restart now"), _("Back without saving")])
        if self.page == "sound":
            return ([volume_setting().shown_label()] + [_("Play '{sound}'").format(sound=sound_label(s)) for s in SOUNDS]
                    + [pgettext("service", "Back")])
        if self.page == "led":
            return [pattern_label(p) for p in LED_PATTERNS] + [pgettext("service", "Back")]
        if self.page == "confirm":
            return [pgettext("service", "No"), pgettext("service", "Yes")]
        return []

    def edited(self) -> Setting:
        """The setting being changed (the volume on the sound page)."""
        if self.page == "sound":
            return volume_setting()
        return SETTINGS[self.cursor]

    def _quick(self) -> bool:
        """Whether a buzzer tap now continues the quick run (:data:`FAST_TAP_NS`)."""
        return self.last_tap is not None and self.run > 0 and self.now - self.last_tap <= FAST_TAP_NS

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
