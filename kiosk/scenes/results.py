"""The results screen: winners, every seat's score, the game's statistics."""

from __future__ import annotations

from typing import Any, Callable

import pygame

from arcade.core.events import Edge
from kiosk import render
from kiosk.app import App
from kiosk.input import Command
from kiosk.scene import Scene
from kiosk.scenes.seats import SeatInfo

STAY_NS = 25_000_000_000      # back to the title screen (or the next demo game) after this


class ResultsScene(Scene):
    def __init__(self, app: App, title: str, state: Any, seats: list[SeatInfo],
                 again: Callable[[], Scene] | None = None) -> None:
        super().__init__(app)
        self.title = title
        self.state = state
        self.seats = seats
        self.again = again
        self.entered: int | None = None
        self.now = 0

    def on_command(self, command: Command) -> None:
        if command.name == "ok" and self.again:
            self.app.replace(self.again())
        elif command.name == "back":
            self.app.home()

    def on_edge(self, edge: Edge) -> None:
        if edge.pressed and edge.control in ("buzzer", "ok") and self.entered is not None \
                and edge.t_ns - self.entered > 2_000_000_000:
            self.app.home()

    def update(self, now_ns: int) -> None:
        self.now = now_ns
        if self.entered is None:
            self.entered = now_ns
        elif now_ns - self.entered > STAY_NS:
            if self.app.demo and getattr(self.app.args, "loop", False) and self.again:
                self.app.replace(self.again())
            elif self.app.demo:
                self.app.running = False
            else:
                self.app.home()

    def draw(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        surface.fill(render.BG)
        out = self.state.outcome()
        render.text(surface, f"{self.title}: game over", (W // 2, 30), 56, render.TEXT, "midtop", bold=True)
        names = " & ".join(f"P{w + 1}" for w in out.winners) or "nobody"
        col = render.SEAT_COLOURS[out.winners[0] % 8] if len(out.winners) == 1 else render.GOLD
        verb = "wins" if len(out.winners) == 1 else "share the win" if out.winners else "- a draw"
        render.text(surface, f"{names} {verb}!", (W // 2, 100), 84, col, "midtop", bold=True)
        render.text(surface, out.reason, (W // 2, 180), 34, render.DIM, "midtop")
        scores = list(out.scores) or [0] * len(self.seats)
        n = len(self.seats)
        bw = min(130, (W - 100) // n)
        top = max(scores) or 1
        base = H - 150
        for s in range(n):
            x = W // 2 - n * bw // 2 + s * bw
            h = int((H - 420) * scores[s] / top) if top else 0
            c = render.SEAT_COLOURS[s % 8]
            pygame.draw.rect(surface, c, pygame.Rect(x + 12, base - h, bw - 24, h), border_radius=8)
            render.text(surface, f"{scores[s]:g}", (x + bw // 2, base - h - 6), 44, render.TEXT, "midbottom", bold=True)
            render.text(surface, f"P{s + 1}", (x + bw // 2, base + 8), 40, c, "midtop", bold=True)
            render.text_fit(surface, self.seats[s].label, (x + bw // 2, base + 44), bw - 8, 20, 15, render.DIM)
        stats = getattr(self.state, "stats", {})
        if stats:
            line = "   ".join(f"{k}: {v}" for k, v in stats.items())
            render.text(surface, line, (W // 2, H - 40), 28, render.DIM, "midtop")
        left = 0 if self.entered is None else max(0, (STAY_NS - (self.now - self.entered)) // 1_000_000_000)
        hint = "Enter: play again   Esc: title" if not self.app.demo else f"next in {left} s"
        render.text(surface, hint, (W - 16, 16), 24, render.DIM, "topright")
