"""The LED link's writer, step by step, as the technician sees it (issue 21).

The writer on an open port is a state machine (:class:`firmware_bridge.link.WriterState`,
the table in ``LedLink._serve``).  The other link tests see the cable pulled while a frame
is written or the port is read; these pull it at the steps they never fail at, and look at
the line the service menu shows (``LinkStatus.text``, the kiosk's ``status_text``) in each
state: "connected" / "released", "disconnected" with what to do, "searching" for the
cable, and back by itself once it is plugged in again:

* the ``v`` question while the panel is handed back to WLED (ASK -> END);
* the look at the port's queue before a new picture (START -> END);
* WLED's one-byte baud command (SWITCH -> END);
* the baud change while a restarted WLED is looked for (UNANSWERED -> END);
* and a baud command the adapter does not take: WLED stays at its start rate and the
  picture still arrives (SWITCH -> LISTEN).

The device is WLED's serial parser byte for byte (:class:`WledSerialModel`) behind a
scripted port: it hears and answers only at the rate it listens at.  After a pull the
link's ``locate`` waits until the test has read the status, so the short-lived
"disconnected" line is read without timing anything.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
import serial
from link_helpers import WAIT_S, solid, wait_for

from firmware_bridge.layout import MatrixLayout
from firmware_bridge.link import LedLink
from firmware_bridge.wled import BAUD_COMMANDS, WledSerialModel

LEDS = 16
RED, GREEN, BLUE = solid((255, 0, 0)), solid((0, 255, 0)), solid((0, 0, 255))
CABLE_ADVICE = "check the LED controller's cable and power"
PLUG_ADVICE = "plug in the LED controller's USB cable"


class Cable:
    """The USB cable to a WLED: ``locate`` finds ``"wled"`` while it is plugged in; ``open``
    makes the port (a fresh WLED: plugging it in powers it up).  ``arm``: the first port
    opened pulls the cable at that step; ``refuse_baud_command``: its ports' adapter takes no
    byte of a baud command.  After a pull, ``locate`` waits for ``go``."""

    def __init__(self, arm: str | None = None, refuse_baud_command: bool = False) -> None:
        self.plugged = True
        self.refuse_baud_command = refuse_baud_command
        self.ports: list[WledPort] = []
        self.arm = arm
        self.go = threading.Event()
        self.go.set()
        self.waiting = threading.Event()  # locate is waiting for go: the test reads the status

    def locate(self) -> str | None:
        if not self.go.is_set():
            self.waiting.set()
            self.go.wait(WAIT_S)
        return "wled" if self.plugged else None

    def open(self, url: str, baudrate: int, **kwargs: Any) -> WledPort:
        port = WledPort(self, baudrate)
        port.refuse_baud_command = self.refuse_baud_command
        if not self.ports:
            port.pull_at = self.arm
        self.ports.append(port)
        return port

    def pull(self, port: WledPort) -> None:
        self.plugged = False
        port.gone = True
        self.go.clear()

    def plug(self) -> None:
        self.plugged = True
        self.go.set()


class WledPort:
    """A USB serial port with a WLED behind it.  ``pull_at``: the step at which the cable is
    pulled ("question": writing ``v``; "baud command"; "queue": ``out_waiting``; "baud
    change": setting the port's rate); from then on every call raises what an unplugged
    adapter raises.  ``refuse_baud_command``: the adapter takes no byte of a baud command."""

    def __init__(self, cable: Cable, baudrate: int) -> None:
        self.cable = cable
        self.rate = baudrate
        self.wled = WledSerialModel(LEDS)
        self.rx = bytearray()
        self.lock = threading.Lock()
        self.gone = False
        self.pull_at: str | None = None
        self.refuse_baud_command = False
        self.baud_commands = 0  # writes of a baud command (the link retries one for 0.1 s)
        self.frames_at_answer: int | None = None  # WLED's frame count when it last answered "v"

    def _step(self, step: str) -> None:
        if step == self.pull_at:
            self.cable.pull(self)
        if self.gone:
            raise serial.SerialException(5, "Input/output error")

    @property
    def baudrate(self) -> int:
        return self.rate

    @baudrate.setter
    def baudrate(self, rate: int) -> None:
        self._step("baud change")
        self.rate = rate

    @property
    def in_waiting(self) -> int:
        self._step("read")
        with self.lock:
            return len(self.rx)

    @property
    def out_waiting(self) -> int:
        self._step("queue")
        return 0

    def read(self, size: int = 1) -> bytes:
        self._step("read")
        with self.lock:
            data = bytes(self.rx[:size])
            del self.rx[:size]
            return data

    def write(self, data: bytes) -> int:
        command = len(data) == 1 and data[0] in BAUD_COMMANDS.values()
        if command:
            self.baud_commands += 1
        self._step("question" if data == b"v" else "baud command" if command else "write")
        if command and self.refuse_baud_command:
            raise serial.SerialTimeoutException("Write timeout")
        with self.lock:
            if self.rate == self.wled.baud:  # at another rate WLED hears no command, prints nothing we read
                self.wled.feed(data)
                if b"WLED " in self.wled.replies:
                    self.frames_at_answer = len(self.wled.frames)
                self.rx += self.wled.replies
            self.wled.replies.clear()
        return len(data)

    def reset_input_buffer(self) -> None:
        self._step("read")
        with self.lock:
            self.rx.clear()

    def close(self) -> None:
        pass

    def shows(self, picture: list[tuple[int, int, int]]) -> bool:
        """True when WLED's last frame is ``picture``."""
        with self.lock:
            return bool(self.wled.frames) and self.wled.frames[-1] == tuple(picture)

    def restart_wled(self) -> None:
        """A brown-out: WLED starts again at 115200 baud."""
        with self.lock:
            self.wled.reboot()


@pytest.fixture
def made() -> Any:
    things: list[tuple[Cable, LedLink]] = []
    yield things
    for cable, link in things:
        cable.go.set()
        link.close()


def _link(made: list[Any], cable: Cable, **kwargs: Any) -> LedLink:
    kwargs.setdefault("keepalive_s", 60.0)
    link = LedLink(None, 115200, locate=cable.locate, open_fn=cable.open, layout=MatrixLayout(4, 4),
                   backoff=(0.01,), **kwargs)
    made.append((cable, link))
    return link


def _pulled_then_plugged(link: LedLink, cable: Cable, line: str, fault: str) -> None:
    """The cable was pulled: the menu says ``line`` with the cable advice and the ``fault``,
    then "searching" with the plug-in advice; then it is plugged in again."""
    assert cable.waiting.wait(WAIT_S), link.status()
    status = link.status()
    assert status.text == f"{line} - {CABLE_ADVICE}", status
    assert status.last_error.startswith(fault), status
    cable.waiting.clear()
    cable.go.set()
    assert wait_for(lambda: link.status().state == "searching"), link.status()
    assert PLUG_ADVICE in link.status().text
    cable.plug()


def test_cable_pulled_while_the_panel_is_handed_back_shows_disconnected_then_handed_back_again(
        made: list[Any]) -> None:
    """ASK -> END: with the panel released only the ``v`` question goes out, so that is
    where the pulled cable shows; plugged again the panel stays WLED's until a picture."""
    cable = Cable()
    link = _link(made, cable, heartbeat_s=0.05)
    link.show(RED)
    assert wait_for(lambda: cable.ports[0].shows(RED) and link.status().device == "WLED 0.15.0"), link.status()
    assert link.status().text.startswith("LED connected wled (WLED 0.15.0) at 115200 baud, up to ")
    link.release()
    assert link.status().text == "LED released wled (WLED 0.15.0) at 115200 baud"

    cable.ports[0].pull_at = "question"
    _pulled_then_plugged(link, cable, "LED disconnected wled (WLED 0.15.0) at 115200 baud", "write failed")

    assert wait_for(lambda: len(cable.ports) == 2 and link.status().state == "released"), link.status()
    assert wait_for(lambda: cable.ports[1].frames_at_answer is not None)  # asked, and WLED answered
    assert cable.ports[1].wled.frames == []  # still WLED's own effect: no frame sent
    link.show(BLUE)
    assert wait_for(lambda: cable.ports[1].shows(BLUE) and link.status().state == "connected"), link.status()
    assert link.status().reconnects == 1


def test_cable_pulled_when_a_new_picture_is_due_shows_disconnected_then_the_picture(made: list[Any]) -> None:
    """START -> END: the look at the port's queue before a frame is where it fails."""
    cable = Cable()
    link = _link(made, cable, heartbeat_s=60.0)
    link.show(RED)
    assert wait_for(lambda: bool(cable.ports) and cable.ports[0].frames_at_answer is not None
                    and len(cable.ports[0].wled.frames) > (cable.ports[0].frames_at_answer or 0)), link.status()
    first = cable.ports[0]
    assert first.shows(RED)  # after WLED answered, nothing is due until the next picture

    first.pull_at = "queue"
    link.show(GREEN)
    _pulled_then_plugged(link, cable, "LED disconnected wled (WLED 0.15.0) at 115200 baud", "out_waiting failed")

    assert wait_for(lambda: len(cable.ports) == 2 and cable.ports[1].shows(GREEN)), link.status()
    assert wait_for(lambda: link.status().state == "connected")
    assert not first.shows(GREEN)


def test_cable_pulled_while_wled_is_switched_to_the_fast_rate_then_switched_on_replug(made: list[Any]) -> None:
    """SWITCH -> END: the one-byte baud command is where it fails."""
    cable = Cable(arm="baud command")
    link = _link(made, cable, wled_baud=921600, heartbeat_s=0.2)
    link.show(RED)
    _pulled_then_plugged(link, cable, "LED disconnected wled (WLED 0.15.0) at 115200 baud", "baud switch failed")
    assert cable.ports[0].wled.frames == []  # never a frame before WLED is at the fast rate

    assert wait_for(lambda: len(cable.ports) == 2 and cable.ports[1].shows(RED)), link.status()
    assert wait_for(lambda: link.status().text.startswith("LED connected wled (WLED 0.15.0) at 921600 baud"))
    assert cable.ports[1].wled.baud == 921600


def test_cable_pulled_while_a_restarted_wled_is_looked_for_then_found_again(made: list[Any]) -> None:
    """UNANSWERED -> END: WLED restarted (it stops answering at the fast rate) and the port's
    rate change to look for it at its start rate is where the loose cable fails."""
    cable = Cable()
    link = _link(made, cable, wled_baud=921600, heartbeat_s=0.1)
    link.show(RED)
    assert wait_for(lambda: bool(cable.ports) and cable.ports[0].shows(RED) and link.status().answers is True
                    and link.status().baudrate == 921600), link.status()
    assert link.status().text.startswith("LED connected wled (WLED 0.15.0) at 921600 baud")

    first = cable.ports[0]
    first.pull_at = "baud change"
    first.restart_wled()
    _pulled_then_plugged(link, cable, "LED disconnected wled (WLED 0.15.0) at 921600 baud", "baud change failed")
    assert link.status().answers is False  # the service menu's "Controller: WLED 0.15.0, not answering"

    assert wait_for(lambda: len(cable.ports) == 2 and cable.ports[1].shows(RED)), link.status()
    assert wait_for(lambda: link.status().answers is True and link.status().baudrate == 921600
                    and link.status().advice == ""), link.status()


def test_a_baud_command_the_adapter_does_not_take_leaves_wled_at_its_start_rate_with_the_picture(
        made: list[Any]) -> None:
    """SWITCH -> LISTEN with the switch failed: tried once, then frames at 115200."""
    cable = Cable(refuse_baud_command=True)
    link = _link(made, cable, wled_baud=921600, heartbeat_s=0.1)
    link.show(RED)
    assert wait_for(lambda: bool(cable.ports) and cable.ports[0].shows(RED)
                    and link.status().state == "connected"), link.status()
    port = cable.ports[0]
    assert link.status().text.startswith("LED connected wled (WLED 0.15.0) at 115200 baud, up to ")
    tried = port.baud_commands
    assert tried >= 1 and port.wled.baud == 115200
    answered_after = len(port.wled.frames)
    link.show(GREEN)
    assert wait_for(lambda: port.shows(GREEN) and (port.frames_at_answer or 0) > answered_after)  # still answers
    assert port.baud_commands == tried  # not tried again: it stays at 115200
    status = link.status()
    assert status.baudrate == 115200 and status.answers is True and status.reconnects == 0, status
