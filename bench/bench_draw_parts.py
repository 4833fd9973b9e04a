"""Every frame of every game kept in parts compared with the same frame drawn from scratch (issue 22).

``tests/test_draw_parts.py`` compares a sample of each game's 360 frames (the frames in which
what the game shows changed and the one after, the first frames, every 8th and a seeded few);
this bench compares all of them, for as many frames as asked, at each size asked, as that test
did before issue 22 moved the long run here.  Each game runs in the real App (SDL's dummy
driver) with computer players at every seat and the virtual LED matrix, on a virtual clock.

One line per game and size: frames compared, frames that differed (each saved as two PNGs
in the temporary folder, see ``tests/test_draw_parts._explain``), moves made, CPU seconds.
Exit status 1 when any frame differed.

    nice -n 10 python bench/bench_draw_parts.py [--frames 360] [--sizes 1280x720,1920x1080] [--entries focus-2p,...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pytest  # noqa: E402

from kiosk.scenes.lobby import find_game  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.test_draw_parts import ENTRIES, compare_every_frame, make_app, step  # noqa: E402


def run(entry: str, size: tuple[int, int], frames: int) -> tuple[int, int, int]:
    """(frames compared, frames that differed, moves made) for ``frames`` frames of ``entry``."""
    mp = pytest.MonkeyPatch()
    with tempfile.TemporaryDirectory() as tmp:
        app, clock = make_app(Path(tmp), size, mp)
        try:
            game = find_game(entry, None)
            seats = [SeatInfo("computer", f"computer {s + 1}", "medium") for s in range(game.demo_seats)]
            scene = game.start(app, seats)
            app.push(scene)
            shots = compare_every_frame(app, mp)
            differ = 0
            for f in range(frames):
                if f == 30 and getattr(scene, "setup", False):
                    scene.begin_resumed({})          # Focus (2023): the case chosen, the game begins
                step(app, clock, f)
                got, want = shots.pop()
                if got != want:
                    differ += 1
                    print(f"  {entry} {size[0]}x{size[1]}: frame {f} differs from it drawn from scratch")
            return frames, differ, len(getattr(scene.state, "history", ()))
        finally:
            app.close()
            mp.undo()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=360, help="frames of each game (default 360)")
    ap.add_argument("--sizes", default="1280x720,1920x1080", help="window sizes, WxH,WxH")
    ap.add_argument("--entries", default=",".join(ENTRIES), help="registry entries (default: all the test's)")
    a = ap.parse_args(argv)
    sizes = [(int(s.split("x")[0]), int(s.split("x")[1])) for s in a.sizes.split(",")]
    bad = 0
    print(f"{'entry':<24} {'size':>9} {'frames':>6} {'differ':>6} {'moves':>5} {'CPU s':>6}")
    for w, h in sizes:
        for entry in a.entries.split(","):
            t = time.process_time()
            n, differ, moves = run(entry, (w, h), a.frames)
            bad += differ
            print(f"{entry:<24} {f'{w}x{h}':>9} {n:>6} {differ:>6} {moves:>5} {time.process_time() - t:>6.1f}",
                  flush=True)
    print("every frame is the frame drawn from scratch" if not bad else f"{bad} frames differed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
