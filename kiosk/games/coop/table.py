"""The Focus (2023) table: the side row and the 4x4 grid of cards, the markers shown
(CO-5), the cursors of the people choosing, the last take and the reveal's marks.

Only draws; never changes a game state and never reads the scene.  The scene
(:mod:`kiosk.games.coop.scene`) makes a :class:`TableShown`; :func:`draw_table` draws it
in an area of the screen, whose cards go where :func:`cell_rects` says (px).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from arcade.coop.game import GRID, SIDE_POSITIONS, CoopState, RoundResult, cell_name
from arcade.i18n import _
from kiosk import render
from kiosk.games.coop.draw import face_surface
from kiosk.games.coop.words import RGB, seat_colour

#: The gap (px) between two cards of the table (:func:`cell_rects`): a tag's box is at most
#: its card's width and this, so it never reaches a neighbour's tag or name.
CARD_GAP = 8

#: A marker's tag: its wordings (clearest first), text colour, box colour and card.
Tag = tuple[tuple[str, ...], RGB, RGB, pygame.Rect]


@dataclass(frozen=True)
class TableShown:
    """What the table shows at one moment.

    Attributes:
        state: the position.
        reveal: the reveal of the round just played shows (its result is drawn).
        peeking: each seat's marker may show now (:func:`kiosk.games.coop.partners.marker_visible`).
        humans: the seats people play, in order.
        last_take: the seat and card of a take under 2 s ago (not during a reveal), else None.
        cursor, lifted, chosen: each seat's cursor (a position), lifted card, cards pointed at.
    """

    state: CoopState
    reveal: bool
    peeking: tuple[bool, ...]
    humans: tuple[int, ...]
    last_take: tuple[int, int] | None
    cursor: tuple[int, ...]
    lifted: tuple[int | None, ...]
    chosen: tuple[tuple[int, ...], ...]


def cell_rects(area: pygame.Rect) -> dict[int, pygame.Rect]:
    """Where each card goes in the table's ``area`` (px): the side row's four above the grid's
    sixteen (positions as :mod:`arcade.coop.game`), with room for the row letters on the left."""
    gap = CARD_GAP
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


def lost_cell(result: RoundResult | None) -> tuple[int, int, int] | None:
    """(cell, face, taker) of the partner's exhibit taken in a lost round, else None."""
    if result is None or result.lost_by is None or not result.clues[result.lost_by]:
        return None
    for c in result.markers[1 - result.lost_by]:
        if result.faces[c] is None:
            return c, result.clues[result.lost_by][-1], result.lost_by
    return None


def draw_table(surface: pygame.Surface, area: pygame.Rect, shown: TableShown) -> None:
    """The table in ``area``: cards (or the names of empty cells), the markers shown with
    their tags, the reveal's pointing marks, else the cursors of the people choosing."""
    st = shown.state
    rects = cell_rects(area)
    small = render.small_screen(*surface.get_size())
    label = _("SIDE ROW  (top of the markers)")
    if small and render.font(24).size(label)[0] > area.right - rects[16].x:
        label = _("SIDE ROW")                   # a small display: the short wording
    render.text(surface, label, (rects[16].x, area.y), 24, render.DIM)
    for r_i, letter in enumerate("ABCD"):
        r = rects[r_i * 4]
        render.text(surface, letter, (r.x - 8, r.centery), 30, render.DIM, "midright", bold=True)
    result = st.results[-1] if shown.reveal else None
    faces = result.faces if result is not None else tuple(st.faces)
    markers = result.markers if result is not None else st.markers
    lost_at = lost_cell(result)
    if lost_at is not None:                  # the reveal shows the card that lost the round
        faces = tuple(lost_at[1] if p == lost_at[0] else f for p, f in enumerate(faces))
    seen = {s for s in range(2) if result is not None or shown.peeking[s]}
    tags: list[Tag] = []
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
        for s in seen:
            if p in markers[s]:
                col = seat_colour(s)
                pygame.draw.rect(surface, col, rect.inflate(10, 10), 7, border_radius=12)
                tag: tuple[str, ...] = (_("P{seat}'s").format(seat=s + 1), f"P{s + 1}") \
                    if len(shown.humans) != 1 or s not in shown.humans else (_("YOURS"), _("YOU"))
                fg, bg = (20, 20, 20), col
                if lost_at is not None and p == lost_at[0]:
                    who = f"P{lost_at[2] + 1}"
                    tag, fg, bg = (_("TAKEN by {who}").format(who=who), _("TAKEN"), who), (255, 255, 255), render.BAD
                tags.append((tag, fg, bg, rect))
    if lost_at is not None:
        # the card that lost the round stays on the table, crossed out over its picture
        lr = rects[lost_at[0]]
        pic = pygame.Rect(lr.x + 10, lr.y + 26, lr.w - 20, int(lr.h * 0.62) - 26)
        pygame.draw.line(surface, render.BAD, pic.topleft, pic.bottomright, 5)
        pygame.draw.line(surface, render.BAD, pic.topright, pic.bottomleft, 5)
    if shown.last_take is not None:
        s, p = shown.last_take
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
        draw_tags(surface, tags)
        return
    _draw_cursors(surface, rects, shown)
    draw_tags(surface, tags)


def _draw_cursors(surface: pygame.Surface, rects: dict[int, pygame.Rect], shown: TableShown) -> None:
    """The cursors of the people choosing (a secret pointing's only while its owner peeks,
    with two people), the lifted card and the cards pointed at."""
    st = shown.state
    for s in shown.humans:
        if st.is_terminal():
            break
        if st.phase == "point" and (s in st.points or (len(shown.humans) == 2 and not shown.peeking[s])):
            continue
        if st.phase not in ("take", "point") or (st.phase == "take" and st.active != s):
            continue
        cr = rects.get(shown.cursor[s])
        if cr is None:
            continue
        col = seat_colour(s)
        pygame.draw.rect(surface, col, cr.inflate(14, 14), 5, border_radius=14)
        if shown.lifted[s] == shown.cursor[s]:
            pygame.draw.rect(surface, render.GOLD, cr.inflate(22, 22), 5, border_radius=16)
        for c in shown.chosen[s]:
            pygame.draw.circle(surface, col, rects[c].center, 18)
            render.text(surface, f"P{s + 1}", rects[c].center, 24, (20, 20, 20), "center", bold=True)


def draw_tags(surface: pygame.Surface, tags: list[Tag]) -> None:
    """The markers' tags ("YOURS", "P2's", "TAKEN by P1") on the top edge of their cards,
    drawn last: no cursor or highlight of a neighbouring card is drawn over them (issue 20:
    "YOURS" was half under the highlight of the card above it).  Each tag is the first of
    its wordings (clearest first: "YOURS", "YOU") whose box is no wider than its card and
    the gap beside it (issue 20: at 480x320 "TAKEN by P1" covered the next cell's name and
    two "YOURS" tags overlapped)."""
    for wordings, fg, bg, rect in tags:
        room = rect.w + CARD_GAP - 10                 # the box: the words and 5 px each side
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
