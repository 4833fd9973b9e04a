"""A buzzer-only operator changes a setting with a big range quickly (issue 20: "Attract loop
after" has 719 steps of 5 s, "LED current limit" 398 of 50 mA; one tap a step took up to 719
taps).  Quick taps (at most ``FAST_TAP_NS`` apart) step 10, then 100 times as far, never more
than a third of the range in one tap; a slow tap, a hold (turn round) or the end of the range
starts over at one step, so every value is still reached; the hint says the step a tap makes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from kiosk.scenes.service.menu import ServiceScene  # noqa: E402
from kiosk.scenes.service.rows import FAST_TAP_NS, SETTINGS  # noqa: E402
from tests.text_fit import sized_app  # noqa: E402

QUICK_NS, SLOW_NS = 300_000_000, FAST_TAP_NS + 200_000_000


@pytest.fixture()
def svc(tmp_path: Path) -> Iterator[ServiceScene]:
    app = sized_app(tmp_path, (1280, 720))
    scene = ServiceScene(app)
    app.push(scene)
    scene.page = "settings"
    yield scene
    app.close()
    pygame.display.quit()


def edit(svc: ServiceScene, key: str) -> Any:
    svc.cursor = next(i for i, s in enumerate(SETTINGS) if s.key == key)
    svc.act("ok", buzzer=True)
    assert svc.editing and svc.direction == 1
    return SETTINGS[svc.cursor]


def tap(svc: ServiceScene, gap_ns: int) -> Any:
    svc.now += gap_ns
    svc.act("next", buzzer=True)
    s = svc.edited()
    return svc.values[(s.section, s.key)]


def test_quick_taps_cross_the_attract_loops_719_steps_in_a_few_dozen_taps(svc: ServiceScene) -> None:
    s = edit(svc, "idle_s")
    k = (s.section, s.key)
    low, high = s.checker().low, s.checker().high
    svc.values[k] = low
    taps, seen = 0, [low]
    while svc.values[k] < high:
        seen.append(tap(svc, QUICK_NS))
        taps += 1
        assert taps <= 30, seen
    assert seen[1:5] == [10, 15, 20, 25]                 # the first taps: one step each
    assert seen[5] - seen[4] == 50                       # then 10 steps a tap
    assert max(b - a for a, b in zip(seen, seen[1:])) == 500    # then 100 (a third of 3595 s at most)
    assert svc.direction == -1 and svc.values[k] == high         # the end of the range: the next tap goes down
    assert svc.step_words().startswith("-5 s")
    assert tap(svc, QUICK_NS) == high - 5                       # ... one step, the run starts over
    down = [tap(svc, QUICK_NS) for _ in range(10)]
    assert down[-1] < high - 5 - 9 * 5                           # and quick taps go down fast too


def test_a_slow_tap_or_a_hold_steps_one_again_and_the_hint_says_the_step(svc: ServiceScene) -> None:
    s = edit(svc, "max_current_ma")
    k = (s.section, s.key)
    svc.values[k] = 1000
    assert svc.step_words() == "+50 mA (quick: faster)"
    for _ in range(5):
        tap(svc, QUICK_NS)
    assert svc.values[k] == 1000 + 4 * 50 + 500
    svc.now += QUICK_NS // 2
    assert svc.step_words() == "+500 mA"                 # what the next quick tap does
    assert tap(svc, SLOW_NS) == 1700 + 50                # a slow tap: one step
    tap(svc, QUICK_NS)
    svc.now += QUICK_NS
    svc.act("ok", buzzer=True)                           # a hold turns round ...
    assert tap(svc, QUICK_NS) == 1800 - 50               # ... and steps one again


@pytest.mark.parametrize("s", SETTINGS, ids=lambda s: s.key)
def test_slow_taps_still_reach_every_value_and_no_tap_jumps_past_a_third_of_the_range(
        svc: ServiceScene, s: Any) -> None:
    edit(svc, s.key)
    k = (s.section, s.key)
    check = s.checker()
    choices = getattr(check, "choices", None)
    if choices:
        assert {tap(svc, QUICK_NS) for _ in range(len(choices))} == set(choices)
        return
    n = round((check.high - check.low) / s.step)
    svc.values[k] = check.low
    seen = {tap(svc, SLOW_NS) for _ in range(n)}
    assert len(seen) == n and max(seen) == check.high      # every value, one step a slow tap
    for _ in range(3 * n):
        before = svc.values[k]
        after = tap(svc, QUICK_NS)
        assert abs(after - before) <= (check.high - check.low) / 3 + 1e-9
