"""``focus-arcade leaderboard-web``: the event's leaderboard as a read-only web page (issue 15).

Subscribes to the broker like a cabinet that never plays (:class:`kiosk.event.Watcher`)
and serves, on ``127.0.0.1:8080`` unless told otherwise:

    /                  the page (no scripts from elsewhere; it works offline)
    /leaderboard.json  the leaderboard now (``Leaderboard.snapshot``)
    /events            Server-Sent Events: the same JSON each time it changes

Read-only: there is nothing to post.  Standard library ``http.server`` only.
"""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Mapping

from kiosk.event import Watcher

log = logging.getLogger("focus-arcade.web")

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Focus Arcade - hall leaderboard</title>
<style>
body { background: #121622; color: #eceef5; font-family: sans-serif; margin: 1em; }
h1 { color: #ffcc40; margin: 0 0 .3em 0; }
#boards { display: flex; flex-wrap: wrap; gap: 1em; }
section { background: #202638; border-radius: 12px; padding: .6em 1em; min-width: 18em; flex: 1; }
h2 { color: #ffcc40; font-size: 1.2em; margin: .2em 0 .5em 0; }
table { border-collapse: collapse; width: 100%; }
#cabinets { width: auto; }
#cabinets td { padding-right: 2em; }
td { padding: .15em .4em; }
td.score { font-weight: bold; }
.dim { color: #969cb0; }
#state.down { color: #eb5050; font-size: 1.6em; font-weight: bold; }
</style></head>
<body>
<h1>Hall leaderboard <span id="event"></span></h1>
<p id="state" class="dim">connecting...</p>
<div id="boards"></div>
<h2>Cabinets</h2>
<table id="cabinets"></table>
<script>
"use strict";
function cell(row, text, cls) {
  const td = document.createElement("td"); td.textContent = text; if (cls) td.className = cls;
  row.appendChild(td); return td;
}
function show(data) {
  document.getElementById("event").textContent = "- " + data.event;
  const st = document.getElementById("state");
  const plural = n => n + (n === 1 ? " game" : " games");
  st.textContent = data.problem ? data.problem : plural(data.games);
  st.className = data.problem ? "down" : "dim";
  st.dataset.games = data.games;
  const boards = document.getElementById("boards");
  boards.replaceChildren();
  for (const b of data.boards) {
    const sec = document.createElement("section"); sec.dataset.board = b.board;
    const h = document.createElement("h2"); h.textContent = b.title + " (" + plural(b.games) + ")";
    sec.appendChild(h);
    const t = document.createElement("table");
    for (const r of b.top) {
      const tr = document.createElement("tr"); tr.className = "entry"; tr.dataset.gameId = r.game_id || "";
      cell(tr, r.rank + ".", "dim"); cell(tr, r.score, "score"); cell(tr, r.who);
      cell(tr, r.cabinet, "cabinet"); t.appendChild(tr);
    }
    sec.appendChild(t); boards.appendChild(sec);
  }
  const cabs = document.getElementById("cabinets");
  cabs.replaceChildren();
  for (const c of data.cabinets) {
    const tr = document.createElement("tr"); tr.className = "cabinet-row";
    cell(tr, c.cabinet, "cabinet"); cell(tr, c.state, "state"); cell(tr, c.game || "", "dim");
    cabs.appendChild(tr);
  }
}
fetch("leaderboard.json").then(r => r.json()).then(show).catch(() => {});
const es = new EventSource("events");
es.onmessage = e => show(JSON.parse(e.data));
es.onerror = () => { const st = document.getElementById("state");
  st.textContent = "lost the leaderboard server; retrying..."; st.className = "down"; };
</script>
</body></html>
"""


class LeaderboardWeb:
    """The page's server.  ``serve_forever`` in a thread via :meth:`start`; :meth:`stop` ends it.

    Args:
        settings: the validated ``[event]`` section.
        host: the address to bind (127.0.0.1: this machine only; "0.0.0.0" for guests' phones).
        port: the TCP port (0 = any free one, see :attr:`port`).
    """

    def __init__(self, settings: Mapping[str, Any], host: str = "127.0.0.1", port: int = 8080) -> None:
        self.watcher = Watcher(settings)
        self.changed = threading.Condition()
        self.version = 0
        self.watcher.leaderboard.listeners.append(self._changed)
        self.stopping = False
        web = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, fmt: str, *args: Any) -> None:
                log.debug(fmt, *args)

            def do_GET(self) -> None:
                path = self.path.split("?")[0]
                if path in ("/", "/index.html"):
                    self._send(200, "text/html; charset=utf-8", PAGE.encode())
                elif path == "/leaderboard.json":
                    self._send(200, "application/json", web.snapshot_json().encode())
                elif path == "/events":
                    web.stream(self)
                else:
                    self._send(404, "text/plain", b"not here: this page is read-only\n")

            def _send(self, code: int, kind: str, body: bytes) -> None:
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer((host, port), Handler)
        self.server.daemon_threads = True
        self.host = host
        self.port = int(self.server.server_address[1])
        self.thread: threading.Thread | None = None

    def _changed(self) -> None:
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    def snapshot_json(self) -> str:
        snap = self.watcher.leaderboard.snapshot(10)
        snap["event"] = self.watcher.event
        snap["problem"] = self.watcher.problem
        return json.dumps(snap)

    def stream(self, handler: BaseHTTPRequestHandler) -> None:
        """Server-Sent Events: the snapshot now, then after each change (at most 5 a second)."""
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-store")
        handler.end_headers()
        seen = -1
        try:
            while not self.stopping:
                with self.changed:
                    if self.version == seen:
                        self.changed.wait(15)
                    now = self.version
                if now == seen:
                    handler.wfile.write(b": still here\n\n")      # a comment keeps proxies from closing it
                else:
                    seen = now
                    handler.wfile.write(f"data: {self.snapshot_json()}\n\n".encode())
                handler.wfile.flush()
                threading.Event().wait(0.2)
        except (BrokenPipeError, ConnectionResetError, OSError):
            return

    def start(self) -> "LeaderboardWeb":
        self.watcher.start()
        self.thread = threading.Thread(target=self.server.serve_forever, name="leaderboard-web", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping = True
        self._changed()
        self.server.shutdown()
        self.server.server_close()
        self.watcher.stop()
