"""The buzzers-only explorer, fast mode (tests/explorer.py; the long mode is
bench/bench_explorer.py): every registry entry from the attract loop to its results and back
with buzzer gestures alone, and a seeded monkey on a few screens, at the four screen sizes
(one size per walk, in turn), the text checked on a sample of the frames.  A failure prints the
seed, the gesture trace and the command that plays the same walk again."""

from __future__ import annotations

from pathlib import Path

import pytest

from arcade import registry
from tests.explorer import MONKEY_REPLAYS, REPLAYS, SIZES, Explorer

#: The fast mode's pace: 100 ms frames, the text checked on every 20th (the long mode: 50 ms, every 10th).
FRAME_MS, TEXT_EVERY = 100, 20
ENTRIES = registry.names()


@pytest.mark.parametrize("entry", ENTRIES)
def test_every_registry_entry_is_played_from_the_title_to_its_results_with_buzzers_alone(
        entry: str, tmp_path: Path) -> None:
    size = SIZES[ENTRIES.index(entry) % len(SIZES)]
    ex = Explorer(tmp_path, seed=ENTRIES.index(entry) + 1, size=size, check_text=TEXT_EVERY, frame_ms=FRAME_MS)
    try:
        results = ex.goal(entry)
        assert entry in ex.checks.entries_done and results.state.outcome() is not None
        assert ex.checks.held.get("results: the winning rule") == 1
        assert ex.checks.held.get("text: whole and inside its part", 0) > 0
    finally:
        ex.close()


@pytest.mark.parametrize("start, size", [("lobby", (800, 480)), ("coop-mycroft-sherlock", (1920, 1080)),
                                         ("focus-4p", (480, 320))])
def test_a_seeded_monkey_finds_no_dead_end(start: str, size: tuple[int, int], tmp_path: Path) -> None:
    ex = Explorer(tmp_path, seed=11, size=size, check_text=TEXT_EVERY, frame_ms=FRAME_MS)
    try:
        ex.monkey_from(start, 45)
        assert ex.checks.frames > 300 and len(ex.trace.steps) > 15
    finally:
        ex.close()


def test_a_failure_names_the_seed_the_gestures_and_the_replay_command(tmp_path: Path) -> None:
    from tests.explorer import ExplorerFailure
    ex = Explorer(tmp_path, seed=42, size=(800, 480), check_text=0, frame_ms=FRAME_MS)
    try:
        ex.to_attract()
        ex.gesture(2, "tap")
        with pytest.raises(ExplorerFailure) as caught:
            ex.fail("a made-up failure")
    finally:
        ex.close()
    text = str(caught.value)
    assert "seed 42" in text and "P3       tap" in text
    assert "replay: python -m tests.explorer --seed 42 --size 800x480" in text


#: The monkey walks that once failed and are cheap enough for the fast mode (the long mode,
#: ``bench/bench_explorer.py --replays``, plays every one of MONKEY_REPLAYS again).
FAST_REPLAYS = [r for r in MONKEY_REPLAYS
                if (r[0], r[1]) in {("coop-base", 11315), ("focus-4p-teams", 13001), ("focus-4p", 1405)}]


@pytest.mark.parametrize("start, seed, size, frame_ms, every, seconds", FAST_REPLAYS)
def test_the_monkeys_that_found_a_defect_find_none_now(start: str, seed: int, size: tuple[int, int], frame_ms: int,
                                                       every: int, seconds: float, tmp_path: Path) -> None:
    """Monkey walks that once failed, again (tests/explorer.py MONKEY_REPLAYS): a long hold in
    Focus (2023) was counted from its press, not its release; the team name ran under the
    station label on an 800x480 FOCUS card; a FOCUS guest picking stacks and stepping back was
    taken for a stand-still (the move being chosen is the screen moving on)."""
    ex = Explorer(tmp_path, seed=seed, size=size, check_text=every, frame_ms=frame_ms)
    try:
        ex.monkey_from(start, seconds)
        assert ex.checks.frames >= seconds * 1000 / frame_ms
    finally:
        ex.close()


@pytest.mark.parametrize("size", [(480, 320), (1280, 720)])
def test_every_service_page_is_entered_used_and_left_with_buzzers_alone(size: tuple[int, int], tmp_path: Path) -> None:
    """The service walk (Explorer.service_walk; the long mode walks the four sizes): every page
    entered and left, every setting raised, lowered and taken to both ends of its range in at
    most 40 taps, the language changed to Ukrainian and back (the menu speaks each at once), the
    PIN changed, the button test kept until the combination, three wrong PINs lock it; the text
    whole and apart on every fifth frame."""
    ex = Explorer(tmp_path, seed=5, size=size, check_text=5, frame_ms=FRAME_MS)
    try:
        ex.service_walk()
        held = ex.checks.held
        assert held["service: a setting raised and lowered"] == 12      # the eleven settings and the volume
        assert held["service: the language changed"] == 2               # to Ukrainian and back
        assert held["service: the PIN changed"] == 1 and held["service: three wrong PINs lock it"] == 1
        assert held["text: no line over another"] > 100
    finally:
        ex.close()


@pytest.mark.parametrize("entry, seed, size, frame_ms, every", [r for r in REPLAYS if r[3] == FRAME_MS])
def test_the_goal_walks_that_found_a_defect_find_none_now(entry: str, seed: int, size: tuple[int, int],
                                                          frame_ms: int, every: int, tmp_path: Path) -> None:
    """The goal walks at the fast mode's pace that once failed, again (tests/explorer.py
    REPLAYS; the long mode plays every one): 4Focus at 480x320 squeezed a press's status in
    the race panel to 59 %, and drew a banner over the strip's window label."""
    ex = Explorer(tmp_path, seed=seed, size=size, check_text=every, frame_ms=frame_ms)
    try:
        ex.goal(entry)
        assert entry in ex.checks.entries_done
    finally:
        ex.close()


@pytest.mark.parametrize("entry, seed", [
    ("focus-2p", 1000),        # the compact card squeezed "away: computer plays" to 57 % beside "P1"
    ("focusx-duel-x", 1004),   # the race panel squeezed "P1: press without your focus - top card to
                               # penalty" to 52 %: a narrow panel shows "P1: penalty card"
    ("coop-base", 1500),       # a table letter drawn under "P1, LOOK AWAY!" (8 % of the table showed
                               # through the veil; CO-5: nothing of it is drawn under it now)
])
def test_the_leave_walks_that_found_a_defect_on_a_small_panel_read_whole(entry: str, seed: int,
                                                                         tmp_path: Path) -> None:
    """Found by the long mode (issue 20) at 480x320: the goal, then everyone leaves, every 10th
    frame's text checked."""
    ex = Explorer(tmp_path, seed=seed, size=(480, 320), check_text=10, frame_ms=50)
    try:
        ex.goal(entry)
        ex.everyone_leaves(entry)
    finally:
        ex.close()


@pytest.mark.parametrize("how, size", [("drop", (480, 320)), ("choose-drop", (800, 480)),
                                       ("resume", (1280, 720)), ("wait", (1920, 1080))])
def test_the_offer_of_an_interrupted_game_is_answered_with_buzzers_alone(how: str, size: tuple[int, int],
                                                                          tmp_path: Path) -> None:
    """Issue 20: after a power cut in a game, the title's "A game was interrupted" named OK and
    X, which a buzzers-only cabinet has not, and no buzzer dropped the game.  A long hold (the
    way back) or a tap to "Drop it" and a hold drop it (the next start offers nothing); a hold
    resumes it at its saved step; nobody answering, it resumes by itself.  Every frame's text
    names only the buzzer's gestures (Checks.controls_named)."""
    ex = Explorer(tmp_path, seed=21, size=size, check_text=5, frame_ms=FRAME_MS)
    try:
        ex.resume_walk("focus-2p", how)
        held = ex.checks.held
        assert held["text: only the controls wired here"] > 0
        assert any(k.startswith("way out: the interrupted game") for k in held)
    finally:
        ex.close()


@pytest.mark.parametrize("size", [(480, 320), (1280, 720)])
def test_the_lobby_and_the_pin_screen_have_a_buzzer_way_back(size: tuple[int, int], tmp_path: Path) -> None:
    """Issue 20: the lobby had no buzzer "back" (the README's long hold): a long hold now
    un-joins that seat and the last one's brings the title back, on "Start" too, where it
    never starts the game.  The PIN screen given up (long hold) or timed out went back to the
    lobby the combination opened, with P1 and P2 joined, which started a game nobody asked
    for: the title comes back."""
    ex = Explorer(tmp_path, seed=22, size=size, check_text=5, frame_ms=FRAME_MS)
    try:
        ex.lobby_back()
        ex.pin_ways_out()
        held = ex.checks.held
        assert held["way out: the lobby's long hold"] == 1
        assert held["way out: the PIN screen (long)"] == 1 and held["way out: the PIN screen (time-out)"] == 1
        assert held["text: only the controls wired here"] > 0
    finally:
        ex.close()


@pytest.mark.parametrize("taps", [1, 3])
def test_guests_who_tap_on_their_own_seat_row_play_their_seats(taps: int, tmp_path: Path) -> None:
    """Issue 20: P1 taps on their own seat row in the lobby (an odd number of taps), then the
    countdown starts the game.  Before: the first tap made P1 leave and the game gave P1's seat to a computer,
    P1's buzzer dead all game; the explorer's game-start check (every seat a person joined
    plays at its buzzer) says so, and P1's presses act in the game."""
    ex = Explorer(tmp_path, seed=20 + taps, size=(800, 480), check_text=TEXT_EVERY, frame_ms=FRAME_MS)
    try:
        game = ex.own_row_taps("focus-2p", taps)
        assert ex.checks.held.get("game start: every joined seat plays at its buzzer") == 1
        assert ex.checks.started_with == {0, 1}
        for seat in (0, 1):                                # their presses reach their seats
            t = ex.clock.t
            ex.gesture(seat, "tap")
            assert ex.top is game and ex.checks.last_press.get(seat, 0) >= t, f"P{seat + 1}'s press was refused"
    finally:
        ex.close()
