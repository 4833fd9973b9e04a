"""The arcade's TOML configuration: defaults, validation, clear errors.

``load(path)`` reads a TOML file over the defaults in ``kiosk/default.toml``.
Every problem names the key and the expected value.  A broken file never stops
the kiosk: :func:`load_or_default` keeps every section that still reads, takes the
others from the last good copy of the file, and the screen shows the problems.
"""

from __future__ import annotations

import copy
import os
import re
import reprlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from arcade import i18n
from arcade.core.errors import ArcadeError
from arcade.core.judge import JudgeSettings
from arcade.registry import SKILLS

DEFAULT_FILE = Path(__file__).with_name("default.toml")
STATIONS = ("keyboard", "gpio", "gamepad", "computer", "off")
#: A configuration file larger than this is not read (a real one is a few kB).
MAX_BYTES = 256 * 1024
#: Arrays and inline tables nested deeper than this are refused (the schema needs 2).
MAX_DEPTH = 32

_short = reprlib.Repr()
_short.maxstring = 240
_short.maxother = 60
_short.maxlist = _short.maxtuple = _short.maxdict = 8
_short.maxlevel = 3


def short_repr(value: object) -> str:
    """``repr`` cut to a readable length; never raises (deep nesting, huge numbers)."""
    try:
        return _short.repr(value)
    except Exception:           # RecursionError, ValueError (int digits limit), ...
        return f"<a {type(value).__name__}>"


class ConfigError(ArcadeError, ValueError):
    """A configuration problem: ``key`` (dotted), the bad ``value``, what was ``expected``.

    ``effect`` says what the kiosk does about it when that is more than keeping
    the key's default (``"the event link off"``); ``""`` means the default is kept.
    """

    def __init__(self, key: str, value: object, expected: str, source: str = "", effect: str = "") -> None:
        self.key, self.value, self.expected, self.source = key, value, expected, source
        self.effect = effect
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{key} = {short_repr(value)}: expected {expected}")


#: The validated settings: ``{section: {key: value}}`` (``data["judge"]["tie_window_ms"]``).
Settings = dict[str, dict[str, object]]
#: A key's check: ``(dotted key, the value as read) -> the value kept``; raises :class:`ConfigError`.
Check = Callable[[str, object], object]


def defaults() -> Settings:
    """``kiosk/default.toml`` as settings (a fresh copy each call: callers change it)."""
    with DEFAULT_FILE.open("rb") as f:
        return tomllib.load(f)


def _list(value: object) -> list[object]:
    """A validated list setting itself (the same object: a change to it is a change to the
    setting); [] for anything else."""
    return value if isinstance(value, list) else []


def _ints(value: object) -> list[int]:
    """The whole numbers of a validated list setting (a pin list)."""
    return [p for p in _list(value) if isinstance(p, int)]


def _strs(value: object) -> list[str]:
    """The strings of a validated list setting (stations, a combination)."""
    return [p for p in _list(value) if isinstance(p, str)]


def _text(value: object) -> str:
    """A validated string setting ("" for anything else)."""
    return value if isinstance(value, str) else ""


def _number(value: object) -> float:
    """A validated number setting (0 for anything else)."""
    return value if isinstance(value, (int, float)) else 0


def _whole(value: object) -> int:
    """A validated whole-number setting (0 for anything else)."""
    return value if isinstance(value, int) else 0


class NumberCheck:
    """The check of a number from ``low`` to ``high`` (a whole number when ``integer``); the
    service menu steps inside that range (``kiosk/scenes/service/rows.py``)."""

    def __init__(self, low: float, high: float, integer: bool = False) -> None:
        self.low, self.high, self.integer = low, high, integer

    def __call__(self, key: str, v: object) -> object:
        if (not isinstance(v, (int, float)) or isinstance(v, bool) or (self.integer and not isinstance(v, int))
                or not self.low <= v <= self.high):
            kind = "a whole number" if self.integer else "a number"
            raise ConfigError(key, v, f"{kind} from {self.low} to {self.high}")
        return v


class ChoiceCheck:
    """The check of one value among ``choices`` (strings or numbers); the service menu steps
    through them (``kiosk/scenes/service/rows.py``)."""

    def __init__(self, *choices: object) -> None:
        self.choices = choices

    def __call__(self, key: str, v: object) -> object:
        if v not in self.choices:
            raise ConfigError(key, v, f"one of {list(self.choices)}")
        return v


class LanguageCheck(ChoiceCheck):
    """``[display] language`` (issue 26): ``""`` (the system's locale, else English) or a code of
    :data:`arcade.i18n.LANGUAGES`; a locale name says the same (``"uk_UA.UTF-8"``, ``"uk-UA"``:
    ``"uk"``).  The service menu steps through the choices.  A language the arcade does not speak
    is a problem, and the screens are then in English (:data:`LANGUAGE_EFFECT`)."""

    def __init__(self) -> None:
        super().__init__("", *i18n.LANGUAGES)

    def __call__(self, key: str, v: object) -> object:
        code = i18n.normalise(v) if isinstance(v, str) else None
        if v == "" or code is not None:
            return code or ""
        spoken = ", ".join(f'"{c}" ({name})' for c, name in i18n.LANGUAGES.items())
        raise ConfigError(key, v, f'a language the arcade speaks: {spoken}, or "" for the system\'s language')


#: What the arcade does about a ``[display] language`` it does not speak.
LANGUAGE_EFFECT = "the screens in English"


def _num(low: float, high: float, integer: bool = False) -> NumberCheck:
    return NumberCheck(low, high, integer)


def _bool(key: str, v: object) -> object:
    if not isinstance(v, bool):
        raise ConfigError(key, v, "true or false")
    return v


def _str(key: str, v: object) -> object:
    if not isinstance(v, str):
        raise ConfigError(key, v, "a string in quotes")
    return v


def _secret(key: str, v: object) -> object:
    """A password: a string, never repeated in a message (the screen, the journal)."""
    if not isinstance(v, str):
        raise ConfigError(key, "(hidden)", "a string in quotes")
    return v


def _choice(*choices: object) -> ChoiceCheck:
    return ChoiceCheck(*choices)


def _pin_number(p: object) -> bool:
    """A BCM pin number 0 to 27 (0 = none where a list allows it)."""
    return isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 27


def _lamps(key: str, v: object) -> object:
    """``[gpio] lamps``: one BCM pin per seat for the lamp in its buzzer, 0 = no lamp."""
    if not isinstance(v, list) or len(v) > 8 or not all(_pin_number(p) for p in v):
        raise ConfigError(key, v, "a list of up to 8 BCM pin numbers 0 to 27 (0 = no lamp), one per seat")
    used = [p for p in v if p]
    if len(set(used)) != len(used):
        raise ConfigError(key, v, "each lamp pin at most once")
    return v


def _combo_ok(v: object) -> bool:
    """Whether ``v`` is 2 to 4 different controls ("P1.ok") of at least two seats."""
    from arcade.core.events import CONTROLS
    if not isinstance(v, list) or not 2 <= len(v) <= 4:
        return False
    names: list[str] = []
    for item in v:
        parts = item.split(".") if isinstance(item, str) else []
        if (len(parts) != 2 or not parts[0].upper().startswith("P") or not parts[0][1:].isdigit()
                or not 1 <= int(parts[0][1:]) <= 8 or parts[1] not in CONTROLS):
            return False
        names.append(parts[0].upper())
    return len(set(v)) == len(v) and len(set(names)) >= 2


def _combo(key: str, v: object) -> object:
    """``[service] combo``: the controls held together to open the service menu ("P1.ok")."""
    from arcade.core.events import CONTROLS
    if not _combo_ok(v):
        raise ConfigError(key, v, 'a list of 2 to 4 different controls such as ["P1.ok", "P2.ok"] '
                                  f"(seats P1-P8, controls {list(CONTROLS)}, at least two seats)")
    return v


#: How many digits a service PIN has, the fewest and the most: the configuration's check, the
#: service menu's "Change the PIN" and ``focus-arcade doctor`` all say and take the same (issue 20).
PIN_DIGITS = (4, 8)


def _pin_code(key: str, v: object) -> object:
    low, high = PIN_DIGITS
    if not isinstance(v, str) or not (v == "" or (v.isdigit() and v.isascii() and low <= len(v) <= high)):
        raise ConfigError(key, v, f'a string of {low} to {high} digits such as "4719", or "" for no PIN')
    return v


def _stations(key: str, v: object) -> object:
    if not isinstance(v, list) or not 1 <= len(v) <= 8:
        raise ConfigError(key, v, f"a list of 1 to 8 of {list(STATIONS)}")
    for i, s in enumerate(v):
        if s not in STATIONS:
            raise ConfigError(f"{key}[{i}]", s, f"one of {list(STATIONS)}")
    return v


def _pins(key: str, v: object) -> object:
    if not isinstance(v, list) or not all(_pin_number(p) for p in v):
        raise ConfigError(key, v, "a list of BCM pin numbers 0 to 27")
    if len(set(v)) != len(v):
        raise ConfigError(key, v, "each pin at most once")
    return v


def _controls(key: str, v: object) -> object:
    if not isinstance(v, list):
        raise ConfigError(key, v, "a list of [left, right, ok, x] pin lists, one per seat")
    for i, row in enumerate(v):
        if not isinstance(row, list) or len(row) != 4 or not all(_pin_number(p) for p in row):
            raise ConfigError(f"{key}[{i}]", row, "[left, right, ok, x] BCM pins (0 = none)")
    return v


def _games(key: str, v: object) -> object:
    """A list of registry names (``arcade.registry``); [] = every game."""
    from arcade import registry
    valid = registry.names()
    if not isinstance(v, list):
        raise ConfigError(key, v, f"a list of game names from {valid}, or [] for every game")
    for i, name in enumerate(v):
        if name not in valid:
            raise ConfigError(f"{key}[{i}]", name, f"a game name, one of {valid}")
    if len(set(v)) != len(v):
        raise ConfigError(key, v, "each game at most once")
    return v


def _usb_id(key: str, v: object) -> object:
    if v == "":
        return v
    parts = v.split(":") if isinstance(v, str) else []
    if len(parts) != 2 or not all(1 <= len(p) <= 4 and all(ch in "0123456789abcdefABCDEF" for ch in p)
                                  for p in parts):
        raise ConfigError(key, v, 'a "VID:PID" in hex such as "303a:1001", or ""')
    return v


SCHEMA: dict[str, dict[str, Check]] = {
    "display": {"width": _num(320, 7680, True), "height": _num(240, 4320, True),
                "fullscreen": _bool, "fps": _num(10, 240, True), "kiosk": _bool, "language": LanguageCheck()},
    "judge": {"debounce_ms": _num(0, 100), "tie_window_ms": _num(0, 250), "settle_ms": _num(0, 1000),
              "late_grace_ms": _num(0, 2000),
              "stuck_after_s": _num(0.5, 600), "focusx_double_press_ms": _num(50, 1000),
              "min_reaction_ms": _num(0, 300), "window_presses": _num(4, 1000, True)},
    "focusx": {"x_rule": _bool, "pace_s": _num(0.5, 30), "claim_window_s": _num(0.5, 30),
               "duel_deadline_ms": _num(500, 20000, True)},
    "sherlook": {"step_ms": _num(200, 5000), "countdown_step_ms": _num(200, 5000), "grace_ms": _num(0, 400),
                 "countdown_s": _num(0.5, 30), "round_limit_s": _num(5, 3600), "reveal_s": _num(1, 120),
                 "token_s": _num(0, 30)},
    "seats": {"stations": _stations, "computer_skill": _choice(*SKILLS)},
    "lobby": {"games": _games, "auto_start_s": _num(3, 120)},
    "computer": {"miss_rate_scale": _num(0, 10), "false_rate_scale": _num(0, 10)},
    "gpio": {"buzzers": _pins, "controls": _controls, "pin_factory": _choice("", "lgpio", "rpigpio", "pigpio", "native", "mock"),
             "lamps": _lamps, "lamp_pwm": _bool},
    "led": {"port": _str, "usb_id": _usb_id, "baudrate": _choice(*[9600, 57600, 115200, 230400, 460800, 500000, 576000, 921600, 1000000, 1500000, 2000000]),
            "wled_baud": _choice(*[0, 230400, 460800, 500000, 576000, 921600, 1000000, 1500000]),
            "transport": _choice("serial", "ddp"), "host": _str, "ddp_port": _num(1, 65535, True),
            "idle": _choice("picture", "release"),
            "width": _num(8, 64, True), "height": _num(8, 64, True), "serpentine": _bool,
            "brightness": _num(0, 1), "max_current_ma": _num(100, 20000, True)},
    "coop": {"peek_delay_s": _num(0, 10), "think_s": _num(0, 10), "offer_window_s": _num(0.5, 30)},
    "sackson": {"budget_s": _num(0.05, 30), "move_pause_s": _num(0, 10), "opening_swap": _bool,
                "mirror_rule": _bool},
    "storage": {"path": _str},
    "attract": {"idle_s": _num(5, 3600), "demo_s": _num(10, 600), "scores_s": _num(3, 120), "demo_games": _bool},
    "idle": {"turn_s": _num(5, 600)},
    "service": {"combo": _combo, "hold_s": _num(1, 10), "pin": _pin_code, "shutdown_command": _str,
                "reboot_command": _str, "restart_command": _str},
    "sound": {"volume": _num(0, 1)},
    "event": {"host": _str, "port": _num(1, 65535, True), "tls": _bool, "ca_file": _str,
              "username": _str, "password": _secret, "password_file": _str,
              "event": _str, "cabinet": _str},
}


@dataclass
class Config:
    """The validated configuration as nested dicts (``cfg.data["judge"]["tie_window_ms"]``)."""

    #: Section values are loosely typed for the scenes that read them (``cfg["display"]["fps"]``).
    data: dict[str, dict[str, Any]]
    source: str = "defaults"
    problems: list[str] = field(default_factory=list)
    #: Dotted keys taken from the last good copy of the file (issue 23), for the screen and ``doctor``.
    restored: list[str] = field(default_factory=list)
    #: Dotted keys of :data:`KIOSK_KEYS` the file changes although it reads whole: the copy's values are
    #: used until an operator accepts the file (``check-config --accept``; issue 23).
    held: list[str] = field(default_factory=list)
    #: The problems of a last line cut short and of :attr:`held` keys, as in ``problems`` (for check-config).
    notes: list[str] = field(default_factory=list)

    def __getitem__(self, section: str) -> dict[str, Any]:
        return self.data[section]

    def judge_settings(self) -> JudgeSettings:
        j = self.data["judge"]
        return JudgeSettings(debounce_ms=j["debounce_ms"], tie_window_ms=j["tie_window_ms"],
                             settle_ms=j["settle_ms"],
                             late_grace_ms=j["late_grace_ms"], stuck_after_s=j["stuck_after_s"],
                             focusx_double_press_ms=j["focusx_double_press_ms"],
                             min_reaction_ms=j["min_reaction_ms"], window_presses=j["window_presses"])

    def language(self, environ: dict[str, str] | None = None) -> str:
        """The code of the language the screens speak: ``[display] language``, else (``""``) the
        system's locale (:func:`arcade.i18n.system_language`: LANGUAGE, LC_ALL, LC_MESSAGES,
        LANG), else English."""
        code = i18n.normalise(_text(self.data["display"].get("language")))
        return code or i18n.system_language(environ)

    def language_line(self, environ: dict[str, str] | None = None) -> str:
        """The language chosen and where from, for ``check-config`` and the start of the log:
        "language: uk (from [display] language)", "language: uk (from the system locale)", or
        English when neither names a language the arcade speaks.

        >>> Config(defaults()).language_line({"LANG": "uk_UA.UTF-8"})
        'language: uk (from the system locale)'
        >>> Config(defaults()).language_line({"LANG": "C.UTF-8"})
        'language: en (the system locale names no language the arcade speaks)'
        """
        code = self.language(environ)
        if i18n.normalise(_text(self.data["display"].get("language"))):
            return f"language: {code} (from [display] language)"
        env = os.environ if environ is None else environ
        if any(i18n.normalise(part) for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
               for part in env.get(var, "").split(":")):
            return f"language: {code} (from the system locale)"
        return f"language: {code} (the system locale names no language the arcade speaks)"

    def storage_path(self) -> Path:
        p = self.data["storage"]["path"]
        if p:
            return Path(p).expanduser()
        base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
        return base / "focus-arcade" / "arcade.sqlite3"

    def event_on(self) -> bool:
        """Whether this cabinet joins an event (``[event] host`` set and valid)."""
        return bool(self.data.get("event", {}).get("host"))

    def uses_network(self) -> bool:
        """Whether the arcade needs network sockets (AF_INET/AF_INET6): the MQTT event link
        (``[event] host``) or a Wi-Fi LED output (``[led] transport = "ddp"`` or a network
        port URL).  The systemd unit allows them only then (kiosk/install.sh)."""
        led = self.data.get("led", {})
        port = str(led.get("port", "")).strip().lower()
        return self.event_on() or led.get("transport") == "ddp" or \
            port.startswith(("ddp://", "socket://", "rfc2217://", "udp://"))


def combo_reachable(data: Mapping[str, Mapping[str, object]], item: str) -> bool:
    """Whether the control ``item`` of ``[service] combo`` ("P1.ok") can be pressed with the
    configured stations: a GPIO seat's left/right/OK/X need a pin in ``[gpio] controls``,
    a keyboard seat's choose keys exist for P1 and P2 only, a computer or empty seat has none."""
    seat_s, control = item.split(".")
    seat = int(seat_s[1:]) - 1
    stations = _list(data["seats"]["stations"])
    station = stations[seat] if seat < len(stations) else "off"
    if station == "gamepad":
        return True
    if station == "keyboard":
        return control == "buzzer" or seat < 2
    if station == "gpio":
        if control == "buzzer":
            return seat < len(_list(data["gpio"]["buzzers"]))
        rows = _list(data["gpio"]["controls"])
        from arcade.core.events import CONTROLS
        i = CONTROLS.index(control) - 1           # [left, right, ok, x]
        row = _list(rows[seat]) if seat < len(rows) else []
        return seat < len(rows) and i < len(row) and bool(row[i])
    return False


def _check_combo(data: Settings, problems: list[ConfigError], source: str, explicit: bool) -> None:
    """``[service] combo`` must be pressable with the stations, or the operator can never open
    the service menu (in kiosk mode: never leave the arcade).  Buzzer-only GPIO stations (what
    kiosk/install.sh writes) have no OK control: then the same seats' buzzers are used, silently
    for the default combination, as a problem for one the file names."""
    combo = data["service"]["combo"]
    missing = [item for item in _strs(combo) if not combo_reachable(data, item)]
    if not missing:
        return
    buzzers = [f"{item.split('.')[0].upper()}.buzzer" for item in _strs(combo)]
    buzzers = list(dict.fromkeys(buzzers))
    fallback = buzzers if len(buzzers) >= 2 and all(combo_reachable(data, b) for b in buzzers) else None
    seats = [b.split(".")[0] + "'s" for b in fallback or []]
    effect = (f"{', '.join(seats[:-1])} and {seats[-1]} buzzers held to open the service menu" if fallback else "")
    if fallback and not explicit:
        data["service"]["combo"] = fallback
        return
    problems.append(ConfigError("service.combo", combo,
                                f"controls the seats' stations have ({', '.join(missing)}: no such control is "
                                'wired; with buzzers alone use ["P1.buzzer", "P2.buzzer"])', source, effect))
    if fallback:
        data["service"]["combo"] = fallback


def check_all(raw: Mapping[str, object], source: str = "") -> tuple[Settings, list[ConfigError]]:
    """Merge ``raw`` over the defaults, keeping every good key.

    Returns the settings (a bad key keeps its default) and every problem found:
    unknown sections or keys, bad values, and settings that contradict each
    other (a choose-control pin that is also a buzzer pin, a GPIO seat with no
    buzzer pin, a settle time shorter than the tie window).
    """
    data = defaults()
    problems: list[ConfigError] = []
    for section, values in raw.items():
        if section not in SCHEMA:
            problems.append(ConfigError(section, values, f"a section among {sorted(SCHEMA)}", source))
            continue
        if not isinstance(values, dict):
            problems.append(ConfigError(section, values, "a [section] table", source))
            continue
        for key, value in values.items():
            if key not in SCHEMA[section]:
                problems.append(ConfigError(f"{section}.{key}", value, f"a key among {sorted(SCHEMA[section])}", source))
                continue
            try:
                data[section][key] = SCHEMA[section][key](f"{section}.{key}", value)
            except ConfigError as exc:
                problems.append(ConfigError(exc.key, exc.value, exc.expected, source))
    for problem in problems:
        if problem.key == "display.language":      # a language the arcade does not speak: English
            problem.effect = LANGUAGE_EFFECT
            data["display"]["language"] = i18n.SOURCE
    gpio = data["gpio"]
    buzzers = _ints(gpio["buzzers"])
    for i, row in enumerate(_list(gpio["controls"])):
        clash = sorted({p for p in _ints(row) if p} & set(buzzers))
        if clash:
            problems.append(ConfigError(f"gpio.controls[{i}]", row, f"pins not used as buzzers (pin {clash[0]} is a buzzer)",
                                        source, "no GPIO station controls"))
            gpio["controls"] = []
            break
    stations = _list(data["seats"]["stations"])
    for seat, station in enumerate(stations):
        if station == "gpio" and seat >= len(buzzers):
            problems.append(ConfigError(f"seats.stations[{seat}]", station,
                                        f"a station with a buzzer pin: gpio.buzzers has only {len(buzzers)} pins",
                                        source, f"the keyboard for seat {seat + 1}"))
            stations[seat] = "keyboard"
    taken = set(buzzers) | {p for row in _list(gpio["controls"]) for p in _ints(row) if p}
    lamp_clash = sorted({p for p in _ints(gpio["lamps"]) if p} & taken)
    if lamp_clash:
        problems.append(ConfigError("gpio.lamps", gpio["lamps"],
                                    f"pins not used by buzzers or controls (pin {lamp_clash[0]} is an input)", source,
                                    "no buzzer lamps"))
        gpio["lamps"] = []
    service = raw.get("service")
    _check_combo(data, problems, source, explicit=isinstance(service, dict) and "combo" in service)
    judge = data["judge"]
    settle = judge["settle_ms"]
    if settle and _number(settle) < _number(judge["tie_window_ms"]):
        problems.append(ConfigError("judge.settle_ms", settle,
                                    f"0 (automatic) or at least the tie window ({judge['tie_window_ms']} ms)", source))
        judge["settle_ms"] = 0
    sh = data["sherlook"]       # docs/rules-sherlook.md SLA-1: a grace as long as a step leaves no marker to claim
    short = [k for k in ("step_ms", "countdown_step_ms") if _number(sh["grace_ms"]) >= _number(sh[k])]
    if short:
        keys = ", ".join(["sherlook.grace_ms"] + [f"sherlook.{k}" for k in short])
        than = " and ".join(f"sherlook.{k} ({sh[k]})" for k in short)
        problems.append(ConfigError("sherlook.grace_ms", sh["grace_ms"],
                                    f"less than {than}; the kiosk runs with the defaults for {keys}", source))
        for k in ("grace_ms", *short):
            sh[k] = defaults()["sherlook"][k]
    led = data["led"]
    port = str(led["port"]).strip()
    if (led["transport"] == "ddp" and not _text(led["host"]).strip()) or port.lower() in ("ddp://", "ddp:"):
        problems.append(ConfigError("led.host", led["host"], "WLED's host name or IP address for the DDP output "
                                    '(e.g. "192.168.1.50"), or transport = "serial"', source, "the LED matrix off"))
        led["transport"], led["port"] = "serial", "none"
    _check_event(data, problems, source)
    return data, problems


def led_rate(led: Mapping[str, object]) -> tuple[float, str]:
    """(frames/s, a sentence) for an ``[led]`` table: what rate the panel gets.

    Serial: the wire's limit (Adalight, 8N1) at the baud in use (``wled_baud``
    when set, else ``baudrate``); DDP: 60 frames/s (the link's cap).  The
    sentence says what to change when the rate is low.
    """
    from firmware_bridge.adalight import frame_length, safe_led_count

    leds = _whole(led["width"]) * _whole(led["height"])
    port = str(led["port"]).strip().lower()
    if led["transport"] == "ddp" or port.startswith("ddp://"):
        return 60.0, f"LED: {led['width']}x{led['height']} over Wi-Fi (DDP): up to 60 frames/s (the arcade sends up to 30)"
    if port in ("", "none", "off"):
        return 0.0, "LED: off"
    baud = _whole(led["wled_baud"]) or _whole(led["baudrate"])
    size = frame_length(safe_led_count(leds)) if port != "virtual" else frame_length(leds)
    fps = baud / 10.0 / size
    text = (f"LED: {led['width']}x{led['height']} = {size} bytes a frame at {baud} baud: "
            f"up to {fps:.1f} frames/s on the wire")
    if fps < 10:
        faster = [b for b in (921600, 1500000) if b > baud]
        hint = f" (WLED: set wled_baud = {faster[0]})" if faster else ""
        text += f"; the picture changes at most {fps:.1f} times a second{hint}"
    return fps, text


#: Event and cabinet names become MQTT topic levels: no "/", "+", "#" or spaces.
_TOPIC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


def _check_event(data: Settings, problems: list[ConfigError], source: str) -> None:
    """``[event]`` (issue 15): off while ``host`` is ""; when on, names fit in a topic,
    one way to give the password, and the files named exist.

    Every key is checked, also when another one already failed (so a technician
    sees all of them at once).  Any problem in ``[event]`` turns the event link
    off (the cabinet plays on alone, nothing half-connected) and each such
    problem says so in its ``effect``.
    """
    ev = data["event"]
    typed = [p for p in problems if p.key.startswith("event.")]
    failed = {p.key for p in typed}
    if not ev["host"] and "event.host" not in failed:
        return                           # off, and not asked for
    bad: list[ConfigError] = []
    if any(ch.isspace() for ch in _text(ev["host"])):
        bad.append(ConfigError("event.host", ev["host"], "a host name or address without spaces", source))
    for key in ("event", "cabinet"):
        value = ev[key]
        if f"event.{key}" in failed or (key == "cabinet" and value == ""):
            continue                     # "" = this machine's host name
        if not _TOPIC_NAME.fullmatch(_text(value)):
            bad.append(ConfigError(f"event.{key}", value, "1 to 40 letters, digits, '-', '_' or '.', "
                                   "starting with a letter or digit" + ("" if key == "cabinet" else
                                   " (the event's name, the same on every cabinet)"), source))
    if ev["password"] and ev["password_file"]:
        bad.append(ConfigError("event.password_file", ev["password_file"],
                               '"" when event.password is set (give the password one way only)', source))
    if (ev["password"] or ev["password_file"]) and not ev["username"] and "event.username" not in failed:
        bad.append(ConfigError("event.username", ev["username"], "the broker user name that goes with the password", source))
    for key in ("password_file", "ca_file"):
        if ev[key] and f"event.{key}" not in failed and not Path(_text(ev[key])).expanduser().is_file():
            bad.append(ConfigError(f"event.{key}", ev[key], "an existing, readable file", source))
    if ev["ca_file"] and not ev["tls"] and "event.tls" not in failed:
        bad.append(ConfigError("event.tls", ev["tls"], "true when event.ca_file is set", source))
    if typed or bad:
        for p in typed + bad:
            p.effect = "the event link off (this cabinet plays on alone)"
        problems.extend(bad)
        ev["host"] = ""                 # off: never half a connection


def effects(problems: Sequence[ConfigError]) -> str:
    """What the kiosk does about ``problems``, as the end of a sentence.

    >>> effects([ConfigError("a.b", 1, "2"), ConfigError("event.port", 0, "1..", effect="the event link off")])
    'the event link off, and the defaults for the other keys'
    >>> effects([ConfigError("a.b", 1, "2")])
    'the defaults for those keys'
    """
    said = list(dict.fromkeys(p.effect for p in problems if p.effect))
    rest = [p for p in problems if not p.effect]
    if not said:
        return "the defaults for those keys"
    if rest:
        said.append("the defaults for the other keys")
    return ", ".join(said[:-1]) + (", and " if len(said) > 1 else "") + said[-1]


def validate(raw: Mapping[str, object], source: str = "") -> Settings:
    """Merge ``raw`` over the defaults and check every key.

    Raises:
        ConfigError: the first problem found (unknown section or key, bad value,
            settings that contradict each other).
    """
    data, problems = check_all(raw, source)
    if problems:
        raise problems[0]
    return data


def _deep_key(text: str, limit: int = MAX_DEPTH) -> tuple[str, int] | None:
    """The key and line of the first value nested more than ``limit`` arrays or inline
    tables deep, or None.  Strings and comments are skipped (a rough TOML scanner:
    enough to refuse such a file before the parser recurses)."""
    depth, line, i, n = 0, 1, 0, len(text)
    key, key_line, section = "", 1, ""
    start_of_line = True
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            start_of_line = True
            i += 1
            continue
        if c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c in "\"'":
            triple = text.startswith(c * 3, i)
            quote = c * 3 if triple else c
            j = i + len(quote)
            while j < n and not text.startswith(quote, j):
                if text[j] == "\\" and c == '"':
                    j += 1
                elif text[j] == "\n":
                    if not triple:
                        break
                    line += 1
                j += 1
            i = j + len(quote)
            start_of_line = False
            continue
        if start_of_line and depth == 0 and not c.isspace():
            eol = text.find("\n", i)
            eol = n if eol < 0 else eol
            if c == "[":                  # a [table] or [[array of tables]] header: no nesting inside
                section = text[i:eol].split("#")[0].strip().strip("[]").strip()
                i = eol
                continue
            end = text.find("=", i, eol)
            if end >= 0:
                name = text[i:end].strip()
                key, key_line = (f"{section}.{name}" if section else name), line
            start_of_line = False
        if c in "[{":
            depth += 1
            if depth > limit:
                return (key or "?", key_line)
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    return None


def whole_lines(data: bytes) -> tuple[bytes, bytes]:
    """``data`` split into its lines ended by a newline and what follows the last newline
    (``b""`` when the file ends with one, or is empty).  The installer and the service menu end
    every line they write with a newline, so a last line without one is a file cut short (a power
    cut during a save, an SD card that lost the end): its value is never trusted (issue 23).

    >>> whole_lines(b"[judge]\\ntie_window_ms = 2")
    (b'[judge]\\n', b'tie_window_ms = 2')
    """
    end = data.rfind(b"\n") + 1
    return data[:end], data[end:]


def _read(path: str | os.PathLike[str], whole: bool = False) -> dict[str, object]:
    """The TOML file as a dict; every way it can be unreadable is a ConfigError.

    Refused with a message: missing or unreadable, larger than :data:`MAX_BYTES`, not
    UTF-8, NUL or other control characters, not TOML (line and column), values nested
    deeper than :data:`MAX_DEPTH` (the key and line), numbers too long to read.
    ``whole``: a last line not ended by a newline is left out (:func:`whole_lines`).
    """
    p = Path(path)
    try:
        with p.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError("config", str(p), "an existing TOML file") from None
    except OSError as exc:
        raise ConfigError("config", str(p), f"a readable file ({exc.strerror})") from None
    if len(data) > MAX_BYTES:
        raise ConfigError("config", str(p), f"a TOML file of at most {MAX_BYTES // 1024} kB") from None
    if whole:
        data = whole_lines(data)[0]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError("config", str(p), f"a UTF-8 text file ({exc.reason} at byte {exc.start})") from None
    if text.startswith("\ufeff"):
        text = text[1:]                  # a byte-order mark from a Windows editor
    deep = _deep_key(text)
    if deep is not None:
        raise ConfigError(deep[0], "...", f"a value nested at most {MAX_DEPTH} levels deep (line {deep[1]} of "
                          f"{p})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("config", str(p), f"valid TOML ({exc})") from None
    except RecursionError:
        raise ConfigError("config", str(p), f"values nested at most {MAX_DEPTH} levels deep") from None
    except (ValueError, MemoryError) as exc:      # e.g. an integer of more than 4300 digits
        line = _line_of_error(text, exc)
        raise ConfigError("config", str(p), f"valid TOML ({str(exc)[:80]}{line})") from None


def _line_of_error(text: str, exc: BaseException) -> str:
    """For a number too long to read: the line of the first such digit run (", line N")."""
    import re
    m = re.search(r"[0-9_]{4000,}", text)
    return f", line {text.count(chr(10), 0, m.start()) + 1}" if m else ""


def load(path: str | os.PathLike[str] | None) -> Config:
    """Read and validate a TOML file (None: the defaults).

    Raises:
        ConfigError: the file is missing, is not TOML (line and column given),
            or holds a bad value.
    """
    if path is None:
        return Config(defaults())
    return Config(validate(_read(path), str(path)), source=str(path))


def default_path() -> Path | None:
    """``$FOCUS_ARCADE_CONFIG``, else ``~/.config/focus-arcade/arcade.toml`` if it exists."""
    env = os.environ.get("FOCUS_ARCADE_CONFIG")
    if env:
        return Path(env)
    p = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "focus-arcade" / "arcade.toml"
    # gone, but an installed cabinet's: the last good copy of it stands in (issue 23), also when
    # the copy does not name its file (put back from a backup, an older install's)
    owner = _copy_owner()
    return p if p.exists() or owner == _same_file(p) or (not owner and last_good_path().is_file()) else None


def load_or_default(path: str | os.PathLike[str] | None) -> Config:
    """Like :func:`load`, but never raises: a bad key keeps its default while every good
    key is kept; each problem is in ``problems`` for the screen.

    A file that cannot be read as TOML loses as little as possible: every section
    that still reads on its own is kept (:func:`salvage`).  On an installed cabinet (a
    last good copy exists, :func:`last_good_path`) every section or key of that copy that
    is missing from the file or unreadable now comes from the copy, and when the file
    shows any damage the keys of :data:`KIOSK_KEYS` (kiosk mode, the GPIO buzzers, the
    PIN, the store path) are the copy's too: a file cut off after any line, a header typo
    or garbage never turns a cabinet into a laptop (issue 23).  What was taken from the
    copy is in ``restored`` (dotted keys) and said in ``problems``.  A last line with no
    newline after it (a file cut short: :func:`whole_lines`) is never read: its key comes from
    the copy, else keeps its default.  A file that reads whole but changes a key of
    :data:`KIOSK_KEYS` from the copy's (one damaged byte, a hand edit) runs with the copy's
    value until it is accepted (``held``, said in ``problems``).  The copy is replaced
    only by a file that loads completely and keeps every key of the copy (an operator's
    deliberate change: the service menu, ``check-config --accept``), never by another file.
    A missing file is the copy of it when there is one (said in ``problems``), else the
    plain defaults."""
    if path is None:
        return Config(defaults())
    cfg, clean = load_over_last_good(Path(path))
    if clean:
        _save_last_good(Path(path), cfg.data)
    return cfg


#: What makes a cabinet a kiosk (issue 23): on an installed cabinet, a file that shows any
#: damage never changes these; they come from the last good copy.
KIOSK_KEYS = ("display.kiosk", "display.fullscreen", "seats.stations", "gpio.buzzers", "gpio.controls",
              "gpio.pin_factory", "gpio.lamps", "service.pin", "service.combo", "storage.path")


def _copy_source() -> Path:
    """The file beside the last good copy that names the configuration file it is a copy of."""
    return last_good_path().with_name("last-good-config.source")


def _same_file(path: str | os.PathLike[str]) -> str:
    try:
        return str(Path(path).resolve())
    except OSError:
        return str(path)


def _copy_owner() -> str:
    """The configuration file the last good copy is a copy of ("" when none is named)."""
    try:
        return _copy_source().read_text("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def read_last_good(path: str | os.PathLike[str] | None = None) -> Settings:
    """The last good copy's TOML as written ({} when there is none or it does not read, or when
    it is the copy of another configuration file than ``path``)."""
    if path is not None:
        source = _copy_owner()
        if source and source != _same_file(path):
            return {}
    try:
        good = tomllib.loads(last_good_path().read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError, RecursionError):
        return {}
    return {k: v for k, v in good.items() if k in SCHEMA and isinstance(v, dict)}


def missing_keys(raw: Mapping[str, object], good: Mapping[str, Mapping[str, object]]) -> list[str]:
    """The dotted keys of ``good`` (the last good copy) that ``raw`` does not have.

    >>> missing_keys({"display": {"kiosk": True}}, {"display": {"kiosk": True, "fps": 30}, "gpio": {"buzzers": []}})
    ['display.fps', 'gpio.buzzers']
    """
    out = []
    for section, values in good.items():
        have = raw.get(section)
        out += [f"{section}.{key}" for key in values if not isinstance(have, dict) or key not in have]
    return out


def accept_as_last_good(path: Path) -> None:
    """An operator's deliberate change (``check-config --accept``, a save from the service
    menu): ``path`` becomes the last good copy as it is.

    Raises:
        OSError: the copy cannot be written.
    """
    atomic_write(last_good_path(), path.read_bytes(), like=path)
    atomic_write(_copy_source(), (_same_file(path) + "\n").encode("utf-8"))


def _valid(section: str, key: str, value: object) -> bool:
    check = SCHEMA.get(section, {}).get(key)
    if check is None:
        return False
    try:
        check(f"{section}.{key}", value)
    except ConfigError:
        return False
    return True


def _problem_key(problem: ConfigError) -> str:
    """``"seats.stations"`` of ``seats.stations[2]``: the key a problem is about."""
    return problem.key.split("[")[0]


def load_over_last_good(path: Path) -> tuple[Config, bool]:
    """The configuration of ``path`` with what is missing or unreadable taken from the last
    good copy, and whether the file is clean (loads completely, keeps every key of the copy)."""
    source = str(path)
    read_problems: list[str] = []
    lost: list[str] = []
    whole_lost = False
    try:
        tail = whole_lines(path.read_bytes()[:MAX_BYTES + 1])[1]
    except OSError:
        tail = b""
    try:
        raw = _read(path, whole=True)
    except ConfigError as exc:
        try:
            data = whole_lines(path.read_bytes())[0]
        except OSError:
            if not path.exists() and not read_last_good(path):
                return Config(copy.deepcopy(defaults()), source="defaults", problems=[str(exc)]), False
            data = b""            # gone (or unreadable) on an installed cabinet: all from the copy
        read_problems.append(str(exc))
        text = data[:MAX_BYTES].decode("utf-8", "replace")     # a part with U+FFFD in it is not read (salvage)
        raw, lost = salvage(text) if data else ({}, [""])
        raw = {k: v for k, v in raw.items() if k in SCHEMA}
        whole_lost = not raw
    good = read_last_good(path)
    as_read, first = check_all(raw, source)
    bad_keys = {_problem_key(p) for p in first}
    restored: list[str] = []
    merged = copy.deepcopy(raw)
    missing = False
    for section, values in good.items():
        have = raw.get(section)
        for key, value in values.items():
            name = f"{section}.{key}"
            absent = not isinstance(have, dict) or key not in have
            missing = missing or absent
            if (absent or name in bad_keys or section in bad_keys) and _valid(section, key, value):
                _table(merged, section)[key] = copy.deepcopy(value)
                restored.append(name)
    damaged = bool(read_problems or first or missing or tail)
    # a file that reads whole but changes what makes the cabinet a kiosk: one damaged byte
    # ("/tmp/cAb", a buzzer pin 7 for 27) or a hand edit; held at the copy's values until an
    # operator accepts it.  Without the copy's .source, a file that drops the cabinet
    # (kiosk mode, the GPIO stations) is another machine's file and is taken as written.
    hold = not damaged and bool(good) and not (not _copy_owner() and cabinet_drops(good, as_read))
    held: list[str] = []
    for name in (KIOSK_KEYS if damaged or hold else ()):
        section, key = name.split(".")
        if key in good.get(section, {}) and name not in restored and _valid(section, key, good[section][key]):
            target = _table(merged, section)
            if target.get(key) != good[section][key]:
                target[key] = copy.deepcopy(good[section][key])
                (restored if damaged else held).append(name)
    if whole_lost and not restored:
        return Config(copy.deepcopy(defaults()), source="defaults", problems=read_problems), False
    copy_at = last_good_path()
    problems = list(read_problems)
    if whole_lost and not path.exists():
        problems.append(str(ConfigError("config", source, f"an existing file; it is gone, so the last good copy "
                                        f"({copy_at}) is used instead (put it back: cp {copy_at} {source})",
                                        source)))
    elif whole_lost:
        problems.append(str(ConfigError("config", source, f"a file that reads as TOML; the last good copy "
                                        f"({copy_at}) is used instead", source)))
    else:
        for section in lost:
            what = f"[{section}]" if section else "(the lines before the first section)"
            if section and section not in SCHEMA:
                continue
            if not section:             # a header typo: the section's keys are read as this part's
                then = (f"what it held comes from the last good copy ({copy_at})" if restored
                        else "its keys keep their defaults")
            else:
                then = (f"its keys come from the last good copy ({copy_at})" if any(r.startswith(f"{section}.")
                        for r in restored) else "its keys keep their defaults")
            problems.append(str(ConfigError(what, "unreadable", f"a section that reads as TOML; {then}", source)))
    restored_set = set(restored)
    for p in first:
        if _problem_key(p) in restored_set:
            problems.append(f"{p}; the last good copy's value is used")
        else:
            problems.append(str(p))
    if restored and not whole_lost:
        problems.append(f"{source}: {len(restored)} setting(s) missing or unreadable here come from the last good "
                        f"copy ({copy_at}): {', '.join(restored)}; fix the file, or keep it as it is with "
                        f"focus-arcade check-config --accept {source}")
    checked, more = check_all(merged, source)
    said = {str(p) for p in first}
    problems += [str(p) for p in more if str(p) not in said and _problem_key(p) not in restored_set]
    notes = ([_cut_note(source, tail, data_before_tail(path), checked, restored_set)] if tail else [])
    for name in held:
        section, key = name.split(".")
        in_file = raw.get(section)
        mine = in_file.get(key) if isinstance(in_file, dict) else None
        both = ("" if name in SECRET_KEYS else
                f" (the file has {short_repr(mine)}, the copy {short_repr(good[section][key])})")
        notes.append(f"{source}: {name} differs from the last good copy ({copy_at}){both}: expected the copy's "
                     f"until an operator accepts the change, so using the copy's; "
                     f"`focus-arcade check-config --accept {source}` makes the file's the new copy")
    problems = notes + problems
    clean = not damaged and not held
    return Config(checked, source=source, problems=problems if not clean else [], restored=restored, held=held,
                  notes=notes), clean


def running_with(cfg: Config) -> str:
    """What the arcade runs with when its file has problems, as the end of a sentence ("...
    running with ..."): the start log and ``check-config`` say the same (issue 23).  Settings
    from the last good copy (missing, unreadable or held, by dotted key), the file's good
    settings, the defaults for the rest; when any come from the copy, also kiosk mode and the
    cabinet's GPIO seats and buzzer pins as they are then."""
    taken = cfg.restored + [k for k in cfg.held if k not in cfg.restored]
    parts = [f"{len(taken)} setting(s) from the last good copy ({last_good_path()}): {', '.join(taken)}"] if taken else []
    if cfg.source != "defaults":
        parts.append("the file's good settings")
    text = ", ".join(parts) + (" and " if parts else "") + "the defaults for the rest"
    if taken:
        seats = _strs(cfg.data["seats"]["stations"]).count("gpio")
        pins = len(_ints(cfg.data["gpio"]["buzzers"]))
        text += (f"; kiosk mode {'on' if cfg.data['display']['kiosk'] else 'off'}, {seats} GPIO seat(s), "
                 f"{pins} buzzer pin(s) in [gpio] buzzers")
    return text


#: Settings whose values are never repeated in a message (the screen, the journal, the log).
SECRET_KEYS = frozenset({"service.pin", "event.password"})


def data_before_tail(path: Path) -> str:
    """The text of ``path`` up to its last newline ("" when it cannot be read)."""
    try:
        return whole_lines(path.read_bytes()[:MAX_BYTES])[0].decode("utf-8", "replace")
    except OSError:
        return ""


#: A ``key = ...`` line (a bare key; dotted keys are read as their first part's).
_KEY_LINE = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*(?:\.\s*[A-Za-z0-9_-]+\s*)*=")


def cut_key(before: str, line: str) -> str:
    """The dotted key a last line cut short would set ("" when it sets none: a comment, a
    header, a cut name), from the last table header before it.

    >>> cut_key("[judge]\\ndebounce_ms = 15\\n", "tie_window_ms = 2")
    'judge.tie_window_ms'
    >>> cut_key("[judge]\\n", "tie_wi")
    ''
    """
    m = _KEY_LINE.match(line)
    if not m:
        return ""
    section = ""
    for text in before.splitlines():
        header = _HEADER.match(text)
        if header:
            section = header.group(1)
    return f"{section}.{m.group(1)}" if section else m.group(1)


def _cut_note(source: str, tail: bytes, before: str, checked: Settings, restored: set[str]) -> str:
    """The problem of a last line cut short (``tail``, its bytes): which key it would set and
    what is used instead (the last good copy's value, else the default)."""
    line = tail.decode("utf-8", "replace").strip()
    name = cut_key(before, line)
    section, _, key = name.partition(".")
    shown = "" if name in SECRET_KEYS else f" ({short_repr(line)})"
    if key and key in checked.get(section, {}):
        value = "(hidden)" if name in SECRET_KEYS else short_repr(checked[section][key])
        whose = "the last good copy's" if name in restored else "the default"
        return (f"{source}: {name}: the file ends inside this line{shown}: expected a last line ended by a "
                f"newline (the file was cut short); using {whose} {value}")
    return (f"{source}: the file ends inside its last line{shown}: expected a last line ended by a newline "
            "(the file was cut short); that line is not used")


def _table(raw: dict[str, object], section: str) -> dict[str, object]:
    """``raw[section]`` as a table; one is made in its place when it is not one."""
    target = raw.get(section)
    if isinstance(target, dict):
        return target
    made: dict[str, object] = {}
    raw[section] = made
    return made


def last_good_path() -> Path:
    """Where the last configuration file that loaded without a problem is copied:
    ``$STATE_DIRECTORY`` (the service's ``StateDirectory=``, /var/lib/focus-arcade), else
    ``$XDG_STATE_HOME/focus-arcade``, else /var/lib/focus-arcade when it is writable (the
    service user by hand), else ``~/.local/state/focus-arcade``."""
    state = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if state:
        return Path(state) / "last-good-config.toml"
    xdg = os.environ.get("XDG_STATE_HOME", "")
    if not xdg and os.access(SERVICE_STATE, os.W_OK):
        # the service's own folder: check-config --accept and doctor run by hand as the service
        # user (without systemd's STATE_DIRECTORY) see the copy the service keeps
        return SERVICE_STATE / "last-good-config.toml"
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "focus-arcade" / "last-good-config.toml"


#: The service's StateDirectory= (kiosk/systemd/focus-arcade.service).
SERVICE_STATE = Path("/var/lib/focus-arcade")


def cabinet_drops(good: Mapping[str, Mapping[str, object]], data: Mapping[str, Mapping[str, object]]) -> list[str]:
    """What of a cabinet the last good copy ``good`` (its TOML as written) has and the settings
    ``data`` (validated) drop: "kiosk mode" (``display.kiosk = true``), "the GPIO stations"
    (a ``"gpio"`` seat).

    >>> cabinet_drops({"display": {"kiosk": True}, "seats": {"stations": ["gpio"]}}, defaults())
    ['kiosk mode', 'the GPIO stations']
    """
    out = []
    if good.get("display", {}).get("kiosk") is True and data["display"]["kiosk"] is not True:
        out.append("kiosk mode")
    stations = good.get("seats", {}).get("stations")
    if isinstance(stations, list) and "gpio" in stations and "gpio" not in _list(data["seats"]["stations"]):
        out.append("the GPIO stations")
    return out


def _save_last_good(path: Path, data: Mapping[str, Mapping[str, object]]) -> None:
    """Copy ``path`` (whose settings are ``data``) to :func:`last_good_path` (atomically; a
    read-only disk is no error), when it is the cabinet's own file.

    The cabinet's own file is the one ``last-good-config.source`` beside the copy names.  When
    that is missing or unreadable (a copy restored from a backup, an older install's), the
    copy's own content decides: a copy with kiosk mode on or GPIO stations is replaced only by
    a file that keeps them (a good load of a laptop's file, ``doctor --config laptop.toml``,
    never replaces it; ``check-config --accept`` and the service menu do), and the file that
    replaces it becomes the one named (issue 23)."""
    target = last_good_path()
    source = (_same_file(path) + "\n").encode("utf-8")
    owner = _copy_owner()
    if owner and owner != _same_file(path) and target.exists():
        # the copy is another file's (the installed cabinet's): a good load of this one, e.g.
        # doctor run with a laptop's file, never replaces it; check-config --accept does
        return
    if not owner and target.exists() and cabinet_drops(read_last_good(), data):
        return                          # whose copy is not named: a file that is no cabinet's keeps off
    try:
        new = path.read_bytes()
        if not (target.exists() and target.read_bytes() == new):
            atomic_write(target, new, like=path)
        side = _copy_source()
        if not (side.exists() and side.read_bytes() == source):
            atomic_write(side, source)
    except OSError:
        pass


#: A top-level table header on a line of its own (``[display]``, ``[ gpio ]  # pins``).
_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]\s*(#.*)?$")


def salvage(text: str) -> tuple[dict[str, object], list[str]]:
    """The sections of a TOML text that read on their own: ``(raw, lost)``.

    The text is cut at its top-level table headers; each part is read by
    ``tomllib`` alone.  ``lost`` names the parts that do not read (``""`` for the
    lines before the first header).

    >>> salvage('[judge]\\ntie_window_ms = 12\\n[display]\\nkiosk = tru\\n')
    ({'judge': {'tie_window_ms': 12}}, ['display'])
    """
    parts: list[tuple[str, list[str]]] = [("", [])]
    for line in text.splitlines():
        m = _HEADER.match(line)
        if m:
            parts.append((m.group(1), [line]))
        else:
            parts[-1][1].append(line)
    raw: dict[str, object] = {}
    lost: list[str] = []
    for name, lines in parts:
        body = "\n".join(lines)
        if not body.strip():
            continue
        if "\ufffd" in body:             # bytes that were not UTF-8: never guess the value
            lost.append(name)
            continue
        try:
            part = tomllib.loads(body)
        except (tomllib.TOMLDecodeError, ValueError, RecursionError, MemoryError):
            lost.append(name)
            continue
        for key, value in part.items():
            have = raw.get(key)
            if isinstance(have, dict) and isinstance(value, dict):
                have.update(value)
            else:
                raw[key] = value
    return raw, lost


def atomic_write(path: Path, data: bytes, like: Path | None = None) -> None:
    """Write ``data`` to ``path`` so that a crash leaves the old or the new file.

    The new file keeps the mode and owner of the file it replaces (kiosk/install.sh makes the
    configuration 0640, the service user's, as the PIN is in it; issue 23), or takes those of
    ``like`` when given (the last good copy: its configuration file's).  An owner that cannot
    be given (not root) stays the writer; the group is kept where it can be.

    Raises:
        OSError: the folder is not writable, the disk is full... (the old file is untouched).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    was: os.stat_result | None = None
    for model in (like, path):
        try:
            was = os.stat(model) if model is not None else None
        except OSError:
            continue
        if was is not None:
            break
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if was is not None else 0o666)
        with open(fd, "wb") as f:
            if was is not None:
                try:
                    os.fchown(f.fileno(), was.st_uid, was.st_gid)
                except OSError:     # not root: the owner stays the writer; the group if it can
                    try:
                        os.fchown(f.fileno(), -1, was.st_gid)
                    except OSError:
                        pass
                os.fchmod(f.fileno(), was.st_mode & 0o7777)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except FileNotFoundError:
            pass
        raise
    try:
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass            # a folder that cannot be fsynced (some file systems): the rename is done
