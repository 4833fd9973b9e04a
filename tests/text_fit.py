"""What a player notices of the text on a screen: every line drawn whole, inside the part of
the screen it belongs to, and squeezed a little at most (the words as drawn: without ruling
ids, ``kiosk.render.plain``); still to be seen when the frame is done (nothing drawn over it
later: an app note, a dialog, a highlight); and no figure of a line of figures
("penalties: 86") broken over two lines.

:class:`TextSeen` records every ``kiosk.render.text`` and ``text_within`` call (the words, the
rect drawn, the clip it was drawn under: the part's rect, and how much of its natural width it
kept, and the pixels of its letters as drawn), the blocks of lines drawn for one message, and
the veils declared (``kiosk.render.veil``: what is drawn over them hides the screen on
purpose).  :func:`cut_texts` lists the lines cut or squeezed, :func:`hidden_texts` the lines
drawn over afterwards, :func:`split_figures` the figures broken over two lines;
:func:`text_faults` all three.

The text-fit tests run in every language the arcade speaks (issue 26): the fixture
``language`` (:func:`language_fixture`: import it into a test module and name it) speaks each of
:data:`LANGUAGES` in turn, compiling a catalog whose ``.mo`` is missing or older than its ``.po``
(Babel's API, as the build does), and English again after the test."""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, Iterator

import pygame
import pytest

from arcade import i18n
from kiosk import render

#: A line squeezed to less than this share of its natural width no longer reads from 3 m.
MIN_KEPT = 0.6

#: The languages every text-fit test runs in: each of the arcade's (``arcade.i18n.LANGUAGES``).
LANGUAGES = tuple(i18n.LANGUAGES)


def compiled(code: str) -> None:
    """Make sure the catalog of language ``code`` is compiled: its ``.mo`` written from its ``.po``
    (``arcade.i18n.compile_catalog``, the project's one compiler) when missing or older; English
    needs none.  The catalog, and its translator, are read afresh."""
    if code == i18n.SOURCE:
        return
    mo = i18n.catalog_path(code)
    po = mo.with_suffix(".po")
    assert po.exists(), f"no catalog for {code!r}: {po}"
    if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
        i18n.compile_catalog(po, mo)          # whole or not at all (tests may run side by side)
    i18n.forget_catalogs()


@contextmanager
def speaking(code: str, monkeypatch: pytest.MonkeyPatch | None = None) -> Iterator[str]:
    """The arcade speaks ``code`` inside the block (its catalog compiled first), English after.
    With ``monkeypatch``, the system's locale asks for it too (``LANGUAGE``): an arcade made in
    the block whose configuration says nothing speaks it as well."""
    compiled(code)
    if monkeypatch is not None:
        monkeypatch.setenv("LANGUAGE", code)
    i18n.use(code)
    try:
        yield code
    finally:
        i18n.use(i18n.SOURCE)


@pytest.fixture(params=LANGUAGES, name="language")
def language_fixture(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The fixture ``language``: each of the arcade's languages in turn (see :func:`speaking`);
    a test module imports it (``from tests.text_fit import language_fixture``) and names
    ``language``."""
    with speaking(request.param, monkeypatch) as code:
        yield code


class _Lines(list):  # type: ignore[type-arg]
    """The lines seen; ``clear()`` (a new frame) forgets what was kept with them too."""

    def __init__(self, on_clear: Any) -> None:
        super().__init__()
        self._on_clear = on_clear

    def clear(self) -> None:
        super().clear()
        self._on_clear()


class TextSeen:
    """Every text drawn while it is installed: (words, rect drawn, clip at the time, kept)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, ink: bool = True) -> None:
        """``ink`` False: the letters' pixels are not kept (:attr:`ink` holds None for every
        line), for a test that reads only the lines' rects (:func:`cut_texts`,
        :func:`split_figures`): keeping them was most of such a test's time (issue 22)."""
        self.keep_ink = ink
        self.seen: list[tuple[str, pygame.Rect, pygame.Rect, float]] = _Lines(self._forget)
        text, within = render.text, render.text_within

        def seen_text(surface: pygame.Surface, msg: str, pos: Any, size: int = 32, colour: Any = render.TEXT,
                      anchor: str = "topleft", bold: bool = False) -> pygame.Rect:
            r = text(surface, msg, pos, size, colour, anchor, bold)
            self._saw(surface, render.plain(msg), r, 1.0)
            return r

        def seen_within(surface: pygame.Surface, msg: str, pos: Any, max_w: int, size: int = 32,
                        colour: Any = render.TEXT, anchor: str = "topleft", bold: bool = False) -> pygame.Rect:
            r = within(surface, msg, pos, max_w, size, colour, anchor, bold)
            shown = render.plain(msg)           # what is drawn: the words without ruling ids
            self._saw(surface, shown, r, r.w / max(1, render.font(size, bold).size(shown)[0]))
            return r

        monkeypatch.setattr(render, "text", seen_text)
        monkeypatch.setattr(render, "text_within", seen_within)
        self._screen: pygame.Surface | None = None
        #: per line of :attr:`seen`: (the rect on screen still visible when drawn, its pixels
        #: then, the letters' mask over the line's rect), or None (off screen, nothing visible)
        self.ink: list[tuple[pygame.Rect, pygame.Surface, pygame.mask.Mask] | None] = []
        #: the veils declared: (how many lines were seen before it, its rect on screen)
        self.veils: list[tuple[int, pygame.Rect]] = []
        #: the blocks of lines drawn for one message: (message, first line, end) in :attr:`seen`
        self.blocks: list[tuple[str, int, int]] = []

        def seen_veil(surface: pygame.Surface, rect: pygame.Rect) -> None:
            where = self._on_screen(surface)
            if where is not None:
                self.veils.append((len(self.seen), pygame.Rect(rect).move(where)))

        monkeypatch.setattr(render, "veil", seen_veil, raising=False)
        for name in ("text_block", "text_lines", "text_fit"):
            monkeypatch.setattr(render, name, self._block(getattr(render, name)))

    def _block(self, draw: Any) -> Any:
        def block(surface: pygame.Surface, msg: str, *args: Any, **kwargs: Any) -> pygame.Rect:
            first = len(self.seen)
            r = draw(surface, msg, *args, **kwargs)
            self.blocks.append((render.plain(msg), first, len(self.seen)))
            return r  # type: ignore[no-any-return]
        return block

    def clear(self) -> None:
        """Forget what was seen (a new frame)."""
        self.seen.clear()

    def _forget(self) -> None:
        self.ink.clear()
        self.veils.clear()
        self.blocks.clear()

    def watch(self, screen: pygame.Surface) -> None:
        """Only what is drawn on ``screen`` (or a part of it: a subsurface) counts, not the
        pictures made off screen."""
        self._screen = screen

    def _on_screen(self, surface: pygame.Surface) -> tuple[int, int] | None:
        """Where ``surface``'s top left is on the screen watched (None: not on it)."""
        if self._screen is None or surface is self._screen:
            return (0, 0)
        if surface.get_parent() is not None and surface.get_abs_parent() is self._screen:
            return surface.get_abs_offset()
        return None

    def _saw(self, surface: pygame.Surface, msg: str, r: pygame.Rect, kept: float) -> None:
        where = self._on_screen(surface)
        if where is None:
            return
        r = pygame.Rect(r).move(where)
        clip = surface.get_clip().move(where)
        self.seen.append((msg, r, clip, kept))
        screen = self._screen if self._screen is not None else surface
        vis = r.clip(clip).clip(screen.get_rect())
        if not self.keep_ink or not msg.strip() or vis.w <= 0 or vis.h <= 0 or r.w <= 0 or r.h <= 0:
            self.ink.append(None)
            return
        # the letters: the pixels of the picture drawn that are not the background's
        pixels = screen.subsurface(vis).copy()
        self.ink.append((vis, pixels, _letters(pixels, vis, r)))

    def words(self) -> str:
        return " | ".join(m for m, *_ in self.seen)


def _letters(pixels: pygame.Surface, vis: pygame.Rect, r: pygame.Rect) -> pygame.mask.Mask:
    """The letters' pixels in ``pixels`` (the part ``vis`` of a line drawn in ``r``): every
    pixel unlike the line's background colour, the commonest colour of its edge."""
    w, h = pixels.get_size()
    edge = [pixels.get_at((x, y))[:3] for x in range(0, w, max(1, w // 16)) for y in (0, h - 1)]
    bg = max(set(edge), key=edge.count)
    same = pygame.mask.from_threshold(pixels, bg, (40, 40, 40, 255))
    same.invert()
    return same


def _changed(a: pygame.Surface, b: pygame.Surface) -> pygame.mask.Mask:
    """The pixels that differ between ``a`` and ``b`` (of one size) by more than a little."""
    d1 = a.copy()
    d1.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d2 = b.copy()
    d2.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d1.blit(d2, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    same = pygame.mask.from_threshold(d1, (0, 0, 0), (40, 40, 40, 255))
    same.invert()
    return same


#: A line with more than this share of its letters drawn over afterwards is hidden.
MAX_HIDDEN = 0.2


def hidden_texts(seen: TextSeen, screen: pygame.Surface) -> dict[str, tuple[pygame.Rect, float]]:
    """The lines seen whose letters were drawn over afterwards (more than :data:`MAX_HIDDEN` of
    them differ on the finished ``screen``): an app note over a screen's words, a highlight over
    a tag.  A line under a veil declared after it (``kiosk.render.veil``) is left out: it is
    hidden on purpose.  Words -> (rect, share of its letters hidden)."""
    assert seen.keep_ink, "hidden_texts needs the letters: TextSeen(ink=True)"
    bad: dict[str, tuple[pygame.Rect, float]] = {}
    for i, (msg, r, _clip, _kept) in enumerate(seen.seen):
        got = seen.ink[i] if i < len(seen.ink) else None
        if got is None:
            continue
        vis, pixels, letters = got
        if any(at > i and v.contains(vis) for at, v in seen.veils):
            continue
        total = letters.count()
        if total < 8:
            continue
        now = screen.subsurface(vis)
        hidden = _changed(pixels, now).overlap_area(letters, (0, 0))
        if hidden > MAX_HIDDEN * total:
            bad.setdefault(msg, (r, round(hidden / total, 2)))
    return bad


def figures(msg: str) -> list[str] | None:
    """The figures of a line of figures: two or more "label: value" parts three spaces or
    more apart ("races: 31   missed: 0"), else None (the results' statistics, a hint of
    gestures "tap: next digit   hold: take it")."""
    parts = [" ".join(p.split()) for p in re.split(r"\s{3,}", msg.strip())]
    return parts if len(parts) >= 2 and all(":" in p for p in parts) else None


def split_figures(seen: TextSeen) -> dict[str, list[str]]:
    """The lines of figures (:func:`figures`: "races: 31   missed: 0") drawn as a block
    of lines that broke a figure over two lines ("missed:" / "0"): message -> lines drawn."""
    bad: dict[str, list[str]] = {}
    for msg, first, end in seen.blocks:
        parts = figures(msg)
        lines = [" ".join(m.split()) for m, *_ in seen.seen[first:end]]
        if parts is None or len(lines) < 2:
            continue
        for part in parts:
            words = part.split()
            if not any(part in line for line in lines) and any(words[0] in line for line in lines):
                bad.setdefault(msg, lines)
    return bad


def text_faults(seen: TextSeen, screen: pygame.Surface) -> dict[str, object]:
    """:func:`cut_texts`, :func:`hidden_texts` and :func:`split_figures` together, each fault
    named: words -> what is wrong."""
    out: dict[str, object] = {}
    for msg, cut in cut_texts(seen, screen).items():
        out[msg] = ("cut or squeezed", cut)
    for msg, hid in hidden_texts(seen, screen).items():
        out.setdefault(msg, ("drawn over", hid))
    for msg, lines in split_figures(seen).items():
        out.setdefault(msg, ("a figure broken over two lines", lines))
    return out


def cut_texts(seen: TextSeen, screen: pygame.Surface) -> dict[str, tuple[pygame.Rect, pygame.Rect, float]]:
    """The lines seen that were cut (outside the screen or their part's clip) or squeezed
    below :data:`MIN_KEPT`: words -> (rect, clip, kept)."""
    whole = screen.get_rect()
    bad: dict[str, tuple[pygame.Rect, pygame.Rect, float]] = {}
    for msg, r, clip, kept in seen.seen:
        if not msg.strip():
            continue
        inside = clip if clip.w and clip.h else whole
        if not (whole.contains(r) and inside.contains(r)) or kept < MIN_KEPT:
            bad.setdefault(msg, (r, clip, round(kept, 2)))
    return bad


def sized_app(tmp_path: Any, size: tuple[int, int]) -> Any:
    """An App on a ``size`` (w, h) px dummy screen: default config, results in ``tmp_path``, no
    LED link.  The caller closes it (``app.close()``, then ``pygame.display.quit()``)."""
    import argparse

    import kiosk.app.loop as kapp
    from kiosk.config import Config, validate

    pygame.init()
    screen = pygame.display.set_mode(size)
    raw = {"storage": {"path": str(tmp_path / "r.sqlite3")}, "led": {"port": "none"}}
    return kapp.App(Config(validate(raw)), screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))


def untranslated(seen: TextSeen) -> set[str]:
    """The lines seen, in a language other than English, that are a whole English message of
    the catalog drawn as it is (the screen forgot to translate it): empty in English."""
    if i18n.current() == i18n.SOURCE:
        return set()
    gettext = i18n.translator(i18n.current()).gettext
    out = set()
    for msg, *_ in seen.seen:
        words = msg.strip()
        if words and any(c.isalpha() for c in words) and gettext(words) != words:
            out.add(words)
    return out
