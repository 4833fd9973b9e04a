"""The LED matrix output of the kiosk: picture -> layout -> link, and the link's status.

``[led] transport`` chooses how: ``"serial"`` (USB) or ``"ddp"`` (WLED on the
Wi-Fi, ``host`` and ``ddp_port``; ``port = "ddp://host[:port]"`` says the same).
For serial, ``port`` chooses the device: ``"auto"`` finds the controller among
the USB serial devices by its answer (:mod:`firmware_bridge.discovery`,
``usb_id`` preferred) and finds it again after a replug, ``"virtual"`` makes a
pty with a :class:`~firmware_bridge.virtual.VirtualMatrix` on the other end
(the TV shows what it decodes), ``"none"`` turns the matrix off, anything else
is a pyserial port or URL.  Nothing here can block or stop the game: the frame
loop only hands the newest picture over; the picture is laid out, held to the
current budget and encoded on the output's own thread (issue 22: 1 ms a frame
at 64x64 on the game thread), the link writes on its own thread, and a failure
is a status line.

Between games (``idle``: the title screen, the attract loop) the matrix shows
the arcade's own idle picture, or with ``[led] idle = "release"`` the link
stops sending so WLED returns to its own effect after its realtime timeout.

For the operator: :meth:`LedOutput.trouble` says what is wrong while the matrix is
not connected (:class:`LedTrouble`: the link's state, the port, the advice; ``None``
when all is well), which the screens word in the language they speak (issue 26:
:meth:`LedTrouble.line`, :meth:`LedTrouble.short`; :meth:`LedOutput.attention` is
that line); :meth:`LedOutput.operator_lines` the full status for ``doctor``.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from arcade.i18n import N_, pgettext
from arcade.lights.pictures import RGB, Picture, idle_picture
from firmware_bridge.layout import MatrixLayout, limit_current
from firmware_bridge.link import LedLink, LinkStatus
from kiosk.app import said
from kiosk.app.said import Said
from kiosk.config import Config

if TYPE_CHECKING:
    from firmware_bridge.virtual import VirtualMatrix

log = logging.getLogger("focus-arcade.led")

#: Pictures are sent at most this often (frames/s); the link also resends once a second.
MAX_FPS = 30
#: The idle picture drifts through one turn in this many seconds, drawn at 10 frames/s.
IDLE_TURN_S = 20.0


def split_ddp_port(port: str) -> tuple[str, int] | None:
    """``"ddp://wled.local:4048"`` -> ``("wled.local", 4048)``; None when not a ddp URL.
    Raises ValueError for a bad port number."""
    if not port.lower().startswith("ddp://"):
        return None
    rest = port[6:].strip().rstrip("/")
    host, _, number = rest.rpartition(":") if rest.count(":") == 1 else (rest, "", "")
    return (host or rest), int(number) if number else 4048


def _whole(value: object) -> int:
    """``int(value)`` of a number setting.

    Raises:
        ValueError: ``value`` is no number.
    """
    if isinstance(value, (int, float, str)):
        return int(value)
    raise ValueError(f"{value!r} is not a whole number")


def make_link(led: Mapping[str, object], layout: MatrixLayout) -> tuple[LedLink, VirtualMatrix | None]:
    """(link, virtual matrix or None) for an ``[led]`` table.  Raises for a bad setting."""
    port = str(led.get("port", "none")).strip()
    ddp = split_ddp_port(port)
    if led.get("transport", "serial") == "ddp" or ddp is not None:
        from firmware_bridge.ddp import DdpLink
        host, number = ddp if ddp is not None else (str(led.get("host", "")), _whole(led.get("ddp_port", 4048)))
        return DdpLink(host, number, layout=layout), None
    baud = _whole(led.get("baudrate", 115200))
    wled_baud = _whole(led.get("wled_baud", 0) or 0)
    usb_id_text = str(led.get("usb_id", "") or "")
    if port.lower() == "virtual":
        from firmware_bridge.virtual import VirtualMatrix
        vm = VirtualMatrix(layout.width, layout.height)
        # The virtual matrix is no WLED: frames go as they are, exact on the TV.
        return LedLink(vm.port, baud, locate=lambda: vm.port, layout=layout, wled_safe=False), vm
    if port.lower() in ("", "none", "off"):
        return LedLink(None, layout=layout), None
    from firmware_bridge.discovery import ControllerFinder, parse_usb_id, probe_rates
    usb_id = parse_usb_id(usb_id_text)
    if port.lower() == "auto":
        finder = ControllerFinder(usb_id, probe_rates(baud, wled_baud))
        return LedLink(None, baud, locate=finder, layout=layout, wled_baud=wled_baud), None
    locate: Callable[[], str] | None = None
    if usb_id is not None:
        from firmware_bridge.link import find_port_by_usb_id
        vid, pid = usb_id
        locate = lambda: find_port_by_usb_id(vid, pid) or port  # noqa: E731
    return LedLink(port, baud, locate=locate, layout=layout, wled_baud=wled_baud), None


#: What the LED link advises (firmware_bridge/link.py ``advice_for``: the link's own English words),
#: marked for the catalog so the screens say it in their language (:func:`advice_words`); the
#: test tests/test_service_language.py holds this list to the link's.
ADVICE = (
    N_("check that WLED is on the Wi-Fi and [led] host is its address"),
    N_("WLED's host name is not known: set [led] host to its IP address (WLED: Info page)"),
    N_("nothing receives DDP there: check [led] host and that WLED runs (port 4048)"),
    N_("no permission for the port: add the user to the dialout group (sudo usermod -aG dialout USER), "
       "log in again"),
    N_("another program has the port open (close it: Arduino IDE, serial monitor)"),
    N_("a USB serial device is plugged in but does not answer as WLED or Adalight: check the firmware and "
       "[led] baudrate (stock WLED: 115200)"),
    N_("plug in the LED controller's USB cable (WLED or the Adalight sketch); set [led] usb_id if it is not "
       "found"),
    N_("the controller takes no data: power-cycle it"),
    N_("WLED stopped answering: it may be restarting; check its power supply"),
    N_("check the LED controller's cable and power"),
)


def advice_words(advice: str) -> Said:
    """The LED link's advice in the language spoken now (one it does not know: as it is)."""
    return said._(advice) if advice in ADVICE else Said(advice, advice)


def state_words(state: str) -> str:
    """The LED link's state (firmware_bridge/link.py ``STATES``) in the language spoken now."""
    return {"off": pgettext("LED link", "off"), "searching": pgettext("LED link", "searching"),
            "connecting": pgettext("LED link", "connecting"), "connected": pgettext("LED link", "connected"),
            "stalled": pgettext("LED link", "stalled"), "disconnected": pgettext("LED link", "disconnected"),
            "released": pgettext("LED link", "released"), "closed": pgettext("LED link", "closed")}.get(state, state)


def _state_said(state: str) -> Said:
    """:func:`state_words` with its English (the state itself) for the journal."""
    return Said(state_words(state), state)


@dataclass(frozen=True)
class LedTrouble:
    """Why the LED matrix shows nothing, as facts the screens word (:meth:`line`, :meth:`short`)
    in the language they speak, never parsed back from words (issue 26).

    Attributes:
        state: the link's state (a ``LinkStatus.state``: "searching", "disconnected",
            "stalled"...), or "off" when the matrix could not start.
        port: where (the port or ``host:port``; "" when none).
        advice: what to do (the link's words, :data:`ADVICE`: said in the screen's language).
        fault: the last error, as the system said it (shown when there is no advice).
    """

    state: str
    port: str = ""
    advice: str = ""
    fault: str = ""

    def line(self) -> Said:
        """The whole line: "LED matrix disconnected (/dev/ttyACM0): plug in the LED controller's
        USB cable", in the language spoken now (its English for the journal).

        >>> LedTrouble("searching", "/dev/ttyACM0", "plug in the cable").line()
        'LED matrix searching (/dev/ttyACM0): plug in the cable'
        >>> LedTrouble("off", fault="no such port").line().english
        'LED matrix off: no such port'
        """
        advice = advice_words(self.advice) if self.advice else self.fault or said._("see the service menu")
        if self.port:
            # TRANSLATORS: {state} is the LED link's state (context "LED link"); {port} where it is; {advice} what to do (English, the link's words).
            return said._("LED matrix {state} ({port}): {advice}", state=_state_said(self.state), port=self.port,
                          advice=advice)
        return said._("LED matrix {state}: {advice}", state=_state_said(self.state), advice=advice)

    def short(self) -> Said:
        """The state alone and where the rest is, for a small display's service pages other than
        the LED test (which shows the whole line).

        >>> LedTrouble("disconnected", "/dev/ttyACM0", "plug in the LED controller's USB cable").short()
        'LED matrix disconnected: see LED test'
        """
        return said._("LED matrix {state}: see LED test", state=_state_said(self.state))


class LedOutput:
    """Sends the scene's LED picture to the matrix."""

    def __init__(self, cfg: Config, message: Callable[[str], None] = print) -> None:
        led = cfg["led"]
        self.width, self.height = led["width"], led["height"]
        self.max_ma = led["max_current_ma"]
        self.idle_mode = led.get("idle", "picture")
        self.virtual: VirtualMatrix | None = None
        self.link: LedLink | None = None
        self.last_sent_ns = 0
        self.last_picture: Sequence[Sequence[RGB]] | None = None
        self.problem = ""
        self._off: LedTrouble | None = None      # the matrix could not start: why
        # The newest job for the encoding thread: a picture (rows of RGB), or the idle
        # picture's phase (0..1) as a float; None when there is nothing new.
        self._job: Sequence[Sequence[RGB]] | float | None = None
        self._busy = False
        self._closing = False
        self._jobs = threading.Condition()
        self._encoder: threading.Thread | None = None
        port = str(led["port"]).strip().lower()
        serpentine = False if port == "virtual" else led["serpentine"]  # the virtual matrix shows the chain row-major
        self.layout = MatrixLayout(self.width, self.height, serpentine=serpentine,
                                   brightness=float(led["brightness"]))
        try:
            self.link, self.virtual = make_link(led, MatrixLayout(self.width, self.height))
        except Exception as exc:
            self._off = LedTrouble("off", fault=str(exc))
            self.problem = f"LED matrix off: {exc}"
            log.warning("%s", self.problem)
            message(self._off.line())            # on screen in its language; the journal has it above
            self.link = None

    def update(self, picture: Sequence[Sequence[RGB]] | None, now_ns: int,
               idle: bool = False) -> None:
        """Send ``picture`` (rows of RGB) if it changed, at most MAX_FPS times a second.

        ``picture`` None with ``idle`` (title screen, attract loop): the idle
        picture, or the panel handed back (``[led] idle = "release"``); None
        otherwise keeps the last picture (resent by the link's keepalive).

        Returns at once: the picture is made (idle), laid out, held to the current
        budget and encoded on the output's own thread; a newer picture replaces one
        not yet started.  A picture that cannot be sent is logged and kept in
        :attr:`problem`, never raised."""
        if self.link is None:
            return
        if picture is None:
            if not idle:
                return
            if self.idle_mode == "release":
                if not self.link.released:
                    self._drop_pending()          # a picture not yet sent must not undo the release
                    self.link.release()
                    self.last_picture = None
                return
            if now_ns - self.last_sent_ns < 1e8:  # 10 frames/s is plenty for a slow drift
                return
            self.last_picture = None
            self.last_sent_ns = now_ns
            self._hand_over((now_ns / 1e9 / IDLE_TURN_S) % 1.0)
            return
        if picture == self.last_picture or now_ns - self.last_sent_ns < 1e9 / MAX_FPS:
            return
        self.last_picture = picture
        self.last_sent_ns = now_ns
        self._hand_over(picture)

    def _hand_over(self, job: Sequence[Sequence[RGB]] | float) -> None:
        with self._jobs:
            if self._closing:
                return
            self._job = job
            if self._encoder is None:
                self._encoder = threading.Thread(target=self._encode_jobs, name="led-encoder", daemon=True)
                self._encoder.start()
            self._jobs.notify_all()

    def _drop_pending(self) -> None:
        """Forget a picture handed over and not yet started; wait for one being sent (at
        most one picture's encoding, about a millisecond)."""
        with self._jobs:
            self._job = None
            self._jobs.wait_for(lambda: not self._busy, 2.0)

    def _encode_jobs(self) -> None:
        """The encoding thread: the newest job each time, until :meth:`close`."""
        while True:
            with self._jobs:
                while self._job is None and not self._closing:
                    self._jobs.wait()
                if self._closing:
                    return
                job, self._job, self._busy = self._job, None, True
            try:
                self._send(job)
            finally:
                with self._jobs:
                    self._busy = False
                    self._jobs.notify_all()

    def _send(self, job: Sequence[Sequence[RGB]] | float | None) -> None:
        link = self.link
        if link is None or job is None:
            return
        try:
            picture = idle_picture(job, self.width, self.height) if isinstance(job, float) else job
            chain = limit_current(self.layout.to_chain(picture), self.max_ma)
            link.show(chain)
        except Exception as exc:
            if str(exc) != self.problem:
                self.problem = str(exc)
                log.warning("LED picture not sent: %s", exc)

    def wait_sent(self, timeout_s: float = 5.0) -> bool:
        """Wait until the pictures handed over are with the link (tests, screenshots);
        False if ``timeout_s`` (s) ran out first."""
        with self._jobs:
            return self._jobs.wait_for(lambda: self._job is None and not self._busy, timeout_s)

    def virtual_picture(self) -> Picture | None:
        """What the virtual matrix decoded last (rows of RGB), or None."""
        if self.virtual is None:
            return None
        return self.virtual.latest

    def status(self) -> LinkStatus | None:
        """The link's :class:`~firmware_bridge.link.LinkStatus` (None when the matrix could not start)."""
        return None if self.link is None else self.link.status()

    def status_text(self) -> str:
        """One line: the link's state, where, what answered, and what to do."""
        s = self.status()
        if s is None:
            return self.problem or "LED: off"
        return s.text

    def trouble(self) -> LedTrouble | None:
        """What the operator must know while the matrix is not connected, else None.

        None when frames flow, the panel is handed back on purpose, the matrix
        is off on purpose (``port = "none"``) or virtual, or while the first connection
        is still being made."""
        if self.link is None:
            return self._off
        if self.virtual is not None:
            return None
        s = self.link.status()
        if s.ok or s.state in ("connecting", "closed"):
            return None
        return LedTrouble(s.state, s.url or "", s.advice, s.last_error or "")

    def attention(self) -> str | None:
        """The line to show on screen while the matrix is not connected (:meth:`trouble`'s
        :meth:`LedTrouble.line`, in the language spoken now), else None."""
        trouble = self.trouble()
        return trouble.line() if trouble is not None else None

    def operator_lines(self) -> list[str]:
        """The LED status for the service menu: one fact a line, the advice last."""
        s = self.status()
        if s is None:
            return [self.problem or "LED matrix off"]
        lines = [f"State: {s.state}", f"Output: {s.transport}" + (f" at {s.baudrate} baud" if s.baudrate else ""),
                 f"Port: {s.url or '-'}", f"Controller: {s.device or 'not identified'}"
                 + ("" if s.answers is None else (", answers" if s.answers else ", not answering")),
                 f"Panel: {self.width}x{self.height}" + (f", up to {s.fps_limit:.1f} frames/s" if s.fps_limit else ""),
                 f"Frames sent: {s.frames_sent}, reconnects: {s.reconnects}"]
        if s.last_error:
            lines.append(f"Last fault: {s.last_error}")
        if s.advice:
            lines.append(f"To do: {s.advice}")
        return lines

    def close(self) -> None:
        with self._jobs:
            self._closing = True
            self._jobs.notify_all()
        if self._encoder is not None:
            self._encoder.join(timeout=2.0)
        for thing in (self.link, self.virtual):
            try:
                if thing is not None:
                    thing.close()
            except Exception:
                pass
