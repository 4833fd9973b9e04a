"""FOCUS (Sid Sackson) and Crossfire on the TV: every variant, people and computers.

Variants (``docs/rules-sackson.md``): ``2p`` (SF-1), ``3p`` (SF-4), ``4p-teams``
and ``4p`` (SF-5), ``crossfire`` (SF-6).  The rules are
:mod:`arcade.sackson`; the computer players are :mod:`arcade.bots.sackson`.

Controls (a seat acts only on its own turn):

* station controls, from the seat whose turn it is: ``left`` / ``right`` move
  the cursor through the current choices, ``ok`` takes the one under the
  cursor, ``buzzer`` or ``x`` step back (cancel the half-chosen move);
* a move is chosen in up to three steps - a stack of one's own (or the
  reserve, to drop a stone), then how many stones (only when the stack is
  taller than one and more than one count can move), then the target cell
  among the legal ones, which are marked on the board; the opening swap
  (SF-3, ``[sackson] opening_swap``) is two steps: a stone, then the stone of
  the other colour to swap it with;
* a station with only a buzzer (``SeatInfo.can_choose`` false, e.g. GPIO
  buzzers without choose controls): a tap moves the cursor on, a press held
  0.6 s takes the choice, held 2 s steps back (a ring fills while it is held);
* the keyboard, as a laptop convenience, only for a person at the keyboard
  station who has no left/right/OK keys of their own (P3 and up with the
  default keys; :meth:`SacksonScene.keyboard_drives`), and only with keys that
  are no station's keys: Enter or Space = OK, Backspace or Escape = back, the
  keypad's 4/6/8/2 (and the arrows when no station uses them) move the cursor
  (Up/Down jump to the nearest choice above/below; in the count step they
  change the count).  A station's key acts only for its own seat: P1 chooses
  with A/D/S/W, P2 with the arrows, P3 taps its key 3, so one player's keys
  never make another player's move.  Escape with nothing half-chosen (or for a
  seat that does not take plain keys) asks once, then leaves the game.

The computer seats are players of the match driver (:mod:`kiosk.games.sackson.computers`:
they think in the kiosk's thinking process, or in a worker thread for a substituted
``choose_action``); the driver polls them each frame, never waits, and makes the move on the
main thread no sooner than ``[sackson] move_pause_s`` after its turn began
(``app.pace_override`` caps that pause, as ``focus-arcade demo --pace`` does).  The screen
keeps drawing while it thinks ("thinking..." with a progress ring); leaving the game cancels
the thought.

The scene maps the presses and drives the game; :mod:`kiosk.games.sackson.chooser` holds the
half-chosen move and :mod:`kiosk.games.sackson.words` says what happened; the screen
(:mod:`kiosk.games.sackson.screen`) draws the board (:mod:`kiosk.games.sackson.board_layer`)
and the side panel (:mod:`kiosk.games.sackson.panel`) from what the scene gives it.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Sequence

import pygame

from arcade import i18n, registry
from arcade.core.api import Action, State
from arcade.core.driver import ComputerPlayer, Driver
from arcade.core.errors import IllegalActionError
from arcade.core.events import Edge
from arcade.i18n import N_, _, ngettext, pgettext
from arcade.sackson.game import VARIANTS, Drop, Move, SacksonGame, SacksonState
from arcade.sackson.record import to_record
from kiosk import render
from kiosk.controls.input import Command
from kiosk.games.sackson import draw as sd
from kiosk.games.sackson import panel, screen, words
from kiosk.games.sackson.board_layer import BoardLayer, board_rect
from kiosk.games.sackson.chooser import BACK_HOLD_NS, OK_HOLD_NS, RESERVE, MoveChooser, move_effect
from kiosk.games.sackson.computers import SEARCH_OF_SKILL, ComputerSeats, level_for, use_process
from kiosk.players import thinker as thinker_mod
from kiosk.scenes.game import GameScene
from kiosk.scenes.seats import SeatInfo, lobby_game

if TYPE_CHECKING:
    from arcade.registry import GameSpec
    from kiosk.scene import Host, LedPicture

#: Titles of the variants.
TITLES = {"2p": N_("FOCUS - 2 players"), "3p": N_("FOCUS - 3 players"), "4p-teams": N_("FOCUS - 4 players in teams"),
          "4p": N_("FOCUS - 4 players"), "crossfire": "Crossfire"}
#: Defaults of the ``[sackson]`` configuration section.
CFG_DEFAULTS = {"budget_s": 1.0, "move_pause_s": 0.8, "opening_swap": False, "mirror_rule": False}

FINISH_NS = 3_000_000_000          # the final board stays this long before the results
BANNER_NS = 1_500_000_000         # a banner shows this long, or until the next move


def sackson_cfg(app: Host) -> dict[str, Any]:
    """The ``[sackson]`` settings (defaults where the configuration has none)."""
    out = dict(CFG_DEFAULTS)
    try:
        out.update(app.cfg["sackson"])
    except KeyError:
        pass
    return out


def skill_word(level: str) -> str:
    """A computer player's level as the screen says it."""
    words = {"easy": pgettext("skill", "easy"), "medium": pgettext("skill", "medium"),
             "hard": pgettext("skill", "hard"), "expert": pgettext("skill", "expert")}
    return words.get(level, level)


# -- the scene ---------------------------------------------------------------------

class SacksonScene(GameScene[SacksonState]):
    """One game of FOCUS (any variant) or Crossfire.

    Args:
        app: the arcade.
        seats: one :class:`SeatInfo` per seat (``VARIANTS[variant]`` of them;
            extra seats are dropped, missing ones become computer players).
        variant: ``"2p"``, ``"3p"``, ``"4p-teams"``, ``"4p"`` or ``"crossfire"``.
        seed: the random seed of the computer players (default: from the clock).
        settings: game settings over ``{"variant": variant}`` and the
            ``[sackson]`` opening_swap / mirror_rule (2-player variants).
        budget_s: the computer's thinking time per move (default ``[sackson] budget_s``).
        max_nodes: node limit of the ``hard`` search (tests; None = time only).
        levels: bot level per seat (default from each seat's skill).
        spec: the registry entry played (the lobby game's, ``LobbyGame.start``); default
            the entry of ``variant`` (:func:`arcade.registry.resolve`).

    Raises:
        SettingsError: an unknown variant, bad settings, or a ``spec`` of another variant.
    """

    warm_on_push = True     # drawn once off screen when pushed (App.warm): the first frame only blits

    def __init__(self, app: Host, seats: list[SeatInfo], variant: str = "2p", seed: int | None = None,
                 settings: dict[str, Any] | None = None, budget_s: float | None = None,
                 max_nodes: int | None = None, levels: Sequence[str] | None = None,
                 spec: GameSpec | None = None) -> None:
        from arcade.core.errors import SettingsError
        if variant not in VARIANTS:
            raise SettingsError("variant", variant, f"one of {list(VARIANTS)}")
        spec = spec or registry.resolve("focus", variant=variant)
        if spec.fixed.get("variant") != variant:
            raise SettingsError("variant", variant, f"{spec.fixed.get('variant')!r} for {spec.name}")
        cfg = sackson_cfg(app)
        n = VARIANTS[variant]
        seats = list(seats)[:n]
        while len(seats) < n:
            seats.append(SeatInfo("computer", "computer (medium)", "medium"))
        super().__init__(app, seats, seed)
        self.spec = spec
        self.variant = variant
        gs: dict[str, Any] = {"variant": variant}
        if n == 2:
            gs["opening_swap"] = bool(cfg["opening_swap"])
            gs["mirror_rule"] = bool(cfg["mirror_rule"])
        gs.update(settings or {})
        self.settings = gs
        self.game = SacksonGame(n, gs)
        self.state = self.initial_state(self.game, SacksonState)
        self.budget_s = float(cfg["budget_s"] if budget_s is None else budget_s)
        pause = float(cfg["move_pause_s"])
        if app.pace_override is not None:
            pause = min(pause, float(app.pace_override))
        self.pause_ns = int(pause * 1e9)
        self.levels = list(levels) if levels is not None else [level_for(s.skill) for s in seats]
        self.search_levels = (list(levels) if levels is not None
                              else [SEARCH_OF_SKILL.get(s.skill, "medium") for s in seats])
        self.computers = ComputerSeats(self.levels, self.search_levels, self.pause_ns, self.budget_s, max_nodes,
                                       app.message, any(s.is_computer for s in seats) and use_process())
        # The match driver checks and applies every move (turns, SF-4/SF-5 skips are the
        # state's) and asks the computer seats, which think elsewhere (kiosk.players.thinker), so the
        # screen never freezes; it polls them each frame and shows a move no sooner than
        # pause_ns after its turn began.
        self.driver: Driver = self.spec.driver(self.state, self.driver_seats(), self.bot_rng, ply_cap=None)
        self.chooser: MoveChooser | None = None
        self.chooser_key: tuple[int, int] | None = None
        self.cursor_memory: dict[int, str] = {}
        self.last: tuple[int, Action] | None = None
        self.log: list[tuple[int, str]] = []
        self.skipped: set[int] = set()     # 4p-teams: seats skipped since their last move (SF-5)
        self.applied_thread: int | None = None
        self.hold_start: dict[int, int] = {}
        self._geo_cache: tuple[tuple[int, int, int, int], sd.BoardGeometry] | None = None
        self.board_layer = BoardLayer()     # the board's picture, kept between frames
        self._preview_cache: dict[tuple[Action, str], str] = {}

    # -- the seats the driver moves -------------------------------------------------------
    def driver_seats(self) -> list[ComputerPlayer | None]:
        """One entry per seat: the computer player that thinks for a computer seat (in the
        thinking process, or in a worker thread for a substituted ``choose_action``), None
        for a person (the scene submits their move)."""
        return self.computers.for_driver(self.seats)

    @property
    def thinker(self) -> thinker_mod.Thinker | None:
        """The thinking process while it thinks for the computer seats (None: worker threads)."""
        return self.computers.thinker

    @property
    def max_nodes(self) -> int | None:
        """Node limit of the search per move (tests; None = the level's or time only)."""
        return self.computers.max_nodes

    @max_nodes.setter
    def max_nodes(self, value: int | None) -> None:
        self.computers.max_nodes = value

    @property
    def future(self) -> Any:
        """The future of the computer move being thought about now (None: none)."""
        for seat in self.driver.thinking():
            player = self.driver.players[seat]
            thought = getattr(player, "thought", None)
            if thought is not None:
                return thought.future
        return None

    @property
    def think_started(self) -> int:
        """When (ns) the computer seat to move began to think (0: none thinks)."""
        return min(self.driver.thinking().values(), default=0)

    # -- life cycle --------------------------------------------------------------------
    def exit(self) -> None:
        super().exit()
        self.computers.close()

    finish_ns = FINISH_NS

    @property
    def title(self) -> str:
        return TITLES[self.variant]


    # -- geometry --------------------------------------------------------------------------
    def geometry(self, surface_size: tuple[int, int] | None = None) -> sd.BoardGeometry:
        """The board on a screen of ``surface_size`` (default: the app's), kept until it changes."""
        size = surface_size or self.app.screen.get_size()
        area = board_rect(size)
        key = (area.x, area.y, area.w, area.h)
        if self._geo_cache is None or self._geo_cache[0] != key:
            self._geo_cache = (key, sd.BoardGeometry(self.state.board, area))
        return self._geo_cache[1]

    def _positions(self) -> dict[str, tuple[float, float]]:
        geo = self.geometry()
        return {c: geo.centres[i] for i, c in enumerate(self.state.board.cells)}

    # -- who moves --------------------------------------------------------------------------
    def to_move(self) -> int | None:
        cp = self.state.current_player()
        return cp if cp >= 0 else None

    def human_to_move(self) -> int | None:
        """The seat to move if it is a person's, else None."""
        cp = self.to_move()
        if cp is None or self.seats[cp].is_computer:
            return None
        return cp

    # -- input ----------------------------------------------------------------------------------
    def on_back(self) -> bool:
        """Esc steps back in a half-chosen move of a keyboard seat without choose keys."""
        seat = self.human_to_move()
        if seat is not None and self.keyboard_drives(seat) and self.chooser is not None and self.chooser.back():
            self.app.sounds.play("tick")
            return True
        return False

    def on_game_command(self, command: Command) -> None:
        seat = self.human_to_move()
        if seat is None or not self.keyboard_drives(seat) or self._ensure_chooser() is None:
            return          # only a keyboard seat without choose keys of its own takes plain keys
        if command.station_key or command.source != "keyboard":
            return          # a station's key (P2's arrows, a buzzer key) acts only for its own seat, by its edge
        name = command.name
        if name in ("left", "right", "ok", "x"):
            self._control(seat, name)
        elif name in ("up", "down"):
            self.chooser.nudge(0, -1 if name == "up" else 1)  # type: ignore[union-attr]
            self.app.sounds.play("tick")

    def on_station(self, edge: Edge) -> None:
        seat = self.human_to_move()
        if seat is None or edge.seat != seat:
            self.hold_start.pop(edge.seat, None)
            return
        if edge.control == "buzzer" and self.buzzer_only(seat):
            # buzzer-only station: tap = next choice, hold = take, long hold = back
            if edge.pressed:
                self.hold_start[seat] = edge.t_ns
                return
            start = self.hold_start.pop(seat, None)
            if start is None:
                return
            held = edge.t_ns - start
            self._control(seat, "x" if held >= BACK_HOLD_NS else "ok" if held >= OK_HOLD_NS else "right")
            return
        if edge.pressed:
            self._control(seat, edge.control)

    def keyboard_drives(self, seat: int) -> bool:
        """True when the laptop keys (Enter/Space, Backspace/Escape, keypad arrows) may choose for ``seat``.

        Only for a person at the keyboard station who has no left/right/OK keys of
        their own (seats 3 and up with the default keys, ``hardware/keyboard.py``).
        Even then a key that belongs to a station (P2's arrows, a buzzer key) only
        acts for that station's seat (:meth:`handle`): P1 chooses with A/D/S/W and
        P2 with the arrows, and nobody can make another seat's move from the keyboard.
        """
        info = self.seats[seat]
        if info.is_computer or info.station != "keyboard":
            return False
        kb = self.app.keyboard
        if kb is None:
            return True
        own = {control for (s, control) in kb.keymap.values() if s == seat}
        return not {"left", "right", "ok"} <= own

    def buzzer_only(self, seat: int) -> bool:
        """True for a person's station without left/right/OK (``SeatInfo.can_choose`` false)."""
        info = self.seats[seat]
        return not info.can_choose and not info.is_computer

    def _control(self, seat: int, control: str) -> None:
        ch = self._ensure_chooser()
        if ch is None:
            return
        if control in ("left", "right"):
            ch.step(-1 if control == "left" else 1)
            self.app.sounds.play("tick")
        elif control == "ok":
            action = ch.ok()
            self.app.sounds.play("press")
            if action is not None:
                self._apply(action, seat)
        elif control in ("buzzer", "x"):
            if ch.back():
                self.app.sounds.play("tick")

    def _ensure_chooser(self) -> MoveChooser | None:
        seat = self.human_to_move()
        if seat is None:
            self.chooser = None
            return None
        key = (seat, len(self.state.history))
        if self.chooser is None or self.chooser_key != key:
            self.chooser = MoveChooser(self.state, seat, self._positions(), self.cursor_memory.get(seat))
            self.chooser_key = key
        return self.chooser

    # -- the game --------------------------------------------------------------------------------
    def advance(self, now_ns: int) -> None:
        st = self.state
        if st.is_terminal():
            self.driver.cancel()
            self.chooser = None
            if self.finish(now_ns):
                self.app.screenshot(f"focus-{self.variant}-over")
            return
        before = words.before_move(st)
        moves = len(st.history)
        self.driver.tick(now_ns)                  # a computer's move once it is thought and shown long enough
        for seat, action in st.history[moves:]:
            self._moved(seat, action, before)
        if st.is_terminal():
            return
        if self.seats[st.current_player()].is_computer:
            self.chooser = None
        else:
            self._ensure_chooser()

    def _apply(self, action: Action, seat: int) -> None:
        """A person's move, through the driver (a refused one is said on the banner)."""
        before = words.before_move(self.state)
        try:
            self.driver.submit(seat, action)
        except IllegalActionError as exc:
            self.banner = (exc.reason.split(" [position")[0], render.BAD, self.now + BANNER_NS)
            self.app.sounds.play("false")
            self.chooser = None
            return
        self._moved(seat, action, before)

    def _moved(self, seat: int, action: Action, before: words.Before) -> None:
        """After a move the driver made (a person's or a computer's): the log, banner and sound."""
        st = self.state
        self.applied_thread = threading.get_ident()
        self.last = (seat, action)
        self.chooser = None
        self._preview_cache.clear()
        if isinstance(action, (Move, Drop)):
            self.cursor_memory[seat] = action.dst
        line, got = words.log_line(st, seat, action, before)
        self.log.append((seat, line))
        self.banner = None                      # an older banner never outlives the next move
        self.skipped.discard(seat)
        passed = words.passed_over(st, seat, before[2])
        self.skipped.update(q for q, why in passed if why == words.SKIPPED)   # for their player cards
        self.log.extend((q, _(why)) for q, why in passed)          # each after its seat's name
        del self.log[:-6]
        if passed:
            q, why = passed[0]
            more = f" (+{len(passed) - 1})" if len(passed) > 1 else ""
            self.banner = (f"P{q + 1} {_(why)}{more}", sd.seat_colour(q), self.now + BANNER_NS)
        if got:
            msg = ngettext("P{seat} captures {n} stone!", "P{seat} captures {n} stones!", got).format(
                seat=seat + 1, n=got)
            if self.banner is not None:
                msg += "   " + self.banner[0]
            self.banner = (msg, sd.seat_colour(seat), self.now + BANNER_NS)
            self.app.sounds.play("won")
        else:
            self.app.sounds.play("flip")
        if len(st.history) in (12, 40):
            self.app.screenshot(f"focus-{self.variant}-ply{len(st.history)}")

    def again(self) -> GameScene[State]:
        """A new game of the same variant with the same seats."""
        return SacksonScene(self.app, self.seats, self.variant, None, self.settings,
                            self.budget_s, self.max_nodes, self.levels, spec=self.spec)

    def record(self) -> dict[str, object]:
        """SF-7: the record carries the start and final positions (stacks bottom to top)."""
        return to_record(self.state, self.seed, self.spec.name)

    # -- text -------------------------------------------------------------------------------------
    def prompt(self) -> tuple[str, str]:
        """(what to do now, control hint) for the seat to move (:mod:`kiosk.games.sackson.words`)."""
        st = self.state
        out = st.outcome()
        if out is not None:
            return words.result_words(out)
        cp = st.current_player()
        if self.seats[cp].is_computer:
            # the level that searches: the thinking process plays the expert as its own level
            shown = self.search_levels[cp] if self.thinker is not None else self.levels[cp]
            return (_("thinking..."), _("computer, {level}").format(level=skill_word(shown)))
        if self.chooser is None:
            return ("", "")
        return (words.choice_words(st, self.chooser, self.effect), self.controls_hint(cp))

    def controls_hint(self, seat: int) -> str:
        """How ``seat`` works the cursor: its own keys on the keyboard, else the station's names."""
        info = self.seats[seat]
        kb = self.app.keyboard
        plain = self.keyboard_drives(seat)
        arrows = _("arrows") if not self.app.input.is_station_key("right") else _("keypad 4/6")
        if self.buzzer_only(seat):
            name = _("buzzer")
            if info.station == "keyboard" and kb is not None and kb.key_names(seat, "buzzer"):
                name = kb.describe(seat, "buzzer")
            if plain:
                return _("{name}: tap = next, hold = take, hold 2 s = back; {arrows}, Enter take, Esc back").format(
                    name=name, arrows=arrows)
            return _("{name}: tap = next, hold = take, hold 2 s = back").format(name=name)
        if plain:
            return _("{arrows} choose, Enter take, Esc back").format(arrows=arrows)
        if info.station == "keyboard" and kb is not None:
            keys = [kb.key_names(seat, c) for c in ("left", "right", "ok", "x", "buzzer")]
            short = [_("{a} or {b}").format(a=k[0], b=k[1]) if len(k) > 1 else k[0] if k else _("no key")
                     for k in keys]
            backs = [b for k, b in zip(keys[3:], short[3:]) if k]
            back = _("{a} or {b}").format(a=backs[0], b=backs[1]) if len(backs) == 2 else \
                backs[0] if backs else _("buzzer")
            return _("{left}/{right} choose, {ok} take, {back} back").format(
                left=short[0], right=short[1], ok=short[2], back=back)
        return _("left/right choose, OK take, buzzer back")


    def effect(self, action: Action) -> str:
        """What ``action`` would do: height reached, stones captured / back to reserve
        (:func:`kiosk.games.sackson.chooser.move_effect`, kept until the next move)."""
        key = (action, i18n.current())            # its words are in the language spoken
        if key not in self._preview_cache:
            self._preview_cache[key] = move_effect(self.state, action)
        return self._preview_cache[key]

    # -- drawing: what each part shows; the parts draw it (board_layer, panel) ----------------
    def shown_banner(self) -> tuple[str, tuple[int, int, int]] | None:
        """The banner's words and colour while it shows (a capture, a skipped seat, "Esc
        again"), else None."""
        return self.banner[:2] if self.banner and self.now < self.banner[2] else None

    def _choice(self) -> MoveChooser | None:
        """The half-chosen move the screen shows: a person's, on their turn."""
        return self.chooser if self.human_to_move() is not None else None

    def draw(self, surface: pygame.Surface) -> None:
        """The screen in parts (:func:`kiosk.games.sackson.screen.draw`), each drawn again only
        when what it shows changes: the board, the title row, whose turn, the player cards,
        and below them the banner, the last moves and the virtual LED matrix."""
        st = self.state
        ch = self.chooser
        reserve_seat = st.current_player() if ch is not None and ch.phase == "source" and ch.current() == RESERVE \
            else None
        led = self.app.led
        shown = screen.ScreenShown(
            st, _(self.title), _(panel.SHORT_TITLES[self.variant]), tuple(s.label for s in self.seats), self.last,
            self._choice(), reserve_seat, tuple(self.log), frozenset(self.skipped), self.shown_banner(),
            self._turn_shown(), self.now, led is not None and led.virtual is not None,
            led.virtual_picture() if led is not None else None)
        self.note_strip = screen.draw(surface, self.parts, shown, self.board_layer, self.geometry(surface.get_size()))

    def _turn_shown(self) -> panel.TurnShown:
        """What the whose-turn box shows (also its key in render.Parts): the seat, the thinking
        ring's fraction or how long the buzzer is held, the count choice, the prompt."""
        st = self.state
        cp = st.current_player()
        thinking: float | None = None
        held_ns: int | None = None
        if cp >= 0:
            if self.seats[cp].is_computer:
                span = max(self.pause_ns, int(self.budget_s * 1e9) if self.levels[cp] == "hard" else self.pause_ns)
                thinking = ((self.now - self.think_started) % max(1, span)) / max(1, span) \
                    if self.future is not None else 0.0
            held = self.hold_start.get(cp)
            if held is not None and not self.seats[cp].is_computer:
                held_ns = max(0, self.now - held)
        ch = self._choice()
        counting = ch is not None and ch.phase == "count"
        what, hint = self.prompt()
        return panel.TurnShown(cp, st.in_opening_swap, what, hint, thinking, held_ns,
                               tuple(ch.counts()) if ch is not None and counting else (),
                               ch.current() if ch is not None and counting else None)

    # -- LED ----------------------------------------------------------------------------------------
    def led_picture(self, now_ns: int) -> LedPicture | None:
        from arcade.lights import pictures as ledv
        from arcade.sackson.pictures import state_picture
        cfg = self.app.cfg["led"]
        w, h = cfg["width"], cfg["height"]
        out = self.state.outcome()
        if out is not None and self.over_at is not None and out.winners:
            phase = ((now_ns - self.over_at) % 1_000_000_000) / 1e9
            if now_ns - self.over_at < FINISH_NS // 2:
                return ledv.flash_picture(out.winners[0], phase, w, h)
        # one picture a position: made again only when a move was played (or the size changed)
        key = (id(self.state), len(self.state.history), self.state.position_key, w, h)
        if self._led_cache is None or self._led_cache[0] != key:
            self._led_cache = (key, state_picture(self.state, w, h))
        return self._led_cache[1]

    #: The last LED picture of the position and what it showed.
    _led_cache: tuple[tuple[object, ...], Any] | None = None


#: The registry entries this screen draws (label, names and seats from arcade.registry).
def _start(app: Host, seats: list[SeatInfo], spec: GameSpec) -> GameScene[State]:
    """The lobby game's maker: a game of ``spec`` (its ``variant``)."""
    return SacksonScene(app, seats, str(spec.fixed["variant"]), spec=spec)


LOBBY_GAMES = [lobby_game("crossfire" if v == "crossfire" else f"focus-{v}", _start)
               for v in ("2p", "3p", "4p-teams", "4p", "crossfire")]
