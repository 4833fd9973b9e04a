"""What the arcade's house needs of FOCUS and Crossfire: computer players, the
driver's ply cap, the LED picture, the headless line and a seat's view.

Registered for the ``focus-*`` and ``crossfire`` entries of :mod:`arcade.registry`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, Unpack

from arcade.bots.sackson import choose_action, decide, level_nodes, safety_cap_s
from arcade.core.api import Action, State
from arcade.core.driver import ComputerPlayer, Driver, settings_from
from arcade.core.errors import SettingsError
from arcade.core.house import DriverOptions, JsonObject
from arcade.sackson.game import SacksonGame, SacksonState, Swap

if TYPE_CHECKING:
    from arcade.lights.pictures import Picture
    from arcade.registry import GameSpec, PlayerContext

#: Skill names -> bot levels; ``expert`` plays ``hard``.
LEVELS = {"easy": "easy", "medium": "medium", "hard": "hard", "expert": "hard"}
#: Node limit of the ``hard`` search per move in headless games (deterministic, no clock).
HARD_NODES = 2000
#: Plies after which a headless game is stopped as a draw.
PLY_CAP = 2000


class SacksonPlayer(ComputerPlayer):
    """A FOCUS / Crossfire computer player (``arcade.bots.sackson``), limited by nodes, not a clock.

    Raises:
        SettingsError: an unknown skill.
    """

    think_ns = 0

    def __init__(self, skill: str = "medium", max_nodes: int = HARD_NODES) -> None:
        if skill not in LEVELS:
            raise SettingsError("skill", skill, f"one of {list(LEVELS)}")
        self.skill = skill
        self.level = LEVELS[skill]
        self.max_nodes = max_nodes

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return choose_action(_focus_state(state), self.level, rng, clock=None, max_nodes=self.max_nodes)


def plies(state: State) -> int:
    """Moves and drops so far (opening swaps, SF-3, are not plies)."""
    return sum(1 for _p, a in state.history if not isinstance(a, Swap))


class _PlyCap:
    """``state -> bool``: the game has reached ``cap`` plies (counted as they come)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.seen = 0
        self.count = 0

    def __call__(self, state: State) -> bool:
        hist = state.history
        for _p, a in hist[self.seen:]:
            if not isinstance(a, Swap):
                self.count += 1
        self.seen = len(hist)
        return self.count >= self.cap


def computer_player(spec: GameSpec, state: SacksonState, seat: int, skill: str,
                    ctx: PlayerContext) -> SacksonPlayer:
    """The registry's factory: a :class:`SacksonPlayer` at ``skill``."""
    return SacksonPlayer(skill)


def driver(spec: GameSpec, state: SacksonState, players: Sequence[ComputerPlayer | None], rng: random.Random,
           **options: Unpack[DriverOptions]) -> Driver:
    """The driver for a FOCUS match: a game still running after ``options["ply_cap"]`` plies
    (default :data:`PLY_CAP`) is left unfinished (None or 0: no cap).  The other ``options``:
    :class:`DriverSettings` fields."""
    ply_cap = options.get("ply_cap", PLY_CAP)
    cap = _PlyCap(ply_cap) if ply_cap else None
    return Driver(state, players, rng, settings_from(options, pace_ns=None, stop=cap,
                                                     max_steps=10 * (ply_cap or PLY_CAP) + 100))


def led_picture(state: SacksonState, width: int = 16, height: int = 16) -> Picture:
    """The board (``arcade.sackson.pictures.state_picture``)."""
    from arcade.sackson.pictures import state_picture
    return state_picture(state, width, height)


def summary(spec: GameSpec, state: SacksonState, seed: int, index: int, skills: list[str]) -> JsonObject:
    """The headless line (see ``kiosk/players/headless.py``); ``game`` is ``"focus"`` for every variant."""
    from arcade.sackson.record import to_record
    seats = state.game.seats
    out = state.outcome()
    n = plies(state)
    if out is None:
        winners: list[int] = []
        reason = f"ply cap: stopped after {n} plies without a result (draw)"
    else:
        winners = [w + 1 for w in out.winners]
        reason = out.reason
    rec = to_record(state)
    return {
        "game": "focus", "variant": state.game.variant, "seed": seed, "index": index, "players": seats,
        "skills": skills, "levels": [LEVELS[s] for s in skills], "winners": winners, "reason": reason,
        "plies": n, "captures": [sum(state.captured(p)) for p in range(seats)],
        "reserves": [state.reserve(p) for p in range(seats)],
        "moves": rec["moves"], "final": rec["final"],
    }


def view(state: SacksonState, seat: int) -> JsonObject:
    """FOCUS has no secrets (SF-1: every stack and reserve is in sight)."""
    return state.snapshot()


# -- the thinking process (kiosk/players/thinker.py: the "focus" requests; arcade.core.thinking) -----

class FocusSearch:
    """FOCUS / Crossfire positions as the thinking process's data, and the search over them
    (:class:`arcade.core.thinking.PositionSearch`).

    A position is ``{"seats": 2, "settings": {...}, "origin": None or SacksonGame.setup's
    arguments, "moves": [[src, dst, count], ...]}`` (cell indices; ``src`` -1 = a drop, count
    0 = a swap); a move is ``[src, dst, count]``.  Encoding is cheap: no notation is written
    (about 0.1 ms for 200 moves).
    """

    def encode(self, state: State) -> dict[str, Any]:
        s = _focus_state(state)
        internal = s._internal
        return {"seats": s.game.seats, "settings": dict(s.game.settings), "origin": s._origin,
                "moves": [list(internal(a)) for _p, a in s.history]}

    def decode(self, data: Mapping[str, Any]) -> SacksonState:
        """The moves are made without notation, with the rules' checks off (each must be legal)."""
        try:
            game = SacksonGame(int(data["seats"]), data["settings"])
            origin = data.get("origin")
            if origin:
                state = game.setup(origin["stacks"], origin["reserves"], origin["to_move"],
                                   origin.get("captures"), origin.get("removed"))
            else:
                state = game.new_initial_state()
            for m in data["moves"]:
                mv = (int(m[0]), int(m[1]), int(m[2]))
                if mv not in state._moves():
                    raise ValueError(f"move {mv} is not legal in {state.position_text()}")
                state._make(mv)
            return state
        except ValueError:
            raise
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"not a FOCUS state: {type(exc).__name__}: {exc}") from exc
        except Exception as exc:   # SettingsError, SetupError ...
            raise ValueError(f"not a FOCUS state: {exc}") from exc

    def search(self, state: State, level: str, rng: random.Random, clock: Callable[[], float],
               nodes: int | None, cap_s: float | None, stats: dict[str, int]) -> list[int]:
        s = _focus_state(state)
        return list(s._internal(decide(s, level, rng, clock=clock, max_nodes=nodes, cap_s=cap_s, stats=stats)))

    def quick(self, state: State, rng: random.Random) -> list[int]:
        s = _focus_state(state)
        return list(s._internal(decide(s, "medium", rng)))

    def action(self, state: State, move: Sequence[int]) -> Action:
        s = _focus_state(state)
        mv = (int(move[0]), int(move[1]), int(move[2])) if len(move) == 3 else None
        if mv is None or mv not in s._moves():
            raise ValueError(f"the thinking process proposed {tuple(move)}, not a legal move here")
        return s._t.action(mv)

    def cap_s(self, level: str, nodes: int | None) -> float:
        return safety_cap_s(level_nodes(level, nodes))


def _focus_state(state: State) -> SacksonState:
    if not isinstance(state, SacksonState):
        raise ValueError(f"not a FOCUS state: {type(state).__name__}")
    return state


#: What the thinking process searches for FOCUS and Crossfire (``arcade.registry.position_search("focus")``).
SEARCH = FocusSearch()


def _perft(argv: list[str], clock: Callable[[], float]) -> int:
    """``focus-arcade perft ...``: count the leaf positions of FOCUS / Crossfire (:mod:`arcade.sackson.perft`),
    timed on the caller's ``clock``."""
    from arcade.sackson.perft import perft_main
    return perft_main(argv, clock=clock)


#: The commands this house adds to ``focus-arcade`` (``arcade.registry.house_command``).
COMMANDS = {"perft": _perft}
