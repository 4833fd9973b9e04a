"""The Sherlook marker race (SL-3) and the shout rulings it follows (R-1..R-8, SLA-1..SLA-3)."""

from __future__ import annotations

import itertools
import random

import pytest

from arcade.core.api import CHANCE, RACE
from arcade.core.errors import IllegalActionError, SettingsError
from arcade.core.events import Edge
from arcade.sherlook.game import SherlookGame
from arcade.sherlook.markers import MarkerRace, MarkerReferee, MarkerSettings, Take, summarise

MS = 1_000_000
OPEN = 1_000_000 * MS          # the race opens at t = 1000 s (any CLOCK_MONOTONIC value)
STEP = 800                      # default highlight step, ms


def new_race(players=(0, 1), seed: int = 1, **kw) -> MarkerRace:
    r = MarkerRace(tuple(players), MarkerSettings(**kw), random.Random(seed))
    r.open(OPEN)
    return r


def tap(seat: int, at_ms: float, control: str = "buzzer", hold_ms: float = 80) -> list[Edge]:
    t = OPEN + int(at_ms * MS)
    return [Edge(t, seat, control, True), Edge(t + int(hold_ms * MS), seat, control, False)]


def on_marker(m: int, into_ms: float = 400) -> float:
    """A time (ms after opening) when the buzzer highlight is on marker ``m`` (all free)."""
    return (m - 1) * STEP + into_ms


def feed(r: MarkerRace, edges) -> None:
    for e in edges:
        r.feed(e)


def test_B5_SL3_claim_race_reverse_delivery_earlier_stamp_wins():
    """Two seats claim marker 7, stamps 3 ms apart, delivered in reverse order: the earlier wins,
    the other is told it lost and chooses again."""
    r = new_race()
    early = tap(1, on_marker(7))
    late = tap(0, on_marker(7) + 3)
    feed(r, late + early)                        # the later press reaches the referee first
    events = r.tick(OPEN + int((on_marker(7) + 200) * MS))
    took = [e for e in events if e.kind == "took"]
    assert [(e.seats, e.marker) for e in took] == [((1,), 7)]
    lost = [e.note for e in events if e.kind == "refused"]
    assert [(n.seat, n.status, n.by) for n in lost] == [(0, "lost", 1)]
    assert r.held == {1: 7}
    # the loser chooses again: marker 8 a moment later
    feed(r, tap(0, on_marker(8)))
    r.tick(OPEN + int((on_marker(8) + 200) * MS))
    assert r.held == {1: 7, 0: 8}


def test_R1_delivery_order_never_changes_who_takes_what():
    presses = [tap(0, on_marker(3)), tap(1, on_marker(3) + 1), tap(2, on_marker(5)), tap(3, on_marker(5) + 40)]
    outcomes = set()
    for order in itertools.permutations(presses):
        r = new_race(players=(0, 1, 2, 3))
        for p in order:
            feed(r, p)
        r.tick(OPEN + 10_000 * MS)
        outcomes.add(tuple(sorted(r.held.items())))
    assert outcomes == {((0, 3), (2, 5))}


def test_R6_a_contested_marker_is_decided_only_after_the_settle_time():
    r = new_race(settle_ms=30)
    t_late = on_marker(4) + 10
    feed(r, tap(0, t_late))
    assert r.tick(OPEN + int((t_late + 29) * MS)) == []       # not settled yet: nothing decided
    feed(r, tap(1, on_marker(4)))                              # stamped 10 ms earlier, delivered late
    r.tick(OPEN + int((t_late + 31) * MS))
    assert r.held == {1: 4}


def test_SL3_a_taken_marker_is_binding():
    r = new_race()
    feed(r, tap(0, on_marker(2)))
    r.tick(OPEN + 3000 * MS)
    feed(r, tap(0, on_marker(6)))                             # a second press: ignored
    events = r.tick(OPEN + 6000 * MS)
    assert r.held == {0: 2}
    assert [e.note.status for e in events if e.kind == "refused"] == ["holds"]


def test_SL3_countdown_for_the_last_player_then_no_score():
    r = new_race(players=(0, 1, 2))
    feed(r, tap(0, on_marker(2)) + tap(1, on_marker(3)))
    r.tick(OPEN + 3000 * MS)
    assert r.waiting() == (2,) and r.countdown_wanted
    shown = OPEN + 3010 * MS                                   # the frame showing it is flipped
    ev = r.countdown_shown(shown)
    assert ev is not None and ev.kind == "countdown" and ev.seats == (2,)
    assert r.deadline() == shown + 3000 * MS
    assert r.countdown_left(shown + 1000 * MS) == pytest.approx(2.0)
    events = r.tick(shown + 3100 * MS)
    assert [(e.kind, e.seats) for e in events if e.kind == "timeout"] == [("timeout", (2,))]
    assert r.is_over() and 2 not in r.held
    # a press after the countdown counts for nothing
    feed(r, tap(2, 3010 + 3050))
    r.tick(shown + 5000 * MS)
    assert 2 not in r.held


def test_SL3_claim_stamped_at_the_deadline_still_counts():
    r = new_race(players=(0, 1), countdown_step_ms=550)
    feed(r, tap(0, on_marker(1)))
    r.tick(OPEN + 1000 * MS)
    r.countdown_shown(OPEN + 1000 * MS)
    deadline = r.deadline()
    assert deadline is not None
    feed(r, [Edge(deadline, 1, "buzzer", True), Edge(deadline + 80 * MS, 1, "buzzer", False)])
    r.tick(deadline + 200 * MS)
    assert 1 in r.held and 1 not in r.timed_out


def test_SLA1_buzzer_highlight_steps_through_free_markers_only():
    r = new_race(players=(0, 1, 2))
    feed(r, tap(0, on_marker(2)))                              # marker 2 is taken at 1.2 s
    r.tick(OPEN + 1500 * MS)
    steps = r.schedule(OPEN, OPEN + 5 * STEP * MS)
    assert [m for _, _, m in steps][:5] == [1, 2, 3, 4, 5]    # 2 was being shown when it was taken
    later = r.schedule(OPEN + 8 * STEP * MS, OPEN + 12 * STEP * MS)
    assert 2 not in [m for _, _, m in later]                   # the next time round, 2 is skipped


def test_SLA1_a_press_just_after_the_highlight_moved_counts_for_the_marker_before():
    r = new_race(grace_ms=150)
    boundary = 4 * STEP                                       # the highlight moves from 4 to 5
    feed(r, tap(0, boundary + 100))                           # within the grace
    feed(r, tap(1, boundary + 400))                           # well after it
    r.tick(OPEN + 6000 * MS)
    assert r.held == {0: 4, 1: 5}


def test_SLA1_left_right_ok_cursor_skips_taken_markers():
    r = new_race(players=(0, 1))
    feed(r, tap(1, on_marker(6)))                             # 6 taken by the buzzer
    feed(r, tap(0, 6000, "right"))                            # cursor starts on 4: 4 -> 5
    feed(r, tap(0, 6200, "right"))                            # 5 -> 7 (6 is taken)
    feed(r, tap(0, 6400, "ok"))
    r.tick(OPEN + 7000 * MS)
    assert r.held == {1: 6, 0: 7}
    note = [n for n in r.notes if n.seat == 0][0]
    assert note.source == "ok" and note.offset_ms == pytest.approx(6400.0)


def test_R2_presses_before_the_photos_are_shown_do_not_count():
    r = MarkerRace((0, 1), MarkerSettings(), random.Random(1))
    early = Edge(OPEN - 200 * MS, 0, "buzzer", True)
    r.feed(early)
    r.feed(Edge(OPEN - 120 * MS, 0, "buzzer", False))
    r.open(OPEN)
    r.tick(OPEN + 2000 * MS)
    assert r.held == {} and r.notes == []


def test_R3_a_bouncing_buzzer_claims_once():
    r = new_race()
    t = OPEN + int(on_marker(5) * MS)
    bounces = [Edge(t, 0, "buzzer", True), Edge(t + 300_000, 0, "buzzer", False),
               Edge(t + 700_000, 0, "buzzer", True), Edge(t + 1_200_000, 0, "buzzer", False),
               Edge(t + 1_600_000, 0, "buzzer", True), Edge(t + 90 * MS, 0, "buzzer", False)]
    feed(r, bounces)
    r.tick(t + 500 * MS)
    assert r.held == {0: 5}
    assert len(r.notes) == 1


def test_R5_identical_stamps_are_decided_by_a_recorded_chance_outcome():
    winners = set()
    for seed in range(12):
        r = new_race(seed=seed)
        feed(r, tap(0, on_marker(9)) + tap(1, on_marker(9)))
        events = r.tick(OPEN + 9000 * MS)
        took = [e for e in events if e.kind == "took"][0]
        assert took.tie and took.note.status == "tie-won"
        winners.add(took.seats[0])
    assert winners == {0, 1}               # never decided by the seat number


def test_R7_every_claim_kept_in_order_with_its_offset():
    r = new_race(players=(0, 1, 2))
    feed(r, tap(2, on_marker(3) + 0.25) + tap(0, on_marker(3) + 12.4) + tap(1, on_marker(4)))
    r.tick(OPEN + 5000 * MS)
    assert [(n.seat, n.status) for n in r.notes] == [(2, "took"), (0, "lost"), (1, "took")]
    assert r.notes[1].offset_ms == pytest.approx(on_marker(3) + 12.4, abs=0.05)
    lines = summarise(r.notes)
    assert lines[1].startswith("P1 lost 3 to P3")


def test_R8_a_stuck_button_is_flagged_and_blocks_nobody():
    r = new_race(stuck_after_s=5)
    r.feed(Edge(OPEN + 100 * MS, 0, "buzzer", True))          # held down, never released
    feed(r, tap(1, on_marker(7)))
    r.tick(OPEN + 7000 * MS)
    assert r.stuck(OPEN + 7000 * MS) == (0,)
    assert r.held == {0: 1, 1: 7}                              # the stuck press counted once


def test_SLA3_round_limit_gives_everyone_left_the_countdown():
    r = new_race(players=(0, 1, 2), round_limit_s=20)
    events = r.tick(OPEN + 20_100 * MS)
    assert [e.kind for e in events] == ["round-limit"]
    ev = r.countdown_shown(OPEN + 20_110 * MS)
    assert ev is not None and ev.seats == (0, 1, 2)
    events = r.tick(OPEN + 23_200 * MS)
    assert [e.seats for e in events if e.kind == "timeout"] == [(0, 1, 2)]


def test_settings_out_of_range_are_refused():
    with pytest.raises(SettingsError):
        MarkerSettings(countdown_ms=10)
    with pytest.raises(SettingsError):
        MarkerSettings(step_ms=300, grace_ms=300)


def test_referee_applies_takes_and_time_up_to_the_game():
    state = SherlookGame(2).new_initial_state()
    state.resolve_chance(random.Random(4))
    assert state.current_player() == RACE
    ref = MarkerReferee(state, MarkerSettings(), random.Random(1))
    ref.frame_shown(OPEN)
    ref.feed(Edge(OPEN + int(on_marker(2) * MS), 0, "buzzer", True))
    ref.tick(OPEN + 3000 * MS)
    assert state.markers == {0: 2}
    race = ref.current()
    assert race is not None and race.countdown_wanted
    ref.frame_shown(OPEN + 3010 * MS)                         # the countdown is shown
    ref.tick(OPEN + 6200 * MS)
    assert state.timed_out == {1}
    assert state.current_player() == CHANCE                   # round scored, next round due
    assert state.rounds[-1].score.points[1] == 0
    with pytest.raises(IllegalActionError):
        state.apply(Take(0, 3))                                # no race open now


def test_led_picture_shows_markers_taken_free_the_ring_and_who_is_choosing():
    from arcade.lights.pictures import seat_colour
    from arcade.sherlook.pictures import FREE, HIGHLIGHT, markers_picture
    pic = markers_picture({3: 1, 7: 0}, highlight=5, waiting=(2,), width=16, height=16)
    assert len(pic) == 16 and all(len(row) == 16 for row in pic)
    colours = {px for row in pic for px in row}
    assert {seat_colour(0), seat_colour(1), seat_colour(2), HIGHLIGHT, FREE} <= colours
    # marker 3 (top row, third block) is P2's colour; marker 5 carries the ring
    top = [px for px in pic[1] if px != (0, 0, 0)]
    blocks = [top[i] for i in range(0, len(top), max(1, len(top) // 5))][:5]
    assert blocks[2] == seat_colour(1) and blocks[4] == HIGHLIGHT


# ---------------------------------------------------------------- fixes of issue 5

REACTION_MS = 250        # a player presses this long after their number lights up
NOTICE_MS = 250          # ... and needs this long to notice that the countdown started


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_SLA1_a_buzzer_alone_reaches_every_free_marker_in_the_countdown(players):
    """The last player has only a buzzer: whatever markers the others hold and wherever the
    ring is when the countdown starts, pressing when the wanted number lights up takes it."""
    rng = random.Random(players)
    checked = 0
    for start_ms in (1000, 2300, 3700, 5100, 6650, 7990):
        held = dict(zip(range(players - 1), rng.sample(range(1, 11), players - 1)))
        last = players - 1
        for want in [m for m in range(1, 11) if m not in held.values()]:
            r = MarkerRace(tuple(range(players)), MarkerSettings(), random.Random(1), dict(held))
            r.open(OPEN)
            r.tick(OPEN + int(start_ms * MS))
            assert r.countdown_wanted
            r.countdown_shown(OPEN + int(start_ms * MS))
            start, deadline = r.countdown_start, r.deadline()
            assert start is not None and deadline is not None
            steps = r.schedule(start, deadline)
            assert all(b - a >= 200 * MS for a, b, _ in steps[:-1])          # a sensible minimum step
            lit = [a for a, _, m in steps if m == want and a >= start + NOTICE_MS * MS
                   and a + REACTION_MS * MS <= deadline]
            assert lit, f"{players} players: marker {want} never lights up in time (held {held})"
            press = lit[0] + REACTION_MS * MS
            r.feed(Edge(press, last, "buzzer", True))
            r.feed(Edge(press + 80 * MS, last, "buzzer", False))
            r.tick(deadline + 500 * MS)
            assert r.held.get(last) == want and last not in r.timed_out
            checked += 1
    assert checked == 6 * (11 - players)


def test_SLA1_the_countdown_ring_starts_at_the_lowest_free_marker_and_laps_in_time():
    r = MarkerRace((0, 1), MarkerSettings(), random.Random(1), {0: 1})
    r.open(OPEN)
    r.tick(OPEN + 4321 * MS)
    r.countdown_shown(OPEN + 4321 * MS)
    start = r.countdown_start
    steps = r.schedule(start, r.deadline())
    assert steps[0][2] == 2 and steps[0][0] == start          # marker 1 is held: 2 is the lowest free
    lap = [m for _, _, m in steps[:9]]
    assert lap == [2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert steps[8][1] - start <= 0.8 * 3000 * MS + 1000      # the whole lap within 2.4 s


def test_R4_SLA2_the_tie_window_does_not_apply_to_marker_claims():
    """Claims 3 ms apart (well inside the 20 ms tie window of shouts) are not a tie: the
    earlier stamp takes the marker, in either delivery order, whatever the chance."""
    for seed in range(8):
        for first, second in ((0, 1), (1, 0)):
            r = new_race(seed=seed)
            early, late = tap(first, on_marker(6)), tap(second, on_marker(6) + 3)
            feed(r, late + early if seed % 2 else early + late)
            events = r.tick(OPEN + int((on_marker(6) + 300) * MS))
            took = [e for e in events if e.kind == "took"]
            assert [(e.seats, e.marker, e.tie) for e in took] == [((first,), 6, False)]
            lost = [e.note for e in events if e.kind == "refused"]
            assert [(n.seat, n.status) for n in lost] == [(second, "lost")]


def test_SLA1_a_cursor_on_a_marker_someone_takes_moves_to_the_nearest_free_one():
    r = new_race(players=(0, 1, 2))
    assert r.cursor_of(0) == 4
    feed(r, tap(1, on_marker(4)))                              # P2 takes 4 with the buzzer
    r.tick(OPEN + 4000 * MS)
    assert r.held == {1: 4}
    assert r.cursor_of(0) == 3                                 # 3 and 5 as near: the lower one
    feed(r, tap(2, on_marker(3)))                              # P3 takes 3: the cursor goes on to 2
    r.tick(OPEN + 3500 * MS)
    assert r.cursor_of(0) == 2
    feed(r, tap(0, 5000, "ok"))                                # OK now takes the marker shown under it
    r.tick(OPEN + 6000 * MS)
    assert r.held[0] == 2


def test_SLA1_an_OK_too_soon_after_the_cursor_moved_loses_the_old_marker_not_a_surprise_one():
    """P1's cursor is on 4; P2 takes 4; P1 presses OK 40 ms later, before anyone could see the
    cursor move: P1 is told P2 took 4 and chooses again; P1 does not get 3 by surprise."""
    r = new_race(players=(0, 1, 2))
    t4 = on_marker(4)
    feed(r, tap(1, t4) + tap(0, t4 + 40, "ok"))
    events = r.tick(OPEN + int((t4 + 500) * MS))
    assert r.held == {1: 4}
    refused = [e.note for e in events if e.kind == "refused"]
    assert [(n.seat, n.marker, n.status, n.by) for n in refused] == [(0, 4, "lost", 1)]
    assert r.cursor_of(0) == 3


@pytest.mark.parametrize("seed", range(8))
def test_SL3_one_seat_presses_OK_and_buzzer_at_one_stamp_no_claim_vanishes(seed):
    """P1 presses OK (cursor on 4) and the buzzer (ring on 1) at the same stamp; P3 presses OK
    on 4 at that stamp too.  Every claim is granted, refused with a reason (choose again), or
    listed as P1's ignored second claim; P3 is never left without a word."""
    r = MarkerRace((0, 1, 2), MarkerSettings(), random.Random(seed))
    r.open(OPEN)
    t = OPEN + 500 * MS                                       # the ring is on 1
    for seat, control in ((0, "ok"), (0, "buzzer"), (2, "ok")):
        r.feed(Edge(t, seat, control, True))
        r.feed(Edge(t + 60 * MS, seat, control, False))
    events = r.tick(t + 200 * MS)
    by_claim = {(n.seat, n.source): n.status for n in r.notes}
    assert set(by_claim) == {(0, "ok"), (0, "buzzer"), (2, "ok")}             # all three listed
    assert by_claim[(0, "buzzer")] == "double"                                # one claim per seat and stamp
    winner = r.holder(4)
    assert winner in (0, 2)
    loser = 2 if winner == 0 else 0
    assert by_claim[(winner, "ok")] == "tie-won" and by_claim[(loser, "ok")] == "tie-lost"
    told = [e.note.seat for e in events if e.kind == "refused" and e.note.status == "tie-lost"]
    assert told == [loser]                                   # the loser is told to choose again
    assert loser not in r.held and r.held == {winner: 4}
    lines = summarise(r.notes)
    assert len(lines) == 3 and all("+500.0 ms" in line for line in lines)


def test_LED_reveal_shows_the_count_and_the_tokens_with_who_took_them():
    from arcade.lights.pictures import seat_colour
    from arcade.sherlook.pictures import TOKENS, reveal_picture
    pic = reveal_picture(7, green=2, yellow=None, red=0, width=16, height=16)
    assert len(pic) == 16 and all(len(row) == 16 for row in pic)
    top = {px for row in pic[:10] for px in row} - {(0, 0, 0)}
    assert top == {(255, 255, 255)}                           # the number
    tokens = {px for row in pic[11:15] for px in row} - {(0, 0, 0)}
    assert tokens == {TOKENS["green"], TOKENS["red"]}        # no yellow token this round
    bars = [px for px in pic[15] if px != (0, 0, 0)]
    assert bars == [seat_colour(2)] * 4 + [seat_colour(0)] * 4
    small = reveal_picture(7, 1, 2, 0, width=12, height=8)   # too small for tokens: the number only
    assert len(small) == 8 and {px for row in small for px in row} <= {(0, 0, 0), (255, 255, 255)}
