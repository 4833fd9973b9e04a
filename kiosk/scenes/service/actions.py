"""What the service menu's choices do: save the settings (or drop them, saying what was not
saved; a language saved is spoken at once), save the volume and a new PIN, reset the high
scores, restart or stop the arcade, shut the Pi down or restart it (through logind: a refusal
stays on the menu's status line).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from arcade import i18n
from arcade.i18n import _, ngettext
from kiosk.app import said
from kiosk.scenes.service.rows import SETTINGS, volume_setting
from kiosk.scenes.service.state import _SAVED, ServiceState
from kiosk.service.stopping import EXIT_RESTART, EXIT_STOP

log = logging.getLogger("focus-arcade")

#: The power commands when ``[service]`` leaves them empty (systemd-logind, via polkit).
DEFAULT_POWER = {"shutdown_command": "systemctl poweroff", "reboot_command": "systemctl reboot"}


class Actions(ServiceState):
    """The menu's actions (mixed into :class:`~kiosk.scenes.service.menu.ServiceScene`)."""

    def save_pin(self, pin: str) -> bool:
        """Save ``pin`` as ``[service] pin``; in force for the next opening of the menu."""
        path = self._write({"service": {"pin": pin}}, _("The PIN was not changed"))
        if path is None:
            return False
        self.app.cfg["service"]["pin"] = pin
        self.status = _("New PIN saved to {path}; it is asked from now on").format(path=path)
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
        words = [_("{setting} stays {value}").format(setting=s.shown_label(), value=s.show(self.saved[(s.section, s.key)]))
                 for s in SETTINGS if s.key in changes.get(s.section, {})]
        if "games" in changes.get("lobby", {}):
            words.append(_("the lobby's games stay as they were"))
        shown, more = ", ".join(words[:2]), len(words) - 2
        if more > 0:
            self.status = ngettext("Not saved: {changes} and {n} more (Save is at the end of Settings)",
                                   "Not saved: {changes} and {n} more (Save is at the end of Settings)",
                                   more).format(changes=shown, n=more)
        else:
            self.status = _("Not saved: {changes} (Save is at the end of Settings)").format(changes=shown)
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
            self.status = _("Nothing changed")
            return True
        if "lobby" in changes and changes["lobby"].get("games") == [] and not any(self.offered.values()):
            self.status = _("The lobby must offer at least one game")
            return False
        path = self._write(changes, _("Not saved"))
        if path is None:
            return False
        self._saved(changes)
        if "language" in changes.get("display", {}):
            self.speak(changes["display"]["language"])
            if sum(len(keys) for keys in changes.values()) == 1:
                self.status = _("Saved to {path}; the language is in force now").format(path=path)
            else:
                self.status = _("Saved to {path}; the language is in force now, the rest after the restart").format(
                    path=path)
            return True
        self.status = _("Saved to {path}; in force after the restart").format(path=path)    # the page's own status line
        return True

    def speak(self, language: str) -> None:
        """``[display] language`` saved as ``language`` ("" for the system's locale): the arcade
        speaks it from the next frame on (issue 26: changeable with buzzers alone), this menu
        first; every screen part drawn before is drawn again in it."""
        from kiosk import render
        self.app.cfg["display"]["language"] = language
        i18n.use(self.app.cfg.language())
        render.redraw_everything()
        log.info("%s, saved in the service menu", self.app.cfg.language_line())

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
            self.status = _("Volume {value} saved").format(value=volume_setting().show(v))
        except Exception as exc:
            self.status = _("Volume not saved: {error}").format(error=exc)

    def _reset_scores(self) -> None:
        hs = self.app.highscores
        try:
            n = hs.reset() if hs is not None else 0
            self.status = said.ngettext("{n} high score deleted", "{n} high scores deleted", n, n=n)
        except Exception as exc:
            self.status = said._("High scores not reset: {error}", error=exc)
        self.app.message(self.status, 5.0)           # the journal: in English (kiosk/app/said.py)

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
        self._power("shutdown_command", "shut down", _("Shutting down..."))

    def _reboot(self) -> None:
        self._power("reboot_command", "reboot", _("Restarting the Pi..."))

    def _power(self, key: str, what: str, saying: str) -> None:
        """Run the power command through logind (kiosk/service/power.py); if the Pi refuses, the
        menu stays and says why (``status``, and a message)."""
        svc = self.app.cfg["service"]
        self.status = saying
        self.power = self.app.run_command(svc.get(key) or DEFAULT_POWER[key], what, False)
