"""A real Mosquitto broker for the event tests and bench/bench_event.py, started with the
hall's documented configuration (kiosk/hall/focus-arcade.conf and focus-arcade.acl, the
files the README shows) as they are.

What differs from a hall, and only that: the files' folder ``/etc/mosquitto/focus-arcade/``
is a temporary one here, both listeners are on 127.0.0.1 at free ports (the TLS one with a
throw-away CA for 127.0.0.1 / localhost), and the lines Debian's own ``mosquitto.conf``
gives a hall broker (persistence, a pid file, a log file) are added after the file, with
``autosave_on_changes`` for the tests that kill the broker with -9. :func:`hall_config`
checks that the file still has the lines it replaces, so a change to the documented file
is a change to what the tests run.

Each cabinet logs in as itself (:func:`login`: its name, password :func:`password_of`) and
may write under the events it was added for (:meth:`Broker.grant`, with the lines ``event
add-cabinet`` writes into the ACL); ``board`` reads, ``operator`` moderates.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from waiting import wait_until

REPO = Path(__file__).resolve().parent.parent
HALL_CONF = REPO / "kiosk" / "hall" / "focus-arcade.conf"
HALL_ACL = REPO / "kiosk" / "hall" / "focus-arcade.acl"
HALL_DIR = "/etc/mosquitto/focus-arcade/"

OPENSSL = shutil.which("openssl")
MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
PASSWD = shutil.which("mosquitto_passwd")
USERS = {"board": "board-secret", "operator": "operator-secret"}
_CERTS: dict[str, Path] = {}
#: Every broker made in this process (:func:`ensure_user` adds a login to each).
LIVE: list["Broker"] = []


def ensure_user(user: str) -> None:
    """``user`` can log in on every broker of this process (a cabinet made by a test)."""
    for b in LIVE:
        if user not in b.users:
            b.add_user(user)


def grant(user: str, event: str, port: int | None = None) -> None:
    """``user`` can log in and write its cabinet topics under ``event`` on the broker listening on
    ``port`` (on every broker of this process if none does: a test's proxy port, say)."""
    mine = [b for b in LIVE if port in (b.port, b.tls_port)]
    for b in mine or list(LIVE):
        b.grant(user, event)


def login(settings: dict[str, Any], user: str) -> dict[str, Any]:
    """``settings`` logging in as ``user``, a cabinet of ``settings``' event on ``settings``' broker
    (made on every broker of this process if new)."""
    ensure_user(user)
    if settings.get("event"):
        grant(user, str(settings["event"]), int(settings["port"]) if settings.get("port") else None)
    return {**settings, "username": user, "password": password_of(user), "password_file": ""}


def password_of(user: str) -> str:
    """The test password of a login (a cabinet's: ``<name>-secret``)."""
    return USERS.get(user, f"{user}-secret")


def available() -> bool:
    return MOSQUITTO is not None and PASSWD is not None and OPENSSL is not None


def free_port() -> int:
    return free_ports(1)[0]


def free_ports(n: int) -> list[int]:
    """``n`` different ports free on 127.0.0.1 right now."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in socks]
    finally:
        for s in socks:
            s.close()


def _can_bind(port: int) -> bool:
    """Whether a listener could take ``port`` on 127.0.0.1 now (as Mosquitto binds: SO_REUSEADDR)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def make_certificates(folder: Path, name: str = "ca", server_names: str | None = None) -> Path:
    """A throw-away CA and (for ``name`` "ca", or with ``server_names``) a server certificate
    ``server.pem`` / ``server.key`` signed by it (openssl), in ``folder``; returns the CA file.
    ``server_names``: the certificate's subjectAltName (default 127.0.0.1 and localhost)."""
    ca_key, ca = folder / f"{name}.key", folder / f"{name}.pem"

    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True)
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN=Focus Arcade test {name}",
        "-keyout", str(ca_key), "-out", str(ca))
    if name == "ca" or server_names:
        key, csr, pem = folder / "server.key", folder / "server.csr", folder / "server.pem"
        ext = folder / "server.ext"
        ext.write_text(f"subjectAltName={server_names or 'IP:127.0.0.1,DNS:localhost'}\n")
        run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(csr))
        run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
            "-CAserial", str(folder / f"{name}.srl"),
            "-days", "2", "-extfile", str(ext), "-out", str(pem))
    return ca


def _test_certificates() -> Path:
    """One CA and server certificate for every broker of this process (made once)."""
    if "dir" not in _CERTS:
        d = Path(tempfile.mkdtemp(prefix="focus-arcade-certs-"))
        make_certificates(d)
        _CERTS["dir"] = d
    return _CERTS["dir"]


def hall_config(folder: Path, port: int, tls_port: int) -> str:
    """The documented configuration with its folder and listeners moved (see the module text).

    Raises:
        AssertionError: the documented file no longer has the lines replaced here.
    """
    text = HALL_CONF.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert "listener 1883 127.0.0.1" in lines and "listener 8883" in lines and HALL_DIR in text, \
        "kiosk/hall/focus-arcade.conf changed shape: update tests/mqtt_broker.py with it"
    out = []
    for line in lines:
        if line == "listener 1883 127.0.0.1":
            line = f"listener {port} 127.0.0.1"
        elif line == "listener 8883":
            line = f"listener {tls_port} 127.0.0.1"
        out.append(line.replace(HALL_DIR, f"{folder}/"))
    return "\n".join(out) + "\n"


class Broker:
    """``mosquitto -c <tmp>/mosquitto.conf`` on 127.0.0.1:``port`` (plain) and ``tls_port``."""

    def __init__(self, folder: Path, port: int | None = None, autosave_every_change: bool = True,
                 tls: bool = True) -> None:
        self.folder = Path(folder).resolve()
        self.folder.mkdir(parents=True, exist_ok=True)
        ports = free_ports(2)
        self.port = port or ports[0]
        self.tls_port = ports[1] if ports[1] != self.port else free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.passwd = self.folder / "passwd"
        self.users: set[str] = set()
        self._reloads = 0
        self.passwd.write_text("")
        for user in USERS:
            self.add_user(user)
        os.chmod(self.passwd, 0o600)
        shutil.copy(HALL_ACL, self.folder / "acl")
        certs = _test_certificates()
        shutil.copy(certs / "ca.pem", self.folder / "hall-ca.pem")
        shutil.copy(certs / "server.pem", self.folder / "broker.pem")
        shutil.copy(certs / "server.key", self.folder / "broker.key")
        self.ca_file = self.folder / "hall-ca.pem"
        self.log = self.folder / "mosquitto.log"
        # What Debian's mosquitto.conf adds for a hall broker (persistence), and the test's log.
        self.pid_file = self.folder / "mosquitto.pid"
        self.store = self.folder / "broker.db"
        extra = ["", "# -- added by tests/mqtt_broker.py --", "persistence true",
                 f"persistence_location {self.folder}/", "persistence_file broker.db",
                 f"pid_file {self.pid_file}",
                 f"log_dest file {self.log}", "log_type error", "log_type warning", "log_type notice"]
        if os.geteuid() == 0:
            extra.append("user root")        # CI runs as root; the temporary folder is root's
        if autosave_every_change:
            extra += ["autosave_on_changes true", "autosave_interval 1"]
        else:
            extra += ["autosave_interval 30"]
        self.conf = self.folder / "mosquitto.conf"
        self._extra = extra
        self._fixed_port = port is not None
        self._started = False
        self._write_conf()
        LIVE.append(self)

    def _write_conf(self) -> None:
        self.conf.write_text(hall_config(self.folder, self.port, self.tls_port) + "\n".join(self._extra) + "\n")

    def add_user(self, user: str, password: str | None = None) -> None:
        """A login in the password file (the broker reloads it when running: SIGHUP)."""
        assert PASSWD is not None
        subprocess.run([PASSWD, "-b", str(self.passwd), user, password or password_of(user)], check=True,
                       capture_output=True)
        self.users.add(user)
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGHUP)
            self._wait_login(user, password or password_of(user))

    def grant(self, user: str, event: str) -> None:
        """``user`` (a cabinet's login, made if new) may write its own topics under ``event``: the
        lines ``focus-arcade event add-cabinet`` appends to the ACL (:func:`kiosk.event.link.grant_event`).
        A running broker reloads (SIGHUP); the reload is known done when a login whose password
        changed with it takes the new one (Mosquitto reads the password file and the ACL in one go)."""
        from kiosk.event.link import grant_event
        if user in USERS:
            return
        changed = grant_event(self.folder / "acl", user, event)
        if user not in self.users:
            self.add_user(user)                            # its reload takes the new ACL lines too
        elif changed and self.proc is not None and self.proc.poll() is None:
            self._reloads += 1
            self.add_user("reload-probe", f"probe-{self._reloads}")

    def _answer(self, user: str, password: str) -> bool | None:
        """The broker's answer to a CONNECT as ``user``: True (taken), False (refused), None (not
        listening yet, or no answer within 5 s: a CONNECT that met a reload may never be answered,
        and waiting on it longer left no time for another try)."""
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion
        c = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        c.username_pw_set(user, password)
        try:
            c.connect("127.0.0.1", self.port, 5)
            got: list[bool] = []
            c.on_connect = lambda *a, got=got: got.append(not a[3].is_failure)
            attempt = time.monotonic() + 5
            while not got and time.monotonic() < attempt:
                c.loop(0.05)
            c.disconnect()
            return got[0] if got else None
        except OSError:
            return None

    def _wait_login(self, user: str, password: str) -> None:
        every = [1.0]
        hup = [time.monotonic() + every[0]]

        def logged_in() -> bool:
            if time.monotonic() > hup[0] and self.proc is not None and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGHUP)       # again: the first may have come mid-reload
                every[0] = min(every[0] * 2, 8.0)          # a loaded machine's reload (TLS too) may take
                hup[0] = time.monotonic() + every[0]       # longer than a second: never interrupt it for good
            return self._answer(user, password) is True
        # a hang guard, not a time the test asserts
        wait_until(logged_in, 120, f"the broker on port {self.port} taking the new login {user!r}")

    def start(self) -> "Broker":
        """Start mosquitto; a first start whose free port was taken meanwhile (by another
        program's connection) tries new ports, a restart tries the same again."""
        for attempt in range(6):
            try:
                self._start()
                self._started = True
                return self
            except RuntimeError as exc:
                if "Address already in use" not in str(exc) or attempt == 5:
                    raise
                if not self._started and not self._fixed_port:
                    self.port, self.tls_port = free_ports(2)
                    self._write_conf()
                else:                                      # a restart: its ports must be let go first
                    wait_until(lambda: _can_bind(self.port) and _can_bind(self.tls_port), 60,
                               f"ports {self.port} and {self.tls_port} free again for the restarted broker")
        return self

    def _start(self) -> None:
        assert MOSQUITTO is not None
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        proc = self.proc

        def answering() -> bool:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"mosquitto exited: {err} {self.log.read_text() if self.log.exists() else ''}")
            return self._answer("board", USERS["board"]) is not None
        # Answering MQTT, not only listening: Mosquitto sets up its signal handlers after it
        # starts listening, and a SIGHUP (a new login) in between ended it (6 times in 15).
        wait_until(answering, 60, f"mosquitto answering on port {self.port}")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL: no goodbye, no last save."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)

    def stop(self) -> None:
        if self in LIVE:
            LIVE.remove(self)
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def settings(self, event: str = "hall", cabinet: str = "", user: str | None = None,
                 password: str | None = None) -> dict[str, Any]:
        """An ``[event]`` section for this broker (plain MQTT on the loopback listener): the
        login is ``user``, else the cabinet's own, else ``board``."""
        who = user or cabinet or "board"
        if password is None:
            self.grant(who, event)                         # a cabinet's login of this event
        if who not in self.users and password is None:
            self.add_user(who)
        return {"host": "127.0.0.1", "port": self.port, "tls": False, "ca_file": "", "username": who,
                "password": password_of(who) if password is None else password, "password_file": "",
                "event": event, "cabinet": cabinet}

    def tls_settings(self, event: str = "hall", cabinet: str = "", user: str | None = None) -> dict[str, Any]:
        """The same on the TLS listener, trusting the test CA."""
        return {**self.settings(event, cabinet, user), "port": self.tls_port, "tls": True,
                "ca_file": str(self.ca_file)}
