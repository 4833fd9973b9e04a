"""What the service pages offer: the menu's rows, the settings page's rows (:class:`Setting`,
each with its range from kiosk/config.py), the LED test's patterns and the pictures they send,
the sound test's sounds.  No pygame: the pages (``pages.py``, ``led_page.py``) draw them.

The words are English here, marked for the catalog (``N_``); the pages translate them as they
draw them (arcade/i18n.py).  Section and key names, the skill names and the sounds' names are
the configuration's own and stay as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arcade import i18n
from arcade.i18n import N_, _, pgettext
from arcade.lights import pictures as ledv


@dataclass
class Setting:
    """One row of the settings page: ``section.key`` with its range from kiosk/config.py."""

    section: str
    key: str
    #: the row's words in English (marked with ``N_``; translated where drawn: :meth:`shown_label`)
    label: str
    step: float = 1
    #: a key of :data:`UNITS` ("ms", "s", "mA") or "" for none
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

    def shown_label(self) -> str:
        """The row's words in the language spoken now."""
        return _(self.label)

    def show(self, value: Any) -> str:
        """``value`` as the screens show it: "20 ms", "0.6", "80%" (a :attr:`percent` setting)."""
        if self.percent and isinstance(value, (int, float)):
            return f"{value:.0%}"
        if self.key == "computer_skill":            # the lobby's words for the same skill
            return SKILL_WORDS[value]() if value in SKILL_WORDS else str(value)
        number = plain_number(value)
        return _(UNITS[self.unit]).format(value=number) if self.unit else number


def plain_number(value: object) -> str:
    """A setting's number as the screens show it: as short as it is (``:g``), with the
    language's decimal mark ("0.6"; "0,6" in Ukrainian); anything else as it is.

    >>> plain_number(0.6), plain_number(1.0), plain_number(115200)
    ('0.6', '1', '115200')
    """
    number = f"{value:g}" if isinstance(value, float) else f"{value}"
    if isinstance(value, float) and "." in number:      # "0,6" in Ukrainian
        number = i18n.number(value, len(number.partition(".")[2]))
    return number


#: The computer players' skills as the lobby says them (context "skill"), in the language spoken now.
SKILL_WORDS = {"easy": lambda: pgettext("skill", "easy"), "medium": lambda: pgettext("skill", "medium"),
               "hard": lambda: pgettext("skill", "hard"), "expert": lambda: pgettext("skill", "expert")}


class LanguageSetting(Setting):
    """The "Language" row (``[display] language``, issue 26): "" (the system's locale) and each
    language of :data:`arcade.i18n.LANGUAGES`, each shown by its own name ("English",
    "Українська") so an operator finds theirs whatever the screen speaks; "" as "System
    (English)", naming what the system's locale gives now.  Saving it switches the menu at once
    (``actions.py``)."""

    def show(self, value: Any) -> str:
        """``"uk"`` -> "Українська"; ``""`` -> "System (English)" (in the language spoken now).

        >>> s = LanguageSetting("display", "language", "Language")
        >>> s.show("uk"), s.show("en")
        ('Українська', 'English')
        """
        if not value:
            # TRANSLATORS: the language setting's "" (follow the system's locale); {language} is the language that gives, by its own name ("English").
            return _("System ({language})").format(language=i18n.LANGUAGES[i18n.system_language()])
        return i18n.LANGUAGES.get(str(value), str(value))


def language_setting() -> Setting:
    """The language's row of :data:`SETTINGS`."""
    return next(x for x in SETTINGS if x.key == "language")


def volume_setting() -> Setting:
    """The volume's row of :data:`SETTINGS` (one presentation of the volume everywhere)."""
    return next(x for x in SETTINGS if x.key == "volume")


#: Buzzer taps on a value this close after the previous one (ns) make a quick run: after
#: :data:`FAST_AFTER` taps of the run each one steps 10 times as far, after twice as many 100
#: times (:meth:`Setting.fast_times`); a slower tap, a hold (turn round) or the end of the
#: range starts over at one step.
FAST_TAP_NS = 800_000_000
FAST_AFTER = 4

#: A value with its unit, by :attr:`Setting.unit`.
UNITS = {"ms": N_("{value} ms"), "s": N_("{value} s"), "mA": N_("{value} mA")}

SETTINGS = [
    Setting("judge", "tie_window_ms", N_("Tie window"), 5, "ms"),
    Setting("judge", "settle_ms", N_("Settle (0 = auto)"), 5, "ms"),
    Setting("judge", "debounce_ms", N_("Debounce"), 1, "ms"),
    Setting("seats", "computer_skill", N_("Computer skill")),
    Setting("lobby", "auto_start_s", N_("Lobby auto-start"), 1, "s"),
    Setting("attract", "idle_s", N_("Attract loop after"), 5, "s"),
    Setting("idle", "turn_s", N_("Computer takes an idle turn after"), 5, "s"),
    Setting("led", "brightness", N_("LED brightness"), 0.05),
    Setting("led", "max_current_ma", N_("LED current limit"), 50, "mA"),
    Setting("sound", "volume", N_("Volume"), 0.1, percent=True),
    LanguageSetting("display", "language", N_("Language")),
]

#: The menu's rows: (page or action, its words in English, translated where drawn).
MENU = [
    ("buttons", N_("Button test")),
    ("led", N_("LED test")),
    ("sound", N_("Sound test and volume")),
    ("settings", N_("Settings")),
    ("pin", N_("Change the PIN")),
    ("reset", N_("Reset high scores")),
    ("restart", N_("Restart the arcade")),
    ("stop", N_("Stop the arcade (leave to the console)")),
    ("shutdown", N_("Shut the Pi down")),
    ("reboot", N_("Restart the Pi")),
    ("close", N_("Close this menu")),
]

#: The LED test's patterns by their names (:func:`led_test_picture`; :func:`pattern_label` says them).
LED_PATTERNS = ("seat colours", "walking pixel", "full white (current limit)", "off")
#: The sound test's sounds, by the names of their files.
SOUNDS = ("press", "won", "debated", "false", "flip", "over")


def sound_label(sound: str) -> str:
    """A sound of the sound test (:data:`SOUNDS`) as its row says it, in the language spoken
    now: in English its file's name, in another language what the arcade plays it for
    ("натискання" for ``press`` in Ukrainian; was the English file name).

    >>> sound_label("press"), sound_label("over")
    ('press', 'over')
    """
    # TRANSLATORS: the sound test's sounds, named in English by their files: press = a buzzer
    # pressed, won = a race won, debated = a race tied, false = a false press, flip = a card
    # turned up, over = the game is over.
    return {"press": pgettext("sound", "press"), "won": pgettext("sound", "won"),
            "debated": pgettext("sound", "debated"), "false": pgettext("sound", "false"),
            "flip": pgettext("sound", "flip"), "over": pgettext("sound", "over")}.get(sound, sound)


def pattern_label(pattern: str) -> str:
    """An LED test pattern's row in the language spoken now."""
    return {"seat colours": pgettext("LED test", "seat colours"),
            "walking pixel": pgettext("LED test", "walking pixel"),
            "full white (current limit)": pgettext("LED test", "full white (current limit)"),
            "off": pgettext("LED test", "off")}.get(pattern, pattern)


def control_word(control: str) -> str:
    """A station control's name as the service pages say it (the configuration's own name,
    ``buzzer``, ``left``..., in the language spoken now; ``ok`` and ``x`` as on the buttons)."""
    return {"buzzer": pgettext("control", "buzzer"), "left": pgettext("control", "left"),
            "right": pgettext("control", "right")}.get(control, control)


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
