"""Choosing a FOCUS / Crossfire move with left / right / OK: :class:`MoveChooser`.

The half-chosen move of the person whose turn it is (the screen's controls, SF-3's opening
swap included), and :func:`move_effect`, the words under the cursor's move.  Pure logic:
no pygame, no screen; the scene (:mod:`kiosk.games.sackson.scene`) maps presses onto it
and the drawing modules show it.
"""

from __future__ import annotations

import math
from typing import Any

from arcade.core.api import Action
from arcade.i18n import _
from arcade.sackson.game import Drop, Move, SacksonState, Swap

#: The reserve among a source's choices (a drop, SF-1).
RESERVE = "reserve"
_CENTRE = "(centre)"
#: A station with a buzzer alone: a press this long takes the choice ...
OK_HOLD_NS = 600_000_000
#: ... and this long steps back; a shorter tap moves the cursor on (ns).
BACK_HOLD_NS = 2_000_000_000

class MoveChooser:
    """The half-chosen move of one human seat: phases, choices and the cursor.

    Phases: ``"source"`` (a stack the seat tops, or :data:`RESERVE`), ``"count"``
    (how many stones: only when more than one count is legal), ``"target"``
    (a legal landing cell, or any cell for a drop), and for the opening swap
    (SF-3) ``"swap-a"`` then ``"swap-b"``.  Choices come from
    ``state.legal_actions()``, so the ko rule (SF-6) and the swap's symmetry
    ban are already applied.

    Args:
        state: the position (not changed).
        seat: the seat to move.
        pos: screen position of every cell name (pixels or any units where y
            grows downwards); orders the choices in reading order and guides
            :meth:`nudge`.
        start: a cell to put the cursor near first (e.g. where it was last time).
    """

    def __init__(self, state: SacksonState, seat: int, pos: dict[str, tuple[float, float]],
                 start: str | None = None) -> None:
        self.seat = seat
        self.pos = pos
        self.actions = state.legal_actions(seat)
        self.moves: dict[tuple[str, int], list[str]] = {}
        self.drops: list[str] = []
        self.swaps: dict[str, list[str]] = {}
        for a in self.actions:
            if isinstance(a, Move):
                self.moves.setdefault((a.src, a.count), []).append(a.dst)
            elif isinstance(a, Drop):
                self.drops.append(a.dst)
            elif isinstance(a, Swap):
                self.swaps.setdefault(a.a, []).append(a.b)
                self.swaps.setdefault(a.b, []).append(a.a)
        ys = [p[1] for p in pos.values()] or [0.0]
        xs = [p[0] for p in pos.values()] or [0.0]
        self.pos = dict(pos)
        self.pos[RESERVE] = ((min(xs) + max(xs)) / 2, max(ys) + (max(ys) - min(ys)) / 6 + 1)
        self.pos[_CENTRE] = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        self.phase = "swap-a" if self.swaps else "source"
        self.src: str | None = None
        self.count: int | None = None
        self.first: str | None = None
        self.memory: dict[str, Any] = {}
        self.cursor = 0
        self._enter(start)

    # choices -----------------------------------------------------------------------
    def _reading(self, cells: list[str]) -> list[str]:
        return sorted(set(cells), key=lambda c: (round(self.pos[c][1], 3), self.pos[c][0]))

    def _clockwise(self, origin: str, cells: list[str]) -> list[str]:
        ox, oy = self.pos[origin]
        return sorted(cells, key=lambda c: math.atan2(self.pos[c][0] - ox, -(self.pos[c][1] - oy)) % (2 * math.pi))

    def counts(self) -> list[int]:
        """Legal counts for the chosen source."""
        return sorted(k for (s, k) in self.moves if s == self.src)

    def items(self) -> list[Any]:
        """The choices of the current phase, in cursor order."""
        if self.phase == "source":
            out: list[Any] = self._reading([s for (s, _k) in self.moves])
            if self.drops:
                out.append(RESERVE)
            return out
        if self.phase == "count":
            return list(self.counts())
        if self.phase == "target":
            if self.src == RESERVE:
                return self._reading(self.drops)
            assert self.src is not None and self.count is not None
            return self._clockwise(self.src, self.moves[(self.src, self.count)])
        if self.phase == "swap-a":
            return self._reading(list(self.swaps))
        assert self.first is not None
        return self._reading(self.swaps[self.first])

    def current(self) -> Any:
        """The choice under the cursor (a cell name, :data:`RESERVE` or a count)."""
        it = self.items()
        return it[self.cursor % len(it)] if it else None

    def _enter(self, near: Any = None) -> None:
        it = self.items()
        remembered = self.memory.get(self.phase)
        if remembered in it:
            self.cursor = it.index(remembered)
        elif near in it:
            self.cursor = it.index(near)
        elif isinstance(near, str) and near in self.pos and it and not isinstance(it[0], int):
            nx, ny = self.pos[near]
            self.cursor = min(range(len(it)), key=lambda j: math.hypot(self.pos[it[j]][0] - nx, self.pos[it[j]][1] - ny))
        else:
            self.cursor = 0

    # cursor --------------------------------------------------------------------------
    def step(self, delta: int) -> None:
        """Move the cursor ``delta`` choices on (wrapping round)."""
        it = self.items()
        if it:
            self.cursor = (self.cursor + delta) % len(it)

    def nudge(self, dx: int, dy: int) -> None:
        """Keyboard arrows: the nearest choice in direction ``(dx, dy)`` (screen, y down).

        In the count phase Up/Down change the count (Up = more).
        """
        it = self.items()
        if not it:
            return
        if self.phase == "count":
            self.step(-dy if dy else dx)
            return
        cur = self.current()
        cx, cy = self.pos[cur]
        best, best_score = None, float("inf")
        for j, c in enumerate(it):
            if c == cur:
                continue
            vx, vy = self.pos[c][0] - cx, self.pos[c][1] - cy
            along = vx * dx + vy * dy
            if along <= 0:
                continue
            across = abs(vx * dy - vy * dx)
            if across > along * 2.5:
                continue
            score = along + 2.0 * across
            if score < best_score:
                best, best_score = j, score
        if best is not None:
            self.cursor = best

    # choosing ------------------------------------------------------------------------
    @property
    def half_chosen(self) -> bool:
        """True once a first choice was taken (there is something to cancel)."""
        return self.phase not in ("source", "swap-a")

    def ok(self) -> Action | None:
        """Take the choice under the cursor; the finished action, or None if more is to choose."""
        cur = self.current()
        if cur is None:
            return None
        self.memory[self.phase] = cur
        if self.phase == "source":
            self.src = cur
            self.count = None
            if cur != RESERVE:
                ks = self.counts()
                if len(ks) > 1:
                    self.phase = "count"
                    self.memory.pop("count", None)
                    self._enter(1)
                    return None
                self.count = ks[0]
            self.phase = "target"
            self.memory.pop("target", None)
            self._enter(_CENTRE if cur == RESERVE else None)
            return None
        if self.phase == "count":
            self.count = cur
            self.phase = "target"
            self.memory.pop("target", None)
            self._enter()
            return None
        if self.phase == "target":
            return self._finished(cur)
        if self.phase == "swap-a":
            self.first = cur
            self.phase = "swap-b"
            self.memory.pop("swap-b", None)
            self._enter(cur)
            return None
        assert self.first is not None
        return Swap(self.first, cur)

    def _finished(self, target: str) -> Action:
        """The move (or the drop from the reserve) onto ``target`` of the chosen stack and count."""
        if self.src == RESERVE:
            return Drop(target)
        assert self.src is not None and self.count is not None
        return Move(self.src, target, self.count)

    def back(self) -> bool:
        """Step back one choice; False when there was nothing to cancel."""
        if self.phase == "target":
            self.phase = "count" if self.src != RESERVE and len(self.counts()) > 1 else "source"
        elif self.phase == "count":
            self.phase = "source"
        elif self.phase == "swap-b":
            self.phase = "swap-a"
        else:
            return False
        self._enter()
        return True

    def preview(self) -> Action | None:
        """The action the cursor points at when OK would finish the move, else None."""
        cur = self.current()
        if cur is None:
            return None
        if self.phase == "target":
            return self._finished(cur)
        if self.phase == "swap-b" and self.first is not None:
            return Swap(self.first, cur)
        return None

    def marked_targets(self) -> list[str]:
        """Cells to mark as legal targets now (the count phase shows where that count lands)."""
        if self.phase == "count" and self.src is not None:
            return list(self.moves.get((self.src, self.current()), []))
        if self.phase in ("target", "swap-b"):
            return list(self.items())
        return []


def move_effect(state: SacksonState, action: Action) -> str:
    """What ``action`` would do for the seat to move, in words: "(height 3, captures 1,
    1 back to reserve)"; "" for a swap or an action that is not legal now."""
    seat = state.current_player()
    if not isinstance(action, (Move, Drop)) or state.check(seat, action) is not None:
        return ""
    s2 = state.copy()
    s2.apply(action, seat)
    got = sum(s2.captured(seat)) - sum(state.captured(seat))
    back = s2.reserve(seat) - state.reserve(seat) + (1 if isinstance(action, Drop) else 0)
    parts = [_("height {n}").format(n=len(s2.stack(action.dst)))]
    if got:
        parts.append(_("captures {n}").format(n=got))
    if back > 0:
        parts.append(_("{n} back to reserve").format(n=back))
    return "(" + ", ".join(parts) + ")"
