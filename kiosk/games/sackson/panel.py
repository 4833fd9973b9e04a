"""The FOCUS / Crossfire side panel: the title row, whose turn, a card a player, and below
them the banner, the last moves and the virtual LED matrix.

Only draws; never changes a game state.  Each part takes what it shows as a small frozen
dataclass (:class:`HeadShown`, :class:`TurnShown`, :class:`CardShown`, :class:`BelowShown`)
made by the scene (:mod:`kiosk.games.sackson.scene`), so a part can be drawn and checked
alone.  :func:`panel_rects` says where the parts go: the full panel on the 1280x720 and
larger TVs (800x480 too), a compact one of 24 px rows on a 480x320 display.  Sizes are
pixels; no text is drawn under :data:`kiosk.render.MIN_TEXT_PX`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Sequence

import pygame

from arcade.sackson.game import SacksonState
from kiosk import render
from kiosk.games.sackson import draw as sd
from kiosk.games.sackson.chooser import BACK_HOLD_NS, OK_HOLD_NS
from kiosk.players.away import label_wordings

RGB = tuple[int, int, int]

#: The short game names of a compact side panel (480x320): the title row's room is the width
#: left of "move 10".  The team game names its teams there (its cards have no room for them).
SHORT_TITLES = {"2p": "FOCUS", "3p": "FOCUS 3p", "4p-teams": "1+3 v 2+4", "4p": "FOCUS 4p",
                "crossfire": "Crossfire"}
#: One row of 24 px text (the smallest the TV shows, kiosk.render.MIN_TEXT_PX) on a compact panel (px).
COMPACT_ROW = 21
#: The banner's height on a compact panel (px).
COMPACT_BANNER_H = 30
#: The gap under each player card (px).
CARD_GAP = 6
#: The full panel's card heights (px, gap included) by the number of seats, and the least a
#: two-row card may be squeezed to before the compact panel is used.
FULL_CARD_H = {2: 92, 3: 84, 4: 74}
MIN_FULL_CARD_H = 72
#: The full panel's title row and turn box heights (px, the gap under the box included).
FULL_HEAD_H, FULL_TURN_H = 40, 136

#: A last move is squeezed to no less than this share of its width (else the list stops).
MIN_LOG_KEPT = 0.75


class PanelRects(NamedTuple):
    """Where the FOCUS / Crossfire side panel's parts go (pixel rects inside its area).

    ``compact`` is the small-display panel (480x320): rows of 24 px text, ``hint`` rows of
    control hint in the turn box (0-3) and ``card_rows`` rows in each player card (1 or 2);
    the full panel has ``hint`` 1 and ``card_rows`` 2.  ``cards`` has one rect a seat, gap
    included; ``below`` is the rest of the area (the banner, the last moves, the LED matrix)
    and may be 0 px high.  The parts never overlap and never leave the area.
    """
    compact: bool
    head: pygame.Rect
    turn: pygame.Rect
    hint: int
    cards: list[pygame.Rect]
    card_rows: int
    below: pygame.Rect


def panel_rects(area: pygame.Rect, seats: int) -> PanelRects:
    """The side panel's parts for ``seats`` (2-4) players in ``area`` (px).

    The full panel (the 1280x720 and larger TVs, 800x480 too) when its rows fit: the cards
    may shrink to :data:`MIN_FULL_CARD_H`.  Otherwise the compact panel: the cards come
    first (every seat is always shown), then as many hint rows as fit (up to 3), then two
    rows a card, then the room below."""
    n = max(2, min(4, seats))
    card_h = FULL_CARD_H[n]
    room = area.h - FULL_HEAD_H - FULL_TURN_H
    if area.w >= 240 and room >= n * MIN_FULL_CARD_H:
        card_h = min(card_h, room // n)
        head = pygame.Rect(area.x, area.y, area.w, FULL_HEAD_H)
        turn = pygame.Rect(area.x, head.bottom, area.w, FULL_TURN_H - 8)
        y = head.bottom + FULL_TURN_H
        cards = [pygame.Rect(area.x, y + p * card_h, area.w, card_h) for p in range(n)]
        y += n * card_h
        return PanelRects(False, head, turn, 1, cards, 2, pygame.Rect(area.x, y, area.w, area.bottom - y))
    head_h = COMPACT_ROW + 5
    turn_base = 4 + 24 + 2 + COMPACT_ROW + 4        # who, what and the box's edges
    one, two = COMPACT_ROW + 9 + 2, 2 * COMPACT_ROW + 8 + 2   # a card a row or two, its gap included
    room = area.h - head_h - turn_base - 4
    hint = max(0, min(3, (room - n * one) // COMPACT_ROW))
    rows = 2 if room - hint * COMPACT_ROW >= n * two else 1
    card_h = two if rows == 2 else one
    head = pygame.Rect(area.x, area.y, area.w, head_h)
    turn = pygame.Rect(area.x, head.bottom, area.w, turn_base + hint * COMPACT_ROW)
    y = turn.bottom + 4
    cards = [pygame.Rect(area.x, y + p * card_h, area.w, card_h) for p in range(n)]
    y = min(area.bottom, y + n * card_h)
    return PanelRects(True, head, turn, hint, cards, rows, pygame.Rect(area.x, y, area.w, area.bottom - y))


@dataclass(frozen=True)
class HeadShown:
    """The title row: ``title`` (the short one on a compact panel), the moves made so far
    (``ply``, the opening swap not counted), ``over`` once the game ended, and the banner
    (words, colour) when it takes the title row for its moment (no room below the cards)."""

    title: str
    ply: int
    over: bool
    banner: tuple[str, RGB] | None


@dataclass(frozen=True)
class TurnShown:
    """Whose turn.

    Attributes:
        seat: the seat to move (0-based), -1 once the game is over.
        swapping: the opening swap (SF-3) is being chosen.
        what, hint: what to do now and how the seat works its controls.
        thinking: a computer seat's ring, 0..1 of the way round; None for a person.
        held_ns: how long a person's buzzer has been held (ns); None when it is not held.
        counts: the counts of the count step (empty outside it); count: the one under the cursor.
    """

    seat: int
    swapping: bool
    what: str
    hint: str
    thinking: float | None
    held_ns: int | None
    counts: tuple[int, ...]
    count: int | None


@dataclass(frozen=True)
class CardShown:
    """One player's card.

    Attributes:
        seat: the player's seat (0-based); label: its station ("GPIO 17", "computer (hard)").
        active: it is this seat's turn; out: it dropped out (SF-4, SF-5);
        skipped: passed over this round (4p-teams, SF-5), while the game goes on.
        reserve_cursor: the seat's cursor is on its reserve (a drop).
        teams: the team game (the name row names the team).
        figures: its figures, the most important first (:func:`card_figures`).
    """

    seat: int
    label: str
    active: bool
    out: bool
    skipped: bool
    reserve_cursor: bool
    teams: bool
    figures: tuple[str, ...]


@dataclass(frozen=True)
class BelowShown:
    """Under the cards: the banner (words, colour) or None, the last moves (seat, words),
    oldest first, and the virtual LED matrix (``matrix``: the arcade shows one; ``picture``:
    its rows of RGB, or None before the first)."""

    banner: tuple[str, RGB] | None
    log: tuple[tuple[int, str], ...]
    matrix: bool
    picture: object


def side_rect(size: tuple[int, int]) -> pygame.Rect:
    """The side panel's area on a ``size`` (w, h) px screen: right of the board."""
    W, H = size
    return pygame.Rect(int(W * 0.63) + 6, 8, W - int(W * 0.63) - 14, H - 16)


def banner_rect(area: pygame.Rect, y: int, compact: bool = False) -> pygame.Rect:
    """Where the banner (a capture, a skipped seat, "Esc again") goes: a strip at ``y``
    below the player cards, so it never covers the title, the move counter or a card
    (50 px high, :data:`COMPACT_BANNER_H` on a compact panel)."""
    return pygame.Rect(area.x, y, area.w, COMPACT_BANNER_H if compact else 50)


def draw_banner(surface: pygame.Surface, r: pygame.Rect, banner: tuple[str, RGB]) -> None:
    """The banner's words on its colour, as large as fit (36 px down to 24)."""
    msg, col = banner
    size = 36 if r.h >= 40 else 24
    while size > 24 and render.font(size, True).size(msg)[0] > r.w - 24:
        size -= 2
    pygame.draw.rect(surface, col, r, border_radius=12 if r.h >= 40 else 8)
    render.text_within(surface, msg, r.center, r.w - 12, size, sd.INK, "center", bold=True)


def draw_head(surface: pygame.Surface, area: pygame.Rect, head: HeadShown, compact: bool = False) -> None:
    """The game's title and the move number, side by side: on a narrow panel (an 800x480
    display) the title is squeezed to the room left of the move number, never under it; a
    compact panel (480x320) shows the short title, or the banner when no room is below."""
    if head.banner is not None:
        msg, col = head.banner
        box = area.inflate(0, -4)
        pygame.draw.rect(surface, col, box, border_radius=8)
        # a narrow strip: the newest of the banner's messages alone, then its short form
        newest = msg.split("   ")[-1]
        short = newest.replace("has no move: skipped this turn", "skipped (no move)").replace(
            "has no move: out of the game", "is out (no move)")
        render.text_best(surface, (msg, newest, short), box.center, box.w - 12,
                         (34, 30, 28, 26, 24) if box.h >= 30 else (24,), sd.INK, "center", bold=True)
        return
    size = 24 if compact else 28
    moves = render.text(surface, f"move {head.ply + 1}" if not head.over else f"{head.ply} moves",
                        (area.right, area.y + (2 if compact else 4)), size, render.DIM, "topright")
    render.text_best(surface, (head.title,), (area.x, area.y), moves.left - area.x - (6 if compact else 12),
                     (26,) if compact else (34, 30, 28, 26), render.TEXT, bold=True)


def draw_turn(surface: pygame.Surface, turn: pygame.Rect, shown: TurnShown) -> None:
    """Whose turn on a full panel: the seat's badge, "P1 to move" with the thinking or hold
    ring at its right, then what to do (or the count boxes) and the control hint."""
    cp = shown.seat
    col = sd.seat_colour(cp) if cp >= 0 else render.GOLD
    render.panel(surface, turn, render.PANEL, col, 4)
    what, hint = shown.what, shown.hint
    if cp >= 0:
        sd.seat_badge(surface, cp, (turn.x + 44, turn.y + 44), 30)
        who = f"P{cp + 1} swaps" if shown.swapping else f"P{cp + 1} to move"
        # squeezed, never cut, left of the thinking ring (76 px at the right)
        render.text_best(surface, (who,), (turn.x + 88, turn.y + 14), turn.right - 76 - (turn.x + 88),
                         (50, 44, 40, 36, 32, 28), col, bold=True)
        if shown.thinking is not None:
            frac = shown.thinking
            render.ring(surface, (turn.right - 42, turn.y + 44), 26, max(0.04, frac), col, 6)
            pygame.draw.circle(surface, render.PANEL_LIGHT, (turn.right - 42, turn.y + 44), 26, 2)
        if shown.held_ns is not None:
            t = shown.held_ns
            frac = min(1.0, t / BACK_HOLD_NS)
            ring_col = render.GOLD if t < OK_HOLD_NS else (render.GOOD if t < BACK_HOLD_NS else render.BAD)
            render.ring(surface, (turn.right - 42, turn.y + 44), 26, max(0.04, frac), ring_col, 8)
    else:
        render.text(surface, "Game over", (turn.x + 16, turn.y + 14), 50, render.GOLD, bold=True)
    if shown.counts:
        counts = list(shown.counts)
        # the count boxes share what the panel leaves after the question (a narrow panel: smaller)
        label = render.text_best(surface, ("How many?", "How many"), (turn.x + 16, turn.y + 64),
                                 max(40, turn.w // 3), (36, 30, 24), render.TEXT)
        x = label.right + 10
        step = max(26, min(46, (turn.right - 8 - x) // max(1, len(counts))))
        for k in counts:
            box = pygame.Rect(x, turn.y + 60, step - 6, 40)
            sel = k == shown.count
            pygame.draw.rect(surface, render.GOLD if sel else render.PANEL_LIGHT, box, border_radius=8)
            render.text_within(surface, str(k), box.center, box.w - 2, 38 if sel else 30,
                               sd.INK if sel else render.TEXT, "center", bold=True)
            x += step
    else:
        fit_text(surface, what, (turn.x + 16, turn.y + 66), turn.w - 28, 36, render.TEXT)
    fit_text(surface, hint, (turn.x + 16, turn.y + 100), turn.w - 28, 24, render.DIM)


def draw_turn_compact(surface: pygame.Surface, turn: pygame.Rect, shown: TurnShown, hint_rows: int) -> None:
    """Whose turn on a compact panel (480x320): the seat's badge, "P1 to move" with the
    thinking or hold ring at its right, what to do and ``hint_rows`` rows of the hint, in
    rows of 24 px text (never smaller: :data:`kiosk.render.MIN_TEXT_PX`)."""
    cp = shown.seat
    col = sd.seat_colour(cp) if cp >= 0 else render.GOLD
    render.panel(surface, turn, render.PANEL, col, 3)
    what, hint = shown.what, shown.hint
    row = pygame.Rect(turn.x + 6, turn.y + 4, turn.w - 12, 24)
    ring_r = 9
    ring_c = (row.right - ring_r - 1, row.centery)
    if cp >= 0:
        sd.seat_badge(surface, cp, (row.x + 11, row.centery), 10, label=False)
        who = f"P{cp + 1} swaps" if shown.swapping else f"P{cp + 1} to move"
        render.text_within(surface, who, (row.x + 26, row.y), ring_c[0] - ring_r - 4 - (row.x + 26), 28, col,
                           bold=True)
        if shown.thinking is not None:
            frac = shown.thinking
            render.ring(surface, ring_c, ring_r, max(0.04, frac), col, 3)
            pygame.draw.circle(surface, render.PANEL_LIGHT, ring_c, ring_r, 1)
        if shown.held_ns is not None:
            t = shown.held_ns
            ring_col = render.GOLD if t < OK_HOLD_NS else (render.GOOD if t < BACK_HOLD_NS else render.BAD)
            render.ring(surface, ring_c, ring_r, max(0.04, min(1.0, t / BACK_HOLD_NS)), ring_col, 4)
    else:
        render.text_within(surface, "Game over", row.topleft, row.w, 28, render.GOLD, bold=True)
    y = row.bottom + 2
    if shown.counts:
        what = f"How many? {shown.count} of {max(shown.counts)}"
    # a narrow panel: the move alone when its effect ("(height 2, ...)") does not fit beside it
    render.text_best(surface, (what, what.split("  (")[0]), (row.x, y), row.w, (24,), render.TEXT)
    for i, line in enumerate(render.wrap(hint, row.w, 24, hint_rows)):
        render.text_within(surface, line, (row.x, y + (i + 1) * COMPACT_ROW), row.w, 24, render.DIM)


def draw_below(surface: pygame.Surface, area: pygame.Rect, y: int, shown: BelowShown, compact: bool = False) -> None:
    """The banner, the last moves and the virtual LED matrix, under the player cards (on a
    compact panel: the banner and as many last moves as fit, without their heading)."""
    if shown.banner is not None:
        banner = banner_rect(area, y, compact)
        draw_banner(surface, banner, shown.banner)
        y = banner.bottom + 6
    # the last moves
    led_size = 0
    if shown.matrix:
        led_size = min(150, area.bottom - y - 8)
    if led_size < 80:
        led_size = 0
    log_w = area.w - led_size - (10 if led_size else 0)
    yy = y + 2
    if not compact:
        if yy + 22 + 24 > area.bottom:           # no room for a move under the heading
            return
        render.text(surface, "last moves", (area.x + 4, yy), 22, render.DIM)
        yy += 22
    step = COMPACT_ROW if compact else 25
    pad = 20 if compact else 34
    for seat, text in reversed(shown.log):
        if yy > area.bottom - (step - 1 if compact else 24):
            break
        msg = f"P{seat + 1} {text}"
        # a row above the matrix has the panel's width; one beside it only what the matrix
        # leaves: there a move too long to read is shown without its caption ("P2 g6-f6",
        # not "... 1 to reserve" squeezed to 8 px), and the list stops at one still too long
        width = (area.w if not led_size or yy + 24 <= area.bottom - led_size else log_w) - pad
        if width < MIN_LOG_KEPT * render.font(24).size(msg)[0] and text.split():
            msg = f"P{seat + 1} {text.split()[0]}"
        if width < MIN_LOG_KEPT * render.font(24).size(msg)[0]:
            break
        sd.seat_badge(surface, seat, (area.x + (8 if compact else 14), yy + 11), 6 if compact else 9, label=False)
        fit_text(surface, msg, (area.x + (18 if compact else 30), yy),
                       width, 24, render.TEXT if yy < y + 50 else render.DIM)
        yy += step
    if led_size:
        r = pygame.Rect(area.right - led_size, area.bottom - led_size, led_size, led_size)
        render.led_matrix(surface, r, shown.picture)


def card_figures(state: SacksonState, p: int, short: bool) -> tuple[str, ...]:
    """A player card's figures, the most important first: reserve and captures (3p: the
    captures of each opponent towards the goal, and the stones removed), then the tops and
    the stones on the board; ``short``: the compact panel's abbreviations."""
    st = state
    tops = sum(1 for c in st.board.cells if st.stack(c) and st.stack(c)[-1] == p)
    settings = st.game.settings
    if st.game.variant == "3p":
        need = settings["goal_captures_each"]
        each = " ".join(f"P{c + 1}:{st.captured(p)[c]}" for c in range(3) if c != p)
        removed = f"{st.removed(p)}/{settings['goal_removed']}"
        if short:
            return (f"res {st.reserve(p)}", f"{each} /{need}", f"rm {removed}", f"tops {tops}")
        return (f"reserve {st.reserve(p)}", f"caught {each} /{need}", f"removed {removed}", f"tops {tops}")
    on_board = sum(1 for c in st.board.cells for s in st.stack(c) if s == p)
    caps = sum(st.captured(p))
    if short:
        return (f"res {st.reserve(p)}", f"cap {caps}", f"tops {tops}")
    return (f"reserve {st.reserve(p)}", f"captured {caps}", f"tops {tops}", f"on board {on_board}")


def _draw_figures(surface: pygame.Surface, items: Sequence[str], pos: tuple[int, int], right: int, size: int,
                  gap: int) -> None:
    """As many of ``items`` as fit, left to right, from ``pos`` to ``right`` (px): the first two bright,
    the rest dim; the first is squeezed to fit when even it does not."""
    x, y = pos
    for j, t in enumerate(items):
        img = render.font(size).render(t, True, render.TEXT if j < 2 else render.DIM)
        if x + img.get_width() > right:
            if j == 0:
                render.text_within(surface, t, (x, y), right - x, size, render.TEXT)
            break
        surface.blit(img, (x, y))
        x += img.get_width() + gap


def _draw_card_compact(surface: pygame.Surface, r: pygame.Rect, card: CardShown, rows: int) -> None:
    """A player card on a compact panel (480x320): the seat's strip and shape, "P1" and its
    figures on one row; with two rows, the seat's label beside "P1" and the figures below.
    OUT or SKIPPED takes the figures' place."""
    p = card.seat
    col = sd.seat_colour(p)
    active = card.active
    pygame.draw.rect(surface, render.PANEL_LIGHT if active else render.PANEL, r, border_radius=8)
    if active:
        pygame.draw.rect(surface, col, r, 2, border_radius=8)
    pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, 6, r.h), border_top_left_radius=8,
                     border_bottom_left_radius=8)
    row1 = pygame.Rect(r.x + 10, r.y + 4, r.w - 14, COMPACT_ROW)
    sd.seat_badge(surface, p, (row1.x + 9, row1.centery), 8, label=False)
    name = render.text(surface, f"P{p + 1}", (row1.x + 21, row1.y), 24, col, bold=True)
    tag: tuple[str, tuple[int, int, int]] | None = None
    if card.out:
        tag = ("OUT", render.BAD)
    elif card.skipped:
        tag = ("SKIPPED", render.GOLD)
    x = name.right + 8
    if rows >= 2:
        render.text_best(surface, label_wordings(card.label[:20]),
                         (row1.right, row1.y + 2), row1.right - x, (24,), render.DIM, "topright")
        x, y = row1.x + 4, row1.bottom
    else:
        y = row1.y
    if tag is not None:
        render.text_within(surface, tag[0], (x, y), row1.right - x, 24, tag[1], bold=True)
    else:
        _draw_figures(surface, card.figures, (x, y), row1.right, 24, 10)
    if card.reserve_cursor:
        pygame.draw.rect(surface, render.GOLD, r, 3, border_radius=8)


def draw_card(surface: pygame.Surface, r: pygame.Rect, card: CardShown, rows: int = 2,
              compact: bool = False) -> None:
    """A player's card in ``r``: on a full panel its strip and shape, its name row (with the
    station label or the SKIPPED badge), its figures and OUT; on a compact one
    ``rows`` (1 or 2) rows of 24 px text.  The cursor on the reserve frames it in gold."""
    if compact:
        _draw_card_compact(surface, r, card, rows)
        return
    p = card.seat
    col = sd.seat_colour(p)
    active = card.active
    render.panel(surface, r, render.PANEL_LIGHT if active else render.PANEL, col if active else None, 4)
    pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, 10, r.h), border_top_left_radius=12,
                     border_bottom_left_radius=12)
    big = r.h >= 80
    sd.seat_badge(surface, p, (r.x + 38, r.y + r.h // 2), 22 if big else 19)
    badge = _skipped_badge(r) if card.skipped and not card.out else None
    _draw_name_row(surface, r, card, big, col, label=not card.skipped, reserve=0 if badge is None else badge[1].w)
    _draw_figures(surface, card.figures, (r.x + 70, r.y + (46 if big else 40)), r.right - 8, 26 if big else 24, 16)
    if card.reserve_cursor:
        pygame.draw.rect(surface, render.GOLD, r, 5, border_radius=12)
    if card.out:
        render.text(surface, "OUT", (r.right - 10, r.bottom - 8), 34, render.BAD, "bottomright", bold=True)
    elif badge is not None:
        msg, box = badge
        pygame.draw.rect(surface, render.GOLD, box, border_radius=8)
        render.text(surface, msg, box.center, 26, sd.INK, "center", bold=True)


#: The station label's size on a full player card (px) and the gap left of it (px).
CARD_LABEL_PX, CARD_LABEL_GAP = 22, 12


def _skipped_badge(r: pygame.Rect) -> tuple[str, pygame.Rect]:
    """The SKIPPED badge at the right of a full card's top row, in place of the station
    label: "SKIPPED: no move" when the seat's name ("P3" at least) still fits beside it,
    else "SKIPPED" (issue 20: at 800x480 the badge covered "P3  team P1+P3")."""
    room = r.w - 80 - CARD_LABEL_GAP - render.font(render.MIN_TEXT_PX, True).size("P4")[0]
    msg = "SKIPPED"
    if render.font(26, True).size("SKIPPED: no move")[0] + 14 <= room:
        msg = "SKIPPED: no move"
    box = pygame.Rect(0, 0, render.font(26, True).size(msg)[0] + 14, render.font(26, True).get_height() + 6)
    box.topright = (r.right - 3, r.y + 5)
    return msg, box


def _draw_name_row(surface: pygame.Surface, r: pygame.Rect, card: CardShown, big: bool, col: RGB,
                   label: bool = True, reserve: int = 0) -> None:
    """A full card's top row: "P1" (in the team game with its team) at the left, the
    seat's station label at the right, side by side: the name takes the longest wording
    that fits beside the label ("P1  team P1+P3", "P1  team 1+3", "P1 1+3", "P1") at the
    largest size from 34 (30 on a low card) down to 24 px; when none fits, "P1 1+3" (or
    "P1") at 24 px and the label squeezed into the rest (issue 20: at 800x480 the team name ran
    under "GPIO 17").  ``label`` False: no label; ``reserve``: the width (px) the SKIPPED
    badge takes at the right of the row instead (the name keeps beside it)."""
    left, right = r.x + 70, r.right - 10 - (reserve + CARD_LABEL_GAP if reserve else 0)
    p = card.seat
    wordings = [f"P{p + 1}"]
    if card.teams:
        a, b = ("1", "3") if p % 2 == 0 else ("2", "4")
        wordings = [f"P{p + 1}  team P{a}+P{b}", f"P{p + 1}  team {a}+{b}", f"P{p + 1} {a}+{b}"] + wordings
    text = card.label[:20] if label else ""
    label_w = render.font(CARD_LABEL_PX).size(text)[0] if text else 0
    room = right - left - (label_w + CARD_LABEL_GAP if text else 0)
    sizes = tuple(range(34 if big else 30, render.MIN_TEXT_PX - 1, -2))
    fits = [w for w in wordings if render.font(sizes[-1], True).size(w)[0] <= room]
    if fits:
        name = render.text_best(surface, fits, (left, r.y + 6), room, sizes, col, bold=True)
    else:                     # a long label ("away: computer plays"): the name whole, the label squeezed
        name = render.text(surface, wordings[-2 if card.teams else -1], (left, r.y + 6), sizes[-1], col,
                           bold=True)
    if text:
        render.text_best(surface, label_wordings(text), (right, r.y + 10),
                         right - name.right - CARD_LABEL_GAP, (CARD_LABEL_PX,), render.DIM, "topright")


def fit_text(surface: pygame.Surface, msg: str, pos: tuple[int, int], width: int, size: int, colour: RGB) -> None:
    """``msg`` in ``width`` px: the font shrinks in 2 px steps to the smallest the TV shows
    (:data:`kiosk.render.MIN_TEXT_PX`), then the text is squeezed, never cut."""
    render.text_best(surface, (msg,), pos, width, tuple(range(size, render.MIN_TEXT_PX - 1, -2)) or (size,), colour)
