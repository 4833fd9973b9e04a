"""Sherlook photos (SL-1) and poses (SL-2).

``test_SL1_generator_check_passes_for_250_seeds`` generates 250 photo pairs and
checks each one again on the coarse grid at another sampling phase than the
generator's own check (about 12 CPU-s here); ``bench/bench_sherlook.py`` runs the
same check on 1,000 seeds.  The full check on the real pygame renderings runs here on a
subset of seeds (``test_SL1_full_check_on_pygame_renderings``) and on all 1,000
in ``bench/bench_sherlook.py``.
"""

from __future__ import annotations

import collections
import os
import random
from dataclasses import replace

import pytest

from arcade.sherlook.photos import MAX_PER_PHOTO, Alteration, generate_pair
from arcade.sherlook.poses import KEYS, POSES, frame_size, map_box, map_point, pose
from arcade.sherlook.raster import CheckLimits, check_pair
from arcade.sherlook.shapes import PHOTO_H, PHOTO_W
from arcade.sherlook.things import ALTERATIONS

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def test_SL1_generator_check_passes_for_250_seeds():
    """250 pairs: 1..10 differences, 0..5 a photo, never two on one object, and the
    coarse check (other sample points than the generator's) finds exactly the declared
    regions, each big and strong enough, nothing else."""
    counts: collections.Counter[int] = collections.Counter()
    changes: collections.Counter[str] = collections.Counter()
    themes = set()
    failures = []
    for seed in range(250):
        pair = generate_pair(seed)
        n0, n1 = pair.per_photo()
        assert 1 <= pair.count <= 10 and 0 <= n0 <= MAX_PER_PHOTO and 0 <= n1 <= MAX_PER_PHOTO, seed
        uids = [a.uid for a in pair.alterations]
        assert len(set(uids)) == len(uids), f"seed {seed}: one object altered twice"
        report = check_pair(pair, phase=0.75)
        if not report.ok:
            failures.append((seed, report.problems))
        assert report.count == pair.count or not report.ok
        counts[pair.count] += 1
        changes.update(a.change for a in pair.alterations)
        themes.add(pair.theme)
    assert failures == []
    assert sorted(counts) == list(range(1, 11))            # every count occurs
    assert set(changes) == set(ALTERATIONS)                 # all seven kinds of alteration occur
    assert themes == {"study", "street", "desk"}


def test_SL1_same_seed_same_photos():
    a, b = generate_pair(4242), generate_pair(4242)
    assert a == b
    assert a.shapes(0) == b.shapes(0) and a.shapes(1) == b.shapes(1)
    assert generate_pair(4243).base != a.base


def test_SL1_count_may_be_chosen_and_is_split_between_the_photos():
    for k in range(1, 11):
        pair = generate_pair(77, count=k)
        assert pair.count == k
        assert all(0 <= n <= 5 for n in pair.per_photo())
    with pytest.raises(ValueError):
        generate_pair(1, count=11)


def test_SL1_the_check_finds_what_is_wrong():
    """The check is not a rubber stamp: a change outside its declared box, an invisible
    alteration and two overlapping ones are each reported."""
    pair = generate_pair(5, count=3)
    assert check_pair(pair).ok
    # a change outside what is declared: the first alteration's box shrunk to a corner
    a0 = pair.alterations[0]
    corner = (a0.box[0], a0.box[1], a0.box[0] + 2, a0.box[1] + 2)
    rep = check_pair(replace(pair, alterations=(replace(a0, box=corner),) + pair.alterations[1:]))
    assert not rep.ok and rep.outside > 0 and 0 in rep.failing
    # invisible: an alteration that changes nothing
    t = next(t for t in pair.base if t.role == "item" and t.uid not in {a.uid for a in pair.alterations})
    ghost = Alteration(0, "recoloured", t.uid, t, t, t.box())
    rep = check_pair(replace(pair, alterations=pair.alterations + (ghost,)))
    assert not rep.ok and any("changes 0" in p for p in rep.problems)
    assert rep.count == pair.count                           # it counts the regions that really differ
    # overlapping: two boxes on top of each other
    twin = replace(pair.alterations[0], uid=-1)
    rep = check_pair(replace(pair, alterations=pair.alterations + (twin,)))
    assert not rep.ok and any("closer than" in p for p in rep.problems)


def test_SL1_full_check_on_pygame_renderings():
    """The real renderings (outlines, pygame's own rasteriser) of 25 spread seeds: the
    regions that differ are the declared ones, each at least the minimum area at the
    minimum colour distance; not one pixel differs elsewhere."""
    pytest.importorskip("pygame")
    from kiosk.games.sherlook.draw import check_rendered
    for seed in range(0, 1000, 40):
        pair = generate_pair(seed)
        rep = check_rendered(pair, 1000)
        assert rep.ok, (seed, rep.problems)
        assert rep.outside_px == 0 and rep.regions == pair.count
        assert min(rep.strong_area) >= CheckLimits().min_area


def test_SL2_ten_green_tokens_one_per_round_shuffled():
    from arcade.sherlook.game import SherlookGame
    orders = set()
    for seed in range(3):
        state = SherlookGame(3).new_initial_state()
        rng = random.Random(seed)
        seen = []
        for _ in range(10):
            act = state.chance_outcome(rng)
            seen.append(act.pose)
            state.tokens_used.append(act.pose)            # as Round does, without playing the round
        assert sorted(seen) == sorted(KEYS)                   # each token once in ten rounds
        orders.add(tuple(seen))
    assert len(orders) == 3
    names = {p.name for p in POSES}
    assert {"Side by side", "Side by side, head to toe", "One above the other",
            "Side by side, one mirrored"} <= names


def test_SL2_points_map_into_the_turned_photo():
    for t in ("none", "rot180", "rot90", "rot270", "flip_x", "flip_y"):
        w, h = frame_size(t)
        for p in ((0.0, 0.0), (PHOTO_W, PHOTO_H), (250.0, 100.0)):
            x, y = map_point(p, t)
            assert 0 <= x <= w and 0 <= y <= h
    assert map_point((0, 0), "rot90") == (PHOTO_H, 0)         # top-left goes to the top right
    assert map_point((10, 20), "rot180") == (PHOTO_W - 10, PHOTO_H - 20)
    assert map_box((10, 20, 30, 40), "flip_x") == (PHOTO_W - 30, 20, PHOTO_W - 10, 40)
    with pytest.raises(KeyError):
        pose("diagonal")


def test_SL2_photos_drawn_as_the_token_says_and_reveal_circles_follow():
    """Each pose: the photo on screen is the photo's own rendering turned or mirrored
    as the token says, and every difference of the photos' own frame is circled where the
    turned photo shows it (a mirrored photo is still the same scene)."""
    pygame = pytest.importorskip("pygame")
    pygame.init()
    from kiosk.games.sherlook.draw import place_pair, render_pair, render_photo, reveal_marks, transformed
    pair = generate_pair(11, count=4)
    for p in POSES:
        area = pygame.Rect(0, 0, 1264, 520) if p.arrangement == "side" else pygame.Rect(0, 0, 488, 708)
        placed = place_pair(p, area)
        a, b = placed.rects
        if p.arrangement == "side":
            assert a.right < b.left and abs(a.centery - b.centery) <= 1
        else:
            assert a.bottom < b.top and abs(a.centerx - b.centerx) <= 1
        shown = render_pair(pair, placed)
        for i in range(2):
            own = render_photo(pair, i, round(PHOTO_W * placed.scale), round(PHOTO_H * placed.scale))
            expected = transformed(own, p.transforms[i])
            assert shown[i].get_size() == placed.rects[i].size
            assert pygame.image.tobytes(shown[i], "RGB") == pygame.image.tobytes(expected, "RGB")
        # circles: photo 0 turned like photo 1 differs from photo 1 only inside photo 1's circles
        marks = reveal_marks(pair, placed)
        t1 = p.transforms[1]
        other = transformed(render_photo(pair, 0, round(PHOTO_W * placed.scale), round(PHOTO_H * placed.scale)), t1)
        w, h = other.get_size()
        pa, pb = pygame.PixelArray(other), pygame.PixelArray(shown[1])
        inside = pygame.mask.Mask((w, h))
        for _n, photo, rect in marks:
            if photo == 1:
                inside.draw(pygame.mask.Mask(rect.inflate(4, 4).size, fill=True),
                            (rect.x - placed.rects[1].x - 2, rect.y - placed.rects[1].y - 2))
        stray = 0
        for y in range(0, h, 3):
            for x in range(0, w, 3):
                if pa[x, y] != pb[x, y] and not inside.get_at((x, y)):
                    stray += 1
        pa.close()
        pb.close()
        assert stray == 0, p.key
