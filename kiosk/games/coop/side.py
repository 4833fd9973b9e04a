"""The Focus (2023) side panel: the prompt (and the banner of a moment), each player's clue
file, the round scores or the cards left, and the virtual LED matrix; on the TV and on a
small display (480x320 .. 800x480, every text at 24-30 px).

Only draws; never changes a game state and never reads the scene.  The scene
(:mod:`kiosk.games.coop.scene`) makes a :class:`SideShown`; :func:`draw_side` and
:func:`draw_side_small` draw it and return where they put the LED matrix (px), whose lights
the scene then keeps as a part of their own (render.Parts).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from arcade.i18n import _, ngettext
from kiosk import render
from kiosk.games.coop.draw import clue_surface, thumb_surface
from kiosk.games.coop.words import RGB, seat_colour

CLUE_W, CLUE_H, CLUE_GAP = 114, 136, 7     # px: a clue-file card never gets smaller (three metres)


@dataclass(frozen=True)
class SeatShown:
    """One player's panel.

    Attributes:
        seat: the seat (0 or 1); name: "computer partner" or its station's label.
        active: the seat to move.
        wants_offer: a queued offer ("will offer", CO-6).
        refused: its refusal is noted (:func:`kiosk.games.coop.words.refusal_noted`).
        clues: its clue file, the cards taken in order (faces).
    """

    seat: int
    name: str
    active: bool
    wants_offer: bool
    refused: bool
    clues: tuple[int, ...]


@dataclass(frozen=True)
class ScoreShown:
    """The score panel: Sherlock rules' round scores, total and rating, else the cards left.

    Attributes:
        sherlock: the Sherlock rules (rounds scored); rounds: rounds in the game.
        scores: the scores of the rounds played; total: their sum.
        rating: the game's rating once every round is played, else None.
        cards_left: cards on the grid; need: the cards that stay when the players win (CO-4).
    """

    sherlock: bool
    rounds: int
    scores: tuple[int, ...]
    total: int
    rating: str | None
    cards_left: int
    need: int


@dataclass(frozen=True)
class SideShown:
    """What the side panel shows.

    Attributes:
        prompt: the prompt's words and colour (:func:`kiosk.games.coop.words.prompt`).
        banner: a message of a moment and its colour while it shows, else None.
        seats: both players' panels.
        score: the score panel.
        matrix: the arcade shows a virtual LED matrix; picture: its rows of RGB (None: none yet).
    """

    prompt: tuple[str, RGB]
    banner: tuple[str, RGB] | None
    seats: tuple[SeatShown, ...]
    score: ScoreShown
    matrix: bool
    picture: object


def draw_side(surface: pygame.Surface, area: pygame.Rect, shown: SideShown) -> pygame.Rect | None:
    """The TV's side panel in ``area``; returns the LED matrix's box (None: no matrix)."""
    prompt, pcol = shown.prompt
    pr = pygame.Rect(area.x, area.y, area.w, 128)
    render.panel(surface, pr, render.PANEL_LIGHT, pcol, 4)
    wrapped(surface, prompt, pygame.Rect(pr.x + 12, pr.y + 8, pr.w - 24, 70), 34, render.TEXT, 2)
    if shown.banner is not None:
        msg, col = shown.banner
        br = pygame.Rect(pr.x + 8, pr.bottom - 46, pr.w - 16, 38)
        pygame.draw.rect(surface, col, br, border_radius=10)
        render.text(surface, msg, br.center, 32 if len(msg) < 44 else 26, (20, 20, 20), "center", bold=True)
    y = pr.bottom + 8
    panel_h = 196
    for seat in shown.seats:
        s = seat.seat
        r = pygame.Rect(area.x, y, area.w, panel_h)
        col = seat_colour(s)
        render.panel(surface, r, render.PANEL, col if seat.active else None, 4)
        pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, 12, r.h), border_top_left_radius=12,
                         border_bottom_left_radius=12)
        render.text(surface, f"P{s + 1}", (r.x + 22, r.y + 8), 44, col, bold=True)
        render.text(surface, _("{name}  -  clue file (in order)").format(name=seat.name), (r.x + 84, r.y + 16), 26,
                    render.DIM)
        if seat.wants_offer:                # a queued offer, confirmed (drawn where the note goes)
            render.text(surface, _("will offer"), (r.right - 12, r.y + 14), 28, render.GOLD, "topright", bold=True)
        elif seat.refused:
            render.text(surface, _("refused: only P{seat} offers").format(seat=s + 1), (r.right - 12, r.y + 14), 24,
                        render.GOLD, "topright")
        clues = list(seat.clues)
        draw_clue_file(surface, pygame.Rect(r.x + 20, r.y + 50, r.w - 28, r.h - 54), clues, col)
        if not clues:
            render.text(surface, _("no clue yet"), (r.x + 22, r.y + 60), 28, render.DIM)
        y = r.bottom + 8
    full = pygame.Rect(area.x, y, area.w, area.bottom - y)
    render.panel(surface, full)
    bottom = pygame.Rect(full.x, full.y, full.w - (full.h + 4 if shown.matrix else 0), full.h)
    sc = shown.score
    if sc.sherlock:
        render.text(surface, _("Round scores"), (bottom.x + 14, bottom.y + 8), 26, render.DIM)
        xs = bottom.x + 14
        step = min(110, (bottom.w - 150) // max(1, sc.rounds))
        for i in range(sc.rounds):
            val = str(sc.scores[i]) if i < len(sc.scores) else "-"
            render.text(surface, _("R{n}: {points}").format(n=i + 1, points=val), (xs + i * step, bottom.y + 36), 36,
                        render.TEXT, bold=True)
        render.text(surface, _("total {n}").format(n=sc.total), (bottom.right - 14, bottom.y + 36), 36, render.GOLD,
                    "topright", bold=True)
        if sc.rating is not None:
            wrapped(surface, sc.rating, pygame.Rect(bottom.x + 14, bottom.y + 70, bottom.w - 28, 40),
                    26, render.GOLD, 1)
    else:
        render.text(surface, _cards_left(sc), (bottom.x + 14, bottom.y + 12), 34, render.TEXT, bold=True)
        render.text(surface, _more_to_take(sc), (bottom.x + 14, bottom.y + 52), 28, render.DIM)
    if not shown.matrix:
        return None
    size = full.h - 10
    lr = pygame.Rect(full.right - size - 5, full.y + 5, size, size)
    render.led_matrix(surface, lr, shown.picture)
    return lr


def _cards_left(sc: ScoreShown) -> str:
    return ngettext("grid: {n} card left", "grid: {n} cards left", sc.cards_left).format(n=sc.cards_left)


def _more_to_take(sc: ScoreShown) -> str:
    more = max(0, sc.cards_left - sc.need)
    return ngettext("{n} more to take before you win (CO-4)", "{n} more to take before you win (CO-4)",
                    more).format(n=more)


def score_lines(sc: ScoreShown, t: int) -> list[tuple[str, int, RGB, bool]]:
    """What the score panel of a small display says: (words, size, colour, bold) a line."""
    if sc.sherlock:
        rounds = "  ".join(_("R{n}: {points}").format(n=i + 1, points=sc.scores[i] if i < len(sc.scores) else "-")
                           for i in range(sc.rounds))
        out = [(rounds, t, render.TEXT, True), (_("total {n}").format(n=sc.total), t, render.GOLD, True)]
        if sc.rating is not None:
            out.append((sc.rating, render.MIN_TEXT_PX, render.GOLD, True))
        return out
    return [(_cards_left(sc), t, render.TEXT, True), (_more_to_take(sc), render.MIN_TEXT_PX, render.DIM, False)]


def draw_side_small(surface: pygame.Surface, area: pygame.Rect, t: int, shown: SideShown) -> pygame.Rect | None:
    """A small display's side panel in ``area`` with text of ``t`` px: the prompt, both clue
    files and the score; returns the LED matrix's box (None: no room for it, or no matrix)."""
    prompt, pcol = shown.prompt
    pad = 6
    pr = pygame.Rect(area.x, area.y, area.w, 3 * render.line_height(t, True) + 2 * pad)
    render.panel(surface, pr, render.PANEL_LIGHT, pcol, 3)
    render.text_block(surface, prompt, (pr.x + 10, pr.y + pad), pr.w - 20, t, 3, render.TEXT, "topleft", True)
    # the score panel at the bottom, as high as its lines
    w_led = 0
    lines = score_lines(shown.score, t)
    text_w = area.w - 20
    hs = [render.lines_height(m, text_w, size, 3, bold) for m, size, _c, bold in lines]
    bh = sum(hs) + 2 * pad + 2 * (len(lines) - 1)
    picture = shown.picture if shown.matrix else None
    # The virtual matrix beside the words when they fit beside it on 2 lines each (none
    # yet: no room for its "no LED frame"); else the words have the width (the rating).
    narrow = text_w - bh - 4
    if picture and all(render.fits(m, narrow, size, 2, bold) for m, size, _c, bold in lines):
        w_led = bh + 4
        text_w = narrow
        hs = [render.lines_height(m, text_w, size, 3, bold) for m, size, _c, bold in lines]
        bh = sum(hs) + 2 * pad + 2 * (len(lines) - 1)
    full = pygame.Rect(area.x, area.bottom - bh, area.w, bh)
    render.panel(surface, full)
    if shown.banner is not None:
        # A message of a moment covers the score (which it usually changes) for its 2 s.
        msg, col = shown.banner
        br = full.inflate(-8, -8)
        pygame.draw.rect(surface, col, br, border_radius=10)
        render.text_block(surface, msg, br.center, br.w - 12, t, max(1, br.h // render.line_height(t, True)),
                          (20, 20, 20), "center", bold=True)
    else:
        y = full.y + pad
        for (m, size, col, bold), h in zip(lines, hs):
            render.text_block(surface, m, (full.x + 10, y), text_w, size, 3, col, "topleft", bold)
            y += h + 2
    led_box = None
    if w_led:
        led_box = pygame.Rect(full.right - bh + 5, full.y + 5, bh - 10, bh - 10)
        render.led_matrix(surface, led_box, picture)
    # the two clue files share what is left
    y = pr.bottom + 6
    panel_h = (full.y - 6 - y - 6) // 2
    for seat in shown.seats:
        r = pygame.Rect(area.x, y, area.w, panel_h)
        _draw_seat_small(surface, r, seat, t)
        y = r.bottom + 6
    return led_box


def _draw_seat_small(surface: pygame.Surface, r: pygame.Rect, seat: SeatShown, t: int) -> None:
    s = seat.seat
    col = seat_colour(s)
    render.panel(surface, r, render.PANEL, col if seat.active else None, 3)
    pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, 8, r.h), border_top_left_radius=12,
                     border_bottom_left_radius=12)
    x = r.x + 14
    tag = render.text(surface, f"P{s + 1}", (x, r.y + 3), t + 4, col, bold=True)
    flag = ""
    if seat.wants_offer:
        flag = _("will offer")
    elif seat.refused:
        flag = _("only P{seat} offers").format(seat=s + 1)     # the short wording of "refused: only P1 offers"
    right = r.right - 8
    if flag:
        fr = render.text_block(surface, flag, (right, tag.centery), (r.right - tag.right) // 2, t, 1,
                               render.GOLD, "midright", bold=True)
        right = fr.x - 8
    name = seat.name
    room = right - tag.right - 10
    # the controller's name gives way to the flag when both do not fit ("P1" always stays)
    if render.font(t).size(name)[0] * render.MIN_KEPT <= room:
        render.text_block(surface, name, (tag.right + 10, tag.centery), room, t, 1, render.DIM, "midleft")
    clues = list(seat.clues)
    area = pygame.Rect(x, tag.bottom + 2, r.right - 8 - x, r.bottom - 4 - tag.bottom - 2)
    if not clues:
        render.text(surface, _("no clue yet"), (x, area.y + 2), t, render.DIM)
    elif area.h >= 100:
        draw_clue_file(surface, area, clues, col)
    elif area.h >= 12:
        _draw_thumbs(surface, area, clues, col, t)


def _draw_thumbs(surface: pygame.Surface, area: pygame.Rect, clues: list[int], col: RGB, t: int) -> None:
    """A clue file too low for the named cards: its pictures in order, left to right (the
    names and number badges left out on a small display); when they do not fit in the
    row, the latest ones, after "1-k" for the earlier ones."""
    gap = 4
    size = min(area.h, 96)
    fit = max(1, (area.w + gap) // (size + gap))
    x = area.x
    shown = clues
    if len(clues) > fit:
        k = len(clues) - (fit - 1)
        er = render.text_block(surface, f"1-{k}", (x, area.centery), size, t, 1, col, "midleft", bold=True)
        x = er.right + gap
        shown = clues[k:]
        shown = shown[-max(0, (area.right - x + gap) // (size + gap)):] if (area.right - x) >= size else []
    for face in shown:
        surface.blit(thumb_surface(face, size), (x, area.y))
        x += size + gap


def clue_file_regions(n: int, area: pygame.Rect) -> tuple[list[tuple[int, pygame.Rect]], pygame.Rect | None]:
    """Where the clue file's cards go: (clue index, rect) of the cards drawn
    large, and the rect of the "earlier clues" block (None when all fit).

    Cards never shrink below a readable size (``CLUE_W`` x ``CLUE_H`` px,
    names of at least ``kiosk.games.coop.draw.CLUE_NAME_MIN`` px): when more clues are taken than
    fit in one row, the latest ones stay large and the earlier ones become
    numbered pictures in the first slot."""
    per_row = max(2, (area.w + CLUE_GAP) // (CLUE_W + CLUE_GAP))
    h = min(CLUE_H, area.h)
    slots = [pygame.Rect(area.x + i * (CLUE_W + CLUE_GAP), area.y, CLUE_W, h) for i in range(per_row)]
    if n <= per_row:
        return [(i, slots[i]) for i in range(n)], None
    large = per_row - 1
    return [(n - large + i, slots[1 + i]) for i in range(large)], slots[0]


def draw_clue_file(surface: pygame.Surface, area: pygame.Rect, clues: list[int], col: RGB) -> None:
    """A clue file in ``area``: the cards where :func:`clue_file_regions` says, each with its
    number, and the earlier clues as small pictures in the first slot."""
    cards, earlier = clue_file_regions(len(clues), area)
    for i, rect in cards:
        surface.blit(clue_surface(clues[i], rect.w, rect.h), rect)
        _badge(surface, str(i + 1), (rect.x + 14, rect.y + 14), col)
    if earlier is not None:
        k = len(clues) - len(cards)                 # clues 1..k shown small, in order
        render.panel(surface, earlier, render.PANEL_LIGHT, col, 3)
        render.text(surface, f"1-{k}", (earlier.centerx, earlier.y + 4), 28, render.TEXT, "midtop", bold=True)
        room_w, room_h = earlier.w - 8, earlier.h - 38

        def fit(cols: int) -> int:
            rows = -(-k // cols)
            return min((room_w - (cols - 1) * 4) // cols, (room_h - (rows - 1) * 4) // rows)

        cols = max((1, 2, 3, 4), key=fit)
        size = fit(cols)
        x0 = earlier.centerx - (cols * size + (cols - 1) * 4) // 2
        for j in range(k):
            x = x0 + (j % cols) * (size + 4)
            y = earlier.y + 34 + (j // cols) * (size + 4)
            surface.blit(thumb_surface(clues[j], size), (x, y))


def _badge(surface: pygame.Surface, label: str, centre: tuple[int, int], col: RGB) -> None:
    pygame.draw.circle(surface, col, centre, 15)
    pygame.draw.circle(surface, (20, 20, 20), centre, 15, 2)
    render.text(surface, label, (centre[0], centre[1] + 1), 26, (20, 20, 20), "center", bold=True)


def wrapped(surface: pygame.Surface, msg: str, rect: pygame.Rect, size: int, colour: RGB,
            max_lines: int = 3) -> None:
    """``msg`` in bold, broken at spaces into at most ``max_lines`` lines of ``rect``'s width;
    the size shrinks by 3 px (down to 18) while more lines would be needed."""
    f = render.font(size, True)
    words = msg.split()
    lines: list[str] = []
    for w in words:
        if lines and f.size(lines[-1] + " " + w)[0] <= rect.w:
            lines[-1] += " " + w
        else:
            lines.append(w)
    y = rect.y
    while len(lines) > max_lines and size > 18:
        return wrapped(surface, msg, rect, size - 3, colour, max_lines)
    for line in lines[:max_lines]:
        img = f.render(line, True, colour)
        surface.blit(img, (rect.x, y))
        y += f.get_linesize()
