"""Computer players' placements for FocusX ThinkFocus and 4Focus (FX-9, FX-11).

Pure: a choice is drawn from an injected ``random.Random``.  A computer player
sees what a person at the table sees: the table and its own hand, never the
other hands or the deck.

ThinkFocus (FX-9): after a placement the *previous* player claims row foci
and the placer claims column foci, a row focus first.  So a sensible player
avoids laying a card that makes a row focus (a gift to the previous player),
likes one that makes a column focus only, and (expert) avoids leaving
columns where the next player could complete a column focus.

4Focus (FX-11): a placement that forms a 4Focus lets every *other* player
claim it and win.  So a sensible player never forms one if it can help it,
and (hard, expert) likes to leave groups of three connected cards sharing a
value, which narrow the next players' safe placements.

Skill levels (the shout levels' names, ``arcade.bots.shout.SKILLS``):

* ``easy``: any legal card and place, at random;
* ``medium``: avoids the gift (row focus / 4Focus), but one choice in four
  is still random;
* ``hard``: scores every placement (gift, own column focus, traps) and
  errs one time in twenty;
* ``expert``: as hard, never errs, and looks one placement ahead.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from arcade.core.api import Action
from arcade.focusx.cards import find_trios, shared_attributes, shares_attribute
from arcade.focusx.fourfocus import CENTRE, REACH, STEPS, connected_groups

LEVELS = ("easy", "medium", "hard", "expert")

#: Probability that a level picks a random legal action instead of its best one.
ERROR_RATE = {"easy": 1.0, "medium": 0.25, "hard": 0.05, "expert": 0.0}

GIFT = -10.0          # a placement that hands others a focus / the win
OWN_FOCUS = 4.0       # ThinkFocus: a column focus the placer may claim


def choose_action(state: Any, seat: int, rng: random.Random, level: str = "medium") -> Action:
    """The action computer ``seat`` takes at its turn.

    Args:
        state: a ThinkFocus or 4Focus state (at ``seat``'s decision, or in the
            turn-start window before it: the choice is among
            ``state.turn_actions(seat)``); other games: their
            ``default_action()`` or first legal action.
        seat: the deciding seat.
        rng: the injected random generator (ties and errors are drawn from it).
        level: "easy", "medium", "hard" or "expert".

    Returns:
        One of ``state.turn_actions(seat)`` (``legal_actions`` for other games).

    Raises:
        KeyError: unknown level (the message lists the known ones).
        ValueError: the seat has no legal action now.
    """
    if level not in ERROR_RATE:
        raise KeyError(f"unknown skill {level!r}; expected one of {list(LEVELS)}")
    turn = getattr(state, "turn_actions", None)
    legal = turn(seat) if callable(turn) else state.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action now")
    name = getattr(getattr(state, "game", None), "name", "")
    if name == "focusx-thinkfocus":
        scorer = score_thinkfocus
    elif name == "focusx-4focus":
        scorer = score_fourfocus
    else:
        default = getattr(state, "default_action", None)
        return default() if callable(default) else legal[0]  # type: ignore[no-any-return]
    if len(legal) == 1 or rng.random() < ERROR_RATE[level]:
        return legal[rng.randrange(len(legal))]  # type: ignore[no-any-return]
    scored = [(scorer(state, seat, a, level), i) for i, a in enumerate(legal)]
    best = max(s for s, _ in scored)
    top = [i for s, i in scored if s >= best - 1e-9]
    return legal[top[rng.randrange(len(top))]]  # type: ignore[no-any-return]


# -- ThinkFocus ------------------------------------------------------------------

def score_thinkfocus(state: Any, seat: int, action: Action, level: str) -> float:
    """How good laying ``action`` is for ``seat`` in ThinkFocus (higher is better).

    Discards all score 0.  A play scores ``GIFT`` if it makes a row focus
    (the previous player's, FX-9), ``OWN_FOCUS`` if it makes only a column
    focus (hard and expert), and (expert) loses 0.5 for every pair of cards
    in a column the next player can extend, and gains 0.1 for every card
    left in the hand that can still be laid somewhere.
    """
    card = getattr(action, "card", None)
    row_i = getattr(action, "row", None)
    if row_i is None or card is None:
        return 0.0
    rows = [list(r) for r in state.rows]
    rows[row_i].append(card)
    k = len(rows[row_i]) - 1
    x_rule = state.x_rule
    row_focus = any(card in t for t in _trios(rows[row_i], x_rule))
    column = [r[k] if len(r) > k else None for r in rows]
    col_focus = any(card in t for t in _trios(column, x_rule))
    score = 0.0
    if row_focus:
        score += GIFT
    elif col_focus and level in ("hard", "expert"):
        score += OWN_FOCUS
    if level == "expert":
        score -= 0.5 * _open_column_pairs(rows)
        hand = [c for c in state.hands[seat] if c != card]
        score += 0.1 * sum(1 for c in hand for r in rows if not r or shares_attribute(c, r[-1]))
    return score


def _trios(cards: Sequence[int | None], x_rule: bool) -> list[tuple[int, ...]]:
    return [tuple(cards[i] for i in t) for t, _ in find_trios(cards, x_rule)]  # type: ignore[misc]


def _open_column_pairs(rows: list[list[int]]) -> int:
    """Pairs of cards sharing a value in the columns where the next cards will be laid."""
    count = 0
    for r in rows:
        k = len(r)
        col = [other[k] for other in rows if len(other) > k]
        for i in range(len(col)):
            for j in range(i + 1, len(col)):
                if shares_attribute(col[i], col[j]):
                    count += 1
    return count


# -- 4Focus ------------------------------------------------------------------------

def score_fourfocus(state: Any, seat: int, action: Action, level: str) -> float:
    """How good ``action`` is for ``seat`` in 4Focus (higher is better).

    A placement forming a 4Focus scores ``GIFT`` (every other player may
    claim it and win, FX-11).  Hard and expert gain 0.5 for every group of
    three connected cards through the new card sharing a value (a trap for
    the next players); expert also gains 0.05 for every safe placement its
    remaining hand keeps.  Discards and passes score 0.
    """
    x = getattr(action, "x", None)
    y = getattr(action, "y", None)
    card = getattr(action, "card", None)
    if x is None or y is None or card is None:
        return 0.0
    cell = (x, y)
    board = dict(state.board)
    board[cell] = card
    score = 0.0
    if state.fours_through(cell, board):
        return GIFT
    if level in ("hard", "expert"):
        traps = sum(1 for g in connected_groups(board, cell, 3) if shared_attributes([board[c] for c in g]))
        score += 0.5 * traps
    if level == "expert":
        hand = [c for c in state.hands[seat] if c != card]
        safe = 0
        for c in hand:
            for t in _targets_after(state, board):
                if _legal_on(board, c, t) and not state.fours_through(t, {**board, t: c}):
                    safe += 1
        score += 0.05 * safe
    return score


def _targets_after(state: Any, board: dict[tuple[int, int], int]) -> list[tuple[int, int]]:
    out = set()
    for (x, y) in list(board) + [CENTRE]:
        for dx, dy in STEPS:
            c = (x + dx, y + dy)
            if max(abs(c[0]), abs(c[1])) <= REACH and c != CENTRE and c not in board:
                out.add(c)
    return sorted(out)


def _legal_on(board: dict[tuple[int, int], int], card: int, cell: tuple[int, int]) -> bool:
    x, y = cell
    touching = False
    for dx, dy in STEPS:
        nb = (x + dx, y + dy)
        if nb == CENTRE:
            touching = True
        elif nb in board:
            touching = True
            if not shares_attribute(card, board[nb]):
                return False
    return touching
