"""Strength and speed of the FOCUS computer opponents (prints figures, asserts nothing).

    python bench/bench_sackson_bots.py [--games 100] [--budget 1.0] [--cap 300] [--variant 2p]

Plays ``--games`` games (colours alternating) of "hard" against a one-ply
greedy player on material (most enemy stones captured, then most stones under
its own tops; a baseline that does not share the bots' evaluation), and as many
of "hard" against "medium" (one-ply greedy on the bots' evaluation).  Prints
hard's wins, draws (the rules' own draws: repetition, plies without a capture)
and losses among the games that ended, and - separately, never counted as wins
or losses - the games stopped at ``--cap`` plies, with how the evaluation leaned
when they were stopped (a lead of more than 2 stones' worth either way, else
even).  Then hard's median and worst time per move at the given budget
(seconds, on ``time.monotonic``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arcade.bots.sackson import _capture_gain, choose_action, evaluate  # noqa: E402
from arcade.core.driver import ComputerPlayer, Driver, DriverSettings  # noqa: E402
from arcade.sackson import SacksonGame  # noqa: E402


def greedy_material(state, rng: random.Random):
    """One-ply greedy on material only (captures, then stones controlled)."""
    s = state.copy()
    p = s.current_player()
    moves = s._moves()
    rng.shuffle(moves)

    def score(m):
        gain = _capture_gain(s, m, p)
        s._make(m)
        ctrl = sum(len(st) for st in s._st if st and st[-1] == p)
        won = s.outcome() is not None and p in s.outcome().winners
        s._unmake()
        return (won, gain, ctrl)

    return s._t.action(max(moves, key=score))


class _Bench(ComputerPlayer):
    """A seat of the benchmark: ``choose(state, rng)`` is its move; ``times`` gets hard's per-move time."""

    think_ns = 0

    def __init__(self, choose, times: list[float] | None = None) -> None:
        self._choose = choose
        self.times = times

    def choose(self, state, seat, rng):
        t0 = time.monotonic()
        action = self._choose(state, rng)
        if self.times is not None:
            self.times.append(time.monotonic() - t0)
        return action


def play_game(variant: str, hard_seat: int, opponent: str, seed: int, budget: float, cap: int,
              times: list[float]) -> str:
    """"win", "draw" or "loss" for hard in a finished game; "cap+", "cap=" or "cap-" for a game
    stopped at ``cap`` plies (how the evaluation leaned for hard then).  The match driver plays it."""
    seats = 2
    s = SacksonGame(seats, {"variant": variant}).new_initial_state()
    rng = random.Random(seed)
    hard = _Bench(lambda st, r: choose_action(st, "hard", r, clock=time.monotonic, budget_s=budget), times)
    other = _Bench((lambda st, r: choose_action(st, "medium", r)) if opponent == "medium" else greedy_material)
    players = [hard if seat == hard_seat else other for seat in range(seats)]
    Driver(s, players, rng, DriverSettings(pace_ns=None, max_steps=cap + 10,
                                           stop=lambda st: len(st.history) >= cap)).run_to_end()
    out = s.outcome()
    if out is not None:
        if not out.winners:
            return "draw"
        return "win" if hard_seat in out.winners else "loss"
    v = evaluate(s, hard_seat)
    return "cap+" if v > 2 else ("cap-" if v < -2 else "cap=")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="?", type=int, default=None, help="games per pairing (default 100)")
    ap.add_argument("--games", dest="games_opt", type=int, default=None)
    ap.add_argument("--budget", type=float, default=1.0, help="hard's seconds per move (default 1.0)")
    ap.add_argument("--cap", type=int, default=300, help="plies before adjudication (default 300)")
    ap.add_argument("--variant", choices=("2p", "crossfire"), default="2p")
    args = ap.parse_args(argv)
    games = args.games_opt or args.games or 100
    times: list[float] = []
    t_all = time.monotonic()
    for opponent in ("greedy-material", "medium"):
        tally = {k: 0 for k in ("win", "draw", "loss", "cap+", "cap=", "cap-")}
        for g in range(games):
            tally[play_game(args.variant, g % 2, opponent, 1000 + g, args.budget, args.cap, times)] += 1
        ended = tally["win"] + tally["draw"] + tally["loss"]
        capped = games - ended
        print(f"{args.variant}: hard vs {opponent}: {games} games; {ended} ended: hard won {tally['win']}, "
              f"drew {tally['draw']}, lost {tally['loss']}; {capped} stopped at the {args.cap}-ply cap "
              f"(not counted; evaluation then: hard ahead {tally['cap+']}, even {tally['cap=']}, "
              f"behind {tally['cap-']})")
    if times:
        print(f"hard move time at budget {args.budget:.2f} s: median {statistics.median(times):.3f} s, "
              f"worst {max(times):.3f} s over {len(times)} moves")
    print(f"total {time.monotonic() - t_all:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
