"""Sherlook's seat boxes and markers on a 480x320 panel ("stack" photos: the lists in a narrow
column), found by issue 20's explorer in its long mode (``python -m tests.explorer --seed 1000
--size 480x320 --text-every 10 --frame-ms 50 --entry sherlook``): "computer (medium)" ran off
the screen's edge, "P1", its marker and its points ran over each other at 40-44 px, a taken
marker's number over its holder's "P2", and a message's plate was drawn over marker numbers.
Through the race and the reveal no two lines of the seats or the markers overlap and none
leaves its box."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from kiosk import render
from kiosk.scenes.seats import SeatInfo
from tests.test_sherlook_scene import Sounds, run, start_round
from tests.text_fit import TextSeen, cut_texts
from tests.virtual_kiosk import Clock, virtual_app


def overlapping(lines: list[tuple[str, pygame.Rect]]) -> list[str]:
    out = []
    for i, (m1, a) in enumerate(lines):
        for m2, b in lines[i + 1:]:
            c = a.clip(b)
            if c.w > 0.25 * min(a.w, b.w) and c.h > 0.4 * min(a.h, b.h):
                out.append(f"{m1!r} {a} / {m2!r} {b}")
    return out


@pytest.mark.parametrize("seats_n", [2, 4])
def test_the_seats_and_markers_of_a_480x320_panel_never_overlap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               seats_n: int) -> None:
    size = (480, 320)
    set_mode = pygame.display.set_mode
    monkeypatch.setattr(pygame.display, "set_mode", lambda _s, *a, **k: set_mode(size, *a, **k))
    clock = Clock()
    app = virtual_app(tmp_path, monkeypatch, clock, {"token_s": 0.5, "reveal_s": 2.0})
    app.sounds = Sounds()  # type: ignore[assignment]
    seen = TextSeen(monkeypatch)
    seen.watch(app.screen)
    bad: set[str] = set()
    seats = [SeatInfo("computer", "computer (medium)", "medium") for _ in range(seats_n)]
    try:
        scene = start_round(app, clock, seats, "stack", rounds=1)
        W, H = size
        areas = scene._areas(W, H)
        phases = set()
        revealed = 0
        for _ in range(60 * 90):
            render.redraw_everything()
            seen.seen.clear()
            run(app, clock, 1)
            phases.add(scene.phase)
            if app.scenes[-1] is not scene or scene.phase in ("token", "over"):
                break
            revealed += scene.phase == "reveal"
            if revealed > 90:
                break
            bad.update(f"cut: {m}" for m in cut_texts(seen, app.screen))
            for name in ("seats", "markers"):
                part = areas[name]
                lines = [(m, r) for m, r, *_ in seen.seen if m.strip() and part.colliderect(r)]
                bad.update(f"{scene.phase} {name}: {o}" for o in overlapping(lines))
                if name == "seats":
                    bad.update(f"outside the seats: {m!r} {r}" for m, r in lines if not part.contains(r))
        assert {"race", "reveal"} <= phases, phases
    finally:
        app.close()
        pygame.display.quit()
    assert not bad, "\n".join(sorted(bad)[:20])
