"""Computer opponents for FOCUS and Crossfire (every variant).

Pure: :func:`choose_action` gets a state and returns an action; it never changes
the state, never reads a clock of its own (the caller injects ``clock``) and
draws randomness only from the injected ``rng``.

Levels:

* ``"easy"`` - random legal move, but a capturing move (one that removes enemy
  stones by overflow, SF-2) is taken 80 % of the time when there is one.
* ``"medium"`` - one-ply greedy: the move whose resulting position
  :func:`evaluate` likes best (ties broken by ``rng``).
* ``"hard"`` - alpha-beta search with iterative deepening, move ordering
  (captures and take-overs first, then the best move of the previous
  iteration from a small table), under a time budget per move (``budget_s``
  seconds on the injected ``clock``) and/or a node limit (``max_nodes``, for
  deterministic tests).  With three or four players the search is "paranoid":
  every other seat (in ``4p-teams`` every opponent; the partner plays for the
  team) is assumed to play against the searching seat, which keeps plain
  alpha-beta usable; within the budget that reaches two or three plies.

During the opening swap (SF-3) every level picks a random legal swap.
"""

from __future__ import annotations

import random
from typing import Callable

from arcade.core.api import TERMINAL, Action
from arcade.core.errors import ArcadeError, SettingsError
from arcade.sackson.game import Move_t, SacksonState

LEVELS = ("easy", "medium", "hard")

WIN = 1_000_000.0

# Evaluation weights (per stone / per stack / per move); see evaluate().
W_ALIVE = 1.0       # a stone of one's colour still in play (board or reserve)
W_RESERVE = 1.5     # extra for a stone in reserve: safe, and a move anywhere
W_CONTROL = 0.35    # a stone (any colour) under one's own top
W_TOPS = 0.3        # a stack one tops
W_MOBILITY = 0.02   # a legal stack move
W_GOAL = 0.6        # 3p: progress towards the capture / removal goals (SF-4)


class BotError(ArcadeError, ValueError):
    """The bot was asked to move where no one can (game over, or not a FOCUS state)."""


def _features(s: SacksonState) -> list[float]:
    """One strength figure per seat (higher is better for that seat)."""
    seats = s.game.seats
    alive = [0] * seats
    control = [0] * seats
    tops = [0] * seats
    for stack in s._st:
        if stack:
            top = stack[-1]
            tops[top] += 1
            control[top] += len(stack)
            for c in stack:
                alive[c] += 1
    res = s._res
    mob = s._mobility()
    out = []
    for q in range(seats):
        f = (W_ALIVE * (alive[q] + res[q]) + W_RESERVE * res[q] + W_CONTROL * control[q]
             + W_TOPS * tops[q] + W_MOBILITY * mob[q])
        out.append(f)
    if s.game.variant == "3p":
        st = s.game.settings
        need = st["goal_captures_each"]
        for q in range(3):
            caps = s._caps[q]
            progress = sum(min(caps[c], need) for c in range(3) if c != q) / (2 * need)
            progress = max(progress, s._removed[q] / st["goal_removed"])
            out[q] += W_GOAL * 10 * progress
    return out


def _team(s: SacksonState, seat: int) -> int:
    return seat % 2 if s.game.teams else seat


def evaluate(state: SacksonState, seat: int) -> float:
    """How good ``state`` is for ``seat`` (and their partner in ``4p-teams``); 0 = even.

    A finished game scores +-1,000,000 (a win or a loss of ``seat``'s side) or 0
    (a draw).  Otherwise: stones still in play, reserves (weighted extra),
    stones under one's tops, stacks topped, mobility and, in 3p, progress to
    the SF-4 goals; ``seat``'s figure minus the mean of the opponents' still in
    the game (teams: the team's sum minus the other team's).
    """
    s = state
    if s._result is not None:
        winners = s._result[0]
        if not winners:
            return 0.0
        mine = _team(s, seat)
        return WIN if any(_team(s, w) == mine for w in winners) else -WIN
    f = _features(s)
    if s.game.teams:
        t = seat % 2
        return f[t] + f[t + 2] - f[1 - t] - f[3 - t]
    others = [f[q] for q in range(s.game.seats) if q != seat and s._active[q]]
    if not others:
        return f[seat]
    return f[seat] - sum(others) / len(others)


def _order_key(s: SacksonState, m: Move_t, p: int) -> float:
    """Move-ordering score (higher first): captures, take-overs, tall moves."""
    src, dst, k = m
    st = s._st
    d = st[dst]
    score = 0.0
    cut = len(d) + k - s._t.caps[dst]
    if cut > 0:
        bottom = (d + (st[src][-k:] if src >= 0 else (p,)))[:cut]
        own = bottom.count(p)
        score += 10.0 * (cut - own) + 3.0 * own
    if d and d[-1] != p:
        score += 3.0 + len(d)
    if src >= 0:
        rest = st[src][:-k]
        if rest and rest[-1] != p:
            score -= 2.0 + len(rest)
        score += 0.1 * k
    else:
        score -= 0.5
    return score


def _capture_gain(s: SacksonState, m: Move_t, p: int) -> int:
    src, dst, k = m
    if k == 0:
        return 0
    st = s._st
    d = st[dst]
    cut = len(d) + k - s._t.caps[dst]
    if cut <= 0:
        return 0
    bottom = (d + (st[src][-k:] if src >= 0 else (p,)))[:cut]
    return cut - bottom.count(p)


class _Timeout(Exception):
    pass


class _Search:
    def __init__(self, s: SacksonState, clock: Callable[[], float] | None, budget_s: float,
                 max_nodes: int | None) -> None:
        self.s = s
        self.root = s._side
        self.root_team = _team(s, self.root)
        self.clock = clock
        self.deadline = (clock() + budget_s) if clock is not None else None
        self.max_nodes = max_nodes
        self.nodes = 0
        self.armed = False
        self.best: dict[int, Move_t] = {}

    def _tick(self) -> None:
        self.nodes += 1
        if not self.armed:
            return
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Timeout
        if self.deadline is not None and self.nodes & 31 == 0 and self.clock is not None:
            if self.clock() >= self.deadline:
                raise _Timeout

    def _ordered(self, moves: list[Move_t]) -> list[Move_t]:
        s = self.s
        p = s._side
        moves.sort(key=lambda m: _order_key(s, m, p), reverse=True)
        hint = self.best.get(s._key)
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        return moves

    def alphabeta(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        self._tick()
        s = self.s
        if s._result is not None:
            v = evaluate(s, self.root)
            # prefer quick wins and slow losses
            return v - ply if v > 0 else (v + ply if v < 0 else v)
        if depth == 0:
            return evaluate(s, self.root)
        moves = self._ordered(s._moves())
        maximizing = _team(s, s._side) == self.root_team
        best_move = moves[0]
        if maximizing:
            value = -2 * WIN
            for m in moves:
                s._make(m)
                try:
                    v = self.alphabeta(depth - 1, alpha, beta, ply + 1)
                finally:
                    s._unmake()
                if v > value:
                    value, best_move = v, m
                if value > alpha:
                    alpha = value
                if alpha >= beta:
                    break
        else:
            value = 2 * WIN
            for m in moves:
                s._make(m)
                try:
                    v = self.alphabeta(depth - 1, alpha, beta, ply + 1)
                finally:
                    s._unmake()
                if v < value:
                    value, best_move = v, m
                if value < beta:
                    beta = value
                if alpha >= beta:
                    break
        self.best[s._key] = best_move
        return value

    def run(self, root_moves: list[Move_t], max_depth: int) -> Move_t:
        s = self.s
        moves = self._ordered(root_moves)
        best = moves[0]
        for depth in range(1, max_depth + 1):
            self.armed = depth > 1
            cur_best: Move_t | None = None
            cur_val = -2 * WIN
            alpha = -2 * WIN
            try:
                for m in moves:
                    s._make(m)
                    try:
                        v = self.alphabeta(depth - 1, alpha, 2 * WIN, 1)
                    finally:
                        s._unmake()
                    if v > cur_val:
                        cur_val, cur_best = v, m
                    if v > alpha:
                        alpha = v
            except _Timeout:
                # keep a partial iteration's choice only if it beat the previous best, searched first
                if cur_best is not None and cur_best != moves[0] and cur_val > -WIN / 2:
                    best = cur_best
                break
            assert cur_best is not None
            best = cur_best
            moves.remove(best)
            moves.insert(0, best)
            if abs(cur_val) >= WIN / 2:
                break
        return best


def choose_action(state: SacksonState, level: str, rng: random.Random,
                  clock: Callable[[], float] | None = None, budget_s: float = 1.0,
                  max_nodes: int | None = None, max_depth: int | None = None) -> Action:
    """Pick an action for the side to move in ``state`` (which is not changed).

    Args:
        state: a FOCUS or Crossfire state that is not over.
        level: ``"easy"``, ``"medium"`` or ``"hard"`` (see the module docstring).
        rng: the injected random generator (tie-breaks, easy's choices).
        clock: seconds (e.g. ``time.monotonic``); with it, ``hard`` stops
            deepening once ``budget_s`` seconds have passed.  None: no time limit.
        budget_s: thinking time per move for ``hard``, seconds.
        max_nodes: node limit for ``hard`` (deterministic); None: no limit.
        max_depth: deepest iteration of ``hard``; default 64 with a clock or a
            node limit, else 2 (so a call without limits always ends quickly).

    Raises:
        SettingsError: unknown level or a negative budget.
        BotError: the game is over, or ``state`` is not a FOCUS state.
    """
    if level not in LEVELS:
        raise SettingsError("level", level, f"one of {list(LEVELS)}")
    if not isinstance(budget_s, (int, float)) or budget_s < 0:
        raise SettingsError("budget_s", budget_s, "seconds >= 0")
    if not isinstance(state, SacksonState):
        raise BotError(f"not a FOCUS state: {state!r}")
    if state.current_player() == TERMINAL:
        raise BotError("the game is over: there is no move to choose")
    s = state.copy()
    s.history = []
    moves = s._moves()
    action = s._t.action
    if s._swaps:
        return action(rng.choice(moves))
    p = s._side
    rng.shuffle(moves)
    if level == "easy":
        caps = [m for m in moves if _capture_gain(s, m, p) > 0]
        if caps and rng.random() < 0.8:
            return action(rng.choice(caps))
        return action(rng.choice(moves))
    if level == "medium":
        best_m = moves[0]
        best_v = -3 * WIN
        for m in moves:
            s._make(m)
            v = evaluate(s, p)
            s._unmake()
            if v > best_v:
                best_v, best_m = v, m
        return action(best_m)
    if max_depth is None:
        max_depth = 64 if (clock is not None or max_nodes is not None) else 2
    search = _Search(s, clock, float(budget_s), max_nodes)
    return action(search.run(moves, max(1, max_depth)))
