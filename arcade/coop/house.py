"""What the arcade's house needs of Focus (2023): computer partners, the driver,
the LED picture, the headless line and a seat's view (CO-5).

Registered for the ``coop-*`` entries of :mod:`arcade.registry`.
"""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING, Sequence, Unpack

from arcade.coop.game import CoopState
from arcade.core.api import Action, State
from arcade.core.driver import ComputerPlayer, Driver, settings_from
from arcade.core.errors import SettingsError
from arcade.core.house import DriverOptions, JsonObject

if TYPE_CHECKING:
    from arcade.bots.coop import CoopPartner
    from arcade.lights.pictures import Picture
    from arcade.registry import GameSpec, PlayerContext


def _coop(state: State) -> CoopState:
    """``state`` as a Focus (2023) state (TypeError for another game's)."""
    if not isinstance(state, CoopState):
        raise TypeError(f"not a Focus (2023) state: {type(state).__name__}")
    return state


class CoopPlayer(ComputerPlayer):
    """A seat played by an :class:`arcade.bots.coop.CoopPartner`, which sees only its view (CO-5).

    Args:
        partner: the partner.
        think_ns: its pause before a take (ns); half of it before ending a turn or
            answering an offer; none before pointing (both seats point at once, CO-5).
    """

    def __init__(self, partner: CoopPartner, think_ns: int = 0) -> None:
        self.partner = partner
        self.think_ns = think_ns

    def think_time(self, state: State, seat: int) -> int:
        phase = state.phase if isinstance(state, CoopState) else ""
        if phase == "point":
            return 0
        return self.think_ns if phase == "take" else self.think_ns // 2

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return self.partner.act(_coop(state).view(seat))


def computer_player(spec: GameSpec, state: CoopState, seat: int, skill: str, ctx: PlayerContext) -> CoopPlayer:
    """The registry's factory; the partner's noise comes from ``f"{ctx.key}-p{seat}"``.

    Raises:
        SettingsError: an unknown skill.
    """
    from arcade.bots.coop import SKILLS, CoopPartner
    if skill not in SKILLS:
        raise SettingsError("skill", skill, f"one of {list(SKILLS)}")
    return CoopPlayer(CoopPartner(seat, skill, rng=random.Random(f"{ctx.key}-p{seat}")))


def movers(state: State) -> list[int]:
    """Who moves now: while pointing, both seats that have not pointed (CO-5: at once,
    in secret); else the seat to move."""
    if isinstance(state, CoopState) and state.phase == "point":
        return [s for s in (0, 1) if s not in state.points]
    cp = state.current_player()
    return [cp] if cp >= 0 else []


def driver(spec: GameSpec, state: CoopState, players: Sequence[ComputerPlayer | None], rng: random.Random,
           **options: Unpack[DriverOptions]) -> Driver:
    """The driver for a Focus (2023) match (deals from ``rng``; no races; both seats
    point at once, :func:`movers`).

    ``options``: :class:`DriverSettings` fields (the kiosk adds the reveal before a
    deal, ``chance_pause``, and the end of a person's turn, ``time_limit``)."""
    return Driver(state, players, rng, settings_from(options, pace_ns=None, max_steps=100_000, movers=movers))


def led_picture(state: CoopState, width: int = 16, height: int = 16) -> Picture:
    """The table: the cards still on it and each seat's clue file (``arcade.coop.pictures``)."""
    from arcade.coop.pictures import table_picture
    return table_picture([f is not None for f in state.faces], width, height,
                         clue_counts=[len(state.clues(0)), len(state.clues(1))])


def summary(spec: GameSpec, state: CoopState, seed: int, index: int, skills: list[str]) -> JsonObject:
    """The headless line (see ``kiosk/players/headless.py``)."""
    from arcade.coop.game import rating
    game = state.game
    out = state.outcome()
    assert out is not None
    line: JsonObject = {
        "game": "coop", "seed": seed, "index": index, "mode": game.mode,
        "players": state.seats, "winners": [w + 1 for w in out.winners],
        "case": game.settings["case"] or None, "turns": sum(r.turns for r in state.results),
        "reason": out.reason, "skills": skills,
    }
    if game.sherlock_rules:
        total = state.total()
        line.update(win=bool(out.winners), result=rating(total), score=total,
                    rounds=[r.score for r in state.results])
    else:
        won = state.results[-1].won
        line.update(win=won, result="win" if won else "loss", score=None)
    return line


def view(state: CoopState, seat: int) -> JsonObject:
    """``state.view(seat)`` as data: the seat's own markers, never the partner's (CO-5)."""
    return dataclasses.asdict(state.view(seat))


def redeal_hidden(state: CoopState, seat: int, rng: random.Random) -> CoopState:
    """A copy of ``state`` with the partner's exhibit markers moved to other cells (same count)."""
    from arcade.coop.game import GRID
    copy = state.clone()
    other = 1 - seat
    mine = set(copy.markers[seat])
    taken = {pos for _s, pos, _f in copy.takes}
    free = [c for c in range(GRID) if c not in mine and c not in taken]
    k = len(copy.markers[other])
    if k and len(free) >= k:
        markers = list(copy.markers)
        markers[other] = tuple(sorted(rng.sample(free, k)))
        copy.markers = tuple(markers)
    return copy


def case_of(name: str | None) -> str:
    """The case key for ``--case`` (None or "" = all cards; a case's title works too), CO-7.

    Raises:
        SettingsError: an unknown case (lists the cases).
    """
    from arcade.coop.exhibits import CASES
    if not name:
        return ""
    for key, (title, _faces) in CASES.items():
        if name.lower() in (key, title.lower()):
            return key
    raise SettingsError("case", name, f"one of {sorted(CASES)}")


def option_settings(option: str, value: object) -> dict[str, object]:
    """The game settings of a command-line option this game takes (``case``)."""
    if option == "case":
        return {"case": case_of(None if value is None else str(value))}
    raise SettingsError(option, value, "an option of Focus (2023): case")


# -- the thinking process (kiosk/players/thinker.py: the "game" requests; arcade.core.thinking) -----

def _partner(state: State, seat: int, level: str, rng: random.Random) -> Action:
    """The Focus (2023) partner (``arcade.bots.coop``) at ``level``, on its seat's view (CO-5)."""
    from arcade.bots.coop import CoopPartner

    return CoopPartner(seat, level, rng=rng).act(_coop(state).view(seat))


#: The computer players the thinking process can be asked for by name (``arcade.registry.thinking_player``).
THINKING_PLAYERS = {"coop-partner": _partner}


def notice() -> str | None:
    """What a run of Focus (2023) warns about before it starts (``GameSpec.notice``): the
    exhibits' similarity table could not be read, so the partners play on the tags only."""
    from arcade.coop.similarity import table_problem
    problem = table_problem()
    return None if problem is None else f"Focus (2023): {problem}; the partners play on the exhibits' tags only"
