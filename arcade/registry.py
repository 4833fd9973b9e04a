"""The one registry of every game and mode the arcade plays.

One :class:`GameSpec` per playable game and mode.  Its ``name`` is the one
vocabulary of the arcade: ``focus-arcade demo --game NAME``, ``headless --game
NAME``, ``--config``, records and ``check-config`` all take it, and the lobby
lists the specs in this order.  The spellings users have today
(``--game focusx --mode duel-x``, ``--game focusx --mode duel --x-rule``,
``--game focus --variant 3p``, ``--game crossfire``, ``--game coop --mode
sherlock --case hound``) map to these names through :func:`resolve`.

What a spec carries, besides its names and seat range:

* ``game`` - the rules (``"module:Class"``, a :class:`~arcade.core.api.Game`)
  and ``fixed`` - the settings the entry sets (``{"x_rule": True}``...); the
  other settings, with defaults and ranges, are :meth:`GameSpec.settings`;
* ``options`` - the command-line options it takes beyond the common ones
  (coop: ``case``, the Mrs. Hudson cases, CO-7); any other is refused;
* :meth:`GameSpec.start_from` - the hook "start this entry from these
  settings and options and replay these actions" (a game resumed after a
  power cut, ``kiosk/persist/resume.py``);
* ``house`` - the family's module (``arcade.<family>.house``), a
  :class:`~arcade.core.house.House` over the family's own state class (mypy
  checks each against it, ``_HOUSES``): the computer players
  (``computer_player``), the match driver's set-up (``driver``), the LED
  picture (``led_picture``), the headless line (``summary``) and what a seat
  may see (``view``); :meth:`GameSpec.house_module` gives it typed.

Modules are imported on first use, so a family that is not built yet never
stops the others (:class:`~arcade.core.errors.SettingsError` names it).

:data:`EXAMPLES` holds the example game kept in the tree (Buzz Race,
``docs/new-game.md``): never in :data:`SPECS`, so the lobby, the attract loop,
:func:`names` and the command line never offer it; inside ``with examples():``
(the tests) :func:`get`, :func:`resolve`, :func:`make` and :func:`winning_of` find it
like any entry.

>>> get("focusx-duel-x").fixed
{'x_rule': True}
>>> resolve("focus", variant="3p").name
'focus-3p'
>>> resolve("focusx", "duel", x_rule=True).name
'focusx-duel-x'
"""

from __future__ import annotations

import importlib
import random
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence, Unpack, cast

from arcade.core.api import Game, Setting, State
from arcade.core.errors import SettingsError
from arcade.core.house import DriverOptions, House, JsonObject
from arcade.core.thinking import PositionSearch, ThinkingPlayerFn
from arcade.i18n import N_

if TYPE_CHECKING:
    from arcade.buzzrace import house as _buzzrace_house
    from arcade.buzzrace.game import BuzzRaceState
    from arcade.coop import house as _coop_house
    from arcade.coop.game import CoopState
    from arcade.core.driver import ComputerPlayer, Driver
    from arcade.focusx import house as _focusx_house
    from arcade.focusx.base import FocusXState
    from arcade.lights.pictures import Picture
    from arcade.sackson import house as _sackson_house
    from arcade.sackson.game import SacksonState
    from arcade.sherlook import house as _sherlook_house
    from arcade.sherlook.game import SherlookState

    # mypy checks every family's house module against the protocol, with its own state class.
    _HOUSES: tuple[House[FocusXState], House[SacksonState], House[SherlookState], House[CoopState],
                   House[BuzzRaceState]] = (_focusx_house, _sackson_house, _sherlook_house, _coop_house,
                                            _buzzrace_house)

#: Command-line options a spec may take beyond the common ones (see ``GameSpec.options``).
OPTIONS = ("case",)
#: The computer players' skills, weakest first: one vocabulary for every game (the lobby,
#: ``[seats] computer_skill``, ``--skill``); each house's ``computer_player`` takes them all.
SKILLS = ("easy", "medium", "hard", "expert")


class UnknownGameError(SettingsError):
    """A game name no entry has: the message lists the valid names and families."""

    def __init__(self, name: object) -> None:
        super().__init__("game", name, f"one of {names()} (or a family: {families()})")
        Exception.__init__(self, f"unknown game {name!r}; expected one of {names()} "
                                 f"(or a family with --mode: {families()})")


@dataclass(frozen=True)
class PlayerContext:
    """What a computer-player factory gets besides the seat and the skill.

    Attributes:
        rng: the match's generator (factories that draw from it do so in seat order).
        key: the match's seed text (``"S-k"``); per-seat generators may be
            seeded from ``f"{key}-p{seat}"``.
        miss_rate_scale, false_rate_scale: the ``[computer]`` rates
            (``arcade.bots.shout.scaled``).
        has_x_control: the stations have an X control (FX-3).
    """

    rng: random.Random
    key: str = "0-0"
    miss_rate_scale: float = 1.0
    false_rate_scale: float = 1.0
    has_x_control: bool = False


@dataclass(frozen=True)
class WinningRule:
    """How an entry's finished game is won and ranked, declared once per entry: the results
    screen's bars, its high scores and their tables all follow it.

    Attributes:
        kind: ``"score"`` (each seat's ``outcome().scores`` ranks the seats), ``"wins"`` (a game
            won counts 1 for its winner; FOCUS, SF-2) or ``"solved"`` (a cooperative game, won
            or lost together; Focus (2023), CO-4).
        unit: what a seat's score counts, as the screens say it ("cards", "penalty cards",
            "points", "wins"; "" for ``"solved"``).
        fewest: True when the fewest wins (FocusX Duel's penalty cards, FX-10).
        total: True when a name's results are added up in the tables (wins), False when its
            best game counts.

    >>> get("focusx-duel").winning.fewest, get("focusx-classic").winning.unit
    (True, 'cards')
    """

    kind: str
    unit: str = ""
    fewest: bool = False
    total: bool = False

    def better(self, a: float, b: float) -> bool:
        """Whether score ``a`` ranks before score ``b`` under this rule."""
        return a < b if self.fewest else a > b


@dataclass(frozen=True)
class Traits:
    """What kind of game an entry is, declared once per entry (the conformance suite checks
    each against play: ``tests/test_conformance.py``); the entry's winning rule is
    :attr:`GameSpec.winning`.

    Attributes:
        races: it has races (``RACE`` nodes: shout races, Sherlook's marker races).
        chance: it has chance nodes (``CHANCE``: deals, Sherlook's photos).
        secrets: a seat may not see everything (its ``view`` hides the others' cards or
            exhibits; its house has ``redeal_hidden``).
        together: several seats move at once (the house's driver has ``movers``:
            both seats point in Focus (2023), CO-5).

    >>> get("coop-base").traits.together, get("focus-2p").traits.chance
    (True, False)
    """

    races: bool = False
    chance: bool = False
    secrets: bool = False
    together: bool = False


MOST_CARDS = WinningRule("score", "cards")
FEWEST_PENALTY_CARDS = WinningRule("score", "penalty cards", fewest=True)
MOST_POINTS = WinningRule("score", "points")
GAMES_WON = WinningRule("wins", "wins", total=True)
SOLVED = WinningRule("solved")
ROUNDS_WON = WinningRule("score", "rounds")


@dataclass(frozen=True)
class GameSpec:
    """One playable game and mode (see the module text).

    Attributes:
        name: the name on the command line, in the config and in records.
        family, mode: the older ``--game`` / ``--mode`` pair it answers to.
        label: what the lobby shows.
        game: ``"module:Class"`` of the rules.
        house: the family's module of computer players, driver set-up, LED
            picture, headless line and seat views.
        min_seats, max_seats: the seat range (FX-12, SF-1, SL-6, CO-1).
        default_seats: seats when none are asked for (headless).
        demo_seats: seats ``focus-arcade demo`` fills when none are asked for
            (None: ``default_seats``).
        fixed: settings the entry sets (``x_rule``, ``variant``, ``mode``).
        options: the command-line options it takes (``OPTIONS``).
        aliases: older ``--mode`` spellings of this entry.
        winning: how its games are won and ranked (:class:`WinningRule`).
        score_range: the lowest and highest score one seat can have in a game of this
            entry, in the game's own unit (FocusX cards, FOCUS captured stones, points);
            the hall's leaderboard refuses a result outside it (kiosk/event/link.py).
        traits: races, chance, secrets, seats moving at once (:class:`Traits`).
    """

    name: str
    family: str
    mode: str
    label: str
    game: str
    house: str
    min_seats: int
    max_seats: int
    default_seats: int
    fixed: Mapping[str, Any] = field(default_factory=dict)
    options: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    demo_seats: int | None = None
    winning: WinningRule = MOST_CARDS
    score_range: tuple[float, float] = (0.0, 999.0)
    traits: Traits = Traits()

    # -- the rules ------------------------------------------------------------
    def game_class(self) -> type[Game]:
        """The rules' :class:`Game` class.

        Raises:
            SettingsError: the game's module is not built into this arcade.
        """
        module, cls = self.game.split(":")
        return getattr(_module(module, self), cls)  # type: ignore[no-any-return]

    def settings(self) -> dict[str, Setting]:
        """The settings a player may change (defaults, ranges), without ``fixed`` ones."""
        return {k: s for k, s in self.game_class().settings_spec.items() if k not in self.fixed}

    def make(self, seats: int | None = None, settings: Mapping[str, Any] | None = None) -> Game:
        """The game for ``seats`` (default ``default_seats``) with ``settings`` over ``fixed``.

        Raises:
            SettingsError: bad seats or settings (a fixed setting changed, too).
        """
        settings = dict(settings or {})
        for key, value in self.fixed.items():
            if key in settings and settings[key] != value:
                raise SettingsError(key, settings[key], f"{value!r} for {self.name} (or another entry)")
        return self.game_class()(self.default_seats if seats is None else seats, {**settings, **self.fixed})

    def new_state(self, seats: int | None = None, settings: Mapping[str, Any] | None = None) -> State:
        """A fresh state of :meth:`make`'s game."""
        return self.make(seats, settings).new_initial_state()

    def start_from(self, actions: Sequence[Mapping[str, Any]] = (), seats: int | None = None,
                   settings: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None, *,
                   game: Game | None = None, start: Callable[[Game], State] | None = None) -> State:
        """This entry started from these settings and options, with these actions replayed.

        The hook a game resumed after a power cut is rebuilt with
        (``kiosk/persist/resume.py``): the same game, at the same step, through the
        game's own ``apply`` (every action checked), as
        :func:`arcade.core.record.replay` rebuilds a record.

        Args:
            actions: ``[{"player": p, "action": {...}}, ...]``, as a record holds
                them (chance outcomes included).
            seats, settings: as :meth:`make`; ``options`` are the entry's
                command-line options (:attr:`options`: coop ``case``), which are
                settings of its game.  Not used when ``game`` is given.
            game: a game of this entry already made (a screen's, with its
                configuration's settings) to start instead.
            start: ``game -> State``, the position the actions start from
                (default the game's initial state; e.g. a FOCUS set-up position).

        Returns:
            The state after the last action.

        Raises:
            SettingsError: bad seats or settings, an option this entry does not
                take, or a ``game`` of another entry.
            RecordError: an action that does not replay (its index and the reason).

        >>> spec = get("focusx-classic")
        >>> first = spec.new_state(2)
        >>> first.apply(first.chance_outcome(random.Random(1)))
        >>> again = spec.start_from([{"player": int(p), "action": a.to_json()} for p, a in first.history], 2)
        >>> again.history == first.history
        True
        """
        from arcade.core.record import apply_actions
        if game is None:
            extra = dict(options or {})
            for key in extra:
                if key not in self.options:
                    raise SettingsError(key, extra[key], f"an option of {self.name}: one of {list(self.options)}"
                                        if self.options else f"no option: {self.name} takes none")
            game = self.make(seats, {**dict(settings or {}), **extra})
        elif type(game) is not self.game_class() or any(game.settings.get(k) != v for k, v in self.fixed.items()):
            raise SettingsError("game", getattr(game, "name", game), f"a game of {self.name}")
        state = game.new_initial_state() if start is None else start(game)
        apply_actions(state, list(actions))
        return state

    # -- what the house adds ---------------------------------------------------
    def house_module(self) -> House[State]:
        """The family's house (:class:`arcade.core.house.House`, imported on first use).

        Its functions take the family's own state class (``House[CoopState]``): this entry
        hands them only states of its own game (``start_from``, ``new_state``, the screens')."""
        return cast("House[State]", _module(self.house, self))

    def computer_player(self, state: State, seat: int, skill: str, ctx: PlayerContext) -> ComputerPlayer:
        """A computer player (``arcade.core.driver.ComputerPlayer``) for ``seat`` at ``skill``.

        Raises:
            SettingsError: an unknown skill for this game.
        """
        return self.house_module().computer_player(self, state, seat, skill, ctx)

    def computer_players(self, state: State, skills: list[str], ctx: PlayerContext) -> list[ComputerPlayer]:
        """One computer player per seat, made in seat order."""
        return [self.computer_player(state, s, skills[s], ctx) for s in range(state.seats)]

    def driver(self, state: State, players: Sequence[ComputerPlayer | None], rng: random.Random,
               **options: Unpack[DriverOptions]) -> Driver:
        """The match driver (``arcade.core.driver.Driver``) set up for this game.

        ``options`` are the pacing options (:class:`arcade.core.house.DriverOptions`:
        ``pace_ns``, ``ply_cap``...); each house reads its own.
        """
        return self.house_module().driver(self, state, players, rng, **options)

    def led_picture(self, state: State, width: int = 16, height: int = 16) -> Picture:
        """The LED matrix picture of ``state`` (``arcade.lights.pictures.Picture``)."""
        return self.house_module().led_picture(state, width, height)

    def summary(self, state: State, seed: int, index: int, skills: list[str]) -> JsonObject:
        """The JSON-able headless line of a finished (or capped) game."""
        return self.house_module().summary(self, state, seed, index, skills)

    def view(self, state: State, seat: int) -> JsonObject:
        """What ``seat`` may see of ``state`` (JSON-able): the others' secrets hidden."""
        return self.house_module().view(state, seat)

    def _extra(self, name: str) -> Callable[..., object] | None:
        """A house function only some houses have (``notice``, ``redeal_hidden``,
        ``option_settings``), or None."""
        fn: Callable[..., object] | None = getattr(_module(self.house, self), name, None)
        return fn

    def notice(self) -> str | None:
        """What a run of this game should warn about before it starts (its house's ``notice()``:
        Focus (2023) says when its partners fall back to the exhibits' tags), or None."""
        fn = self._extra("notice")
        return None if fn is None else cast("str | None", fn())

    def redeal_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """A copy of ``state`` where what ``seat`` cannot see is dealt again (for tests)."""
        fn = self._extra("redeal_hidden")
        return state.clone() if fn is None else cast(State, fn(state, seat, rng))

    def option_settings(self, option: str, value: object) -> dict[str, object]:
        """The game settings of a command-line option this entry takes (its house's
        ``option_settings``: coop ``case``).

        Raises:
            SettingsError: an option this entry does not take, or a bad value.
        """
        fn = self._extra("option_settings")
        if fn is None:
            raise SettingsError(option, value, f"no option: {self.name} takes none")
        return cast("dict[str, object]", fn(option, value))


def _module(path: str, spec: "GameSpec") -> ModuleType:
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as exc:
        if exc.name is None or not path.startswith(exc.name):
            raise
        raise SettingsError("game", spec.name, f"a game built into this arcade: the {spec.family} mode "
                            f"{spec.mode!r} is not built into this arcade yet ({path})") from None


def _focusx(mode: str, labels: tuple[str, str], cls: str, lo: int, hi: int, demo: int,
            winning: WinningRule = MOST_CARDS) -> tuple[GameSpec, GameSpec]:
    # labels: the mode's, without and with the FocusX rule (each marked whole for the translators)
    game = f"arcade.focusx.{cls}"
    # A seat's score is the cards it won: 0 to the 64 of the deck (arcade.focusx.cards.DECK_SIZE).
    # Shout races, a shuffled deck, cards a seat cannot see (the deck, the others' hands or
    # face-down piles: FX-1, FX-9, FX-11).
    traits = Traits(races=True, chance=True, secrets=True)
    plain = GameSpec(f"focusx-{mode}", "focusx", mode, labels[0], game, "arcade.focusx.house",
                     lo, hi, 4, demo_seats=demo, winning=winning, score_range=(0.0, 64.0), traits=traits)
    x = GameSpec(f"focusx-{mode}-x", "focusx", f"{mode}-x", labels[1], game,
                 "arcade.focusx.house", lo, hi, 4, fixed={"x_rule": True}, demo_seats=demo, winning=winning,
                 score_range=(0.0, 64.0), traits=traits)
    return plain, x


def _focus(variant: str, label: str, seats: int, name: str | None = None) -> GameSpec:
    # A seat's score is the stones it captured: at most the 52 of a four-player board.
    return GameSpec(name or f"focus-{variant}", "focus", variant, label, "arcade.sackson.game:SacksonGame",
                    "arcade.sackson.house", seats, seats, seats, fixed={"variant": variant}, winning=GAMES_WON,
                    score_range=(0.0, 52.0), traits=Traits())       # turns only, all in sight (SF-1)


def _coop(mode: str, label: str, aliases: tuple[str, ...] = ()) -> GameSpec:
    # The pair's points: at most the 84 cards (arcade.coop.exhibits.CARDS) in each of at most 10 rounds.
    return GameSpec(f"coop-{mode}", "coop", mode, label, "arcade.coop.game:CoopGame", "arcade.coop.house",
                    2, 2, 2, fixed={"mode": mode}, options=("case",), aliases=aliases,
                    winning=MOST_POINTS if "sherlock" in mode else SOLVED, score_range=(0.0, 840.0),
                    # deals; a seat's exhibits are its own (CO-5); both seats point at once (CO-5)
                    traits=Traits(chance=True, secrets=True, together=True))


#: Every entry, in the lobby's order.
SPECS: tuple[GameSpec, ...] = (
    *_focusx("classic", (N_("FocusX Classic"), N_("FocusX Classic + FocusX rule")), "classic:ClassicGame", 2, 8, 4),
    *_focusx("thinkfocus", (N_("FocusX ThinkFocus"), N_("FocusX ThinkFocus + FocusX rule")), "thinkfocus:ThinkFocusGame", 4, 6, 4),
    *_focusx("duel", (N_("FocusX Duel"), N_("FocusX Duel + FocusX rule")), "duel:DuelGame", 4, 8, 5, winning=FEWEST_PENALTY_CARDS),     # FX-10
    *_focusx("4focus", (N_("FocusX 4Focus"), N_("FocusX 4Focus + FocusX rule")), "fourfocus:FourFocusGame", 2, 4, 3),
    _focus("2p", N_("FOCUS (Sackson) 2 players"), 2),
    _focus("3p", N_("FOCUS 3 players"), 3),
    _focus("4p-teams", N_("FOCUS 4 players in teams"), 4),
    _focus("4p", N_("FOCUS 4 players, each alone"), 4),
    _focus("crossfire", N_("Crossfire (hex FOCUS)"), 2, name="crossfire"),
    GameSpec("sherlook", "sherlook", "classic", N_("Sherlook (spot the differences)"),
             "arcade.sherlook.game:SherlookGame", "arcade.sherlook.house", 2, 6, 4, winning=MOST_POINTS,
             # At most 6 points a round (the green token and both others, SL-4) in at most
             # 30 rounds and 50 extra rounds (the settings' limits).
             score_range=(0.0, 480.0),
             traits=Traits(races=True, chance=True)),       # marker races, each round's photos
    _coop("base", N_("Focus (2023)"), aliases=("classic",)),
    _coop("sherlock", N_("Focus (2023) Sherlock Mode")),
    _coop("mycroft", N_("Focus (2023) Mycroft Mode"), aliases=("mycroft-base",)),
    _coop("mycroft-sherlock", N_("Focus (2023) Mycroft + Sherlock rules")),
)


#: Entries kept in the tree only for the tests and ``docs/new-game.md`` (see the module
#: text): the example game, a race-only game for two (no chance node, no seat's move).
EXAMPLES: tuple[GameSpec, ...] = (
    GameSpec("buzzrace", "buzzrace", "first-to-5", N_("Buzz Race (example)"), "arcade.buzzrace.game:BuzzRaceGame",
             "arcade.buzzrace.house", 2, 2, 2, winning=ROUNDS_WON,
             # A seat's score is the rounds it won: at most the 9 of the ``wins`` setting's range.
             score_range=(0.0, 9.0), traits=Traits(races=True)),
)

_found: list[GameSpec] = []       # the examples the lookups find now (``examples()``)


def _entries() -> tuple[GameSpec, ...]:
    """What the lookups search: :data:`SPECS`, then the examples while ``examples()`` runs."""
    return SPECS + tuple(_found)


@contextmanager
def examples() -> Iterator[tuple[GameSpec, ...]]:
    """Let :func:`get`, :func:`resolve`, :func:`make` and :func:`winning_of` find the :data:`EXAMPLES` entries while the block runs (yields them); :data:`SPECS`,
    :func:`names` and :func:`families` (the lobby's list) never include them.

    >>> with examples():
    ...     get("buzzrace").label
    'Buzz Race (example)'
    >>> "buzzrace" in names()
    False
    """
    added = [s for s in EXAMPLES if s not in _found]
    _found.extend(added)
    try:
        yield EXAMPLES
    finally:
        for s in added:
            _found.remove(s)


def names() -> list[str]:
    """Every registry name, in the lobby's order."""
    return [s.name for s in SPECS]


def families() -> list[str]:
    """The families (the older ``--game`` values), in the lobby's order."""
    out: list[str] = []
    for s in SPECS:
        if s.family not in out:
            out.append(s.family)
    return out


def get(name: str) -> GameSpec:
    """The spec registered as ``name``.

    Raises:
        SettingsError: unknown name (the message lists the valid ones).
    """
    for s in _entries():
        if s.name == name:
            return s
    raise UnknownGameError(name)


def resolve(game: str | None, mode: str | None = None, *, variant: str | None = None,
            x_rule: bool = False) -> GameSpec:
    """The spec for a ``--game`` / ``--mode`` / ``--variant`` / ``--x-rule`` combination.

    ``game`` is a registry name (then ``mode`` may only repeat its mode) or a
    family (``focusx``, ``focus``, ``sherlook``, ``coop``); ``mode`` is the
    entry's mode (its first when None; ``duel-x`` and ``duel`` with
    ``x_rule`` are the same entry); ``variant`` is FOCUS's older word for
    ``mode`` (``crossfire`` included).

    Raises:
        SettingsError: an unknown game, mode or variant (the message lists the
            valid ones), ``--mode`` and ``--variant`` that disagree, or
            ``--x-rule`` for an entry without a FocusX-rule twin.
    """
    game = game or "focusx"
    if variant is not None:
        if mode is not None and mode != variant:
            raise SettingsError("mode", mode, f"the same variant as --variant {variant!r}, or only one of the two")
        mode = variant
    entries = _entries()
    by_name = [s for s in entries if s.name == game]
    if by_name:
        spec = by_name[0]
        if mode not in (None, "", spec.mode, *spec.aliases):
            if game == "crossfire":
                raise SettingsError("variant", mode, "'crossfire' (or nothing) with --game crossfire")
            raise SettingsError("mode", mode, f"nothing or {spec.mode!r} for --mode with --game {game}")
    else:
        in_family = [s for s in entries if s.family == game]
        if not in_family:
            raise UnknownGameError(game)
        if not mode:
            spec = in_family[0]
        else:
            found = [s for s in in_family if mode == s.mode or mode in s.aliases]
            if not found:
                raise SettingsError("mode", mode, f"one of {[s.mode for s in in_family]} for --game {game} "
                                    "(--mode)")
            spec = found[0]
    if x_rule and spec.fixed.get("x_rule") is not True:
        twin = [s for s in entries if s.name == spec.name + "-x"]
        if not twin:
            raise SettingsError("x_rule", True, f"off: --x-rule is the FocusX rule (FX-3); {spec.label} "
                                "has no FocusX-rule mode")
        spec = twin[0]
    return spec


def make(name: str, seats: int | None = None, settings: Mapping[str, Any] | None = None) -> Game:
    """Build a game by registry name or by a record's game name (``"focus"``, ``"coop"``...).

    This is the ``make_game`` of :func:`arcade.core.record.replay`.

    Raises:
        SettingsError: unknown name, bad seat count or bad settings.
    """
    for s in _entries():
        if s.name == name:
            return s.make(seats, settings)
    for s in _entries():      # a record's game name: the Game class's ``name`` (settings say the mode)
        if name == _record_name(s):
            return s.game_class()(s.default_seats if seats is None else seats, settings)
    raise SettingsError("game", name, f"one of {names()}")


def winning_of(name: str) -> WinningRule | None:
    """The winning rule of a registry name or of a record's game name (``"focusx-duel"``,
    ``"focus"``, ``"coop"``: the first entry that records under it), or None.

    >>> winning_of("focusx-duel").unit, winning_of("focusx-duel-x").fewest, winning_of("chess")
    ('penalty cards', True, None)
    """
    for s in _entries():
        if name in (s.name, _record_name(s)):
            return s.winning
    return None


def _record_name(spec: GameSpec) -> str:
    """The name a record of ``spec`` carries (``Game.name``: ``"focus"`` for every FOCUS variant)."""
    return {"focusx": spec.name.removesuffix("-x"), "focus": "focus", "coop": "coop"}.get(spec.family, spec.name)


# -- what the thinking process asks (kiosk/players/thinker.py; arcade.core.thinking) ---------------

def _family_house(family: str) -> ModuleType:
    """The house of ``family`` (its first entry's).

    Raises:
        SettingsError: no such family, or its house is not built into this arcade.
    """
    for s in SPECS:
        if s.family == family:
            return _module(s.house, s)
    raise SettingsError("family", family, f"one of {families()}")


def position_search(family: str) -> PositionSearch:
    """The family's :class:`~arcade.core.thinking.PositionSearch` (its house's ``SEARCH``):
    the positions the thinking process is sent as data and searches (``"focus"``).

    Raises:
        SettingsError: no such family, or a family without one (the families that have one named).

    >>> position_search("focus").cap_s("hard", 2000) > 0
    True
    """
    search = getattr(_family_house(family), "SEARCH", None) if family in families() else None
    if search is None:
        raise SettingsError("kind", family, f"one of {searching_families()}")
    return search  # type: ignore[no-any-return]


def searching_families() -> list[str]:
    """The families whose house has a :class:`~arcade.core.thinking.PositionSearch` (imports every house)."""
    return [f for f in families() if _has(f, "SEARCH")]


def thinking_player(name: str) -> ThinkingPlayerFn:
    """The computer player ``name`` (``"<family>-<player>"``: its house's ``THINKING_PLAYERS``),
    which the thinking process and the kiosk's own process both call.

    Raises:
        SettingsError: no house has a player of that name (the known names listed).

    >>> callable(thinking_player("focusx-place"))
    True
    """
    for family in sorted(families(), key=len, reverse=True):
        if name.startswith(family + "-"):
            players = getattr(_family_house(family), "THINKING_PLAYERS", {})
            if name in players:
                return players[name]  # type: ignore[no-any-return]
            break
    raise SettingsError("player", name, f"one of {thinking_players()}")


def thinking_players() -> list[str]:
    """Every computer player's name the thinking process knows (imports every house)."""
    out: list[str] = []
    for f in families():
        if _has(f, "THINKING_PLAYERS"):
            out.extend(_family_house(f).THINKING_PLAYERS)
    return sorted(out)


def _has(family: str, attr: str) -> bool:
    try:
        return getattr(_family_house(family), attr, None) is not None
    except SettingsError:        # a family not built into this arcade
        return False


def house_command(name: str) -> Callable[[list[str], Callable[[], float]], int] | None:
    """A command a game's house adds to ``focus-arcade`` (its ``COMMANDS``: FOCUS's ``perft``),
    ``(argv, clock) -> exit status`` (the rules read no clock: the caller gives one); None when
    no house has one of that name (every house is imported)."""
    for f in families():
        try:
            commands = getattr(_family_house(f), "COMMANDS", {})
        except SettingsError:        # a family not built into this arcade
            continue
        if name in commands:
            return commands[name]  # type: ignore[no-any-return]
    return None
