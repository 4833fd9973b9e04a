"""The hall's leaderboard (issue 15): every cabinet's games of the event, per game, live.

Shown as its own scene (the "right" command on the title screen: the Right arrow) and as a page of the title
screen's attract loop when ``[event]`` is on.  The rows come from the cabinet's
:class:`kiosk.event.link.Leaderboard` (retained results from the broker, so a cabinet
that joins late or restarts shows the whole event); each row names the cabinet
the score came from.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

import pygame

from arcade import i18n
from arcade.core.events import Edge
from arcade.i18n import _, ngettext
from kiosk import render
from kiosk.controls.input import Command
from kiosk.event.link import clean_text
from kiosk.persist.highscores import score_words
from kiosk.scene import Scene

if TYPE_CHECKING:
    from kiosk.event.link import EventLink
    from kiosk.scene import Host

BOARDS_PER_PAGE = 3
PAGE_S = 8.0
TOP = 8


def status_line(link: EventLink) -> tuple[str, tuple[int, int, int]]:
    """The line under the boards: the connection problem (red), else how the hall is."""
    if link is None:
        return _("No event: set [event] host in the configuration to share a leaderboard."), render.DIM
    if link.problem:
        return link.problem, render.BAD
    if not link.connected:
        return _("Connecting to the event broker {host}:{port}...").format(host=link.settings["host"],
                                                                           port=link.settings["port"]), render.DIM
    board = link.leaderboard
    with board.lock:
        online = sum(1 for s in board.statuses.values() if s.state != "offline")
        games = len(board.all_games())
        closed = board.closed_at is not None
    waiting = link.queued
    played = ngettext("{n} game", "{n} games", games).format(n=games)
    if closed:
        line = _("Event {event}: {games}, closed, final results").format(event=link.event, games=played)
    else:
        state = ngettext("{n} cabinet online", "{n} cabinets online", online).format(n=online)
        if waiting:
            line = ngettext("Event {event}: {games}, {cabinets} - {n} message of this cabinet still to send",
                            "Event {event}: {games}, {cabinets} - {n} of this cabinet's messages still to send",
                            waiting).format(event=link.event, games=played, cabinets=state, n=waiting)
        else:
            line = _("Event {event}: {games}, {cabinets}").format(event=link.event, games=played, cabinets=state)
    dup = board.duplicate_names()
    if dup:
        # Said with how the event stands (closed or not), never instead of it.
        return (_("{status}. Two machines use the cabinet name {name}: give each cabinet its own name and "
                  "login.").format(status=line, name=clean_text(dup[0], 24)), render.BAD)
    return line, render.DIM


_SCORE = re.compile(r"(\d+(?:\.\d+)?) (cards?|penalty cards?|points?|wins?|rounds?)")


def score_said(text: str) -> str:
    """A board row's score, as the leaderboard keeps it ("12 cards", "1 win": English, the
    words of kiosk/event/link.py), in the language spoken now ("12 карт"); any other text as it is.

    >>> score_said("12 cards"), score_said("1 penalty card"), score_said("team")
    ('12 cards', '1 penalty card', 'team')
    """
    m = _SCORE.fullmatch(text)
    if m is None:
        return text
    unit = m.group(2) if m.group(2).endswith("s") else m.group(2) + "s"
    return score_words(float(m.group(1)), unit)


_cache: dict[str, Any] = {"key": None, "pages": []}


def pages(link: EventLink) -> list[list[tuple[str, int, list[str]]]]:
    """The boards as pages of (title, games played, row texts "1. 12 cards  P2 @ cabinet");
    worked out again only when the leaderboard changed (draw runs every frame)."""
    if link is None:
        return []
    key = (id(link.leaderboard), link.leaderboard.changes, i18n.current())
    if _cache["key"] == key:
        return _cache["pages"]  # type: ignore[no-any-return]
    snap = link.leaderboard.snapshot(TOP)
    # Names are text from the network: one line each, no control characters, at most 24
    # characters of a cabinet's name (kiosk.event.link.clean_text; parse cleaned them already).
    boards = [(clean_text(_(b["title"]), 60), b["games"],
               [f"{r['rank']}. {score_said(r['score'])}   {(clean_text(r['who'], 3) + ' @ ') if r['who'] else ''}"
                f"{clean_text(r['cabinet'], 24)}" for r in b["top"]]) for b in snap["boards"]]
    out = [boards[i:i + BOARDS_PER_PAGE] for i in range(0, len(boards), BOARDS_PER_PAGE)]
    _cache.update(key=key, pages=out)
    return out


def draw(surface: pygame.Surface, link: EventLink, page_no: int, prompt: str = "",
         rects: list[tuple[str, pygame.Rect]] | None = None) -> list[str]:
    """Draw the leaderboard page ``page_no`` (wrapping) over the whole surface; returns
    the texts drawn (title, board titles, rows, prompt, status), for tests and logs.

    ``prompt`` (the title screen's "Press your buzzer to play", translated) gets its own line above the
    status lines, the boards end above both; ``rects`` (if given) gets each text with the
    rectangle it was drawn in (px)."""
    W, H = surface.get_size()
    surface.fill(render.BG)
    drawn: list[str] = []

    def put(text: str, rect: pygame.Rect) -> None:
        drawn.append(text)
        if rects is not None:
            rects.append((text, rect))
    closed = link is not None and link.leaderboard.closed_at is not None
    if link is None:
        title = _("Hall leaderboard")
    elif closed:
        title = _("Hall leaderboard - {event} - final results").format(event=link.event)
    else:
        title = _("Hall leaderboard - {event}").format(event=link.event)
    put(title, render.text_fit(surface, title, (W // 2, 24), W - 40, int(H * 0.075), 24, render.GOLD, True))
    all_pages = pages(link)
    line, colour = status_line(link)
    # The status stays readable from 3 m: at least 24 px, on two lines when it is long.
    status = wrap(line, W - 40, 28, bold=colour == render.BAD)
    bottom = H - 12 - 32 * len(status) - (40 if prompt else 0)
    if not all_pages:
        if link is not None and (link.problem or not link.connected):
            # Nothing received yet because the broker cannot be reached or refuses this cabinet:
            # say that in the middle, large, instead of "no games" (which would be a guess).
            lines = wrap(line, W - 80, 36, max_lines=3, bold=colour == render.BAD)
            y = H // 2 - len(lines) * 24
            for part in lines:
                put(part, render.text(surface, part, (W // 2, y), 36, colour, "midtop", bold=colour == render.BAD))
                y += 48
            if prompt:
                put(prompt, render.text(surface, prompt, (W // 2, H - 60), 28, render.TEXT, "midtop"))
            return drawn
        empty = _("No games yet: play one and it shows here, with your cabinet's name.")
        put(empty, render.text(surface, empty, (W // 2, H // 2), 30, render.TEXT, "center"))
    else:
        page = all_pages[page_no % len(all_pages)]
        n = len(page)
        col_w = (W - 40) // max(1, n)
        for i, (btitle, played, rows) in enumerate(page):
            top = 24 + int(H * 0.075) + 24
            rect = pygame.Rect(20 + i * col_w + 8, top, col_w - 16, bottom - 36 - top)
            render.panel(surface, rect, border=render.PANEL_LIGHT)
            head = ngettext("{board} ({n} game)", "{board} ({n} games)", played).format(board=btitle, n=played)
            put(head, render.text_fit(surface, head, (rect.centerx, rect.top + 10), rect.width - 16, 30, 18,
                                      render.GOLD, True))
            y = rect.top + 60
            row_h = max(24, (rect.height - 70) // TOP)
            for k, row in enumerate(rows):
                size = render.fit_size(row, rect.width - 24, (30, 26, 22, 18, 15), bold=k == 0)
                put(row, render.text_within(surface, row, (rect.left + 12, y), rect.width - 24, size,
                                            render.TEXT if k else render.GOLD, "topleft", bold=k == 0))
                y += row_h
        if len(all_pages) > 1:
            more = _("page {page} of {pages}").format(page=page_no % len(all_pages) + 1, pages=len(all_pages))
            put(more, render.text(surface, more, (W - 28, bottom - 30), 22, render.DIM, "topright"))
    y = bottom
    if prompt:
        put(prompt, render.text(surface, prompt, (W // 2, y), 28, render.TEXT, "midtop"))
        y += 40
    for part in status:
        put(part, render.text(surface, part, (W // 2, y), 28, colour, "midtop", bold=colour == render.BAD))
        y += 32
    return drawn


def wrap(msg: str, max_w: int, size: int, max_lines: int = 2, bold: bool = False) -> list[str]:
    """``msg`` cut at spaces into at most ``max_lines`` lines that fit ``max_w`` px at ``size``
    (the last line shortened with "..." if the rest does not fit)."""
    f = render.font(size, bold)
    words, out, cur = msg.split(), [], ""
    for w in words:
        trial = f"{cur} {w}".strip()
        if f.size(trial)[0] <= max_w or not cur:
            cur = trial
        else:
            out.append(cur)
            cur = w
    out.append(cur)
    if len(out) > max_lines:
        last = " ".join(out[max_lines - 1:])
        while last and f.size(last + "...")[0] > max_w:
            last = last[:-1]
        out = out[:max_lines - 1] + [last.rstrip() + "..."]
    return out


class LeaderboardScene(Scene):
    """The leaderboard on its own: pages turn every :data:`PAGE_S` s; left/right turn them,
    any buzzer, OK or back goes to the title screen."""

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        self.t0 = time.monotonic()
        self.page: int = 0
        self.drawn: list[str] = []

    def on_command(self, command: Command) -> None:
        if command.name in ("right", "left"):
            self.page += 1 if command.name == "right" else -1
            self.t0 = time.monotonic()
        elif command.name in ("back", "ok"):
            self.app.home()

    def on_edge(self, edge: Edge) -> None:
        if edge.pressed and edge.control in ("buzzer", "ok"):
            self.app.home()

    def update(self, now_ns: int) -> None:
        if time.monotonic() - self.t0 > PAGE_S:
            self.page += 1
            self.t0 = time.monotonic()

    def draw(self, surface: pygame.Surface) -> None:
        if self.app.event is not None:          # the screen is opened only with an event link
            self.drawn = draw(surface, self.app.event, self.page)
