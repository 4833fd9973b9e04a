"""Computer players think in their own process: a small versioned protocol, a worker, a client.

The render loop must never wait for a search nor share its interpreter lock
with one, so searching players (FOCUS and Crossfire: :func:`arcade.bots.sackson.decide`)
run in a worker process started once and reused (``python -m kiosk.players.thinker``).
The worker knows no game: what it searches and who it plays for come from each game's
house through the registry (:mod:`arcade.core.thinking`).
The client, :class:`Thinker`, talks to it over the worker's stdin/stdout and
never blocks the caller: :meth:`Thinker.ask` queues a request and returns a
future of the answer; a pump thread of the kiosk's process (asleep in
``select`` between messages) writes, reads, and restarts a dead or stuck worker.

Protocol (:data:`PROTOCOL_VERSION`): one JSON object per line, each with
``"v"`` (the protocol version) and ``"type"``.

Client to worker:

* ``{"v": 1, "type": "think", "id": 7, "kind": "focus", "state": {...},
  "level": "hard", "seed": 123, "nodes": null, "cap_s": null}`` - choose a move
  for the side to move of ``state`` (``kind`` names the family whose house searches:
  :func:`arcade.registry.position_search`, its ``SEARCH``; ``state`` is that search's
  ``encode`` form, :func:`encode`).  ``nodes`` null: the level's own budget; ``cap_s``
  null: the search's safety cap is sized from that budget (the search's ``cap_s``; FOCUS:
  :func:`arcade.bots.sackson.safety_cap_s`), counted in the worker's own CPU time;
* ``{"v": 1, "type": "think", "id": 8, "kind": "game", "session": "1234-1", "base": 40,
  "game": {"entry": "focusx-4focus", "seats": 4, "settings": {...}}, "actions": [...],
  "player": {"name": "focusx-place", "seat": 2, "level": "expert"}, "seed": 99}``
  - any registry entry (:mod:`arcade.registry`): the worker keeps the game of each
  ``session`` (built with :meth:`arcade.registry.GameSpec.start_from` from ``game``
  when ``base`` is 0) and applies ``actions`` (the record entries of
  :mod:`arcade.core.record` added since the ``base``-th; its own count must be
  ``base``, else it answers ``error`` and the client starts the session again), then
  answers the move of the computer player ``player["name"]`` (its house's ``THINKING_PLAYERS``,
  :func:`arcade.registry.thinking_player`: the
  same function the in-process player calls, with ``random.Random(seed)``, so the
  same level and seed make the same move) as the action's JSON (``Action.to_json``).
  The worker gets the whole state, as the in-process player does; a player that
  may only see a seat's view takes it there (the Focus (2023) partner: ``state.view``);
* ``{"v": 1, "type": "cancel", "id": 7}`` - drop that request (the worker stops
  its search at the next clock reading and answers ``cancelled``);
* ``{"v": 1, "type": "bye"}`` - exit.

Worker to client:

* ``{"v": 1, "type": "ready", "pid": 1234}`` - once, at start;
* ``{"v": 1, "type": "progress", "id": 7, "cpu_s": 1.25}`` - every :data:`HEARTBEAT_S`
  seconds while it thinks: the CPU time the thinking thread has had for that request;
* ``{"v": 1, "type": "move", "id": 7, "move": [src, dst, count], "nodes": 12001, "ms": 153.2,
  "cpu_ms": 140.1}`` (``ms``: wall time, ``cpu_ms``: the thinking thread's CPU time);
* ``{"v": 1, "type": "cancelled", "id": 7}``;
* ``{"v": 1, "type": "error", "id": 7 or null, "error": "..."}`` - a request it
  could not serve (a bad state, an unknown kind, another protocol version).

The version stays 1 on purpose: the ``"game"`` kind and ``"progress"`` only add a kind, a
message and fields (a client ignores a message type it does not know), so
a worker that predates it answers ``error`` (unknown kind) and the client's fallback
makes the move; an incompatible change must bump :data:`PROTOCOL_VERSION`.  Requests
are served in order, one at a time; several may wait (both Focus (2023) partners
point at once); a request's stuck clock starts when the ones before it are answered.

Failures (nothing is lost, the game goes on): a worker that dies, closes its
pipe or answers garbage is restarted and the move of the pending request is
made by the fallback player (``fallback`` of :meth:`Thinker.ask`, called in the
kiosk's process: a cheap player); so is a stuck one (it is killed first).  Stuck
counts the time the worker actually had, not the wall clock, so a worker starved
of CPU by the frame loop (or a loaded machine) is never killed while it makes
progress: it is stuck when it has shown no progress (no ``progress`` report with
more CPU time, no answer) for :data:`SILENT_S` seconds, or when it reports more CPU
time on one request than that request's allowance: its search's safety cap (sized
from the node budget at a Pi 3's speed) plus :data:`STUCK_MARGIN_S`, or
:data:`GAME_CPU_S` for a ``"game"`` request.  A worker that speaks another protocol
version is a setup error: :meth:`Thinker.poll` raises :class:`ThinkerVersionError`
once, with both versions named, and from then on every request is answered by
its fallback.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Protocol, Sequence

from arcade import registry
from arcade.core.api import Action, State
from arcade.core.driver import ComputerPlayer
from arcade.core.errors import SettingsError
from arcade.core.thinking import PositionSearch, ThinkingPlayerFn

#: Version of the message protocol; both sides check it on every message.
PROTOCOL_VERSION = 1
#: CPU seconds a request may take beyond its search's safety cap before the worker counts as stuck.
STUCK_MARGIN_S = 3.0
#: Wall seconds without any sign of progress (a ``progress`` report with more CPU time, an
#: answer) after which the worker counts as stuck; it reports every :data:`HEARTBEAT_S`.
SILENT_S = 10.0
#: Seconds between a thinking worker's ``progress`` reports.
HEARTBEAT_S = 0.5
#: CPU seconds a ``"game"`` request (no node budget) may take before the worker counts as
#: stuck: the slowest such decision measured here is 0.08 CPU-s (FocusX 4Focus expert,
#: ``bench/bench_worker_decisions.py``), about 0.8 s on a Pi 3; this is over 10 times that.
GAME_CPU_S = 10.0


class ThinkerError(RuntimeError):
    """The thinking worker could not be used (the reason says why)."""


#: A protocol message as JSON data (an object): ``{"v": 1, "type": "think", "id": 3, ...}``.
Message = dict[str, object]


class TextOut(Protocol):
    """Where the worker writes its answers (``sys.stdout``, a ``StringIO`` in tests)."""

    def write(self, text: str, /) -> object: ...

    def flush(self) -> object: ...


def _table(value: object, what: str) -> Mapping[str, object]:
    """A request's JSON object field.

    Raises:
        ThinkerError: ``value`` is not a JSON object (``what`` names the field).
    """
    if not isinstance(value, dict):
        raise ThinkerError(f"{what} is not an object: {str(value)[:60]}")
    return value


def _int(value: object, what: str) -> int:
    """``int(value)`` of a request's number (or digits).

    Raises:
        ThinkerError: ``value`` is no number (``what`` names the field).
        ValueError: a string that is no whole number.
    """
    if isinstance(value, (int, float, str)):
        return int(value)
    raise ThinkerError(f"{what} is not a number: {str(value)[:60]}")


def _float(value: object, what: str) -> float:
    """``float(value)`` of a request's number (or digits); raises as :func:`_int`."""
    if isinstance(value, (int, float, str)):
        return float(value)
    raise ThinkerError(f"{what} is not a number: {str(value)[:60]}")


class ThinkerVersionError(ThinkerError):
    """The worker speaks another protocol version than this kiosk."""


# -- positions as data: each game's house says how (arcade.registry.position_search) -------

def _search(kind: str) -> PositionSearch:
    """The position search of ``kind`` (a family's name), from the registry.

    Raises:
        ThinkerError: no family of that name has one.
    """
    try:
        return registry.position_search(kind)
    except SettingsError:
        raise ThinkerError(f"unknown kind {kind!r} (known: {sorted(['game', *registry.searching_families()])})") \
            from None


def encode(kind: str, state: State) -> Message:
    """``state`` as protocol data for a ``kind`` request (the game's house's ``SEARCH.encode``:
    FOCUS / Crossfire, ``"focus"``: seats, settings, start and the moves since)."""
    return _search(kind).encode(state)


def decode(kind: str, data: Mapping[str, object]) -> State:
    """The state :func:`encode` wrote.

    Raises:
        ThinkerError: data that does not make a position of ``kind`` (the reason said).
    """
    search = _search(kind)
    try:
        return search.decode(data)
    except ValueError as exc:
        raise ThinkerError(str(exc)) from exc


def _think_position(req: Mapping[str, object], clock: Callable[[], float]) -> tuple[list[int], int]:
    kind = str(req.get("kind"))
    state = decode(kind, _table(req["state"], "state"))
    stats: dict[str, int] = {}
    cap, nodes = req.get("cap_s"), req.get("nodes")
    move = _search(kind).search(state, str(req["level"]), random.Random(_int(req["seed"], "seed")), clock,
                                None if nodes is None else _int(nodes, "nodes"),
                                None if cap is None else _float(cap, "cap_s"), stats)
    return move, stats.get("nodes", 0)


# -- any registry entry: a session per game, the actions since the last request ------------

def _player(name: str) -> ThinkingPlayerFn:
    """The computer player ``name`` from its game's house (``arcade.registry.thinking_player``).

    Raises:
        ThinkerError: an unknown player name.
    """
    try:
        return registry.thinking_player(name)
    except SettingsError:
        raise ThinkerError(f"unknown computer player {name!r} (known: {registry.thinking_players()})") from None


#: Games a worker keeps at once (the oldest is dropped; its client then starts it again).
MAX_SESSIONS = 8
_SESSIONS: "dict[str, tuple[State, int]]" = {}


def decision_seed(base: int, state: State, seat: int) -> int:
    """The seed of ``seat``'s decision at ``state``: a function of the player's ``base`` seed,
    the number of moves made and the seat, so a thought begun again at the same point (the
    driver dropped a stale one) and the move made here when due draw the same."""
    return random.Random(f"{base}-{len(state.history)}-{seat}").getrandbits(62)


def decide_here(name: str, state: State, seat: int, level: str, seed: int) -> Action:
    """The move the computer player ``name`` (:func:`arcade.registry.thinking_player`) makes
    in this process with ``random.Random(seed)``.

    Raises:
        ThinkerError: an unknown player name.
    """
    return _player(name)(state, seat, level, random.Random(seed))


def _sync_session(req: Mapping[str, object]) -> State:
    """The worker's game of ``req["session"]`` with ``req["actions"]`` applied (see the module text).

    Raises:
        ThinkerError: a session out of step, an unknown entry, an action that does not replay.
    """
    sid = str(req.get("session"))
    base = _int(req.get("base") or 0, "base")
    try:
        if base == 0:
            g = _table(req["game"], "game")
            state = registry.get(str(g["entry"])).start_from((), _int(g["seats"], "seats"),
                                                             _table(g.get("settings") or {}, "settings"))
        else:
            if sid not in _SESSIONS or _SESSIONS[sid][1] != base:
                have = _SESSIONS[sid][1] if sid in _SESSIONS else None
                raise ThinkerError(f"session {sid} is out of step (the worker has {have} actions, not {base})")
            state = _SESSIONS.pop(sid)[0]
        sent = req.get("actions") or []
        if not isinstance(sent, list):
            raise ThinkerError(f"actions is not a list: {str(sent)[:60]}")
        actions = list(sent)
        from arcade.core.record import apply_actions
        apply_actions(state, actions)
    except ThinkerError:
        _SESSIONS.pop(sid, None)
        raise
    except Exception as exc:     # SettingsError, RecordError, KeyError ...
        _SESSIONS.pop(sid, None)
        raise ThinkerError(f"session {sid} cannot be followed: {type(exc).__name__}: {exc}") from exc
    _SESSIONS[sid] = (state, base + len(actions))
    while len(_SESSIONS) > MAX_SESSIONS:
        _SESSIONS.pop(next(iter(_SESSIONS)))
    return state


def _think_game(req: Mapping[str, object], clock: Callable[[], float]) -> tuple[object, int]:
    sid = str(req.get("session"))
    if sid not in _SESSIONS:
        raise ThinkerError(f"session {sid} is not kept here")
    state = _SESSIONS[sid][0]
    player = _table(req["player"], "player")
    action = decide_here(str(player["name"]), state, _int(player["seat"], "seat"), str(player.get("level") or ""),
                         _int(req["seed"], "seed"))
    return action.to_json(), 0


#: The worker's own kind: any registry entry's game, followed action by action.
GAME_KIND = "game"
#: kind -> the worker's decision function: (request, clock) -> (move as JSON data, nodes); any
#: other kind is a family whose house searches positions sent as data (:func:`_think_position`).
KINDS: dict[str, Callable[[Mapping[str, object], Callable[[], float]], tuple[object, int]]] = {
    GAME_KIND: _think_game,
}


# -- the worker -----------------------------------------------------------------------------

def _send(out: TextOut, lock: threading.Lock, msg: Message) -> None:
    msg = {"v": PROTOCOL_VERSION, **msg}
    with lock:
        out.write(json.dumps(msg) + "\n")
        out.flush()


def _cpu_clock_of_this_thread() -> Callable[[], float]:
    """A function giving the calling thread's CPU seconds, readable from any thread (the
    process's CPU time where a thread's own clock cannot be read that way)."""
    try:
        clk = time.pthread_getcpuclockid(threading.get_ident())
        time.clock_gettime(clk)
    except (AttributeError, OSError):
        return time.process_time
    return lambda: time.clock_gettime(clk)


def worker_main(stdin: Iterable[str] | None = None, stdout: TextOut | None = None,
                heartbeat_s: float = HEARTBEAT_S) -> int:
    """The worker: read requests (one JSON line each), think, answer; until ``bye`` or EOF.

    A reader thread takes requests as they come, so ``cancel`` reaches a running
    search: its clock then reads +infinity and the search stops at once.  The
    searches' clock is the thinking thread's CPU time: a worker waiting for the CPU
    (the frame loop, a loaded machine) neither reaches a safety cap sooner nor plays
    another move.  A heartbeat thread reports that CPU time every ``heartbeat_s``
    seconds while a request is worked on (``progress``), so the client can tell a slow
    worker from a stuck one.
    """
    lines: Iterable[str] = sys.stdin if stdin is None else stdin
    out: TextOut = sys.stdout if stdout is None else stdout
    lock = threading.Lock()
    todo: list[Message] = []
    cancelled: set[object] = set()
    wake = threading.Condition()
    current: list[object] = [None]
    done = [False]
    cpu = _cpu_clock_of_this_thread()
    working: list[tuple[object, float] | None] = [None]     # (request id, CPU seconds when it began)
    stop = threading.Event()

    def heartbeat() -> None:
        while not stop.wait(heartbeat_s):
            w = working[0]
            if w is not None:
                _send(out, lock, {"type": "progress", "id": w[0], "cpu_s": round(cpu() - w[1], 3)})

    def reader() -> None:
        for line in lines:
            try:
                msg = json.loads(line)
                if not isinstance(msg, dict):
                    raise ValueError("not an object")
            except ValueError as exc:
                _send(out, lock, {"type": "error", "id": None, "error": f"not a JSON object: {exc}"})
                continue
            if msg.get("v") != PROTOCOL_VERSION:
                _send(out, lock, {"type": "error", "id": msg.get("id"),
                                     "error": f"protocol version {msg.get('v')!r} is not spoken here "
                                              f"(this worker speaks {PROTOCOL_VERSION})"})
                continue
            kind = msg.get("type")
            with wake:
                if kind == "think":
                    todo.append(msg)
                elif kind == "cancel":
                    cancelled.add(msg.get("id"))
                elif kind == "bye":
                    done[0] = True
                else:
                    _send(out, lock, {"type": "error", "id": msg.get("id"),
                                         "error": f"unknown message type {kind!r}"})
                wake.notify()
        with wake:
            done[0] = True
            wake.notify()

    _send(out, lock, {"type": "ready", "pid": os.getpid()})
    threading.Thread(target=reader, name="thinker-reader", daemon=True).start()
    threading.Thread(target=heartbeat, name="thinker-heartbeat", daemon=True).start()
    try:
        return _serve(out, lock, todo, cancelled, wake, current, done, working)
    finally:
        stop.set()


def _serve(stdout: TextOut, lock: threading.Lock, todo: list[Message], cancelled: set[object],
           wake: threading.Condition, current: list[object], done: list[bool],
           working: "list[tuple[object, float] | None]") -> int:
    """:func:`worker_main`'s loop: serve the requests in order until ``bye`` or EOF."""
    while True:
        with wake:
            while not todo and not done[0]:
                wake.wait()
            if not todo:
                return 0
            req = todo.pop(0)
        working[0] = (req.get("id"), time.thread_time())     # reported from here on (a session's catch-up too)
        try:
            _serve_one(stdout, lock, req, cancelled, current)
        finally:
            working[0] = None


def _serve_one(stdout: TextOut, lock: threading.Lock, req: Message, cancelled: set[object],
               current: list[object]) -> None:
    """One request of :func:`_serve`: its answer (a move, ``cancelled`` or ``error``) is sent."""
    rid = req.get("id")
    if req.get("kind") == GAME_KIND:
        try:                         # a session follows every request, even a cancelled one
            _sync_session(req)
        except Exception as exc:
            _send(stdout, lock, {"type": "error", "id": rid, "error": f"{type(exc).__name__}: {exc}"})
            return
    if rid in cancelled:
        _send(stdout, lock, {"type": "cancelled", "id": rid})
        return
    current[0] = rid

    def clock(rid: object = rid) -> float:
        return float("inf") if rid in cancelled else time.thread_time()

    t0 = time.monotonic()
    c0 = time.thread_time()
    try:
        think = KINDS.get(str(req.get("kind")))
        move, nodes = think(req, clock) if think is not None else _think_position(req, clock)
    except Exception as exc:  # any failure of a request is reported, the worker goes on
        _send(stdout, lock, {"type": "error", "id": rid, "error": f"{type(exc).__name__}: {exc}"})
        return
    if rid in cancelled:
        _send(stdout, lock, {"type": "cancelled", "id": rid})
    else:
        _send(stdout, lock, {"type": "move", "id": rid, "move": move, "nodes": nodes,
                             "ms": round(1000 * (time.monotonic() - t0), 1),
                             "cpu_ms": round(1000 * (time.thread_time() - c0), 1)})


# -- the client ----------------------------------------------------------------------------

@dataclass
class Answer:
    """The move for a request: ``move`` (the decision function's data), where it came from
    (``"worker"`` or ``"fallback"``), and why a fallback was used (``note``)."""

    ticket: int
    move: object
    source: str
    nodes: int = 0
    ms: float = 0.0
    note: str = ""
    cpu_ms: float = 0.0                # the worker's CPU time on it (``ms``: wall time)


@dataclass
class _Pending:
    ticket: int
    msg: Message
    fallback: Callable[[], object]
    future: "Future[Answer]"
    cpu_s: float                       # CPU seconds the worker may spend on it before it counts as stuck
    heard: float | None = None         # last sign of progress (client clock); set when its turn comes
    used: float = 0.0                  # CPU seconds the worker reported on it so far
    sent_to: int = -1                  # worker generation it was sent to
    session: "GameSession | None" = None
    upto: int = 0                      # the session's actions this request is for


class GameSession:
    """One game followed by the worker (a ``"game"`` request's session): the record
    entries of its actions, appended as the game goes on (only the new ones are encoded:
    :meth:`sync`), and how many of them the worker has.

    Args:
        state: the game's live state.
        entry: the registry name of the game played (``arcade.registry``: the screen's
            ``spec.name``), which the request carries: the thinking process rebuilds the game
            from it (:meth:`arcade.registry.GameSpec.start_from`).
    """

    _count = 0

    def __init__(self, state: State, entry: str) -> None:
        GameSession._count += 1
        self.sid = f"{os.getpid()}-{GameSession._count}"
        self.entry = entry
        self.seats = int(state.game.seats)
        self.settings = dict(state.game.settings)
        self.actions: list[Message] = []
        self.state = state
        self.worker_gen = -1               # the worker generation that has actions[:worker_count]
        self.worker_count = 0

    def sync(self, state: State) -> int:
        """Encode the actions ``state`` took since the last call; their number.

        Raises:
            ThinkerError: ``state`` is another game's (or went back): start another session.
        """
        history = state.history
        if state is not self.state or len(history) < len(self.actions):
            raise ThinkerError("the game's state was replaced")
        for p, a in history[len(self.actions):]:
            self.actions.append({"player": int(p), "action": a.to_json()})
        return len(self.actions)

    def state_at(self, upto: int) -> State:
        """The game after its first ``upto`` actions, rebuilt (the fallback's position)."""
        return registry.get(self.entry).start_from(self.actions[:upto], self.seats, self.settings)

    def message(self, generation: int, upto: int) -> Message:
        """The session fields of a request for ``upto`` actions sent to worker ``generation``
        (everything when that worker does not have the game yet)."""
        base = self.worker_count if self.worker_gen == generation and self.worker_count <= upto else 0
        msg: Message = {"session": self.sid, "base": base, "actions": self.actions[base:upto]}
        if base == 0:
            msg["game"] = {"entry": self.entry, "seats": self.seats, "settings": self.settings}
        self.worker_gen, self.worker_count = generation, upto
        return msg


def _settle(future: "Future[Answer]", outcome: "Answer | BaseException") -> None:
    """Complete ``future`` with ``outcome`` (an answer, or the exception its fallback raised),
    unless another thread completed it first (a close while an answer arrives)."""
    try:
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)
    except InvalidStateError:
        pass


class Thinker:
    """Client of one thinking worker process.

    :meth:`ask` returns at once with a :class:`concurrent.futures.Future` of an
    :class:`Answer`; the render loop checks ``future.done()`` each frame and never
    waits.  A pump thread of this process owns the pipes: it starts the worker,
    writes requests, reads answers (blocked in ``select``, holding no lock the
    render loop needs), restarts a dead or stuck worker and then completes the
    request with its fallback.

    Args:
        command: the worker's command line (default ``python -m kiosk.players.thinker``).
        clock: seconds, for the stuck rules (default ``time.monotonic``).
        stuck_margin_s: CPU seconds beyond a request's safety cap before the worker counts as stuck.
        silent_s: seconds without a sign of progress before the worker counts as stuck.
    """

    def __init__(self, command: Sequence[str] | None = None, clock: Callable[[], float] = time.monotonic,
                 stuck_margin_s: float = STUCK_MARGIN_S, silent_s: float = SILENT_S) -> None:
        self.command = list(command) if command else [sys.executable, "-m", "kiosk.players.thinker"]
        self.clock = clock
        self.stuck_margin_s = stuck_margin_s
        self.silent_s = silent_s
        self.restarts = 0
        self.answers = 0                  # moves the worker answered
        self.error: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._generation = 0
        self._in = b""
        self._lock = threading.Lock()
        self._pending: dict[int, _Pending] = {}
        self._outbox: list[bytes] = []
        self._ticket = 0
        self._version_error: ThinkerVersionError | None = None
        self._raised = False
        self._closed = False
        self._wake_r, self._wake_w = os.pipe()
        self._pump: threading.Thread | None = None
        self._next_start = 0.0
        self._reported: tuple[object, float] | None = None     # the worker's last progress report

    # -- process ------------------------------------------------------------------------
    def start(self) -> None:
        """Start the pump thread and the worker (returns at once; the worker says ``ready`` later)."""
        with self._lock:
            if self._pump is None and not self._closed:
                self._pump = threading.Thread(target=self._run, name="thinker-pump", daemon=True)
                self._pump.start()
        self._wake()

    def _spawn(self) -> None:
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self._proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, env=env, close_fds=True)
        self._generation += 1
        self._in = b""
        self._reported = None

    @property
    def pid(self) -> int | None:
        """The worker's process id (None when none runs)."""
        p = self._proc
        return None if p is None or p.poll() is not None else p.pid

    def _kill(self) -> None:
        p, self._proc = self._proc, None
        if p is None:
            return
        try:
            p.kill()
        except OSError:
            pass
        try:
            p.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            pass
        for f in (p.stdin, p.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass

    def close(self) -> None:
        """Stop the worker and the pump (a pending request is completed by its fallback)."""
        with self._lock:
            self._closed = True
        self._wake()
        if self._pump is not None and self._pump is not threading.current_thread():
            self._pump.join(timeout=5.0)
        if self._pump is None:
            self._shutdown()

    def _shutdown(self) -> None:
        p = self._proc
        if p is not None and p.poll() is None and p.stdin is not None:
            try:
                p.stdin.write(self._line({"type": "bye"}))
                p.stdin.flush()
                p.wait(timeout=1.0)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self._kill()
        self._fall_back("the thinker was closed")
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    # -- requests -----------------------------------------------------------------------
    @staticmethod
    def _line(msg: Mapping[str, object]) -> bytes:
        return (json.dumps({"v": PROTOCOL_VERSION, **msg}) + "\n").encode()

    def ask(self, kind: str, state: Mapping[str, object], level: str, seed: int, fallback: Callable[[], object],
            nodes: int | None = None, cap_s: float | None = None) -> "Future[Answer]":
        """Queue a request (cancelling a pending one); returns the future of its :class:`Answer`.

        ``state`` is protocol data (:func:`encode` of ``kind``); ``fallback()`` makes the move
        in this process if the worker cannot (it must be quick; it runs on the pump thread).
        ``nodes``: the search's node budget (None: the level's); ``cap_s``: its safety cap
        (None: sized from that budget by the ``kind``'s search, ``cap_s``).  The worker
        counts as stuck on it after that cap plus ``stuck_margin_s`` of its own CPU time.
        """
        cap = _search(kind).cap_s(level, nodes) if cap_s is None else cap_s
        fut: Future[Answer] = Future()
        with self._lock:
            for t in list(self._pending):
                self._cancel_locked(t)
            self._ticket += 1
            msg: Message = {"type": "think", "id": self._ticket, "kind": kind, "state": state, "level": level,
                   "seed": seed, "nodes": nodes, "cap_s": cap_s}
            self._pending[self._ticket] = _Pending(self._ticket, msg, fallback, fut, cap + self.stuck_margin_s)
        self.start()
        return fut

    def ask_game(self, session: GameSession, upto: int, player: Mapping[str, object], seed: int,
                 fallback: Callable[[], object], cpu_s: float = GAME_CPU_S) -> "Future[Answer]":
        """Queue a ``"game"`` request: ``player`` (``{"name", "seat", "level"}``, a ``THINKING_PLAYERS`` name)
        chooses in ``session``'s game after its first ``upto`` actions (:meth:`GameSession.sync`);
        returns the future of its :class:`Answer` (the move as action JSON).  Other waiting
        requests stay (they are answered in order).  Cheap for the caller: the message is
        written by the pump thread; ``fallback()`` runs there too if the worker cannot answer.
        The worker counts as stuck on it after ``cpu_s`` of its own CPU time.
        """
        fut: Future[Answer] = Future()
        with self._lock:
            self._ticket += 1
            msg: Message = {"type": "think", "id": self._ticket, "kind": "game", "player": dict(player),
                            "seed": seed}
            self._pending[self._ticket] = _Pending(self._ticket, msg, fallback, fut, cpu_s,
                                                   session=session, upto=upto)
        self.start()
        return fut

    def _cancel_locked(self, ticket: int) -> None:
        p = self._pending.pop(ticket, None)
        if p is not None:
            if p.sent_to == self._generation:
                self._outbox.append(self._line({"type": "cancel", "id": p.ticket}))
            p.future.cancel()

    def cancel(self, future: "Future[Answer] | None" = None) -> None:
        """Drop the waiting requests (their answers, if they still come, are ignored); with
        ``future``, only the request of that future (if it still waits; the others stay)."""
        with self._lock:
            for t, p in list(self._pending.items()):
                if future is None or p.future is future:
                    self._cancel_locked(t)
        self._wake()

    @property
    def busy(self) -> bool:
        """True while a request waits for its answer."""
        return bool(self._pending)

    def wait_idle(self, timeout_s: float = 60.0) -> bool:
        """Wait (sleeping) until no request waits for its answer; False if ``timeout_s`` ran out.
        Every request's future is done by then (an answer is set before its request is dropped).
        For virtual-time loops (tests, benches) whose clock must not outrun the worker;
        the render loop never calls it."""
        end = time.monotonic() + timeout_s
        while self._pending:
            if time.monotonic() > end:
                return False
            time.sleep(0.001)
        return True

    def poll(self) -> None:
        """For the render loop: raises :class:`ThinkerVersionError` once if the worker speaks
        another protocol version (then every request is answered by its fallback)."""
        if self._version_error is not None and not self._raised:
            self._raised = True
            raise self._version_error

    # -- the pump thread -----------------------------------------------------------------
    def _fall_back(self, why: str, ticket: int | None = None) -> None:
        """The fallback makes the move of every waiting request (or of ``ticket``'s)."""
        with self._lock:
            if ticket is None:
                todo = list(self._pending.values())
            else:
                one = self._pending.get(ticket)
                todo = [] if one is None else [one]
        for p in todo:
            if not p.future.done():
                try:
                    move = p.fallback()
                except Exception as exc:     # the fallback itself failed: report it on the future
                    _settle(p.future, exc)
                else:
                    _settle(p.future, Answer(p.ticket, move, "fallback", note=why))
            with self._lock:                 # answered first, then no longer waiting (wait_idle)
                self._pending.pop(p.ticket, None)

    def _restart(self, why: str) -> None:
        self._kill()
        self.restarts += 1
        self.error = why
        self._fall_back(why)
        self._next_start = self.clock() + min(5.0, 0.2 * self.restarts)

    def _run(self) -> None:
        import select

        try:
            while True:
                with self._lock:
                    closed = self._closed
                    waiting = bool(self._pending)
                if closed:
                    break
                if self._version_error is not None:
                    if waiting:
                        self._fall_back("the worker speaks another protocol version")
                elif self._proc is None and self.clock() >= self._next_start:
                    try:
                        self._spawn()
                    except OSError as exc:
                        self._restart(f"the thinking process could not start: {exc}")
                proc = self._proc
                if proc is not None:
                    with self._lock:
                        for p in self._pending.values():
                            if p.sent_to != self._generation:
                                p.sent_to = self._generation
                                msg = p.msg
                                if p.session is not None:
                                    msg = {**msg, **p.session.message(self._generation, p.upto)}
                                self._outbox.append(self._line(msg))
                        out, self._outbox = self._outbox, []
                    try:
                        for b in out:
                            assert proc.stdin is not None
                            proc.stdin.write(b)
                        proc.stdin.flush()  # type: ignore[union-attr]
                    except (OSError, ValueError):
                        pass                # noticed below as a dead worker
                fds = [self._wake_r] + ([proc.stdout.fileno()] if proc is not None and proc.stdout else [])
                try:
                    ready, _, _ = select.select(fds, [], [], 0.1)
                except (OSError, ValueError):
                    ready = []
                if self._wake_r in ready:
                    os.read(self._wake_r, 4096)
                if proc is not None and proc.stdout is not None and proc.stdout.fileno() in ready:
                    try:
                        chunk = os.read(proc.stdout.fileno(), 65536)
                    except OSError:
                        chunk = b""
                    if not chunk:
                        proc.wait(timeout=2.0)
                        self._restart(f"the thinking process stopped (exit {proc.poll()}); restarted")
                        continue
                    self._in += chunk
                    while b"\n" in self._in and self._proc is proc:
                        line, self._in = self._in.split(b"\n", 1)
                        self._handle(line)
                if self._proc is not None and self._proc.poll() is not None:
                    self._restart(f"the thinking process stopped (exit {self._proc.poll()}); restarted")
                    continue
                why = self._stuck()
                if why:
                    self._restart(why)
        finally:
            self._shutdown()

    def _stuck(self) -> str:
        """Why the worker counts as stuck on the request it works on ("" when it does not):
        no sign of progress for ``silent_s`` seconds, or more of its own CPU time than the
        request may take.  A worker that waits for the CPU is not stuck: its reports show
        the CPU time it actually had."""
        with self._lock:
            head = next(iter(self._pending.values()), None)
            if head is None or self._proc is None:
                return ""
            now = self.clock()
            if head.heard is None:
                head.heard = now            # its turn starts now (the ones before it are answered)
            if head.used > head.cpu_s:
                return (f"the thinking process used {head.used:.1f} CPU-s on one move, more than its "
                        f"{head.cpu_s:.1f}; restarted")
            if now - head.heard > self.silent_s:
                return f"the thinking process showed no progress for {self.silent_s:.0f} s; restarted"
        return ""

    def _progress(self, rid: object, cpu_s: float | None) -> None:
        """A ``progress`` report (the worker had ``cpu_s`` CPU seconds on request ``rid`` so far)
        or, with ``cpu_s`` None, ``ready``: a sign of progress when it shows more CPU time than
        the last report (of any request: one before the head that it still finishes counts too)."""
        with self._lock:
            last, self._reported = self._reported, (None if cpu_s is None else (rid, cpu_s))
            grew = cpu_s is None or last is None or last[0] != rid or cpu_s > last[1]
            head = next(iter(self._pending.values()), None)
            if head is None:
                return
            if cpu_s is not None and rid == head.ticket:
                head.used = max(head.used, cpu_s)
            if grew and head.heard is not None:
                head.heard = self.clock()

    def _handle(self, line: bytes) -> None:
        try:
            msg = json.loads(line)
            if not isinstance(msg, dict):
                raise ValueError("not an object")
        except ValueError:
            self._restart(f"the thinking process wrote garbage ({line[:60]!r}); restarted")
            return
        if msg.get("v") != PROTOCOL_VERSION:
            self._version_error = ThinkerVersionError(
                f"the thinking process speaks protocol version {msg.get('v')!r}, this kiosk speaks "
                f"{PROTOCOL_VERSION}: install matching versions (computer moves are made by the fallback player)")
            self.error = str(self._version_error)
            self._kill()
            self._fall_back("protocol version mismatch")
            return
        kind = msg.get("type")
        if kind == "ready":
            self._progress(None, None)
            return
        if kind == "progress":
            try:
                self._progress(msg.get("id"), float(msg.get("cpu_s") or 0.0))
            except (TypeError, ValueError):
                pass
            return
        with self._lock:
            rid = msg.get("id")
            p = self._pending.get(rid) if isinstance(rid, int) else None
            if p is None:
                return                      # an answer to a cancelled request
            if kind == "error" and p.session is not None:
                p.session.worker_gen = -1   # the worker's copy may be out of step: start it again
        if kind == "move":
            if not p.future.done():
                _settle(p.future, Answer(p.ticket, msg.get("move"), "worker", int(msg.get("nodes") or 0),
                                         float(msg.get("ms") or 0.0), cpu_ms=float(msg.get("cpu_ms") or 0.0)))
            with self._lock:                # answered first, then no longer waiting (wait_idle)
                if self._pending.pop(p.ticket, None) is not None:
                    self.answers += 1
        elif kind == "error":
            self.error = str(msg.get("error"))
            self._fall_back(f"the thinking process could not choose: {msg.get('error')}", p.ticket)
        elif kind == "cancelled":
            self._fall_back("the request was cancelled by the worker", p.ticket)


# -- computer players for the match driver --------------------------------------------------

class Awaited(Protocol):
    """What a :class:`Pondering` waits on: a :class:`concurrent.futures.Future`'s view
    (of an :class:`Answer`, or of an action worked out in a thread of this process)."""

    def done(self) -> bool: ...

    def result(self, timeout: float | None = None) -> object: ...


def _as_action(_state: State, result: object) -> Action:
    """The default decode of a :class:`ThinkingPlayer`: the result is the action.

    Raises:
        ThinkerError: the result is no action.
    """
    if not isinstance(result, Action):
        raise ThinkerError(f"the thought gave {type(result).__name__}, not an action")
    return result


def _answer(result: object) -> Answer:
    """A thinker's future's result as an :class:`Answer`.

    Raises:
        ThinkerError: it is none.
    """
    if not isinstance(result, Answer):
        raise ThinkerError(f"the thought gave {type(result).__name__}, not an answer")
    return result


@dataclass
class Pondering:
    """A :class:`arcade.core.driver.Thought` over a future: the match driver polls
    :meth:`result` each frame; the move is decoded on the frame loop's thread.

    A result that cannot be used (the search failed, an illegal move) is said once
    through ``note`` and replaced by a random legal move from ``rng``, so the game
    goes on.

    Attributes:
        future: the answer being worked out; stop: cancels its request.
        state: the copy of the position it was asked for.
        decode: ``(state, answer) -> action``; poll: called with every poll (version checks).
        action: the move, once decoded.
    """

    future: Awaited
    stop: Callable[[], object]
    state: State
    decode: Callable[[State, object], Action]
    note: Callable[[str], None]
    rng: random.Random
    poll: Callable[[], None] | None = None
    action: Action | None = None
    #: the move made here when the answer cannot be used (None: a random legal move from ``rng``)
    fallback: Callable[[], Action] | None = None

    def result(self) -> Action | None:
        if self.poll is not None:
            try:
                self.poll()
            except Exception as exc:          # a protocol version mismatch: said once, the game goes on
                self.note(str(exc))
        if self.action is not None:
            return self.action
        if not self.future.done():
            return None
        try:
            self.action = self.decode(self.state, self.future.result())
        except Exception as exc:              # a bot bug or a garbled answer must not stop the game
            if self.fallback is not None:
                self.note(f"Computer player: the thinking process's move could not be used "
                          f"({type(exc).__name__}: {exc}); it was chosen here.")
                self.action = self.fallback()
            else:
                self.note(f"The computer's search failed ({type(exc).__name__}: {exc}); it plays at random.")
                self.action = self.rng.choice(self.state.legal_actions())
        return self.action

    def cancel(self) -> None:
        if not self.future.done():
            self.stop()


class ThinkingPlayer(ComputerPlayer):
    """A computer player (:class:`arcade.core.driver.ComputerPlayer`) whose move is worked
    out off the frame loop: the driver calls :meth:`begin` when its turn starts and polls
    the :class:`Pondering` it returns; the move shows no sooner than ``pause_ns`` after
    the turn began (the seat's "thinking..." pause).

    Args:
        start: ``(state copy, seat, rng) -> (future, cancel)`` starts the thinking.
        decode: ``(state copy, future's result) -> action`` (default: the result is the action).
        pause_ns: the least time (ns) between the turn's start and the move.
        note: says something on screen (a fallback move, a failed search).
    """

    think_ns = 0

    def __init__(self, start: Callable[[State, int, random.Random], tuple[Awaited, Callable[[], object]]],
                 decode: Callable[[State, object], Action] | None = None, pause_ns: int = 0,
                 note: Callable[[str], None] | None = None) -> None:
        self.start = start
        self.decode = decode or _as_action
        self.pause_ns = pause_ns
        self.note = note or (lambda _text: None)
        self.thought: Pondering | None = None

    def think_time(self, state: State, seat: int) -> int:
        return self.pause_ns

    def poll(self) -> None:
        """Called with every poll of a thought (default: nothing)."""

    def begin(self, state: State, seat: int, rng: random.Random) -> Pondering:
        snapshot = state.copy() if hasattr(state, "copy") else state.clone()
        future, cancel = self.start(snapshot, seat, rng)
        self.thought = Pondering(future, cancel, snapshot, self.decode, self.note, rng, self.poll)
        return self.thought

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        """The move, waited for (virtual time, :meth:`Driver.run_to_end`).

        Raises:
            ThinkerError: the thought gave no move (it always does once its future is done).
        """
        thought = self.begin(state, seat, rng)
        thought.future.result()
        action = thought.result()
        if action is None:
            raise ThinkerError("the thought gave no move")
        return action

    def close(self) -> None:
        """Stop what it thinks with (default: nothing; the shared thinker stays)."""


def thread_player(choose: Callable[[State, random.Random], Action], pause_ns: int = 0,
                  note: Callable[[str], None] | None = None) -> ThinkingPlayer:
    """A :class:`ThinkingPlayer` whose ``choose(state copy, rng) -> action`` runs in a
    worker thread of this process (a decision function that cannot be sent to the
    thinking process, e.g. one a test substituted); :meth:`ThinkingPlayer.close` stops it."""
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="focus-bot")

    def start(state: State, seat: int, rng: random.Random) -> tuple[Awaited, Callable[[], object]]:
        fut = pool.submit(choose, state, rng)
        return fut, fut.cancel

    player = ThinkingPlayer(start, None, pause_ns, note)
    player.close = lambda: pool.shutdown(wait=False, cancel_futures=True)  # type: ignore[method-assign]
    return player


class SearchThinker(ThinkingPlayer):
    """A computer player that searches in the thinking process: its game's house's
    position search (:func:`arcade.registry.position_search` of ``kind``; FOCUS and
    Crossfire: ``"focus"``, ``arcade.bots.sackson.decide``) at ``level``, by ``nodes`` so it
    plays the same on any machine.  A dead or stuck worker is restarted and that move is
    made by the house's quick player in this process; the screen is told (``note``).

    Args:
        kind: the family whose house searches (the request's ``kind``).
        level: the search level (FOCUS: easy, medium, hard, expert).
        pause_ns: the least "thinking" time (ns) before its move shows.
        nodes: node limit per move (None: the level's own).
        note: says something on screen.
        thinker: the worker's client (default :func:`shared`).
    """

    def __init__(self, kind: str, level: str, pause_ns: int, nodes: int | None = None,
                 note: Callable[[str], None] | None = None, thinker: "Thinker | None" = None) -> None:
        super().__init__(self._ask, self._note_answer, pause_ns, note)
        self.kind = kind
        self.search = _search(kind)
        self.level = level
        self.nodes = nodes
        self.thinker = thinker or shared()

    def _ask(self, state: State, seat: int, rng: random.Random) -> tuple[Awaited, Callable[[], object]]:
        seed = rng.getrandbits(62)
        search = self.search

        def fallback() -> list[int]:
            return search.quick(state, random.Random(seed))

        fut = self.thinker.ask(self.kind, search.encode(state), self.level, seed, fallback, nodes=self.nodes)
        return fut, lambda: self.thinker.cancel(fut)

    def poll(self) -> None:
        self.thinker.poll()

    def _note_answer(self, state: State, result: object) -> Action:
        answer = _answer(result)
        if answer.source != "worker" and answer.note:
            self.note(f"Computer player: {answer.note}")
        move = answer.move
        if not isinstance(move, list) or not all(isinstance(x, int) for x in move):
            raise ThinkerError(f"the move {str(move)[:60]} is not a list of numbers")
        return self.search.action(state, move)


class WorkerThought(Pondering):
    """The :class:`Pondering` of a ``"game"`` request's answer: once answered, the move is one
    ``action_from_json``; :meth:`cancel` drops the request; an answer that cannot be read (it
    should not happen: the worker runs the same function) is said once and the move is made
    here by ``here()``."""

    def __init__(self, future: "Future[Answer]", thinker: Thinker, state: State, here: Callable[[], Action],
                 note: Callable[[str], None]) -> None:
        super().__init__(future, lambda: thinker.cancel(future), state, self._decode, note,
                         random.Random(0), thinker.poll, fallback=here)
        self.here = here                       # the same player's move made in this process
        self.answer: Answer | None = None

    def _decode(self, state: State, result: object) -> Action:
        answer = self.answer = _answer(result)
        if not isinstance(answer.move, dict):
            raise ThinkerError(f"the move {str(answer.move)[:60]} is not an action's JSON object")
        action = state.game.action_from_json(answer.move)
        if answer.source != "worker" and answer.note:
            self.note(f"Computer player: {answer.note}")
        return action


class WorkerChoice:
    """The moves of the computer player ``name`` (:func:`arcade.registry.thinking_player`) for one game's seats, worked out in the
    thinking process (:meth:`begin`) or here (:meth:`here`): the same function, level and
    seed give the same move in both places.

    The game is followed by one :class:`GameSession`: each :meth:`begin` encodes only the
    actions since the last one (the render thread's cost stays small late in a long game;
    ``bench/bench_bot_decisions.py --worker`` prints it).  If the worker dies, hangs or
    garbles, the move is made by the same player on the pump thread, from the game rebuilt
    from its actions (nothing is lost; the screen is told through ``note``).

    Args:
        name: the player (a house's ``THINKING_PLAYERS`` name).
        thinker: the worker's client (None: every move is made here).
        note: says something on screen.
        entry: the registry name of the game played (the screen's ``spec.name``): the
            game the requests name (:class:`GameSession`).
    """

    def __init__(self, name: str, thinker: Thinker | None, note: Callable[[str], None] | None = None, *,
                 entry: str) -> None:
        _player(name)                    # ThinkerError now for an unknown name
        self.name = name
        self.entry = entry
        self.thinker = thinker
        self.note = note or (lambda _text: None)
        self.session: GameSession | None = None

    def here(self, state: State, seat: int, level: str, seed: int) -> Action:
        """The move, decided in this process (blocking)."""
        return decide_here(self.name, state, seat, level, seed)

    def begin(self, state: State, seat: int, level: str, seed: int) -> WorkerThought | None:
        """Ask the worker for ``seat``'s move in ``state`` (the live state: nothing is copied);
        None when there is no worker (then decide with :meth:`here` when the move is due)."""
        thinker = self.thinker
        if thinker is None:
            return None
        session = self.session
        try:
            if session is None:
                raise ThinkerError("no session yet")
            upto = session.sync(state)
        except ThinkerError:
            session = self.session = GameSession(state, self.entry)
            upto = session.sync(state)
        name = self.name

        def fallback() -> Message:
            return decide_here(name, session.state_at(upto), seat, level, seed).to_json()

        fut = thinker.ask_game(session, upto, {"name": name, "seat": seat, "level": level}, seed, fallback)
        return WorkerThought(fut, thinker, state, lambda: self.here(state, seat, level, seed), self.note)


_SHARED: Thinker | None = None


def shared() -> Thinker:
    """The kiosk's one thinker (started on first use, reused by every scene, closed at exit)."""
    global _SHARED
    if _SHARED is None:
        import atexit

        _SHARED = Thinker()
        atexit.register(_SHARED.close)
    return _SHARED


def wait_shared_idle(timeout_s: float = 60.0) -> bool:
    """For virtual-time loops (tests, benches) whose clock must not outrun the worker: wait
    until the kiosk's one thinker has no request waiting (:meth:`Thinker.wait_idle`).  True at
    once when no scene has started it; False if ``timeout_s`` (s) ran out.  The render loop
    never calls it."""
    return True if _SHARED is None else _SHARED.wait_idle(timeout_s)


def shared_choice(name: str, note: Callable[[str], None] | None, use: bool = True, *,
                  entry: str) -> WorkerChoice | None:
    """A :class:`WorkerChoice` of ``name`` for a game of the registry entry ``entry`` on the
    kiosk's one thinker, started now (None when ``use`` is false: every move of that player is
    then made in the kiosk's process)."""
    if not use:
        return None
    th = shared()
    th.start()
    return WorkerChoice(name, th, note, entry=entry)


#: How much the worker process steps back for the screen (``nice`` increment): when every
#: CPU is busy, the render loop gets the CPU first and a search waits a moment.  The levels
#: count positions, not seconds, so a search that waits plays the same move.
WORKER_NICE = 10


def lower_priority(increment: int = WORKER_NICE) -> None:
    """Lower this process's CPU priority by ``increment`` (where the OS has ``nice``; never fails)."""
    try:
        os.nice(increment)
    except (AttributeError, OSError):
        pass


if __name__ == "__main__":
    lower_priority()
    raise SystemExit(worker_main())
