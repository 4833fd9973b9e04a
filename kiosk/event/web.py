"""``focus-arcade leaderboard-web``: the event's leaderboard as a read-only web page (issue 15).

Subscribes to the broker like a cabinet that never plays (:class:`kiosk.event.link.Watcher`)
and serves, on ``127.0.0.1:8080`` unless told otherwise:

    /                  the page (no scripts from elsewhere; it works offline), in the language
                       the browser asks for (``Accept-Language``; issue 26)
    /leaderboard.json  the leaderboard now (``Leaderboard.snapshot``)
    /events            Server-Sent Events: the same JSON each time it changes

Read-only: there is nothing to post.  Standard library ``http.server`` only: one thread
per connection, each with a timeout, at most :data:`MAX_PER_ADDRESS` connections from
one address and :data:`MAX_CONNECTIONS` in all, the JSON built once per change and
shared (bench/bench_event.py ``--web-clients`` measures it).
"""

from __future__ import annotations

import json
import logging
import socket
import sys
import threading
import time
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Mapping

from arcade import i18n
from kiosk.event.link import Snapshot, Watcher, dumps

log = logging.getLogger("focus-arcade.web")

PAGE = """<!doctype html>
<html lang="@LANG@"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>
body { background: #121622; color: #eceef5; font-family: sans-serif; margin: 1em; font-size: 18px; }
h1 { color: #ffcc40; margin: 0 0 .3em 0; font-size: 2em; }
#boards { display: grid; grid-template-columns: repeat(auto-fill, minmax(20em, 1fr)); gap: 1em; }
section { background: #202638; border-radius: 12px; padding: .5em .8em; min-width: 0; }
h2 { color: #ffcc40; font-size: 1.25em; margin: .2em 0 .4em 0; }
section h2 { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
/* Names, ranks and scores are one line each, whatever their length: a long one ends in "...". */
table { border-collapse: collapse; width: 100%; }
td { padding: .12em .3em; unicode-bidi: isolate; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
/* Rank, score, who and game id take what their text needs; the cabinet's name the rest (cut). */
td.rank { text-align: right; }
td.score { font-weight: bold; }
td.cabinet { width: 100%; max-width: 0; }
td.gid { color: #969cb0; font-family: monospace; font-size: .6em; }
#cabinets { width: auto; }
#cabinets td.cabinet { width: auto; }
#cabinets td { padding-right: 2em; max-width: 14em; }
.dim { color: #969cb0; }
.warn { color: #ffb040; font-weight: bold; }
#note:empty { display: none; }
#state.down { color: #eb5050; font-size: 1.6em; font-weight: bold; }
#age.stale { color: #eb5050; font-weight: bold; }
/* A big screen across the hall (1080p and up), readable from 5 m: the title and the state on one
   line, three boards across and two down (six boards of ten rows; the others are counted below
   them), the cabinets in three columns underneath; all of it within 1920x1080. */
@media (min-width: 1600px) {
  body { font-size: 28px; margin: .4em .8em; }
  h1 { font-size: 1.3em; display: inline-block; margin: 0 .8em .2em 0; }
  h1 + p { display: inline-block; margin: 0; }
  p { margin: .1em 0; }
  #boards { grid-template-columns: repeat(3, minmax(0, 1fr)); gap: .4em .6em; }
  #boards section:nth-child(n+7) { display: none; }
  section { padding: .25em .6em .35em .6em; }
  h2 { font-size: 1em; margin: .1em 0 .15em 0; }
  td { padding: .04em .25em; line-height: 1.2; }
  #cabinets-title { font-size: .8em; margin: .2em 0 0 0; }
  #cabinets { display: block; column-count: 3; column-gap: 1.5em; font-size: .7em; }
  #cabinets tr { display: block; break-inside: avoid; white-space: nowrap; overflow: hidden; }
  #cabinets td { display: inline-block; vertical-align: bottom; padding: 0 .6em 0 0; max-width: 6em; }
  #cabinets td.cabinet { max-width: 10em; }
  #cabinets td.state { max-width: 13em; }
}
.count { white-space: nowrap; }
/* A phone: one column, nothing wider than the screen: a board's title wraps (its game count
   whole on one line), a cabinet's cells wrap onto a second line ("two machines use this name"
   included), each cell still one line, a long one cut with "...". */
@media (max-width: 600px) {
  body { font-size: 16px; margin: .5em; }
  h1 { font-size: 1.5em; }
  #boards { grid-template-columns: 1fr; }
  section h2 { white-space: normal; overflow-wrap: anywhere; }
  #cabinets { display: block; width: 100%; }
  #cabinets tr { display: flex; flex-wrap: wrap; column-gap: .8em; margin-bottom: .25em; }
  #cabinets td, #cabinets td.cabinet { padding: 0; max-width: 100%; min-width: 0; }
}
</style></head>
<body>
<h1>@HEADING@ <bdi id="event"></bdi></h1>
<p><span id="state" class="dim">@CONNECTING@</span> <span id="age" class="dim"></span></p>
<p id="note" class="warn"></p>
<div id="boards"></div>
<p id="more" class="dim"></p>
<h2 id="cabinets-title">@CABINETS@</h2>
<table id="cabinets"></table>
<script>
"use strict";
// The page's words in the browser's language (kiosk.event.web.page_texts); P: the plural form of each count.
const T = @TEXTS@;
function fill(text, fields) { return text.replace(/\\{(\\w+)\\}/g, (m, k) => k in fields ? String(fields[k]) : m); }
function count(forms, n) { const i = T.P[n < 200 ? n : 100 + n % 100]; return fill(forms[i] ?? forms[forms.length - 1], {n: n}); }
let heardAt = 0, updatedAge = 0, serverOk = false, brokerProblem = false;
function cell(row, text, cls) {
  const td = document.createElement("td");
  const b = document.createElement("bdi"); b.textContent = text; td.appendChild(b);
  if (cls) td.className = cls;
  row.appendChild(td); return td;
}
function ago(s) {
  s = Math.max(0, Math.round(s));
  return s < 120 ? fill(T.s, {seconds: s}) : s < 7200 ? fill(T.min, {minutes: Math.round(s / 60)}) :
    fill(T.h, {hours: Math.round(s / 3600)});
}
function showAge() {
  const el = document.getElementById("age");
  if (!heardAt) { el.textContent = ""; return; }
  const quiet = (performance.now() - heardAt) / 1000;
  el.textContent = fill(T.last_update, {age: ago(updatedAge + quiet)});
  // The server's link to the broker lost or silent: the age is stale news too, not a quiet hall.
  el.className = quiet > 20 || brokerProblem ? "stale" : "dim";
  if (quiet > 20) {
    const st = document.getElementById("state");
    st.textContent = fill(T.no_news, {age: ago(quiet)}); st.className = "down";
  }
}
function heard(serverNow, updatedAt) {
  heardAt = performance.now();
  updatedAge = updatedAt ? Math.max(0, serverNow - updatedAt) : 0;
}
function show(data) {
  heard(data.now, data.updated_at);
  document.getElementById("event").textContent = "- " + data.event;
  const st = document.getElementById("state");
  const plural = n => count(T.games, n);
  st.textContent = data.problem ? data.problem :
    data.closed ? fill(T.closed, {games: plural(data.games)}) : plural(data.games);
  st.className = data.problem ? "down" : "dim";
  brokerProblem = !!data.problem;
  st.dataset.games = data.games;
  const dups = data.cabinets.filter(c => c.duplicate).map(c => c.cabinet);
  const floods = data.flooding || [];
  document.getElementById("note").textContent = [
    dups.length ? fill(T.duplicate, {names: dups.join(", ")}) : "",
    floods.length ? fill(T.flooding, {names: floods.join(", ")}) : ""].filter(Boolean).join(" ");
  moreBoards = data.more_boards || 0;
  const boards = document.getElementById("boards");
  boards.replaceChildren();
  for (const b of data.boards) {
    const sec = document.createElement("section"); sec.dataset.board = b.board;
    const h = document.createElement("h2"); h.textContent = b.title + " ";
    const n = document.createElement("span"); n.className = "count"; n.textContent = "(" + plural(b.games) + ")";
    h.appendChild(n);
    sec.appendChild(h);
    const t = document.createElement("table");
    for (const r of b.top) {
      const tr = document.createElement("tr"); tr.className = "entry"; tr.dataset.gameId = r.game_id || "";
      if (r.game_id) tr.title = fill(T.game, {id: r.game_id});
      cell(tr, r.rank + ".", "rank dim"); cell(tr, r.score, "score"); cell(tr, r.who, "who");
      cell(tr, r.cabinet, "cabinet");
      // The game's id, short (event remove takes these 8 characters), for the operator.
      cell(tr, r.game_id ? r.game_id.slice(0, 8) : "", "gid"); t.appendChild(tr);
    }
    sec.appendChild(t); boards.appendChild(sec);
  }
  showMore();
  const cabs = document.getElementById("cabinets");
  cabs.replaceChildren();
  for (const c of data.cabinets) {
    const tr = document.createElement("tr"); tr.className = "cabinet-row";
    // An offline cabinet stays listed, with when it was last heard of (its own clock).
    const state = T.states[c.state] ?? c.state;
    const shown = c.state === "offline" && c.seen_at > 0 ? fill(T.last_seen, {state: state, age: ago(data.now - c.seen_at)}) : state;
    cell(tr, c.cabinet, "cabinet"); cell(tr, shown, "state"); cell(tr, c.game || "", "dim");
    if (c.duplicate) cell(tr, T.two_machines, "warn");
    cabs.appendChild(tr);
  }
  showAge();
}
let moreBoards = 0;
function showMore() {
  // The boards the server left out, and those this screen has no room for (a big screen shows six).
  const hidden = [...document.querySelectorAll("#boards section")].filter(e => e.offsetParent === null).length;
  const n = moreBoards + hidden;
  document.getElementById("more").textContent = n ? count(T.more, n) : "";
}
window.addEventListener("resize", showMore);
function take(text) {
  // One bad update never blanks the page: the last good one stays.
  let data;
  try { data = JSON.parse(text); } catch (e) { return; }
  show(data);
}
fetch("leaderboard.json").then(r => r.text()).then(take).catch(() => {});
const es = new EventSource("events");
es.onmessage = e => take(e.data);
es.addEventListener("tick", e => { const t = JSON.parse(e.data); heard(t.now, t.updated_at); showAge(); });
es.onerror = () => { const st = document.getElementById("state");
  st.textContent = T.lost; st.className = "down"; };
setInterval(showAge, 1000);
</script>
</body></html>
"""


def _forms(tr: i18n.Translator, form: Callable[[int], str]) -> list[str]:
    """Each plural form of a counted text, in the order of the language's forms: ``form(n)`` for
    the first count of each form (the page picks one with :func:`page_texts`' ``P``)."""
    first: dict[int, int] = {}
    for n in range(200):
        first.setdefault(tr.plural(n), n)
    return [form(first.get(i, 5)) for i in range(tr.nplurals)]


def page_texts(tr: i18n.Translator) -> dict[str, object]:
    """The page's words in the language of ``tr`` (issue 26), for its script: texts with
    ``{fields}`` it fills in, each counted text's plural forms, and ``P``: the form of each count
    0-199 (a count of 200 and more takes the form of 100 + its last two digits, as the plural
    rules of gettext's languages go)."""
    _, ngettext, pgettext = tr.gettext, tr.ngettext, tr.pgettext
    return {
        "s": _("{seconds} s"),
        # TRANSLATORS: how long ago, in minutes (the leaderboard page's "last update 3 min ago").
        "min": _("{minutes} min"),
        # TRANSLATORS: how long ago, in hours.
        "h": _("{hours} h"),
        # TRANSLATORS: {age} is a time such as "12 s" or "3 min".
        "last_update": _("- last update {age} ago"),
        "no_news": _("no news from the leaderboard server for {age}; retrying..."),
        "lost": _("lost the leaderboard server; retrying..."),
        # TRANSLATORS: {games} is the number of games with its word, such as "12 games".
        "closed": _("{games} - event closed"),
        "duplicate": _("Two machines use the cabinet name {names}: give each cabinet its own name."),
        "flooding": _("The login {names} floods its topics: some of its own games may be missing; every "
                      "other cabinet is shown in full."),
        # TRANSLATORS: a game's id, shown when the pointer rests on a board's row.
        "game": _("game {id}"),
        # TRANSLATORS: {state} is a cabinet's state ("offline"), {age} a time such as "3 min".
        "last_seen": _("{state}, last seen {age} ago"),
        "two_machines": _("two machines use this name"),
        "states": {"idle": pgettext("cabinet state", "idle"), "playing": pgettext("cabinet state", "playing"),
                   "offline": pgettext("cabinet state", "offline")},
        "games": _forms(tr, lambda n: ngettext("{n} game", "{n} games", n)),
        "more": _forms(tr, lambda n: ngettext("... and {n} more board", "... and {n} more boards", n)),
        "P": [tr.plural(n) for n in range(200)],
    }


def page(code: str) -> bytes:
    """The page in the language ``code`` (a code of :data:`arcade.i18n.LANGUAGES`)."""
    tr = i18n.translator(code)
    _ = tr.gettext
    texts = json.dumps(page_texts(tr), ensure_ascii=False).replace("</", "<\\/")
    html = {"@LANG@": tr.code, "@TITLE@": _("Focus Arcade - hall leaderboard"), "@HEADING@": _("Hall leaderboard"),
            "@CONNECTING@": _("connecting..."), "@CABINETS@": _("Cabinets")}
    text = PAGE
    for marker, words in html.items():
        text = text.replace(marker, escape(words))
    return text.replace("@TEXTS@", texts).encode()


#: Seconds a client may take to send its request, or to take what is sent to it.
CLIENT_TIMEOUT_S = 10.0
#: Live streams (/events) at once; more get 503 and their browser retries.
MAX_STREAMS = 400
#: Seconds between two heartbeats of a stream (the page's "last update N s ago").
TICK_S = 5.0
#: Two updates of a stream are at least this far apart (s).
MIN_GAP_S = 0.2
#: Connections one address may hold at once (a browser opens at most 6 to a host); more are
#: closed at once, so one guest's program cannot hold every thread and file descriptor.
MAX_PER_ADDRESS = 16
#: Connections at once, all addresses (below the 1,024 files a service may open by default).
MAX_CONNECTIONS = 800


class PageSnapshot(Snapshot):
    """What the page gets (``/leaderboard.json``, ``/events``): :class:`kiosk.event.link.Snapshot`
    with the event's name, the connection problem ("" while fine) and the server's clock
    (``now``, s since 1970)."""

    event: str
    problem: str
    now: float


#: A connection as :mod:`socketserver` hands it over.
Request = socket.socket | tuple[bytes, socket.socket]


def client_host(client_address: object) -> str:
    """A client's address as text (a TCP client's address is (host, port...)); "?" if none."""
    return str(client_address[0]) if isinstance(client_address, tuple) and client_address else "?"


class _Server(ThreadingHTTPServer):
    """The standard library's threaded server with a bounded number of connections: at most
    ``max_per_address`` from one address and :data:`MAX_CONNECTIONS` in all; a connection over
    either is closed before it gets a thread.  A longer listen queue than the default 5, so a
    burst of connections does not drop a viewer's."""

    request_queue_size = 128
    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler], max_per_address: int) -> None:
        self.max_per_address = max_per_address
        self.open: dict[str, int] = {}
        self.refused = 0                     # connections closed at once (over a limit)
        self.finished = 0                    # connections served and closed (not the refused)
        self._open_lock = threading.Lock()
        super().__init__(address, handler)

    def process_request(self, request: Request, client_address: object) -> None:
        host = client_host(client_address)
        with self._open_lock:
            if self.open.get(host, 0) >= self.max_per_address or sum(self.open.values()) >= MAX_CONNECTIONS:
                self.refused += 1
                refuse = True
            else:
                self.open[host] = self.open.get(host, 0) + 1
                refuse = False
        if refuse:
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except Exception:                    # no thread for it: it is closed, and no longer counted
            self._closed(host)
            raise

    def process_request_thread(self, request: Request, client_address: object) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._closed(client_host(client_address))

    def handle_error(self, request: Request, client_address: object) -> None:
        """A client that went away mid-request or mid-response (a phone that locked, a browser
        tab closed, a reload) is no fault of the server: one short debug line, not the standard
        library's traceback on stderr (issue 24: 806 of them, 1 MB, in a day's log)."""
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            log.debug("client %s went away: %s", client_host(client_address), type(exc).__name__)
            return
        log.error("serving %s failed", client_host(client_address), exc_info=exc)

    def _closed(self, host: str) -> None:
        with self._open_lock:
            self.finished += 1
            n = self.open.get(host, 0) - 1
            if n > 0:
                self.open[host] = n
            else:
                self.open.pop(host, None)


class LeaderboardWeb:
    """The page's server.  ``serve_forever`` in a thread via :meth:`start`; :meth:`stop` ends it.

    The leaderboard's JSON is built once per change (:meth:`snapshot_json`) and the
    same text goes to every client; each connection has :data:`CLIENT_TIMEOUT_S` to
    send its request and to take each write, and at most :data:`MAX_STREAMS` live
    streams are served at once.

    Args:
        settings: the validated ``[event]`` section.
        host: the address to bind (127.0.0.1: this machine only; "0.0.0.0" for guests' phones).
        port: the TCP port (0 = any free one, see :attr:`port`).
        max_per_address: connections one address may hold at once (:data:`MAX_PER_ADDRESS`).
    """

    def __init__(self, settings: Mapping[str, object], host: str = "127.0.0.1", port: int = 8080,
                 max_per_address: int = MAX_PER_ADDRESS) -> None:
        self.watcher = Watcher(settings)
        self.changed = threading.Condition()
        self.version = 0
        self.builds = 0                      # times the leaderboard's JSON was built (tests, bench)
        self._cache_key: tuple[int, str, bool] | None = None
        self._cache = ""
        self._build_lock = threading.Lock()
        self._built_at = -1e9
        self.streams = threading.BoundedSemaphore(MAX_STREAMS)
        self.watcher.leaderboard.listeners.append(self._changed)
        self.stopping = False
        self._pages: dict[str, bytes] = {}     # the page in each language asked for (page())
        web = self

        class Handler(BaseHTTPRequestHandler):
            timeout = CLIENT_TIMEOUT_S        # socket timeout: a slow client loses its thread

            def log_message(self, fmt: str, *args: object) -> None:
                log.debug(fmt, *args)

            def do_GET(self) -> None:
                path = self.path.split("?")[0]
                if path in ("/", "/index.html"):
                    # the browser's language for this request only: never the cabinet's (issue 26)
                    code = i18n.accepted_language(self.headers.get("Accept-Language"))
                    self._send(200, "text/html; charset=utf-8", web.page(code),
                               {"Content-Language": code, "Vary": "Accept-Language"})
                elif path == "/leaderboard.json":
                    self._send(200, "application/json", web.snapshot_json(MIN_GAP_S).encode())
                elif path == "/events":
                    if not web.streams.acquire(blocking=False):
                        self._send(503, "text/plain", b"too many viewers right now; retrying\n")
                        return
                    try:
                        web.stream(self)
                    finally:
                        web.streams.release()
                else:
                    self._send(404, "text/plain", b"not here: this page is read-only\n")

            def _send(self, code: int, kind: str, body: bytes, headers: Mapping[str, str] | None = None) -> None:
                self.send_response(code)
                self.send_header("Content-Type", kind)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

        self.server = _Server((host, port), Handler, max_per_address)
        self.host = host
        self.port = int(self.server.server_address[1])
        self.thread: threading.Thread | None = None

    def page(self, code: str) -> bytes:
        """The page in the language ``code``, made once per language."""
        made = self._pages.get(code)
        if made is None:
            made = self._pages[code] = page(code)
        return made

    def _changed(self) -> None:
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    def snapshot_json(self, min_gap_s: float = 0.0) -> str:
        """The leaderboard as JSON (``Leaderboard.snapshot`` with ``event``, ``problem`` and
        ``now``): built again only when the leaderboard or the connection changed, and at
        most once per ``min_gap_s`` (the server's own requests: :data:`MIN_GAP_S`, so a
        burst of games costs a few builds, whatever the viewers); never NaN or an infinity
        (a browser would refuse the whole text)."""
        return self._snapshot(min_gap_s)[0]

    def _snapshot(self, min_gap_s: float) -> tuple[str, int, bool]:
        """(JSON text, its build number, whether a change is not in it yet)."""
        board = self.watcher.leaderboard
        key = (board.changes, self.watcher.problem, self.watcher.connected)
        with self._build_lock:
            if key != self._cache_key and time.monotonic() - self._built_at >= min_gap_s:
                snap: PageSnapshot = {**board.snapshot(10), "event": self.watcher.event,
                                      "problem": self.watcher.problem, "now": 0.0}
                try:
                    text = dumps(snap)
                except ValueError:            # cannot happen after parse(); never send what breaks the page
                    log.exception("leaderboard JSON")
                    text = dumps({"event": self.watcher.event, "games": 0, "boards": [], "cabinets": [],
                                  "more_boards": 0, "closed": None, "updated_at": 0.0, "now": 0.0,
                                  "problem": "the leaderboard could not be shown; see the server's log"})
                self._cache, self._cache_key = text, key
                self._built_at = time.monotonic()
                self.builds += 1
            text, build, stale = self._cache, self.builds, key != self._cache_key
        # The server's clock for the page's "last update N s ago" (the only per-request part).
        return text.replace('"now": 0.0', f'"now": {time.time():.3f}', 1), build, stale

    def tick_json(self) -> str:
        return dumps({"now": round(time.time(), 3), "updated_at": self.watcher.leaderboard.updated_at})

    def stream(self, handler: BaseHTTPRequestHandler) -> None:
        """Server-Sent Events: the snapshot now, then after each change (at most one each
        :data:`MIN_GAP_S`), and a ``tick`` when nothing changed for :data:`TICK_S`."""
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-store")
        handler.end_headers()
        seen, sent, last_write = -1, -1, 0.0
        try:
            while not self.stopping:
                with self.changed:
                    if self.version == seen:
                        self.changed.wait(max(0.05, TICK_S - (time.monotonic() - last_write)))
                    seen = self.version
                if self.stopping:
                    return
                text, build, stale = self._snapshot(MIN_GAP_S)
                if build != sent:
                    handler.wfile.write(f"data: {text}\n\n".encode())
                    sent, last_write = build, time.monotonic()
                elif time.monotonic() - last_write >= TICK_S:
                    handler.wfile.write(f"event: tick\ndata: {self.tick_json()}\n\n".encode())
                    last_write = time.monotonic()
                handler.wfile.flush()
                if stale:
                    seen = -1                 # a change not built yet: look again after the gap
                threading.Event().wait(MIN_GAP_S)
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
