"""Drawing the FocusX tables (pure drawing: each function draws the state and the small view
it is given in a rect, and changes nothing): Classic's four spots, ThinkFocus's rows, Duel's
piles (and its Classic tie-break), 4Focus's grid, and the active seat's hand with the
chooser's cursor (FXA-18: the shared screen shows it).

``compact`` is the small panel's size (``kiosk/games/focusx/panels.py``, :data:`COMPACT_W`):
24 px text and tighter margins.  The frame around the table is ``panels.py``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from arcade.focusx import fourfocus as ff
from arcade.focusx import thinkfocus as tf
from arcade.focusx.classic import ClassicState
from arcade.focusx.duel import DuelState
from arcade.i18n import _
from kiosk import render
from kiosk.games.focusx import cards as fx_cards

#: Classic's four spots, clockwise from the top left: (column, row) offsets from the centre.
SPOT_OFFSETS = ((-1, -1), (0, -1), (0, 0), (-1, 0))


@dataclass(frozen=True)
class HandView:
    """The active seat's hand as the table shows it (ThinkFocus, 4Focus).

    Attributes:
        seat: the active seat (its colour frames the cursor).
        cards: its cards, in hand order.
        who: who lays ("computer", "choose: left/right, OK", ...); short: a shorter wording.
        cursor: the card under the chooser's cursor (any int: taken modulo the hand), or
            None when nobody at this seat is choosing.
        stage: the chooser's stage, "card" or "place".
        on_back: the chooser's cursor is on "back to the hand".
    """

    seat: int
    cards: tuple[int, ...]
    who: str
    short: str
    cursor: int | None = None
    stage: str = "card"
    on_back: bool = False


def fit_text(surface: pygame.Surface, msg: str, box: pygame.Rect, size: int,
             colour: tuple[int, int, int]) -> None:
    """Draw ``msg`` centred in ``box``, shrinking it until it fits (never cut off)."""
    img = render.font(size, True).render(msg, True, colour)
    if img.get_width() > box.w or img.get_height() > box.h:
        k = min(box.w / img.get_width(), box.h / img.get_height())
        img = pygame.transform.smoothscale(img, (max(1, int(img.get_width() * k)), max(1, int(img.get_height() * k))))
    surface.blit(img, img.get_rect(center=box.center))


def draw_spots(surface: pygame.Surface, area: pygame.Rect, spots: list[list[int]], prev_spot: int | None,
               chooser: tuple[int, int] | None) -> tuple[int, int, int]:
    """Classic's four spots in ``area``: each pile's top card (a few backs under it), the
    count beside it, the previous spot framed, the chooser's spot in its seat's colour.

    Args:
        chooser: ``(seat, spot)`` of a person choosing a spot, or None.

    Returns:
        ``(card width, gap, centre y)`` in px, for the hint drawn between the rows.
    """
    cw = int(min(area.w / 4.6, area.h / 2.25 / 1.4))
    ch = int(cw * 1.4)
    gap = int(cw * 0.25)
    cx, cy = area.center
    for i, (ox, oy) in enumerate(SPOT_OFFSETS):
        r = pygame.Rect(cx + (gap // 2 if ox == 0 else -gap // 2 - cw),
                        cy + oy * (ch + gap // 2) + (gap // 4 if oy == 0 else -gap // 4), cw, ch)
        pile = spots[i]
        if pile:
            for k in range(min(3, len(pile) - 1), 0, -1):
                surface.blit(fx_cards.card_back(cw, ch), r.move(k * 4, k * 4))
            surface.blit(fx_cards.card_surface(pile[-1], cw, ch), r)
        else:
            render.empty_spot(surface, r, _("spot {n}").format(n=i + 1))
        if i == prev_spot:
            pygame.draw.rect(surface, render.DIM, r.inflate(10, 10), 3, border_radius=14)
        if chooser is not None and i == chooser[1]:
            pygame.draw.rect(surface, render.SEAT_COLOURS[chooser[0] % 8], r.inflate(16, 16), 6, border_radius=16)
        render.text(surface, f"{len(pile)}", (r.right + 6 if ox == 0 else r.left - 6, r.bottom),
                    26, render.DIM, "bottomleft" if ox == 0 else "bottomright")
    return cw, gap, cy


def classic_table(surface: pygame.Surface, area: pygame.Rect, st: ClassicState, chooser: tuple[int, int] | None,
                  compact: bool) -> None:
    """Classic's spots; on a TV the chooser's hint ("P1: left/right choose, OK lays") in the
    gap between their rows (a small panel has it in the message strip).

    Args:
        chooser: ``(seat, spot)`` of a person choosing a spot, or None.
    """
    cw, gap, cy = draw_spots(surface, area, st.spots, st.prev_spot, chooser)
    if chooser is not None and not compact:     # in the gap between the rows of spots
        hint = pygame.Rect(0, 0, 2 * cw + gap, max(20, gap - 4))
        hint.center = (area.centerx, cy)
        fit_text(surface, _("P{seat}: left/right choose, OK lays").format(seat=chooser[0] + 1), hint, 28,
                 render.SEAT_COLOURS[chooser[0] % 8])


def thinkfocus_table(surface: pygame.Surface, area: pygame.Rect, st: tf.ThinkFocusState, place_row: int | None,
                     hand: HandView | None, compact: bool) -> None:
    """ThinkFocus's four rows (their first cards framed, the card laid last framed in white,
    "here" at the end of the row ``place_row`` the chooser points at) and the hand at the right."""
    hand_w = int(area.w * 0.4) if compact else 290
    rows_area = (pygame.Rect(area.x + 52, area.y + 22, area.w - hand_w - 58, area.h - 24) if compact
                 else pygame.Rect(area.x + 70, area.y + 26, area.w - hand_w - 80, area.h - 30))
    # Room for a card more than the longest row; on a small panel at least 5 (not 7) so
    # the cards are as large as the rows' height allows.
    longest = max(max(len(r) for r in st.rows) + 1, 5 if compact else 7)
    ch = int(min(rows_area.h / 4 - 8, (rows_area.w / longest - 6) * 1.4))
    cw = int(ch / 1.4)
    placed = st.placed
    for k in range(longest):
        render.text(surface, str(k + 1), (rows_area.x + k * (cw + 6) + cw // 2, rows_area.y - 4), 22,
                    render.DIM, "midbottom")
    for r, row in enumerate(st.rows):
        y = rows_area.y + r * (ch + 8)
        # never under the row's first card (its frame reaches 3 px left of it)
        render.text_within(surface, _("row {n}").format(n=r + 1), (area.x + 8, y + ch // 2), rows_area.x - area.x - 12,
                           24, render.DIM, "midleft")
        for k, c in enumerate(row):
            rect = pygame.Rect(rows_area.x + k * (cw + 6), y, cw, ch)
            surface.blit(fx_cards.card_surface(c, cw, ch), rect)
            if k == 0:
                pygame.draw.rect(surface, render.DIM, rect.inflate(6, 6), 2, border_radius=10)
            if c == placed:
                pygame.draw.rect(surface, render.TEXT, rect.inflate(8, 8), 4, border_radius=10)
        end = pygame.Rect(rows_area.x + len(row) * (cw + 6), y, cw, ch)
        if place_row == r:
            col = render.SEAT_COLOURS[st.active % 8]
            pygame.draw.rect(surface, col, end, 6, border_radius=10)
            render.text(surface, _("here"), end.center, 26, col, "center", bold=True)
    if compact:
        hand_at = pygame.Rect(area.right - hand_w, area.y + 2, hand_w - 6, area.h - 4)
    else:
        hand_at = pygame.Rect(area.right - hand_w, area.y + 30, hand_w - 10, 170)
    if hand is not None:
        draw_hand(surface, hand_at, hand, compact)


def fourfocus_table(surface: pygame.Surface, area: pygame.Rect, st: ff.FourFocusState,
                    place_cell: tuple[int, int] | None, targets: frozenset[tuple[int, int]],
                    hand: HandView | None, compact: bool) -> None:
    """4Focus's grid around the face-down centre card (the claimed cards framed in gold, the
    cells the chosen card may go to outlined, ``place_cell`` the chooser points at framed in
    the active seat's colour) and the hand at the right."""
    hand_w = int(area.w * 0.4) if compact else 290
    grid = pygame.Rect(area.x + 10, area.y + 4, area.w - hand_w - 20, area.h - 6)
    # Show the laid cards and the cells next to them (at least 5x5), never beyond the
    # 9x9 reach (FX-11), so cards stay large while the board is small.
    xs = [x for x, _ in st.board] + [0]
    ys = [y for _, y in st.board] + [0]
    lo_x, hi_x = max(-ff.REACH, min(xs) - 1), min(ff.REACH, max(xs) + 1)
    lo_y, hi_y = max(-ff.REACH, min(ys) - 1), min(ff.REACH, max(ys) + 1)
    while hi_x - lo_x < 4:
        lo_x, hi_x = max(-ff.REACH, lo_x - 1), min(ff.REACH, hi_x + 1)
    while hi_y - lo_y < 4:
        lo_y, hi_y = max(-ff.REACH, lo_y - 1), min(ff.REACH, hi_y + 1)
    ncols, nrows = hi_x - lo_x + 1, hi_y - lo_y + 1
    cell = int(min(grid.w / ncols, grid.h / nrows))
    ox = grid.x + (grid.w - cell * ncols) // 2
    oy = grid.y + (grid.h - cell * nrows) // 2
    cw, ch = int(cell * 0.70), int(cell * 0.96)
    claimed = set(st.claimed[1]) if st.claimed is not None else set()
    edge = pygame.Rect(ox, oy, cell * ncols, cell * nrows)
    for side, at_limit in (("left", lo_x == -ff.REACH), ("right", hi_x == ff.REACH),
                           ("top", lo_y == -ff.REACH), ("bottom", hi_y == ff.REACH)):
        if at_limit:                   # the 9x9 limit: a thick line where the view reaches it
            a = {"left": (edge.topleft, edge.bottomleft), "right": (edge.topright, edge.bottomright),
                 "top": (edge.topleft, edge.topright), "bottom": (edge.bottomleft, edge.bottomright)}[side]
            pygame.draw.line(surface, render.BAD, a[0], a[1], 4)
    for gy in range(lo_y, hi_y + 1):
        for gx in range(lo_x, hi_x + 1):
            r = pygame.Rect(ox + (gx - lo_x) * cell, oy + (gy - lo_y) * cell, cell, cell)
            pygame.draw.rect(surface, render.PANEL, r.inflate(-2, -2), 1)
            card_r = pygame.Rect(0, 0, cw, ch)
            card_r.center = r.center
            if (gx, gy) == ff.CENTRE:
                surface.blit(fx_cards.card_back(cw, ch, "?"), card_r)
            elif (gx, gy) in st.board:
                surface.blit(fx_cards.card_surface(st.board[(gx, gy)], cw, ch), card_r)
                if (gx, gy) in claimed:
                    pygame.draw.rect(surface, render.GOLD, card_r.inflate(6, 6), 4, border_radius=8)
            elif (gx, gy) in targets:
                pygame.draw.rect(surface, render.PANEL_LIGHT, card_r, 2, border_radius=8)
            if place_cell == (gx, gy):
                col = render.SEAT_COLOURS[st.active % 8]
                pygame.draw.rect(surface, col, card_r.inflate(8, 8), 5, border_radius=8)
    if compact:
        hand_at = pygame.Rect(area.right - hand_w, area.y + 2, hand_w - 6, area.h - 4)
    else:
        hand_at = pygame.Rect(area.right - hand_w, area.y + 10, hand_w - 10, int(area.h * 0.5))
    if hand is not None:
        draw_hand(surface, hand_at, hand, compact)


def _beside_pile(surface: pygame.Surface, area: pygame.Rect, r: pygame.Rect, word: str, size: int,
                 colour: tuple[int, int, int], bold: bool) -> None:
    """``word`` ("NOW", "next") left of the pile ``r``, or right of it where the left has no
    room inside ``area`` (the leftmost pile of an 800x480 table drew "NOW" off the screen)."""
    w = render.font(size, bold).size(word)[0]
    if r.x - 14 - w >= area.x:
        render.text(surface, word, (r.x - 14, r.centery), size, colour, "midright", bold=bold)
    else:
        render.text(surface, word, (r.right + 14, r.centery), size, colour, "midleft", bold=bold)


def duel_table(surface: pygame.Surface, area: pygame.Rect, st: DuelState, racing: tuple[int, ...],
               waiting: list[tuple[int, ...]], compact: bool) -> None:
    """Duel's table: each seat's pile and penalty count around the table, clockwise; the
    focus being raced (its owners ``racing``) framed thick in gold with "NOW", the foci
    ``waiting`` for their race framed thin with "next" (FXA-20, FXA-24); during the
    tie-break, its Classic spots."""
    if st.tiebreak is not None:
        _tiebreak(surface, area, st.tiebreak, compact)
        return
    n = st.seats
    cols = (n + 1) // 2
    rows = 2
    cell_w = (area.w - 40) // cols
    cell_h = (area.h - 10) // rows
    # compact: the pile's top 34 px below its cell's, so a raced pile's gold frame (11 px
    # beyond the card) stays under the seat's name and penalty line, not over them
    ch = int(min(cell_h - (46 if compact else 56), (cell_w - 30) * 1.4))
    cw = int(ch / 1.4)
    waiting_seats = {s for t in waiting for s in t} - set(racing)
    scores = st.scores()
    for s in range(n):
        rr, cc = divmod(s, cols)
        if rr == 1:
            cc = cols - 1 - cc          # around the table, clockwise
        cell = pygame.Rect(area.x + 20 + cc * cell_w, area.y + 4 + rr * cell_h, cell_w, cell_h)
        col = render.SEAT_COLOURS[s % 8]
        if compact:
            name = render.text(surface, f"P{s + 1}", (cell.x + 4, cell.y + 2), 26, col, bold=True)
            pen = _("penalty {n}").format(n=scores[s])
            # Only beside the name when it fits whole: the seat panels show the count too.
            if render.font(24, True).size(pen)[0] <= cell.right - 6 - name.right - 8:
                render.text(surface, pen, (cell.right - 6, cell.y + 4), 24,
                            render.BAD if scores[s] else render.DIM, "topright", bold=True)
            r = pygame.Rect(cell.centerx - cw // 2, cell.y + 34, cw, ch)
        else:
            render.text(surface, f"P{s + 1}", (cell.x + 8, cell.y + 4), 34, col, bold=True)
            render.text(surface, _("penalty {n}").format(n=scores[s]), (cell.right - 10, cell.y + 6), 28,
                        render.BAD if scores[s] else render.DIM, "topright", bold=True)
            r = pygame.Rect(cell.centerx - cw // 2, cell.y + 40, cw, ch)
        pile = st.piles[s]
        if pile:
            for k in range(min(3, len(pile) - 1), 0, -1):
                surface.blit(fx_cards.card_back(cw, ch), r.move(k * 4, k * 4))
            surface.blit(fx_cards.card_surface(pile[-1], cw, ch), r)
        elif compact and render.font(24).size(_("empty"))[0] > r.w - 4:
            # A small pile spot: its outline only (the word would run over the next cell).
            pygame.draw.rect(surface, render.PANEL_LIGHT, r, 3, border_radius=12)
        else:
            render.empty_spot(surface, r, _("empty"))
        if s in racing:                 # the focus being raced now (FXA-20): thick gold frame
            pygame.draw.rect(surface, render.GOLD, r.inflate(22, 22), 7, border_radius=16)
            _beside_pile(surface, area, r, _("NOW"), 24, render.GOLD, True)
        elif s in waiting_seats:        # a focus waiting for its race (FXA-24): thin frame
            pygame.draw.rect(surface, render.TEXT, r.inflate(22, 22), 2, border_radius=16)
            _beside_pile(surface, area, r, _("next"), 22, render.DIM, False)
        if s == st.active and not st.is_terminal():
            pygame.draw.rect(surface, col, r.inflate(10, 10), 4, border_radius=14)
        render.text(surface, f"{len(pile)}", (r.right + 14, r.bottom), 24, render.DIM, "bottomleft")


def _tiebreak(surface: pygame.Surface, area: pygame.Rect, tb: ClassicState, compact: bool) -> None:
    """Duel's tie-break (FXA-22): who is in it, and its four Classic spots."""
    names = ", ".join(f"P{s + 1}" for s in tb.sudden)
    heading = _("Tie-break: {names} - first to win a focus wins").format(names=names)
    if compact:                     # two rows of 24 px above the spots
        render.text_lines(surface, heading, (area.centerx, area.y + 2), area.w - 20, 2, render.MIN_TEXT_PX,
                          render.GOLD, "midtop", bold=True)
    else:
        render.text(surface, heading, (area.centerx, area.y + 22), 34, render.GOLD, "center", bold=True)
    cw = int(min(area.w / 6, (area.h - 70) / 2.2 / 1.4))
    ch = int(cw * 1.4)
    cx, cy = area.centerx, area.y + 50 + ch + 5
    for i, (ox, oy) in enumerate(SPOT_OFFSETS):
        r = pygame.Rect(cx + (10 if ox == 0 else -10 - cw), cy + (5 if oy == 0 else -5 - ch), cw, ch)
        pile = tb.spots[i]
        if pile:
            surface.blit(fx_cards.card_surface(pile[-1], cw, ch), r)
        else:
            render.empty_spot(surface, r, _("spot {n}").format(n=i + 1))


def draw_hand(surface: pygame.Surface, rect: pygame.Rect, hand: HandView, compact: bool) -> None:
    """The active seat's hand in ``rect``: its heading, who lays, the cards with the
    chooser's cursor, and the chooser's next step."""
    if compact:
        _hand_compact(surface, rect, hand)
        return
    seat, cards, cursor = hand.seat, hand.cards, hand.cursor
    col = render.SEAT_COLOURS[seat % 8]
    render.text(surface, _("P{seat}'s hand").format(seat=seat + 1), (rect.x + 8, rect.y), 30, col, bold=True)
    render.text_best(surface, (hand.who, hand.short), (rect.x + 8, rect.y + 28), rect.w - 16, (20,), render.DIM)
    if not cards:
        render.text(surface, _("no cards"), (rect.x + 8, rect.y + 56), 26, render.DIM)
        return
    ch_h = rect.h - 60
    cw = int(min(ch_h / 1.4, (rect.w - 20) / max(3, len(cards)) - 12))
    chh = int(cw * 1.4)
    x = rect.x + 10
    for i, c in enumerate(cards):
        r = pygame.Rect(x, rect.y + 56, cw, chh)
        surface.blit(fx_cards.card_surface(c, cw, chh), r)
        if cursor is not None and i == cursor % len(cards):
            pygame.draw.rect(surface, col, r.inflate(12, 12), 6 if hand.stage == "card" else 3, border_radius=12)
        x += cw + 14
    if cursor is not None and hand.on_back:
        render.text(surface, _("< back to the hand >"), (rect.x + 8, rect.y + 62 + chh), 26, col, bold=True)
    elif cursor is not None:
        step = _("choose a card, OK") if hand.stage == "card" else _("choose the place, OK")
        render.text(surface, step, (rect.x + 8, rect.y + 62 + chh), 24, col, bold=True)


def _hand_compact(surface: pygame.Surface, rect: pygame.Rect, hand: HandView) -> None:
    """:func:`draw_hand` on a small panel: 24 px heading and hints (wrapped onto two rows
    when needed, never shortened: they are the controls), the cards in the rest."""
    seat, cards, cursor = hand.seat, hand.cards, hand.cursor
    col = render.SEAT_COLOURS[seat % 8]
    size = render.MIN_TEXT_PX
    step = render.font(size, True).get_linesize()
    inner = rect.w - 8
    x = rect.x + 4
    y = render.text_best(surface, [_("P{seat}'s hand").format(seat=seat + 1)], (x, rect.y), inner, (28, 26, 24), col,
                         bold=True).bottom + 1
    rows = 1 if render.font(size).size(hand.who)[0] <= inner else 2
    y = render.text_lines(surface, hand.who, (x, y), inner, rows, size, render.DIM).bottom + 3
    if not cards:
        render.text(surface, _("no cards"), (x, y), size, render.DIM)
        return
    hint = ""
    if cursor is not None and hand.on_back:
        hint = _("< back to the hand >")
    elif cursor is not None:
        hint = _("choose a card, OK") if hand.stage == "card" else _("choose the place, OK")
    hint_rows = 0 if not hint else 1 if render.font(size, True).size(hint)[0] <= inner else 2
    bottom = rect.bottom - hint_rows * step - 4
    chh = max(16, bottom - y - 6)
    cw = int(min(chh / 1.4, (rect.w - 12) / max(3, len(cards)) - 8))
    chh = int(cw * 1.4)
    cx = x + 4
    for i, c in enumerate(cards):
        r = pygame.Rect(cx, y + 4, cw, chh)
        surface.blit(fx_cards.card_surface(c, cw, chh), r)
        if cursor is not None and i == cursor % len(cards):
            pygame.draw.rect(surface, col, r.inflate(8, 8), 4 if hand.stage == "card" else 2, border_radius=10)
        cx += cw + 10
    if hint:
        render.text_lines(surface, hint, (x, y + chh + 10), inner, hint_rows, size, col, bold=True)
