"""How long every computer player's decision takes, per call (prints figures, asserts nothing).

Issue 14: a computer player whose decision may take more than 1 ms must think outside the
render loop.  This plays whole games of every registry entry with computer players at every
seat (:func:`kiosk.players.headless.play`, the registry's own players, the ones the kiosk's scenes
drive), with each player wrapped so that every call the match driver makes of it
(``choose``, ``race_opened``, ``next_press``, ``pressed``...) is timed, and prints per entry,
level and method the number of calls and the median, 99th percentile and worst CPU time of
the calling thread (``time.thread_time_ns``: it holds on a loaded machine) and the worst
wall time.  A call over 1 ms is flagged ``> 1 ms``.

    .venv/bin/python bench/bench_bot_decisions.py [--games 3] [--entries NAME,NAME]
        [--levels easy,medium] [--seed 1]

FOCUS ``hard`` and ``expert`` search for up to a second by design and already think in the
worker process (``kiosk/players/thinker.py``); they are left out unless ``--levels`` names them.
The FocusX placement players over 1 ms and the Focus (2023) partner think there too now:
``bench/bench_worker_decisions.py`` prints what such a decision costs the render thread
next to its time in this process.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from typing import Any

from arcade import registry
from arcade.core.driver import ComputerPlayer
from arcade.core.errors import SettingsError
from kiosk.players import headless

LEVELS = ("easy", "medium", "hard", "expert")
SEARCHERS = {"focus"}                    # families whose hard / expert search (worker process)


def timed(player: Any, book: dict[str, list[tuple[int, int]]]) -> Any:
    """``player`` with every public method its class defines timed into ``book[method]``:
    its class becomes a subclass whose methods time the original ones (a method it inherits
    unchanged from :class:`ComputerPlayer` stays as it is, since the driver looks at that)."""
    cls = type(player)
    wrapped: dict[str, Any] = {}
    for name in dir(cls):
        value = getattr(cls, name)
        if name.startswith("_") or not callable(value) or isinstance(value, type):
            continue
        if getattr(ComputerPlayer, name, None) is value:
            continue

        def wrap(fn: Any, method: str) -> Any:
            def call(self: Any, *args: Any, **kwargs: Any) -> Any:
                c0, t0 = time.thread_time_ns(), time.perf_counter_ns()
                try:
                    return fn(self, *args, **kwargs)
                finally:
                    book[method].append((time.thread_time_ns() - c0, time.perf_counter_ns() - t0))
            return call
        wrapped[name] = wrap(value, name)
    player.__class__ = type(f"Timed{cls.__name__}", (cls,), wrapped)
    return player


def measure(spec: Any, level: str, games: int, seed: int) -> dict[str, list[tuple[int, int]]] | None:
    """Every timed call of ``games`` games of ``spec`` at ``level`` (None: no such level)."""
    book: dict[str, list[tuple[int, int]]] = defaultdict(list)
    seats = spec.demo_seats or spec.default_seats
    orig = spec.computer_players

    def players(state: Any, skills: list[str], ctx: Any) -> list[Any]:
        return [timed(p, book) for p in orig(state, skills, ctx)]

    object.__setattr__(spec, "computer_players", players)
    try:
        for k in range(games):
            headless.play(spec, seats, [level] * seats, seed, k)
    except (SettingsError, KeyError, ValueError) as exc:
        if "skill" in str(exc).lower() or "level" in str(exc).lower() or isinstance(exc, KeyError):
            return None
        raise
    finally:
        object.__delattr__(spec, "computer_players")
    return book


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--entries", default="", help="registry names, comma-separated (default: every entry)")
    ap.add_argument("--levels", default="", help="levels, comma-separated (default: every level but the "
                                                 "FOCUS search levels)")
    a = ap.parse_args()
    want = [n for n in a.entries.split(",") if n]
    print(f"{'entry':<24}{'level':<8}{'method':<14}{'calls':>7}{'cpu med':>9}{'cpu p99':>9}{'cpu max':>9}"
          f"{'wall max':>9}  (ms)")
    for spec in registry.SPECS:
        if want and spec.name not in want:
            continue
        levels = [v for v in a.levels.split(",") if v] or [
            v for v in LEVELS if not (spec.family in SEARCHERS and v in ("hard", "expert"))]
        for level in levels:
            book = measure(spec, level, a.games, a.seed)
            if book is None:
                continue
            for method, calls in sorted(book.items()):
                cpu = [c / 1e6 for c, _ in calls]
                wall = [w / 1e6 for _, w in calls]
                p99 = min(statistics.quantiles(cpu, n=100)[98], max(cpu)) if len(cpu) >= 2 else cpu[0]
                flag = "  > 1 ms" if max(cpu) > 1.0 else ""
                print(f"{spec.name:<24}{level:<8}{method:<14}{len(cpu):>7}{statistics.median(cpu):>9.3f}"
                      f"{p99:>9.3f}{max(cpu):>9.3f}{max(wall):>9.3f}{flag}", flush=True)


if __name__ == "__main__":
    main()
