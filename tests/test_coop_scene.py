"""Focus (2023) on the TV under SDL's dummy driver: demo games of every mode,
one human with the partner, two humans with the peek control (CO-5), the
exhibit pictures and the LED picture."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from arcade.core.events import Edge  # noqa: E402
from arcade.coop.game import SIDE_POSITIONS, Take  # noqa: E402
from arcade.coop.led import table_picture  # noqa: E402
from arcade.views.led import seat_colour  # noqa: E402
from kiosk import config, render  # noqa: E402
from kiosk.app import App  # noqa: E402
from kiosk.scenes.coop import LOBBY_GAMES, CoopScene, marker_visible  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402

T0 = 10 ** 12
STEP = 100_000_000          # 0.1 s of virtual time per frame


@pytest.fixture()
def make_app(tmp_path: Path) -> Iterator[object]:
    pygame.init()
    screen = pygame.display.set_mode((1280, 720))
    apps: list[App] = []

    def make(demo: bool = False, led: str = "none") -> App:
        cfg = config.load_or_default(None)
        cfg.data["storage"]["path"] = str(tmp_path / "results.sqlite3")
        cfg.data["led"]["port"] = led
        app = App(cfg, screen, argparse.Namespace(command="demo" if demo else None, screenshot_dir=""))
        app.pace_override = 0.05
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.close()         # pygame stays initialised: render's cached fonts belong to it


def frame(app: App, f: int) -> int:
    now = T0 + f * STEP
    scene = app.scenes[-1]
    scene.update(now)
    app.draw()
    app.scenes[-1].frame_shown(now)
    return now


HUMAN = SeatInfo("keyboard", "keys A S D W", "medium", True)
HUMAN2 = SeatInfo("keyboard", "arrow keys", "medium", True)
SIM = SeatInfo("simulated", "sim GPIO 17")


@pytest.mark.parametrize("mode", ["base", "sherlock", "mycroft", "mycroft-sherlock"])
def test_demo_two_partners_play_every_mode_to_the_results(make_app, mode: str) -> None:  # type: ignore[no-untyped-def]
    app = make_app(demo=True, led="virtual" if mode == "sherlock" else "none")
    scene = CoopScene(app, [SIM, SIM], mode, seed=4)
    app.push(scene)
    for f in range(3000):
        frame(app, f)
        if app.scenes[-1] is not scene:
            break
    assert type(app.scenes[-1]).__name__ == "ResultsScene", "the game did not finish"
    assert scene.state.is_terminal()
    assert app.results is not None and app.results.recent(1)
    assert len(scene.state.results) == (3 if "sherlock" in mode else 1)


def test_lobby_offers_every_mode_for_two_seats() -> None:
    modes = {g.mode for g in LOBBY_GAMES if g.family == "coop"}
    assert modes == {"base", "sherlock", "mycroft", "mycroft-sherlock"}
    assert all(g.min_seats == g.max_seats == 2 for g in LOBBY_GAMES)
    from kiosk.scenes.lobby import find_game
    assert find_game("coop", "sherlock").label.endswith("Sherlock Mode")


def _marker_pixel(scene: CoopScene, seat: int) -> tuple[int, int]:
    rects = scene._cell_rects(pygame.Rect(10, 52, int(1280 * 0.47), 720 - 60))
    r = rects[scene.state.markers[seat][0]]
    return (r.x - 3, r.centery)


def test_CO5_one_human_sees_own_marker_never_the_partners(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    scene = CoopScene(app, [HUMAN, SeatInfo("computer", "computer")], "base", seed=5, setup=False)
    app.push(scene)
    frame(app, 0)
    surf = app.screen
    assert surf.get_at(_marker_pixel(scene, 0))[:3] == render.SEAT_COLOURS[0]
    assert surf.get_at(_marker_pixel(scene, 1))[:3] != render.SEAT_COLOURS[1]
    assert marker_visible(scene.seats, 0, None, 0, 10, demo=False)
    assert not marker_visible(scene.seats, 1, 0, 10 ** 12, 10, demo=False)


def test_CO5_two_humans_marker_only_while_holding_peek_after_look_away(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    scene = CoopScene(app, [HUMAN, HUMAN2], "base", seed=6, setup=False)
    app.push(scene)
    frame(app, 0)
    px = _marker_pixel(scene, 0)
    assert app.screen.get_at(px)[:3] != render.SEAT_COLOURS[0], "no marker without peeking"
    scene.on_edge(Edge(T0 + 2 * STEP, 0, "buzzer", True))
    frame(app, 3)                                   # 0.1 s into the hold: look away
    assert scene._looking_away_prompt() == "P2, LOOK AWAY!  P1: keep holding"
    assert app.screen.get_at(px)[:3] != render.SEAT_COLOURS[0]
    frame(app, 2 + 16)                              # 1.6 s: shown
    assert scene._looking_away_prompt() is None
    assert app.screen.get_at(px)[:3] == render.SEAT_COLOURS[0]
    assert app.screen.get_at(_marker_pixel(scene, 1))[:3] != render.SEAT_COLOURS[1]
    scene.on_edge(Edge(T0 + 19 * STEP, 0, "buzzer", False))
    frame(app, 20)
    assert app.screen.get_at(px)[:3] != render.SEAT_COLOURS[0], "hidden again on release"


def test_human_takes_with_left_right_and_ok_twice(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    scene = CoopScene(app, [HUMAN, SeatInfo("computer", "computer")], "base", seed=8, setup=False)
    app.push(scene)
    f = 0
    frame(app, f)
    st = scene.state
    for _ in range(40):                              # let the partner move first if it starts
        if st.current_player() == 0:
            break
        f += 1
        frame(app, f)
    assert st.current_player() == 0
    first = not st.takes
    targets = scene.targets(0)
    if first:
        assert set(targets) <= set(SIDE_POSITIONS)
    scene.cursor[0] = targets[0]
    scene.on_edge(Edge(T0 + f * STEP, 0, "right", True))
    chosen = scene.cursor[0]
    assert chosen == targets[1 % len(targets)]
    scene.on_edge(Edge(T0 + f * STEP + 1, 0, "ok", True))
    assert scene.lifted[0] == chosen and st.faces[chosen] is not None, "first OK only lifts the card"
    frame(app, f + 1)
    scene.on_edge(Edge(T0 + f * STEP + 2, 0, "ok", True))
    assert st.faces[chosen] is None and st.clues(0)[-1] == st.takes[-1][2]
    assert st.takes[-1][:2] == (0, chosen)


def test_sherlock_offer_with_x_and_the_partner_answers(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    scene = CoopScene(app, [HUMAN, SeatInfo("computer", "computer")], "sherlock", seed=9, setup=False)
    app.push(scene)
    st = scene.state
    f = 0
    frame(app, f)
    while st.current_player() != 0 or st.phase != "take":
        f += 1
        frame(app, f)
        assert f < 200
    scene.on_edge(Edge(T0 + f * STEP, 0, "x", True))       # start of P1's turn: offer now
    assert st.phase == "answer" and st.offer_by == 0
    for g in range(f + 1, f + 60):
        frame(app, g)
        if st.phase != "answer":
            break
    assert st.phase in ("take", "point")                    # refused, or accepted
    if st.phase == "take":
        assert st.refused_by == 1


def test_every_exhibit_has_its_own_picture() -> None:
    pygame.init()
    from arcade.coop.exhibits import EXHIBITS
    from kiosk.coop_draw import face_surface, missing_drawings
    assert missing_drawings() == []
    seen = set()
    for face in EXHIBITS:
        surf = face_surface(face, 90, 80, False)
        seen.add(pygame.image.tobytes(surf, "RGBA"))
    assert len(seen) == 168


def test_led_picture_shows_the_table_not_the_markers() -> None:
    present = [True] * 20
    present[3] = present[17] = False
    pic = table_picture(present, 16, 16, last=(1, 5), clue_counts=(2, 1))
    assert len(pic) == 16 and all(len(r) == 16 for r in pic)
    colours = {px for row in pic for px in row}
    assert seat_colour(1) in colours and seat_colour(0) in colours     # last take, clue counts
    hidden = table_picture([True] * 20, 16, 16)
    shown = table_picture([True] * 20, 16, 16, reveal=[(5,), (10,)], pointed=[(10,), (4,)])
    assert seat_colour(0) not in {px for row in hidden for px in row}
    assert seat_colour(0) in {px for row in shown for px in row}
    assert (255, 255, 255) in {px for row in shown for px in row}      # P1 pointed right


def test_scene_take_refused_own_card_shows_a_message(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    scene = CoopScene(app, [HUMAN, SeatInfo("computer", "computer")], "base", seed=10, setup=False)
    app.push(scene)
    frame(app, 0)
    st = scene.state
    own = st.markers[0][0]
    st.apply(Take(next(p for p in SIDE_POSITIONS)), st.current_player())
    if st.current_player() != 0:
        other = next(p for p in range(16) if p not in st.markers[0] + st.markers[1] and st.faces[p])
        st.apply(Take(other), 1)
    scene._take(0, own)
    assert st.faces[own] is not None
    assert scene.banner is not None and "own exhibit" in scene.banner[0]


def test_setup_screen_chooses_a_mrs_hudson_case(make_app) -> None:  # type: ignore[no-untyped-def]
    from arcade.coop.exhibits import case_faces
    app = make_app()
    scene = CoopScene(app, [HUMAN, SeatInfo("computer", "computer")], "sherlock", seed=12)
    app.push(scene)
    frame(app, 0)                                     # the set-up screen draws
    assert scene.setup
    scene.on_edge(Edge(T0, 0, "right", True))
    scene.on_edge(Edge(T0 + 1, 0, "right", True))
    assert scene.case == "sign"
    scene.on_edge(Edge(T0 + 2, 1, "ok", True))       # any station starts
    frame(app, 1)
    assert not scene.setup and scene.state.game.settings["case"] == "sign"
    assert sorted(f for f in scene.state.faces if f) == sorted(case_faces("sign"))
    assert "The Sign of the Four" in scene.title
