"""Computer players think in their own process (kiosk/thinker.py): the move comes from the worker,
or - when the worker dies, hangs or speaks another protocol version - from the fallback player,
and the game never loses a move."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arcade.bots.sackson import decide
from arcade.sackson import SacksonGame
from arcade.sackson.notation import play
from kiosk import thinker as th

WAIT = 60.0


def position(variant: str = "2p"):
    s = SacksonGame(2, {"variant": variant}).new_initial_state()
    rng = random.Random(3)
    for _ in range(8):
        s.apply(decide(s, "medium", rng))
    return s


def fake_worker(tmp_path: Path, body: str) -> list[str]:
    script = tmp_path / "worker.py"
    script.write_text(textwrap.dedent(body))
    return [sys.executable, str(script)]


@pytest.fixture()
def thinker():
    made: list[th.Thinker] = []

    def make(**kw):
        t = th.Thinker(**kw)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def marker(s):
    """A fallback that says it was used (and is still a legal move)."""
    move = list(s._internal(decide(s, "easy", random.Random(0))))
    return lambda: move


@pytest.mark.parametrize("variant,level", [("2p", "hard"), ("crossfire", "expert")])
def test_the_worker_plays_the_same_move_as_the_search_here(thinker, variant, level) -> None:
    s = position(variant)
    t = thinker()
    ans = t.ask("focus", th.encode_focus(s), level, 77, marker(s), nodes=3000).result(timeout=WAIT)
    assert ans.source == "worker" and ans.nodes > 0
    here = decide(s, level, random.Random(77), max_nodes=3000)
    assert s._t.action(tuple(ans.move)) == here


def test_encoding_a_state_keeps_position_history_and_set_up_starts() -> None:
    s = position("crossfire")
    back = th.decode_focus(json.loads(json.dumps(th.encode_focus(s))))
    assert back.position_key == s.position_key and back._seen == s._seen
    g = SacksonGame(2)
    setup = play(g.setup({"d4": "BBA", "e6": "AB"}, reserves=[1, 0], to_move=0), "+c3")
    again = th.decode_focus(json.loads(json.dumps(th.encode_focus(setup))))
    assert again.position_text() == setup.position_text()
    with pytest.raises(th.ThinkerError, match="not legal"):
        th.decode_focus({**th.encode_focus(s), "moves": [[0, 0, 9]]})


def test_killing_the_worker_mid_think_still_gives_the_move_and_a_new_worker(thinker) -> None:
    s = position()
    t = thinker()
    fut = t.ask("focus", th.encode_focus(s), "expert", 1, marker(s), nodes=10_000_000, cap_s=60)
    deadline = time.monotonic() + WAIT
    while t.pid is None and time.monotonic() < deadline:
        time.sleep(0.02)
    first = t.pid
    assert first is not None
    time.sleep(0.3)                                # it is searching now
    os.kill(first, signal.SIGKILL)
    ans = fut.result(timeout=WAIT)
    assert ans.source == "fallback" and "stopped" in ans.note
    assert s.check(s.current_player(), s._t.action(tuple(ans.move))) is None
    assert t.restarts == 1
    nxt = t.ask("focus", th.encode_focus(s), "medium", 2, marker(s)).result(timeout=WAIT)
    assert nxt.source == "worker" and t.pid not in (None, first)


def test_a_stuck_worker_is_killed_restarted_and_the_fallback_moves(thinker, tmp_path: Path) -> None:
    cmd = fake_worker(tmp_path, """
        import json, sys, time
        print(json.dumps({"v": 1, "type": "ready", "pid": 0}), flush=True)
        for line in sys.stdin:
            time.sleep(3600)                       # never answers
    """)
    s = position()
    t = thinker(command=cmd, stuck_margin_s=0.3)
    ans = t.ask("focus", th.encode_focus(s), "hard", 1, marker(s), cap_s=0.2).result(timeout=WAIT)
    assert ans.source == "fallback" and "did not answer in time" in ans.note
    assert t.restarts >= 1 and "restarted" in (t.error or "")


def test_a_worker_of_another_protocol_version_is_a_clear_error_and_moves_still_come(thinker, tmp_path) -> None:
    cmd = fake_worker(tmp_path, """
        import json, sys
        print(json.dumps({"v": 99, "type": "ready", "pid": 0}), flush=True)
        for line in sys.stdin:
            pass
    """)
    s = position()
    t = thinker(command=cmd)
    ans = t.ask("focus", th.encode_focus(s), "hard", 1, marker(s)).result(timeout=WAIT)
    assert ans.source == "fallback"
    with pytest.raises(th.ThinkerVersionError, match=r"version 99.*speaks 1"):
        t.poll()
    t.poll()                                       # said once
    again = t.ask("focus", th.encode_focus(s), "hard", 2, marker(s)).result(timeout=WAIT)
    assert again.source == "fallback"


def test_the_worker_answers_bad_requests_with_errors_and_keeps_going() -> None:
    s = position()
    good = {"v": 1, "type": "think", "id": 3, "kind": "focus", "state": th.encode_focus(s), "level": "medium",
            "seed": 5, "nodes": None, "cap_s": 5.0}
    lines = [json.dumps({"v": 2, "type": "think", "id": 1}), "not json",
             json.dumps({**good, "id": 2, "kind": "chess"}), json.dumps(good), json.dumps({"v": 1, "type": "bye"})]
    out = io.StringIO()
    assert th.worker_main(io.StringIO("\n".join(lines) + "\n"), out) == 0
    msgs = [json.loads(x) for x in out.getvalue().splitlines()]
    assert msgs[0]["type"] == "ready" and all(m["v"] == 1 for m in msgs)
    errors = {m.get("id"): m["error"] for m in msgs if m["type"] == "error"}
    assert "protocol version 2" in errors[1] and "speaks 1" in errors[1]
    assert "unknown kind 'chess'" in errors[2]
    assert any("JSON" in e for e in errors.values())
    moves = [m for m in msgs if m["type"] == "move"]
    assert [m["id"] for m in moves] == [3]
    assert s.check(s.current_player(), s._t.action(tuple(moves[0]["move"]))) is None


def test_a_cancelled_request_is_dropped_and_the_next_one_answered(thinker) -> None:
    s = position()
    t = thinker()
    first = t.ask("focus", th.encode_focus(s), "expert", 1, marker(s), nodes=10_000_000, cap_s=60)
    time.sleep(0.5)
    t.cancel()
    assert first.cancelled() and not t.busy
    ans = t.ask("focus", th.encode_focus(s), "medium", 2, marker(s)).result(timeout=WAIT)
    assert ans.source == "worker" and t.restarts == 0


def test_the_worker_gives_the_screen_the_cpu_first_and_still_plays_the_same_move(thinker) -> None:
    """The worker runs at a lower CPU priority (nice) than the kiosk, so on a busy machine the
    render loop is not kept waiting by a search; levels count positions, so the move is the same."""
    s = position("crossfire")
    t = thinker()
    ans = t.ask("focus", th.encode_focus(s), "expert", 5, marker(s), nodes=2000).result(timeout=WAIT)
    assert ans.source == "worker" and t.pid is not None
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert os.getpriority(os.PRIO_PROCESS, t.pid) >= min(19, mine + th.WORKER_NICE)
    assert s._t.action(tuple(ans.move)) == decide(s, "expert", random.Random(5), max_nodes=2000)


def test_wait_idle_returns_only_after_every_answer_is_set(thinker, tmp_path) -> None:
    """A virtual-clock walk (tests/explorer.py) waits with wait_idle and then reads the
    futures: each answer (the worker's or the fallback's) is set while its request still
    counts as waiting, so wait_idle never returns before the move can be read (it could return
    a moment early, and a walk then played one frame later on a busy machine)."""
    s = position()
    t = thinker()
    busy_when_set: list[bool] = []
    fut = t.ask("focus", th.encode_focus(s), "medium", 5, marker(s))
    fut.add_done_callback(lambda _f: busy_when_set.append(t.busy))
    assert t.wait_idle(WAIT) and fut.done()
    cmd = fake_worker(tmp_path, """
        import json, sys, time
        print(json.dumps({"v": 1, "type": "ready", "pid": 0}), flush=True)
        for line in sys.stdin:
            time.sleep(3600)                       # never answers: the fallback moves
    """)
    slow = thinker(command=cmd, stuck_margin_s=0.3)
    fb = slow.ask("focus", th.encode_focus(s), "hard", 1, marker(s), cap_s=0.2)
    fb.add_done_callback(lambda _f: busy_when_set.append(slow.busy))
    assert slow.wait_idle(WAIT) and fb.done() and fb.result().source == "fallback"
    assert busy_when_set == [True, True]
