"""``focus-arcade headless --game focus|crossfire``: FOCUS / Crossfire games between computer players.

One JSON line per game (keys sorted)::

    {"game": "focus", "variant": "2p", "seed": 1, "index": 0, "players": 2,
     "skills": ["medium", "medium"], "levels": ["medium", "medium"],
     "winners": [1], "reason": "P2 cannot move: P1 wins (SF-2)", "plies": 51,
     "captures": [5, 2], "reserves": [1, 0],
     "moves": "c2-c1 f7-f8 ...", "final": {"stacks": {"c1": [0], ...}, ...}}

``game`` is always ``"focus"``: Crossfire is the variant ``"crossfire"``, the
same for ``--game crossfire`` and ``--game focus --variant crossfire``.
``--mode`` is another name for ``--variant``.  ``winners`` are 1-based (empty
for a draw); ``plies`` counts moves and drops (opening swaps, SF-3, are not
plies); ``captures[p]`` is the number of stones seat ``p`` captured (SF-2
overflow, all colours); ``reserves[p]`` the stones left in seat ``p``'s
reserve at the end; ``moves`` the whole game in SF-7 notation; ``final`` the
last position (:func:`arcade.sackson.record.position`: stacks bottom to top,
reserves, captures, side to move).

Options that do not fit are refused with a clear message, never replaced by a
default: ``--players`` other than the variant's seats (leave it out, or None,
for the variant's count), a ``--skill`` list that names neither one level nor
one per seat, ``--x-rule`` and ``--case``.

Determinism: game ``k`` of a run with seed ``S`` draws every random choice
from ``random.Random(f"{S}-{k}")`` and the ``hard`` search is limited by a
node count (:data:`HARD_NODES`), never by a clock, so the same seed gives the
same lines on any machine.  A game still running after :data:`PLY_CAP` plies
stops as a draw with the reason ``"ply cap ..."`` (the engine's own limit of
plies without a capture, SF-3, normally ends games long before).
"""

from __future__ import annotations

import json
import random
from typing import Any, TextIO

from arcade.bots.sackson import choose_action
from arcade.core.errors import SettingsError
from arcade.sackson.game import VARIANTS, SacksonGame, Swap
from arcade.sackson.record import to_record

#: Skill names (``--skill``) -> bot levels; ``expert`` plays ``hard``.
LEVELS = {"easy": "easy", "medium": "medium", "hard": "hard", "expert": "hard"}
#: Node limit of the ``hard`` search per move in headless games (deterministic).
HARD_NODES = 2000
#: Plies after which a headless game is stopped as a draw.
PLY_CAP = 2000
#: The command line's default ``--mode`` (FocusX's first mode): read as "no mode given".
#: Remove once ``focus-arcade headless`` defaults ``--mode`` to None for other games.
#: The "game" field of every line: Crossfire is the FOCUS variant "crossfire", whether it
#: was asked for as ``--game crossfire`` or ``--game focus --variant crossfire``.
GAME_NAME = "focus"


def variant_of(args: Any) -> str:
    """The variant a headless run asks for.

    ``--game crossfire`` means variant ``crossfire``; ``--game focus`` takes
    ``--variant`` or its alias ``--mode`` (default ``2p``).

    Raises:
        SettingsError: an unknown variant or mode, ``--mode`` and ``--variant``
            naming different variants, or ``--game crossfire`` with another variant.
    """
    game = getattr(args, "game", "focus") or "focus"
    variant = getattr(args, "variant", None)
    mode = getattr(args, "mode", None)
    if mode is not None:
        if mode not in VARIANTS:
            raise SettingsError("mode", mode, f"one of {list(VARIANTS)} (for FOCUS --mode is the variant)")
        if variant is not None and variant != mode:
            raise SettingsError("mode", mode, f"the same variant as --variant {variant!r}, or only one of the two")
        variant = mode
    if game == "crossfire":
        if variant not in (None, "crossfire"):
            raise SettingsError("variant", variant, "'crossfire' (or nothing) with --game crossfire")
        return "crossfire"
    variant = variant or "2p"
    if variant not in VARIANTS:
        raise SettingsError("variant", variant, f"one of {list(VARIANTS)} for --game focus")
    return variant


def check_args(args: Any, variant: str) -> None:
    """Refuse options that do not apply to FOCUS (clear errors, no silent fallback).

    Raises:
        SettingsError: ``--players`` other than the variant's seat count (None
            means the variant's count), ``--x-rule`` (a FocusX rule) or ``--case``
            (a cooperative-game option).
    """
    seats = VARIANTS[variant]
    players = getattr(args, "players", None)
    if players is not None and players != seats:
        raise SettingsError("players", players, f"{seats} for variant {variant!r} (or leave --players out)")
    if getattr(args, "x_rule", False):
        raise SettingsError("x_rule", True, "off: --x-rule is the FocusX rule (FX-3); FOCUS has no such rule")
    if getattr(args, "case", None) is not None:
        raise SettingsError("case", args.case, "nothing: --case is for --game coop")


def levels_of(args: Any, seats: int) -> tuple[list[str], list[str]]:
    """(skill names, bot levels) per seat: one name for every seat, or exactly one per seat.

    Raises:
        SettingsError: an unknown skill name, or a list whose length is neither 1
            nor ``seats``.
    """
    skills = list(getattr(args, "skills", None) or ["medium"])
    if len(skills) == 1:
        skills = skills * seats
    elif len(skills) != seats:
        raise SettingsError("skill", ",".join(skills),
                            f"one level for every seat or {seats} levels, one per seat (got {len(skills)})")
    for s in skills:
        if s not in LEVELS:
            raise SettingsError("skill", s, f"one of {list(LEVELS)}")
    return skills, [LEVELS[s] for s in skills]


def play_one(variant: str, levels: list[str], rng: random.Random, ply_cap: int = PLY_CAP,
             settings: dict[str, Any] | None = None) -> Any:
    """Play one game of ``variant`` between bots of ``levels`` (one per seat); returns the final state.

    A game that reaches ``ply_cap`` plies is left unfinished (``outcome()`` None).
    """
    game = SacksonGame(VARIANTS[variant], {"variant": variant, **(settings or {})})
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal() and plies < ply_cap:
        seat = state.current_player()
        action = choose_action(state, levels[seat], rng, clock=None, max_nodes=HARD_NODES)
        state.apply(action, seat)
        if not isinstance(action, Swap):
            plies += 1
    return state


def game_line(game_name: str, variant: str, seed: int, index: int, skills: list[str], levels: list[str],
              state: Any) -> dict[str, Any]:
    """The JSON-able line of one finished (or capped) game (see the module text)."""
    seats = state.game.seats
    out = state.outcome()
    plies = sum(1 for _p, a in state.history if not isinstance(a, Swap))
    if out is None:
        winners: list[int] = []
        reason = f"ply cap: stopped after {plies} plies without a result (draw)"
    else:
        winners = [w + 1 for w in out.winners]
        reason = out.reason
    rec = to_record(state)
    return {
        "game": game_name, "variant": variant, "seed": seed, "index": index, "players": seats,
        "skills": skills, "levels": levels, "winners": winners, "reason": reason, "plies": plies,
        "captures": [sum(state.captured(p)) for p in range(seats)],
        "reserves": [state.reserve(p) for p in range(seats)],
        "moves": rec["moves"], "final": rec["final"],
    }


def run(args: Any, out: TextIO) -> None:
    """Play ``args.games`` games and write one JSON line each to ``out`` (see the module text).

    ``args``: ``game`` ("focus" or "crossfire"), ``variant`` or its alias
    ``mode`` (None -> "2p"), ``players`` (None -> the variant's seats; anything
    else must equal them), ``games``, ``seed``, ``skills`` (one name for every
    seat, or one per seat), ``x_rule`` (must be off), ``case`` (must be None).

    Raises:
        SettingsError: a bad variant, mode, player count, skill list or an
            option that does not apply to FOCUS (the message names it and the choices).
    """
    variant = variant_of(args)
    check_args(args, variant)
    seats = VARIANTS[variant]
    skills, levels = levels_of(args, seats)
    seed = getattr(args, "seed", 0)
    cap = getattr(args, "ply_cap", None) or PLY_CAP
    for k in range(int(getattr(args, "games", 1))):
        rng = random.Random(f"{seed}-{k}")
        state = play_one(variant, levels, rng, cap)
        line = game_line(GAME_NAME, variant, seed, k, skills, levels, state)
        out.write(json.dumps(line, sort_keys=True) + "\n")
        out.flush()
