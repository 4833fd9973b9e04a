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
false) plays with the gestures of every other game (kiosk/gestures.py), judged on the release:

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

import time
from functools import partial
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import pygame

from arcade import registry
from arcade.bots.coop import SKILLS as PARTNER_SKILLS
from arcade.bots.coop import CoopPartner
from arcade.coop.exhibits import CASES, case_title, exhibit
from arcade.coop.game import (
    GRID,
    POSITIONS,
    SIDE_POSITIONS,
    Accept,
    CoopGame,
    CoopState,
    Deal,
    Offer,
    Pass,
    Point,
    Refuse,
    Take,
    cell_name,
    rating,
)
from arcade.coop.house import CoopPlayer
from arcade.coop.similarity import table_problem
from arcade.core.api import CHANCE, State
from arcade.core.driver import Driver
from arcade.core.errors import IllegalActionError
from arcade.core.events import Edge
from kiosk import render
from kiosk import thinker as thinker_mod
from kiosk.games.coop.draw import clue_surface, face_surface, thumb_surface
from kiosk.gestures import HOLD_NS, LONG_HOLD_NS
from kiosk.input import Command
from kiosk.scenes.game import GameScene
from kiosk.scenes.seats import SeatInfo, lobby_game

if TYPE_CHECKING:
    from kiosk.scene import Host, LedPicture

#: CO-5: the one sign of a refused take when two people share the screen.
REFUSED_TAKE = "That card cannot be taken"
PEEK_DELAY_S = 1.5          # CO-5: "look away" shown this long before a marker appears
THINK_S = 1.6               # a computer partner's pause before it acts
OFFER_WINDOW_S = 3.0        # CO-6: a human taker may offer (X) or pass (OK) this long at the end of its turn
PEEK_CLASH_S = 3.0          # CO-5: "one peek at a time" stays on screen this long
REVEAL_S = 7.0              # the end of a round stays on screen this long (OK skips)
FACES_BUDGET_NS = 1_500_000  # a frame makes the next deal's card faces for about this long (at least one)
CLUE_W, CLUE_H, CLUE_GAP = 114, 136, 7     # px: a clue-file card never gets smaller (three metres)
MODE_TITLES = {"base": "Focus (2023)", "sherlock": "Focus (2023) Sherlock Mode",
               "mycroft": "Focus (2023) Mycroft Mode",
               "mycroft-sherlock": "Focus (2023) Mycroft Mode, Sherlock rules"}
CASE_CHOICES = ("",) + tuple(CASES)


def cfg_coop(app: Host, key: str, default: float) -> float:
    """``[coop]`` settings from the configuration if it has them, else the default."""
    try:
        return float(app.cfg.data.get("coop", {}).get(key, default))
    except (AttributeError, TypeError, ValueError):
        return default


class PartnerPlayer(CoopPlayer):
    """A computer partner's seat whose decision (1-10 ms: the belief over the grid) is
    worked out in the kiosk's thinking process (:class:`kiosk.thinker.WorkerChoice`,
    issue 14) while its pause shows; the worker runs the same partner on the seat's own
    view (CO-5).  Each decision's noise is seeded from the partner's stream, the moves made
    and the seat (:func:`kiosk.thinker.decision_seed`), so the same game plays the same
    moves in either place; a dead or stuck worker still
    gets the move made (the same partner, in this process).

    Args:
        partner: the seat's partner (its skill and its random stream).
        think_ns: the pause, as :class:`arcade.coop.house.CoopPlayer`.
        worker: the thinking process's client (None: every decision here).
    """

    def __init__(self, partner: CoopPartner, think_ns: int, worker: thinker_mod.WorkerChoice | None) -> None:
        super().__init__(partner, think_ns)
        self.worker = worker
        self.base_seed = int(partner.rng.getrandbits(62))

    def _seed(self, state: Any, seat: int) -> int:
        return thinker_mod.decision_seed(self.base_seed, state, seat)

    def choose(self, state: Any, seat: int, rng: Any) -> Any:
        return thinker_mod.decide_here("coop-partner", state, seat, self.partner.skill.name, self._seed(state, seat))

    def begin(self, state: Any, seat: int, rng: Any) -> Any:
        if self.worker is None:
            return None
        return self.worker.begin(state, seat, self.partner.skill.name, self._seed(state, seat))


def seat_colour(seat: int) -> tuple[int, int, int]:
    """The screen colour of a seat (``render.SEAT_COLOURS``) as an RGB triple."""
    c = render.SEAT_COLOURS[seat]
    return (c[0], c[1], c[2])


def case_key(name: str | None, app: Host | None = None) -> str:
    """The case key for a case name (key or title, any case; None or "" = all cards).

    An unknown name plays all cards and says so on screen (``app.message``)."""
    if not name:
        return ""
    for key, (title, _faces) in CASES.items():
        if str(name).lower() in (key, title.lower()):
            return key
    if app is not None:
        app.message(f"Focus (2023): no case {name!r} (expected one of {', '.join(CASES)}); playing all cards")
    return ""


def marker_visible(seats: list[SeatInfo], seat: int, peek_since_ns: int | None, now_ns: int,
                   delay_ns: int, demo: bool = False) -> bool:
    """Whether seat's marker may be drawn now (CO-5).

    A computer's marker is never shown (except in the demo, for the audience);
    with one human and the partner the human's marker is always shown; with two
    humans it is shown only while its owner holds the peek control and
    ``delay_ns`` after the hold began (the screen asked the other to look away).
    """
    if demo and all(s.is_computer for s in seats):
        return True
    if seats[seat].is_computer:
        return False
    humans = sum(1 for s in seats if not s.is_computer)
    if humans < 2:
        return True
    return peek_since_ns is not None and now_ns - peek_since_ns >= delay_ns


class FacesMade:
    """A :class:`arcade.core.driver.Thought`: a deal drawn already (the outcome the driver
    would draw, from its rng), ready once its card faces are made at the table's card size.

    The faces are made a few a frame (:meth:`work`, about ``FACES_BUDGET_NS`` a frame), so
    no frame makes all twenty and the frame that deals only blits faces already made
    (``face_surface`` keeps them)."""

    def __init__(self, action: Deal, size: tuple[int, int]) -> None:
        self.action = action
        self.size = size
        self.todo = sorted(set(action.faces), reverse=True)

    def work(self, budget_ns: int = FACES_BUDGET_NS) -> None:
        """Make faces for about ``budget_ns`` (at least one while some are left)."""
        t0 = time.perf_counter_ns()
        while self.todo:
            face_surface(self.todo.pop(), *self.size)
            if time.perf_counter_ns() - t0 >= budget_ns:
                break

    def result(self) -> Deal | None:
        self.work()
        return None if self.todo else self.action

    def cancel(self) -> None:
        self.todo = []


class CoopScene(GameScene[CoopState]):
    """One game of Focus (2023) in any mode (CO-1..CO-6)."""

    def __init__(self, app: Host, seats: list[SeatInfo], mode: str = "base", case: str | None = None,
                 seed: int | None = None, setup: bool | None = None) -> None:
        self.players = seats[:2]
        self.setup = True
        super().__init__(app, seats[:2], seed)
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
        # kiosk/away.py: after an edge whose move the game refused, when that seat's presses for
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
        self.driver: Driver = registry.of_state(self.state).driver(
            self.state, [self._partner_player(s) for s in range(2)], self.rng,
            chance_pause=self._reveal_pause, time_limit=self._time_limit, chance_source=self._deal_source,
            chance_rng=self.rng)
        self.humans = [s for s in range(2) if s not in self.partners]
        problem = table_problem()
        if problem and self.partners:
            # the partner still plays, on the tags only: say so (and in the log)
            self.app.message(f"Focus (2023): {problem}. The computer partner plays on the exhibits' tags only.")

    def take_over(self, seat: int, back: bool) -> None:
        """A person who walked away (kiosk/away.py): a computer partner plays ``seat`` until
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
            self.__dict__["_partner_worker"] = thinker_mod.shared_choice("coop-partner", self.app.message,
                                                                         self.think_elsewhere)
        worker: thinker_mod.WorkerChoice | None = self.__dict__["_partner_worker"]
        return worker

    def _partner_player(self, seat: int) -> CoopPlayer | None:
        """The driver's player for ``seat``: its computer partner, or None for a person."""
        partner = self.partners.get(seat)
        return None if partner is None else PartnerPlayer(partner, self.think_ns, self.partner_worker)

    def card_size(self) -> tuple[int, int]:
        """The table's card size on this screen (px): the size the faces are made at."""
        W, H = self.app.screen.get_size()
        r = self._cell_rects(pygame.Rect(10, 52, int(W * 0.47), H - 60))[0]
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
        t = MODE_TITLES[self.mode]
        return t + (f": {case_title(self.case)}" if self.case else "")

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
        self.press_refused = None                # kiosk/away.py: a refused press is no presence
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

    def _buzzer_gesture(self, s: int, gesture: str) -> None:
        """A buzzer-only seat's tap / hold / long hold as the controls it stands for."""
        st = self.state
        self.app.sounds.play("press")
        if self.reveal_until is not None:
            self._skip_reveal()                      # any gesture: on to the next round
            return
        if st.is_terminal() or st.current_player() == CHANCE:
            return
        if st.phase == "answer" and st.current_player() == s:
            if gesture == "hold":
                self._ok(s)                          # accept
            elif gesture == "long":
                self._x(s)                           # refuse (or say it must be accepted)
            return
        if st.phase == "end" and st.active == s:
            if gesture == "hold" and st.may_offer(s):
                self._x(s)                           # offer now
            else:
                self._ok(s)                          # end the turn now
            return
        if st.phase == "point":
            if gesture == "tap":
                self._move(s, 1)
            elif gesture == "hold":
                self._ok(s)                          # choose / unchoose
            elif self.chosen[s]:
                self.chosen[s].pop()
            return
        if st.phase == "take" and st.active == s:
            if gesture == "tap":
                self._move(s, 1)
            elif gesture == "hold":
                self._ok(s)                          # lift, then take
            else:
                self.lifted[s] = None                # put it back
            return
        if gesture == "hold" and self.game.sherlock_rules:
            self._x(s)                               # not my turn: offer at the next start or end of a turn
        elif gesture == "tap":
            self._move(s, 1)

    def _peek(self, s: int, pressed: bool, t_ns: int) -> None:
        """The peek control (CO-5): holding shows the holder's marker after the
        look-away prompt; releasing hides it.  One peek at a time: a second
        hold while the other player holds hides both (each must release and
        hold again, after a new look-away prompt)."""
        if not pressed:
            self.peek_since[s] = None
            return
        if len(self.humans) < 2:
            return
        others = [o for o in self.humans if o != s and self.peek_since[o] is not None]
        if others:
            for o in others:
                self.peek_since[o] = None
            self.peek_since[s] = None
            self.peek_clash_until = self.now + int(PEEK_CLASH_S * 1e9)
            self.app.sounds.play("false")
            return
        self.peek_clash_until = None
        self.peek_since[s] = t_ns

    def end_peeks(self) -> None:
        """Hide every marker: a held peek control must be released and held again
        (a new deal, CO-5: the look-away prompt comes again)."""
        self.peek_since = [None, None]

    def targets(self, seat: int) -> list[int]:
        """Positions seat's cursor visits now: cards it may take, or point at.

        A lone person (their exhibits marked YOURS on the screen) never visits their own
        exhibits in the take phase: taking one is refused (CO-3), so the hold there would only
        lift a card the next hold cannot take.  With two people on one screen the markers are
        secret (CO-5) and the cursor visits every card."""
        st = self.state
        if st.phase == "point":
            return [p for p in range(GRID) if st.faces[p] is not None and p not in st.markers[seat]]
        first = not st.takes
        cards = [p for p in range(POSITIONS) if st.faces[p] is not None and (not first or p in SIDE_POSITIONS)]
        if self.humans == [seat]:
            takeable = [p for p in cards if p not in st.markers[seat]]
            return takeable or cards
        return cards

    def _move(self, seat: int, step: int) -> None:
        t = self.targets(seat)
        if not t:
            return
        cur = self.cursor[seat]
        if cur in t:
            i = (t.index(cur) + step) % len(t)
        else:
            i = 0 if step > 0 else len(t) - 1
        self.cursor[seat] = t[i]
        self.lifted[seat] = None

    def _ok(self, s: int) -> None:
        st = self.state
        if st.phase == "answer" and st.current_player() == s:
            self._apply(Accept(), s)
        elif st.phase == "end" and st.active == s:
            self._apply(Pass(), s)               # no offer: the turn ends now
        elif st.phase == "take" and st.active == s:
            if self.cursor[s] not in self.targets(s):
                self._move(s, 1)
                return
            if self.lifted[s] == self.cursor[s]:
                self._take(s, self.cursor[s])
            else:
                self.lifted[s] = self.cursor[s]
                self.lift_t[s] = self.press_t.get(s, 0)
        elif st.phase == "point" and s not in st.points:
            if self.cursor[s] not in self.targets(s):
                self._move(s, 1)
                return
            c = self.cursor[s]
            if c in self.chosen[s]:
                self.chosen[s].remove(c)
            else:
                self.chosen[s].append(c)
            if len(self.chosen[s]) == self.game.exhibits_per_seat:
                self._apply(Point(tuple(self.chosen[s])), s)

    def _x(self, s: int) -> None:
        st = self.state
        if st.phase == "answer" and st.current_player() == s:
            if st.refused_by == st.offer_by:
                self.banner = ("That offer must be accepted (CO-6): press OK", render.GOLD, self.now + 2_500_000_000)
            else:
                self._apply(Refuse(), s)
            return
        if not self.game.sherlock_rules:
            return
        if st.may_offer(s):
            self._apply(Offer(), s)
        elif st.refused_by is not None and st.refused_by != s:
            self.banner = (f"After P{st.refused_by + 1}'s refusal only P{st.refused_by + 1} may offer (CO-6)",
                           render.BAD, self.now + 2_500_000_000)
        else:
            self.wants_offer[s] = not self.wants_offer[s]

    def play(self, action: Any, seat: int) -> None:
        """A person's move, through the driver (the seat to move, a seat pointing at the
        same time, CO-5, or an offer the rules allow, CO-6).

        Raises:
            IllegalActionError: the move is not allowed (nothing changed).
        """
        self.driver.submit(seat, action)

    def _skip_reveal(self) -> None:
        """OK during the reveal: it ends now, and the driver deals at once."""
        self.reveal_until = self.now
        self.driver.hurry()

    def _take(self, s: int, pos: int) -> None:
        try:
            self.play(Take(pos), s)
        except IllegalActionError as exc:
            text = exc.reason
            if len(self.humans) == 2:
                # CO-5: with two people on one screen every refused take shows one and the
                # same sign, so a refusal never says that the card is the taker's exhibit.
                text = REFUSED_TAKE
            self.banner = (text, render.BAD, self.now + 2_500_000_000)
            self.lifted[s] = None
            self.press_refused = self.lift_t.get(s, self.press_t.get(s, 0))
            return
        self._moved(s, Take(pos))

    def _apply(self, action: Any, seat: int) -> None:
        try:
            self.play(action, seat)
        except IllegalActionError as exc:
            self.banner = (exc.reason, render.BAD, self.now + 2_500_000_000)
            self.press_refused = self.press_t.get(seat, 0)
            return
        self._moved(seat, action)

    def _moved(self, seat: int, action: Any) -> None:
        """After a seat's move (a person's or the partner's, made by the driver): what the
        screen says and plays."""
        name = type(action).__name__
        if name == "Take":
            self.lifted[seat] = None
            self.last_take = (seat, action.pos, self.now)
            self.app.sounds.play("flip")
        elif name == "Offer":
            self.wants_offer[seat] = False
            self.banner = (f"P{seat + 1} offers: point at each other's exhibit!", render.GOLD, self.now + 3_000_000_000)
            self.app.sounds.play("debated")
        elif name == "Refuse":
            self.banner = (f"P{seat + 1} refuses: from now on only P{seat + 1} may offer", render.GOLD,
                           self.now + 3_000_000_000)
        elif name == "Accept":
            self.banner = ("Accepted: both point secretly", render.GOOD, self.now + 3_000_000_000)
            self.chosen = [[], []]
            for h in self.humans:
                t = self.targets(h)
                if t:
                    self.cursor[h] = t[0]
        self._after_action()

    def _after_action(self) -> None:
        st = self.state
        if st.results and (st.phase in ("deal", "over")) and self.reveal_until is None and \
                len(st.results) == st.round_no:
            self.reveal_until = self.now + self.reveal_ns
            self.wants_offer = [False, False]        # an offer never carries over into the next round
            self.banner = None
            r = st.results[-1]
            self.app.sounds.play("won" if r.won else "false")
            self.app.screenshot(f"coop-round-{st.round_no}")

    def _dealt(self, now_ns: int) -> None:
        """After the driver's deal: a new round's table."""
        st = self.state
        self.chosen = [[], []]
        self.lifted = [None, None]
        self.last_take = None
        self.wants_offer = [False, False]        # a queued offer belongs to the round it was made in
        self.end_peeks()                         # new markers: look away again (CO-5)
        for h in self.humans:
            self.cursor[h] = SIDE_POSITIONS[0]
        self.banner = (f"Round {st.round_no}: P{st.active + 1} starts with a side-row card", render.GOLD,
                       now_ns + 3_000_000_000) if self.game.rounds > 1 else \
            (f"P{st.active + 1} starts: take a card from the side row", render.GOLD, now_ns + 3_000_000_000)
        self.app.sounds.play("flip")

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
        return CoopScene(self.app, self.players, self.mode, self.case, setup=False)

    # -- drawing ----------------------------------------------------------------------------------
    def _peeking(self, seat: int) -> bool:
        return marker_visible(self.players, seat, self.peek_since[seat], self.now, self.peek_delay_ns, self.app.demo)

    def _looking_away_prompt(self) -> str | None:
        """The full-screen veil's words while a marker must stay hidden (CO-5), or None."""
        if len(self.humans) < 2:
            return None
        if self.peek_clash_until is not None and self.now < self.peek_clash_until:
            return "ONE PEEK AT A TIME!  Both let go, then one holds"
        for s in self.humans:
            since = self.peek_since[s]
            if since is not None and self.now - since < self.peek_delay_ns:
                return f"P{2 - s}, LOOK AWAY!  P{s + 1}: keep holding"
        return None

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
            return ("setup", fields, self._setup_left())
        clock = (bool(self.banner and self.now < self.banner[2]),
                 self.last_take is not None and self.now - self.last_take[2] < 2_000_000_000,
                 self._prompt(), tuple(self._peeking(s) for s in range(2)), self._looking_away_prompt())
        return (id(st), len(st.history), st.current_player(), fields, clock)

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
        W, H = surface.get_size()
        surface.fill(render.BG)
        if self.setup:
            self._draw_setup(surface)
            return
        if render.small_screen(W, H):
            self._draw_screen_small(surface)
            return
        st = self.state
        away = self._looking_away_prompt()
        render.text(surface, self.title, (16, 8), 38, render.TEXT, bold=True)
        self.note_strip = pygame.Rect(0, 0, W, 50)    # the title row: an app note goes over it
        sub = f"round {st.round_no} of {self.game.rounds}" if self.game.rounds > 1 else ""
        if self.game.sherlock_rules:
            sub += f"   points {st.total()}"
        render.text(surface, sub, (W - 16, 12), 30, render.DIM, "topright")
        table = pygame.Rect(10, 52, int(W * 0.47), H - 60)
        side = pygame.Rect(table.right + 14, 52, W - table.right - 24, H - 60)
        if not away:                      # the veil hides the table whole (CO-5): not drawn under it
            self._draw_table(surface, table)
            self._draw_side(surface, side)
        if away:
            render.veil(surface, surface.get_rect())   # the look-away veil hides the screen on purpose (CO-5)
            surface.fill((10, 10, 20))
            lines = away.split("  ")
            y = H // 2 - 50 * len(lines)
            for i, line in enumerate(lines):
                r = render.text_fit(surface, line, (W // 2, y), W - 80, 72 if i == 0 else 56, 40,
                                    render.GOLD if i == 0 else render.TEXT, bold=True)
                y = r.bottom + 16

    #: The setup screen's lines under the case chooser: the controls, then the rules.
    def _setup_left(self) -> int | None:
        """Whole seconds before the case choice starts by itself (None before the first frame)."""
        if self.setup_since is None:
            return None
        return max(0, (self.setup_auto_ns - (self.now - self.setup_since) + 999_999_999) // 1_000_000_000)

    def _buzzers_only(self) -> bool:
        """Every person here plays with a buzzer alone."""
        people = [s for s, i in enumerate(self.players) if not i.is_computer]
        return bool(people) and all(self.buzzer_only(s) for s in people)

    def _setup_lines(self) -> list[str]:
        left = self._setup_left()
        starts = f"  (starts in {left} s)" if left is not None else ""
        if self._buzzers_only():
            first = f"Buzzer: tap = next cards, hold = start{starts}"
        elif any(self.buzzer_only(s) for s in range(len(self.players))):
            first = f"Left/Right or buzzer tap: cards   OK or buzzer hold: start{starts}"
        else:
            first = f"Left/Right: choose the cards    OK or Enter: start{starts}"
        lines = [first,
                 "Take cards that call your own exhibit to mind; never your partner's.",
                 "No talking! The cards you take are your clues."]
        if self.mode in ("sherlock", "mycroft-sherlock"):
            if self._buzzers_only():
                lines.append("Hold your buzzer to offer to point at each other's exhibits.")
                lines.append("An offer: hold accepts, hold 2 s refuses. After your take: tap ends your turn.")
            else:
                lines.append("X: offer to point at each other's exhibits (OK accept, X refuse).")
                lines.append("After your take: X offers, OK ends your turn.")
        return lines

    def _draw_setup(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        who = " and ".join(f"P{s + 1} ({'computer partner' if i.is_computer else i.label})"
                           for s, i in enumerate(self.players))
        label = "All 84 cards (random faces)" if not self.case else f"Mrs. Hudson: {case_title(self.case)}"
        lines = self._setup_lines()
        if render.small_screen(W, H):
            self._draw_setup_small(surface, who, f"<  {label}  >", lines)
            return
        r = render.text(surface, MODE_TITLES[self.mode], (W // 2, 60), 64, render.GOLD, "midtop", bold=True)
        self.note_strip = pygame.Rect(0, r.y, W, r.h)  # the title's line: an app note goes over it
        render.text(surface, who, (W // 2, 140), 32, render.DIM, "midtop")
        r = pygame.Rect(W // 2 - 460, 230, 920, 90)
        render.panel(surface, r, render.PANEL_LIGHT, render.GOLD)
        render.text(surface, f"<  {label}  >", r.center, 44, render.TEXT, "center", bold=True)
        for i, line in enumerate(lines):
            render.text(surface, line, (W // 2, 360 + i * 46), 34, render.TEXT if i == 0 else render.DIM, "midtop")

    def _draw_setup_small(self, surface: pygame.Surface, who: str, chooser: str, lines: list[str]) -> None:
        """The setup screen on a small display: the same words, smaller and wrapped, stacked
        from the top with the gaps shrunk to what the height leaves."""
        W, H = surface.get_size()
        w = W - 20
        blocks: list[tuple[str, int, int, bool, tuple[int, int, int]]] = [
            (MODE_TITLES[self.mode], 64, 2, True, render.GOLD), (who, 32, 2, False, render.DIM),
            (chooser, 44, 2, True, render.TEXT)]
        # the rules read as one block: one size for all of them (the smallest any one needs)
        size = min(render.fit_lines(line, w, 34, 3)[0] for line in lines)
        blocks += [(line, size, 3, False, render.TEXT if i == 0 else render.DIM) for i, line in enumerate(lines)]
        heights = [render.lines_height(m, w - (24 if i == 2 else 0), size, rows, bold)
                   for i, (m, size, rows, bold, _c) in enumerate(blocks)]
        pad = 8                                          # inside the chooser's panel, above and below
        gap = max(2, min(24, (H - sum(heights) - 2 * pad) // (len(blocks) + 1)))
        y = max(gap, (H - sum(heights) - 2 * pad - (len(blocks) - 1) * gap) // 2)
        for i, ((msg, size, rows, bold, colour), h) in enumerate(zip(blocks, heights)):
            if i == 2:
                r = pygame.Rect(6, y, W - 12, h + 2 * pad)
                render.panel(surface, r, render.PANEL_LIGHT, render.GOLD)
                render.text_block(surface, msg, r.center, w - 24, size, rows, colour, "center", bold)
                y = r.bottom + gap
                continue
            r = render.text_block(surface, msg, (W // 2, y), w, size, rows, colour, "midtop", bold)
            if i == 0:                                   # the title: an app note goes over it
                self.note_strip = pygame.Rect(0, r.y, W, r.h)
            y += h + gap

    @staticmethod
    def _cell_rects(area: pygame.Rect) -> dict[int, pygame.Rect]:
        gap = 8
        sep = 24
        ch = int((area.h - 30 - sep - 4 * gap) / 5)
        cw = min(int(ch * 1.12), int((area.w - 40 - 3 * gap) / 4))
        x0 = area.x + 34
        out: dict[int, pygame.Rect] = {}
        y_side = area.y + 26
        for i, p in enumerate(SIDE_POSITIONS):
            out[p] = pygame.Rect(x0 + i * (cw + gap), y_side, cw, ch)
        y0 = y_side + ch + sep
        for p in range(GRID):
            out[p] = pygame.Rect(x0 + (p % 4) * (cw + gap), y0 + (p // 4) * (ch + gap), cw, ch)
        return out

    def _draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st = self.state
        rects = self._cell_rects(area)
        small = render.small_screen(*surface.get_size())
        label = "SIDE ROW  (top of the markers)"
        if small and render.font(24).size(label)[0] > area.right - rects[16].x:
            label = "SIDE ROW"                   # a small display: the short wording
        render.text(surface, label, (rects[16].x, area.y), 24, render.DIM)
        for r_i, letter in enumerate("ABCD"):
            r = rects[r_i * 4]
            render.text(surface, letter, (r.x - 8, r.centery), 30, render.DIM, "midright", bold=True)
        reveal = self.reveal_until is not None and st.results
        result = st.results[-1] if reveal else None
        faces = result.faces if result is not None else tuple(st.faces)
        markers = result.markers if result is not None else st.markers
        lost_at = self._lost_cell(result)
        if lost_at is not None:                  # the reveal shows the card that lost the round
            faces = tuple(lost_at[1] if p == lost_at[0] else f for p, f in enumerate(faces))
        shown = {s for s in range(2) if result is not None or self._peeking(s)}
        tags: list[tuple[tuple[str, ...], tuple[int, int, int], tuple[int, int, int], pygame.Rect]] = []
        for p, rect in rects.items():
            face = faces[p]
            if face is None:
                pygame.draw.rect(surface, render.PANEL, rect, border_radius=10)
                name = cell_name(p)
                if small:
                    # inside the 5 px frame a card just taken gets (never under it)
                    inner = rect.w - 14
                    if render.font(26).size(name)[0] * 0.6 > inner and p >= GRID:
                        name = name.split()[-1]   # under the SIDE ROW label: its number says which
                    render.text_within(surface, name, rect.center, inner, 26, (80, 86, 105), "center")
                else:
                    render.text(surface, name, rect.center, 26, (80, 86, 105), "center")
            else:
                surface.blit(face_surface(face, rect.w, rect.h), rect)
            for s in shown:
                if p in markers[s]:
                    col = seat_colour(s)
                    pygame.draw.rect(surface, col, rect.inflate(10, 10), 7, border_radius=12)
                    tag: tuple[str, ...] = (f"P{s + 1}'s", f"P{s + 1}") if len(self.humans) != 1 or s not in self.humans else \
                        ("YOURS", "YOU")
                    fg, bg = (20, 20, 20), col
                    if lost_at is not None and p == lost_at[0]:
                        who = f"P{lost_at[2] + 1}"
                        tag, fg, bg = (f"TAKEN by {who}", "TAKEN", who), (255, 255, 255), render.BAD
                    tags.append((tag, fg, bg, rect))
        if lost_at is not None:
            # the card that lost the round stays on the table, crossed out over its picture
            lr = rects[lost_at[0]]
            pic = pygame.Rect(lr.x + 10, lr.y + 26, lr.w - 20, int(lr.h * 0.62) - 26)
            pygame.draw.line(surface, render.BAD, pic.topleft, pic.bottomright, 5)
            pygame.draw.line(surface, render.BAD, pic.topright, pic.bottomleft, 5)
        if self.last_take is not None and not reveal and self.now - self.last_take[2] < 2_000_000_000:
            s, p, _t = self.last_take
            pygame.draw.rect(surface, seat_colour(s), rects[p], 5, border_radius=10)
        if result is not None:
            for s in range(2):
                for c in result.points[s]:
                    ok = c in markers[1 - s]
                    r = rects[c]
                    mark = f"P{s + 1} {'OK' if ok else 'X'}"
                    img = render.font(24 if small else 30, True).render(mark, True, (255, 255, 255))
                    if small:                   # low cards: both marks over the card's lower part
                        tr = img.get_rect(midbottom=(r.centerx, r.bottom - 2 - (img.get_height() + 4) * s))
                    else:
                        tr = img.get_rect(midbottom=(r.centerx, r.bottom - int(r.h * 0.30) - 32 * s))
                    pygame.draw.rect(surface, render.GOOD if ok else render.BAD, tr.inflate(10, 4), border_radius=6)
                    surface.blit(img, tr)
            self._draw_tags(surface, tags)
            return
        # cursors of the humans (secret pointing only while peeking with two humans)
        for s in self.humans:
            if st.is_terminal():
                break
            if st.phase == "point" and (s in st.points or (len(self.humans) == 2 and not self._peeking(s))):
                continue
            if st.phase not in ("take", "point") or (st.phase == "take" and st.active != s):
                continue
            cr = rects.get(self.cursor[s])
            if cr is None:
                continue
            col = seat_colour(s)
            pygame.draw.rect(surface, col, cr.inflate(14, 14), 5, border_radius=14)
            if self.lifted[s] == self.cursor[s]:
                pygame.draw.rect(surface, render.GOLD, cr.inflate(22, 22), 5, border_radius=16)
            for c in self.chosen[s]:
                pygame.draw.circle(surface, col, rects[c].center, 18)
                render.text(surface, f"P{s + 1}", rects[c].center, 24, (20, 20, 20), "center", bold=True)
        self._draw_tags(surface, tags)

    #: The gap (px) between two cards of the table (:meth:`_cell_rects`): a tag's box is at
    #: most its card's width and this, so it never reaches a neighbour's tag or name.
    CARD_GAP = 8

    @classmethod
    def _draw_tags(cls, surface: pygame.Surface,
                   tags: list[tuple[tuple[str, ...], tuple[int, int, int], tuple[int, int, int], pygame.Rect]]) -> None:
        """The markers' tags ("YOURS", "P2's", "TAKEN by P1") on the top edge of their cards,
        drawn last: no cursor or highlight of a neighbouring card is drawn over them (issue 20:
        "YOURS" was half under the highlight of the card above it).  Each tag is the first of
        its wordings (clearest first: "YOURS", "YOU") whose box is no wider than its card and
        the gap beside it (issue 20: at 480x320 "TAKEN by P1" covered the next cell's name and
        two "YOURS" tags overlapped)."""
        for wordings, fg, bg, rect in tags:
            room = rect.w + cls.CARD_GAP - 10             # the box: the words and 5 px each side
            tag, size = wordings[-1], render.MIN_TEXT_PX
            for msg in wordings:
                fit = [s for s in (26, render.MIN_TEXT_PX) if render.font(s, True).size(msg)[0] <= room]
                if fit:
                    tag, size = msg, fit[0]
                    break
            w = min(room, render.font(size, True).size(tag)[0])
            tr = pygame.Rect(0, 0, w, render.font(size, True).get_height())
            tr.midtop = (rect.centerx, rect.y - 4)
            pygame.draw.rect(surface, bg, tr.inflate(10, 4), border_radius=6)
            render.text_within(surface, tag, tr.center, room, size, fg, "center", bold=True)

    @staticmethod
    def _lost_cell(result: Any) -> tuple[int, int, int] | None:
        """(cell, face, taker) of the partner's exhibit taken in a lost round, else None."""
        if result is None or result.lost_by is None or not result.clues[result.lost_by]:
            return None
        for c in result.markers[1 - result.lost_by]:
            if result.faces[c] is None:
                return c, result.clues[result.lost_by][-1], result.lost_by
        return None

    def _prompt(self) -> tuple[str, tuple[int, int, int]]:
        st = self.state
        if self.reveal_until is not None and st.results:
            r = st.results[-1]
            if self.game.sherlock_rules:
                return f"Round {len(st.results)}: {r.score} points - {r.reason}", render.GOOD if r.won else render.GOLD
            return ("WIN! " if r.won else "LOST: ") + r.reason, render.GOOD if r.won else render.BAD
        if st.is_terminal():
            return "Game over", render.GOLD
        cp = st.current_player()
        if cp == CHANCE:
            return "Dealing...", render.DIM
        col = seat_colour(cp)
        who = "computer partner" if cp in self.partners else "you"
        if st.phase == "take":
            first = " from the SIDE ROW" if not st.takes else ""
            if cp in self.partners:
                return f"P{cp + 1} ({who}) is choosing a card{first}...", col
            lift = self.lifted[cp]
            buzzer = self.buzzer_only(cp)
            if lift is not None:
                again = "hold again" if buzzer else "OK again"
                back = " (hold 2 s: put it back)" if buzzer else ""
                return f"P{cp + 1}: {again} to take the {exhibit(st.faces[lift] or 1).name}{back}", col
            if buzzer:
                return f"P{cp + 1}: take a card{first}  (tap: next card, hold: lift)", col
            extra = "  X offer" if st.may_offer(cp) else ""
            return f"P{cp + 1}: take a card{first}  (Left/Right, OK){extra}", col
        if st.phase == "end":
            if cp in self.humans:
                left = ""
                if self.end_due is not None:
                    left = f" ({max(0, (self.end_due - self.now + 999_999_999) // 1_000_000_000)} s)"
                if self.buzzer_only(cp):
                    if st.may_offer(cp):
                        return f"P{cp + 1}: hold = offer now, tap = pass{left}", col
                    return f"P{cp + 1}: tap ends your turn{left}", col
                if st.may_offer(cp):
                    return f"P{cp + 1}: X offer now, OK pass{left}", col
                return f"P{cp + 1}: OK ends your turn{left}", col
            return f"P{cp + 1} ends the turn...", col
        if st.phase == "answer":
            assert st.offer_by is not None
            must = st.refused_by == st.offer_by
            if cp in self.partners:
                return f"P{st.offer_by + 1} offers: P{cp + 1} is thinking...", col
            if self.buzzer_only(cp):
                return (f"P{st.offer_by + 1} offers: P{cp + 1} hold to accept"
                        + ("" if must else ", hold 2 s to refuse")), col
            return (f"P{st.offer_by + 1} offers: P{cp + 1} press OK to accept" + ("" if must else ", X to refuse")), col
        if st.phase == "point":
            waiting = [s for s in range(2) if s not in st.points]
            if not self.humans:
                return "Both point secretly at the partner's card...", render.GOLD
            keys = "tap next, hold choose" if self._buzzers_only() else "Left/Right, OK"
            if len(self.humans) == 2:
                look = "hold 2 s to look" if self._buzzers_only() else "hold your buzzer"
                return (f"Point secretly: {look}, {keys}  (waiting for "
                        + ", ".join(f"P{s + 1}" for s in waiting) + ")"), render.GOLD
            k = self.game.exhibits_per_seat
            return f"Point at your partner's card{'s' if k > 1 else ''}: {keys}", render.GOLD
        return "", render.DIM

    def _refusal_noted(self, seat: int) -> bool:
        """Whether ``seat``'s panel notes its refusal ("refused: only P2 offers", CO-6): from the
        refusal to the end of its round, the reveal of that round included (the same table: a
        refusal just before the round ends stays up long enough to be read), never on the next
        round's table (the deal clears ``refused_by``), nor after the last reveal (issue 20)."""
        st = self.state
        if st.refused_by != seat:
            return False
        return st.phase not in ("deal", "over") or (self.reveal_until is not None and bool(st.results))

    def _draw_side(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st = self.state
        prompt, pcol = self._prompt()
        pr = pygame.Rect(area.x, area.y, area.w, 128)
        render.panel(surface, pr, render.PANEL_LIGHT, pcol, 4)
        self._wrapped(surface, prompt, pygame.Rect(pr.x + 12, pr.y + 8, pr.w - 24, 70), 34, render.TEXT, 2)
        if self.banner and self.now < self.banner[2]:
            msg, col, _ = self.banner
            br = pygame.Rect(pr.x + 8, pr.bottom - 46, pr.w - 16, 38)
            pygame.draw.rect(surface, col, br, border_radius=10)
            render.text(surface, msg, br.center, 32 if len(msg) < 44 else 26, (20, 20, 20), "center", bold=True)
        y = pr.bottom + 8
        result = st.results[-1] if (self.reveal_until is not None and st.results) else None
        panel_h = 196
        for s in range(2):
            r = pygame.Rect(area.x, y, area.w, panel_h)
            col = seat_colour(s)
            active = not st.is_terminal() and st.current_player() == s
            render.panel(surface, r, render.PANEL, col if active else None, 4)
            pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, 12, r.h), border_top_left_radius=12,
                             border_bottom_left_radius=12)
            name = "computer partner" if s in self.partners else self.players[s].label
            render.text(surface, f"P{s + 1}", (r.x + 22, r.y + 8), 44, col, bold=True)
            render.text(surface, f"{name}  -  clue file (in order)", (r.x + 84, r.y + 16), 26, render.DIM)
            if self.wants_offer[s]:             # a queued offer, confirmed (drawn where the note goes)
                render.text(surface, "will offer", (r.right - 12, r.y + 14), 28, render.GOLD, "topright", bold=True)
            elif self._refusal_noted(s):
                render.text(surface, f"refused: only P{s + 1} offers", (r.right - 12, r.y + 14), 24,
                            render.GOLD, "topright")
            clues = list(result.clues[s]) if result is not None else st.clues(s)
            self._draw_clue_file(surface, pygame.Rect(r.x + 20, r.y + 50, r.w - 28, r.h - 54), clues, col)
            if not clues:
                render.text(surface, "no clue yet", (r.x + 22, r.y + 60), 28, render.DIM)
            y = r.bottom + 8
        full = pygame.Rect(area.x, y, area.w, area.bottom - y)
        render.panel(surface, full)
        bottom = pygame.Rect(full.x, full.y, full.w - (full.h + 4 if self.app.led.virtual is not None else 0), full.h)
        if self.game.sherlock_rules:
            render.text(surface, "Round scores", (bottom.x + 14, bottom.y + 8), 26, render.DIM)
            xs = bottom.x + 14
            step = min(110, (bottom.w - 150) // max(1, self.game.rounds))
            for i in range(self.game.rounds):
                val = str(st.results[i].score) if i < len(st.results) else "-"
                render.text(surface, f"R{i + 1}: {val}", (xs + i * step, bottom.y + 36), 36, render.TEXT, bold=True)
            total = st.total()
            render.text(surface, f"total {total}", (bottom.right - 14, bottom.y + 36), 36, render.GOLD, "topright",
                        bold=True)
            if len(st.results) == self.game.rounds:
                self._wrapped(surface, rating(total), pygame.Rect(bottom.x + 14, bottom.y + 70, bottom.w - 28, 40),
                              26, render.GOLD, 1)
        else:
            left = sum(1 for p in range(GRID) if st.faces[p] is not None)
            need = 2 * self.game.exhibits_per_seat
            render.text(surface, f"grid: {left} cards left", (bottom.x + 14, bottom.y + 12), 34, render.TEXT, bold=True)
            render.text(surface, f"{max(0, left - need)} more to take before you win (CO-4)",
                        (bottom.x + 14, bottom.y + 52), 28, render.DIM)
        if self.app.led.virtual is not None:
            size = full.h - 10
            lr = pygame.Rect(full.right - size - 5, full.y + 5, size, size)
            render.led_matrix(surface, lr, self.app.led.virtual_picture())
            # Its lights are a part of their own while nothing is drawn over them (render.Parts).
            self._led_box = None if self._looking_away_prompt() else lr

    # -- the small-display layout (480x320 .. 800x480 panels) -----------------------------
    def _small_title(self, max_w: int, size: int) -> str:
        """The title in the header of a small display: the whole title when it fits (or nearly:
        squeezed to 80% at most), else without "Focus (2023) ", else the mode alone."""
        mode = MODE_TITLES[self.mode]
        short = mode.removeprefix("Focus (2023) ") or mode
        case = f": {case_title(self.case)}" if self.case else ""
        for t in (self.title, short + case, short):
            if render.font(size, True).size(t)[0] * 0.8 <= max_w:
                return t
        return short

    def _draw_screen_small(self, surface: pygame.Surface) -> None:
        """The game on a small display: the same parts as on the TV (table left; prompt, both
        clue files and the score right), every text at 24-30 px, set by ``render.text_block``."""
        W, H = surface.get_size()
        st = self.state
        t = max(render.MIN_TEXT_PX, H // 17)             # the text size: 24 px on 320, 28 on 480
        head = render.line_height(t + 2, True) + 6
        self.note_strip = pygame.Rect(0, 0, W, head)  # the title row: an app note goes over it
        sub = f"round {st.round_no}/{self.game.rounds}" if self.game.rounds > 1 else ""
        if self.game.sherlock_rules:
            sub += f"  {st.total()} pts"
        sub_r = render.text_block(surface, sub, (W - 8, 4), W // 3, t, 1, render.DIM, "topright")
        title_w = W - 16 - (sub_r.w + 12 if sub else 0)
        render.text_block(surface, self._small_title(title_w, t + 2), (8, 3), title_w, t + 2, 1, render.TEXT,
                          "topleft", bold=True)
        table = pygame.Rect(6, head, int(W * 0.47), H - head - 4)
        side = pygame.Rect(table.right + 10, head, W - table.right - 16, H - head - 4)
        away = self._looking_away_prompt()
        if not away:                      # the veil hides the table whole (CO-5): not drawn under it
            self._draw_table(surface, table)
            self._draw_side_small(surface, side, t)
        if away:
            render.veil(surface, surface.get_rect())   # the look-away veil hides the screen on purpose (CO-5)
            surface.fill((10, 10, 20))
            lines = away.split("  ")
            sizes = [(line, 72 if i == 0 else 56) for i, line in enumerate(lines)]
            total = sum(render.lines_height(line, W - 24, size, 2, True) + 12 for line, size in sizes)
            y = max(4, (H - total) // 2)
            for i, (line, size) in enumerate(sizes):
                r = render.text_block(surface, line, (W // 2, y), W - 24, size, 2,
                                      render.GOLD if i == 0 else render.TEXT, "midtop", bold=True)
                y = r.bottom + 12

    def _score_lines(self, t: int) -> list[tuple[str, int, tuple[int, int, int], bool]]:
        """What the score panel of a small display says: (words, size, colour, bold) a line."""
        st = self.state
        if self.game.sherlock_rules:
            rounds = "  ".join(f"R{i + 1}: {st.results[i].score if i < len(st.results) else '-'}"
                               for i in range(self.game.rounds))
            out = [(rounds, t, render.TEXT, True), (f"total {st.total()}", t, render.GOLD, True)]
            if len(st.results) == self.game.rounds:
                out.append((rating(st.total()), render.MIN_TEXT_PX, render.GOLD, True))
            return out
        left = sum(1 for p in range(GRID) if st.faces[p] is not None)
        need = 2 * self.game.exhibits_per_seat
        return [(f"grid: {left} cards left", t, render.TEXT, True),
                (f"{max(0, left - need)} more to take before you win (CO-4)", render.MIN_TEXT_PX, render.DIM, False)]

    def _draw_side_small(self, surface: pygame.Surface, area: pygame.Rect, t: int) -> None:
        st = self.state
        prompt, pcol = self._prompt()
        pad = 6
        pr = pygame.Rect(area.x, area.y, area.w, 3 * render.line_height(t, True) + 2 * pad)
        render.panel(surface, pr, render.PANEL_LIGHT, pcol, 3)
        render.text_block(surface, prompt, (pr.x + 10, pr.y + pad), pr.w - 20, t, 3, render.TEXT, "topleft", True)
        # the score panel at the bottom, as high as its lines
        w_led = 0
        lines = self._score_lines(t)
        text_w = area.w - 20
        hs = [render.lines_height(m, text_w, size, 3, bold) for m, size, _c, bold in lines]
        bh = sum(hs) + 2 * pad + 2 * (len(lines) - 1)
        picture = self.app.led.virtual_picture() if self.app.led.virtual is not None else None
        # The virtual matrix beside the words when they fit beside it on 2 lines each (none
        # yet: no room for its "no LED frame"); else the words have the width (the rating).
        narrow = text_w - bh - 4
        if picture and all(render.fits(m, narrow, size, 2, bold) for m, size, _c, bold in lines):
            w_led = bh + 4
            text_w = narrow
            hs = [render.lines_height(m, text_w, size, 3, bold) for m, size, _c, bold in lines]
            bh = sum(hs) + 2 * pad + 2 * (len(lines) - 1)
        full = pygame.Rect(area.x, area.bottom - bh, area.w, bh)
        render.panel(surface, full)
        if self.banner and self.now < self.banner[2]:
            # A message of a moment covers the score (which it usually changes) for its 2 s.
            msg, col, _ = self.banner
            br = full.inflate(-8, -8)
            pygame.draw.rect(surface, col, br, border_radius=10)
            render.text_block(surface, msg, br.center, br.w - 12, t, max(1, br.h // render.line_height(t, True)),
                              (20, 20, 20), "center", bold=True)
        else:
            y = full.y + pad
            for (m, size, col, bold), h in zip(lines, hs):
                render.text_block(surface, m, (full.x + 10, y), text_w, size, 3, col, "topleft", bold)
                y += h + 2
        self._led_box = None
        if w_led:
            lr = pygame.Rect(full.right - bh + 5, full.y + 5, bh - 10, bh - 10)
            render.led_matrix(surface, lr, picture)
            self._led_box = None if self._looking_away_prompt() else lr
        # the two clue files share what is left
        y = pr.bottom + 6
        panel_h = (full.y - 6 - y - 6) // 2
        result = st.results[-1] if (self.reveal_until is not None and st.results) else None
        for s in range(2):
            r = pygame.Rect(area.x, y, area.w, panel_h)
            self._draw_seat_small(surface, r, s, t, result)
            y = r.bottom + 6

    def _draw_seat_small(self, surface: pygame.Surface, r: pygame.Rect, s: int, t: int, result: Any) -> None:
        st = self.state
        col = seat_colour(s)
        active = not st.is_terminal() and st.current_player() == s
        render.panel(surface, r, render.PANEL, col if active else None, 3)
        pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, 8, r.h), border_top_left_radius=12,
                         border_bottom_left_radius=12)
        x = r.x + 14
        tag = render.text(surface, f"P{s + 1}", (x, r.y + 3), t + 4, col, bold=True)
        flag = ""
        if self.wants_offer[s]:
            flag = "will offer"
        elif self._refusal_noted(s):
            flag = f"only P{s + 1} offers"           # the short wording of "refused: only P1 offers"
        right = r.right - 8
        if flag:
            fr = render.text_block(surface, flag, (right, tag.centery), (r.right - tag.right) // 2, t, 1,
                                   render.GOLD, "midright", bold=True)
            right = fr.x - 8
        name = "computer partner" if s in self.partners else self.players[s].label
        room = right - tag.right - 10
        # the controller's name gives way to the flag when both do not fit ("P1" always stays)
        if render.font(t).size(name)[0] * render.MIN_KEPT <= room:
            render.text_block(surface, name, (tag.right + 10, tag.centery), room, t, 1, render.DIM, "midleft")
        clues = list(result.clues[s]) if result is not None else st.clues(s)
        area = pygame.Rect(x, tag.bottom + 2, r.right - 8 - x, r.bottom - 4 - tag.bottom - 2)
        if not clues:
            render.text(surface, "no clue yet", (x, area.y + 2), t, render.DIM)
        elif area.h >= 100:
            self._draw_clue_file(surface, area, clues, col)
        elif area.h >= 12:
            self._draw_thumbs(surface, area, clues, col, t)

    def _draw_thumbs(self, surface: pygame.Surface, area: pygame.Rect, clues: list[int],
                     col: tuple[int, int, int], t: int) -> None:
        """A clue file too low for the named cards: its pictures in order, left to right (the
        names and number badges left out on a small display); when they do not fit in the
        row, the latest ones, after "1-k" for the earlier ones."""
        gap = 4
        size = min(area.h, 96)
        fit = max(1, (area.w + gap) // (size + gap))
        x = area.x
        shown = clues
        if len(clues) > fit:
            k = len(clues) - (fit - 1)
            er = render.text_block(surface, f"1-{k}", (x, area.centery), size, t, 1, col, "midleft", bold=True)
            x = er.right + gap
            shown = clues[k:]
            shown = shown[-max(0, (area.right - x + gap) // (size + gap)):] if (area.right - x) >= size else []
        for face in shown:
            surface.blit(thumb_surface(face, size), (x, area.y))
            x += size + gap

    def clue_file_layout(self, n: int, area: pygame.Rect) -> tuple[list[tuple[int, pygame.Rect]], pygame.Rect | None]:
        """Where the clue file's cards go: (clue index, rect) of the cards drawn
        large, and the rect of the "earlier clues" block (None when all fit).

        Cards never shrink below a readable size (``CLUE_W`` x ``CLUE_H`` px,
        names of at least ``kiosk.games.coop.draw.CLUE_NAME_MIN`` px): when more clues are taken than
        fit in one row, the latest ones stay large and the earlier ones become
        numbered pictures in the first slot."""
        per_row = max(2, (area.w + CLUE_GAP) // (CLUE_W + CLUE_GAP))
        h = min(CLUE_H, area.h)
        slots = [pygame.Rect(area.x + i * (CLUE_W + CLUE_GAP), area.y, CLUE_W, h) for i in range(per_row)]
        if n <= per_row:
            return [(i, slots[i]) for i in range(n)], None
        large = per_row - 1
        return [(n - large + i, slots[1 + i]) for i in range(large)], slots[0]

    def _draw_clue_file(self, surface: pygame.Surface, area: pygame.Rect, clues: list[int],
                        col: tuple[int, int, int]) -> None:
        cards, earlier = self.clue_file_layout(len(clues), area)
        for i, rect in cards:
            surface.blit(clue_surface(clues[i], rect.w, rect.h), rect)
            self._badge(surface, str(i + 1), (rect.x + 14, rect.y + 14), col)
        if earlier is not None:
            k = len(clues) - len(cards)                 # clues 1..k shown small, in order
            render.panel(surface, earlier, render.PANEL_LIGHT, col, 3)
            render.text(surface, f"1-{k}", (earlier.centerx, earlier.y + 4), 28, render.TEXT, "midtop", bold=True)
            room_w, room_h = earlier.w - 8, earlier.h - 38

            def fit(cols: int) -> int:
                rows = -(-k // cols)
                return min((room_w - (cols - 1) * 4) // cols, (room_h - (rows - 1) * 4) // rows)

            cols = max((1, 2, 3, 4), key=fit)
            size = fit(cols)
            x0 = earlier.centerx - (cols * size + (cols - 1) * 4) // 2
            for j in range(k):
                x = x0 + (j % cols) * (size + 4)
                y = earlier.y + 34 + (j // cols) * (size + 4)
                surface.blit(thumb_surface(clues[j], size), (x, y))

    @staticmethod
    def _badge(surface: pygame.Surface, label: str, centre: tuple[int, int], col: tuple[int, int, int]) -> None:
        pygame.draw.circle(surface, col, centre, 15)
        pygame.draw.circle(surface, (20, 20, 20), centre, 15, 2)
        render.text(surface, label, (centre[0], centre[1] + 1), 26, (20, 20, 20), "center", bold=True)

    def _wrapped(self, surface: pygame.Surface, msg: str, rect: pygame.Rect, size: int,
                 colour: tuple[int, int, int], max_lines: int = 3) -> None:
        f = render.font(size, True)
        words = msg.split()
        lines: list[str] = []
        for w in words:
            if lines and f.size(lines[-1] + " " + w)[0] <= rect.w:
                lines[-1] += " " + w
            else:
                lines.append(w)
        y = rect.y
        while len(lines) > max_lines and size > 18:
            return self._wrapped(surface, msg, rect, size - 3, colour, max_lines)
        for line in lines[:max_lines]:
            img = f.render(line, True, colour)
            surface.blit(img, (rect.x, y))
            y += f.get_linesize()

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
LOBBY_GAMES = [lobby_game(f"coop-{mode}", partial(CoopScene, mode=mode))
               for mode in ("base", "sherlock", "mycroft", "mycroft-sherlock")]
