"""Drawing the Sherlook screen around the photos (pure drawing: each function draws what it
is given and changes nothing): where the screen's regions go, the title and token screens,
the round's line, the ten markers with the choosers' cursors, the last player's countdown
(SL-3) and the reveal's banner (SL-4).  The seat panels are ``seats.py``'s, the claims
``claims.py``'s, the photos ``draw.py``'s; the scene (``scene.py``) says what a frame shows
(a :class:`Moment`) and keeps the photos as a part drawn again only when they change.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from arcade.core.api import RACE
from arcade.i18n import _, ngettext
from arcade.sherlook.game import SherlookState
from arcade.sherlook.markers import MarkerRace
from arcade.sherlook.poses import Pose
from kiosk import render
from kiosk.games.sherlook.draw import CIRCLE, place_pair, transformed
from kiosk.scenes.seats import SeatInfo

TOKEN_COLOURS = {"green": (60, 190, 90), "yellow": (245, 205, 40), "red": (225, 60, 60)}
CURSOR_BAND = 30          # px above a row of markers where the cursors go


@dataclass(frozen=True)
class Moment:
    """What one frame of the race or the reveal shows (made by the scene for the frame).

    Attributes:
        state: the game (markers held, points, tokens, rounds).
        race: the referee's marker race (None before the first).
        phase: "race", "reveal" or "over" (the scene's phase).
        now: the frame's time (ns, the kiosk's clock).
        seats: the seats' stations (who has left / right / OK).
        countdown_s: the last player's countdown (SL-3), in seconds.
    """

    state: SherlookState
    race: MarkerRace | None
    phase: str
    now: int
    seats: tuple[SeatInfo, ...]
    countdown_s: float


def fit_text(surface: pygame.Surface, msg: str, rect: pygame.Rect, size: int, colour: tuple[int, int, int],
             bg: tuple[int, int, int] | None = None, bold: bool = True) -> None:
    """``msg`` centred in ``rect``, at ``size`` px or smaller until it fits, on an optional plate;
    when even the smallest text (render.MIN_TEXT_PX) is too wide, on as many lines as ``rect``
    holds (render.text_block: wrapped, squeezed a little at most)."""
    first = size
    while size > 14:
        img = render.font(size, bold).render(msg, True, colour)
        if img.get_width() <= rect.w - 24 and img.get_height() <= rect.h:
            break
        size -= 2
    if bg is not None:
        pygame.draw.rect(surface, bg, rect, border_radius=12)
    if img.get_width() > rect.w - 24:
        rows = max(1, rect.h // render.line_height(render.MIN_TEXT_PX, bold))
        render.text_block(surface, msg, rect.center, rect.w - 24, first, rows, colour, "center", bold)
        return
    surface.blit(img, img.get_rect(center=rect.center))


def token_icon(surface: pygame.Surface, kind: str, centre: tuple[int, int], r: int) -> None:
    """A scoring token: green circle, yellow square, red triangle (shape is the second cue)."""
    col = TOKEN_COLOURS[kind]
    cx, cy = centre
    if kind == "green":
        pygame.draw.circle(surface, col, centre, r)
        pygame.draw.circle(surface, (20, 20, 20), centre, r, 2)
    elif kind == "yellow":
        rect = pygame.Rect(0, 0, int(r * 1.8), int(r * 1.8))
        rect.center = centre
        pygame.draw.rect(surface, col, rect)
        pygame.draw.rect(surface, (20, 20, 20), rect, 2)
    else:
        pts = [(cx, cy - r), (cx + r, cy + int(r * 0.8)), (cx - r, cy + int(r * 0.8))]
        pygame.draw.polygon(surface, col, pts)
        pygame.draw.polygon(surface, (20, 20, 20), pts, 2)


def pose_icon(surface: pygame.Surface, lay: Pose, rect: pygame.Rect) -> None:
    """A small picture of a green token: two cards laid out, with a letter showing each turn."""
    pygame.draw.rect(surface, (40, 130, 70), rect, border_radius=10)
    pygame.draw.rect(surface, (20, 60, 30), rect, 3, border_radius=10)
    inner = rect.inflate(-rect.w // 6, -rect.h // 6)
    placed = place_pair(lay, inner, gap=max(4, rect.w // 24))
    for i in range(2):
        r = placed.rects[i]
        pygame.draw.rect(surface, (245, 240, 225), r, border_radius=4)
        pygame.draw.rect(surface, (30, 30, 30), r, 2, border_radius=4)
        glyph = render.font(max(12, int(min(r.w, r.h) * 0.8)), True).render("R", True, (30, 30, 30))
        glyph = transformed(glyph, lay.transforms[i])
        surface.blit(glyph, glyph.get_rect(center=r.center))


def screen_areas(lay: Pose | None, W: int, H: int) -> dict[str, pygame.Rect]:
    """Where the parts go on a ``W`` x ``H`` screen for the round's token pose ``lay``:
    "info" (the round's line), "photos", "markers", "claims" and "seats"."""
    k = H / 720
    if lay is not None and lay.arrangement == "stack":
        side = int(W * 0.31)
        return {"photos": pygame.Rect(side, 6, W - 2 * side, H - 12),
                "info": pygame.Rect(8, 8, side - 16, int(120 * k)),
                "markers": pygame.Rect(8, int(132 * k), side - 16, int(430 * k)),
                "claims": pygame.Rect(8, int(570 * k), side - 16, H - int(578 * k)),
                "seats": pygame.Rect(W - side + 8, 8, side - 16, H - 16)}
    # the markers' strip has a band on top for the cursors, so they never cover a photo
    return {"info": pygame.Rect(8, 2, W - 16, int(44 * k)),
            "photos": pygame.Rect(8, int(48 * k), W - 16, int(494 * k)),
            "markers": pygame.Rect(8, int(546 * k), int(W * 0.62), int(94 * k)),
            "claims": pygame.Rect(int(W * 0.62) + 16, int(546 * k), W - int(W * 0.62) - 24, int(94 * k)),
            "seats": pygame.Rect(8, int(644 * k), W - 16, H - int(648 * k))}


def reveal_areas(areas: dict[str, pygame.Rect], screen_size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect]:
    """Where the reveal's banner and its claim list go: the round's line and the markers'
    and claims' places.  In a narrow column of a small display (the "stack" photos) the
    banner takes the top of the list's place, for the tokens' line to wrap in it."""
    banner, order = areas["info"], areas["markers"].union(areas["claims"])
    if render.small_screen(*screen_size) and banner.w < 300:
        need = render.line_height(36, True) + 4 * render.line_height(24, True) + 16 - banner.h
        if need > 0:
            banner = banner.union(pygame.Rect(banner.x, banner.bottom, banner.w, need))
            order = pygame.Rect(order.x, max(order.y, banner.bottom + 6), order.w,
                                order.bottom - max(order.y, banner.bottom + 6))
    return banner, order


def title_screen(surface: pygame.Surface) -> pygame.Rect:
    """The game's title screen before the first round.  Returns the title's row (an app
    note goes over it)."""
    W, H = surface.get_size()
    r = render.text(surface, "SHERLOOK", (W // 2, H // 3), int(H * 0.14), render.GOLD, "center", bold=True)
    render.text_block(surface, _("spot the differences, take the right marker"), (W // 2, H // 2), W - 24, 40,
                      2, render.TEXT, "center")
    return pygame.Rect(0, r.y, W, r.h)


def token_screen(surface: pygame.Surface, st: SherlookState, lines: tuple[str, str]) -> pygame.Rect:
    """The round's green token (SL-2): the round, the pose's picture and name, and
    ``lines`` (what to do, the controls).  Returns the title's row (an app note goes over it)."""
    W, H = surface.get_size()
    lay = st.pose
    assert lay is not None
    title = _("Round {n} of {total}").format(n=st.round_no, total=st.rounds_total) if not st.is_extra else \
        _("Round {n} - extra round: {seats}").format(n=st.round_no,
                                                     seats=" & ".join(f"P{s + 1}" for s in st.participants))
    name = _(lay.name)
    what, keys = lines
    if (render.font(34).size(what)[0] <= W - 24 and render.font(30).size(keys)[0] <= W - 24
            and render.font(int(H * 0.08), True).size(title)[0] <= W - 24):
        r = render.text(surface, title, (W // 2, int(H * 0.08)), int(H * 0.08), render.TEXT, "center", bold=True)
        icon = pygame.Rect(0, 0, int(H * 0.5), int(H * 0.36))
        icon.center = (W // 2, int(H * 0.44))
        pose_icon(surface, lay, icon)
        render.text(surface, _("The green token says:"), (W // 2, icon.top - 14), 34, render.DIM, "midbottom")
        render.text(surface, name, (W // 2, icon.bottom + 20), int(H * 0.075), render.GOLD, "midtop",
                    bold=True)
        render.text(surface, what, (W // 2, int(H * 0.86)), 34, render.TEXT, "center")
        render.text(surface, keys, (W // 2, int(H * 0.93)), 30, render.DIM, "center")
        return pygame.Rect(0, r.y, W, r.h)
    # A small display: the lines wrap from the bottom up and the pose's picture takes
    # the height that is left (never smaller text than render.MIN_TEXT_PX).
    w, gap = W - 16, max(4, H // 80)
    keys_r = render.text_block(surface, keys, (W // 2, H - gap), w, 26, 3, render.DIM, "midbottom")
    what_r = render.text_block(surface, what, (W // 2, keys_r.top - gap), w, 30, 2, render.TEXT, "midbottom")
    name_r = render.text_block(surface, name, (W // 2, what_r.top - gap), w, max(30, int(H * 0.075)), 2,
                               render.GOLD, "midbottom", bold=True)
    title_r = render.text_block(surface, title, (W // 2, gap), w, max(36, int(H * 0.08)), 2, render.TEXT,
                                "midtop", bold=True)
    says_r = render.text_block(surface, _("The green token says:"), (W // 2, title_r.bottom + gap), w, 28, 1,
                               render.DIM, "midtop")
    room = pygame.Rect(0, says_r.bottom + gap, W, name_r.top - gap - says_r.bottom - gap)
    if room.h > 8:
        icon = pygame.Rect(0, 0, min(W - 16, int(room.h * 0.5 / 0.36)), room.h)
        icon.center = room.center
        pose_icon(surface, lay, icon)
    return pygame.Rect(0, title_r.y, W, title_r.h)


def info_line(surface: pygame.Surface, area: pygame.Rect, st: SherlookState) -> None:
    """The round's line: the pose's picture, the game's name, the round and the pose's name."""
    lay = st.pose
    assert lay is not None
    rnd = _("Round {n}/{total}").format(n=st.round_no, total=st.rounds_total) if not st.is_extra else \
        _("Extra round {n}").format(n=st.extra_no)
    name = _(lay.name)
    icon = pygame.Rect(area.x, area.y + 2, int(area.h * 1.3) if area.h < 80 else 110, min(area.h - 4, 76))
    if render.small_screen(*surface.get_size()):
        # a narrow column (the "stack" arrangement on a small panel): the pose's picture
        # gives way to the round's number ("Round 1/10" squeezed to 80% at most), and goes
        # when too little of it is left to read
        need = int(render.font(24, True).size(rnd)[0] * 0.8) + 8
        if area.w <= area.h * 3 and area.w - icon.w < need:
            icon.w = area.w - need
            icon.h = min(icon.h, int(icon.w / 1.3))
            if icon.w < 28:
                icon.w = 0
        if icon.w:
            pose_icon(surface, lay, icon)
        _info_small(surface, area, icon, rnd, name)
        return
    pose_icon(surface, lay, icon)
    if area.h < 80:
        r = render.text(surface, "SHERLOOK", (icon.right + 10, area.centery), 36, render.GOLD, "midleft",
                        bold=True)
        r = render.text(surface, f"{rnd}  -  {name}", (r.right + 18, area.centery), 34, render.TEXT,
                        "midleft", bold=True)
        hint = _("buzzer: press when your number lights up")
        if render.font(26).size(hint)[0] < area.right - r.right - 30:
            render.text(surface, hint, (area.right, area.centery), 26, render.DIM, "midright")
    else:
        render.text(surface, "SHERLOOK", (icon.right + 10, area.y + 4), 40, render.GOLD, bold=True)
        render.text(surface, rnd, (icon.right + 10, area.y + 40), 34, render.TEXT, bold=True)
        render.text(surface, name, (area.x, icon.bottom + 6), 28, render.TEXT)


def _info_small(surface: pygame.Surface, area: pygame.Rect, icon: pygame.Rect, rnd: str, name: str) -> None:
    """The round's line on a small display: as much as fits of "SHERLOOK  Round 1/10  -
    name" (the game's name goes first, then the pose's name gives way to the round; the
    pose's picture beside it stays), or, in a narrow column, the round over the name."""
    x = icon.right + 8
    w = area.right - x
    if area.w > area.h * 3:
        f = render.font(24, True)
        for msg in (f"SHERLOOK  {rnd}  -  {name}", f"{rnd}  -  {name}", rnd):
            if f.size(msg)[0] * 0.8 <= w:
                break
        # centred on the line, never above the screen's top: a short line (another language)
        # set large ran off it at 480x320
        room = 2 * min(area.centery, surface.get_height() - area.centery)
        size = next((s for s in range(34, render.MIN_TEXT_PX, -1) if render.line_height(s, True) <= room),
                    render.MIN_TEXT_PX)
        render.text_block(surface, msg, (x, area.centery), w, size, 1, render.TEXT, "midleft", bold=True)
        return
    r = render.text_block(surface, rnd, (x, area.y + 2), w, 34, 1, render.TEXT, "topleft", bold=True)
    # its lines counted at the size they are drawn at: two lines at 28 px ran into the
    # markers below ("Reflected as / in water" over marker 1 at 480x320, explorer seed 1908)
    space = area.bottom - r.bottom
    size = 28 if space >= 2 * render.line_height(28) else render.MIN_TEXT_PX
    rows = max(1, space // render.line_height(size))
    if area.bottom - r.bottom >= render.line_height(24) - 4:
        render.text_block(surface, name, (area.x, r.bottom + 2), area.w, size, rows, render.TEXT, "topleft")


def marker_centres(area: pygame.Rect) -> tuple[list[tuple[int, int]], int]:
    """The ten markers' centres in ``area`` (a row, or two columns of five) and their radius (px)."""
    if area.w > area.h * 3:
        step = area.w / 10
        band = CURSOR_BAND if area.h >= 80 else 0
        r = int(min(step * 0.42, (area.h - band) * 0.46))
        cy = area.y + band + (area.h - band) // 2
        return [(int(area.x + step * (i + 0.5)), cy) for i in range(10)], r
    cw, ch = area.w / 2, area.h / 5
    r = int(min(cw * 0.3, ch * 0.4))
    return [(int(area.x + cw * (i // 5 + 0.5)), int(area.y + ch * (i % 5 + 0.5))) for i in range(10)], r


def markers(surface: pygame.Surface, area: pygame.Rect, m: Moment, under: pygame.Rect | None = None) -> None:
    """The ten markers in ``area`` (free, or in their holder's colour; the one the race
    lights up ringed in gold; the count circled green at the reveal); those that a message's
    plate (``under``, drawn over them for its moment on a narrow small display) hides are
    left out."""
    st = m.state
    race = m.race if st.current_player() == RACE else None
    centres, r = marker_centres(area)
    holders = {mk: s for s, mk in st.markers.items()}
    highlight = 0
    if race is not None and race.opened_ns is not None and race.waiting():
        steps = race.schedule(m.now, m.now)
        highlight = steps[0][2] if steps else 0
    reveal = m.phase in ("reveal", "over")
    pulse = 0.5 + 0.5 * math.sin(m.now / 1e9 * 8)
    for mk in range(1, 11):
        cx, cy = centres[mk - 1]
        if under is not None and under.colliderect(pygame.Rect(cx - r, cy - r, 2 * r, 2 * r)):
            continue
        if reveal and mk == st.count:
            pygame.draw.circle(surface, TOKEN_COLOURS["green"], (cx, cy), r + 10)
        if mk == highlight:
            pygame.draw.circle(surface, render.GOLD, (cx, cy), r + 6 + int(3 * pulse))
        seat = holders.get(mk)
        if seat is None:          # free: dark disc, light number
            pygame.draw.circle(surface, (58, 66, 92), (cx, cy), r)
            pygame.draw.circle(surface, (210, 214, 226), (cx, cy), r, 3)
            render.text(surface, str(mk), (cx, cy), int(r * 1.15), render.TEXT, "center", bold=True)
        else:                     # taken: the holder's colour and seat number
            pygame.draw.circle(surface, render.SEAT_COLOURS[seat % 8], (cx, cy), r)
            pygame.draw.circle(surface, (20, 20, 20), (cx, cy), r, 3)
            num = render.text(surface, str(mk), (cx, cy - r // 5), int(r * 1.15), (20, 20, 20), "center",
                              bold=True)
            tag_px = max(16, int(r * 0.5))
            tag_h = render.line_height(tag_px, True)
            # the holder's "P2" under the number where the disc has room for both; a small
            # disc (480x320) says the holder by its colour alone
            if cy + r // 2 - tag_h // 2 >= num.bottom - min(num.h, tag_h) // 4:
                render.text(surface, f"P{seat + 1}", (cx, cy + r // 2), tag_px, (20, 20, 20), "center",
                            bold=True)
    if race is not None and race.opened_ns is not None:
        _cursors(surface, area, centres, r, race, m.seats)


def _cursors(surface: pygame.Surface, area: pygame.Rect, centres: list[tuple[int, int]], r: int,
             race: MarkerRace, seats: tuple[SeatInfo, ...]) -> None:
    """The cursors of the stations with left / right / OK: a tag in the seat's colour
    with its name, pointing at the marker; above a row of markers (in the band kept
    for them), left of a column; tags on one marker sit side by side, never on a photo."""
    who = [(s, race.cursor_of(s)) for s, info in enumerate(seats)
           if info.can_choose and not info.is_computer and s in race.waiting()]
    if not who:
        return
    f = render.font(22, True)
    h = 24
    row = area.w > area.h * 3
    tags: list[tuple[pygame.Rect, int, int]] = []          # (tag, seat, marker)
    if row:
        widths = {s: f.size(f"P{s + 1}")[0] + 12 for s, _ in who}
        wanted = []
        for m in sorted({m for _, m in who}):
            on = [s for s, mm in who if mm == m]
            total = sum(widths[s] for s in on) + 4 * (len(on) - 1)
            x = centres[m - 1][0] - total // 2
            for s in on:
                wanted.append((x, s, m))
                x += widths[s] + 4
        x_min = area.x
        for x, s, m in wanted:                             # push apart, left to right
            x = max(x, x_min)
            tags.append((pygame.Rect(x, area.y + 1, widths[s], h), s, m))
            x_min = x + widths[s] + 4
        over = tags[-1][0].right - area.right if tags else 0
        if over > 0:
            tags = [(t.move(-over, 0), s, m) for t, s, m in tags]
    else:
        for m in sorted({m for _, m in who}):
            on = [s for s, mm in who if mm == m]
            cx, cy = centres[m - 1]
            y = cy - (len(on) * (h + 3) - 3) // 2
            for s in on:
                w = f.size(f"P{s + 1}")[0] + 12
                tags.append((pygame.Rect(cx - r - 12 - w, y, w, h), s, m))
                y += h + 3
    for tag, s, m in tags:
        cx, cy = centres[m - 1]
        col = render.SEAT_COLOURS[s % 8]
        if row:
            pointer = [(tag.centerx - 7, tag.bottom - 1), (tag.centerx + 7, tag.bottom - 1), (cx, cy - r - 1)]
        else:
            pointer = [(tag.right - 1, tag.centery - 7), (tag.right - 1, tag.centery + 7), (cx - r - 1, cy)]
        pygame.draw.polygon(surface, col, pointer)
        pygame.draw.rect(surface, col, tag, border_radius=5)
        pygame.draw.rect(surface, (20, 20, 20), tag, 2, border_radius=5)
        img = f.render(f"P{s + 1}", True, (20, 20, 20))
        surface.blit(img, img.get_rect(center=tag.center))


def counting_down(m: Moment) -> bool:
    """The last player's countdown (SL-3) is on: it covers the claims panel."""
    race = m.race
    if race is None or m.phase != "race" or race.countdown_start is None or not race.waiting():
        return False
    return race.countdown_left(m.now) is not None


def countdown(surface: pygame.Surface, area: pygame.Rect, m: Moment) -> None:
    """The last player's countdown (SL-3) over ``area``: a ring and the seconds left, and
    who must take a marker (nothing when no countdown runs)."""
    race = m.race
    if race is None or not counting_down(m):
        return
    left = race.countdown_left(m.now)
    if left is None:
        return
    frac = left / m.countdown_s
    col = (60, 200, 90) if frac > 0.5 else (255, 160, 20) if frac > 0.25 else (235, 60, 60)
    pygame.draw.rect(surface, (60, 20, 24), area, border_radius=12)
    pygame.draw.rect(surface, col, area, 4, border_radius=12)
    names = " & ".join(f"P{s + 1}" for s in race.waiting())
    if render.small_screen(*surface.get_size()) and area.w < 300:
        # a narrow column: the seconds and who must take a marker, on the lines it needs
        # (the ring left out)
        rows = max(1, (area.h - 8) // render.line_height(24, True))
        render.text_block(surface, _("{seconds} s  {names}: take a marker!").format(
                              seconds=max(0, math.ceil(left)), names=names), area.center,
                          area.w - 12, 30, rows, render.GOLD, "center", bold=True)
        return
    r = min(area.h // 2 - 6, 60)
    centre = (area.x + r + 14, area.centery)
    render.ring(surface, centre, r, frac, col, max(5, r // 5))
    render.text(surface, str(max(0, math.ceil(left))), centre, int(r * 1.5), render.TEXT, "center", bold=True)
    fit_text(surface, _("{names}: take a marker!").format(names=names),
             pygame.Rect(centre[0] + r + 8, area.y, area.right - centre[0] - r - 8, area.h), 44, render.GOLD)


def reveal_banner(surface: pygame.Surface, area: pygame.Rect, st: SherlookState) -> None:
    """The reveal's banner (SL-4): the round's count of differences and its tokens' winners."""
    if not st.rounds:
        return
    last = st.rounds[-1]
    sc = last.score
    parts = []
    if sc.green is not None:
        parts.append(_("green P{seat} (exact)").format(seat=sc.green + 1))
    else:
        parts.append(_("nobody exact: green discarded"))
    if sc.yellow is not None:
        parts.append(_("yellow P{seat}").format(seat=sc.yellow + 1))
    if sc.red is not None:
        parts.append(_("red P{seat}").format(seat=sc.red + 1))
    count = ngettext("{n} difference", "{n} differences", last.count).format(n=last.count)
    text = f"{count}  -  " + ", ".join(parts)
    if area.h >= 80 and render.small_screen(*surface.get_size()) and area.w < 300:
        # a narrow column: the count, then the tokens on as many lines as they need
        top = pygame.Rect(area.x, area.y, area.w, render.line_height(36, True) + 6)
        pygame.draw.rect(surface, CIRCLE, area, border_radius=12)
        fit_text(surface, count, top, 36, (20, 20, 20))
        fit_text(surface, ", ".join(parts), pygame.Rect(area.x - 6, top.bottom, area.w + 12,
                                                         area.bottom - top.bottom - 4), 30, (20, 20, 20))
    elif area.h >= 80:
        top = pygame.Rect(area.x, area.y, area.w, area.h // 2)
        fit_text(surface, count, top, 56, (20, 20, 20),
                 CIRCLE)
        fit_text(surface, ", ".join(parts), pygame.Rect(area.x, area.y + area.h // 2 + 4, area.w,
                                                         area.h // 2 - 4), 30, CIRCLE)
    else:
        fit_text(surface, text, area, 40, (20, 20, 20), CIRCLE)
