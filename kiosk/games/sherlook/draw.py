"""Drawing Sherlook photos with pygame, and the full-resolution SL-1 check.

The photos are pure data (``arcade.sherlook``); this module turns them into
pygame surfaces:

* :func:`render_photo`: one photo in its own frame at any size;
* :func:`render_pair`: both photos as the round's green token lays them out
  (SL-2: turned, mirrored, side by side or one above the other);
* :func:`reveal_marks`: where the reveal's numbered circles go on screen;
* :func:`check_rendered`: the SL-1 check on the real pygame renderings
  (count of differing regions, area and colour thresholds, nothing outside
  the declared alterations), used by the tests on a subset of seeds and by
  ``bench/bench_sherlook.py`` on all of them.

Only draws: nothing here changes a game state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pygame

from arcade.sherlook.photos import PhotoPair
from arcade.sherlook.poses import Pose, map_box
from arcade.sherlook.raster import CheckLimits
from arcade.sherlook.shapes import PHOTO_H, PHOTO_W, Box, Shape
from kiosk import render


def _pts(sh: Shape, s: float, n: int = 40) -> list[tuple[float, float]]:
    return [(x * s, y * s) for (x, y) in sh.outline_points(n)]


def draw_shapes(surface: pygame.Surface, shapes: Sequence[Shape], scale: float) -> None:
    """Draw photo shapes onto ``surface`` at ``scale`` px per photo unit."""
    for sh in shapes:
        if sh.kind == "line":
            w = max(1, round(sh.width * scale))
            pts = [(x * scale, y * scale) for (x, y) in sh.pts]
            if len(pts) >= 2:
                pygame.draw.lines(surface, sh.fill, False, pts, w)
                if w >= 4:
                    r = w / 2
                    for p in pts:
                        pygame.draw.circle(surface, sh.fill, p, r)
            continue
        if sh.kind == "oval" and abs(sh.oval[4] % 3.141592653589793) < 1e-9:
            cx, cy, rx, ry, _ = sh.oval
            rect = pygame.Rect(0, 0, max(1, round(2 * rx * scale)), max(1, round(2 * ry * scale)))
            rect.center = (round(cx * scale), round(cy * scale))
            pygame.draw.ellipse(surface, sh.fill, rect)
            if sh.line is not None and sh.width > 0:
                pygame.draw.ellipse(surface, sh.line, rect, max(1, round(sh.width * scale)))
            continue
        n = 40 if sh.kind == "oval" else 0
        pts = _pts(sh, scale, n) if n else [(x * scale, y * scale) for (x, y) in sh.pts]
        if len(pts) < 3:
            continue
        pygame.draw.polygon(surface, sh.fill, pts)
        if sh.line is not None and sh.width > 0:
            pygame.draw.polygon(surface, sh.line, pts, max(1, round(sh.width * scale)))


def render_photo(pair: PhotoPair, photo: int, width: int, height: int | None = None) -> pygame.Surface:
    """Photo ``photo`` (0 or 1) of ``pair`` in its own frame, ``width`` px wide.

    Returns a new surface of ``width`` x ``height`` px (default: the photo's
    4:3 proportion).
    """
    height = height or round(width * PHOTO_H / PHOTO_W)
    surf = pygame.Surface((width, height))
    surf.fill((0, 0, 0))
    draw_shapes(surf, pair.shapes(photo), width / PHOTO_W)
    return surf


_TRANSFORMS = {
    "none": lambda s: s,
    "rot180": lambda s: pygame.transform.rotate(s, 180),
    "rot90": lambda s: pygame.transform.rotate(s, -90),     # a quarter turn clockwise
    "rot270": lambda s: pygame.transform.rotate(s, 90),
    "flip_x": lambda s: pygame.transform.flip(s, True, False),
    "flip_y": lambda s: pygame.transform.flip(s, False, True),
}


def transformed(surface: pygame.Surface, transform: str) -> pygame.Surface:
    """A photo surface turned or mirrored as a pose says (SL-2)."""
    return _TRANSFORMS[transform](surface)  # type: ignore[no-untyped-call, no-any-return]


@dataclass(frozen=True)
class Placed:
    """Where a pose puts the two photos on screen.

    ``rects[i]`` is photo ``i``'s screen rectangle (after turning), ``scale``
    px per photo unit, ``pose`` the token.
    """

    pose: Pose
    rects: tuple[pygame.Rect, pygame.Rect]
    scale: float


def place_pair(pose: Pose, area: pygame.Rect, gap: int = 16) -> Placed:
    """Fit the two photos of ``pose`` into ``area`` as large as they go (SL-2)."""
    sizes = []
    for t in pose.transforms:
        turned = t in ("rot90", "rot270")
        sizes.append((PHOTO_H, PHOTO_W) if turned else (PHOTO_W, PHOTO_H))
    if pose.arrangement == "side":
        total_w = sizes[0][0] + sizes[1][0]
        total_h = max(sizes[0][1], sizes[1][1])
        scale = min((area.w - gap) / total_w, area.h / total_h)
    else:
        total_w = max(sizes[0][0], sizes[1][0])
        total_h = sizes[0][1] + sizes[1][1]
        scale = min(area.w / total_w, (area.h - gap) / total_h)
    ws = [round(w * scale) for w, _ in sizes]
    hs = [round(h * scale) for _, h in sizes]
    rects = []
    if pose.arrangement == "side":
        x = area.centerx - (ws[0] + ws[1] + gap) // 2
        for i in range(2):
            rects.append(pygame.Rect(x, area.centery - hs[i] // 2, ws[i], hs[i]))
            x += ws[i] + gap
    else:
        y = area.centery - (hs[0] + hs[1] + gap) // 2
        for i in range(2):
            rects.append(pygame.Rect(area.centerx - ws[i] // 2, y, ws[i], hs[i]))
            y += hs[i] + gap
    return Placed(pose, (rects[0], rects[1]), scale)


def render_one(pair: PhotoPair, placed: Placed, i: int) -> pygame.Surface:
    """Photo ``i`` (0 or 1) rendered at the placed size and turned as the pose says."""
    t = placed.pose.transforms[i]
    w = round(PHOTO_W * placed.scale)
    return transformed(render_photo(pair, i, w, round(PHOTO_H * placed.scale)), t)


def render_pair(pair: PhotoPair, placed: Placed) -> tuple[pygame.Surface, pygame.Surface]:
    """Both photos rendered at the placed size and turned as the pose says."""
    return render_one(pair, placed, 0), render_one(pair, placed, 1)


def reveal_marks(pair: PhotoPair, placed: Placed) -> list[tuple[int, int, pygame.Rect]]:
    """Every difference on both photos as ``(number, photo, screen rect)``.

    Numbers run 1..count in the pair's reveal order; each difference gets a
    rectangle on both photos (in the photo's own frame, then turned as the
    pose says), so the reveal circles it twice.
    """
    marks = []
    for n, alt in enumerate(pair.alterations, start=1):
        for i in range(2):
            box = map_box(alt.box, placed.pose.transforms[i])
            r = placed.rects[i]
            s = placed.scale
            marks.append((n, i, pygame.Rect(round(r.x + box[0] * s), round(r.y + box[1] * s),
                                            max(1, round((box[2] - box[0]) * s)),
                                            max(1, round((box[3] - box[1]) * s)))))
    return marks


# ----------------------------------------------------------------- the full check

#: The reveal's circles round each difference.
CIRCLE = (255, 236, 60)


def wash(w: pygame.Surface, grey: pygame.Surface) -> None:
    """A photo ``w`` greyed (``grey``: its greyscale) and darkened for the reveal (in place)."""
    grey.set_alpha(130)
    w.blit(grey, (0, 0))
    shade = pygame.Surface(w.get_size())
    shade.fill((24, 24, 24))
    w.blit(shade, (0, 0), special_flags=pygame.BLEND_RGB_SUB)


def circle_differences(w: pygame.Surface, origin: tuple[int, int], marks: list[tuple[int, int, pygame.Rect]]) -> None:
    """The differences ``marks`` (:func:`reveal_marks`: number, photo, screen rect) on a
    washed photo ``w`` circled and numbered (``origin``: the photo's place on the screen)."""
    for n, _photo, rect in marks:
        r = rect.move(-origin[0], -origin[1]).inflate(18, 18)
        r.w, r.h = max(r.w, 34), max(r.h, 34)
        pygame.draw.ellipse(w, (20, 20, 20), r.inflate(4, 4), 8)
        pygame.draw.ellipse(w, CIRCLE, r, 5)
        bx = min(max(r.left + 4, 16), w.get_width() - 16)
        by = min(max(r.top + 4, 16), w.get_height() - 16)
        pygame.draw.circle(w, (200, 30, 30), (bx, by), 16)
        pygame.draw.circle(w, (255, 255, 255), (bx, by), 16, 2)
        render.text(w, str(n), (bx, by + 1), 28, (255, 255, 255), "center", bold=True)


@dataclass(frozen=True)
class RenderedCheck:
    """The SL-1 check on pygame renderings.

    Attributes:
        ok: every condition holds.
        problems: what failed, in words.
        regions: distinct declared boxes holding strong differences.
        outside_px: differing pixels outside every declared box (must be 0).
        strong_area: per alteration, strongly changed area in photo units².
        width: rendering width used, px.
    """

    ok: bool
    problems: tuple[str, ...]
    regions: int
    outside_px: int
    strong_area: tuple[float, ...]
    width: int


def _diff(a: pygame.Surface, b: pygame.Surface) -> pygame.Surface:
    d1 = a.copy()
    d1.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d2 = b.copy()
    d2.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d1.blit(d2, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    return d1     # |a - b| per channel


def _box_rect(box: Box, s: float) -> pygame.Rect:
    x0, y0 = int(box[0] * s), int(box[1] * s)
    x1, y1 = int(box[2] * s + 0.999), int(box[3] * s + 0.999)
    return pygame.Rect(x0, y0, max(1, x1 - x0), max(1, y1 - y0))


def check_rendered(pair: PhotoPair, width: int = 1000, limits: CheckLimits | None = None) -> RenderedCheck:
    """SL-1 on the real renderings at ``width`` px (both photos in their own frame).

    Checks: no differing pixel outside the declared boxes; in every declared
    box, the pixels whose colour distance (largest channel difference) is at
    least ``limits.min_colour`` cover at least ``limits.min_area`` photo
    units²; the number of boxes with differences equals the declared count.
    """
    limits = limits or CheckLimits()
    s = width / PHOTO_W
    a = render_photo(pair, 0, width)
    b = render_photo(pair, 1, width)
    d = _diff(a, b)
    same = pygame.mask.from_threshold(d, (0, 0, 0, 255), (1, 1, 1, 255))
    diff = same.copy()
    diff.invert()
    weak = pygame.mask.from_threshold(d, (0, 0, 0, 255), (limits.min_colour, limits.min_colour,
                                                          limits.min_colour, 255))
    strong = weak.copy()
    strong.invert()
    boxes = pygame.mask.Mask(diff.get_size())
    areas = []
    problems = []
    regions = 0
    for k, alt in enumerate(pair.alterations):
        r = _box_rect(alt.box, s)
        m = pygame.mask.Mask(r.size, fill=True)
        boxes.draw(m, r.topleft)
        px = strong.overlap_area(m, r.topleft)
        area = px / (s * s)
        areas.append(area)
        if diff.overlap_area(m, r.topleft):
            regions += 1
        if area < limits.min_area:
            problems.append(f"difference {k + 1} ({alt.describe()}): strong area {area:.0f} < {limits.min_area:.0f}")
    outside = diff.copy()
    outside.erase(boxes, (0, 0))
    out_px = outside.count()
    if out_px:
        problems.append(f"{out_px} differing pixels outside the declared alterations")
    if regions != pair.count:
        problems.append(f"{regions} regions differ, {pair.count} declared")
    return RenderedCheck(not problems, tuple(problems), regions, out_px, tuple(areas), width)
