"""Notation of FOCUS and Crossfire moves (ruling SF-7, hex cells: docs/rules-sackson.md).

Cells:

* square board: file letter and rank, ``a1`` .. ``h8`` (a1 bottom-left; the
  twelve missing corners are refused).  Written in lower case.
* hex board: column letter ``A`` .. ``I`` and the half-row number ``y`` of
  ``reference/crossfire.md``, ``0`` .. ``12``: ``E0`` is the top corner, ``E6``
  the centre, ``A6`` and ``I6`` the side points.  Written in upper case.

Both are read in either case.  Actions:

==================  ================================================
``c3-c5``           move; the number of stones is the distance (SF-7)
``c3-c5:2``         the same with the count written out; it must agree
``+d4``             drop a reserve stone on d4 (``r:d4`` is read too)
``c3<>d3``          opening swap of the stones on c3 and d3 (SF-3)
==================  ================================================

Errors: :class:`NotationError` (also a ``ValueError``) names the text that could
not be read and what was expected.  Whether a well-formed move is *legal* is the
state's business (``IllegalActionError`` from ``apply``).
"""

from __future__ import annotations

import re

from arcade.core.api import Action
from arcade.core.errors import ArcadeError
from arcade.sackson.board import HEX, SQUARE, Board
from arcade.sackson.game import Drop, Move, SacksonGame, SacksonState, Swap


class NotationError(ArcadeError, ValueError):
    """Text that is not valid FOCUS notation.

    Attributes:
        text: the text that could not be read.
        expected: what was expected instead.
    """

    def __init__(self, text: str, expected: str) -> None:
        self.text = text
        self.expected = expected
        super().__init__(f"cannot read {text!r}: {expected}")


BoardLike = Board | SacksonGame | SacksonState | None

_CELL = r"[A-Za-z][0-9]{1,2}"
_MOVE = re.compile(rf"^({_CELL})-({_CELL})(?::([0-9]+))?$")
_DROP = re.compile(rf"^(?:\+|[rR]:)({_CELL})$")
_SWAP = re.compile(rf"^({_CELL})<>({_CELL})$")


def _board(where: BoardLike, hint: str = "") -> Board:
    if isinstance(where, Board):
        return where
    if isinstance(where, SacksonState):
        return where.board
    if isinstance(where, SacksonGame):
        return where.board
    if where is None:
        return HEX if hint[:1].isupper() else SQUARE
    raise TypeError(f"expected a Board, SacksonGame or SacksonState, got {where!r}")


def parse_square(text: str, board: BoardLike = None) -> int:
    """The index of cell ``text`` on ``board`` (default: the square board).

    Raises:
        NotationError: not a cell name, or not a cell of that board.
    """
    b = SQUARE if board is None else _board(board)
    if not isinstance(text, str):
        raise NotationError(repr(text), "a cell name such as 'c3'")
    raw = text.strip()
    name = raw.lower() if b.kind == "square" else raw.upper()
    i = b.index.get(name)
    if i is None:
        if b.kind == "square":
            raise NotationError(text, "a square a1..h8 of the FOCUS board (the three squares at each corner are missing)")
        raise NotationError(text, "a Crossfire cell: column A..I and row 0..12 (see the board picture)")
    return i


def format_square(index: int, board: BoardLike = None) -> str:
    """The name of cell ``index`` on ``board`` (default: the square board).

    Raises:
        NotationError: ``index`` is not a cell index of that board.
    """
    b = SQUARE if board is None else _board(board)
    if not isinstance(index, int) or not 0 <= index < b.size:
        raise NotationError(repr(index), f"a cell index 0..{b.size - 1}")
    return b.cells[index]


def parse_action(text: str, where: BoardLike = None) -> Action:
    """Read one action (see the module docstring) for the board of ``where``.

    Args:
        text: e.g. ``"c3-c5"``, ``"c3-c5:2"``, ``"+d4"``, ``"r:d4"``, ``"c3<>d3"``.
        where: a state, game or board (default: the square board).

    Raises:
        NotationError: malformed text, an unknown cell, a move not along a
            straight line, or a ``:k`` that disagrees with the distance.
    """
    if not isinstance(text, str):
        raise NotationError(repr(text), "a move such as 'c3-c5', '+d4' or 'c3<>d3'")
    t = text.strip()
    b = SQUARE if where is None else _board(where)
    m = _MOVE.match(t)
    if m:
        i = parse_square(m.group(1), b)
        j = parse_square(m.group(2), b)
        if i == j:
            raise NotationError(text, "a move to another cell")
        dist = b.line_distance(i, j)
        if dist is None:
            dirs = "orthogonal line" if b.kind == "square" else "line in one of the six directions"
            raise NotationError(text, f"a move along a straight {dirs}")
        if m.group(3) is not None and int(m.group(3)) != dist:
            raise NotationError(text, f"a count equal to the distance {dist} (stones move exactly as many cells as they are)")
        return Move(b.cells[i], b.cells[j], dist)
    m = _DROP.match(t)
    if m:
        return Drop(b.cells[parse_square(m.group(1), b)])
    m = _SWAP.match(t)
    if m:
        i = parse_square(m.group(1), b)
        j = parse_square(m.group(2), b)
        if i == j:
            raise NotationError(text, "a swap of two different cells")
        return Swap(b.cells[i], b.cells[j])
    raise NotationError(text, "a move 'c3-c5' (or 'c3-c5:2'), a drop '+d4' (or 'r:d4') or a swap 'c3<>d3'")


def format_action(action: Action, where: BoardLike = None) -> str:
    """The notation of ``action``: ``c3-c5``, ``+d4`` or ``c3<>d3``.

    A :class:`Move` whose count differs from its distance (never legal) is
    written ``c3-c5:3`` so that nothing is lost.

    Raises:
        NotationError: an action of another game or with unknown cells.
    """
    if isinstance(action, Move):
        b = _board(where, action.src)
        i = parse_square(action.src, b)
        j = parse_square(action.dst, b)
        dist = b.line_distance(i, j)
        if dist == action.count:
            return f"{b.cells[i]}-{b.cells[j]}"
        return f"{b.cells[i]}-{b.cells[j]}:{action.count}"
    if isinstance(action, Drop):
        b = _board(where, action.dst)
        return f"+{b.cells[parse_square(action.dst, b)]}"
    if isinstance(action, Swap):
        b = _board(where, action.a)
        return f"{b.cells[parse_square(action.a, b)]}<>{b.cells[parse_square(action.b, b)]}"
    raise NotationError(repr(action), "a FOCUS action (Move, Drop or Swap)")


def parse_moves(text: str, where: BoardLike = None) -> list[Action]:
    """Read a space-separated list of actions (e.g. ``"c2-c1 f7-f8 +d4"``).

    Raises:
        NotationError: the first token that cannot be read.
    """
    return [parse_action(tok, where) for tok in text.split()]


class MoveListError(ArcadeError, ValueError):
    """One token of a move list (``--moves``) that cannot be read or is not legal where it is played.

    Attributes:
        token: the whole token as written (e.g. ``"c2-z9"``).
        index: its 1-based place in the list.
        total: how many tokens the list has.
        reason: why it was refused.
        position: the position it was played in (``SacksonState.position_text``).
    """

    def __init__(self, token: str, index: int, total: int, reason: str, position: str) -> None:
        self.token = token
        self.index = index
        self.total = total
        self.reason = reason
        self.position = position
        super().__init__(f"move {index} of {total}, {token!r}: {reason} [position: {position}]")


def play_list(state: SacksonState, text: str) -> SacksonState:
    """Like :func:`play`, but a bad token raises :class:`MoveListError` naming the whole
    token, its 1-based index in the list and the position it was played in.

    Raises:
        MoveListError: a token that cannot be read or is not legal there (``state``
            keeps the moves before it).
    """
    from arcade.core.errors import IllegalActionError

    tokens = text.split()
    for i, tok in enumerate(tokens, start=1):
        try:
            action = parse_action(tok, state)
            state.apply(action)
        except NotationError as exc:
            raise MoveListError(tok, i, len(tokens), str(exc), state.position_text()) from None
        except IllegalActionError as exc:
            reason = exc.reason.split(" [position: ")[0]
            reason = reason.split(": ", 1)[-1]          # the reason after the move's own text
            raise MoveListError(tok, i, len(tokens), reason, state.position_text()) from None
    return state


_POS_CELL = re.compile(r"^([A-Za-z][0-9]{1,2})=([A-Da-d]+)$")
_POS_RES = re.compile(r"^([A-Da-d])([0-9]{1,3})$")


def parse_position(text: str, game: SacksonGame) -> SacksonState:
    """A state of ``game`` from the one-line position of :meth:`SacksonState.position_text`.

    Format: ``[variant] cell=STACK ... [| reserves A0 B2] [| X to move]``; stacks are
    seat letters bottom first (SF-7), e.g. ``"d4=BA e6=A | reserves A0 B1 | B to move"``.
    Missing reserves are 0, a missing side to move is A.  Capture tallies start at 0;
    there is no opening swap.  Built with :meth:`SacksonGame.setup`.

    Raises:
        NotationError: text that does not follow the format (names the bad part).
        SetupError: a position the rules cannot hold (unknown cell, stack too high...).
    """
    if not isinstance(text, str) or not text.strip():
        raise NotationError(repr(text), "a position such as 'd4=BA e6=A | reserves A0 B1 | B to move'")
    parts = [p.strip() for p in text.split("|")]
    n = game.seats
    letters = "ABCD"[:n]
    stacks: dict[str, str] = {}
    for tok in parts[0].split():
        if tok == game.variant:
            continue
        m = _POS_CELL.match(tok)
        if not m:
            raise NotationError(tok, f"a stack 'cell=LETTERS' (seat letters {letters}, bottom first) "
                                     f"or the variant name {game.variant!r}")
        cell = game.board.cells[parse_square(m.group(1), game.board)]
        if cell in stacks:
            raise NotationError(tok, f"each cell once ({cell} is given twice)")
        stacks[cell] = m.group(2).upper()
    reserves = [0] * n
    to_move = 0
    for part in parts[1:]:
        words = part.split()
        if words[:1] == ["reserves"]:
            for w in words[1:]:
                m = _POS_RES.match(w)
                if not m or m.group(1).upper() not in letters:
                    raise NotationError(w, f"a reserve such as 'A2' (seat letters {letters})")
                reserves[letters.index(m.group(1).upper())] = int(m.group(2))
        elif len(words) == 3 and words[1:] == ["to", "move"] and words[0].upper() in letters:
            to_move = letters.index(words[0].upper())
        else:
            raise NotationError(part, f"'reserves A0 B1' or 'X to move' (X one of {letters}; "
                                      "a position in the opening swap or after the end cannot be set up)")
    return game.setup(stacks, reserves=reserves, to_move=to_move)


def play(state: SacksonState, text: str) -> SacksonState:
    """Apply the space-separated actions of ``text`` to ``state`` in order; returns ``state``.

    Raises:
        NotationError: a token that cannot be read.
        IllegalActionError: a token that is not legal where it is played.
    """
    for tok in text.split():
        state.apply(parse_action(tok, state))
    return state
