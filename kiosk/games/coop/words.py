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
from kiosk import render

RGB = tuple[int, int, int]

MODE_TITLES = {"base": "Focus (2023)", "sherlock": "Focus (2023) Sherlock Mode",
               "mycroft": "Focus (2023) Mycroft Mode",
               "mycroft-sherlock": "Focus (2023) Mycroft Mode, Sherlock rules"}


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
            return f"Round {len(st.results)}: {r.score} points - {r.reason}", render.GOOD if r.won else render.GOLD
        return ("WIN! " if r.won else "LOST: ") + r.reason, render.GOOD if r.won else render.BAD
    if st.is_terminal():
        return "Game over", render.GOLD
    cp = st.current_player()
    if cp == CHANCE:
        return "Dealing...", render.DIM
    col = seat_colour(cp)
    who = "computer partner" if cp in shown.partners else "you"
    if st.phase == "take":
        first = " from the SIDE ROW" if not st.takes else ""
        if cp in shown.partners:
            return f"P{cp + 1} ({who}) is choosing a card{first}...", col
        lift = shown.lifted[cp]
        buzzer = shown.buzzer_only[cp]
        if lift is not None:
            again = "hold again" if buzzer else "OK again"
            back = " (hold 2 s: put it back)" if buzzer else ""
            return f"P{cp + 1}: {again} to take the {exhibit(st.faces[lift] or 1).name}{back}", col
        if buzzer:
            return f"P{cp + 1}: take a card{first}  (tap: next card, hold: lift)", col
        extra = "  X offer" if st.may_offer(cp) else ""
        return f"P{cp + 1}: take a card{first}  (Left/Right, OK){extra}", col
    if st.phase == "end":
        if cp in shown.humans:
            left = f" ({shown.end_left_s} s)" if shown.end_left_s is not None else ""
            if shown.buzzer_only[cp]:
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
        if cp in shown.partners:
            return f"P{st.offer_by + 1} offers: P{cp + 1} is thinking...", col
        if shown.buzzer_only[cp]:
            return (f"P{st.offer_by + 1} offers: P{cp + 1} hold to accept"
                    + ("" if must else ", hold 2 s to refuse")), col
        return (f"P{st.offer_by + 1} offers: P{cp + 1} press OK to accept" + ("" if must else ", X to refuse")), col
    if st.phase == "point":
        waiting = [s for s in range(2) if s not in st.points]
        if not shown.humans:
            return "Both point secretly at the partner's card...", render.GOLD
        keys = "tap next, hold choose" if shown.buzzers_only else "Left/Right, OK"
        if len(shown.humans) == 2:
            look = "hold 2 s to look" if shown.buzzers_only else "hold your buzzer"
            return (f"Point secretly: {look}, {keys}  (waiting for "
                    + ", ".join(f"P{s + 1}" for s in waiting) + ")"), render.GOLD
        k = st.game.exhibits_per_seat
        return f"Point at your partner's card{'s' if k > 1 else ''}: {keys}", render.GOLD
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
        return "ONE PEEK AT A TIME!  Both let go, then one holds"
    for s in peeks.humans:
        since = peeks.since[s]
        if since is not None and peeks.now - since < peeks.delay_ns:
            return f"P{2 - s}, LOOK AWAY!  P{s + 1}: keep holding"
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
    starts = f"  (starts in {words.starts_in} s)" if words.starts_in is not None else ""
    if words.all_buzzers:
        first = f"Buzzer: tap = next cards, hold = start{starts}"
    elif words.some_buzzers:
        first = f"Left/Right or buzzer tap: cards   OK or buzzer hold: start{starts}"
    else:
        first = f"Left/Right: choose the cards    OK or Enter: start{starts}"
    lines = [first,
             "Take cards that call your own exhibit to mind; never your partner's.",
             "No talking! The cards you take are your clues."]
    if words.offers:
        if words.all_buzzers:
            lines.append("Hold your buzzer to offer to point at each other's exhibits.")
            lines.append("An offer: hold accepts, hold 2 s refuses. After your take: tap ends your turn.")
        else:
            lines.append("X: offer to point at each other's exhibits (OK accept, X refuse).")
            lines.append("After your take: X offers, OK ends your turn.")
    return lines
