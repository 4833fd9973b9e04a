"""A broker that takes the connection and never answers (frozen with SIGSTOP, swamped) is told as
such on the cabinet's screen, not as a TLS question (issue 24: a hall technician chasing a wrong
``tls`` setting while the broker was only hung).

The "broker" here is a plain TCP listener on the loopback: the kernel accepts the connection, nothing
ever answers MQTT's CONNECT, so paho gives up after the keep-alive time, as it does with a frozen
Mosquitto.  A listener that hangs up at once (a TLS port spoken to in plain MQTT does this) still
gets the TLS hint.
"""

from __future__ import annotations

import socket
import threading
from pathlib import Path

from waiting import wait_until

from kiosk.event.link import EventLink
from kiosk.persist.storage import Results


def _listener(hang_up: bool) -> tuple[socket.socket, int, list[socket.socket]]:
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            if hang_up:
                conn.close()
            else:
                held.append(conn)              # taken, never answered

    threading.Thread(target=accept, daemon=True).start()
    return srv, srv.getsockname()[1], held


def _link(tmp_path: Path, port: int) -> tuple[EventLink, Results]:
    settings = {"host": "127.0.0.1", "port": port, "tls": False, "ca_file": "", "username": "c1",
                "password": "x", "password_file": "", "event": "hall", "cabinet": "c1"}
    store = Results(tmp_path / "c1.sqlite3")
    link = EventLink(settings, store.path, cabinet="c1")
    link.start()
    return link, store


def test_a_broker_that_never_answers_is_told_as_hung_not_as_a_tls_question(tmp_path: Path) -> None:
    srv, port, held = _listener(hang_up=False)
    link, store = _link(tmp_path, port)
    try:
        wait_until(lambda: bool(link.problem), 60, "the cabinet says something about the silent broker")
        assert "did not answer" in link.problem, link.problem
        assert "tls" not in link.problem.lower(), link.problem
        assert "kept" in link.problem                  # and that the games wait, nothing lost
    finally:
        link.stop()
        store.close()
        srv.close()
        for c in held:
            c.close()


def test_a_broker_that_hangs_up_at_once_still_gets_the_tls_hint(tmp_path: Path) -> None:
    srv, port, _ = _listener(hang_up=True)
    link, store = _link(tmp_path, port)
    try:
        wait_until(lambda: "tls" in link.problem.lower(), 60, "the TLS hint for a broker that hangs up")
    finally:
        link.stop()
        store.close()
        srv.close()
