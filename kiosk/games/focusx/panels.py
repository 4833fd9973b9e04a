"""The frame around a FocusX table (pure drawing: each function draws what it is given and
changes nothing): where the screen's regions go, the title row, the message strip with the
banner, the seat panels, the virtual LED matrix's column and the race panel (R-7).

Each comes in two sizes: a TV's (1280x720 and up) and a small panel's (480x320, 640x480,
800x480: :data:`COMPACT_W` x :data:`COMPACT_H`), where every text is
:data:`kiosk.render.MIN_TEXT_PX` (24 px) and shorter wordings (:data:`SHORT_WORDS`) are taken
when the longer ones do not fit.  The scene (``kiosk/games/focusx/base.py``) decides what is
shown and when a part is drawn again (``render.Parts``); the table itself is drawn by
``kiosk/games/focusx/draw.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator, NamedTuple, Sequence

import pygame

from arcade.core.judge import NS_PER_MS, Verdict
from arcade.core.referee import HELD_TEXT, Window
from arcade.i18n import _, milliseconds, number, pgettext, seconds
from kiosk import render

#: A colour, (r, g, b) 0..255.
Colour = tuple[int, int, int]

NS_PER_S = 1_000_000_000
TOP = 64                         # below the title row and the countdown bar
STRIP_H = 58                     # the message strip: the window's label (left), the banner (right)

#: Below either of these (px) the screen is a small panel (480x320, 640x480, 800x480): the
#: compact regions (:func:`screen_regions`); a TV (1280x720 and up) keeps the full ones.
COMPACT_W, COMPACT_H = 1000, 600

#: Shorter wordings of the seat panels' labels and tags for the compact regions (the same
#: meaning, clearest first; :func:`kiosk.render.text_best` takes the first that fits), by the
#: English of the long one: each says itself in the language spoken now (:func:`short_words`).
#: The last of each fits an 8-seat panel of a 480x320 display (45 px) where a language has such a
#: word: "вигр." for "виграно" (was squeezed to 69 %), "БІЙ!" for "РАПТОВА СМЕРТЬ".
SHORT_WORDS: dict[str, tuple[Callable[[], str], ...]] = {
    "cards won": (lambda: _("won"),
                  # TRANSLATORS: "cards won" in at most 45 px (an 8-seat panel of a small display)
                  lambda: pgettext("cards won, shortest", "won")),
    "cards in hand": (lambda: _("in hand"),),
    "penalty cards": (lambda: _("penalty"),
                      # TRANSLATORS: "penalty cards" in at most 45 px: an abbreviation
                      lambda: pgettext("penalty cards, shortest", "pen.")),
    "OUT this race": (lambda: _("OUT"),),
    "LOCKED: no claims": (lambda: _("LOCKED"),),
    "RELEASE your buzzer": (lambda: _("RELEASE"),),
    # TRANSLATORS: "SUDDEN DEATH" (the tied players race on) in at most 45 px
    "SUDDEN DEATH": (lambda: pgettext("sudden death, shortest", "TIE!"),),
    # TRANSLATORS: "RACE NOW" (this seat races in the race open now) in at most 45 px
    "RACE NOW": (lambda: pgettext("race now, shortest", "GO!"),),
    # TRANSLATORS: "NEXT: wait" (this seat races in the next race) in at most 45 px
    "NEXT: wait": (lambda: pgettext("next race, shortest", "Next"),),
}


def short_words(shown: str) -> tuple[str, ...]:
    """The shorter wordings of ``shown`` (a label or tag as drawn, in the language spoken
    now), in that language: () when it has none."""
    for long, short in SHORT_WORDS.items():
        if shown in (long, _(long)):
            return tuple(say() for say in short)
    return ()


def status_word(status: str) -> str:
    """A press's status (``arcade.core.judge.STATUSES``) as the race panel says it."""
    words = {"first": pgettext("press", "first"), "tied": pgettext("press", "tied"),
             "false": pgettext("press", "false"), "penalty": pgettext("press", "penalty"),
             "late": pgettext("press", "late"), "again": pgettext("press", "again"),
             "ignored": pgettext("press", "ignored"), "pending": pgettext("press", "pending"),
             "safe": pgettext("press", "safe"), "last": pgettext("press", "last"),
             "tied-last": pgettext("press", "tied-last"), "after": pgettext("press", "after"),
             "claim": pgettext("press", "claim"), "hint": pgettext("press", "hint")}
    return words.get(status, status)


class ScreenRegions(NamedTuple):
    """Where the parts of the FocusX screen go on a ``W`` x ``H`` window (pixel rects).

    ``compact`` (a window under :data:`COMPACT_W` x :data:`COMPACT_H`): a short title row
    across the whole width, the seat panels across the whole width at the bottom, the race
    panel beside the table between them, 24 px text.  The full regions (a TV) are the ones the
    screen always had: the side column (LED matrix, race panel) the whole height.
    """
    compact: bool
    title: pygame.Rect          # the title row part (title left, race and status right)
    bar: pygame.Rect            # the countdown bar at its fullest
    strip: pygame.Rect          # the message strip: the window's label, the banner
    area: pygame.Rect           # the table
    seats: pygame.Rect          # the seat panels
    seats_part: pygame.Rect     # their part (a little larger)
    side: pygame.Rect           # the LED matrix and the race panel


def screen_regions(W: int, H: int) -> ScreenRegions:
    """The :class:`ScreenRegions` of a ``W`` x ``H`` window (a few additions: cheap per frame)."""
    if W >= COMPACT_W and H >= COMPACT_H:
        side = int(W * 0.27)
        table_w = W - side
        seat_h = int(H * 0.2)
        strip = pygame.Rect(0, TOP, table_w, STRIP_H)
        seats = pygame.Rect(10, H - seat_h - 6, table_w - 20, seat_h)
        return ScreenRegions(False, pygame.Rect(0, 0, table_w, 54), pygame.Rect(20, 54, table_w - 40, 6), strip,
                             pygame.Rect(0, strip.bottom, table_w, H - strip.bottom - seat_h - 10), seats,
                             pygame.Rect(0, seats.y, table_w, seat_h + 6), pygame.Rect(table_w, 10, side - 10, H - 20))
    side = max(int(W * 0.27), 150)
    table_w = W - side
    seat_h = max(80, int(H * 0.2))
    top = 36
    strip = pygame.Rect(0, top, table_w, 38)
    seats = pygame.Rect(4, H - seat_h - 4, W - 8, seat_h)
    part = pygame.Rect(0, seats.y, W, seat_h + 4)
    return ScreenRegions(True, pygame.Rect(0, 0, W, 30), pygame.Rect(20, 30, table_w - 40, 4), strip,
                         pygame.Rect(0, strip.bottom, table_w, part.y - strip.bottom - 4), seats, part,
                         pygame.Rect(table_w, top, side - 6, part.y - top - 4))


@dataclass
class PanelEntry:
    """One race in the race panel: a title and every press (R-7).

    ``kind`` is the referee event that ended the race ("won", "debated",
    "boxed", "last", "closed", "false", "penalty") and ``verdict`` the judge's
    verdict; ``kind, verdict = entry`` unpacks those two.
    """

    title: str
    colour: Colour
    rows: list[tuple[int, str, float, str]] = field(default_factory=list)   # seat, kind, ms, status
    extra: list[str] = field(default_factory=list)
    kind: str = ""
    verdict: Verdict | None = None
    short: str = ""             # a shorter title for a narrow panel ("" = none)

    def __iter__(self) -> Iterator[str | Verdict | None]:
        return iter((self.kind, self.verdict))

    def __getitem__(self, i: int) -> str | Verdict | None:
        return (self.kind, self.verdict)[i]


@dataclass(frozen=True)
class SeatPanel:
    """What one seat's panel shows (the scene makes one per seat each frame; equal panels
    are not drawn again).

    Attributes:
        number, label: the big number and what it counts ("3", "cards won").
        lines: small lines under it ("pile 12").
        active: the seat whose turn it is (its panel framed in its colour).
        stuck, held: its buzzer is stuck down (R-8) / held since before the race opened (FXA-39).
        tag: a word in colour ("ACTIVE", "OUT this race"), or None.
        station: the station's label ("key 1", "computer 2").
    """

    number: str
    label: str
    lines: tuple[str, ...]
    active: bool
    stuck: bool
    held: bool
    tag: tuple[str, Colour] | None
    station: str


def window_label(w: Window | None, now_ns: int) -> tuple[str, Colour] | None:
    """The open race window's label and time left ("turn start: 3.2 s") at ``now_ns``, for
    the message strip, and its colour (None: no window with a time of its own is open)."""
    if w is None or w.opened_ns is None or w.spec.window_ms is None:
        return None
    end = w.opened_ns + w.spec.window_ms * NS_PER_MS
    if now_ns >= end:
        return None
    return f"{_(w.spec.label)}: {seconds(max(0.0, (end - now_ns) / NS_PER_S))}", render.GOLD


def countdown_width(w: Window | None, now_ns: int, table_w: int) -> int | None:
    """The countdown bar's width (px) under the title row of a table ``table_w`` px wide:
    the share of the open window's time left at ``now_ns`` (its own time, Duel's deadline
    to press, or the driver's close); None without one."""
    if w is None or w.opened_ns is None:
        return None
    end = None
    if w.spec.window_ms is not None:
        end = w.opened_ns + w.spec.window_ms * NS_PER_MS
    elif w.spec.mode == "last" and w.spec.eligible:
        end = w.opened_ns + (w.spec.deadline_ms or 3000) * NS_PER_MS
    elif w.close_at_ns is not None:
        end = w.close_at_ns
    if end is None:
        return None
    frac = max(0.0, min(1.0, 1 - (now_ns - w.opened_ns) / max(1, end - w.opened_ns)))
    return int((table_w - 40) * frac)


def title_row(surface: pygame.Surface, table_w: int, title: str, race_no: int, status: str,
              compact: bool) -> None:
    """The title row: the game's name (the registry's label) left, the race number and the
    status right, ``table_w`` px wide."""
    if compact:
        # Race and status at the right, the title in the rest of the row: the registry's
        # label, else without its "FocusX " family name, else squeezed a little.
        right = render.text_best(surface, [_("race {n}  |  {status}").format(n=race_no, status=status),
                                           _("race {n} | {status}").format(n=race_no, status=status)],
                                 (table_w - 10, 6), table_w // 2, (24,), render.DIM, "topright")
        wordings = [title] + ([title[len("FocusX "):]] if title.startswith("FocusX ") else [])
        render.text_best(surface, wordings, (10, 4), right.x - 24, (30, 28, 26, 24), render.TEXT, bold=True)
        return
    render.text(surface, title, (20, 12), 40, render.TEXT, bold=True)   # the registry's label
    render.text(surface, _("race {n}  |  {status}").format(n=race_no, status=status), (table_w - 20, 16), 30,
                render.DIM, "topright")


def strip_and_table(surface: pygame.Surface, strip: pygame.Rect, lines: Sequence[tuple[str, int, Colour]],
                    banner: tuple[str, Colour] | None, area: pygame.Rect, compact: bool,
                    draw_table: Callable[[pygame.Surface, pygame.Rect], None]) -> None:
    """The message strip's ``lines`` (``(text, size px, colour)``) on its left, the table
    (``draw_table(surface, area)``: its marks reach up into the strip) and the banner
    ``(text, colour)`` to the right of the lines, over the table's marks (never over the table)."""
    left = strip.x + (10 if compact else 20)
    y = strip.y + (1 if compact else 2)
    later: list[tuple[str, tuple[int, int], Colour]] = []
    for msg, size, col in lines:
        if compact:                 # 24 px lines, the label squeezed a little at most
            # each line from the strip's left edge (``left`` is where the banner may start);
            # drawn after the banner's place is known: a banner drawn over them hides them
            f = render.font(render.MIN_TEXT_PX, True)
            later.append((msg, (strip.x + 10, y), col))
            left = max(left, strip.x + 10 + min(f.size(render.plain(msg))[0], strip.w - 20) + 16)
            y = y + f.get_height() + 1
            continue
        r = render.text_within(surface, msg, (strip.x + 20, y), strip.w - 30, size, col, bold=True)
        left = max(left, r.right + 24)
        y = r.bottom + 2
    draw_table(surface, area)
    over = banner is not None and compact and _banner_compact(surface, strip, left, y, banner)
    if not over:
        for msg, pos, col in later:
            render.text_within(surface, msg, pos, strip.w - 20, render.MIN_TEXT_PX, col, bold=True)
    if banner is not None and not compact:
        msg, col = banner
        room = pygame.Rect(left, strip.y, strip.right - 10 - left, strip.h)
        size = render.fit_size(msg, room.w - 36, (56, 48, 42, 36, 32, 28), bold=True)
        img = render.font(size, True).render(msg, True, (20, 20, 20))
        if img.get_width() > room.w - 36:
            img = pygame.transform.smoothscale(
                img, (room.w - 36, max(8, img.get_height() * (room.w - 36) // img.get_width())))
        rect = img.get_rect(center=room.center)
        if room.w >= img.get_width() + 36 and rect.x - 18 < room.x:
            rect.x = room.x + 18
        box = rect.inflate(36, 10)
        box.clamp_ip(strip)
        pygame.draw.rect(surface, col, box, border_radius=14)
        surface.blit(img, rect)


def _banner_compact(surface: pygame.Surface, strip: pygame.Rect, left: int, below: int,
                    banner: tuple[str, Colour]) -> bool:
    """The banner in the small regions' strip, right of its lines (they end at x ``left``,
    y ``below``): one line of 28..24 px, else two lines of 24 px; else on the row under
    the lines (one line of 24 px: the chooser's hint stays in view); else over them (for
    the banner's second or two: the countdown bar still runs).  True when it is drawn
    over them (the caller then leaves them out)."""
    msg, col = banner
    b24 = render.font(render.MIN_TEXT_PX, True)
    beside = strip.right - 10 - left - 16
    two = render.wrap_even(msg, max(1, beside), render.MIN_TEXT_PX, 2, bold=True)
    if beside < 48 or any(b24.size(line)[0] * render.MIN_KEPT > beside for line in two):
        row = pygame.Rect(strip.x + 10, below, strip.w - 20, strip.bottom - below)
        if left > strip.x + 10 and row.h >= b24.get_height() and b24.size(msg)[0] * render.MIN_KEPT <= row.w - 16:
            w = min(row.w - 16, b24.size(msg)[0])
            box = pygame.Rect(row.x, row.y, w + 16, row.h)
            pygame.draw.rect(surface, col, box, border_radius=8)
            render.text_within(surface, msg, (box.centerx, box.y + (box.h - b24.get_height()) // 2), w,
                               render.MIN_TEXT_PX, (20, 20, 20), "midtop", bold=True)
            return False
        over = left > strip.x + 10
        left = strip.x + 10
    else:
        over = False
    room = pygame.Rect(left, strip.y, strip.right - 10 - left, strip.h)
    inner = room.w - 16
    size = render.fit_size(msg, inner, (28, 26, 24), bold=True)
    f = render.font(size, True)
    lines = [msg] if f.size(msg)[0] <= inner else render.wrap_even(msg, inner, render.MIN_TEXT_PX, 2, bold=True)
    if len(lines) > 1:
        f = render.font(render.MIN_TEXT_PX, True)
    w = min(inner, max(f.size(line)[0] for line in lines))
    h = f.get_linesize() * len(lines)
    box = pygame.Rect(0, 0, w + 16, min(strip.h, h + 4))
    box.center = room.center
    box.x = room.x if len(lines) > 1 else box.x
    box.clamp_ip(strip)
    pygame.draw.rect(surface, col, box, border_radius=10)
    render.text_lines(surface, msg, (box.centerx, box.y + (box.h - h) // 2), inner, len(lines),
                      size if len(lines) == 1 else render.MIN_TEXT_PX, (20, 20, 20), "midtop", bold=True)
    return over


def seat_panels(surface: pygame.Surface, area: pygame.Rect, seats: Sequence[SeatPanel], compact: bool) -> None:
    """One panel per seat side by side in ``area`` (seat ``s`` in its colour)."""
    if compact:
        _seat_panels_compact(surface, area, seats)
        return
    w = area.w // len(seats)
    for s, seat in enumerate(seats):
        r = pygame.Rect(area.x + s * w + 4, area.y, w - 8, area.h)
        col = render.SEAT_COLOURS[s % 8]
        render.panel(surface, r, render.PANEL, col if seat.active else None, 5)
        pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, r.w, 10),
                         border_top_left_radius=12, border_top_right_radius=12)
        render.text(surface, f"P{s + 1}", (r.x + 10, r.y + 14), 42, col, bold=True)
        label = seat.label
        render.text(surface, seat.number, (r.right - 10, r.y + 10), 58, render.TEXT, "topright", bold=True)
        yy = r.y + 80
        if render.font(20).size(label)[0] <= r.w - 20:
            render.text(surface, label, (r.right - 10, r.y + 58), 20, render.DIM, "topright")
        else:                       # 8 seats at 1280x720: the label on two lines, never cut
            yy = render.text_fit(surface, label, (r.centerx, r.y + 56), r.w - 12, 24, 24, render.DIM).bottom + 2
        if r.w >= 230:
            room = r.w - 34 - render.font(20).size(label)[0]
            size = render.fit_size(seat.station, room, (20, 18, 16, 15))
            shown = seat.station
            while len(shown) > 4 and render.font(size).size(shown)[0] > room:
                shown = shown[:-3] + ".."
            render.text(surface, shown, (r.x + 10, r.y + 52), size, render.DIM)
        tag = seat.tag
        if tag is not None:
            render.text(surface, tag[0], (r.x + 10, yy), 24, tag[1], bold=True)
            yy += 24
        for line in seat.lines:
            if yy > r.bottom - 20:
                break
            render.text(surface, line, (r.x + 10, yy), 22, render.DIM)
            yy += render.font(22).get_linesize()
        if seat.stuck:
            render.text(surface, _("STUCK"), (r.right - 10, r.bottom - 26), 26, render.BAD, "topright", bold=True)
        elif seat.held:                     # FXA-39: held since before the race opened
            # a narrow panel (4Focus's many seats on a TV) takes the short wording
            render.text_best(surface, (_(HELD_TEXT),) + short_words(HELD_TEXT), (r.right - 10, r.bottom - 26),
                             r.w - 20, (24,), render.GOLD, "topright", bold=True)


def _seat_panels_compact(surface: pygame.Surface, area: pygame.Rect, seats: Sequence[SeatPanel]) -> None:
    """The seat panels of the small regions: "P1" and the big number on the first row, then
    24 px rows as they fit, by importance: the tag (whose turn; wrapped onto two rows if
    there is room), STUCK / RELEASE (R-8, FXA-39), the number's label, the small lines
    (dropped first: a pile or hand count the table also shows)."""
    w = area.w // len(seats)
    step = render.font(render.MIN_TEXT_PX).get_linesize()
    for s, seat in enumerate(seats):
        r = pygame.Rect(area.x + s * w + 2, area.y, w - 4, area.h)
        col = render.SEAT_COLOURS[s % 8]
        render.panel(surface, r, render.PANEL, col if seat.active else None, 3)
        pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, r.w, 5),
                         border_top_left_radius=12, border_top_right_radius=12)
        inner = r.w - 10
        label = seat.label
        head = 40 if r.w >= 150 and r.h >= 96 else 30 if r.w >= 100 else 26     # as the panel allows
        name = render.text(surface, f"P{s + 1}", (r.x + 5, r.y + 7), head, col, bold=True)
        render.text_best(surface, [seat.number], (r.right - 5, r.y + 7), max(1, r.right - 5 - name.right - 4),
                         (head, 24), render.TEXT, "topright", bold=True)
        rows = max(0, (r.bottom - 3 - name.bottom - 1) // step)
        tag = seat.tag
        flag = ((_("STUCK"), render.BAD) if seat.stuck else (_(HELD_TEXT), render.GOLD) if seat.held else None)
        tag_rows = 0
        if tag is not None and rows:
            tag_rows = _tag_rows(tag[0], inner, rows - (flag is not None))
        left = rows - tag_rows - (flag is not None)
        show_label = bool(label) and left >= 1
        small = seat.lines[:max(0, left - show_label)]
        y = name.bottom + 1
        if show_label:
            drawn = render.text_best(surface, (label,) + short_words(label), (r.right - 5, y), inner,
                                     (render.MIN_TEXT_PX,), render.DIM, "topright")
            if render.font(render.MIN_TEXT_PX).size(seat.station)[0] <= drawn.x - 12 - r.x - 5:
                render.text(surface, seat.station, (r.x + 5, y), render.MIN_TEXT_PX, render.DIM)   # a wide panel
            y += step
        if tag is not None and tag_rows:
            words = (tag[0],) + short_words(tag[0])
            if tag_rows == 1:
                render.text_best(surface, words, (r.x + 5, y), inner, (render.MIN_TEXT_PX,), tag[1], bold=True)
            else:
                render.text_lines(surface, tag[0], (r.x + 5, y), inner, 2, render.MIN_TEXT_PX, tag[1], bold=True)
            y += step * tag_rows
        for line in small:
            render.text_within(surface, line, (r.x + 5, y), inner, render.MIN_TEXT_PX, render.DIM)
            y += step
        if flag is not None and rows:
            render.text_best(surface, (flag[0],) + short_words(flag[0]), (r.right - 5, y), inner,
                             (render.MIN_TEXT_PX,), flag[1], "topright", bold=True)


def _tag_rows(tag: str, inner: int, room: int) -> int:
    """The rows (1 or 2) a seat panel's tag takes in ``inner`` px with ``room`` rows to
    spare: one when it fits whole; else two when it wraps whole onto them ("SUDDEN" /
    "DEATH"); else one when a shorter wording (:data:`SHORT_WORDS`) fits whole (8 seats
    at 480x320: "OUT", not "OUT this" squeezed to 59 %); else two when there is room (each
    line squeezed less than the whole on one)."""
    f = render.font(render.MIN_TEXT_PX, True)
    if f.size(tag)[0] <= inner or " " not in tag or room < 2:
        return 1
    lines = render.wrap_even(tag, inner, render.MIN_TEXT_PX, 2, True)
    if all(f.size(line)[0] <= inner for line in lines):
        return 2
    if any(f.size(w)[0] <= inner for w in short_words(tag)):
        return 1
    return 2


def led_column(surface: pygame.Surface, r: pygame.Rect, picture: object, status: str, column: pygame.Rect,
               compact: bool) -> None:
    """The virtual LED matrix ``picture`` (rows of (r, g, b), or None) in ``r`` and its
    status line under it, kept inside the side ``column``."""
    render.led_matrix(surface, r, picture)
    # The status line narrowed to the side column when longer (it ran over the table).
    room = 2 * min(r.centerx - column.x, column.right - r.centerx)
    if compact:
        # 24 px: the line with the link's state, else the state alone, else (a long state
        # on a narrow column) only what this is: the race panel below needs the rows.
        render.text_best(surface, [_("virtual LED matrix  {status}").format(status=status), status,
                                   _("virtual LED matrix")],
                         (r.centerx, r.bottom + 4), room, (render.MIN_TEXT_PX,), render.DIM, "midtop")
        return
    render.text_within(surface, _("virtual LED matrix  {status}").format(status=status), (r.centerx, r.bottom + 4),
                       room, 20,
                       render.DIM, "midtop")


def race_panel(surface: pygame.Surface, panel: pygame.Rect, title: str, short_title: str,
               history: Sequence[PanelEntry], compact: bool) -> None:
    """The race panel (R-7): its heading ``title`` (``short_title`` on a small panel where
    the title needs more than two rows) and every press of the last races, newest first."""
    if compact:
        _race_panel_compact(surface, panel, title, short_title, history)
        return
    render.panel(surface, panel)
    # a longer wording (another language) takes the short title rather than run off the panel
    render.text_best(surface, (title, short_title), (panel.x + 10, panel.y + 8), panel.w - 20, (22, 20), render.DIM)
    yy = panel.y + 34
    if not history:
        render.text(surface, _("every press is shown here"), (panel.x + 10, yy), 24, render.DIM)
    for idx, entry in enumerate(history):
        if yy > panel.bottom - 30:
            break
        head = 24 if idx == 0 else 21
        # The whole title, on a second row when it needs one ("no winner: first press at
        # 1184.9 ms" was cut to 34 characters, "... 1184.9 m").
        for line in render.wrap(entry.title, panel.w - 20, head, 2, bold=idx == 0):
            render.text_within(surface, line, (panel.x + 10, yy), panel.w - 20, head,
                               entry.colour if idx == 0 else render.DIM, bold=idx == 0)
            yy += head + 2
        for seat, kind, ms, status in entry.rows[:8]:
            if yy > panel.bottom - 24:
                break
            col = render.SEAT_COLOURS[seat % 8] if idx == 0 else render.DIM
            size = 24 if idx == 0 else 20
            render.text(surface, f"P{seat + 1}{' X' if kind == 'focus-ex' else ''}", (panel.x + 16, yy), size,
                        col, bold=idx == 0)
            render.text(surface, milliseconds(ms), (panel.x + 78, yy), size, render.TEXT)
            render.text(surface, status_word(status), (panel.right - 10, yy), size - 2,
                        render.BAD if status in ("false", "penalty", "last") else render.DIM, "topright")
            yy += size + 1
        for line in entry.extra[:3]:
            if yy > panel.bottom - 22:
                break
            render.text(surface, line, (panel.x + 16, yy), 20, render.DIM)
            yy += 21
        yy += 8


def _race_panel_compact(surface: pygame.Surface, panel: pygame.Rect, title: str, short_title: str,
                        history: Sequence[PanelEntry]) -> None:
    """The race panel of the small regions (R-7: every press of the last races): 24 px rows,
    the heading and the titles wrapped onto two rows, the offsets without " ms" (the
    heading says so) and a status that does not fit beside them on a row of its own."""
    render.panel(surface, panel)
    size = render.MIN_TEXT_PX
    step = render.font(size).get_linesize()
    inner = panel.w - 16
    x = panel.x + 8
    if len(render.wrap(title, inner, size, 3)) > 2 or any(
            render.font(size).size(line)[0] > inner for line in render.wrap(title, inner, size, 2)):
        title = short_title
    yy = render.text_lines(surface, title, (x, panel.y + 6), inner, 2, size, render.DIM).bottom + 4
    if not history:
        render.text_lines(surface, _("every press is shown here"), (x, yy), inner, 2, size, render.DIM)
    for idx, entry in enumerate(history):
        if yy > panel.bottom - 2 * step:
            break
        colour = entry.colour if idx == 0 else render.DIM
        rows = 2 if yy + 3 * step <= panel.bottom else 1
        if rows == 1 and render.font(size, idx == 0).size(entry.title)[0] * render.MIN_KEPT > inner:
            break                         # an older race whose title needs two rows gives way
        text = entry.title
        if entry.short and (len(render.wrap(text, inner, size, rows + 1, idx == 0)) > rows or any(
                render.font(size, idx == 0).size(line)[0] > inner
                for line in render.wrap(text, inner, size, rows, idx == 0))):
            text = entry.short                # a narrow panel: the short title, whole
        yy = render.text_lines(surface, text, (x, yy), inner, rows, size, colour, bold=idx == 0).bottom + 1
        for seat, kind, ms, status in entry.rows[:8]:
            if yy > panel.bottom - step - 2:
                break
            col = render.SEAT_COLOURS[seat % 8] if idx == 0 else render.DIM
            name = f"P{seat + 1}{' X' if kind == 'focus-ex' else ''}"
            at_right = max(x + render.font(size, idx == 0).size(name)[0] + 6, x + 30) + \
                render.font(size).size(number(ms, 1))[0]
            word = status_word(status)
            beside = render.font(size).size(word)[0] * render.MIN_KEPT <= panel.right - 8 - at_right - 6
            if not beside and yy + 2 * step > panel.bottom:
                break                     # no row left for its status readable: the press gives way
            who = render.text(surface, name, (x, yy), size, col, bold=idx == 0)
            at = render.text(surface, number(ms, 1), (max(who.right + 6, x + 30), yy), size, render.TEXT)
            scol = render.BAD if status in ("false", "penalty", "last") else render.DIM
            room = panel.right - 8 - at.right - 6
            if not beside:
                yy += step                                   # the status on its own row
                room = inner - 8
            render.text_within(surface, word, (panel.right - 8, yy), room, size, scol, "topright")
            yy += step
        for line in entry.extra[:3]:
            if yy > panel.bottom - step - 2:
                break
            rows = 2 if yy + 2 * step <= panel.bottom else 1
            if rows == 1 and render.font(size).size(line)[0] * render.MIN_KEPT > inner:
                break                       # no room left for it readable (the banner said it)
            yy = render.text_lines(surface, line, (x, yy), inner, rows, size, render.DIM).bottom + 1
        yy += 4
