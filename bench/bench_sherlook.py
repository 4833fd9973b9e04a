"""Sherlook figures: photo generation and rendering time, difference counts, the SL-1 check.

    .venv/bin/python bench/bench_sherlook.py [--rounds 1000] [--no-check]
    .venv/bin/python bench/bench_sherlook.py --shots docs      # the docs screenshots

For each of N rounds (scene seeds drawn as the game draws them), it measures
the time to generate the photo pair (scene, alterations and the coarse SL-1
check included) and to render both photos as a round shows them on a
1280x720 screen (the round's pose, photos turned and mirrored), and prints
the median and the worst.  It prints the distribution of difference counts
(SL-1: 1..10), of the split between the two photos (each 0..5), of the kinds
of alteration and of the themes.  Unless ``--no-check``, it runs the full
SL-1 check on the real pygame renderings of every pair at 1000 px
(``kiosk.games.sherlook.draw.check_rendered``) and prints how many pass.

``--shots DIR`` plays three rounds of a 4-player game of computer players in
virtual time and saves, for each round, the screen just before the reveal
and the reveal (``DIR/sherlook-<n>-<pose>-before.png`` / ``-after.png``).
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from arcade.sherlook.photos import generate_pair  # noqa: E402
from arcade.sherlook.poses import POSES  # noqa: E402
from arcade.sherlook.raster import check_pair  # noqa: E402
from kiosk.games.sherlook.draw import check_rendered, place_pair, render_pair  # noqa: E402


def figures(rounds: int, check: bool) -> None:
    pygame.init()
    screen = pygame.display.set_mode((1280, 720))
    rng = random.Random("bench-sherlook")
    gen_ms, render_ms, total_ms = [], [], []
    counts: collections.Counter[int] = collections.Counter()
    splits: collections.Counter[tuple[int, int]] = collections.Counter()
    changes: collections.Counter[str] = collections.Counter()
    themes: collections.Counter[str] = collections.Counter()
    rejected = 0
    failures = []
    check_ms = []
    coarse_failures: list[tuple[int, list[str]]] = []
    for i in range(rounds):
        seed = rng.randrange(1 << 31)                # as SherlookState.chance_outcome draws it
        pose = POSES[i % len(POSES)]
        side = pose.arrangement == "side"
        area = pygame.Rect(8, 48, 1264, 520) if side else pygame.Rect(396, 6, 488, 708)
        t0 = time.perf_counter()
        pair = generate_pair(seed)
        t1 = time.perf_counter()
        render_pair(pair, place_pair(pose, area))
        t2 = time.perf_counter()
        gen_ms.append((t1 - t0) * 1000)
        render_ms.append((t2 - t1) * 1000)
        total_ms.append((t2 - t0) * 1000)
        counts[pair.count] += 1
        splits[tuple(sorted(pair.per_photo()))] += 1   # type: ignore[index]
        themes[pair.theme] += 1
        rejected += pair.rejected
        for a in pair.alterations:
            changes[a.change] += 1
        if check:
            t3 = time.perf_counter()
            rep = check_rendered(pair, 1000)
            check_ms.append((time.perf_counter() - t3) * 1000)
            if not rep.ok:
                failures.append((seed, rep.problems))
            coarse = check_pair(pair, phase=0.75)   # the coarse grid at another phase (tests: 250 seeds)
            if not coarse.ok or coarse.count != pair.count:
                coarse_failures.append((seed, coarse.problems))
    del screen
    n = len(total_ms)
    print(f"Sherlook photo pairs: {n} rounds (Python {sys.version.split()[0]}, pygame-ce {pygame.version.ver})")
    for name, xs in (("generate (scene + alterations + coarse check)", gen_ms),
                     ("render both photos for a 1280x720 screen", render_ms), ("generate + render", total_ms)):
        print(f"  {name:48s} median {statistics.median(xs):6.1f} ms   worst {max(xs):6.1f} ms")
    print(f"  candidate pairs refused by the final check: {rejected}")
    print("difference counts (SL-1: 1..10):")
    for c in range(1, 11):
        print(f"  {c:2d}: {counts[c]:4d}  {'#' * round(60 * counts[c] / max(counts.values()))}")
    print("split between the photos (fewer, more): " +
          ", ".join(f"{a}+{b}: {v}" for (a, b), v in sorted(splits.items())))
    print("alterations: " + ", ".join(f"{k} {v}" for k, v in changes.most_common()))
    print("themes: " + ", ".join(f"{k} {v}" for k, v in themes.most_common()))
    if check:
        print(f"full SL-1 check on the pygame renderings at 1000 px: {n - len(failures)}/{n} pass "
              f"(median {statistics.median(check_ms):.1f} ms a pair)")
        for seed, problems in failures[:10]:
            print(f"  seed {seed}: {'; '.join(problems)}")
        print(f"coarse SL-1 check at another sampling phase: {n - len(coarse_failures)}/{n} pass")
        for seed, problems in coarse_failures[:10]:
            print(f"  seed {seed}: {'; '.join(problems)}")


def shots(outdir: Path, seed: int, rounds: int) -> None:
    """Play ``rounds`` rounds in virtual time and save before/after-reveal screenshots."""
    from hardware.sink import drain
    from kiosk import config as configmod
    from kiosk.app.loop import App
    from kiosk.games.sherlook.scene import SherlookScene
    from kiosk.scenes.seats import SeatInfo

    pygame.init()
    screen = pygame.display.set_mode((1280, 720))
    cfg = configmod.load(None)
    cfg.data["led"]["port"] = "none"
    cfg.data["storage"]["path"] = ":memory:"
    app = App(cfg, screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))
    seats = [SeatInfo("keyboard", "key 1 / A S D", "medium", True)] + \
            [SeatInfo("computer", "computer (medium)", "medium") for _ in range(3)]
    # the keyboard seat is played by a computer player too (its presses are planned alike)
    scene = SherlookScene(app, seats, seed=seed)
    from arcade.bots.sherlook import SherlookBot, skill
    scene.bots[0] = SherlookBot(0, skill("hard"), random.Random(seed))
    app.push(scene)
    outdir.mkdir(parents=True, exist_ok=True)
    t = 10**12
    frame = 16_666_667
    last_race: pygame.Surface | None = None
    saved = 0
    reveal_at = None
    while saved < rounds:
        app.computer.pump(t)
        for edge in drain(app.queue):
            scene.on_edge(edge)
        before = scene.phase
        scene.update(t)
        scene.draw(screen)
        scene.frame_shown(t)
        pose = scene.state.pose_key
        if scene.phase == "race":
            last_race = screen.copy()
        if before == "race" and scene.phase == "reveal" and last_race is not None:
            pygame.image.save(last_race, str(outdir / f"sherlook-{saved + 1}-{pose}-before.png"))
            reveal_at = t
        if reveal_at is not None and t - reveal_at > 1_500_000_000:
            pygame.image.save(screen, str(outdir / f"sherlook-{saved + 1}-{pose}-after.png"))
            print(f"round {saved + 1}: {pose}, {scene.state.rounds[-1].count} differences, "
                  f"markers {scene.state.rounds[-1].markers}")
            saved += 1
            reveal_at = None
        t += frame
    app.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--no-check", action="store_true", help="skip the full pygame check")
    ap.add_argument("--shots", default="", help="save docs screenshots in this directory instead")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    if args.shots:
        shots(Path(args.shots), args.seed, 3)
    else:
        figures(args.rounds, not args.no_check)


if __name__ == "__main__":
    main()
