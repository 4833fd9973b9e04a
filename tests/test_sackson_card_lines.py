"""The FOCUS player cards on the TV sizes: the seat's name (with its team in the team game)
and its station never drawn over each other (issue 20's explorer, ``python -m tests.explorer
--seed 13001 --size 800x480 --frame-ms 100 --text-every 20 --start focus-4p-teams --monkey 180``:
"P1  team P1+P3" ran under "GPIO 17" on an 800x480 panel)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

from kiosk import render  # noqa: E402
from kiosk.games.sackson.panel import panel_rects, side_rect  # noqa: E402
from kiosk.games.sackson.scene import SacksonScene  # noqa: E402
from kiosk.players.away import AWAY_LABEL, AWAY_SHORTER  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import TextSeen, sized_app  # noqa: E402

T0 = 10 ** 12


@pytest.fixture()
def screen_app(tmp_path: Path) -> Iterator[Any]:
    made: list[Any] = []

    def make(size: tuple[int, int]) -> Any:
        made.append(sized_app(tmp_path, size))
        return made[-1]

    yield make
    for app in made:
        app.close()


@pytest.mark.parametrize("label", ["GPIO 17", "GPIO 27", AWAY_LABEL])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("variant", ["4p-teams", "4p"])
def test_a_cards_name_team_and_station_sit_side_by_side_whole(
        screen_app: Any, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], variant: str, label: str) -> None:
    app = screen_app(size)
    seats = [SeatInfo("gpio", label, "medium", False) for _ in range(4)]
    scene = SacksonScene(app, seats, variant, seed=3)
    app.push(scene)
    scene.update(T0)
    scene.skipped = {1}                                  # a skipped seat's tag takes the label's place
    seen = TextSeen(monkeypatch)
    render.redraw_everything()
    scene.draw(app.screen)
    lay = panel_rects(side_rect(size), 4)
    assert not lay.compact
    for p, card in enumerate(lay.cards):
        lines = [(m, r, kept) for m, r, _, kept in seen.seen if card.contains(r) and m.strip()]
        names = [m for m, *_ in lines if m.startswith(f"P{p + 1}")]
        assert names, (p, lines)
        if variant == "4p-teams":                        # the team is named on the card
            assert any(("1+3" if p % 2 == 0 else "2+4") in m.replace("P", "") for m in names), names
        if p != 1:
            # the station, whole (an absent person's long label may take a shorter wording)
            assert any(m == label or (label == AWAY_LABEL and m in AWAY_SHORTER) for m, *_ in lines), (p, lines)
        for i, (m1, a, k1) in enumerate(lines):
            assert k1 >= 0.6, (m1, k1)
            for m2, b, _ in lines[i + 1:]:
                assert not a.colliderect(b) or a.clip(b).w <= 2, (m1, a, m2, b)
