"""A person who walks away mid-game is not waited for forever.

When a game waits for a person's move (``state.current_player()`` is a seat
played by a person) and that seat's station has given no edge for
``[idle] turn_s`` seconds, a computer player takes the seat: its
:class:`~kiosk.scenes.seats.SeatInfo` is swapped for a computer's (label
"away: computer plays", short enough for every game's seat panel), so every scene that asks ``seats[cp].is_computer``
lets its computer player move, and the screen says so.  Any press from the
seat's own station gives the seat back at once.  A scene with its own
``take_over(seat, back: bool)`` method is called instead of the swap.  A scene
on the match driver (``scene.driver``, FocusX) also gets the driver's player for
the seat from its own ``driver_seats()``, so the driver moves for it.

**An empty room** (issue 20): when no person's seat of the game on screen has given an
edge the game took for the scene's ``empty_room_ns(turn_ns)`` (twice ``turn_s``; Sherlook,
which has no turns to take over: two rounds' time), everyone has left: the game is put away
(as "Leave this game?" does: no result, no resume offer) and the title screen, with its
attract loop, comes back.  Before, the games played on for nobody: a Sherlook game all ten
rounds and its tie rounds at 0-0 (24 minutes), FocusX its whole deck (7 minutes), FOCUS and
Focus (2023) with computers in every seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, Sequence, runtime_checkable

from arcade.core.events import Edge
from arcade.i18n import N_, _, seconds
from kiosk.scenes.seats import SeatInfo

if TYPE_CHECKING:
    from kiosk.config import Config
    from kiosk.scene import Scene

#: The label of a seat a computer plays for an absent person: the seat panels of the FOCUS and
#: Sherlook screens show at most 20 characters of a label ("computer for P1 (awa" was cut).
#: Translated when the seat is taken (the seat's label is in the language spoken then).
AWAY_LABEL = N_("away: computer plays")
#: Shorter wordings of :data:`AWAY_LABEL` for a narrow seat panel, clearest first (issue 20:
#: squeezed to 57 % beside "P1" on a 480x320 FOCUS card).
AWAY_SHORTER = (N_("away: computer"), N_("away"))


def label_wordings(label: str) -> tuple[str, ...]:
    """A seat's station label and its shorter wordings, clearest first, for
    :func:`kiosk.render.text_best` (only :data:`AWAY_LABEL` has shorter ones, in the language
    spoken now)."""
    if label in (AWAY_LABEL, _(AWAY_LABEL)):
        return (_(AWAY_LABEL),) + tuple(_(w) for w in AWAY_SHORTER)
    return (label,)


class AwayApp(Protocol):
    """What :class:`AwayWatch` uses of the app (``kiosk.app.loop.App``)."""

    @property
    def cfg(self) -> Config: ...

    @property
    def scenes(self) -> Sequence[Scene]: ...

    @property
    def attract_demo(self) -> bool: ...

    def message(self, text: str, seconds: float = 12.0, topic: str = "") -> None: ...

    def is_game(self, scene: Scene | None) -> bool: ...

    def station_accepts(self, station: str, edge: Edge) -> bool: ...


class _Turns(Protocol):
    def current_player(self) -> object: ...


@runtime_checkable
class AwayScene(Protocol):
    """What :class:`AwayWatch` reads of a game on screen (``kiosk.scenes.game.GameScene``):
    its seats, its state's player to move, when it ended (None: not yet), how long an empty
    room waits (ns), and how it is put away."""

    seats: list[SeatInfo]
    over_at: int | None

    @property
    def state(self) -> _Turns: ...

    def empty_room_ns(self, turn_ns: int) -> int: ...

    def leave(self) -> None: ...


@runtime_checkable
class TakesOver(Protocol):
    """A game screen that hands a seat to the computer and back itself."""

    def take_over(self, seat: int, back: bool) -> None: ...


@runtime_checkable
class _SeatsPlayers(Protocol):
    """A game screen whose match driver's players follow its seats (``driver_seats``)."""

    @property
    def driver(self) -> object: ...

    def driver_seats(self) -> Sequence[object]: ...


@runtime_checkable
class _SetsPlayer(Protocol):
    def set_player(self, seat: int, player: object) -> None: ...


class AwayWatch:
    """Watches the game on screen for seats whose person has gone."""

    def __init__(self, app: AwayApp) -> None:
        self.app = app
        self.turn_ns = int(app.cfg.data.get("idle", {}).get("turn_s", 45) * 1e9)
        self.last_input: dict[int, int] = {}
        # seat -> its last presses: (press ns, last_input before it), to undo refused ones
        self.presses: dict[int, list[tuple[int, int]]] = {}
        self.waiting: tuple[int, int] | None = None        # (seat, since ns)
        self.away: dict[int, SeatInfo] = {}                # seat -> the person's SeatInfo
        self.scene: AwayScene | None = None
        self.scene_since = 0                               # when the scene on screen came (ns)

    def clear(self) -> None:
        self.away.clear()
        self.waiting = None
        self.scene = None

    def saw(self, edge: Edge, accepted_by: object = None) -> None:
        """A person's edge: that seat is here (and gets its seat back if it was away).

        Args:
            edge: the edge.
            accepted_by: the app when the screen took the edge, None when it refused it
                (a station the seat is not played from: such a press is no presence).  An
                away seat is given back to a press from the person's own station.
        """
        if edge.seat in self.away and self.scene is not None:
            own = self.away[edge.seat].station
            if accepted_by is None and not self.app.station_accepts(own, edge):
                return
            self.last_input[edge.seat] = edge.t_ns
            self._give_back(edge.seat)
            return
        if accepted_by is not None:
            if edge.pressed:
                kept = self.presses.setdefault(edge.seat, [])
                kept.append((edge.t_ns, self.last_input.get(edge.seat, 0)))
                del kept[:-8]
            self.last_input[edge.seat] = edge.t_ns

    def refused(self, seat: int, since_ns: int) -> None:
        """The screen took ``seat``'s presses from ``since_ns`` (ns, the edges' clock) on, but the
        game refused the move they made (a take of one's own exhibit: the hold that lifted the
        card and the hold that was refused): those presses are no presence, so a guest whose
        every move is refused is still taken over after ``turn_s`` (issue 20)."""
        for t, before in self.presses.get(seat, []):
            if t >= since_ns:
                self.last_input[seat] = min(self.last_input.get(seat, 0), before)
                return

    def _give_back(self, seat: int) -> None:
        info = self.away.pop(seat)
        if self.scene is not None:
            self._set(self.scene, seat, info, back=True)
        self.app.message(_("P{n} is back and plays again").format(n=seat + 1), 5.0)

    @staticmethod
    def _set(scene: AwayScene, seat: int, info: SeatInfo, back: bool) -> None:
        if isinstance(scene, TakesOver):
            scene.take_over(seat, back=back)
            return
        scene.seats[seat] = info
        if isinstance(scene, _SeatsPlayers) and isinstance(scene.driver, _SetsPlayer):
            scene.driver.set_player(seat, scene.driver_seats()[seat])

    def tick(self, now_ns: int) -> None:
        top = self.app.scenes[-1] if self.app.scenes else None
        scene = top if isinstance(top, AwayScene) else None
        if scene is not self.scene:
            if self.scene is not None and self.away:
                for seat, info in self.away.items():     # the results name the person again
                    try:
                        self._set(self.scene, seat, info, back=True)
                    except Exception:
                        pass
                self.away.clear()
            self.scene = scene
            self.scene_since = now_ns
            self.waiting = None
        if scene is None or self.app.attract_demo or not self.app.is_game(top):
            return
        if self._empty_room(scene, now_ns):
            return
        try:
            cp = scene.state.current_player()
        except Exception:
            return
        seats = scene.seats
        if not isinstance(cp, int) or cp < 0 or cp >= len(seats) or seats[cp].is_computer or cp in self.away:
            self.waiting = None
            return
        if self.waiting is None or self.waiting[0] != cp:
            self.waiting = (cp, now_ns)
        since = max(self.waiting[1], self.last_input.get(cp, 0))
        if now_ns - since >= self.turn_ns:
            self._take(scene, cp)

    def _empty_room(self, scene: AwayScene, now_ns: int) -> bool:
        """Everyone has left the game on screen: it is put away, the title comes back (True)."""
        if scene.over_at is not None:
            return False                       # the end: its results come anyway
        people = [s for s, info in enumerate(scene.seats) if s in self.away or not info.is_computer]
        if not people:
            return False                       # no person's seat (a demo's simulated players)
        limit = scene.empty_room_ns(self.turn_ns)
        quiet = min(now_ns - max(self.scene_since, self.last_input.get(s, 0)) for s in people)
        if quiet < limit:
            return False
        # TRANSLATORS: {time} is a time such as "90 s" (arcade.i18n.seconds).
        self.app.message(_("Nobody has pressed for {time}: everyone seems to have left, so the game was put "
                           "away").format(time=seconds(limit / 1e9, 0)), 10.0)
        scene.leave()
        return True

    def _take(self, scene: AwayScene, seat: int) -> None:
        info = scene.seats[seat]
        self.away[seat] = info
        skill = self.app.cfg["seats"]["computer_skill"]
        self._set(scene, seat, SeatInfo("computer", _(AWAY_LABEL), skill), back=False)
        self.waiting = None
        self.app.message(_("P{n} seems to be away: a computer plays P{n}'s turns until P{n} presses "
                           "again").format(n=seat + 1), 10.0)
