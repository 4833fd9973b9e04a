"""Resume: a game survives a power cut, a kill -9, a crash or a scene's exception.

After every completed step of a game (a turn, a race's verdict, a round, a
deal: every action appended to the state's history) the game in progress is
saved in the results store's ``resume`` slot in one transaction: the lobby game
(its registry name, family and mode), the seats and their stations, the seed, and the record
(:mod:`arcade.core.record`: every action in order).  When the game ends, its
result is saved with the game's key and the slot is cleared in the same
transaction, so a result is stored once, never twice.

At start the arcade offers the interrupted game (:class:`ResumeScene`): OK
resumes, Back drops it; unattended it resumes by itself after
:data:`AUTO_RESUME_NS`.  The game is rebuilt from its lobby game and seed and
the recorded actions are replayed through the registry's hook
(:meth:`arcade.registry.GameSpec.start_from`), so it continues at the last
completed step with the same seats, and ends like any other game: the results
screen with the high-score initials entry.  Leaving a game on purpose (the leave dialog) drops
its slot.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from dataclasses import asdict, dataclass
from typing import Any

from arcade.core.events import Edge
from kiosk import render
from kiosk.scene import Scene
from kiosk.scenes.seats import LobbyGame, SeatInfo

log = logging.getLogger("focus-arcade")

#: The offer resumes by itself after this long (ns) when nobody answers (kiosk, unattended).
AUTO_RESUME_NS = 6_000_000_000


def new_key() -> str:
    """A new game's key (the resume slot's and the stored result's)."""
    return uuid.uuid4().hex


def digest(state: Any) -> str:
    """A short fingerprint of a state: its history and, when it has one, its snapshot."""
    h = hashlib.sha256()
    h.update(json.dumps([[int(p), a.to_json()] for p, a in state.history], sort_keys=True, default=str).encode())
    snap = getattr(state, "snapshot", None)
    if callable(snap):
        try:
            h.update(json.dumps(snap(), sort_keys=True, default=str).encode())
        except Exception:
            pass
    return h.hexdigest()[:16]


def tag(scene: Any, game: LobbyGame | tuple[str, str]) -> Any:
    """Mark a game scene with the lobby game it plays (what a resume rebuilds): ``lobby_game``
    (family, mode) and ``entry``, its registry name (high scores, the results screen)."""
    if isinstance(game, LobbyGame):
        scene.entry = game.name
        game = (game.family, game.mode)
    else:
        from arcade import registry
        from arcade.core.errors import ArcadeError
        try:
            scene.entry = registry.resolve(game[0], game[1]).name
        except ArcadeError:
            scene.entry = None            # the results fall back to the lobby's choice
    scene.lobby_game = tuple(game)
    if not getattr(scene, "game_key", None):
        scene.game_key = new_key()
    return scene


def start_game(app: Any, game: LobbyGame, seats: list[SeatInfo]) -> Any:
    """``game.start(app, seats)``, marked for resuming."""
    return tag(game.start(app, seats), game)


def progress(scene: Any) -> dict[str, Any] | None:
    """The resume data of a game scene, or None when it cannot be resumed."""
    lobby = getattr(scene, "lobby_game", None)
    state = getattr(scene, "state", None)
    if lobby is None or state is None or not hasattr(state, "history"):
        return None
    return {"entry": getattr(scene, "entry", None),       # None: restore finds it by family and mode
            "family": lobby[0], "mode": lobby[1], "title": scene.title, "seed": scene.seed,
            "seats": [asdict(s) for s in scene.seats],
            "actions": [{"player": int(p), "action": a.to_json()} for p, a in state.history],
            "steps": len(state.history), "digest": digest(state),
            "settings": dict(getattr(scene, "resume_settings", dict)())}


def save_progress(app: Any, scene: Any) -> bool:
    """Save the scene's game in the resume slot (one transaction); False if it cannot be."""
    results = getattr(app, "results", None)
    data = progress(scene)
    if results is None or data is None or not hasattr(results, "save_resume"):
        return False
    if getattr(app, "demo", False):
        if getattr(app, "keep_resume_slot", False):
            return False                  # a party's interrupted game waits in the slot
        data["demo"] = True               # the next demo may resume it, a party's start never sees it as theirs
    # A seat a computer plays only while its person is away (kiosk.away) is kept as the
    # person's: after a restart their buzzer must still give them the seat back.
    watch = getattr(app, "idle", None)
    away = getattr(watch, "away", None)
    if isinstance(away, dict) and away and getattr(watch, "scene", None) is scene:
        for seat, info in away.items():
            if 0 <= seat < len(data["seats"]):
                data["seats"][seat] = asdict(info)
    try:
        results.save_resume(scene.game_key, data)
        return True
    except Exception as exc:
        if not getattr(scene, "_resume_warned", False):
            scene._resume_warned = True
            app.message(f"The game in progress cannot be kept for a restart: {exc}")
        return False


@dataclass(frozen=True)
class ResumePlan:
    """What a game scene's :meth:`~kiosk.scenes.game.GameScene.initial_state` replays when
    it is being rebuilt: the registry entry (``focusx-classic``...) and the saved actions
    (``[{"player": p, "action": {...}}, ...]``), through
    :meth:`arcade.registry.GameSpec.start_from`."""

    entry: str
    actions: list[dict[str, Any]]


def entry_of(data: dict[str, Any]) -> str:
    """The registry name of a saved game (older slots hold only the family and mode)."""
    if data.get("entry"):
        return str(data["entry"])
    from kiosk.scenes.seats import find_game
    return find_game(data["family"], data["mode"]).name


def restore(app: Any, data: dict[str, Any]) -> Any:
    """Rebuild the saved game as a scene at its last completed step (not yet pushed).

    The scene is built as the lobby builds it (same lobby game, seats and seed);
    when it makes its state (``GameScene.initial_state``) it takes the
    :class:`ResumePlan` the app holds for it and replays the saved actions with the
    registry's hook (:meth:`arcade.registry.GameSpec.start_from`), so the driver,
    the referee and the screen start from the last completed step.  A screen that
    first asks for a set-up (Focus (2023)'s case) gets the saved one
    (``begin_resumed``).

    Raises:
        Exception: the game or an action cannot be rebuilt (the caller drops the slot).
    """
    from kiosk.scenes.seats import find_game
    name = entry_of(data)
    game = find_game(name, None)
    seats = [SeatInfo(**s) for s in data["seats"]]
    app.seed_override = int(data["seed"])
    app.resume_plan = ResumePlan(name, list(data["actions"]))
    try:
        scene = game.start(app, seats)
        begin = getattr(scene, "begin_resumed", None)
        if app.resume_plan is not None and callable(begin):   # a set-up screen first: skip it
            begin(data.get("settings") or {})
        rebuilt = app.resume_plan is None
    finally:
        app.resume_plan = None
    if not rebuilt:
        raise RuntimeError("the game was not rebuilt from its actions")
    resumed: Any = scene  # a GameScene: the game's key and its digest at the saved step
    resumed.game_key = data["game_key"]
    tag(scene, game)
    resumed.resume_digest = data.get("digest")
    app.current_game = game                  # as the lobby sets it (the attract loop's tables)
    return scene


def replay_into(scene: Any) -> None:
    """Check and log the rebuilt game (its state already holds the saved actions); a scene
    with an ``after_resume()`` method sets its own screen phase there."""
    state = scene.state
    after = getattr(scene, "after_resume", None)
    if callable(after):
        after()
    got = digest(state)
    log.info("resumed game %s at step %d (digest %s)", scene.game_key, len(state.history), got)
    if scene.resume_digest and got != scene.resume_digest:
        log.warning("resumed game %s differs from the saved one (%s)", scene.game_key, scene.resume_digest)


def resume_now(app: Any, data: dict[str, Any]) -> bool:
    """Replace every scene by the saved game at its last step; False (and a message) if it fails."""
    try:
        scene = restore(app, data)
        app.stack.clear()
        app.push(scene)
        replay_into(scene)
        scene._resume_steps = len(scene.state.history)
        app.message(f"Resumed {data.get('title', 'the game')} at step {len(scene.state.history)}.", 8)
        return True
    except Exception as exc:
        log.error("could not resume the game: %r", exc, exc_info=True)
        where = "it was put aside in the results file (table set_aside)"
        try:
            app.results.put_resume_aside(data.get("game_key"), f"could not be resumed: {type(exc).__name__}: {exc}")
        except Exception as exc2:
            log.error("could not put the interrupted game aside: %s", exc2)
            where = "it stays in the results file"
        app.message(f"The interrupted game could not be resumed ({type(exc).__name__}: {exc}); {where}.")
        app.home()
        return False


class ResumeScene(Scene):
    """The offer at start: "A game was interrupted ... OK or a buzzer resume, X (or Esc outside
    kiosk mode) drops it"; resumes by itself after :data:`AUTO_RESUME_NS` (a kiosk left alone)."""

    overlay = True

    def __init__(self, app: Any, data: dict[str, Any]) -> None:
        super().__init__(app)
        self.data = data
        self.since: int | None = None
        self.now = 0

    def on_command(self, command: Any) -> None:
        if command.name == "ok":
            resume_now(self.app, self.data)
        elif command.name == "back":
            self.drop()

    def on_edge(self, edge: Edge) -> None:
        if not edge.pressed or edge.source == "computer":
            return
        if edge.control in ("buzzer", "ok"):
            resume_now(self.app, self.data)
        elif edge.control == "x":              # a station's X: drop it (kiosk mode has no Esc)
            self.drop()

    def hint(self, left_s: int) -> str:
        """The offer's controls line: Esc only where the keyboard's Esc works (not in kiosk mode)."""
        drop = "X = drop it" if getattr(self.app, "kiosk_mode", False) else "X or Esc = drop it"
        return f"OK / buzzer = resume    {drop}    resumes by itself in {left_s} s"

    def drop(self) -> None:
        try:
            self.app.results.drop_resume(self.data["game_key"])
        except Exception as exc:
            self.app.message(str(exc))
        self.app.pop()

    def update(self, now_ns: int) -> None:
        self.now = now_ns
        if self.since is None:
            self.since = now_ns
        elif now_ns - self.since >= AUTO_RESUME_NS:
            resume_now(self.app, self.data)

    def draw(self, surface: Any) -> None:
        import pygame
        W, H = surface.get_size()
        box = pygame.Rect(0, 0, min(W - 40, 980), 220)
        box.center = (W // 2, H // 2)
        render.panel(surface, box, render.PANEL_LIGHT, render.GOLD, 4)
        left = 0 if self.since is None else max(0, (AUTO_RESUME_NS - (self.now - self.since)) // 1_000_000_000 + 1)
        render.text(surface, "A game was interrupted", (box.centerx, box.y + 20), 46, render.GOLD, "midtop", bold=True)
        seats = len(self.data.get("seats", []))
        render.text_fit(surface, f"{self.data.get('title', 'game')}, {seats} players, after step "
                                 f"{self.data.get('steps', 0)}", (box.centerx, box.y + 84), box.w - 40, 30, 18,
                        render.TEXT)
        render.text_fit(surface, self.hint(left),
                        (box.centerx, box.y + 140), box.w - 40, 26, 16, render.DIM)


def offer(app: Any) -> bool:
    """Push the resume offer if the store holds an interrupted game."""
    results = getattr(app, "results", None)
    if results is None or not hasattr(results, "load_resume"):
        return False
    try:
        data = results.load_resume()
    except Exception as exc:
        app.message(f"The interrupted game could not be read: {exc}")
        return False
    if data is None:
        return False
    log.info("an interrupted game is waiting: %s (%s steps)", data.get("game_key"), data.get("steps"))
    if getattr(app, "demo", False):
        if not data.get("demo"):
            # a party's game, not a demo's: the demo neither plays it nor saves over it (issue 23)
            app.keep_resume_slot = True
            app.message(f"An interrupted game ({data.get('title') or data.get('game_key')}) is kept for the next "
                        "start of the arcade; this demo does not save over it.", 10)
            return False
        asked = getattr(app, "demo_game", None)
        try:
            saved = entry_of(data)
        except KeyError:
            saved = ""
        if asked is not None and saved != asked.name:
            log.info("not resumed: the demo was asked for %s", asked.name)   # play the game asked for
            return False
        return resume_now(app, data)        # the demo plays by itself: nobody to ask
    app.push(ResumeScene(app, data))
    return True
