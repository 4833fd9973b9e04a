"""The lamps in the buzzers: pattern rules (pure) and the pins on gpiozero's MockFactory."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from waiting import wait_until

from arcade.lights.lamps import (
    BLINK,
    FALSE_NS,
    FLASH,
    HOLD_NS,
    OFF,
    ON,
    READY,
    LampCue,
    LampMemory,
    lamp_pattern,
    race_cue,
)
from hardware.lamps import READY_LEVEL, BuzzerLamps
from kiosk.config import ConfigError, check_all, validate

S = 1_000_000_000


def test_open_race_lights_only_the_seats_that_may_press() -> None:
    # the window is open; seat 2 is not eligible, seat 3 is out after a false shout.
    cue = race_cue(5, True, {0, 1, 3, 4}, out={3})
    assert lamp_pattern(cue, 6) == (READY, READY, OFF, OFF, READY, OFF)
    assert lamp_pattern(race_cue(5, False, {0, 1, 3, 4}), 5) == (OFF,) * 5   # not shown yet: not open


def test_winner_on_debated_blink_false_flash_and_their_precedence() -> None:
    assert lamp_pattern(race_cue(4, True, {0, 1, 2, 3}, winners=(2,)), 4) == (OFF, OFF, ON, OFF)
    assert lamp_pattern(race_cue(4, True, {0, 1, 2, 3}, winners=(3, 1)), 4) == (OFF, BLINK, OFF, BLINK)
    both = LampCue(4, ready=frozenset({0, 1}), won=frozenset({1}), debated=frozenset({1}), false=frozenset({0}))
    assert lamp_pattern(both, 4) == (FLASH, BLINK, OFF, OFF)
    assert lamp_pattern(None, 3) == (OFF, OFF, OFF)


def test_memory_keeps_the_winner_lit_after_the_next_table_is_laid() -> None:
    m = LampMemory()
    t = 10 * S
    assert lamp_pattern(m.observe(3, True, {0, 1, 2}, (1,), (), t), 3) == (OFF, ON, OFF)
    # next race laid, not yet open: the winner stays lit for HOLD_NS
    assert lamp_pattern(m.observe(3, False, {0, 1, 2}, (), (), t + HOLD_NS // 2), 3) == (OFF, ON, OFF)
    assert lamp_pattern(m.observe(3, True, {0, 1, 2}, (), (), t + HOLD_NS + 1), 3) == (READY,) * 3
    # a false shout flashes, then stops
    assert lamp_pattern(m.observe(3, True, {0, 1, 2}, (), (0,), t + 2 * S), 3)[0] == FLASH
    assert lamp_pattern(m.observe(3, True, {1, 2}, (), (), t + 2 * S + FALSE_NS + 1), 3)[0] == OFF


@pytest.fixture
def factory():  # type: ignore[no-untyped-def]
    f = MockFactory()
    yield f
    f.close()


def test_lamp_pins_follow_the_pattern_and_change_only_on_change(factory: MockFactory) -> None:
    lamps = BuzzerLamps([12, 0, 16], pin_factory=factory)      # seat 2 has no lamp
    p12, p16 = factory.pin(12), factory.pin(16)
    assert lamps.show((READY, READY, ON)) == 3
    assert p12.state and p16.state
    n12 = len(p12.states)
    assert lamps.show((READY, READY, ON)) == 0                   # same pattern: no pin touched
    assert len(p12.states) == n12
    lamps.show((OFF, OFF, ON))
    assert not p12.state and p16.state
    assert lamps.lit() == [False, False, True]
    lamps.close()


def test_debated_seats_blink_together_in_the_background(factory: MockFactory) -> None:
    lamps = BuzzerLamps([12, 13, 16], pin_factory=factory)
    lamps.show((BLINK, OFF, BLINK))                              # returns at once: gpiozero's blink thread
    a, c = factory.pin(12), factory.pin(16)
    wait_until(lambda: len(a.states) >= 4 and len(c.states) >= 4, what="both lamps blinking")
    # both lamps went on and off the same number of times, starting together
    assert [s.state for s in a.states[1:4]] == [s.state for s in c.states[1:4]] == [True, False, True]
    assert not factory.pin(13).state
    lamps.show((ON, OFF, OFF))                                   # the blink stops
    assert a.state and not c.state
    lamps.close()


def test_false_shout_flashes_faster_than_a_debate(factory: MockFactory) -> None:
    lamps = BuzzerLamps([12], pin_factory=factory)
    lamps.show((FLASH,))
    pin = factory.pin(12)
    wait_until(lambda: len(pin.states) >= 5, what="the lamp blinking")
    on_times = [s.timestamp for s in pin.states[2:5]]
    assert all(t < 0.2 for t in on_times)                        # 80 ms phases, not 250 ms
    lamps.close()


def test_pwm_lamps_dim_while_ready_and_full_for_the_winner() -> None:
    f = MockFactory(pin_class=MockPWMPin)
    try:
        lamps = BuzzerLamps([12, 13], pwm=True, pin_factory=f)
        lamps.show((READY, ON))
        assert f.pin(12).state == pytest.approx(READY_LEVEL) and f.pin(13).state == 1
        lamps.close()
    finally:
        f.close()


def test_a_lamp_pin_that_cannot_open_is_reported_and_the_others_work(factory: MockFactory) -> None:
    from gpiozero import Button
    held = Button(13, pin_factory=factory)
    lamps = BuzzerLamps([12, 13], pin_factory=factory)
    assert len(lamps.problems) == 1 and "P2" in lamps.problems[0] and "13" in lamps.problems[0]
    lamps.show((ON, ON))
    assert factory.pin(12).state
    lamps.close()
    held.close()


def test_lamp_pins_are_validated() -> None:
    assert validate({"gpio": {"lamps": [12, 0, 16]}})["gpio"]["lamps"] == [12, 0, 16]
    for bad in ([12, 12], [40], "12", [True]):
        with pytest.raises(ConfigError) as e:
            validate({"gpio": {"lamps": bad}})
        assert e.value.key == "gpio.lamps"
    data, problems = check_all({"gpio": {"lamps": [17]}})            # 17 is P1's buzzer
    assert data["gpio"]["lamps"] == [] and "pin 17 is an input" in str(problems[0])


def test_threaded_lamps_hand_the_pattern_over_and_the_worker_sets_the_pins(factory: MockFactory) -> None:
    lamps = BuzzerLamps([12, 13], pin_factory=factory, threaded=True)
    assert lamps.show((BLINK, ON)) == 2                          # returns without touching a pin itself
    assert lamps.show((BLINK, ON)) == 0
    assert lamps.flush()
    assert factory.pin(13).state and lamps.states == [BLINK, ON]
    wait_until(lambda: len(factory.pin(12).states) >= 3, what="the lamp blinking on gpiozero's thread")
    lamps.show((OFF, OFF))
    assert lamps.flush() and not factory.pin(13).state
    lamps.close()
    assert lamps._worker is None
