"""The LED output's pictures are laid out and encoded off the frame loop (issue 22)."""

from __future__ import annotations

import threading
from typing import Any

from firmware_bridge.layout import limit_current
from kiosk import config
from kiosk.output.led import LedOutput


def _output(**led: Any) -> LedOutput:
    data, problems = config.check_all({"led": led})
    assert problems == []
    return LedOutput(config.Config(data), message=lambda m: None)


class Recorder:
    """Stands in for the link's ``show``: what was sent and on which thread; ``gate``
    holds the sender until the test lets it go."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, list[tuple[int, int, int]]]] = []
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()

    def show(self, chain: list[tuple[int, int, int]]) -> None:
        self.entered.set()
        self.gate.wait(10)
        self.sent.append((threading.current_thread().name, list(chain)))


def picture(colour: tuple[int, int, int], w: int = 8, h: int = 8) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    return tuple(tuple(colour for _ in range(w)) for _ in range(h))


def test_the_frame_loop_only_hands_the_picture_over_and_the_matrix_gets_it_laid_out_and_limited() -> None:
    out = _output(port="none", width=8, height=8, max_current_ma=300)
    rec = Recorder()
    out.link.show = rec.show                                   # type: ignore[method-assign]
    try:
        caller = threading.current_thread().name
        pic = picture((250, 250, 250))
        out.update(pic, 1_000_000_000)
        assert out.wait_sent(10)
        assert len(rec.sent) == 1
        thread, chain = rec.sent[0]
        assert thread != caller                               # laid out and encoded off the frame loop
        assert chain == limit_current(out.layout.to_chain(pic), 300)   # dimmed to the current budget
        assert max(max(p) for p in chain) < 250
    finally:
        out.close()


def test_a_newer_picture_replaces_one_not_yet_sent() -> None:
    out = _output(port="none", width=8, height=8, brightness=1.0)
    rec = Recorder()
    out.link.show = rec.show                                   # type: ignore[method-assign]
    try:
        rec.gate.clear()
        out.update(picture((10, 0, 0)), 1_000_000_000)
        assert rec.entered.wait(10)                           # the first is being sent, held
        out.update(picture((0, 20, 0)), 2_000_000_000)
        out.update(picture((0, 0, 30)), 3_000_000_000)       # the frame loop was not held up
        rec.gate.set()
        assert out.wait_sent(10)
        assert [chain[0] for _thread, chain in rec.sent] == [(10, 0, 0), (0, 0, 30)]
    finally:
        out.close()


def test_a_picture_of_the_wrong_shape_is_a_problem_line_never_an_exception_in_the_frame_loop() -> None:
    out = _output(port="none", width=8, height=8, brightness=1.0)
    rec = Recorder()
    out.link.show = rec.show                                   # type: ignore[method-assign]
    try:
        out.update(picture((5, 5, 5), w=7), 1_000_000_000)    # returns: nothing raised here
        assert out.wait_sent(10)
        assert rec.sent == [] and "7" in out.problem and "8" in out.problem
        out.update(picture((5, 5, 5)), 2_000_000_000)         # and the next good picture goes
        assert out.wait_sent(10) and len(rec.sent) == 1
    finally:
        out.close()


def test_the_idle_picture_is_made_off_the_frame_loop_and_a_release_is_never_undone_by_a_late_picture() -> None:
    out = _output(port="virtual", width=8, height=8, idle="release", brightness=1.0)
    try:
        rec = Recorder()
        real_show = out.link.show

        def show(chain: list[tuple[int, int, int]]) -> None:
            rec.show(chain)
            real_show(chain)
        out.link.show = show                                   # type: ignore[method-assign]
        rec.gate.clear()
        out.update(picture((0, 90, 0)), 1_000_000_000)
        assert rec.entered.wait(10)                           # a game's picture on its way...
        out.update(picture((0, 0, 90)), 1_100_000_000)        # ...and a newer one waiting
        threading.Timer(0.2, rec.gate.set).start()
        out.update(None, 2_000_000_000, idle=True)            # the title hands the panel back
        assert out.wait_sent(10)
        assert out.link.released                              # the waiting picture did not undo it
        assert [chain[0] for _t, chain in rec.sent] == [(0, 90, 0)]
    finally:
        out.close()
    out = _output(port="none", width=8, height=8, brightness=1.0)
    rec = Recorder()
    out.link.show = rec.show                                   # type: ignore[method-assign]
    try:
        out.update(None, 3_000_000_000, idle=True)
        assert out.wait_sent(10)
        assert len(rec.sent) == 1 and rec.sent[0][0] == "led-encoder" and len(rec.sent[0][1]) == 64
    finally:
        out.close()


def test_closing_stops_the_encoding_thread() -> None:
    out = _output(port="none", width=8, height=8, brightness=1.0)
    out.link.show = Recorder().show                            # type: ignore[method-assign]
    out.update(picture((1, 2, 3)), 1_000_000_000)
    assert out.wait_sent(10)
    out.close()
    assert out._encoder is not None and not out._encoder.is_alive()
    out.update(picture((4, 5, 6)), 2_000_000_000)             # after close: nothing, no error
