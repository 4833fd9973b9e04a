"""Drawing Sherlook's claims (R-7; pure drawing: each function draws what it is given and
changes nothing): the latest claims during the race, and at the reveal every claim of the
race in stamp order, numbered, in columns and, when they need more, in pages that share the
reveal's time (:func:`order_plan` says how many: the scene makes the reveal longer for them).
"""

from __future__ import annotations

from typing import NamedTuple

import pygame

from arcade.i18n import _, milliseconds, ngettext
from arcade.sherlook.markers import ClaimNote, MarkerRace
from kiosk import render

NS = 1_000_000_000
ORDER_PAGE_MIN_S = 2.5    # each page of the reveal's claim list shows at least this long

#: A claim's row: what happened, its offset ("+1078.2 ms") and its colour.
ClaimRow = tuple[str, str, tuple[int, int, int]]


def claim_rows(notes: list[ClaimNote]) -> tuple[list[ClaimRow], int]:
    """The claims panel's rows (R-7): ``(what, offset, colour)`` in stamp order, and how many
    presses were left out because the seat already held a marker or was not playing.

    The offset is from the photos being shown, in milliseconds to 0.1 ms.
    """
    rows: list[ClaimRow] = []
    ignored = 0
    for n in notes:
        who = f"P{n.seat + 1}"
        by = f"P{(n.by or 0) + 1}"
        marker = n.marker or "-"
        if n.status == "took":
            what, col = _("{who} took {marker}"), render.SEAT_COLOURS[n.seat % 8]
        elif n.status == "tie-won":
            what, col = _("{who} took {marker} (chance)"), render.SEAT_COLOURS[n.seat % 8]
        elif n.status == "lost":
            what, col = _("{who} lost {marker} to {by}"), render.BAD
        elif n.status == "tie-lost":
            what, col = _("{who} lost {marker} to {by} (chance)"), render.BAD
        elif n.status == "taken":
            what, col = _("{who}: {marker} was taken"), render.BAD
        elif n.status == "too late":
            what, col = _("{who} too late"), render.BAD
        elif n.status == "double":
            what, col = _("{who} also {marker}: ignored"), render.DIM
        else:                     # "holds" / "out": not a claim
            ignored += 1
            continue
        rows.append((what.format(who=who, marker=marker, by=by), "+" + milliseconds(n.offset_ms),
                     col))
    return rows, ignored


def claims_panel(surface: pygame.Surface, area: pygame.Rect, race: MarkerRace | None) -> None:
    """During the race: the latest claims, each with its offset from the photos (R-7)."""
    render.panel(surface, area)
    lines = claim_rows(list(race.notes) if race is not None else [])[0]
    small = area.h < 120
    size, pitch = (22, 22) if small else (26, 26)
    head = _("Claims (ms after the photos)")
    if render.small_screen(*surface.get_size()) and render.font(20).size(head)[0] > area.w - 20:
        head = _("Claims (ms)")                  # a small display: the short wording
    if not lines:
        render.text_block(surface, head, (area.x + 10, area.y + 3), area.w - 20, 20, 1, render.DIM, "topleft")
        render.text(surface, _("none yet"), (area.x + 10, area.y + 26), 24, render.DIM)
        return
    # newest last, as many as fit; a claim too wide to share its row with its time (a narrow
    # column of a small display) has the time on the line under it, never drawn over it; when
    # even the newest claim has no room for that, the heading gives its line up
    top = area.y + 25

    def fit(room: int) -> list[tuple[str, str, tuple[int, int, int], bool]]:
        shown: list[tuple[str, str, tuple[int, int, int], bool]] = []
        used = 0
        for text, t, col in reversed(lines):
            two = (render.font(size, True).size(text)[0] + render.font(size).size(t)[0] + 12
                   > area.w - 20)
            need = pitch * (2 if two else 1)
            if used + need > room:
                break
            shown.append((text, t, col, two))
            used += need
        return shown

    shown = fit(area.h - 28)
    if not shown:
        top = area.y + 3
        shown = fit(area.h - 6)[:1]
    if top > area.y + 3:
        render.text_block(surface, head, (area.x + 10, area.y + 3), area.w - 20, 20, 1, render.DIM, "topleft")
    y = top
    for text, t, col, two in reversed(shown):
        tr = render.text(surface, t, (area.right - 10, y + (pitch if two else 0)), size, render.TEXT,
                         "topright")
        width = area.w - 20 if two else tr.x - 12 - (area.x + 10)
        render.text_within(surface, text, (area.x + 10, y), width, size, col, bold=True)
        y += pitch * (2 if two else 1)


class OrderPlan(NamedTuple):
    """How the reveal's claim list fits its area (:func:`order_plan`).

    Attributes:
        rows: the numbered rows ``("1. P2 took 4", "+1078.2 ms", colour)``.
        ignored: presses left out (the seat already held a marker, or was not playing).
        size, pitch: the rows' text size and line pitch (px).
        top: y of the first row (px).
        cols, per_col, pages: columns, rows per column, pages.
        two_line: each claim's time on the line under it (a narrow column).
    """

    rows: list[ClaimRow]
    ignored: int
    size: int
    pitch: int
    top: int
    cols: int
    per_col: int
    pages: int
    two_line: bool


def order_plan(area: pygame.Rect, race: MarkerRace | None, screen_size: tuple[int, int]) -> OrderPlan:
    """How the reveal's claim list fits ``area`` on a ``screen_size`` screen: rows, font,
    columns, pages (R-7)."""
    rows, ignored = claim_rows(list(race.notes) if race is not None else [])
    size = 22 if area.h < 200 else 24
    pitch = size + 1 if area.h < 200 else size + 4
    low = area.h < 120 and render.small_screen(*screen_size)
    if low:               # a small display: the heading in one line, the rows right under it
        size, pitch = render.MIN_TEXT_PX, render.line_height(render.MIN_TEXT_PX, True)
    top = area.y + (render.line_height(24, True) + 2 if low else 56 if area.w < 600 else 24)
    f = render.font(size, True)
    numbered = [(f"{i}. {what}", t, col) for i, (what, t, col) in enumerate(rows, start=1)]
    cols = 1
    two_line = False
    if numbered:
        col_w = max(f.size(w)[0] + f.size(t)[0] for w, t, _col in numbered) + 40
        cols = max(1, min(len(numbered), area.w // col_w))
        small = render.small_screen(*screen_size)
        if small and col_w > area.w:          # a narrow column: the time under its claim
            two_line = True
    if two_line and not low:                 # two lines of heading, then the page's number
        top = area.y + 3 * render.line_height(24, True) + 4
    per_col = max(1, (area.bottom - top) // (pitch * (2 if two_line else 1)))
    pages = max(1, (len(numbered) + per_col * cols - 1) // (per_col * cols))
    return OrderPlan(numbered, ignored, size, pitch, top, cols, per_col, pages, two_line)


def order_list(surface: pygame.Surface, area: pygame.Rect, race: MarkerRace | None,
               screen_size: tuple[int, int], shown_ns: int, reveal_ns: int) -> None:
    """At the reveal: every claim of the race in stamp order with its offset in ms (R-7),
    numbered, in columns; if they need more than one page, the pages share the reveal
    time ``reveal_ns`` (at least ``ORDER_PAGE_MIN_S`` each), the reveal shown ``shown_ns`` so far."""
    render.panel(surface, area)
    plan = order_plan(area, race, screen_size)
    rows, size, pitch, top = plan.rows, plan.size, plan.pitch, plan.top
    head = _("Every claim in stamp order, ms after the photos appeared")
    if plan.ignored:
        n = plan.ignored
        head += "  " + ngettext("(+{n} press by players already holding a marker)",
                                "(+{n} presses by players already holding a marker)", n).format(n=n)
    if plan.two_line and plan.top >= area.y + 24:    # a small display, a narrow column
        render.text_block(surface, _("Every claim in stamp order (ms)"), (area.x + 6, area.y + 2), area.w - 12,
                          24, 2, render.DIM, "topleft", bold=True)
        if plan.pages > 1:
            page_ns = max(ORDER_PAGE_MIN_S * NS, reveal_ns / plan.pages)
            page = min(plan.pages - 1, int(shown_ns // page_ns))
            render.text(surface, _("page {n}/{pages}").format(n=page + 1, pages=plan.pages),
                        (area.right - 6, area.y + 2 + 2 * render.line_height(24, True)), 20, render.GOLD,
                        "topright", bold=True)
    elif plan.top < area.y + 24:             # a small display: one line of heading
        pw = render.font(20, True).size(_("page {n}/{pages}").format(n=9, pages=9))[0] + 16 if plan.pages > 1 else 0
        render.text_block(surface, _("Every claim in stamp order (ms)"), (area.x + 10, area.y + 1),
                          area.w - 20 - pw, 24, 1, render.DIM, "topleft", bold=True)
    elif area.w < 600:
        render.text(surface, _("Every claim in stamp order"), (area.x + 10, area.y + 4), 24, render.DIM, bold=True)
        render.text(surface, _("ms after the photos appeared"), (area.x + 10, area.y + 30), 20, render.DIM)
    else:
        if render.font(20).size(head)[0] > area.w - 130:
            head = head.split("  (")[0]
        render.text(surface, head, (area.x + 10, area.y + 2), 20, render.DIM)
    if not rows:
        render.text(surface, _("nobody claimed a marker"), (area.x + 10, top), size, render.DIM, bold=True)
        return
    cols, per_col, pages = plan.cols, plan.per_col, plan.pages
    col_w = (area.w - 8) // cols
    per_page = per_col * cols
    page = 0
    if pages > 1:
        page_ns = max(ORDER_PAGE_MIN_S * NS, reveal_ns / pages)
        page = min(pages - 1, int(shown_ns // page_ns))
        if not plan.two_line or plan.top < area.y + 24:
            render.text(surface, _("page {n}/{pages}").format(n=page + 1, pages=pages), (area.right - 10, area.y + 2),
                        20, render.GOLD,
                        "topright", bold=True)
    for k, (what, t, col) in enumerate(rows[page * per_page:(page + 1) * per_page]):
        x = area.x + 4 + (k // per_col) * col_w
        if plan.two_line:                  # the claim, then its time right-aligned under it
            y = top + (k % per_col) * pitch * 2
            render.text_within(surface, what, (x + 6, y), col_w - 12, size, col, bold=True)
            render.text(surface, t, (x + col_w - 10, y + pitch), size, render.TEXT, "topright")
            continue
        y = top + (k % per_col) * pitch
        render.text(surface, what, (x + 6, y), size, col, bold=True)
        render.text(surface, t, (x + col_w - 18, y), size, render.TEXT, "topright")
