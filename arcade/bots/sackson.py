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
  iteration from a small table), for :data:`HARD_NODES` positions per move
  (``max_nodes`` to change it).  With three or four players the search is
  "paranoid": every other seat (in ``4p-teams`` every opponent; the partner
  plays for the team) is assumed to play against the searching seat, which
  keeps plain alpha-beta usable.
* ``"expert"`` (:func:`decide` only; :func:`choose_action` keeps the three
  levels above) - two players: negamax alpha-beta with iterative deepening, a
  transposition table, killer and history ordering (in Crossfire the overflows
  of one's own stones with the captures and take-overs right after the killers,
  never searched reduced; its own evaluation weights, :data:`CROSSFIRE_WEIGHTS`,
  with most of a stone for the side to move), null-move pruning,
  reduced searches of late quiet moves, a null window for every root move after
  the first, a capture-only quiescence search and an evaluation kept up to date
  move by move (:class:`_Expert`), for :data:`EXPERT_NODES` positions; three or
  four players: hard's search for :data:`EXPERT_NODES` positions.  Both
  searches share one driver (:class:`_Driver`: node count, limits, iterative
  deepening over the root moves).

Strength does not depend on the machine: a level is its node budget and
nothing else (the searches stop after a number of positions), so the same
position and seed give the same move on a Raspberry Pi 3 as on a desktop.  A
time cap (``cap_s`` seconds on the injected ``clock``) is only a safety net
against a machine far slower than planned: by default it is sized from the
search's own budget (:func:`safety_cap_s`: :data:`CAP_MARGIN` times what the
budget takes at a Pi 3's speed, :data:`PI3_NODES_PER_S`), so it never cuts a
search on a Pi 3; a search cut by it plays its best move so far.  Benchmarks that
compare levels "at equal time" pass ``budget_s`` instead: then the search runs
until that many seconds have passed (the old time-limited behaviour).

During the opening swap (SF-3) every level picks a random legal swap.
"""

from __future__ import annotations

import random
from typing import Callable, NamedTuple, Sequence

from arcade.core.api import TERMINAL, Action
from arcade.core.errors import ArcadeError, SettingsError
from arcade.sackson.game import Move_t, SacksonState

LEVELS = ("easy", "medium", "hard")
#: Every level of :func:`decide` (the lobby's skills), weakest first.
SKILLS = ("easy", "medium", "hard", "expert")
#: Positions (nodes) searched per move: hard (0.3-0.5 CPU-s here, 3-5 s on a Pi 3).
HARD_NODES = 12_000
#: Positions searched per move by the expert (its nodes are cheaper than hard's).
EXPERT_NODES = 40_000
#: The slowest search on the slowest machine planned for (a Raspberry Pi 3), positions a
#: second: the slowest search measured on the development machine does about 20,000 positions
#: per CPU-second (hard with three players; two-player hard and expert 23,000-28,000 at their
#: slowest), and a Pi 3 is taken as 10 times slower (it is 8-10x).
PI3_NODES_PER_S = 2_000
#: The safety cap allows this many times what a search's budget takes at :data:`PI3_NODES_PER_S`.
CAP_MARGIN = 3.0
#: The expert's quiescence depth (captures only) and the move number from which late moves
#: are first searched one ply less deep.
EXPERT_QDEPTH = 4
EXPERT_LATE = 3
#: The expert's null-move pruning: 1 on, 0 off.
EXPERT_NULL = 1
#: Where the expert tries take-overs (moves onto a stack the opponent tops) right after the
#: captures and killers and never searches them reduced: 0 nowhere, 1 on both boards, 2 in
#: Crossfire only (measured: it lifts the expert there and not on the square board).
EXPERT_TAKE = 2
#: Where the expert orders the overflows of its own stones alone (they go to its reserve) with
#: the captures, never searched reduced: 0 nowhere, 1 on both boards, 2 in Crossfire only.
EXPERT_OWN = 2
#: The expert's root: 1 searches every move after the first with a null window first.
EXPERT_ROOT_PVS = 1
#: The expert's evaluation in Crossfire: 1 its own weights (:data:`CROSSFIRE_WEIGHTS`),
#: 0 :data:`WEIGHTS` with half a stone for the side to move (the expert measured before).
EXPERT_CROSSFIRE_EVAL = 1

WIN = 1_000_000.0


class Weights(NamedTuple):
    """The evaluation's weights, in stones (see :func:`evaluate`)."""

    alive: float        # a stone of one's colour still in play (board or reserve)
    reserve: float      # extra for a stone in reserve: safe, and a move anywhere
    control: float      # a stone (any colour) under one's own top
    tops: float         # a stack one tops
    mobility: float     # a legal stack move
    to_move: float      # the side to move (the expert's search only; evaluate() has no side)


#: Every searching level's evaluation on every board.
WEIGHTS = Weights(alive=1.0, reserve=1.5, control=0.35, tops=0.3, mobility=0.02, to_move=0.0)
#: The expert's Crossfire evaluation: the weights a logistic regression of 400 game results on
#: these terms gave (``bench/fit_sackson_eval.py --board crossfire``; scaled to a stone in play = 1).
#: A stack topped counts against its owner on its own: a lone stone is a stack the opponent can
#: take over, while height pays through mobility (a stack of h moves up to h cells, six ways).
CROSSFIRE_WEIGHTS = Weights(alive=1.0, reserve=0.95, control=0.10, tops=-0.78, mobility=0.09, to_move=0.81)
W_GOAL = 0.6        # 3p: progress towards the capture / removal goals (SF-4)


def level_nodes(level: str, max_nodes: int | None = None) -> int:
    """The positions ``level`` searches per move (``max_nodes`` when given; 0 for the levels
    that do not search: easy and medium)."""
    if level not in ("hard", "expert"):
        return 0
    if max_nodes is not None:
        return max_nodes
    return HARD_NODES if level == "hard" else EXPERT_NODES


def safety_cap_s(nodes: int) -> float:
    """The safety cap, seconds, of a search of ``nodes`` positions: :data:`CAP_MARGIN` times what
    it takes at a Pi 3's speed (:data:`PI3_NODES_PER_S`): hard 18 s, expert 60 s.  A search
    of its budget never reaches it on a Pi 3; it only stops a machine far slower than that."""
    return CAP_MARGIN * max(0, nodes) / PI3_NODES_PER_S


class BotError(ArcadeError, ValueError):
    """The bot was asked to move where no one can (game over, or not a FOCUS state)."""


def _board_terms(s: SacksonState) -> tuple[list[int], list[int], list[int], list[int]]:
    """Per seat: stones in play on the board, stones under its tops, stacks topped, and
    legal stack moves (as ``SacksonState._mobility`` counts them)."""
    seats = s.game.seats
    alive = [0] * seats
    control = [0] * seats
    tops = [0] * seats
    mob = [0] * seats
    cnt = s._t.cnt
    for i, stack in enumerate(s._st):
        if stack:
            top = stack[-1]
            n = len(stack)
            tops[top] += 1
            control[top] += n
            mob[top] += cnt[i][n]
            for c in stack:
                alive[c] += 1
    return alive, control, tops, mob


def _cell_change(terms: tuple[list[int], list[int], list[int], list[int]], cnt: Sequence[Sequence[int]],
                 cell: int, stack: tuple[int, ...], sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) the board terms of ``stack`` on ``cell``."""
    if not stack:
        return
    alive, control, tops, mob = terms
    top = stack[-1]
    n = len(stack)
    tops[top] += sign
    control[top] += sign * n
    mob[top] += sign * cnt[cell][n]
    for c in stack:
        alive[c] += sign


def _features(s: SacksonState, terms: tuple[list[int], list[int], list[int], list[int]] | None = None,
              w: Weights = WEIGHTS) -> list[float]:
    """One strength figure per seat (higher is better for that seat); ``terms``: the
    position's :func:`_board_terms` when the caller already has them."""
    seats = s.game.seats
    alive, control, tops, mob = terms if terms is not None else _board_terms(s)
    res = s._res
    out = []
    for q in range(seats):
        f = (w.alive * (alive[q] + res[q]) + w.reserve * res[q] + w.control * control[q]
             + w.tops * tops[q] + w.mobility * mob[q])
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


def _medium_move(s: SacksonState, moves: list[Move_t], p: int) -> Move_t:
    """The one-ply choice: the move whose position :func:`evaluate` rates best for ``p``
    (the first of equals).  The board terms are worked out once and changed only on
    the two cells a move touches, so each reply costs two cells, not a board scan."""
    cnt = s._t.cnt
    base = _board_terms(s)
    before = list(s._st)
    best_m = moves[0]
    best_v = -3 * WIN
    for m in moves:
        src, dst = m[0], m[1]
        s._make(m)
        if s._result is not None or m[2] == 0:
            v = evaluate(s, p)
        else:
            terms = ([*base[0]], [*base[1]], [*base[2]], [*base[3]])
            st = s._st
            for cell in ((src, dst) if src >= 0 else (dst,)):
                _cell_change(terms, cnt, cell, before[cell], -1)
                _cell_change(terms, cnt, cell, st[cell], 1)
            v = _value(s, p, _features(s, terms))
        s._unmake()
        if v > best_v:
            best_v, best_m = v, m
    return best_m


def _team(s: SacksonState, seat: int) -> int:
    return seat % 2 if s.game.teams else seat


def evaluate(state: SacksonState, seat: int, weights: Weights = WEIGHTS) -> float:
    """How good ``state`` is for ``seat`` (and their partner in ``4p-teams``); 0 = even, in stones.

    A finished game scores +-1,000,000 (a win or a loss of ``seat``'s side) or 0
    (a draw).  Otherwise: stones still in play, reserves (weighted extra),
    stones under one's tops, stacks topped, mobility (``weights``, default
    :data:`WEIGHTS`; ``to_move`` is not used here) and, in 3p, progress to
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
    return _value(s, seat, _features(s, None, weights))


def _value(s: SacksonState, seat: int, f: list[float]) -> float:
    """``seat``'s figure of ``f`` (:func:`_features`) against its opponents' (see :func:`evaluate`)."""
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


class _Driver:
    """What the hard and the expert searches share: the node count, the node and time limits
    and the iterative-deepening loop over the root moves.

    A subclass gives :meth:`_root_order` (the root moves, best first) and :meth:`_root_value`
    (one root move searched to a depth, from the root mover's view).  ``clock_mask``: the
    clock is read every ``clock_mask + 1`` nodes.  A limit raises ``_Timeout`` out of the
    tree: the state (the search's own copy, see :func:`decide`) stays where the search was
    and is dropped.
    """

    clock_mask = 31

    def __init__(self, s: SacksonState, clock: Callable[[], float] | None, deadline: float | None,
                 max_nodes: int | None) -> None:
        self.s = s
        self.clock = clock
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.depth = 0
        self.armed = False

    def _tick(self) -> None:
        self.nodes += 1
        if not self.armed:
            return
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Timeout
        if self.deadline is not None and self.nodes & self.clock_mask == 0 and self.clock is not None:
            if self.clock() >= self.deadline:
                raise _Timeout

    def _root_order(self, moves: list[Move_t]) -> list[Move_t]:
        raise NotImplementedError

    def _root_value(self, m: Move_t, depth: int, alpha: float) -> float:
        raise NotImplementedError

    def run(self, root_moves: list[Move_t], max_depth: int) -> Move_t:
        """The best root move found by iterative deepening up to ``max_depth`` within the limits."""
        moves = self._root_order(root_moves)
        best = moves[0]
        for depth in range(1, max_depth + 1):
            self.depth = depth
            self.armed = depth > 1      # the first iteration always completes: a move is always ready
            cur_best: Move_t | None = None
            cur_val = -2 * WIN
            alpha = -2 * WIN
            try:
                for m in moves:
                    v = self._root_value(m, depth, alpha)
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


class _Search(_Driver):
    """hard: minimax alpha-beta (paranoid with three or four seats) over :func:`evaluate`."""

    def __init__(self, s: SacksonState, clock: Callable[[], float] | None, deadline: float | None,
                 max_nodes: int | None) -> None:
        super().__init__(s, clock, deadline, max_nodes)
        self.root = s._side
        self.root_team = _team(s, self.root)
        self.best: dict[int, Move_t] = {}

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
        sign = 1 if maximizing else -1      # value: the mover's view (the root's, or its negation)
        best_move = moves[0]
        value = -2 * WIN
        for m in moves:
            s._make(m)
            v = sign * self.alphabeta(depth - 1, alpha, beta, ply + 1)
            s._unmake()
            if v > value:
                value, best_move = v, m
            if maximizing:
                if value > alpha:
                    alpha = value
            elif -value < beta:
                beta = -value
            if alpha >= beta:
                break
        self.best[s._key] = best_move
        return sign * value

    def _root_order(self, moves: list[Move_t]) -> list[Move_t]:
        return self._ordered(moves)

    def _root_value(self, m: Move_t, depth: int, alpha: float) -> float:
        s = self.s
        s._make(m)
        v = self.alphabeta(depth - 1, alpha, 2 * WIN, 1)
        s._unmake()
        return v


def choose_action(state: SacksonState, level: str, rng: random.Random,
                  clock: Callable[[], float] | None = None, budget_s: float | None = None,
                  max_nodes: int | None = None, max_depth: int | None = None,
                  cap_s: float | None = None) -> Action:
    """Pick an action for the side to move in ``state`` (which is not changed).

    Args:
        state: a FOCUS or Crossfire state that is not over.
        level: ``"easy"``, ``"medium"`` or ``"hard"`` (see the module docstring).
        rng: the injected random generator (tie-breaks, easy's choices).
        clock: seconds (e.g. ``time.monotonic``), read by ``hard`` for ``budget_s``
            or the ``cap_s`` safety cap.  None: no time limit at all.
        budget_s: None (default): ``hard`` searches ``max_nodes`` positions
            (default :data:`HARD_NODES`), the same moves on any machine.  A number:
            ``hard`` searches until that many seconds have passed on ``clock``
            (benchmarks "at equal time"; then ``max_nodes`` only if given).
        max_nodes: node limit for ``hard`` (deterministic).
        max_depth: deepest iteration of ``hard``; default 64.
        cap_s: seconds after which a node-limited search stops anyway (with a clock); None
            (default): :func:`safety_cap_s` of its node budget, which a Pi 3 never reaches.

    Raises:
        SettingsError: unknown level or a negative budget.
        BotError: the game is over, or ``state`` is not a FOCUS state.
    """
    if level not in LEVELS:
        raise SettingsError("level", level, f"one of {list(LEVELS)}")
    return decide(state, level, rng, clock, budget_s, max_nodes, max_depth, cap_s)


def decide(state: SacksonState, level: str, rng: random.Random,
           clock: Callable[[], float] | None = None, budget_s: float | None = None,
           max_nodes: int | None = None, max_depth: int | None = None,
           cap_s: float | None = None, stats: dict[str, int] | None = None) -> Action:
    """:func:`choose_action` for every level of :data:`SKILLS` (``"expert"`` included).

    ``stats``, when given, receives ``nodes`` (positions searched) and ``depth``
    (the deepest iteration started).

    Raises:
        SettingsError: unknown level, a negative budget or cap.
        BotError: the game is over, or ``state`` is not a FOCUS state.
    """
    if level not in SKILLS:
        raise SettingsError("level", level, f"one of {list(SKILLS)}")
    if budget_s is not None and (not isinstance(budget_s, (int, float)) or budget_s < 0):
        raise SettingsError("budget_s", budget_s, "seconds >= 0")
    if cap_s is not None and (not isinstance(cap_s, (int, float)) or cap_s < 0):
        raise SettingsError("cap_s", cap_s, "seconds >= 0")
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
        return action(_medium_move(s, moves, p))
    if max_depth is None:
        max_depth = 64
    if budget_s is not None:
        limit = float(budget_s) if clock is not None else None
        nodes = max_nodes
    else:
        nodes = level_nodes(level, max_nodes)
        cap = safety_cap_s(nodes) if cap_s is None else float(cap_s)
        limit = cap if clock is not None else None
    deadline = clock() + limit if (clock is not None and limit is not None) else None
    if limit is None and nodes is None:
        max_depth = min(max_depth, 2)     # no limit at all: keep the call short
    search: _Driver
    if level == "expert" and s.game.seats == 2:
        search = _Expert(s, clock, deadline, nodes)
    else:
        search = _Search(s, clock, deadline, nodes)
    m = search.run(moves, max(1, max_depth))
    if stats is not None:
        stats["nodes"] = search.nodes
        stats["depth"] = search.depth
    return action(m)


# -- the expert search (two players) ------------------------------------------------

class _Expert(_Driver):
    """Negamax alpha-beta for two seats: iterative deepening, a transposition table, killer and
    history move ordering, a capture-only quiescence search, and :func:`evaluate`'s terms kept
    up to date move by move (every stack's worth on its cell is a table look-up), so a node costs
    a few look-ups instead of a board scan."""

    clock_mask = 63

    def __init__(self, s: SacksonState, clock: Callable[[], float] | None, deadline: float | None,
                 max_nodes: int | None) -> None:
        super().__init__(s, clock, deadline, max_nodes)
        self.tt: dict[int, tuple[int, int, float, Move_t | None]] = {}
        self.killers: dict[int, list[Move_t]] = {}
        self.hist: dict[Move_t, int] = {}
        t = s._t
        self.take = EXPERT_TAKE == 1 or (EXPERT_TAKE == 2 and t.board.kind == "hex")
        self.own = EXPERT_OWN == 1 or (EXPERT_OWN == 2 and t.board.kind == "hex")
        if t.board.kind != "hex":
            w = WEIGHTS
        elif EXPERT_CROSSFIRE_EVAL:
            w = CROSSFIRE_WEIGHTS
        else:
            w = WEIGHTS._replace(to_move=0.5)
        #: the evaluation this search uses (:func:`evaluate` with these weights, plus ``to_move``)
        self.weights = w
        self.tempo = w.to_move
        self.w_alive, self.w_reserve = w.alive, w.reserve
        self.caps = t.caps
        self.mtab = t.mtab
        self.drops = t.drops
        # worth[i][h]: a stack of height h topped on cell i, for its top's seat (evaluate's terms)
        self.worth = tuple(tuple(w.control * h + w.tops + w.mobility * t.cnt[i][h] if h else 0.0
                                 for h in range(t.maxcap + 1)) for i in range(t.n))
        # stones of each colour in play at the root (board + reserves); captures only lower it
        alive = [0, 0]
        for x in s._st:
            for c in x:
                alive[c] += 1
        self.alive0 = (alive[0] + s._res[0], alive[1] + s._res[1])
        self.caps0 = (s._caps[0][1], s._caps[1][0])
        self.pos0 = self._positional()

    def _positional(self) -> float:
        """Seat 0's positional terms minus seat 1's (control, tops, mobility), from the board."""
        v = 0.0
        worth = self.worth
        for i, x in enumerate(self.s._st):
            if x:
                w = worth[i][len(x)]
                v += w if x[-1] == 0 else -w
        return v

    def _eval(self, pos: float) -> float:
        """:func:`evaluate` for the side to move, from the positional sum ``pos`` (seat 0's view)."""
        s = self.s
        res = s._res
        c = s._caps
        a0 = self.alive0[0] - (c[1][0] - self.caps0[1])
        a1 = self.alive0[1] - (c[0][1] - self.caps0[0])
        v = self.w_alive * (a0 - a1) + self.w_reserve * (res[0] - res[1]) + pos
        return (v if s._side == 0 else -v) + self.tempo

    def _delta(self, m: Move_t, before_src: tuple[int, ...], before_dst: tuple[int, ...]) -> float:
        """Change of the positional sum by move ``m`` (already made; the two stacks it changed)."""
        src, dst, _k = m
        st = self.s._st
        worth = self.worth
        v = 0.0
        for cell, old in ((dst, before_dst), (src, before_src)):
            if cell < 0:
                continue
            if old:
                w = worth[cell][len(old)]
                v -= w if old[-1] == 0 else -w
            new = st[cell]
            if new:
                w = worth[cell][len(new)]
                v += w if new[-1] == 0 else -w
        return v

    def _captures(self, own_too: bool = False) -> list[Move_t]:
        """The side to move's capturing moves (an overflow with an enemy stone in it), best first;
        with ``own_too`` also the overflows of its own stones alone (they go to its reserve).

        Listed from the stacks, not from the move list; a capture is always legal under the
        ko rule (fewer stones stay in play than in any earlier position, SF-6).
        """
        s = self.s
        st = s._st
        caps = self.caps
        dests = s._t.dests
        p = s._side
        out = []
        room = [c - len(x) for c, x in zip(caps, st)]     # stones each cell takes before it overflows
        for i, x in enumerate(st):
            if x and x[-1] == p:
                h = len(x)
                di = dests[i]
                for k in range(1, h + 1):
                    for j in di[k]:
                        cut = k - room[j]
                        if cut > 0:
                            own = (st[j] + x[h - k:])[:cut].count(p)
                            if own != cut or own_too:
                                out.append((10 * (cut - own) + 3 * own, k, (i, j, k)))
        if s._res[p]:
            for j, d in enumerate(st):
                if room[j] <= 0 and d[0] != p:
                    out.append((10, 0, (-1, j, 1)))
        out.sort(reverse=True)
        return [m for _g, _k, m in out]

    def _gen(self) -> list[Move_t]:
        """The side to move's moves inside the tree: Crossfire's ko rule (SF-6) is left to the
        root's legal list (a move back to an earlier position inside the tree only costs a
        little accuracy; the game itself never plays one)."""
        s = self.s
        if not s._ko:
            return s._moves()
        p = s._side
        mtab = self.mtab
        out: list[Move_t] = []
        for i, x in enumerate(s._st):
            if x and x[-1] == p:
                out.extend(mtab[i][len(x)])
        if s._res[p]:
            out.extend(self.drops)
        return out

    def _ordered(self, moves: list[Move_t], ply: int, first: Move_t | None) -> tuple[list[Move_t], int]:
        """``moves`` best first (table move, captures, killers, in Crossfire the take-overs, then
        by history) and how many of them lead (those are never searched reduced)."""
        hist = self.hist
        if hist:
            moves.sort(key=lambda m: hist.get(m, 0), reverse=True)
        front = self._captures(self.own)
        legal = set(moves)
        front = [m for m in front if m in legal]
        for km in self.killers.get(ply, ()):
            if km in legal and km not in front:
                front.append(km)
        if first is not None and first in legal:
            if first in front:
                front.remove(first)
            front.insert(0, first)
        if self.take:
            # then take-overs (a move onto a stack the opponent tops), then the quiet moves
            s = self.s
            st = s._st
            p = s._side
            seen = set(front)
            take = []
            quiet = []
            for m in moves:
                if m in seen:
                    continue
                d = st[m[1]]
                if d and d[-1] != p:
                    take.append(m)
                else:
                    quiet.append(m)
            return front + take + quiet, len(front) + len(take)
        if not front:
            return moves, 0
        seen = set(front)
        return front + [m for m in moves if m not in seen], len(front)

    def _child(self, m: Move_t, pos: float) -> float:
        s = self.s
        st = s._st
        src, dst, _k = m
        before_src = st[src] if src >= 0 else ()
        before_dst = st[dst]
        s._make(m)
        return pos + self._delta(m, before_src, before_dst)

    def quiesce(self, alpha: float, beta: float, pos: float, ply: int, qd: int) -> float:
        self._tick()
        s = self.s
        if s._result is not None:
            return self._terminal(ply)
        stand = self._eval(pos)
        if stand >= beta or qd == 0:
            return stand
        if stand > alpha:
            alpha = stand
        for m in self._captures():
            child = self._child(m, pos)
            try:
                v = -self.quiesce(-beta, -alpha, child, ply + 1, qd - 1)
            finally:
                s._unmake()
            if v >= beta:
                return v
            if v > alpha:
                alpha = v
        return alpha

    def _terminal(self, ply: int) -> float:
        s = self.s
        winners = s._result[0] if s._result is not None else ()
        if not winners:
            return 0.0
        return WIN - ply if s._side in winners else -WIN + ply

    def negamax(self, depth: int, alpha: float, beta: float, pos: float, ply: int,
                null_ok: bool = True) -> float:
        s = self.s
        if s._result is not None:
            self._tick()
            return self._terminal(ply)
        if depth <= 0:
            return self.quiesce(alpha, beta, pos, ply, EXPERT_QDEPTH)
        self._tick()
        key = s._key
        entry = self.tt.get(key)
        first = None
        if entry is not None:
            e_depth, flag, value, first = entry
            if e_depth >= depth:
                if flag == 0:
                    return value
                if flag > 0 and value >= beta:
                    return value
                if flag < 0 and value <= alpha:
                    return value
        # null move: if passing still holds beta, a real move will (no zugzwang worth the name here)
        if EXPERT_NULL and null_ok and depth >= 3 and beta < WIN / 2 and self._eval(pos) >= beta:
            side = s._side
            s._side = 1 - side
            s._keyv ^= s._zflip
            try:
                v = -self.negamax(depth - 3, -beta, -beta + 0.001, pos, ply + 1, False)
            finally:
                s._side = side
                s._keyv ^= s._zflip
            if v >= beta:
                return v
        a0 = alpha
        moves, lead = self._ordered(self._gen(), ply, first)
        best = -2 * WIN
        best_move = moves[0]
        for n, m in enumerate(moves):
            child = self._child(m, pos)
            try:
                if n == 0:
                    v = -self.negamax(depth - 1, -beta, -alpha, child, ply + 1)
                else:
                    # late moves first get a reduced, null-window look; re-searched if they might be better
                    r = 1 if (depth >= 3 and n >= lead + EXPERT_LATE) else 0
                    v = -self.negamax(depth - 1 - r, -alpha - 0.001, -alpha, child, ply + 1)
                    if v > alpha and (r or v < beta):
                        v = -self.negamax(depth - 1, -beta, -alpha, child, ply + 1)
            finally:
                s._unmake()
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if n >= lead:
                            ks = self.killers.setdefault(ply, [])
                            if m not in ks:
                                ks.insert(0, m)
                                del ks[2:]
                        self.hist[m] = self.hist.get(m, 0) + depth * depth
                        break
        flag = 0 if a0 < best < beta else (1 if best >= beta else -1)
        self.tt[key] = (depth, flag, best, best_move)
        return best

    def _root_order(self, moves: list[Move_t]) -> list[Move_t]:
        return self._ordered(moves, 0, None)[0]

    def _root_value(self, m: Move_t, depth: int, alpha: float) -> float:
        child = self._child(m, self.pos0)
        if alpha <= -WIN or not EXPERT_ROOT_PVS:
            v = -self.negamax(depth - 1, -2 * WIN, -alpha, child, 1)
        else:
            # after the first move: a null window first, the full one only if the move may be better
            v = -self.negamax(depth - 1, -alpha - 0.001, -alpha, child, 1)
            if v > alpha:
                v = -self.negamax(depth - 1, -2 * WIN, -alpha, child, 1)
        self.s._unmake()
        return v
