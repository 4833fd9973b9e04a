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
from test_event import Cabinet, need_mosquitto, on_board, raw_client, wait_until

from kiosk import event as ev
from kiosk.event import format_status, make_result, results_topic

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
    deadline = time.monotonic() + timeout
    seen, quiet = -1, time.monotonic()
    while not w.synced.is_set() and time.monotonic() < deadline:     # as leaderboard-web: re-probe when quiet
        time.sleep(0.05)
        if w.progress != seen:
            seen, quiet = w.progress, time.monotonic()
        elif time.monotonic() - quiet > 1.0:
            w.reprobe()
            quiet = time.monotonic()
    assert w.synced.is_set(), "the page's reader never finished its first read"
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
        board, problem = ev.watch(op, 60)
        assert problem == "" and sorted(on_board(board)) == sorted(north.uids()), problem
        assert "mallory" in board.flooding
    finally:
        north.stop()
        if south is not None:
            south.stop()
