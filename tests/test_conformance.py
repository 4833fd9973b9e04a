"""One conformance suite over the whole game registry (``arcade.registry.SPECS``) and the
example game kept for the tests and docs/new-game.md (``arcade.registry.EXAMPLES``: Buzz
Race, a race-only game: no chance node, no seat's move).

Every entry is covered without a test written for it: a new registry line is
checked here as soon as it exists.  For each entry:

* random play (random legal moves, random presses) by the match driver ends
  from several seeds without an exception;
* an illegal action (out of turn, a chance outcome claimed by a seat, a race's
  result given by a seat, any action after the end) raises ``IllegalActionError``
  and changes nothing;
* an illegal race result (a seat not at the table or not in the race, a seat given
  as ``True``, a winner twice, an unknown claim kind, a press stamped before the
  race opened, a malformed press row, a result where no race is open...) raises
  ``IllegalActionError`` and changes nothing, in every game, with or without races;
* record -> JSON -> replay gives the identical final state, also for a game
  started from a set-up position (the core replay's ``start``);
* what a seat may see (``spec.view``) does not change when what it must not
  see (the others' hands, the deck's order, the partner's exhibits) is dealt
  again, and is JSON data;
* ``headless`` for the entry is deterministic per seed;
* ``demo`` and ``headless`` accept the entry's name, and the lobby lists it (the
  registry's entries only: the example is never offered).
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest

from arcade import registry
from arcade.core.api import CHANCE, RACE, Action, State
from arcade.core.driver import MS, ComputerPlayer, Driver, DriverSettings
from arcade.core.errors import IllegalActionError
from arcade.core.events import Edge
from arcade.core.race import FOCUS, RaceResult, RaceSpec
from arcade.core.record import replay, to_record
from arcade.registry import GameSpec

SPECS = registry.SPECS
IDS = [s.name for s in SPECS]
#: The registry's entries and the example game (the rules-level tests run on both).
ENTRIES = registry.SPECS + registry.EXAMPLES
ENTRY_IDS = [s.name for s in ENTRIES]
SEEDS = (1, 2, 3)


@pytest.fixture(autouse=True)
def _examples_found() -> Any:
    """The registry's lookups (records, replay, ``get``) find the example entry here."""
    with registry.examples():
        yield


class RandomPlayer(ComputerPlayer):
    """Random legal moves at its turn; random presses in races (any control, any time)."""

    think_ns = 40 * MS

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return self.rng.choice(state.legal_actions(seat))

    def race_opened(self, state: State, seat: int, race: Any, opened_ns: int,
                    rng: random.Random) -> list[Edge]:
        if not isinstance(race, RaceSpec):
            return []
        out: list[Edge] = []
        for _ in range(self.rng.choice((0, 0, 1, 1, 2))):
            t = opened_ns + self.rng.randint(-50, 3000) * MS
            control = self.rng.choice(("buzzer", "buzzer", "x", "ok"))
            out += [Edge(t, seat, control, True), Edge(t + self.rng.randint(5, 200) * MS, seat, control, False)]
        return out

    def next_press(self, state: State, seat: int, race: Any, now_ns: int) -> int | None:
        if isinstance(race, RaceSpec) or race is None or self.rng.random() < 0.3:
            return None
        return now_ns + self.rng.randint(150, 1500) * MS


def random_match(spec: GameSpec, seed: int, seats: int | None = None,
                 probe: Any = None) -> tuple[State, Driver]:
    state = spec.new_state(seats)
    rng = random.Random(f"conformance-{spec.name}-{seed}")
    players = [RandomPlayer(f"{spec.name}-{seed}-{s}") for s in range(state.seats)]
    driver = spec.driver(state, players, rng)
    if probe is not None:
        cap = driver.settings.stop
        driver.settings.stop = lambda st: bool(probe(st)) or (cap is not None and cap(st))
    driver.settings.max_steps = 60_000
    return state, driver


def assert_led_picture(spec: GameSpec, state: State, width: int, height: int) -> None:
    """The entry's LED picture of ``state``: ``height`` rows of ``width`` RGB colours."""
    picture = spec.led_picture(state, width, height)
    assert len(picture) == height and all(len(row) == width for row in picture)
    assert all(len(c) == 3 and all(0 <= v <= 255 for v in c) for row in picture for c in row)


def snap(state: State) -> str:
    return json.dumps(state.snapshot(), sort_keys=True, default=str)


@pytest.mark.parametrize("spec", ENTRIES, ids=ENTRY_IDS)
def test_random_play_ends_without_an_exception(spec: GameSpec) -> None:
    for seed in SEEDS:
        seats = spec.min_seats if seed % 2 else spec.max_seats
        state, driver = random_match(spec, seed, seats)
        assert_led_picture(spec, state, 16, 16)
        driver.run_to_end()
        assert_led_picture(spec, state, 8, 12)
        if state.is_terminal():
            out = state.outcome()
            assert out is not None and set(out.winners) <= set(range(state.seats))
        else:                                        # stopped by the entry's own cap (FOCUS ply cap)
            assert driver.settings.stop is not None and driver.settings.stop(state)


def refused(state: State, action: Action, player: int) -> None:
    """``action`` by ``player`` raises ``IllegalActionError`` and changes nothing."""
    before, hist = snap(state), len(state.history)
    with pytest.raises(IllegalActionError):
        state.apply(action, player)
    assert snap(state) == before and len(state.history) == hist, f"{action!r} changed the game"


@pytest.mark.parametrize("spec", ENTRIES, ids=ENTRY_IDS)
def test_an_illegal_action_is_refused_and_changes_nothing(spec: GameSpec) -> None:
    checked = {"seat": 0, "chance": 0, "race": 0}

    def probe(state: State) -> bool:
        cp = state.current_player()
        if len(state.history) % 3:
            return False
        if cp >= 0 and state.seats > 1:
            other = (cp + 1) % state.seats
            theirs = state.legal_actions(other)      # (Focus (2023): both point at once, CO-5)
            legal = [a for a in state.legal_actions(cp) if a not in theirs]
            if legal:
                refused(state, legal[0], other)                         # out of turn
                checked["seat"] += 1
        elif cp == CHANCE:
            refused(state, state.chance_outcome(random.Random(0)), 0)   # a seat cannot deal
            checked["chance"] += 1
        elif cp == RACE:
            for action in state.legal_actions(RACE)[:2]:
                refused(state, action, state.seats - 1)                 # a seat cannot end the race
                checked["race"] += 1
        return False

    state, driver = random_match(spec, 1, probe=probe)
    driver.run_to_end()
    assert sum(checked.values()) > 0, "no illegal action was offered"
    if state.is_terminal():
        last_player, last = state.history[-1]
        refused(state, last, last_player)                               # nothing after the end


def illegal_race_results(state: State) -> list[tuple[str, RaceResult]]:
    """Race results no judge gives for ``state``'s race, each with what is wrong with it."""
    n = state.seats
    press = (0, FOCUS, 1000, "first")                       # P1's press, 1 ms after the opening
    out = [
        ("a seat not at the table", RaceResult(winners=(n,), presses=((n, FOCUS, 1000, "first"),))),
        ("a negative seat", RaceResult(winners=(-1,))),
        ("a seat given as True", RaceResult(winners=(True,))),
        ("a winner twice", RaceResult(winners=(0, 0), presses=(press, (0, FOCUS, 1000, "tied")))),
        ("an unknown claim kind", RaceResult(winners=(0,), kind="nonsense", presses=(press,))),
        ("a press stamped before the race opened", RaceResult(winners=(0,), presses=((0, FOCUS, -5000, "first"),))),
        ("a malformed press row", RaceResult(winners=(0,), presses=((0, FOCUS, "soon", "first"),))),
        ("a false shout by a seat not at the table", RaceResult(false_shouts=(n,), closed=True)),
        ("a late press by a seat not at the table", RaceResult(late=(n + 2,), closed=True)),
        ("a drawn order of seats that did not win", RaceResult(winners=(0,), drawn=(1,), presses=(press,))),
        ("a count of extra presses that is not a count", RaceResult(closed=True, more=((0, 0),))),
        ("closed given as a word", RaceResult(closed="yes")),
    ]
    spec = getattr(state, "race_spec", None)
    if callable(spec) and state.current_player() == RACE:
        race: RaceSpec = spec()
        outside = sorted(set(range(n)) - race.eligible - race.exempt)
        kinds = sorted(race.valid_kinds)
        if outside and kinds and race.mode != "last":
            s = outside[0]
            out.append(("a winner who is not in the race",
                        RaceResult(winners=(s,), kind=kinds[0], presses=((s, kinds[0], 1000, "first"),))))
    return out


@pytest.mark.parametrize("spec", ENTRIES, ids=ENTRY_IDS)
def test_an_illegal_race_result_is_refused_and_changes_nothing(spec: GameSpec) -> None:
    """Every game is offered race results no judge would give (a damaged record, a bad caller):
    each raises ``IllegalActionError`` and the game is unchanged, at a race and elsewhere; a
    result given by a seat instead of the race is refused too."""
    offered = {"race": 0, "elsewhere": 0}

    def probe(state: State) -> bool:
        if len(state.history) % 2:
            return False
        cp = state.current_player()
        for what, result in illegal_race_results(state):
            try:
                refused(state, result, RACE)
            except BaseException as exc:
                raise AssertionError(f"{spec.name} took {what}: {result!r}") from exc
        refused(state, RaceResult(closed=True), 0)                       # by a seat
        if cp == RACE:
            offered["race"] += 1
        else:
            refused(state, RaceResult(closed=True), RACE)                # no race is open
            offered["elsewhere"] += 1
        return False

    state, driver = random_match(spec, 2, probe=probe)
    driver.run_to_end()
    assert sum(offered.values()) > 0
    if RaceResult in state.game.action_types:
        assert offered["race"] > 0, "no race was open when the results were offered"


def _replays(spec: GameSpec, state: State, start: Any = None) -> None:
    record = to_record(state, seed=1, entry=spec.name)
    text = json.dumps(record)
    again = replay(json.loads(text), registry.make, start=start)
    assert snap(again) == snap(state)
    assert again.outcome() == state.outcome()
    by_name = replay({**json.loads(text), "game": spec.name}, registry.make, start=start)
    assert snap(by_name) == snap(state)                       # a record may name the game by its entry


@pytest.mark.parametrize("spec", ENTRIES, ids=ENTRY_IDS)
def test_record_replays_to_the_identical_state(spec: GameSpec) -> None:
    state, driver = random_match(spec, 2)
    driver.run_to_end()
    _replays(spec, state)


@pytest.mark.parametrize("spec", ENTRIES, ids=ENTRY_IDS)
def test_record_from_a_set_up_position_replays(spec: GameSpec) -> None:
    """A game started from a position (here: one reached by play), recorded from there.  The
    position is 8 actions in, or half-way through a game shorter than 16 actions (a short game,
    Nim-like, may be over by then)."""
    whole, driver = random_match(spec, 3)
    driver.run_to_end()
    at = min(8, len(whole.history) // 2)

    def stop_early(st: State) -> bool:
        return len(st.history) >= at

    state, driver = random_match(spec, 3, probe=stop_early)
    driver.run_to_end()
    position = state.clone()
    position.history = []                   # the set-up position: the record starts here
    frozen = position.clone()
    players = [RandomPlayer(f"set-up-{s}") for s in range(position.seats)]
    rest = spec.driver(position, players, random.Random(4))
    rest.settings.max_steps = 60_000
    rest.run_to_end()
    assert position.history, "the game went on from the set-up position"
    _replays(spec, position, start=lambda game: _fresh(frozen, game))


def _fresh(position: State, game: Any) -> State:
    copy = position.clone()
    copy.game = game
    return copy


@pytest.mark.parametrize("spec", ENTRIES, ids=ENTRY_IDS)
def test_a_seat_sees_nothing_of_the_others_secrets(spec: GameSpec) -> None:
    rng = random.Random(5)
    looked = {"n": 0, "hidden": 0, "at": -1}

    def probe(state: State) -> bool:
        n = len(state.history)
        if n == looked["at"] or n % 3 or state.current_player() == CHANCE:
            return False
        looked["at"] = n
        for seat in sorted({0, state.seats - 1}):
            seen = spec.view(state, seat)
            json.dumps(seen, default=str)
            other = spec.redeal_hidden(state, seat, rng)
            assert spec.view(other, seat) == seen, f"seat {seat + 1} can see what was dealt again"
            if snap(other) != snap(state):
                looked["hidden"] += 1
            looked["n"] += 1
        return False

    state, driver = random_match(spec, 1, probe=probe)
    driver.run_to_end()
    assert looked["n"] > 0
    if hasattr(spec.house_module(), "redeal_hidden"):       # a game with secrets
        assert looked["hidden"] > 0, "the test dealt nothing again: it would not notice a leak"


@pytest.mark.parametrize("spec", ENTRIES, ids=ENTRY_IDS)
def test_the_declared_traits_are_what_play_shows(spec: GameSpec) -> None:
    """An entry's ``traits`` (races, chance, secrets, seats moving at once) say what a game of
    it does: a race, a deal, a view that hides part of the table are each seen in play exactly
    when declared; seats moving at once are declared exactly when the driver asks who moves
    (``movers``), and two seats asked at once in play are declared."""
    seen = {"races": False, "chance": False, "secrets": False, "together": False}

    def probe(state: State) -> bool:
        cp = state.current_player()
        seen["races"] |= cp == RACE
        seen["chance"] |= cp == CHANCE
        if cp >= 0:
            movers = driver.settings.movers
            seen["together"] |= movers is not None and len(movers(state)) > 1
            for seat in range(state.seats):
                seen["secrets"] |= json.dumps(spec.view(state, seat), sort_keys=True, default=str) != snap(state)
        return False

    state, driver = random_match(spec, 2, probe=probe)
    driver.run_to_end()
    declared = {k: getattr(spec.traits, k) for k in seen}
    if declared["together"] and not seen["together"]:       # a game may end before both point
        seen["together"] = driver.settings.movers is not None
    assert seen == declared, f"{spec.name}: declared {declared}, play shows {seen}"
    assert hasattr(spec.house_module(), "redeal_hidden") == spec.traits.secrets


def _headless_lines(spec: GameSpec, seed: int) -> str:
    from kiosk.players.headless import run_spec
    out = io.StringIO()
    skills = ["easy"] * spec.min_seats
    run_spec(spec, spec.min_seats, 1, seed, skills, out, ply_cap=120)
    return out.getvalue()


@pytest.mark.parametrize("spec", ENTRIES, ids=ENTRY_IDS)
def test_headless_is_deterministic_per_seed(spec: GameSpec) -> None:
    first = _headless_lines(spec, 7)
    assert first == _headless_lines(spec, 7)
    line = json.loads(first)
    assert line["seed"] == 7 and line["index"] == 0 and line["players"] == spec.min_seats


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_demo_headless_and_the_lobby_take_the_name(spec: GameSpec, capsys: pytest.CaptureFixture[str]) -> None:
    from kiosk import cli
    from kiosk.players.demo import demo_game
    from kiosk.scenes.lobby import lobby_games
    game, players = demo_game(cli._parser().parse_args(["demo", "--game", spec.name]))
    assert game.name == spec.name and game.label == spec.label
    assert spec.min_seats <= players <= spec.max_seats
    assert spec.name in [g.name for g in lobby_games()]
    assert cli.main(["headless", "--game", spec.name, "--games", "0"]) == 0
    assert capsys.readouterr().err == ""
    # The older spelling (family and mode) names the same entry.
    assert demo_game(cli._parser().parse_args(["demo", "--game", spec.family, "--mode", spec.mode]))[0].name \
        == spec.name


def test_the_lobby_lists_exactly_the_registry_in_its_order() -> None:
    from kiosk.scenes.lobby import lobby_games
    assert [g.name for g in lobby_games()] == registry.names()


def test_an_unknown_name_lists_the_valid_ones(capsys: pytest.CaptureFixture[str]) -> None:
    from kiosk import cli
    assert cli.main(["headless", "--game", "focusx-speedy"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'focusx-speedy'" in err and all(n in err for n in registry.names())
    assert cli.main(["--frames", "1", "demo", "--game", "focusx-speedy"]) == 2
    said = capsys.readouterr().out                   # the demo says it where its other refusals go
    assert "focusx-speedy" in said and "focusx-duel-x" in said


@pytest.mark.parametrize("argv, name", [
    (["--game", "focusx", "--mode", "classic", "--x-rule"], "focusx-classic-x"),
    (["--game", "focusx", "--mode", "duel-x"], "focusx-duel-x"),
    (["--game", "focus", "--variant", "3p"], "focus-3p"),
    (["--game", "crossfire"], "crossfire"),
    (["--game", "focus", "--mode", "crossfire"], "crossfire"),
    (["--game", "coop", "--mode", "sherlock", "--case", "hound"], "coop-sherlock"),
    (["--game", "coop", "--mode", "classic"], "coop-base"),
    (["--game", "sherlook"], "sherlook"),
])
def test_the_spellings_users_have_map_to_registry_names(argv: list[str], name: str) -> None:
    from kiosk import cli
    from kiosk.players.headless import spec_of
    assert spec_of(cli._parser().parse_args(["headless", *argv])).name == name


def test_a_driver_is_one_object_for_virtual_time_and_for_the_frame_loop() -> None:
    """The kiosk's step-by-step use of the driver plays the same game as ``run_to_end``."""
    spec = registry.get("focusx-classic")
    results = []
    for stepwise in (False, True):
        state = spec.new_state(3)
        rng = random.Random("same")
        ctx = registry.PlayerContext(rng, "same")
        driver = spec.driver(state, spec.computer_players(state, ["hard"] * 3, ctx), rng)
        if not stepwise:
            driver.run_to_end()
        else:
            now = 0
            while not state.is_terminal() and now < 10**13:
                driver.tick(now)
                if state.current_player() == RACE:
                    driver.frame_shown(now)
                due = driver.next_due()
                now = max(now + 1, due if due is not None else now + 16_666_667)
        assert state.is_terminal()
        results.append(state.outcome())
    assert all(r is not None for r in results)


def test_a_person_moves_through_submit_and_an_illegal_move_changes_nothing() -> None:
    spec = registry.get("focus-2p")
    state = spec.new_state()
    rng = random.Random(1)
    driver = Driver(state, [None, spec.computer_player(state, 1, "easy", registry.PlayerContext(rng))], rng,
                    DriverSettings(pace_ns=None))
    move = state.legal_actions(0)[0]
    before = snap(state)
    with pytest.raises(IllegalActionError):
        driver.submit(1, move)                        # not seat 2's turn
    assert snap(state) == before
    driver.submit(0, move)
    assert state.current_player() == 1 and driver.next_due() is not None
    driver.tick(driver.next_due() or 0)                # the computer's move is due: it is made
    assert state.current_player() == 0 and len(state.history) == 2


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_the_config_and_check_config_take_the_name(spec: GameSpec, tmp_path: Any,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from kiosk import cli
    from kiosk import config as configmod
    path = tmp_path / "arcade.toml"
    path.write_text(f'[lobby]\ngames = ["{spec.name}"]\n')
    assert configmod.load(str(path))["lobby"]["games"] == [spec.name]
    assert cli.main(["check-config", str(path)]) == 0
    path.write_text(f'[lobby]\ngames = ["{spec.name}", "{spec.name}-nonsense"]\n')
    assert cli.main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{spec.name}-nonsense" in err and all(n in err for n in registry.names())


def test_the_lobby_offers_the_configured_games_in_their_order() -> None:
    from kiosk.scenes.lobby import lobby_games, offered
    every = lobby_games()
    assert [g.name for g in offered(every, ["crossfire", "focusx-duel-x"])] == ["crossfire", "focusx-duel-x"]
    assert offered(every, []) == every


# The older spellings users type work the same in demo as in headless (issue 9): demo used to
# answer "unrecognized arguments: --variant 3p" / "--case hound" with argparse's usage text.
@pytest.mark.parametrize("argv, name", [
    (["--game", "focus", "--variant", "3p"], "focus-3p"),
    (["--game", "focus", "--variant", "crossfire"], "crossfire"),
    (["--game", "coop", "--mode", "sherlock", "--case", "hound"], "coop-sherlock"),
    (["--game", "focusx", "--mode", "duel-x"], "focusx-duel-x"),
    (["--game", "crossfire"], "crossfire"),
])
def test_demo_and_headless_take_the_same_older_spellings(argv: list[str], name: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from kiosk import cli
    from kiosk.players.demo import demo_game
    assert demo_game(cli._parser().parse_args(["demo", *argv]))[0].name == name
    assert cli.main(["headless", *argv, "--games", "0"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("argv, words", [
    (["--game", "sherlook", "--case", "hound"], "--case is for --game coop"),
    (["--game", "sherlook", "--variant", "3p"], "no variant"),
])
def test_demo_refuses_another_games_option_like_headless(argv: list[str], words: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from kiosk import cli
    assert cli.main(["--frames", "3", "demo", *argv]) == 2
    out = capsys.readouterr()
    assert words in out.out + out.err and "Traceback" not in out.out + out.err
