"""The lamps in the buzzers: what each seat's lamp shows, from the race or scene state.

A pure function of plain data (no clock, no pins), so every rule is tested
without pygame or GPIO; ``hardware/lamps.py`` turns the pattern into pin states.

Lamp states (one per seat):

* ``"off"``;
* ``"ready"``: the seat may press in the race that is open (R-2: a window is
  open and the seat is eligible); steady on (dim on a PWM lamp);
* ``"on"``: steady full: the race's winner (R-4), or a seat that just joined
  in the lobby;
* ``"blink"``: the seats of a debated race (R-4 tie window), all blinking
  together, 0.25 s on / 0.25 s off;
* ``"flash"``: a false shout (FX-5 penalty), fast 0.08 s on / 0.08 s off.

Precedence when a seat is in more than one set: flash > blink > on > ready.
"""

from __future__ import annotations

from dataclasses import dataclass, field

OFF, READY, ON, BLINK, FLASH = "off", "ready", "on", "blink", "flash"
STATES = (OFF, READY, ON, BLINK, FLASH)


@dataclass(frozen=True)
class LampCue:
    """What the screen knows that the lamps show.

    Attributes:
        seats: the number of seats in play (lamps of other seats stay off).
        ready: seats that may press in the open race.
        won: the race's winner(s) when there is exactly one.
        debated: the seats of a debated (tied) race.
        false: seats whose shout was false.
        joined: seats that joined in the lobby.
    """

    seats: int
    ready: frozenset[int] = field(default_factory=frozenset)
    won: frozenset[int] = field(default_factory=frozenset)
    debated: frozenset[int] = field(default_factory=frozenset)
    false: frozenset[int] = field(default_factory=frozenset)
    joined: frozenset[int] = field(default_factory=frozenset)


def lamp_pattern(cue: LampCue | None, lamps: int) -> tuple[str, ...]:
    """One state per lamp (``lamps`` of them, seat order) for ``cue``; None: all off."""
    out = []
    for seat in range(lamps):
        if cue is None or seat >= cue.seats:
            out.append(OFF)
        elif seat in cue.false:
            out.append(FLASH)
        elif seat in cue.debated:
            out.append(BLINK)
        elif seat in cue.won or seat in cue.joined:
            out.append(ON)
        elif seat in cue.ready:
            out.append(READY)
        else:
            out.append(OFF)
    return tuple(out)


def race_cue(seats: int, window_open: bool, eligible: frozenset[int] | set[int] | tuple[int, ...],
             winners: tuple[int, ...] = (), false_shouts: tuple[int, ...] = (),
             out: frozenset[int] | set[int] = frozenset()) -> LampCue:
    """The cue of a shout race (R-2..R-7).

    Args:
        seats: seats in the game.
        window_open: the race window is open (its frame was shown, R-2).
        eligible: seats allowed to press in this race; ``out`` are seats put
            out of the race (a false shout this race): they may not press again.
        winners: the judge's winners so far: one seat = won, more = debated (R-4).
        false_shouts: seats with a false shout in this race.
    """
    won = frozenset(winners) if len(winners) == 1 else frozenset()
    debated = frozenset(winners) if len(winners) > 1 else frozenset()
    ready = frozenset(eligible) - frozenset(out) if window_open and not winners else frozenset()
    return LampCue(seats, ready=ready, won=won, debated=debated, false=frozenset(false_shouts))


#: How long a race's winner lamp stays on, and debated seats blink, after the verdict (ns).
HOLD_NS = 1_500_000_000
#: How long a false shout's lamp flashes (ns).
FALSE_NS = 1_000_000_000


class LampMemory:
    """Keeps a verdict on the lamps for a moment after the race has moved on.

    A race's window closes as soon as its verdict is final and the next table
    is laid, so the winner's lamp would only light for a frame; this keeps the
    winner on (and debated seats blinking) for :data:`HOLD_NS` and a false
    shout flashing for :data:`FALSE_NS`.  Times are the caller's ns clock.
    """

    def __init__(self) -> None:
        self.won: tuple[frozenset[int], int] = (frozenset(), 0)
        self.debated: tuple[frozenset[int], int] = (frozenset(), 0)
        self.false: dict[int, int] = {}

    def observe(self, seats: int, window_open: bool, eligible: frozenset[int] | set[int] | tuple[int, ...],
                winners: tuple[int, ...], false_shouts: tuple[int, ...], now_ns: int,
                out: frozenset[int] | set[int] = frozenset()) -> LampCue:
        """The cue for this frame from the race as it is now (see :func:`race_cue`)."""
        if len(winners) == 1:
            self.won = (frozenset(winners), now_ns + HOLD_NS)
            self.debated = (frozenset(), 0)
        elif len(winners) > 1:
            self.debated = (frozenset(winners), now_ns + HOLD_NS)
            self.won = (frozenset(), 0)
        for s in false_shouts:
            self.false.setdefault(s, now_ns + FALSE_NS)
        self.false = {s: t for s, t in self.false.items() if t > now_ns or s in false_shouts}
        won = self.won[0] if self.won[1] > now_ns else frozenset()
        debated = self.debated[0] if self.debated[1] > now_ns else frozenset()
        holding = bool(won or debated)
        ready = frozenset(eligible) - frozenset(out) if window_open and not winners and not holding else frozenset()
        return LampCue(seats, ready=ready, won=won, debated=debated, false=frozenset(self.false))
