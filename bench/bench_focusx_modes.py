"""Speed of headless FocusX games per mode, and how the computer players' levels compare
(prints figures, asserts nothing).

    python bench/bench_focusx_modes.py [--games 20] [--races 4000] [--mixed 40] [--seed 1]

1. Headless games per second (``kiosk.players.headless.run_focusx``'s path: the real
   referee and judge in virtual time) for Classic, ThinkFocus, Duel and 4Focus
   with 4 computer players ("medium"), without and with the FocusX rule.
2. Two-seat shout races per pair of skill levels (``arcade.bots.shout``
   plans, judged by ``arcade.core.judge``): how often the weaker level wins a
   "first" race (a focus showing) against the stronger one, how often they tie
   (R-4) and how often nobody claims; and in a Duel "last" race between two
   owners, how often the weaker one presses last.
3. Mixed tables: every level at one table (ThinkFocus and 4Focus: placement
   and shouting; Duel and Classic: shouting), the share of games each level
   wins (a shared win counts a share).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arcade import registry  # noqa: E402
from arcade.bots.shout import SKILLS, plan_race, skill  # noqa: E402
from arcade.core.events import Edge  # noqa: E402
from arcade.core.judge import JudgeSettings, judge_race  # noqa: E402
from arcade.core.race import FOCUS, RaceSpec  # noqa: E402
from arcade.focusx.autoplay import SimConfig, simulate  # noqa: E402

MS = 1_000_000
MODES = ("classic", "thinkfocus", "duel", "4focus")
LEVELS = list(SKILLS)


def games_per_second(mode: str, n: int, seed: int, x_rule: bool) -> tuple[float, float]:
    """(games per second, mean actions per game) for ``n`` headless games of 4 medium players."""
    game_cls = registry.resolve("focusx", mode).game_class()
    actions = 0
    start = time.perf_counter()
    for k in range(n):
        state = game_cls(4, {"x_rule": x_rule}).new_initial_state()
        simulate(state, random.Random(f"{seed}-{k}"), SimConfig(skills=["medium"] * 4))
        actions += len(state.history)
    dt = time.perf_counter() - start
    return n / dt, actions / n


def _edges(seat: int, opened: int, plan) -> list[Edge]:
    t = opened + int(plan.delay_ms * MS)
    out = [Edge(t, seat, plan.control, True), Edge(t + 90 * MS, seat, plan.control, False)]
    if plan.double:
        out += [Edge(t + 150 * MS, seat, plan.control, True), Edge(t + 240 * MS, seat, plan.control, False)]
    return out


def race_pair(weak: str, strong: str, n: int, rng: random.Random) -> dict[str, float]:
    """Seat 0 = ``weak``, seat 1 = ``strong``, ``n`` races of each kind."""
    settings = JudgeSettings()
    first = RaceSpec(eligible=frozenset({0, 1}), valid_kinds=frozenset({FOCUS}), window_ms=4000)
    last = RaceSpec(eligible=frozenset({0, 1}), valid_kinds=frozenset({FOCUS}), mode="last",
                    penalise_ineligible=True, deadline_ms=3000)
    counts = {"weak_first": 0, "strong_first": 0, "tie": 0, "nobody": 0, "weak_last": 0, "strong_last": 0,
              "tie_last": 0}
    opened = 10_000 * MS
    levels = [skill(weak), skill(strong)]
    for _ in range(n):
        edges = [e for seat in (0, 1) for p in plan_race(rng, first, seat, levels[seat]) for e in _edges(seat, opened, p)]
        v = judge_race(first, opened, edges, settings, opened + 10_000 * MS)
        if len(v.winners) > 1:
            counts["tie"] += 1
        elif v.winners == (0,):
            counts["weak_first"] += 1
        elif v.winners == (1,):
            counts["strong_first"] += 1
        else:
            counts["nobody"] += 1
        edges = [e for seat in (0, 1) for p in plan_race(rng, last, seat, levels[seat]) for e in _edges(seat, opened, p)]
        v = judge_race(last, opened, edges, settings, opened + 10_000 * MS)
        if len(v.last) > 1:
            counts["tie_last"] += 1
        elif v.last == (0,):
            counts["weak_last"] += 1
        else:
            counts["strong_last"] += 1
    return {k: 100.0 * c / n for k, c in counts.items()}


def mixed_table(mode: str, n: int, seed: int) -> dict[str, float]:
    """Share of wins (per cent) of each level with one seat per level (4 seats), seats rotated."""
    game_cls = registry.resolve("focusx", mode).game_class()
    wins = {lv: 0.0 for lv in LEVELS}
    draws = 0
    for k in range(n):
        order = LEVELS[k % 4:] + LEVELS[:k % 4]            # every level sits at every seat in turn
        state = game_cls(4, {"x_rule": False}).new_initial_state()
        simulate(state, random.Random(f"mixed-{seed}-{k}"), SimConfig(skills=order))
        out = state.outcome()
        if not out.winners:
            draws += 1
        for w in out.winners:
            wins[order[w]] += 1.0 / len(out.winners)
    res = {lv: 100.0 * v / n for lv, v in wins.items()}
    res["draw"] = 100.0 * draws / n
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="headless games per mode for the speed figure")
    ap.add_argument("--races", type=int, default=4000, help="two-seat races per pair of levels")
    ap.add_argument("--mixed", type=int, default=40, help="mixed-level games per mode")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    print(f"1. Headless games per second, 4 medium computer players, {args.games} games each")
    print(f"   {'mode':<11} {'x_rule':<7} {'games/s':>8} {'actions/game':>13}")
    for mode in MODES:
        for x_rule in (False, True):
            gps, acts = games_per_second(mode, args.games, args.seed, x_rule)
            print(f"   {mode:<11} {str(x_rule):<7} {gps:8.1f} {acts:13.0f}")

    print(f"\n2. Two-seat races, {args.races} per pair (weaker seat vs stronger seat), per cent")
    print("   'first' race (a focus showing, first valid press wins):")
    print(f"   {'weaker vs stronger':<20} {'weaker wins':>11} {'stronger':>9} {'tie':>6} {'nobody':>7}"
          f"   | Duel 'last' race: {'weaker last':>11} {'stronger':>9} {'tie':>6}")
    rng = random.Random(args.seed)
    for weak, strong in itertools.combinations(LEVELS, 2):
        r = race_pair(weak, strong, args.races, rng)
        print(f"   {weak + ' vs ' + strong:<20} {r['weak_first']:11.1f} {r['strong_first']:9.1f} {r['tie']:6.1f}"
              f" {r['nobody']:7.1f}   |                   {r['weak_last']:11.1f} {r['strong_last']:9.1f}"
              f" {r['tie_last']:6.1f}")

    print(f"\n3. Mixed tables (one seat per level, seats rotated), {args.mixed} games per mode: share of wins, per cent")
    print(f"   {'mode':<11} " + " ".join(f"{lv:>7}" for lv in LEVELS) + f" {'draw':>6}")
    for mode in MODES:
        res = mixed_table(mode, args.mixed, args.seed)
        print(f"   {mode:<11} " + " ".join(f"{res[lv]:7.1f}" for lv in LEVELS) + f" {res['draw']:6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
