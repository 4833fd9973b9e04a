"""The event appliance's parts: gestures, initials, high scores, the service tools, atomic
settings, readable colours and text, seats in the lobby, a player who walks away."""

from __future__ import annotations

import os
import time
import tomllib
from pathlib import Path
from typing import Any

import pygame
import pytest
from test_event_day import BUZZ, P1, Day, event_config
from waiting import wait_until

from arcade.core.events import Edge
from kiosk import render
from kiosk.config import ConfigError
from kiosk.controls.gestures import BACK, HOLD_NS, LONG_HOLD_NS, NEXT, OK, PREV, Gestures
from kiosk.persist.highscores import HighScores, InitialsEntry, day_start, result_score, score_rule
from kiosk.service.config_save import atomic_write, save_settings
from kiosk.service.tools import ButtonTest, Combination, PinEntry, parse_combo

MS = 1_000_000
S = 1_000_000_000
T = 1_000 * S


def e(t: int, seat: int = 0, control: str = "buzzer", pressed: bool = True) -> Edge:
    return Edge(t, seat, control, pressed, "gpio")


# -- gestures ----------------------------------------------------------------------------------

def test_buzzer_alone_tap_hold_and_long_hold() -> None:
    g = Gestures()
    assert g.feed(e(T)) == []
    assert g.feed(e(T + 200 * MS, pressed=False)) == [(0, NEXT)]            # a tap
    g.feed(e(T + S))
    assert g.poll(T + S + HOLD_NS - 1) == []
    assert g.poll(T + S + HOLD_NS) == [(0, OK)]                             # fires while held
    assert g.poll(T + S + LONG_HOLD_NS) == [(0, BACK)]
    assert g.feed(e(T + S + LONG_HOLD_NS + 5 * MS, pressed=False)) == []    # the release does nothing
    # a bounce right after a release is no new press; a hold judged by its stamps if no poll saw it
    g.feed(e(T + 5 * S))
    g.feed(e(T + 5 * S + 100 * MS, pressed=False))
    assert g.feed(e(T + 5 * S + 110 * MS)) == []
    g2 = Gestures(long_hold=False)
    g2.feed(e(T))
    assert g2.feed(e(T + 3 * S, pressed=False)) == [(0, OK)]


def test_station_controls_are_menu_actions() -> None:
    g = Gestures()
    assert [g.feed(e(T, 1, c))[0][1] for c in ("left", "right", "ok", "x")] == [PREV, NEXT, OK, BACK]
    assert g.feed(e(T, 1, "ok", pressed=False)) == []


def test_initials_with_a_buzzer_alone() -> None:
    g, entry = Gestures(), InitialsEntry(3, 12)
    t = T

    def tap() -> None:
        nonlocal t
        for _, a in g.feed(e(t, 3)) + g.feed(e(t + 100 * MS, 3, pressed=False)):
            entry.act(a)
        t += 400 * MS

    def hold() -> None:
        nonlocal t
        g.feed(e(t, 3))
        for _, a in g.poll(t + HOLD_NS):
            entry.act(a)
        g.feed(e(t + HOLD_NS + 50 * MS, 3, pressed=False))
        t += S

    tap(); tap(); hold()                  # noqa: E702  C
    hold()                                # A
    for _ in range(19):
        tap()                             # T
    hold()
    assert entry.done and entry.initials == "CAT"


# -- high scores ---------------------------------------------------------------------------------

def test_score_of_a_result_for_every_family() -> None:
    assert result_score("focusx", "duel", 1, (0,), (3, 9, 1)) == 9.0          # cards
    assert result_score("sherlook", "classic", 0, (0,), (14, 2)) == 14.0     # points
    assert result_score("coop", "sherlock", 1, (), (11.0, 11.0)) == 11.0      # the pair's points
    assert result_score("coop", "base", 0, (0, 1), (1.0, 1.0)) is None       # base rules: no score
    assert result_score("focus", "2p", 1, (1,), (2, 5)) == 1.0               # a win
    assert result_score("focus", "2p", 0, (1,), (2, 5)) is None
    assert result_score("focusx", "classic", 0, (1,), (0, 5)) is None        # nothing won: no entry
    assert score_rule("focus", "crossfire").total and not score_rule("sherlook", "classic").total


def test_tables_of_the_day_and_of_all_time(tmp_path: Path) -> None:
    from kiosk.persist.storage import Results
    r = Results(tmp_path / "a.sqlite3")
    hs = HighScores(r.db)
    now = time.time()
    yesterday = day_start(now) - 3600
    rule = score_rule("sherlook", "classic")
    hs.add("sherlook:classic", "OLD", 30, at=yesterday)
    for i, score in enumerate((5, 12, 9, 7, 11)):
        hs.add("sherlook:classic", f"P{i}X", score, at=now)
    assert hs.table("sherlook:classic", rule, day_start(now))[0] == ("P1X", 12.0)
    assert hs.table("sherlook:classic", rule)[0] == ("OLD", 30.0)
    assert len(hs.table("sherlook:classic", rule)) == 5
    assert hs.qualifies("sherlook:classic", rule, 6, now)                    # beats today's 5th (5)
    assert not hs.qualifies("sherlook:classic", rule, 5, now)
    wins = score_rule("focus", "2p")
    for who in ("ANN", "BOB", "ANN"):
        hs.add("focus:2p", who, 1, at=now)
    assert hs.table("focus:2p", wins) == [("ANN", 2.0), ("BOB", 1.0)]       # FOCUS wins are added up
    assert hs.reset() == 9 and hs.table("focus:2p", wins) == []
    r.close()
    # the table is in the results file and survives a reopen next to the games table
    r2 = Results(tmp_path / "a.sqlite3")
    HighScores(r2.db).add("focusx:classic", "ACE", 20)
    r3 = Results(tmp_path / "a.sqlite3")
    assert HighScores(r3.db).table("focusx:classic", score_rule("focusx", "classic")) == [("ACE", 20.0)]


# -- the service tools -----------------------------------------------------------------------------

def test_combination_must_be_held_together_for_its_time() -> None:
    c = Combination(parse_combo(["P1.ok", "P2.ok"]), 3 * S)
    c.feed(e(T, 0, "ok"))
    assert not c.poll(T + 10 * S)                                            # one alone: never
    c.feed(e(T + S, 1, "ok"))
    assert not c.poll(T + 3 * S) and c.progress(T + 2 * S + S // 2) == pytest.approx(0.5)
    assert c.poll(T + 4 * S) and not c.poll(T + 5 * S)                       # once
    c.feed(e(T + 6 * S, 1, "ok", pressed=False))
    c.feed(e(T + 7 * S, 1, "ok"))
    assert not c.poll(T + 20 * S)                  # pressed again 7 s after P1's: not together (issue 20)
    c.feed(e(T + 21 * S, 0, "ok", pressed=False))
    c.feed(e(T + 21 * S, 1, "ok", pressed=False))
    c.feed(e(T + 22 * S, 1, "ok"))
    c.feed(e(T + 22 * S + S // 2, 0, "ok"))
    assert not c.poll(T + 25 * S) and c.poll(T + 25 * S + S // 2)            # both again, together
    with pytest.raises(ConfigError):
        from kiosk.config import validate
        validate({"service": {"combo": ["P1.ok"]}})                          # one seat: a guest could


def test_the_combination_counts_only_begun_on_the_title_pressed_together_with_nothing_else() -> None:
    """Issue 20: guests mashing reached the PIN screen.  The combination counts only when its
    first key went down on the title screen (``here``), its keys within 1 s of each other,
    and no other control was pressed while it was held."""
    keys = parse_combo(["P1.buzzer", "P2.buzzer"])
    c = Combination(keys, 3 * S)
    c.feed(e(T, 0), here=False)                     # begun in a game (or the lobby, the results)
    c.feed(e(T, 1))
    assert not c.poll(T + 10 * S)
    c.feed(e(T + 11 * S, 0, pressed=False))
    c.feed(e(T + 11 * S, 1, pressed=False))
    c.feed(e(T + 12 * S, 0))                        # on the title: P1, then P2 in the lobby it opened
    c.feed(e(T + 12 * S, 1), here=False)
    c.feed(e(T + 13 * S, 3))                        # another guest presses meanwhile: spoilt
    c.feed(e(T + 13 * S + S // 10, 3, pressed=False))
    assert not c.poll(T + 20 * S)
    c.feed(e(T + 21 * S, 0, pressed=False))
    c.feed(e(T + 21 * S, 1, pressed=False))
    c.feed(e(T + 22 * S, 2))                        # held down all along (a stuck buzzer): no matter
    c.feed(e(T + 23 * S, 0))
    c.feed(e(T + 23 * S + S // 5, 1), here=False)
    assert not c.poll(T + 26 * S) and c.poll(T + 26 * S + S // 5)           # the operator's combination


def test_pin_entry() -> None:
    p = PinEntry("2580")
    for digit in "2580":
        for _ in range(int(digit)):
            p.act(NEXT)
        assert p.result is None
        p.act(OK)
    assert p.result is True
    q = PinEntry("12")
    q.act(OK)
    q.act(OK)
    assert q.result is False and q.shown() == "*0"


def test_button_test_counts_bounces_gaps_and_stuck() -> None:
    b = ButtonTest(debounce_ms=15, stuck_after_s=5)
    notes = [b.feed(x) for x in (e(T), e(T + 1 * MS, pressed=False), e(T + 3 * MS), e(T + 80 * MS, pressed=False),
                                 e(T + 81 * MS), e(T + 200 * MS, pressed=False))]
    assert [n.bounce for n in notes] == [False, True, True, False, True, False]
    assert [round(n.gap_ms, 1) if n.gap_ms is not None else None for n in notes] == [None, 1.0, 2.0, 77.0, 1.0, 119.0]
    c = b.controls[(0, "buzzer")]
    assert c.presses == 1 and c.bounces_total == 3 and not c.down
    b.feed(e(T + S, 2, "left"))
    b.tick(T + 7 * S)
    assert b.controls[(2, "left")].stuck and b.controls[(2, "left")].down


# -- settings saved atomically ---------------------------------------------------------------------

def test_settings_are_saved_atomically_and_validated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "arcade.toml"
    path.write_text('# my notes\n[judge]\ntie_window_ms = 20\n[led]\nport = "auto"\n')
    data = save_settings(path, {"judge": {"tie_window_ms": 35}, "sound": {"volume": 0.5}})
    assert data["judge"]["tie_window_ms"] == 35
    on_disk = tomllib.loads(path.read_text())
    assert on_disk["judge"]["tie_window_ms"] == 35 and on_disk["led"]["port"] == "auto" and on_disk["sound"]["volume"] == 0.5
    before = path.read_bytes()
    with pytest.raises(ConfigError) as err:                                  # out of the TOML file's range
        save_settings(path, {"judge": {"tie_window_ms": 400}})
    assert err.value.key == "judge.tie_window_ms"
    with pytest.raises(ConfigError):                                         # settle shorter than the tie window
        save_settings(path, {"judge": {"settle_ms": 10}})
    assert path.read_bytes() == before
    # a power cut between writing and renaming: the old file stays whole, no temporary is left

    def cut(*_a: Any) -> None:
        raise OSError("power cut")
    monkeypatch.setattr(os, "replace", cut)
    with pytest.raises(OSError):
        save_settings(path, {"judge": {"tie_window_ms": 40}})
    monkeypatch.undo()
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["arcade.toml"]
    atomic_write(tmp_path / "new" / "x.toml", b"a = 1\n")
    assert (tmp_path / "new" / "x.toml").read_bytes() == b"a = 1\n"


def test_a_damaged_config_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "arcade.toml"
    path.write_text("[judge\n")
    with pytest.raises(ConfigError):
        save_settings(path, {"judge": {"tie_window_ms": 30}})
    assert path.read_text() == "[judge\n"


# -- colours and text on the TV --------------------------------------------------------------------

def wcag(c: tuple[int, int, int]) -> float:
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])


def test_every_seat_colour_has_3_to_1_contrast_on_background_and_panels() -> None:
    for i, c in enumerate(render.SEAT_COLOURS):
        for bg in (render.BG, render.PANEL, render.PANEL_LIGHT):
            hi, lo = sorted((wcag(c), wcag(bg)), reverse=True)
            assert (hi + 0.05) / (lo + 0.05) >= 3.0, f"P{i + 1} {c} on {bg}"
    assert len(set(render.SEAT_COLOURS)) == 8


def test_no_text_below_24_px_on_any_screen_with_8_seats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(event_config(tmp_path), monkeypatch, size=(1280, 720))
    sizes: list[int] = []
    real = pygame.font.Font
    made = render._cached_font

    class Spy(real):  # type: ignore[misc, valid-type]
        def __init__(self, name: Any, size: int = 12) -> None:
            if name is None:                  # pygame's default font by name (render makes it from memory)
                sizes.append(size)
            super().__init__(name, size)

    def spy_cached(cache: Any, size: int, bold: bool) -> Any:
        sizes.append(size)                    # the px size a screen asked render for
        return made(cache, size, bold)
    try:
        monkeypatch.setattr(pygame.font, "Font", Spy)
        monkeypatch.setattr(render, "_cached_font", spy_cached)
        render.reset_caches()
        from kiosk.scenes.lobby import LobbyScene, lobby_games
        from kiosk.scenes.seats import SeatInfo
        app = d.app
        app.home()
        d.frames(2)
        for g in lobby_games():
            seats = [SeatInfo("computer", "computer (medium)", "medium")] * g.max_seats
            app.stack.clear()
            app.current_game = g
            app.push(g.start(app, seats))
            d.frames(12, 50 * MS)
        lobby = LobbyScene(app)
        lobby.players = 8
        app.stack.clear()
        app.push(lobby)
        d.frames(2)
        from kiosk.scenes.service.menu import ServiceScene
        svc = ServiceScene(app)
        app.stack.clear()
        app.push(svc)
        for page in ("menu", "buttons", "led", "sound", "settings"):
            svc.page = page
            d.frames(2)
        assert sizes and min(sizes) >= 24, sorted(set(sizes))[:5]
    finally:
        monkeypatch.undo()
        render.reset_caches()
        d.close()


# -- the lobby's seats -----------------------------------------------------------------------------

def test_the_players_count_is_what_was_chosen_and_unjoined_stations_are_computers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(event_config(tmp_path), monkeypatch)
    try:
        app = d.app
        app.home()
        d.frames(2)
        d.press(BUZZ[2])                                   # P3 joins
        lobby = d.top
        d.press(P1["ok"])                                  # P1's controls: next row (players); P1 joins too
        for _ in range(6):
            d.press(P1["right"])
        assert lobby.players == 8
        infos = lobby.seat_infos()
        assert len(infos) == 8
        assert [i.station for i in infos] == ["gpio", "computer", "gpio"] + ["computer"] * 5
        d.press(P1["right"])                               # 9 is more than FocusX Classic has: it says so
        assert lobby.players == 8 and "2-8 players" in lobby.note
        d.press(P1["x"])                                   # back to the game row, then a 2-player game
        while lobby.games[lobby.game_i].max_seats != 2:
            d.press(P1["right"])
        assert lobby.players == 2 and "players" in lobby.note
    finally:
        d.close()


# -- a player who walks away -----------------------------------------------------------------------

def test_a_computer_plays_the_turn_of_a_player_who_walked_away(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(event_config(tmp_path, idle={"turn_s": 5}), monkeypatch)
    try:
        app = d.app
        from kiosk.games.sackson.scene import SacksonScene
        from kiosk.scenes.seats import SeatInfo
        person = SeatInfo("gpio", "GPIO 17", "medium", True)
        scene = SacksonScene(app, [person, SeatInfo("computer", "computer", "easy")], "2p", seed=3)
        app.push(scene)
        d.frames(2)
        assert scene.state.current_player() == 0 and scene.state.history == []
        d.frames(4 * 20, 50 * MS)                          # 4 s: still waiting for P1
        assert not scene.seats[0].is_computer and scene.state.history == []
        # The computer's move comes from the thinking worker in real time (a loaded machine is
        # slow): frames until it is made.
        wait_until(lambda: d.frames(20, 50 * MS, until=lambda: len(scene.state.history) >= 1),
                   what="a move made for the away player")
        assert scene.state.history[0][0] == 0              # P1's move, made by a computer
        assert scene.seats[0].is_computer and "away" in scene.seats[0].label
        assert any("P1 seems to be away" in m for m, _ in app.messages)
        d.press(BUZZ[0])                                   # P1 is back
        assert scene.seats[0] is person
        assert any("P1 is back" in m for m, _ in app.messages)
    finally:
        d.close()


def test_a_lost_coop_game_says_it_was_lost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from arcade.core.api import Outcome
    from kiosk.scenes.results import ResultsScene
    from kiosk.scenes.seats import SeatInfo
    d = Day(event_config(tmp_path), monkeypatch)
    try:
        lost = SimpleNamespace(game=SimpleNamespace(name="coop"), stats={},
                               outcome=lambda: Outcome((), "the thief got away", (0.0, 0.0)))
        r = ResultsScene(d.app, "Focus (2023)", lost, [SeatInfo("gpio", "a"), SeatInfo("computer", "b")])
        assert r.headline()[0] == "The case was lost"
        won = SimpleNamespace(game=SimpleNamespace(name="focusx-classic"), stats={"races": 9}, race_no=12,
                              outcome=lambda: Outcome((), "tie", (3.0, 3.0)))
        r2 = ResultsScene(d.app, "FocusX Classic", won, [SeatInfo("gpio", "a"), SeatInfo("computer", "b")])
        assert "draw" in r2.headline()[0] and r2.bars_caption() == "bars: cards won"
        assert r2.stats_line() == "races: 12"                # the count the game showed as "race 12"
    finally:
        d.close()


def test_a_coop_partner_takes_the_seat_of_a_player_who_walked_away(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(event_config(tmp_path, idle={"turn_s": 5}), monkeypatch)
    try:
        app = d.app
        from kiosk.games.coop.scene import CoopScene
        from kiosk.scenes.seats import SeatInfo
        person = SeatInfo("gpio", "GPIO 17", "medium", True)
        scene = CoopScene(app, [person, SeatInfo("computer", "partner", "medium")], "base", "scarlet", setup=False)
        app.push(scene)
        d.frames(2)
        moves = len(scene.state.history)
        assert d.frames(40 * 20, 50 * MS, until=lambda: 0 in scene.partners)
        assert any("P1 seems to be away" in m for m, _ in app.messages)
        assert d.frames(40 * 20, 50 * MS, until=lambda: any(p == 0 for p, _ in scene.state.history[moves:]))
        d.press(BUZZ[0])                                   # back: the person plays again
        assert 0 not in scene.partners and scene.humans == [0]
    finally:
        d.close()


def test_sound_test_plays_and_the_volume_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_event_day import menu_to, open_service
    path = event_config(tmp_path)
    d = Day(path, monkeypatch)
    try:
        app = d.app
        played: list[str] = []
        monkeypatch.setattr(app.sounds, "play", played.append)
        app.home()
        d.frames(2)
        svc = open_service(d)
        menu_to(d, svc, "sound")
        d.press(P1["right"])                               # "Play 'press'"
        d.press(P1["ok"])
        assert played[-1] == "press"
        d.press(P1["left"])                                # the Volume row
        d.press(P1["ok"])                                  # change it
        d.press(P1["left"]); d.press(P1["left"]); d.press(P1["ok"])   # noqa: E702   0.8 -> 0.6
        assert app.sounds.volume == pytest.approx(0.6)
        d.press(P1["x"])                                   # back: saved
        assert tomllib.loads(path.read_text())["sound"]["volume"] == pytest.approx(0.6)
    finally:
        d.close()


def test_a_high_score_and_its_hall_message_are_saved_together(tmp_path: Path) -> None:
    """Issue 15: the outbox message for a high score is written in the high-score row's
    transaction: a failed message leaves no row, a good one leaves both."""
    import sqlite3 as _sqlite3

    db = _sqlite3.connect(tmp_path / "hs.sqlite3")
    hs = HighScores(db)
    db.execute("CREATE TABLE outbox (payload TEXT)")

    def broken(conn: _sqlite3.Connection) -> None:
        conn.execute("INSERT INTO outbox VALUES ('x')")
        raise _sqlite3.OperationalError("disk I/O error")

    with pytest.raises(_sqlite3.OperationalError):
        hs.add("focusx:classic", "ACE", 20, also=broken)
    assert hs.table("focusx:classic", score_rule("focusx", "classic")) == []
    assert db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0] == 0
    hs.add("focusx:classic", "ACE", 20, also=lambda conn: conn.execute("INSERT INTO outbox VALUES ('ACE')"))
    assert hs.table("focusx:classic", score_rule("focusx", "classic")) == [("ACE", 20.0)]
    assert db.execute("SELECT payload FROM outbox").fetchall() == [("ACE",)]
