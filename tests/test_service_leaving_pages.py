"""Leaving a service page with buzzers alone (issue 20, a newcomer's event day on buzzers):

* back on the menu the highlight stays on the row of the page just left: it went to the top
  row, "Button test", and the operator's usual hold opened the button test, which only the
  3 s two-buzzer combination leaves;
* the settings left with a long hold say what was not saved, and show the saved values when
  entered again (the unsaved 25 ms tie window still showed while the file said 20 ms);
* on a 480x320 display the LED matrix's advice is one short line on the pages other than the
  LED test (it took a quarter of every page: the settings showed 5 rows).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from test_event_day import MS, Day
from test_service_buzzers_only import combination, hold, long_hold, menu_to, open_service, row_to, tap
from test_service_combo_buzzers import install_sh_config

from kiosk.scenes.service.menu import ServiceScene
from kiosk.scenes.service.rows import MENU


@pytest.fixture
def day(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch)
    try:
        yield d
    finally:
        d.close()


def highlighted(svc: ServiceScene) -> str:
    assert svc.page == "menu"
    return MENU[svc.cursor][0]


@pytest.mark.parametrize("what", ["led", "sound", "settings", "pin", "reset", "restart", "shutdown"])
def test_back_on_the_menu_the_highlight_stays_on_the_page_just_left(day: Day, what: str) -> None:
    d = day
    svc = open_service(d)
    menu_to(d, svc, what)
    assert svc.page != "menu"
    long_hold(d)                                   # back (a question: "No")
    assert highlighted(svc) == what
    hold(d)                                        # the operator's usual hold: the same page again
    assert svc.page != "buttons"
    assert svc.page == {"reset": "confirm", "restart": "confirm", "shutdown": "confirm"}.get(what, what)
    assert d.app.running


def test_the_back_rows_and_the_combination_keep_the_highlight_too(day: Day) -> None:
    d = day
    svc = open_service(d)
    menu_to(d, svc, "sound")
    row_to(d, svc, svc.rows().index("Back"))
    hold(d)
    assert highlighted(svc) == "sound"
    menu_to(d, svc, "led")
    row_to(d, svc, svc.rows().index("Back"))
    hold(d)
    assert highlighted(svc) == "led"
    menu_to(d, svc, "buttons")
    combination(d)
    d.frames(10, 50 * MS)
    assert highlighted(svc) == "buttons"


def tie_window_in_file(d: Day) -> int:
    data = tomllib.loads(Path(d.cfg.source).read_text())
    return int(data.get("judge", {}).get("tie_window_ms", d.app.cfg["judge"]["tie_window_ms"]))


def test_settings_left_unsaved_say_so_and_show_the_saved_values_again(day: Day) -> None:
    d = day
    svc = open_service(d)
    assert tie_window_in_file(d) == 20
    menu_to(d, svc, "settings")
    assert svc.rows()[0] == "Tie window" and svc._value_text(0) == "20 ms"
    hold(d)                                        # change it
    tap(d)                                         # 25 ms
    long_hold(d)                                   # keep it
    assert svc._value_text(0) == "25 ms" and not svc.editing
    long_hold(d)                                   # back to the menu, not saved
    assert highlighted(svc) == "settings"
    assert "Not saved" in svc.status and "Tie window stays 20 ms" in svc.status
    assert tie_window_in_file(d) == 20
    hold(d)                                        # the settings again: what the file says
    assert svc.page == "settings" and svc._value_text(0) == "20 ms"
    # saved: the value stays, nothing is called unsaved, the next opening shows it
    hold(d)
    tap(d)
    long_hold(d)
    row_to(d, svc, svc.rows().index("Save (in force after the restart)"))
    hold(d)
    assert svc.status.startswith("Saved to") and tie_window_in_file(d) == 25
    long_hold(d)
    assert highlighted(svc) == "settings" and "Not saved" not in svc.status
    hold(d)
    assert svc._value_text(0) == "25 ms"
    assert d.app.cfg["judge"]["tie_window_ms"] == 20          # in force after the restart
    long_hold(d)
    row_to(d, svc, [k for k, _ in MENU].index("close"))
    hold(d)
    assert not isinstance(d.top, ServiceScene)
    svc = open_service(d)                          # the menu opened again (no restart yet)
    menu_to(d, svc, "settings")
    assert svc._value_text(0) == "25 ms"
    long_hold(d)
    assert "Not saved" not in svc.status


def test_the_lobby_games_left_unsaved_go_back_too(day: Day) -> None:
    d = day
    svc = open_service(d)
    menu_to(d, svc, "settings")
    first = len(svc.rows()) - 3 - len(svc.all_games)
    row_to(d, svc, first)
    hold(d)                                        # the first game: not offered
    assert svc._value_text(first) == "no"
    row_to(d, svc, svc.rows().index("Back without saving"))
    hold(d)
    assert highlighted(svc) == "settings" and "Not saved" in svc.status and "games" in svc.status
    hold(d)
    assert svc._value_text(first) == "yes"


def unplugged(tmp_path: Path) -> Path:
    """The LED controller unplugged, and the cabinet's own PIN (no README-PIN advice)."""
    path = install_sh_config(tmp_path, lamps=True)
    text = re.sub(r'^port = "loop://"', 'port = "/dev/ttyUSB9-unplugged"', path.read_text(), flags=re.M)
    path.write_text(re.sub(r'^pin = "2580"', 'pin = "1357"', text, flags=re.M))
    return path


def test_at_480x320_the_led_advice_is_one_short_line_outside_the_led_test(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from text_fit import TextSeen

    from kiosk import render
    d = Day(unplugged(tmp_path), monkeypatch, size=(480, 320))
    seen = TextSeen(monkeypatch)
    seen.watch(d.screen)
    try:
        svc = open_service(d, "1357")
        d.frames(10, 100 * MS)
        assert d.app.led.attention() and not svc.status               # the matrix is not connected
        menu_to(d, svc, "settings")
        led = [text for text, _ in svc.status_lines() if text.startswith("LED")]
        assert led == ["LED matrix disconnected: see LED test"] or (
            len(led) == 1 and led[0].endswith(": see LED test")), svc.status_lines()
        assert render.font(28).size(led[0])[0] <= 480 - 40        # one line
        first, count, step = svc.list_window(320, len(svc.rows()))
        assert count >= 7, count                       # it was 5, "26 more below"
        seen.seen.clear()
        d.frames(1, 50 * MS)
        assert any(m == led[0] for m, *_ in seen.seen), seen.words()
        long_hold(d)
        menu_to(d, svc, "led")                     # the LED test: the whole advice
        d.frames(1, 50 * MS)
        whole = [text for text, _ in svc.status_lines() if text.startswith("LED")]
        assert whole == [d.app.led.attention()] and len(whole[0]) > len(led[0])
    finally:
        d.close()
