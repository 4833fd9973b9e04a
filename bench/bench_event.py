"""Event benchmark (issues 15, 24): the knee of the hall, cabinets in their own processes.

    python bench/bench_event.py [--cabinets 20,50,100,200] [--per-process 10] [--minutes 1.5]
                                [--period 3] [--dup-every 25] [--kill-broker-at MIN --down-s 10]

For each hall size in ``--cabinets``: a real Mosquitto on 127.0.0.1 started with the
hall's documented configuration (kiosk/hall, as the tests start it), one login per
cabinet, then that many simulated cabinets, ``--per-process`` of them to a process
(each cabinet its own SQLite results file, :class:`kiosk.event.link.EventLink` and broker
login), finishing a game every ``--period`` seconds on average (uniform 0.5x to 1.5x)
for ``--minutes``.  Every ``--dup-every``-th game of a cabinet is sent twice (its
outbox row is put back after the broker acknowledged it, as after a lost
acknowledgement).  A leaderboard watcher in this process records when each game id
first arrives.  With ``--kill-broker-at`` the broker is killed with -9 that many
minutes in and restarted ``--down-s`` seconds later (the cabinets queue meanwhile).
Each cabinet has at most 120 s after the end to empty its outbox.

Prints per size: games finished, on the leaderboard, lost (must be 0), extra (must be
0), duplicate deliveries (counted once), still queued, publish-to-leaderboard latency
(the game saved -> the watcher's leaderboard has it; median, p99), the broker's CPU
(percent of one core) and peak resident memory, and the cabinet processes' CPU and
peak memory (all of them together, and per cabinet).  Run it niced on a shared machine.

    python bench/bench_event.py --web-clients 200 [--web-games 300]

measures the page's server instead: that many live streams while one cabinet saves
games every 10 ms (every stream must get the final count), then the time to build the
leaderboard's JSON (once per change, shared by every stream) at 1k, 6k and 20k games.

    python bench/bench_event.py --flood 22000 [--flood-cabinets 10]

measures the operator's commands against one login's flood: ``--flood-cabinets`` cabinets
play 5 games each, one login publishes that many one-byte retained messages under its own
results topic, then ``event status``'s read (cabinet by cabinet) and ``event remove``'s
(one game's topics) are timed, and so is the old read of everything at once, for comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

GAMES = [("focusx-classic", 4), ("sherlook", 4), ("focus", 2), ("coop", 2), ("focusx-duel", 6)]
SETTINGS = {"focus": {"variant": "2p"}, "coop": {"mode": "base"}}


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])           # utime + stime


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def worker(args: argparse.Namespace) -> int:
    """One process with the cabinets named in ``--names``."""
    import logging
    logging.basicConfig(level=logging.ERROR)
    from mqtt_broker import password_of

    from kiosk.event.link import EventLink
    from kiosk.persist.storage import Results
    settings = {"host": "127.0.0.1", "port": args.port, "tls": False, "ca_file": "", "username": "",
                "password": "", "password_file": "", "event": "bench", "cabinet": ""}
    folder = Path(args.dir)
    names = args.names.split(",")
    stop_at = time.time() + args.seconds
    out: dict[str, object] = {}

    def cabinet(name: str) -> None:
        rng = random.Random(name)
        store = Results(folder / f"{name}.sqlite3")
        link = EventLink({**settings, "cabinet": name, "username": name, "password": password_of(name)},
                         store.path, cabinet=name)
        store.outbox_hook, store.outbox_committed = link.outbox_hook, link.committed
        link.start()
        n = 0
        dups = 0
        next_at = time.time() + rng.uniform(0, args.period)
        while time.time() < stop_at:
            time.sleep(max(0.0, min(next_at, stop_at) - time.time()))
            if time.time() >= stop_at:
                break
            game, seats = rng.choice(GAMES)
            scores = tuple(float(rng.randrange(0, 20 if game != "focus" else 10)) for _ in range(seats))
            winners = (scores.index(max(scores)),)
            store.save({"game": game, "seats": seats, "settings": SETTINGS.get(game, {})}, winners, "bench", scores)
            n += 1
            link.set_status("playing" if n % 2 else "idle", game, "LED: off")
            if args.dup_every and n % args.dup_every == 0:
                # As after a lost PUBACK: once this game has left the outbox, send it again.
                row = store.db.execute("SELECT game_uid FROM event_games ORDER BY games_id DESC LIMIT 1").fetchone()
                uid = row[0]
                deadline = time.time() + 10
                while time.time() < deadline and store.db.execute(
                        "SELECT COUNT(*) FROM outbox WHERE game_uid = ?", (uid,)).fetchone()[0]:
                    time.sleep(0.05)
                from kiosk.event.link import results_topic
                r = link.leaderboard.games.get(uid)
                if r is not None:
                    with store.db:
                        store.db.execute("INSERT OR IGNORE INTO outbox (game_uid, topic, payload, created_at) "
                                         "VALUES (?, ?, ?, ?)", (uid, results_topic("bench", uid, name), r.to_json(),
                                                                  time.time()))
                    link.poke()
                    dups += 1
            next_at += rng.uniform(0.5, 1.5) * args.period
        deadline = time.time() + 120
        while time.time() < deadline and link.pending():
            time.sleep(0.2)
        uids = [r[0] for r in store.db.execute("SELECT game_uid FROM event_games ORDER BY games_id")]
        out[name] = {"games": uids, "dups": dups, "pending": link.pending(), "resent": link.resent}
        link.stop()
        store.close()

    threads = [threading.Thread(target=cabinet, args=(n,)) for n in names]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (folder / f"done-{names[0]}.json").write_text(json.dumps(out))
    return 0


def run_size(args: argparse.Namespace, n_cabinets: int) -> dict[str, float]:
    """One hall of ``n_cabinets``; prints its figures and returns them."""
    import mqtt_broker as mosquitto

    from kiosk.event.link import Watcher
    folder = Path(tempfile.mkdtemp(prefix="bench-event-"))
    broker = mosquitto.Broker(folder / "broker", autosave_every_change=False)
    names = [f"cab{i:03d}" for i in range(n_cabinets)]
    for name in names:
        broker.grant(name, "bench")              # its login, and its lines in the hall's ACL
    broker.start()
    settings = broker.settings("bench")
    watcher = Watcher(settings)
    arrivals: dict[str, float] = {}
    latencies: list[float] = []
    lock = threading.Lock()

    add = watcher.leaderboard.add

    def timed_add(result: Any, own: bool = False, retained: bool = False) -> bool:
        # When each game id first reaches the watcher's leaderboard (paho's thread).
        new = add(result, own, retained)
        if new and result.game_id not in arrivals:
            now = time.time()
            with lock:
                arrivals[result.game_id] = now
                latencies.append((now - result.finished_at) * 1000)
        return new

    watcher.leaderboard.add = timed_add  # type: ignore[method-assign]
    watcher.start()
    seconds = args.minutes * 60
    base = [sys.executable, __file__, "--worker", "--port", str(broker.port), "--dir", str(folder),
            "--seconds", str(seconds), "--period", str(args.period), "--dup-every", str(args.dup_every)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    groups = [names[i:i + args.per_process] for i in range(0, len(names), args.per_process)]
    procs = [subprocess.Popen(base + ["--names", ",".join(g)], env=env) for g in groups]
    t0 = time.time()

    def cabinet_ticks() -> int:
        total = 0
        for pr in procs:
            try:
                total += _cpu_ticks(pr.pid)
            except (FileNotFoundError, ProcessLookupError, IndexError):
                pass
        return total

    ticks0 = {"broker": _cpu_ticks(broker.pid), "cabinets": cabinet_ticks()}
    ticks1 = dict(ticks0)
    peak = {"broker": 0, "cabinets": 0}
    broker_done = 0
    killed = False
    while any(pr.poll() is None for pr in procs):
        if args.kill_broker_at and not killed and time.time() - t0 >= args.kill_broker_at * 60:
            killed = True
            broker_done += ticks1["broker"] - ticks0["broker"]
            broker.kill()
            print(f"bench_event: broker killed (-9) at {(time.time() - t0) / 60:.1f} min, "
                  f"down for {args.down_s:g} s", flush=True)
            time.sleep(args.down_s)
            broker.start()
            ticks0["broker"] = ticks1["broker"] = _cpu_ticks(broker.pid)
        try:
            if time.time() - t0 <= seconds:
                ticks1 = {"broker": _cpu_ticks(broker.pid), "cabinets": cabinet_ticks()}
            peak["broker"] = max(peak["broker"], _rss_kb(broker.pid))
            rss = 0
            for pr in procs:
                try:
                    rss += _rss_kb(pr.pid)
                except (FileNotFoundError, ProcessLookupError):
                    pass
            peak["cabinets"] = max(peak["cabinets"], rss)
        except (FileNotFoundError, ProcessLookupError, IndexError):
            pass
        time.sleep(1.0)
    played_s = min(seconds, time.time() - t0)
    time.sleep(2.0)
    done: dict[str, dict[str, object]] = {}
    for f in folder.glob("done-*.json"):
        done.update(json.loads(f.read_text()))
    created = [uid for d in done.values() for uid in d["games"]]  # type: ignore[union-attr]
    injected = sum(int(d["dups"]) for d in done.values())  # type: ignore[arg-type]
    pending = sum(int(d["pending"]) for d in done.values())  # type: ignore[arg-type]
    resent = sum(int(d.get("resent", 0)) for d in done.values())  # type: ignore[arg-type]
    seen = set(watcher.leaderboard.games)
    lost = set(created) - seen
    extra = seen - set(created)
    hz = os.sysconf("SC_CLK_TCK")
    watcher.stop()
    broker.stop()
    lat = sorted(latencies)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan")
    ticks1["broker"] += broker_done
    cpu = {who: (ticks1[who] - ticks0[who]) / hz / played_s * 100 for who in ("broker", "cabinets")}
    print(f"bench_event: {n_cabinets} cabinets in {len(procs)} processes, {played_s / 60:.1f} min, a game every "
          f"{args.period:g} s per cabinet (mean)")
    print(f"  games finished            {len(created)} ({len(set(created))} distinct ids), "
          f"{pending} still in outboxes after the drain")
    print(f"  games on the leaderboard  {len(seen)}")
    print(f"  messages lost             {len(lost)}")
    print(f"  extra games               {len(extra)}")
    print(f"  duplicates sent           {injected}; duplicate deliveries seen {watcher.leaderboard.duplicates}, "
          f"each counted once")
    if args.kill_broker_at:
        print(f"  re-sent after the crash   {resent} games the restarted broker no longer held")
    print(f"  publish->leaderboard ms   median {statistics.median(lat):.1f}  p99 {p99:.1f}  max {lat[-1]:.1f}"
          if lat else "  no latency samples")
    print(f"  broker (mosquitto)        CPU {cpu['broker']:.1f} % of a core, peak RSS {peak['broker'] / 1024:.1f} MiB")
    print(f"  cabinets (all)            CPU {cpu['cabinets']:.1f} % of a core, peak RSS "
          f"{peak['cabinets'] / 1024:.0f} MiB; per cabinet {cpu['cabinets'] / n_cabinets:.2f} % and "
          f"{peak['cabinets'] / 1024 / n_cabinets:.1f} MiB", flush=True)
    return {"cabinets": n_cabinets, "games": len(created), "lost": len(lost), "extra": len(extra),
            "pending": pending, "median": statistics.median(lat) if lat else float("nan"), "p99": p99,
            "broker_cpu": cpu["broker"], "broker_mib": peak["broker"] / 1024, "cab_cpu": cpu["cabinets"],
            "cab_mib": peak["cabinets"] / 1024}


def run_web(args: argparse.Namespace) -> int:
    """The page's server with ``--web-clients`` live streams while one cabinet saves
    ``--web-games`` games as fast as it can; then the JSON build time at 1k / 6k / 20k games."""
    import selectors
    import socket

    import mqtt_broker as mosquitto

    from kiosk.event.link import EventLink, Leaderboard, make_result
    from kiosk.event.web import LeaderboardWeb
    from kiosk.persist.storage import Results
    folder = Path(tempfile.mkdtemp(prefix="bench-event-web-"))
    broker = mosquitto.Broker(folder / "broker", autosave_every_change=False)
    broker.add_user("cab000")
    broker.start()
    web = LeaderboardWeb(broker.settings("bench"), port=0, max_per_address=args.web_clients + 10).start()
    sel = selectors.DefaultSelector()
    last: dict[int, bytes] = {}
    failed = 0
    socks = []
    for _ in range(args.web_clients):
        try:
            c = socket.create_connection(("127.0.0.1", web.port), timeout=5)
            c.sendall(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
            c.setblocking(False)
            sel.register(c, selectors.EVENT_READ)
            socks.append(c)
            last[c.fileno()] = b""
        except OSError:
            failed += 1
    stop = threading.Event()
    ok = {c.fileno(): False for c in socks}
    want = f'"games": {args.web_games},'.encode()

    def read() -> None:
        while not stop.is_set():
            for key, _ in sel.select(0.2):
                c = key.fileobj
                assert isinstance(c, socket.socket)
                try:
                    data = c.recv(1 << 20)
                except OSError:
                    data = b""
                if not data:
                    sel.unregister(c)
                    continue
                buf = (last[c.fileno()] + data)[-(1 << 21):]
                last[c.fileno()] = buf
                if want in buf:
                    ok[c.fileno()] = True

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    store = Results(folder / "cab000.sqlite3")
    link = EventLink(mosquitto.login(broker.settings("bench", "cab000"), "cab000"), store.path, cabinet="cab000")
    store.outbox_hook, store.outbox_committed = link.outbox_hook, link.committed
    link.start()
    t0 = time.time()
    for n in range(args.web_games):
        scores = (float(n % 30), float((n * 7) % 30))
        store.save({"game": "sherlook", "seats": 2, "settings": {}}, (0 if scores[0] >= scores[1] else 1,),
                   "bench", scores)
        time.sleep(0.01)
    deadline = time.time() + 60
    while time.time() < deadline and not all(ok.values()):
        time.sleep(0.1)
    took = time.time() - t0
    stop.set()
    reader.join(2)
    changes = web.watcher.leaderboard.changes
    builds = web.builds
    link.stop()
    store.close()
    web.stop()
    broker.stop()
    for c in socks:
        c.close()
    print(f"bench_event --web-clients: {args.web_clients} live page streams, {args.web_games} games saved "
          f"one every 10 ms")
    print(f"  streams that could not connect   {failed}")
    print(f"  streams with the final count     {sum(ok.values())} of {len(socks)} within {took:.1f} s of the first game")
    print(f"  leaderboard changes / JSON builds {changes} / {builds} (shared by every stream)")
    for n in (1000, 6000, 20000):
        board = Leaderboard()
        for k in range(n):
            sc = (float(k % 30), float((k * 7) % 30))
            board.add(make_result("bench", f"cab{k % 100:03d}", {"game": "sherlook", "seats": 2, "settings": {}},
                                  (0,), "r", sc, 1000.0 + k))
        from kiosk.event.link import dumps
        t = time.perf_counter()
        text = dumps(board.snapshot(10))
        ms = (time.perf_counter() - t) * 1000
        print(f"  JSON build at {n:>5} games       {ms:.1f} ms once per change ({len(text) / 1024:.0f} KiB)")
    return 0 if failed == 0 and all(ok.values()) else 1


def run_flood(args: argparse.Namespace) -> int:
    """``--flood N``: the operator's reads through N retained junk messages of one login."""
    import mqtt_broker as mosquitto

    from kiosk.event import link as ev
    from kiosk.persist.storage import Results
    folder = Path(tempfile.mkdtemp(prefix="bench-event-flood-"))
    broker = mosquitto.Broker(folder / "broker", autosave_every_change=False).start()
    links, stores = [], []
    for k in range(args.flood_cabinets):
        name = f"cab{k:03d}"
        store = Results(folder / f"{name}.sqlite3")
        link = ev.EventLink(mosquitto.login(broker.settings("bench", name), name), store.path, cabinet=name)
        store.outbox_hook, store.outbox_committed = link.outbox_hook, link.committed
        link.start()
        for n in range(5):
            store.save({"game": "sherlook", "seats": 2, "settings": {}}, (0,), "bench", (float(10 + n), 1.0))
        links.append(link)
        stores.append(store)
    while any(link.pending() for link in links):
        time.sleep(0.1)
    flood = ev.make_client(mosquitto.login(broker.settings("bench"), "flooder"), "flooder", persistent=False)
    flood.max_inflight_messages_set(500)
    flood.connect("127.0.0.1", broker.port)
    flood.loop_start()
    flood.publish(ev.status_topic("bench", "flooder"), ev.Status("flooder", "bench", "idle").to_json(), qos=1,
                  retain=True).wait_for_publish(10)
    t = time.perf_counter()
    info = None
    for i in range(args.flood):
        info = flood.publish(ev.results_topic("bench", f"x{i}", "flooder"), b"x", qos=1, retain=True)
    if info is not None:
        info.wait_for_publish(300)
    published = time.perf_counter() - t
    flood.loop_stop()
    op = broker.settings("bench", user="operator")
    games = 5 * args.flood_cabinets
    print(f"bench_event --flood: {args.flood} one-byte retained messages from one login "
          f"(published in {published:.1f} s), {args.flood_cabinets} cabinets with {games} games")
    gid = next(iter(links[0].leaderboard.games))
    for what, kw in (("event status (cabinet by cabinet)", {}), ("event remove's read (one game)", {"game_id": gid}),
                     ("everything at once, probe resent", {"stepwise": False})):
        t = time.perf_counter()
        board, problem = ev.watch(op, 60.0, **kw)   # type: ignore[arg-type]
        took = time.perf_counter() - t
        print(f"  {what:<36} {took:6.2f} s  games read {len(board.games):>4}  "
              f"flooding named {sorted(board.flooding) or '-'}  {problem or 'answered'}")
    for link in links:
        link.stop()
    for store in stores:
        store.close()
    broker.stop()
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cabinets", default="20,50,100,200", help="hall sizes to run, one after the other")
    p.add_argument("--per-process", type=int, default=10, help="cabinets in one process (default 10)")
    p.add_argument("--minutes", type=float, default=1.5, help="how long cabinets play at each size (default 1.5)")
    p.add_argument("--period", type=float, default=3.0, help="mean seconds between a cabinet's games")
    p.add_argument("--dup-every", type=int, default=25, help="send every Nth game of a cabinet twice (0 = never)")
    p.add_argument("--kill-broker-at", type=float, default=0.0,
                   help="minutes after the start to kill the broker with -9 (0 = never); it restarts after --down-s")
    p.add_argument("--down-s", type=float, default=10.0, help="seconds the killed broker stays down")
    p.add_argument("--web-clients", type=int, default=0,
                   help="instead: the page's server with this many live streams (and its JSON build times)")
    p.add_argument("--web-games", type=int, default=300, help="with --web-clients: games saved meanwhile")
    p.add_argument("--flood", type=int, default=0,
                   help="instead: time the operator's reads through this many retained messages of one login")
    p.add_argument("--flood-cabinets", type=int, default=10, help="with --flood: cabinets with 5 games each")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--names", default="", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--dir", default="", help=argparse.SUPPRESS)
    p.add_argument("--seconds", type=float, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        return worker(args)
    import mqtt_broker as mosquitto
    if not mosquitto.available():
        print("bench_event: mosquitto, mosquitto_passwd and openssl are needed (apt-get install mosquitto openssl)")
        return 2
    if args.web_clients:
        return run_web(args)
    if args.flood:
        return run_flood(args)
    try:
        sizes = [int(x) for x in args.cabinets.split(",")]
    except ValueError:
        print(f"bench_event: --cabinets {args.cabinets!r}: expected sizes such as 20,50,100")
        return 2
    if not sizes or min(sizes) < 1 or args.per_process < 1:
        print("bench_event: --cabinets and --per-process: expected 1 or more")
        return 2
    rows = [run_size(args, n) for n in sizes]
    print()
    print(f"{'cabinets':>8} {'games':>6} {'lost':>5} {'extra':>5} {'queued':>6} {'median ms':>9} {'p99 ms':>8} "
          f"{'broker %':>8} {'MiB':>5} {'cabinets %':>10} {'MiB':>5}")
    for r in rows:
        print(f"{r['cabinets']:>8} {r['games']:>6} {r['lost']:>5} {r['extra']:>5} {r['pending']:>6} "
              f"{r['median']:>9.1f} {r['p99']:>8.1f} {r['broker_cpu']:>8.1f} {r['broker_mib']:>5.1f} "
              f"{r['cab_cpu']:>10.1f} {r['cab_mib']:>5.0f}")
    return 0 if all(not r["lost"] and not r["extra"] and not r["pending"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
