#!/usr/bin/env python3
"""Screenshots of every screen of the arcade in one language (issue 26, "Done when"):

    python tools/screens.py --language uk --size 1920x1080 --out docs/uk/screens
    python tools/screens.py --language uk --size 800x480 --out docs/uk/screens --only lobby,title

The real arcade (:class:`kiosk.app.loop.App`) with the configuration ``kiosk/install.sh`` writes,
on gpiozero's MockFactory pins and a virtual clock, worked with buzzer gestures alone
(``tests/explorer.py``'s :class:`~tests.explorer.Explorer`); each screen of :data:`SCREENS` is
reached as a guest or the operator reaches it and saved as ``<name>-<W>x<H>.png`` in ``--out``.
The hall's leaderboard is drawn from a leaderboard filled here (no event broker is needed).

:data:`SCREENS` is the list ``tests/test_screens_list.py`` holds against the registry's families
and the service menu's pages: a new game or page without a screenshot fails it.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@dataclass(frozen=True)
class Screen:
    """One screenshot: its file name, what it shows, the registry entry it plays (a game's
    screen) and the service-menu rows whose page it shows (``"menu"``: the menu itself)."""

    name: str
    what: str
    entry: str = ""
    service: tuple[str, ...] = ()


#: Every screenshot, in the order they are taken.
SCREENS: tuple[Screen, ...] = (
    Screen("title", "the title screen, with recent games"),
    Screen("attract-demo", "the attract loop: a demo game (computers only)"),
    Screen("attract-high-scores", "the attract loop: the high-score tables between demo games"),
    Screen("lobby", "the lobby, on its language row"),
    Screen("focusx-classic", "FocusX Classic in play", "focusx-classic"),
    Screen("focusx-duel", "FocusX Duel in play", "focusx-duel"),
    Screen("focusx-thinkfocus", "FocusX ThinkFocus in play", "focusx-thinkfocus"),
    Screen("focusx-4focus", "FocusX 4Focus in play", "focusx-4focus"),
    Screen("focus-2p", "FOCUS for 2 in play", "focus-2p"),
    Screen("focus-4p", "FOCUS for 4, each alone, in play", "focus-4p"),
    Screen("crossfire", "Crossfire (hex FOCUS) in play", "crossfire"),
    Screen("sherlook-race", "Sherlook: a race for the markers", "sherlook"),
    Screen("sherlook-reveal", "Sherlook: the differences revealed", "sherlook"),
    Screen("coop-case", "Focus (2023): the case chosen before the game", "coop-base"),
    Screen("coop-base", "Focus (2023) in play", "coop-base"),
    Screen("results-initials", "the results, P1 entering initials"),
    Screen("results-high-scores", "the results after the initials: the high-score tables"),
    Screen("pin", "the PIN screen (P1 and P2 held together)"),
    Screen("service-menu", "the service menu", service=("menu", "close")),
    Screen("service-settings", "the service menu's settings page", service=("settings",)),
    Screen("service-buttons", "the button test", service=("buttons",)),
    Screen("service-led", "the LED test", service=("led",)),
    Screen("service-sound", "the sound test and volume", service=("sound",)),
    Screen("service-pin", "changing the PIN", service=("pin",)),
    Screen("service-confirm", "a question: reset the high scores?",
           service=("reset", "restart", "stop", "shutdown", "reboot")),
    Screen("leaderboard", "the hall's leaderboard (an event)"),
)

S = 1_000_000_000


class Shooter:
    """The explorer's arcade in ``language`` at ``size``, saving screens to ``out``."""

    def __init__(self, tmp: Path, language: str, size: tuple[int, int], out: Path, only: set[str]) -> None:
        from tests.explorer import Explorer, keep_home_out
        from tests.text_fit import compiled
        keep_home_out(tmp)
        compiled(language)
        self.ex = Explorer(tmp, seed=3, size=size, check_text=0, command="python tools/screens.py",
                           display={"language": language}, attract={"idle_s": 30, "demo_s": 10, "scores_s": 4})
        self.size, self.out, self.only = size, out, only
        self.saved: list[Path] = []

    def shoot(self, name: str) -> None:
        import pygame
        assert name in {s.name for s in SCREENS}, name
        if self.only and name not in self.only:
            return
        ex = self.ex
        ex._draw_now = True
        ex.app.draw()
        ex._draw_now = False
        path = self.out / f"{name}-{self.size[0]}x{self.size[1]}.png"
        pygame.image.save(ex.screen, str(path))
        self.saved.append(path)
        print(f"{path}  {type(ex.top).__name__}", flush=True)

    def until(self, what: str, cond: Callable[[], bool], seconds: float = 60) -> None:
        if not self.ex.run(seconds, until=cond):
            self.ex.fail(f"{what}: not reached in {seconds:g} virtual s")

    # -- the walk ----------------------------------------------------------------------
    def games(self) -> None:
        ex = self.ex
        for entry, players in (("focusx-classic", 4), ("focusx-duel", 5), ("focusx-thinkfocus", 4),
                               ("focusx-4focus", 3), ("focus-2p", None), ("focus-4p", None), ("crossfire", None)):
            if self.only and entry not in self.only:
                continue
            ex.to_attract()
            ex.choose_in_lobby(entry, players)
            game = ex.top
            ex.run(3.0 if entry.startswith("focus-") or entry == "crossfire" else 0.5)
            if entry.startswith("focusx"):          # a race on: the cards face up, the clock running
                self.until(f"{entry}'s race", lambda g=game: _race_open(g), 40)
                ex.run(0.3)
            self.shoot(entry)
        if not self.only or {"sherlook-race", "sherlook-reveal"} & self.only:
            ex.to_attract()
            ex.choose_in_lobby("sherlook", 2)
            game = ex.top
            self.until("Sherlook's race", lambda: getattr(game, "phase", "") == "race", 60)
            ex.run(2.0)
            self.shoot("sherlook-race")
            self.until("Sherlook's reveal", lambda: getattr(game, "phase", "") == "reveal", 60)
            ex.run(0.4)
            self.shoot("sherlook-reveal")
        if not self.only or {"coop-case", "coop-base"} & self.only:
            ex.to_attract()
            ex.choose_in_lobby("coop-base")
            game = ex.top
            ex.run(0.5)
            self.shoot("coop-case")
            ex.gesture(0, "hold")
            ex.run(4.0)
            self.shoot("coop-base")

    def results(self) -> None:
        from kiosk.scenes.results import ResultsScene
        ex = self.ex
        if self.only and not {"results-initials", "results-high-scores"} & self.only:
            return
        ex.to_attract()
        ex.choose_in_lobby("focusx-classic", 2)
        results = ex.play(seats=(0,))
        assert isinstance(results, ResultsScene)
        ex.run(1.0)
        if results.entries:
            ex.gesture(0, "tap")
            ex.gesture(0, "hold")
        self.shoot("results-initials")
        ex.initials(results)
        ex.run(2.0)
        self.shoot("results-high-scores")

    def attract(self) -> None:
        from kiosk.scenes.attract import AttractScene
        from kiosk.scenes.lobby import LobbyScene
        ex, app = self.ex, self.ex.app
        ex.to_attract()
        ex.run(1.0)
        self.shoot("title")
        if not self.only or {"attract-demo", "attract-high-scores"} & self.only:
            self.until("the first demo game", lambda: app.is_game(ex.top), 60)
            ex.run(5.0)
            self.shoot("attract-demo")
            self.until("the high scores between demo games",
                       lambda: isinstance(ex.top, AttractScene) and ex.top.loop is not None, 120)
            ex.run(1.0)
            self.shoot("attract-high-scores")
        ex.to_attract()
        ex.gesture(0, "tap")
        lobby = ex.top
        assert isinstance(lobby, LobbyScene)
        for _ in range(lobby._rows()):
            if lobby.row == lobby.language_row:
                break
            ex.gesture(0, "hold")
        self.shoot("lobby")
        ex.gesture(0, "long")
        ex.run(8.0)                   # the note "P1 is no longer in the game" gone before the next screens

    def service(self) -> None:
        from kiosk.scenes.service.pin import PinScene
        ex = self.ex
        ex.to_attract()
        ex.gesture((0, 1), "combo")
        assert isinstance(ex.top, PinScene)
        ex.gesture(0, "tap")
        ex.gesture(0, "tap")
        self.shoot("pin")
        ex.gesture(0, "long")
        svc = ex.open_service(str(ex.cfg["service"]["pin"]))
        self.shoot("service-menu")
        for key in ("settings", "sound", "led", "pin", "reset", "buttons"):
            ex._menu(svc, key)
            ex.run(1.0)
            if key == "led":
                ex._row(svc, 1)
                ex.run(0.5)
            if key == "buttons":
                ex.gesture(2, "tap")
                ex.gesture(3, "hold", wait=False)
                ex.run(0.3)
            self.shoot("service-confirm" if key == "reset" else f"service-{key}")
            if key == "buttons":
                ex.run(1.5)
                ex.gesture((0, 1), "combo")
            elif key == "pin":
                ex.gesture(0, "long")
            else:
                ex.gesture(0, "long")
            if svc.page != "menu":
                ex.gesture(0, "long")
        ex.gesture(0, "long")

    def leaderboard(self) -> None:
        """The hall's leaderboard scene over a leaderboard filled with games of three cabinets."""
        from kiosk.event.link import Leaderboard, Result
        from kiosk.scenes.leaderboard import LeaderboardScene
        ex, app = self.ex, self.ex.app
        board = Leaderboard()
        now = time.time()
        games = (("focusx-classic", "bar", (21.0, 12.0, 9.0)), ("focusx-classic", "stage", (17.0, 14.0)),
                 ("sherlook", "bar", (11.0, 7.0)), ("focus-2p", "hall", (1.0, 0.0)),
                 ("focusx-duel", "stage", (3.0, 8.0, 11.0, 9.0)))
        units = {"focusx-classic": "cards", "sherlook": "points", "focus-2p": "wins", "focusx-duel": "penalty cards"}
        for i, (entry, cab, scores) in enumerate(games):
            best = min(scores) if entry == "focusx-duel" else max(scores)
            seat = scores.index(best)
            board.add(Result(f"g{i}", "spring-night", cab, entry, entry, len(scores), (seat,), "most", scores,
                             best, 0.0, seat, f"{best:g} {units[entry]}", now - 600 + i))
        link = types.SimpleNamespace(leaderboard=board, event="spring-night", problem="", connected=True,
                                     queued=0, settings={"host": "hall.local", "port": 1883},
                                     set_status=lambda *a, **k: None)
        app.event = link
        try:
            ex.to_attract()
            app.replace(LeaderboardScene(app))
            ex.run(0.5)
            self.shoot("leaderboard")
        finally:
            app.event = None


def _race_open(game: Any) -> bool:
    w = getattr(getattr(game, "referee", None), "window", None)
    return w is not None and getattr(w, "opened_ns", None) is not None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python tools/screens.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--language", default="uk", help="a language code with a catalog (default uk)")
    p.add_argument("--size", default="1920x1080", help="the screen, WxH px")
    p.add_argument("--out", default="docs/uk/screens", help="the folder the PNGs go to")
    p.add_argument("--only", default="", help="comma-separated screen names (default: every one)")
    p.add_argument("--list", action="store_true", help="print the screens and their names, take none")
    a = p.parse_args(argv)
    if a.list:
        for s in SCREENS:
            print(f"{s.name:22} {s.what}")
        return 0
    w, h = (int(x) for x in a.size.lower().split("x"))
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    only = {x for x in a.only.split(",") if x}
    unknown = only - {s.name for s in SCREENS}
    if unknown:
        p.error(f"unknown screen names: {sorted(unknown)}")
    with tempfile.TemporaryDirectory() as tmp:
        shooter = Shooter(Path(tmp), a.language, (w, h), out, only)
        try:
            shooter.games()
            shooter.results()
            shooter.attract()
            shooter.service()
            shooter.leaderboard()
        finally:
            shooter.ex.close()
    total = sum(x.stat().st_size for x in shooter.saved)
    print(f"{len(shooter.saved)} PNGs, {total / 1e6:.2f} MB in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
