"""The scene base and the scene stack (no pygame window, no frame loop here).

A scene is one screen of the kiosk: the title, the lobby, a game, the results.
Scenes live on a stack (:class:`SceneStack`): the top one gets the input and
the updates; scenes marked ``overlay`` are drawn over the one below.  The
frame loop that drives the stack is :mod:`kiosk.app.loop`; this module imports
nothing of it, so a scene module never imports the app (no import cycle).

What a scene gets, once per frame, in this order::

    on_command(command)   menu commands from the input layer (kiosk/controls/input.py): back, ok, up ...
    on_edge(edge)         station events: stamped edges of buzzers and controls (R-1)
    update(now_ns)        the clock, integer ns on CLOCK_MONOTONIC
    draw(surface)         never changes state
    frame_shown(t_ns)     the flip time of the frame just drawn (R-2: races open here)
    led_picture(now_ns)   the LED matrix picture, or None for the default

Scenes never read ``pygame.K_*``: keys, gamepad buttons and GPIO pins reach
them as station events and commands (:mod:`kiosk.controls.input`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from arcade.core.events import Edge

if TYPE_CHECKING:
    import argparse

    import pygame

    from arcade.core.api import State
    from hardware.gamepad import GamepadBuzzers
    from hardware.gpio import GpioBuzzers
    from hardware.keyboard import KeyboardBuzzers
    from kiosk.app.computer import ComputerPresses
    from kiosk.app.options import RunOptions
    from kiosk.config import Config
    from kiosk.controls.input import Command, StationInput
    from kiosk.event.link import EventLink
    from kiosk.output.led import LedOutput
    from kiosk.output.sound import Sounds
    from kiosk.persist.highscores import HighScores
    from kiosk.persist.resume import ResumePlan
    from kiosk.persist.storage import Results
    from kiosk.players.away import AwayWatch
    from kiosk.scenes.attract import AttractLoop
    from kiosk.scenes.seats import LobbyGame, SeatInfo
    from kiosk.service.power import Running

__all__ = ["Host", "LedPicture", "Scene", "SceneStack"]

#: An LED matrix picture: rows of (r, g, b) pixels (``arcade.lights.pictures.Picture``, or the
#: firmware bridge's ``LedPicture`` with its raw bytes).
LedPicture = Sequence[Sequence[tuple[int, int, int]]]


#: The topic (``Host.message``) of the results file's notes while running (issue 23): a newer
#: one replaces the older one on screen.
STORE_NOTE = "store"


class Host(Protocol):
    """The arcade as its scenes see it (``kiosk.app.loop.App`` satisfies it): the configuration and
    run options, the outputs (screen, sounds, LED, messages), the stores, the scene stack and
    the few app services a screen asks for.  Scene modules import it for the type checker
    only, so no scene imports the app (no import circle)."""

    cfg: Config
    args: argparse.Namespace
    options: RunOptions
    screen: pygame.Surface
    sounds: Sounds
    led: LedOutput
    results: Results | None
    event: EventLink | None
    gpio: GpioBuzzers | None
    input: StationInput
    computer: ComputerPresses
    stack: SceneStack
    idle: AwayWatch
    running: bool
    exit_code: int
    kiosk_mode: bool
    #: ``focus-arcade demo``: simulated players; its game asked for, whether a party's
    #: interrupted game waits in the resume slot, ``--pace`` and ``--seed``.
    demo: bool
    demo_game: LobbyGame | None
    demo_seats: int | None
    keep_resume_slot: bool
    pace_override: float | None
    seed_override: int | None
    attract: AttractLoop | None
    attract_demo: bool
    current_game: LobbyGame | None
    resume_plan: ResumePlan | None

    @property
    def scenes(self) -> list[Scene]: ...

    @property
    def keyboard(self) -> KeyboardBuzzers: ...

    @property
    def gamepad(self) -> GamepadBuzzers | None: ...

    @property
    def highscores(self) -> HighScores | None: ...

    def message(self, text: str, seconds: float = 12.0, topic: str = "") -> None: ...

    def push(self, scene: Scene) -> None: ...

    def pop(self) -> None: ...

    def replace(self, scene: Scene) -> None: ...

    def home(self) -> None: ...

    def new_seed(self) -> int: ...

    def screenshot(self, name: str) -> None: ...

    def end_attract(self) -> None: ...

    def enter_service(self) -> None: ...

    def is_game(self, scene: Scene) -> bool: ...

    def station_accepts(self, station: str, edge: Edge) -> bool: ...

    def run_command(self, command: str, what: str = ..., notify: bool = ...) -> Running: ...


class Scene:
    """Base scene: enter/exit/pause/resume, on_command, on_edge, update, draw.

    Attributes:
        app: the running arcade, seen through :class:`Host`.
        overlay: drawn over the scene below it (that scene is drawn first).
        led_idle: a screen between games (title, attract loop): when its
            ``led_picture`` is None the matrix shows the idle picture or is
            handed back to the controller (``[led] idle``), instead of keeping
            the last picture.
        warm_on_push: drawn once off screen when pushed (``kiosk.app.warmup.Warmup.scene``;
            some screens start work on their first draw).
        seats: the seats a screen plays (a game, the results), else none; in a game a
            seat's presses must come from its own station (``App.accepts``).
        entry: the registry name of the game played (``focusx-classic``), else None.
        lobby_game: the lobby game played, (family, mode): set on a game being kept for a
            resume (``kiosk/persist/resume.py``), else None.
        page: the page shown (the service menu's ``"buttons"``, the leaderboard's number):
            a new page is a new screen for the screenshots; None: one page.
        press_refused: the stamp (ns) of the last press the game refused (no presence for
            the away rule, ``kiosk/players/away.py``), else None.
        leave_until: while a game's leave dialog is open, when it closes (ns); else None.
        over_at: when the game ended (ns), else None.
        note_strip: a game's title strip in the frame drawn last (screen px), where an app
            note goes while it is up, over the title line: never over the cards, the seats or
            whose turn it is (issue 20).  Each game sets it where it draws its title, in every
            phase; None: not drawn (the note goes along the top edge).
    """

    overlay = False
    led_idle = False
    warm_on_push = False
    seats: Sequence[SeatInfo] = ()
    entry: str | None = None
    lobby_game: tuple[str, str] | None = None
    page: str | int | None = None
    press_refused: int | None = None
    leave_until: int | None = None
    over_at: int | None = None
    note_strip: pygame.Rect | None = None

    def __init__(self, app: Host) -> None:
        self.app = app

    def enter(self) -> None:
        """Pushed on the stack (or replaced another)."""

    def exit(self) -> None:
        """Taken off the stack: stop workers, cancel planned presses."""

    def pause(self) -> None:
        """Another scene was pushed over this one."""

    def resume(self) -> None:
        """The scene over this one was popped."""

    def handle(self, event: "pygame.event.Event") -> None:
        """A raw pygame event: turned into commands by the app's input layer and passed
        to :meth:`on_command` (the loop calls :meth:`on_command` itself; this is for
        callers holding a raw event)."""
        for command in self.app.input.commands(event):
            self.on_command(command)

    def on_command(self, command: "Command") -> None:
        """A menu command (``command.name`` in :data:`kiosk.controls.input.COMMANDS`)."""

    def on_edge(self, edge: Edge) -> None:
        """A station event: one stamped edge of one seat's control."""

    def update(self, now_ns: int) -> None:
        """Advance to ``now_ns`` (integer ns, CLOCK_MONOTONIC)."""

    def draw(self, surface: "pygame.Surface") -> None:
        """Draw the scene; never changes state."""

    def draw_overlay(self, surface: "pygame.Surface") -> None:
        """Drawn after :meth:`draw` of the top scene (dialogs); never changes state."""

    def frame_shown(self, t_ns: int) -> None:
        """The frame just drawn was flipped at ``t_ns`` (R-2)."""

    def game_state(self) -> State | None:
        """The state of the game this screen plays or shows (a game, the results), else None."""
        return None

    def led_picture(self, now_ns: int) -> LedPicture | None:
        """The LED matrix picture for this moment, or None for the default."""
        return None


class SceneStack:
    """The scenes on screen, top last.

    ``push`` pauses the top and enters the new one; ``pop`` exits the top and
    resumes the one below; ``replace`` exits the top and enters the new one;
    ``clear`` exits them all (top first).

    Args:
        on_clear: called after :meth:`clear` (the app cancels planned computer
            presses there).
    """

    def __init__(self, on_clear: Callable[[], None] | None = None) -> None:
        self.scenes: list[Scene] = []
        self._on_clear = on_clear

    @property
    def top(self) -> Scene | None:
        """The scene that gets input and updates, or None when empty."""
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        """Put ``scene`` on top (the old top is paused)."""
        if self.scenes:
            self.scenes[-1].pause()
        self.scenes.append(scene)
        scene.enter()

    def pop(self) -> None:
        """Take the top scene off (the one below resumes)."""
        if self.scenes:
            self.scenes.pop().exit()
        if self.scenes:
            self.scenes[-1].resume()

    def replace(self, scene: Scene) -> None:
        """Exchange the top scene for ``scene``."""
        if self.scenes:
            self.scenes.pop().exit()
        self.scenes.append(scene)
        scene.enter()

    def clear(self) -> None:
        """Exit every scene, top first."""
        while self.scenes:
            self.scenes.pop().exit()
        if self._on_clear is not None:
            self._on_clear()

    def drawn(self) -> list[Scene]:
        """The scenes to draw, bottom first: the top and the overlays' scenes below it."""
        first = len(self.scenes) - 1
        while first > 0 and self.scenes[first].overlay:
            first -= 1
        return self.scenes[max(first, 0):]
