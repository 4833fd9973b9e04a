"""What every game scene does the same way: :class:`GameScene`.

A game scene (``kiosk/games/<family>/scene.py``) keeps only its input mapping
and its drawing; this base holds the rest:

* **seed and randomness**: ``seed`` (``demo --seed`` for the first game, else
  a random one, :meth:`kiosk.app.loop.App.new_seed`) and named streams
  (:meth:`stream`): ``"0"`` chance, ``"bots"`` the computer players, others
  as a game needs; the same seed gives the same game.
* **leaving a game**: one confirmation, the same in every game.  ``back``
  (Esc, a gamepad's Back) opens the dialog "Leave this game?"; then OK (a
  person's OK control, Enter) or ``back`` again leaves, any other control or
  key of a person stays (and is used for nothing else).  The game goes on
  under the dialog; computer players' presses and every release still reach
  it.  The dialog closes by itself after :data:`LEAVE_NS`.  A scene may use
  ``back`` for itself first (FOCUS: a keyboard seat steps back in its move).
* **the end**: :meth:`finish` saves the result once (a storage problem is a
  message, never a stop), waits ``finish_ns`` with the final table, then
  shows the results screen whose "play again" is :meth:`again`.

A game's own computer players (FocusX's shout planner, Sherlook's marker player) live in
the game's folder; this base names no game.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Callable, Generic, Mapping, TypeVar

import pygame

from arcade.core.api import Action, Game, State
from arcade.core.driver import ComputerPlayer
from arcade.core.events import Edge
from arcade.core.judge import NS_PER_MS
from arcade.i18n import N_, _, pgettext
from kiosk import render
from kiosk.controls.input import Command
from kiosk.persist.storage import StorageError
from kiosk.scene import STORE_NOTE, Scene
from kiosk.scenes.seats import SeatInfo

if TYPE_CHECKING:
    from arcade.registry import GameSpec
    from kiosk.scene import Host

__all__ = ["GameScene", "KioskSeat", "LEAVE_NS", "LEAVE_TEXT", "RoutedPlayer"]

LEAVE_NS = 5_000_000_000       # the leave dialog closes by itself after this (stays in the game)
#: The leave dialog's banner (translated when the dialog opens).
LEAVE_TEXT = N_("Leave this game?  OK or Esc again = leave, any other = stay")

#: A game scene's state class (``arcade.<family>``'s ``State``).
S = TypeVar("S", bound=State, covariant=True)
#: The state class a family's screen asks :meth:`GameScene.initial_state` for.
T = TypeVar("T", bound=State)


class KioskSeat(ComputerPlayer):
    """A seat the match driver moves for, on the kiosk's clock.

    A computer player, or the arcade choosing for a person whose station has
    only a buzzer.  Its race presses (computer players only) are not given to
    the driver directly: they go through the app's planned computer presses
    (in the demo: the simulated GPIO pins, the real adapter path) and come
    back as station events, judged like everyone's.

    Args:
        seat: its seat.
        choose: ``(state, seat) -> action`` at its turn.
        think: ``seat -> ns`` to wait before the move, read when its turn begins.
        presses: ``(seat, race, opened_ns) -> None`` plans its presses for a
            race opened at ``opened_ns`` (None: it never presses).
    """

    def __init__(self, seat: int, choose: Callable[[State, int], Action], think: Callable[[int], int],
                 presses: Callable[[int, object, int], None] | None = None) -> None:
        self.seat = seat
        self._choose = choose
        self._think = think
        self._presses = presses

    @property
    def think_ns(self) -> int:
        return self._think(self.seat)

    @think_ns.setter
    def think_ns(self, value: int) -> None:
        raise AttributeError("a kiosk seat's pause comes from its scene")

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return self._choose(state, seat)

    def race_opened(self, state: State, seat: int, race: object, opened_ns: int,
                    rng: random.Random) -> list[Edge]:
        if self._presses is not None:
            self._presses(seat, race, opened_ns)
        return []


class RoutedPlayer(ComputerPlayer):
    """A family's computer player (``arcade.<family>.house``) whose presses go through
    the kiosk's station path instead of straight to the driver's referee.

    The driver asks it when it wants to press (``next_press``); a press due within
    ``lead_ns`` is handed to the app's planned computer presses (the demo's simulated
    GPIO pins) and reaches the referee as a station event, judged like a person's.

    Args:
        inner: the family's computer player.
        app: the arcade (its ``computer`` presses).
        lead_ns: how far ahead (ns) a press is planned.
    """

    def __init__(self, inner: ComputerPlayer, app: Host, lead_ns: int = 100 * NS_PER_MS) -> None:
        self.inner = inner
        self.app = app
        self.lead_ns = lead_ns
        self.think_ns = inner.think_ns

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return self.inner.choose(state, seat, rng)

    def race_opened(self, state: State, seat: int, race: object, opened_ns: int,
                    rng: random.Random) -> list[Edge]:
        for edge in self.inner.race_opened(state, seat, race, opened_ns, rng):
            if edge.pressed:
                self.app.computer.press(seat, edge.t_ns, edge.control)
        return []

    def next_press(self, state: State, seat: int, race: object, now_ns: int) -> int | None:
        p = self.inner.next_press(state, seat, race, now_ns)
        if p is not None and p - now_ns <= self.lead_ns:
            self.app.computer.press(seat, p)
            self.inner.pressed(p)
        return None


class GameScene(Scene, Generic[S]):
    """Base of every game scene (``S``: the game's state class).

    Args:
        app: the arcade.
        seats: one :class:`SeatInfo` per seat.
        seed: the game's seed (default :meth:`App.new_seed`).

    Attributes:
        seats, seed: as given.
        spec: the registry entry played (:class:`arcade.registry.GameSpec`), set by the
            family's screen when it is made: the one its lobby game gave (``LobbyGame.start``),
            else the entry its constructor's own arguments name.  The driver is made from it;
            the title and the record name it.
        rng: the chance stream (``stream("0")``); bot_rng: the computer players'.
        banner: ``(text, colour, until ns)`` or None, drawn by the family's screen.
        now: the last ``update`` time (ns).
        leave_until: while the leave dialog is open, when it closes (ns); else None.
    """

    #: how long the final table stays before the results screen (ns)
    finish_ns = 2_000_000_000
    #: set by ``kiosk/persist/resume.py`` with :attr:`Scene.lobby_game` and :attr:`Scene.entry`: the game's key
    game_key: str | None = None
    seats: list[SeatInfo]
    spec: GameSpec
    #: the resume's bookkeeping (``kiosk/persist/resume.py``): the steps kept last, the saved game's
    #: digest (a resumed game), whether a failure to keep it was said
    resume_steps = 0
    resume_digest: str | None = None
    resume_warned = False

    def __init__(self, app: Host, seats: list[SeatInfo], seed: int | None = None) -> None:
        super().__init__(app)
        self.seats = seats
        self.seed = seed if seed is not None else app.new_seed()
        self.rng = self.stream("0")
        self.bot_rng = self.stream("bots")
        self.banner: tuple[str, tuple[int, int, int], int] | None = None
        self.saved = False
        self.over_at: int | None = None
        self.now = time.monotonic_ns()
        self.leave_until: int | None = None

    # -- the game's state and its driver -------------------------------------------
    @property
    def state(self) -> S:
        """The game's state (the family makes it; ``outcome()`` once it is over).  Setting
        it (a test's position) hands it to the match driver and its referee too.

        Raises:
            AttributeError: the game is not made yet (Focus (2023) while its case is chosen).
        """
        try:
            state: S = self.__dict__["_state"]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no game yet") from None
        return state

    @state.setter
    def state(self, value: State) -> None:
        self._state = value
        driver = self.__dict__.get("driver")
        if driver is not None:
            driver.state = value
            for holder in (driver.races, getattr(driver.races, "referee", None)):
                if holder is not None and hasattr(holder, "state"):
                    holder.state = value

    def game_state(self) -> S | None:
        """The game's state, or None before the game is made."""
        state: S | None = self.__dict__.get("_state")
        return state

    def initial_state(self, game: Game, kind: type[T]) -> T:
        """The state ``game`` starts from (a ``kind``): a new game's initial state, or, for a
        game being resumed after a power cut (``kiosk/persist/resume.py`` hands the plan to the app),
        the saved actions replayed through the registry's hook
        (:meth:`arcade.registry.GameSpec.start_from`).  Every family's screen makes its state
        here, once it has made its game.

        Raises:
            TypeError: ``game`` made a state of another class than ``kind``.
        """
        plan = self.app.resume_plan
        if plan is None:
            state = game.new_initial_state()
        else:
            self.app.resume_plan = None               # one game is rebuilt, once
            from arcade import registry
            state = registry.get(plan.entry).start_from(plan.actions, game=game)
        if not isinstance(state, kind):
            raise TypeError(f"{type(game).__name__} made a {type(state).__name__}, not a {kind.__name__}")
        return state

    # -- a resumed game (kiosk/persist/resume.py) ----------------------------------------------
    def resume_settings(self) -> Mapping[str, str]:
        """What a resume needs besides the lobby game and seats (Focus (2023): the case)."""
        return {}

    def begin_resumed(self, settings: Mapping[str, str]) -> None:
        """A resumed game whose screen first asks for a set-up skips it (``settings``: the
        saved :meth:`resume_settings`); it starts its game there."""

    def after_resume(self) -> None:
        """The rebuilt game is pushed: the screen sets its own phase for the saved step."""

    # -- what a family provides ------------------------------------------------------
    @property
    def title(self) -> str:
        """The game's name on screen and on the results screen: the registry's label of the
        entry being played (``FocusX Duel + FocusX rule``), until the game is made the rules'
        own title."""
        if self.game_state() is not None:
            return self.spec.label
        return str(getattr(getattr(self, "game", None), "title", pgettext("title", "game")))

    def again(self) -> GameScene[State]:
        """A new game with the same seats and settings (the results screen's "play again")."""
        raise NotImplementedError

    def record(self) -> dict[str, object]:
        """The game record saved with the result (default :func:`arcade.core.record.to_record`,
        naming :attr:`spec`)."""
        from arcade.core.record import to_record
        return to_record(self.state, self.seed, entry=self.spec.name)

    def on_back(self) -> bool:
        """``back`` for the game itself (True: used, no dialog).  Default: not used."""
        return False

    def on_station(self, edge: Edge) -> None:
        """A station event of a seat of this game (``edge.seat < len(seats)``)."""

    def empty_room_ns(self, turn_ns: int) -> int:
        """How long (ns) every person's seat may give no edge before the game counts as left by
        everyone and is put away (kiosk/players/away.py): twice the away rule's ``turn_ns``.  A game in
        which a person may wait longer between presses says so (Sherlook: two rounds)."""
        return 2 * turn_ns

    def on_game_command(self, command: Command) -> None:
        """A command other than ``back`` while no dialog is open."""

    # -- randomness ---------------------------------------------------------------
    def stream(self, name: str) -> random.Random:
        """The game's random stream ``name``: ``Random(f"{seed}-{name}")`` (replayable)."""
        return random.Random(f"{self.seed}-{name}")

    # -- input: the leave dialog, then the family's mapping ----------------------------
    def on_command(self, command: Command) -> None:
        if self.leave_until is not None:
            if command.station_key:
                return                       # its station event answers the dialog
            if command.name in ("ok", "back"):
                self.leave()
            else:
                self.stay()
            return
        if command.name == "back":
            if not self.on_back():
                self.ask_leave()
            return
        self.on_game_command(command)

    def seat_infos(self) -> list[SeatInfo]:
        """The game's seats (Focus (2023) hides them from the app while its case is chosen)."""
        return list(self.seats)

    def on_edge(self, edge: Edge) -> None:
        seats = self.seat_infos()
        if edge.seat >= len(seats):
            return
        if self.leave_until is not None and edge.pressed and not seats[edge.seat].is_computer \
                and edge.source != "computer":
            if edge.control == "ok":
                self.leave()
            else:
                self.stay()
            return
        self.on_station(edge)

    def ask_leave(self) -> None:
        """Open the leave dialog (the one confirmation of every game)."""
        self.leave_until = self.now + LEAVE_NS
        self.banner = (_(LEAVE_TEXT), render.GOLD, self.leave_until)

    def stay(self) -> None:
        """Close the leave dialog: the game goes on."""
        self.leave_until = None
        if self.banner is not None and self.banner[0] in (LEAVE_TEXT, _(LEAVE_TEXT)):
            self.banner = None

    def leave(self) -> None:
        """Leave the game for the title screen (planned presses cancelled, workers stopped)."""
        self.leave_until = None
        self.app.computer.cancel()
        if self.game_key and self.app.results is not None:
            try:
                self.app.results.drop_resume(self.game_key)      # left on purpose: no resume offer
            except Exception as exc:
                self.app.message(str(exc))
        self.app.home()

    def exit(self) -> None:
        """Taken off the stack: the match driver cancels the thoughts of its computer players."""
        driver = self.__dict__.get("driver")
        if driver is not None and hasattr(driver, "cancel"):
            driver.cancel()

    def tick_dialog(self, now_ns: int) -> None:
        """Close the leave dialog when its time is up (called by :meth:`advance`)."""
        if self.leave_until is not None and now_ns >= self.leave_until:
            self.stay()

    def update(self, now_ns: int) -> None:
        self.now = now_ns
        self.tick_dialog(now_ns)
        self.advance(now_ns)
        self.checkpoint()

    def checkpoint(self) -> None:
        """After each completed step (an action added to the history), keep the game in
        progress in the store for a restart (kiosk/persist/resume.py); once over, nothing."""
        state = self.game_state()
        if state is None or self.over_at is not None or len(state.history) == self.resume_steps:
            return
        self.resume_steps = len(state.history)
        if state.outcome() is None:
            from kiosk.persist import resume
            resume.save_progress(self.app, self)

    def advance(self, now_ns: int) -> None:
        """The family's update (``self.now`` is already ``now_ns``)."""

    @property
    def parts(self) -> render.Parts:
        """The parts of this scene's screen kept between frames (:class:`kiosk.render.Parts`)."""
        parts = self.__dict__.get("_parts")
        if parts is None:
            parts = self.__dict__["_parts"] = render.Parts()
        return parts

    def draw_overlay(self, surface: pygame.Surface) -> None:
        if self.leave_until is None:
            return
        W, H = surface.get_size()
        box = pygame.Rect(0, 0, min(W - 40, 900), 150)
        box.center = (W // 2, H // 2)
        render.veil(surface, box)                # the question hides the game under it on purpose
        render.panel(surface, box, render.PANEL_LIGHT, render.GOLD, 4)
        render.text_best(surface, (_("Leave this game?"),), (box.centerx, box.y + 22), box.w - 40, (48, 40, 34),
                         render.GOLD, "midtop", bold=True)
        render.text_fit(surface, _("OK (or Esc again) = leave      any other button = stay"),
                        (box.centerx, box.y + 88), box.w - 40, 30, 18, render.TEXT)

    # -- the end -----------------------------------------------------------------------
    def finish(self, now_ns: int) -> bool:
        """Call every frame once the game is over: saves once, then after ``finish_ns``
        the results screen.  Returns True on the first call (the family plays its end)."""
        first = self.over_at is None
        if first:
            self.over_at = now_ns
            self.app.sounds.play("over")
            self.save()
        if now_ns - (self.over_at or now_ns) > self.finish_ns:
            from kiosk.scenes.results import ResultsScene
            self.app.replace(ResultsScene(self.app, self.title, self.state, self.seat_infos(), again=self._again,
                                          entry=self.entry))
        return first

    def _again(self) -> GameScene[State]:
        """:meth:`again`, marked with the same lobby game for resuming (a new game key)."""
        scene = self.again()
        lobby = self.lobby_game
        if lobby:
            from kiosk.persist import resume
            scene.game_key = resume.new_key()
            resume.tag(scene, (str(lobby[0]), str(lobby[1])))
        return scene

    def save(self) -> None:
        """Save the result once (a storage problem is a message; the game never stops for it)."""
        if self.saved or self.app.results is None:
            return
        self.saved = True
        out = self.state.outcome()
        if out is None:
            return
        record = self.record()
        if self.app.demo:
            record["demo"] = True         # simulated players: kept apart from the party's results
        try:
            reason = f"{out.reason} (demo)" if record.get("demo") else out.reason
            self.app.results.save(record, out.winners, reason, out.scores,
                                  game_key=self.game_key)
        except StorageError as exc:       # a newer note on the results file replaces the older one
            self.app.message(str(exc), 60, topic=STORE_NOTE)
        except Exception as exc:
            self.app.message(str(exc))
