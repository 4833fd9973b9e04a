"""The people's choosing at a Focus (2023) table and what each move does on the screen: a
buzzer-only seat's gestures as the controls they stand for, the peek control (CO-5), the
cursors over the cards a seat may take or point at, lifting and taking a card, pointing,
offers and answers (CO-6), and the banners and sounds after a move or a deal.

The base of :class:`kiosk.games.coop.scene.CoopScene` (its fields stay the scene's, so the
screen key sees them); the scene maps the station events to these and drives the game.
"""

from __future__ import annotations

from typing import Any

from arcade.coop.game import (
    GRID,
    POSITIONS,
    SIDE_POSITIONS,
    Accept,
    CoopGame,
    CoopState,
    Offer,
    Pass,
    Point,
    Refuse,
    Take,
)
from arcade.core.api import CHANCE
from arcade.core.driver import Driver
from arcade.core.errors import IllegalActionError
from arcade.i18n import N_, _
from kiosk import render
from kiosk.scenes.game import GameScene

#: CO-5: the one sign of a refused take when two people share the screen.
REFUSED_TAKE = N_("That card cannot be taken")
PEEK_CLASH_S = 3.0          # CO-5: "one peek at a time" stays on screen this long


class Choosing(GameScene[CoopState]):
    """The people's choosing and what a move does on the screen; the scene
    (:class:`kiosk.games.coop.scene.CoopScene`) sets these fields up and drives the game."""

    game: CoopGame
    driver: Driver
    humans: list[int]                    # the seats people play
    cursor: list[int]                    # each seat's cursor (a position)
    lifted: list[int | None]             # each seat's lifted card
    chosen: list[list[int]]              # each seat's cards pointed at so far
    wants_offer: list[bool]              # a person's offer queued for the next start or end of a turn
    peek_since: list[int | None]         # each seat's peek hold began (ns)
    peek_clash_until: int | None         # "one peek at a time" shows until then (ns)
    reveal_until: int | None             # the reveal of the last round ends then (ns)
    reveal_ns: int                       # how long a reveal shows
    last_take: tuple[int, int, int] | None   # seat, pos, time (ns)
    press_t: dict[int, int]              # seat -> its last press (ns)
    lift_t: dict[int, int]               # seat -> the press that lifted its card (ns)

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
                self.banner = (_("That offer must be accepted (CO-6): press OK"), render.GOLD,
                               self.now + 2_500_000_000)
            else:
                self._apply(Refuse(), s)
            return
        if not self.game.sherlock_rules:
            return
        if st.may_offer(s):
            self._apply(Offer(), s)
        elif st.refused_by is not None and st.refused_by != s:
            self.banner = (_("After P{seat}'s refusal only P{seat} may offer (CO-6)").format(seat=st.refused_by + 1),
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
                text = _(REFUSED_TAKE)
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
            self.banner = (_("P{seat} offers: point at each other's exhibit!").format(seat=seat + 1), render.GOLD,
                           self.now + 3_000_000_000)
            self.app.sounds.play("debated")
        elif name == "Refuse":
            self.banner = (_("P{seat} refuses: from now on only P{seat} may offer").format(seat=seat + 1), render.GOLD,
                           self.now + 3_000_000_000)
        elif name == "Accept":
            self.banner = (_("Accepted: both point secretly"), render.GOOD, self.now + 3_000_000_000)
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
        self.banner = (_("Round {n}: P{seat} starts with a side-row card").format(n=st.round_no, seat=st.active + 1),
                       render.GOLD, now_ns + 3_000_000_000) if self.game.rounds > 1 else \
            (_("P{seat} starts: take a card from the side row").format(seat=st.active + 1), render.GOLD,
             now_ns + 3_000_000_000)
        self.app.sounds.play("flip")
