"""The title (attract) screen: what the arcade is and how to start."""

from __future__ import annotations

import math
import random
import time

import pygame

from arcade.core.events import Edge
from arcade.focusx.cards import DECK_SIZE
from kiosk import render
from kiosk.app import App
from kiosk.input import Command
from kiosk.scene import Scene
from kiosk.storage import StorageError

#: With an event on, the title screen's attract loop shows the hall's leaderboard this
#: long after every TITLE_S seconds of title (issue 15).
TITLE_S = 12.0
BOARD_S = 10.0


class AttractScene(Scene):
    led_idle = True     # the matrix shows the idle picture or is handed back ([led] idle)

    def __init__(self, app: App) -> None:
        super().__init__(app)
        rng = random.Random()
        self.cards = [(rng.randrange(DECK_SIZE), rng.random(), rng.random(), rng.uniform(0.3, 1.0)) for _ in range(12)]
        self.t0 = time.monotonic()
        self.now = 0.0
        try:
            self.recent = app.results.recent(5) if app.results is not None else []
        except StorageError as exc:      # the title screen must always come up
            self.recent = []
            app.message(str(exc))
        # What the results store moved or put aside stays on the title screen for the operator.
        self.store_notices: list[str] = list(getattr(app.results, "notices", []) or [])

    def _lobby(self) -> None:
        from kiosk.scenes.lobby import LobbyScene
        self.app.replace(LobbyScene(self.app))

    def showing_board(self) -> bool:
        """Whether the attract loop is on its leaderboard page now (only with an event)."""
        if getattr(self.app, "event", None) is None:
            return False
        return self.now % (TITLE_S + BOARD_S) >= TITLE_S

    def on_command(self, command: Command) -> None:
        if command.name == "ok":          # Enter, Space, a gamepad's Start
            self._lobby()
        elif command.name == "right" and getattr(self.app, "event", None) is not None:
            from kiosk.scenes.leaderboard import LeaderboardScene
            self.app.replace(LeaderboardScene(self.app))

    def on_edge(self, edge: Edge) -> None:
        if edge.pressed and edge.control in ("buzzer", "ok"):
            self._lobby()

    def update(self, now_ns: int) -> None:
        self.now = time.monotonic() - self.t0

    def draw(self, surface: pygame.Surface) -> None:
        if self.showing_board():
            from kiosk.scenes import leaderboard
            page = int(self.now // (TITLE_S + BOARD_S))
            leaderboard.draw(surface, self.app.event, page)
            W, H = surface.get_size()
            render.text(surface, "Press any buzzer or Enter to play", (W // 2, H - 80), 28, render.TEXT, "midtop")
            return
        W, H = surface.get_size()
        surface.fill(render.BG)
        cw = W // 12
        for i, (num, fx, fy, speed) in enumerate(self.cards):
            x = (fx * W + self.now * 40 * speed) % (W + cw) - cw
            y = fy * H + math.sin(self.now * speed + i) * 20
            img = render.card_surface(num, cw, int(cw * 1.4))
            img = pygame.transform.rotate(img, math.sin(self.now * 0.5 + i) * 15)
            surface.blit(img, (x, y))
        veil = pygame.Surface((W, H), pygame.SRCALPHA)
        veil.fill((18, 22, 34, 170))
        surface.blit(veil, (0, 0))
        render.text(surface, "FOCUS ARCADE", (W // 2, H // 3), int(H * 0.16), render.GOLD, "center", bold=True)
        blink = int(self.now * 2) % 2 == 0
        render.text(surface, "Press any buzzer or Enter to play", (W // 2, H // 2 + 20), int(H * 0.06),
                    render.TEXT if blink else render.DIM, "center")
        hint = "FocusX  -  keys 1-8 are buzzers on a keyboard  -  Ctrl+Q quits"
        if getattr(self.app, "event", None) is not None:
            hint += "  -  Right arrow: the hall's leaderboard"
        render.text(surface, hint, (W // 2, H - 40), 26, render.DIM, "center")
        y = H // 2 + 90
        for r in self.recent[:4]:
            who = ", ".join(f"P{w + 1}" for w in r["winners"]) or "draw"
            render.text(surface, f"{r['game']}: {who} ({r['reason']})", (W // 2, y), 26, render.DIM, "center")
            y += 30
        if self.store_notices:
            text = f"Results file: {self.store_notices[-1]}"
            render.text_fit(surface, text, (W // 2, H - 76), W - 40, 22, 14, render.GOLD)
