"""Who sits at a Focus (2023) table and what the screen may show them: the computer partner's
seat (:class:`PartnerPlayer`), the next deal made ahead (:class:`FacesMade`), whether a seat's
marker may show (:func:`marker_visible`, CO-5) and the case named on the command line
(:func:`case_key`).

Nothing here draws or reads the scene (:mod:`kiosk.games.coop.scene`), which uses them.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from arcade.bots.coop import CoopPartner
from arcade.coop.exhibits import CASES
from arcade.coop.game import Deal
from arcade.coop.house import CoopPlayer
from arcade.core.api import Action, State
from kiosk.games.coop.draw import face_surface
from kiosk.players import thinker as thinker_mod
from kiosk.scenes.seats import SeatInfo

if TYPE_CHECKING:
    from kiosk.scene import Host

FACES_BUDGET_NS = 1_500_000  # a frame makes the next deal's card faces for about this long (at least one)


class PartnerPlayer(CoopPlayer):
    """A computer partner's seat whose decision (1-10 ms: the belief over the grid) is
    worked out in the kiosk's thinking process (:class:`kiosk.players.thinker.WorkerChoice`,
    issue 14) while its pause shows; the worker runs the same partner on the seat's own
    view (CO-5).  Each decision's noise is seeded from the partner's stream, the moves made
    and the seat (:func:`kiosk.players.thinker.decision_seed`), so the same game plays the same
    moves in either place; a dead or stuck worker still
    gets the move made (the same partner, in this process).

    Args:
        partner: the seat's partner (its skill and its random stream).
        think_ns: the pause, as :class:`arcade.coop.house.CoopPlayer`.
        worker: the thinking process's client (None: every decision here).
    """

    def __init__(self, partner: CoopPartner, think_ns: int, worker: thinker_mod.WorkerChoice | None) -> None:
        super().__init__(partner, think_ns)
        self.worker = worker
        self.base_seed = int(partner.rng.getrandbits(62))

    def _seed(self, state: State, seat: int) -> int:
        return thinker_mod.decision_seed(self.base_seed, state, seat)

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return thinker_mod.decide_here("coop-partner", state, seat, self.partner.skill.name, self._seed(state, seat))

    def begin(self, state: State, seat: int, rng: random.Random) -> thinker_mod.WorkerThought | None:
        if self.worker is None:
            return None
        return self.worker.begin(state, seat, self.partner.skill.name, self._seed(state, seat))


def case_key(name: str | None, app: Host | None = None) -> str:
    """The case key for a case name (key or title, any case; None or "" = all cards).

    An unknown name plays all cards and says so on screen (``app.message``)."""
    if not name:
        return ""
    for key, (title, _faces) in CASES.items():
        if str(name).lower() in (key, title.lower()):
            return key
    if app is not None:
        app.message(f"Focus (2023): no case {name!r} (expected one of {', '.join(CASES)}); playing all cards")
    return ""


def marker_visible(seats: list[SeatInfo], seat: int, peek_since_ns: int | None, now_ns: int,
                   delay_ns: int, demo: bool = False) -> bool:
    """Whether seat's marker may be drawn now (CO-5).

    A computer's marker is never shown (except in the demo, for the audience);
    with one human and the partner the human's marker is always shown; with two
    humans it is shown only while its owner holds the peek control and
    ``delay_ns`` after the hold began (the screen asked the other to look away).
    """
    if demo and all(s.is_computer for s in seats):
        return True
    if seats[seat].is_computer:
        return False
    humans = sum(1 for s in seats if not s.is_computer)
    if humans < 2:
        return True
    return peek_since_ns is not None and now_ns - peek_since_ns >= delay_ns


class FacesMade:
    """A :class:`arcade.core.driver.Thought`: a deal drawn already (the outcome the driver
    would draw, from its rng), ready once its card faces are made at the table's card size.

    The faces are made a few a frame (:meth:`work`, about ``FACES_BUDGET_NS`` a frame), so
    no frame makes all twenty and the frame that deals only blits faces already made
    (``face_surface`` keeps them)."""

    def __init__(self, action: Deal, size: tuple[int, int]) -> None:
        self.action = action
        self.size = size
        self.todo = sorted(set(action.faces), reverse=True)

    def work(self, budget_ns: int = FACES_BUDGET_NS) -> None:
        """Make faces for about ``budget_ns`` (at least one while some are left)."""
        t0 = time.perf_counter_ns()
        while self.todo:
            face_surface(self.todo.pop(), *self.size)
            if time.perf_counter_ns() - t0 >= budget_ns:
                break

    def result(self) -> Deal | None:
        self.work()
        return None if self.todo else self.action

    def cancel(self) -> None:
        self.todo = []
