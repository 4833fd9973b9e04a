"""The FocusX modes where the active seat chooses a card and its place (ThinkFocus FX-9,
4Focus FX-11): :class:`PlacingScene`.

A person with choose controls picks left/right over the hand and OK, then left/right over
the legal places (rows; cells) and OK; the last entry "back" returns to the hand.  The
active seat may choose while its turn-start window is open; laying the card closes it.  A
seat without choose controls (or a computer player) gets the placement of
``arcade/bots/focusx_place.py``.

A placement that can take more than a millisecond (:attr:`PlacingScene.worker_levels`:
4Focus from ``medium`` up, the arcade's own ``hard`` for a buzzer-only seat included;
ThinkFocus ``expert``) is worked out in the kiosk's thinking process
(:class:`kiosk.players.thinker.WorkerChoice`, issue 14) while the seat's pause shows; the others
are made here when due.  Each placement is seeded from the seat's own stream
(``place<seat>``) and the moves made, so the same game plays the same placements in either place, and a
dead or stuck process still gets the card laid (the same player, in this process).
"""

from __future__ import annotations

from typing import Any, TypeVar

from arcade.bots.focusx_place import choose_action
from arcade.core.api import Action, State
from arcade.core.driver import Thought
from arcade.core.events import Edge
from arcade.focusx import fourfocus as ff
from arcade.focusx import thinkfocus as tf
from arcade.focusx.base import FocusXState
from kiosk import render
from kiosk.games.focusx.base import Chooser, FocusXScene, S
from kiosk.games.focusx.draw import HandView
from kiosk.players import thinker as thinker_mod

CHOOSE_TIMEOUT_NS = 30 * S       # a person who has not chosen by then gets the arcade's choice
AUTO_LEVEL = "hard"              # the arcade's choice for a station without choose controls

#: The state of a mode where the active seat places (ThinkFocus, 4Focus).
P = TypeVar("P", bound="tf.ThinkFocusState | ff.FourFocusState", covariant=True)


def placing(state: FocusXState) -> tf.ThinkFocusState | ff.FourFocusState:
    """``state`` of a mode where the active seat chooses a card and its place.

    Raises:
        AttributeError: another mode's state (it has no hands, windows or turn actions).
    """
    if not isinstance(state, (tf.ThinkFocusState, ff.FourFocusState)):
        raise AttributeError(f"{type(state).__name__} has no hands to place from")
    return state


class PlacingScene(FocusXScene[P]):
    """The modes where the active seat chooses a card and its place (ThinkFocus, 4Focus)."""

    places_cards = True
    #: placement levels worked out in the thinking process (those that may take over 1 ms)
    worker_levels: frozenset[str] = frozenset()
    #: False: every placement is made in this process (tests compare both ways)
    think_elsewhere = True

    def arcade_level(self, seat: int) -> str:
        """The placement level the arcade plays ``seat`` at: a computer's skill, else :data:`AUTO_LEVEL`."""
        info = self.seats[seat]
        return info.skill if info.is_computer else AUTO_LEVEL

    def _place_seed(self, state: State, seat: int) -> int:
        """The seed of ``seat``'s placement at ``state`` (its own stream, the moves made:
        :func:`kiosk.players.thinker.decision_seed`)."""
        seeds = self.__dict__.setdefault("_place_seeds", {})
        if seat not in seeds:
            seeds[seat] = int(self.stream(f"place{seat}").getrandbits(62))
        return thinker_mod.decision_seed(seeds[seat], state, seat)

    @property
    def placer(self) -> thinker_mod.WorkerChoice | None:
        """Who works out the placements that may take over 1 ms (None: none does, all here)."""
        if "_placer" not in self.__dict__:
            use = (self.think_elsewhere
                   and any(self.arcade_level(s) in self.worker_levels for s in range(len(self.seats))))
            self.__dict__["_placer"] = thinker_mod.shared_choice("focusx-place", self.app.message, bool(use),
                                                                 entry=self.spec.name)
        placer: thinker_mod.WorkerChoice | None = self.__dict__["_placer"]
        return placer

    def arcade_thought(self, state: State, seat: int) -> Thought | None:
        """The seat's placement begun in the thinking process (None: it is made here when due)."""
        level = self.arcade_level(seat)
        placer = self.placer
        if placer is None or level not in self.worker_levels:
            return None
        return placer.begin(state, seat, level, self._place_seed(state, seat))

    def arcade_choice(self, state: Any, seat: int) -> Action:
        """The arcade's move for a seat it moves: the mode's placement at the seat's skill
        (the arcade's own level for a person's buzzer-only station)."""
        return thinker_mod.decide_here("focusx-place", state, seat, self.arcade_level(seat),
                                       self._place_seed(state, seat))

    def think_for(self, seat: int) -> int:
        """How long (ns) the arcade waits before it moves for ``seat``: a pause to follow (none
        if it already waited in the turn-start window: the driver then ends the window,
        ``early_move``), and never before the seat's own planned presses."""
        wait = self.choice_delay()
        if self.seats[seat].is_computer:
            wait = max(wait, self.planned_active_until - self.now)
        return wait

    def choice_delay(self) -> int:
        return int(min(max(self.pace_ns * 0.6, 0.4 * S), 2.5 * S))

    def _settings(self, fx: dict[str, Any]) -> dict[str, Any]:
        return self.claim_window(fx)

    def claim_window(self, fx: dict[str, Any]) -> dict[str, Any]:
        """``claim_window_s``: the scene's argument, else ``[focusx] claim_window_s``; in the demo
        (``--pace``) twice the pace, at least 1 s; else the game's default (FX-9, FX-11)."""
        cw = self.extra_settings.get("claim_window_s", fx.get("claim_window_s"))
        if cw is None and self.app.demo:
            cw = max(1.0, min(30.0, 2 * self.pace_ns / S))
        return {} if cw is None else {"claim_window_s": float(cw)}

    def status_text(self) -> str:
        return f"deck {len(placing(self.state).deck)}"

    # -- choosing a placement -------------------------------------------------------------
    def seat_turn(self, seat: int, now_ns: int) -> None:
        """A person's turn (the driver waits for their move): they choose card and place."""
        self._drive_turn(now_ns)

    def _may_choose_now(self) -> bool:
        """The active seat may choose during its turn-start window (and a hint window before it)."""
        st = placing(self.state)
        return st.window == "turn" or (st.window == "hint" and getattr(st, "hint_then", "") == "turn")

    def choose_control(self, edge: Edge) -> None:
        """A left / right / OK press: the chooser's step if it is that seat's choice."""
        if self.chooser is not None and self.chooser.seat == edge.seat:
            self._choose_step(edge.control)

    def options(self, seat: int) -> list[Action]:
        return list(placing(self.state).turn_actions(seat))

    def place_options(self, seat: int, card: int) -> list[Action]:
        return [a for a in self.options(seat) if getattr(a, "card", None) == card]

    def _drive_turn(self, now: int) -> None:
        """A person choosing card and place; the choice is submitted at the seat's turn."""
        st = self.state
        seat = st.active
        if self.pending is not None:
            pseat, turn, action = self.pending
            if pseat != seat or turn != self.turn_no:
                self.pending = None
            elif self.driver.held(seat):
                return                                   # the driver ends the window and lays it
            elif st.current_player() == seat or self.driver.early_seat() == seat:
                if self.submit(seat, action) and (self.driver.held(seat) or self.pending is None):
                    return
                self.pending = None                      # refused (nothing changed): choose again
            else:
                return
        if self.chooser is None or self.chooser.seat != seat or self.chooser.turn != self.turn_no:
            self.chooser = Chooser(seat, self.turn_no, since_ns=now)
        opts = self.options(seat)
        if opts and not any(hasattr(a, "card") for a in opts):          # a pass: nothing to choose
            self.pending = (seat, self.turn_no, opts[0])
        elif now - self.chooser.since_ns > CHOOSE_TIMEOUT_NS:
            self.pending = (seat, self.turn_no, choose_action(st, seat, self.bot_rng, AUTO_LEVEL))
            self.app.message(f"P{seat + 1} took too long: the arcade laid a card for them.", 6)

    def _hand(self, seat: int) -> list[int]:
        return list(placing(self.state).hands[seat])

    def _choose_step(self, control: str) -> None:
        ch = self.chooser
        st = self.state
        if ch is None or self.pending is not None or st.is_terminal():
            return
        hand = self._hand(ch.seat)
        if not hand:
            return
        ch.card_i %= len(hand)
        if ch.stage == "card":
            if control in ("left", "right"):
                ch.card_i = (ch.card_i + (1 if control == "right" else -1)) % len(hand)
            elif control == "ok":
                card = hand[ch.card_i]
                places = self.place_options(ch.seat, card)
                if places and all(type(a).__name__ == "Discard" for a in places):
                    self.pending = (ch.seat, ch.turn, places[0])        # no card can be laid: box this one
                elif places:
                    ch.stage, ch.place_i = "place", 0
                else:
                    self.banner = (f"P{ch.seat + 1}: that card fits nowhere, choose another",
                                   render.BAD, self.now + 1_500_000_000)
            return
        card = hand[ch.card_i]
        places = self.place_options(ch.seat, card)
        n = len(places) + 1                                             # + "back"
        if control in ("left", "right"):
            ch.place_i = (ch.place_i + (1 if control == "right" else -1)) % n
        elif control == "ok":
            if ch.place_i >= len(places):
                ch.stage = "card"
            else:
                self.pending = (ch.seat, ch.turn, places[ch.place_i])

    def cursor_place(self) -> Action | None:
        """The place the chooser points at (None: on the hand or on "back")."""
        ch = self.chooser
        if ch is None or ch.stage != "place":
            return None
        hand = self._hand(ch.seat)
        if not hand:
            return None
        places = self.place_options(ch.seat, hand[ch.card_i % len(hand)])
        return places[ch.place_i] if ch.place_i < len(places) else None

    # -- what the table shows -------------------------------------------------------------
    def hand_view(self) -> HandView | None:
        """The active seat's hand with the chooser's cursor, as the table shows it (FXA-18:
        the shared screen shows it); None once the game is over."""
        st = self.state
        if st.is_terminal():
            return None
        seat = st.active
        ch = self.chooser if self.chooser is not None and self.chooser.seat == seat else None
        info = self.seats[seat]
        who = "computer" if info.is_computer else ("choose: left/right, OK" if info.can_choose
                                                     else "no choose controls: the arcade lays for you")
        short = "computer" if info.is_computer else ("left/right, OK" if info.can_choose else "the arcade lays for you")
        if ch is None:
            return HandView(seat, tuple(self._hand(seat)), who, short)
        on_back = ch.stage == "place" and self.cursor_place() is None
        return HandView(seat, tuple(self._hand(seat)), who, short, ch.card_i, ch.stage, on_back)
