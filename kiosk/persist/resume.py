"""Resume: a game survives a power cut, a kill -9, a crash or a scene's exception.

After every completed step of a game (a turn, a race's verdict, a round, a
deal: every action appended to the state's history) the game in progress is
saved in the results store's ``resume`` slot in one transaction: the lobby game
(its registry name, family and mode), the seats and their stations, the seed, and the record
(:mod:`arcade.core.record`: every action in order).  When the game ends, its
result is saved with the game's key and the slot is cleared in the same
transaction, so a result is stored once, never twice.

At start the arcade offers the interrupted game (:class:`ResumeScene`): Resume or
Drop it, chosen with the menu gestures (a buzzer's long hold drops it); unattended it resumes
by itself :data:`AUTO_RESUME_NS` after the last press.  The game is rebuilt from its lobby game and seed and
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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, TypedDict, cast

from arcade.core.api import State
from arcade.core.events import Edge
from arcade.i18n import N_, _, ngettext, pgettext
from kiosk import render
from kiosk.app import said
from kiosk.controls.input import Command
from kiosk.scene import Scene
from kiosk.scenes.seats import LobbyGame, SeatInfo

if TYPE_CHECKING:
    import pygame

    from kiosk.scene import Host
    from kiosk.scenes.game import GameScene

log = logging.getLogger("focus-arcade")

#: The offer resumes by itself this long (ns) after it came or after the last press or release
#: when nobody answers (kiosk, unattended): the guests of the interrupted game are likely there;
#: a game nobody plays is put away later by the empty-room rule (kiosk/players/away.py).
AUTO_RESUME_NS = 10_000_000_000


class SeatData(TypedDict):
    """A seat in the resume slot (:class:`~kiosk.scenes.seats.SeatInfo`'s fields)."""

    station: str
    label: str
    skill: str
    can_choose: bool


class ActionData(TypedDict):
    """One recorded step: the seat (or chance, race) and the action's JSON
    (:meth:`arcade.core.api.Action.to_json`), as a record holds it."""

    player: int
    action: Mapping[str, object]


class ResumeData(TypedDict, total=False):
    """The resume slot's data (JSON in the results store, ``Results.save_resume``).

    ``entry``: the registry name (None in older slots: found by ``family`` and ``mode``);
    ``title``: the game's title on the offer; ``seed``; ``seats``; ``actions``: every step in
    order; ``steps`` and ``digest`` (:func:`digest`) at the saved step; ``settings``: what the
    screen needs besides (``GameScene.resume_settings``: Focus (2023)'s case); ``demo``: saved
    by ``focus-arcade demo`` (only a demo resumes it: a party's start never offers it, issue 23);
    ``game_key``: the key the store keeps it under."""

    entry: str | None
    family: str
    mode: str
    title: str
    seed: int
    seats: list[SeatData]
    actions: list[ActionData]
    steps: int
    digest: str
    settings: dict[str, str]
    demo: bool
    game_key: str


def seat_data(info: SeatInfo) -> SeatData:
    """``info`` as the resume slot keeps it."""
    return {"station": info.station, "label": info.label, "skill": info.skill, "can_choose": info.can_choose}


def new_key() -> str:
    """A new game's key (the resume slot's and the stored result's)."""
    return uuid.uuid4().hex


def digest(state: State) -> str:
    """A short fingerprint of a state: its history and its snapshot (when it gives one)."""
    h = hashlib.sha256()
    h.update(json.dumps([[int(p), a.to_json()] for p, a in state.history], sort_keys=True, default=str).encode())
    try:
        h.update(json.dumps(state.snapshot(), sort_keys=True, default=str).encode())
    except Exception:
        pass
    return h.hexdigest()[:16]


def tag(scene: GameScene[State], game: LobbyGame | tuple[str, str]) -> GameScene[State]:
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
    scene.lobby_game = (game[0], game[1])
    if not scene.game_key:
        scene.game_key = new_key()
    return scene


def start_game(app: Host, game: LobbyGame, seats: list[SeatInfo]) -> GameScene[State]:
    """``game.start(app, seats)``, marked for resuming."""
    return tag(game.start(app, seats), game)


def progress(scene: GameScene[State]) -> ResumeData | None:
    """The resume data of a game scene, or None when it cannot be resumed."""
    lobby = scene.lobby_game
    state = scene.game_state()
    if lobby is None or state is None or not hasattr(state, "history"):
        return None
    return {"entry": scene.entry,       # None: restore finds it by family and mode
            "family": lobby[0], "mode": lobby[1], "title": scene.title, "seed": scene.seed,
            "seats": [seat_data(s) for s in scene.seats],
            "actions": [{"player": int(p), "action": a.to_json()} for p, a in state.history],
            "steps": len(state.history), "digest": digest(state),
            "settings": dict(scene.resume_settings())}


def save_progress(app: Host, scene: GameScene[State]) -> bool:
    """Save the scene's game in the resume slot (one transaction); False if it cannot be."""
    results = app.results
    data = progress(scene)
    if results is None or data is None or scene.game_key is None:
        return False
    if app.demo:
        if app.keep_resume_slot:
            return False                  # a party's interrupted game waits in the slot
        data["demo"] = True               # the next demo may resume it, a party's start never sees it as theirs
    # A seat a computer plays only while its person is away (kiosk.players.away) is kept as the
    # person's: after a restart their buzzer must still give them the seat back.
    watch = app.idle
    if watch.away and watch.scene is scene:
        for seat, info in watch.away.items():
            if 0 <= seat < len(data["seats"]):
                data["seats"][seat] = seat_data(info)
    try:
        results.save_resume(scene.game_key, dict(data))
        return True
    except Exception as exc:
        if not scene.resume_warned:
            scene.resume_warned = True
            app.message(said._("The game in progress cannot be kept for a restart: {error}", error=exc))
        return False


@dataclass(frozen=True)
class ResumePlan:
    """What a game scene's :meth:`~kiosk.scenes.game.GameScene.initial_state` replays when
    it is being rebuilt: the registry entry (``focusx-classic``...) and the saved actions
    (``[{"player": p, "action": {...}}, ...]``), through
    :meth:`arcade.registry.GameSpec.start_from`."""

    entry: str
    actions: list[ActionData]


def entry_of(data: ResumeData) -> str:
    """The registry name of a saved game (older slots hold only the family and mode)."""
    if data.get("entry"):
        return str(data["entry"])
    from kiosk.scenes.seats import find_game
    return find_game(data["family"], data["mode"]).name


def restore(app: Host, data: ResumeData) -> GameScene[State]:
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
        if app.resume_plan is not None:      # a set-up screen first: skip it
            scene.begin_resumed(data.get("settings") or {})
        rebuilt = app.resume_plan is None
    finally:
        app.resume_plan = None
    if not rebuilt:
        raise RuntimeError("the game was not rebuilt from its actions")
    scene.game_key = data["game_key"]        # the game's key and its digest at the saved step
    tag(scene, game)
    scene.resume_digest = data.get("digest")
    app.current_game = game                  # as the lobby sets it (the attract loop's tables)
    return scene


def replay_into(scene: GameScene[State]) -> None:
    """Check and log the rebuilt game (its state already holds the saved actions); the scene
    sets its own screen phase in ``after_resume()``."""
    state = scene.state
    scene.after_resume()
    got = digest(state)
    log.info("resumed game %s at step %d (digest %s)", scene.game_key, len(state.history), got)
    if scene.resume_digest and got != scene.resume_digest:
        log.warning("resumed game %s differs from the saved one (%s)", scene.game_key, scene.resume_digest)


def resume_now(app: Host, data: ResumeData) -> bool:
    """Replace every scene by the saved game at its last step; False (and a message) if it fails."""
    try:
        scene = restore(app, data)
        app.stack.clear()
        app.push(scene)
        replay_into(scene)
        scene.resume_steps = len(scene.state.history)
        app.message(said._("Resumed {game} at step {step}.", game=game_title(data),
                           step=len(scene.state.history)), 8)
        return True
    except Exception as exc:
        log.error("could not resume the game: %r", exc, exc_info=True)
        where = said._("it was put aside in the results file (table set_aside)")
        try:
            if app.results is None:
                raise RuntimeError("no results file")
            app.results.put_resume_aside(data.get("game_key"), f"could not be resumed: {type(exc).__name__}: {exc}")
        except Exception as exc2:
            log.error("could not put the interrupted game aside: %s", exc2)
            where = said._("it stays in the results file")
        error = f"{type(exc).__name__}: {exc}"
        app.message(said._("The interrupted game could not be resumed ({error}); {where}.", error=error, where=where))
        app.home()
        return False


def game_title(data: ResumeData) -> str:
    """The saved game's title in the language spoken now, keeping its English for the journal
    (the slot keeps the screen's English title, "FocusX Classic"; a title the catalog lacks,
    as it is).

    >>> game_title({"title": "FocusX Classic"}), game_title({})
    ('FocusX Classic', 'the game')
    """
    title = str(data.get("title") or "")
    return said.Said(_(title), title) if title else said.pgettext("resume offer", "the game")


class ResumeScene(Scene):
    """The offer at start, over the title screen: "A game was interrupted", with two choices,
    Resume and Drop it, worked with the menu gestures (kiosk/controls/gestures.py), judged when the
    buzzer is let go (:class:`~kiosk.service.tools.ReleaseGestures`, as in the PIN screen: a
    long hold never does first what a hold does):

    * buzzer: tap = the other choice, hold (0.6 s) = take the highlighted one, long hold
      (2 s) = drop the game (the way back on a buzzers-only cabinet, issue 20);
    * station controls: left/right = the other choice, OK = take it, X = drop it;
    * keyboard (not in kiosk mode): arrows, Enter, Esc = drop it.

    Nobody answers: it resumes by itself :data:`AUTO_RESUME_NS` after it came or after the
    last press or release (a guest choosing is never cut short; a buzzer held down since
    does not keep it waiting).  Its hint names only the controls wired here."""

    overlay = True
    #: the two choices, in English (translated where drawn: :meth:`choice_words`)
    CHOICES = (N_("Resume"), N_("Drop it"))

    def __init__(self, app: Host, data: ResumeData) -> None:
        super().__init__(app)
        from kiosk.service.tools import ReleaseGestures
        self.data = data
        self.since: int | None = None
        self.now = 0
        self.choice = 0
        self.gestures = ReleaseGestures()
        self.last_edge: int | None = None

    def on_command(self, command: Command) -> None:
        if command.station_key:
            return                                # its station's edge does it
        if command.name == "ok":
            self.take()
        elif command.name == "back":
            self.drop()
        elif command.name in ("left", "right", "up", "down"):
            self.choice = 1 - self.choice

    def on_edge(self, edge: Edge) -> None:
        if edge.source == "computer":
            return
        self.last_edge = edge.t_ns                # someone is answering: the countdown starts again
        from kiosk.controls.gestures import BACK, NEXT, OK, PREV
        for _seat, action in self.gestures.feed(edge):
            if self.app.scenes[-1] is not self:
                return
            if action in (NEXT, PREV):
                self.choice = 1 - self.choice
                self.app.sounds.play("tick")
            elif action == OK:
                self.take()
            elif action == BACK:
                self.drop()

    def take(self) -> None:
        """The highlighted choice."""
        if self.choice == 0:
            resume_now(self.app, self.data)
        else:
            self.drop()

    def controls(self) -> bool:
        """Whether some seat has left/right/OK/X controls (else only the buzzers' gestures are named)."""
        from kiosk.controls.input import choose_controls
        return choose_controls(self.app.cfg)

    def hint(self, left_s: int) -> str:
        """The offer's controls line: only the controls wired here (the buzzers' gestures on a
        buzzers-only cabinet; Esc only where the keyboard's Esc works, outside kiosk mode);
        while a buzzer is held, what letting go does."""
        from kiosk.controls.gestures import BACK, NEXT, OK
        from kiosk.service.tools import held_line
        drop = pgettext("resume offer", "drop it")
        would = self.gestures.would(self.now)
        if would is not None and would[1] == OK and self.choice == 1:
            would = (would[0], BACK, would[2])     # letting go drops it, as a longer hold would: said once
        held = held_line(would,
                         {NEXT: _("choose {choice}").format(choice=_(self.CHOICES[1 - self.choice])),
                          OK: pgettext("resume offer", "resume") if self.choice == 0 else drop, BACK: drop})
        if held:
            return held
        if self.controls():
            parts = [_("left/right or tap = the other choice"), _("OK or hold = take it"),
                     _("X or hold 2 s = drop it")]
        else:
            parts = [_("tap = the other choice"), _("hold = take it"), _("hold 2 s = drop it")]
        if not self.app.kiosk_mode:
            parts.append(_("keyboard: Enter, Esc = drop it"))
        return ",  ".join(parts) + ".  " + _("Resumes by itself in {n} s.").format(n=left_s)

    def drop(self) -> None:
        """Drop the interrupted game for good (its resume slot in the results file) and close."""
        try:
            if self.app.results is not None:        # no results file: nothing was kept to drop
                self.app.results.drop_resume(self.data["game_key"])
        except Exception as exc:
            self.app.message(str(exc))
        self.app.pop()

    def left_ns(self) -> int:
        """How long until it resumes by itself (ns)."""
        if self.since is None:
            return AUTO_RESUME_NS
        start = max(self.since, self.last_edge or self.since)
        return max(0, AUTO_RESUME_NS - (self.now - start))

    def update(self, now_ns: int) -> None:
        self.now = now_ns
        if self.since is None:
            self.since = now_ns
        elif self.left_ns() <= 0:
            resume_now(self.app, self.data)

    def details(self) -> str:
        """The game, its players and its step in the language spoken now: "FocusX Classic,
        4 players, after step 7" (a title that already names its players, as FOCUS's do, "FOCUS -
        2 players", is not followed by the count again)."""
        import re
        title = str(self.data.get("title") or "")
        seats = len(self.data.get("seats", []))
        step = int(self.data.get("steps", 0))
        if re.search(r"\b\d+ players?\b", title):
            return _("{game}, after step {step}").format(game=game_title(self.data), step=step)
        return ngettext("{game}, {n} player, after step {step}", "{game}, {n} players, after step {step}",
                        seats).format(game=game_title(self.data), n=seats, step=step)

    def box(self, W: int, H: int) -> pygame.Rect:
        """The dialog's panel: over the title's name and its "Press your buzzer" (a press here
        answers the dialog), above the title's "Recent games" heading, which stays in sight."""
        import pygame
        top = 6 if render.small_screen(W, H) else max(6, H // 12)
        bottom = H // 2 + 90 - render.line_height(28) // 2 - 10     # above the heading (attract.py)
        box = pygame.Rect(0, top, W - 16 if render.small_screen(W, H) else W * 5 // 6, bottom - top)
        box.centerx = W // 2
        return box

    def draw(self, surface: pygame.Surface) -> None:
        import pygame
        W, H = surface.get_size()
        box = self.box(W, H)
        render.panel(surface, box, render.PANEL_LIGHT, render.GOLD, 4)
        small = render.small_screen(W, H)
        left = self.left_ns() // 1_000_000_000 + (1 if self.left_ns() % 1_000_000_000 else 0)
        inner = box.w - 24
        head = render.text_block(surface, _("A game was interrupted"), (box.centerx, box.y + 6), inner,
                                 30 if small else max(46, H // 16), 1, render.GOLD, "midtop", bold=True)
        what = render.text_block(surface, self.details(), (box.centerx, head.bottom + 2), inner,
                                 26 if small else max(30, H // 30), 2, render.TEXT, "midtop")
        hint = render.text_block(surface, self.hint(int(left)), (box.centerx, box.bottom - 8), inner,
                                 24 if small else max(26, H // 36), 3, render.DIM, "midbottom")
        # the two choices between them, the highlighted one in gold
        gap = 16
        bw = min(max(260, W // 5), (inner - gap) // 2)
        bh = max(render.line_height(24) + 8, min(max(64, H // 11), hint.top - what.bottom - 12))
        y = (what.bottom + hint.top - bh) // 2
        for i, label in enumerate(self.CHOICES):
            r = pygame.Rect(0, y, bw, bh)
            r.centerx = box.centerx + (i * 2 - 1) * (bw + gap) // 2
            sel = i == self.choice
            render.panel(surface, r, render.GOLD if sel else render.PANEL, render.TEXT if sel else render.DIM, 3)
            render.text_block(surface, _(label), r.center, r.w - 12, max(24, min(bh - 14, max(34, H // 22))), 1,
                              render.BG if sel else render.TEXT, "center", bold=True)


def offer(app: Host) -> bool:
    """Push the resume offer if the store holds an interrupted game."""
    results = app.results
    if results is None:
        return False
    try:
        raw = results.load_resume()
    except Exception as exc:
        app.message(said._("The interrupted game could not be read: {error}", error=exc))
        return False
    if raw is None:
        return False
    data = cast(ResumeData, raw)         # the JSON that save_progress stored
    log.info("an interrupted game is waiting: %s (%s steps)", data.get("game_key"), data.get("steps"))
    if app.demo:
        if not data.get("demo"):
            # a party's game, not a demo's: the demo neither plays it nor saves over it (issue 23)
            app.keep_resume_slot = True
            game = game_title(data) if data.get("title") else str(data.get("game_key"))
            app.message(said._("An interrupted game ({game}) is kept for the next start of the arcade; this demo "
                               "does not save over it.", game=game), 10)
            return False
        asked = app.demo_game
        try:
            saved = entry_of(data)
        except KeyError:
            saved = ""
        if asked is not None and saved != asked.name:
            log.info("not resumed: the demo was asked for %s", asked.name)   # play the game asked for
            return False
        seats = len(data.get("seats") or [])
        if app.demo_seats is not None and seats != app.demo_seats:
            # ``demo --players 4`` after a 2-player demo was killed plays 4 players, as asked
            log.info("not resumed: the demo was asked for %d players, the kept game has %d", app.demo_seats, seats)
            return False
        return resume_now(app, data)        # the demo plays by itself: nobody to ask
    if data.get("demo"):
        # a demo's game (simulated seats) is nobody's at the party: not offered; it stays for the
        # next demo until the party's first game saves over it (issue 23)
        log.info("not offered: the interrupted game %s was a demo's", data.get("game_key"))
        return False
    app.push(ResumeScene(app, data))
    return True
