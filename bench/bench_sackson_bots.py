"""Strength and machine independence of the FOCUS / Crossfire computer players (prints figures).

    python bench/bench_sackson_bots.py [--games 100] [--budget 0.1] [--cap 200] [--jobs 2]
                                      [--boards 2p,crossfire] [--parts duel,same,firstmove]
                                      [--opening 4] [--positions 12] [--slow 8]

Parts:

* ``duel`` - expert against hard **at equal time**: both search until ``--budget``
  seconds have passed on every move (``budget_s``; not their node budgets), ``--games``
  games per board, colours alternating (game ``g``: expert is P1 when ``g`` is even).
  Prints the expert's wins, draws and losses among the games that ended, and the
  games stopped at ``--cap`` plies separately (never counted), with how the
  evaluation leaned then; the expert's share is wins / games; the median time
  per move of each side shows the time was equal.  Both searchers are
  deterministic, so games from the starting position repeat a few lines of play
  (up to the board's symmetry and the clock's noise); ``--opening N`` adds a
  second duel on the same board whose games start with N plies played at random
  (the same plies for both colours of a pair: games ``2i`` and ``2i+1``), so
  every pair of games starts from a different position.
* ``same`` - hard and expert play by nodes (``HARD_NODES``, ``EXPERT_NODES``): the
  same ``--positions`` positions and seeds are searched once here at full speed (no
  clock: the budget alone) and once by the thinking worker (``kiosk/players/thinker.py``, the
  kiosk's own client and stuck rules) running in a CPU quota of 1/``--slow`` of one
  CPU (a cgroup made by the bench: v1 ``cpu.cfs_quota_us`` or v2 ``cpu.max``; needs
  root, and says so when it cannot).  Prints, per board and level, the positions
  where the worker played the same move with the same node count, the moves the
  kiosk's fallback made instead (the worker was killed as stuck), the speed the
  worker actually had (its CPU time / wall time; the machine may be loaded by other
  work, so the quota is an upper bound), and expert's time per move scaled to a
  Pi 3 (CPU seconds here x ``--pi3``).
* ``firstmove`` - who wins Crossfire (and the square board) between equal players:
  medium against medium from the start, medium against medium after two random
  opening plies each, hard against hard, and random against random.

Games run in ``--jobs`` processes (each game is played by one process).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arcade.bots.sackson import decide, evaluate  # noqa: E402
from arcade.core.driver import ComputerPlayer, Driver, DriverSettings  # noqa: E402
from arcade.sackson import SacksonGame  # noqa: E402


class Level(ComputerPlayer):
    """A seat of :func:`decide` at ``level`` (``budget`` s a move when given), timing each move;
    ``opening``: plies of the game played at random first (``level`` "random": all of them)."""

    think_ns = 0

    def __init__(self, level: str, budget: float | None = None, opening: int = 0) -> None:
        self.level, self.budget, self.opening = level, budget, opening
        self.times: list[float] = []

    def choose(self, state: Any, seat: int, rng: random.Random) -> Any:
        if len(state.history) < self.opening or self.level == "random":
            return rng.choice(state.legal_actions())
        t0 = time.monotonic()
        a = decide(state, self.level, rng, clock=time.monotonic if self.budget else None, budget_s=self.budget)
        self.times.append(time.monotonic() - t0)
        return a


def play(state: Any, players: list[Level], rng: random.Random, plies: int) -> Any:
    """Play ``state`` with ``players`` through the match driver until the end or ``plies`` plies."""
    Driver(state, players, rng, DriverSettings(pace_ns=None, max_steps=10**6,
                                               stop=lambda st: len(st.history) >= plies)).run_to_end()
    return state


def duel_game(job: tuple[str, int, float, int, int]) -> tuple[str, list[float], list[float]]:
    """One expert-vs-hard game at equal time; returns the result for the expert and both move times.

    ``opening`` > 0: the game starts with that many random plies, drawn from the pair's seed
    (games ``2i`` and ``2i + 1`` start alike, with the colours swapped)."""
    variant, g, budget, cap, opening = job
    expert_seat = g % 2
    seats = [Level("expert" if p == expert_seat else "hard", budget) for p in range(2)]
    s = SacksonGame(2, {"variant": variant}).new_initial_state()
    if opening:
        orng = random.Random(7000 + g // 2)
        while len(s.history) < opening and not s.is_terminal():
            s.apply(orng.choice(s.legal_actions()))
    s = play(s, seats, random.Random(5000 + g), cap)
    times = {p: seats[p].times for p in range(2)}
    out = s.outcome()
    if out is not None:
        res = "draw" if not out.winners else ("win" if expert_seat in out.winners else "loss")
    else:
        v = evaluate(s, expert_seat)
        res = "cap+" if v > 2 else ("cap-" if v < -2 else "cap=")
    return res, times[expert_seat], times[1 - expert_seat]


def duel(pool: mp.pool.Pool, variant: str, games: int, budget: float, cap: int, opening: int = 0) -> None:
    t0 = time.monotonic()
    results = pool.map(duel_game, [(variant, g, budget, cap, opening) for g in range(games)], chunksize=1)
    tally = {k: 0 for k in ("win", "draw", "loss", "cap+", "cap=", "cap-")}
    et: list[float] = []
    ht: list[float] = []
    as_p1 = [0, 0]
    for g, (r, e, h) in enumerate(results):
        tally[r] += 1
        as_p1[g % 2] += r == "win"
        et += e
        ht += h
    ended = tally["win"] + tally["draw"] + tally["loss"]
    start = f" after {opening} random opening plies (one start per pair of games)" if opening else ""
    print(f"{variant}{start}: expert vs hard at {budget:.2f} s a move each, {games} games, colours alternating: "
          f"expert won {tally['win']} ({100 * tally['win'] / games:.0f}% of all games), drew {tally['draw']}, "
          f"lost {tally['loss']} of {ended} ended; {games - ended} stopped at {cap} plies (not counted; "
          f"evaluation then: expert ahead {tally['cap+']}, even {tally['cap=']}, behind {tally['cap-']})")
    print(f"  expert's wins as P1 (moving first): {as_p1[0]} of {(games + 1) // 2}, as P2: {as_p1[1]} of {games // 2}")
    print(f"  time per move: expert median {statistics.median(et):.3f} s, hard median {statistics.median(ht):.3f} s "
          f"({len(et)} + {len(ht)} moves; {time.monotonic() - t0:.0f} s)")


# -- same moves on a slow worker ---------------------------------------------------------

def positions(variant: str, n: int) -> list[tuple[str, int]]:
    """``n`` (moves-so-far, seed) pairs of mid-game positions reached by medium play."""
    out = []
    for i in range(n):
        s = play(SacksonGame(2, {"variant": variant}).new_initial_state(), [Level("medium"), Level("medium")],
                 random.Random(700 + i), 6 + 3 * i)
        if not s.is_terminal():
            from arcade.sackson.notation import format_action
            out.append((" ".join(format_action(a, s) for _p, a in s.history), 900 + i))
    return out


class SlowCgroup:
    """A cgroup whose processes get at most 1/``slow`` of one CPU (v1 ``cpu`` controller or v2),
    made on entry and removed on exit.  ``error``: why it could not be made (then no quota)."""

    def __init__(self, slow: float) -> None:
        self.slow = slow
        self.path: Path | None = None
        self.error = ""

    def __enter__(self) -> "SlowCgroup":
        period = 100_000
        quota = int(period / self.slow)
        name = f"focus-bench-slow-{os.getpid()}"
        v1 = Path("/sys/fs/cgroup/cpu")
        v2 = Path("/sys/fs/cgroup/cgroup.controllers")
        try:
            if (v1 / "cpu.cfs_quota_us").exists():
                self.path = v1 / name
                self.path.mkdir()
                (self.path / "cpu.cfs_period_us").write_text(str(period))
                (self.path / "cpu.cfs_quota_us").write_text(str(quota))
            elif v2.exists():
                self.path = Path("/sys/fs/cgroup") / name
                self.path.mkdir()
                (self.path / "cpu.max").write_text(f"{quota} {period}")
            else:
                self.error = "no cgroup cpu controller (v1 or v2) on this machine"
        except OSError as exc:
            self.error = f"cannot make a cgroup ({exc}; run as root)"
            self.path = None
        return self

    def command(self, argv: list[str]) -> list[str]:
        """``argv`` started inside the cgroup (as is, when there is none)."""
        if self.path is None:
            return argv
        procs = self.path / "cgroup.procs"
        return ["sh", "-c", f'echo $$ > {procs} && exec "$@"', "sh", *argv]

    def __exit__(self, *exc: object) -> None:
        if self.path is not None:
            for _ in range(50):
                try:
                    self.path.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)          # its last process is still exiting


def same_moves(variant: str, n: int, slow: float, pi3: float) -> None:
    """Each level's move here at full speed and from the thinking worker at 1/``slow`` of one CPU."""
    from arcade.sackson.notation import format_action, play_list
    from kiosk.players import thinker as th

    levels = ("hard", "expert")
    here: dict[str, list[tuple[str, int, float]]] = {lv: [] for lv in levels}
    states = []
    for moves, seed in positions(variant, n):
        s = play_list(SacksonGame(2, {"variant": variant}).new_initial_state(), moves)
        states.append((s, seed))
        for lv in levels:
            stats: dict[str, int] = {}
            c0 = time.thread_time()
            a = decide(s, lv, random.Random(seed), stats=stats)
            here[lv].append((format_action(a, s), stats["nodes"], time.thread_time() - c0))
    with SlowCgroup(slow) as cg:
        if cg.error:
            print(f"{variant}: {cg.error}: the worker runs at full speed")
        t = th.Thinker(command=cg.command([sys.executable, "-m", "kiosk.players.thinker"]))
        try:
            for lv in levels:
                worker: list[tuple[str, int, str, float, float]] = []
                for s, seed in states:
                    def medium(s: Any = s, seed: int = seed) -> list[int]:
                        return list(s._internal(decide(s, "medium", random.Random(seed))))
                    ans = t.ask("focus", th.encode("focus", s), lv, seed, medium).result(timeout=3600)
                    move = format_action(s._t.action(tuple(ans.move)), s)
                    worker.append((move, ans.nodes, ans.source, ans.ms, float(getattr(ans, "cpu_ms", 0.0))))
                ref = here[lv]
                same = sum(1 for a, b in zip(ref, worker) if (a[0], a[1]) == (b[0], b[1]) and b[2] == "worker")
                fell = sum(1 for b in worker if b[2] != "worker")
                speed = [b[4] / b[3] for b in worker if b[3] > 0 and b[4] > 0]
                cpu_here = [a[2] for a in ref]
                line = (f"{variant}: {lv} ({ref[0][1] - 1} nodes), worker at 1/{slow:g} of a CPU: {same} of {len(ref)} "
                        f"positions the same move and node count as at full speed; {fell} moves made by the fallback "
                        f"(worker killed as stuck); wall time a move {statistics.median(b[3] for b in worker) / 1000:.1f} s "
                        f"median, {max(b[3] for b in worker) / 1000:.1f} s max")
                if speed:
                    line += f"; speed the worker had: {statistics.median(speed):.3f} of a CPU (median)"
                print(line)
                print(f"  CPU a move here at full speed: median {statistics.median(cpu_here):.2f} s, max {max(cpu_here):.2f} s"
                      f" -> on a Pi 3 ({pi3:g}x slower): median {pi3 * statistics.median(cpu_here):.1f} s, "
                      f"max {pi3 * max(cpu_here):.1f} s")
                for a, b in zip(ref, worker):
                    if (a[0], a[1]) != (b[0], b[1]) or b[2] != "worker":
                        print(f"  differs: full speed {a[0]} {a[1]} nodes; slow worker {b[0]} {b[1]} nodes ({b[2]}, "
                              f"{b[3] / 1000:.1f} s)")
            print(f"  worker restarts: {t.restarts}", flush=True)
        finally:
            t.close()


# -- who wins between equal players --------------------------------------------------------

def equal_game(job: tuple[str, str, int, int, int]) -> str:
    variant, level, opening, seed, cap = job
    s = play(SacksonGame(2, {"variant": variant}).new_initial_state(),
             [Level(level, opening=opening), Level(level, opening=opening)], random.Random(seed), cap)
    out = s.outcome()
    if out is None:
        return "cap"
    return "draw" if not out.winners else ("P1" if 0 in out.winners else "P2")


def first_move(pool: mp.pool.Pool, variant: str, games: int, cap: int) -> None:
    for level, opening, n in (("medium", 0, games), ("medium", 4, games), ("hard", 0, max(10, games // 5)),
                              ("random", 0, games)):
        res = pool.map(equal_game, [(variant, level, opening, 3000 + g, cap if level != "random" else 600)
                                    for g in range(n)], chunksize=1)
        c = {k: res.count(k) for k in ("P1", "P2", "draw", "cap")}
        what = f"{level} vs {level}" + (f" after {opening} random opening plies" if opening else "")
        print(f"{variant}: {what}: {n} games: P1 won {c['P1']}, P2 won {c['P2']}, drawn {c['draw']}, "
              f"stopped at the cap {c['cap']}")


def _apply_settings(settings: list[tuple[str, int]]) -> None:
    import arcade.bots.sackson as bots
    for k, v in settings:
        setattr(bots, k, v)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="games per board (default 100)")
    ap.add_argument("--budget", type=float, default=0.1, help="seconds per move of both sides in the duel")
    ap.add_argument("--cap", type=int, default=200, help="plies before a game is stopped (default 200)")
    ap.add_argument("--jobs", type=int, default=2, help="processes playing games (default 2)")
    ap.add_argument("--boards", default="2p,crossfire")
    ap.add_argument("--parts", default="duel,same,firstmove")
    ap.add_argument("--opening", type=int, default=0,
                    help="also a duel whose games start with this many random plies (default 0: none)")
    ap.add_argument("--positions", type=int, default=12, help="positions of the 'same' part")
    ap.add_argument("--slow", type=float, default=8, help="the 'same' part's worker gets 1/SLOW of one CPU")
    ap.add_argument("--pi3", type=float, default=10, help="how many times slower than here a Pi 3 is taken")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="experiments: set an integer constant of arcade.bots.sackson in every process")
    args = ap.parse_args(argv)
    boards = args.boards.split(",")
    parts = args.parts.split(",")
    t_all = time.monotonic()
    settings = [(k, int(v)) for k, v in (x.split("=", 1) for x in args.set)]
    if settings:
        print(f"experiment: {settings}")
    with mp.get_context("spawn").Pool(args.jobs, initializer=_apply_settings, initargs=(settings,)) as pool:
        for variant in boards:
            if "duel" in parts:
                duel(pool, variant, args.games, args.budget, args.cap)
                if args.opening:
                    duel(pool, variant, args.games, args.budget, args.cap, args.opening)
            if "same" in parts:
                same_moves(variant, args.positions, args.slow, args.pi3)
            if "firstmove" in parts:
                first_move(pool, variant, args.games, args.cap)
    print(f"total {time.monotonic() - t_all:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
