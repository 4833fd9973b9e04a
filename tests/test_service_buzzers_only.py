"""The service menu on kiosk/install.sh's configuration (four GPIO buzzers, no left/right/OK/X,
kiosk mode) on gpiozero MockFactory pins and a virtual clock, worked with buzzer gestures alone:
tap (under 0.6 s), hold (0.6 to 2 s) and long hold (2 s and more), judged when the buzzer is
let go (issue 20).

* The button test stays until the operator leaves it with the opening combination (it closed
  1.2 s after the hold that opened it).
* Every setting can be set to each of its values, down as well as up (a tap steps, a hold
  turns the direction round, the end of the range turns it too; a long hold keeps the value).
* A long hold never does what a hold does first (a long hold on "Save and restart now"
  restarted the arcade).
* The screens name the buzzer gestures, and while a buzzer is held what letting go does.
* The operator changes the PIN (saved to the configuration file); the lock after three wrong
  PINs survives a restart and grows with each lock; the guests in the lobby under it never see
  a "stuck" message.
"""

from __future__ import annotations

import tomllib
import types
from pathlib import Path
from typing import Any

import pytest
from test_event_day import BUZZ, MS, Day
from test_service_combo_buzzers import install_sh_config
from text_fit import language_fixture  # noqa: F401  (the fixture "language")

import kiosk.scenes.service.pin as service_pin
from kiosk.persist.highscores import score_rule
from kiosk.scenes.lobby import LobbyScene
from kiosk.scenes.service.menu import ServiceScene
from kiosk.scenes.service.pin import PinScene
from kiosk.scenes.service.rows import FAST_TAP_NS, MENU, SETTINGS

TAP_MS, HOLD_MS, LONG_MS = 120, 900, 2600


class Wall:
    """A wall clock for the PIN lock that goes on across a restart of the arcade."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.base = 1_800_000_000.0
        self.day: Day | None = None
        self.day_t0 = 0
        monkeypatch.setattr(service_pin, "time", types.SimpleNamespace(time=self.now))

    def follow(self, day: Day) -> None:
        if self.day is not None:
            self.base = self.now()
        self.day, self.day_t0 = day, day.clock.t

    def now(self) -> float:
        assert self.day is not None
        return self.base + (self.day.clock.t - self.day_t0) / 1e9


def tap(d: Day, seat: int = 0) -> None:
    d.press(BUZZ[seat], TAP_MS)


def hold(d: Day, seat: int = 0) -> None:
    d.press(BUZZ[seat], HOLD_MS)


def long_hold(d: Day, seat: int = 0) -> None:
    d.press(BUZZ[seat], LONG_MS)


def combination(d: Day) -> None:
    d.hold([BUZZ[0], BUZZ[1]], 3.2)


def enter_pin(d: Day, pin: str) -> None:
    """The PIN with P1's buzzer: a tap for each step of a digit, a hold takes it."""
    for digit in pin:
        for _ in range(int(digit)):
            tap(d)
        hold(d)


def open_service(d: Day, pin: str = "2580") -> ServiceScene:
    d.app.home()
    d.frames(2)
    combination(d)
    assert isinstance(d.top, PinScene)
    d.frames(10, 50 * MS)
    enter_pin(d, pin)
    assert isinstance(d.top, ServiceScene), d.app.messages
    return d.top


def menu_to(d: Day, svc: ServiceScene, what: str) -> None:
    target = [k for k, _ in MENU].index(what)
    while svc.cursor != target:
        tap(d)
    hold(d)


def row_to(d: Day, svc: ServiceScene, i: int) -> None:
    while svc.cursor != i:
        tap(d)


@pytest.fixture
def day(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch)
    try:
        yield d
    finally:
        d.close()


def test_the_button_test_stays_until_the_operator_holds_the_combination(day: Day) -> None:
    d = day
    svc = open_service(d)
    menu_to(d, svc, "buttons")
    assert svc.page == "buttons"
    d.frames(40, 50 * MS)                         # 2 s after the hold that opened it
    assert svc.page == "buttons"
    # every buzzer is under test: taps, holds and long holds of any seat change no page
    for seat in range(4):
        tap(d, seat)
        hold(d, seat)
        long_hold(d, seat)
    d.pin(BUZZ[2]).drive_low()
    d.frames(20 * 4, 250 * MS)                    # 20 s with P3 held down
    d.pin(BUZZ[2]).drive_high()
    d.frames(2)
    assert isinstance(d.top, ServiceScene) and svc.page == "buttons"
    assert svc.buttons.controls[(3, "buzzer")].presses == 3 and svc.buttons.controls[(2, "buzzer")].presses == 4
    assert "P1 buzzer + P2 buzzer for 3 s" in svc.hint()        # the way out, on the screen
    combination(d)
    assert isinstance(d.top, ServiceScene) and svc.page == "menu"
    d.frames(10, 50 * MS)
    assert isinstance(d.top, ServiceScene) and svc.page == "menu"   # the combination's release did nothing


def test_the_volume_goes_down_as_well_as_up_with_buzzer_taps(day: Day) -> None:
    d = day
    svc = open_service(d)
    menu_to(d, svc, "sound")
    assert svc.page == "sound" and svc.cursor == 0
    hold(d)                                        # change the volume
    assert svc.editing and svc.values[("sound", "volume")] == 0.8
    seen = [svc.values[("sound", "volume")]]
    for _ in range(4):                             # up to 1.0, where it turns round, then down
        tap(d)
        seen.append(svc.values[("sound", "volume")])
    assert seen == [0.8, 0.9, 1.0, 0.9, 0.8]
    hold(d)                                        # turn round: up again
    tap(d)
    assert svc.values[("sound", "volume")] == 0.9
    hold(d)                                        # and down, to the bottom
    for _ in range(9):
        tap(d)
    assert svc.values[("sound", "volume")] == 0.0
    tap(d)                                         # the end of the range turns it round
    assert svc.values[("sound", "volume")] == pytest.approx(0.1)
    long_hold(d)                                   # keeps it
    assert not svc.editing and svc.page == "sound"
    long_hold(d)                                   # back to the menu: the volume is saved
    assert svc.page == "menu"
    assert d.app.cfg["sound"]["volume"] == pytest.approx(0.1)


def test_every_setting_reaches_each_of_its_values_with_buzzer_actions(day: Day) -> None:
    """Taps and holds as the scene gets them (the gestures are the test above): from its
    starting value every value of every setting's range comes up, down as well as up."""
    d = day
    svc = open_service(d)
    menu_to(d, svc, "settings")
    for i, s in enumerate(SETTINGS):
        svc.cursor = i
        svc.act("ok", buzzer=True)
        assert svc.editing
        check = s.checker()
        k = (s.section, s.key)
        start = svc.values[k]
        choices = getattr(check, "choices", None)
        if choices:
            values = set(choices)
        else:
            n = round((check.high - check.low) / s.step)
            values = {round(check.low + j * s.step, 4) for j in range(n + 1)} | {check.high}
            values = {int(v) if check.integer else v for v in values if check.low <= v <= check.high}
        seen = {start}
        went_down = False
        for _ in range(2 * len(values) + 2):
            before = svc.values[k]
            svc.now += FAST_TAP_NS + 10 ** 8    # slow taps: one step each (quick ones go further)
            svc.act("next", buzzer=True)
            seen.add(svc.values[k])
            went_down |= not choices and svc.values[k] < before
        assert values <= {round(v, 4) if isinstance(v, float) else v for v in seen}, s.key
        assert choices or went_down, s.key
        svc.act("ok", buzzer=True)                 # a hold turns the direction round ...
        before = svc.values[k]
        svc.act("next", buzzer=True)
        assert choices or svc.values[k] != before
        svc.act("back", buzzer=True)               # ... a long hold keeps the value
        assert not svc.editing and svc.page == "settings"


def test_a_long_hold_goes_back_without_choosing_the_row_first(day: Day) -> None:
    d = day
    svc = open_service(d)
    menu_to(d, svc, "settings")
    row_to(d, svc, svc.rows().index("Save and restart now"))
    long_hold(d)
    assert d.app.running and d.app.exit_code == 0       # nothing was saved or restarted
    assert svc.page == "menu"
    row_to(d, svc, [k for k, _ in MENU].index("buttons"))
    long_hold(d)                                         # on "Button test": closes the menu
    assert not isinstance(d.top, ServiceScene)


def test_the_screens_name_the_buzzer_gestures_and_what_letting_go_does(day: Day) -> None:
    d = day
    d.app.home()
    d.frames(2)
    combination(d)
    pin = d.top
    assert isinstance(pin, PinScene)
    d.frames(10, 50 * MS)
    assert pin.hint() == "tap: next digit   hold: take it   hold 2 s: back"     # no left/right/OK here
    d.pin(BUZZ[0]).drive_low()
    d.frames(16, 50 * MS)
    assert pin.hint().startswith("P1 held 0.8 s: let go to take it")
    d.pin(BUZZ[0]).drive_high()
    d.frames(2)
    d.app.pop()
    svc = open_service(d)
    assert svc.hint() == "tap: next row   hold: choose   hold 2 s: back"
    assert "README" in svc.status                      # the default PIN: choose your own
    menu_to(d, svc, "sound")
    hold(d)
    assert svc.hint() == "tap: +10%   hold: turn round   hold 2 s: keep the value"
    tap(d)
    tap(d)                                             # 1.0: turned round
    assert svc.hint().startswith("tap: -10%")
    d.pin(BUZZ[0]).drive_low()
    d.frames(44, 50 * MS)
    assert svc.hint().startswith("P1 held 2.") and svc.hint().endswith("let go to keep the value")
    d.pin(BUZZ[0]).drive_high()
    d.frames(2)
    assert not svc.editing


def test_the_operator_changes_the_pin_with_buzzers_and_the_new_one_opens_the_menu(day: Day) -> None:
    d = day
    svc = open_service(d)
    menu_to(d, svc, "pin")
    assert svc.page == "pin"
    enter_pin(d, "2580")                               # the README's PIN is refused
    for _ in range(10):
        tap(d)                                         # 0 1 ... 9 OK
    hold(d)
    assert svc.newpin is not None and "README" in svc.newpin.problem and svc.newpin.stage == "new"
    long_hold(d)                                       # takes back the digit being chosen... none: leaves
    assert svc.page == "menu" and "not changed" in svc.status
    menu_to(d, svc, "pin")
    enter_pin(d, "1357")
    for _ in range(10):
        tap(d)
    hold(d)                                            # done: enter it again
    assert svc.newpin is not None and svc.newpin.stage == "again"
    enter_pin(d, "1357")
    for _ in range(10):
        tap(d)
    hold(d)
    assert svc.page == "menu" and "New PIN saved" in svc.status
    saved = tomllib.loads(Path(d.cfg.source).read_text())
    assert saved["service"]["pin"] == "1357" and saved["display"]["kiosk"] is True
    long_hold(d)                                       # leave the menu
    assert not isinstance(d.top, ServiceScene)
    d.app.home()
    d.frames(2)
    combination(d)
    d.frames(10, 50 * MS)
    enter_pin(d, "2580")                               # the old PIN no longer opens it
    assert isinstance(d.top, PinScene) and d.top.lock.wrong == 1
    enter_pin(d, "1357")
    assert isinstance(d.top, ServiceScene)


def wrong_pins(d: Day, n: int = 3) -> None:
    for _ in range(n):
        assert isinstance(d.top, PinScene)
        enter_pin(d, "1111")


def test_the_pin_lock_survives_a_restart_and_grows_with_each_lock(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = install_sh_config(tmp_path, lamps=True)
    wall = Wall(monkeypatch)
    d = Day(path, monkeypatch)
    wall.follow(d)
    try:
        d.app.home()
        d.frames(2)
        combination(d)
        d.frames(10, 50 * MS)
        wrong_pins(d)
        assert not isinstance(d.top, PinScene)
        assert any("locked for 1 minute" in m for m, _ in d.app.messages)
    finally:
        d.close()
    assert (tmp_path / "service-lock.json").exists()
    d = Day(path, monkeypatch)                          # a restart (or a power cut)
    wall.follow(d)
    try:
        d.app.home()
        d.frames(2)
        combination(d)
        d.frames(2)
        assert not isinstance(d.top, PinScene)          # still locked after the restart
        assert any("locked for 1 minute more" in m for m, _ in d.app.messages)
        d.frames(61 * 4, 250 * MS)
        d.app.home()
        d.frames(2)
        combination(d)
        d.frames(10, 50 * MS)
        assert isinstance(d.top, PinScene)              # the minute is over
        wrong_pins(d)
        assert any("locked for 2 minutes" in m for m, _ in d.app.messages)   # the second lock: longer
        d.frames(70 * 4, 250 * MS)
        d.app.home()
        d.frames(2)
        combination(d)
        d.frames(2)
        assert not isinstance(d.top, PinScene)
        d.frames(60 * 4, 250 * MS)
        d.app.home()
        d.frames(2)
        combination(d)
        d.frames(10, 50 * MS)
        enter_pin(d, "2580")                            # the right PIN ends the row of locks
        assert isinstance(d.top, ServiceScene)
        assert d.top is not None and service_pin.pin_lock(d.app).locks == 0
    finally:
        d.close()


def test_a_clock_set_back_never_makes_the_lock_longer_than_its_length(tmp_path: Path) -> None:
    from kiosk.service.tools import PinLock
    now = [1_800_000_000.0]
    lock = PinLock(tmp_path / "lock.json", clock=lambda: now[0])
    for _ in range(3):
        lock.wrong_pin()
    assert lock.remaining() == 60.0
    now[0] -= 86_400                                    # the Pi's clock went back a day
    again = PinLock(tmp_path / "lock.json", clock=lambda: now[0])
    assert again.remaining() == 60.0 and again.locks == 1
    (tmp_path / "lock.json").write_text("{not json")
    broken = PinLock(tmp_path / "lock.json", clock=lambda: now[0])
    assert broken.remaining() == 0.0 and "could not be read" in broken.problem


def test_guests_who_reach_the_pin_from_the_lobby_never_see_a_stuck_message(day: Day) -> None:
    """Two guests holding their buzzers from the title: the lobby opens with P1 joined, P2
    joins, the PIN screen comes over the lobby, three wrong PINs lock it.  The lobby said
    "P1, P2: buzzer held down for 27 s (stuck?)": the releases had gone to the PIN screen.
    Then it started a game with P1 and P2 nobody had asked for: the title comes back
    instead (issue 20)."""
    from kiosk.scenes.attract import AttractScene
    d = day
    d.app.home()
    d.frames(2)
    d.pin(BUZZ[0]).drive_low()
    d.frames(2)
    d.pin(BUZZ[1]).drive_low()
    d.frames(70, 50 * MS)
    assert isinstance(d.top, PinScene) and isinstance(d.app.scenes[-2], LobbyScene)
    d.pin(BUZZ[0]).drive_high()
    d.pin(BUZZ[1]).drive_high()
    d.frames(10, 50 * MS)
    wrong_pins(d)
    shown: list[str] = []
    for _ in range(30 * 4):
        d.frames(1, 250 * MS)
        shown += [m for m, _ in d.app.messages]
    assert not any("stuck" in m for m in shown), shown
    assert any("locked" in m for m in shown), shown
    assert isinstance(d.top, AttractScene) and len(d.app.scenes) == 1     # no game nobody asked for


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_gesture_lines_and_the_pin_page_fit_every_display(size: tuple[int, int], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """The hints, the "let go" lines and the Change-the-PIN page are drawn whole (tests/text_fit.py),
    in every language the arcade speaks (issue 26)."""
    from text_fit import TextSeen, cut_texts
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch, size=size)
    seen = TextSeen(monkeypatch)
    seen.watch(d.screen)
    bad: dict[str, Any] = {}

    def look(where: str, n: int = 2) -> None:
        for _ in range(n):
            seen.seen.clear()
            d.frames(1, 50 * MS)
            for msg, r in cut_texts(seen, d.screen).items():
                bad.setdefault(f"{where}: {msg}", r)

    def held(where: str, seconds: float) -> None:
        d.pin(BUZZ[0]).drive_low()
        d.frames(int(seconds * 20), 50 * MS)
        look(where)
        d.pin(BUZZ[0]).drive_high()
        d.frames(2)

    try:
        d.app.home()
        d.frames(2)
        combination(d)
        d.frames(10, 50 * MS)
        look("pin")
        d.app.pop()
        svc = open_service(d)
        look("menu")
        held("menu held", 0.8)                         # a hold: chooses "Button test"
        look("buttons")
        combination(d)
        d.frames(10, 50 * MS)                          # a person lets go, then presses again
        svc.cursor = [k for k, _ in MENU].index("settings")
        hold(d)
        look("settings")
        hold(d)                                        # editing the tie window
        look("editing")
        held("editing held", 2.2)                      # a long hold keeps it
        svc.cursor = 0
        long_hold(d)
        menu_to(d, svc, "pin")
        enter_pin(d, "2580")
        for _ in range(10):
            tap(d)
        hold(d)                                        # refused: the problem line
        look("pin page refused")
        enter_pin(d, "4680")
        for _ in range(10):
            tap(d)
        hold(d)
        look("pin page again")
        assert not bad, "\n".join(f"{m!r}: {r}" for m, r in bad.items())
    finally:
        d.close()


def test_the_led_page_and_a_confirmation_with_buzzers_alone(day: Day) -> None:
    from kiosk.scenes.service.rows import LED_PATTERNS
    d = day
    d.app.highscores.add("sherlook", "ACE", 12)
    svc = open_service(d)
    menu_to(d, svc, "led")
    assert svc.page == "led" and LED_PATTERNS[svc.pattern] == "seat colours"
    tap(d)
    assert LED_PATTERNS[svc.pattern] == "walking pixel"           # a tap shows the next pattern
    long_hold(d)
    assert svc.page == "menu"
    menu_to(d, svc, "reset")
    assert svc.page == "confirm" and svc.cursor == 0               # "No" first
    long_hold(d)                                                  # back: nothing deleted
    assert svc.page == "menu" and d.app.highscores.table("sherlook", score_rule("sherlook", "classic"))
    menu_to(d, svc, "reset")
    tap(d)                                                        # "Yes"
    hold(d)
    assert svc.status == "1 high score deleted"           # one score: the singular (issue 26, ngettext)
    menu_to(d, svc, "close")
    assert not isinstance(d.top, ServiceScene)


@pytest.mark.parametrize("size", [(480, 320), (800, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_pin_screen_hides_the_lobby_the_combination_opened(size: tuple[int, int], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The combination from the title opens the lobby (P1 and P2 joined) and the PIN over it.
    Leaving the PIN goes back to the title, never to that lobby, so the lobby must not show
    behind it as if about to start: before, "Starting in 7 s" and "P1 ... JOINED" stood still
    around the PIN panel (issue 20).  Only the PIN screen is drawn."""
    from text_fit import TextSeen
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch, size=size)
    seen = TextSeen(monkeypatch)
    seen.watch(d.screen)
    try:
        d.app.home()
        d.frames(2)
        combination(d)
        assert isinstance(d.top, PinScene) and isinstance(d.app.scenes[-2], LobbyScene)
        for _ in range(3):
            seen.seen.clear()
            d.frames(1, 50 * MS)
            texts = " | ".join(str(s[0]) for s in seen.seen)
            assert "Service PIN" in texts
            assert "Starting in" not in texts and "JOINED" not in texts and "Lobby" not in texts, texts
        corner = d.screen.get_at((4, 4))                   # the lobby's title and rows are veiled whole
        from kiosk import render
        assert tuple(corner)[:3] == tuple(render.BG)[:3]
    finally:
        d.close()
