"""Buzz Race, the arcade's example game (``docs/new-game.md`` walks through it).

Two seats, one buzzer each.  Every round is a race: the screen shows GO, the
first buzzer press wins the round; the first seat to win ``wins`` rounds (5 by
default) wins the game.  A race nobody presses in is closed by the match driver
(its pace) and counts for nobody; after ``max_races`` races the seat with more
rounds wins (equal: a draw).

The game is *race-only*: there is no chance node and no seat ever moves; every
action is a :class:`~arcade.core.race.RaceResult` the judge
(:mod:`arcade.core.judge`, through the referee) builds from stamped presses::

    RACE      RaceResult(winners=(seat,), presses=...)   round won by ``seat``
    RACE      RaceResult(closed=True)                    nobody pressed in time
    ...
    TERMINAL  outcome(): winners, reason, scores = rounds won per seat

Presses tied within the judge's tie window (R-4) come as several ``winners`` in
press order, those with the very same stamp in an order drawn by chance (R-5);
the first of them takes the round.

Units: ``offset_us`` in a result's ``presses`` is microseconds after the race
opened (the flip of the frame that showed GO, R-2); :attr:`BuzzRaceState.rounds`
keeps the winning press's offset in milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from arcade.core.api import RACE, TERMINAL, Action, Game, Outcome, Setting, State, player_name
from arcade.core.race import FOCUS, RaceResult, RaceSpec, result_problem
from arcade.i18n import ngettext

#: Press statuses of a round's winner in a result's ``presses`` (``arcade.core.judge``).
WINNING_STATUSES = ("first", "tied")


@dataclass(frozen=True)
class Round:
    """One finished race.

    Attributes:
        winner: the seat that took it, or None (closed: nobody pressed in time).
        reaction_ms: the winning press's time after GO in ms (None when the result
            lists no presses, or nobody won).
        presses: every press of the race as the judge listed it: ``(seat, offset_us, status)``.
    """

    winner: int | None
    reaction_ms: float | None
    presses: tuple[tuple[int, int, str], ...] = ()


class BuzzRaceGame(Game):
    """Buzz Race for exactly two seats.

    Settings:
        wins: rounds a seat must win (1..9, default 5).
        max_races: races after which the game ends anyway (5..99, default 30).

    Raises:
        SettingsError: a seat count other than 2, an unknown setting or a value
            out of range (from :class:`~arcade.core.api.Game`).
    """

    name = "buzzrace"
    title = "Buzz Race"
    min_seats = 2
    max_seats = 2
    settings_spec: ClassVar[Mapping[str, Setting]] = {
        "wins": Setting(5, int, 1, 9, help="rounds a seat must win to win the game"),
        "max_races": Setting(30, int, 5, 99, help="races after which the game ends anyway"),
    }
    action_types = (RaceResult,)

    def new_initial_state(self) -> "BuzzRaceState":
        return BuzzRaceState(self)


class BuzzRaceState(State):
    """A position of Buzz Race.

    Attributes:
        race_no: the open race's number (1 for the first race); the referee opens a
            new race window whenever it changes (``arcade.core.referee.RacingState``).
        wins: rounds won per seat.
        rounds: every finished race, oldest first.
    """

    def __init__(self, game: BuzzRaceGame) -> None:
        super().__init__(game)
        self.race_no = 1
        self.wins = [0] * game.seats
        self.rounds: list[Round] = []
        self.result: Outcome | None = None

    # -- what the referee needs (arcade.core.referee.RacingState) ---------------------
    def race_spec(self) -> RaceSpec:
        """The open race: every seat may press; a buzzer press is always a right claim
        (``FOCUS`` is the judge's name for a plain claim), so the first press wins."""
        return RaceSpec(eligible=frozenset(range(self.seats)), valid_kinds=frozenset({FOCUS}), label="GO")

    # -- the game API -----------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.result is not None else RACE

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """At the race only its closing action (the judge builds winning results)."""
        p = self.current_player() if player is None else player
        if p != RACE or self.current_player() != RACE:
            return []
        return [RaceResult(closed=True)]

    def check(self, player: int, action: Action) -> str | None:
        """Why ``action`` by ``player`` is refused, or None.

        Refused: anything by a seat (a press reaches the game only through the judge);
        a result that is not well formed (:func:`arcade.core.race.result_problem`: a seat
        not at the table, a press stamped before the race opened...); a seat twice among
        the winners; a winner without a winning press when presses are listed; false
        shouts, penalties, last-to-press seats or the FocusX claim, which this game does
        not have; a result that neither names a winner nor closes the race.
        """
        if player != RACE:
            return (f"{player_name(player)} cannot act: a seat's press reaches the game only "
                    "through the judge, as the race's result")
        if not isinstance(action, RaceResult):
            return "not a Buzz Race action"
        problem = result_problem(action, self.seats)
        if problem is not None:
            return problem
        if len(set(action.winners)) != len(action.winners):
            return f"winners {action.winners!r}: a seat is among the winners twice"
        if action.kind != FOCUS:
            return f"kind {action.kind!r}: Buzz Race has only the plain press ({FOCUS!r})"
        if action.false_shouts or action.penalties or action.last:
            return "Buzz Race has no false presses, penalty presses or last-to-press races"
        if not action.decisive:
            return "a result names the round's winner or closes the race"
        if action.winners and action.closed:
            return "a race with a winner is not also closed without one"
        if action.winners and action.presses:
            first = action.winners[0]
            if not any(s == first and status in WINNING_STATUSES for s, _k, _t, status in action.presses):
                return f"{player_name(first)} has no winning press in the race's presses"
        return None

    def _apply(self, player: int, action: Action) -> None:
        assert isinstance(action, RaceResult)
        winner = action.winners[0] if action.winners else None
        rows = tuple((s, t, status) for s, _k, t, status in action.presses)
        reaction = next((t / 1000 for s, t, status in rows if s == winner and status in WINNING_STATUSES), None)
        self.rounds.append(Round(winner, reaction, rows))
        if winner is not None:
            self.wins[winner] += 1
        self._maybe_end()
        if self.result is None:
            self.race_no += 1

    def _maybe_end(self) -> None:
        need = self.game.settings["wins"]
        best = max(self.wins)
        leaders = tuple(s for s, w in enumerate(self.wins) if w == best)
        scores = tuple(float(w) for w in self.wins)
        races = len(self.rounds)
        if best >= need:
            self.result = Outcome(leaders, ngettext("first to {n} round", "first to {n} rounds", need).format(n=need),
                                  scores)
        elif races >= self.game.settings["max_races"]:
            if len(leaders) == 1:
                self.result = Outcome(leaders, ngettext("most rounds after {n} race", "most rounds after {n} races",
                                                        races).format(n=races), scores)
            else:
                self.result = Outcome((), ngettext("level after {n} race: a draw", "level after {n} races: a draw",
                                                   races).format(n=races), scores)

    def outcome(self) -> Outcome | None:
        return self.result

    def scores(self) -> tuple[int, ...]:
        """Rounds won per seat."""
        return tuple(self.wins)

    def snapshot(self) -> dict[str, Any]:
        """``{"race_no", "wins", "rounds": [[winner, reaction_ms, presses], ...], "over"}``."""
        return {"race_no": self.race_no, "wins": list(self.wins),
                "rounds": [[r.winner, r.reaction_ms, [list(p) for p in r.presses]] for r in self.rounds],
                "over": self.result is not None}
