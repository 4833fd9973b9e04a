"""The language chosen in the service menu with one buzzer (issue 26: "changeable in the service
menu with buzzers alone"), and what the service pages show from outside the service scenes (the
LED line, the power commands' refusals) in the language the screens speak, while the journal
stays English for the technician.

On kiosk/install.sh's configuration (four GPIO buzzers, no left/right/OK/X, kiosk mode), mock
pins and a virtual clock: the operator taps to the "Language" row of Settings, holds to change
it, taps to "Українська", long-holds to keep it, taps to "Save" and holds.  The next frame of the
menu is in Ukrainian, the file says ``language = "uk"`` with its comments kept, and the menu, the
title screen after it and the PIN screen the next time speak it; "System (English)" brings
English back.
"""

from __future__ import annotations

import logging
import re
import tomllib
from pathlib import Path

import pytest
from test_event_day import MS, Day
from test_service_buzzers_only import combination, enter_pin, hold, long_hold, menu_to, open_service, row_to, tap
from test_service_combo_buzzers import install_sh_config
from text_fit import TextSeen, compiled, cut_texts

from arcade import i18n
from kiosk.config import load_or_default, read_last_good
from kiosk.scenes.service.menu import ServiceScene
from kiosk.scenes.service.pin import PinScene
from kiosk.scenes.service.rows import SETTINGS, language_setting

UK = i18n.translator("uk")


@pytest.fixture
def english_system(monkeypatch: pytest.MonkeyPatch) -> object:
    """The system's locale names English; the arcade speaks English again after the test."""
    compiled("uk")
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    i18n.use("en")
    yield None
    i18n.use("en")


def words(seen: TextSeen) -> list[str]:
    return [m for m, *_ in seen.seen]


def frame(d: Day, seen: TextSeen) -> list[str]:
    """The words of the next frame."""
    seen.seen.clear()
    d.frames(1, 50 * MS)
    return words(seen)


def to_language(d: Day, svc: ServiceScene, seen: TextSeen, code: str) -> None:
    """On the settings page: taps to the Language row, a hold to change it, taps until ``code``
    shows, a long hold keeps it, taps to "Save (in force after the restart)", a hold saves."""
    row = SETTINGS.index(language_setting())
    row_to(d, svc, row)
    hold(d)
    assert svc.editing
    for _ in range(len(i18n.LANGUAGES) + 1):
        if svc.values[("display", "language")] == code:
            break
        tap(d)
    assert svc.values[("display", "language")] == code
    shown = language_setting().show(code)
    assert f"< {shown} >" in frame(d, seen)                     # the choice, by its own name
    long_hold(d)
    assert not svc.editing
    row_to(d, svc, len(SETTINGS) + len(svc.all_games))         # "Save (in force after the restart)"
    hold(d)


def test_the_operator_chooses_ukrainian_with_one_buzzer_and_the_menu_speaks_it_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, english_system: object,
        caplog: pytest.LogCaptureFixture) -> None:
    path = install_sh_config(tmp_path, lamps=True)
    comments = [line for line in path.read_text().splitlines() if line.lstrip().startswith("#")]
    d = Day(path, monkeypatch, size=(800, 480))
    seen = TextSeen(monkeypatch)
    seen.watch(d.screen)
    caplog.set_level(logging.INFO, logger="focus-arcade")
    try:
        svc = open_service(d)
        menu_to(d, svc, "settings")
        row_to(d, svc, SETTINGS.index(language_setting()))
        drawn = frame(d, seen)
        assert "Language" in drawn and "System (English)" in drawn       # what the system gives
        to_language(d, svc, seen, "uk")
        # the next frame of the menu is in Ukrainian: its title, its rows, what Save said
        assert i18n.current() == "uk"
        drawn = frame(d, seen)
        assert UK.gettext("Settings") in drawn and UK.gettext("Save (in force after the restart)") in drawn
        assert "Settings" not in drawn and "Save (in force after the restart)" not in drawn
        assert svc.status == UK.gettext("Saved to {path}; the language is in force now").format(path=path)
        assert not cut_texts(seen, d.screen)
        row_to(d, svc, SETTINGS.index(language_setting()))
        drawn = frame(d, seen)
        assert UK.gettext("Language") in drawn and "Українська" in drawn and UK.gettext("Volume") in drawn
        # saved through the service menu's save: the key set, the installer's comments kept
        text = path.read_text()
        assert tomllib.loads(text)["display"]["language"] == "uk"
        assert [line for line in text.splitlines() if line.lstrip().startswith("#")] == comments
        assert "language: uk (from [display] language), saved in the service menu" in caplog.text
        # the language is an ordinary setting: the save made it the last good copy, and a hand edit
        # of it later is taken as it is (not held at the copy's, as kiosk mode or the PIN would be)
        assert read_last_good(path)["display"]["language"] == "uk"
        long_hold(d)                                                      # back to the menu
        assert svc.page == "menu" and UK.gettext("Service menu") in frame(d, seen)
        long_hold(d)                                                      # leave it: the title
        assert not isinstance(d.top, ServiceScene)
        d.frames(20, 50 * MS)
        combination(d)                                                    # the PIN screen: Ukrainian
        assert isinstance(d.top, PinScene)
        d.frames(10, 50 * MS)
        assert d.top.hint() == UK.gettext("tap: next digit   hold: take it   hold 2 s: back")
        enter_pin(d, "2580")
        svc = d.top
        assert isinstance(svc, ServiceScene)
        menu_to(d, svc, "settings")
        row_to(d, svc, SETTINGS.index(language_setting()))
        assert "Українська" in frame(d, seen)
        to_language(d, svc, seen, "")                    # "System (English)", in Ukrainian: English again
        assert i18n.current() == "en"
        drawn = frame(d, seen)
        assert "Settings" in drawn and "Save (in force after the restart)" in drawn and UK.gettext("Settings") not in drawn
        assert tomllib.loads(path.read_text())["display"]["language"] == ""
    finally:
        d.close()
    edited = re.sub(r'(?m)^language = ""', 'language = "uk"', path.read_text())
    assert edited != path.read_text()
    path.write_text(edited)
    cfg = load_or_default(path)
    assert cfg.held == [] and cfg.problems == [] and cfg.language() == "uk"


def test_the_language_row_steps_through_the_system_and_every_language(english_system: object) -> None:
    s = language_setting()
    assert s.checker().choices == ("", *i18n.LANGUAGES)
    assert [s.show(c) for c in s.checker().choices] == ["System (English)", "English", "Українська"]
    assert s.stepped("uk", 1) == "" and s.stepped("", -1) == "uk"
    i18n.use("uk")
    assert s.shown_label() == UK.gettext("Language") != "Language"
    assert s.show("") == UK.gettext("System ({language})").format(language="English")
    assert s.show("en") == "English"                                       # each by its own name


def test_the_settings_page_says_the_skill_and_decimals_in_the_language_spoken(english_system: object) -> None:
    """The "Computer skill" row says the lobby's word for the skill, and the LED brightness its
    decimal mark, in Ukrainian: "середній", "0,6", never "medium" or "0.6" (issue 26's screenshots)."""
    skill = next(x for x in SETTINGS if x.key == "computer_skill")
    bright = next(x for x in SETTINGS if x.key == "brightness")
    assert (skill.show("medium"), bright.show(0.6)) == ("medium", "0.6")
    i18n.use("uk")
    assert skill.show("medium") == UK.pgettext("skill", "medium") != "medium"
    assert bright.show(0.6) == "0,6" and bright.show(1.0) == "1"


def test_check_config_and_the_start_of_the_log_name_the_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str],
                                                                  english_system: object,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    from kiosk import cli
    path = tmp_path / "arcade.toml"
    path.write_text(f'[display]\nlanguage = ""\n[storage]\npath = "{tmp_path / "store.sqlite3"}"\n'
                    '[led]\nport = "none"\n', "utf-8")
    assert cli.main(["check-config", str(path)]) == 0
    assert "language: en (the system locale names no language the arcade speaks)" in capsys.readouterr().out
    monkeypatch.setenv("LANG", "uk_UA.UTF-8")
    assert cli.main(["check-config", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{path}: OK" and "language: uk (from the system locale)" in out
    path.write_text(path.read_text().replace('language = ""', 'language = "en"'))
    assert cli.main(["check-config", str(path)]) == 0
    assert "language: en (from [display] language)" in capsys.readouterr().out
    path.write_text(path.read_text().replace('language = "en"', 'language = "uk"'))
    caplog.set_level(logging.INFO, logger="focus-arcade")
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch, size=(480, 320))
    try:
        assert "language: uk (from the system locale)" in caplog.text     # the arcade's start
    finally:
        d.close()


# -- what the service pages show from outside the service scenes, in the screen's language ------
def unplugged(tmp_path: Path) -> Path:
    """The LED controller unplugged, and the cabinet's own PIN."""
    path = install_sh_config(tmp_path, lamps=True)
    text = re.sub(r'^port = "loop://"', 'port = "/dev/ttyUSB9-unplugged"', path.read_text(), flags=re.M)
    path.write_text(re.sub(r'^pin = "2580"', 'pin = "1357"', text, flags=re.M))
    return path


def test_the_led_advice_the_link_gives_is_in_the_catalog() -> None:
    """Every advice firmware_bridge/link.py's ``advice_for`` can give is marked for the catalog
    (kiosk/output/led.py ``ADVICE``), so the LED line is said whole in the screen's language."""
    import ast
    import inspect

    from firmware_bridge import link
    from kiosk.output.led import ADVICE
    tree = ast.parse(inspect.getsource(link.advice_for))
    given = {node.value for ret in ast.walk(tree) if isinstance(ret, ast.Return)
             for node in ast.walk(ret) if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value}
    assert len(given) >= 10 and given <= set(ADVICE), given - set(ADVICE)
    compiled("uk")
    assert all(UK.gettext(a) != a for a in ADVICE)


def test_the_led_line_of_the_service_pages_speaks_ukrainian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            english_system: object) -> None:
    """At 480x320 the menu's pages show the LED matrix's state and where the rest is, the LED test
    the whole line with its advice: in Ukrainian, worded from the LED output's facts (the panel
    looked for an English "LED matrix" at the start of the line; in Ukrainian it said "a problem")."""
    monkeypatch.setenv("LANGUAGE", "uk")
    d = Day(unplugged(tmp_path), monkeypatch, size=(480, 320))
    seen = TextSeen(monkeypatch)
    seen.watch(d.screen)
    try:
        assert i18n.current() == "uk"
        svc = open_service(d, "1357")
        d.frames(10, 100 * MS)
        trouble = d.app.led.trouble()
        assert trouble is not None and trouble.state in ("disconnected", "searching")
        menu_to(d, svc, "settings")
        short = UK.gettext("LED matrix {state}: see LED test").format(state=UK.pgettext("LED link", trouble.state))
        assert [text for text, _ in svc.status_lines()] == [short]
        assert short in frame(d, seen) and short.startswith("LED-матриця: ")
        long_hold(d)
        menu_to(d, svc, "led")
        whole = UK.gettext("LED matrix {state} ({port}): {advice}").format(
            state=UK.pgettext("LED link", trouble.state), port=trouble.port, advice=UK.gettext(trouble.advice))
        assert [text for text, _ in svc.status_lines()] == [whole] and "під'єднайте USB-кабель" in whole
        drawn = " ".join(frame(d, seen))
        assert "під'єднайте" in drawn and "plug in" not in drawn and "LED matrix" not in drawn
        assert not cut_texts(seen, d.screen)
    finally:
        d.close()


def test_a_refused_power_command_speaks_the_screens_language_and_the_journal_english(
        english_system: object, caplog: pytest.LogCaptureFixture) -> None:
    from kiosk.service import power
    i18n.use("uk")
    denied = power.refusal("shut down", "systemctl poweroff", 1, "Call to PowerOff failed: Access denied")
    assert denied == UK.gettext("The Pi refused to {what} ({last}). The polkit rule is missing: run sudo "
                                "kiosk/install.sh again").format(what=UK.pgettext("power action", "shut down"),
                                                                 last="Call to PowerOff failed: Access denied")
    assert "polkit" in denied and "sudo kiosk/install.sh" in denied and "refused" not in denied
    assert denied.english.startswith("The Pi refused to shut down (Call to PowerOff failed: Access denied).")
    got: list[str | None] = []
    r = power.Running("/nonexistent/poweroff now", "reboot", got.append)
    assert r.wait(5) and got[0] is not None
    assert got[0].startswith(UK.gettext("Could not {what}: {command} cannot be started ({last}); see [service] in "
                                        "the configuration").split("{what}")[0] + UK.pgettext("power action", "reboot"))
    assert "Could not reboot: '/nonexistent/poweroff now' cannot be started" in caplog.text   # the journal
    assert "Не вдалося" not in caplog.text


def test_the_journal_stays_english_whatever_the_screen_speaks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              english_system: object,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    """The notes on screen are Ukrainian, ``journalctl`` has them in English (grep-able): a wrong
    PIN, the lock, a command that could not start (posted from its thread), the results' note."""
    import kiosk.app.loop as kapp
    monkeypatch.setenv("LANGUAGE", "uk")
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch, size=(800, 480))
    caplog.set_level(logging.INFO, logger="focus-arcade")
    try:
        assert i18n.current() == "uk"
        d.app.home()
        d.frames(2)
        combination(d)
        d.frames(10, 50 * MS)
        enter_pin(d, "1111")
        notes = [m for m, _ in d.app.messages]
        shown = UK.ngettext("Wrong PIN ({n} try left)", "Wrong PIN ({n} tries left)", 2).format(n=2)
        assert shown in notes and "Wrong PIN" not in shown
        assert "Wrong PIN (2 tries left)" in caplog.text and shown not in caplog.text
        enter_pin(d, "1111")
        enter_pin(d, "1111")
        assert "Wrong PIN 3 times: the service menu is locked for 1 minute" in caplog.text
        d.app.run_command = kapp.App.run_command.__get__(d.app)    # type: ignore[method-assign]  # the real one
        d.app.run_command("/nonexistent/restart-it", "restart the arcade").wait(5)
        d.frames(2)
        refused = [m for m, _ in d.app.messages if "/nonexistent/restart-it" in m]
        assert refused and refused[0].startswith(UK.gettext("Could not {what}: {command} cannot be started ({last}); "
                                                            "see [service] in the configuration").split(" {what}")[0])
        warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert any(w.startswith("Could not restart the arcade: '/nonexistent/restart-it' cannot be started")
                   for w in warned), warned                           # Messages.add: its English
        assert not any(re.search("[а-яіїєґ]", w, re.I) for w in warned), warned
    finally:
        d.close()


def test_the_led_test_writes_its_numbers_and_no_port_in_the_language_spoken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, english_system: object) -> None:
    """The LED test's lines in Ukrainian (issue 26's screenshots): the frame rate and the
    brightness with the decimal comma ("0,0", "0,6"; were "0.0", "0.6") and a matrix switched
    off on purpose (``port = "none"``) as "Порт: немає", not the configuration's English "none"."""
    path = install_sh_config(tmp_path, lamps=True)
    text = re.sub(r'^port = "[^"]*"', 'port = "none"', path.read_text(), count=1, flags=re.M)
    path.write_text(re.sub(r"^brightness = .*$", "brightness = 0.6", text, flags=re.M))
    monkeypatch.setenv("LANGUAGE", "uk")
    d = Day(path, monkeypatch, size=(800, 480))
    seen = TextSeen(monkeypatch)
    seen.watch(d.screen)
    try:
        assert i18n.current() == "uk" and d.app.cfg["led"]["brightness"] == 0.6
        svc = open_service(d)
        menu_to(d, svc, "led")
        d.frames(10, 100 * MS)
        lines = [text for text, _col, _long in svc._link_lines()]
        port = next(line for line in lines if line.startswith("Порт: "))
        assert port.startswith("Порт: немає ") and "none" not in port, port
        fps = next(line for line in lines if line.startswith("Надіслано кадрів/с: "))
        assert re.match(r"Надіслано кадрів/с: \d+,\d ", fps) and "." not in fps, fps
        matrix = lines[-1]
        assert "яскравість 0,6," in matrix and "0.6" not in matrix, matrix
        drawn = frame(d, seen)
        assert port in drawn and fps in drawn and matrix in drawn
        assert not cut_texts(seen, d.screen)
        i18n.use("en")                                   # English keeps its point and says "none"
        lines = [text for text, _col, _long in svc._link_lines()]
        assert lines[1].startswith("Port: none ") and "brightness 0.6," in lines[-1]
        assert re.match(r"Frames/s sent: \d+\.\d ", lines[2]), lines[2]
    finally:
        d.close()


def test_the_sound_test_button_test_and_held_line_speak_ukrainian(english_system: object) -> None:
    """The sound test's rows name what each sound is for (were the English file names: «press»,
    «won», «debated»...), the button test's gaps and the held-buzzer line write decimals with a
    comma ("+120,0 мс", "0,8 с"; were "+120.0 мс", "0.8 с"), as the screenshots showed; English
    keeps the file names and the point."""
    from arcade.core.events import Edge
    from kiosk.scenes.service.button_page import edge_line
    from kiosk.scenes.service.rows import SOUNDS, sound_label
    from kiosk.service.tools import EdgeNote, held_line
    note = EdgeNote(Edge(5_300_700_000_000, 2, "buzzer", False, "gpio"), 120.0, False)
    assert [sound_label(s) for s in SOUNDS] == list(SOUNDS)
    assert "+120.0 ms" in edge_line(note) and "0.8 s" in held_line((0, "ok", 0.8))
    i18n.use("uk")
    shown = [sound_label(s) for s in SOUNDS]
    assert not set(shown) & set(SOUNDS) and len(set(shown)) == len(SOUNDS), shown
    assert all(re.fullmatch(r"[а-яіїєґ' ]+", s) for s in shown), shown
    assert "+120,0 мс" in edge_line(note) and "120.0" not in edge_line(note)
    held = held_line((0, "ok", 0.8))
    assert "0,8" in held and "0.8" not in held, held
