"""systemd notifications (READY, WATCHDOG) over $NOTIFY_SOCKET, standard library only.

The watchdog ping is sent from the render loop itself, so a frozen game stops
pinging and systemd restarts it.  Outside systemd every call does nothing.
"""

from __future__ import annotations

import os
import socket
import time


class Notifier:
    def __init__(self) -> None:
        self.address = os.environ.get("NOTIFY_SOCKET", "")
        usec = os.environ.get("WATCHDOG_USEC", "")
        self.interval = int(usec) / 2e6 if usec.isdigit() else 0.0
        self.last = 0.0

    def send(self, message: str) -> bool:
        if not self.address:
            return False
        addr = self.address
        if addr.startswith("@"):
            addr = "\0" + addr[1:]
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
                s.connect(addr)
                s.sendall(message.encode())
            return True
        except OSError:
            return False

    def ready(self) -> None:
        self.send("READY=1")

    def watchdog(self) -> None:
        if self.interval and time.monotonic() - self.last >= self.interval:
            self.last = time.monotonic()
            self.send("WATCHDOG=1")
