"""``focus-arcade headless --game coop``: two computer partners play Focus (2023).

    focus-arcade headless --game coop --mode base|sherlock|mycroft|mycroft-sherlock \\
        [--case scarlet|sign|pips|hound] --games K --seed S [--skill medium | --skill easy,expert]

Focus (2023) has exactly 2 seats: ``--players`` may be left out (2) or be 2;
any other number is refused with a message, and so are ``--x-rule`` (a FocusX
rule) and ``--variant`` (FOCUS's variants): the coop modes are chosen with
``--mode`` and the cases with ``--case``.  ``--skill`` names one skill for both
partners or one per seat.

One JSON line per game (keys sorted): ``game``, ``seed``, ``index``, ``mode``,
``case`` (null for all cards), ``players`` (2), ``winners`` (1-based seats, [1, 2]
when the pair won, [] when it lost: base rules CO-4; Sherlock rules from 13
points), ``win`` (bool), ``result`` ("win"/"loss"; with Sherlock rules the
seed's rating words), ``score`` (Sherlock rules: the total over the rounds;
else null), ``rounds`` (points per round, Sherlock rules), ``turns`` (cards
taken), ``reason``, ``skills``.  Game ``k`` draws from
``random.Random(f"{S}-{k}")`` (partners' noise from ``f"{S}-{k}-p{seat}"``), so
the same seed gives the same lines.
"""

from __future__ import annotations

import json
import logging
import random
from typing import Any, TextIO

from arcade.bots.coop import CoopPartner, play_out
from arcade.core.errors import SettingsError
from arcade.coop.exhibits import CASES
from arcade.coop.game import MODES, CoopGame, CoopState, rating
from arcade.coop.similarity import table_problem

log = logging.getLogger(__name__)

#: Spellings the command line accepts for the modes.
MODE_ALIASES = {None: "base", "classic": "base", "base": "base", "sherlock": "sherlock",
                "mycroft": "mycroft", "mycroft-base": "mycroft", "mycroft-sherlock": "mycroft-sherlock"}


def mode_of(name: str | None) -> str:
    """The game mode for ``--mode`` (``classic`` and none mean ``base``).

    Raises:
        SettingsError: an unknown mode (lists the modes).
    """
    if name not in MODE_ALIASES:
        raise SettingsError("mode", name, f"one of {list(MODES)} for coop")
    return MODE_ALIASES[name]


def case_of(name: str | None) -> str:
    """The case key for ``--case`` (None or "" = all cards; a title works too).

    Raises:
        SettingsError: an unknown case.
    """
    if not name:
        return ""
    for key, (title, _faces) in CASES.items():
        if name.lower() in (key, title.lower()):
            return key
    raise SettingsError("case", name, f"one of {sorted(CASES)}")


def game_line(state: CoopState, seed: int, index: int, skills: list[str]) -> dict[str, Any]:
    """The JSON line of one finished game."""
    game = state.game
    out = state.outcome()
    assert out is not None
    line: dict[str, Any] = {
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


def play_game(mode: str, case: str, seed: int, index: int, skills: list[str],
              rounds: int = 3) -> CoopState:
    """Play one seeded game with two computer partners (deterministic)."""
    game = CoopGame(2, {"mode": mode, "case": case, "rounds": rounds})
    state = game.new_initial_state()
    rng = random.Random(f"{seed}-{index}")
    partners = [CoopPartner(s, skills[s], rng=random.Random(f"{seed}-{index}-p{s}")) for s in (0, 1)]
    play_out(state, partners, rng)
    return state


SEATS = 2


def check_options(args: Any) -> None:
    """Refuse the options that mean nothing for Focus (2023), with a clear message.

    Raises:
        SettingsError: ``--players`` other than 2, ``--x-rule``, ``--variant``.
    """
    players = getattr(args, "players", None)
    if players not in (None, SEATS):
        raise SettingsError("players", players, "2: Focus (2023) is a game for two (leave --players out)")
    if getattr(args, "x_rule", False):
        raise SettingsError("x_rule", True, "no --x-rule: it is a FocusX rule, Focus (2023) has none")
    variant = getattr(args, "variant", None)
    if variant:
        raise SettingsError("variant", variant, f"no --variant for coop: use --mode ({', '.join(MODES)}) "
                            f"and --case ({', '.join(CASES)})")


def skills_of(args: Any) -> list[str]:
    """The two partners' skills from ``args.skills`` (one for both, or one per seat).

    Raises:
        SettingsError: an unknown skill, or a list of another length.
    """
    from arcade.bots.coop import SKILLS
    skills = list(getattr(args, "skills", None) or ["medium"])
    if len(skills) == 1:
        skills = skills * SEATS
    if len(skills) != SEATS:
        raise SettingsError("skill", ",".join(skills), "one skill, or two (one per seat): Focus (2023) has 2 seats")
    for s in skills:
        if s not in SKILLS:
            raise SettingsError("skill", s, f"one of {list(SKILLS)}")
    return skills


def run(args: Any, out: TextIO) -> None:
    """The ``headless`` runner (kiosk.headless.RUNNERS["coop"]).

    ``args`` has ``mode``, ``case``, ``games``, ``seed`` and ``skills`` (one for
    both seats or one per seat); ``players``, ``x_rule`` and ``variant`` are
    checked by :func:`check_options`.  A stale or missing association table is
    logged (the partners then play on the tags only).

    Raises:
        SettingsError: unknown mode, case or skill; an option coop does not have.
    """
    check_options(args)
    mode = mode_of(getattr(args, "mode", None))
    case = case_of(getattr(args, "case", None))
    skills = skills_of(args)
    problem = table_problem()
    if problem:
        log.warning("Focus (2023): %s; the partners play on the exhibits' tags only", problem)
    for k in range(int(args.games)):
        state = play_game(mode, case, int(args.seed), k, skills)
        out.write(json.dumps(game_line(state, int(args.seed), k, skills), sort_keys=True) + "\n")
        out.flush()
