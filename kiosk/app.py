"""The arcade's main loop: pygame-ce window, scene stack, inputs, LED, sound.

One frame::

    pygame events -> the input layer (kiosk/controls/input.py): keyboard/gamepad stations
                     (stamped edges on the queue) and commands -> scene.on_command
    computer players' due presses -> edges
    drain the edge queue -> scene.on_edge (the referee orders them by stamp)
    scene.update(now) -> scene.draw(screen) -> flip -> scene.frame_shown(t_flip)
    LED picture -> link (never blocks) ; watchdog ping

Scenes never change state in ``draw``.  Errors inside a scene are caught by
the loop, shown on screen, and the arcade goes back to the title screen: the
kiosk keeps running.
"""

from __future__ import annotations

import argparse
import collections
import gc
import heapq
import importlib
import itertools
import logging
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, MutableMapping

import pygame

from arcade.core.events import Edge
from hardware.sink import EdgeSink, drain, make_queue
from kiosk import render
from kiosk.config import Config
from kiosk.controls.input import StationInput
from kiosk.output.led import LedOutput
from kiosk.output.sound import Sounds
from kiosk.persist.storage import Results, StorageError
from kiosk.scene import STORE_NOTE, Scene, SceneStack
from kiosk.service.stopping import EXIT_RESTART
from kiosk.service.stopping import EXIT_STOP as EXIT_STOP
from kiosk.service.systemd import Notifier

if TYPE_CHECKING:
    from hardware.gamepad import GamepadBuzzers
    from hardware.gpio import GpioBuzzers
    from hardware.keyboard import KeyboardBuzzers
    from hardware.lamps import BuzzerLamps
    from hardware.simulated import SimulatedPlayers
    from kiosk.controls.input import Command
    from kiosk.event.link import EventLink
    from kiosk.persist.highscores import HighScores
    from kiosk.persist.resume import ResumePlan
    from kiosk.scenes.attract import AttractLoop
    from kiosk.scenes.seats import LobbyGame
    from kiosk.service.power import Running

log = logging.getLogger("focus-arcade")

#: At most this many app messages show at once, in the band along the top of the screen.
MESSAGE_LINES = 2
#: The notes' boxes' colour.
NOTE_FILL = (120, 30, 30)
#: The height (px) of the attract loop's "DEMO GAME" band along the bottom edge.
DEMO_BAND_PX = 48
#: A message longer than the lines it may take shows in parts, each this long (s), with its
#: number ("(2/3)") at the end (issue 23: a configuration note is read whole at 480x320 too).
MESSAGE_PART_S = 6.0
#: A message in parts stays at least until every part has shown this many times.
MESSAGE_PART_ROUNDS = 2
#: The interpreter's thread switch interval while the arcade runs (s; Python's default is 0.005).
SWITCH_INTERVAL_S = 0.001
#: A high-score table that could not be opened (a full disk) is tried again after this many seconds.
HIGHSCORES_RETRY_S = 5.0


@dataclass(frozen=True)
class RunOptions:
    """The command line's options the running arcade reads (``kiosk/cli.py``), set once.

    Attributes:
        command: ``"demo"`` for ``focus-arcade demo`` (simulated players), else None.
        windowed: never fullscreen.
        frames: stop after this many frames (tests; 0: never).
        screenshot_dir: where ``--screenshot-dir`` puts PNGs ("": none).
        screenshot_every: a PNG every this many seconds too (0: only on a new screen).
        loop: ``demo --loop``: game after game.
        case: ``demo --case``: the Mrs. Hudson case (coop), or None.
    """

    command: str | None = None
    windowed: bool = False
    frames: int = 0
    screenshot_dir: str = ""
    screenshot_every: float = 0.0
    loop: bool = False
    case: str | None = None

    @classmethod
    def of(cls, args: argparse.Namespace) -> RunOptions:
        """The options ``args`` gives (an option it lacks, or gives as None, keeps its default).

        >>> RunOptions.of(argparse.Namespace(command="demo", frames=None, loop=True))
        RunOptions(command='demo', windowed=False, frames=0, screenshot_dir='', screenshot_every=0.0, loop=True, case=None)
        """
        given = vars(args)
        case = given.get("case")
        command = given.get("command")
        return cls(command=None if command is None else str(command), windowed=bool(given.get("windowed")),
                   frames=int(given.get("frames") or 0), screenshot_dir=str(given.get("screenshot_dir") or ""),
                   screenshot_every=float(given.get("screenshot_every") or 0.0), loop=bool(given.get("loop")),
                   case=None if case is None else str(case))


class PlainTitle(Scene):
    """The title screen of last resort, when the real one cannot be built: the
    messages (drawn by the app) say why; OK (Enter) or a buzzer opens the lobby."""

    def _lobby(self) -> None:
        from kiosk.scenes.lobby import LobbyScene
        self.app.replace(LobbyScene(self.app))

    def on_command(self, command: Command) -> None:
        if command.name == "ok":
            self._lobby()

    def on_edge(self, edge: Edge) -> None:
        if edge.pressed and edge.control in ("buzzer", "ok"):
            self._lobby()

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(render.BG)
        W, H = surface.get_size()
        render.text(surface, "FOCUS ARCADE", (W // 2, H // 3), int(H * 0.12), render.GOLD, "center", bold=True)
        render.text(surface, "Press Enter or a buzzer to play", (W // 2, H // 2 + 20), int(H * 0.05),
                    render.TEXT, "center")


class ComputerPresses:
    """Presses of computer players, as stamped edges at their planned times.

    In the demo they go through simulated GPIO pins (gpiozero MockFactory), so
    the real adapter path is used; otherwise they are put on the queue at their
    planned stamps when due.
    """

    def __init__(self, queue: EdgeSink, simulated: SimulatedPlayers | None = None) -> None:
        self.queue = queue
        self.simulated = simulated
        self.heap: list[tuple[int, int, Edge, int]] = []     # (due ns, order, edge, press id)
        self.count = itertools.count()

    def press(self, seat: int, at_ns: int, control: str = "buzzer", double: bool = False,
              hold_ms: int = 90) -> None:
        times = [at_ns] + ([at_ns + (hold_ms + 60) * 1_000_000] if double else [])
        for t in times:
            if self.simulated is not None:
                try:
                    self.simulated.schedule_press(seat, t, control=control, hold_ms=hold_ms)
                    continue
                except Exception:        # a seat without a mock pin: fall back
                    pass
            pid = next(self.count)
            heapq.heappush(self.heap, (t, pid, Edge(t, seat, control, True, "computer"), pid))
            heapq.heappush(self.heap, (t + hold_ms * 1_000_000, next(self.count),
                                       Edge(t + hold_ms * 1_000_000, seat, control, False, "computer"), pid))

    def pump(self, now_ns: int) -> None:
        while self.heap and self.heap[0][0] <= now_ns:
            self.queue.put(heapq.heappop(self.heap)[2])

    def drop_planned(self, after_ns: int) -> None:
        """Drop the presses that would start after ``after_ns`` (planned for a table that
        is no longer shown); presses already under way still get their release."""
        late = {pid for t, _, e, pid in self.heap if e.pressed and t > after_ns}
        if late:
            self.heap = [x for x in self.heap if x[3] not in late]
            heapq.heapify(self.heap)
        if self.simulated is not None:
            self.simulated.cancel_after(after_ns)

    def cancel(self) -> None:
        self.heap.clear()
        if self.simulated is not None:
            self.simulated.cancel_all()


class App:
    """The running arcade."""

    def __init__(self, cfg: Config, screen: pygame.Surface, args: argparse.Namespace) -> None:
        # The render loop shares the interpreter with helper threads (Sherlook's photos, the
        # LED link, the lamps, the worker's pump): a CPU-bound one holds the lock up to the
        # switch interval each time the frame needs it back.  1 ms instead of 5 ms keeps such a
        # wait shorter than a frame's own work.
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        render.reset_caches()
        render.tune_memory()                      # issue 23: freed pictures go back to the system
        # Warmed now, not in a game's first frame: the fonts, and the resume module every game
        # scene saves its steps with (its first import loads uuid's C module: ~15 ms).
        render.warm_up()
        importlib.import_module("kiosk.persist.resume")
        self.cfg = cfg
        self.screen = screen
        render.fit_caches(screen.get_size())      # issue 23: the drawing caches sized for this screen
        self.args = args
        self.options = RunOptions.of(args)
        self.demo = self.options.command == "demo"
        #: demo: a party's interrupted game waits in the resume slot; the demo leaves it alone
        self.keep_resume_slot = False
        self.demo_game: LobbyGame | None = None   # demo: the game asked for (kiosk.players.demo.start_demo)
        self.stack = SceneStack(on_clear=lambda: self.computer.cancel())
        self.running = True
        self.messages: list[tuple[str, float]] = [(p, time.monotonic() + 30) for p in cfg.problems]
        self._message_shown: dict[str, float] = {}    # message -> when it was first drawn (its parts' clock)
        self.queue = make_queue()
        self.frame = 0
        self.frame_times: list[float] = []
        self._parts_seen: tuple[object, ...] = ()
        self.sounds = Sounds()                    # made after the first frame (:meth:`_warm_screens`)
        self.warming: threading.Thread | None = None
        if self.sounds.problem:
            log.warning(self.sounds.problem)
        self.results = self._open_results()
        self._posted: collections.deque[str] = collections.deque()   # messages from other threads
        self._topics: dict[str, str] = {}          # each message topic's latest text (message())
        self.event: EventLink | None = None       # when [event] is set (issue 15)
        self._status_at = 0.0
        self._open_event()
        self.led = LedOutput(cfg, self.message)
        self.notifier = Notifier()
        self.gpio: GpioBuzzers | None = None
        self.lamps: BuzzerLamps | None = None     # when [gpio] lamps has pins
        from arcade.lights.lamps import LampMemory
        self.lamp_memory = LampMemory()
        self.simulated: SimulatedPlayers | None = None
        self.input = StationInput(self.queue, clock=lambda: time.monotonic_ns(), message=self.message)
        self._setup_inputs()
        self.computer = ComputerPresses(self.queue, self.simulated)
        self.screenshot_dir = Path(self.options.screenshot_dir) if self.options.screenshot_dir else None
        every = self.options.screenshot_every
        self.screenshot_every_ns = int(every * 1e9) if self.screenshot_dir is not None else 0
        self.shots = 0
        self._shot: str | None = None
        self._shot_last = 0                       # when the last interval shot was taken (ns)
        self._shot_screen: tuple[int, str | int | None] | None = None   # (scene, page) shot last on a change
        self.current_game: LobbyGame | None = None   # the game being played (high scores, attract loop)
        self._highscores: HighScores | None = None
        self._highscores_problem = ""             # why the table could not be opened ("": no problem)
        self._highscores_retry_at = 0.0           # ... and when to try again (monotonic s)
        self.pace_override: float | None = None   # demo --pace: seconds per table
        self.seed_override: int | None = None     # demo --seed: the first game's seed
        self.resume_plan: ResumePlan | None = None   # while a resumed game is built (kiosk/persist/resume.py)
        # -- the event appliance (issue 10) --
        self.kiosk_mode = bool(cfg["display"].get("kiosk", False))
        self.exit_code = 0                        # EXIT_RESTART / EXIT_STOP from the service menu
        svc = cfg.data.get("service", {})
        from kiosk.service.tools import Combination, parse_combo
        self.combo = Combination(parse_combo(svc.get("combo", ["P1.ok", "P2.ok"])),
                                 int(svc.get("hold_s", 3.0) * 1e9))
        self.attract: AttractLoop | None = None   # while the attract loop's demo games play
        self.attract_demo = False                 # a demo game of the attract loop is on screen
        from kiosk.players.away import AwayWatch
        self.idle = AwayWatch(self)
        self.sounds.set_volume(cfg.data.get("sound", {}).get("volume", 1.0))
        self._warm_games()
        # What start-up made (modules, fonts, the store) lives all day: out of the collector's
        # sight, the full collection each return to the title makes (see :meth:`home`) looks
        # only at what came after: 0.1 ms instead of 15 ms of CPU here.  :meth:`close` gives
        # them back to it.
        gc.collect()
        gc.freeze()

    # -- set-up ----------------------------------------------------------------
    def _warm_games(self) -> None:
        """What a game would otherwise make in a frame, made now, at start-up (issue 14): the
        computer players' thinking process started (its start cost ~30 ms in the frame that
        made a FOCUS scene).  Only an optimisation: a failure is logged, the games start it on
        first use.  The 168 Focus (2023) card faces are no longer all made here (9.3 MB at
        1280x720 held all day, issue 23): a game makes its first deal's 20 when it starts."""
        try:
            from kiosk.players import thinker
            thinker.shared().start()
        except Exception:  # noqa: BLE001 - the scenes start it on first use
            log.debug("starting the thinking process failed", exc_info=True)

    def _warm_screens(self) -> None:
        """After the first frame, the sounds are made and the games' screen modules (and the
        lobby that lists them) imported on a thread of their own, so that the title comes up first (issue 22:
        importing them cost 0.4 s of a 0.6 s start here, seconds on a Raspberry Pi 3) and the
        lobby opens without that wait.  A module the frame loop needs sooner is imported there
        as usual (Python's import lock lets one thread import it, the other waits for it); a
        failure is only logged: the lobby imports it again and says what is wrong."""
        def warm() -> None:
            self.sounds.make()
            try:
                from kiosk.scenes.seats import lobby_games
                lobby_games()
            except Exception:  # noqa: BLE001 - only an optimisation
                log.debug("warming the game screens failed", exc_info=True)
        self.warming = threading.Thread(target=warm, name="warm-screens", daemon=True)
        self.warming.start()

    def _open_results(self) -> Results | None:
        """The results store; whatever is wrong with the file is a message, never a stop."""
        try:
            r = Results(self.cfg.storage_path())
        except Exception as exc:   # StorageError, OSError, anything: never stop the kiosk for storage
            if isinstance(exc, StorageError) and exc.whole:   # it says what happens instead (a damaged file on a full disk)
                self.message(str(exc), 60)
            else:
                self.message(f"Results will not be saved: {exc}. This session's games are kept in memory.", 60)
            try:
                return Results(":memory:")
            except Exception:
                return None
        for notice in r.notices:        # already in the journal (storage's logger)
            self.messages.append((notice, time.monotonic() + 60))
        r.report = lambda text: self.message(text, 60, topic=STORE_NOTE)
        return r

    def _open_event(self) -> None:
        """Join the event of ``[event]`` (off without it: nothing touches the network)."""
        if not self.cfg.event_on():
            return
        if self.results is None or self.results.path == ":memory:":
            self.message("Event off: there is no results file to keep the games to send.")
            return
        try:
            from kiosk.event.link import EventLink
            link = EventLink(self.cfg["event"], self.results.path, message=self.post_message)
            self.results.outbox_hook = link.outbox_hook
            self.results.outbox_committed = link.committed
            link.start()
            self.event = link
        except Exception as exc:          # a missing library or file: the cabinet plays on alone
            self.results.outbox_hook = self.results.outbox_committed = None
            self.message(f"Event off: {exc}")

    def post_message(self, text: str) -> None:
        """:meth:`message` from another thread (the event link): shown at the next frame."""
        self._posted.append(text)

    def cabinet_state(self) -> tuple[str, str]:
        """("idle" | "playing", game name) from the scene on top."""
        for scene in reversed(self.scenes):
            state = scene.game_state()
            game = state.game.name if state is not None else ""
            if game and type(scene).__name__ != "ResultsScene":
                return "playing", str(game)
        return "idle", ""

    def _event_status(self) -> None:
        now = time.monotonic()
        if self.event is None or now - self._status_at < 1.0:
            return
        self._status_at = now
        state, game = self.cabinet_state()
        errors = [m for m, _ in self.messages if not m.startswith("Event")][-3:]
        self.event.set_status(state, game, self.led.status_text(), errors)

    @property
    def scenes(self) -> list[Scene]:
        """The scene stack, top last (:class:`kiosk.scene.SceneStack`)."""
        return self.stack.scenes

    @property
    def keyboard(self) -> KeyboardBuzzers:
        """The keyboard stations of the input layer (tests put one on a virtual clock)."""
        keyboard: KeyboardBuzzers = self.input.keyboard
        return keyboard

    @keyboard.setter
    def keyboard(self, value: KeyboardBuzzers) -> None:
        self.input.keyboard = value

    @property
    def gamepad(self) -> GamepadBuzzers | None:
        """The gamepad stations of the input layer, or None."""
        gamepad: GamepadBuzzers | None = self.input.gamepad
        return gamepad

    def _setup_inputs(self) -> None:
        stations = self.cfg["seats"]["stations"]
        if self.demo:
            from hardware.simulated import SimulatedPlayers
            pins = {(seat, "buzzer"): pin for seat, pin in enumerate(self.cfg["gpio"]["buzzers"])}
            self.simulated = SimulatedPlayers(pins, queue=self.queue)
        elif "gpio" in stations:
            self.open_gpio()

    def open_gpio(self) -> None:
        """Open the GPIO buzzers from the configuration; a failure is a message."""
        if self.gpio is not None:
            return
        from hardware.gpio import GpioBuzzers
        pins: dict[tuple[int, str], int] = {}
        for seat, pin in enumerate(self.cfg["gpio"]["buzzers"]):
            pins[(seat, "buzzer")] = pin
        for seat, row in enumerate(self.cfg["gpio"]["controls"]):
            for control, pin in zip(("left", "right", "ok", "x"), row):
                if pin:
                    pins[(seat, control)] = pin
        try:
            from hardware.gpio import pin_factory_choice, pin_factory_from_env
            factory = None
            # GPIOZERO_PIN_FACTORY in the environment wins over [gpio] pin_factory (a cabinet's
            # file tried on a laptop with mock pins); the name is opened loudly, never a fallback
            name, note = pin_factory_choice(self.cfg["gpio"]["pin_factory"])
            if note:
                log.warning("%s", note)
            if name:
                factory = pin_factory_from_env({**os.environ, "GPIOZERO_PIN_FACTORY": name})
            self.gpio = GpioBuzzers(pins, pin_factory=factory, queue=self.queue)
        except Exception as exc:
            self.message(f"GPIO buzzers unavailable ({exc}); use keys 1-8 instead.")
            return
        self.open_lamps(factory)

    def open_lamps(self, factory: object | None = None) -> None:
        """The lamps in the buzzers (``[gpio] lamps``), on the buzzers' pin factory (a gpiozero
        ``Factory``; None: gpiozero's default)."""
        pins = self.cfg["gpio"].get("lamps") or []
        if self.lamps is not None or not any(pins):
            return
        try:
            from hardware.lamps import BuzzerLamps
            self.lamps = BuzzerLamps(pins, pwm=self.cfg["gpio"].get("lamp_pwm", False), pin_factory=factory,
                                     threaded=True)
        except Exception as exc:
            self.message(f"Buzzer lamps unavailable: {exc}")
            return
        for problem in self.lamps.problems:
            self.message(problem)

    @property
    def highscores(self) -> HighScores | None:
        """The high-score table (kiosk.persist.highscores.HighScores) in the results file, or None."""
        if self._highscores is None and self.results is not None:
            # Asked for at every frame of a screen with a board: a table that cannot be opened
            # (a full disk) is tried again every HIGHSCORES_RETRY_S, and said once when it fails
            # and once when it works again (issue 23: 38 lines a second in the journal).
            now = time.monotonic()
            if self._highscores_problem and now < self._highscores_retry_at:
                return None
            from kiosk.persist.highscores import HighScores
            try:
                self._highscores = HighScores(self.results.db)
            except Exception as exc:
                self._highscores_retry_at = now + HIGHSCORES_RETRY_S
                if not self._highscores_problem:
                    self._highscores_problem = str(exc) or type(exc).__name__
                    self.message(f"High scores unavailable: {exc}")
                return None
            if self._highscores_problem:
                self._highscores_problem = ""
                self.message("High scores available again.")
        return self._highscores

    def new_seed(self) -> int:
        """The seed for a new game: ``demo --seed`` for the first game, else a random one."""
        if self.seed_override is not None:
            seed, self.seed_override = self.seed_override, None
            return seed
        return int.from_bytes(os.urandom(4), "big") % 1_000_000_007

    def message(self, text: str, seconds: float = 12.0, topic: str = "") -> None:
        """Show a message on screen for a while (and in the log).  ``topic``: the newer message
        of a topic replaces the older one still on screen (issue 23: the results file's notes,
        "now saved" and "not saved yet", were shown at once)."""
        log.warning(text)
        if topic:
            older = self._topics.get(topic)
            if older is not None:
                self.messages = [(m, t) for m, t in self.messages if m != older]
            self._topics[topic] = text
        self.messages.append((text, time.monotonic() + seconds))

    # -- scene stack -------------------------------------------------------------
    def push(self, scene: Scene) -> None:
        self.stack.push(scene)
        self.warm(scene)

    def pop(self) -> None:
        self.stack.pop()

    def replace(self, scene: Scene) -> None:
        self.stack.replace(scene)
        self.warm(scene)

    def warm(self, scene: Scene) -> None:
        """Draw ``scene`` once off screen, so its first frame finds fonts, rendered words and its
        cached layers ready (a scene's draw never changes its state).  A scene that cannot draw
        yet is simply drawn for real on its first frame.  Only scenes with ``warm_on_push``
        (some start work on their first draw)."""
        if not scene.warm_on_push:
            return
        try:
            # A screen of its own, gone after it (issue 23: kept, it was 3.5 MB at 1280x720 all day).
            scene.draw(pygame.Surface(self.screen.get_size()))
        except Exception:  # noqa: BLE001 - warming is only an optimisation
            log.debug("warming %s failed", type(scene).__name__, exc_info=True)

    def home(self) -> None:
        """Back to the title screen, whatever happened (a failing title shows a plain one;
        in the attract loop: its next step)."""
        from kiosk.scenes.attract import AttractScene
        try:
            self.stack.clear()
        except Exception:
            log.error("leaving a scene failed: %s", traceback.format_exc())
            self.stack.scenes.clear()
        self.idle.clear()
        # Issue 23: the last screen's memory back to the system now.  A game scene is held in
        # reference cycles (its bound methods, its seats' callbacks): without a full collection
        # its layers and pictures (2-5 MB) stayed until Python's next one, many games later.
        gc.collect()
        render.release_freed_memory()
        try:
            if self.attract is not None and self.attract.running:
                self.push(AttractScene(self, loop=self.attract))   # high scores, then the next demo game
                return
            self.end_attract()
            self.push(AttractScene(self))
        except Exception as exc:
            log.error("the title screen failed: %s", traceback.format_exc())
            self.end_attract()
            self.message(f"The title screen failed ({type(exc).__name__}: {exc}); Enter opens the lobby.", 60)
            self.stack.scenes[:] = [PlainTitle(self)]

    def keep_game_in_progress(self) -> None:
        """Save the game on the stack (if any) for a resume (after a scene's exception)."""
        from kiosk.persist import resume
        from kiosk.scenes.game import GameScene
        for scene in reversed(self.scenes):
            if isinstance(scene, GameScene) and scene.lobby_game and scene.over_at is None:
                try:
                    resume.save_progress(self, scene)
                except Exception:
                    log.error("could not keep the game: %s", traceback.format_exc())
                return

    def offer_resume(self) -> None:
        """Offer the interrupted game in the store, if there is one (never raises)."""
        from kiosk.persist import resume
        try:
            resume.offer(self)
        except Exception:
            log.error("the resume offer failed: %s", traceback.format_exc())

    def end_attract(self) -> None:
        """Leave the attract loop: results and high scores are recorded again."""
        if self.attract is not None:
            self.attract.stop()
        self.attract = None
        self.attract_demo = False

    def leave_attract(self, edge: Edge) -> None:
        """A person pressed during the attract loop: to the lobby, that seat joined."""
        from kiosk.scenes.lobby import LobbyScene
        self.end_attract()
        self.stack.clear()
        self.push(LobbyScene(self, joined_by=edge if edge.control == "buzzer" else None))

    # -- the service menu ----------------------------------------------------------
    def open_service(self) -> None:
        """The combination was held: the PIN (if ``[service] pin``), then the service menu."""
        from kiosk.scenes.service.menu import ServiceScene
        from kiosk.scenes.service.pin import PinScene
        top = self.scenes[-1] if self.scenes else None
        if isinstance(top, ServiceScene):
            top.combination()
            return
        if isinstance(top, PinScene):
            return
        if self.cfg.data.get("service", {}).get("pin", ""):
            self.push(PinScene(self))
        else:
            self.enter_service()

    def combo_may_begin(self) -> bool:
        """Whether the opening combination may begin on the screen shown now (issue 20): on the
        title screen and in the attract loop, where its first press only opens the lobby, and
        in the service menu (the button test's way out).  In a game, the lobby or the results
        the buttons are the guests': their presses there never open the PIN screen, which
        would also have taken the releases of presses the game had already counted."""
        from kiosk.scenes.attract import AttractScene
        from kiosk.scenes.service.menu import ServiceScene
        top = self.scenes[-1] if self.scenes else None
        return self.attract is not None or isinstance(top, (AttractScene, ServiceScene, PlainTitle))

    def enter_service(self) -> None:
        """Open the service menu (the stack below, the lobby the combination opened, goes)."""
        from kiosk.scenes.service.menu import ServiceScene
        self.end_attract()
        self.stack.clear()
        self.idle.clear()
        self.push(ServiceScene(self))

    def run_command(self, command: str, what: str = "run the command", notify: bool = True) -> Running:
        """Run an operator's command (shut down, reboot...) in the background
        (:class:`kiosk.service.power.Running`, returned); with ``notify`` its refusal or failure
        becomes a message (the service menu shows it itself).  Tests replace this method:
        the real one is never run by the test suite with a real poweroff."""
        from kiosk.service.power import Running

        def done(problem: str | None) -> None:
            if problem and notify:
                self.post_message(problem)
        return Running(command, what, done)

    def is_game(self, scene: Scene | None) -> bool:
        """Whether ``scene`` is a game being played (not a menu, the title or the results)."""
        from kiosk.scenes.game import GameScene
        return isinstance(scene, GameScene)

    def quit_asked(self, source: str) -> None:
        """Ctrl+Q or the window's close: quits, except in kiosk mode (``[display] kiosk``),
        where they do nothing, as Esc does nothing there: the service menu (opened from the
        title screen) leaves the arcade.  Outside kiosk mode Esc in a game opens the game's leave
        dialog (kiosk/scenes/game.py: OK or Esc again leaves, anything else stays)."""
        if self.kiosk_mode:
            log.info("kiosk mode: %s ignored (leave from the service menu)", source)
            return
        self.running = False

    # -- the loop ------------------------------------------------------------------
    def loop(self, max_frames: int = 0) -> None:
        clock = pygame.time.Clock()
        fps = self.cfg["display"]["fps"]
        self.notifier.ready()
        while self.running:
            start = time.perf_counter()
            try:
                self.step(time.monotonic_ns())
            except Exception as exc:          # a bug in a scene must not stop the kiosk
                log.error("scene failed: %s", traceback.format_exc())
                self.message(f"Something went wrong ({type(exc).__name__}: {exc}); back to the start.")
                self.keep_game_in_progress()
                self.home()
                self.offer_resume()
            self.frame_times.append((time.perf_counter() - start) * 1000)
            if len(self.frame_times) > 10000:
                del self.frame_times[:5000]
            self.frame += 1
            if self.frame == 1:
                self._warm_screens()
            self.notifier.watchdog()
            if max_frames and self.frame >= max_frames:
                break
            clock.tick(fps)

    def step(self, now_ns: int) -> None:
        while self._posted:
            self.message(self._posted.popleft())
        self._event_status()
        scene = self.scenes[-1]
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.quit_asked("the window's close")
                if not self.running:
                    return
                continue
            for command in self.input.handle(event):
                if command.name == "screenshot":
                    self.screenshot_asked(command.source)
                    continue
                if command.name == "quit":
                    self.quit_asked("Ctrl+Q")
                    if not self.running:
                        return
                    continue
                if command.name == "back" and command.source == "keyboard" and self.kiosk_mode:
                    continue                # kiosk mode: Esc does nothing (a gamepad's Back still asks)
                scene.on_command(command)
                scene = self.scenes[-1]
        self.computer.pump(now_ns)
        if self.gpio is not None:
            self.gpio.resync()                  # a release edge that never came (hardware/gpio.py)
        for edge in drain(self.queue):
            person = edge.source not in ("computer", "")
            if person:
                self.combo.feed(edge, here=self.combo_may_begin())
                if self.attract is not None and edge.pressed:
                    self.idle.saw(edge, self)
                    self.leave_attract(edge)
                    continue
            accepted = self.accepts(self.scenes[-1], edge)
            if person:
                # A press the screen refuses (a station the seat is not played from) is no
                # presence: it neither keeps the away rule off nor gives an away seat back.
                self.idle.saw(edge, self if accepted else None)
            if accepted:
                target = self.scenes[-1]
                target.on_edge(edge)
                refused = target.press_refused
                if person and refused is not None:
                    self.idle.refused(edge.seat, refused)   # the game refused it: no presence
        if self.combo.poll(now_ns):
            self.open_service()
        if self.attract is not None:
            self.attract.tick(now_ns)
        self.idle.tick(now_ns)
        self.scenes[-1].update(now_ns)
        if self.screenshot_dir is not None:
            self._screenshot_moments(now_ns)
        self.draw()
        if self._shot is not None:
            self._save_shot(self._shot)
            self._shot = None
        pygame.display.flip()
        shown = time.monotonic_ns()
        self.scenes[-1].frame_shown(shown)      # races open at the flip
        top = self.scenes[-1]
        self.led.update(top.led_picture(shown), shown, idle=top.led_idle)
        if self.lamps is not None:            # pins change only when a seat's state changes
            from kiosk.output.buzzer_lamps import scene_pattern
            self.lamps.show(scene_pattern(top, self.lamp_memory, shown, len(self.lamps)))

    #: Which edge sources may press for a seat of each station kind.
    SOURCES = {"keyboard": {"keyboard"}, "gpio": {"gpio"}, "gamepad": {"gamepad"},
               "computer": {"computer"}, "simulated": {"gpio", "computer"}}

    def accepts(self, scene: Scene, edge: Edge) -> bool:
        """Whether ``edge`` may reach ``scene``: in a game, a seat's presses must come
        from its own station (a key pressed for a computer player's seat is ignored)."""
        if edge.source == "computer" and not self.is_game(scene):
            return False                  # a computer's press in a game never works a menu over it (PIN)
        seats = scene.seats
        if not seats or not edge.source or not self.is_game(scene):
            return True                   # menus and the results screen: every station
        if edge.seat >= len(seats):
            return False
        return self.station_accepts(seats[edge.seat].station, edge)

    def station_accepts(self, station: str, edge: Edge) -> bool:
        """Whether a seat played from ``station`` (a :class:`SeatInfo` station kind) takes ``edge``."""
        allowed = self.SOURCES.get(station, set())
        if station == "gpio" and self.gpio is None:
            allowed = {"keyboard"}        # no GPIO here: the lobby said to use keys 1-8
        return edge.source in allowed

    def draw(self) -> None:
        surface = self.screen
        drawn = self.stack.drawn()
        now = self._now()
        self.messages = [(m, t) for m, t in self.messages if t > now]
        self._message_shown = {m: t for m, t in self._message_shown.items() if any(m == x for x, _ in self.messages)}
        in_game = bool(self.scenes) and self.is_game(self.scenes[-1])
        # In a game the newest note goes in the game's own title strip, over its title line:
        # never over the cards, the seats or whose turn it is, and the game keeps its screen regions
        # (issue 20: a game laid out smaller while a note was up jumped at 1280x720).
        shown = self.messages[-1:] if in_game else self.messages[-MESSAGE_LINES:]
        notes = [] if in_game else self._note_lines(surface, shown, in_game, now)
        # Elsewhere the notes take a band along the top and the demo game's band the bottom
        # edge: the screen is laid out in the rest (a subsurface), so a note never hides a word
        # of it (issue 20: a note over the lobby's Game row, over the PIN box's title, the title).
        W, H = surface.get_size()
        top_h = notes[-1][1].bottom + 7 if notes else 0
        demo = self.attract_demo and (in_game or not notes)
        bottom_h = DEMO_BAND_PX if demo else 0
        area = pygame.Rect(0, top_h, W, H - top_h - bottom_h)
        # A scene keeps the parts of its screen that did not change (render.Parts) only while
        # nothing is drawn over them: with a message, the demo band, the LED line, a dialog
        # or a scene over it, and once more when that goes, every part is drawn again.
        top = self.scenes[-1] if self.scenes else None
        over = bool(shown or self.attract_demo or len(drawn) > 1
                    or (top is not None and top.leave_until is not None)
                    or (self.led is not None and self.led.attention()))
        seen = (tuple(id(s) for s in drawn), over, area.topleft, area.size)
        if over or seen != self._parts_seen:
            render.redraw_everything()
        self._parts_seen = seen
        canvas = surface if area == surface.get_rect() else surface.subsurface(area)
        if canvas is not surface:
            surface.fill(render.BG, pygame.Rect(0, 0, W, top_h))
        game = self.scenes[-1] if in_game and shown else None
        if game is not None:
            game.note_strip = None                    # each frame the game says where it is
        for i, scene in enumerate(drawn):
            if i:                                     # a dialog over a screen (the PIN, a question)
                render.veil(canvas, canvas.get_rect())  # hides it on purpose
            scene.draw(canvas)
        if self.scenes:
            self.scenes[-1].draw_overlay(canvas)
        if demo:
            # The demo game's title line (race count, status, whose turn) stays visible above it.
            band = pygame.Rect(0, H - bottom_h, W, bottom_h)
            pygame.draw.rect(surface, render.GOLD, band)
            render.text_block(surface, "DEMO GAME  -  press your buzzer to play!", band.center, band.w - 16, 38, 1,
                              render.BG, "center", bold=True)
        if game is not None:
            self._draw_game_note(surface, game.note_strip, shown[-1][0], now)
        for lines, box in notes:
            pygame.draw.rect(surface, NOTE_FILL, box.inflate(16, 6), border_radius=6)
            step = render.font(26).get_height() + 2
            for i, line in enumerate(lines):          # a line still wider than the screen is squeezed
                render.text_within(surface, line, (box.centerx, box.y + i * step), W - 40, 26, render.TEXT, "midtop")
        self._draw_led_attention(surface)

    def _draw_game_note(self, surface: pygame.Surface, strip: pygame.Rect | None, msg: str, now: float) -> None:
        """A note in a game: in the game's title strip (``strip``, declared veiled while the note
        is up: it hides the title line on purpose), as many lines as the strip holds, at 26 px
        (24 px in a strip too low for 26), in parts (:meth:`_message_part`) when longer.  A game
        that drew no strip gets the note along the top edge, hiding what is there."""
        W = surface.get_width()
        if strip is None:
            strip = pygame.Rect(0, 0, W, render.font(26).get_height() + 8)
        else:
            render.veil(surface, strip)
            strip = strip.clip(surface.get_rect())
        size = 26 if render.font(26).get_height() + 4 <= strip.h else render.MIN_TEXT_PX
        f = render.font(size)
        step = f.get_height() + 2
        rows = max(1, (strip.h - 2) // step)
        width = max(40, strip.w - 16)
        lines = [msg] if f.size(msg)[0] * 0.85 <= width else self._message_part(msg, width, rows, now, size)
        if not lines:
            return
        box = pygame.Rect(0, 0, min(width, max(f.size(line)[0] for line in lines)), step * len(lines) - 2)
        box.center = strip.center
        surface.fill(render.BG, strip)                # the title line goes for the note's moment
        pygame.draw.rect(surface, NOTE_FILL, box.inflate(16, 4).clip(strip), border_radius=6)
        for i, line in enumerate(lines):              # a line still wider than the strip is squeezed
            render.text_within(surface, line, (box.centerx, box.y + i * step), width, size, render.TEXT, "midtop")

    def note_rows(self, surface: pygame.Surface, in_game: bool) -> int:
        """How many lines of notes the top band holds on ``surface``: at most a quarter of the
        screen's height (the screen below keeps the rest), in a game one line (two from 600 px
        high), elsewhere two per note (three on a narrow panel), at least one."""
        W, H = surface.get_size()
        step = render.font(26).get_height() + 2
        most = max(1, (H // 4 - 8) // step)
        if in_game:
            return min(most, 2 if H >= 600 else 1)
        return min(most, MESSAGE_LINES * (3 if W < 800 else 2))

    def _note_lines(self, surface: pygame.Surface, shown: list[tuple[str, float]], in_game: bool,
                    now: float) -> list[tuple[list[str], pygame.Rect]]:
        """The notes' lines and boxes in the top band, newest last.  A long note goes onto more
        lines rather than being squeezed to less than 85% of its width, or shows in parts
        (:meth:`_message_part`) when it has more than its share of :meth:`note_rows`."""
        width = surface.get_width() - 40
        budget = self.note_rows(surface, in_game)
        f = render.font(26)
        step = f.get_height() + 2
        out: list[tuple[list[str], pygame.Rect]] = []
        y = 4
        shown = shown[-budget:]
        for k, (msg, _) in enumerate(shown):
            rows = max(1, budget // len(shown) + (budget % len(shown) if k == len(shown) - 1 else 0))
            if not in_game:
                rows = min(rows, 3 if surface.get_width() < 800 else 2)
            lines = [msg] if f.size(msg)[0] * 0.85 <= width else self._message_part(msg, width, rows, now)
            if not lines:
                continue
            box = pygame.Rect(0, 0, min(width, max(f.size(line)[0] for line in lines)), step * len(lines) - 2)
            box.midtop = (surface.get_width() // 2, y)
            out.append((lines, box))
            y = box.bottom + 7
        return out

    def _now(self) -> float:
        """The clock of the messages (s, monotonic)."""
        return time.monotonic()

    def _message_part(self, msg: str, width: int, rows: int, now: float, size: int = 26) -> list[str]:
        """The lines of ``msg`` to draw now, at most ``rows`` of at most ``width`` px:
        all of it when it fits, else one part of it, the parts in turn (each
        :data:`MESSAGE_PART_S` s, numbered "(1/3)" at the end), so the whole message is read
        in time (it stays until each part has shown :data:`MESSAGE_PART_ROUNDS` times) rather
        than cut off at the last line (issue 23).  ``size``: the text's size (px)."""
        lines = render.wrap(msg, width, size, 10_000)
        if len(lines) <= rows:
            return render.wrap(msg, width, size, rows)
        mark = render.font(size).size("  (99/99)")[0]
        lines = render.wrap(msg, width - mark, size, 10_000)
        parts = [lines[i:i + rows] for i in range(0, len(lines), rows)]
        start = self._message_shown.setdefault(msg, now)
        need = start + MESSAGE_PART_S * len(parts) * MESSAGE_PART_ROUNDS
        self.messages = [(m, max(t, need) if m == msg else t) for m, t in self.messages]
        i = int((now - start) // MESSAGE_PART_S) % len(parts)
        part = list(parts[i])
        part[-1] += f"  ({i + 1}/{len(parts)})"
        return part

    def _draw_led_attention(self, surface: pygame.Surface) -> None:
        """While the LED matrix is not connected (issue 12): in the service menu the whole line
        with its advice is in the menu's status panel along the bottom (``status_lines``); on
        every other screen only a small "LED" badge in a corner whose pixels are plain
        background in this frame (:func:`led_badge_rect`), so it covers nothing a guest reads
        (a countdown, the initials' hints, a board's letters).  No corner is plain: no badge in
        this frame (the service menu and ``doctor`` say it all)."""
        line = self.led.attention() if self.led is not None else None
        if not line:
            return
        from kiosk.scenes.service.menu import ServiceScene
        if self.scenes and isinstance(self.scenes[-1], ServiceScene):
            return
        badge = led_badge_rect(surface, self._led_badge_corner)
        if badge is None:
            return
        self._led_badge_corner = badge.topleft
        draw_led_badge(surface, badge)

    #: The corner the LED badge was last drawn in (kept while it stays plain).
    _led_badge_corner: tuple[int, int] | None = None

    def screenshot(self, name: str) -> None:
        """Save the next frame as PNG in ``--screenshot-dir`` (if given), once it is drawn
        (``NNN-name.png``; several reasons for one frame: one file, ``NNN-a+b.png``)."""
        if self.screenshot_dir is None:
            return
        if self._shot is None:
            self._shot = name
        elif name not in self._shot.split("+"):
            self._shot = f"{self._shot}+{name}"

    def screenshot_asked(self, source: str) -> None:
        """F12, Print Screen or a gamepad's Guide button: a PNG of the next frame (with
        ``--screenshot-dir``; without it a note outside kiosk mode, nothing in kiosk mode).
        It changes nothing else on any screen."""
        if self.screenshot_dir is not None:
            self.screenshot(f"{screen_name(self.scenes[-1]) if self.scenes else 'screen'}-asked")
        elif not self.kiosk_mode:
            self.message("Screenshots are off: start the arcade with --screenshot-dir DIR", 4.0)
        log.info("screenshot asked (%s)%s", source, "" if self.screenshot_dir else ": no --screenshot-dir")

    def _screenshot_moments(self, now_ns: int) -> None:
        """A PNG when a new screen (or a service-menu page) comes up, and every
        ``--screenshot-every`` seconds."""
        top = self.scenes[-1] if self.scenes else None
        seen = (id(top), top.page if top is not None else None)
        if top is not None and seen != self._shot_screen:
            self._shot_screen = seen
            self.screenshot(screen_name(top))
        if self.screenshot_every_ns and now_ns - self._shot_last >= self.screenshot_every_ns:
            self._shot_last = now_ns
            self.screenshot(f"{screen_name(top) if top is not None else 'screen'}-every")

    def _save_shot(self, name: str) -> None:
        assert self.screenshot_dir is not None
        try:
            self.screenshot_dir.mkdir(parents=True, exist_ok=True)
            self.shots += 1
            pygame.image.save(self.screen, str(self.screenshot_dir / f"{self.shots:03d}-{name}.png"))
        except (OSError, pygame.error) as exc:
            self.message(f"Screenshot not saved in {self.screenshot_dir}: {exc}", 8.0)
            self.screenshot_dir = None            # once: the arcade plays on without them

    def close(self) -> None:
        self.stack.clear()
        gc.unfreeze()
        if self.event is not None:
            try:
                self.event.stop()
            except Exception as exc:
                log.warning("closing the event link: %s", exc)
        for thing in (self.simulated, self.lamps, self.gpio, self.led, self.results):
            try:
                if thing is not None:
                    thing.close()
            except Exception as exc:
                log.warning("closing %r: %s", thing, exc)


#: The LED badge's word and ink (the full line: the service menu and ``doctor``).
LED_BADGE = "LED"
LED_BADGE_INK = (255, 205, 205)
LED_BADGE_FILL = (150, 30, 30)


def led_badge_size(surface: pygame.Surface) -> tuple[int, int]:
    """The badge's size (px): the word at 18 px bold with a small margin."""
    w, h = render.font(18, True).size(LED_BADGE)
    return w + 12, h + 2


def plain(surface: pygame.Surface, rect: pygame.Rect) -> bool:
    """Whether every pixel of ``rect`` (inside ``surface``) has one colour."""
    if not surface.get_rect().contains(rect):
        return False
    colour = surface.get_at(rect.topleft)
    x1, y1 = rect.right - 1, rect.bottom - 1
    for p in ((x1, rect.y), (rect.x, y1), (x1, y1), rect.center):     # a quick no first
        if surface.get_at(p) != colour:
            return False
    sub = surface.subsurface(rect)
    mask = pygame.mask.from_threshold(sub, colour, (1, 1, 1, 255))
    return bool(mask.count() == rect.w * rect.h)


def led_badge_rect(surface: pygame.Surface, prefer: tuple[int, int] | None = None) -> pygame.Rect | None:
    """Where the LED badge goes in this frame: a corner (``prefer``'s first, then bottom
    right, bottom left, top right, top left; 4 px from the edges, else 14 or 24 px) whose
    badge area and a 3 px ring around it are all the screen's own background colour
    (``render.BG``; never an empty stretch of a panel: on a seat's card the badge read as that
    seat's), or None when no corner is."""
    W, H = surface.get_size()
    w, h = led_badge_size(surface)
    spots = [spot for m in (4, 14, 24) for spot in ((W - w - m, H - h - m), (m, H - h - m), (W - w - m, m), (m, m))]
    if prefer in spots:
        spots.remove(prefer)
        spots.insert(0, prefer)
    for x, y in spots:
        rect = pygame.Rect(x, y, w, h)
        if surface.get_at((x, y))[:3] == render.BG and plain(surface, rect.inflate(6, 6)):
            return rect
    return None


_badge_word: list[pygame.Surface] = []


def draw_led_badge(surface: pygame.Surface, rect: pygame.Rect) -> None:
    pygame.draw.rect(surface, LED_BADGE_FILL, rect, border_radius=rect.h // 2)
    if not _badge_word:                        # the word is rendered once
        _badge_word.append(render.font(18, True).render(LED_BADGE, True, LED_BADGE_INK))
    img = _badge_word[0]
    surface.blit(img, img.get_rect(center=rect.center))


def screen_name(scene: Scene) -> str:
    """A screen's name in screenshot file names: the game's registry name
    (``focusx-classic``), else the scene's (``attract``, ``lobby``, ``results``,
    ``service-buttons``...).

    >>> class ResultsScene(Scene): pass
    >>> screen_name(ResultsScene(None))
    'results'
    """
    import re
    entry = scene.entry
    if isinstance(entry, str) and entry:
        return entry
    name = type(scene).__name__.removesuffix("Scene") or "screen"
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).lower()
    page = scene.page
    return f"{name}-{page}" if isinstance(page, str) and page else name


#: SDL's renderer for the window's frames on the console (KMSDRM): OpenGL ES 2.
CONSOLE_RENDERER = "opengles2"


def console_renderer(video_driver: str, environ: MutableMapping[str, str] = os.environ) -> str | None:
    """Choose SDL's renderer before the window opens; returns the one chosen, if any.

    On the console (SDL's KMSDRM driver) ``pygame.display.flip`` shows the
    window's surface through an SDL renderer, and SDL tries its desktop OpenGL
    renderer first.  On the console (EGL on GBM) that renderer clears the screen
    but draws nothing on it: the screen stays black while the arcade runs and
    page-flips (issue 25: the install rehearsal, Mesa 22.3 on Debian bookworm,
    with or without libGL).  Its OpenGL ES 2 renderer shows the frames; GLES 2
    is the API EGL on the console is made for (vc4/v3d on a Pi).  A renderer the
    owner sets in SDL_RENDER_DRIVER is kept; other video drivers are left alone.

    >>> env = {}
    >>> console_renderer("KMSDRM", env), env
    ('opengles2', {'SDL_RENDER_DRIVER': 'opengles2'})
    >>> console_renderer("x11", {}) is None
    True
    """
    if video_driver.lower() != "kmsdrm":
        return None
    return str(environ.setdefault("SDL_RENDER_DRIVER", CONSOLE_RENDERER))


def run(cfg: Config, args: argparse.Namespace) -> int:
    """Open the window and run the arcade until quit; returns the exit status.

    SIGTERM, SIGHUP and SIGINT end it through the same way out as Ctrl+Q (see
    :mod:`kiosk.service.stopping`): status 0 after SIGTERM or SIGHUP, 130 after SIGINT.
    """
    from kiosk.service.stopping import StopSignals
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")      # our handlers, not SDL's
    stop = StopSignals()
    app: App | None = None
    status = 0
    try:
        pygame.init()
        if pygame.display.get_init():
            console_renderer(pygame.display.get_driver())    # before the window: its frames' renderer
        d = cfg["display"]
        flags = pygame.FULLSCREEN if d["fullscreen"] and not RunOptions.of(args).windowed else 0
        try:
            screen = pygame.display.set_mode((d["width"], d["height"]), flags)
        except pygame.error as exc:
            print(f"focus-arcade: cannot open a window: {exc}. On a machine without a screen set "
                  "SDL_VIDEODRIVER=dummy (or use 'focus-arcade headless').")
            return 1
        pygame.display.set_caption("Focus Arcade")
        pygame.mouse.set_visible(False)
        app = App(cfg, screen, args)
        stop.attach(app)
        if app.demo:
            from kiosk.players.demo import DemoError, start_demo
            try:
                start_demo(app, args)
            except (KeyError, DemoError) as exc:
                print(f"focus-arcade: {exc.args[0]}")
                status = 2
        else:
            app.home()
        if status == 0:
            app.offer_resume()
        if status == 0 and stop.signum is None:
            app.loop(max_frames=app.options.frames)
        stop.done()
    except KeyboardInterrupt:
        stop.done()
        if stop.signum is None:
            stop.signum = 2
    finally:
        stop.done()
        try:
            if app is not None:
                app.close()
            pygame.quit()
        except KeyboardInterrupt:
            pass
        stop.restore()
        if stop.signum is not None:
            log.info("stopped %.2f s after the signal", time.monotonic() - stop.at if stop.at else 0.0)
    if status == 0 and app is not None:
        status = app.exit_code            # the service menu's restart / stop
    status = stop.exit_status(status)
    if status == EXIT_RESTART and stop.signum is None:
        from kiosk.service import power
        if not power.under_systemd():
            power.restart_in_place()      # started by hand: the same command line again (no return)
    return status
