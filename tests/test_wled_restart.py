"""Issue 25: the LED link finds a WLED that restarted mid-game, without a human.

With ``wled_baud`` set the link switches WLED to the fast rate with WLED's own
command.  A brown-out restarts WLED at its stock 115200 while the link keeps
sending at the fast rate.  On a real wire WLED's UART does not ignore those
bytes: it reads them as other bytes (:func:`firmware_bridge.uart.misread`), and
any 0xB0..0xB7 among them moves WLED to yet another rate.  The WLED here is the
byte-level model (:class:`~firmware_bridge.wled.WledSerialModel`) behind a pty
(:class:`~firmware_bridge.virtual.VirtualMatrix` with ``wrong_baud="garble"``):
what the operator notices is that the panel shows the game again at the fast
rate, by itself.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from link_helpers import solid, wait_for
from serial.tools import list_ports_common
from waiting import wait_until

from firmware_bridge.discovery import ControllerFinder, probe_rates
from firmware_bridge.layout import MatrixLayout
from firmware_bridge.link import LedLink, baud_hunt
from firmware_bridge.uart import misread
from firmware_bridge.virtual import VirtualMatrix
from firmware_bridge.wled import BAUD_COMMANDS, VERSION_COMMAND, WledSerialModel

WAIT_S = 20.0
RATES = sorted(BAUD_COMMANDS)


@pytest.fixture
def things() -> Any:
    made: list[Any] = []
    yield made
    for thing in reversed(made):
        thing.close()


# ---------------------------------------------------------------------- the wire model


def test_the_wire_model_turns_a_fast_stream_into_commands_for_a_slow_wled() -> None:
    """What the issue saw: a frame stream at 921600 read by WLED at 115200 holds baud commands."""
    rng = random.Random(25)
    frames = bytes(rng.randrange(256) for _ in range(2000))
    heard = misread(frames, 921600, 115200)
    assert heard and heard != frames
    assert any(0xB0 <= b <= 0xB7 for b in heard)
    model = WledSerialModel(16)
    model.feed(heard)
    assert model.baud != 115200 or "baud" in model.kinds()
    assert misread(frames, 115200, 115200) == frames


def test_the_link_s_hunt_finds_wled_at_any_of_its_rates_within_two_rounds() -> None:
    """The order the link asks ``v`` in, played on the byte model with the wire model between:
    a question at the wrong rate may itself move WLED (500000 read at 460800 is 0xB6), yet
    every start rate is found, and then one command takes WLED to the fast rate."""
    order = baud_hunt(115200, 921600)
    assert order[0] == 115200 and order[1] == 921600 and sorted(order) == RATES
    for start in RATES:
        model = WledSerialModel(16, baud=start)
        found = None
        for rate in order * 2:
            model.feed(misread(VERSION_COMMAND, rate, model.baud))
            if model.replies:
                answer = misread(bytes(model.replies), model.baud, rate)
                model.replies.clear()
                if answer.startswith(b"WLED "):
                    found = rate
                    break
        assert found is not None and found == model.baud, start
        if found != 921600:
            model.feed(bytes([BAUD_COMMANDS[921600]]))
        assert model.baud == 921600
        assert not model.kinds() & {"json", "improv", "tpm2", "print-json", "print-tpm2"}, start


# ---------------------------------------------------------------------- the link


def answered_at_fast(wled: VirtualMatrix) -> bool:
    """WLED runs at 921600 and has answered ``v`` there (the link knows the rate works)."""
    model = wled.wled
    if model is None or model.baud != 921600:
        return False
    switched = max((e.offset for e in model.events if e.kind == "baud" and e.value == 921600), default=None)
    return switched is not None and any(e.kind == "version" and e.offset > switched for e in model.events)


def fast_link(wled: VirtualMatrix) -> LedLink:
    return LedLink(wled.port, 115200, wled_baud=921600, layout=MatrixLayout(4, 4), keepalive_s=0.2,
                   heartbeat_s=0.3)


def test_wled_restarted_mid_game_shows_the_game_again_at_the_fast_rate(things: list[Any]) -> None:
    wled = VirtualMatrix(4, 4, firmware="wled", wrong_baud="garble")
    link = fast_link(wled)
    things += [wled, link]
    link.show(solid((1, 2, 3)))
    assert wait_for(lambda: answered_at_fast(wled) and link.status().answers is True)
    for round_no in range(3):
        wled.reboot()  # a brown-out: WLED is back at 115200, the link still sends at 921600
        assert wled.wled is not None and wled.wled.baud == 115200
        # The game goes on: a new picture every few milliseconds until the panel shows one.
        colour = (10 + round_no, 20, 30)

        def shown(colour: tuple[int, int, int] = colour) -> bool:
            link.show(solid(colour))
            return wled.wled is not None and wled.wled.baud == 921600 and wled.latest_chain == tuple(solid(colour))
        wait_until(shown, WAIT_S, f"round {round_no}: the panel back at 921600 showing the game",
                   max_pause_s=0.01)
        assert link.status().baudrate == 921600


def test_wled_moved_to_a_third_rate_by_garbage_is_found_and_switched_back(things: list[Any]) -> None:
    """The garbage held 0xB3: WLED restarted and now listens at 500000, neither rate the link knew."""
    wled = VirtualMatrix(4, 4, firmware="wled", wrong_baud="garble")
    link = fast_link(wled)
    things += [wled, link]
    link.show(solid((1, 2, 3)))
    assert wait_for(lambda: answered_at_fast(wled) and link.status().answers is True)
    wled.reboot()
    assert wled.wled is not None
    wled.wled.feed(bytes([BAUD_COMMANDS[500000]]))  # what a garbled byte did
    wled.wled.replies.clear()
    assert wled.wled.baud == 500000
    link.show(solid((7, 8, 9)))
    assert wait_for(lambda: wled.wled is not None and wled.wled.baud == 921600
                    and wled.latest_chain == tuple(solid((7, 8, 9)))), link.status()
    status = link.status()
    assert status.baudrate == 921600 and status.answers is True and status.advice == ""


def test_a_link_started_while_wled_sits_at_a_third_rate_finds_it(things: list[Any]) -> None:
    wled = VirtualMatrix(4, 4, firmware="wled", wrong_baud="garble")
    things.append(wled)
    assert wled.wled is not None
    wled.wled.feed(bytes([BAUD_COMMANDS[230400]]))
    wled.wled.replies.clear()
    link = fast_link(wled)
    things.append(link)
    link.show(solid((4, 4, 4)))
    assert wait_for(lambda: wled.latest_chain == tuple(solid((4, 4, 4))) and link.status().baudrate == 921600
                    and wled.wled is not None and wled.wled.baud == 921600), link.status()
    assert link.status().device.startswith("WLED")


def test_while_wled_is_lost_no_frame_is_sent_at_a_rate_it_does_not_hear(things: list[Any]) -> None:
    """Frames at the wrong rate are what scrambles WLED: once it stops answering the link only asks."""
    wled = VirtualMatrix(4, 4, firmware="wled", wrong_baud="garble")
    link = fast_link(wled)
    things += [wled, link]
    link.show(solid((1, 2, 3)))
    assert wait_for(lambda: answered_at_fast(wled) and link.status().answers is True)
    assert wled.wled is not None
    wled.reboot()
    wled.wled.feed(bytes([BAUD_COMMANDS[1500000]]))
    wled.wled.replies.clear()
    assert wait_for(lambda: link.status().answers is False)
    lost = []

    def found_again() -> bool:  # what the link says and sends while WLED is lost
        status = link.status()
        if status.answers is not False:
            return True
        lost.append(status.frames_sent)
        assert "restarting" in status.advice, status
        return False
    wait_until(found_again, WAIT_S, "the link finding WLED again", max_pause_s=0.01)
    assert lost and max(lost) - min(lost) <= 1  # at most the frame under way when it went quiet
    assert wait_for(lambda: wled.wled is not None and wled.wled.baud == 921600 and link.status().answers is True
                    and link.status().frames_sent > max(lost)), link.status()


# ---------------------------------------------------------------------- port = "auto" at start


def usb_port(device: str) -> Any:
    info = list_ports_common.ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = 0x10C4, 0xEA60, "W1"  # a CP2102 board
    return info


@pytest.mark.parametrize("start", RATES)
def test_auto_at_start_finds_a_wled_left_at_any_of_its_rates_and_switches_it_to_the_fast_rate(
        things: list[Any], start: int) -> None:
    """Issue 25: ``port = "auto"`` probed only baudrate, 115200 and wled_baud, so a WLED that an
    earlier run (or garbage at a wrong rate) had left at another of its rates was never found:
    the panel stayed dark until someone power-cycled it."""
    wled = VirtualMatrix(4, 4, firmware="wled", wrong_baud="garble")
    things.append(wled)
    assert wled.wled is not None
    if start != 115200:
        wled.wled.feed(bytes([BAUD_COMMANDS[start]]))
        wled.wled.replies.clear()
    assert wled.wled.baud == start
    finder = ControllerFinder(None, probe_rates(115200, 921600), comports=lambda: [usb_port(wled.port)],
                              wait_s=0.6, answer_s=0.2)
    link = LedLink(None, 115200, locate=finder, wled_baud=921600, layout=MatrixLayout(4, 4), keepalive_s=0.2)
    things.append(link)
    link.show(solid((5, 6, 7)))
    assert wait_for(lambda: wled.wled is not None and wled.wled.baud == 921600
                    and wled.latest_chain == tuple(solid((5, 6, 7)))), (start, finder.problem, link.status())
    status = link.status()
    assert status.baudrate == 921600 and status.device.startswith("WLED") and finder.problem == ""
    # Only questions and baud commands reached it: no JSON, Improv or TPM2 from a misread byte.
    assert not wled.wled.kinds() & {"json", "improv", "tpm2", "print-json", "print-tpm2"}, start


def test_auto_without_wled_baud_finds_a_wled_set_to_another_rate_in_its_own_settings(things: list[Any]) -> None:
    wled = VirtualMatrix(4, 4, firmware="wled", wrong_baud="garble")
    things.append(wled)
    assert wled.wled is not None
    wled.wled.feed(bytes([BAUD_COMMANDS[460800]]))  # WLED's Sync Interfaces > Serial setting
    wled.wled.replies.clear()
    finder = ControllerFinder(None, probe_rates(115200, 0), comports=lambda: [usb_port(wled.port)],
                              wait_s=0.6, answer_s=0.2)
    link = LedLink(None, 115200, locate=finder, layout=MatrixLayout(4, 4), keepalive_s=0.2)
    things.append(link)
    link.show(solid((9, 9, 1)))
    assert wait_for(lambda: wled.latest_chain == tuple(solid((9, 9, 1)))), (finder.problem, link.status())
    assert link.status().baudrate == 460800 and wled.wled.baud == 460800


class SketchAt500000:
    """An Adalight sketch built with serialRate 500000 behind a fake port: opening the port
    restarts the board, which prints ``Ada`` some time later, heard only at 500000."""

    def __init__(self, hello_after_s: float) -> None:
        self.hello_after_s = hello_after_s
        self.opened: list[int] = []
        self.written = bytearray()

    def open(self, url: str, baudrate: int, **_: Any) -> Any:
        self.opened.append(baudrate)
        return _SketchPort(self, baudrate)


class _SketchPort:
    def __init__(self, board: SketchAt500000, baudrate: int) -> None:
        self.board, self.baudrate, self.opened_at = board, baudrate, time.monotonic()
        self.said = False

    @property
    def in_waiting(self) -> int:
        ready = self.baudrate == 500000 and not self.said
        return 4 if ready and time.monotonic() - self.opened_at >= self.board.hello_after_s else 0

    def read(self, n: int) -> bytes:
        self.said = True
        return b"Ada\n"[:n]

    def write(self, data: bytes) -> int:
        self.board.written += data
        return len(data)

    def close(self) -> None:
        pass


def test_auto_finds_an_adalight_sketch_at_its_other_usual_rate_after_its_restart() -> None:
    """A FastLED sketch at 500000 (exact on a 16 MHz Nano) with [led] baudrate left at 115200:
    the probe at 500000 listens long enough for the restarted board's Ada."""
    board = SketchAt500000(hello_after_s=0.3)
    finder = ControllerFinder(None, probe_rates(115200, 0), comports=lambda: [usb_port("/dev/ttyUSB7")],
                              open_fn=board.open, wait_s=0.6, answer_s=0.1)
    found = finder()
    assert found is not None and found.kind == "adalight" and found.baudrate == 500000, finder.problem
    assert board.opened == [115200, 230400, 460800, 500000]
    assert set(board.written) <= {ord("v")}


def test_the_arcade_s_auto_link_probes_every_rate_wled_and_the_sketch_may_be_at() -> None:
    from kiosk.output.led import make_link

    link, _ = make_link({"port": "auto", "baudrate": 115200, "wled_baud": 921600}, MatrixLayout(4, 4))
    try:
        finder = link._locate  # the link's own finder for "auto"
        assert isinstance(finder, ControllerFinder)
        assert set(finder.bauds) == set(RATES) and finder.bauds[:2] == [115200, 921600]
        assert finder.rounds == 2
    finally:
        link.close()
