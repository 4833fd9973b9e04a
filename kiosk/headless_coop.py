"""``focus-arcade headless --game coop``: two computer partners play Focus (2023).

    focus-arcade headless --game coop --mode base|sherlock|mycroft|mycroft-sherlock \\
        [--case scarlet|sign|pips|hound] --games K --seed S [--skill medium]

One JSON line per game (keys sorted): ``game``, ``seed``, ``index``, ``mode``,
``case`` (null for all cards), ``win`` (bool), ``result`` ("win"/"loss"; with
Sherlock rules the seed's rating words), ``score`` (Sherlock rules: the total
over the rounds; else null), ``rounds`` (points per round, Sherlock rules),
``turns`` (cards taken), ``reason``, ``skills``.  Game ``k`` draws from
``random.Random(f"{S}-{k}")`` (partners' noise from ``f"{S}-{k}-p{seat}"``), so
the same seed gives the same lines.
"""

from __future__ import annotations

import json
import random
from typing import Any, TextIO

from arcade.bots.coop import CoopPartner, play_out
from arcade.core.errors import SettingsError
from arcade.coop.exhibits import CASES
from arcade.coop.game import MODES, CoopGame, CoopState, rating

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


def run(args: Any, out: TextIO) -> None:
    """The ``headless`` runner (kiosk.headless.RUNNERS["coop"]).

    ``args`` has ``mode``, ``case``, ``games``, ``seed`` and ``skills`` (the
    first two are the seats' skills; one is used for both).

    Raises:
        SettingsError: unknown mode, case or skill.
    """
    mode = mode_of(getattr(args, "mode", None))
    case = case_of(getattr(args, "case", None))
    skills = list(getattr(args, "skills", None) or ["medium"])
    skills = (skills * 2)[:2]
    from arcade.bots.coop import SKILLS
    for s in skills:
        if s not in SKILLS:
            raise SettingsError("skill", s, f"one of {list(SKILLS)}")
    for k in range(int(args.games)):
        state = play_game(mode, case, int(args.seed), k, skills)
        out.write(json.dumps(game_line(state, int(args.seed), k, skills), sort_keys=True) + "\n")
        out.flush()
