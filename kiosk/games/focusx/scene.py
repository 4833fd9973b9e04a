"""The FocusX screens: Classic, ThinkFocus, Duel and 4Focus (seed 001; FX-1..FX-12).

Each mode is a small scene saying what its table reads and how its controls work (Classic:
the four spots, R-1..R-8; ThinkFocus FX-9; Duel FX-10; 4Focus FX-11), over what the four
share (``base.py``: the driver, the computer players' presses, the race panel, the banner,
the LED picture, the results) and, where the active seat chooses a card and its place,
``placing.py``.  Their tables are drawn by ``draw.py``, the frame around them by ``panels.py``.

Station controls:

* Duel needs only the buzzer (the active seat's card is revealed by itself).
* Classic: the active seat lays its card on a spot; a station with choose
  controls has ``CHOOSE_NS`` to pick one with left/right and OK (else the
  default spot).
* ThinkFocus and 4Focus need a choice: left/right over the hand and OK, then
  left/right over the legal places (rows; cells) and OK; the last entry
  "back" returns to the hand.  The chooser's cursor is drawn in the seat's
  colour.  A seat without choose controls (or a computer player) gets the placement
  of ``arcade/bots/focusx_place.py`` (``placing.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import pygame

from arcade.core.api import RACE, State
from arcade.core.events import Edge
from arcade.core.judge import NS_PER_MS, Verdict
from arcade.core.referee import RefereeEvent
from arcade.focusx import fourfocus as ff
from arcade.focusx import thinkfocus as tf
from arcade.focusx.base import FocusXState
from arcade.focusx.classic import ClassicGame, ClassicState, Place
from arcade.focusx.duel import DuelGame, DuelState
from arcade.i18n import N_, _, ngettext, number
from kiosk import render
from kiosk.games.focusx import draw
from kiosk.games.focusx.base import FocusXScene, S, _panel_rows
from kiosk.games.focusx.panels import PanelEntry
from kiosk.games.focusx.placing import PlacingScene
from kiosk.scenes.game import GameScene
from kiosk.scenes.seats import SeatInfo, lobby_game

if TYPE_CHECKING:
    from arcade.registry import GameSpec
    from kiosk.scene import Host, LedPicture

CHOOSE_NS = 2_500_000_000        # Classic: a station with controls gets this long to choose a spot

#: What a take (``state.takes``: ``(how, seats, ...)``) says on each mode's banner (translated where shown):
TAKE_TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "thinkfocus": {
        "row": (N_("{names} takes the row focus!"), "seat"),
        "column": (N_("{names} takes the column focus!"), "seat"),
        "shift": (N_("{names} takes the shift focus!"), "seat"),
        "forgotten": (N_("{names}: a forgotten focus!"), "seat"),
        "debated": (N_("Debated: {names} take one card each"), ""),
        "boxed": (N_("4+ tied: the trio goes to the box"), ""),
        "overruled": (N_("{names}: the row focus goes first"), ""),
        "discard": (N_("{names} cannot lay a card: one to the box"), ""),
    },
    "duel": {
        "last": (N_("{names} pressed last: takes the trio"), "seat"),
        "tied-last": (N_("Tied last: {names} take their own card"), ""),
        "tiebreak-won": (N_("{names} wins the tie-break focus!"), "seat"),
        "tiebreak-debated": (N_("Tie-break debated: {names} take one card each"), ""),
        "tiebreak-boxed": (N_("Tie-break: 4+ tied, the trio goes to the box"), ""),
    },
    "4focus": {
        "won": (N_("{names}: 4FOCUS!"), "seat"),
        "hint": (N_("{names} pressed out of turn: {active}, claim it now!"), ""),
        "false": (N_("False claim by {names}: a card boxed, locked out"), "bad"),
        "discard": (N_("{names} cannot lay a card: one to the box"), ""),
        "pass": (N_("{names} cannot lay a card: passes"), ""),
    },
}




# ------------------------------------------------------------------------ Classic

class ClassicScene(FocusXScene[ClassicState]):
    """FocusX Classic (FX-1..FX-8): four spots clockwise, every seat's pile, the race panel.

    The active seat lays its pile's top card on a spot: a person with choose
    controls picks it with left/right and OK within ``CHOOSE_NS`` (else the
    default spot), anyone else gets the default spot.  After each race the
    panel lists every press, offsets from the first press (R-7).
    """

    game_class = ClassicGame
    plain_entry = "focusx-classic"

    def state_class(self) -> type[ClassicState]:
        return ClassicState

    panel_title = N_("Race panel (ms after the first press)")
    panel_short_title = N_("ms after the first press")

    def __init__(self, app: Host, seats: list[SeatInfo], seed: int | None = None,
                 x_rule: bool | None = None, pace_s: float | None = None,
                 settings: dict[str, Any] | None = None, spec: GameSpec | None = None) -> None:
        super().__init__(app, seats, seed, x_rule, pace_s, settings, spec)
        self.taken: list[int] = []
        self.choose_seat: int | None = None
        self.choose_spot = 0
        self.choose_until = 0

    # -- laying a card on a spot --------------------------------------------------------
    def seat_turn(self, seat: int, now_ns: int) -> None:
        """A person with choose controls picks the spot (the driver lays everyone else's card)."""
        st: ClassicState = self.state
        if self.choose_seat != seat:
            self.choose_seat = seat
            self.choose_spot = st.default_spot()
            self.choose_until = now_ns + CHOOSE_NS
        elif now_ns >= self.choose_until:
            self._place(self.choose_spot)

    def choose_control(self, edge: Edge) -> None:
        if self.choose_seat != edge.seat:
            return
        allowed = self.state.allowed_spots()
        if edge.control in ("left", "right"):
            step = -1 if edge.control == "left" else 1
            i = allowed.index(self.choose_spot) if self.choose_spot in allowed else 0
            self.choose_spot = allowed[(i + step) % len(allowed)]
        elif edge.control == "ok":
            self._place(self.choose_spot)

    def _place(self, spot: int) -> None:
        if spot not in self.state.allowed_spots():
            spot = self.state.default_spot()
        seat = self.choose_seat
        self.choose_seat = None
        if seat is not None:
            self.submit(seat, Place(spot))

    # -- what the race panel and the banner say ------------------------------------------
    def _on_event(self, ev: RefereeEvent, now: int) -> None:
        super()._on_event(ev, now)
        names = ", ".join(f"P{s + 1}" for s in ev.seats)
        if ev.kind == "won":
            s = ev.seats[0]
            self.taken = list(self.state.victory[s][-3:])
            shout = _("P{seat} FOCUS-EX!") if ev.verdict and ev.verdict.kind == "focus-ex" else _("P{seat} FOCUS!")
            self.banner = (shout.format(seat=s + 1), render.SEAT_COLOURS[s % 8], now + 1_500_000_000)
            self.flash = (ev.seats, "won", now)
            self.app.sounds.play("won")
        elif ev.kind in ("debated", "boxed"):
            said = _("Debated! {names} share the focus") if ev.kind == "debated" else \
                _("Debated! {names} tie: the trio goes to the box")
            self.banner = (said.format(names=names), render.GOLD, now + 1_800_000_000)
            self.flash = (ev.seats, "tie", now)
            self.app.sounds.play("debated")

    def describe_race(self, ev: RefereeEvent, new_takes: list[Any]) -> tuple[str, tuple[int, int, int]] | None:
        if ev.verdict is None or not ev.verdict.presses:
            return None
        title = {"won": _("won: first press at {ms} ms"), "debated": _("debated: first press at {ms} ms"),
                 "boxed": _("4+ tie: boxed: first press at {ms} ms")}.get(ev.kind) or \
            _("no winner: first press at {ms} ms")
        colour = render.SEAT_COLOURS[ev.seats[0] % 8] if ev.kind == "won" and ev.seats else render.GOLD
        return title.format(ms=number(ev.verdict.presses[0].offset_ms, 1)), colour

    def panel_rows(self, v: Verdict) -> list[tuple[int, str, float, str]]:
        """Classic lists each press's offset from the first press (R-7)."""
        first = v.presses[0].t_ns if v.presses else 0
        return [(p.seat, p.kind, (p.t_ns - first) / NS_PER_MS, p.status) for p in v.presses]

    def false_text(self, names: str) -> str:
        return _("False focus by {names}: one card to the box").format(names=names)

    def closed_text(self, ev: RefereeEvent) -> str:
        return _("no winner")

    # -- drawing ---------------------------------------------------------------------------
    def status_text(self) -> str:
        st: ClassicState = self.state
        # Never say whether a focus is showing: finding it is the game.
        return _("sudden death!") if st.sudden else _("cards left: {n}").format(n=sum(len(p) for p in st.piles))

    def seat_lines(self, seat: int) -> tuple[str, str, list[str]]:
        st: ClassicState = self.state
        return str(len(st.victory[seat])), _("cards won"), [_("pile {n}").format(n=len(st.piles[seat]))]

    def strip_lines(self) -> list[tuple[str, int, tuple[int, int, int]]]:
        """On the small screen the chooser's hint is a strip line (the gap between the spots
        is too narrow for it whole)."""
        lines = super().strip_lines()
        if self.choose_seat is not None and self.regions.compact:
            lines.append((_("P{seat}: left/right choose, OK lays").format(seat=self.choose_seat + 1), 24,
                          render.SEAT_COLOURS[self.choose_seat % 8]))
        return lines

    def seat_tag(self, seat: int) -> tuple[str, tuple[int, int, int]] | None:
        st: ClassicState = self.state
        if st.sudden and seat in st.sudden:
            return (_("SUDDEN DEATH"), render.GOLD)
        if st.current_player() == RACE and seat in st.race_out:
            return (_("OUT this race"), render.BAD)
        return None

    def draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        chooser = None if self.choose_seat is None else (self.choose_seat, self.choose_spot)
        draw.classic_table(surface, area, self.state, chooser, self.regions.compact)

    def led_default(self, w: int, h: int, now_ns: int) -> LedPicture:
        from arcade.lights import pictures as ledv
        return ledv.scores_picture([len(v) for v in self.state.victory], w, h)



class ThinkFocusScene(PlacingScene[tf.ThinkFocusState]):
    """FocusX ThinkFocus (FX-9): four rows, the active seat's hand, claim windows."""

    game_class = tf.ThinkFocusGame
    plain_entry = "focusx-thinkfocus"

    def state_class(self) -> type[tf.ThinkFocusState]:
        return tf.ThinkFocusState
    worker_levels = frozenset({"expert"})                      # up to 7 ms here; the others < 1 ms
    take_texts = TAKE_TEXTS["thinkfocus"]

    def seat_lines(self, seat: int) -> tuple[str, str, list[str]]:
        st = self.state
        return str(len(st.victory[seat])), _("cards won"), [_("hand {n}").format(n=len(st.hands[seat]))]

    def seat_tag(self, seat: int) -> tuple[str, tuple[int, int, int]] | None:
        st = self.state
        if st.is_terminal():
            return None
        if seat == st.active:
            return (_("ACTIVE: column"), render.GOLD)
        if seat == st.previous:
            return (_("PREVIOUS: row"), render.GOOD)
        return None

    def flash_for(self, new: list[Any], now: int) -> None:
        for how, seats, _what in new:
            if how in ("row", "column", "shift", "forgotten", "debated"):
                self.flash = (tuple(seats), "won", now)
                self.app.sounds.play("won" if len(seats) == 1 else "debated")

    def draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        place = self.cursor_place()
        place_row = place.row if isinstance(place, tf.Play) else None
        draw.thinkfocus_table(surface, area, self.state, place_row, self.hand_view(), self.regions.compact)

    def led_default(self, w: int, h: int, now_ns: int) -> LedPicture:
        from arcade.lights import pictures as ledv
        return ledv.scores_picture([len(v) for v in self.state.victory], w, h)


# ------------------------------------------------------------------------ Duel

class DuelScene(FocusXScene[DuelState]):
    """FocusX Duel (FX-10): every seat's pile and penalty count; last to press loses.

    With several foci on the table (FXA-20, FXA-24) the one being raced is
    named in the message strip ("racing now: P3 P4 P5", then the waiting ones)
    and on the seat panels ("RACE NOW" / "WAIT"), and its cards get a thick
    gold frame with "NOW" beside them; the waiting foci's cards a thin one.
    """

    game_class = DuelGame
    plain_entry = "focusx-duel"

    def state_class(self) -> type[DuelState]:
        return DuelState
    people_choose = False
    take_texts = TAKE_TEXTS["duel"]

    def _settings(self, fx: dict[str, Any]) -> dict[str, Any]:
        d = self.extra_settings.get("duel_deadline_ms", fx.get("duel_deadline_ms"))
        return {} if d is None else {"duel_deadline_ms": int(d)}

    def status_text(self) -> str:
        st: DuelState = self.state
        if st.tiebreak is not None:
            return _("tie-break round (Classic)")
        return _("deck {n}").format(n=len(st.deck))

    def _racing(self) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
        """The owners of the focus being raced, and those of the foci waiting (FXA-20, FXA-24)."""
        st: DuelState = self.state
        if st.tiebreak is not None or st.trio is None or st.is_terminal():
            return (), []
        now = tuple(sorted(st.trio))
        waiting = [tuple(sorted(t)) for t, _k in st.trios() if tuple(sorted(t)) != now]
        return now, waiting

    def strip_lines(self) -> list[tuple[str, int, tuple[int, int, int]]]:
        st: DuelState = self.state
        if st.tiebreak is not None:
            return []
        now, waiting = self._racing()
        if now:
            lines = [(_("racing now: {seats}").format(seats=" ".join(f"P{s + 1}" for s in now)), 30, render.GOLD)]
            if waiting:
                then = "; ".join(" ".join(f"P{s + 1}" for s in t) for t in waiting)
                lines.append((_("then: {seats}").format(seats=then), 22, render.DIM))
            return lines
        return [(ngettext("deck: {n} card", "deck: {n} cards", len(st.deck)).format(n=len(st.deck)), 30, render.TEXT)]

    def seat_lines(self, seat: int) -> tuple[str, str, list[str]]:
        st: DuelState = self.state
        lines = [_("pile {n}").format(n=len(st.piles[seat]))]
        if st.tiebreak is not None and seat in st.tiebreak.sudden:
            lines = [_("TIE-BREAK: won {n}").format(n=len(st.tiebreak.victory[seat]))]
        return str(st.scores()[seat]), _("penalty cards"), lines

    def seat_tag(self, seat: int) -> tuple[str, tuple[int, int, int]] | None:
        now, waiting = self._racing()
        if seat in now:
            return (_("RACE NOW"), render.GOLD)
        if any(seat in t for t in waiting):
            return (_("NEXT: wait"), render.TEXT)
        return None

    def penalty_text(self, names: str) -> str:
        return _("{names}: press without your focus - top card to penalty").format(names=names)

    def penalty_short(self, names: str) -> str:
        # a 480x320 race panel squeezed the whole line to 52 % (issue 20, the explorer's long mode)
        return _("{names}: penalty card").format(names=names)

    def closed_text(self, ev: RefereeEvent) -> str:
        if self.state.tiebreak is not None:
            return _("tie-break: no claim") if ev.verdict is None or not ev.verdict.presses else \
                _("tie-break: false claims cost a card")
        return _("no focus: presses cost a card")

    def closed_short(self, ev: RefereeEvent) -> str:
        # a 480x320 race panel squeezed "натискання коштує карту" to 55 % on its second row
        if self.state.tiebreak is not None:
            return "" if ev.verdict is None or not ev.verdict.presses else _("tie-break: penalty")
        return _("no focus: penalty")

    def add_extra(self, entry: PanelEntry, ev: RefereeEvent) -> None:
        v = ev.verdict
        if v is None or ev.kind != "last":
            return
        pressed = {p.seat for p in v.presses if p.status in ("safe", "last", "tied-last")}
        owners = set(ev.seats) | pressed
        for s in sorted(owners - pressed):
            entry.extra.append(_("P{seat}: no press by the deadline").format(seat=s + 1))
        entry.extra.append(_("last to press: {names}").format(names=", ".join(f"P{s + 1}" for s in ev.seats)))

    def flash_for(self, new: list[Any], now: int) -> None:
        for how, seats, _what in new:
            if how in ("last", "tied-last"):
                self.flash = (tuple(seats), "last", now)
                self.app.sounds.play("false" if how == "last" else "debated")
            elif how in ("tiebreak-won", "tiebreak-debated"):
                self.flash = (tuple(seats), "won", now)
                self.app.sounds.play("won" if how == "tiebreak-won" else "debated")

    def draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        racing, waiting = self._racing()
        draw.duel_table(surface, area, self.state, racing, waiting, self.regions.compact)

    def led_default(self, w: int, h: int, now_ns: int) -> LedPicture:
        from arcade.lights import pictures as ledv
        return ledv.scores_picture(list(self.state.scores()), w, h)


# ------------------------------------------------------------------------ 4Focus

class FourFocusScene(PlacingScene[ff.FourFocusState]):
    """FocusX 4Focus (FX-11): the 9x9 grid around the face-down centre card."""

    game_class = ff.FourFocusGame
    plain_entry = "focusx-4focus"

    def state_class(self) -> type[ff.FourFocusState]:
        return ff.FourFocusState
    worker_levels = frozenset({"medium", "hard", "expert"})    # 1.8 / 3.3 / 14-59 ms here
    take_texts = TAKE_TEXTS["4focus"]

    def takes(self) -> list[Any]:
        st = self.state
        out = list(st.notes)
        if st.claimed is not None:
            result = st.outcome()
            out.append(("won", tuple(result.winners) if result else (st.claimed[0],)))
        return out

    def seat_lines(self, seat: int) -> tuple[str, str, list[str]]:
        st = self.state
        return str(len(st.hands[seat])), _("cards in hand"), []

    def seat_tag(self, seat: int) -> tuple[str, tuple[int, int, int]] | None:
        st = self.state
        result = st.outcome()
        if st.is_terminal() and result is not None:
            return (_("WINNER"), render.GOLD) if seat in result.winners else None
        if seat in st.locked:                       # FXA-37: after a false claim
            return (_("ACTIVE - LOCKED") if seat == st.active else _("LOCKED: no claims"), render.BAD)
        if seat == st.active:
            return (_("ACTIVE"), render.GOLD)
        return None

    def panel_rows(self, v: Verdict) -> list[tuple[int, str, float, str]]:
        """An out-of-turn press is the judge's "penalty"; in 4Focus it either gave the active
        player a claim window ("hint", no cost) or was a false claim (FXA-31, FXA-33)."""
        st = self.state
        hint = st.notes[-1][1][0] if st.window == "hint" and st.notes and st.notes[-1][0] == "hint" else None
        return [(seat, kind, ms, ("hint" if seat == hint else "false") if status == "penalty" else status)
                for seat, kind, ms, status in _panel_rows(v)]

    def flash_for(self, new: list[Any], now: int) -> None:
        for how, seats in new:
            if how == "won":
                self.flash = (tuple(seats), "won", now)
                self.app.sounds.play("won")


    def draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        place = self.cursor_place()
        place_cell = (place.x, place.y) if isinstance(place, ff.Place) else None
        targets: frozenset[tuple[int, int]] = frozenset()
        ch = self.chooser
        if ch is not None and ch.stage == "place":
            hand = self._hand(ch.seat)
            if hand:
                targets = frozenset((a.x, a.y) for a in self.place_options(ch.seat, hand[ch.card_i % len(hand)])
                                    if isinstance(a, ff.Place))
        draw.fourfocus_table(surface, area, self.state, place_cell, targets, self.hand_view(), self.regions.compact)

    def led_default(self, w: int, h: int, now_ns: int) -> LedPicture:
        from arcade.lights import pictures as ledv
        wnd = self.referee.window
        st = self.state
        if wnd is not None and wnd.opened_ns is not None and wnd.spec.window_ms and not st.is_terminal():
            left = wnd.opened_ns + wnd.spec.window_ms * NS_PER_MS - now_ns
            if left > 0:
                frac = left / (wnd.spec.window_ms * NS_PER_MS)
                return ledv.countdown_picture(min(99, int(left // S) + 1), min(1.0, frac), w, h,
                                              ledv.seat_colour(st.active % 8))
        return ledv.text_picture("4F", (255, 200, 40), w, h)


def _start(cls: type[FocusXScene[FocusXState]]) -> Callable[[Host, list[SeatInfo], GameSpec], GameScene[State]]:
    """A lobby entry's maker: a ``cls`` game of the entry's spec (the ``-x`` entries force the
    FocusX rule on; the plain ones follow ``[focusx] x_rule``)."""
    def start(app: Host, seats: list[SeatInfo], spec: GameSpec) -> GameScene[State]:
        return cls(app, seats, spec=spec)
    return start


# The plain entries follow the configuration's ``[focusx] x_rule`` (FX-3: a setting);
# the "-x" entries force the FocusX rule on.
#: The registry entries this screen draws (label, names and seats from arcade.registry).
LOBBY_GAMES = [
    lobby_game("focusx-classic", _start(ClassicScene)),
    lobby_game("focusx-classic-x", _start(ClassicScene)),
    lobby_game("focusx-thinkfocus", _start(ThinkFocusScene)),
    lobby_game("focusx-thinkfocus-x", _start(ThinkFocusScene)),
    lobby_game("focusx-duel", _start(DuelScene)),
    lobby_game("focusx-duel-x", _start(DuelScene)),
    lobby_game("focusx-4focus", _start(FourFocusScene)),
    lobby_game("focusx-4focus-x", _start(FourFocusScene)),
]
