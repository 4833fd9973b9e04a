"""Issue 14 newcomer: in Sherlook's narrow claims panel (480x320, 640x480) a claim and its time
were drawn on one row whatever their widths: "P3 lost 2 to P1" over "+9216.6 ms"."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from kiosk import render  # noqa: E402
from kiosk.games.sherlook import claims  # noqa: E402
from tests.text_fit import TextSeen  # noqa: E402

ROWS = [("P3 lost 2 to P1", "+9216.6 ms", render.BAD), ("P2 took 4", "+1078.2 ms", render.TEXT),
        ("P4 lost 7 to P2 (chance)", "+10216.6 ms", render.BAD)]


@pytest.mark.parametrize("area", [pygame.Rect(0, 0, 130, 60), pygame.Rect(0, 0, 190, 80),
                                  pygame.Rect(0, 0, 220, 110), pygame.Rect(0, 0, 420, 110)])
def test_no_claim_is_drawn_over_its_time(monkeypatch: pytest.MonkeyPatch, area: pygame.Rect) -> None:
    pygame.init()
    surface = pygame.Surface((480, 320))
    monkeypatch.setattr(claims, "claim_rows", lambda notes: (list(ROWS), 0))
    seen = TextSeen(monkeypatch)
    claims.claims_panel(surface, area, None)
    drawn = [(m, r, kept) for m, r, _clip, kept in seen.seen if not m.startswith("Claims")]
    assert any(m == ROWS[-1][0] for m, *_ in drawn), drawn          # the newest claim shows
    for i, (m, r, kept) in enumerate(drawn):
        assert area.contains(r), (m, r)
        assert kept >= 0.5, (m, kept)        # a "(chance)" claim in the 480x320 panel: about 0.52
        for m2, r2, _ in drawn[i + 1:]:
            assert not r.colliderect(r2), (m, r, m2, r2)
