"""Focus (2023) on the TV: the side row and the 4x4 grid, each player's clue file,
offers and the reveal, round scores and the rating.

Who sits where (``SeatInfo``):

* one human and the arcade's partner (``arcade.bots.coop``): the human's
  marker is shown on screen (CO-5);
* two humans on one screen: a marker is shown only while its owner holds the
  peek control (the buzzer) and after the screen has asked the other player
  to look away for ``PEEK_DELAY_S`` (CO-5).  One peek at a time: a second hold
  while the other player holds hides both ("ONE PEEK AT A TIME"), and a new
  deal ends any peek (let go, hold again, the look-away prompt comes again).
  In the pointing of Sherlock Mode the same holds for each player's pointing
  cursor, so both choose secretly and the choices are revealed together (CO-6);
* the demo: two computer partners, both markers shown for the audience (the
  case comes from ``app.args.case`` when the command line gives one).

Station controls (keyboard: P1 ``A``/``D`` left/right, ``S`` OK, ``W`` X, key
``1`` buzzer; P2 arrows Left/Right, Down = OK, Up = X, key ``2`` buzzer):

* case choice: any station's Left/Right (also the keyboard arrows when P2 is
  the computer), OK or Enter starts;
* Left/Right move your cursor over the cards you may take (or point at);
* OK lifts the card under the cursor, OK again takes it (a second look before
  a card that could lose the game); in the pointing OK chooses / unchooses;
* Sherlock rules, after your take: X offers, OK ends your turn, and it ends by
  itself after ``OFFER_WINDOW_S`` (CO-6: the end of a turn);
* X at another moment: the offer waits for the next start or end of a turn
  ("will offer"; X again withdraws it; it is dropped when the round ends);
  when the partner offers: OK accepts, X refuses;
* hold the buzzer to peek (two humans).

A station with a buzzer alone (GPIO buzzers without choose controls, ``SeatInfo.can_choose``
false) plays with the gestures of every other game (kiosk/controls/gestures.py), judged on the release:

* a **tap** (under 0.6 s) = next: the cursor to the next card (in the case choice: the next
  case; after your take: end your turn now);
* a **hold** (0.6 s) = take or offer: lift the card under the cursor, hold again to take it;
  in the pointing choose it; after your take, or when it is not your turn, offer (Sherlock
  rules); when the partner offers, accept (in the case choice: start);
* a **long hold** (2 s) = back: put the lifted card back; when the partner offers, refuse.
  With two people the long hold is also the peek (the marker shows while it is held, after
  the look-away prompt), so peeking never takes a card.

The case choice starts by itself ``[lobby] auto_start_s`` after the last press.

The clue in this game is the card a player takes (seed: players may not talk);
its name and tags on screen are the vocabulary the partner reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

import pygame

from arcade import i18n, registry
from arcade.bots.coop import SKILLS as PARTNER_SKILLS
from arcade.bots.coop import CoopPartner
from arcade.coop.exhibits import CASES, case_title
from arcade.coop.game import (
    GRID,
    CoopGame,
    CoopState,
    Deal,
    Offer,
    Pass,
    rating,
)
from arcade.coop.house import CoopPlayer
from arcade.coop.similarity import table_problem
from arcade.core.api import CHANCE, State
from arcade.core.driver import Driver
from arcade.core.events import Edge
from arcade.i18n import _
from kiosk import render
from kiosk.controls.gestures import HOLD_NS, LONG_HOLD_NS
from kiosk.controls.input import Command
from kiosk.games.coop import screen, side, words
from kiosk.games.coop.choosing import Choosing
from kiosk.games.coop.partners import FacesMade, PartnerPlayer, case_key, marker_visible
from kiosk.games.coop.table import TableShown, cell_rects
from kiosk.players import thinker as thinker_mod
from kiosk.scenes.game import GameScene
from kiosk.scenes.seats import SeatInfo, lobby_game

if TYPE_CHECKING:
    from arcade.registry import GameSpec
    from kiosk.scene import Host, LedPicture

PEEK_DELAY_S = 1.5          # CO-5: "look away" shown this long before a marker appears
THINK_S = 1.6               # a computer partner's pause before it acts
OFFER_WINDOW_S = 3.0        # CO-6: a human taker may offer (X) or pass (OK) this long at the end of its turn
REVEAL_S = 7.0              # the end of a round stays on screen this long (OK skips)
CASE_CHOICES = ("",) + tuple(CASES)


def cfg_coop(app: Host, key: str, default: float) -> float:
    """``[coop]`` settings from the configuration if it has them, else the default."""
    try:
        return float(app.cfg.data.get("coop", {}).get(key, default))
    except (AttributeError, TypeError, ValueError):
        return default


class CoopScene(Choosing):
    """One game of Focus (2023) in any mode (CO-1..CO-6)."""

    def __init__(self, app: Host, seats: list[SeatInfo], mode: str = "base", case: str | None = None,
                 seed: int | None = None, setup: bool | None = None, spec: GameSpec | None = None) -> None:
        """``spec``: the registry entry played (the lobby game's, ``LobbyGame.start``); default
        the entry of ``mode`` (:func:`arcade.registry.resolve`).

        Raises:
            SettingsError: an unknown mode, or a ``spec`` of another mode."""
        spec = spec or registry.resolve("coop", mode)
        if spec.fixed.get("mode") != mode:
            from arcade.core.errors import SettingsError
            raise SettingsError("mode", mode, f"{spec.fixed.get('mode')!r} for {spec.name}")
        self.players = seats[:2]
        self.setup = True
        super().__init__(app, seats[:2], seed)
        self.spec = spec
        self.mode = mode
        self.setup = (not app.demo) if setup is None else setup
        if case is None:                       # demo --case (the lead's CLI) reaches us here
            case = case_key(app.options.case, app)
        self.case_i = CASE_CHOICES.index(case) if case in CASE_CHOICES else 0
        pace = app.pace_override
        self.think_ns = int((pace if pace is not None else cfg_coop(app, "think_s", THINK_S)) * 1e9)
        self.peek_delay_ns = int(cfg_coop(app, "peek_delay_s", PEEK_DELAY_S) * 1e9)
        self.offer_window_ns = int(cfg_coop(app, "offer_window_s", OFFER_WINDOW_S) * 1e9)
        self.peek_clash_until: int | None = None
        self.deal_faces: FacesMade | None = None   # the next deal and its faces being made
        self.reveal_ns = int(max(REVEAL_S, 2.5 * self.think_ns / 1e9) * 1e9)
        self.cursor = [16, 16]
        self.lifted: list[int | None] = [None, None]
        self.chosen: list[list[int]] = [[], []]
        self.wants_offer = [False, False]
        self.peek_since: list[int | None] = [None, None]
        self.reveal_until: int | None = None
        self.last_take: tuple[int, int, int] | None = None    # seat, pos, time
        self.hold_start: dict[int, int] = {}      # buzzer-only seats: when the buzzer went down (ns)
        # kiosk/players/away.py: after an edge whose move the game refused, when that seat's presses for
        # the move began (ns; the hold that lifted a card), else None
        self.press_refused: int | None = None
        self.press_t: dict[int, int] = {}         # seat -> its last press (ns)
        self.lift_t: dict[int, int] = {}          # seat -> the press that lifted its card (ns)
        self.setup_since: int | None = None       # the case choice's last press (ns), for its auto start
        self.setup_auto_ns = int(float(app.cfg.data.get("lobby", {}).get("auto_start_s", 10)) * 1e9)
        if not self.setup:
            self._new_game()

    # -- set-up -----------------------------------------------------------------------
    @property
    def seats(self) -> list[SeatInfo]:
        """The seats of the game; none while the case is being chosen, so that
        every station's left/right/OK reaches the choice (``App.accepts`` only
        filters presses by station during a game)."""
        return [] if self.setup else self.players

    @seats.setter
    def seats(self, value: Sequence[SeatInfo]) -> None:
        self.players = list(value)[:2]

    def seat_infos(self) -> list[SeatInfo]:
        return list(self.players)

    finish_ns = 500_000_000

    @property
    def case(self) -> str:
        return CASE_CHOICES[self.case_i]

    def resume_settings(self) -> dict[str, str]:
        """What a resume needs besides the lobby game and seats: the case played."""
        return {"case": self.case}

    def begin_resumed(self, settings: Mapping[str, str]) -> None:
        """A resumed game skips the case choice: the saved case, the game at once."""
        case = settings.get("case", "")
        self.case_i = CASE_CHOICES.index(case) if case in CASE_CHOICES else 0
        self._new_game()

    def _new_game(self) -> None:
        self.setup = False
        self.game = CoopGame(2, {"mode": self.mode, "case": self.case})
        self.state = self.initial_state(self.game, CoopState)
        self.rng = self.stream("0")
        self.partners: dict[int, CoopPartner] = {}
        for s, info in enumerate(self.players):
            if info.is_computer:
                skill = info.skill if info.skill in PARTNER_SKILLS else "medium"
                self.partners[s] = CoopPartner(s, skill, rng=self.stream(f"p{s}"))
        # The match driver deals (chance, after the reveal of the last round), moves the
        # computer partners after their pauses (both seats point at once, CO-5), checks
        # every person's move and ends a person's turn when its offer window closes (CO-6).
        self.driver: Driver = self.spec.driver(
            self.state, [self._partner_player(s) for s in range(2)], self.rng,
            chance_pause=self._reveal_pause, time_limit=self._time_limit, chance_source=self._deal_source,
            chance_rng=self.rng)
        self.humans = [s for s in range(2) if s not in self.partners]
        problem = table_problem()
        if problem and self.partners:
            # the partner still plays, on the tags only: say so (and in the log)
            self.app.message(_("Focus (2023): {problem}. The computer partner plays on the exhibits' tags only.").format(
                problem=problem))

    def take_over(self, seat: int, back: bool) -> None:
        """A person who walked away (kiosk/players/away.py): a computer partner plays ``seat`` until
        ``back``; the partner starts from what the table shows now."""
        if back:
            self.partners.pop(seat, None)
        elif seat not in self.partners:
            skill = self.app.cfg["seats"]["computer_skill"]
            self.partners[seat] = CoopPartner(seat, skill if skill in PARTNER_SKILLS else "medium",
                                              rng=self.stream(f"away{seat}"))
        self.humans = [s for s in range(2) if s not in self.partners]
        driver = self.__dict__.get("driver")
        if driver is not None:                  # (none yet while the case is chosen)
            driver.set_player(seat, self._partner_player(seat))

    #: False: the partners decide in this process (tests compare both ways)
    think_elsewhere = True

    @property
    def partner_worker(self) -> thinker_mod.WorkerChoice | None:
        """Who works out the partners' moves in the thinking process (None: here)."""
        if "_partner_worker" not in self.__dict__:
            self.__dict__["_partner_worker"] = thinker_mod.shared_choice(
                "coop-partner", self.app.message, self.think_elsewhere, entry=self.spec.name)
        worker: thinker_mod.WorkerChoice | None = self.__dict__["_partner_worker"]
        return worker

    def _partner_player(self, seat: int) -> CoopPlayer | None:
        """The driver's player for ``seat``: its computer partner, or None for a person."""
        partner = self.partners.get(seat)
        return None if partner is None else PartnerPlayer(partner, self.think_ns, self.partner_worker)

    def card_size(self) -> tuple[int, int]:
        """The table's card size on this screen (px): the size the faces are made at."""
        W, H = self.app.screen.get_size()
        r = cell_rects(pygame.Rect(10, 52, int(W * 0.47), H - 60))[0]
        return r.w, r.h

    def _deal_source(self, state: Any, action: Any) -> FacesMade:
        """The driver's chance source: the deal the driver drew (from this screen's rng),
        ready once its faces are made (during the reveal of the round before, a few a frame;
        before the first round, in its first frames)."""
        assert isinstance(action, Deal)
        self.deal_faces = FacesMade(action, self.card_size())
        if not state.results:               # the first deal shows in the first frame: its faces made now
            self.deal_faces.work(budget_ns=10 ** 12)
        return self.deal_faces

    def _reveal_pause(self, state: Any) -> int:
        """The driver's pause before a deal: the reveal of the round before (ns)."""
        return self.reveal_ns if state.results else 0

    def _time_limit(self, state: Any, seat: int) -> tuple[int, Any] | None:
        """CO-6: a person's turn ends by itself (a pass) when its offer window closes."""
        return (self.offer_window_ns, Pass()) if state.phase == "end" else None

    @property
    def end_due(self) -> int | None:
        """When a person taker's offer / pass window closes (ns), else None."""
        st = self.state
        return self.driver.due(st.active) if st.phase == "end" and st.active in self.humans else None

    @property
    def title(self) -> str:
        t = words.mode_title(self.mode)
        return t + (f": {_(case_title(self.case))}" if self.case else "")

    # -- input ----------------------------------------------------------------------------
    def on_game_command(self, command: Command) -> None:
        if command.name != "ok":
            return
        if self.setup:
            self._new_game()
        elif self.reveal_until is not None:
            self._skip_reveal()

    def buzzer_only(self, seat: int) -> bool:
        """True for a person's station without left/right/OK (``SeatInfo.can_choose`` false)."""
        if seat >= len(self.players) or seat in getattr(self, "partners", {}):
            return False
        info = self.players[seat]
        return not info.can_choose and not info.is_computer

    def _gesture(self, edge: Edge) -> str | None:
        """A buzzer-only seat's gesture, on the release: "tap", "hold" or "long" (None while held)."""
        if edge.pressed:
            self.hold_start[edge.seat] = edge.t_ns
            return None
        start = self.hold_start.pop(edge.seat, None)
        if start is None:
            return None
        held = edge.t_ns - start
        return "long" if held >= LONG_HOLD_NS else "hold" if held >= HOLD_NS else "tap"

    def on_station(self, edge: Edge) -> None:
        s = edge.seat
        self.press_refused = None                # kiosk/players/away.py: a refused press is no presence
        if edge.pressed:
            self.press_t[s] = edge.t_ns
        if self.setup:
            self.setup_since = edge.t_ns
            if edge.control == "buzzer" and self.buzzer_only(s):
                g = self._gesture(edge)
                if g == "tap":
                    self.case_i = (self.case_i + 1) % len(CASE_CHOICES)
                elif g is not None:
                    self._new_game()
            elif edge.pressed and edge.control in ("left", "right"):
                self.case_i = (self.case_i + (1 if edge.control == "right" else -1)) % len(CASE_CHOICES)
            elif edge.pressed and edge.control in ("ok", "buzzer"):
                self._new_game()
            return
        if s in self.partners:
            self.hold_start.pop(s, None)
            return
        if edge.control == "buzzer" and self.buzzer_only(s):
            self._peek(s, edge.pressed, edge.t_ns)
            g = self._gesture(edge)
            if g is not None:
                self._buzzer_gesture(s, g)
            return
        if edge.control == "buzzer":
            self._peek(s, edge.pressed, edge.t_ns)
            return
        if not edge.pressed:
            return
        self.app.sounds.play("press")
        st = self.state
        if self.reveal_until is not None:
            if edge.control == "ok":
                self._skip_reveal()
            return
        if st.is_terminal() or st.current_player() == CHANCE:
            return
        if edge.control in ("left", "right"):
            self._move(s, 1 if edge.control == "right" else -1)
        elif edge.control == "ok":
            self._ok(s)
        elif edge.control == "x":
            self._x(s)

    # -- the game -----------------------------------------------------------------------------
    def advance(self, now_ns: int) -> None:
        if self.setup:
            if self.setup_since is None:
                self.setup_since = now_ns
            elif now_ns - self.setup_since >= self.setup_auto_ns:
                self._new_game()                     # nobody chose: the case shown is played
            return
        st = self.state
        if self.reveal_until is not None and now_ns >= self.reveal_until:
            self.reveal_until = None
        if st.is_terminal():
            if self.reveal_until is None:
                self.finish(now_ns)
            return
        # a person's queued offer, at the start or end of a turn (CO-6)
        if self.reveal_until is None:
            for h in self.humans:
                if self.wants_offer[h] and st.may_offer(h):
                    self._apply(Offer(), h)
                    return
        prep = self.deal_faces
        if prep is not None and prep.todo:
            prep.work()              # the next deal's faces, during the reveal (the driver asks after it)
        moves = len(st.history)
        self.driver.tick(now_ns)     # deals, the partners' moves, a person's turn that ran out
        for actor, action in st.history[moves:]:
            if actor == CHANCE:
                self._dealt(now_ns)
            else:
                self._moved(actor, action)
        if st.is_terminal() or st.current_player() == CHANCE:
            return
        for h in self.humans:                   # a cursor on a card just taken moves on
            t = self.targets(h)
            if t and self.cursor[h] not in t:
                self.cursor[h] = min(t, key=lambda p: (abs(p - self.cursor[h]), p))
                self.lifted[h] = None

    def again(self) -> GameScene[State]:
        return CoopScene(self.app, self.players, self.mode, self.case, setup=False, spec=self.spec)

    # -- drawing: what the screen shows (screen.py, table.py and side.py draw it) ----------------
    def _peeking(self, seat: int) -> bool:
        return marker_visible(self.players, seat, self.peek_since[seat], self.now, self.peek_delay_ns, self.app.demo)

    def peeks_shown(self) -> words.PeeksShown:
        """What the look-away veil depends on (:func:`kiosk.games.coop.words.looking_away`)."""
        return words.PeeksShown(tuple(self.humans), tuple(self.peek_since), self.peek_clash_until, self.now,
                                self.peek_delay_ns)

    def _reveal(self) -> bool:
        """The reveal of the round just played shows."""
        return self.reveal_until is not None and bool(self.state.results)

    def _buzzers_only(self) -> bool:
        """Every person here plays with a buzzer alone."""
        people = [s for s, i in enumerate(self.players) if not i.is_computer]
        return bool(people) and all(self.buzzer_only(s) for s in people)

    def prompt_shown(self) -> words.PromptShown:
        """What the prompt depends on (:func:`kiosk.games.coop.words.prompt`)."""
        due = self.end_due
        left = None if due is None else max(0, (due - self.now + 999_999_999) // 1_000_000_000)
        return words.PromptShown(self.state, self._reveal(), frozenset(self.partners), tuple(self.humans),
                                 tuple(self.buzzer_only(s) for s in range(2)), self._buzzers_only(),
                                 tuple(self.lifted), left)

    def _setup_left(self) -> int | None:
        """Whole seconds before the case choice starts by itself (None before the first frame)."""
        if self.setup_since is None:
            return None
        return max(0, (self.setup_auto_ns - (self.now - self.setup_since) + 999_999_999) // 1_000_000_000)

    def setup_words(self) -> words.SetupWords:
        """What the case choice's lines depend on (:func:`kiosk.games.coop.words.setup_lines`)."""
        return words.SetupWords(self._setup_left(), self._buzzers_only(),
                                any(self.buzzer_only(s) for s in range(len(self.players))),
                                self.mode in ("sherlock", "mycroft-sherlock"))

    #: What the screen key leaves out: the clock (what depends on it is in the key as shown),
    #: the app, the rules, the driver and players (the position stands by its history).
    _NOT_DRAWN = frozenset({"now", "app", "state", "game", "driver", "partners", "players_impl", "bot_rng", "rng",
                            "_parts", "thinker", "future", "_state", "due_ns", "_partner_worker",
                            "resume_steps", "_led_box", "deal_faces"})

    #: Where the virtual LED matrix was drawn, while its lights are a part of their own.
    _led_box: pygame.Rect | None = None

    def screen_key(self) -> tuple[object, ...]:
        """Everything the screen shows depends on (render.Parts): the position (its history),
        this scene's own fields, what the clock decides (banner, last take, prompt, peeking,
        the veil) and the virtual LED matrix."""
        fields = tuple((k, render.frozen(v)) for k, v in sorted(vars(self).items()) if k not in self._NOT_DRAWN)
        st = self.game_state()
        if self.setup or st is None:                 # the case choice: no game yet
            return ("setup", fields, self._setup_left(), i18n.current())
        clock = (bool(self.banner and self.now < self.banner[2]),
                 self.last_take is not None and self.now - self.last_take[2] < 2_000_000_000,
                 words.prompt(self.prompt_shown()), tuple(self._peeking(s) for s in range(2)),
                 words.looking_away(self.peeks_shown()))
        return (id(st), len(st.history), st.current_player(), fields, clock, i18n.current())

    def draw(self, surface: pygame.Surface) -> None:
        """The whole screen, drawn again only when :meth:`screen_key` changes, and the virtual
        LED matrix's lights, drawn again when the picture changes (render.Parts)."""
        parts = self.parts
        parts.begin(surface)
        picture = self.app.led.virtual_picture() if self.app.led.virtual is not None else None
        # Under the veil (or before the first drawing) the matrix is drawn with the screen.
        drawn = parts.part(surface, "screen", surface.get_rect(),
                           (self.screen_key(), picture if self._led_box is None else None),
                           lambda: self._draw_screen(surface), background=None)   # it fills itself
        box = self._led_box
        if box is None:                  # no matrix here, or under the veil: drawn with the screen
            parts.forget("lights")
            return
        if drawn:
            parts.forget("lights")
        lights = render.led_lights_rect(box, picture)
        if lights is not None:
            parts.part(surface, "lights", lights, (picture,), lambda: render.led_matrix_lights(surface, box, picture))
        else:
            parts.forget("lights")

    def _draw_screen(self, surface: pygame.Surface) -> None:
        """The screen drawn from what it shows; the title strip (an app note goes over it) and
        where the side panel put the LED matrix come back from the drawing."""
        drawn = screen.draw_screen(surface, self.shown())
        self.note_strip = drawn.note_strip
        if drawn.placed_matrix:
            self._led_box = drawn.matrix

    def shown(self) -> screen.ScreenShown | screen.SetupShown:
        """What the screen shows now: the case choice, or the game's table and side panel."""
        if self.setup:
            names = [f"P{s + 1} ({_('computer partner') if i.is_computer else i.label})"
                     for s, i in enumerate(self.players)]
            who = _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])
            label = _("All 84 cards (random faces)") if not self.case else \
                _("Mrs. Hudson: {case}").format(case=_(case_title(self.case)))
            return screen.SetupShown(words.mode_title(self.mode), who, label,
                                     tuple(words.setup_lines(self.setup_words())))
        st = self.state
        reveal = self._reveal()
        last = None
        if self.last_take is not None and not reveal and self.now - self.last_take[2] < 2_000_000_000:
            last = (self.last_take[0], self.last_take[1])
        table = TableShown(st, reveal, tuple(self._peeking(s) for s in range(2)), tuple(self.humans), last,
                           tuple(self.cursor), tuple(self.lifted), tuple(tuple(c) for c in self.chosen))
        result = st.results[-1] if reveal else None
        seats = tuple(side.SeatShown(s, _("computer partner") if s in self.partners else self.players[s].label,
                                     not st.is_terminal() and st.current_player() == s, self.wants_offer[s],
                                     words.refusal_noted(st, s, reveal),
                                     tuple(result.clues[s]) if result is not None else tuple(st.clues(s)))
                      for s in range(2))
        total = st.total()
        score = side.ScoreShown(self.game.sherlock_rules, self.game.rounds, tuple(r.score for r in st.results),
                                total, _(rating(total)) if len(st.results) == self.game.rounds else None,
                                sum(1 for p in range(GRID) if st.faces[p] is not None),
                                2 * self.game.exhibits_per_seat)
        banner = self.banner[:2] if self.banner and self.now < self.banner[2] else None
        led = self.app.led
        panel = side.SideShown(words.prompt(self.prompt_shown()), banner, seats, score, led.virtual is not None,
                               led.virtual_picture() if led.virtual is not None else None)
        return screen.ScreenShown(_(self.title), words.mode_title(self.mode), _(case_title(self.case)) if self.case else "",
                                  st.round_no, self.game.rounds, self.game.sherlock_rules, total,
                                  words.looking_away(self.peeks_shown()), table, panel)

    def led_picture(self, now_ns: int) -> LedPicture | None:
        from arcade.coop.pictures import table_picture
        from arcade.lights import pictures as ledv
        cfg = self.app.cfg["led"]
        w, h = cfg["width"], cfg["height"]
        if self.setup:
            return ledv.text_picture("CO", (255, 200, 40), w, h)
        st = self.state
        result = st.results[-1] if (self.reveal_until is not None and st.results) else None
        if result is not None:
            return table_picture([f is not None for f in result.faces], w, h, reveal=result.markers,
                                 pointed=result.points, clue_counts=[len(c) for c in result.clues])
        last = None
        if self.last_take is not None and now_ns - self.last_take[2] < 1_500_000_000:
            last = (self.last_take[0], self.last_take[1])
        return table_picture([f is not None for f in st.faces], w, h, last=last,
                             clue_counts=[len(st.clues(0)), len(st.clues(1))])


#: The registry entries this screen draws (label, names and seats from arcade.registry).
def _start(app: Host, seats: list[SeatInfo], spec: GameSpec) -> GameScene[State]:
    """The lobby game's maker: a game of ``spec`` (its ``mode``)."""
    return CoopScene(app, seats, str(spec.fixed["mode"]), spec=spec)


LOBBY_GAMES = [lobby_game(f"coop-{mode}", _start) for mode in ("base", "sherlock", "mycroft", "mycroft-sherlock")]
