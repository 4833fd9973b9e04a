"""One rule for a service PIN's length (issue 20: ``doctor`` asked for 3 to 8 digits, the
service menu's "Change the PIN" for 4 to 8, and the configuration took 3): the configuration's
check, the menu and ``doctor`` say and take the same."""

from __future__ import annotations

import re

import pytest

from kiosk import config as configmod
from kiosk.config import Config, ConfigError, validate
from kiosk.controls.gestures import NEXT, OK
from kiosk.service import doctor
from kiosk.service.tools import NewPin


def said_range(text: str) -> tuple[int, int]:
    m = re.search(r"(\d) to (\d) digits|\((\d) to (\d),", text)
    assert m, text
    a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    return int(a), int(b)


def chosen(entry: NewPin, pin: str) -> None:
    for d in pin:
        for _ in range(int(d)):
            entry.act(NEXT)
        entry.act(OK)
    if len(pin) < entry.MAX:
        for _ in range(entry.DONE):                          # after 9 comes "done"
            entry.act(NEXT)
        entry.act(OK)


def test_doctor_the_menu_and_the_configuration_agree_on_the_pin_length() -> None:
    cfg = Config(validate({"service": {"pin": "2580"}}))
    advice = doctor.check_pin(cfg).fix
    menu = NewPin()
    low, high = said_range(advice)
    assert (low, high) == (menu.MIN, menu.MAX)
    with pytest.raises(ConfigError) as bad:
        configmod._pin_code("service.pin", "1" * (low - 1))
    assert said_range(str(bad.value)) == (low, high)
    configmod._pin_code("service.pin", "7" * low)           # the shortest the menu takes ...
    configmod._pin_code("service.pin", "7" * high)          # ... and the longest
    with pytest.raises(ConfigError):
        configmod._pin_code("service.pin", "7" * (high + 1))
    # the menu's new PIN of the fewest digits is one the configuration takes
    entry = NewPin()
    chosen(entry, "4" * menu.MIN)
    chosen(entry, "4" * menu.MIN)
    assert entry.result == "4" * menu.MIN
    assert configmod._pin_code("service.pin", entry.result) == entry.result
