"""What the arcade's house needs of Sherlook: computer players, the marker-race
adapter of the match driver, the LED picture, the headless line and a seat's view.

Registered for the ``sherlook`` entry of :mod:`arcade.registry`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Sequence, Unpack

from arcade.bots.sherlook import SherlookBot
from arcade.bots.sherlook import skill as skill_named
from arcade.core.api import RACE, Action, State
from arcade.core.driver import MS, ComputerPlayer, Driver, RaceAdapter, settings_from
from arcade.core.events import Edge
from arcade.core.house import DriverOptions, JsonObject
from arcade.sherlook.game import SherlookState
from arcade.sherlook.markers import MarkerRace, MarkerReferee, MarkerSettings

if TYPE_CHECKING:
    from arcade.lights.pictures import Picture
    from arcade.registry import GameSpec, PlayerContext

#: Virtual time between the end of a round and the next photos (ms).
REVEAL_MS = 6000


class MarkerRaces(RaceAdapter):
    """The match driver's race adapter over :class:`~arcade.sherlook.markers.MarkerReferee`."""

    def __init__(self, state: SherlookState, settings: MarkerSettings | None = None,
                 rng: random.Random | None = None) -> None:
        self.state = state
        self.referee: MarkerReferee = MarkerReferee(state, settings, rng)

    def apply(self, action: Action, player: int | None = None) -> None:
        self.state.apply(action, player)

    def race(self) -> MarkerRace | None:
        return self.referee.current()

    def waiting_for_flip(self) -> bool:
        if self.state.current_player() != RACE:
            return False
        r = self.referee.current()
        return r is None or r.opened_ns is None

    def wants_frame(self) -> bool:
        r = self.referee.current()
        return r is not None and r.countdown_wanted

    def opened(self, t_ns: int) -> None:
        return None

    def keep_pending(self, edge: Edge, opened_ns: int) -> bool:
        return False          # a new round: presses meant for the last photos are gone


class SherlookPlayer(ComputerPlayer):
    """A Sherlook computer player: looks at each round's photos and presses for a marker.

    One press at a time: a new press only ``hold_ns + 40 ms`` after the last.
    """

    def __init__(self, bot: SherlookBot, hold_ns: int = 90 * MS) -> None:
        self.bot = bot
        self.hold_ns = hold_ns
        self.pressed_at: int | None = None

    def race_opened(self, state: State, seat: int, race: object, opened_ns: int,
                    rng: random.Random) -> list[Edge]:
        self.pressed_at = None
        st = state
        if isinstance(st, SherlookState) and seat in st.participants:
            assert st.photos is not None and st.pose is not None
            self.bot.new_round(st.race_no, st.photos, st.pose)
        return []

    def next_press(self, state: State, seat: int, race: object, now_ns: int) -> int | None:
        if not isinstance(race, MarkerRace) or seat not in race.waiting():
            return None
        p = self.bot.next_press(race, now_ns)
        if p is None or (self.pressed_at is not None and p <= self.pressed_at + self.hold_ns + 40 * MS):
            return None
        return p

    def pressed(self, t_ns: int) -> None:
        self.pressed_at = t_ns


def computer_player(spec: GameSpec, state: SherlookState, seat: int, skill: str,
                    ctx: PlayerContext) -> SherlookPlayer:
    """The registry's factory; draws the bot's generator from ``ctx.rng`` (call in seat order).

    Raises:
        KeyError: an unknown skill.
    """
    return SherlookPlayer(SherlookBot(seat, skill_named(skill), random.Random(ctx.rng.getrandbits(64))))


def driver(spec: GameSpec, state: SherlookState, players: Sequence[ComputerPlayer | None], rng: random.Random,
           **options: Unpack[DriverOptions]) -> Driver:
    """The driver for a Sherlook match: the marker referee (``options["markers"]``, its
    generator drawn from ``rng`` now), ``reveal_ms`` (default :data:`REVEAL_MS`) between
    rounds, a computer's press held ``hold_ms`` (90) and delivered up to
    ``max_delivery_ms`` (8) late; ``max_steps`` 200 000 unless given."""
    markers = options.get("markers")
    reveal_ms = options.get("reveal_ms", REVEAL_MS)
    hold_ms = options.get("hold_ms", 90)
    max_delivery_ms = options.get("max_delivery_ms", 8)
    races = MarkerRaces(state, markers or MarkerSettings(), random.Random(rng.getrandbits(64)))

    def pause(st: State) -> int:
        return reveal_ms * MS if isinstance(st, SherlookState) and st.round_no else 0

    settings = settings_from(options, pace_ns=None, hold_ns=hold_ms * MS, max_delivery_ns=max_delivery_ms * MS,
                             max_steps=options.get("max_steps", 200_000), chance_pause=pause)
    return Driver(state, players, rng, settings, races=races)


def led_picture(state: SherlookState, width: int = 16, height: int = 16) -> Picture:
    """The points of the seats (``arcade.lights.pictures.scores_picture``)."""
    from arcade.lights.pictures import scores_picture
    return scores_picture(list(state.points), width, height)


def summary(spec: GameSpec, state: SherlookState, seed: int, index: int, skills: list[str]) -> JsonObject:
    """The headless line (see ``kiosk/players/headless.py``)."""
    out = state.outcome()
    assert out is not None
    return {
        "game": "sherlook", "seed": seed, "index": index, "players": state.seats,
        "winners": [w + 1 for w in out.winners], "points": list(state.points),
        "greens": list(state.greens), "yellows": list(state.yellows), "reds": list(state.reds),
        "rounds": len(state.rounds), "extra_rounds": state.extra_no,
        "counts": [r.count for r in state.rounds],
        "timeouts": sum(len(r.timed_out) for r in state.rounds), "reason": out.reason,
    }


def view(state: SherlookState, seat: int) -> JsonObject:
    """Sherlook has no secrets: both photos and every marker are on the table (SL-1)."""
    return state.snapshot()
