"""``focus-arcade headless``: games with computer players at every seat, no window.

One runner for every entry of :mod:`arcade.registry`: ``--game`` takes a
registry name (``focusx-duel-x``, ``focus-3p``, ``crossfire``, ``coop-sherlock``...)
or a family with ``--mode`` (``--game focusx --mode duel-x``, ``--game focusx
--mode duel --x-rule``, ``--game focus --variant 3p``, ``--game coop --mode
sherlock --case hound``).  Options an entry does not take are refused with a
message, never ignored.

One JSON line per game (keys sorted), the entry's ``summary`` (the fields the
lines have always had).  FocusX lines have ``game``, ``mode``, ``seed``, ``index``, ``players``, ``winners`` (1-based),
``reason``, ``cards``, ``races``, ``debated``, ``false_focuses``, ``missed``,
``actions``, ``x_rule`` (the ``-x`` entries: the FocusX rule on); FOCUS lines ``variant``, ``skills``, ``levels``, ``plies``,
``captures``, ``reserves``, ``moves``, ``final`` (``game`` is ``"focus"`` for
Crossfire too); Sherlook lines ``points``, ``greens``, ``yellows``, ``reds``,
``rounds``, ``extra_rounds``, ``counts``, ``timeouts``; Focus (2023) lines
``mode``, ``case``, ``win``, ``result``, ``score``, ``rounds``, ``turns``, ``skills``.

Determinism: game ``k`` of a run with seed ``S`` draws every random choice
from ``random.Random(f"{S}-{k}")`` (Focus (2023) partners' noise from
``f"{S}-{k}-p{seat}"``), time is virtual and the FOCUS ``hard`` search is
limited by nodes, so the same seed gives the same lines on any machine.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
from dataclasses import dataclass, field
from typing import Callable, Mapping, TextIO, Unpack

from arcade import registry
from arcade.core.api import State
from arcade.core.errors import SettingsError
from arcade.core.house import DriverOptions
from arcade.registry import GameSpec, PlayerContext

log = logging.getLogger(__name__)

_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


@dataclass(frozen=True)
class HeadlessOptions:
    """What ``headless`` (and ``demo``'s choice of game) reads of its command line.

    ``game``: a registry name or family; ``mode`` / ``variant`` (FOCUS's word for the mode) /
    ``x_rule`` pick the entry; ``players``: the seats as given (None: the entry's default;
    :func:`seats_of` checks it); ``games`` and ``seed``; ``skills``: one level for every seat
    or one per seat (None: ``medium``); ``miss_rate_scale`` / ``false_rate_scale``: FocusX's
    ``[computer]`` rates (None: 1); ``ply_cap``: FOCUS's move limit (None: none);
    ``options``: the entries' own options given (:data:`arcade.registry.OPTIONS`, ``case``).
    """

    game: str = "focusx"
    mode: str | None = None
    variant: str | None = None
    x_rule: bool = False
    players: object = None
    games: int = 1
    seed: int = 0
    skills: list[str] | None = None
    miss_rate_scale: float | None = None
    false_rate_scale: float | None = None
    ply_cap: int | None = None
    options: dict[str, object] = field(default_factory=dict)

    @classmethod
    def of(cls, args: "argparse.Namespace | HeadlessOptions") -> "HeadlessOptions":
        """The options of a parsed command line (``headless``'s or ``demo``'s: what it lacks
        keeps its default; a ``seed`` of None is 0)."""
        if isinstance(args, HeadlessOptions):
            return args
        given = vars(args)
        seed = given.get("seed")
        return cls(game=given.get("game") or "focusx", mode=given.get("mode") or None,
                   variant=given.get("variant") or None, x_rule=bool(given.get("x_rule", False)),
                   players=given.get("players"), games=int(given.get("games", 1)),
                   seed=0 if seed is None else int(seed), skills=given.get("skills"),
                   miss_rate_scale=given.get("miss_rate_scale"), false_rate_scale=given.get("false_rate_scale"),
                   ply_cap=given.get("ply_cap"),
                   options={o: given[o] for o in registry.OPTIONS if given.get(o) not in (None, "")})


#: What the headless functions take: the options, or the parsed command line they come from.
HeadlessArgs = argparse.Namespace | HeadlessOptions


def play(spec: GameSpec, seats: int, skills: list[str], seed: int, index: int,
         settings: Mapping[str, object] | None = None, miss_rate_scale: float = 1.0,
         false_rate_scale: float = 1.0, **driver_options: Unpack[DriverOptions]) -> State:
    """Play game ``index`` of seed ``seed`` of ``spec`` with computer players; the final state.

    Raises:
        SettingsError: bad seats, settings or skills (KeyError for an unknown FocusX skill).
    """
    rng = random.Random(f"{seed}-{index}")
    state = spec.new_state(seats, settings)
    ctx = PlayerContext(rng, f"{seed}-{index}", miss_rate_scale, false_rate_scale)
    players = spec.computer_players(state, skills, ctx)
    spec.driver(state, players, rng, **driver_options).run_to_end()
    return state


def run_spec(spec: GameSpec, seats: int, games_n: int, seed: int, skills: list[str], out: TextIO,
             settings: Mapping[str, object] | None = None, miss_rate_scale: float = 1.0,
             false_rate_scale: float = 1.0, **driver_options: Unpack[DriverOptions]) -> None:
    """Play ``games_n`` games of ``spec`` and write one JSON line each to ``out``."""
    for k in range(games_n):
        state = play(spec, seats, skills, seed, k, settings, miss_rate_scale, false_rate_scale,
                     **driver_options)
        out.write(json.dumps(spec.summary(state, seed, k, skills), sort_keys=True) + "\n")
        out.flush()


def spec_of(args: HeadlessArgs) -> GameSpec:
    """The registry entry ``args`` asks for (``game``, ``mode``, ``variant``, ``x_rule``).

    Raises:
        SettingsError: an unknown game or mode (the valid ones listed), or an
            option the entry does not take (``--variant`` outside FOCUS,
            ``--x-rule`` outside FocusX).
    """
    opts = HeadlessOptions.of(args)
    game, mode, variant, x_rule = opts.game, opts.mode, opts.variant, opts.x_rule
    spec = registry.resolve(game, mode, x_rule=False) if variant is None else None
    if variant is not None:
        family = registry.resolve(game).family
        if family != "focus":
            first = registry.resolve(game, mode)
            modes = [s.mode for s in registry.SPECS if s.family == family]
            raise SettingsError("--variant", variant, f"nothing: {first.label} has no variant (--variant is "
                                f"FOCUS's word for the mode); use --mode: one of {modes}")
        spec = registry.resolve(game, mode, variant=variant)
    assert spec is not None
    if x_rule:
        spec = registry.resolve(spec.name, None, x_rule=True)
    return spec


def seats_of(spec: GameSpec, players: object) -> int:
    """``--players`` for ``spec`` (None: its default).

    Raises:
        SettingsError: outside the entry's seat range.
    """
    if players is None:
        return spec.default_seats
    lo, hi = spec.min_seats, spec.max_seats
    if not isinstance(players, int) or isinstance(players, bool) or not lo <= players <= hi:
        title = spec.game_class().title
        if lo == hi:
            what = f"variant {spec.mode!r}" if spec.family == "focus" else spec.name
            raise SettingsError("players", players, f"{lo} for {what}: {title} is a game for "
                                f"{_WORDS.get(lo, lo)} (or leave --players out)")
        raise SettingsError("seats", players, f"{lo} to {hi} for {title}")
    return int(players)


def skills_of(args: HeadlessArgs, seats: int) -> list[str]:
    """One skill per seat from ``args.skills`` (one for every seat, or exactly one per seat).

    Raises:
        SettingsError: a list whose length is neither 1 nor ``seats``.
    """
    skills = list(HeadlessOptions.of(args).skills or ["medium"])
    if len(skills) == 1:
        skills = skills * seats
    elif len(skills) != seats:
        raise SettingsError("skill", ",".join(skills),
                            f"one level for every seat or {seats} levels, one per seat (got {len(skills)})")
    return skills


def settings_of(spec: GameSpec, args: HeadlessArgs) -> dict[str, object]:
    """The game settings the entry's own options give (``--case`` for Focus (2023)).

    Raises:
        SettingsError: an option the entry does not take, or a bad value.
    """
    settings: dict[str, object] = {}
    for option, value in HeadlessOptions.of(args).options.items():
        if option not in spec.options:
            takers = sorted({s.family for s in registry.SPECS if option in s.options})
            raise SettingsError(option, value, f"nothing: --{option} is for --game {', '.join(takers)}; "
                                f"{spec.label} has none")
        settings.update(spec.option_settings(option, value))
    return settings


def run(args: HeadlessArgs, out: TextIO) -> None:
    """The ``headless`` command: play ``args.games`` games of the entry ``args`` names.

    ``args``: ``game``, ``mode``, ``variant``, ``x_rule``, ``case``, ``players``
    (None: the entry's default), ``games``, ``seed``, ``skills`` (one name for
    every seat, or one per seat), ``miss_rate_scale`` / ``false_rate_scale``
    (FocusX's ``[computer]`` rates), ``ply_cap`` (FOCUS).

    Raises:
        SettingsError: a bad game, mode, player count, skill list or an option
            that the entry does not take (the message names it and the choices).
        KeyError: an unknown FocusX skill.
    """
    opts = HeadlessOptions.of(args)
    spec = spec_of(opts)
    seats = seats_of(spec, opts.players)
    settings = settings_of(spec, opts)
    skills = skills_of(opts, seats)
    options: DriverOptions = {}
    if opts.ply_cap:
        options["ply_cap"] = opts.ply_cap
    notice = spec.notice()
    if notice:
        log.warning("%s", notice)
    miss, false = opts.miss_rate_scale, opts.false_rate_scale
    run_spec(spec, seats, opts.games, opts.seed, skills, out, settings,
             1.0 if miss is None else miss, 1.0 if false is None else false, **options)


def run_focusx(mode: str, players: int, games_n: int, seed: int, skills: list[str],
               settings: dict[str, object], out: TextIO, miss_rate_scale: float = 1.0,
               false_rate_scale: float = 1.0) -> None:
    """Play ``games_n`` FocusX games of ``mode`` (``x_rule`` in ``settings`` picks the ``-x`` entry)."""
    settings = dict(settings)
    spec = registry.resolve("focusx", mode, x_rule=bool(settings.pop("x_rule", False)))
    run_spec(spec, players, games_n, seed, skills, out, settings, miss_rate_scale, false_rate_scale)


def runner(game: str) -> Callable[[HeadlessArgs, TextIO], None]:
    """The headless runner for ``--game``: :func:`run`, for every registry name and family.

    Raises:
        SettingsError: unknown game (the message lists the valid names).
    """
    registry.resolve(game)
    return run
