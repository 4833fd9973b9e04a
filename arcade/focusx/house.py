"""What the arcade's house needs of FocusX (every mode): computer players, the
driver's pacing, the LED picture, the headless line and a seat's view.

Registered for every ``focusx-*`` entry of :mod:`arcade.registry`.
"""

from __future__ import annotations

import importlib
import random
from typing import TYPE_CHECKING, Callable, Mapping, Sequence, Unpack

from arcade.bots.shout import PlannedPress, ShoutSkill, plan_race, scaled
from arcade.bots.shout import skill as skill_named
from arcade.core.api import Action, State
from arcade.core.driver import MS, ComputerPlayer, Driver, settings_from
from arcade.core.events import Edge
from arcade.core.house import DriverOptions, JsonObject
from arcade.core.race import RaceSpec
from arcade.focusx.base import FocusXState
from arcade.focusx.classic import ClassicState
from arcade.focusx.duel import DuelState
from arcade.focusx.fourfocus import FourFocusState
from arcade.focusx.thinkfocus import ThinkFocusState

if TYPE_CHECKING:
    from arcade.lights.pictures import Picture
    from arcade.registry import GameSpec, PlayerContext

#: Placement choice per mode (record name -> "module:function" taking
#: ``(state, seat, rng, skill_name)``); modes not listed play the first legal
#: action (FX-4's default spot): ThinkFocus and 4Focus choose (FX-9, FX-11).
PLACEMENT: Mapping[str, str] = {
    "focusx-thinkfocus": "arcade.bots.focusx_place:choose_action",
    "focusx-4focus": "arcade.bots.focusx_place:choose_action",
}

SeatPolicy = Callable[[State, int, random.Random], Action]
Planner = Callable[[random.Random, RaceSpec, int], list[PlannedPress]]


def first_legal(state: State, seat: int, rng: random.Random) -> Action:
    """A seat policy: the first legal action (e.g. FX-4's default spot)."""
    if isinstance(state, FocusXState):
        return state.default_action()
    return state.legal_actions(seat)[0]


def placement(game_name: str) -> Callable[..., Action] | None:
    """The placement chooser of a mode (see :data:`PLACEMENT`), or None."""
    path = PLACEMENT.get(game_name)
    if path is None:
        return None
    module, func = path.split(":")
    return getattr(importlib.import_module(module), func)  # type: ignore[no-any-return]


def press_edges(plan: PlannedPress, opened_ns: int, hold_ns: int) -> list[Edge]:
    """The edges of one planned press (two presses for a double press, FX-3)."""
    t = opened_ns + int(plan.delay_ms * MS)
    out = [Edge(t, plan.seat, plan.control, True, "computer"),
           Edge(t + hold_ns, plan.seat, plan.control, False, "computer")]
    if plan.double:
        t2 = t + hold_ns + 60 * MS
        out += [Edge(t2, plan.seat, plan.control, True, "computer"),
                Edge(t2 + hold_ns, plan.seat, plan.control, False, "computer")]
    return out


class FocusXPlayer(ComputerPlayer):
    """A FocusX computer player: places by ``policy`` and shouts by its skill.

    Args:
        skill: the skill level name (``arcade.bots.shout.SKILLS``).
        level: the shout skill to react with (default: ``skill``'s).
        policy: ``(state, seat, rng) -> action`` at its turn (default: the
            mode's placement chooser, else :func:`first_legal`).
        planner: ``(rng, spec, seat) -> [PlannedPress]`` instead of the
            reaction model (e.g. ``arcade.bots.shout.masher_plan``).
        has_x_control: its station has an X control (else double press, FX-3).
        think_ns, hold_ns: time to choose a placement; time a press is held.

    Raises:
        KeyError: an unknown skill ("unknown skill ...").
    """

    def __init__(self, skill: str = "medium", level: ShoutSkill | None = None,
                 policy: SeatPolicy | None = None, planner: Planner | None = None,
                 has_x_control: bool = False, think_ns: int = 300 * MS, hold_ns: int = 90 * MS) -> None:
        self.skill = skill
        self.level = level if level is not None else skill_named(skill)
        self.policy = policy
        self.planner = planner
        self.has_x_control = has_x_control
        self.think_ns = think_ns
        self.hold_ns = hold_ns
        self._chooser: tuple[str, Callable[..., Action] | None] | None = None

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        if self.policy is not None:
            return self.policy(state, seat, rng)
        name = state.game.name
        if self._chooser is None or self._chooser[0] != name:
            self._chooser = (name, placement(name))
        chooser = self._chooser[1]
        if chooser is None:
            return first_legal(state, seat, rng)
        return chooser(state, seat, rng, self.skill)

    def race_opened(self, state: State, seat: int, race: object, opened_ns: int,
                    rng: random.Random) -> list[Edge]:
        if not isinstance(race, RaceSpec):
            return []             # FocusX races are shout races (arcade.core.referee)
        if self.planner is not None:
            plans = self.planner(rng, race, seat)
        else:
            plans = plan_race(rng, race, seat, self.level, self.has_x_control)
        out: list[Edge] = []
        for plan in plans:
            out += press_edges(plan, opened_ns, self.hold_ns)
        return out


def computer_player(spec: GameSpec, state: FocusXState, seat: int, skill: str,
                    ctx: PlayerContext) -> FocusXPlayer:
    """The registry's factory: a :class:`FocusXPlayer` at ``skill`` with the ``[computer]`` rates."""
    level = scaled(skill_named(skill), ctx.miss_rate_scale, ctx.false_rate_scale)
    return FocusXPlayer(skill, level, has_x_control=ctx.has_x_control)


def driver(spec: GameSpec, state: FocusXState, players: Sequence[ComputerPlayer | None], rng: random.Random,
           **options: Unpack[DriverOptions]) -> Driver:
    """The driver for a FocusX match: races without their own window close ``pace_ns``
    (default 2.5 s) after opening; in the frame loop the active seat's choice ends its
    turn-start window (ThinkFocus, 4Focus: :func:`turn_window_seat`).  ``options`` are
    :class:`DriverSettings` fields (``pace_ns``, ``judge``, ``max_steps``...); other
    families' (``ply_cap``) mean nothing here."""
    return Driver(state, players, rng, settings_from(options, pace_ns=2500 * MS, max_steps=20_000,
                                                     early_move=turn_window_seat))


def turn_window_seat(state: State) -> int | None:
    """The seat whose laid card ends the open race: the active seat during its turn-start
    window (``window == "turn"``, ThinkFocus and 4Focus); None in any other race or mode."""
    if isinstance(state, (ThinkFocusState, FourFocusState)) and state.window == "turn":
        return state.active
    return None


def led_picture(state: FocusXState, width: int = 16, height: int = 16) -> Picture:
    """The scoreboard of the seats' cards (``arcade.lights.pictures.scores_picture``)."""
    from arcade.lights.pictures import scores_picture
    return scores_picture(list(state.scores()), width, height)


def summary(spec: GameSpec, state: FocusXState, seed: int, index: int, skills: list[str]) -> JsonObject:
    """The headless line (``focus-arcade headless --game focusx``).

    ``mode`` is the mode without the FocusX-rule suffix (``classic``...), as
    the lines have always said; ``x_rule`` says whether the rule was on.
    """
    game = state.game
    out = state.outcome()
    assert out is not None
    return {
        "game": "focusx", "mode": game.name.split("-", 1)[1], "seed": seed, "index": index,
        "players": game.seats, "winners": [w + 1 for w in out.winners], "reason": out.reason,
        "cards": list(state.scores()), "races": state.stats["races"],
        "debated": state.stats["debated"], "false_focuses": state.stats["false"],
        "missed": state.stats["missed"], "actions": len(state.history),
        "x_rule": bool(game.settings.get("x_rule")),
    }


#: Modes whose seats' piles are face down (FocusX Classic, FX-1: a seat turns its top card up).
FACE_DOWN_PILES = ("focusx-classic",)


def _hidden(state: FocusXState, seat: int) -> list[list[int]]:
    """The card lists ``seat`` cannot see (the lists themselves, to read or refill)."""
    out: list[list[int]] = []
    if isinstance(state, (DuelState, ThinkFocusState, FourFocusState)):
        out.append(state.deck)
    if isinstance(state, (ThinkFocusState, FourFocusState)):
        out += [h for s, h in enumerate(state.hands) if s != seat]
    if isinstance(state, ClassicState) and state.game.name in FACE_DOWN_PILES:
        out += list(state.piles)
    return out


def view(state: FocusXState, seat: int) -> JsonObject:
    """What ``seat`` sees: the table (snapshot) with the face-down cards as counts only:
    the deck, the others' hands (ThinkFocus, 4Focus: FX-9, FX-11) and, in Classic,
    every seat's face-down pile (FX-1)."""
    out = dict(state.snapshot())
    if "deck" in out:
        out["deck"] = len(out["deck"])
    if "hands" in out:
        out["hands"] = [list(h) if s == seat else len(h) for s, h in enumerate(out["hands"])]
    if state.game.name in FACE_DOWN_PILES:
        out["piles"] = [len(p) for p in out["piles"]]
    return out


def redeal_hidden(state: FocusXState, seat: int, rng: random.Random) -> FocusXState:
    """A copy of ``state`` with every card ``seat`` cannot see dealt again (same counts)."""
    copy = state.clone()
    lists = _hidden(copy, seat)
    pool = [c for cards in lists for c in cards]
    rng.shuffle(pool)
    for cards in lists:
        k = len(cards)
        cards[:], pool = pool[:k], pool[k:]
    return copy


# -- the thinking process (kiosk/players/thinker.py: the "game" requests; arcade.core.thinking) -----

def _place(state: State, seat: int, level: str, rng: random.Random) -> Action:
    """ThinkFocus / 4Focus placement (``arcade.bots.focusx_place``) at ``level``."""
    from arcade.bots.focusx_place import choose_action

    return choose_action(state, seat, rng, level)


#: The computer players the thinking process can be asked for by name (``arcade.registry.thinking_player``).
THINKING_PLAYERS = {"focusx-place": _place}
