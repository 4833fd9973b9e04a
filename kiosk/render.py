"""Drawing helpers for the TV: fonts, seat colours, panels.

Everything here only draws; no game state changes.  Sizes are in pixels and
scale with the window height so the picture reads from three metres.
"""

from __future__ import annotations

import io
import math
import os
import re
import typing
from itertools import chain
from typing import Callable, Sequence

import pygame

from arcade.i18n import _
from arcade.lights import pictures as _led

BG = (18, 22, 34)
PANEL = (32, 38, 56)
PANEL_LIGHT = (48, 56, 80)
TEXT = (236, 238, 245)
DIM = (150, 156, 175)
GOLD = (255, 204, 64)
BAD = (235, 80, 80)
GOOD = (90, 220, 120)

#: Seat colours P1..P8: the LED matrix's colours (arcade.lights.pictures), lightened a little for the TV.
SEAT_COLOURS: list[tuple[int, int, int]] = [
    (min(255, int(r * 0.8 + 51)), min(255, int(g * 0.8 + 51)), min(255, int(b * 0.8 + 51)))
    for r, g, b in (c.rgb for c in _led.SEAT_COLOURS)]


def relative_luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0 black .. 1 white)."""
    def lin(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of two colours (1 .. 21); 3:1 is the floor for large text and marks."""
    hi, lo = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def readable_on(colour: tuple[int, int, int], backgrounds: tuple[tuple[int, int, int], ...],
                ratio: float = 3.0) -> tuple[int, int, int]:
    """``colour`` mixed towards white just enough to reach ``ratio`` on every background."""
    c = colour
    k = 0.0
    while k < 1.0 and min(contrast_ratio(c, bg) for bg in backgrounds) < ratio:
        k += 0.02
        c = (round(colour[0] + (255 - colour[0]) * k), round(colour[1] + (255 - colour[1]) * k),
             round(colour[2] + (255 - colour[2]) * k))
    return c


#: Every seat colour reads at 3:1 or better on the background and both panel shades
#: (WCAG 2 non-text/large-text contrast; P7's blue is lightened for it).
SEAT_COLOURS = [readable_on(c, (BG, PANEL, PANEL_LIGHT)) for c in SEAT_COLOURS]

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}


#: No text on the TV is smaller than this (px): readable from 3 m on a 1280x720 picture.
MIN_TEXT_PX = 24

def small_screen(w: int, h: int) -> bool:
    """Whether a ``w`` x ``h`` px screen is a small display (a 480x320, 640x480 or 800x480
    panel) that gets the small screen regions and short wordings; from 1280x720 up a screen keeps
    the TV's regions, pixel for pixel.

    >>> small_screen(800, 480), small_screen(1280, 720)
    (True, False)
    """
    return w < 1280 or h < 720



def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The bundled default font at ``size`` px, never below :data:`MIN_TEXT_PX` (cached;
    see :func:`reset_caches`)."""
    return _cached_font(_fonts, max(int(size), MIN_TEXT_PX), bold)


_any_fonts: dict[tuple[int, bool], pygame.font.Font] = {}


def _alive(f: pygame.font.Font) -> bool:
    """Whether ``f`` still works (a font made before ``pygame.quit()`` does not)."""
    try:
        f.get_height()
    except pygame.error:
        return False
    return True


#: At most this many fonts in each font cache (each holds FreeType's face and glyph caches,
#: some 100 KB): the screens ask for many sizes over a day (fit loops, sizes from the height).
#: 28 holds the 26 sizes warmed at start (:data:`COMMON_SIZES`, regular and bold) and the 22 a
#: game screen uses in ten seconds at most (bench/bench_soak.py's demo games).
FONTS_MAX = 28
_font_file: list[bytes] = []


def _default_font_data() -> io.BytesIO:
    """The bundled default font file, read once: a font made from memory holds no open file
    (one per size was an open file descriptor for as long as the arcade ran, issue 23)."""
    if not _font_file:
        path = os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())
        with open(path, "rb") as fh:
            _font_file.append(fh.read())
    return io.BytesIO(_font_file[0])


def _cached_font(cache: dict[tuple[int, bool], pygame.font.Font], size: int, bold: bool) -> pygame.font.Font:
    """The font of ``cache`` at ``(size, bold)``, made when missing or dead (after ``pygame.quit()``);
    the cache keeps the :data:`FONTS_MAX` used last."""
    key = (size, bold)
    f = cache.pop(key, None)
    if f is not None and not _alive(f):
        reset_caches()
        f = None
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        try:
            # pygame scales its default font to 0.6875 of the size asked (Font(None, size)): the same here
            f = pygame.font.Font(_default_font_data(), max(1, int(size * 0.6875)))
        except (OSError, pygame.error):          # no readable font file: pygame's own way
            f = pygame.font.Font(None, size)
        f.set_bold(bold)
        while len(cache) >= FONTS_MAX:
            del cache[next(iter(cache))]
    cache[key] = f                                # the newest last
    return f


def any_font(size: int, bold: bool = False) -> pygame.font.Font:
    """The bundled default font at exactly ``size`` px, even below :data:`MIN_TEXT_PX` (for
    words drawn small on a picture that is shown large; cached, see :func:`reset_caches`).
    Do not change its style: it is shared."""
    return _cached_font(_any_fonts, size, bold)


#: The text sizes (px) the screens use most.
COMMON_SIZES = (24, 26, 28, 30, 34, 36, 38, 40, 44, 48, 50, 56, 58)


def warm_up(sizes: Sequence[int] = COMMON_SIZES) -> None:
    """Make the fonts of ``sizes`` px, regular and bold, now (at start-up) instead of in the
    first frame of a screen that needs them (each is read from the package: about 0.5 ms)."""
    for size in sizes:
        font(size)
        font(size, True)


_LIBC: list[object | None] = []


def _libc() -> object | None:
    """glibc, for its allocator's settings (looked up once); None elsewhere (musl, macOS, Windows)."""
    if not _LIBC:
        lib: object | None = None
        try:
            import ctypes
            lib = ctypes.CDLL("libc.so.6")
        except OSError:
            lib = None
        _LIBC.append(lib if lib is not None and hasattr(lib, "malloc_trim") and hasattr(lib, "mallopt") else None)
    return _LIBC[0]


#: glibc's M_TRIM_THRESHOLD and M_MMAP_THRESHOLD (malloc.h).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3


def tune_memory() -> None:
    """Pictures of 64 kB and more (a screen's layers, photos, card faces) get memory of their
    own that goes back to the system when freed, and free memory at the top of the heap goes
    back above 1 MB (glibc; nothing elsewhere).  Without it glibc raises its threshold after the
    first large picture is freed and keeps the freed pictures' memory: RSS grew all day
    (issue 23)."""
    lib = _libc()
    if lib is not None:
        lib.mallopt(_M_MMAP_THRESHOLD, 64 * 1024)       # type: ignore[attr-defined]
        lib.mallopt(_M_TRIM_THRESHOLD, 1024 * 1024)     # type: ignore[attr-defined]


def release_freed_memory() -> None:
    """Give the memory freed inside the heap back to the system (glibc's ``malloc_trim``; a
    few ms): called when a screen goes, e.g. back to the title between games."""
    lib = _libc()
    if lib is not None:
        lib.malloc_trim(0)                              # type: ignore[attr-defined]


def reset_caches() -> None:
    """Forget cached fonts and pictures: fonts made before a ``pygame.quit()`` are dead.
    The bounds stay as :func:`fit_caches` set them."""
    _fonts.clear()
    _any_fonts.clear()
    _texts.clear()
    _narrowed.clear()
    _fitted.clear()
    for clear in _RESET:
        clear()


class SurfaceCache:
    """Pictures by key, at most ``max_bytes`` of pixels (width x height x bytes per pixel): the
    ones used least recently go first (issue 23: an arcade runs all day on a Pi's 1 GB).

    >>> c = SurfaceCache(1000)
    >>> c.get("a") is None
    True
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: dict[object, pygame.Surface] = {}

    @staticmethod
    def size_of(img: pygame.Surface) -> int:
        """The pixels' bytes of ``img``."""
        return int(img.get_width() * img.get_height() * img.get_bytesize())

    def get(self, key: object) -> pygame.Surface | None:
        img = self._items.pop(key, None)
        if img is not None:
            self._items[key] = img                # the newest last
        return img

    def put(self, key: object, img: pygame.Surface) -> pygame.Surface:
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= self.size_of(old)
        self._items[key] = img
        self.bytes += self.size_of(img)
        self._shrink()
        return img

    def resize(self, max_bytes: int) -> None:
        """A new bound (bytes): the pictures least recently used go until the rest fit."""
        self.max_bytes = max_bytes
        self._shrink()

    def _shrink(self) -> None:
        while self.bytes > self.max_bytes and len(self._items) > 1:
            first = next(iter(self._items))
            self.bytes -= self.size_of(self._items.pop(first))

    def clear(self) -> None:
        self._items.clear()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._items)

    def values(self) -> list[pygame.Surface]:
        return list(self._items.values())


#: A ruling id (R-3, FX-7, FXA-38, CO-4, SF-3, SL-3, SLA-1): the rules' own references, for the
#: docs and the log, never on a player's screen (:func:`plain`).
_RULING = r"\b(?:R|FXA?|CO|SF|SLA?)-\d+\b"
_RULING_GROUP = re.compile(r"\s*\(\s*" + _RULING + r"(?:\s*[,;/]\s*" + _RULING + r")*\s*\)")
_RULING_LEAD = re.compile(_RULING + r"\s*[:;,]\s*")
_RULING_BARE = re.compile(r"\s*(?:,\s*)?" + _RULING)
_plain: dict[str, str] = {}


def plain(msg: str) -> str:
    """``msg`` without ruling ids, as every text function here draws it: "(CO-4)" and
    "(R-8, FXA-39)" go, "(SF-3; 2-player variants)" keeps "(2-player variants)".

    >>> plain("only the exhibits are left in the grid: you both win (CO-4)")
    'only the exhibits are left in the grid: you both win'
    >>> plain("a swap (SF-3; 2-player variants), late (FX-7 grace)")
    'a swap (2-player variants), late (grace)'
    """
    if "-" not in msg:
        return msg
    out = _plain.get(msg)
    if out is None:
        out = _RULING_GROUP.sub("", msg)
        out = _RULING_LEAD.sub("", out)
        out = _RULING_BARE.sub("", out).replace("( ", "(").replace("()", "")
        if len(_plain) > 4096:
            _plain.clear()
        _plain[msg] = out
    return out


#: Rendered text by (message, size, bold, colour): most of a screen's words do not change
#: from one frame to the next, so each is rendered once; at most :data:`TEXTS_MAX_BYTES`,
#: and for a screen :data:`SCREENS_OF_PICTURES` of its pixels (:func:`fit_caches`).
TEXTS_MAX_BYTES = 6 * 2**20
_texts = SurfaceCache(TEXTS_MAX_BYTES)

#: The text and card caches each keep at most this share of the screen's own pixels (width x
#: height x 4 bytes): 2.6 MB each at 1280x720.  A screen of the demo games uses at most 1.4 MB
#: of text images and 1.2 MB of card faces at 1280x720 in ten seconds (bench/bench_soak.py),
#: so a screen's words and cards stay cached while a day's changing ones go (issue 23).
SCREENS_OF_PICTURES = 0.75

#: No cache is bounded below this (bytes): a tiny panel still keeps its words.
MIN_CACHE_BYTES = 1 * 2**20

#: Caches sized for the screen: (cache, share of the screen's pixel bytes, most bytes).
_SCREEN_CACHES: list[tuple[SurfaceCache, float, int]] = [(_texts, SCREENS_OF_PICTURES, TEXTS_MAX_BYTES)]
#: What :func:`reset_caches` empties besides this module's own caches (:func:`screen_cache`).
_RESET: list[Callable[[], None]] = []
#: The screen size (w, h px) :func:`fit_caches` last sized the caches for; a cache made later
#: (a game's module imported when its first game starts) is sized for it at once.
_screen_size: list[tuple[int, int]] = []


def _fit(cache: SurfaceCache, share: float, most: int, size: tuple[int, int]) -> None:
    cache.resize(max(MIN_CACHE_BYTES, min(most, int(size[0] * size[1] * 4 * share))))


def screen_cache(share: float, max_bytes: int, reset: bool = False) -> SurfaceCache:
    """A :class:`SurfaceCache` that :func:`fit_caches` sizes to ``share`` of the screen's pixel
    bytes (at least :data:`MIN_CACHE_BYTES`, at most ``max_bytes``); ``max_bytes`` until then,
    or at once for the screen of an earlier :func:`fit_caches`.  ``reset``: :func:`reset_caches`
    empties it too (a game's pictures drawn with this module's fonts, e.g. FocusX's card faces)."""
    cache = SurfaceCache(max_bytes)
    _SCREEN_CACHES.append((cache, share, max_bytes))
    if reset:
        _RESET.append(cache.clear)
    if _screen_size:
        _fit(cache, share, max_bytes, _screen_size[0])
    return cache


def fit_caches(size: tuple[int, int]) -> None:
    """Size every screen-sized cache (the text cache, a game's: FocusX card faces, Focus (2023) faces) for a
    screen of ``size`` (w, h px); pictures over a new bound go, the least recently used first.
    The text and card caches get 2764800 bytes each at 1280x720, 6220800 at 1920x1080."""
    _screen_size[:] = [(int(size[0]), int(size[1]))]
    for cache, share, most in _SCREEN_CACHES:
        _fit(cache, share, most, _screen_size[0])


def text_image(msg: str, size: int, colour: tuple[int, int, int], bold: bool = False) -> pygame.Surface:
    """``msg`` rendered (antialiased) at ``size`` px in ``colour`` (cached; do not draw on it)."""
    key = (msg, size, bold, tuple(colour))
    img = _texts.get(key)
    if img is None:
        img = _texts.put(key, font(size, bold).render(msg, True, colour))
    return img


def text(surface: pygame.Surface, msg: str, pos: tuple[int, int], size: int = 32,
         colour: tuple[int, int, int] = TEXT, anchor: str = "topleft", bold: bool = False) -> pygame.Rect:
    """Draw ``msg``; ``anchor`` is a pygame.Rect attribute name (``"center"``, ``"midtop"``...)."""
    msg = plain(msg)
    img = text_image(msg, size, colour, bold)
    rect = img.get_rect(**{anchor: pos})
    surface.blit(img, rect)
    if _recording:
        _recording[-1].append(("blit", img, rect))
    return rect


#: Squeezed lines (:func:`text_within`), at most this many bytes of pixels.
NARROWED_MAX_BYTES = 1 * 2**20
_narrowed = SurfaceCache(NARROWED_MAX_BYTES)


def text_within(surface: pygame.Surface, msg: str, pos: tuple[int, int], max_w: int, size: int = 32,
                colour: tuple[int, int, int] = TEXT, anchor: str = "topleft", bold: bool = False) -> pygame.Rect:
    """:func:`text`, squeezed to ``max_w`` px wide (smooth-scaled, whole) when it is wider."""
    msg = plain(msg)
    img = text_image(msg, size, colour, bold)
    if img.get_width() > max_w > 0:
        key = (msg, size, bold, tuple(colour), max_w)
        small = _narrowed.get(key)
        if small is None:
            small = _narrowed.put(key, pygame.transform.smoothscale(
                img, (max_w, max(8, img.get_height() * max_w // img.get_width()))))
        img = small
    rect = img.get_rect(**{anchor: pos})
    surface.blit(img, rect)
    if _recording:
        _recording[-1].append(("blit", img, rect))
    return rect


#: Between two figures of a line of figures ("races: 31   missed: 0   penalties: 86").
FIGURE_GAP = "   "
_FIGURE_SPLIT = re.compile(r"\s{3,}")


def figures(msg: str) -> list[str] | None:
    """The figures of ``msg`` when it is a line of figures: two or more "label: value" parts,
    three spaces or more apart (:data:`FIGURE_GAP`); else None.  A figure is never broken
    over two lines (:func:`wrap`): its label stays with its value.

    >>> figures("races: 31   missed: 0   penalties: 86")
    ['races: 31', 'missed: 0', 'penalties: 86']
    >>> figures("Press your buzzer to join.  Buzzer: tap = change") is None
    True
    """
    parts = [" ".join(p.split()) for p in _FIGURE_SPLIT.split(msg.strip())]
    if len(parts) < 2 or not all(":" in p for p in parts):
        return None
    return parts


def _units(msg: str) -> tuple[list[str], str]:
    """What :func:`wrap` may break ``msg`` between, and what joins them on a line: the figures
    of a line of figures (:func:`figures`), else the words."""
    parts = figures(msg)
    return (parts, FIGURE_GAP) if parts is not None else (msg.split(), " ")


def wrap(msg: str, max_w: int, size: int, rows: int, bold: bool = False) -> list[str]:
    """``msg`` broken at spaces into at most ``rows`` lines, each at most ``max_w`` px wide at
    ``size`` px where the words allow (greedy; the last line takes what is left, for
    :func:`text_within` to squeeze).  A line of figures (:func:`figures`) is broken between
    its figures only.  No line is empty; ``rows`` < 1 gives []."""
    msg = plain(msg)
    if rows < 1 or not msg:
        return []
    f = font(size, bold)
    lines: list[str] = []
    words, gap = _units(msg)
    while words and len(lines) < rows - 1:
        line = words.pop(0)
        while words and f.size(line + gap + words[0])[0] <= max_w:
            line += gap + words.pop(0)
        lines.append(line)
    if words:
        lines.append(gap.join(words))
    return lines


def veil(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """Declares that what is drawn over ``rect`` of ``surface`` from now on hides what is under
    it on purpose (a look-away veil, a dialog asking a question): the words under it are not
    "hidden" text (tests/text_fit.py).  Draws nothing."""


#: The least share of its natural width a squeezed line keeps (:func:`text_within`): below
#: it a line no longer reads from the viewing distance (the screen tests check it).
MIN_KEPT = 0.6


def text_best(surface: pygame.Surface, wordings: Sequence[str], pos: tuple[int, int], max_w: int,
              sizes: tuple[int, ...] = (MIN_TEXT_PX,), colour: tuple[int, int, int] = TEXT,
              anchor: str = "topleft", bold: bool = False) -> pygame.Rect:
    """Draw the first of ``wordings`` (clearest first, shorter ones after it) that is at most
    ``max_w`` px wide at one of ``sizes`` (px, largest first), at the largest size it fits;
    when none fits, the last wording at the smallest size squeezed to ``max_w``
    (:func:`text_within`).  Never cut; returns the drawn area.  Raises ValueError for no
    wordings or no sizes."""
    wordings = [plain(w) for w in wordings]
    if not wordings or not sizes:
        raise ValueError("text_best: give at least one wording and one size")
    for msg in wordings:
        for size in sizes:
            if font(size, bold).size(msg)[0] <= max_w:
                return text(surface, msg, pos, size, colour, anchor, bold)
    return text_within(surface, wordings[-1], pos, max_w, sizes[-1], colour, anchor, bold)


def wrap_even(msg: str, max_w: int, size: int, rows: int, bold: bool = False) -> list[str]:
    """:func:`wrap`, but two lines are split at the space where the wider of them is
    narrowest (an even pair of lines: a hint reads "choose:" / "left/right, OK")."""
    msg = plain(msg)
    lines = wrap(msg, max_w, size, rows, bold)
    if len(lines) != 2:
        return lines
    f = font(size, bold)
    words, gap = _units(msg)
    first, second = min(((gap.join(words[:i]), gap.join(words[i:])) for i in range(1, len(words))),
                        key=lambda p: max(f.size(p[0])[0], f.size(p[1])[0]))
    return [first, second]


def text_lines(surface: pygame.Surface, msg: str, pos: tuple[int, int], max_w: int, rows: int,
               size: int = MIN_TEXT_PX, colour: tuple[int, int, int] = TEXT, anchor: str = "topleft",
               bold: bool = False) -> pygame.Rect:
    """Draw ``msg`` word-wrapped (:func:`wrap`) onto at most ``rows`` lines of ``size`` px, one
    under the other from ``pos`` (``anchor``'s x: "topleft", "midtop" or "topright"), each at
    most ``max_w`` px wide (a line still wider is squeezed, :func:`text_within`).  Two lines
    are split where the wider of them is narrowest ("choose:" / "left/right, OK", not
    "choose: left/right," / "OK").  Returns the area drawn (an empty rect at ``pos`` for no
    text or ``rows`` < 1)."""
    msg = plain(msg)
    x, y = pos
    drawn = pygame.Rect(x, y, 0, 0)
    step = font(size, bold).get_linesize()
    for i, line in enumerate(wrap_even(msg, max_w, size, rows, bold)):
        r = text_within(surface, line, (x, y + i * step), max_w, size, colour, anchor, bold)
        drawn = r if i == 0 else drawn.union(r)
    return drawn


#: Line breaks and sizes found by :func:`fit_lines` (bounded; cleared with the fonts).
_fitted: dict[tuple[str, int, int, int, bool, int], tuple[int, tuple[str, ...]]] = {}


def fit_lines(msg: str, max_w: int, size: int, rows: int = 2, bold: bool = False,
              min_size: int = MIN_TEXT_PX) -> tuple[int, tuple[str, ...]]:
    """How ``msg`` is set in at most ``rows`` lines of at most ``max_w`` px: (size in px, lines).

    In this order: one line at the largest size from ``size`` down to ``min_size`` (never
    below :data:`MIN_TEXT_PX`) that fits; else the fewest lines (2 .. ``rows``, broken at spaces
    by :func:`wrap`) at the largest size where every line fits; else ``min_size`` in ``rows``
    lines, a line may stay wider for :func:`text_within` to squeeze.  Cached by its arguments
    (a few font measurements the first time; a dictionary look-up afterwards).

    >>> fit_lines("", 100, 30)
    (30, ())
    """
    msg = plain(msg)
    min_size = max(min_size, MIN_TEXT_PX)
    size = max(size, min_size)
    key = (msg, max_w, size, rows, bold, min_size)
    got = _fitted.get(key)
    if got is not None:
        return got
    if not msg:
        return size, ()
    sizes = range(size, min_size - 1, -1)
    found: tuple[int, tuple[str, ...]] | None = None
    for s in sizes:
        if font(s, bold).size(msg)[0] <= max_w:
            found = (s, (msg,))
            break
    for n in range(2, max(rows, 1) + 1):
        if found is not None:
            break
        for s in sizes:
            lines = wrap(msg, max_w, s, n, bold)
            if all(font(s, bold).size(line)[0] <= max_w for line in lines):
                found = (s, tuple(lines))
                break
    if found is None:
        found = (min_size, tuple(wrap(msg, max_w, min_size, max(rows, 1), bold)))
    if len(_fitted) >= 1024:
        _fitted.clear()
    _fitted[key] = found
    return found


def fits(msg: str, max_w: int, size: int, rows: int = 2, bold: bool = False) -> bool:
    """Whether :func:`fit_lines` sets ``msg`` in ``rows`` lines of ``max_w`` px without
    squeezing any (at ``size`` px or smaller, not below :data:`MIN_TEXT_PX`)."""
    msg = plain(msg)
    s, lines = fit_lines(msg, max_w, size, rows, bold)
    return all(font(s, bold).size(line)[0] <= max_w for line in lines)


def line_height(size: int, bold: bool = False) -> int:
    """The height (px) of one line of text at ``size`` px (the font's line spacing)."""
    return int(font(size, bold).get_linesize())


def lines_height(msg: str, max_w: int, size: int, rows: int = 2, bold: bool = False) -> int:
    """The height (px) :func:`text_block` takes for ``msg`` (0 for no text)."""
    msg = plain(msg)
    s, lines = fit_lines(msg, max_w, size, rows, bold)
    if not lines:
        return 0
    return line_height(s, bold) * len(lines)


def text_block(surface: pygame.Surface, msg: str, pos: tuple[int, int], max_w: int, size: int = 32,
               rows: int = 2, colour: tuple[int, int, int] = TEXT, anchor: str = "midtop", bold: bool = False,
               min_size: int = MIN_TEXT_PX) -> pygame.Rect:
    """Draw ``msg`` set by :func:`fit_lines` (smaller, then wrapped, then squeezed a little
    by :func:`text_within`; never cut): unlike :func:`text_lines` (a fixed size, wrapped) the
    size comes down first and the line count follows what is needed.  ``anchor`` places the whole block of lines as a
    pygame.Rect attribute would (``"midtop"``, ``"topleft"``, ``"center"``...), each line aligned
    the same way (left, centre or right).  Returns the area drawn (empty at ``pos`` for no text)."""
    msg = plain(msg)
    s, lines = fit_lines(msg, max_w, size, rows, bold, min_size)
    if not lines:
        return pygame.Rect(pos, (0, 0))
    step = line_height(s, bold)
    f = font(s, bold)
    # a line's picture is a line spacing high: one line goes where text() puts it
    block = pygame.Rect(0, 0, min(max_w, max(f.size(line)[0] for line in lines)), step * len(lines))
    setattr(block, anchor, pos)
    side = "left" if anchor.endswith("left") else "right" if anchor.endswith("right") else "centerx"
    x = getattr(block, side)
    line_anchor = {"left": "topleft", "right": "topright", "centerx": "midtop"}[side]
    drawn = pygame.Rect(block.topleft, (0, 0))
    for i, line in enumerate(lines):
        r = text_within(surface, line, (x, block.y + i * step), max_w, s, colour, line_anchor, bold)
        drawn = r if i == 0 else drawn.union(r)
    return drawn


def fit_size(msg: str, max_w: int, sizes: tuple[int, ...] = (56, 48, 40, 34, 28), bold: bool = False) -> int:
    """The largest of ``sizes`` (px, largest first) at which ``msg`` is at most ``max_w`` px wide;
    the smallest if none fits."""
    msg = plain(msg)
    for size in sizes:
        if font(size, bold).size(msg)[0] <= max_w:
            return size
    return sizes[-1]


def text_fit(surface: pygame.Surface, msg: str, pos: tuple[int, int], max_w: int, size: int = 20,
             min_size: int = 15, colour: tuple[int, int, int] = TEXT, bold: bool = False) -> pygame.Rect:
    """Draw ``msg`` centred under ``pos`` (midtop) within ``max_w`` px, never cut: the font
    shrinks by up to 2 px, then the text goes onto two lines split at a space (shrinking
    down to ``min_size`` if needed): "computer (medium)" stays whole.  Returns the drawn area."""
    msg = plain(msg)
    sizes = tuple(range(size, min_size - 1, -1))
    one_line = sizes[:3]                       # shrink a little on one line, then wrap (readable from 3 m)
    fitted = fit_size(msg, max_w, one_line if " " in msg else sizes, bold)
    if font(fitted, bold).size(msg)[0] <= max_w or " " not in msg:
        return text(surface, msg, pos, fitted, colour, "midtop", bold)
    words, gap = _units(msg)
    if len(words) < 2:
        return text(surface, msg, pos, fitted, colour, "midtop", bold)
    f = font(size, bold)
    first, second = min(((gap.join(words[:i]), gap.join(words[i:])) for i in range(1, len(words))),
                        key=lambda p: max(f.size(p[0])[0], f.size(p[1])[0]))
    fitted = min(fit_size(first, max_w, sizes, bold), fit_size(second, max_w, sizes, bold))
    r1 = text(surface, first, pos, fitted, colour, "midtop", bold)
    r2 = text(surface, second, (pos[0], r1.bottom), fitted, colour, "midtop", bold)
    return r1.union(r2)


#: The colour key of the corner tiles (never a colour the screens draw with).
_CORNER_KEY = (255, 0, 254)
_corners: dict[tuple[int, tuple[int, ...]], tuple[pygame.Surface, ...]] = {}


def _corner_tiles(radius: int, colour: tuple[int, ...]) -> tuple[pygame.Surface, ...]:
    """The four ``radius`` x ``radius`` corners (top left, top right, bottom left, bottom right)
    of pygame's filled rounded rectangle in ``colour``, see-through outside it (cached)."""
    key = (radius, tuple(colour))
    tiles = _corners.get(key)
    if tiles is None:
        n = 4 * radius + 4
        ref = pygame.Surface((n, n))
        ref.fill(_CORNER_KEY)
        pygame.draw.rect(ref, colour, ref.get_rect(), border_radius=radius)
        out = []
        for x, y in ((0, 0), (n - radius, 0), (0, n - radius), (n - radius, n - radius)):
            tile = pygame.Surface((radius, radius))
            tile.blit(ref, (0, 0), pygame.Rect(x, y, radius, radius))
            tile.set_colorkey(_CORNER_KEY)
            out.append(tile)
        if len(_corners) > 256:
            _corners.clear()
        tiles = _corners[key] = tuple(out)
    return tiles


def round_rect(surface: pygame.Surface, colour: tuple[int, int, int], rect: pygame.Rect, radius: int) -> None:
    """The same pixels as ``pygame.draw.rect(surface, colour, rect, border_radius=radius)``
    (filled, opaque ``colour``), drawn as two fills and four cached corner tiles: a rounded
    panel costs a fill instead of a row-by-row drawing."""
    rect = pygame.Rect(rect)
    if len(colour) != 3 or tuple(colour) == _CORNER_KEY or rect.w <= 0 or rect.h <= 0:
        pygame.draw.rect(surface, colour, rect, border_radius=radius)
        return
    r = min(radius, rect.w // 2, rect.h // 2)
    if r <= 0:
        surface.fill(colour, rect)
        return
    surface.fill(colour, (rect.x, rect.y + r, rect.w, rect.h - 2 * r))        # no pixel filled twice
    surface.fill(colour, (rect.x + r, rect.y, rect.w - 2 * r, r))
    surface.fill(colour, (rect.x + r, rect.bottom - r, rect.w - 2 * r, r))
    tl, tr, bl, br = _corner_tiles(r, colour)
    surface.fblits(((tl, rect.topleft), (tr, (rect.right - r, rect.y)), (bl, (rect.x, rect.bottom - r)),
                    (br, (rect.right - r, rect.bottom - r))))


def panel(surface: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int] = PANEL,
          border: tuple[int, int, int] | None = None, width: int = 3) -> None:
    _panel_pixels(surface, rect, colour, border, width)
    if _recording:
        _recording[-1].append(("panel", (colour, border, width), pygame.Rect(rect)))


def _panel_pixels(surface: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int],
                  border: tuple[int, int, int] | None, width: int) -> None:
    """:func:`panel`'s drawing (unrecorded: :func:`replay` draws a recorded panel with it)."""
    pygame.draw.rect(surface, colour, rect, border_radius=12)
    if border:
        pygame.draw.rect(surface, border, rect, width, border_radius=12)


def empty_spot(surface: pygame.Surface, rect: pygame.Rect, label: str) -> None:
    pygame.draw.rect(surface, PANEL_LIGHT, rect, 3, border_radius=12)
    text(surface, label, rect.center, max(18, rect.h // 6), DIM, "center")


def ring(surface: pygame.Surface, centre: tuple[int, int], radius: int, fraction: float,
         colour: tuple[int, int, int], width: int = 6) -> None:
    """A countdown ring: ``fraction`` (0..1) of the circle drawn, clockwise from the top."""
    fraction = max(0.0, min(1.0, fraction))
    if fraction <= 0:
        return
    rect = pygame.Rect(0, 0, radius * 2, radius * 2)
    rect.center = centre
    start = math.pi / 2
    pygame.draw.arc(surface, colour, rect, start, start + 2 * math.pi * fraction, width)


_LINEAR_TO_SRGB = [0] + [min(255, round(255 * (1.055 * (v / 255) ** (1 / 2.4) - 0.055)))
                         if v / 255 > 0.0031308 else round(255 * 12.92 * v / 255) for v in range(1, 256)]


#: The linear -> sRGB table as a bytes.translate table (the same numbers as ``_LINEAR_TO_SRGB``).
_SRGB_TABLE = bytes(_LINEAR_TO_SRGB)
LED_OFF = (24, 24, 28)          # an unlit LED on the TV
LED_BACK = (8, 8, 10)           # the panel between the LEDs


class _LedCache:
    """The last composed matrix picture, its surfaces and the panel masks, so a new picture
    costs a scale and one colour-keyed blit, and an unchanged one a blit."""

    picture: object = None
    key: tuple[int, ...] = ()
    surface: pygame.Surface | None = None        # the composed matrix (w * cell x h * cell)
    lit: pygame.Surface | None = None            # one pixel per LED (w x h)
    masks: dict[tuple[int, int, int, int], pygame.Surface] = {}


#: The colour of the holes in the panel mask (never the panel's own colour).
_HOLE = (255, 0, 255)


def _led_mask(w: int, h: int, cell: int, rad: int) -> pygame.Surface:
    """The panel between the LEDs: :data:`LED_BACK` with a see-through disc (colour key
    :data:`_HOLE`) of radius ``rad`` at the centre of every ``cell`` x ``cell`` square (cached)."""
    key = (w, h, cell, rad)
    m = _LedCache.masks.get(key)
    if m is None:
        tile = pygame.Surface((cell, cell))
        tile.fill(LED_BACK)
        pygame.draw.circle(tile, _HOLE, (cell // 2, cell // 2), rad)
        row = pygame.Surface((w * cell, cell))
        row.fblits([(tile, (x * cell, 0)) for x in range(w)])
        m = pygame.Surface((w * cell, h * cell))
        m.fblits([(row, (0, y * cell)) for y in range(h)])
        m.set_colorkey(_HOLE, pygame.RLEACCEL)
        if len(_LedCache.masks) > 8:
            _LedCache.masks.clear()
        _LedCache.masks[key] = m
    return m


def _led_surface(rows: Sequence[Sequence[tuple[int, int, int]]], w: int, h: int, cell: int,
                 rad: int) -> pygame.Surface:
    """The matrix as the TV shows it: every LED a disc of its colour (linear -> sRGB), unlit
    ones dim, on the dark panel.  One pixel per LED, scaled up into a kept surface, then the
    panel mask over it (one colour-keyed blit): no drawing per LED."""
    raw = getattr(rows, "raw", None)             # firmware_bridge.virtual.LedPicture: the bytes as sent
    if not isinstance(raw, bytes) or len(raw) != w * h * 3:
        raw = bytes(chain.from_iterable(chain.from_iterable(rows)))
    if len(raw) != w * h * 3:
        raise ValueError(f"LED picture: expected {w} x {h} RGB pixels")
    small = pygame.image.frombuffer(raw.translate(_SRGB_TABLE), (w, h), "RGB")
    small.set_colorkey((0, 0, 0))                # only LEDs that are fully off are black here
    lit = _LedCache.lit
    if lit is None or lit.get_size() != (w, h):
        lit = _LedCache.lit = pygame.Surface((w, h))
    lit.fill(LED_OFF)
    lit.blit(small, (0, 0))
    big = _LedCache.surface
    if big is None or big.get_size() != (w * cell, h * cell):
        big = pygame.Surface((w * cell, h * cell))
    pygame.transform.scale(lit, (w * cell, h * cell), big)
    big.blit(_led_mask(w, h, cell, rad), (0, 0))
    return big


def _led_image(rect: pygame.Rect, picture: object) -> tuple[pygame.Surface, int, int] | None:
    """The composed matrix of ``picture`` for ``rect`` and where it goes (None: no picture)."""
    rows = picture if picture else []
    if not rows:
        return None
    h = len(rows)  # type: ignore[arg-type]
    w = len(rows[0])  # type: ignore[index]
    cell = max(1, int(min(rect.w / w, rect.h / h)))
    rad = max(1, int(cell * 0.42))
    key = (w, h, cell, rad)
    if _LedCache.picture is not picture or _LedCache.key != key or _LedCache.surface is None:
        _LedCache.surface = _led_surface(rows, w, h, cell, rad)  # type: ignore[arg-type]
        _LedCache.picture = picture
        _LedCache.key = key
    img = _LedCache.surface
    return img, rect.x + (rect.w - img.get_width()) // 2, rect.y + (rect.h - img.get_height()) // 2


def led_lights_rect(rect: pygame.Rect, picture: object) -> pygame.Rect | None:
    """Where :func:`led_matrix_lights` draws the LEDs of ``picture`` in ``rect`` (None: none)."""
    placed = _led_image(rect, picture)
    if placed is None:
        return None
    img, x, y = placed
    return pygame.Rect(x, y, img.get_width(), img.get_height())


def led_matrix_lights(surface: pygame.Surface, rect: pygame.Rect, picture: object) -> pygame.Rect | None:
    """Only the LEDs of :func:`led_matrix` (the panel around them left as it is): where they
    are, or None for no picture (nothing drawn).  A screen that keeps its parts draws the
    matrix's panel with the rest and the lights as their own part."""
    placed = _led_image(rect, picture)
    if placed is None:
        return None
    img, x, y = placed
    surface.blit(img, (x, y))
    return pygame.Rect(x, y, img.get_width(), img.get_height())


def led_matrix(surface: pygame.Surface, rect: pygame.Rect, picture: object) -> None:
    """Draw a virtual LED matrix (rows of (r, g, b)) filling ``rect``.

    LED PWM is linear light and LEDs are far brighter than a screen pixel, so the
    TV shows what a person would see (linear -> sRGB) and dim, current-limited
    frames stay visible.  The picture is composed once per new picture (a scale of
    one pixel per LED and one colour-keyed blit of a cached panel mask, about 0.2 ms
    at 64 x 64 in a 480 x 480 box); a frame with the same picture object blits the
    kept result.
    """
    placed = _led_image(rect, picture)
    if placed is None:
        round_rect(surface, LED_BACK, rect, 8)
        text(surface, _("no LED frame"), rect.center, 22, DIM, "center")
        return
    img, x, y = placed
    r = min(8, rect.w // 2, rect.h // 2)
    iw, ih = img.get_size()
    if r > 0 and min(x - rect.x, y - rect.y, rect.right - x - iw, rect.bottom - y - ih) >= r:
        # The panel around the matrix only (the matrix covers the rest): its four rounded
        # corners, then the bands above, below and beside the matrix.
        tl, tr, bl, br = _corner_tiles(r, LED_BACK)
        surface.fblits(((tl, rect.topleft), (tr, (rect.right - r, rect.y)), (bl, (rect.x, rect.bottom - r)),
                        (br, (rect.right - r, rect.bottom - r))))
        surface.fill(LED_BACK, (rect.x + r, rect.y, rect.w - 2 * r, y - rect.y))
        surface.fill(LED_BACK, (rect.x + r, y + ih, rect.w - 2 * r, rect.bottom - y - ih))
        surface.fill(LED_BACK, (rect.x, rect.y + r, x - rect.x, rect.h - 2 * r))
        surface.fill(LED_BACK, (x + iw, rect.y + r, rect.right - x - iw, rect.h - 2 * r))
    else:
        round_rect(surface, LED_BACK, rect, 8)
    surface.blit(img, (x, y))


# -- a drawing recorded to be drawn again under a clip (issue 22) ---------------------------

#: One step of a recorded drawing: (kind, what, rect on the surface drawn on); kinds "blit"
#: (what: the picture) and "panel" (what: :func:`panel`'s colour, border and width).
Op = tuple[str, object, pygame.Rect]
_recording: list[list[Op]] = []


class Recording:
    """What :func:`text`, :func:`text_within` (and so every text drawing) and :func:`panel`
    draw inside ``with Recording() as ops:`` (the steps in :attr:`ops`, in order), to be drawn
    again in a part of the screen only (:func:`replay`): the words over something that moves
    (the title's drifting cards) need not be laid out again where it moved."""

    def __init__(self) -> None:
        self.ops: list[Op] = []

    def __enter__(self) -> list[Op]:
        _recording.append(self.ops)
        return self.ops

    def __exit__(self, *exc: object) -> None:
        _recording.remove(self.ops)


def replay(surface: pygame.Surface, ops: Sequence[Op], area: pygame.Rect) -> None:
    """Draw again the steps of ``ops`` that reach ``area`` (the caller clips ``surface`` to
    it): within it, the same pixels as the recorded drawing."""
    for kind, what, rect in ops:
        if not rect.colliderect(area):
            continue
        if kind == "blit":
            surface.blit(what, rect)  # type: ignore[arg-type]
        else:
            colour, border, width = typing.cast("tuple[tuple[int, int, int], tuple[int, int, int] | None, int]", what)
            _panel_pixels(surface, rect, colour, border, int(width))


def ops_area(ops: Sequence[Op]) -> pygame.Rect | None:
    """The area the steps of ``ops`` drew in (None: none)."""
    return ops[0][2].unionall([r for _k, _w, r in ops[1:]]) if ops else None


# -- parts of a screen kept between frames (issue 14) ----------------------------------------

#: False: every part of every screen is drawn every frame, as before parts were kept (the
#: tests draw both ways and compare the pixels).
KEEP_PARTS = True


class _Screen:
    generation = 0          # bumped when everything on the screen must be drawn again


def redraw_everything() -> None:
    """The next frame draws every part of every screen again (something was drawn over the
    parts, or went away: a dialog, a message, another scene)."""
    _Screen.generation += 1


class Parts:
    """The parts of one scene's screen, each drawn again only when what it shows changes.

    A frame starts with :meth:`begin`: True means everything is drawn this frame (the first
    frame, a new window size, or :func:`redraw_everything`): the scene fills the background
    and draws what never changes.  Then each :meth:`part` names a rectangle, a key and a
    drawing: the drawing runs (clipped to the rectangle, over a fresh ``background``) only
    when the key differs from the one last drawn there; else the screen keeps last frame's
    pixels.  Rules for a scene: parts do not overlap, nothing else draws inside a part's
    rectangle, the part's drawing depends only on its key (immutable values: tuples, numbers,
    strings), and the background under a part is a plain ``background`` fill (or, with
    ``background`` None, the part's drawing covers its whole rectangle itself and may keep the
    pixels it knows are already right: see :attr:`full`).
    """

    def __init__(self) -> None:
        self._shown: dict[str, tuple[object, ...]] = {}
        self._seen: tuple[int, int, tuple[int, int]] | None = None
        self.full = True

    def begin(self, surface: pygame.Surface) -> bool:
        """Start a frame on ``surface``; True: draw everything (see the class)."""
        if not KEEP_PARTS:
            self.full = True                 # and what was kept stays as it was
            return True
        seen = (_Screen.generation, id(surface), surface.get_size())
        self.full = seen != self._seen
        if self.full:
            self._shown.clear()
            self._seen = seen
        return self.full

    def forget(self, name: str) -> bool:
        """Part ``name`` is no longer on the screen (something else is drawn over it); True
        if it was."""
        return self._shown.pop(name, None) is not None

    def part(self, surface: pygame.Surface, name: str, rect: pygame.Rect, key: object,
             draw: "Callable[[], object]", background: tuple[int, int, int] | None = BG) -> bool:
        """Draw part ``name`` in ``rect`` if ``key`` changed since it was last drawn (True: drawn).
        ``background`` None: no fill first (the drawing covers ``rect``)."""
        if not KEEP_PARTS:
            draw()
            return True
        rect = pygame.Rect(rect)
        mark = (rect.x, rect.y, rect.w, rect.h, key)
        if not self.full and self._shown.get(name) == mark:
            return False
        self._shown[name] = mark
        clip = surface.get_clip()
        surface.set_clip(rect.clip(clip))
        try:
            if not self.full and background is not None:
                surface.fill(background, rect)
            draw()
        finally:
            surface.set_clip(clip)
        return True


def frozen(value: object, depth: int = 3) -> object:
    """``value`` as an immutable, comparable key for :class:`Parts`: lists, sets, dicts and
    plain objects (their attributes) become tuples, ``depth`` levels deep; deeper, or pygame
    surfaces and functions, stand by their identity.

    >>> frozen([1, {2}, [None, "x"]])
    (1, (2,), (None, 'x'))
    >>> frozen({"b": [1], "a": 2}) == frozen({"a": 2, "b": [1]})
    True
    """
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return value
    if depth <= 0 or isinstance(value, pygame.Surface) or callable(value):
        return ("id", id(value))
    if isinstance(value, (list, tuple)):
        return tuple(frozen(v, depth - 1) for v in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted((frozen(v, depth - 1) for v in value), key=repr))
    if isinstance(value, dict):
        return tuple(sorted(((repr(k), frozen(v, depth - 1)) for k, v in value.items())))
    attrs = getattr(value, "__dict__", None)
    if attrs is None:
        return ("id", id(value))
    return (type(value).__name__,) + tuple((k, frozen(v, depth - 1)) for k, v in sorted(attrs.items()))
