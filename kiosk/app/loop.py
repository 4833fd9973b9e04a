"""The running arcade (``App``): the frame loop and the scene switching.

One frame::

    pygame events -> the input layer (kiosk/controls/input.py): keyboard/gamepad stations
                     (stamped edges on the queue) and commands -> scene.on_command
    computer players' due presses -> edges
    drain the edge queue -> scene.on_edge (the referee orders them by stamp)
    scene.update(now) -> scene.draw(screen) -> flip -> scene.frame_shown(t_flip)
    LED picture -> link (never blocks) ; watchdog ping

Scenes never change state in ``draw``.  Errors inside a scene are caught by
the loop, shown on screen, and the arcade goes back to the title screen: the
kiosk keeps running.  The rest is handed to the app's parts, each in its module
of this folder: the notes on screen (``messages``), screenshots, the resume offer,
warming up, the stores, the event status, the stations, the LED badge and the way
into the service menu; ``window`` opens the window and runs the loop in it.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
import time
import traceback
from typing import TYPE_CHECKING

import pygame

from arcade import i18n
from arcade.core.events import Edge
from arcade.i18n import _
from hardware.sink import drain, make_queue
from kiosk import render
from kiosk.app import said
from kiosk.app.computer import ComputerPresses
from kiosk.app.event_status import EventStatus, open_event
from kiosk.app.led_badge import LedBadge
from kiosk.app.messages import Messages
from kiosk.app.options import RunOptions
from kiosk.app.plain_title import PlainTitle
from kiosk.app.resume_offer import ResumeOffer
from kiosk.app.screenshots import Screenshots
from kiosk.app.service_door import ServiceDoor
from kiosk.app.stations import open_gpio, reaches, simulated_players, takes
from kiosk.app.stores import HighScoreTable, open_results
from kiosk.app.warmup import Warmup
from kiosk.config import Config
from kiosk.controls.input import StationInput
from kiosk.output.led import LedOutput
from kiosk.output.sound import Sounds
from kiosk.scene import Scene, SceneStack
from kiosk.service.systemd import Notifier

if TYPE_CHECKING:
    from hardware.gamepad import GamepadBuzzers
    from hardware.gpio import GpioBuzzers
    from hardware.keyboard import KeyboardBuzzers
    from hardware.lamps import BuzzerLamps
    from hardware.simulated import SimulatedPlayers
    from kiosk.event.link import EventLink
    from kiosk.persist.highscores import HighScores
    from kiosk.persist.resume import ResumePlan
    from kiosk.scenes.attract import AttractLoop
    from kiosk.scenes.seats import LobbyGame
    from kiosk.service.power import Running

log = logging.getLogger("focus-arcade")

#: The height (px) of the attract loop's "DEMO GAME" band along the bottom edge.
DEMO_BAND_PX = 48
#: The interpreter's thread switch interval while the arcade runs (s; Python's default is 0.005).
SWITCH_INTERVAL_S = 0.001


class App:
    """The running arcade."""

    def __init__(self, cfg: Config, screen: pygame.Surface, args: argparse.Namespace) -> None:
        # The render loop shares the interpreter with helper threads (Sherlook's photos, the
        # LED link, the lamps, the worker's pump): a CPU-bound one holds the lock up to the
        # switch interval each time the frame needs it back.  1 ms instead of 5 ms keeps such a
        # wait shorter than a frame's own work.
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        i18n.use(cfg.language())                  # issue 26: [display] language, else the system's, before any frame
        log.info("%s", cfg.language_line())       # "language: uk (from the system locale)"
        render.reset_caches()
        render.tune_memory()                      # issue 23: freed pictures go back to the system
        self.warmup = Warmup()
        self.warmup.modules()
        self.cfg = cfg
        self.screen = screen
        render.fit_caches(screen.get_size())      # issue 23: the drawing caches sized for this screen
        self.args = args
        self.options = RunOptions.of(args)
        self.demo = self.options.command == "demo"
        #: demo: a party's interrupted game waits in the resume slot; the demo leaves it alone
        self.keep_resume_slot = False
        self.demo_game: LobbyGame | None = None   # demo: the game asked for (kiosk.players.demo.start_demo)
        self.demo_seats: int | None = None        # ... and its number of players
        self.stack = SceneStack(on_clear=lambda: self.computer.cancel())
        self.running = True
        self.messages = Messages(clock=lambda: time.monotonic())   # the notes on screen
        for problem in cfg.problems:              # the command line said them already
            self.messages.add(problem, 30, journal=False)
        self.queue = make_queue()
        self.frame = 0
        self.frame_times: list[float] = []
        self._parts_seen: tuple[object, ...] = ()
        self.sounds = Sounds()                    # made after the first frame (:meth:`Warmup.screens`)
        if self.sounds.problem:
            log.warning(self.sounds.problem)
        self.results = open_results(cfg.storage_path(), self.messages)
        self.event: EventLink | None = open_event(cfg, self.results, self.messages)   # with [event] (issue 15)
        self.event_status = EventStatus(clock=lambda: time.monotonic())
        self.led = LedOutput(cfg, self.message)
        self.led_badge = LedBadge()
        self.notifier = Notifier()
        self.gpio: GpioBuzzers | None = None      # the [gpio] buzzers and controls (issue 10)
        self.lamps: BuzzerLamps | None = None     # when [gpio] lamps has pins
        self.simulated: SimulatedPlayers | None = None   # the demo's players on mock pins
        if self.demo:
            self.simulated = simulated_players(cfg, self.queue)
        elif "gpio" in cfg["seats"]["stations"]:
            self.gpio, self.lamps = open_gpio(cfg, self.queue, self.message)
        from arcade.lights.lamps import LampMemory
        self.lamp_memory = LampMemory()
        self.input = StationInput(self.queue, clock=lambda: time.monotonic_ns(), message=self.message)
        self.computer = ComputerPresses(self.queue, self.simulated)
        self.screenshots = Screenshots(self.options.screenshot_dir, self.options.screenshot_every, self.message)
        self.current_game: LobbyGame | None = None   # the game being played (high scores, attract loop)
        self.highscore_table = HighScoreTable(lambda: self.results, self.message, clock=lambda: time.monotonic())
        self.pace_override: float | None = None   # demo --pace: seconds per table
        self.seed_override: int | None = None     # demo --seed: the first game's seed
        self.resume_plan: ResumePlan | None = None   # while a resumed game is built (kiosk/persist/resume.py)
        self.resume_offer = ResumeOffer(self)
        # -- the event appliance (issue 10) --
        self.kiosk_mode = bool(cfg["display"].get("kiosk", False))
        self.exit_code = 0                        # EXIT_RESTART / EXIT_STOP from the service menu
        self.service_door = ServiceDoor(cfg)
        self.attract: AttractLoop | None = None   # while the attract loop's demo games play
        self.attract_demo = False                 # a demo game of the attract loop is on screen
        from kiosk.players.away import AwayWatch
        self.idle = AwayWatch(self)
        self.sounds.set_volume(cfg.data.get("sound", {}).get("volume", 1.0))
        self.warmup.games()
        # What start-up made (modules, fonts, the store) lives all day: out of the collector's
        # sight, the full collection each return to the title makes (see :meth:`home`) looks
        # only at what came after: 0.1 ms instead of 15 ms of CPU here.  :meth:`close` gives
        # them back to it.
        gc.collect()
        gc.freeze()

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

    @property
    def highscores(self) -> HighScores | None:
        """The high-score table in the results file, or None (:meth:`HighScoreTable.get`)."""
        return self.highscore_table.get()

    def new_seed(self) -> int:
        """The seed for a new game: ``demo --seed`` for the first game, else a random one."""
        if self.seed_override is not None:
            seed, self.seed_override = self.seed_override, None
            return seed
        return int.from_bytes(os.urandom(4), "big") % 1_000_000_007

    def message(self, text: str, seconds: float = 12.0, topic: str = "") -> None:
        """Show a note on screen for a while, and in the journal (:meth:`Messages.add`)."""
        self.messages.add(text, seconds, topic)

    # -- scene stack -------------------------------------------------------------
    def push(self, scene: Scene) -> None:
        self.stack.push(scene)
        self.warmup.scene(scene, self.screen.get_size())

    def pop(self) -> None:
        self.stack.pop()

    def replace(self, scene: Scene) -> None:
        self.stack.replace(scene)
        self.warmup.scene(scene, self.screen.get_size())

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
            error = f"{type(exc).__name__}: {exc}"
            self.message(said._("The title screen failed ({error}); Enter opens the lobby.", error=error), 60)
            self.stack.scenes[:] = [PlainTitle(self)]

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
                self.messages.post(problem)
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
                error = f"{type(exc).__name__}: {exc}"
                self.message(said._("Something went wrong ({error}); back to the start.", error=error))
                self.resume_offer.keep_game()
                self.home()
                self.resume_offer.offer()
            self.frame_times.append((time.perf_counter() - start) * 1000)
            if len(self.frame_times) > 10000:
                del self.frame_times[:5000]
            self.frame += 1
            if self.frame == 1:
                self.warmup.screens(self.sounds)
            self.notifier.watchdog()
            if max_frames and self.frame >= max_frames:
                break
            clock.tick(fps)

    def step(self, now_ns: int) -> None:
        self.messages.take_posted()
        self.event_status.tick(self.event, self.scenes, self.led.status_text, self.messages)
        scene = self.scenes[-1]
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.quit_asked("the window's close")
                if not self.running:
                    return
                continue
            for command in self.input.handle(event):
                if command.name == "screenshot":
                    self.screenshots.asked_by_hand(command.source, self.scenes[-1] if self.scenes else None,
                                                   self.kiosk_mode)
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
                self.service_door.feed(edge, self.scenes[-1] if self.scenes else None, self.attract is not None)
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
        if self.service_door.held(now_ns):
            self.open_service()
        if self.attract is not None:
            self.attract.tick(now_ns)
        self.idle.tick(now_ns)
        self.scenes[-1].update(now_ns)
        self.screenshots.moments(now_ns, self.scenes[-1])
        self.draw()
        self.screenshots.save(self.screen)
        pygame.display.flip()
        # The flip's moment, never before the frame's own (the same clock in the arcade; a test's
        # virtual clock may run ahead of a machine up for minutes: the frame's moment then).
        shown = max(now_ns, time.monotonic_ns())
        self.scenes[-1].frame_shown(shown)      # races open at the flip
        top = self.scenes[-1]
        self.led.update(top.led_picture(shown), shown, idle=top.led_idle)
        if self.lamps is not None:            # pins change only when a seat's state changes
            from kiosk.output.buzzer_lamps import scene_pattern
            self.lamps.show(scene_pattern(top, self.lamp_memory, shown, len(self.lamps)))

    def accepts(self, scene: Scene, edge: Edge) -> bool:
        """Whether ``edge`` may reach ``scene`` (:func:`kiosk.app.stations.reaches`)."""
        return reaches(scene, edge, self.is_game(scene), self.gpio is not None)

    def station_accepts(self, station: str, edge: Edge) -> bool:
        """Whether a seat played from ``station`` takes ``edge`` (:func:`kiosk.app.stations.takes`)."""
        return takes(station, edge, self.gpio is not None)

    def draw(self) -> None:
        surface = self.screen
        drawn = self.stack.drawn()
        now = self.messages.clock()
        in_game = bool(self.scenes) and self.is_game(self.scenes[-1])
        # In a game the newest note goes in the game's own title strip, over its title line:
        # never over the cards, the seats or whose turn it is, and the game keeps its screen regions
        # (issue 20: a game laid out smaller while a note was up jumped at 1280x720).
        shown, notes = self.messages.frame(surface, in_game, now)
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
            render.text_block(surface, _("DEMO GAME  -  press your buzzer to play!"), band.center, band.w - 16, 38,
                              1, render.BG, "center", bold=True)
        if game is not None:
            self.messages.draw_game_note(surface, game.note_strip, shown[-1][0], now)
        self.messages.draw_band(surface, notes)
        self.led_badge.draw(surface, self.led.attention() if self.led is not None else None,
                            self.scenes[-1] if self.scenes else None)

    def screenshot(self, name: str) -> None:
        """A PNG of the next frame, with ``--screenshot-dir`` (:meth:`Screenshots.ask`)."""
        self.screenshots.ask(name)

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
