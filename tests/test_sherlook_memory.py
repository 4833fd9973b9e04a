"""A day of Sherlook rounds keeps its drawing caches bounded (issue 23, part 5).

What the operator notices: a cabinet that plays Sherlook all day does not creep towards the
Pi's memory limit; each round's new photo pair draws things in new colourings, and the
outlines of every colouring seen were kept (4096 of them, some 10 MB).
"""

from __future__ import annotations

import gc
import itertools
import tracemalloc

from arcade.sherlook import things


def test_the_outlines_of_a_days_colourings_stay_within_a_few_hundred_kilobytes() -> None:
    kinds = sorted(things.KINDS)
    colourings = itertools.product(range(0, 256, 51), repeat=3)
    things._local.cache_clear()
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for n, rgb in enumerate(itertools.islice(colourings, 200)):
            for kind in kinds[n % 5::5][:10]:
                things._local(kind, 0, (rgb, things.RED, things.BLUE))
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    info = things._local.cache_info()
    assert info.misses > 4 * things.LOCAL_SHAPES_MAX          # many more colourings than kept
    assert info.currsize <= things.LOCAL_SHAPES_MAX
    assert grown < 2 * 2**20, f"{grown / 2**20:.1f} MB kept"


def test_a_thing_drawn_again_in_the_same_colours_is_the_same_outline() -> None:
    kind = sorted(things.KINDS)[0]
    colours = (things.KINDS[kind].palette[0], things.RED, things.BLUE)
    assert things._local(kind, 1, colours) is things._local(kind, 1, colours)
