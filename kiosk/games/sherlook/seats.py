"""Drawing Sherlook's seat panels (pure drawing: draws the :class:`~kiosk.games.sherlook.panels.Moment`
it is given, changes nothing): each seat's number, this round's marker or state ("...",
the countdown's seconds, "time!", "watching"), its points, its station and its tokens
(green circle, yellow square, red triangle); on a small display's low boxes one row.
"""

from __future__ import annotations

import math

import pygame

from arcade.i18n import _
from arcade.sherlook.game import RoundRecord
from kiosk import render
from kiosk.games.sherlook.panels import Moment, token_icon

#: A seat's box narrower than this (px, a small display's column) draws its first row as the
#: one-row panel does (24 px): "P1", its marker and "10" points overlapped at 40-44 px.
NARROW_SEAT_W = 190


def seat_panels(surface: pygame.Surface, area: pygame.Rect, m: Moment) -> None:
    """One box per seat in ``area`` (side by side, or one over the other in a tall area);
    a waiting seat's box framed in its colour (blinking during the countdown)."""
    st = m.state
    n = len(m.seats)
    race = m.race
    stuck = set(race.stuck(m.now)) if race is not None and race.opened_ns is not None else set()
    vertical = area.h > area.w
    last = st.rounds[-1] if st.rounds and m.phase in ("reveal", "over") else None
    counting = race is not None and m.phase == "race" and race.countdown_start is not None
    for s, info in enumerate(m.seats):
        if vertical:
            h = min(116, area.h // n)
            r = pygame.Rect(area.x, area.y + s * h, area.w, h - 6)
        else:
            w = area.w // n
            r = pygame.Rect(area.x + s * w, area.y, w - 8, area.h)
        col = render.SEAT_COLOURS[s % 8]
        playing = s in st.participants
        waiting = m.phase == "race" and s in st.waiting()
        border = col if waiting and (not counting or int(m.now / 2.5e8) % 2 == 0) else None
        render.panel(surface, r, render.PANEL if playing else (26, 28, 36), border, 4)
        pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, 8, r.h), border_radius=4)
        low = r.h < 60 and render.small_screen(*surface.get_size())
        if low:
            _seat_row(surface, r, s, col, last, waiting, playing, counting, stuck, m)
            continue
        # row 1: seat, this round's marker or state, points (a narrow box, 480x320: as the
        # one-row panel draws them, 24 px, so that they sit side by side)
        if r.w < NARROW_SEAT_W and render.small_screen(*surface.get_size()):
            _seat_row(surface, pygame.Rect(r.x, r.y, r.w, 40), s, col, last, waiting, playing, counting, stuck, m)
        else:
            head = render.text(surface, f"P{s + 1}", (r.x + 16, r.y + 2), 40, col, bold=True)
            render.text(surface, f"{st.points[s]}", (r.right - 10, r.y + 2), 44, render.TEXT, "topright", bold=True)
            mid = (head.right + 30, head.centery + 2)
            if s in st.markers and last is None:
                pygame.draw.circle(surface, col, mid, 18)
                pygame.draw.circle(surface, (20, 20, 20), mid, 18, 2)
                render.text(surface, str(st.markers[s]), mid, 30, (20, 20, 20), "center", bold=True)
            elif last is not None and s in last.markers:
                pygame.draw.circle(surface, col, mid, 18)
                pygame.draw.circle(surface, (20, 20, 20), mid, 18, 2)
                render.text(surface, str(last.markers[s]), mid, 30, (20, 20, 20), "center", bold=True)
            elif (last is not None and s in last.timed_out) or s in st.timed_out:
                render.text(surface, _("time!"), (head.right + 12, mid[1]), 30, render.BAD, "midleft", bold=True)
            elif waiting:
                left = race.countdown_left(m.now) if counting and race is not None else None
                if left is not None and race is not None and s in race.countdown_seats:
                    render.text(surface, f"{max(0, math.ceil(left))}", mid, 44, render.GOLD, "center", bold=True)
                else:
                    render.text(surface, "...", mid, 34, render.DIM, "center", bold=True)
            elif not playing:
                render.text(surface, _("watching"), (head.right + 12, mid[1]), 22, render.DIM, "midleft")
        # row 2: the station, or this round's tokens at the reveal; row 3: the tokens so far
        # (green circle, yellow square, red triangle).  A box too low for three rows (4 seats
        # on 480x320) leaves the station out, and at the reveal shows this round's tokens only.
        y2 = r.y + 40
        ty = r.y + 63 if not vertical else r.bottom - 18
        three_rows = ty - 12 >= y2 + 20
        got = last.score.tokens(s) if last is not None and s in last.score.points else ()
        if got and last is not None:
            gy = y2 + 8 if three_rows else ty
            x = r.x + 26
            for kind in got:
                token_icon(surface, kind, (x, gy), 8)
                x += 22
            render.text(surface, f"+{last.score.points[s]}", (x - 4, gy), 26, render.GOOD, "midleft", bold=True)
        elif three_rows:
            # the station inside the seat's box: "computer (medium)" reads "computer" where
            # a narrow box (480x320) has no room for it (it ran off the screen's edge)
            label = info.label[:22]
            render.text_best(surface, (label, label.split(" (")[0]), (r.x + 16, y2), r.right - 8 - (r.x + 16),
                             (20,), render.DIM)
        tx = r.x + 16
        gap = min(44, (r.w - 26) // 3)     # a narrow box (480x320): closer, inside it
        for kind, count in (("green", st.greens[s]), ("yellow", st.yellows[s]), ("red", st.reds[s])):
            if got and not three_rows:
                break
            token_icon(surface, kind, (tx + 8, ty), 7)
            render.text(surface, str(count), (tx + 19, ty), 24, render.TEXT, "midleft", bold=True)
            tx += gap
        if s in stuck:
            render.text(surface, _("STUCK"), (r.right - 10, r.bottom - 4), 22, render.BAD, "bottomright", bold=True)


def _seat_row(surface: pygame.Surface, r: pygame.Rect, s: int, col: tuple[int, int, int], last: RoundRecord | None,
              waiting: bool, playing: bool, counting: bool, stuck: set[int], m: Moment) -> None:
    """A seat's panel on a small display, one row high: the seat, this round's marker or
    state, the points.  The station's name and the tokens so far are left out (no room
    for a second row); the points they make stay."""
    st = m.state
    race = m.race
    cy = r.centery
    head = render.text(surface, f"P{s + 1}", (r.x + 12, cy), 24, col, "midleft", bold=True)
    pts = render.text(surface, f"{st.points[s]}", (r.right - 6, cy), 24, render.TEXT, "midright", bold=True)
    room = pygame.Rect(head.right + 4, r.y, pts.x - 4 - head.right - 4, r.h)
    if room.w < 8:
        return
    rad = min(room.h // 2 - 2, 13)
    mid = (room.x + rad + 1, cy)
    marker = st.markers.get(s) if last is None else last.markers.get(s)
    if marker is not None and rad >= 6:
        pygame.draw.circle(surface, col, mid, rad)
        pygame.draw.circle(surface, (20, 20, 20), mid, rad, 2)
        render.text_within(surface, str(marker), mid, 2 * rad, 24, (20, 20, 20), "center", bold=True)
        return
    word, colour = "", render.DIM
    if s in stuck:
        word, colour = _("STUCK"), render.BAD
    elif (last is not None and s in last.timed_out) or s in st.timed_out:
        word, colour = _("time!"), render.BAD
    elif waiting:
        left = race.countdown_left(m.now) if counting and race is not None else None
        if left is not None and race is not None and s in race.countdown_seats:
            word, colour = f"{max(0, math.ceil(left))}", render.GOLD
        else:
            word = "..."
    elif not playing:
        word = _("watching")
    if word:
        render.text_block(surface, word, (room.x, cy), room.w, 24, 1, colour, "midleft", bold=True)
