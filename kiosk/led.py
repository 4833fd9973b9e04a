"""The LED matrix output of the kiosk: picture -> layout -> link.

``[led] port`` chooses the device: ``"virtual"`` makes a pty with a
:class:`~firmware_bridge.virtual.VirtualMatrix` on the other end (the TV shows
what it decodes), ``"none"`` turns the matrix off, ``"auto"`` finds the port by
``usb_id`` (and finds it again after a replug), anything else is a pyserial
port or URL.  Nothing here can block or stop the game: the link writes on its
own thread, and a failure is a status line.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from firmware_bridge.layout import MatrixLayout, limit_current
from firmware_bridge.link import LedLink, find_port_by_usb_id
from kiosk.config import Config

#: Pictures are sent at most this often (frames/s); the link also resends once a second.
MAX_FPS = 30


class LedOutput:
    """Sends the scene's LED picture to the matrix."""

    def __init__(self, cfg: Config, message: Callable[[str], None] = print) -> None:
        led = cfg["led"]
        self.width, self.height = led["width"], led["height"]
        self.max_ma = led["max_current_ma"]
        self.virtual: Any = None
        self.link: Any = None
        self.last_sent_ns = 0
        self.last_picture: Any = None
        port = led["port"].strip()
        serpentine = led["serpentine"]
        try:
            if port.lower() == "virtual":
                from firmware_bridge.virtual import VirtualMatrix
                self.virtual = VirtualMatrix(self.width, self.height)
                vm = self.virtual
                serpentine = False      # the virtual matrix shows the chain row-major
                self.link = LedLink(vm.port, led["baudrate"], locate=lambda: vm.port)
            elif port.lower() in ("", "none", "off"):
                self.link = LedLink(None)
            elif port.lower() == "auto":
                vid, pid = (int(x, 16) for x in (led["usb_id"] or "0:0").split(":"))
                self.link = LedLink(None, led["baudrate"], locate=lambda: find_port_by_usb_id(vid, pid))
            else:
                locate = None
                if led["usb_id"]:
                    vid, pid = (int(x, 16) for x in led["usb_id"].split(":"))
                    locate = lambda: find_port_by_usb_id(vid, pid) or port  # noqa: E731
                self.link = LedLink(port, led["baudrate"], locate=locate)
        except Exception as exc:
            message(f"LED matrix off: {exc}")
            self.link = None
        self.layout = MatrixLayout(self.width, self.height, serpentine=serpentine,
                                   brightness=float(led["brightness"]))

    def update(self, picture: Sequence[Sequence[tuple[int, int, int]]] | None, now_ns: int) -> None:
        """Send ``picture`` (rows of RGB) if it changed, at most MAX_FPS times a second."""
        if self.link is None or picture is None:
            return
        if picture == self.last_picture or now_ns - self.last_sent_ns < 1e9 / MAX_FPS:
            return
        self.last_picture = picture
        self.last_sent_ns = now_ns
        try:
            chain = limit_current(self.layout.to_chain(picture), self.max_ma)
            self.link.show(chain)
        except Exception:
            pass

    def virtual_picture(self) -> Any:
        """What the virtual matrix decoded last (rows of RGB), or None."""
        if self.virtual is None:
            return None
        return self.virtual.latest

    def status_text(self) -> str:
        if self.link is None:
            return "LED: off"
        s = self.link.status()
        return f"LED {s.state}" + (f" ({s.last_error[:40]})" if s.state not in ("connected", "off") and s.last_error else "")

    def close(self) -> None:
        for thing in (self.link, self.virtual):
            try:
                if thing is not None:
                    thing.close()
            except Exception:
                pass
