"""A whole event day on the kiosk, driven only through gpiozero MockFactory pins.

No key event is posted in the event-day tests: every press is a mock GPIO pin
driven low (active low, as the real buzzers and controls are wired), stamped on
the test's virtual clock, judged and routed by the app's own loop step.

Wiring in these tests (BCM):  buzzers P1-P8 17 27 22 23 24 25 5 6;
P1's left/right/OK/X 2 3 4 7; P2's 8 9 10 11; P3 and P4 are buzzer-only
stations; lamps in the buzzers of P1-P4 on 12 13 14 15.
"""

from __future__ import annotations

import argparse
import os
import types
from pathlib import Path
from typing import Any, Callable, Iterator

import pygame
import pytest
import tomli_w
from waiting import wait_until

import kiosk.app.loop as kapp
from kiosk.config import load_or_default
from kiosk.persist.highscores import score_rule
from kiosk.players.thinker import wait_shared_idle
from kiosk.scenes.attract import AttractScene
from kiosk.scenes.lobby import LobbyScene, lobby_games
from kiosk.scenes.results import ResultsScene
from kiosk.scenes.service.menu import ServiceScene
from kiosk.scenes.service.pin import PinScene
from kiosk.scenes.service.rows import LED_PATTERNS, MENU, SETTINGS, led_test_picture
from kiosk.service.stopping import EXIT_RESTART

MS = 1_000_000
S = 1_000_000_000

#: Set FOCUS_ARCADE_DOCS_SHOTS=1 to (re)write the screenshots in docs/ from these tests.
DOCS = Path(__file__).resolve().parent.parent / "docs"
SHOTS = os.environ.get("FOCUS_ARCADE_DOCS_SHOTS") == "1"


def docs_shot(screen: pygame.Surface, name: str) -> None:
    if SHOTS:
        pygame.image.save(screen, str(DOCS / name))

BUZZ = [17, 27, 22, 23, 24, 25, 5, 6]
P1 = {"left": 2, "right": 3, "ok": 4, "x": 7}
P2 = {"left": 8, "right": 9, "ok": 10, "x": 11}
LAMPS = [12, 13, 14, 15]


class Clock:
    def __init__(self) -> None:
        self.t = 5_000 * S

    def module(self) -> Any:
        import time as real
        return types.SimpleNamespace(monotonic_ns=lambda: self.t, monotonic=lambda: self.t / 1e9,
                                     perf_counter=real.perf_counter, time=real.time)


def event_config(tmp_path: Path, **extra: dict[str, Any]) -> Path:
    raw: dict[str, Any] = {
        "display": {"kiosk": True},
        "seats": {"stations": ["gpio", "gpio", "gpio", "gpio"], "computer_skill": "easy"},
        "gpio": {"pin_factory": "mock", "buzzers": BUZZ,
                 "controls": [list(P1.values()), list(P2.values())], "lamps": LAMPS},
        "led": {"port": "loop://"},
        "storage": {"path": str(tmp_path / "arcade.sqlite3")},
        "lobby": {"auto_start_s": 4},
        "attract": {"idle_s": 5, "demo_s": 10, "scores_s": 3},
        "focusx": {"pace_s": 0.5},
        "sackson": {"budget_s": 0.05, "move_pause_s": 0.0},
        "sherlook": {"round_limit_s": 5, "reveal_s": 1, "token_s": 0},
        "coop": {"think_s": 0.1, "peek_delay_s": 0.1},
    }
    for k, v in extra.items():
        raw.setdefault(k, {}).update(v)
    path = tmp_path / "arcade.toml"
    path.write_bytes(tomli_w.dumps(raw).encode())
    return path


class Day:
    """The app, its clock and its mock pins."""

    def __init__(self, path: Path, monkeypatch: pytest.MonkeyPatch,
                 size: tuple[int, int] = (1280, 720) if SHOTS else (960, 540), **args: Any) -> None:
        self.clock = Clock()
        monkeypatch.setattr(kapp, "time", self.clock.module())
        import gpiozero.pins.mock as mock
        monkeypatch.setattr(mock, "monotonic", lambda: self.clock.t / 1e9)   # pin stamps on the virtual clock
        pygame.init()
        self.screen = pygame.display.set_mode(size)
        self.cfg = load_or_default(path)
        assert self.cfg.problems == []
        self.app = kapp.App(self.cfg, self.screen,
                            argparse.Namespace(**{"command": None, "screenshot_dir": "", "frames": 0, **args}))
        self.commands: list[str] = []
        self.app.run_command = lambda cmd, *what: self.commands.append(cmd)  # type: ignore[method-assign]  # never a real poweroff
        assert self.app.gpio is not None and self.app.lamps is not None
        self.factory = self.app.gpio._factory
        pygame.event.clear()

    def pin(self, n: int) -> Any:
        return self.factory.pin(n)

    def frames(self, n: int, step_ns: int = 16_666_667, until: Callable[[], bool] | None = None) -> bool:
        for _ in range(n):
            wait_shared_idle()             # the virtual clock never outruns the thinking worker
            self.app.step(self.clock.t)
            self.clock.t += step_ns
            if until is not None and until():
                return True
        return until() if until is not None else True

    def press(self, pin: int, hold_ms: float = 80) -> None:
        self.pin(pin).drive_low()
        self.frames(1, int(hold_ms * MS))
        self.pin(pin).drive_high()
        self.frames(1, 60 * MS)            # a person's next press comes later than a bounce

    def hold(self, pins: list[int], seconds: float) -> None:
        for p in pins:
            self.pin(p).drive_low()
        self.frames(int(seconds * 20) + 2, 50 * MS)
        for p in pins:
            self.pin(p).drive_high()
        self.frames(1)

    @property
    def top(self) -> Any:
        return self.app.scenes[-1]

    def close(self) -> None:
        self.app.close()
        pygame.display.quit()


@pytest.fixture
def day(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Day]:
    d = Day(event_config(tmp_path), monkeypatch)
    try:
        yield d
    finally:
        d.close()


def lamp_states(d: Day) -> list[bool]:
    assert d.app.lamps.flush()                   # the lamps' worker thread has set the pins
    return [bool(d.pin(p).state) for p in LAMPS]


def choose_game(d: Day, family: str, mode: str) -> LobbyScene:
    """P1's right control until the lobby's game row shows family:mode."""
    lobby = d.top
    assert isinstance(lobby, LobbyScene) and lobby.row == 0
    for _ in range(len(lobby.games) + 1):
        g = lobby.games[lobby.game_i]
        if (g.family, g.mode) == (family, mode):
            return lobby
        d.press(P1["right"])
    raise AssertionError(f"{family}:{mode} never came up")


def test_attract_loop_plays_every_family_then_a_buzzer_opens_the_lobby(day: Day) -> None:
    d, app = day, day.app
    app.home()
    d.frames(3)
    assert isinstance(d.top, AttractScene) and app.attract is None
    # idle for idle_s: the loop starts with a demo game played by computers
    assert d.frames(200, 50 * MS, until=lambda: app.is_game(d.top))
    assert app.attract_demo and all(s.is_computer for s in d.top.seats)
    families = {g.family for g in lobby_games()}
    seen_scores_page = False
    for _ in range(len(families) * 2):
        d.frames(400, 50 * MS, until=lambda: isinstance(d.top, AttractScene))
        if isinstance(d.top, AttractScene) and d.top.loop is not None:
            seen_scores_page = True
        if {s.split(":")[0] for s in app.attract.shown} >= families:
            break
        d.frames(200, 50 * MS, until=lambda: app.is_game(d.top))
    assert {s.split(":")[0] for s in app.attract.shown} >= families, app.attract.shown
    assert seen_scores_page
    # nothing of the demo games was recorded
    d.frames(200, 50 * MS, until=lambda: app.is_game(d.top))
    assert app.results is None or app.results.recent(5) == []
    # a guest presses P3's buzzer: the lobby, P3 joined, P3's lamp lit
    d.press(BUZZ[2])
    assert isinstance(d.top, LobbyScene) and 2 in d.top.joined
    assert app.attract is None and app.results is not None and app.results.recent(5) == []
    d.frames(2)
    assert lamp_states(d) == [False, False, True, False]


def test_the_attract_loop_shows_high_scores_and_the_prompt_between_demo_games(day: Day) -> None:
    d, app = day, day.app
    now = __import__("time").time()
    for initials, cards, days_ago in (("ACE", 21, 0), ("BOB", 17, 0), ("ZOE", 14, 0), ("MAX", 25, 3), ("IDA", 9, 0)):
        app.highscores.add("focusx:classic", initials, cards, at=now - days_ago * 86400)
    app.home()
    d.frames(2)
    assert d.frames(200, 50 * MS, until=lambda: app.is_game(d.top))       # the first demo game
    assert app.attract.current.family == "focusx" and app.attract.current.mode == "classic"
    d.frames(60, 50 * MS)
    docs_shot(d.screen, "attract-demo-game.png")
    assert d.frames(400, 50 * MS, until=lambda: isinstance(d.top, AttractScene))
    page = d.top
    assert page.loop is app.attract and page._scores_game().mode == "classic"
    d.frames(10, 50 * MS)
    docs_shot(d.screen, "attract-high-scores.png")
    # the tables the page draws: today's best first, the all-time table includes older days
    rule = score_rule("focusx", "classic")
    from kiosk.persist.highscores import day_start
    assert app.highscores.table("focusx:classic", rule, day_start(now))[0] == ("ACE", 21.0)
    assert app.highscores.table("focusx:classic", rule)[0] == ("MAX", 25.0)
    d.press(P1["ok"])                                        # a person's OK also leaves the loop
    assert isinstance(d.top, LobbyScene) and app.attract is None


def test_every_game_and_mode_can_be_chosen_with_station_controls(day: Day) -> None:
    d, app = day, day.app
    app.home()
    d.frames(2)
    d.press(BUZZ[0])                                        # P1 presses: lobby, joined
    lobby = d.top
    assert isinstance(lobby, LobbyScene) and 0 in lobby.joined
    seen = []
    for _ in range(len(lobby.games)):
        g = lobby.games[lobby.game_i]
        seen.append((g.family, g.mode))
        d.press(P1["right"])
    assert sorted(seen) == sorted((g.family, g.mode) for g in lobby_games())
    # P3 has a buzzer alone: it joins, then a tap changes the game, a hold moves to the next row
    d.press(BUZZ[2])
    assert 2 in lobby.joined and lobby.players == 3
    before = lobby.game_i
    d.press(BUZZ[2], hold_ms=100)
    assert lobby.game_i == (before + 1) % len(lobby.games)
    d.press(BUZZ[2], hold_ms=800)                           # hold: next row (players)
    assert lobby.row == 1


def play_to_results(d: Day, limit_frames: int = 6000) -> ResultsScene:
    """Play the game on screen: P1 presses its buzzer as soon as a focus shows (a sharp eye)."""
    game = d.top
    pressed_for = -1
    for _ in range(limit_frames):
        top = d.top
        if isinstance(top, ResultsScene):
            return top
        st = getattr(top, "state", None)
        w = getattr(getattr(top, "referee", None), "window", None)
        if st is not None and w is not None and w.opened_ns is not None and w.race_no != pressed_for \
                and 0 in w.spec.eligible and st.race_spec().valid_kinds:
            pressed_for = w.race_no
            d.press(BUZZ[0], hold_ms=60)
            continue
        d.frames(1, 25 * MS)
    raise AssertionError(f"{game} did not finish")


def test_a_game_played_to_the_results_with_initials_and_back_to_attract(day: Day) -> None:
    d, app = day, day.app
    app.home()
    d.frames(2)
    d.press(BUZZ[0])                                        # P1: the lobby, joined
    lobby = choose_game(d, "focusx", "classic")
    d.press(P1["ok"])                                       # next row: players
    d.press(P1["left"])                                     # 4 -> 3
    d.press(P1["left"])                                     # 3 -> 2
    assert lobby.players == 2
    for _ in range(lobby.start_row - lobby.row):
        d.press(P1["ok"])
    assert lobby.row == lobby.start_row
    d.press(P1["ok"])                                       # Start
    game = d.top
    assert app.is_game(game) and [s.station for s in game.seats] == ["gpio", "computer"]
    # the lamps: P1 may press while a race is open; P2 is a computer without a lamp lit by a join
    d.frames(200, 25 * MS, until=lambda: game.referee.window is not None and game.referee.window.opened_ns is not None)
    assert app.lamps.requested[0] in ("ready", "on", "blink", "flash")
    assert lamp_states(d)[0]                                 # P1's lamp is lit: P1 may press
    results = play_to_results(d)
    assert results.entries and results.entries[0].seat == 0          # P1's cards make the table
    cards = results.entries[0].score
    assert cards == len(game.state.victory[0]) > 0
    # initials "ACE" with P1's controls: OK (A), right right OK (C), right x4 OK (E)
    d.press(P1["ok"])
    d.press(P1["right"]); d.press(P1["right"]); d.press(P1["ok"])      # noqa: E702
    for _ in range(4):
        d.press(P1["right"])
    d.press(P1["ok"])
    assert not results.entering
    rule = score_rule("focusx", "classic")
    assert app.highscores.table("focusx:classic", rule) == [("ACE", float(cards))]
    d.frames(3 * 20, 50 * MS)
    docs_shot(d.screen, "results-high-scores.png")
    d.press(BUZZ[1])                                        # any buzzer: back to the title
    assert isinstance(d.top, AttractScene)
    assert any("FocusX Classic" in line[0] for line in d.top.recent_lines)   # the games' own labels


def enter_pin(d: Day, pin: str) -> None:
    for digit in pin:
        for _ in range(int(digit)):
            d.press(P1["right"])
        d.press(P1["ok"])


def open_service(d: Day) -> ServiceScene:
    d.hold([P1["ok"], P2["ok"]], 3.2)
    assert isinstance(d.top, PinScene)
    enter_pin(d, "2580")
    assert isinstance(d.top, ServiceScene)
    return d.top


def menu_to(d: Day, svc: ServiceScene, what: str) -> None:
    target = [k for k, _ in MENU].index(what)
    while svc.cursor != target:
        d.press(P1["right"])
    d.press(P1["ok"])


def test_service_menu_button_and_led_tests_and_a_setting_in_force_after_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = event_config(tmp_path)
    d = Day(path, monkeypatch, size=(1280, 720))
    try:
        app = d.app
        app.home()
        d.frames(2)
        # a guest holding one OK, or both for less than 3 s, opens nothing
        d.hold([P1["ok"]], 4)
        d.hold([P1["ok"], P2["ok"]], 2)
        assert not isinstance(d.top, (PinScene, ServiceScene))
        app.home()
        d.frames(2)
        # a wrong PIN: back where it was
        d.hold([P1["ok"], P2["ok"]], 3.2)
        assert isinstance(d.top, PinScene)
        enter_pin(d, "1111")
        assert isinstance(d.top, PinScene) and d.top.lock.wrong == 1
        app.pop()
        d.hold([P1["ok"], P2["ok"]], 3.2)                  # in the lobby the buttons are the guests'
        assert not isinstance(d.top, (PinScene, ServiceScene))
        app.home()                                         # the combination works from the title (issue 20)
        d.frames(2)
        svc = open_service(d)
        # -- button test: a bouncy press of P3's buzzer, a held (stuck) P4 buzzer
        menu_to(d, svc, "buttons")
        assert svc.page == "buttons"
        t0 = d.clock.t
        d.pin(BUZZ[2]).drive_low()
        d.clock.t += 2 * MS
        d.pin(BUZZ[2]).drive_high()                           # a bounce 2 ms later
        d.clock.t += 1 * MS
        d.pin(BUZZ[2]).drive_low()
        d.frames(3)
        d.pin(BUZZ[2]).drive_high()
        d.frames(1)
        c = svc.buttons.controls[(2, "buzzer")]
        assert c.presses == 1 and c.bounces_last == 2
        notes = [n for n in reversed(svc.buttons.log) if (n.edge.seat, n.edge.control) == (2, "buzzer")]
        assert [n.edge.t_ns - t0 for n in notes[:3]] == [0, 2 * MS, 3 * MS]     # the pins' own stamps
        assert notes[0].gap_ms is None and notes[1].gap_ms == pytest.approx(2.0)
        assert [n.bounce for n in notes] == [False, True, True, False]
        d.pin(BUZZ[3]).drive_low()
        d.frames(130, 50 * MS)                               # 6.5 s > stuck_after_s
        assert svc.buttons.controls[(3, "buzzer")].stuck
        d.pin(P1["left"]).drive_low()                        # a control held down shows live
        d.frames(1)
        assert svc.buttons.controls[(0, "left")].down
        app.gpio._errors = 2                                 # as if the adapter had counted two failures
        app.gpio._last_error = "pin 22 ('buzzer'): ValueError: unexpected level 7"
        d.frames(1)
        docs_shot(d.screen, "service-button-test.png")
        d.pin(P1["left"]).drive_high()
        d.pin(BUZZ[3]).drive_high()
        app.gpio._errors = 0
        app.gpio._last_error = None
        d.frames(1)
        # the way back from the button test: the combination again
        d.hold([P1["ok"], P2["ok"]], 3.2)
        assert isinstance(d.top, ServiceScene) and svc.page == "menu"
        # -- LED test: each pattern goes to the link (loop://)
        menu_to(d, svc, "led")
        assert svc.page == "led"
        d.frames(3, 100 * MS)
        w, h = d.cfg["led"]["width"], d.cfg["led"]["height"]
        assert app.led.last_picture == led_test_picture("seat colours", 0, w, h)
        d.press(P1["right"])                                 # walking pixel
        assert LED_PATTERNS[svc.pattern] == "walking pixel"
        d.frames(2, 100 * MS)
        pic1 = app.led.last_picture
        d.frames(3, 100 * MS)
        pic2 = app.led.last_picture
        assert pic1 != pic2 and pic1[0][0] == (255, 0, 0)      # it walks; the top-left corner is red
        whites = [sum(1 for row in p for px in row if px == (255, 255, 255)) for p in (pic1, pic2)]
        assert whites == [1, 1]
        d.frames(8, 100 * MS)
        docs_shot(d.screen, "service-led-test.png")
        # the link writes on its own thread in real time: frames until it says it is through
        wait_until(lambda: d.frames(1, 100 * MS, until=lambda: svc.fps > 0
                                    and app.led.link.status().state == "connected"),
                   what="the LED test's frames reach the link (fps shown, link connected)")
        d.press(P1["right"])                                 # full white, dimmed to the current limit
        d.frames(2, 100 * MS)
        from firmware_bridge.layout import estimate_current_ma, limit_current
        chain = limit_current(app.led.layout.to_chain(app.led.last_picture), app.led.max_ma)
        assert estimate_current_ma(chain) <= d.cfg["led"]["max_current_ma"]
        d.press(P1["x"])                                     # back to the menu
        assert svc.page == "menu"
        # -- settings: tie window 20 -> 30 ms, saved
        menu_to(d, svc, "settings")
        assert svc.page == "settings" and svc.cursor == 0 and SETTINGS[0].key == "tie_window_ms"
        d.press(P1["ok"])                                    # change it
        d.press(P1["right"]); d.press(P1["right"]); d.press(P1["ok"])   # noqa: E702
        assert svc.values[("judge", "tie_window_ms")] == 30
        save_row = svc.rows().index("Save (in force after the restart)")
        while svc.cursor != save_row:
            d.press(P1["right"])
        d.press(P1["ok"])
        assert "Saved" in svc.status
        assert not any("Saved" in m for m, _ in app.messages)     # one calm line on the page, no alert
        assert app.cfg["judge"]["tie_window_ms"] == 20        # in force after the restart
        # -- restart: the menu asks, then the arcade exits for systemd to start it again
        d.press(P1["x"])
        menu_to(d, svc, "restart")
        assert svc.page == "confirm"
        d.press(P1["right"])                                 # "Yes"
        d.press(P1["ok"])
        assert not app.running and app.exit_code == EXIT_RESTART
        assert d.commands == []                              # nothing was run
    finally:
        d.close()
    # the restarted arcade reads the file: the new tie window is in force, the rest is kept
    d2 = Day(path, monkeypatch)
    try:
        assert d2.cfg.judge_settings().tie_window_ms == 30
        assert d2.cfg["gpio"]["lamps"] == LAMPS and d2.cfg["display"]["kiosk"]
        from kiosk.games.focusx.scene import ClassicScene
        from kiosk.scenes.seats import SeatInfo
        scene = ClassicScene(d2.app, [SeatInfo("computer", "c"), SeatInfo("computer", "c")], seed=1)
        assert scene.referee.settings.tie_window_ms == 30
    finally:
        d2.close()


def test_shut_down_runs_the_configured_command_after_asking(day: Day) -> None:
    d, app = day, day.app
    app.home()
    d.frames(2)
    svc = open_service(d)
    menu_to(d, svc, "shutdown")
    d.press(P1["ok"])                                        # "No" is first: nothing happens
    assert d.commands == [] and svc.page == "menu"
    menu_to(d, svc, "shutdown")
    d.press(P1["right"])
    d.press(P1["ok"])
    assert d.commands == ["systemctl poweroff"]


def test_reset_high_scores_from_the_menu(day: Day) -> None:
    d, app = day, day.app
    rule = score_rule("sherlook", "classic")
    app.highscores.add("sherlook:classic", "BOB", 12)
    app.home()
    d.frames(2)
    svc = open_service(d)
    menu_to(d, svc, "reset")
    d.press(P1["right"])
    d.press(P1["ok"])
    assert app.highscores.table("sherlook:classic", rule) == []


def key(k: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode=""))


def test_kiosk_mode_ctrl_q_esc_and_close_do_nothing_in_a_game(day: Day) -> None:
    d, app = day, day.app
    app.home()
    d.frames(2)
    d.press(BUZZ[0])
    lobby = d.top
    lobby.start()
    game = d.top
    assert app.is_game(game)
    for k, mod in ((pygame.K_q, pygame.KMOD_LCTRL), (pygame.K_ESCAPE, 0), (pygame.K_ESCAPE, 0),
                   (pygame.K_F4, pygame.KMOD_LALT), (pygame.K_w, pygame.KMOD_LCTRL)):
        key(k, mod)
        d.frames(2)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    d.frames(2)
    assert app.running and d.top is game and game.leave_until is None      # not even the dialog


def test_outside_kiosk_mode_esc_asks_before_a_game_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(event_config(tmp_path, display={"kiosk": False}), monkeypatch)
    try:
        app = d.app
        app.home()
        d.frames(2)
        d.press(BUZZ[0])
        d.top.start()
        game = d.top
        d.frames(2)
        key(pygame.K_ESCAPE)                                 # the leave dialog (the documented confirmation)
        d.frames(2)
        assert d.top is game and game.leave_until is not None
        d.press(P1["right"])                                 # any other control: stay
        assert d.top is game and game.leave_until is None
        key(pygame.K_ESCAPE)
        d.frames(2)
        d.press(P1["ok"])                                    # OK confirms
        assert isinstance(d.top, AttractScene)
        key(pygame.K_q, pygame.KMOD_LCTRL)
        d.frames(1)
        assert not app.running                               # a developer's Ctrl+Q quits
    finally:
        d.close()


def test_app_messages_in_a_game_stay_in_the_title_strip(day: Day) -> None:
    """Two long messages must not spill below the top strip onto whose turn it is (issue 10)."""
    d, app = day, day.app
    app.home()
    d.frames(2)
    d.press(BUZZ[0])
    d.top.start()
    assert app.is_game(d.top)
    app.messages.clear()
    app.draw()
    before = app.screen.copy()
    app.message("LED matrix: the link was lost on /dev/ttyUSB0, trying again")
    app.message("P3 seems to be away: a computer plays their turn ")
    app.draw()
    changed = [y for y in range(app.screen.get_height()) for x in range(0, app.screen.get_width(), 4)
               if app.screen.get_at((x, y)) != before.get_at((x, y))]
    assert changed, "no message drawn"
    assert max(changed) < 48, f"a message reaches y={max(changed)}, below the game's title strip"


def test_computer_presses_in_a_running_game_do_not_enter_the_pin(day: Day) -> None:
    """A PIN screen over a game (an older version opened it there): the PIN changes only with a
    person's presses (issue 10).  The combination held in a game is the guests' own presses
    and opens nothing (issue 20)."""
    d, app = day, day.app
    app.home()
    d.frames(2)
    d.press(BUZZ[2])
    d.top.start()
    assert app.is_game(d.top)
    d.frames(20, 50 * MS)
    d.hold([P1["ok"], P2["ok"]], 3.2)
    assert app.is_game(d.top)
    app.push(PinScene(app))
    d.frames(2)
    assert isinstance(d.top, PinScene) and d.top.pin_entry.digits == [0]
    for _ in range(10):                         # the computer players press on in the game below
        d.frames(10, 50 * MS)
        assert d.top.pin_entry.digits == [0]
    assert d.top.pin_entry.digits == [0]
    d.press(BUZZ[0])
    d.frames(20, 50 * MS)
    assert d.top.pin_entry.digits == [1]


def test_a_stuck_buzzer_on_the_title_screen_starts_no_game(day: Day) -> None:
    """R-8 in the lobby: a buzzer jammed down opens the lobby once, but when the lobby would
    start, a seat held down ever since its joining press is un-joined with a message and the
    title screen comes back; a seat that joined by a real press still gets its game."""
    d = day
    d.app.home()
    d.frames(2)
    assert isinstance(d.top, AttractScene)
    d.pin(BUZZ[2]).drive_low()                               # P3's buzzer jams
    assert d.frames(200, 50 * MS, until=lambda: isinstance(d.top, LobbyScene))
    assert d.frames(200, 50 * MS, until=lambda: not isinstance(d.top, LobbyScene))
    assert isinstance(d.top, AttractScene)                   # no game with a stuck seat alone
    assert any("P3: buzzer held down" in m and "stuck" in m for m, _ in d.app.messages)
    d.pin(BUZZ[2]).drive_high()
    d.frames(2)
    # Jammed again, but P1 joins with a real press: P1 plays, P3 is not a silent human seat.
    d.press(BUZZ[0])
    assert isinstance(d.top, LobbyScene)
    d.pin(BUZZ[2]).drive_low()
    d.frames(2)
    assert d.frames(200, 50 * MS, until=lambda: not isinstance(d.top, LobbyScene))
    scene = d.top
    assert getattr(scene, "state", None) is not None, type(scene).__name__
    assert not scene.seats[0].is_computer and scene.seats[2].is_computer
    d.pin(BUZZ[2]).drive_high()
