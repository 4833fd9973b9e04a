"""Fit the FOCUS / Crossfire evaluation's weights to game results (prints figures, asserts nothing).

    python bench/fit_sackson_eval.py [--board crossfire] [--games 400] [--jobs 2] [--save FILE]

Plays ``--games`` games of ``hard`` against ``hard`` (1,500-2,500 positions a move, so a game
takes seconds), each from four random opening plies so that no two games are alike, and keeps
every third position from ply 8 on with the game's winner.  Then it fits a logistic regression
of "the first player won" on the evaluation's terms (:class:`arcade.bots.sackson.Weights`:
stones in play, reserve stones, stones under one's tops, stacks topped, legal stack moves - each
the first player's minus the second's - and who is to move) and prints the weights scaled to a
stone in play = 1, with the log-loss on a fifth of the games held out (0.693 is a coin), next to
the log-loss of :data:`~arcade.bots.sackson.WEIGHTS` (scaled by its best single factor).

``CROSSFIRE_WEIGHTS`` in ``arcade/bots/sackson.py`` came from ``--board crossfire --games 400``.
The fit is Newton's method on the mean log-loss with a small ridge term (pure Python; six terms).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TERMS = ("alive", "reserve", "control", "tops", "mobility", "to_move")


def play_game(job: tuple[str, int]) -> dict[str, object]:
    """One hard-vs-hard game; returns its winner (0, 1 or None) and its sampled positions' terms."""
    from arcade.bots.sackson import _board_terms, decide
    from arcade.sackson import SacksonGame

    board, g = job
    s = SacksonGame(2, {"variant": board}).new_initial_state()
    rng = random.Random(90_000 + g)
    nodes = 1500 + 500 * (g % 3)
    rows = []
    while not s.is_terminal() and len(s.history) < 200:
        ply = len(s.history)
        if ply >= 8 and ply % 3 == 0:
            alive, control, tops, mob = _board_terms(s)
            res = s._res
            rows.append([alive[0] + res[0] - alive[1] - res[1], res[0] - res[1], control[0] - control[1],
                         tops[0] - tops[1], mob[0] - mob[1], 1.0 if s._side == 0 else -1.0])
        a = rng.choice(s.legal_actions()) if ply < 4 else decide(s, "hard", rng, max_nodes=nodes)
        s.apply(a)
    out = s.outcome()
    winner = out.winners[0] if out is not None and len(out.winners) == 1 else None
    return {"game": g, "winner": winner, "rows": rows}


def _p(w: list[float], x: list[float]) -> float:
    z = sum(a * b for a, b in zip(w, x))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def log_loss(w: list[float], xs: list[list[float]], ys: list[float]) -> float:
    """Mean log-loss of the predictions ``sigmoid(w . x)`` against outcomes ``ys`` (1 or 0)."""
    total = 0.0
    for x, y in zip(xs, ys):
        p = _p(w, x)
        total -= math.log(max(1e-12, p if y else 1.0 - p))
    return total / len(xs)


def fit(xs: list[list[float]], ys: list[float], ridge: float = 1e-3) -> list[float]:
    """Logistic-regression weights by Newton's method (a ridge term keeps the steps well posed)."""
    d = len(xs[0])
    w = [0.0] * d
    n = len(xs)
    for _ in range(30):
        grad = [ridge * n * wi for wi in w]
        hess = [[ridge * n if i == j else 0.0 for j in range(d)] for i in range(d)]
        for x, y in zip(xs, ys):
            p = _p(w, x)
            r, v = p - y, p * (1.0 - p)
            for i in range(d):
                grad[i] += r * x[i]
                vi = v * x[i]
                row = hess[i]
                for j in range(d):
                    row[j] += vi * x[j]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(b) for b in step) < 1e-7:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` is small and well posed)."""
    d = len(b)
    m = [row[:] + [bi] for row, bi in zip(a, b)]
    for c in range(d):
        piv = max(range(c, d), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(d):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, d + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][d] / m[i][i] for i in range(d)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", default="crossfire", choices=("2p", "crossfire"))
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--save", default="", help="also write the games' rows as JSON lines to this file")
    args = ap.parse_args(argv)
    from arcade.bots.sackson import CROSSFIRE_WEIGHTS, WEIGHTS

    with mp.get_context("spawn").Pool(args.jobs) as pool:
        games = pool.map(play_game, [(args.board, g) for g in range(args.games)], chunksize=4)
    if args.save:
        with open(args.save, "w") as f:
            for game in games:
                f.write(json.dumps(game) + "\n")
    train_x: list[list[float]] = []
    train_y: list[float] = []
    test_x: list[list[float]] = []
    test_y: list[float] = []
    decided = [g for g in games if g["winner"] is not None]
    wins = sum(1 for g in decided if g["winner"] == 0)
    for g in decided:
        y = 1.0 if g["winner"] == 0 else 0.0
        rows: list[list[float]] = g["rows"]  # type: ignore[assignment]
        xs, ys = (test_x, test_y) if g["game"] % 5 == 0 else (train_x, train_y)  # type: ignore[operator]
        xs.extend(rows)
        ys.extend([y] * len(rows))
    print(f"{args.board}: {len(games)} games of hard against hard after 4 random plies; "
          f"{len(decided)} decided (the first player won {wins}); {len(train_x)} positions to fit, "
          f"{len(test_x)} held out")
    w = fit(train_x, train_y)
    scale = w[0]
    print("fitted weights, in stones in play:")
    for name, wi in zip(TERMS, w):
        print(f"  {name:<9} {wi / scale:+.3f}")
    print(f"  held-out log-loss {log_loss(w, test_x, test_y):.4f} (fitted)")
    for label, ws in (("WEIGHTS", WEIGHTS), ("WEIGHTS, to_move 0.5", WEIGHTS._replace(to_move=0.5)),
                      ("CROSSFIRE_WEIGHTS", CROSSFIRE_WEIGHTS)):
        base = list(ws)
        # the best single factor for these weights on the training positions
        k = fit([[sum(a * b for a, b in zip(base, x))] for x in train_x], train_y)[0]
        print(f"  held-out log-loss {log_loss([k * b for b in base], test_x, test_y):.4f} ({label} x {k:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
