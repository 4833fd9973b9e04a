"""Perft counts of FOCUS and Crossfire, kept as data in tests/data/sackson_perft.json.

Every case is checked three ways: the engine's bulk count against the data, the
bulk count against full make/unmake (where small), and - up to a few thousand
leaves - against a deliberately naive move generator written below from the
rules alone (coordinates, straight walks, overflow by slicing lists, ko and
repetition by comparing whole positions), so the data is not just the engine
agreeing with itself.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from arcade.sackson import SacksonGame, divide, perft
from arcade.sackson.notation import format_action, play
from arcade.sackson.perft import perft_main

DATA = Path(__file__).parent / "data" / "sackson_perft.json"
CASES = json.loads(DATA.read_text())["cases"]
SEATS = {"2p": 2, "3p": 3, "4p-teams": 4, "4p": 4, "crossfire": 2}

NAIVE_LIMIT = 20_000      # largest count also checked with the naive generator
NONBULK_LIMIT = 400_000   # largest count also checked without bulk counting


# -- the naive generator -------------------------------------------------------------

FILES = "abcdefgh"
HOLES = {"a1", "a2", "b1", "g1", "h1", "h2", "a7", "a8", "b8", "g8", "h8", "h7"}


def square_geometry():
    cells = {}
    for x in range(8):
        for y in range(8):
            name = f"{FILES[x]}{y + 1}"
            if name not in HOLES:
                cells[(x, y)] = name
    return cells, [(0, 1), (0, -1), (1, 0), (-1, 0)]


def hex_geometry():
    """A hexagon of side 4 in axial coordinates, plus the cell beside the middle of each side."""
    def dist(q, r):
        return max(abs(q), abs(r), abs(q + r))

    axial_dirs = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
    hexagon = {(q, r) for q in range(-3, 4) for r in range(-3, 4) if dist(q, r) <= 3}
    corners = {(q, r) for (q, r) in hexagon if sum(1 for dq, dr in axial_dirs if (q + dq, r + dr) in hexagon) == 3}
    ring4 = {(q, r) for q in range(-4, 5) for r in range(-4, 5) if dist(q, r) == 4}
    points = set()
    for (q, r) in ring4:
        touching = {(q + dq, r + dr) for dq, dr in axial_dirs} & hexagon
        if len(touching) == 2 and not touching & corners:
            points.add((q, r))
    assert len(hexagon) == 37 and len(points) == 6
    cells = {}
    for (q, r) in hexagon | points:
        x, y = q + 4, 2 * r + q + 6          # half-row coordinates of reference/crossfire.md
        cells[(x, y)] = f"{'ABCDEFGHI'[x]}{y}"
    return cells, [(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)]


class Naive:
    """Two-or-more-player position on plain dicts; slow on purpose."""

    def __init__(self, kind, board, reserves, side, height=5):
        self.cells, self.dirs = square_geometry() if kind == "square" else hex_geometry()
        self.kind = kind
        self.names = {v: k for k, v in self.cells.items()}
        self.board = {c: list(s) for c, s in board.items()}
        self.res = list(reserves)
        self.side = side
        self.height = height
        self.history = [self.key()]
        self.swaps = 0                                 # opening swaps still due (SF-3)
        self.quiet, self.limit = 0, 0                  # plies without a capture, and the limit

    def cap(self, cell):
        if self.kind == "square":
            return self.height
        x, y = cell
        return sum(1 for dx, dy in self.dirs if (x + dx, y + dy) in self.cells)

    def key(self):
        return (tuple(sorted((c, tuple(s)) for c, s in self.board.items() if s)), tuple(self.res), self.side)

    def clone(self):
        n = object.__new__(Naive)
        n.__dict__.update(self.__dict__)
        n.board = {c: list(s) for c, s in self.board.items()}
        n.res = list(self.res)
        n.history = list(self.history)
        return n

    def pseudo(self):
        out = []
        for c, s in self.board.items():
            if s and s[-1] == self.side:
                for k in range(1, len(s) + 1):
                    for dx, dy in self.dirs:
                        path = [(c[0] + dx * i, c[1] + dy * i) for i in range(1, k + 1)]
                        if all(p in self.cells for p in path):
                            out.append(f"{self.cells[c]}-{self.cells[path[-1]]}")
        if self.res[self.side] > 0:
            out.extend(f"+{name}" for name in self.cells.values())
        return out

    def play(self, text):
        n = self.clone()
        me = n.side
        if "<>" in text:
            a, b = (n.names[t] for t in text.split("<>"))
            n.board[a], n.board[b] = n.board[b], n.board[a]
            n.swaps -= 1
            n.side = 1 - me if n.swaps else 0
            n.history = [n.key()] if not n.swaps else []
            return n
        if text.startswith("+"):
            dst = n.names[text[1:]]
            moving = [me]
            n.res[me] -= 1
        else:
            a, b = text.split("-")
            src, dst = n.names[a], n.names[b]
            k = max(abs(src[0] - dst[0]), abs(src[1] - dst[1])) // (2 if n.kind == "hex" and src[0] == dst[0] else 1)
            stack = n.board[src]
            moving = stack[len(stack) - k:]
            n.board[src] = stack[:len(stack) - k]
        new = n.board.get(dst, []) + moving
        captured = False
        while len(new) > n.cap(dst):
            gone = new.pop(0)
            if gone == me:
                n.res[me] += 1
            else:
                captured = True
        n.quiet = 0 if captured else n.quiet + 1
        n.board[dst] = new
        n.side = (me + 1) % len(n.res)
        n.history.append(n.key())
        return n

    def symmetric(self):
        """Some turn or reflection of the square board with the colours exchanged gives the same position."""
        maps = [lambda x, y: (7 - x, y), lambda x, y: (x, 7 - y), lambda x, y: (7 - x, 7 - y),
                lambda x, y: (y, x), lambda x, y: (7 - y, x), lambda x, y: (y, 7 - x), lambda x, y: (7 - y, 7 - x)]
        assert self.kind == "square"
        for g in maps:
            if all(self.board.get(g(*c), []) == [1 - v for v in self.board.get(c, [])] for c in self.cells):
                return True
        return False

    def swap_moves(self):
        singles = sorted((c for c, s in self.board.items() if len(s) == 1), key=lambda c: (c[1], c[0]))
        out = []
        for i, a in enumerate(singles):
            for b in singles[i + 1:]:
                if self.board[a] != self.board[b]:
                    text = f"{self.cells[a]}<>{self.cells[b]}"
                    if self.swaps == 1 and self.play(text).symmetric():
                        continue
                    out.append(text)
        return out

    def moves(self):
        if self.swaps:
            return self.swap_moves()
        if self.kind == "square" and self.history.count(self.key()) >= 3:
            return []                                   # threefold repetition ends the game
        if self.limit and self.quiet >= self.limit:
            return []                                   # too many plies without a capture
        out = self.pseudo()
        if self.kind == "hex":                          # ko: no position may come back
            out = [m for m in out if self.play(m).key() not in self.history[:]]
        return out


def naive_from(state, side=None):
    """A naive position with the engine's stones and reserves (``side``: who moves, default the engine's)."""
    snap = state.snapshot()
    kind = snap["board"]
    board = {}
    cells = (square_geometry() if kind == "square" else hex_geometry())[0]
    names = {v: k for k, v in cells.items()}
    for name, stack in snap["stacks"].items():
        board[names[name]] = stack
    side = snap["to_move"] if side is None else side
    n = Naive(kind, board, snap["reserves"], side, state.game.settings["overflow_height"])
    n.limit = state.game.settings["max_plies_without_capture"]
    return n


def naive_perft(n, depth):
    if depth == 0:
        return 1
    moves = n.moves()
    if depth == 1:
        return len(moves)
    return sum(naive_perft(n.play(m), depth - 1) for m in moves)


# -- building the case's position -----------------------------------------------------

def build(case):
    variant = case["variant"]
    game = SacksonGame(SEATS[variant], {"variant": variant, **case.get("settings", {})})
    if "setup" in case:
        su = case["setup"]
        state = game.setup(su["stacks"], reserves=su.get("reserves"), to_move=su.get("to_move", 0))
        naive = naive_from(state, su.get("to_move", 0))
    else:
        state = game.new_initial_state()
        naive = naive_from(state)
        if state.in_opening_swap:
            naive.swaps = 2
            naive.history = []
        for tok in case.get("moves", "").split():
            naive = naive.play(tok)
        play(state, case.get("moves", ""))
    return state, naive


# -- tests -------------------------------------------------------------------------

def test_the_naive_generator_sees_the_boards_of_the_rulings():
    sq, _ = square_geometry()
    hx, _ = hex_geometry()
    assert len(sq) == 52 and len(hx) == 43
    s = SacksonGame(2, {"variant": "crossfire"}).new_initial_state()
    assert set(hx.values()) == set(s.board.cells)


def test_start_position_depth_1_is_68_for_side_A():
    s = SacksonGame(2).new_initial_state()
    assert perft(s, 1) == 68 == naive_perft(naive_from(s), 1)
    case = next(c for c in CASES if c["name"] == "focus-2p-start")
    assert case["counts"]["1"] == 68


def test_data_file_covers_both_boards_reserves_overflow_and_finished_games():
    tags = {t for c in CASES for t in c.get("tags", [])}
    assert {"start", "reserves", "overflow", "finished", "ko", "swap", "3p", "4p", "repetition", "limit"} <= tags
    assert {c["variant"] for c in CASES} >= {"2p", "crossfire", "3p", "4p-teams"}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_perft_counts_from_data(case):
    state, naive = build(case)
    before = state.snapshot()
    if "finished" in case.get("tags", []):
        assert state.is_terminal()
    for depth_s, want in sorted(case["counts"].items()):
        depth = int(depth_s)
        assert perft(state, depth) == want, (case["name"], depth)
        if want <= NONBULK_LIMIT:
            assert perft(state, depth, bulk=False) == want
        if want <= NAIVE_LIMIT:
            assert naive_perft(naive, depth) == want, (case["name"], depth)
    assert state.snapshot() == before


def test_divide_adds_up_and_names_moves():
    s = SacksonGame(2, {"variant": "crossfire"}).new_initial_state()
    parts = divide(s, 2)
    assert sum(parts.values()) == perft(s, 2)
    assert set(parts) == {format_action(a, s) for a in s.legal_actions()}


def test_naive_and_engine_agree_on_random_positions():
    rng = random.Random(11)
    for variant in ("2p", "crossfire", "3p", "4p"):
        s = SacksonGame(SEATS[variant], {"variant": variant}).new_initial_state()
        n = naive_from(s)
        for ply in range(150):
            if s.is_terminal():
                break
            engine = {format_action(a, s) for a in s.legal_actions()}
            if variant in ("2p", "crossfire"):
                assert engine == set(n.moves()), (variant, ply)
            else:  # turn order with drop-outs is tested in the rules; here: the moves of the side to move
                n = naive_from(s)
                assert engine == set(n.pseudo()), (variant, ply)
            caps = [m for m in sorted(engine) if n.play(m).res != n.res or sum(map(len, n.play(m).board.values())) < sum(map(len, n.board.values()))]
            mv = rng.choice(caps) if caps and rng.random() < 0.7 else rng.choice(sorted(engine))
            play(s, mv)
            n = n.play(mv)
        assert len(s.history) >= 20


def test_perft_depth_zero_and_bad_depth():
    s = SacksonGame(2).new_initial_state()
    assert perft(s, 0) == 1
    with pytest.raises(ValueError):
        perft(s, -1)
    with pytest.raises(ValueError):
        divide(s, 0)


def test_perft_command_line():
    out, err = io.StringIO(), io.StringIO()
    ticks = iter([0.0, 0.5])
    assert perft_main(["--game", "focus", "--depth", "2"], clock=lambda ticks=ticks: next(ticks), out=out, err=err) == 0
    assert out.getvalue().strip() == str(perft(SacksonGame(2).new_initial_state(), 2))
    assert "leaves/s" in err.getvalue()
    out = io.StringIO()
    assert perft_main(["--game", "crossfire", "--depth", "2", "--moves", "G2-G0 C10-C12", "--no-bulk", "--divide"],
                      out=out, err=io.StringIO()) == 0
    lines = out.getvalue().strip().splitlines()
    s = play(SacksonGame(2, {"variant": "crossfire"}).new_initial_state(), "G2-G0 C10-C12")
    assert lines[-1] == f"total {perft(s, 2)}" and len(lines) == len(s.legal_actions()) + 1
    err = io.StringIO()
    assert perft_main(["--depth", "1", "--moves", "c2-c5"], out=io.StringIO(), err=err) == 2
    assert "c2-c5" in err.getvalue()
    assert perft_main(["--depth", "x"], out=io.StringIO(), err=io.StringIO()) == 2


# -- the command line: depth range, move-list errors, every data case ------------------------

def cli(argv):
    out, err = io.StringIO(), io.StringIO()
    code = perft_main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_perft_depth_is_range_checked_with_a_clear_message_not_a_recursion_error():
    from arcade.sackson.perft import MAX_DEPTH
    for bad in (str(MAX_DEPTH + 1), "100000", "-1"):
        code, out, err = cli(["--depth", bad])
        assert code == 2 and out == "" and f"expected 0 to {MAX_DEPTH}" in err and f"--depth {bad}" in err
    code, _out, err = cli(["--depth", "0", "--divide"])
    assert code == 2 and "expected 1 to" in err
    s = SacksonGame(2).new_initial_state()
    with pytest.raises(ValueError, match=f"0 to {MAX_DEPTH}"):
        perft(s, 100_000)
    assert cli(["--depth", str(MAX_DEPTH), "--moves", "c2-c1 f7-f8 c1-c2 f8-f7 c2-c1 f7-f8 c1-c2 f8-f7",
                "--mirror-rule"])[:2] == (0, "0\n")             # deep, but the game is over: instant


def test_perft_names_a_bad_move_by_its_whole_token_its_place_and_the_position():
    code, out, err = cli(["--depth", "1", "--moves", "c2-c1 f7-f8 c2-c9:7 d3-d4"])
    assert code == 2 and out == ""
    assert "move 3 of 4, 'c2-c9:7'" in err and "[position: 2p" in err and "c1=A" in err
    code, _out, err = cli(["--game", "crossfire", "--depth", "1", "--moves", "G2-G0 C10-C12 G0-G4"])
    assert code == 2 and "move 3 of 3, 'G0-G4'" in err and "holds 1 stone" in err and "[position: crossfire" in err


def case_argv(case, depth):
    """The perft command line that reproduces a case of the data file."""
    variant = case["variant"]
    argv = ["--game", "crossfire"] if variant == "crossfire" else ["--variant", variant]
    settings = case.get("settings", {})
    if settings.get("opening_swap"):
        argv.append("--opening-swap")
    if settings.get("mirror_rule"):
        argv.append("--mirror-rule")
    if "max_plies_without_capture" in settings:
        argv += ["--max-plies-without-capture", str(settings["max_plies_without_capture"])]
    if "setup" in case:
        su = case["setup"]
        stacks = " ".join(f"{c}={s}" for c, s in su["stacks"].items())
        res = " ".join(f"{'AB'[p]}{r}" for p, r in enumerate(su.get("reserves") or [0, 0]))
        argv += ["--position", f"{stacks} | reserves {res} | {'AB'[su.get('to_move', 0)]} to move"]
    if case.get("moves"):
        argv += ["--moves", case["moves"]]
    return argv + ["--depth", str(depth)]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_every_data_case_is_reproduced_from_the_command_line(case):
    for depth_s, want in sorted(case["counts"].items()):
        if want > 1_000_000:
            continue
        code, out, err = cli(case_argv(case, int(depth_s)))
        assert (code, out.strip()) == (0, str(want)), (case["name"], depth_s, err)


def test_shortcut_and_plain_last_ply_bulk_agree_and_the_timing_line_says_which():
    s = play(SacksonGame(2).new_initial_state(), "d3-d4 e6-f6 e7-e6")
    for depth in (2, 3):
        assert perft(s, depth, shortcut=True) == perft(s, depth, shortcut=False) == perft(s, depth, bulk=False)
    for extra, word in (([], "two-ply shortcut"), (["--no-shortcut"], "last-ply bulk"), (["--no-bulk"], "make/unmake")):
        err = io.StringIO()
        ticks = iter([0.0, 0.25])
        assert perft_main(["--depth", "2"] + extra, clock=lambda ticks=ticks: next(ticks), out=io.StringIO(), err=err) == 0
        assert word in err.getvalue()


def test_perft_refuses_options_that_do_not_fit_the_variant():
    code, _out, err = cli(["--variant", "3p", "--opening-swap", "--depth", "1"])
    assert code == 2 and "opening_swap" in err and "two players" in err
    code, _out, err = cli(["--game", "crossfire", "--variant", "4p", "--depth", "1"])
    assert code == 2 and "'4p'" in err
    code, _out, err = cli(["--position", "d4=BX", "--depth", "1"])
    assert code == 2 and "'d4=BX'" in err
    assert cli(["--variant", "4p", "--depth", "1"])[:2] == (0, "44\n")
    assert cli(["--game", "focus", "--variant", "crossfire", "--depth", "1"])[:2] == (0, "93\n")
