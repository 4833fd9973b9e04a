"""A retained flood from one login, a reused game id, a login without a status, a high
score naming another cabinet's game (issue 24, the newcomer's attacks on the hall link),
each on a real Mosquitto started with the documented hall configuration."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any, Iterator

import mqtt_broker as mosquitto
import pytest
from test_event import Cabinet, need_mosquitto, on_board, raw_client
from waiting import wait_until

from kiosk.event import link as ev
from kiosk.event.link import HighScore, Status, format_status, highscore_topic, make_result, results_topic, status_topic

#: More one-byte retained messages than the broker hands one new subscriber (max_queued_messages).
FLOOD = 25_000


@pytest.fixture
def event() -> str:
    return f"f{uuid.uuid4().hex[:10]}"


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[mosquitto.Broker]:
    need_mosquitto()
    b = mosquitto.Broker(tmp_path / "broker", autosave_every_change=False).start()
    yield b
    b.stop()


def flood(broker: mosquitto.Broker, event: str, login: str = "mallory", n: int = FLOOD) -> None:
    """``n`` one-byte retained messages under ``login``'s own results topics (what its ACL allows)."""
    c = ev.make_client(mosquitto.login(broker.settings(event), login), f"{login}-flood", persistent=False)
    c.max_inflight_messages_set(500)
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    try:
        for i in range(n):
            info = c.publish(results_topic(event, f"x{i:06d}", login), b"x", qos=1, retain=True)
        info.wait_for_publish(120)
    finally:
        c.disconnect()
        c.loop_stop()


def forged(event: str, cabinet: str, game_id: str | None = None, best: float = 64.0) -> Any:
    return make_result(event, cabinet, {"game": "focusx-classic", "seats": 3, "settings": {}}, (0,), "x",
                       (best, 0.0, 0.0), time.time(), game_id)


def publish(settings: dict[str, Any], messages: list[tuple[str, str | bytes]]) -> None:
    c = raw_client(settings)
    try:
        for topic, payload in messages:
            c.publish(topic, payload, qos=1, retain=True).wait_for_publish(10)
    finally:
        c.disconnect()
        c.loop_stop()


def fresh_watcher(settings: dict[str, Any], timeout: float = 120.0) -> ev.Watcher:
    w = ev.Watcher(settings).start()
    seen, quiet = -1, time.monotonic()

    def read_through() -> bool:                      # as leaderboard-web: re-probe when quiet for a second
        nonlocal seen, quiet
        if w.synced.wait(0.05):                      # the first read done (or 50 ms to look at its progress)
            return True
        if w.progress != seen:
            seen, quiet = w.progress, time.monotonic()
        elif time.monotonic() - quiet > 1.0:
            w.reprobe()
            quiet = time.monotonic()
        return False
    wait_until(read_through, timeout, "the page's reader finishing its first read")
    return w


def test_a_retained_flood_from_one_login_never_undoes_moderation_or_hides_honest_games(
        broker: mosquitto.Broker, event: str, tmp_path: Path) -> None:
    """25,000 retained messages under mallory's own results topics, sent before the event's
    games (mallory has no status message): a fresh page, a fresh kiosk and `event status` still
    get the operator's removal and close and every one of north's games, and name mallory."""
    flood(broker, event)
    north = Cabinet(tmp_path, broker.settings(event), "north")
    fake = forged(event, "mallory")
    publish(mosquitto.login(broker.settings(event), "mallory"), [(results_topic(event, fake.game_id, "mallory"),
                                                                   fake.to_json())])
    op = broker.settings(event, user="operator")
    south = None
    try:
        north.play(3)
        wait_until(lambda: north.pending() == 0)
        ok, text = ev.remove_game(op, fake.game_id, 60)
        assert ok, text
        ok, text = ev.close_event(op, 60)
        assert ok and "3 games on its boards are the final results" in text, text
        page = fresh_watcher(broker.settings(event))
        try:
            board = page.leaderboard
            assert board.closed_at is not None and board.final_complete
            assert sorted(on_board(board)) == sorted(north.uids())
            assert fake.game_id not in board.games and fake.game_id in board.removed
            assert "mallory" in board.flooding
            assert "mallory" in board.snapshot()["flooding"]
            assert "WARNING: cabinet mallory floods its topics" in format_status(board)
        finally:
            page.stop()
        south = Cabinet(tmp_path, broker.settings(event), "south")
        wait_until(lambda: south.link.leaderboard.closed_at is not None and south.link.leaderboard.final_complete,
                   60, "a fresh kiosk got the close")
        assert fake.game_id in south.link.leaderboard.removed
        wait_until(lambda: sorted(on_board(south.link.leaderboard)) == sorted(north.uids()), 60,
                   "a fresh kiosk shows every one of north's games")
        board, problem = ev.watch(op, 60)
        assert problem == "" and sorted(on_board(board)) == sorted(north.uids()), problem
        assert "mallory" in board.flooding
    finally:
        north.stop()
        if south is not None:
            south.stop()


def test_a_game_id_copied_by_another_login_hides_nothing_and_remove_asks_whose(
        broker: mosquitto.Broker, event: str, tmp_path: Path) -> None:
    """mallory publishes a 64-card game under stage-left's game id on its own topic: a fresh
    `event status` still lists stage-left's real game, `event remove` refuses the shared id
    until told whose, and removing mallory's leaves stage-left's game on every board."""
    left = Cabinet(tmp_path, broker.settings(event), "stage-left")
    op = broker.settings(event, user="operator")
    try:
        left.play(1)
        wait_until(lambda: left.pending() == 0)
        gid = left.uids()[0]
        fake = forged(event, "mallory", gid)
        publish(mosquitto.login(broker.settings(event), "mallory"), [
            (status_topic(event, "mallory"), Status("mallory", event, "idle").to_json()),
            (results_topic(event, gid, "mallory"), fake.to_json())])
        board, problem = ev.watch(op, 30)
        assert problem == ""
        assert sorted(r.cabinet for r in board.games_of(gid)) == ["mallory", "stage-left"]
        assert f"stage-left  {gid}" in format_status(board)
        ok, text = ev.remove_game(op, gid, 30)
        assert not ok and "2 cabinets have a game of id" in text and "--cabinet" in text, text
        ok, text = ev.remove_game(op, gid[:8], 30, cabinet="mallory")
        assert ok and "cabinet mallory" in text, text
        after, problem = ev.watch(op, 30)
        assert [(r.cabinet, r.score_text) for r in after.games_of(gid)] == \
            [("stage-left", left.link.leaderboard.games[gid].score_text)]
        wait_until(lambda: [r.cabinet for r in left.link.leaderboard.games_of(gid)] == ["stage-left"])
        left.restart()                       # stage-left's own game is not "removed" for it
        wait_until(lambda: left.pending() == 0 and gid in left.link._seen, 30, "stage-left's game back")
        assert gid not in left.link._removed
    finally:
        left.stop()


@pytest.mark.parametrize("login", ["mallory", "screen-2"])
def test_event_status_and_remove_see_the_games_of_a_login_without_a_status(
        broker: mosquitto.Broker, event: str, login: str) -> None:
    """A login that clears its own status (or never has one, as a big screen's login): the
    boards show its games, and so do `event status` and `event remove <8 characters>`."""
    fake = forged(event, login)
    publish(mosquitto.login(broker.settings(event), login), [
        (results_topic(event, fake.game_id, login), fake.to_json()), (status_topic(event, login), b"")])
    op = broker.settings(event, user="operator")
    board, problem = ev.watch(op, 30)
    assert problem == "" and on_board(board) == [fake.game_id], problem
    assert fake.game_id in format_status(board)
    ok, text = ev.remove_game(op, fake.game_id[:8], 30)
    assert ok and f"cabinet {login}" in text, text
    after, _ = ev.watch(op, 30)
    assert on_board(after) == []


def test_a_high_score_names_only_a_seat_of_its_own_cabinets_game(
        broker: mosquitto.Broker, event: str, tmp_path: Path) -> None:
    """mallory's high-score message naming stage-left's game renames no row of stage-left's."""
    left = Cabinet(tmp_path, broker.settings(event), "stage-left")
    try:
        left.play(1)
        wait_until(lambda: left.pending() == 0)
        gid = left.uids()[0]
        seat = left.link.leaderboard.games[gid].seat
        assert seat is not None
        hs = HighScore(gid, event, "mallory", seat, "ZZZ")
        publish(mosquitto.login(broker.settings(event), "mallory"), [
            (highscore_topic(event, gid, seat, "mallory"), hs.to_json())])
        w = fresh_watcher(broker.settings(event))
        try:
            rows = [r for rs in w.leaderboard.rows().values() for r in rs if r["game_id"] == gid]
            assert rows and rows[0]["who"] == f"P{seat + 1}", rows
            assert rows[0]["cabinet"] == "stage-left"
        finally:
            w.stop()
    finally:
        left.stop()


def test_the_operator_clears_a_flooding_logins_retained_topics_with_one_command(
        broker: mosquitto.Broker, event: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`event clear-cabinet mallory` clears all of a 25,000-message flood (more than one read
    hands over) and mallory's status: a fresh board then names no flooding login."""
    from test_event_hostile import config_file

    from kiosk import cli
    flood(broker, event)
    publish(mosquitto.login(broker.settings(event), "mallory"), [
        (status_topic(event, "mallory"), Status("mallory", event, "idle").to_json())])
    north = Cabinet(tmp_path, broker.settings(event), "north")
    op_cfg = config_file(tmp_path / "operator.toml", broker.settings(event, user="operator"))
    try:
        north.play(2)
        wait_until(lambda: north.pending() == 0)
        assert cli.main(["--config", str(op_cfg), "event", "clear-cabinet", "mallory", "--wait", "60"]) == 0
        assert f"cleared {FLOOD + 1} retained messages" in capsys.readouterr().out
        board, problem = ev.watch(broker.settings(event, user="operator"), 30)
        assert problem == "" and board.flooding == {} and "mallory" not in board.statuses
        assert sorted(on_board(board)) == sorted(north.uids())
    finally:
        north.stop()


def test_a_fraction_of_a_card_or_a_game_from_before_any_event_is_on_no_board(
        broker: mosquitto.Broker, event: str) -> None:
    """62.5 cards (FocusX counts whole cards) and a game that says it finished in 2000."""
    half = forged(event, "mallory", best=62.5)
    old = make_result(event, "mallory", {"game": "focusx-classic", "seats": 3, "settings": {}}, (0,), "x",
                      (60.0, 0.0, 0.0), 946684800.0)
    good = forged(event, "mallory", best=12.0)
    publish(mosquitto.login(broker.settings(event), "mallory"), [
        (status_topic(event, "mallory"), Status("mallory", event, "idle").to_json())] +
        [(results_topic(event, r.game_id, "mallory"), r.to_json()) for r in (half, old, good)])
    board, problem = ev.watch(broker.settings(event, user="operator"), 30)
    assert problem == "" and on_board(board) == [good.game_id]
    reasons = " ".join(board.refused)
    assert "'scores' is [62.5" in reasons and "'finished_at' is 946684800.0" in reasons, reasons
    with pytest.raises(ev.PayloadError, match="counts whole cards"):
        ev.parse(results_topic(event, half.game_id, "mallory"), half.to_json().encode(), event)
    with pytest.raises(ev.PayloadError, match="before any event of this arcade"):
        ev.parse(results_topic(event, old.game_id, "mallory"), old.to_json().encode(), event)


def test_every_perft_example_in_the_readme_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's `perft` lines (an optional part in brackets is run too) answer with rc 0."""
    import re
    import shlex

    from kiosk import cli
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    lines = [m.group(1) for m in re.finditer(r"`focus-arcade (perft [^`]*)`", readme)]
    assert lines, "the README shows no perft example"
    for line in lines:
        argv = shlex.split(line.replace("[", "").replace("]", ""))
        assert cli.main(argv) == 0, (line, capsys.readouterr().err)
        capsys.readouterr()


def test_add_cabinet_prints_the_real_event_name_and_keeps_the_password_file_private(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from kiosk import cli
    need_mosquitto()
    passwd, acl = tmp_path / "passwd", tmp_path / "acl"
    acl.write_text(mosquitto.HALL_ACL.read_text())
    assert cli.main(["--config", str(tmp_path / "none.toml"), "event", "add-cabinet", "stage-left",
                     "--passwd", str(passwd), "--acl", str(acl), "--event", "summer-fair-2026"]) == 0
    out = capsys.readouterr().out
    assert '\nevent = "summer-fair-2026"' in out and '"..."' not in out, out
    assert passwd.stat().st_mode & 0o777 == 0o640
    # Without an event (none given, none configured) no login is made: it could write nowhere.
    assert cli.main(["--config", str(tmp_path / "none.toml"), "event", "add-cabinet", "stage-right",
                     "--passwd", str(passwd), "--acl", str(acl)]) == 1
    assert "needs the event's name" in capsys.readouterr().err
    assert "stage-right" not in passwd.read_text() and "stage-right" not in acl.read_text()


def test_a_flood_while_a_cabinet_is_off_costs_it_nothing_when_it_is_back(
        broker: mosquitto.Broker, event: str, tmp_path: Path) -> None:
    """A cabinet's link kept a persistent session: while the cabinet was off, the broker queued
    every message on the event's topics for it, and one login's flood (not even retained) filled
    that queue (``max_queued_messages``): the games and the operator's removal sent after it
    were dropped from the queue, and the cabinet, back, first chewed through 20,000 junk messages
    and took its own games for lost.  The link now has a clean session: the broker keeps nothing
    for a cabinet that is off, and the cabinet rebuilds the event from the retained messages."""
    north = Cabinet(tmp_path, broker.settings(event), "north")
    south = Cabinet(tmp_path, broker.settings(event), "south")
    op = broker.settings(event, user="operator")
    try:
        north.play(2)
        south.play(2)
        wait_until(lambda: north.pending() == 0 and south.pending() == 0 and
                   len(on_board(north.link.leaderboard)) == 4, what="both cabinets' games on north's board")
        north.link.stop()                                # north is switched off
        north.store.close()
        c = ev.make_client(mosquitto.login(broker.settings(event), "mallory"), "mallory-flood", persistent=False)
        c.max_inflight_messages_set(500)
        c.connect("127.0.0.1", broker.port)
        c.loop_start()
        try:
            for i in range(FLOOD):
                info = c.publish(results_topic(event, f"x{i:06d}", "mallory"), b"x", qos=1, retain=False)
            info.wait_for_publish(120)
        finally:
            c.disconnect()
            c.loop_stop()
        south.play(2)                                    # after the flood, while north is off
        wait_until(lambda: south.pending() == 0, 120, what="south's games are with the broker (a hang guard)")
        ok, text = ev.remove_game(op, south.uids()[0], 30)
        assert ok, text
        north.__init__(tmp_path, north.settings, "north")  # type: ignore[misc]   # switched on again
        want = set(north.uids()) | set(south.uids()[1:])
        wait_until(lambda: set(on_board(north.link.leaderboard)) == want, 60,
                   what="north's board has every game but the removed one")
        assert north.link.leaderboard.ignored == 0, "the flood sent while north was off reached it"
        assert north.link.resent == 0, "north took its own games for lost"
    finally:
        north.stop()
        south.stop()
