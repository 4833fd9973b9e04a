"""The lobby: choose the game, the number of players and each seat's station.

Keyboard: Up/Down choose a row, Left/Right change it, Enter starts.  With
buzzers only: every press joins that seat; 10 seconds after the last join the
game starts, empty seats filled by computer players.
"""

from __future__ import annotations

import importlib
from typing import Any

import pygame

from arcade import registry
from arcade.bots.shout import SKILLS
from arcade.core.errors import SettingsError
from arcade.core.events import Edge
from kiosk import render
from kiosk.app import App
from kiosk.input import Command
from kiosk.scene import Scene
from kiosk.scenes.seats import LobbyGame, SeatInfo

AUTO_START_NS = 10_000_000_000
STATION_CHOICES = ("keyboard", "gpio", "gamepad", "computer", "off")


def screen_module(spec: registry.GameSpec) -> str:
    """The screen module of a registry entry: ``kiosk.games.<package>.scene`` for the rules in
    ``arcade.<package>`` (each lists the entries it draws in ``LOBBY_GAMES``)."""
    return f"kiosk.games.{spec.house.split('.')[1]}.scene"


#: The screen modules, one per rules package of the registry, in the lobby's order.
GAME_MODULES = tuple(dict.fromkeys(screen_module(s) for s in registry.SPECS))


def lobby_games() -> list[LobbyGame]:
    """Every game the lobby offers, in the registry's order (:data:`arcade.registry.SPECS`).

    The screens come from the modules in :data:`GAME_MODULES` (each lists the
    registry entries it draws, ``LOBBY_GAMES``); a registry entry whose screen
    module is not built is left out.
    """
    by_name: dict[str, LobbyGame] = {}
    for name in GAME_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:     # that game is not built yet
                continue
            raise
        for g in getattr(module, "LOBBY_GAMES", []):
            by_name[g.name or f"{g.family}-{g.mode}"] = g
    order = {n: i for i, n in enumerate(registry.names())}
    return sorted(by_name.values(), key=lambda g: order.get(g.name, len(order)))


def offered(games: list[LobbyGame], names: list[str]) -> list[LobbyGame]:
    """The games of ``names`` (``[lobby] games``) in that order; every game when empty or
    when none of them has a screen here."""
    if not names:
        return games
    by_name = {g.name: g for g in games}
    chosen = [by_name[n] for n in names if n in by_name]
    return chosen or games


def find_game(game: str, mode: str | None, x_rule: bool = False) -> LobbyGame:
    """The lobby game for ``--game`` (a registry name, or a family with ``--mode``;
    the family's first mode if None; ``x_rule``: its FocusX-rule twin).

    Raises:
        KeyError: unknown game or mode, or no such screen (the message lists the choices).
    """
    try:
        spec = registry.resolve(game, mode, x_rule=x_rule)
    except SettingsError as exc:
        raise KeyError(str(exc)) from None
    for g in lobby_games():
        if g.name == spec.name:
            return g
    raise KeyError(f"the game {spec.name!r} has no screen in this arcade; expected one of "
                   f"{[g.name for g in lobby_games()]}")


class LobbyScene(Scene):
    def __init__(self, app: App) -> None:
        super().__init__(app)
        stations = [s for s in app.cfg["seats"]["stations"]]
        self.stations = (stations + ["off"] * 8)[:8]
        self.players = max(2, sum(1 for s in stations if s != "off"))
        self.skill = app.cfg["seats"]["computer_skill"]
        self.games = offered(lobby_games(), app.cfg["lobby"]["games"] if "lobby" in app.cfg.data else [])
        self.game_i = 0
        self.row = 0
        self.joined: dict[int, int] = {}
        self.last_join: int | None = None
        self.now = 0

    # rows: 0 game, 1 players, 2 skill, 3.. seats
    def _rows(self) -> int:
        return 3 + self.players

    def on_command(self, command: Command) -> None:
        name = command.name
        if name == "ok":
            self.start()
        elif name == "back":
            self.app.home()
        elif name == "up":
            self.row = (self.row - 1) % self._rows()
        elif name == "down":
            self.row = (self.row + 1) % self._rows()
        elif name in ("left", "right"):
            self.change(-1 if name == "left" else 1)

    def change(self, step: int) -> None:
        g = self.games[self.game_i]
        if self.row == 0:
            self.game_i = (self.game_i + step) % len(self.games)
            g = self.games[self.game_i]
            self.players = max(g.min_seats, min(g.max_seats, self.players))
        elif self.row == 1:
            self.players = max(g.min_seats, min(g.max_seats, self.players + step))
            self.row = min(self.row, self._rows() - 1)
        elif self.row == 2:
            names = list(SKILLS)
            self.skill = names[(names.index(self.skill) + step) % len(names)]
        else:
            seat = self.row - 3
            i = STATION_CHOICES.index(self.stations[seat]) if self.stations[seat] in STATION_CHOICES else 0
            self.stations[seat] = STATION_CHOICES[(i + step) % len(STATION_CHOICES)]
            if self.stations[seat] == "gpio":
                self.app.open_gpio()

    def on_edge(self, edge: Edge) -> None:
        # Only a buzzer joins: P2's OK key is also the lobby's Down arrow on a keyboard.
        if not edge.pressed or edge.control != "buzzer":
            return
        seat = edge.seat
        if seat >= self.games[self.game_i].max_seats:
            self.app.message(f"{self.games[self.game_i].label} is for at most "
                             f"{self.games[self.game_i].max_seats} players", 4.0)
            return
        self.joined[seat] = edge.t_ns
        self.last_join = edge.t_ns
        if seat >= self.players:
            self.players = min(self.games[self.game_i].max_seats, seat + 1)
        if self.stations[seat] in ("computer", "off"):
            self.stations[seat] = "gpio" if self.app.gpio is not None else "keyboard"
        self.app.sounds.play("press")

    def update(self, now_ns: int) -> None:
        self.now = now_ns
        if self.last_join is not None and now_ns - self.last_join > AUTO_START_NS:
            self.start()

    def seat_infos(self) -> list[SeatInfo]:
        infos = []
        gpio_pins = self.app.cfg["gpio"]["buzzers"]
        controls = self.app.cfg["gpio"]["controls"]
        for seat in range(self.players):
            st = self.stations[seat]
            if st == "keyboard":
                label = self.app.keyboard.describe(seat) if self.app.keyboard else f"key {seat + 1}"
                choose = seat < 2
            elif st == "gpio":
                label = f"GPIO {gpio_pins[seat]}" if seat < len(gpio_pins) else "GPIO (no pin!)"
                choose = seat < len(controls) and all(controls[seat][:3])
            elif st == "gamepad":
                label, choose = "gamepad", True
            elif st == "off" and not any(later in ("keyboard", "gpio", "gamepad")
                                         for later in self.stations[seat + 1:self.players]):
                continue
            else:
                # A computer (or an "off" seat before a player's station: a computer fills it,
                # so every station keeps its seat number and its buzzer plays its seat).
                label, choose = f"computer ({self.skill})", False
                st = "computer"
            infos.append(SeatInfo(st, label, self.skill, choose))
        g = self.games[self.game_i]
        while len(infos) < g.min_seats:
            infos.append(SeatInfo("computer", f"computer ({self.skill})", self.skill))
        return infos[:g.max_seats]

    def start(self) -> None:
        from kiosk.resume import start_game
        self.app.replace(start_game(self.app, self.games[self.game_i], self.seat_infos()))

    def draw(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        surface.fill(render.BG)
        render.text(surface, "Lobby", (40, 24), 64, render.GOLD, bold=True)
        render.text(surface, "Up/Down choose   Left/Right change   Enter start   or press your buzzer to join",
                    (40, 90), 26, render.DIM)
        g = self.games[self.game_i]
        rows = [("Game", f"< {g.label} >"), ("Players", f"< {self.players} >  ({g.min_seats}-{g.max_seats})"),
                ("Computer skill", f"< {self.skill} >")]
        for seat in range(self.players):
            st = self.stations[seat]
            desc = st
            if st == "keyboard":
                desc = f"keyboard: {self.app.keyboard.describe(seat)}" if self.app.keyboard else "keyboard"
            elif st == "gpio":
                pins = self.app.cfg["gpio"]["buzzers"]
                desc = f"GPIO buzzer on pin {pins[seat]}" if seat < len(pins) else "GPIO (no pin configured)"
                if self.app.gpio is None:
                    desc += "  (GPIO not available here)"
            rows.append((f"P{seat + 1}", f"< {desc} >" + ("   JOINED" if seat in self.joined else "")))
        y = 150
        for i, (name, value) in enumerate(rows):
            sel = i == self.row
            r = pygame.Rect(40, y, W - 80 - (260 if self.app.led.virtual is not None else 0), 44)
            render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL)
            col = render.SEAT_COLOURS[(i - 3) % 8] if i >= 3 else render.TEXT
            render.text(surface, name, (r.x + 16, r.centery), 34, col, "midleft", bold=True)
            render.text(surface, value, (r.x + 260, r.centery), 32, render.TEXT if sel else render.DIM, "midleft")
            y += 50
        if self.app.led.virtual is not None:     # what the LED matrix shows (countdown when joining)
            box = pygame.Rect(W - 270, 150, 240, 240)
            render.led_matrix(surface, box, self.app.led.virtual_picture())
            render.text(surface, "LED matrix", (box.centerx, box.bottom + 6), 22, render.DIM, "midtop")
        if self.last_join is not None:
            left = max(0.0, (AUTO_START_NS - (self.now - self.last_join)) / 1e9)
            render.text(surface, f"Starting in {left:.0f} s - Enter to start now", (W // 2, H - 40), 40,
                        render.GOLD, "center", bold=True)

    def led_picture(self, now_ns: int) -> Any:
        from arcade.views import led as ledv
        cfg = self.app.cfg["led"]
        if self.last_join is not None:
            left = max(0.0, (AUTO_START_NS - (now_ns - self.last_join)) / 1e9)
            return ledv.countdown_picture(int(left) + 1 if left > 0 else 0, left / 10.0, cfg["width"], cfg["height"])
        return ledv.text_picture("FX", (255, 200, 40), cfg["width"], cfg["height"])
