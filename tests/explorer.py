"""A buzzers-only explorer of the arcade: the real :class:`kiosk.app.loop.App` with the configuration
``kiosk/install.sh`` writes (four GPIO buzzers, no left/right/OK controls, kiosk mode), on
gpiozero MockFactory pins and a virtual clock, worked only with buzzer gestures.

Gestures (kiosk/controls/gestures.py): a **tap** (pressed 0.12 s), a **hold** (1.0 s), a **long hold**
(2.6 s), on one seat or on several at once.  Two ways of walking:

* :meth:`Explorer.goal` - for one registry entry: a buzzer on the attract loop joins, taps
  choose the game in the lobby, holds go to "Start" and start it, the game is played to its
  results with gestures, the initials are entered, a buzzer goes back to the title;
* :meth:`Explorer.monkey` - a seeded random player on every seat for some virtual minutes.

At every frame :class:`Checks` looks at what a guest would notice (see its methods): progress
(no screen waits on a person longer than its limit, a seat whose presses cannot act is
played by a computer), the text drawn (whole, inside its part, not over another line, no
ruling id), and on the results screen the game's own winning rule (``GameSpec.winning``).
A failure is an :class:`ExplorerFailure` whose text has the seed, the gesture trace and the
command that plays the same walk again::

    python -m tests.explorer --entry coop-base --seed 7 --size 800x480 [--monkey 120]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402
import tomli_w  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MS = 1_000_000
S = 1_000_000_000
TAP_NS, HOLD_NS, LONG_NS = 120 * MS, 1000 * MS, 2600 * MS
GESTURES = {"tap": TAP_NS, "hold": HOLD_NS, "long": LONG_NS}
SIZES = ((480, 320), (800, 480), (1280, 720), (1920, 1080))
#: A ruling id (R-3, FX-7, FXA-38, CO-4, SF-3, SL-3, SLA-1): for docs and logs, never on a player's screen.
RULING_ID = re.compile(r"\b(?:R|FXA?|CO|SF|SLA?)-\d+\b")
#: A control that ``kiosk/install.sh``'s cabinet (four buzzers, kiosk mode: no keyboard) does not
#: have, named as a control on a screen: "OK = ...", "X or ...", "press OK", "left/right", the
#: keyboard's keys (a claim shown as "P2 X", FocusX's focus-ex, is no control).
UNWIRED = re.compile(r"\b(?:OK|X|Enter)\s*(?:[=/:(]|or\b|to\b|again\b|next\b|back\b|keeps?\b|drops?\b"
                     r"|resumes?\b)|\b(?:[Pp]ress|[Ww]ith|or|and)\s+(?:OK|X|Enter)\b|\b[Ll]eft\s*/\s*[Rr]ight\b"
                     r"|\bEsc\b|\bBackspace\b")
#: ... except where it is no control: the Change-the-PIN page's choice after 9 ("**OK": done;
#: "after 9 comes OK").
NOT_A_CONTROL = re.compile(r"^\**OK$|\bcomes OK\b")


#: Walks that found a defect (entry, seed, size, frame ms, text every N frames), fixed since:
#: the long mode (bench/bench_explorer.py) plays each again before exploring.
REPLAYS: tuple[tuple[str, int, tuple[int, int], int, int], ...] = (
    ("coop-base", 1, (800, 480), 20, 5),                 # Focus (2023) stood still under a buzzer
    ("focusx-thinkfocus", 1, (1280, 720), 20, 5),         # the hand's "no choose controls" line cut
    ("focusx-4focus-x", 1, (1920, 1080), 20, 5),
    ("focus-3p", 1, (800, 480), 20, 5),                   # "How many?" boxes past the turn panel
    ("crossfire", 1, (480, 320), 20, 5),                  # the compact move line squeezed to half
    ("focusx-classic", 1, (800, 480), 50, 10),            # results: seat numbers over the stations
    ("focusx-thinkfocus-x", 5, (480, 320), 50, 10),       # race panel titles squeezed on one row
    ("focusx-4focus-x", 9, (480, 320), 50, 10),           # results: statistics squeezed to half
    ("sherlook", 15, (1280, 720), 50, 10),                # claims drawn under the countdown
    ("coop-mycroft-sherlock", 19, (1280, 720), 50, 10),   # results: a long title off the screen
    ("focus-4p-teams", 13, (480, 320), 50, 10),           # a two-message banner squeezed to a third
    ("focusx-duel-x", 5200, (480, 320), 100, 20),         # Duel's "then:" line drawn right of the first
    ("focusx-4focus-x", 12153, (480, 320), 100, 20),     # the race panel's "ignored" squeezed to 59 %
    ("focusx-4focus-x", 12179, (480, 320), 100, 20),     # a banner over the strip's "turn start: 1.0 s"
    ("coop-mycroft-sherlock", 1004, (480, 320), 50, 10),  # the title's recent games: a long reason off both edges
    ("sherlook", 1000, (480, 320), 50, 10),               # seat boxes: the station off the screen, "P1", marker, points piled up
    ("sherlook", 1908, (480, 320), 50, 10),               # the pose's name on two 28 px lines over marker 1
)
#: Monkeys that found a defect (start, seed, size, frame ms, text every, seconds).
MONKEY_REPLAYS: tuple[tuple[str, int, tuple[int, int], int, int, float], ...] = (
    ("focusx-duel", 7003, (1920, 1080), 100, 20, 180),    # "28 penalty cards" over the initials
    ("coop-mycroft", 1003, (1920, 1080), 50, 10, 180),   # a guest tapping past a lifted card is playing (badly)
    ("coop-mycroft", 1009, (800, 480), 50, 10, 180),     # on to a Duel: "NOW" left of the leftmost pile, off the screen
    ("coop-base", 11315, (1920, 1080), 100, 20, 180),    # away counted from a long hold's press, not its release
    ("focus-4p-teams", 13001, (800, 480), 100, 20, 180),  # "P1  team P1+P3" under "GPIO 17"
    ("focusx-4focus-x", 1703, (1920, 1080), 50, 10, 180),  # "RELEASE your buzzer" off a narrow seat panel
    ("focus-4p", 1405, (800, 480), 50, 10, 180),          # a guest picking a stack and stepping back is playing
    ("focusx-classic-x", 1109, (800, 480), 50, 10, 180),  # on to a Duel: a raced pile's gold frame over "penalty 0"
    ("focusx-duel", 1405, (800, 480), 50, 10, 180),      # the explorer's own model: a game's guests kept for the next lobby
)


class ExplorerFailure(AssertionError):
    """An invariant broke: the message says which, with the seed, the trace and the replay command."""


def install_config(tmp: Path, fast: bool = True, **extra: dict[str, Any]) -> Path:
    """The configuration ``kiosk/install.sh`` writes (its ``sed`` lines applied to
    ``kiosk/default.toml``), with the pins on gpiozero's MockFactory, the results in ``tmp``,
    no LED link (the installer's "auto" would look for a controller on this machine's USB) and,
    with ``fast``, the games' pacing shortened (their rules and every limit a guest waits on
    unchanged).  ``extra``: more settings, by table."""
    import tomllib
    script = (ROOT / "kiosk" / "install.sh").read_text()
    body = script[script.index("focus_arcade_first_config()"):]
    body = body[:body.index('"$repo/kiosk/default.toml"')]
    text = (ROOT / "kiosk" / "default.toml").read_text()
    for pattern, repl in re.findall(r"-e 's/(.*?)/(.*?)/'", body):
        text = re.sub("(?m)" + pattern, repl, text)         # these basic sed patterns read the same in re
    raw = tomllib.loads(text)
    assert raw["display"]["kiosk"] is True and raw["seats"]["stations"] == ["gpio"] * 4, "install.sh changed"
    assert raw["gpio"]["controls"] == [] and raw["service"]["combo"] == ["P1.buzzer", "P2.buzzer"]
    raw["gpio"]["pin_factory"] = "mock"
    raw["led"]["port"] = "none"
    raw["storage"]["path"] = str(tmp / "arcade.sqlite3")
    raw["display"]["fullscreen"] = False
    if fast:
        raw["focusx"].update({"pace_s": 0.5, "claim_window_s": 1.5})
        raw["sackson"].update({"budget_s": 0.05, "move_pause_s": 0.0})
        raw["sherlook"].update({"round_limit_s": 8, "reveal_s": 1.0, "token_s": 0.0, "step_ms": 400,
                                "countdown_step_ms": 300, "countdown_s": 1.0})
        raw["coop"].update({"think_s": 0.1, "peek_delay_s": 0.2})
        raw["attract"].update({"idle_s": 5, "demo_s": 10, "scores_s": 3})
        raw["idle"]["turn_s"] = 10
        raw["lobby"]["auto_start_s"] = 4
    for k, v in extra.items():
        raw.setdefault(k, {}).update(v)
    path = tmp / "arcade.toml"
    path.write_bytes(tomli_w.dumps(raw).encode())
    return path


class Clock:
    def __init__(self) -> None:
        self.t = 5_000 * S

    def module(self) -> Any:
        import time as real
        return types.SimpleNamespace(monotonic_ns=lambda: self.t, monotonic=lambda: self.t / 1e9,
                                     perf_counter=real.perf_counter, time=real.time, sleep=real.sleep)


@dataclass
class Trace:
    """The gestures made, as ``(t s, seats, gesture)``, and the walk's replay command."""

    seed: int
    command: str
    steps: list[tuple[float, tuple[int, ...], str]] = field(default_factory=list)

    def text(self, last: int = 40) -> str:
        lines = [f"  {t:8.2f} s  {'+'.join(f'P{s + 1}' for s in seats):8} {g}" for t, seats, g in self.steps[-last:]]
        more = f"  ... {len(self.steps) - last} earlier gestures\n" if len(self.steps) > last else ""
        return f"seed {self.seed}, {len(self.steps)} gestures:\n{more}" + "\n".join(lines) + \
            f"\nreplay: {self.command}"


class Explorer:
    """The app on a virtual clock and MockFactory pins, worked with buzzer gestures only.

    Args:
        tmp: a folder for the configuration and the results file.
        seed: the walk's seed (the games' seeds and the monkey's choices come from it).
        size: the screen (w, h) px.
        check_text: every this many frames the text drawn is checked (0: never; the other
            frames are not drawn, which keeps the fast mode cheap).
        command: the replay command printed with a failure.
        frame_ms: the virtual time between two frames (the kiosk's are 16.7 ms; longer ones
            walk further for the same work, presses still stamped by the pins' clock).
    """

    def __init__(self, tmp: Path, seed: int = 1, size: tuple[int, int] = (800, 480), check_text: int = 5,
                 fast: bool = True, command: str = "", frame_ms: int = 20, **extra: dict[str, Any]) -> None:
        from kiosk.config import load_or_default
        self.mp = pytest.MonkeyPatch()
        self.clock = Clock()
        import gpiozero.pins.mock as mock

        import kiosk.app.loop as kapp
        self.mp.setattr(kapp, "time", self.clock.module())
        self.mp.setattr(mock, "monotonic", lambda: self.clock.t / 1e9)
        pygame.init()
        self.screen = pygame.display.set_mode(size)
        self.cfg = load_or_default(install_config(tmp, fast, **extra))
        assert self.cfg.problems == [], self.cfg.problems
        self.rng = random.Random(seed)
        self.trace = Trace(seed, command or f"python -m tests.explorer --seed {seed} --size {size[0]}x{size[1]} "
                                            f"--text-every {check_text} --frame-ms {frame_ms}")
        from tests.text_fit import TextSeen
        self.seen = TextSeen(self.mp)
        self.seen.watch(self.screen)
        self.game_seeds = random.Random(f"{seed}-games")
        self.pins = list(self.cfg["gpio"]["buzzers"])
        self.seats = len(self.cfg["seats"]["stations"])
        self.check_text = check_text
        self.frame_ns = frame_ms * MS
        self.frames_run = 0
        self.checks = Checks(self)
        self.held: dict[int, int] = {}          # seat -> release time (ns)
        self.scene_lines = -1                   # how many of the lines seen the screen drew itself
        self._draw_now = True
        self._open_app()

    def _open_app(self) -> None:
        """The arcade on this explorer's configuration, screen and pins, its drawing and the
        presses it takes watched by :class:`Checks`."""
        import kiosk.app.loop as kapp
        self.app = kapp.App(self.cfg, self.screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))
        game_seeds = self.game_seeds
        self.app.new_seed = lambda: game_seeds.randrange(1_000_000_007)  # type: ignore[method-assign]
        self.app.run_command = lambda *a, **k: None  # type: ignore[method-assign]  # never a real poweroff
        assert self.app.gpio is not None, "the GPIO buzzers did not open on the mock pins"
        self.factory = self.app.gpio._factory
        real_draw = self.app.draw

        def draw() -> None:
            if self._draw_now:
                from kiosk import render
                self.seen.seen.clear()
                self.scene_lines = -1
                render.redraw_everything()       # every part drawn again: every line is seen
                drawn = self.app.stack.drawn()
                top = drawn[-1] if drawn else None
                if len(drawn) == 1 and top is not None:
                    # the lines of the screen itself end where its dialogs and the app's notes begin
                    overlay = top.draw_overlay

                    def mark(surface: pygame.Surface) -> None:
                        self.scene_lines = len(self.seen.seen)
                        overlay(surface)
                    top.draw_overlay = mark  # type: ignore[method-assign]
                    try:
                        real_draw()
                    finally:
                        del top.draw_overlay
                else:
                    real_draw()
        self.app.draw = draw  # type: ignore[method-assign]
        real_accepts = self.app.accepts

        def accepts(scene: Any, edge: Any) -> bool:
            ok = real_accepts(scene, edge)
            if edge.source == "gpio":
                self.checks.press_seen(edge.seat, ok, edge.pressed)
            return ok
        self.app.accepts = accepts  # type: ignore[method-assign]
        pygame.event.clear()

    # -- time and pins ------------------------------------------------------------------
    @property
    def top(self) -> Any:
        return self.app.scenes[-1]

    def frame(self) -> None:
        """One frame: due releases, the app's step (drawn and checked every ``check_text`` frames)."""
        from kiosk.players.thinker import wait_shared_idle
        for seat, at in list(self.held.items()):
            if at <= self.clock.t:
                self.factory.pin(self.pins[seat]).drive_high()
                del self.held[seat]
        if not wait_shared_idle(300):      # the virtual clock never outruns the thinking worker
            self.fail("the thinking worker gave no answer in 300 s of real time: this machine is too busy "
                      "for the walk's virtual clock (no screen of the arcade stood still)")
        photos = getattr(self.app.scenes[-1], "next_round", None) if self.app.scenes else None
        if photos is not None and photos[1].is_alive():
            photos[1].join(60)             # ... nor Sherlook's photo worker (a busy machine: the same walk)
        self.frames_run += 1
        self._draw_now = bool(self.check_text) and self.frames_run % self.check_text == 0
        self.app.step(self.clock.t)
        self.checks.after_frame(drawn=self._draw_now)
        self.clock.t += self.frame_ns

    def run(self, seconds: float, until: Callable[[], bool] | None = None) -> bool:
        end = self.clock.t + int(seconds * S)
        while self.clock.t < end:
            if until is not None and until():
                return True
            self.frame()
        return until() if until is not None else True

    def gesture(self, seats: tuple[int, ...] | int, kind: str, wait: bool = True) -> None:
        """Press the buzzers of ``seats`` together for a ``kind`` gesture (tap, hold, long);
        with ``wait`` the frames run until they are released and a moment after."""
        seats = (seats,) if isinstance(seats, int) else seats
        self.trace.steps.append((self.clock.t / 1e9 - 5000, seats, kind))
        self.checks.intend(seats, kind)
        hold_ns = int(float(self.cfg["service"]["hold_s"]) * S) + 400 * MS if kind == "combo" else GESTURES[kind]
        for s in seats:
            if s in self.held:
                continue
            self.factory.pin(self.pins[s]).drive_low()
            self.held[s] = self.clock.t + hold_ns
        if wait:
            while self.held:
                self.frame()
            self.run(0.1)

    def fail(self, what: str) -> None:
        raise ExplorerFailure(f"{what}\n  on screen: {type(self.top).__name__}\n{self.trace.text()}")

    def close(self) -> None:
        try:
            self.app.close()
        finally:
            self.mp.undo()
            pygame.display.quit()

    def power_cut(self) -> None:
        """The power goes in the middle of whatever is on screen, and comes back: no scene's
        way out runs (the game in the results file's resume slot stays as it was), a new
        arcade starts on the same configuration and results file, shows the title and offers
        an interrupted game, as ``focus-arcade kiosk`` does at start."""
        self.trace.steps.append((self.clock.t / 1e9 - 5000, (), "power cut, restart"))
        for s in list(self.held):
            self.factory.pin(self.pins[s]).drive_high()
        self.held.clear()
        old = self.app
        old.stack.scenes.clear()                # nothing of the old screens runs
        old.close()
        self.checks.last_press.clear()
        self.checks.last_edge.clear()
        self._open_app()
        self.app.home()
        self.app.resume_offer.offer()
        self.run(0.2)

    # -- walks ----------------------------------------------------------------------------
    def to_attract(self) -> None:
        from kiosk.scenes.attract import AttractScene
        self.app.home()
        self.run(0.2)
        if not isinstance(self.top, AttractScene):
            self.fail("the title screen did not come")

    def choose_in_lobby(self, entry: str, players: int | None = None, seat: int = 0,
                        also: tuple[int, ...] = ()) -> None:
        """From the attract loop: ``seat``'s tap joins (then the taps of the seats ``also``),
        taps choose ``entry``, a hold moves to the players' row, taps set ``players``, holds go
        down to "Start", a hold starts."""
        from kiosk.scenes.lobby import LobbyScene
        self.gesture(seat, "tap")
        lobby = self.top
        if not isinstance(lobby, LobbyScene):
            self.fail("a buzzer on the title screen did not open the lobby")
        for other in also:
            self.gesture(other, "tap")
            if other not in lobby.joined:
                self.fail(f"P{other + 1}'s tap in the lobby did not join")
        for _ in range(len(lobby.games) + 1):
            if lobby.games[lobby.game_i].name == entry:
                break
            self.gesture(seat, "tap")
        else:
            self.fail(f"the lobby's taps never showed {entry}")
        self.gesture(seat, "hold")
        if players is not None:
            for _ in range(10):
                if lobby.players == players:
                    break
                self.gesture(seat, "tap")
            else:
                self.fail(f"the players' row never showed {players} (it shows {lobby.players})")
        while self.top is lobby and lobby.row != lobby.start_row:
            self.gesture(seat, "hold")
        if self.top is lobby:
            self.gesture(seat, "hold")
        if not self.app.is_game(self.top):
            self.fail(f"the lobby's Start did not start {entry}")

    def own_row_taps(self, entry: str = "focus-2p", taps: int = 3) -> Any:
        """P1 and P2 join, P1 goes down to their own seat row and taps on it ``taps`` times,
        then nobody presses and the countdown starts the game (as the newcomer's guests did):
        every joined seat plays at its buzzer (the game-start check,
        :meth:`Checks._joined_play`).  Returns the game."""
        from kiosk.scenes.lobby import LobbyScene
        self.to_attract()
        self.gesture(0, "tap")
        self.gesture(1, "tap")
        lobby = self.top
        if not isinstance(lobby, LobbyScene):
            self.fail("a buzzer on the title screen did not open the lobby")
        while lobby.games[lobby.game_i].name != entry:
            self.gesture(0, "tap")
        while self.top is lobby and lobby.row != 3:
            self.gesture(0, "hold")
        for _ in range(taps):
            self.gesture(0, "tap")
        self.run(float(self.cfg["lobby"]["auto_start_s"]) + 2, until=lambda: self.top is not lobby)
        if not self.app.is_game(self.top):
            self.fail(f"the lobby's Start did not start {entry} (on screen: {type(self.top).__name__})")
        return self.top

    def play(self, seats: tuple[int, ...] = (0,), limit_s: float = 900) -> Any:
        """Play the game on screen to its results: the ``seats`` make gestures (a hold when it is
        their turn, a tap now and then, the buzzer at once when a race opens); returns the
        results screen."""
        from kiosk.scenes.results import ResultsScene
        game = self.top
        end = self.clock.t + int(limit_s * S)
        while self.clock.t < end:
            top = self.top
            if isinstance(top, ResultsScene):
                return top
            if top is not game:
                self.fail(f"the game left for {type(top).__name__} before its results")
            seat = self._whose_turn(top, seats)
            if seat is not None:
                self.gesture(seat, self.rng.choice(("hold", "hold", "tap")))
                continue
            self.frame()
        self.fail(f"{getattr(game, 'entry', game)} did not reach its results in {limit_s:.0f} virtual s")

    def _whose_turn(self, scene: Any, seats: tuple[int, ...]) -> int | None:
        """A seat of ``seats`` the game waits on now (its turn, or a race it may press in)."""
        if getattr(scene, "setup", False):
            return seats[0]                                  # Focus (2023)'s case choice: a hold starts
        st = getattr(scene, "state", None)
        if st is None or st.is_terminal() or getattr(scene, "over_at", None) is not None:
            return None
        w = getattr(getattr(scene, "referee", None), "window", None)
        if w is not None and getattr(w, "opened_ns", None) is not None:
            mine = [s for s in seats if s in getattr(w.spec, "eligible", ())]
            if mine and w.race_no != getattr(self, "_pressed_race", None) and st.race_spec().valid_kinds:
                self._pressed_race = w.race_no
                self.gesture(mine[0], "tap", wait=False)
            return None
        markers = getattr(getattr(scene, "referee", None), "current", None)
        race = markers() if callable(markers) and getattr(scene, "phase", None) == "race" else None
        if race is not None and getattr(race, "opened_ns", None) is not None:
            # Sherlook: everyone races for a marker; a guest's press takes the one lit, once a
            # round, after looking for a moment (a press on a marker taken just before: again)
            mine = [s for s in seats if s in race.waiting()]
            key = (id(race), tuple(mine))
            if mine and getattr(self, "_marker_race", None) != key:
                self._marker_race, self._marker_at = key, self.clock.t + int(self.rng.uniform(0.3, 3.0) * S)
            if mine and self.clock.t >= self._marker_at:
                self._marker_at = self.clock.t + S
                self.gesture(mine[0], "tap", wait=False)
            return None
        try:
            cp = st.current_player()
        except Exception:
            return None
        infos = scene.seats
        if isinstance(cp, int) and cp in seats and 0 <= cp < len(infos) and not infos[cp].is_computer:
            return cp
        if getattr(st, "phase", "") == "point":
            pointing = [s for s in seats if s not in st.points and s < len(infos) and not infos[s].is_computer]
            return pointing[0] if pointing else None
        return None

    def initials(self, results: Any) -> None:
        """Enter every initials entry of the results screen with gestures (taps and holds)."""
        for _ in range(60):
            todo = [e for e in results.entries if not e.done]
            if not todo:
                return
            e = todo[0]
            self.gesture(e.seat, self.rng.choice(("tap", "hold")))
        self.fail("the initials were not finished after 60 gestures")

    def back_to_attract(self, results: Any) -> None:
        from kiosk.scenes.attract import AttractScene
        self.run(2.2)
        self.gesture(0, "tap")
        if not isinstance(self.top, AttractScene):
            self.fail("a buzzer on the results screen did not go back to the title")

    def goal(self, entry: str, players: int | None = None) -> Any:
        """One registry entry from the attract loop to its results, the initials and back;
        returns the results screen."""
        if "--entry" not in self.trace.command:
            self.trace.command += f" --entry {entry}"
        self.to_attract()
        self.choose_in_lobby(entry, players)
        results = self.play(seats=(0,))
        self.checks.results(results)
        self.initials(results)
        self.checks.high_scores(results)
        self.back_to_attract(results)
        return results

    def everyone_leaves(self, entry: str) -> None:
        """P1 and P2 join and start ``entry``, play a little, then nobody presses again: the game
        must be put away and the title come back once every person's seat has been quiet for
        the game's ``empty_room_ns`` (kiosk/players/away.py), not play on for an empty room."""
        from kiosk.scenes.attract import AttractScene
        if "--leave" not in self.trace.command:
            self.trace.command += f" --leave {entry}"
        self.to_attract()
        self.choose_in_lobby(entry, also=(1,))
        game = self.top
        if getattr(game, "setup", False):
            self.gesture(0, "hold")                       # Focus (2023): the case shown
        self.monkey(self.rng.uniform(2.0, 8.0), seats=(0, 1))
        if self.top is not game:
            return                                        # it ended already (a short game)
        limit = game.empty_room_ns(int(float(self.cfg["idle"]["turn_s"]) * S))
        self.trace.steps.append((self.clock.t / 1e9 - 5000, (), "everyone leaves"))
        self.run(limit / S + 10, until=lambda: self.top is not game)
        from kiosk.scenes import results as kresults
        if isinstance(self.top, kresults.ResultsScene):
            # the computers playing for the away seats finished the game first: its results
            # wait for initials at most ENTRY_NS, then stay STAY_NS (kiosk/scenes/results.py)
            shown = self.top
            wait = (kresults.ENTRY_NS + kresults.STAY_NS) / S + 10
            self.run(wait, until=lambda: self.top is not shown)
            limit += int(wait * S)
        if not isinstance(self.top, AttractScene):
            self.fail(f"{entry}: everyone left, yet {type(self.top).__name__} is on screen "
                      f"{limit / S + 10:.0f} s later")
        self.checks.ok("progress: an empty room ends the game")

    # -- the ways back: every screen a guest reaches has a buzzer way out ---------------------------
    def at_title(self) -> bool:
        """Whether the title screen is shown, or the attract loop it starts when nobody presses."""
        from kiosk.scenes.attract import AttractScene
        return (isinstance(self.top, AttractScene) and len(self.app.scenes) == 1) or \
            self.app.attract is not None

    def interrupted(self, entry: str, steps: int = 2) -> dict[str, Any]:
        """P1 starts ``entry`` and plays it until ``steps`` steps are saved, then the power goes
        and comes back (:meth:`power_cut`): the offer of the interrupted game must be on screen,
        over the title.  Returns the saved game (the results file's resume slot)."""
        from kiosk.persist.resume import ResumeScene
        from kiosk.scenes.attract import AttractScene
        self.to_attract()
        self.choose_in_lobby(entry)
        game = self.top
        end = self.clock.t + 300 * S
        while self.clock.t < end and len(getattr(getattr(game, "state", None), "history", ())) < steps:
            if self.top is not game:
                self.fail(f"{entry} ended before {steps} steps were played")
            seat = self._whose_turn(game, (0,))
            if seat is not None:
                self.gesture(seat, self.rng.choice(("hold", "hold", "tap")))
            else:
                self.frame()
        saved = self.app.results.load_resume()
        if saved is None or saved.get("steps", 0) < steps:
            self.fail(f"{entry}: the game in progress was not saved for a restart ({saved and saved.get('steps')})")
        self.power_cut()
        if not isinstance(self.top, ResumeScene) or not isinstance(self.app.scenes[-2], AttractScene):
            self.fail("after a power cut in a game the title did not offer the interrupted game")
        self.frame()
        self._draw_now = bool(self.check_text)          # its words checked at once (the frames after too)
        if self._draw_now:
            self.app.draw()
            self.checks.text()
        return saved

    def resume_walk(self, entry: str, how: str) -> None:
        """The offer of an interrupted game of ``entry`` (:meth:`interrupted`), answered with
        buzzer gestures: ``resume`` (a hold on the highlighted Resume), ``drop`` (a long hold:
        the way back), ``choose-drop`` (a tap to "Drop it", a hold takes it) or ``wait`` (nobody
        answers: it resumes by itself, ``AUTO_RESUME_NS`` later).  Resumed: the same game at
        its saved step; dropped: the title, and no offer at the next start."""
        from kiosk.persist.resume import AUTO_RESUME_NS, ResumeScene
        from kiosk.scenes.attract import AttractScene
        if "--resume" not in self.trace.command:
            self.trace.command += f" --resume {entry}:{how}"
        saved = self.interrupted(entry)
        offer = self.top
        if how == "resume":
            self.gesture(0, "hold")
        elif how == "drop":
            self.gesture(0, "long")
        elif how == "choose-drop":
            self.gesture(2, "tap")
            if not isinstance(self.top, ResumeScene):
                self.fail("a tap on the offer of the interrupted game took a choice (a tap only moves)")
            self.gesture(2, "hold")
        elif how == "wait":
            self.run(AUTO_RESUME_NS / S + 1, until=lambda: self.top is not offer)
        else:
            raise ValueError(how)
        if how in ("resume", "wait"):
            top = self.top
            if not self.app.is_game(top) or getattr(top, "game_key", None) != saved["game_key"]:
                self.fail(f"{how}: the interrupted game did not come back ({type(top).__name__} is shown)")
            # At its saved step, or past it with the saved steps as its first ones: a computer
            # seat may move in the frames of the gesture's release (seed 2102, focus-4p).
            if len(top.state.history) < saved["steps"]:
                self.fail(f"the resumed game is at step {len(top.state.history)}, it was saved at {saved['steps']}")
            now = self.app.results.load_resume()
            if now is None or now["actions"][:len(saved["actions"])] != saved["actions"]:
                self.fail("the resumed game did not go on from the saved steps (its resume slot does not "
                          "begin with them)")
            self.checks.ok(f"way out: the interrupted game resumed ({how})")
            return
        if not isinstance(self.top, AttractScene) or len(self.app.scenes) != 1:
            self.fail(f"{how}: the offer of the interrupted game did not go back to the title")
        if self.app.results.load_resume() is not None:
            self.fail(f"{how}: the dropped game is still in the resume slot (offered again at the next start)")
        self.power_cut()
        if not isinstance(self.top, AttractScene):
            self.fail(f"after a drop the next start showed {type(self.top).__name__}, not the title")
        self.checks.ok(f"way out: the interrupted game dropped ({how})")

    def lobby_back(self) -> None:
        """The lobby's way out with buzzers alone (issue 20: there was none): P1 and P2 join;
        P2's long hold un-joins P2, the lobby stays; P1 goes down to "Start" and long-holds there:
        no game starts (a long hold never does first what a hold does), P1 leaves, nobody is
        left and the title comes back."""
        from kiosk.scenes.attract import AttractScene
        from kiosk.scenes.lobby import LobbyScene
        if "--lobby-back" not in self.trace.command:
            self.trace.command += " --lobby-back"
        self.to_attract()
        self.gesture(0, "tap")
        lobby = self.top
        if not isinstance(lobby, LobbyScene):
            self.fail("a buzzer on the title screen did not open the lobby")
        self.gesture(1, "tap")
        if sorted(lobby.joined) != [0, 1]:
            self.fail(f"P1 and P2 did not both join the lobby ({sorted(lobby.joined)})")
        self.gesture(1, "long")
        if self.top is not lobby or 1 in lobby.joined or 0 not in lobby.joined:
            self.fail(f"P2's long hold in the lobby did not un-join P2 alone (joined: {sorted(lobby.joined)}, "
                      f"on screen: {type(self.top).__name__})")
        for _ in range(lobby._rows()):
            if self.top is not lobby or lobby.row == lobby.start_row:
                break
            self.gesture(0, "hold")
        if self.top is not lobby or lobby.row != lobby.start_row:
            self.fail("holds did not reach the lobby's Start")
        self.gesture(0, "long")
        if self.app.is_game(self.top):
            self.fail("a long hold on the lobby's Start started the game (it is the way back)")
        if not isinstance(self.top, AttractScene):
            self.fail(f"the last seat's long hold in the lobby did not go back to the title "
                      f"({type(self.top).__name__} is shown)")
        self.checks.ok("way out: the lobby's long hold")

    def language_row(self, code: str = "uk") -> None:
        """The lobby's language row with buzzers alone (issue 26): P1 joins, holds go down to
        the row (after the seats), taps step through the languages (each shown by its own
        name) until ``code`` is spoken, and the very next frame draws the lobby in it; a hold
        leaves the row for Start, a long hold leaves the lobby, and the title comes back still
        speaking ``code`` (a game night's choice lasts until the next start)."""
        from arcade import i18n
        from kiosk.scenes.attract import AttractScene
        from kiosk.scenes.lobby import LobbyScene
        from tests.text_fit import compiled
        compiled(code)
        if "--language-row" not in self.trace.command:
            self.trace.command += f" --language-row {code}"
        self.to_attract()
        self.gesture(0, "tap")
        lobby = self.top
        if not isinstance(lobby, LobbyScene):
            self.fail("a buzzer on the title screen did not open the lobby")
        for _ in range(lobby._rows()):
            if self.top is not lobby or lobby.row == lobby.language_row:
                break
            self.gesture(0, "hold")
        if self.top is not lobby or lobby.row != lobby.language_row:
            self.fail("holds did not reach the lobby's language row")
        name = i18n.LANGUAGES[code]
        for _ in range(len(i18n.LANGUAGES)):
            if i18n.current() == code:
                break
            self.gesture(0, "tap")
        if i18n.current() != code:
            self.fail(f"taps on the language row never chose {name} ({i18n.current()} is spoken)")
        row = dict(lobby.row_texts())
        if f"< {name} >" not in row.values() or i18n._("Lobby") == "Lobby" and code != i18n.SOURCE:
            self.fail(f"the language row does not show {name} in its own name, or {code} has no catalog: {row}")
        self._draw_now = True
        self.app.draw()
        drawn = {m for m, *_ in self.seen.seen}
        if i18n._("Lobby") not in drawn:
            self.fail(f"the frame after choosing {name} was not drawn in it: {sorted(drawn)}")
        self.checks.text()
        self.gesture(0, "hold")
        if self.top is not lobby or lobby.row != lobby.start_row:
            self.fail("a hold on the language row did not go on to Start")
        self.gesture(0, "long")
        if not isinstance(self.top, AttractScene):
            self.fail(f"P1's long hold on Start did not leave the lobby for the title ({type(self.top).__name__})")
        if i18n.current() != code:
            self.fail(f"the title came back in {i18n.current()}, not the night's {code}")
        self.run(0.5)
        self.checks.ok(f"lobby: the language row ({code})")

    def pin_ways_out(self) -> None:
        """The PIN screen left without the menu, with buzzers alone: a long hold (given up) and
        nobody answering (its time-out) go back to the title screen; the lobby the combination
        opened under it (P1 and P2 joined by the operator's own presses) never starts a game
        nobody asked for (issue 20)."""
        from kiosk.scenes.service.pin import PIN_TIMEOUT_NS, PinScene
        if "--pin-out" not in self.trace.command:
            self.trace.command += " --pin-out"
        for how in ("long", "time-out"):
            self.to_attract()
            self.gesture((0, 1), "combo")
            pin = self.top
            if not isinstance(pin, PinScene):
                self.fail("P1's and P2's buzzers held together did not ask for the PIN")
            if how == "long":
                self.gesture(0, "long")
            else:
                self.run(PIN_TIMEOUT_NS / S + 2, until=lambda: not isinstance(self.top, PinScene))
            self.run(float(self.cfg["lobby"]["auto_start_s"]) + 2)
            if not self.at_title():
                self.fail(f"the PIN screen left by {how} led to {type(self.top).__name__}, not the title "
                          f"({[type(x).__name__ for x in self.app.scenes]})")
            self.checks.ok(f"way out: the PIN screen ({how})")

    def ways_out(self, entry: str = "focus-2p") -> None:
        """Every screen a guest reaches has a buzzer way back: the lobby's long hold, the PIN
        screen's long hold and time-out, and the interrupted game's offer (dropped with a long
        hold, or with a tap and a hold; resumed with a hold, or by itself)."""
        self.lobby_back()
        self.pin_ways_out()
        for how in ("drop", "resume", "choose-drop", "wait"):
            self.resume_walk(entry, how)

    # -- the service menu, with buzzers alone --------------------------------------------------
    def open_service(self, pin: str) -> Any:
        """From the title screen: P1's and P2's buzzers held together (``[service] combo``),
        the PIN with P1's buzzer (a tap a step of each digit, a hold takes it); returns the menu."""
        from kiosk.scenes.service.menu import ServiceScene
        from kiosk.scenes.service.pin import PinScene
        self.to_attract()
        self.gesture((0, 1), "combo")
        if not isinstance(self.top, PinScene):
            self.fail("P1's and P2's buzzers held together did not ask for the PIN")
        self.enter_pin(pin)
        if not isinstance(self.top, ServiceScene):
            self.fail(f"the PIN {pin} did not open the service menu")
        return self.top

    def enter_pin(self, pin: str) -> None:
        for digit in pin:
            for _ in range(int(digit)):
                self.gesture(0, "tap")
            self.gesture(0, "hold")

    def _row(self, svc: Any, i: int) -> None:
        """Taps move the highlight down to row ``i`` (round from the last to the first)."""
        n = len(svc.rows())
        for _ in range(n + 1):
            if svc.cursor == i:
                return
            before = svc.cursor
            self.gesture(0, "tap")
            if svc.cursor != (before + 1) % n:
                self.fail(f"a tap on the service page {svc.page!r} moved the highlight from {before} to {svc.cursor}")
        self.fail(f"taps never reached row {i} of the service page {svc.page!r}")

    def _menu(self, svc: Any, what: str) -> None:
        """On the menu, ``what``'s row, chosen with a hold."""
        from kiosk.scenes.service.rows import MENU
        if svc.page != "menu":
            self.fail(f"the service menu was expected, {svc.page!r} is shown")
        self._row(svc, [k for k, _ in MENU].index(what))
        self.gesture(0, "hold")

    def _left(self, svc: Any, how: str) -> None:
        if self.top is not svc or svc.page != "menu":
            self.fail(f"{how} did not lead back to the service menu (on {svc.page!r})")
        self.checks.ok("service: a page left")

    def _both_ways(self, svc: Any, setting: Any, end_taps: int = 40) -> None:
        """The value being changed, with taps (quick ones, as an operator taps) and a hold that
        turns round: it goes up and down, reaches both ends of its range (every choice of a
        choice setting) in at most ``end_taps`` taps each, and a long hold keeps it."""
        k = (setting.section, setting.key)
        check = setting.checker()
        choices = getattr(check, "choices", None)
        if choices:
            seen = {svc.values[k]}
            for _ in range(len(choices)):
                self.gesture(0, "tap")
                seen.add(svc.values[k])
            if seen != set(choices):
                self.fail(f"taps on {setting.label!r} showed {sorted(seen)}, not every choice {choices}")
        else:
            up = down = False
            for end in (check.high, check.low):
                for _ in range(end_taps):
                    before = svc.values[k]
                    self.gesture(0, "tap")
                    up |= svc.values[k] > before
                    down |= svc.values[k] < before
                    if svc.values[k] == end:
                        break
                else:
                    self.fail(f"{setting.label!r} did not reach {setting.show(end)} in {end_taps} taps "
                              f"(it shows {setting.show(svc.values[k])})")
            before = svc.values[k]
            self.gesture(0, "hold")                  # turn round: up from the low end
            self.gesture(0, "tap")
            up |= svc.values[k] > before
            if not (up and down):
                self.fail(f"{setting.label!r} can be {'lowered' if up else 'raised'} only")
        self.gesture(0, "long")
        if svc.editing:
            self.fail(f"a long hold did not keep the value of {setting.label!r}")
        self.checks.ok("service: a setting raised and lowered")

    def _language(self, svc: Any, code: str) -> None:
        """On the settings page: the "Language" row changed to ``code`` with taps (a hold starts,
        a long hold keeps it), saved with a hold on "Save": the next frames of the menu speak the
        language chosen (issue 26), its title in that language."""
        from arcade import i18n
        from kiosk.scenes.service.rows import SETTINGS, language_setting
        k = ("display", "language")
        self._row(svc, SETTINGS.index(language_setting()))
        self.gesture(0, "hold")
        if not svc.editing:
            self.fail("a hold on 'Language' did not start changing it")
        for _ in range(len(language_setting().checker().choices)):
            if svc.values[k] == code:
                break
            self.gesture(0, "tap")
        if svc.values[k] != code:
            self.fail(f"taps on 'Language' never showed {language_setting().show(code)!r}")
        self.gesture(0, "long")
        self._row(svc, len(SETTINGS) + len(svc.all_games))          # "Save (in force after the restart)"
        self.gesture(0, "hold")
        spoken = self.app.cfg.language()
        if i18n.current() != spoken:
            self.fail(f"saving the language {code!r} left the menu speaking {i18n.current()!r}, not {spoken!r}")
        if self.check_text:
            self.run(self.check_text * self.frame_ns / S + 0.05)     # a frame drawn
            title = i18n.translator(spoken).gettext("Settings")
            drawn = [m for m, *_ in self.seen.seen]
            if title not in drawn:
                self.fail(f"the settings page did not say {title!r} once {code!r} was saved: {drawn[:4]}")
        self.checks.ok("service: the language changed")

    def service_walk(self) -> None:
        """Every service page with P1's buzzer alone (and P1+P2 held for the button test's way
        out): each page entered and left, every setting raised, lowered and taken to both ends
        of its range, every game offered and not, the language changed to another and back (the
        menu speaks each at once), the PIN changed (the new one opens the menu),
        each question answered No (and Yes for the high scores), the button test kept until the
        combination; then three wrong PINs lock the menu, with no "stuck" message."""
        from kiosk.scenes.service.menu import ServiceScene
        from kiosk.scenes.service.pin import PinScene, pin_lock
        from kiosk.scenes.service.rows import LED_PATTERNS, SETTINGS, SOUNDS
        if "--service" not in self.trace.command:
            self.trace.command += " --service"
        pin = str(self.cfg["service"]["pin"])
        svc = self.open_service(pin)
        # the button test: every control under test, it stays until the combination
        self._menu(svc, "buttons")
        if svc.page != "buttons":
            self.fail("a hold on 'Button test' did not open it")
        for seat, kind in ((2, "tap"), (3, "hold"), (0, "long"), (1, "tap")):
            self.gesture(seat, kind)
        self.run(5.0)
        if svc.page != "buttons" or self.top is not svc:
            self.fail("the button test closed by itself")
        counted = {seat: svc.buttons.seat_controls(seat).get("buzzer") for seat in range(4)}
        if any(c is None or c.presses < 1 for c in counted.values()):
            self.fail(f"the button test did not count every buzzer: {counted}")
        self.gesture((0, 1), "combo")
        self._left(svc, "the opening combination in the button test")
        # the LED test: each pattern, then its Back row; a long hold leaves it too
        self._menu(svc, "led")
        if svc.page != "led":
            self.fail("a hold on 'LED test' did not open it")
        for i in range(len(LED_PATTERNS)):
            self._row(svc, i)
            if svc.pattern != i:
                self.fail(f"the LED test's row {i} did not show {LED_PATTERNS[i]!r}")
            self.run(0.5)
        self._row(svc, len(LED_PATTERNS))
        self.gesture(0, "hold")
        self._left(svc, "the LED test's Back")
        self._menu(svc, "led")
        self.gesture(0, "long")
        self._left(svc, "a long hold in the LED test")
        # the sound test: the volume both ways, each sound, Back
        self._menu(svc, "sound")
        self.gesture(0, "hold")
        if not svc.editing:
            self.fail("a hold on the volume did not start changing it")
        self._both_ways(svc, next(x for x in SETTINGS if x.key == "volume"))
        for i in range(1, len(SOUNDS) + 1):
            self._row(svc, i)
            self.gesture(0, "hold")
        self._row(svc, len(SOUNDS) + 1)
        self.gesture(0, "hold")
        self._left(svc, "the sound test's Back")
        # the settings: every one both ways, every game offered and not, saved
        self._menu(svc, "settings")
        if svc.page != "settings":
            self.fail("a hold on 'Settings' did not open them")
        for i, setting in enumerate(SETTINGS):
            self._row(svc, i)
            self.gesture(0, "hold")
            if not svc.editing:
                self.fail(f"a hold on {setting.label!r} did not start changing it")
            self._both_ways(svc, setting)
        for j, g in enumerate(svc.all_games):
            self._row(svc, len(SETTINGS) + j)
            was = svc.offered[g.name]
            self.gesture(0, "hold")
            flipped = svc.offered[g.name]
            self.gesture(0, "hold")
            if flipped == was or svc.offered[g.name] != was:
                self.fail(f"holds on 'Lobby offers {g.label}' did not turn it {'off' if was else 'on'} and back")
        rows = svc.rows()
        self._row(svc, rows.index("Save (in force after the restart)"))
        self.gesture(0, "hold")
        if not svc.status.startswith(("Saved to", "Nothing changed")):
            self.fail(f"Save said {svc.status!r}")
        from arcade import i18n
        was = svc.values[("display", "language")]
        self._language(svc, next(c for c in i18n.LANGUAGES if c != i18n.current()))
        self._language(svc, was)
        self._row(svc, rows.index("Back without saving"))
        self.gesture(0, "hold")
        self._left(svc, "the settings' Back without saving")
        self.checks.ok("service: the settings saved")
        # the PIN: a new one, twice; it opens the menu from now on
        new = "".join(str(self.rng.randrange(10)) for _ in range(4))
        while new == pin or new in ("2580",):
            new = "".join(str(self.rng.randrange(10)) for _ in range(4))
        self._menu(svc, "pin")
        if svc.page != "pin":
            self.fail("a hold on 'Change the PIN' did not open it")
        for _ in range(2):
            self.enter_pin(new)
            for _ in range(10):                       # after 9 comes OK: take it to finish
                self.gesture(0, "tap")
            self.gesture(0, "hold")
        self._left(svc, "the new PIN, entered twice")
        if self.cfg["service"]["pin"] != new:
            self.fail(f"the new PIN {new} was not taken ({svc.status!r})")
        self.checks.ok("service: the PIN changed")
        # the questions: No leaves everything as it was; Yes resets the high scores
        for what in ("reset", "restart", "stop", "shutdown", "reboot"):
            self._menu(svc, what)
            if svc.page != "confirm":
                self.fail(f"a hold on {what!r} did not ask 'Are you sure?'")
            self.gesture(0, "hold")                   # "No" is the first answer
            self._left(svc, f"No to {what!r}")
            if not self.app.running:
                self.fail(f"No to {what!r} stopped the arcade")
        self._menu(svc, "reset")
        self._row(svc, 1)
        self.gesture(0, "hold")
        self._left(svc, "Yes to 'reset'")
        from arcade.i18n import ngettext
        count = re.search(r"\d+", svc.status)
        n = int(count.group()) if count else -1
        if svc.status != ngettext("{n} high score deleted", "{n} high scores deleted", n).format(n=n):
            self.fail(f"Yes to 'reset' said {svc.status!r}")
        self._menu(svc, "close")
        if isinstance(self.top, ServiceScene):
            self.fail("'Close this menu' did not close it")
        self.checks.ok("service: every page entered and left")
        # the new PIN opens the menu; a long hold on the menu leaves it
        svc = self.open_service(new)
        self.gesture(0, "long")
        if isinstance(self.top, ServiceScene):
            self.fail("a long hold on the service menu did not leave it")
        # three wrong PINs lock the menu (and say so, with no word of a stuck buzzer)
        wrong = "".join(str((int(c) + 1) % 10) for c in new)
        for _ in range(3):
            self.to_attract()
            self.gesture((0, 1), "combo")
            if not isinstance(self.top, PinScene):
                self.fail("the combination did not ask for the PIN")
            self.enter_pin(wrong)
        lock = pin_lock(self.app)
        if lock.remaining() <= 0 or isinstance(self.top, (PinScene, ServiceScene)):
            self.fail("three wrong PINs did not lock the service menu")
        self.run(float(self.cfg["lobby"]["auto_start_s"]) + 2)
        if not self.at_title():
            self.fail(f"after three wrong PINs {type(self.top).__name__} is shown, not the title (the lobby the "
                      "combination opened started a game nobody asked for)")
        self.to_attract()
        self.gesture((0, 1), "combo")
        self.run(0.3)
        if isinstance(self.top, (PinScene, ServiceScene)):
            self.fail("the locked service menu asked for the PIN again")
        said = [m for m, _ in self.app.messages]
        if not any("locked" in m for m in said):
            self.fail(f"the lock was not said: {said}")
        lock.right_pin()                              # (the next walk of this app starts unlocked)
        self.checks.ok("service: three wrong PINs lock it")

    def monkey_from(self, start: str, seconds: float) -> None:
        """A monkey for ``seconds`` virtual s from the screen ``start``: "lobby" (a buzzer on the
        title screen) or a registry entry (chosen and started in the lobby first)."""
        if "--monkey" not in self.trace.command:
            self.trace.command += f" --start {start} --monkey {seconds:g}"
        self.to_attract()
        if start == "lobby":
            self.gesture(self.rng.randrange(self.seats), "tap")
        else:
            self.choose_in_lobby(start)
        self.monkey(seconds)

    def monkey(self, seconds: float, seats: tuple[int, ...] | None = None) -> None:
        """A seeded random guest on ``seats`` (default every seat) for ``seconds`` virtual s:
        taps, holds and long holds, on one seat or two at once, with pauses (some longer than
        ``[idle] turn_s``, so the away rule is walked too)."""
        seats = tuple(range(self.seats)) if seats is None else seats
        end = self.clock.t + int(seconds * S)
        turn_s = float(self.cfg["idle"]["turn_s"])
        while self.clock.t < end:
            r = self.rng.random()
            if r < 0.04:
                self.run(self.rng.uniform(turn_s, turn_s * 1.5))        # gone for a while
            elif r < 0.30:
                self.run(self.rng.uniform(0.1, 2.0))
            else:
                kind = self.rng.choices(("tap", "hold", "long"), (5, 4, 1))[0]
                who: tuple[int, ...] = (self.rng.choice(seats),)
                if self.rng.random() < 0.12:
                    who = tuple(sorted(self.rng.sample(seats, 2)))
                if kind == "long" and set(who) == {0, 1}:
                    kind = "hold"            # the service combination is walked by its own tests
                self.gesture(who, kind)

    #: A crowd guest's presses: (kind, weight, shortest s, longest s).  "lean": a buzzer held
    #: for seconds, as guests do, yet let go before any screen may call it stuck (the lobby's
    #: ``auto_start_s``, 4 s in the walks; ``[judge] stuck_after_s``, 5 s).
    CROWD = (("tap", 5, 0.08, 0.2), ("hold", 4, 0.7, 1.4), ("long", 1, 2.1, 2.9), ("lean", 1, 3.0, 3.9))

    def crowd(self, seconds: float, seats: tuple[int, ...] | None = None) -> None:
        """Guests mashing: every seat of ``seats`` (default all) presses on its own, at random,
        overlapping the others (taps, holds, long holds and leans of 3-3.9 s, with pauses
        of 0.1-3 s and now and then one longer than ``[idle] turn_s``), for ``seconds``
        virtual s, wherever the arcade is.  Guests never reach the PIN screen (issue 20: two
        guests mashing held P1's and P2's buzzers together long enough to open it)."""
        from kiosk.scenes.service.menu import ServiceScene
        from kiosk.scenes.service.pin import PinScene
        seats = tuple(range(self.seats)) if seats is None else seats
        if "--crowd" not in self.trace.command:
            self.trace.command += f" --crowd {seconds:g}"
        turn_s = float(self.cfg["idle"]["turn_s"])
        kinds = [k for k, *_ in self.CROWD]
        weights = [w for _, w, *_ in self.CROWD]
        span = {k: (lo, hi) for k, _, lo, hi in self.CROWD}
        nxt = {s: self.clock.t + int(self.rng.uniform(0.0, 2.0) * S) for s in seats}
        end = self.clock.t + int(seconds * S)
        while self.clock.t < end:
            for s in seats:
                if s in self.held or self.clock.t < nxt[s]:
                    continue
                kind = self.rng.choices(kinds, weights)[0]
                lo, hi = span[kind]
                length = int(self.rng.uniform(lo, hi) * S)
                self.trace.steps.append((self.clock.t / 1e9 - 5000, (s,), kind))
                self.factory.pin(self.pins[s]).drive_low()
                self.held[s] = self.clock.t + length
                pause = self.rng.uniform(turn_s, turn_s * 1.5) if self.rng.random() < 0.02 else \
                    self.rng.uniform(0.1, 3.0)
                nxt[s] = self.held[s] + int(pause * S)
            self.frame()
            if isinstance(self.top, (PinScene, ServiceScene)):
                self.fail("guests mashing their buzzers reached the service PIN screen")
        while self.held:
            self.frame()
        self.checks.ok("guests: never the PIN screen")


class Checks:
    """The invariants, looked at after every frame (text: on the frames drawn).

    Counts: ``frames`` checked, ``held`` invariant checks passed (by name)."""

    def __init__(self, ex: Explorer) -> None:
        self.ex = ex
        self.frames = 0
        self.held: dict[str, int] = {}
        self.scene: Any = None
        self.since = 0                        # when the scene came, or its state last changed (ns)
        self.mark: Any = None
        self.last_press: dict[int, int] = {}  # seat -> last press the screen accepted (ns)
        # seat -> the last edge (press or release) the screen accepted (ns): a gesture ends at
        # its release (a long hold, a peek held a while), and the away rule counts from there
        self.last_edge: dict[int, int] = {}
        self.entries_done: set[str] = set()
        self.turn_ns = int(float(ex.cfg["idle"]["turn_s"]) * S)
        self.game: Any = None                 # the game on screen, and when it came (ns)
        self.game_since = 0
        # The seats whose person joined, as the guests see it: a press on the title screen or
        # in the lobby joins, a long hold in the lobby by a joined seat leaves; the title
        # screen forgets them.  Nothing else (a tap on any row) makes anyone leave.
        self.joined: set[int] = set()
        self.started_with: set[int] = set()   # who had joined when the lobby last started a game

    def intend(self, seats: tuple[int, ...], kind: str) -> None:
        """What the guests mean by a gesture on the title screen or in the lobby (:attr:`joined`)."""
        from kiosk.scenes.attract import AttractScene
        from kiosk.scenes.lobby import LobbyScene
        top = self.ex.app.scenes[-1] if self.ex.app.scenes else None
        if isinstance(top, AttractScene):
            self.joined = set()
        if not isinstance(top, (AttractScene, LobbyScene)) or kind == "combo":
            return
        for s in seats:
            if kind == "long" and s in self.joined and isinstance(top, LobbyScene):
                self.joined.discard(s)
            else:
                self.joined.add(s)

    def ok(self, name: str) -> None:
        self.held[name] = self.held.get(name, 0) + 1

    def press_seen(self, seat: int, accepted: bool, pressed: bool = True) -> None:
        if accepted:
            self.last_edge[seat] = self.ex.clock.t
            if pressed:
                self.last_press[seat] = self.ex.clock.t

    def after_frame(self, drawn: bool) -> None:
        self.frames += 1
        self.progress()
        for msg, _ in self.ex.app.messages:
            if "stuck" in msg:
                self.ex.fail(f"a buzzer was called stuck, yet none is held longer than the combination: {msg!r}")
        if drawn:
            self.text()

    # -- progress ---------------------------------------------------------------------------
    def progress(self) -> None:
        """No screen waits on a person longer than its limit:

        * a game whose turn is a person's: ``[idle] turn_s`` after that seat's last press or
          release the screen took (a gesture ends at its release; then a computer plays the
          seat, kiosk/players/away.py), and never more than three turns in all
          while that person keeps pressing (presses that cannot act are no presence);
        * any game: something happens within a minute and a half when nobody is waited on;
        * the lobby starts ``[lobby] auto_start_s`` after the last press or release (its
          gestures act when let go); the results screen
          goes back to the title within its entry and stay times; the PIN screen times out; the
          offer of an interrupted game resumes it ``AUTO_RESUME_NS`` after the last press or release.
        """
        ex, now = self.ex, self.ex.clock.t
        top = ex.app.scenes[-1] if ex.app.scenes else None
        if ex.app.is_game(top) and top is not self.game:
            self.game, self.game_since = top, now
            if type(self.scene).__name__ == "LobbyScene":
                self._joined_play(top)
        if ex.app.is_game(top):
            self._empty_room(top, now)
        mark = self._mark(top)
        if top is not self.scene or mark != self.mark:
            self.scene, self.mark, self.since = top, mark, now
            return
        waited = now - self.since
        name = type(top).__name__
        if ex.app.is_game(top):
            seat = self._waits_on(top)
            if seat is not None:
                quiet = now - max(self.since, self.last_edge.get(seat, 0))
                if quiet > self.turn_ns + 2 * S:
                    ex.fail(f"{name} waited {quiet / 1e9:.1f} s on P{seat + 1} after P{seat + 1}'s last "
                            f"press (the away rule's limit is {self.turn_ns / 1e9:.0f} s)")
                if waited > 3 * self.turn_ns + 5 * S:
                    ex.fail(f"{name} stood still {waited / 1e9:.1f} s on P{seat + 1}, who kept pressing: "
                            "those presses cannot act, yet the seat is not played by a computer")
                self.ok("progress: a person's turn")
            else:
                if waited > 90 * S:
                    ex.fail(f"{name} stood still {waited / 1e9:.1f} s with no person to wait on")
                self.ok("progress: the game moves on")
            return
        from kiosk.persist.resume import AUTO_RESUME_NS
        limits = {"LobbyScene": (float(ex.cfg["lobby"]["auto_start_s"]) + 2, True),
                  "ResumeScene": (AUTO_RESUME_NS / S + 2, True),
                  "ResultsScene": (45 + 25 + 3, False), "PinScene": (65, False)}
        if name in limits:
            limit_s, from_gesture = limits[name]
            # a menu's buzzer gesture acts when it is let go (ReleaseGestures): its limit
            # counts from the last press or release
            last = max(self.last_edge.values(), default=0) if from_gesture else 0
            quiet = now - max(self.since, last)
            if quiet > limit_s * S:
                ex.fail(f"{name} waited {quiet / 1e9:.1f} s (its limit is {limit_s:.0f} s)")
            self.ok(f"progress: {name}")

    def _joined_play(self, game: Any) -> None:
        """A game the lobby started: every seat a person joined (:attr:`joined`) is played by
        that person, at their buzzer (issue 20: a tap on one's own seat row once made it a
        computer, and the guest's buzzer did nothing for the whole game, with no message).
        A seat past the most the game seats is excused: the lobby said the game's range."""
        most = self.ex.app.current_game.max_seats
        # (a co-op game's case choice takes every station's presses: its ``seats`` are empty
        # until then, its ``players`` are the seats it plays)
        seats = game.seats or getattr(game, "players", [])
        for s in sorted(self.joined):
            if s >= most:
                continue
            if s >= len(seats):
                self.ex.fail(f"P{s + 1} joined in the lobby, but the game has {len(seats)} seats: "
                             f"P{s + 1}'s buzzer does nothing in it")
            if seats[s].is_computer or seats[s].station != "gpio":
                self.ex.fail(f"P{s + 1} joined in the lobby, but the game plays P{s + 1}'s seat as "
                             f"{seats[s].station!r}{' (a computer)' if seats[s].is_computer else ''}: "
                             f"P{s + 1}'s buzzer does nothing in it")
        self.ok("game start: every joined seat plays at its buzzer")
        # this lobby's guests are in their game: the next lobby (from the results, or the
        # title) begins with nobody joined (seed 1405: P1 of the game before was counted in)
        self.started_with, self.joined = set(self.joined), set()

    #: A move being chosen (FOCUS's ``MoveChooser``, FocusX's ``Chooser``): what a press changes.
    CHOOSER = ("phase", "cursor", "src", "count", "first", "stage", "card_i", "place_i")

    @staticmethod
    def _mark(top: Any) -> Any:
        """What changes when a screen moves on: the game's moves, its phase and its end, and
        what a person's press shows while choosing (Focus (2023)'s cursors, the card lifted,
        the exhibits pointed at; the move being chosen in FOCUS and the FocusX placing modes:
        the stack, count and target under the cursor): a guest who taps past a lifted card, or
        picks a stack and steps back again, is playing, if badly."""
        st = getattr(top, "state", None)
        hist = getattr(st, "history", None)

        def flat(v: Any) -> Any:
            return tuple(flat(x) for x in v) if isinstance(v, (list, tuple)) else v
        chooser = getattr(top, "chooser", None)
        extra = (getattr(top, "setup", None), getattr(top, "over_at", None), getattr(st, "phase", None),
                 getattr(top, "row", None), getattr(top, "page", None),
                 *(flat(getattr(top, k, None)) for k in ("cursor", "lifted", "chosen")),
                 None if chooser is None else tuple(flat(getattr(chooser, k, None)) for k in Checks.CHOOSER))
        try:
            return (len(hist) if hist is not None else None, *extra)
        except TypeError:
            return extra

    def _empty_room(self, game: Any, now: int) -> None:
        """A game every person has left (no press or release of theirs taken for the game's
        ``empty_room_ns``) is put away: it never plays on for an empty room."""
        limit_of = getattr(game, "empty_room_ns", None)
        if limit_of is None or getattr(game, "over_at", None) is not None or self.ex.app.attract_demo:
            return
        away = self.ex.app.idle.away
        people = [s for s, info in enumerate(game.seats) if s in away or not info.is_computer]
        if not people:
            return
        quiet = min(now - max(self.game_since, self.last_edge.get(s, 0)) for s in people)
        limit = limit_of(self.turn_ns)
        if quiet > limit + 2 * S:
            self.ex.fail(f"{type(game).__name__} played on {quiet / 1e9:.1f} s after everyone's last press "
                         f"(an empty room is put away after {limit / 1e9:.0f} s)")
        self.ok("progress: no game for an empty room")

    @staticmethod
    def _waits_on(scene: Any) -> int | None:
        """The person's seat a game waits on now (its turn), or None."""
        st = scene.game_state()                   # None: no game yet (Focus (2023)'s case choice)
        if st is None or getattr(scene, "setup", False) or st.is_terminal():
            return None
        try:
            cp = st.current_player()
        except Exception:
            return None
        seats = scene.seats
        if isinstance(cp, int) and 0 <= cp < len(seats) and not seats[cp].is_computer:
            return cp
        return None

    # -- text --------------------------------------------------------------------------------
    def text(self) -> None:
        """Every line drawn whole, inside its part, not squeezed below 60 %, still to be read
        when the frame is done (nothing drawn over its letters afterwards: an app note, the demo
        band, a highlight; a dialog or a veil declared with ``render.veil`` hides the screen
        under it on purpose), no figure of a line of figures broken over two lines ("missed:" /
        "0"), not over another line of the same screen (a line's rect overlapping another's by
        more than a quarter of the narrower's width and 40 % of its height), and no ruling id
        on it (tests/text_fit.py)."""
        from tests.text_fit import cut_texts, hidden_texts, split_figures
        ex = self.ex
        bad = cut_texts(ex.seen, ex.screen)
        if bad:
            ex.fail(f"text cut or squeezed at {ex.screen.get_size()}: {bad}")
        self.ok("text: whole and inside its part")
        hidden = hidden_texts(ex.seen, ex.screen)
        if hidden:
            if os.environ.get("EXPLORER_SHOT"):          # a PNG of the frame, to look at
                pygame.image.save(ex.screen, os.environ["EXPLORER_SHOT"])
            ex.fail(f"text drawn over at {ex.screen.get_size()} (share of its letters hidden): {hidden}")
        self.ok("text: nothing drawn over it")
        split = split_figures(ex.seen)
        if split:
            ex.fail(f"a figure's label wrapped away from its value at {ex.screen.get_size()}: {split}")
        self.ok("text: figures whole")
        own = [(m, r) for m, r, *_ in ex.seen.seen[:max(0, ex.scene_lines)] if m.strip() and r.w > 2 and r.h > 2]
        for i, (m1, a) in enumerate(own):
            for m2, b in own[i + 1:]:
                c = a.clip(b)
                if (m1, a) != (m2, b) and c.w > 0.25 * min(a.w, b.w) and c.h > 0.4 * min(a.h, b.h):
                    ex.fail(f"two lines over each other at {ex.screen.get_size()}: {m1!r} {a} and {m2!r} {b}")
        self.ok("text: no line over another")
        for msg, *_ in ex.seen.seen:
            m = RULING_ID.search(msg)
            if m:
                ex.fail(f"a ruling id ({m.group(0)}) on a player's screen: {msg!r}")
        self.ok("text: no ruling id on screen")
        self.controls_named()

    def controls_named(self) -> None:
        """On a buzzers-only cabinet no line drawn names a control it does not have (OK, X,
        left/right, Esc, Enter...): a guest told "X = drop it" has no X to press (issue 20: the
        resume offer did).  Every screen it draws, the app's notes too."""
        from kiosk.controls.input import choose_controls
        ex = self.ex
        if choose_controls(ex.cfg) or not ex.app.kiosk_mode:
            return
        for msg, *_ in ex.seen.seen:
            m = UNWIRED.search(NOT_A_CONTROL.sub("", msg.strip()))
            if m:
                ex.fail(f"{type(ex.top).__name__} names {m.group(0)!r}, a control this buzzers-only cabinet "
                        f"does not have: {msg!r}")
        self.ok("text: only the controls wired here")

    # -- the winning rule ---------------------------------------------------------------------
    def results(self, results: Any) -> None:
        """The results screen follows the entry's winning rule (``GameSpec.winning``): the
        winners have the best score (most, or fewest), the bars say what they count, and
        the initials are asked of the seats whose score is best first."""
        from arcade import registry
        from arcade.i18n import _
        from kiosk.persist.highscores import unit_name
        game = results.game
        spec = registry.get(game.name)
        rule = spec.winning
        out = results.state.outcome()
        scores = [float(s) for s in out.scores]
        if rule.kind == "score" and scores and out.winners:
            best = min(scores) if rule.fewest else max(scores)
            if any(scores[w] != best for w in out.winners):
                self.ex.fail(f"{spec.name}: winners {out.winners} do not have the "
                             f"{'fewest' if rule.fewest else 'most'} {rule.unit} {scores}")
            caption = results.bars_caption()
            if unit_name(rule.unit) not in caption:
                self.ex.fail(f"{spec.name}: the bars say {caption!r}, the game counts {rule.unit}")
        if rule.kind == "solved" and out.winners and len(out.winners) != len(results.seats):
            self.ex.fail(f"{spec.name}: a cooperative game won by some seats only: {out.winners}")
        if rule.kind == "solved":
            headline = results.headline()[0]
            if (headline == _("Solved together!")) != bool(out.winners):
                self.ex.fail(f"{spec.name}: the headline {headline!r} does not say the case was "
                             f"{'won' if out.winners else 'lost'}")
        self.entries_done.add(spec.name)
        self.ok("results: the winning rule")

    def high_scores(self, results: Any) -> None:
        """The tables rank by the entry's rule: best first (most, or fewest)."""
        from arcade import registry
        spec = registry.get(results.game.name)
        rule = results.rule
        hs = self.ex.app.highscores
        if rule is None or hs is None:
            return
        table = [s for _, s in hs.table(results.game_key, rule)]
        if table != sorted(table, reverse=not spec.winning.fewest):
            self.ex.fail(f"{spec.name}: the high-score table is not best first by its rule: {table}")
        self.ok("high scores: best first by the rule")


# -- the command line: play one walk again ------------------------------------------------------
def keep_home_out(tmp: Path) -> None:
    """Run from the command line (not under pytest, whose conftest does this), the explorer's
    arcade keeps its store, its last good configuration copy and its settings under ``tmp``,
    never in the home directory of the machine it runs on (a cabinet's own copy stays as it is)."""
    for var, sub in (("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state")):
        os.environ[var] = str(tmp / "home" / sub)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.explorer", description=__doc__.split("\n\n")[0])
    p.add_argument("--entry", default="", help="a registry name: its goal-directed walk")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--size", default="800x480")
    p.add_argument("--monkey", type=float, default=0.0, help="then a random guest for this many virtual s")
    p.add_argument("--start", default="lobby", help="where the monkey starts: lobby or a registry name")
    p.add_argument("--service", action="store_true", help="walk every service page (before the monkey)")
    p.add_argument("--leave", default="", help="a registry name: P1 and P2 start it, then everyone leaves")
    p.add_argument("--resume", default="",
                   help="NAME:HOW (resume, drop, choose-drop, wait): a power cut in NAME, then its offer answered")
    p.add_argument("--lobby-back", action="store_true", help="the lobby left with long holds")
    p.add_argument("--pin-out", action="store_true", help="the PIN screen left with a long hold and its time-out")
    p.add_argument("--language-row", default="", help="a language code: chosen on the lobby's row with buzzers alone")
    p.add_argument("--crowd", type=float, default=0.0,
                   help="then every seat mashing on its own, overlapping, for this many virtual s")
    p.add_argument("--text-every", type=int, default=5, help="check the text drawn every N frames")
    p.add_argument("--frame-ms", type=int, default=20, help="virtual ms between frames")
    a = p.parse_args(argv)
    size = tuple(int(x) for x in a.size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        keep_home_out(Path(tmp))
        ex = Explorer(Path(tmp), a.seed, (size[0], size[1]), a.text_every, frame_ms=a.frame_ms,
                      command=" ".join(["python -m tests.explorer", *(argv or sys.argv[1:])]))
        try:
            if a.entry:
                ex.goal(a.entry)
            if a.service:
                ex.service_walk()
            if a.monkey:
                ex.monkey_from(a.start, a.monkey)
            if a.leave:
                ex.everyone_leaves(a.leave)
            if a.lobby_back:
                ex.lobby_back()
            if a.pin_out:
                ex.pin_ways_out()
            if a.language_row:
                ex.language_row(a.language_row)
            if a.resume:
                name, _, how = a.resume.partition(":")
                ex.resume_walk(name, how or "resume")
            if a.crowd:
                ex.to_attract()
                ex.crowd(a.crowd)
        except ExplorerFailure as exc:
            print(exc)
            return 1
        finally:
            ex.close()
    print(f"ok: {ex.frames_run} frames, {len(ex.trace.steps)} gestures, "
          f"{sum(ex.checks.held.values())} invariant checks held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
