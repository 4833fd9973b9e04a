"""The screens kept in parts (kiosk/render.Parts, issue 14) show what a full drawing shows.

Each game runs in the real App with computer players at every seat and the virtual LED
matrix, on virtual time; after every frame the screen (drawn in parts: only what changed)
must be, pixel for pixel, what the same frame drawn entirely from scratch is (every part
drawn, as before parts were kept).  So a changed score, card, board or LED picture is on the
screen in the very frame it changed, and nothing is left over from an earlier frame.
Nothing here is timed.

The games played for 360 frames compare a sample of their frames (issue 22: comparing all of
them was a fifth of the suite's time): every frame in which what the game shows changed (a
move, a phase, a dialog, another screen) and the frame after it, the first frames of the
game, every 8th frame (a part left stale stays wrong until its key changes, so it is still
there at the next one), and a few more chosen by a seed made from the case's name.  Every
frame of the game is still played and drawn in parts.
"""

from __future__ import annotations

import argparse
import os
import random
import types
from pathlib import Path
from typing import Any, Callable, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from kiosk import config, render  # noqa: E402
from kiosk.app import loop as kapp  # noqa: E402
from kiosk.app.loop import App  # noqa: E402
from kiosk.players.thinker import wait_shared_idle  # noqa: E402
from kiosk.scenes.lobby import find_game  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402

T0 = 10 ** 15
STEP = 16_666_667


class Frames:
    """A virtual clock for the app (its ``time`` module), and the frame number: the virtual
    LED matrix's picture and status line (read from its serial line by a thread) are read
    once a frame, so a frame and its drawing from scratch show the same picture."""

    def __init__(self) -> None:
        self.t = T0
        self.frame = 0

    def module(self) -> Any:
        import time as real
        return types.SimpleNamespace(monotonic_ns=lambda: self.t, monotonic=lambda: self.t / 1e9,
                                     perf_counter=real.perf_counter, time=real.time)

    def once_a_frame(self, fn: Callable[[], Any]) -> Callable[[], Any]:
        seen: dict[int, Any] = {}

        def read() -> Any:
            if self.frame not in seen:
                seen.clear()
                seen[self.frame] = fn()
            return seen[self.frame]
        return read


def make_app(tmp_path: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> tuple[App, Frames]:
    clock = Frames()
    monkeypatch.setattr(kapp, "time", clock.module())
    pygame.init()
    screen = pygame.display.set_mode(size)
    cfg = config.load_or_default(None)
    cfg.data["storage"]["path"] = str(tmp_path / "results.sqlite3")
    cfg.data["led"]["port"] = "virtual"
    app = App(cfg, screen, argparse.Namespace(command=None, screenshot_dir=""))
    app.pace_override = 0.25
    if app.led.virtual is not None:
        monkeypatch.setattr(app.led, "virtual_picture", clock.once_a_frame(app.led.virtual_picture))
        monkeypatch.setattr(app.led, "status_text", clock.once_a_frame(app.led.status_text))
    pygame.event.clear()
    return app, clock


@pytest.fixture(params=[(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def kiosk(request: pytest.FixtureRequest, tmp_path: Path,
          monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[App, Frames]]:
    a, clock = make_app(tmp_path, request.param, monkeypatch)
    yield a, clock
    a.close()


def step(app: App, clock: Frames, f: int) -> None:
    """Frame ``f`` on the virtual clock, which waits for the thinking process first (else a
    loaded machine's worker answers after the game's frames are over: 4Focus made 2 moves)."""
    wait_shared_idle()
    clock.frame = f
    clock.t = T0 + f * STEP
    app.step(clock.t)


def drawn_from_scratch(app: App, draw: Callable[[], None], save: str = "") -> bytes:
    """This frame drawn entirely (every part, no kept pixels) on a fresh surface."""
    kept = (render._Screen.generation, app._parts_seen)
    screen = app.screen
    fresh = pygame.Surface(screen.get_size(), 0, screen)
    render.KEEP_PARTS = False
    app.screen = fresh
    try:
        draw()
    finally:
        app.screen = screen
        render.KEEP_PARTS = True
        render._Screen.generation, app._parts_seen = kept
    if save:
        pygame.image.save(fresh, save)
    return pygame.image.tobytes(fresh, "RGB")


def compare_every_frame(app: App, monkeypatch: pytest.MonkeyPatch,
                        chosen: Callable[[], bool] = lambda: True) -> list[tuple[bytes, bytes]]:
    """Each frame's (screen as drawn, the same frame drawn from scratch), taken right after
    the drawing (before the flip time reaches the scene and changes it); only the frames for
    which ``chosen()`` (asked once a frame, after the drawing) is true."""
    out: list[tuple[bytes, bytes]] = []
    draw = app.draw

    def both() -> None:
        draw()
        if not chosen():
            return
        out.append((pygame.image.tobytes(app.screen, "RGB"), drawn_from_scratch(app, draw)))
        if out[-1][0] != out[-1][1]:
            _explain(app, draw, f"frame{len(out) - 1}")
    monkeypatch.setattr(app, "draw", both)
    return out


def _explain(app: App, draw: Callable[[], None], name: str) -> None:
    """Where the two pictures differ (bounding box, printed), both saved under the temp dir."""
    import tempfile
    base = Path(tempfile.gettempdir())
    pygame.image.save(app.screen, str(base / f"parts-{name}-kept.png"))
    drawn_from_scratch(app, draw, str(base / f"parts-{name}-scratch.png"))
    a = pygame.image.load(str(base / f"parts-{name}-kept.png"))
    b = pygame.image.load(str(base / f"parts-{name}-scratch.png"))
    w, h = a.get_size()
    diff = [(x, y) for y in range(0, h) for x in range(0, w) if a.get_at((x, y)) != b.get_at((x, y))]
    if diff:
        xs, ys = [p[0] for p in diff], [p[1] for p in diff]
        print(f"{name}: {len(diff)} pixels differ in x {min(xs)}..{max(xs)}, y {min(ys)}..{max(ys)}")


#: The sample of a long run (see the module's note): the first frames, every EVERY-th frame,
#: and SEEDED more frames chosen by a seed made from the case's name.
FIRST, EVERY, SEEDED = 3, 8, 12


def shown(app: App) -> tuple[object, ...]:
    """What the game shows, in a few values that change when it does: the screen on top,
    the moves made, the phase, the dialog over it and the messages."""
    top = app.stack.top
    state = getattr(top, "state", None)
    return (id(top), len(getattr(state, "history", ())), getattr(top, "phase", None),
            getattr(top, "leave_until", None) is not None, len(app.messages))


def sampled_frames(app: App, clock: Frames, frames: int, seed: str) -> Callable[[], bool]:
    """``chosen`` for :func:`compare_every_frame`: true for the sample of the module's note
    (``seed`` makes the extra frames the same each run)."""
    extra = set(random.Random(seed).sample(range(frames), SEEDED))
    was: tuple[object, ...] = ()
    changed_at = -2

    def chosen() -> bool:
        nonlocal was, changed_at
        f, now = clock.frame, shown(app)
        if now != was:
            was, changed_at = now, f
        return f < FIRST or f % EVERY == 0 or f in extra or f - changed_at <= 1
    return chosen


def play_and_compare(kiosk: tuple[App, Frames], monkeypatch: pytest.MonkeyPatch, entry: str,
                     frames: int) -> tuple[int, int, int]:
    """Play ``frames`` frames of ``entry``; each frame of the sample (see the module's note)
    equal to its drawing from scratch.  Returns (compared frames whose picture differed from
    the compared frame before, moves made, frames compared)."""
    app, clock = kiosk
    game = find_game(entry, None)
    seats = [SeatInfo("computer", f"computer {s + 1}", "medium") for s in range(game.demo_seats)]
    scene = game.start(app, seats)
    app.push(scene)
    w, h = app.screen.get_size()
    shots = compare_every_frame(app, monkeypatch, sampled_frames(app, clock, frames, f"{entry}-{w}x{h}"))
    changed = compared = 0
    last = b""
    for f in range(frames):
        if f == 30 and getattr(scene, "setup", False):
            scene.begin_resumed({})              # Focus (2023): the case chosen, the game begins
        step(app, clock, f)
        if not shots:
            continue
        got, want = shots[-1]
        assert got == want, f"{entry}: frame {f} differs from the same frame drawn from scratch"
        changed += got != last
        compared += 1
        last = got
        shots.clear()
    return changed, len(getattr(scene.state, "history", ())), compared


ENTRIES = ["focusx-classic", "focusx-thinkfocus-x", "focusx-duel", "focusx-4focus",
           "focus-2p", "focus-3p", "focus-4p-teams", "crossfire",
           "coop-base", "coop-mycroft-sherlock", "sherlook"]
# Every entry at 1280x720; at 1920x1080 (the same TV layout, scaled) one entry of each family.
CASES = [((1280, 720), e) for e in ENTRIES] + [
    ((1920, 1080), e) for e in ("focusx-4focus", "focus-4p-teams", "coop-mycroft-sherlock", "sherlook")]


@pytest.mark.parametrize(("size", "entry"), CASES, ids=[f"{w}x{h}-{e}" for (w, h), e in CASES])
def test_a_screen_kept_in_parts_is_the_screen_drawn_from_scratch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], entry: str) -> None:
    app, clock = make_app(tmp_path, size, monkeypatch)
    try:
        changed, moves, compared = play_and_compare((app, clock), monkeypatch, entry, 360)
    finally:
        app.close()
    assert moves >= (1 if entry == "sherlook" else 4)   # the game went on (a Sherlook round is one step)
    assert changed >= 5          # and the screen changed with it
    assert compared >= 360 // EVERY   # the sample was compared (each move's frame among it)


def test_a_dialog_over_a_kept_screen_and_its_going_leave_nothing_behind(
        kiosk: tuple[App, Frames], monkeypatch: pytest.MonkeyPatch) -> None:
    app, clock = kiosk
    game = find_game("focusx-classic", None)
    scene = game.start(app, [SeatInfo("computer", "c", "medium")] * 4)
    app.push(scene)
    shots = compare_every_frame(app, monkeypatch)
    for f in range(60):
        if f == 20:
            scene.leave_until = T0 + 30 * STEP        # the leave dialog, closed again at frame 30
        if f == 30:
            scene.leave_until = None
        if f == 40:
            app.message("a message over the title row")
        step(app, clock, f)
        got, want = shots.pop()
        assert got == want, f


def test_a_move_arrow_is_the_same_pixels_as_one_drawn_on_a_whole_board_layer() -> None:
    """The FOCUS last-move arrow drawn on a small see-through layer (kiosk/games/sackson/draw.arrow)
    is, pixel for pixel, the arrow drawn on a see-through layer the size of the board."""
    import math
    import random

    from kiosk.games.sackson import draw as sd

    def whole_layer_arrow(surface: pygame.Surface, a: tuple[float, float], b: tuple[float, float],
                          colour: tuple[int, int, int], width: int, alpha: int, trim_a: float, trim_b: float) -> None:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if length < 1 or length <= trim_a + trim_b + 4:
            return
        ux, uy = dx / length, dy / length
        a = (a[0] + ux * trim_a, a[1] + uy * trim_a)
        b = (b[0] - ux * trim_b, b[1] - uy * trim_b)
        head = width * 3.2
        tip = (b[0] - ux * head * 0.2, b[1] - uy * head * 0.2)
        base = (tip[0] - ux * head, tip[1] - uy * head)
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        c = (*colour, alpha)
        pygame.draw.line(layer, c, a, base, width)
        pygame.draw.polygon(layer, c, [tip, (base[0] - uy * head * 0.6, base[1] + ux * head * 0.6),
                                       (base[0] + uy * head * 0.6, base[1] - ux * head * 0.6)])
        surface.blit(layer, (0, 0))

    pygame.init()
    rng = random.Random(3)
    for _ in range(300):
        board = pygame.Surface((300, 260))
        board.fill((40, 60, 80))
        ref = board.copy()
        a = (rng.uniform(-20, 320), rng.uniform(-20, 280))
        b = (rng.uniform(-20, 320), rng.uniform(-20, 280))
        args = ((rng.randrange(256), rng.randrange(256), rng.randrange(256)), rng.randrange(3, 14),
                rng.choice([150, 170, 200]), rng.uniform(0, 30), rng.uniform(0, 40))
        whole_layer_arrow(ref, a, b, *args)
        sd.arrow(board, a, b, args[0], args[1], alpha=args[2], trim_a=args[3], trim_b=args[4])
        assert pygame.image.tobytes(board, "RGB") == pygame.image.tobytes(ref, "RGB"), (a, b, args)


def test_focus_2023_deals_the_drawn_cards_and_shows_their_faces_in_the_frame_of_the_deal(
        kiosk: tuple[App, Frames], monkeypatch: pytest.MonkeyPatch) -> None:
    """The first deal is drawn from the driver's chance source (its faces were made at the
    app's start-up, kiosk/app/loop.py); the deal is the one the seed draws in place, it lands in
    the scene's first frame, and that frame shows every dealt face at its table place."""
    from arcade.coop.game import Deal
    from kiosk.games.coop import scene as cs
    from kiosk.games.coop.draw import face_surface
    from kiosk.games.coop.table import cell_rects

    app, clock = kiosk
    seats = [SeatInfo("computer", f"computer {s + 1}", "medium") for s in range(2)]
    twin = cs.CoopScene(app, seats, "base", seed=7, setup=False)      # the same seed, drawn in place
    expected = twin.state.chance_outcome(twin.rng)
    del twin
    scene = cs.CoopScene(app, seats, "base", seed=7, setup=False)
    assert isinstance(expected, Deal)
    app.push(scene)
    area = pygame.Rect(10, 52, int(app.screen.get_width() * 0.47), app.screen.get_height() - 60)
    rects = cell_rects(area)
    for f in range(60):
        step(app, clock, f)
        if scene.state.history:
            break
    else:
        pytest.fail("no deal in the first second")
    assert f == 0
    deal = scene.state.history[0][1]
    assert deal == expected
    screen = app.screen
    for p, face in enumerate(deal.faces):
        r = rects[p]
        img = face_surface(face, r.w, r.h)
        for x, y in ((r.w // 2, r.h // 3), (r.w // 2, r.h - 12), (r.w // 4, r.h // 2), (3 * r.w // 4, r.h // 2)):
            assert screen.get_at((r.x + x, r.y + y))[:3] == img.get_at((x, y))[:3], (p, face, x, y)


def test_sherlook_shows_the_rounds_photos_from_the_races_first_frame(
        kiosk: tuple[App, Frames], monkeypatch: pytest.MonkeyPatch) -> None:
    """The photos are prepared a step a frame while the round's token shows; the race's
    first frame shows both photos of this round, pixel for pixel as rendered from scratch
    at their places, and every frame is the frame drawn from scratch."""
    from kiosk.games.sherlook.draw import place_pair, render_pair

    app, clock = kiosk
    game = find_game("sherlook", None)
    scene = game.start(app, [SeatInfo("computer", f"computer {s + 1}", "medium") for s in range(4)])
    app.push(scene)
    shots = compare_every_frame(app, monkeypatch)
    token_frames = 0
    for f in range(900):
        step(app, clock, f)
        got, want = shots.pop()
        assert got == want, f
        token_frames += scene.phase == "token"
        if scene.phase == "race":
            break
    else:
        pytest.fail("no race")
    step(app, clock, f + 1)                  # the race's first frame drawn (the phase changed after a drawing)
    assert scene.phase == "race"
    assert token_frames >= 2
    st = scene.state
    W, H = app.screen.get_size()
    placed = place_pair(st.pose, scene._areas(W, H)["photos"])
    assert scene.placed is not None and list(scene.placed.rects) == list(placed.rects)
    for i, photo in enumerate(render_pair(st.photos, placed)):
        r = placed.rects[i]
        assert pygame.image.tobytes(scene.surfaces[i], "RGB") == pygame.image.tobytes(photo, "RGB")
        shown = app.screen.subsurface(r)
        assert pygame.image.tobytes(shown, "RGB") == pygame.image.tobytes(photo.convert(app.screen), "RGB"), i
