"""A real Mosquitto broker for the event tests and bench/bench_event.py.

Started on 127.0.0.1 at a free port with a temporary configuration: passwords
on (``mosquitto_passwd``), no anonymous clients, persistence on (saved after
every change, so a broker killed with -9 keeps what it acknowledged).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

OPENSSL = shutil.which("openssl")
MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
PASSWD = shutil.which("mosquitto_passwd")
USERS = {"cabinet": "hall-secret", "board": "board-secret"}


def available() -> bool:
    return MOSQUITTO is not None and PASSWD is not None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_certificates(folder: Path, name: str = "ca") -> Path:
    """A throw-away CA and a server certificate for 127.0.0.1 / localhost (openssl); returns the CA file."""
    ca_key, ca = folder / f"{name}.key", folder / f"{name}.pem"

    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True)
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN=Focus Arcade test {name}",
        "-keyout", str(ca_key), "-out", str(ca))
    if name == "ca":
        key, csr, pem = folder / "server.key", folder / "server.csr", folder / "server.pem"
        ext = folder / "server.ext"
        ext.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
        run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(csr))
        run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
            "-days", "2", "-extfile", str(ext), "-out", str(pem))
    return ca


class Broker:
    """``mosquitto -c <tmp>/mosquitto.conf`` on 127.0.0.1:``port``."""

    def __init__(self, folder: Path, port: int | None = None, autosave_every_change: bool = True,
                 tls: bool = False) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.tls_port = free_port() if tls else 0
        self.proc: subprocess.Popen[bytes] | None = None
        passwd = self.folder / "passwd"
        passwd.write_text("")
        for user, password in USERS.items():
            subprocess.run([PASSWD, "-b", str(passwd), user, password], check=True, capture_output=True)
        os.chmod(passwd, 0o600)
        acl = self.folder / "acl"
        # The README's hall set-up: cabinets write the event topics; the board only reads
        # (and echoes its own sync probe).
        acl.write_text("user cabinet\ntopic readwrite focus-arcade/#\n"
                       "user board\ntopic read focus-arcade/#\ntopic readwrite focus-arcade/+/sync/#\n")
        self.log = self.folder / "mosquitto.log"
        lines = ["per_listener_settings false", f"listener {self.port} 127.0.0.1", "allow_anonymous false",
                 f"password_file {passwd}", f"acl_file {acl}",
                 "persistence true", f"persistence_location {self.folder}/", "persistence_file broker.db",
                 f"log_dest file {self.log}", "log_type error", "log_type warning", "log_type notice",
                 "max_queued_messages 100000", "max_inflight_messages 20"]
        if tls:
            self.ca_file = make_certificates(self.folder)
            lines += [f"listener {self.tls_port} 127.0.0.1", f"cafile {self.ca_file}",
                      f"certfile {self.folder / 'server.pem'}", f"keyfile {self.folder / 'server.key'}"]
        if os.geteuid() == 0:
            lines.append("user root")        # CI runs as root; the temporary folder is root's
        if autosave_every_change:
            lines += ["autosave_on_changes true", "autosave_interval 1"]
        else:
            lines += ["autosave_interval 30"]
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")

    def start(self) -> "Broker":
        assert MOSQUITTO is not None
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"mosquitto exited: {err} {self.log.read_text() if self.log.exists() else ''}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not listen within 10 s")

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
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def settings(self, event: str = "hall", cabinet: str = "", user: str = "cabinet",
                 password: str | None = None) -> dict[str, object]:
        """An ``[event]`` section for this broker."""
        return {"host": "127.0.0.1", "port": self.port, "tls": False, "ca_file": "", "username": user,
                "password": USERS.get(user, "") if password is None else password, "password_file": "",
                "event": event, "cabinet": cabinet}
