"""Sherlook on the core game API (seed 002; rulings SL-1..SL-6, R-1..R-8).

Flow of a game::

    CHANCE  Round(pose, scene_seed)     the round's green token (its pose, SL-2) and photos (SL-1)
    RACE    Take(seat, marker, ...)     a seat takes a marker (SL-3), settled by stamp
            TimeUp(seats)               the countdown ran out for these seats (SL-3)
    ...     when every player holds a marker or ran out of time, the round is
            scored (SL-4); after 10 rounds the game ends (SL-5): most points,
            then most green tokens, then extra rounds among the tied players.

The race itself (edges, highlight, cursors, countdown) is
:class:`arcade.sherlook.markers.MarkerReferee`; this state only checks and
records what it decides, so a game record replays exactly.

Arcade decisions where the seed and rulings are silent (docs/rules-sherlook.md):
  * SLA-4 the green tokens of the 10 rounds are the ten poses, each once,
    in random order; an extra round draws any pose at random.
  * SLA-5 extra rounds (SL-5) score as usual for the tied players only; the
    tied players' totals then decide again (points, then green tokens).  After
    ``max_extra_rounds`` extra rounds still tied, the tied players share the win.
  * SLA-6 red and yellow tokens never run out (the box has 10 of each; an
    extra round could need an eleventh).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Mapping

from arcade.core.api import CHANCE, RACE, TERMINAL, Action, Game, Outcome, Setting, State, player_name
from arcade.i18n import _, ngettext
from arcade.sherlook.markers import Take, TimeUp
from arcade.sherlook.photos import PhotoPair, generate_pair
from arcade.sherlook.poses import KEYS, Pose, pose
from arcade.sherlook.scoring import MARKERS, RoundScore, leaders, score_round


@dataclass(frozen=True)
class Round(Action):
    """Chance: the round's green token (its pose key, SL-2) and the scene seed of its photos (SL-1).

    Records before issue 21 named the pose ``"layout"``; :meth:`SherlookGame.action_from_json`
    still reads them."""

    pose: str
    scene_seed: int


@lru_cache(maxsize=16)
def photos_for(scene_seed: int) -> PhotoPair:
    """The photo pair of a scene seed (cached; generation is deterministic, SL-1)."""
    return generate_pair(scene_seed)


@dataclass(frozen=True)
class RoundRecord:
    """One finished round, as the results and the headless runner report it.

    Attributes:
        number: 1..10, then 11, 12... for extra rounds.
        extra: an extra round among tied players (SL-5).
        pose: the green token's pose key.
        scene_seed: the photos' seed.
        count: the number of differences.
        markers: seat -> marker held.
        timed_out: seats whose countdown ran out (SL-3).
        score: the tokens and points (SL-4).
    """

    number: int
    extra: bool
    pose: str
    scene_seed: int
    count: int
    markers: Mapping[int, int]
    timed_out: tuple[int, ...]
    score: RoundScore


class SherlookGame(Game):
    """Sherlook for 2 to 6 seats (SL-6), 10 rounds (SL-5)."""

    name = "sherlook"
    title = "Sherlook"
    min_seats = 2
    max_seats = 6
    settings_spec: ClassVar[Mapping[str, Setting]] = {
        "rounds": Setting(10, int, 1, 30, help="SL-5: rounds in a game (the seed: 10)"),
        "max_extra_rounds": Setting(5, int, 0, 50, help="SLA-5: extra rounds before a shared win"),
    }
    action_types = (Round, Take, TimeUp)

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        """Read back an action written by ``Action.to_json``; a ``Round`` saved before issue 21
        names its pose ``"layout"`` and is read as ``"pose"``.

        Raises:
            RecordError: unknown action type or fields.
        """
        if isinstance(data, Mapping) and data.get("type") == "Round" and "layout" in data and "pose" not in data:
            data = {("pose" if k == "layout" else k): v for k, v in data.items()}
        return super().action_from_json(data)

    def new_initial_state(self) -> "SherlookState":
        return SherlookState(self)


class SherlookState(State):
    """A position of Sherlook.  See the module docstring."""

    game: SherlookGame

    def __init__(self, game: SherlookGame) -> None:
        super().__init__(game)
        n = game.seats
        self.rounds_total: int = game.settings["rounds"]
        self.max_extra: int = game.settings["max_extra_rounds"]
        self.phase = "deal"                     # deal | race | over
        self.round_no = 0                       # rounds begun, extra rounds included
        self.extra_no = 0                       # extra rounds begun
        self.race_no = 0
        self.tokens_used: list[str] = []        # pose keys of the regular rounds so far (SLA-4)
        self.pose_key: str | None = None
        self.scene_seed: int | None = None
        self.count = 0
        self.participants: tuple[int, ...] = tuple(range(n))
        self.tied: tuple[int, ...] = ()
        self.markers: dict[int, int] = {}
        self.timed_out: set[int] = set()
        self.points = [0] * n
        self.greens = [0] * n
        self.yellows = [0] * n
        self.reds = [0] * n
        self.rounds: list[RoundRecord] = []
        self.result: Outcome | None = None

    # -- queries -----------------------------------------------------------------
    @property
    def pose(self) -> Pose | None:
        """How the current round's photos lie (its green token, SL-2), if a round is on."""
        return None if self.pose_key is None else pose(self.pose_key)

    @property
    def photos(self) -> PhotoPair | None:
        """The current round's photo pair, if a round is on."""
        return None if self.scene_seed is None else photos_for(self.scene_seed)

    @property
    def is_extra(self) -> bool:
        """The current round is an extra round among tied players (SL-5)."""
        return self.round_no > self.rounds_total

    def race_players(self) -> tuple[int, ...]:
        """The seats taking part in the current round's race."""
        return self.participants

    def race_markers(self) -> dict[int, int]:
        """Seat -> marker held in the current round."""
        return dict(self.markers)

    def waiting(self) -> tuple[int, ...]:
        """Players of this round still without a marker and in time."""
        return tuple(s for s in self.participants if s not in self.markers and s not in self.timed_out)

    def free_markers(self) -> list[int]:
        """Markers nobody holds this round."""
        held = set(self.markers.values())
        return [m for m in MARKERS if m not in held]

    @property
    def stats(self) -> dict[str, int]:
        """Game figures for the results screen."""
        return {"rounds": len(self.rounds), "extra rounds": self.extra_no,
                "exact guesses": sum(1 for r in self.rounds if r.score.green is not None),
                "time-outs": sum(len(r.timed_out) for r in self.rounds)}

    def scores(self) -> tuple[int, ...]:
        """Points per seat (green 3, yellow 2, red 1)."""
        return tuple(self.points)

    # -- API ---------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == "deal":
            return CHANCE
        if self.phase == "race":
            return RACE
        return TERMINAL

    def legal_actions(self, player: int | None = None) -> list[Action]:
        p = self.current_player() if player is None else player
        if p != self.current_player() or p in (TERMINAL, CHANCE):
            return []
        if p == RACE:
            out: list[Action] = [Take(s, m) for s in self.waiting() for m in self.free_markers()]
            if self.waiting():
                out.append(TimeUp(self.waiting()))
            return out
        return []

    def chance_outcome(self, rng: random.Random) -> Action:
        if self.phase != "deal":
            return super().chance_outcome(rng)
        if self.round_no < self.rounds_total:
            left = [k for k in KEYS if k not in self.tokens_used]
            key = rng.choice(left) if left else rng.choice(KEYS)
        else:
            key = rng.choice(KEYS)
        return Round(key, rng.randrange(1 << 31))

    def check(self, player: int, action: Action) -> str | None:
        cp = self.current_player()
        if player != cp:
            return f"it is {player_name(cp)}'s move, not {player_name(player)}'s"
        if isinstance(action, Round):
            if cp != CHANCE:
                return "no round is due"
            if action.pose not in KEYS:
                return f"unknown pose {action.pose!r}; expected one of {list(KEYS)}"
            if self.round_no < self.rounds_total and len(self.tokens_used) < len(KEYS) \
                    and action.pose in self.tokens_used:
                return f"the green token {action.pose!r} was already used this game (SLA-4)"
            if not isinstance(action.scene_seed, int) or isinstance(action.scene_seed, bool) \
                    or action.scene_seed < 0:
                return f"scene seed {action.scene_seed!r}: expected an int >= 0"
            return None
        if cp != RACE:
            return "no marker race is on"
        if isinstance(action, Take):
            if action.seat not in self.participants:
                return f"{player_name(action.seat)} is not playing this round"
            if action.seat in self.markers:
                return f"{player_name(action.seat)} already holds marker {self.markers[action.seat]} (binding, SL-3)"
            if action.seat in self.timed_out:
                return f"{player_name(action.seat)}'s countdown ran out (SL-3)"
            if action.marker not in MARKERS:
                return f"marker {action.marker!r}: expected 1..10"
            if action.marker not in self.free_markers():
                holder = next(s for s, m in self.markers.items() if m == action.marker)
                return f"marker {action.marker} is held by {player_name(holder)} (SL-3)"
            return None
        if isinstance(action, TimeUp):
            if not action.seats:
                return "no seats named"
            for s in action.seats:
                if s not in self.waiting():
                    return f"{player_name(s)} is not waiting for a marker"
            return None
        return "not a Sherlook action"

    def _apply(self, player: int, action: Action) -> None:
        if isinstance(action, Round):
            self._begin(action)
        elif isinstance(action, Take):
            self.markers[action.seat] = action.marker
            self._maybe_score()
        elif isinstance(action, TimeUp):
            self.timed_out.update(action.seats)
            self._maybe_score()

    # -- internals -----------------------------------------------------------------
    def _begin(self, r: Round) -> None:
        self.round_no += 1
        if self.round_no > self.rounds_total:
            self.extra_no += 1
            self.participants = self.tied
        else:
            self.participants = tuple(range(self.seats))
            self.tokens_used.append(r.pose)
        self.pose_key = r.pose
        self.scene_seed = r.scene_seed
        self.count = photos_for(r.scene_seed).count
        self.markers = {}
        self.timed_out = set()
        self.race_no += 1
        self.phase = "race"

    def _maybe_score(self) -> None:
        if self.waiting():
            return
        assert self.pose_key is not None and self.scene_seed is not None
        sc = score_round(self.count, self.markers, self.participants)
        for tally, holder in ((self.greens, sc.green), (self.yellows, sc.yellow), (self.reds, sc.red)):
            if holder is not None:
                tally[holder] += 1
        for s, p in sc.points.items():
            self.points[s] += p
        self.rounds.append(RoundRecord(self.round_no, self.round_no > self.rounds_total, self.pose_key,
                                       self.scene_seed, self.count, dict(self.markers),
                                       tuple(sorted(self.timed_out)), sc))
        if self.round_no < self.rounds_total:
            self.phase = "deal"
            return
        among = tuple(range(self.seats)) if self.round_no == self.rounds_total else self.tied
        lead = leaders(self.points, self.greens, among)
        if len(lead) == 1:
            self._finish(lead, self._reason(lead[0], among))
        elif self.extra_no >= self.max_extra:
            self._finish(lead, ngettext("still tied after {n} extra round: shared win (SLA-5)",
                                        "still tied after {n} extra rounds: shared win (SLA-5)",
                                        self.extra_no).format(n=self.extra_no))
        else:
            self.tied = lead
            self.phase = "deal"

    def _reason(self, winner: int, among: tuple[int, ...]) -> str:
        if self.extra_no:
            return (_("won the extra round ({n} points)") if self.extra_no == 1 else
                    _("won the extra rounds ({n} points)")).format(n=self.points[winner])
        others = [s for s in among if s != winner]
        best_other = max(self.points[s] for s in others) if others else -1
        if self.points[winner] > best_other:
            return _("most points ({n})").format(n=self.points[winner])
        return _("tied on {n} points; most green tokens ({greens})").format(n=self.points[winner],
                                                                            greens=self.greens[winner])

    def _finish(self, winners: tuple[int, ...], reason: str) -> None:
        self.result = Outcome(tuple(winners), reason, tuple(float(p) for p in self.points))
        self.phase = "over"
        self.tied = ()

    def outcome(self) -> Outcome | None:
        return self.result

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.phase, "round": self.round_no, "extra": self.extra_no, "race_no": self.race_no,
            "pose": self.pose_key, "scene_seed": self.scene_seed, "count": self.count,
            "participants": list(self.participants), "tied": list(self.tied),
            "markers": {str(s): m for s, m in sorted(self.markers.items())},
            "timed_out": sorted(self.timed_out), "tokens_used": list(self.tokens_used),
            "points": list(self.points), "greens": list(self.greens), "yellows": list(self.yellows),
            "reds": list(self.reds),
            "outcome": None if self.result is None else
            {"winners": list(self.result.winners), "reason": self.result.reason},
        }

