"""The words of the Focus (2023) screen: its titles, the prompt of the person (or partner) to
move, the look-away veil's words (CO-5), the refusal note (CO-6) and the case choice's lines.

Pure functions of what they are given (no pygame, nothing changed); the scene
(:mod:`kiosk.games.coop.scene`) makes the small frozen dataclasses they read, and the
drawing modules (:mod:`kiosk.games.coop.screen`, :mod:`kiosk.games.coop.side`) show the words.
"""

from __future__ import annotations

from dataclasses import dataclass

from arcade.coop.exhibits import exhibit
from arcade.coop.game import CoopState
from arcade.core.api import CHANCE
from arcade.i18n import N_, _, ngettext
from kiosk import render

RGB = tuple[int, int, int]

#: Each mode's title (translated where it is shown).
MODE_TITLES = {"base": "Focus (2023)", "sherlock": N_("Focus (2023) Sherlock Mode"),
               "mycroft": N_("Focus (2023) Mycroft Mode"),
               "mycroft-sherlock": N_("Focus (2023) Mycroft Mode, Sherlock rules")}


def mode_title(mode: str) -> str:
    """The title of ``mode`` in the language spoken now."""
    return _(MODE_TITLES[mode])


def seat_colour(seat: int) -> RGB:
    """The screen colour of a seat (``render.SEAT_COLOURS``) as an RGB triple."""
    c = render.SEAT_COLOURS[seat]
    return (c[0], c[1], c[2])


@dataclass(frozen=True)
class PromptShown:
    """What the prompt of the seat to move depends on.

    Attributes:
        state: the position.
        reveal: the reveal of the round just played shows (its result is the prompt).
        partners: the seats a computer partner plays.
        humans: the seats people play, in order.
        buzzer_only: each seat is a person's station with a buzzer alone.
        buzzers_only: every person here plays with a buzzer alone.
        lifted: each seat's lifted card (a position), None when none is lifted.
        end_left_s: whole seconds left of a person taker's offer window (CO-6), else None.
    """

    state: CoopState
    reveal: bool
    partners: frozenset[int]
    humans: tuple[int, ...]
    buzzer_only: tuple[bool, ...]
    buzzers_only: bool
    lifted: tuple[int | None, ...]
    end_left_s: int | None


def prompt(shown: PromptShown) -> tuple[str, RGB]:
    """The prompt line and its colour: the round's result during its reveal, else what the
    seat to move does now and with which controls (CO-2..CO-6)."""
    st = shown.state
    if shown.reveal:
        r = st.results[-1]
        if st.game.sherlock_rules:
            return ngettext("Round {n}: {score} point - {reason}", "Round {n}: {score} points - {reason}",
                            r.score).format(n=len(st.results), score=r.score, reason=r.reason), \
                render.GOOD if r.won else render.GOLD
        return (_("WIN! {reason}") if r.won else _("LOST: {reason}")).format(reason=r.reason), \
            render.GOOD if r.won else render.BAD
    if st.is_terminal():
        return _("Game over"), render.GOLD
    cp = st.current_player()
    if cp == CHANCE:
        return _("Dealing..."), render.DIM
    col = seat_colour(cp)
    seat = cp + 1
    if st.phase == "take":
        side = not st.takes                    # a round's first card comes from the side row
        if cp in shown.partners:
            return (_("P{seat} (computer partner) is choosing a card from the SIDE ROW...") if side else
                    _("P{seat} (computer partner) is choosing a card...")).format(seat=seat), col
        lift = shown.lifted[cp]
        buzzer = shown.buzzer_only[cp]
        if lift is not None:
            name = _(exhibit(st.faces[lift] or 1).name)
            return (_("P{seat}: hold again to take the {name} (hold 2 s: put it back)") if buzzer else
                    _("P{seat}: OK again to take the {name}")).format(seat=seat, name=name), col
        if buzzer:
            return (_("P{seat}: take a card from the SIDE ROW  (tap: next card, hold: lift)") if side else
                    _("P{seat}: take a card  (tap: next card, hold: lift)")).format(seat=seat), col
        extra = "  " + _("X offer") if st.may_offer(cp) else ""
        return (_("P{seat}: take a card from the SIDE ROW  (Left/Right, OK)") if side else
                _("P{seat}: take a card  (Left/Right, OK)")).format(seat=seat) + extra, col
    if st.phase == "end":
        if cp in shown.humans:
            left = " " + _("({n} s)").format(n=shown.end_left_s) if shown.end_left_s is not None else ""
            if shown.buzzer_only[cp]:
                if st.may_offer(cp):
                    return _("P{seat}: hold = offer now, tap = pass").format(seat=seat) + left, col
                return _("P{seat}: tap ends your turn").format(seat=seat) + left, col
            if st.may_offer(cp):
                return _("P{seat}: X offer now, OK pass").format(seat=seat) + left, col
            return _("P{seat}: OK ends your turn").format(seat=seat) + left, col
        return _("P{seat} ends the turn...").format(seat=seat), col
    if st.phase == "answer":
        assert st.offer_by is not None
        must = st.refused_by == st.offer_by
        by = st.offer_by + 1
        if cp in shown.partners:
            return _("P{by} offers: P{seat} is thinking...").format(by=by, seat=seat), col
        if shown.buzzer_only[cp]:
            return (_("P{by} offers: P{seat} hold to accept") if must else
                    _("P{by} offers: P{seat} hold to accept, hold 2 s to refuse")).format(by=by, seat=seat), col
        return (_("P{by} offers: P{seat} press OK to accept") if must else
                _("P{by} offers: P{seat} press OK to accept, X to refuse")).format(by=by, seat=seat), col
    if st.phase == "point":
        waiting = [s for s in range(2) if s not in st.points]
        if not shown.humans:
            return _("Both point secretly at the partner's card..."), render.GOLD
        keys = _("tap next, hold choose") if shown.buzzers_only else _("Left/Right, OK")
        if len(shown.humans) == 2:
            look = _("hold 2 s to look") if shown.buzzers_only else _("hold your buzzer")
            return _("Point secretly: {look}, {keys}  (waiting for {seats})").format(
                look=look, keys=keys, seats=", ".join(f"P{s + 1}" for s in waiting)), render.GOLD
        k = st.game.exhibits_per_seat
        return ngettext("Point at your partner's card: {keys}", "Point at your partner's cards: {keys}",
                        k).format(keys=keys), render.GOLD
    return "", render.DIM


@dataclass(frozen=True)
class PeeksShown:
    """What the look-away veil depends on (CO-5).

    Attributes:
        humans: the seats people play.
        since: each seat's peek hold began (ns), None when not held.
        clash_until: "one peek at a time" shows until then (ns), else None.
        now: the clock (ns).
        delay_ns: how long "look away" shows before a marker appears.
    """

    humans: tuple[int, ...]
    since: tuple[int | None, ...]
    clash_until: int | None
    now: int
    delay_ns: int


def looking_away(peeks: PeeksShown) -> str | None:
    """The full-screen veil's words while a marker must stay hidden (CO-5), or None; two
    spaces part its lines."""
    if len(peeks.humans) < 2:
        return None
    if peeks.clash_until is not None and peeks.now < peeks.clash_until:
        return _("ONE PEEK AT A TIME!  Both let go, then one holds")
    for s in peeks.humans:
        since = peeks.since[s]
        if since is not None and peeks.now - since < peeks.delay_ns:
            return _("P{other}, LOOK AWAY!  P{seat}: keep holding").format(other=2 - s, seat=s + 1)
    return None


def refusal_noted(state: CoopState, seat: int, reveal: bool) -> bool:
    """Whether ``seat``'s panel notes its refusal ("refused: only P2 offers", CO-6): from the
    refusal to the end of its round, the reveal of that round included (``reveal``: the same
    table, so a refusal just before the round ends stays up long enough to be read), never on
    the next round's table (the deal clears ``refused_by``), nor after the last reveal (issue 20)."""
    if state.refused_by != seat:
        return False
    return state.phase not in ("deal", "over") or reveal


@dataclass(frozen=True)
class SetupWords:
    """What the case choice's lines depend on.

    Attributes:
        starts_in: whole seconds before the choice starts by itself (None before the first frame).
        all_buzzers: every person plays with a buzzer alone.
        some_buzzers: some seat plays with a buzzer alone.
        offers: the mode plays the Sherlock rules (offers, CO-6).
    """

    starts_in: int | None
    all_buzzers: bool
    some_buzzers: bool
    offers: bool


def setup_lines(words: SetupWords) -> list[str]:
    """The case choice's lines under the chooser: the controls, then the rules."""
    starts = "  " + _("(starts in {n} s)").format(n=words.starts_in) if words.starts_in is not None else ""
    if words.all_buzzers:
        first = _("Buzzer: tap = next cards, hold = start") + starts
    elif words.some_buzzers:
        first = _("Left/Right or buzzer tap: cards   OK or buzzer hold: start") + starts
    else:
        first = _("Left/Right: choose the cards    OK or Enter: start") + starts
    lines = [first,
             _("Take cards that call your own exhibit to mind; never your partner's."),
             _("No talking! The cards you take are your clues.")]
    if words.offers:
        if words.all_buzzers:
            lines.append(_("Hold your buzzer to offer to point at each other's exhibits."))
            lines.append(_("An offer: hold accepts, hold 2 s refuses. After your take: tap ends your turn."))
        else:
            lines.append(_("X: offer to point at each other's exhibits (OK accept, X refuse)."))
            lines.append(_("After your take: X offers, OK ends your turn."))
    return lines
