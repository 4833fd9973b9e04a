"""While the LED matrix is not connected, the screens a guest sees carry only a small "LED"
badge in a corner that covers nothing (issue 20: the "LED matrix searching..." line covered the
bottom of every screen all day: the lobby's countdown, the initials' hints, FOCUS's column
letters).  The whole line, with its advice, stays in the service menu (and ``doctor``).

Each frame is drawn twice from the same state, with the LED link's attention line and
without: the pixels that differ must lie in the badge, and under the badge (and a ring
around it) the frame without it must be one plain colour."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from test_event_day import BUZZ, MS, Day
from test_service_combo_buzzers import install_sh_config

from kiosk.app.led_badge import led_badge_rect
from kiosk.output.led import LedTrouble
from kiosk.persist.resume import start_game
from kiosk.scenes.lobby import LobbyScene, lobby_games
from kiosk.scenes.seats import SeatInfo
from kiosk.scenes.service.menu import ServiceScene

TROUBLE = LedTrouble("searching", "/dev/ttyACM0", "plug in the LED controller's USB cable (WLED or Adalight)")
LINE = "LED matrix searching (/dev/ttyACM0): plug in the LED controller's USB cable (WLED or Adalight)"
SIZES = [(480, 320), (800, 480), (1280, 720), (1920, 1080)]


def with_and_without(d: Day, monkeypatch: pytest.MonkeyPatch) -> tuple[pygame.Surface, pygame.Surface]:
    """The frame on screen drawn with the LED line and without it (drawing changes no state)."""
    monkeypatch.setattr(d.app.led, "attention", lambda: LINE)
    d.app.draw()
    shown = d.screen.copy()
    monkeypatch.setattr(d.app.led, "attention", lambda: None)
    d.app.draw()
    plain = d.screen.copy()
    monkeypatch.setattr(d.app.led, "attention", lambda: LINE)
    return shown, plain


def changed_area(a: pygame.Surface, b: pygame.Surface) -> pygame.Rect | None:
    """The bounding box of the pixels that differ, or None."""
    one, other = a.copy(), b.copy()
    one.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    other.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    one.blit(other, (0, 0), special_flags=pygame.BLEND_RGB_ADD)     # non-zero where they differ
    diff = pygame.mask.from_threshold(one, (0, 0, 0), (1, 1, 1, 255))
    diff.invert()
    rects = diff.get_bounding_rects()
    return rects[0].unionall(rects[1:]) if rects else None


def assert_covers_nothing(shown: pygame.Surface, plain: pygame.Surface, where: str) -> bool:
    """True when a badge is drawn; it must be small, in a corner, and over plain pixels."""
    area = changed_area(shown, plain)
    if area is None:
        return False                            # no corner was plain in this frame: no badge
    W, H = shown.get_size()
    assert area.w <= 80 and area.h <= 32, f"{where}: {area} is not a small badge"
    assert min(area.x, W - area.right) <= 40 and min(area.y, H - area.bottom) <= 40, f"{where}: {area} not in a corner"
    ring = area.inflate(6, 6).clip(plain.get_rect())
    sub = plain.subsurface(ring)
    colour = sub.get_at((0, 0))
    assert pygame.mask.from_threshold(sub, colour, (1, 1, 1, 255)).count() == ring.w * ring.h, \
        f"{where}: the badge at {area} covers something"
    return True


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_led_badge_covers_nothing_on_the_guests_screens(size: tuple[int, int], tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch, size=size)
    try:
        app = d.app
        badges = 0
        app.home()
        d.frames(3)
        badges += assert_covers_nothing(*with_and_without(d, monkeypatch), "title")
        d.press(BUZZ[0])                                     # a guest joins: the lobby's countdown runs
        assert isinstance(d.top, LobbyScene)
        d.frames(20, 100 * MS)
        badges += assert_covers_nothing(*with_and_without(d, monkeypatch), "lobby")
        games = {g.name: g for g in lobby_games()}
        for name in ("focus-2p", "focusx-classic", "sherlook", "coop-base"):
            g = games[name]
            app.replace(start_game(app, g, [SeatInfo("computer", "c")] * max(2, g.min_seats)))
            for i in range(4):
                d.frames(10, 50 * MS)
                badges += assert_covers_nothing(*with_and_without(d, monkeypatch), f"{name} {i}")
        assert badges >= 10                                  # the operator sees it on most frames
    finally:
        d.close()


@pytest.mark.parametrize("size", [(480, 320), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_service_menu_keeps_the_whole_line(size: tuple[int, int], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """In the menu's status panel, with the last result, neither covering the other; on a small
    display the menu's pages show the state and where the advice is ("... see LED test"), the
    LED test the whole line (tests/test_service_leaving_pages.py)."""
    from text_fit import TextSeen, cut_texts

    from kiosk import render
    line = TROUBLE.short() if render.small_screen(*size) else TROUBLE.line()
    assert TROUBLE.line() == LINE
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch, size=size)
    try:
        d.app.enter_service()
        d.frames(2)
        svc = d.top
        assert isinstance(svc, ServiceScene)
        svc.status = "Volume 50% saved"
        seen = TextSeen(monkeypatch)
        seen.watch(d.screen)
        monkeypatch.setattr(d.app.led, "trouble", lambda: TROUBLE)
        d.frames(1)
        words = " ".join(m for m, *_ in seen.seen)
        assert line in words and "Volume 50% saved" in words
        assert not cut_texts(seen, d.screen)
        rects = [r for m, r, *_ in seen.seen if m in line or m in "Volume 50% saved"]
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    finally:
        d.close()


def test_no_corner_plain_no_badge(monkeypatch: pytest.MonkeyPatch) -> None:
    pygame.init()
    surf = pygame.Surface((200, 100))
    for x in range(0, 200, 3):
        pygame.draw.line(surf, (200, 200, 200), (x, 0), (x, 100))
    assert led_badge_rect(surf) is None
    pygame.draw.rect(surf, (10, 10, 10), (100, 50, 100, 50))
    assert led_badge_rect(surf) is None                 # plain, but a panel's colour, not the screen's
    from kiosk import render
    pygame.draw.rect(surf, render.BG, (100, 50, 100, 50))
    r: Any = led_badge_rect(surf)
    assert r is not None and r.right == 196 and r.bottom == 96


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_led_badge_sits_on_no_seat_card(size: tuple[int, int], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the screen's own background takes the badge: on an empty stretch of P4's card it
    read as P4's (issue 20: FocusX at 800x480 and 480x320, four seats)."""
    from kiosk import render
    d = Day(install_sh_config(tmp_path, lamps=True), monkeypatch, size=size)
    try:
        app = d.app
        games = {g.name: g for g in lobby_games()}
        for name in ("focusx-classic", "focusx-duel", "sherlook", "focus-4p"):
            app.replace(start_game(app, games[name], [SeatInfo("gpio", f"GPIO {p}") for p in (17, 27, 22, 23)]))
            for i in range(3):
                d.frames(10, 50 * MS)
                shown, plain = with_and_without(d, monkeypatch)
                area = changed_area(shown, plain)
                if area is None:
                    continue                              # no plain corner in this frame: no badge
                assert plain.get_at(area.center)[:3] == render.BG, f"{name} {i}: the badge at {area} is on a card"
    finally:
        d.close()
