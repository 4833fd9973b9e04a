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

from arcade.coop.game import SIDE_POSITIONS, Accept, Offer, Point, Take  # noqa: E402
from arcade.coop.pictures import table_picture  # noqa: E402
from arcade.core.events import Edge  # noqa: E402
from arcade.lights.pictures import seat_colour  # noqa: E402
from kiosk import config, render  # noqa: E402
from kiosk.app.loop import App  # noqa: E402
from kiosk.games.coop import words  # noqa: E402
from kiosk.games.coop.partners import marker_visible  # noqa: E402
from kiosk.games.coop.scene import LOBBY_GAMES, CoopScene  # noqa: E402
from kiosk.games.coop.table import cell_rects  # noqa: E402
from kiosk.players import thinker as thinker_mod  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402

T0 = 10 ** 12
STEP = 100_000_000          # 0.1 s of virtual time per frame


@pytest.fixture()
def make_app(tmp_path: Path) -> Iterator[object]:
    pygame.init()
    screen = pygame.display.set_mode((1280, 720))
    apps: list[App] = []

    def make(demo: bool = False, led: str = "none", **args: object) -> App:
        cfg = config.load_or_default(None)
        cfg.data["storage"]["path"] = str(tmp_path / "results.sqlite3")
        cfg.data["led"]["port"] = led
        app = App(cfg, screen, argparse.Namespace(command="demo" if demo else None, screenshot_dir="", **args))
        app.pace_override = 0.05
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.close()         # pygame stays initialised: render's cached fonts belong to it


def frame(app: App, f: int) -> int:
    thinker_mod.wait_shared_idle()        # the virtual clock waits for the partners' worker (issue 14)
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
    rects = cell_rects(pygame.Rect(10, 52, int(1280 * 0.47), 720 - 60))
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
    assert words.looking_away(scene.peeks_shown()) == "P2, LOOK AWAY!  P1: keep holding"
    assert app.screen.get_at(px)[:3] != render.SEAT_COLOURS[0]
    frame(app, 2 + 16)                              # 1.6 s: shown
    assert words.looking_away(scene.peeks_shown()) is None
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
    from kiosk.games.coop.draw import face_surface, missing_drawings
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


COMPUTER = SeatInfo("computer", "computer")


def _shown(app: App, scene: CoopScene, seat: int) -> bool:
    """Whether seat's marker frame is drawn on the screen now."""
    return bool(app.screen.get_at(_marker_pixel(scene, seat))[:3] == render.SEAT_COLOURS[seat])


# ---------------------------------------------------------------- D2, D3: the peek (CO-5)
def test_CO5_D2_one_peek_at_a_time_a_second_hold_hides_both(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    scene = CoopScene(app, [HUMAN, HUMAN2], "base", seed=6, setup=False)
    app.push(scene)
    frame(app, 0)
    scene.on_edge(Edge(T0 + STEP, 0, "buzzer", True))
    frame(app, 20)                                   # 1.9 s of holding: P1 sees its marker
    assert _shown(app, scene, 0) and not _shown(app, scene, 1)
    scene.on_edge(Edge(T0 + 21 * STEP, 1, "buzzer", True))     # P2 holds too
    frame(app, 22)
    assert "ONE PEEK AT A TIME" in (words.looking_away(scene.peeks_shown()) or "")
    assert not _shown(app, scene, 0) and not _shown(app, scene, 1), "neither sees the other's card"
    frame(app, 80)                                   # both still holding, long after: still nothing
    assert not _shown(app, scene, 0) and not _shown(app, scene, 1)
    # P1 lets go and holds again: the look-away prompt first, then only P1's marker
    scene.on_edge(Edge(T0 + 81 * STEP, 0, "buzzer", False))
    scene.on_edge(Edge(T0 + 82 * STEP, 0, "buzzer", True))
    frame(app, 83)
    assert words.looking_away(scene.peeks_shown()) == "P2, LOOK AWAY!  P1: keep holding"
    frame(app, 100)
    assert _shown(app, scene, 0) and not _shown(app, scene, 1)


def test_CO5_D3_a_new_deal_ends_the_peek_and_the_look_away_comes_again(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    scene = CoopScene(app, [HUMAN, HUMAN2], "sherlock", seed=3, setup=False)
    app.push(scene)
    frame(app, 0)
    st = scene.state
    scene.on_edge(Edge(T0 + STEP, 0, "buzzer", True))          # P1 holds its peek through the round's end
    frame(app, 20)
    assert _shown(app, scene, 0)
    a = st.active
    st.apply(Offer(), a)
    st.apply(Accept(), 1 - a)
    st.apply(Point((st.markers[1][0],)), 0)
    st.apply(Point((st.markers[0][0],)), 1)
    scene._after_action()
    f = 21
    while st.round_no < 2 and f < 300:
        f += 1
        frame(app, f)
    assert st.round_no == 2
    frame(app, f + 1)
    assert not scene._peeking(0) and not _shown(app, scene, 0), "the new card is not shown through an old peek"
    scene.on_edge(Edge(T0 + (f + 2) * STEP, 0, "buzzer", False))
    scene.on_edge(Edge(T0 + (f + 3) * STEP, 0, "buzzer", True))
    frame(app, f + 4)
    assert words.looking_away(scene.peeks_shown()) == "P2, LOOK AWAY!  P1: keep holding"
    frame(app, f + 25)
    assert _shown(app, scene, 0)


# ---------------------------------------------------------------- D4, D5: offers (CO-6)
def test_CO6_D4_a_queued_offer_does_not_carry_over_into_the_next_round(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    scene = CoopScene(app, [HUMAN, HUMAN2], "sherlock", seed=3, setup=False)
    app.push(scene)
    f = 0
    frame(app, f)
    st = scene.state
    a = st.active
    scene._take(a, SIDE_POSITIONS[0])
    scene.on_edge(Edge(T0 + 1, a, "ok", True))                # a passes
    b, c = st.active, a
    assert b != c and st.phase == "take"
    scene.on_edge(Edge(T0 + 2, c, "x", True))                 # not c's moment: "will offer"
    assert scene.wants_offer[c]
    scene._take(b, st.markers[c][0])                          # b takes c's exhibit: the round ends
    assert st.results[-1].lost_by == b
    while st.round_no < 2 and f < 300:
        f += 1
        frame(app, f)
    frame(app, f + 1)
    assert scene.wants_offer == [False, False]
    first = st.active
    scene._take(first, next(p for p in SIDE_POSITIONS if st.faces[p] is not None))
    for g in range(f + 2, f + 6):
        frame(app, g)
    assert st.offer_by is None and st.phase != "answer", "no offer from the round before"


def _human_turn(app: App, scene: CoopScene) -> int:
    st = scene.state
    f = 0
    frame(app, f)
    while st.current_player() != 0 or st.phase != "take":
        f += 1
        frame(app, f)
        assert f < 300
    return f


def _safe_target(scene: CoopScene) -> int:
    st = scene.state
    return next(p for p in scene.targets(0) if p not in st.markers[0] + st.markers[1])


def test_CO6_D5_a_human_may_offer_at_the_end_of_its_own_turn(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    scene = CoopScene(app, [HUMAN, COMPUTER], "sherlock", seed=9, setup=False)
    app.push(scene)
    f = _human_turn(app, scene)
    st = scene.state
    scene._take(0, _safe_target(scene))
    for g in range(f + 1, f + 10):                 # 0.9 s later the turn is still P1's to end
        frame(app, g)
    assert st.phase == "end" and st.active == 0
    assert "X offer now" in words.prompt(scene.prompt_shown())[0]
    scene.on_edge(Edge(T0 + (f + 10) * STEP, 0, "x", True))
    assert st.phase == "answer" and st.offer_by == 0


def test_CO6_D5_the_turn_passes_on_ok_or_when_the_offer_window_closes(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    scene = CoopScene(app, [HUMAN, COMPUTER], "sherlock", seed=9, setup=False)
    app.push(scene)
    f = _human_turn(app, scene)
    st = scene.state
    scene._take(0, _safe_target(scene))
    frame(app, f + 1)
    scene.on_edge(Edge(T0 + (f + 1) * STEP + 1, 0, "ok", True))
    assert st.phase == "take" and st.active == 1 and st.offer_by is None
    # next time P1 does nothing: the window closes by itself
    while st.current_player() != 0 or st.phase != "take":
        f += 1
        frame(app, f)
        assert f < 600
    scene._take(0, _safe_target(scene))
    start = f
    while st.phase == "end" and st.active == 0:
        f += 1
        frame(app, f)
        assert f - start < 60
    assert (f - start) * STEP >= scene.offer_window_ns - STEP
    assert st.offer_by is None or st.offer_by == 1


# ---------------------------------------------------------------- D7: the case choice
def test_D7_arrow_keys_choose_the_case_when_p2_is_the_computer(make_app, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # The keys are stamped on the frames' virtual clock: stamped on the machine's own clock, a
    # key press is days before T0 on a machine booted minutes ago, and the case choice's own
    # time-out (counted from the last press) started the game at the first frame after it.
    import time as real_time
    import types

    from kiosk.app import loop as kapp
    now = [T0]
    monkeypatch.setattr(kapp, "time", types.SimpleNamespace(
        monotonic_ns=lambda: now[0], monotonic=lambda: now[0] / 1e9,
        perf_counter=real_time.perf_counter, time=real_time.time))
    app = make_app()
    scene = CoopScene(app, [HUMAN, COMPUTER], "base", seed=12)
    app.push(scene)
    frame(app, 0)

    def key(k: int, f: int) -> None:
        now[0] = T0 + f * STEP
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
        app.step(now[0])
        now[0] += 1
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
        app.step(now[0])

    pygame.event.clear()
    key(pygame.K_RIGHT, 1)                           # P2's arrows, P2 being the computer
    assert scene.case == "scarlet"
    key(pygame.K_RIGHT, 2)
    assert scene.case == "sign"
    key(pygame.K_d, 3)                               # P1's keys work too
    assert scene.case == "pips"
    key(pygame.K_LEFT, 4)
    assert scene.case == "sign"
    key(pygame.K_RETURN, 5)
    assert not scene.setup and scene.state.game.settings["case"] == "sign"
    # in the game, a key pressed for the computer's seat is ignored again
    assert not app.accepts(scene, Edge(T0, 1, "left", True, "keyboard"))


# ---------------------------------------------------------------- D8: readable from three metres
def test_D8_clue_files_never_shrink_the_latest_cards_stay_large() -> None:
    from kiosk.games.coop.side import CLUE_H, CLUE_W, clue_file_regions
    area = pygame.Rect(0, 0, 603, 142)               # a clue file's card area on a 1280 x 720 screen
    for n in range(0, 13):
        cards, earlier = clue_file_regions(n, area)
        assert all(r.w >= CLUE_W and r.h >= min(CLUE_H, area.h) for _i, r in cards)
        assert all(area.contains(r) for _i, r in cards)
        shown = [i for i, _r in cards]
        if n:
            assert shown[-1] == n - 1, "the latest clue is always shown large"
        assert shown == list(range(n - len(shown), n))
        assert (earlier is None) == (len(shown) == n)


def test_D8_clue_names_are_set_large_and_never_cut() -> None:
    pygame.init()
    from arcade.coop.exhibits import EXHIBITS
    from kiosk.games.coop.draw import CLUE_NAME_MIN, _fit_name
    from kiosk.games.coop.side import CLUE_H, CLUE_W
    label_h = int(CLUE_H * 0.42)
    for _face, ex in EXHIBITS.items():
        font, lines = _fit_name(ex.name, CLUE_W - 6, label_h - 2, max(CLUE_NAME_MIN, int(label_h * 0.55)),
                                CLUE_NAME_MIN)
        assert len(lines) <= 2, ex.name
        assert font.get_linesize() >= 18, ex.name          # CLUE_NAME_MIN px type: 18 px lines
        assert all(font.size(line)[0] <= (CLUE_W - 6) * 1.2 for line in lines), ex.name


@pytest.mark.parametrize("face", [148, 166, 138, 3, 14, 168])
@pytest.mark.parametrize("size", [(127, 114), (200, 175), (90, 80)])
def test_D8_face_numbers_sit_inside_the_border(face: int, size: tuple[int, int]) -> None:
    pygame.init()
    from kiosk.games.coop.draw import face_surface
    w, h = size
    with_n = face_surface(face, w, h, True)
    without = face_surface(face, w, h, False)
    border, rad = max(2, w // 40), max(4, w // 12)
    diff = [(x, y) for x in range(w // 2, w) for y in range(h // 2, h)
            if with_n.get_at((x, y)) != without.get_at((x, y))]
    assert diff, "the number is drawn"
    assert max(x for x, _y in diff) < w - border - rad // 2
    assert max(y for _x, y in diff) < h - border


def test_D8_lettering_fits_its_sign() -> None:
    pygame.init()
    from kiosk.games.coop.draw import DRAWINGS, fit_text
    checked = 0
    for key, recipe in DRAWINGS.items():
        for op in recipe.split(";"):
            tok = op.split()
            if not tok or tok[0] != "t":
                continue
            words, x = tok[5:], float(tok[3])
            limit = 2 * min(x - 2, 98 - x)
            if words[-1].startswith("w="):
                limit = min(limit, float(words[-1][2:]))
                words = words[:-1]
            for scale in (0.8, 1.5):
                img = fit_text(" ".join(words).replace("_", " "), float(tok[2]), limit, scale)
                assert img.get_width() <= limit * scale + 1 or img.get_height() <= 8, (key, words)
            checked += 1
    assert checked >= 25


def _picture(key: str, n: int = 100) -> pygame.Surface:
    from kiosk.games.coop.draw import CARD_BG, DRAWINGS, draw_picture
    s = pygame.Surface((n, n))
    s.fill(CARD_BG)
    draw_picture(s, s.get_rect(), DRAWINGS[key])
    return s


@pytest.mark.parametrize("a, b, measure", [("monocle", "magnifying_glass", "colour"),
                                           ("handcuffs", "spectacles", "shape")])
def test_D8_look_alike_exhibits_are_drawn_apart(a: str, b: str, measure: str) -> None:
    """The tester's look-alikes: the monocle sits before an eye (it was a
    magnifying glass in gold), the handcuffs hang on a chain, corner to corner (they
    were a pair of spectacles in steel).  Little of one picture coincides with the
    other: same colour on the same spot, or ink on the same spot."""
    pygame.init()
    from kiosk.games.coop.draw import CARD_BG
    pa, pb = _picture(a), _picture(b)
    same = ink_a = ink_b = both = 0
    for x in range(100):
        for y in range(100):
            ca, cb = pa.get_at((x, y))[:3], pb.get_at((x, y))[:3]
            ia, ib = ca != CARD_BG, cb != CARD_BG
            ink_a += ia
            ink_b += ib
            both += ia and ib
            same += ia and ca == cb
    union = ink_a + ink_b - both
    if measure == "colour":
        assert same / union < 0.2
    else:
        assert both / union < 0.45


def test_D8_after_a_loss_the_reveal_shows_the_card_that_was_taken(make_app) -> None:  # type: ignore[no-untyped-def]
    from kiosk.games.coop.draw import CARD_BG
    app = make_app()
    scene = CoopScene(app, [HUMAN, COMPUTER], "base", seed=7, setup=False)
    app.push(scene)
    st = scene.state
    f = 0
    frame(app, f)
    while not (st.current_player() == 0 and st.takes):
        if st.current_player() == 0:
            scene._take(0, SIDE_POSITIONS[0])
        f += 1
        frame(app, f)
    cell = st.markers[1][0]
    scene._take(0, cell)                                 # P1 takes the partner's exhibit
    assert st.results[-1].lost_by == 0 and st.faces[cell] is None
    frame(app, f + 1)
    assert scene.reveal_until is not None
    r = cell_rects(pygame.Rect(10, 52, int(1280 * 0.47), 720 - 60))[cell]
    parchment = sum(1 for x in range(r.x, r.right, 3) for y in range(r.y, r.bottom, 3)
                    if app.screen.get_at((x, y))[:3] == CARD_BG)
    assert parchment > 0.3 * (r.w // 3) * (r.h // 3), "the taken card is on the table, not an empty cell"


# ---------------------------------------------------------------- D9, D10
def test_D9_the_demo_case_comes_from_the_command_line(make_app) -> None:  # type: ignore[no-untyped-def]
    from arcade.coop.exhibits import case_faces
    app = make_app(demo=True, case="hound")
    scene = CoopScene(app, [SIM, SIM], "sherlock", seed=4)
    app.push(scene)
    frame(app, 0)
    assert not scene.setup and scene.case == "hound"
    assert sorted(f for f in scene.state.faces if f) == sorted(case_faces("hound"))
    app2 = make_app(demo=True, case="The Sign of the Four")
    assert CoopScene(app2, [SIM, SIM], "base", seed=4).case == "sign"
    app3 = make_app(demo=True, case="watson")
    assert CoopScene(app3, [SIM, SIM], "base", seed=4).case == ""
    assert any("no case 'watson'" in m for m, _t in app3.messages)


@pytest.mark.parametrize("damage", ["stale", "missing", "broken"])
def test_D10_a_bad_association_table_is_said_on_screen_and_in_the_log(make_app, tmp_path: Path, monkeypatch,
                                                                       caplog, damage: str) -> None:  # type: ignore[no-untyped-def]
    import json
    import logging

    from arcade.coop import similarity
    bad = tmp_path / "similarity.json"
    raw = json.loads(similarity.DATA_FILE.read_text())
    if damage == "stale":
        raw["exhibits_sha256_12"] = "0123456789ab"
        bad.write_text(json.dumps(raw))
    elif damage == "broken":
        raw["pairs"] = raw["pairs"][:100]
        bad.write_text(json.dumps(raw))
    monkeypatch.setattr(similarity, "DATA_FILE", bad)
    similarity.reload_default()
    try:
        assert similarity.default_table().source == "tags"
        app = make_app()
        with caplog.at_level(logging.WARNING):
            scene = CoopScene(app, [HUMAN, COMPUTER], "base", seed=1, setup=False)
        app.push(scene)
        assert any("tags only" in m for m, _t in app.messages)
        assert "association table" in caplog.text
        for f in range(30):                              # the game goes on, on the tags
            frame(app, f)
        assert scene.state.takes
    finally:
        monkeypatch.undo()
        similarity.reload_default()
    assert similarity.table_problem() is None


def test_CO5_two_humans_a_refused_take_never_tells_whose_exhibit_it_is(make_app) -> None:  # type: ignore[no-untyped-def]
    """Two people on one screen: a take of one's own exhibit is refused with the very sign
    every other refused take shows (text, colour, time on screen), naming no reason."""
    from kiosk.games.coop.choosing import REFUSED_TAKE
    app = make_app()
    second = SeatInfo("keyboard", "arrows", "medium", True)
    scene = CoopScene(app, [HUMAN, second], "base", seed=10, setup=False)
    app.push(scene)
    frame(app, 0)
    st = scene.state
    assert len(scene.humans) == 2
    seat = st.current_player()
    grid_card = next(p for p in range(16) if st.faces[p] is not None)
    scene._take(seat, grid_card)                 # the first card must come from the side row
    signs = [scene.banner]
    side = next(p for p in SIDE_POSITIONS if st.faces[p] is not None)
    scene._take(seat, side)                      # a right take
    assert st.faces[side] is None
    seat = st.current_player()
    scene._take(seat, side)                      # that place is empty now
    signs.append(scene.banner)
    own = st.markers[seat][0]
    scene._take(seat, own)                       # the taker's own exhibit (CO-3: refused)
    signs.append(scene.banner)
    assert st.faces[own] is not None and st.current_player() == seat
    assert all(b is not None for b in signs)
    assert {b[0] for b in signs} == {REFUSED_TAKE} and {b[1] for b in signs} == {render.BAD}  # type: ignore[index]
    assert len({b[2] - scene.now for b in signs}) == 1                                      # type: ignore[index]
    assert "own" not in REFUSED_TAKE.lower() and "exhibit" not in REFUSED_TAKE.lower()
    assert scene.lifted[seat] is None
