"""FOCUS (Sid Sackson) for 2, 3 and 4 players and its hex variant Crossfire.

Rule sources: seed ``003`` (two-player FOCUS and Crossfire), seed ``004``
(three and four players, the symmetry counters) and rulings SF-1..SF-7 in
``RULINGS.md``; the arcade's own decisions where those are silent are in
``docs/rules-sackson.md`` (cited below as "docs").

Stones are stacked; a stack belongs to the seat whose stone is on top.  A turn
is one of (SF-2):

* :class:`Move` - take the top ``k`` stones (``1 <= k <= height``) of a stack
  you top and move them exactly ``k`` cells in a straight line (four
  directions on the square board, six on the hex board), jumping over
  everything in between;
* :class:`Drop` - put one stone from your reserve on any cell, empty or not.

A stack higher than the limit (``overflow_height``, default 5; Crossfire: the
cell's capacity = its number of neighbours, SF-6) loses the excess from the
bottom: the mover's own stones go to the mover's reserve, the others are
captured.  There is no passing.  :class:`Swap` is the opening swap (SF-3).

Internals (shared with :mod:`arcade.sackson.perft` and :mod:`arcade.bots.sackson`,
not part of the public API): cells are indices into the board's ``cells``;
stacks are tuples of seats, bottom first; a move is a tuple ``(src, dst, k)``
with ``src = -1`` for a drop and ``k = 0`` for a swap of cells ``src, dst``.
``_make``/``_unmake`` change the state without validation or history;
``_moves()`` lists the legal move tuples; ``_count()`` counts them fast.

What ``_make`` keeps up to date (the hot path of perft and search): the stacks,
the reserves, the side to move, one Zobrist key of the whole position (board,
reserves, side, seats still in; memoised per cell and stack, so a move costs
four dictionary look-ups), the repetition counts (SF-3 third repetition, SF-6
ko), captures and the plies without a capture.  With two players and no mirror
rule a lean path (``_LeanState``) does only that, and lazily: a move changes
the stacks, reserves, side and captures, and the key, the repetition count and
the end of the game follow when the new position is first looked at (a perft
leaf never is); the plies without a capture are the moves pushed since the
last capture.  On the square board the end "cannot move" (SF-2) is looked for
only when the side to move lost a stack and has no reserve.  Mobility (moves
per seat) is not kept: ``_mobility()`` counts it when the evaluation or a bulk
count asks.  The state's attributes are slots (the quickest to read and write).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import MemberDescriptorType
from typing import Any, ClassVar, Mapping, Sequence

from arcade.core.api import TERMINAL, Action, Game, Outcome, Setting, State, player_name
from arcade.core.errors import ArcadeError, IllegalActionError, SettingsError
from arcade.i18n import _, ngettext
from arcade.sackson.board import HEX, SQUARE, Board
from arcade.sackson.setups import SEAT_LETTERS, start_position

#: variant -> number of seats (SF-1, SF-4, SF-5, SF-6).
VARIANTS: Mapping[str, int] = {"2p": 2, "3p": 3, "4p-teams": 4, "4p": 4, "crossfire": 2}

Move_t = tuple[int, int, int]

_MAX_RESERVE = 255  # reserves are at most the stones of one colour (18); setups are checked

# The lean path's undo records (``_LeanState``) are ``(move, source stack or None for a drop,
# target stack, last)``.  ``last`` is None (no overflow) or the overflow's extra, a tuple of four
# (``_overflow``), while the position after the move has not been looked at; once it has
# (``_settle``), ``last`` is ``(key before the move, None or the overflow's extra)``.  So a leaf's
# take-back, the hot path, tells its record by ``last is None`` alone.  The full path's records
# are longer, a swap's shorter.  The first ``_nset`` records are settled (or a swap's), the rest
# (all lean) are not, so a look asks only ``len(_undo) != _nset``.
_LEAN_RECORD = 4


# -- actions ------------------------------------------------------------------

@dataclass(frozen=True)
class Move(Action):
    """Move the top ``count`` stones of the stack on ``src`` exactly ``count`` cells to ``dst`` (SF-2).

    Attributes:
        src: the starting cell, e.g. ``"c3"`` (square) or ``"E4"`` (hex).
        dst: the landing cell, in a straight line ``count`` steps away.
        count: how many stones move (1 .. the stack's height).
    """

    src: str
    dst: str
    count: int


@dataclass(frozen=True)
class Drop(Action):
    """Put one stone from the mover's reserve on ``dst`` (any cell, empty or not; SF-2)."""

    dst: str


@dataclass(frozen=True)
class Swap(Action):
    """Opening swap (SF-3): exchange the single stones on ``a`` and ``b`` (different colours)."""

    a: str
    b: str


class SacksonError(ArcadeError):
    """Base of the errors raised by :mod:`arcade.sackson` (besides the core ones)."""


class NothingToUndoError(SacksonError, IndexError):
    """``undo()`` was called on a state with no action to take back."""


class SetupError(SacksonError, ValueError):
    """A set-up position (``SacksonGame.setup``) that the rules cannot reach: names the bad entry."""


# -- tables -------------------------------------------------------------------

class _Tables:
    """Precomputed move tables and Zobrist keys for one board, capacity set and seat count."""

    def __init__(self, board: Board, caps: tuple[int, ...], seats: int) -> None:
        self.board = board
        self.n = n = board.size
        self.caps = caps
        self.seats = seats
        self.cells = board.cells
        self.index = board.index
        self.word = "square" if board.kind == "square" else "cell"
        maxcap = max(caps)
        self.maxcap = maxcap
        # dests[i][k]: cells exactly k steps away; cnt[i][h]: moves of a stack of height h on i
        # mtab[i][h]: every move tuple of a stack of height h on i.
        dests: list[tuple[tuple[int, ...], ...]] = []
        cnt: list[tuple[int, ...]] = []
        mtab: list[tuple[tuple[Move_t, ...], ...]] = []
        line: list[dict[int, int]] = []
        for i in range(n):
            per_k: list[tuple[int, ...]] = [()]
            for k in range(1, maxcap + 1):
                per_k.append(board.cells_at(i, k))
            dests.append(tuple(per_k))
            c = [0]
            mv: list[tuple[Move_t, ...]] = [()]
            acc: list[Move_t] = []
            for h in range(1, maxcap + 1):
                acc.extend((i, j, h) for j in per_k[h])
                c.append(len(acc))
                mv.append(tuple(acc))
            cnt.append(tuple(c))
            mtab.append(tuple(mv))
            d: dict[int, int] = {}
            for ray in board.rays[i]:
                for k, j in enumerate(ray, start=1):
                    d[j] = k
            line.append(d)
        self.dests = tuple(dests)
        self.cnt = tuple(cnt)
        self.mtab = tuple(mtab)
        self.line = tuple(line)
        self.drops: tuple[Move_t, ...] = tuple((-1, j, 1) for j in range(n))
        # Zobrist keys from a fixed local generator (deterministic; no global random).
        rng = random.Random(0x5AC550F0C5)
        bits = 64
        self.zst = tuple(tuple(tuple(rng.getrandbits(bits) for _ in range(seats))
                               for _ in range(maxcap)) for _ in range(n))
        self.zres = tuple(tuple(rng.getrandbits(bits) if r else 0 for r in range(_MAX_RESERVE + 1))
                          for _ in range(seats))
        self.zside = tuple(rng.getrandbits(bits) for _ in range(seats))
        self.zact = tuple(rng.getrandbits(bits) for _ in range(1 << seats))
        self.zd: tuple[_ZobristCell, ...] = tuple(_ZobristCell(self.zst[i]) for i in range(n))
        # split[k][stack] = (what stays, the top k that move): one look-up instead of two slices
        self.split: tuple[_Split, ...] = tuple(_Split(k) for k in range(maxcap + 1))
        self.zcache = self.zd
        self.one: tuple[tuple[int, ...], ...] = tuple((q,) for q in range(seats))
        self.actions: dict[Move_t, Action] = {}

    def action(self, m: Move_t) -> Action:
        """The public action of a move tuple (cached)."""
        a = self.actions.get(m)
        if a is None:
            src, dst, k = m
            if k == 0:
                a = Swap(self.cells[src], self.cells[dst])
            elif src < 0:
                a = Drop(self.cells[dst])
            else:
                a = Move(self.cells[src], self.cells[dst], k)
            self.actions[m] = a
        return a


class _ZobristCell(dict):  # type: ignore[type-arg]
    """stack -> Zobrist key of that stack on one cell; a missing stack is computed once."""

    __slots__ = ("z",)

    def __init__(self, z: tuple[tuple[int, ...], ...]) -> None:
        super().__init__({(): 0})
        self.z = z

    def __missing__(self, stack: tuple[int, ...]) -> int:
        v = 0
        z = self.z
        for lvl, c in enumerate(stack):
            v ^= z[lvl][c]
        self[stack] = v
        return v


class _Split(dict):  # type: ignore[type-arg]
    """stack -> ``(stack[:-k], stack[-k:])`` for one ``k >= 1`` (what stays, what moves); cached.

    Only stacks of at least ``k`` stones are asked for (``k = 0``, index 0 of
    ``_Tables.split``, is never used).
    """

    __slots__ = ("k",)

    def __init__(self, k: int) -> None:
        super().__init__()
        self.k = k

    def __missing__(self, stack: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        k = self.k
        v = self[stack] = (stack[:-k], stack[-k:])
        return v


_TABLES: dict[tuple[str, tuple[int, ...], int], _Tables] = {}


def _tables(board: Board, caps: tuple[int, ...], seats: int) -> _Tables:
    key = (board.kind, caps, seats)
    t = _TABLES.get(key)
    if t is None:
        t = _TABLES[key] = _Tables(board, caps, seats)
    return t


# -- the game -----------------------------------------------------------------

class SacksonGame(Game):
    """FOCUS and Crossfire: settings, seats and the starting position.

    Args:
        seats: 2 (``"2p"``, ``"crossfire"``), 3 (``"3p"``) or 4 (``"4p-teams"``, ``"4p"``).
        settings: see :attr:`settings_spec`.  A setting that has no meaning in
            the chosen variant must keep its default (docs, "Settings").

    Raises:
        SettingsError: seats that do not match the variant, an unknown key, a
            value of the wrong type or out of range, or a setting that does not
            apply to the variant.
    """

    name: ClassVar[str] = "focus"
    title: ClassVar[str] = "FOCUS"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    settings_spec: ClassVar[Mapping[str, Setting]] = {
        "variant": Setting("2p", str, choices=tuple(VARIANTS),
                           help="2p, 3p (SF-4), 4p-teams / 4p (SF-5) or crossfire (SF-6)"),
        "opening_swap": Setting(False, bool, help="each player swaps two stones before move one (SF-3; 2-player variants)"),
        "mirror_rule": Setting(False, bool, help="a second player who copied every move loses (SF-3; 2-player variants)"),
        "max_plies_without_capture": Setting(200, int, low=0, high=100_000,
                                             help="the game ends after this many plies without a capture (SF-3); 0 = never"),
        "overflow_height": Setting(5, int, low=2, high=12,
                                   help="highest stack on the square board (SF-2); Crossfire uses cell capacities"),
        "goal_captures_each": Setting(3, int, low=1, high=13,
                                      help="3p: capture this many stones of each opponent to win (SF-4)"),
        "goal_removed": Setting(10, int, low=1, high=36,
                                help="3p: remove this many stones from the board, own included, to win (SF-4; "
                                     "only overflows that capture count)"),
    }
    action_types: ClassVar[Sequence[type[Action]]] = (Move, Drop, Swap)

    def __init__(self, seats: int, settings: Mapping[str, Any] | None = None) -> None:
        super().__init__(seats, settings)
        variant = self.settings["variant"]
        want = VARIANTS[variant]
        if seats != want:
            raise SettingsError("seats", seats, f"{want} for variant {variant!r}")
        two = want == 2
        for key in ("opening_swap", "mirror_rule"):
            if self.settings[key] and not two:
                raise SettingsError(key, True, f"False for variant {variant!r} (the symmetry counters are for two players, SF-3)")
        if variant != "3p":
            for key in ("goal_captures_each", "goal_removed"):
                if self.settings[key] != self.settings_spec[key].default:
                    raise SettingsError(key, self.settings[key],
                                        f"the default {self.settings_spec[key].default} outside variant '3p' (SF-4)")
        self.variant: str = variant
        self.board: Board = HEX if variant == "crossfire" else SQUARE
        if variant == "crossfire":
            if self.settings["overflow_height"] != 5:
                raise SettingsError("overflow_height", self.settings["overflow_height"],
                                    "the default 5 for Crossfire, whose cells have their own capacities (SF-6)")
            caps = self.board.neighbour_count
        else:
            caps = (self.settings["overflow_height"],) * self.board.size
        self.capacity: tuple[int, ...] = caps
        self.teams: bool = variant == "4p-teams"
        self.ko: bool = variant == "crossfire"
        self._t = _tables(self.board, caps, seats)

    def new_initial_state(self) -> "SacksonState":
        """The start position of the variant (``arcade.sackson.setups``)."""
        stacks = {cell: (seat,) for cell, seat in start_position(self.variant).items()}
        return SacksonState(self, stacks, [0] * self.seats, 0, swaps=2 if self.settings["opening_swap"] else 0)

    def setup(self, stacks: Mapping[str, str | Sequence[int]], reserves: Sequence[int] | None = None,
              to_move: int = 0, captures: Sequence[Sequence[int]] | None = None,
              removed: Sequence[int] | None = None) -> "SacksonState":
        """A state from a given position (for tests, puzzles and analysis; no opening swap).

        Args:
            stacks: cell -> stack, bottom first, as seat letters (``"AAB"``) or
                seat numbers (``[0, 0, 1]``).  Missing cells are empty.
            reserves: stones in each seat's reserve (default all 0).
            to_move: the seat to move.  If it cannot move, the usual rule
                applies at once (loss, drop-out or skip).
            captures: ``captures[p][c]`` stones of colour ``c`` captured by ``p`` (SF-4).
            removed: stones each seat has removed from the board (SF-4).

        The arguments are kept (``state._origin``) so that the game can be recorded
        and replayed from this position (``arcade.sackson.record``, SF-7).

        Raises:
            SetupError: an unknown cell, a bad seat letter, a stack over its
                cell's capacity, a bad reserve count or seat.
        """
        n = self.seats
        parsed: dict[str, tuple[int, ...]] = {}
        for cell, spec in stacks.items():
            if cell not in self.board.index:
                raise SetupError(f"{cell!r} is not a {self._t.word} of the {self.board.kind} board")
            seq: list[int] = []
            for ch in spec:
                if isinstance(ch, str):
                    if ch not in SEAT_LETTERS[:n]:
                        raise SetupError(f"stack {spec!r} on {cell}: {ch!r} is not one of the seat letters {SEAT_LETTERS[:n]}")
                    seq.append(SEAT_LETTERS.index(ch))
                elif isinstance(ch, int) and not isinstance(ch, bool) and 0 <= ch < n:
                    seq.append(ch)
                else:
                    raise SetupError(f"stack {spec!r} on {cell}: {ch!r} is not a seat 0..{n - 1}")
            if len(seq) > self.capacity[self.board.index[cell]]:
                raise SetupError(f"stack on {cell} has {len(seq)} stones; the {self._t.word} holds at most "
                                 f"{self.capacity[self.board.index[cell]]}")
            if seq:
                parsed[cell] = tuple(seq)
        res = list(reserves) if reserves is not None else [0] * n
        if len(res) != n or any(not isinstance(r, int) or not 0 <= r <= 200 for r in res):
            raise SetupError(f"reserves {reserves!r}: expected {n} counts from 0 to 200")
        if not isinstance(to_move, int) or not 0 <= to_move < n:
            raise SetupError(f"to_move {to_move!r}: expected a seat 0..{n - 1}")
        state = SacksonState(self, parsed, res, to_move, swaps=0)
        if captures is not None:
            if len(captures) != n or any(len(row) != n for row in captures):
                raise SetupError(f"captures {captures!r}: expected {n} rows of {n} counts")
            state._caps = [list(row) for row in captures]
        if removed is not None:
            if len(removed) != n:
                raise SetupError(f"removed {removed!r}: expected {n} counts")
            state._removed = list(removed)
        # Remembered so that a record can start from this position (SF-7; arcade.sackson.record).
        state._origin = {
            "stacks": {cell: list(stack) for cell, stack in sorted(parsed.items(), key=lambda kv: self.board.index[kv[0]])},
            "reserves": list(res), "to_move": to_move,
            "captures": [list(row) for row in state._caps], "removed": list(state._removed),
        }
        return state


def make_game(name: str, seats: int, settings: Mapping[str, Any] | None = None) -> SacksonGame:
    """``(name, seats, settings) -> Game`` for :func:`arcade.core.record.replay`.

    Raises:
        SettingsError: ``name`` is not ``"focus"``, or bad seats/settings.
    """
    if name != SacksonGame.name:
        raise SettingsError("game", name, f"{SacksonGame.name!r}")
    return SacksonGame(seats, settings)


# -- the state ----------------------------------------------------------------

def _who(player: object) -> str:
    """``"P1"`` for seat 0, a pseudo-player's name, or the repr of anything else."""
    try:
        return player_name(player)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return repr(player)


class SacksonState(State):
    """A FOCUS / Crossfire position with its history (see the module docstring).

    Seats are 0-based; seat ``p`` plays the stones of colour ``p`` (letter
    ``"ABCD"[p]``).  ``current_player()`` is the seat to move or ``TERMINAL``.
    """

    game: SacksonGame

    # Slots, not the instance dict: make/unmake read and write these on every move, and a slot
    # is the quickest attribute there is (a dict of 30-odd keys is looked up by hash).
    __slots__ = ("_t", "_st", "_res", "_bh", "_side", "_active", "_amask", "_seen", "_keyv", "_qbase", "_nset",
                 "_quiet", "_swaps0", "_caps", "_removed", "_resv", "_swaps", "_ko", "_limit",
                 "_mirror_on", "_mirror", "_last0", "_p2moves", "_undo", "_dups", "_is3p", "_fast2",
                 "_simple", "_zsk", "_zflip", "_capl", "_split", "_draw_rule", "_origin")

    def __init__(self, game: SacksonGame, stacks: Mapping[str, tuple[int, ...]], reserves: list[int],
                 to_move: int, swaps: int) -> None:
        super().__init__(game)
        t = game._t
        self._t = t
        n = t.n
        seats = game.seats
        self._st: list[tuple[int, ...]] = [()] * n
        for cell, stack in stacks.items():
            self._st[t.index[cell]] = stack
        self._res: list[int] = list(reserves)
        bh = 0
        zd = t.zd
        for i, s in enumerate(self._st):
            if s:
                bh ^= zd[i][s]
        for p in range(seats):
            bh ^= t.zres[p][self._res[p]]
        self._bh: int = bh
        self._side: int = to_move
        self._active: list[bool] = [True] * seats
        self._amask: int = (1 << seats) - 1
        self._seen: dict[int, int] = {}
        self._keyv: int = 0
        self._quiet: int = 0
        self._qbase: int = 0            # lean path: plies without a capture = len(_undo) - _qbase
        self._nset: int = 0             # lean path: the undo records whose positions were looked at
        self._swaps0: int = swaps
        self._caps: list[list[int]] = [[0] * seats for _ in range(seats)]
        self._removed: list[int] = [0] * seats
        self._resv: tuple[tuple[int, ...], str] | None = None
        self._swaps: int = swaps
        self._ko: bool = game.ko
        self._limit: int = game.settings["max_plies_without_capture"]
        self._mirror_on: bool = game.settings["mirror_rule"]
        self._mirror: int = 0
        self._last0: Move_t | None = None
        self._p2moves: int = 0
        self._undo: list[tuple[Any, ...]] = []
        self._dups: int = 0     # positions seen twice already (a third time would end the game)
        self._is3p: bool = game.variant == "3p"
        self._fast2: bool = seats == 2 and not game.ko   # 2p square board: the next side is simply the other
        # the lean make/unmake: two players without the mirror rule (no elimination)
        self._simple: bool = seats == 2 and not self._mirror_on
        self._zsk: tuple[int, ...] = tuple(t.zside[q] ^ t.zact[self._amask] for q in range(seats))
        self._zflip: int = self._zsk[0] ^ self._zsk[1]    # side A <-> side B in the lean path's key
        self._capl: tuple[int, ...] = t.caps              # overflow height of every cell
        self._split: tuple[_Split, ...] = t.split         # the lean path's stack splits
        # SF-3 ends two-player games by repetition / plies without a capture; with three or
        # four players the same endings are the arcade's own rule (docs, "Turn order").
        self._draw_rule: str = "SF-3" if seats == 2 else "arcade rule for 3-4 players"
        self._origin: dict[str, Any] | None = None   # the setup() arguments, None for the variant's start position
        if swaps == 0:
            self._start_play(to_move)
        if self._simple:
            self.__class__ = _LeanState

    # -- helpers -------------------------------------------------------------
    def _start_play(self, first: int) -> None:
        """Begin the play phase: record the position, set the mirror candidates, settle who moves."""
        if self._mirror_on:
            t = self._t
            mask = 1 << t.board.symmetry_names.index("rot180")
            for gi, perm in enumerate(t.board.symmetries):
                if gi and self._swapped_image_equal(perm):
                    mask |= 1 << gi
            self._mirror = mask
        self._key = self._bh ^ self._t.zside[first] ^ self._t.zact[self._amask]   # for the ko look-ups
        side, result, _ = self._resolve_turn(first)
        self._side = side
        self._key = self._bh ^ self._t.zside[side] ^ self._t.zact[self._amask]
        self._seen[self._key] = self._seen.get(self._key, 0) + 1
        self._result = result

    def _swapped_image_equal(self, perm: tuple[int, ...]) -> bool:
        """True when the board, turned by ``perm`` with the two colours exchanged, is unchanged (2 seats)."""
        st = self._st
        for i, s in enumerate(st):
            other = st[perm[i]]
            if len(s) != len(other):
                return False
            for a, b in zip(s, other):
                if a + b != 1:
                    return False
        return True

    def _symmetric(self) -> bool:
        """True when some symmetry of the board with the colours exchanged leaves the position unchanged (SF-3)."""
        return any(self._swapped_image_equal(perm) for perm in self._t.board.symmetries[1:])

    def _can_move(self, q: int) -> bool:
        if not self._ko:
            if self._res[q] > 0:
                return True
            for s in self._st:
                if s and s[-1] == q:   # every stack has a move of one
                    return True
            return False
        # Crossfire: the first move that does not recreate an earlier position will do (SF-6).
        if not self._quiet:
            # just after a capture no earlier position can come back (fewer stones in play now)
            return self._res[q] > 0 or any(s and s[-1] == q for s in self._st)
        t = self._t
        seen = self._seen
        nxt = t.zside[(q + 1) % self.game.seats] ^ t.zact[self._amask]
        after = self._board_hash_after
        bh = self._board_hash()
        for i, s in enumerate(self._st):
            if s and s[-1] == q:
                for m in t.mtab[i][len(s)]:
                    if (after(m, q, bh) ^ nxt) not in seen:
                        return True
        if self._res[q]:
            for m in t.drops:
                if (after(m, q, bh) ^ nxt) not in seen:
                    return True
        return False

    def _resolve_turn(self, q: int) -> tuple[int, tuple[tuple[int, ...], str] | None, list[int]]:
        """Starting with candidate ``q``, find who moves next (SF-2, SF-4, SF-5).

        Returns (side, result or None, seats eliminated now).  Changes ``_active``.
        """
        n = self.game.seats
        elim: list[int] = []
        while True:
            if self._active[q]:
                if self._can_move(q):
                    return q, None, elim
                if n == 2:
                    w = 1 - q
                    return q, ((w,), _("{loser} cannot move: {winner} wins (SF-2)").format(
                        loser=player_name(q), winner=player_name(w))), elim
                if self.game.teams:
                    partner = q ^ 2
                    if not self._can_move(partner):
                        win = tuple(sorted(((q + 1) % 4, (q + 3) % 4)))
                        lo, hi = sorted((q, partner))
                        return q, (win, _("neither {a} nor {b} can move: team {c} + {d} wins (SF-5)").format(
                            a=player_name(lo), b=player_name(hi), c=player_name(win[0]), d=player_name(win[1]))), elim
                else:
                    self._active[q] = False
                    self._amask &= ~(1 << q)
                    elim.append(q)
                    left = [s for s in range(n) if self._active[s]]
                    if len(left) == 1:
                        out = ", ".join(player_name(s) for s in range(n) if s != left[0])
                        said = _("{out} dropped out: {last} is the last one left (SF-4)") if n == 3 else \
                            _("{out} dropped out: {last} is the last one left (SF-5)")
                        return left[0], ((left[0],), said.format(out=out, last=player_name(left[0]))), elim
            q = (q + 1) % n

    def _moves_for(self, p: int) -> list[Move_t]:
        """Legal play tuples of seat ``p`` (play phase), ko-filtered in Crossfire."""
        t = self._t
        mtab = t.mtab
        out: list[Move_t] = []
        for i, s in enumerate(self._st):
            if s and s[-1] == p:
                out.extend(mtab[i][len(s)])
        if self._res[p]:
            out.extend(t.drops)
        if self._ko and self._quiet:
            # SF-6 ko.  Just after a capture (quiet 0) no move can recreate an earlier position:
            # every earlier position had more stones in play.
            return self._ko_filter(out, p)
        return out

    def _ko_filter(self, moves: list[Move_t], p: int) -> list[Move_t]:
        """``moves`` without those that recreate a position seen before (SF-6), hashing inline."""
        t = self._t
        seen = self._seen
        st = self._st
        zd = t.zd
        caps = t.caps
        zres = t.zres[p]
        r0 = self._res[p]
        nxt = self._board_hash() ^ t.zside[(p + 1) % self.game.seats] ^ t.zact[self._amask]
        keep: list[Move_t] = []
        src_prev = -2
        k_prev = -1
        base = 0
        moving: tuple[int, ...] = ()
        for m in moves:
            src, dst, k = m
            if src != src_prev or k != k_prev:
                src_prev, k_prev = src, k
                if src < 0:
                    moving = (p,)
                    base = nxt ^ zres[r0] ^ zres[r0 - 1]
                    r = r0 - 1
                else:
                    s = st[src]
                    moving = s[-k:]
                    base = nxt ^ zd[src][s] ^ zd[src][s[:-k]]
                    r = r0
            d = st[dst]
            new = d + moving
            cut = len(new) - caps[dst]
            key = base ^ zd[dst][d]
            if cut > 0:
                own = new[:cut].count(p)
                if own != cut:
                    keep.append(m)      # a capture: fewer stones than in any earlier position
                    continue
                key ^= zres[r] ^ zres[r + own]
                new = new[cut:]
            if (key ^ zd[dst][new]) not in seen:
                keep.append(m)
        return keep

    def _board_hash_after(self, m: Move_t, p: int, bh: int | None = None) -> int:
        """Board + reserves hash after play ``m`` by ``p``, without making it.

        ``bh``: ``_board_hash()`` now, passed in when many moves of one position are hashed.
        """
        src, dst, k = m
        t = self._t
        st = self._st
        zd = t.zd
        if bh is None:
            bh = self._board_hash()
        zres = t.zres[p]
        r = self._res[p]
        if src < 0:
            moving: tuple[int, ...] = (p,)
            bh ^= zres[r] ^ zres[r - 1]
            r -= 1
        else:
            s = st[src]
            moving = s[-k:]
            bh ^= zd[src][s] ^ zd[src][s[:-k]]
        d = st[dst]
        new = d + moving
        cut = len(new) - t.caps[dst]
        if cut > 0:
            own = new[:cut].count(p)
            if own:
                bh ^= zres[r] ^ zres[r + own]
            new = new[cut:]
        key: int = bh ^ zd[dst][d] ^ zd[dst][new]
        return key

    def _board_hash(self) -> int:
        """Zobrist key of board and reserves only (the lean path keeps just ``_key``)."""
        if self._simple:
            return self._key ^ self._zsk[self._side]
        return self._bh

    def _mobility(self) -> list[int]:
        """Legal stack moves of every seat (drops not counted), counted now from the stacks."""
        mob = [0] * self.game.seats
        cnt = self._t.cnt
        for i, s in enumerate(self._st):
            if s:
                mob[s[-1]] += cnt[i][len(s)]
        return mob

    @property
    def _ply(self) -> int:
        """Play moves made since the start or the set-up (swaps not counted)."""
        return len(self._undo) - (self._swaps0 - self._swaps)

    def _moves(self) -> list[Move_t]:
        """Every legal move tuple for the side to move (empty when the game is over)."""
        if self._result is not None:
            return []
        if self._swaps:
            return self._swap_moves()
        return self._moves_for(self._side)

    def _count(self) -> int:
        """Number of legal moves for the side to move (bulk perft), without listing them where possible."""
        if self._result is not None:
            return 0
        if self._swaps or self._ko:
            return len(self._moves())
        p = self._side
        t = self._t
        cnt = t.cnt
        total = t.n if self._res[p] else 0
        for i, s in enumerate(self._st):
            if s and s[-1] == p:
                total += cnt[i][len(s)]
        return total

    def _count_after(self, m: Move_t, mq: int | None = None) -> int:
        """``_count()`` after play ``m``, without making it (2p square board only, play phase).

        The reply count changes only through the two cells ``m`` touches; the
        game ends after ``m`` (count 0) by repetition or by the plies limit,
        or when the reply count is 0 anyway (SF-2 loss; the mirror rule only
        changes who wins).  ``mq``: the opponent's mobility now (``_mobility()``),
        passed in when many moves of one position are counted.
        """
        src, dst, k = m
        t = self._t
        st = self._st
        cnt = t.cnt
        p = self._side
        q = 1 - p
        if mq is None:
            mq = self._mobility()[q]
        d = st[dst]
        if src < 0:
            moving: tuple[int, ...] = (p,)
        else:
            s = st[src]
            h = len(s)
            moving = s[h - k:]
            if h > k and s[h - k - 1] == q:
                mq += cnt[src][h - k]
        if d and d[-1] == q:
            mq -= cnt[dst][len(d)]
        if self._limit and self._quiet + 1 >= self._limit:
            cut = len(d) + len(moving) - t.caps[dst]
            if cut <= 0 or all(c == p for c in (d + moving)[:cut]):
                return 0
        if self._dups:
            key = self._board_hash_after(m, p) ^ t.zside[q] ^ t.zact[self._amask]
            if self._seen.get(key, 0) >= 2:
                return 0
        return mq + (t.n if self._res[q] else 0)

    def _swap_moves(self) -> list[Move_t]:
        st = self._st
        singles = [i for i, s in enumerate(st) if len(s) == 1]
        out: list[Move_t] = []
        for x, a in enumerate(singles):
            for b in singles[x + 1:]:
                if st[a][0] != st[b][0]:
                    if self._swaps == 1:
                        st[a], st[b] = st[b], st[a]
                        sym = self._symmetric()
                        st[a], st[b] = st[b], st[a]
                        if sym:
                            continue
                    out.append((a, b, 0))
        return out

    # -- make / unmake -------------------------------------------------------
    def _make(self, m: Move_t) -> None:
        """Play move tuple ``m`` for the side to move (no validation, no history)."""
        src, dst, k = m
        if k == 0:
            self._make_swap(src, dst)
            return
        if not self._simple:
            self._make_full(m)
            return
        _LeanState._make(self, m)   # type: ignore[arg-type]

    def _settle(self) -> None:
        """Lean path: the key, repetition count and end of the game after the moves not yet looked at.

        Those are the lean records from ``_nset`` up (``_LEAN_RECORD``).  Usually there is
        one; when moves were made on a position nobody looked at, they are taken back and
        made again one at a time, so that every position of the game is counted (SF-3).
        """
        undo = self._undo
        n = len(undo) - self._nset
        if n == 1:
            self._settle_one()
            return
        again = []
        for _move in range(n):
            again.append(undo[-1][0])
            self._unmake()
        for m in reversed(again):
            self._make(m)
            self._settle_one()

    def _settle_one(self) -> None:
        """``_settle`` of the top record only (the position before it is settled)."""
        undo = self._undo
        rec = undo[-1]
        m, s, d, extra = rec
        src, dst, _k = m
        st = self._st
        t = self._t
        zd = t.zd
        q = self._side
        p = 1 - q
        okey = self._keyv
        undo[-1] = (m, s, d, (okey, extra))     # settled: the record keeps the key before the move
        self._nset = len(undo)
        key = okey ^ self._zflip ^ zd[dst][d] ^ zd[dst][st[dst]]
        r = self._res[p]
        if src >= 0:
            key ^= zd[src][s] ^ zd[src][st[src]]
            r0 = r if extra is None else extra[0]
        else:
            r0 = r + 1 if extra is None else extra[0] + 1
        if r0 != r:
            zr = t.zres[p]
            key ^= zr[r0] ^ zr[r]
        self._keyv = key
        seen = self._seen
        c = seen.get(key, 0) + 1
        seen[key] = c
        if c == 2:
            self._dups += 1
        if self._ko:
            if not self._can_move(q):   # SF-2 with the SF-6 ko: every move of q recreates a position
                self._resv = ((p,), _("{loser} cannot move: {winner} wins (SF-2)").format(
                    loser=player_name(q), winner=player_name(p)))
                return
        # SF-2: q can run out of moves only by losing a stack it topped while its reserve is empty
        elif d and d[-1] == q and not self._res[q]:
            for x in st:
                if x and x[-1] == q:
                    break
            else:
                self._resv = ((p,), _("{loser} cannot move: {winner} wins (SF-2)").format(
                    loser=player_name(q), winner=player_name(p)))
                return
        if c >= 3:
            self._resv = ((), _("draw: the same position for the third time (SF-3)"))
        elif self._limit and len(undo) - self._qbase >= self._limit:     # _quiet
            self._resv = ((), _("draw: {n} plies without a capture (SF-3)").format(n=self._limit))

    @property
    def _result(self) -> tuple[tuple[int, ...], str] | None:
        """Winners and reason once the game is over, else None."""
        return self._resv

    @_result.setter
    def _result(self, value: tuple[tuple[int, ...], str] | None) -> None:
        self._resv = value

    @property
    def _key(self) -> int:
        """Zobrist key of the position (board, reserves, side to move, seats still in)."""
        return self._keyv

    @_key.setter
    def _key(self, value: int) -> None:
        self._keyv = value

    def _overflow(self, p: int, new: tuple[int, ...], cap: int) -> tuple[tuple[int, ...], tuple[Any, ...]]:
        """The lean path's overflow (SF-2): the bottom goes, own stones to the reserve, the rest captured.

        Returns the stack left and the undo extra ``(reserve before, captured?, over, _qbase
        before)``; a capture starts the plies without a capture afresh (SF-3).
        """
        cut = len(new) - cap
        over = new[:cut]
        own = over.count(p)
        res = self._res
        r = res[p]
        if own:
            res[p] = r + own
        captured = own != cut
        if captured:
            row = self._caps[p]
            for c in over:
                if c != p:
                    row[c] += 1
            self._removed[p] += cut
            qbase = self._qbase
            self._qbase = len(self._undo) + 1     # the record about to be pushed ends the count
            return new[cut:], (r, captured, over, qbase)
        return new[cut:], (r, captured, over, None)

    def _make_full(self, m: Move_t) -> None:
        """``_make`` for 3-4 players and the mirror rule."""
        src, dst, k = m
        t = self._t
        p = self._side
        st = self._st
        res = self._res
        zd = t.zd
        old_res = res[p]
        old_bh = self._bh
        d = st[dst]
        if src < 0:
            moving: tuple[int, ...] = (p,)
            s: tuple[int, ...] = ()
            r = old_res - 1
            bh = old_bh ^ t.zres[p][old_res] ^ t.zres[p][r]
        else:
            s = st[src]
            h = len(s)
            moving = s[h - k:]
            rest = s[:h - k]
            st[src] = rest
            bh = old_bh ^ zd[src][s] ^ zd[src][rest]
            r = old_res
        new = d + moving
        cut = len(new) - t.caps[dst]
        over: tuple[int, ...] | None = None
        captured = False
        if cut > 0:
            over = new[:cut]
            new = new[cut:]
            own = over.count(p)
            if own:
                bh ^= t.zres[p][r] ^ t.zres[p][r + own]
                r += own
            if own != cut:
                captured = True
                row = self._caps[p]
                for c in over:
                    if c != p:
                        row[c] += 1
                # SF-4 "removed, own included": own stones count only in an overflow that also
                # captures (docs, "Three players"), so shedding one's own stones alone is no goal.
                self._removed[p] += cut
        res[p] = r
        st[dst] = new
        self._bh = bh = bh ^ zd[dst][d] ^ zd[dst][new]
        old_quiet = self._quiet
        self._quiet = 0 if captured else old_quiet + 1
        if self._mirror_on:
            old_mirror: tuple[int, Move_t | None, int] | None = (self._mirror, self._last0, self._p2moves)
            self._mirror_step(p, m)
        else:
            old_mirror = None
        old_side = self._side
        old_key = self._key
        old_amask = self._amask
        result: tuple[tuple[int, ...], str] | None = None
        elim: list[int] = []
        if self._fast2:
            side = 1 - p
            if not self._can_move(side):
                result = ((p,), f"{player_name(side)} cannot move: {player_name(p)} wins (SF-2)")
        else:
            seats = self.game.seats
            if self._is3p:
                result = self._goal_3p(p)
            if result is None:
                side, result, elim = self._resolve_turn((p + 1) % seats)
            else:
                side = (p + 1) % seats
        self._side = side
        key = bh ^ t.zside[side] ^ t.zact[self._amask]
        self._key = key
        seen = self._seen
        cnt_seen = seen.get(key, 0) + 1
        seen[key] = cnt_seen
        if cnt_seen == 2:
            self._dups += 1
        if result is None:
            if cnt_seen >= 3:
                result = ((), _("draw: the same position for the third time (SF-3)") if self._draw_rule == "SF-3"
                          else _("draw: the same position for the third time (arcade rule for 3-4 players)"))
            elif self._limit and self._quiet >= self._limit:
                result = ((), (_("draw: {n} plies without a capture (SF-3)") if self._draw_rule == "SF-3"
                               else _("draw: {n} plies without a capture (arcade rule for 3-4 players)")
                               ).format(n=self._limit))
        if result is not None and self._mirror_on:
            result = self._mirror_verdict(result)
        self._result = result
        self._undo.append((m, p, s, d, old_bh, old_res, over, old_quiet,
                           old_side, old_key, old_amask, elim, old_mirror))

    def _goal_3p(self, p: int) -> tuple[tuple[int, ...], str] | None:
        """SF-4: three captured stones of each opponent, or ten stones removed from the board."""
        s = self.game.settings
        need = s["goal_captures_each"]
        row = self._caps[p]
        if all(row[c] >= need for c in range(3) if c != p):
            return ((p,), ngettext("{seat} captured {n} stone of each opponent (SF-4)",
                                   "{seat} captured {n} stones of each opponent (SF-4)", need).format(
                seat=player_name(p), n=need))
        if self._removed[p] >= s["goal_removed"]:
            return ((p,), ngettext("{seat} removed {n} stone from the board (SF-4)",
                                   "{seat} removed {n} stones from the board (SF-4)", self._removed[p]).format(
                seat=player_name(p), n=self._removed[p]))
        return None

    def _mirror_step(self, p: int, m: Move_t) -> None:
        if p == 0:
            self._last0 = m
            return
        self._p2moves += 1
        last = self._last0
        mask = self._mirror
        if last is None:
            self._mirror = 0
            return
        syms = self._t.board.symmetries
        for gi in range(len(syms)):
            if mask >> gi & 1:
                g = syms[gi]
                img = (last[0] if last[0] < 0 else g[last[0]], g[last[1]], last[2])
                if img != m:
                    mask &= ~(1 << gi)
        self._mirror = mask

    def _mirror_verdict(self, result: tuple[tuple[int, ...], str]) -> tuple[tuple[int, ...], str]:
        if self._p2moves and self._mirror:
            return ((0,), _("{second} copied every move of {first}: {first} wins by the mirror rule (SF-3)").format(
                second=player_name(1), first=player_name(0)))
        return result

    def _make_swap(self, a: int, b: int) -> None:
        t = self._t
        st = self._st
        zd = t.zd
        rec = (self._side, self._bh, self._key, self._result, self._mirror,
               self._amask, tuple(self._active), dict(self._seen) if self._swaps == 1 else None)
        sa, sb = st[a], st[b]
        self._bh ^= zd[a][sa] ^ zd[b][sb] ^ zd[a][sb] ^ zd[b][sa]
        st[a], st[b] = sb, sa
        self._swaps -= 1
        if self._swaps:
            self._side = 1 - self._side
        else:
            self._start_play(0)
        self._undo.append(((a, b, 0), rec))
        self._qbase = self._nset = len(self._undo)    # a swap is no ply, and it is settled

    def _unmake(self) -> None:
        """Take back the last ``_make`` exactly."""
        rec = self._undo.pop()
        if len(rec) == _LEAN_RECORD:
            self._undo.append(rec)
            _LeanState._unmake(self)   # type: ignore[arg-type]
            return
        m = rec[0]
        if m[2] == 0:
            a, b, _ = m
            (side, bh, key, result, mirror, amask, active, seen) = rec[1]
            self._qbase = self._nset = len(self._undo)
            st = self._st
            st[a], st[b] = st[b], st[a]
            self._bh = bh
            self._side = side
            self._key = key
            self._result = result
            self._mirror = mirror
            self._amask = amask
            self._active = list(active)
            if seen is not None:
                self._seen = seen
            self._swaps += 1
            return
        (m, p, s, d, old_bh, old_res, over, old_quiet,
         old_side, old_key, old_amask, elim, old_mirror) = rec
        src, dst, k = m
        seen = self._seen
        c = seen[self._key] - 1
        if c:
            seen[self._key] = c
            if c == 1:
                self._dups -= 1
        else:
            del seen[self._key]
        st = self._st
        st[dst] = d
        if src >= 0:
            st[src] = s
        self._res[p] = old_res
        self._bh = old_bh
        if over is not None and over.count(p) != len(over):
            row = self._caps[p]
            for col in over:
                if col != p:
                    row[col] -= 1
            self._removed[p] -= len(over)
        self._quiet = old_quiet
        self._side = old_side
        self._key = old_key
        self._amask = old_amask
        for q in elim:
            self._active[q] = True
        if old_mirror is not None:
            self._mirror, self._last0, self._p2moves = old_mirror
        self._result = None

    # -- public API ----------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move, or ``TERMINAL`` once the game is over."""
        return TERMINAL if self._result is not None else self._side

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every legal action of ``player`` (default: the side to move); empty for anyone else.

        During the opening swap (SF-3) these are :class:`Swap` actions (each
        pair listed once, in board order); afterwards :class:`Move` and :class:`Drop`.
        """
        if player is not None and player != self.current_player():
            return []
        action = self._t.action
        return [action(m) for m in self._moves()]

    def _internal(self, action: Action) -> Move_t:
        idx = self._t.index
        if isinstance(action, Move):
            return (idx[action.src], idx[action.dst], action.count)
        if isinstance(action, Drop):
            return (-1, idx[action.dst], 1)
        if isinstance(action, Swap):
            a, b = idx[action.a], idx[action.b]
            return (min(a, b), max(a, b), 0)
        raise TypeError(f"not a FOCUS action: {action!r}")

    def _cell(self, name: object, what: str) -> int | str:
        if not isinstance(name, str):
            return f"{what} must be a {self._t.word} name such as {self._t.cells[5]!r}, got {name!r}"
        i = self._t.index.get(name)
        if i is None:
            square = self._t.word == "square"
            fixed = name.strip().lower() if square else name.strip().upper()
            if fixed in self._t.index:
                return f"{name!r}: {self._t.word}s are {'lower' if square else 'upper'} case ({fixed})"
            return f"{name!r} is not a {self._t.word} of the {'FOCUS' if square else 'Crossfire'} board"
        return i

    def _raw_text(self, action: Action) -> str:
        """``action`` in notation with its cell names exactly as given (for error messages)."""
        from arcade.sackson.notation import format_action  # local: notation imports this module

        names = [getattr(action, f, None) for f in ("src", "dst", "a", "b") if hasattr(action, f)]
        if all(isinstance(c, str) and c in self._t.index for c in names):
            try:
                return format_action(action, self)
            except (ArcadeError, ValueError, TypeError, AttributeError):
                return repr(action)
        if isinstance(action, Move):
            return f"{action.src}-{action.dst}:{action.count}"
        if isinstance(action, Drop):
            return f"+{action.dst}"
        if isinstance(action, Swap):
            return f"{action.a}<>{action.b}"
        return repr(action)

    def check(self, player: int, action: Action) -> str | None:
        """Why ``action`` by ``player`` is not allowed now, or None (fast: no move list is built).

        Reasons name the rule (SF-2 moves, SF-3 opening swap, SF-6 ko).
        """
        if self._result is not None:
            return _("the game is over")
        if player != self._side:
            return _("it is {seat}'s turn, not {other}'s").format(seat=player_name(self._side), other=_who(player))
        t = self._t
        st = self._st
        if isinstance(action, Swap):
            if not self._swaps:
                return _("the opening swap is over; swaps are only allowed before move one (SF-3)")
            a = self._cell(action.a, "a")
            if isinstance(a, str):
                return a
            b = self._cell(action.b, "b")
            if isinstance(b, str):
                return b
            if a == b:
                return _("a swap needs two different cells")
            for c in (a, b):
                if len(st[c]) != 1:
                    return _("{cell} does not hold a single stone").format(cell=t.cells[c])
            if st[a][0] == st[b][0]:
                return _("{a} and {b} hold stones of the same colour; a swap exchanges two colours (SF-3)").format(
                    a=t.cells[a], b=t.cells[b])
            if self._swaps == 1:
                st[a], st[b] = st[b], st[a]
                sym = self._symmetric()
                st[a], st[b] = st[b], st[a]
                if sym:
                    return _("after both swaps the position would be symmetric, which the opening swap forbids (SF-3)")
            return None
        if self._swaps:
            return _("{seat} must first swap two stones (opening swap, SF-3)").format(seat=player_name(player))
        if isinstance(action, Drop):
            j = self._cell(action.dst, "dst")
            if isinstance(j, str):
                return j
            if self._res[player] <= 0:
                return _("{seat} has no stone in reserve").format(seat=player_name(player))
            m: Move_t = (-1, j, 1)
        elif isinstance(action, Move):
            i = self._cell(action.src, "src")
            if isinstance(i, str):
                return i
            j = self._cell(action.dst, "dst")
            if isinstance(j, str):
                return j
            k = action.count
            if not isinstance(k, int) or isinstance(k, bool):
                return f"count must be a whole number of stones, got {k!r}"
            s = st[i]
            if not s:
                return f"there is no stack on {action.src}"
            if s[-1] != player:
                return f"the stack on {action.src} is topped by {player_name(s[-1])}, not by {player_name(player)}"
            if i == j:
                return "a move must leave its cell"
            if k < 1:
                return f"count {k}: at least one stone must move"
            if k > len(s):
                return f"the stack on {action.src} holds {len(s)} stone{'s' if len(s) > 1 else ''}; {k} cannot move"
            dist = t.line[i].get(j)
            if dist is None:
                return f"{action.dst} is not in a straight line from {action.src} (SF-2)"
            if dist != k:
                return (f"{action.src} to {action.dst} is {dist} {t.word}{'s' if dist > 1 else ''}, but {k} "
                        f"stone{'s' if k > 1 else ''} must move exactly {k} (SF-2)")
            m = (i, j, k)
        else:
            return f"not an action of {self.game.title}"
        if self._ko:
            nxt = t.zside[(player + 1) % self.game.seats] ^ t.zact[self._amask]
            if (self._board_hash_after(m, player) ^ nxt) in self._seen:
                return _("it would recreate an earlier position (ko rule, SF-6)")
        return None

    def apply(self, action: Action, player: int | None = None) -> None:
        """Validate, then play ``action`` for ``player`` (default: the side to move).

        Raises:
            IllegalActionError: the action is not allowed; the reason names the
                move in notation and the position (``position_text``).  Nothing changed.
        """
        actor = self.current_player() if player is None else player
        who = "nobody (the game is over)" if actor == TERMINAL else _who(actor)
        if not isinstance(action, tuple(self.game.action_types)):
            reason: str | None = f"not an action of {self.game.title}"
        else:
            reason = self.check(actor, action)
        if reason is not None:
            text = self._raw_text(action)
            raise IllegalActionError(action, who, f"{text}: {reason} [position: {self.position_text()}]")
        self._apply(actor, action)
        self.history.append((actor, action))

    def _apply(self, player: int, action: Action) -> None:
        self._make(self._internal(action))

    def undo(self) -> Action:
        """Take back the last applied action exactly; returns it.

        Raises:
            NothingToUndoError: no action has been applied.
        """
        if not self.history:
            raise NothingToUndoError("nothing to undo: no action has been played")
        self._unmake()
        return self.history.pop()[1]

    def outcome(self) -> Outcome | None:
        """Winners (empty for a draw) and the reason; ``scores`` are stones captured per seat."""
        if self._result is None:
            return None
        winners, reason = self._result
        return Outcome(winners, reason, tuple(float(sum(row)) for row in self._caps))

    def copy(self) -> "SacksonState":
        """A cheap independent copy (history and undo records included)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        for slot in _STATE_SLOTS:        # the slots themselves (_LeanState has a property on one)
            slot.__set__(new, slot.__get__(self))
        new.history = list(self.history)
        new._st = list(self._st)
        new._res = list(self._res)
        new._active = list(self._active)
        new._seen = dict(self._seen)
        new._caps = [list(r) for r in self._caps]
        new._removed = list(self._removed)
        new._undo = list(self._undo)
        return new

    def clone(self) -> "SacksonState":
        """Same as :meth:`copy`."""
        return self.copy()

    # -- queries ---------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The board geometry."""
        return self._t.board

    def stack(self, cell: str) -> tuple[int, ...]:
        """The stack on ``cell``, bottom first, as seats (``()`` when empty).

        Raises:
            KeyError: unknown cell.
        """
        return self._st[self._t.index[cell]]

    def reserve(self, seat: int) -> int:
        """Stones in ``seat``'s reserve."""
        return self._res[seat]

    def captured(self, seat: int) -> tuple[int, ...]:
        """Stones of every colour captured by ``seat`` (indexed by colour; SF-4)."""
        return tuple(self._caps[seat])

    def removed(self, seat: int) -> int:
        """Stones ``seat`` has removed from the board on their moves (SF-4): every stone of an
        overflow that captured, own stones included; an overflow of one's own stones alone
        (they go back to one's reserve) does not count (docs, "Three players")."""
        return self._removed[seat]

    def active(self, seat: int) -> bool:
        """False once ``seat`` has dropped out (3p, 4p individuals)."""
        return self._active[seat]

    @property
    def in_opening_swap(self) -> bool:
        """True while the opening swaps (SF-3) are due."""
        return self._swaps > 0 and self._result is None

    @property
    def plies_without_capture(self) -> int:
        """Plies since the last capture (or since the start)."""
        return self._quiet

    @property
    def position_key(self) -> int:
        """Zobrist key of board, reserves, side to move and seats still in (SF-3 repetition, SF-6 ko)."""
        return self._key

    def snapshot(self) -> dict[str, Any]:
        """The whole position as JSON-able data.

        Keys: ``variant``, ``board`` ("square"/"hex"), ``stacks`` (cell ->
        list of seats, bottom first, non-empty cells only, in board order),
        ``reserves``, ``captures`` (``[p][colour]``), ``removed``, ``active``,
        ``to_move`` (seat, or -3 once over), ``phase`` ("swap", "play", "over"),
        ``ply``, ``plies_without_capture``, ``outcome`` (None or winners/reason).
        """
        cells = self._t.cells
        out = self.outcome()
        return {
            "variant": self.game.variant,
            "board": self._t.board.kind,
            "stacks": {cells[i]: list(s) for i, s in enumerate(self._st) if s},
            "reserves": list(self._res),
            "captures": [list(r) for r in self._caps],
            "removed": list(self._removed),
            "active": list(self._active),
            "to_move": int(self.current_player()),
            "phase": "over" if out is not None else ("swap" if self._swaps else "play"),
            "ply": self._ply,
            "plies_without_capture": self._quiet,
            "outcome": None if out is None else {"winners": list(out.winners), "reason": out.reason},
        }

    @property
    def stats(self) -> dict[str, str]:
        """Figures for the results screen (``kiosk/scenes/results.py`` prints ``key: value``
        under the bars, which show ``outcome().scores`` = stones captured per seat)."""
        n = self.game.seats
        plies = sum(1 for _p, a in self.history if not isinstance(a, Swap))
        out = {"bars": "stones captured", "moves": str(plies)}
        if self.game.variant == "3p":
            out["removed (SF-4)"] = ", ".join(f"{player_name(p)} {self._removed[p]}" for p in range(n))
        out["reserves"] = ", ".join(f"{player_name(p)} {self._res[p]}" for p in range(n))
        return out

    def position_text(self) -> str:
        """A one-line, FEN-like description: stacks (bottom first), reserves, side to move.

        Example: ``"2p c2=A c3=BA ... | reserves A0 B1 | A to move"``.
        """
        cells = self._t.cells
        parts = [self.game.variant]
        for i, s in enumerate(self._st):
            if s:
                parts.append(f"{cells[i]}={''.join(SEAT_LETTERS[c] for c in s)}")
        res = " ".join(f"{SEAT_LETTERS[p]}{r}" for p, r in enumerate(self._res))
        who = "game over" if self._result is not None else f"{SEAT_LETTERS[self._side]} to move"
        if self._swaps and self._result is None:
            who += " (opening swap)"
        return f"{' '.join(parts)} | reserves {res} | {who}"

    def __repr__(self) -> str:
        return f"<SacksonState {self.position_text()}>"


#: SacksonState's slot descriptors (``copy``).
_STATE_SLOTS: tuple[MemberDescriptorType, ...] = tuple(SacksonState.__dict__[name] for name in SacksonState.__slots__)


class _LeanState(SacksonState):
    """A two-player state without the mirror rule: the lean ``_make``/``_unmake`` (module docstring).

    ``SacksonState`` turns itself into this class when it is built; nothing
    else differs (the same public API and the same results).

    ``_make`` changes the stacks, the reserves, the side and the captures, and
    pushes a record (``_LEAN_RECORD``); the key, the repetition count and the
    end of the game are worked out when the new position is first looked at
    (``_result``, ``_key``: ``_settle``, which keeps the key before the move in
    the record and moves ``_nset`` up), which a perft leaf never is.  The plies without a capture are not counted
    move by move either: they are the records pushed since the last capture
    (``len(_undo) - _qbase``).
    """

    __slots__ = ()

    @property
    def _quiet(self) -> int:
        """Plies since the last capture (or since the start): records pushed since then."""
        return len(self._undo) - self._qbase

    @_quiet.setter
    def _quiet(self, value: int) -> None:
        self._qbase = len(self._undo) - value

    @property
    def _result(self) -> tuple[tuple[int, ...], str] | None:
        """Winners and reason once the game is over, else None (settled first)."""
        if len(self._undo) != self._nset:
            self._settle()
        return self._resv

    @_result.setter
    def _result(self, value: tuple[tuple[int, ...], str] | None) -> None:
        self._resv = value

    @property
    def _key(self) -> int:
        """Zobrist key of the position (board, reserves, side to move, seats still in; settled first)."""
        if len(self._undo) != self._nset:
            self._settle()
        return self._keyv

    @_key.setter
    def _key(self, value: int) -> None:
        self._keyv = value

    def _make(self, m: Move_t) -> None:
        """Play move tuple ``m`` for the side to move (no validation, no history)."""
        src, dst, k = m
        if k == 0:
            SacksonState._make(self, m)
            return
        p = self._side
        st = self._st
        d = st[dst]
        if src < 0:
            s: tuple[int, ...] | None = None
            self._res[p] -= 1
            new = d + (p,)
        else:
            s = st[src]
            st[src], moving = self._split[k][s]
            new = d + moving
        cap = self._capl[dst]
        if len(new) > cap:
            new, extra = self._overflow(p, new, cap)
            st[dst] = new
            self._undo.append((m, s, d, extra))
        else:
            st[dst] = new
            self._undo.append((m, s, d, None))
        self._side = 1 - p

    def _unmake(self) -> None:
        """Take back the last ``_make`` exactly."""
        rec = self._undo.pop()
        try:
            m, s, d, last = rec
        except ValueError:              # an opening swap's record (SF-3)
            self._undo.append(rec)
            SacksonState._unmake(self)
            return
        st = self._st
        st[m[1]] = d
        p = 1 - self._side
        self._side = p
        if last is None:
            # no overflow, and the position after the move was never looked at (a perft leaf)
            if s is None:
                self._res[p] += 1
            else:
                st[m[0]] = s
            return
        extra: tuple[Any, ...] = last
        if len(last) == 2:
            # looked at (_settle): take back its key and repetition count
            okey, inner = last
            seen = self._seen
            key = self._keyv
            c = seen[key] - 1
            if c:
                seen[key] = c
                if c == 1:
                    self._dups -= 1
            else:
                del seen[key]
            self._keyv = okey
            self._resv = None
            self._nset = len(self._undo)
            if inner is None:
                if s is None:
                    self._res[p] += 1
                else:
                    st[m[0]] = s
                return
            extra = inner
        r, captured, over, qbase = extra
        if s is None:
            self._res[p] = r + 1
        else:
            self._res[p] = r
            st[m[0]] = s
        if captured:
            row = self._caps[p]
            for col in over:
                if col != p:
                    row[col] -= 1
            self._removed[p] -= len(over)
            self._qbase = qbase
