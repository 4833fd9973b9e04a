"""What a game tells the judge about an open race, and what the judge hands back.

A game at a RACE node describes the race with a :class:`RaceSpec`; the judge
(:mod:`arcade.core.judge`) turns stamped presses into a verdict; the driver
applies the verdict to the game as a :class:`RaceResult` action.  Both are plain
data, so races are recorded in game records and replay exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from arcade.core.api import Action

FOCUS = "focus"
FOCUS_EX = "focus-ex"
CLAIM_KINDS = (FOCUS, FOCUS_EX)


@dataclass(frozen=True)
class RaceSpec:
    """An open race as the game sees it.

    Attributes:
        eligible: seats whose presses are claims in this race.
        valid_kinds: claim kinds that are right now (FX-2, FX-3); empty when no
            focus is showing, so every claim is false (FX-7).
        mode: ``"first"`` (first valid press wins; FocusX, Sherlook),
            ``"last"`` (Duel: the last eligible seat to press loses, FX-10) or
            ``"window"`` (a claim window: every eligible seat's first claim
            counts, each judged against its own kinds, and the game decides
            among them; ThinkFocus row/column claims, FX-9).  A ``"window"``
            race needs ``window_ms``.
        x_rule: the FocusX rule is on: an ``x`` control press, or a double
            press of the buzzer, claims "focus-ex" (FX-3).
        penalise_ineligible: a press by a seat not in ``eligible`` is a
            penalty press (Duel, FX-10) rather than ignored.
        window_ms: the race closes by itself this long after opening
            (ThinkFocus and 4Focus claim windows); None: the driver closes it.
        deadline_ms: ``"last"`` races: an eligible seat that has not pressed by
            then counts as pressing at the deadline (FX-10).
        label: what the race is for, for the screen ("focus", "row focus"...).
        seat_kinds: per-seat valid kinds ``((seat, kinds), ...)`` that replace
            ``valid_kinds`` for those seats (FX-9: the active seat claims
            column foci, the previous seat row foci).  Empty: every seat is
            judged against ``valid_kinds``.
        exempt: seats whose presses in this window are ignored: they neither
            claim nor pay, whatever ``penalise_ineligible`` says (Duel: the
            owners of a focus still waiting for its race, FXA-24; 4Focus: a
            seat locked out of claims after a false claim, FXA-37).
    """

    eligible: frozenset[int]
    valid_kinds: frozenset[str]
    mode: Literal["first", "last", "window"] = "first"
    x_rule: bool = False
    penalise_ineligible: bool = False
    window_ms: int | None = None
    deadline_ms: int | None = None
    label: str = "focus"
    seat_kinds: tuple[tuple[int, frozenset[str]], ...] = ()
    exempt: frozenset[int] = frozenset()

    def kinds_for(self, seat: int) -> frozenset[str]:
        """The claim kinds that are right for ``seat`` (``seat_kinds`` first, else ``valid_kinds``)."""
        for s, kinds in self.seat_kinds:
            if s == seat:
                return kinds
        return self.valid_kinds


@dataclass(frozen=True)
class RaceResult(Action):
    """The judge's verdict applied to a game (see ``Verdict.to_result``).

    Attributes:
        winners: ``"first"`` races: the winning seat, or the debated seats in
            press order (R-4, FX-6).  ``"window"`` races: every seat whose
            claim was right for it, in press order (each seat's kind is in
            ``presses``, status ``"claim"``).  Empty: no one won (yet).
        kind: the claim kind the (first) winner made ("focus" / "focus-ex").
        last: ``"last"`` races: the seats tied for last (FX-10).
        false_shouts: seats whose claim was false (FX-7), in press order.
        penalties: seats whose press was a penalty press (FX-10), in order.
        late: seats whose press was late (FX-7 grace), in order: no cost.
        closed: True when the race ended without a winner (window expired,
            or the driver moved on).
        presses: the whole ordered list (R-7) as ``(seat, kind, offset_us,
            status)`` with offset from the opening in microseconds.
        drawn: winners whose order among presses with the very same stamp
            was drawn by chance (R-5), in the drawn order; ``winners`` holds
            that order, so a replay hands out the same cards.
        more: ``((seat, count), ...)``: presses beyond the window's budget,
            counted as ``again`` and summarised instead of listed (FXA-40).
    """

    winners: tuple[int, ...] = ()
    kind: str = FOCUS
    last: tuple[int, ...] = ()
    false_shouts: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()
    late: tuple[int, ...] = ()
    closed: bool = False
    presses: tuple[tuple[int, str, int, str], ...] = ()
    drawn: tuple[int, ...] = ()
    more: tuple[tuple[int, int], ...] = ()

    @property
    def decisive(self) -> bool:
        """True when the result ends the race (a winner, a last, or closed)."""
        return bool(self.winners or self.last or self.closed)


def _is_seat(value: object, seats: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats


def result_problem(result: RaceResult, seats: int) -> str | None:
    """Why ``result`` is not even well formed for a table of ``seats``, or None.

    Checks types before any game looks at it, so a damaged record or a bad
    caller gets :class:`~arcade.core.errors.IllegalActionError` and the state
    is untouched: seats are ints (not bools) at the table, ``kind`` is a claim
    kind, ``closed`` a bool, ``presses`` rows of ``(seat, kind, offset_us, status)`` with
    ``offset_us >= 0`` (the judge leaves presses before the opening out, R-2), ``drawn``
    among the winners, ``more`` ``(seat, count)`` pairs.
    """
    for name in ("winners", "last", "false_shouts", "penalties", "late", "drawn"):
        value = getattr(result, name)
        if not isinstance(value, tuple) or not all(_is_seat(s, seats) for s in value):
            return f"{name} {value!r}: a seat is not at the table (seats 0..{seats - 1})"
    if result.kind not in CLAIM_KINDS:
        return f"kind must be one of {CLAIM_KINDS}, got {result.kind!r}"
    if not isinstance(result.closed, bool):
        return f"closed must be true or false, got {result.closed!r}"
    if not isinstance(result.presses, tuple):
        return f"presses must be a list, got {result.presses!r}"
    for row in result.presses:
        if not (isinstance(row, tuple) and len(row) == 4 and _is_seat(row[0], seats)
                and isinstance(row[1], str) and isinstance(row[2], int) and not isinstance(row[2], bool)
                and isinstance(row[3], str)):
            return f"a press must be (seat, kind, offset_us, status), got {row!r}"
        if row[2] < 0:
            return f"press {row!r}: stamped before the race opened (R-2: such a press is not in the race)"
    if not set(result.drawn) <= set(result.winners):
        return f"drawn {result.drawn!r}: only winners' order is drawn (R-5)"
    if not isinstance(result.more, tuple) or not all(
            isinstance(row, tuple) and len(row) == 2 and _is_seat(row[0], seats)
            and isinstance(row[1], int) and not isinstance(row[1], bool) and row[1] > 0
            for row in result.more):
        return f"more must be (seat, count) pairs, got {result.more!r}"
    return None
