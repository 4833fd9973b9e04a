"""The Buzz Race screen (the example game, ``docs/new-game.md``): GET READY, GO!, the round's
winner, first to five.

A round: "GET READY" shows for :data:`READY_NS` plus a pause drawn from the scene's own
stream (0 to :data:`JITTER_NS`), so nobody can count the beat; then the frame showing
"GO!" is drawn, and the race opens at its flip (:meth:`frame_shown`, R-2).  The buzzer is
the only control the game reads: a press (its stamp, not its release) is a press in the
race, given to the match driver unchanged, as in every race of the arcade; a press before
GO is not in the race, and a buzzer still held at GO is told to let go (FXA-39).  The
driver, its referee and the judge decide the round; the scene only shows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from arcade import registry
from arcade.buzzrace.game import BuzzRaceGame, BuzzRaceState
from arcade.core.api import RACE, State
from arcade.core.driver import Driver
from arcade.core.events import Edge
from arcade.core.referee import HELD_TEXT
from arcade.i18n import N_, _, ngettext, number
from kiosk import render
from kiosk.games.buzzrace import draw
from kiosk.scenes.game import GameScene, RoutedPlayer
from kiosk.scenes.seats import SeatInfo, lobby_game

if TYPE_CHECKING:
    from arcade.registry import GameSpec
    from kiosk.scene import Host, LedPicture

MS = 1_000_000
#: "GET READY" shows at least this long before GO (ns) ...
READY_NS = 1500 * MS
#: ... and up to this much longer, drawn per round from the scene's "go" stream (ns).
JITTER_NS = 1500 * MS
#: The game's words for a buzzer-only station (the gesture vocabulary: a tap is a press).
HINT = N_("Buzzer: press when GO! shows - the first press takes the round")


class BuzzRaceScene(GameScene[BuzzRaceState]):
    """One game of Buzz Race (two seats).

    Attributes:
        phase: ``"ready"`` (GET READY, no race open), ``"go"`` (GO! shown: the race opens
            at this frame's flip and stays open until the judge's verdict) or ``"over"``.
        ready_until: when GO is shown (ns, the kiosk's clock); None until the first frame.
        held: seats told to let go of their buzzer (the referee's ``held`` event).
    """

    def __init__(self, app: Host, seats: list[SeatInfo], seed: int | None = None,
                 spec: GameSpec | None = None) -> None:
        """``spec``: the registry entry played (the lobby game's, ``LobbyGame.start``); default
        ``buzzrace`` (an example entry: ``registry.examples()``)."""
        super().__init__(app, seats, seed)
        if spec is None:
            with registry.examples():
                spec = registry.get("buzzrace")
        self.spec = spec
        self.game = BuzzRaceGame(len(seats))
        self.state = self.initial_state(self.game, BuzzRaceState)
        ctx = registry.PlayerContext(rng=self.bot_rng, key=str(self.seed))
        # Computer seats press through the app's planned presses (the demo's simulated pins),
        # judged like a person's: RoutedPlayer.  A person's seat is None: its presses are fed.
        players: list[Any] = [RoutedPlayer(spec.computer_player(self.state, s, info.skill, ctx), app)
                              if info.is_computer else None for s, info in enumerate(seats)]
        self.driver: Driver = spec.driver(self.state, players, self.stream("ties"),
                                          judge=app.cfg.judge_settings())
        self.go_rng = self.stream("go")
        self.phase = "ready"
        self.ready_until: int | None = None      # set at the first frame (the kiosk's clock)
        self.held: tuple[int, ...] = ()
        self.race_seen = self.state.race_no

    def _pause(self) -> int:
        return READY_NS + self.go_rng.randrange(JITTER_NS)

    # -- input: the buzzer is the game's only control ------------------------------------
    def on_station(self, edge: Edge) -> None:
        if edge.control != "buzzer":
            return
        self.driver.feed(edge)               # the stamp counts; the referee debounces and judges
        if edge.pressed and self.phase == "go":
            self.app.sounds.play("press")

    # -- the loop: the driver decides, the scene shows ------------------------------------
    def advance(self, now_ns: int) -> None:
        st = self.state
        if st.is_terminal():
            if self.finish(now_ns):
                self.phase = "over"
            return
        for ev in self.driver.tick(now_ns):
            if ev.kind == "held":
                self.held = ev.seats
        if st.race_no != self.race_seen or st.is_terminal():
            self.race_seen = st.race_no
            self.held = ()
            last = st.rounds[-1]
            self.app.sounds.play("won" if last.winner is not None else "tick")
            self.phase = "over" if st.is_terminal() else "ready"
            self.ready_until = now_ns + self._pause()
            if st.is_terminal():
                self.finish(now_ns)
            return
        if self.ready_until is None:
            self.ready_until = now_ns + self._pause()
        if self.phase == "ready" and now_ns >= self.ready_until and st.current_player() == RACE:
            self.phase = "go"                # this frame shows GO: the race opens at its flip

    def frame_shown(self, t_ns: int) -> None:
        if self.phase == "go":
            self.driver.frame_shown(t_ns)    # opens the race at the flip (once); asks the computers

    def again(self) -> GameScene[State]:
        return BuzzRaceScene(self.app, self.seats, spec=self.spec)

    # -- drawing -----------------------------------------------------------------------
    def centre_lines(self) -> tuple[str, str, tuple[int, int, int]]:
        """The big line, the line under it and the big line's colour, for this moment."""
        st = self.state
        out = st.outcome()
        if out is not None:
            if not out.winners:
                return _("A DRAW"), out.reason, render.GOLD
            w = out.winners[0]
            return _("P{seat} WINS!").format(seat=w + 1), out.reason, render.SEAT_COLOURS[w]
        if self.phase == "go":
            return _("GO!"), _("press your buzzer"), render.GOOD
        last = st.rounds[-1] if st.rounds else None
        ready = _("GET READY")
        if last is None:
            need = self.game.settings["wins"]
            return ready, ngettext("first to {n} round wins", "first to {n} rounds wins", need).format(n=need), \
                render.TEXT
        if last.winner is None:
            return ready, _("nobody pressed last round"), render.TEXT
        if last.reaction_ms is None:
            took = _("P{seat} took round {round}").format(seat=last.winner + 1, round=len(st.rounds))
        else:
            took = _("P{seat} took round {round} in {ms} ms").format(
                seat=last.winner + 1, round=len(st.rounds), ms=number(last.reaction_ms))
        return ready, took, render.TEXT

    def draw(self, surface: pygame.Surface) -> None:
        big, small, colour = self.centre_lines()
        banner = self.banner[0] if self.banner is not None and self.banner[2] > self.now else None
        # Say where the title row is, every frame: an app note goes over it, not over the seats
        # (Scene.note_strip; without it the note goes along the top edge over whatever is there).
        self.note_strip = draw.screen(surface, draw.Table(
            title=_(self.title), wins=tuple(self.state.wins), need=self.game.settings["wins"],
            names=tuple(info.label for info in self.seats), big=big, small=small, colour=colour,
            held=tuple(_(HELD_TEXT) if s in self.held else "" for s in range(len(self.seats))),
            hint=banner or _(HINT)))

    def led_picture(self, now_ns: int) -> LedPicture | None:
        cfg = self.app.cfg["led"]
        return self.spec.led_picture(self.state, cfg["width"], cfg["height"])


def _start(app: Host, seats: list[SeatInfo], spec: GameSpec) -> GameScene[State]:
    return BuzzRaceScene(app, seats, spec=spec)


#: The registry entries this screen draws (label, names and seats from arcade.registry).  A
#: real game writes ``LOBBY_GAMES = [lobby_game("name", _start)]`` (``_start(app, seats, spec)``); the example's entry is in
#: ``registry.EXAMPLES``, found only inside ``registry.examples()``, and the lobby never
#: imports this module (its list is made from ``registry.SPECS``).
with registry.examples():
    LOBBY_GAMES = [lobby_game("buzzrace", _start)]
