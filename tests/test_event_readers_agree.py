"""Issue 24, the newcomer's third round: every reader of the hall agrees on what a game is.

* a game put aside from a cabinet's results file (damaged) is never sent again, and its game id
  never carries another game's content (its row id was given to the next game);
* a result's topic overwritten with something that is no result: every reader drops that game,
  running or fresh, and ``event remove`` agrees; its cabinet sends it again if it has it;
* the page says so when the broker hangs (``kill -STOP``) instead of showing stale data as news;
* a big screen shows the boards with the most games; a phone's page fits 390 px.

Against a real Mosquitto started with the documented hall configuration (tests/mqtt_broker.py)
and a real headless Chromium, as the other event tests.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import time
import uuid
from pathlib import Path
from typing import Any, Iterator

import mqtt_broker as mosquitto
import pytest
from test_event import Cabinet, all_once, need_mosquitto, on_board, raw_client, watcher
from waiting import wait_until

from kiosk.event import link as ev
from kiosk.event.link import results_topic

LONG = "the-long-cabinet-name-by-the-bar-counter"        # 40 characters, the most a name has


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[mosquitto.Broker]:
    need_mosquitto()
    b = mosquitto.Broker(tmp_path_factory.mktemp("agree-broker")).start()
    yield b
    b.stop()


@pytest.fixture
def event() -> str:
    return f"g{uuid.uuid4().hex[:10]}"


# -- 1. a game put aside ---------------------------------------------------------------------------

#: The games table as results files made before issue 24's third round have it: SQLite gives the
#: highest id again once its row is gone.
OLD_GAMES = """CREATE TABLE games (id INTEGER PRIMARY KEY, finished_at REAL NOT NULL, game TEXT NOT NULL,
    seats INTEGER NOT NULL, winners TEXT NOT NULL, reason TEXT NOT NULL, scores TEXT NOT NULL, record TEXT NOT NULL)"""


def kick(settings: dict[str, Any], client_id: str) -> None:
    """Log in with a cabinet's login and client id: the broker drops that cabinet's connection."""
    c = ev.make_client(settings, client_id, persistent=False)
    up: list[bool] = []
    c.on_connect = lambda *a: up.append(True)
    c.connect(settings["host"], settings["port"])
    c.loop_start()
    try:
        wait_until(lambda: bool(up), what="the kick's connection accepted")
    finally:
        c.disconnect()
        c.loop_stop()


@pytest.mark.parametrize("made", ["now", "before", "damaged before"])
def test_a_game_put_aside_is_never_sent_again_and_its_id_never_carries_another_game(
        broker: mosquitto.Broker, event: str, tmp_path: Path, made: str) -> None:
    """The newcomer: the last row damaged and put aside, one game played, the cabinet kicked once:
    "the broker held other content ... sending this cabinet's own again", and the old game's id
    then carried the new game's content: the new game twice on every board and in the final
    results.  For a file made now, for one made before (whose ids SQLite gives again), and for
    one where that happened before this round: the put-aside game's line still names the row id
    the next game was given."""
    path = tmp_path / "north.sqlite3"
    if made != "now":
        db = sqlite3.connect(path)
        db.execute(OLD_GAMES)
        db.close()
    north = Cabinet(tmp_path, broker.settings(event), "north")
    w = watcher(broker.settings(event))
    try:
        north.play(2)
        all_once([w.leaderboard, north.link.leaderboard], [north])
        put_aside = north.uids()[-1]
        real = w.leaderboard.games[put_aside]
        north.stop()
        db = sqlite3.connect(path)
        with db:               # one score changed in the file: its checksum no longer holds
            db.execute("UPDATE games SET scores = replace(scores, '.0', '.5') WHERE id = (SELECT max(id) FROM games)")
        db.close()
        north = Cabinet(tmp_path, north.settings, "north")
        assert "checksum does not match" in north.store.notice
        north.play(1)
        new = north.uids()[-1]
        if made == "damaged before":        # the line a save made before this round left behind
            with north.store.db:
                north.store.db.execute("INSERT INTO event_games (rowid, game_uid, games_id, event) VALUES "
                                       "(0, ?, (SELECT max(id) FROM games), ?)", (put_aside, event))
        wait_until(lambda: new in w.leaderboard.games, what="the new game on the board")
        synced = north.link._synced
        kick(north.settings, f"focus-arcade-{event}-north")
        wait_until(lambda: north.link._synced not in ("", synced) and north.link._resynced == north.link._synced,
                   30, "north connected again and read the event back")
        north.play(1)                       # after anything that reading back put into the outbox
        last = north.uids()[-1]
        wait_until(lambda: last in w.leaderboard.games and north.pending() == 0, what="the last game on the board")
        assert north.link.repaired == 0 and north.link.resent == 0
        assert (put_aside in north.uids()) == (made == "damaged before")   # put aside: its line goes with it
        later = watcher(broker.settings(event))
        try:
            for board in (w.leaderboard, later.leaderboard, north.link.leaderboard):
                with board.lock:
                    games = dict(board.games)
                assert games[put_aside].scores == real.scores and games[put_aside].finished_at == real.finished_at
                seen = [(g.finished_at, g.scores) for g in games.values()]
                assert len(games) == 4 and len(set(seen)) == 4, "a game is on the board twice"
        finally:
            later.stop()
        if made == "now":                   # a file made now never gives an id twice
            aside = north.store.set_aside()[0]["row_id"]
            assert aside not in [r[0] for r in north.store.db.execute("SELECT id FROM games")]
    finally:
        w.stop()
        north.stop()


# -- 2. a result's topic overwritten with something that is no result ------------------------------

def test_a_results_topic_overwritten_with_no_result_drops_the_game_on_every_reader_alike(
        broker: mosquitto.Broker, event: str, tmp_path: Path) -> None:
    """The newcomer published a valid result with a cabinet's login, then ``{}`` on its topic:
    the page and the cabinets that were running kept counting it, a page opened later did not,
    and ``event remove`` found no such game.  Now every reader drops it; a real cabinet whose
    game it was sends its own again, and then every reader has it again."""
    north = Cabinet(tmp_path, broker.settings(event), "north")
    south = Cabinet(tmp_path, broker.settings(event), "south")
    rogue = raw_client(mosquitto.login(broker.settings(event), "rogue"))
    north_login = raw_client(north.settings)
    w = watcher(broker.settings(event))
    try:
        north.play(1)
        r = ev.make_result(event, "rogue", {"game": "sherlook", "seats": 3, "settings": {}}, (2,), "r",
                           (1.0, 2.0, 7.0), time.time() - 5)
        rogue.publish(results_topic(event, r.game_id, "rogue"), r.to_json(), qos=1, retain=True).wait_for_publish(5)
        running = (w.leaderboard, north.link.leaderboard, south.link.leaderboard)
        wait_until(lambda: all(len(on_board(b)) == 2 for b in running), what="both games on every board")
        rogue.publish(results_topic(event, r.game_id, "rogue"), b"{}", qos=1, retain=True).wait_for_publish(5)
        wait_until(lambda: all(r.game_id not in on_board(b) for b in running), what="the replaced game off every board")
        later = watcher(broker.settings(event))
        assert sorted(on_board(later.leaderboard)) == sorted(on_board(w.leaderboard)) == north.uids()
        later.stop()
        ok, text = ev.remove_game(broker.settings(event, user="operator"), r.game_id[:8])
        assert not ok and "no game on the boards has an id starting with" in text, text
        # A real cabinet's game overwritten with junk: off every board, then sent again by its cabinet.
        gid = north.uids()[0]
        real = w.leaderboard.games[gid]
        north_login.publish(results_topic(event, gid, "north"), b"\xff not json", qos=1,
                            retain=True).wait_for_publish(5)
        wait_until(lambda: north.link.resent == 1, what="north sends its game again")
        wait_until(lambda: all(gid in on_board(b) for b in running), what="back on every board")
        later = watcher(broker.settings(event))
        for board in running + (later.leaderboard,):
            wait_until(lambda b=board: gid in b.games and b.games[gid].scores == real.scores, what="the real game")
        later.stop()
    finally:
        w.stop()
        for c in (rogue, north_login):
            c.disconnect()
            c.loop_stop()
        north.stop()
        south.stop()


# -- 3. a hung broker ------------------------------------------------------------------------------

def page_json(port: int) -> Any:
    import urllib.request
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/leaderboard.json", timeout=5) as r:
        return json.loads(r.read().decode())


def test_the_page_says_so_when_the_broker_hangs_or_goes_and_a_quiet_hall_stays_quiet(
        tmp_path: Path, event: str) -> None:
    """``kill -STOP`` on the broker for 90 s: the page said nothing ("problem" "") and showed
    "last update 99 s ago" in its normal colour.  Now the page's reader sends itself a heartbeat
    through the broker: a quiet hall keeps answering it, a hung broker does not, and a broker
    that is gone is said at once.  (The heartbeat's periods are made short here.)"""
    from kiosk.event.web import LeaderboardWeb
    need_mosquitto()
    br = mosquitto.Broker(tmp_path / "broker").start()
    north = Cabinet(tmp_path, br.settings(event), "north")
    web = LeaderboardWeb(br.settings(event), port=0)
    web.watcher.HEARTBEAT_S, web.watcher.SILENT_S = 0.2, 2.0
    web.start()
    stopped = False
    try:
        north.play(1)
        wait_until(lambda: page_json(web.port)["games"] == 1, what="the game on the page")
        # A quiet hall: nothing happens for longer than the silence that counts, and nothing is said.
        beats = web.watcher.beats
        wait_until(lambda: web.watcher.beats > beats + 3 * web.watcher.SILENT_S / web.watcher.HEARTBEAT_S, 60,
                   "heartbeats answered for three times the silence that counts")
        assert page_json(web.port)["problem"] == ""
        br.proc.send_signal(signal.SIGSTOP)           # hung: the connection stays, nothing comes
        stopped = True
        wait_until(lambda: "No answer from the event broker" in page_json(web.port)["problem"], 30,
                   "the page says the broker does not answer")
        br.proc.send_signal(signal.SIGCONT)
        stopped = False
        wait_until(lambda: page_json(web.port)["problem"] == "", 60, "the page is fine again")
        br.stop()                                     # gone
        wait_until(lambda: page_json(web.port)["problem"] != "", 30, "the page says the broker is gone")
        assert page_json(web.port)["games"] == 1      # and still shows what it read
    finally:
        if stopped:
            br.proc.send_signal(signal.SIGCONT)
        web.stop()
        north.stop()
        br.stop()


# -- 4 and 5. the big screen's six boards; a phone ---------------------------------------------------

def fill_boards(board: ev.Leaderboard, event: str, counts: dict[str, int]) -> None:
    """``counts[board]`` games on each board, from cabinets "bar" (two machines use that name),
    "door" and the longest name there is."""
    from arcade import registry
    now = time.time() - 60
    cabinets = ["bar", "door", LONG]
    for i, (name, n) in enumerate(counts.items()):
        spec = registry.get(name)
        game = name.removesuffix("-x") if spec.family == "focusx" else spec.family
        for k in range(n):
            scores = (float(min(spec.score_range[1], 1 + k)),) + tuple(0.0 for _ in range(spec.min_seats - 1))
            cab = cabinets[k % len(cabinets)]
            r = ev.make_result(event, cab, {"game": game, "seats": spec.min_seats, "settings": {}, "entry": name},
                               (0,), "r", scores, now - i * 100 - k)
            board.receive(results_topic(event, r.game_id, cab), r.to_json().encode(), event)
    for cab, instance in (("bar", "machine-one"), ("bar", "machine-two"), ("door", "d"), (LONG, "l")):
        status = ev.Status(cab, event, "playing", "focusx-thinkfocus-x", "LED: on", instance=instance)
        board.receive(ev.status_topic(event, cab), status.to_json().encode(), event)
    board._tell()


def shown_boards(browser: Any) -> list[str]:
    return list(browser.execute_script(
        "return [...document.querySelectorAll('#boards section')].filter(e => e.offsetParent !== null)"
        ".map(e => e.dataset.board)"))


def test_a_big_screen_shows_the_six_most_played_boards_and_a_phone_fits_its_width(
        broker: mosquitto.Broker, event: str, tmp_path: Path) -> None:
    """At 1080p the page showed the first six boards by name, not the six with the most games;
    at 390 px the cabinets' table was 576 px wide ("two machines use this name" off the screen)
    and a board's title was cut in the middle of its game count ("(9 ga...")."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from test_event_crash_layout import OUTSIDE, WRAPPED, chromium_browser

    from arcade import registry
    from kiosk.event.web import LeaderboardWeb
    names = sorted(registry.names())[:9]
    # The first three by name have the fewest games; the longest title has the most.
    counts = {n: 1 + i for i, n in enumerate(names)}
    counts["focusx-thinkfocus-x"] = 20
    most = sorted(counts, key=lambda n: (-counts[n], n))[:6]
    web = LeaderboardWeb(broker.settings(event), port=0).start()
    browser = chromium_browser(tmp_path)
    try:
        fill_boards(web.watcher.leaderboard, event, counts)
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})
        browser.get(f"http://127.0.0.1:{web.port}/")
        wait = WebDriverWait(browser, 20)
        wait.until(lambda d: d.find_element(By.ID, "state").get_attribute("data-games") == str(sum(counts.values())))
        assert shown_boards(browser) == most
        assert browser.find_element(By.ID, "more").text == f"... and {len(counts) - 6} more boards"
        # A phone, 390 px wide: every board, nothing wider than the screen.
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
        wait.until(lambda d: len(d.find_element(By.ID, "boards").value_of_css_property(
            "grid-template-columns").split()) == 1)
        browser.save_screenshot(str(tmp_path / "page-phone.png"))
        assert len(shown_boards(browser)) == len(counts)
        height, width, vw, vh, outside = browser.execute_script(OUTSIDE)
        assert vw == 390 and width <= vw, (width, outside[:5])
        right = browser.execute_script(        # (a name's text cut by its cell is the cell's)
            "return [...document.body.querySelectorAll('*')].filter(e => e.tagName !== 'BDI' && e.getClientRects().length"
            " && e.getBoundingClientRect().right > innerWidth + 0.5).map(e => e.tagName + '.' + e.className)")
        assert right == []
        warn = browser.find_element(By.CSS_SELECTOR, "#cabinets td.warn")
        assert warn.text == "two machines use this name" and warn.is_displayed()
        assert browser.execute_script("const r = arguments[0].getBoundingClientRect();"
                                      "return r.left >= 0 && r.right <= innerWidth", warn)
        # Every board's title whole, its game count on one line; no name, rank or score wrapped.
        cut = browser.execute_script(
            "return [...document.querySelectorAll('section h2')].filter(h => h.scrollWidth > h.clientWidth"
            " || h.querySelector('.count').getClientRects().length !== 1).map(h => h.textContent)")
        assert cut == []
        assert "(20 games)" in browser.find_element(By.CSS_SELECTOR, "section[data-board='focusx-thinkfocus-x'] h2").text
        assert browser.execute_script(WRAPPED.replace(", section h2", "")) == []
    finally:
        browser.quit()
        web.stop()


# -- 6. the flood warning's words and numbers; a running page after clear-cabinet ------------------

def test_the_cap_counts_each_refused_game_once_however_often_it_is_delivered() -> None:
    """25,000 games from one login said "20000 kept, 10000 more refused": a reader gets the
    retained messages of a login read stepwise twice (its own step, then everything at once)."""
    board = ev.Leaderboard()
    board.MAX_GAMES_PER_CABINET = 20
    games = [ev.make_result("hall", "mallory", {"game": "sherlook", "seats": 3, "settings": {}}, (2,), "r",
                            (1.0, 2.0, 7.0), time.time() - 100 + i) for i in range(25)]
    for _ in range(2):
        for r in games:
            board.receive(results_topic("hall", r.game_id, "mallory"), r.to_json().encode(), "hall", retained=True)
    assert board.over_cap == {"mallory": 5}
    assert "(20 kept, 5 more refused)" in ev.format_status(board)


def test_a_running_page_names_a_login_flooding_junk_says_the_real_rule_and_drops_a_cleared_cabinet(
        broker: mosquitto.Broker, event: str, tmp_path: Path) -> None:
    """A login sent 150 messages that are no payload: ``event status`` said "more than the broker
    hands one reader at once" (it was the more-than-100-invalid rule); a page that was already
    running never named it; after ``event clear-cabinet`` the running page still listed it."""
    from kiosk.event.web import LeaderboardWeb
    north = Cabinet(tmp_path, broker.settings(event), "north")
    web = LeaderboardWeb(broker.settings(event), port=0).start()
    door = raw_client(mosquitto.login(broker.settings(event), "door"))
    try:
        north.play(1)
        door.publish(ev.status_topic(event, "door"), ev.Status("door", event, "idle").to_json(), qos=1,
                     retain=True).wait_for_publish(5)
        wait_until(lambda: page_json(web.port)["games"] == 1 and
                   [c["cabinet"] for c in page_json(web.port)["cabinets"]] == ["door", "north"], 30, "the page")
        for _ in range(ev.Watcher.FLOOD_INVALID + 50):
            info = door.publish(results_topic(event, str(uuid.uuid4()), "door"), b"junk", qos=1, retain=True)
        info.wait_for_publish(10)
        wait_until(lambda: page_json(web.port)["flooding"] == ["door"], 30, "the running page names the flooder")
        board, problem = ev.watch(broker.settings(event), 30)
        text = ev.format_status(board)
        line = next(x for x in text.splitlines() if x.startswith("WARNING: cabinet door floods"))
        assert problem == "" and "(150 messages, 150 of them no valid payload" in line, text
        assert "more than the broker hands one reader at once" not in line
        ok, said = ev.clear_cabinet(broker.settings(event, user="operator"), "door")
        assert ok and "cleared 151 retained messages" in said, said
        wait_until(lambda: [c["cabinet"] for c in page_json(web.port)["cabinets"]] == ["north"], 30,
                   "the cleared cabinet off the running page's list")
        wait_until(lambda: page_json(web.port)["flooding"] == [], 30, "and its flood note")
        later = ev.watch(broker.settings(event), 30)[0]
        assert sorted(later.statuses) == ["north"] and page_json(web.port)["games"] == 1
    finally:
        door.disconnect()
        door.loop_stop()
        web.stop()
        north.stop()
