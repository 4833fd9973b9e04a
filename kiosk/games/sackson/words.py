"""The words of the FOCUS / Crossfire screen: what a move did (the last moves' list), who
was passed over after it (SF-4, SF-5), what the person to move is choosing, and the result.

Pure functions of a position (no pygame, nothing changed); the scene
(:mod:`kiosk.games.sackson.scene`) puts them in its log, banner and prompt.
"""

from __future__ import annotations

from typing import Callable

from arcade.core.api import Action, Outcome
from arcade.i18n import N_, _, ngettext
from arcade.sackson.game import Drop, SacksonState
from arcade.sackson.notation import format_action
from kiosk.games.sackson.chooser import RESERVE, MoveChooser

#: What a move compares with: captures, reserves and who is in, per seat.
Before = tuple[list[int], list[int], list[bool]]
#: A seat without a move: skipped this round (4p-teams, SF-5) or out of the game (SF-4, SF-5),
#: said after the seat's name ("P3 has no move: ..."; translated where it is shown).
SKIPPED = N_("has no move: skipped this turn")
OUT = N_("has no move: out of the game")


def before_move(state: SacksonState) -> Before:
    """What a move's log line compares with (:func:`log_line`, :func:`passed_over`)."""
    n = state.game.seats
    return ([sum(state.captured(p)) for p in range(n)], [state.reserve(p) for p in range(n)],
            [state.active(p) for p in range(n)])


def log_line(state: SacksonState, seat: int, action: Action, before: Before) -> tuple[str, int]:
    """The last moves' line of ``seat``'s ``action``, now applied to ``state`` ("d5-d4  captures 1,
    1 to reserve"), and the stones it captured."""
    before_caps, reserves, _active = before
    text = format_action(action, state)
    got = sum(state.captured(seat)) - before_caps[seat]
    back = state.reserve(seat) - reserves[seat] + (1 if isinstance(action, Drop) else 0)
    notes = []
    if got:
        notes.append(_("captures {n}").format(n=got))
    if back > 0:
        notes.append(_("{n} to reserve").format(n=back))
    return text + ("  " + ", ".join(notes) if notes else ""), got


def passed_over(state: SacksonState, seat: int, before_active: list[bool]) -> list[tuple[int, str]]:
    """Seats passed over after ``seat``'s move, with what happened to each (SF-4, SF-5).

    ``4p-teams``: a seat without a move is skipped this round (it stays in, :data:`SKIPPED`);
    ``3p`` / ``4p``: it drops out (:data:`OUT`).  Seats already out are passed silently.
    """
    n = state.game.seats
    nxt = state.current_player()
    if n == 2 or nxt < 0:
        return []
    out: list[tuple[int, str]] = []
    q = (seat + 1) % n
    while q != nxt:
        if before_active[q]:
            out.append((q, SKIPPED if state.active(q) else OUT))
        q = (q + 1) % n
    return out


def result_words(out: Outcome) -> tuple[str, str]:
    """The turn box's two lines once the game is over: who won (or a draw), and why."""
    names = " & ".join(f"P{w + 1}" for w in out.winners)
    if not names:
        return _("A draw."), out.reason
    return ngettext("{names} wins!", "{names} win!", len(out.winners)).format(names=names), out.reason


def choice_words(state: SacksonState, ch: MoveChooser, effect: Callable[[Action], str]) -> str:
    """What the person to move is choosing now ("Pick a stack: d5", "Move how many?  2 of 3",
    the move under the cursor and ``effect`` of it)."""
    cp = state.current_player()
    if ch.phase == "swap-a":
        return _("Opening swap: pick a stone")
    if ch.phase == "swap-b":
        return _("Swap {cell} with which stone?").format(cell=ch.first)
    if ch.phase == "source":
        cur = ch.current()
        if cur == RESERVE:
            return _("Drop from reserve ({n} left)").format(n=state.reserve(cp))
        return _("Pick a stack: {cell}").format(cell=cur) if cur else _("Pick a stack")
    if ch.phase == "count":
        h = len(state.stack(ch.src)) if ch.src and ch.src != RESERVE else 1
        return _("Move how many?  {n} of {most}").format(n=ch.current(), most=h)
    action = ch.preview()
    if action is None:
        return _("Where to?")
    return f"{format_action(action, state)}  {effect(action)}".rstrip()
