"""Computer players think in their own process (kiosk/players/thinker.py): the move comes from the worker,
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
from waiting import wait_until

from arcade.bots.sackson import decide
from arcade.sackson import SacksonGame
from arcade.sackson.notation import play
from kiosk.players import thinker as th

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


def searching(t: th.Thinker) -> bool:
    """The worker has reported progress (its CPU time) on the newest request: it is searching it."""
    got = t._reported
    return got is not None and got[0] == t._ticket


def marker(s):
    """A fallback that says it was used (and is still a legal move)."""
    move = list(s._internal(decide(s, "easy", random.Random(0))))
    return lambda: move


@pytest.mark.parametrize("variant,level", [("2p", "hard"), ("crossfire", "expert")])
def test_the_worker_plays_the_same_move_as_the_search_here(thinker, variant, level) -> None:
    s = position(variant)
    t = thinker()
    ans = t.ask("focus", th.encode("focus", s), level, 77, marker(s), nodes=3000).result(timeout=WAIT)
    assert ans.source == "worker" and ans.nodes > 0
    here = decide(s, level, random.Random(77), max_nodes=3000)
    assert s._t.action(tuple(ans.move)) == here


def test_encoding_a_state_keeps_position_history_and_set_up_starts() -> None:
    s = position("crossfire")
    back = th.decode("focus", json.loads(json.dumps(th.encode("focus", s))))
    assert back.position_key == s.position_key and back._seen == s._seen
    g = SacksonGame(2)
    setup = play(g.setup({"d4": "BBA", "e6": "AB"}, reserves=[1, 0], to_move=0), "+c3")
    again = th.decode("focus", json.loads(json.dumps(th.encode("focus", setup))))
    assert again.position_text() == setup.position_text()
    with pytest.raises(th.ThinkerError, match="not legal"):
        th.decode("focus", {**th.encode("focus", s), "moves": [[0, 0, 9]]})


def test_killing_the_worker_mid_think_still_gives_the_move_and_a_new_worker(thinker) -> None:
    s = position()
    t = thinker()
    fut = t.ask("focus", th.encode("focus", s), "expert", 1, marker(s), nodes=10_000_000, cap_s=60)
    wait_until(lambda: searching(t), WAIT, "the worker searching (its first progress report)")
    first = t.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    ans = fut.result(timeout=WAIT)
    assert ans.source == "fallback" and "stopped" in ans.note
    assert s.check(s.current_player(), s._t.action(tuple(ans.move))) is None
    assert t.restarts == 1
    nxt = t.ask("focus", th.encode("focus", s), "medium", 2, marker(s)).result(timeout=WAIT)
    assert nxt.source == "worker" and t.pid not in (None, first)


def test_a_stuck_worker_is_killed_restarted_and_the_fallback_moves(thinker, tmp_path: Path) -> None:
    cmd = fake_worker(tmp_path, """
        import json, sys, time
        print(json.dumps({"v": 1, "type": "ready", "pid": 0}), flush=True)
        for line in sys.stdin:
            sys.stdin.read()                       # takes the request, never answers (until its input closes)
    """)
    s = position()
    t = thinker(command=cmd, silent_s=0.3)
    ans = t.ask("focus", th.encode("focus", s), "hard", 1, marker(s)).result(timeout=WAIT)
    assert ans.source == "fallback" and "showed no progress" in ans.note
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
    ans = t.ask("focus", th.encode("focus", s), "hard", 1, marker(s)).result(timeout=WAIT)
    assert ans.source == "fallback"
    with pytest.raises(th.ThinkerVersionError, match=r"version 99.*speaks 1"):
        t.poll()
    t.poll()                                       # said once
    again = t.ask("focus", th.encode("focus", s), "hard", 2, marker(s)).result(timeout=WAIT)
    assert again.source == "fallback"


def test_the_worker_answers_bad_requests_with_errors_and_keeps_going() -> None:
    s = position()
    good = {"v": 1, "type": "think", "id": 3, "kind": "focus", "state": th.encode("focus", s), "level": "medium",
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
    first = t.ask("focus", th.encode("focus", s), "expert", 1, marker(s), nodes=10_000_000, cap_s=60)
    wait_until(lambda: searching(t), WAIT, "the worker searching (its first progress report)")
    t.cancel()
    assert first.cancelled() and not t.busy
    ans = t.ask("focus", th.encode("focus", s), "medium", 2, marker(s)).result(timeout=WAIT)
    assert ans.source == "worker" and t.restarts == 0


def test_the_worker_gives_the_screen_the_cpu_first_and_still_plays_the_same_move(thinker) -> None:
    """The worker runs at a lower CPU priority (nice) than the kiosk, so on a busy machine the
    render loop is not kept waiting by a search; levels count positions, so the move is the same."""
    s = position("crossfire")
    t = thinker()
    ans = t.ask("focus", th.encode("focus", s), "expert", 5, marker(s), nodes=2000).result(timeout=WAIT)
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
    fut = t.ask("focus", th.encode("focus", s), "medium", 5, marker(s))
    fut.add_done_callback(lambda _f: busy_when_set.append(t.busy))
    assert t.wait_idle(WAIT) and fut.done()
    cmd = fake_worker(tmp_path, """
        import json, sys, time
        print(json.dumps({"v": 1, "type": "ready", "pid": 0}), flush=True)
        for line in sys.stdin:
            sys.stdin.read()                       # never answers: the fallback moves
    """)
    slow = thinker(command=cmd, silent_s=0.3)
    fb = slow.ask("focus", th.encode("focus", s), "hard", 1, marker(s))
    fb.add_done_callback(lambda _f: busy_when_set.append(slow.busy))
    assert slow.wait_idle(WAIT) and fb.done() and fb.result().source == "fallback"
    assert busy_when_set == [True, True]


# -- the worker is judged by the time it had, not by the wall clock (issue 22) ----------------

SLOW_WORKER = """
    import json, os, sys
    sys.path.insert(0, TESTS_DIR)
    from waiting import wait_until
    clock, seen, move, steps, step_s, cpu_step = sys.argv[1:7]
    steps, step_s, cpu_step = int(steps), float(step_s), float(cpu_step)

    def write(path, text):
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)

    def client_saw(t):
        try:
            with open(seen) as f:
                return float(f.read() or "-1") >= t
        except (OSError, ValueError):
            return False

    print(json.dumps({"v": 1, "type": "ready", "pid": os.getpid()}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("type") == "bye":
            break
        if req.get("type") != "think":
            continue
        for i in range(1, steps + 1):
            write(clock, str(step_s * i))          # the client's clock: step_s more seconds have passed
            print(json.dumps({"v": 1, "type": "progress", "id": req["id"], "cpu_s": round(cpu_step * i, 3)}),
                  flush=True)
            wait_until(lambda: client_saw(step_s * i), what="the client reading its clock",
                       max_pause_s=0.005)
        print(json.dumps({"v": 1, "type": "move", "id": req["id"], "move": json.loads(move), "nodes": 1}),
              flush=True)
"""


def slow_worker(tmp_path: Path, s, steps: int, step_s: float, cpu_step: float):
    """A fake worker that reports ``steps`` times ``cpu_step`` more CPU seconds, each while the
    client's clock (the second value) moves ``step_s`` seconds on, then answers ``marker(s)``'s
    move; the clock moves only when the worker says so, and the worker goes on only once the
    client has read it."""
    clock_file, seen_file = tmp_path / "clock", tmp_path / "seen"
    clock_file.write_text("0")
    body = SLOW_WORKER.replace("TESTS_DIR", repr(str(Path(__file__).parent)))
    cmd = fake_worker(tmp_path, body) + [str(clock_file), str(seen_file), json.dumps(marker(s)()),
                                         str(steps), str(step_s), str(cpu_step)]

    def clock() -> float:
        try:
            t = float(clock_file.read_text() or "0")
        except (OSError, ValueError):
            t = 0.0
        (tmp_path / "seen.tmp").write_text(str(t))
        os.replace(tmp_path / "seen.tmp", seen_file)
        return t

    return cmd, clock


def test_a_worker_thinking_slowly_but_making_progress_is_not_restarted(thinker, tmp_path: Path) -> None:
    """A worker starved of CPU (by the frame loop, a loaded machine) thinks for 150 s of the
    client's clock - far beyond any wall-clock limit - getting 1 % of a CPU: each report shows
    more CPU time, so it is not killed and its move is the one played."""
    s = position()
    cmd, clock = slow_worker(tmp_path, s, steps=30, step_s=5.0, cpu_step=0.05)
    t = thinker(command=cmd, clock=clock)
    ans = t.ask("focus", th.encode("focus", s), "hard", 1, lambda: [-9, -9, -9]).result(timeout=WAIT)
    assert (ans.source, ans.move) == ("worker", marker(s)()) and t.restarts == 0


def test_a_worker_using_more_cpu_than_its_budget_allows_is_restarted(thinker, tmp_path: Path) -> None:
    """A worker that goes on past its search's safety cap plus the margin, in its own CPU time
    (a runaway), is stopped and the fallback moves."""
    from arcade.bots.sackson import HARD_NODES, safety_cap_s

    s = position()
    steps = int((safety_cap_s(HARD_NODES) + th.STUCK_MARGIN_S) / 1.0) + 5
    cmd, clock = slow_worker(tmp_path, s, steps=steps, step_s=1.0, cpu_step=1.0)
    t = thinker(command=cmd, clock=clock)
    ans = t.ask("focus", th.encode("focus", s), "hard", 1, marker(s)).result(timeout=WAIT)
    assert ans.source == "fallback" and "CPU-s" in ans.note and t.restarts == 1


def test_the_worker_searches_by_the_cpu_time_it_had_and_reports_its_progress(monkeypatch) -> None:
    """The worker's searches read its thinking thread's CPU time: time spent waiting for the CPU
    (here, asleep) does not bring a safety cap nearer; while it thinks it reports that CPU time."""
    def nap(req, clock):
        t0 = clock()
        time.sleep(0.3)  # the thing under test: wall time with no CPU time (the worker's "ms" reads the wall clock)
        return [clock() - t0], 0

    monkeypatch.setitem(th.KINDS, "nap", nap)
    s = position("crossfire")
    lines = [json.dumps({"v": 1, "type": "think", "id": 1, "kind": "nap"}),
             json.dumps({"v": 1, "type": "think", "id": 2, "kind": "focus", "state": th.encode("focus", s),
                         "level": "expert", "seed": 4, "nodes": 4000, "cap_s": None})]
    out = io.StringIO()
    assert th.worker_main(io.StringIO("\n".join(lines) + "\n"), out, heartbeat_s=0.01) == 0
    msgs = [json.loads(x) for x in out.getvalue().splitlines()]
    moves = {m["id"]: m for m in msgs if m["type"] == "move"}
    assert moves[1]["move"][0] < 0.1 and moves[1]["ms"] >= 300
    assert s._t.action(tuple(moves[2]["move"])) == decide(s, "expert", random.Random(4), max_nodes=4000)
    assert moves[2]["nodes"] == 4001 and moves[2]["cpu_ms"] > 0
    reports = [m["cpu_s"] for m in msgs if m["type"] == "progress" and m["id"] == 1]
    assert reports and max(reports) < 0.1
