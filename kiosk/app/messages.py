"""The app's notes on screen (``Host.message``): a configuration problem, the results file's
notes, a player away, a worker restarted, a game that went wrong.

A note shows for a while, newest last, and goes to the journal too.  Outside a game the notes
take a band along the top of the screen (the screen is laid out below it, so a note never hides
a word of it); in a game the newest one goes in the game's own title strip
(``Scene.note_strip``), never over the cards, the seats or whose turn it is (issue 20).  A note
longer than the lines it may take shows in numbered parts, in turn (issue 23).  A note of a
topic replaces the older one of that topic still on screen (the results file's "now saved" and
"not saved yet").
"""

from __future__ import annotations

import collections
import logging
from typing import Callable, Iterator

import pygame

from kiosk import render
from kiosk.app.said import english

log = logging.getLogger("focus-arcade")

#: At most this many app messages show at once, in the band along the top of the screen.
MESSAGE_LINES = 2
#: The notes' boxes' colour.
NOTE_FILL = (120, 30, 30)
#: A message longer than the lines it may take shows in parts, each this long (s), with its
#: number ("(2/3)") at the end (issue 23: a configuration note is read whole at 480x320 too).
MESSAGE_PART_S = 6.0
#: A message in parts stays at least until every part has shown this many times.
MESSAGE_PART_ROUNDS = 2
#: The notes' text size (px).
NOTE_PX = 26

#: A note's lines and their box on screen.
NoteLines = list[tuple[list[str], pygame.Rect]]


class Messages:
    """The notes on screen, oldest first; iterating gives each note's text and when it goes.

    Args:
        clock: the notes' clock (s, monotonic): when a note goes and which part of a long one
            shows (the app's, which tests put on a virtual clock).
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._notes: list[tuple[str, float]] = []       # (text, until)
        self._first_drawn: dict[str, float] = {}       # text -> when it was first drawn (its parts' clock)
        self._topics: dict[str, str] = {}               # each topic's latest text
        self._posted: collections.deque[str] = collections.deque()   # from other threads

    def __iter__(self) -> Iterator[tuple[str, float]]:
        return iter(list(self._notes))

    def __len__(self) -> int:
        return len(self._notes)

    def clear(self) -> None:
        """No note on screen any more."""
        self._notes.clear()

    def add(self, text: str, seconds: float = 12.0, topic: str = "", journal: bool = True) -> None:
        """Show ``text`` for ``seconds`` (and say it in the journal unless ``journal`` is False:
        it is there already).  ``topic``: the newer note of a topic replaces the older one still
        on screen (issue 23: the results file's notes, "now saved" and "not saved yet", were
        shown at once).  The journal gets the English words of a note made with
        kiosk/app/said.py (``said._(...)``), whatever language the screen speaks (issue 26)."""
        if journal:
            log.warning(english(text))
        if topic:
            older = self._topics.get(topic)
            if older is not None:
                self._notes = [(m, t) for m, t in self._notes if m != older]
            self._topics[topic] = text
        self._notes.append((text, self.clock() + seconds))

    def post(self, text: str) -> None:
        """:meth:`add` from another thread (the event link, an operator's command): shown at
        the next frame (:meth:`take_posted`)."""
        self._posted.append(text)

    def take_posted(self) -> None:
        """Show the notes posted from other threads since the last frame."""
        while self._posted:
            self.add(self._posted.popleft())

    def frame(self, surface: pygame.Surface, in_game: bool, now: float) -> tuple[list[tuple[str, float]], NoteLines]:
        """The notes up at ``now`` (gone ones dropped) for a frame on ``surface``: the ones shown
        (in a game only the newest, elsewhere the last :data:`MESSAGE_LINES`) and, outside a
        game, their lines and boxes in the top band (:meth:`band_lines`)."""
        self._notes = [(m, t) for m, t in self._notes if t > now]
        self._first_drawn = {m: t for m, t in self._first_drawn.items() if any(m == x for x, _ in self._notes)}
        shown = self._notes[-1:] if in_game else self._notes[-MESSAGE_LINES:]
        return shown, ([] if in_game else self.band_lines(surface, shown, in_game, now))

    def note_rows(self, surface: pygame.Surface, in_game: bool) -> int:
        """How many lines of notes the top band holds on ``surface``: at most a quarter of the
        screen's height (the screen below keeps the rest), in a game one line (two from 600 px
        high), elsewhere two per note (three on a narrow panel), at least one."""
        W, H = surface.get_size()
        step = render.font(NOTE_PX).get_height() + 2
        most = max(1, (H // 4 - 8) // step)
        if in_game:
            return min(most, 2 if H >= 600 else 1)
        return min(most, MESSAGE_LINES * (3 if W < 800 else 2))

    def band_lines(self, surface: pygame.Surface, shown: list[tuple[str, float]], in_game: bool,
                   now: float) -> NoteLines:
        """The notes' lines and boxes in the top band, newest last.  A long note goes onto more
        lines rather than being squeezed to less than 85% of its width, or shows in parts
        (:meth:`part`) when it has more than its share of :meth:`note_rows`."""
        width = surface.get_width() - 40
        budget = self.note_rows(surface, in_game)
        f = render.font(NOTE_PX)
        step = f.get_height() + 2
        out: NoteLines = []
        y = 4
        shown = shown[-budget:]
        for k, (msg, _) in enumerate(shown):
            rows = max(1, budget // len(shown) + (budget % len(shown) if k == len(shown) - 1 else 0))
            if not in_game:
                rows = min(rows, 3 if surface.get_width() < 800 else 2)
            lines = [msg] if f.size(msg)[0] * 0.85 <= width else self.part(msg, width, rows, now)
            if not lines:
                continue
            box = pygame.Rect(0, 0, min(width, max(f.size(line)[0] for line in lines)), step * len(lines) - 2)
            box.midtop = (surface.get_width() // 2, y)
            out.append((lines, box))
            y = box.bottom + 7
        return out

    def draw_band(self, surface: pygame.Surface, notes: NoteLines) -> None:
        """The notes of :meth:`band_lines` in their boxes along the top."""
        W = surface.get_width()
        for lines, box in notes:
            pygame.draw.rect(surface, NOTE_FILL, box.inflate(16, 6), border_radius=6)
            step = render.font(NOTE_PX).get_height() + 2
            for i, line in enumerate(lines):          # a line still wider than the screen is squeezed
                render.text_within(surface, line, (box.centerx, box.y + i * step), W - 40, NOTE_PX, render.TEXT,
                                   "midtop")

    def draw_game_note(self, surface: pygame.Surface, strip: pygame.Rect | None, msg: str, now: float) -> None:
        """A note in a game: in the game's title strip (``strip``, declared veiled while the note
        is up: it hides the title line on purpose), as many lines as the strip holds, at 26 px
        (24 px in a strip too low for 26), in parts (:meth:`part`) when longer.  A game
        that drew no strip gets the note along the top edge, hiding what is there."""
        W = surface.get_width()
        if strip is None:
            strip = pygame.Rect(0, 0, W, render.font(NOTE_PX).get_height() + 8)
        else:
            render.veil(surface, strip)
            strip = strip.clip(surface.get_rect())
        size = NOTE_PX if render.font(NOTE_PX).get_height() + 4 <= strip.h else render.MIN_TEXT_PX
        f = render.font(size)
        step = f.get_height() + 2
        rows = max(1, (strip.h - 2) // step)
        width = max(40, strip.w - 16)
        lines = [msg] if f.size(msg)[0] * 0.85 <= width else self.part(msg, width, rows, now, size)
        if not lines:
            return
        box = pygame.Rect(0, 0, min(width, max(f.size(line)[0] for line in lines)), step * len(lines) - 2)
        box.center = strip.center
        surface.fill(render.BG, strip)                # the title line goes for the note's moment
        pygame.draw.rect(surface, NOTE_FILL, box.inflate(16, 4).clip(strip), border_radius=6)
        for i, line in enumerate(lines):              # a line still wider than the strip is squeezed
            render.text_within(surface, line, (box.centerx, box.y + i * step), width, size, render.TEXT, "midtop")

    def part(self, msg: str, width: int, rows: int, now: float, size: int = NOTE_PX) -> list[str]:
        """The lines of ``msg`` to draw now, at most ``rows`` of at most ``width`` px:
        all of it when it fits, else one part of it, the parts in turn (each
        :data:`MESSAGE_PART_S` s, numbered "(1/3)" at the end), so the whole message is read
        in time (it stays until each part has shown :data:`MESSAGE_PART_ROUNDS` times) rather
        than cut off at the last line (issue 23).  ``size``: the text's size (px)."""
        lines = render.wrap(msg, width, size, 10_000)
        if len(lines) <= rows:      # the same lines a wrap into ``rows`` gives (greedy, none left over)
            return lines
        mark = render.font(size).size("  (99/99)")[0]
        lines = render.wrap(msg, width - mark, size, 10_000)
        parts = [lines[i:i + rows] for i in range(0, len(lines), rows)]
        start = self._first_drawn.setdefault(msg, now)
        need = start + MESSAGE_PART_S * len(parts) * MESSAGE_PART_ROUNDS
        self._notes = [(m, max(t, need) if m == msg else t) for m, t in self._notes]
        i = int((now - start) // MESSAGE_PART_S) % len(parts)
        part = list(parts[i])
        part[-1] += f"  ({i + 1}/{len(parts)})"
        return part
