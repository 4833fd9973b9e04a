"""FOCUS (Sid Sackson) and Crossfire on the TV: every variant, people and computers.

Variants (``docs/rules-sackson.md``): ``2p`` (SF-1), ``3p`` (SF-4), ``4p-teams``
and ``4p`` (SF-5), ``crossfire`` (SF-6).  The rules are
:mod:`arcade.sackson`; the computer players are :mod:`arcade.bots.sackson`.

Controls (a seat acts only on its own turn):

* station controls, from the seat whose turn it is: ``left`` / ``right`` move
  the cursor through the current choices, ``ok`` takes the one under the
  cursor, ``buzzer`` or ``x`` step back (cancel the half-chosen move);
* a move is chosen in up to three steps - a stack of one's own (or the
  reserve, to drop a stone), then how many stones (only when the stack is
  taller than one and more than one count can move), then the target cell
  among the legal ones, which are marked on the board; the opening swap
  (SF-3, ``[sackson] opening_swap``) is two steps: a stone, then the stone of
  the other colour to swap it with;
* a station with only a buzzer (``SeatInfo.can_choose`` false, e.g. GPIO
  buzzers without choose controls): a tap moves the cursor on, a press held
  0.6 s takes the choice, held 2 s steps back (a ring fills while it is held);
* the keyboard, as a laptop convenience, only for a person at the keyboard
  station who has no left/right/OK keys of their own (P3 and up with the
  default keys; :meth:`SacksonScene.keyboard_drives`), and only with keys that
  are no station's keys: Enter or Space = OK, Backspace or Escape = back, the
  keypad's 4/6/8/2 (and the arrows when no station uses them) move the cursor
  (Up/Down jump to the nearest choice above/below; in the count step they
  change the count).  A station's key acts only for its own seat: P1 chooses
  with A/D/S/W, P2 with the arrows, P3 taps its key 3, so one player's keys
  never make another player's move.  Escape with nothing half-chosen (or for a
  seat that does not take plain keys) asks once, then leaves the game.

The computer seats are players of the match driver that think in the kiosk's
thinking process (:class:`kiosk.thinker.SearchThinker`: ``arcade.bots.sackson.decide``
at the seat's skill, by nodes, so it plays the same on any machine); the driver
polls them each frame and never waits.  A dead or stuck process is restarted
and that move is made by the one-ply player in this process.  A decision
function substituted for ``choose_action`` (tests) cannot be sent to that
process and runs in a worker thread here instead (:func:`kiosk.thinker.thread_player`).
The driver makes the move on the main thread, never less than
``[sackson] move_pause_s`` after its turn began (``app.pace_override`` caps
that pause, as ``focus-arcade demo --pace`` does).  The screen keeps drawing
while it thinks ("thinking..." with a progress ring); leaving the game cancels
the thought.
"""

from __future__ import annotations

import math
import random
import threading
import time
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence

import pygame

from arcade import registry
from arcade.bots import sackson as bots
from arcade.bots.sackson import choose_action
from arcade.core.api import Action, State
from arcade.core.driver import ComputerPlayer, Driver
from arcade.core.errors import IllegalActionError
from arcade.core.events import Edge
from arcade.sackson.game import VARIANTS, Drop, Move, SacksonGame, SacksonState, Swap
from arcade.sackson.notation import format_action
from arcade.sackson.record import to_record
from kiosk import render
from kiosk import thinker as thinker_mod
from kiosk.away import label_wordings
from kiosk.games.sackson import draw as sd
from kiosk.input import Command
from kiosk.scenes.game import GameScene
from kiosk.scenes.seats import SeatInfo, lobby_game
from kiosk.thinker import ThinkingPlayer

if TYPE_CHECKING:
    from kiosk.scene import Host, LedPicture

#: Lobby skill -> bot level (``expert`` plays the ``hard`` search).
LEVEL_OF_SKILL = {"easy": "easy", "medium": "medium", "hard": "hard", "expert": "hard"}
#: Titles of the variants.
TITLES = {"2p": "FOCUS - 2 players", "3p": "FOCUS - 3 players", "4p-teams": "FOCUS - 4 players in teams",
          "4p": "FOCUS - 4 players", "crossfire": "Crossfire"}
#: Defaults of the ``[sackson]`` configuration section.
CFG_DEFAULTS = {"budget_s": 1.0, "move_pause_s": 0.8, "opening_swap": False, "mirror_rule": False}

RESERVE = "reserve"
_CENTRE = "(centre)"
FINISH_NS = 3_000_000_000          # the final board stays this long before the results
OK_HOLD_NS = 600_000_000           # buzzer-only stations: a press this long takes the choice ...
BACK_HOLD_NS = 2_000_000_000       # ... and this long steps back; a shorter tap moves the cursor on
BANNER_NS = 1_500_000_000         # a banner shows this long, or until the next move

#: The short game names of a compact side panel (480x320): the title row's room is the width
#: left of "move 10".  The team game names its teams there (its cards have no room for them).
SHORT_TITLES = {"2p": "FOCUS", "3p": "FOCUS 3p", "4p-teams": "1+3 v 2+4", "4p": "FOCUS 4p",
                "crossfire": "Crossfire"}
#: One row of 24 px text (the smallest the TV shows, kiosk.render.MIN_TEXT_PX) on a compact panel (px).
COMPACT_ROW = 21
#: The banner's height on a compact panel (px).
COMPACT_BANNER_H = 30
#: The gap under each player card (px).
CARD_GAP = 6
#: The full panel's card heights (px, gap included) by the number of seats, and the least a
#: two-row card may be squeezed to before the compact panel is used.
FULL_CARD_H = {2: 92, 3: 84, 4: 74}
MIN_FULL_CARD_H = 72
#: The full panel's title row and turn box heights (px, the gap under the box included).
FULL_HEAD_H, FULL_TURN_H = 40, 136


#: A last move is squeezed to no less than this share of its width (else the list stops).
MIN_LOG_KEPT = 0.75


class SideLayout(NamedTuple):
    """Where the FOCUS / Crossfire side panel's parts go (pixel rects inside its area).

    ``compact`` is the small-display panel (480x320): rows of 24 px text, ``hint`` rows of
    control hint in the turn box (0-3) and ``card_rows`` rows in each player card (1 or 2);
    the full panel has ``hint`` 1 and ``card_rows`` 2.  ``cards`` has one rect a seat, gap
    included; ``below`` is the rest of the area (the banner, the last moves, the LED matrix)
    and may be 0 px high.  The parts never overlap and never leave the area.
    """
    compact: bool
    head: pygame.Rect
    turn: pygame.Rect
    hint: int
    cards: list[pygame.Rect]
    card_rows: int
    below: pygame.Rect


def side_layout(area: pygame.Rect, seats: int) -> SideLayout:
    """The side panel's parts for ``seats`` (2-4) players in ``area`` (px).

    The full panel (the 1280x720 and larger TVs, 800x480 too) when its rows fit: the cards
    may shrink to :data:`MIN_FULL_CARD_H`.  Otherwise the compact panel: the cards come
    first (every seat is always shown), then as many hint rows as fit (up to 3), then two
    rows a card, then the room below."""
    n = max(2, min(4, seats))
    card_h = FULL_CARD_H[n]
    room = area.h - FULL_HEAD_H - FULL_TURN_H
    if area.w >= 240 and room >= n * MIN_FULL_CARD_H:
        card_h = min(card_h, room // n)
        head = pygame.Rect(area.x, area.y, area.w, FULL_HEAD_H)
        turn = pygame.Rect(area.x, head.bottom, area.w, FULL_TURN_H - 8)
        y = head.bottom + FULL_TURN_H
        cards = [pygame.Rect(area.x, y + p * card_h, area.w, card_h) for p in range(n)]
        y += n * card_h
        return SideLayout(False, head, turn, 1, cards, 2, pygame.Rect(area.x, y, area.w, area.bottom - y))
    head_h = COMPACT_ROW + 5
    turn_base = 4 + 24 + 2 + COMPACT_ROW + 4        # who, what and the box's edges
    one, two = COMPACT_ROW + 9 + 2, 2 * COMPACT_ROW + 8 + 2   # a card a row or two, its gap included
    room = area.h - head_h - turn_base - 4
    hint = max(0, min(3, (room - n * one) // COMPACT_ROW))
    rows = 2 if room - hint * COMPACT_ROW >= n * two else 1
    card_h = two if rows == 2 else one
    head = pygame.Rect(area.x, area.y, area.w, head_h)
    turn = pygame.Rect(area.x, head.bottom, area.w, turn_base + hint * COMPACT_ROW)
    y = turn.bottom + 4
    cards = [pygame.Rect(area.x, y + p * card_h, area.w, card_h) for p in range(n)]
    y = min(area.bottom, y + n * card_h)
    return SideLayout(True, head, turn, hint, cards, rows, pygame.Rect(area.x, y, area.w, area.bottom - y))



#: Lobby skill -> the search the thinking process runs (``decide``'s levels: the expert is its own).
SEARCH_OF_SKILL = {"easy": "easy", "medium": "medium", "hard": "hard", "expert": "expert"}


def level_for(skill: str) -> str:
    """The bot level for a lobby skill name (unknown names play ``medium``)."""
    return LEVEL_OF_SKILL.get(skill, "medium")


def sackson_cfg(app: Host) -> dict[str, Any]:
    """The ``[sackson]`` settings (defaults where the configuration has none)."""
    out = dict(CFG_DEFAULTS)
    try:
        out.update(app.cfg["sackson"])
    except KeyError:
        pass
    return out


# -- choosing a move with left / right / OK -----------------------------------------

class MoveChooser:
    """The half-chosen move of one human seat: phases, choices and the cursor.

    Phases: ``"source"`` (a stack the seat tops, or :data:`RESERVE`), ``"count"``
    (how many stones: only when more than one count is legal), ``"target"``
    (a legal landing cell, or any cell for a drop), and for the opening swap
    (SF-3) ``"swap-a"`` then ``"swap-b"``.  Choices come from
    ``state.legal_actions()``, so the ko rule (SF-6) and the swap's symmetry
    ban are already applied.

    Args:
        state: the position (not changed).
        seat: the seat to move.
        pos: screen position of every cell name (pixels or any units where y
            grows downwards); orders the choices in reading order and guides
            :meth:`nudge`.
        start: a cell to put the cursor near first (e.g. where it was last time).
    """

    def __init__(self, state: SacksonState, seat: int, pos: dict[str, tuple[float, float]],
                 start: str | None = None) -> None:
        self.seat = seat
        self.pos = pos
        self.actions = state.legal_actions(seat)
        self.moves: dict[tuple[str, int], list[str]] = {}
        self.drops: list[str] = []
        self.swaps: dict[str, list[str]] = {}
        for a in self.actions:
            if isinstance(a, Move):
                self.moves.setdefault((a.src, a.count), []).append(a.dst)
            elif isinstance(a, Drop):
                self.drops.append(a.dst)
            elif isinstance(a, Swap):
                self.swaps.setdefault(a.a, []).append(a.b)
                self.swaps.setdefault(a.b, []).append(a.a)
        ys = [p[1] for p in pos.values()] or [0.0]
        xs = [p[0] for p in pos.values()] or [0.0]
        self.pos = dict(pos)
        self.pos[RESERVE] = ((min(xs) + max(xs)) / 2, max(ys) + (max(ys) - min(ys)) / 6 + 1)
        self.pos[_CENTRE] = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        self.phase = "swap-a" if self.swaps else "source"
        self.src: str | None = None
        self.count: int | None = None
        self.first: str | None = None
        self.memory: dict[str, Any] = {}
        self.cursor = 0
        self._enter(start)

    # choices -----------------------------------------------------------------------
    def _reading(self, cells: list[str]) -> list[str]:
        return sorted(set(cells), key=lambda c: (round(self.pos[c][1], 3), self.pos[c][0]))

    def _clockwise(self, origin: str, cells: list[str]) -> list[str]:
        ox, oy = self.pos[origin]
        return sorted(cells, key=lambda c: math.atan2(self.pos[c][0] - ox, -(self.pos[c][1] - oy)) % (2 * math.pi))

    def counts(self) -> list[int]:
        """Legal counts for the chosen source."""
        return sorted(k for (s, k) in self.moves if s == self.src)

    def items(self) -> list[Any]:
        """The choices of the current phase, in cursor order."""
        if self.phase == "source":
            out: list[Any] = self._reading([s for (s, _k) in self.moves])
            if self.drops:
                out.append(RESERVE)
            return out
        if self.phase == "count":
            return list(self.counts())
        if self.phase == "target":
            if self.src == RESERVE:
                return self._reading(self.drops)
            assert self.src is not None and self.count is not None
            return self._clockwise(self.src, self.moves[(self.src, self.count)])
        if self.phase == "swap-a":
            return self._reading(list(self.swaps))
        assert self.first is not None
        return self._reading(self.swaps[self.first])

    def current(self) -> Any:
        """The choice under the cursor (a cell name, :data:`RESERVE` or a count)."""
        it = self.items()
        return it[self.cursor % len(it)] if it else None

    def _enter(self, near: Any = None) -> None:
        it = self.items()
        remembered = self.memory.get(self.phase)
        if remembered in it:
            self.cursor = it.index(remembered)
        elif near in it:
            self.cursor = it.index(near)
        elif isinstance(near, str) and near in self.pos and it and not isinstance(it[0], int):
            nx, ny = self.pos[near]
            self.cursor = min(range(len(it)), key=lambda j: math.hypot(self.pos[it[j]][0] - nx, self.pos[it[j]][1] - ny))
        else:
            self.cursor = 0

    # cursor --------------------------------------------------------------------------
    def step(self, delta: int) -> None:
        """Move the cursor ``delta`` choices on (wrapping round)."""
        it = self.items()
        if it:
            self.cursor = (self.cursor + delta) % len(it)

    def nudge(self, dx: int, dy: int) -> None:
        """Keyboard arrows: the nearest choice in direction ``(dx, dy)`` (screen, y down).

        In the count phase Up/Down change the count (Up = more).
        """
        it = self.items()
        if not it:
            return
        if self.phase == "count":
            self.step(-dy if dy else dx)
            return
        cur = self.current()
        cx, cy = self.pos[cur]
        best, best_score = None, float("inf")
        for j, c in enumerate(it):
            if c == cur:
                continue
            vx, vy = self.pos[c][0] - cx, self.pos[c][1] - cy
            along = vx * dx + vy * dy
            if along <= 0:
                continue
            across = abs(vx * dy - vy * dx)
            if across > along * 2.5:
                continue
            score = along + 2.0 * across
            if score < best_score:
                best, best_score = j, score
        if best is not None:
            self.cursor = best

    # choosing ------------------------------------------------------------------------
    @property
    def half_chosen(self) -> bool:
        """True once a first choice was taken (there is something to cancel)."""
        return self.phase not in ("source", "swap-a")

    def ok(self) -> Action | None:
        """Take the choice under the cursor; the finished action, or None if more is to choose."""
        cur = self.current()
        if cur is None:
            return None
        self.memory[self.phase] = cur
        if self.phase == "source":
            self.src = cur
            self.count = None
            if cur != RESERVE:
                ks = self.counts()
                if len(ks) > 1:
                    self.phase = "count"
                    self.memory.pop("count", None)
                    self._enter(1)
                    return None
                self.count = ks[0]
            self.phase = "target"
            self.memory.pop("target", None)
            self._enter(_CENTRE if cur == RESERVE else None)
            return None
        if self.phase == "count":
            self.count = cur
            self.phase = "target"
            self.memory.pop("target", None)
            self._enter()
            return None
        if self.phase == "target":
            return self._finished(cur)
        if self.phase == "swap-a":
            self.first = cur
            self.phase = "swap-b"
            self.memory.pop("swap-b", None)
            self._enter(cur)
            return None
        assert self.first is not None
        return Swap(self.first, cur)

    def _finished(self, target: str) -> Action:
        """The move (or the drop from the reserve) onto ``target`` of the chosen stack and count."""
        if self.src == RESERVE:
            return Drop(target)
        assert self.src is not None and self.count is not None
        return Move(self.src, target, self.count)

    def back(self) -> bool:
        """Step back one choice; False when there was nothing to cancel."""
        if self.phase == "target":
            self.phase = "count" if self.src != RESERVE and len(self.counts()) > 1 else "source"
        elif self.phase == "count":
            self.phase = "source"
        elif self.phase == "swap-b":
            self.phase = "swap-a"
        else:
            return False
        self._enter()
        return True

    def preview(self) -> Action | None:
        """The action the cursor points at when OK would finish the move, else None."""
        cur = self.current()
        if cur is None:
            return None
        if self.phase == "target":
            return self._finished(cur)
        if self.phase == "swap-b" and self.first is not None:
            return Swap(self.first, cur)
        return None

    def marked_targets(self) -> list[str]:
        """Cells to mark as legal targets now (the count phase shows where that count lands)."""
        if self.phase == "count" and self.src is not None:
            return list(self.moves.get((self.src, self.current()), []))
        if self.phase in ("target", "swap-b"):
            return list(self.items())
        return []


# -- the scene ---------------------------------------------------------------------

class SacksonScene(GameScene[SacksonState]):
    """One game of FOCUS (any variant) or Crossfire.

    Args:
        app: the arcade.
        seats: one :class:`SeatInfo` per seat (``VARIANTS[variant]`` of them;
            extra seats are dropped, missing ones become computer players).
        variant: ``"2p"``, ``"3p"``, ``"4p-teams"``, ``"4p"`` or ``"crossfire"``.
        seed: the random seed of the computer players (default: from the clock).
        settings: game settings over ``{"variant": variant}`` and the
            ``[sackson]`` opening_swap / mirror_rule (2-player variants).
        budget_s: the computer's thinking time per move (default ``[sackson] budget_s``).
        max_nodes: node limit of the ``hard`` search (tests; None = time only).
        levels: bot level per seat (default from each seat's skill).

    Raises:
        SettingsError: an unknown variant or bad settings.
    """

    warm_on_push = True     # drawn once off screen when pushed (App.warm): the first frame only blits

    def __init__(self, app: Host, seats: list[SeatInfo], variant: str = "2p", seed: int | None = None,
                 settings: dict[str, Any] | None = None, budget_s: float | None = None,
                 max_nodes: int | None = None, levels: Sequence[str] | None = None) -> None:
        if variant not in VARIANTS:
            from arcade.core.errors import SettingsError
            raise SettingsError("variant", variant, f"one of {list(VARIANTS)}")
        cfg = sackson_cfg(app)
        n = VARIANTS[variant]
        seats = list(seats)[:n]
        while len(seats) < n:
            seats.append(SeatInfo("computer", "computer (medium)", "medium"))
        super().__init__(app, seats, seed)
        self.variant = variant
        gs: dict[str, Any] = {"variant": variant}
        if n == 2:
            gs["opening_swap"] = bool(cfg["opening_swap"])
            gs["mirror_rule"] = bool(cfg["mirror_rule"])
        gs.update(settings or {})
        self.settings = gs
        self.game = SacksonGame(n, gs)
        self.state = self.initial_state(self.game, SacksonState)
        self.budget_s = float(cfg["budget_s"] if budget_s is None else budget_s)
        pause = float(cfg["move_pause_s"])
        if app.pace_override is not None:
            pause = min(pause, float(app.pace_override))
        self.pause_ns = int(pause * 1e9)
        self._max_nodes = max_nodes
        self.levels = list(levels) if levels is not None else [level_for(s.skill) for s in seats]
        self.search_levels = (list(levels) if levels is not None
                              else [SEARCH_OF_SKILL.get(s.skill, "medium") for s in seats])
        self.thinker: Any = None           # kiosk.thinker.Thinker while the process thinks for us
        if any(s.is_computer for s in seats) and self._use_process():
            self.thinker = thinker_mod.shared()
            self.thinker.start()          # warm: the process is up before the first computer move
        # The match driver checks and applies every move (turns, SF-4/SF-5 skips are the
        # state's) and asks the computer seats, which think elsewhere (kiosk.thinker), so the
        # screen never freezes; it polls them each frame and shows a move no sooner than
        # pause_ns after its turn began.
        self.driver: Driver = registry.of_state(self.state).driver(self.state, self.driver_seats(), self.bot_rng,
                                                                   ply_cap=None)
        self.chooser: MoveChooser | None = None
        self.chooser_key: tuple[int, int] | None = None
        self.cursor_memory: dict[int, str] = {}
        self.last: tuple[int, Action] | None = None
        self.log: list[tuple[int, str]] = []
        self.skipped: set[int] = set()     # 4p-teams: seats skipped since their last move (SF-5)
        self.applied_thread: int | None = None
        self.hold_start: dict[int, int] = {}
        self._geo_cache: tuple[tuple[int, int, int, int], sd.BoardGeometry] | None = None
        self._board_layer: tuple[tuple[Any, ...], pygame.Surface, tuple[int, int]] | None = None
        self._local_geo: tuple[tuple[int, int], sd.BoardGeometry] | None = None
        self._preview_cache: dict[Action, str] = {}

    # -- the seats the driver moves -------------------------------------------------------
    def driver_seats(self) -> list[ComputerPlayer | None]:
        """One entry per seat: the computer player that thinks for a computer seat (in the
        thinking process, or in a worker thread for a substituted ``choose_action``), None
        for a person (the scene submits their move)."""
        out: list[ComputerPlayer | None] = []
        for seat, info in enumerate(self.seats):
            players = self.__dict__.setdefault("_players", {})
            if not info.is_computer:
                out.append(None)
                continue
            if seat not in players:
                players[seat] = self._computer(seat)
            out.append(players[seat])
        return out

    def _computer(self, seat: int) -> ThinkingPlayer:
        note = self.app.message
        if self.thinker is not None:
            return thinker_mod.SearchThinker("focus", self.search_levels[seat], self.pause_ns, self._max_nodes,
                                             note, self.thinker)
        level = self.levels[seat]

        def search(state: Any, rng: random.Random) -> Action:
            return choose_action(state, level, rng, time.monotonic, self.budget_s, self._max_nodes)

        return thinker_mod.thread_player(search, self.pause_ns, note)

    @property
    def max_nodes(self) -> int | None:
        """Node limit of the search per move (tests; None = the level's or time only)."""
        return self._max_nodes

    @max_nodes.setter
    def max_nodes(self, value: int | None) -> None:
        self._max_nodes = value
        for player in self.__dict__.get("_players", {}).values():
            if isinstance(player, thinker_mod.SearchThinker):
                player.nodes = value

    @property
    def future(self) -> Any:
        """The future of the computer move being thought about now (None: none)."""
        for seat in self.driver.thinking():
            player = self.driver.players[seat]
            thought = getattr(player, "thought", None)
            if thought is not None:
                return thought.future
        return None

    @property
    def think_started(self) -> int:
        """When (ns) the computer seat to move began to think (0: none thinks)."""
        return min(self.driver.thinking().values(), default=0)

    # -- life cycle --------------------------------------------------------------------
    def exit(self) -> None:
        super().exit()
        for player in self.__dict__.get("_players", {}).values():
            player.close()

    finish_ns = FINISH_NS

    @property
    def title(self) -> str:
        return TITLES[self.variant]

    # -- geometry --------------------------------------------------------------------------
    def board_area(self, surface_size: tuple[int, int]) -> pygame.Rect:
        """Where the board is drawn on a screen of ``surface_size``."""
        W, H = surface_size
        return pygame.Rect(8, 8, int(W * 0.62), H - 16)

    def geometry(self, surface_size: tuple[int, int] | None = None) -> sd.BoardGeometry:
        size = surface_size or self.app.screen.get_size()
        area = self.board_area(size)
        key = (area.x, area.y, area.w, area.h)
        if self._geo_cache is None or self._geo_cache[0] != key:
            self._geo_cache = (key, sd.BoardGeometry(self.state.board, area))
        return self._geo_cache[1]

    def _positions(self) -> dict[str, tuple[float, float]]:
        geo = self.geometry()
        return {c: geo.centres[i] for i, c in enumerate(self.state.board.cells)}

    # -- who moves --------------------------------------------------------------------------
    def to_move(self) -> int | None:
        cp = self.state.current_player()
        return cp if cp >= 0 else None

    def human_to_move(self) -> int | None:
        """The seat to move if it is a person's, else None."""
        cp = self.to_move()
        if cp is None or self.seats[cp].is_computer:
            return None
        return cp

    # -- input ----------------------------------------------------------------------------------
    def on_back(self) -> bool:
        """Esc steps back in a half-chosen move of a keyboard seat without choose keys."""
        seat = self.human_to_move()
        if seat is not None and self.keyboard_drives(seat) and self.chooser is not None and self.chooser.back():
            self.app.sounds.play("tick")
            return True
        return False

    def on_game_command(self, command: Command) -> None:
        seat = self.human_to_move()
        if seat is None or not self.keyboard_drives(seat) or self._ensure_chooser() is None:
            return          # only a keyboard seat without choose keys of its own takes plain keys
        if command.station_key or command.source != "keyboard":
            return          # a station's key (P2's arrows, a buzzer key) acts only for its own seat, by its edge
        name = command.name
        if name in ("left", "right", "ok", "x"):
            self._control(seat, name)
        elif name in ("up", "down"):
            self.chooser.nudge(0, -1 if name == "up" else 1)  # type: ignore[union-attr]
            self.app.sounds.play("tick")

    def on_station(self, edge: Edge) -> None:
        seat = self.human_to_move()
        if seat is None or edge.seat != seat:
            self.hold_start.pop(edge.seat, None)
            return
        if edge.control == "buzzer" and self.buzzer_only(seat):
            # buzzer-only station: tap = next choice, hold = take, long hold = back
            if edge.pressed:
                self.hold_start[seat] = edge.t_ns
                return
            start = self.hold_start.pop(seat, None)
            if start is None:
                return
            held = edge.t_ns - start
            self._control(seat, "x" if held >= BACK_HOLD_NS else "ok" if held >= OK_HOLD_NS else "right")
            return
        if edge.pressed:
            self._control(seat, edge.control)

    def keyboard_drives(self, seat: int) -> bool:
        """True when the laptop keys (Enter/Space, Backspace/Escape, keypad arrows) may choose for ``seat``.

        Only for a person at the keyboard station who has no left/right/OK keys of
        their own (seats 3 and up with the default keys, ``hardware/keyboard.py``).
        Even then a key that belongs to a station (P2's arrows, a buzzer key) only
        acts for that station's seat (:meth:`handle`): P1 chooses with A/D/S/W and
        P2 with the arrows, and nobody can make another seat's move from the keyboard.
        """
        info = self.seats[seat]
        if info.is_computer or info.station != "keyboard":
            return False
        kb = self.app.keyboard
        if kb is None:
            return True
        own = {control for (s, control) in kb.keymap.values() if s == seat}
        return not {"left", "right", "ok"} <= own

    def buzzer_only(self, seat: int) -> bool:
        """True for a person's station without left/right/OK (``SeatInfo.can_choose`` false)."""
        info = self.seats[seat]
        return not info.can_choose and not info.is_computer

    def _control(self, seat: int, control: str) -> None:
        ch = self._ensure_chooser()
        if ch is None:
            return
        if control in ("left", "right"):
            ch.step(-1 if control == "left" else 1)
            self.app.sounds.play("tick")
        elif control == "ok":
            action = ch.ok()
            self.app.sounds.play("press")
            if action is not None:
                self._apply(action, seat)
        elif control in ("buzzer", "x"):
            if ch.back():
                self.app.sounds.play("tick")

    def _ensure_chooser(self) -> MoveChooser | None:
        seat = self.human_to_move()
        if seat is None:
            self.chooser = None
            return None
        key = (seat, len(self.state.history))
        if self.chooser is None or self.chooser_key != key:
            self.chooser = MoveChooser(self.state, seat, self._positions(), self.cursor_memory.get(seat))
            self.chooser_key = key
        return self.chooser

    # -- the game --------------------------------------------------------------------------------
    def advance(self, now_ns: int) -> None:
        st = self.state
        if st.is_terminal():
            self.driver.cancel()
            self.chooser = None
            if self.finish(now_ns):
                self.app.screenshot(f"focus-{self.variant}-over")
            return
        before = self._before()
        moves = len(st.history)
        self.driver.tick(now_ns)                  # a computer's move once it is thought and shown long enough
        for seat, action in st.history[moves:]:
            self._moved(seat, action, before)
        if st.is_terminal():
            return
        if self.seats[st.current_player()].is_computer:
            self.chooser = None
        else:
            self._ensure_chooser()

    @staticmethod
    def _use_process() -> bool:
        """True unless ``choose_action`` was replaced (that function can only run in this process)."""
        return choose_action is bots.choose_action

    def _before(self) -> tuple[list[int], list[int], list[bool]]:
        """What a move's log line compares with: captures, reserves and who is in, per seat."""
        st = self.state
        n = self.game.seats
        return ([sum(st.captured(p)) for p in range(n)], [st.reserve(p) for p in range(n)],
                [st.active(p) for p in range(n)])

    def _apply(self, action: Action, seat: int) -> None:
        """A person's move, through the driver (a refused one is said on the banner)."""
        before = self._before()
        try:
            self.driver.submit(seat, action)
        except IllegalActionError as exc:
            self.banner = (exc.reason.split(" [position")[0], render.BAD, self.now + BANNER_NS)
            self.app.sounds.play("false")
            self.chooser = None
            return
        self._moved(seat, action, before)

    def _moved(self, seat: int, action: Action, before: tuple[list[int], list[int], list[bool]]) -> None:
        """After a move the driver made (a person's or a computer's): the log, banner and sound."""
        st = self.state
        before_caps, reserves, before_active = before
        before_res = reserves[seat]
        self.applied_thread = threading.get_ident()
        self.last = (seat, action)
        self.chooser = None
        self._preview_cache.clear()
        if isinstance(action, Move):
            self.cursor_memory[seat] = action.dst
        elif isinstance(action, Drop):
            self.cursor_memory[seat] = action.dst
        text = format_action(action, st)
        got = sum(st.captured(seat)) - before_caps[seat]
        back = st.reserve(seat) - before_res + (1 if isinstance(action, Drop) else 0)
        notes = []
        if got:
            notes.append(f"captures {got}")
        if back > 0:
            notes.append(f"{back} to reserve")
        self.log.append((seat, text + ("  " + ", ".join(notes) if notes else "")))
        self.banner = None                      # an older banner never outlives the next move
        self.skipped.discard(seat)
        passed = self._passed_over(seat, before_active)
        for q, why in passed:
            self.log.append((q, why))
        del self.log[:-6]
        if passed:
            q, why = passed[0]
            more = f" (+{len(passed) - 1})" if len(passed) > 1 else ""
            self.banner = (f"P{q + 1} {why}{more}", sd.seat_colour(q), self.now + BANNER_NS)
        if got:
            msg = f"P{seat + 1} captures {got} stone{'s' if got > 1 else ''}!"
            if self.banner is not None:
                msg += "   " + self.banner[0]
            self.banner = (msg, sd.seat_colour(seat), self.now + BANNER_NS)
            self.app.sounds.play("won")
        elif isinstance(action, Swap):
            self.app.sounds.play("flip")
        else:
            self.app.sounds.play("flip")
        if len(st.history) in (12, 40):
            self.app.screenshot(f"focus-{self.variant}-ply{len(st.history)}")

    def _passed_over(self, seat: int, before_active: list[bool]) -> list[tuple[int, str]]:
        """Seats passed over after ``seat``'s move, with what happened to each (SF-4, SF-5).

        ``4p-teams``: a seat without a move is skipped this round (it stays in);
        ``3p`` / ``4p``: it drops out.  Seats already out are passed silently.
        Also remembers the skipped seats (:attr:`skipped`) for their player cards.
        """
        st = self.state
        n = self.game.seats
        nxt = st.current_player()
        if n == 2 or nxt < 0:
            return []
        out: list[tuple[int, str]] = []
        q = (seat + 1) % n
        while q != nxt:
            if before_active[q]:
                if st.active(q):
                    out.append((q, "has no move: skipped this turn"))
                    self.skipped.add(q)
                else:
                    out.append((q, "has no move: out of the game"))
            q = (q + 1) % n
        return out

    def again(self) -> GameScene[State]:
        """A new game of the same variant with the same seats."""
        return SacksonScene(self.app, self.seats, self.variant, None, self.settings,
                            self.budget_s, self.max_nodes, self.levels)

    def record(self) -> dict[str, object]:
        """SF-7: the record carries the start and final positions (stacks bottom to top)."""
        return to_record(self.state, self.seed)

    # -- text -------------------------------------------------------------------------------------
    def prompt(self) -> tuple[str, str]:
        """(what to do now, control hint) for the seat to move."""
        st = self.state
        out = st.outcome()
        if out is not None:
            names = " & ".join(f"P{w + 1}" for w in out.winners)
            return ((f"{names} win{'s' if len(out.winners) == 1 else ''}!" if names else "A draw."), out.reason)
        cp = st.current_player()
        if self.seats[cp].is_computer:
            # the level that searches: the thinking process plays the expert as its own level
            shown = self.search_levels[cp] if self.thinker is not None else self.levels[cp]
            return ("thinking...", f"computer, {shown}")
        ch = self.chooser
        if ch is None:
            return ("", "")
        keys = self.controls_hint(cp)
        if ch.phase == "swap-a":
            return ("Opening swap: pick a stone", keys)
        if ch.phase == "swap-b":
            return (f"Swap {ch.first} with which stone?", keys)
        if ch.phase == "source":
            cur = ch.current()
            if cur == RESERVE:
                return (f"Drop from reserve ({st.reserve(cp)} left)", keys)
            return (f"Pick a stack: {cur}" if cur else "Pick a stack", keys)
        if ch.phase == "count":
            h = len(st.stack(ch.src)) if ch.src and ch.src != RESERVE else 1
            return (f"Move how many?  {ch.current()} of {h}", keys)
        action = ch.preview()
        if action is None:
            return ("Where to?", keys)
        return (f"{format_action(action, st)}  {self.effect(action)}".rstrip(), keys)

    def controls_hint(self, seat: int) -> str:
        """How ``seat`` works the cursor: its own keys on the keyboard, else the station's names."""
        info = self.seats[seat]
        kb = self.app.keyboard
        plain = self.keyboard_drives(seat)
        arrows = "arrows" if not self.app.input.is_station_key("right") else "keypad 4/6"
        if self.buzzer_only(seat):
            name = "buzzer"
            if info.station == "keyboard" and kb is not None and kb.describe(seat, "buzzer") != "no key":
                name = kb.describe(seat, "buzzer")
            return f"{name}: tap = next, hold = take, hold 2 s = back" + (
                f"; {arrows}, Enter take, Esc back" if plain else "")
        if plain:
            return f"{arrows} choose, Enter take, Esc back"
        if info.station == "keyboard" and kb is not None:
            names = [kb.describe(seat, c) for c in ("left", "right", "ok", "x", "buzzer")]
            short = [n.replace("key ", "") for n in names]
            back = " or ".join(b for b in short[3:] if b != "no key") or "buzzer"
            return f"{short[0]}/{short[1]} choose, {short[2]} take, {back} back"
        return "left/right choose, OK take, buzzer back"

    def effect(self, action: Action) -> str:
        """What ``action`` would do: height reached, stones captured / back to reserve."""
        if action in self._preview_cache:
            return self._preview_cache[action]
        st = self.state
        seat = st.current_player()
        text = ""
        if isinstance(action, (Move, Drop)) and st.check(seat, action) is None:
            s2 = st.copy()
            s2.apply(action, seat)
            got = sum(s2.captured(seat)) - sum(st.captured(seat))
            back = s2.reserve(seat) - st.reserve(seat) + (1 if isinstance(action, Drop) else 0)
            parts = [f"height {len(s2.stack(action.dst))}"]
            if got:
                parts.append(f"captures {got}")
            if back > 0:
                parts.append(f"{back} back to reserve")
            text = "(" + ", ".join(parts) + ")"
        self._preview_cache[action] = text
        return text

    # -- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """The screen in parts (render.Parts), each drawn again only when what it shows
        changes: the board, the title row, whose turn, the player cards, and below them the
        banner, the last moves and the virtual LED matrix."""
        W, H = surface.get_size()
        parts = self.parts
        if parts.begin(surface):
            surface.fill(render.BG)
        size = surface.get_size()
        ch = self.chooser if self.human_to_move() is not None else None
        # While a person chooses, the marks pulse: the board is drawn every frame.
        board_key = (self._board_key(size), None if ch is None else (self.now, repr(ch.preview())))
        board_rect = pygame.Rect(0, 0, int(W * 0.63) + 6, H)
        parts.part(surface, "board", board_rect, board_key, lambda: self._draw_board(surface, board_rect),
                   background=None)
        self._draw_side(surface, self.side_rect(size))

    @staticmethod
    def side_rect(size: tuple[int, int]) -> pygame.Rect:
        """The side panel's area on a ``size`` (w, h) px screen: right of the board."""
        W, H = size
        return pygame.Rect(int(W * 0.63) + 6, 8, W - int(W * 0.63) - 14, H - 16)

    def banner_rect(self, area: pygame.Rect, y: int, compact: bool = False) -> pygame.Rect | None:
        """Where the banner (a capture, a skipped seat, "Esc again") goes: a strip at ``y``
        below the player cards, so it never covers the title, the move counter or a card
        (50 px high, :data:`COMPACT_BANNER_H` on a compact panel)."""
        if not self.banner or self.now >= self.banner[2]:
            return None
        return pygame.Rect(area.x, y, area.w, COMPACT_BANNER_H if compact else 50)

    def _draw_banner(self, surface: pygame.Surface, r: pygame.Rect) -> None:
        assert self.banner is not None
        msg, col, _ = self.banner
        size = 36 if r.h >= 40 else 24
        while size > 24 and render.font(size, True).size(msg)[0] > r.w - 24:
            size -= 2
        pygame.draw.rect(surface, col, r, border_radius=12 if r.h >= 40 else 8)
        render.text_within(surface, msg, r.center, r.w - 12, size, sd.INK, "center", bold=True)

    def _board_key(self, size: tuple[int, int]) -> tuple[Any, ...]:
        """Everything the board layer shows (cells, tints, frames, stacks, the last move's marks)."""
        ch = self.chooser if self.human_to_move() is not None else None
        ck: tuple[Any, ...] | None = None
        if ch is not None:
            ck = (ch.phase, ch.current(), ch.src, ch.count, ch.first, ch.half_chosen,
                  tuple(ch.marked_targets()), tuple(ch.items()) if ch.phase in ("source", "swap-a") else ())
        return (size, len(self.state.history), self.state.position_key, self.last, ck,
                self.state.current_player())

    #: What the screen shows of the board layer: (surface id, layer id, where), while the screen
    #: holds exactly the layer's pixels there (no choice marks over it); else None.
    _layer_shown: tuple[int, int, tuple[int, int]] | None = None

    def _draw_board(self, surface: pygame.Surface, part: pygame.Rect | None = None) -> None:
        """The board layer (cached until the position or the choice changes), then the choice's
        moving marks on top (they pulse).  ``part``: the board's part of the screen, which this
        covers (the background around the layer included); when the screen already shows the
        layer as it was, only the patches of it drawn again are copied."""
        size = surface.get_size()
        patches: list[pygame.Rect] | None = None
        geo = self.geometry(size)
        key = self._board_key(size)
        area = self.board_area(size)
        if not render.KEEP_PARTS:                 # drawn from scratch, the kept layer left alone
            if self._local_geo is None or self._local_geo[0] != area.size:
                self._local_geo = (area.size, sd.BoardGeometry(self.state.board, pygame.Rect((0, 0), area.size)))
            fresh = pygame.Surface(area.size)
            fresh.fill(render.BG)
            self._draw_board_layer(fresh, self._local_geo[1])
            surface.blit(fresh, area.topleft)
        elif self._board_layer is None or self._board_layer[0] != key:
            if self._local_geo is None or self._local_geo[0] != area.size:
                self._local_geo = (area.size, sd.BoardGeometry(self.state.board, pygame.Rect((0, 0), area.size)))
            lgeo = self._local_geo[1]
            old = self._board_layer
            looks = self._layer_looks()
            if old is not None and old[1].get_size() == area.size and self._looks is not None \
                    and self._looks[0] is lgeo:
                # Only the cells (and the last move's marks) that changed are drawn again: the
                # whole layer's drawing, clipped to where they are.
                layer = old[1]
                # each separate patch on its own: the last move and this one are often far apart
                patches = self._changed_regions(lgeo, self._looks[1], looks)
                for region in patches:
                    layer.set_clip(region)
                    layer.fill(render.BG, region)
                    self._draw_board_layer(layer, lgeo, region)
                layer.set_clip(None)
            else:
                layer = pygame.Surface(area.size)
                layer.fill(render.BG)
                self._draw_board_layer(layer, lgeo)
            self._looks = (lgeo, looks)
            self._board_layer = (key, layer, area.topleft)
        ch = self.chooser if self.human_to_move() is not None else None
        if render.KEEP_PARTS:
            assert self._board_layer is not None
            layer, at = self._board_layer[1], self._board_layer[2]
            shown = (id(surface), id(layer), at)
            if patches is not None and not self.parts.full and self._layer_shown == shown:
                for r in patches:
                    surface.blit(layer, r.move(at), r)
            else:
                if part is not None:
                    surface.fill(render.BG, part)
                surface.blit(layer, at)
            self._layer_shown = shown if ch is None else None
        if ch is not None:
            st = self.state
            idx = st.board.index
            seat = st.current_player()
            col = sd.seat_colour(seat) if seat >= 0 else render.TEXT
            self._draw_choice(surface, geo, ch, col)
            preview = ch.preview()
            if isinstance(preview, Move):      # the move under the cursor, see-through over the stones
                sd.arrow(surface, geo.centres[idx[preview.src]], geo.centres[idx[preview.dst]], col,
                         max(6, geo.cell // 11), alpha=150, trim_a=geo.box * 0.3, trim_b=geo.box * 0.5)

    #: The board layer's geometry and what its cells showed when it was last drawn.
    _looks: tuple[sd.BoardGeometry, Any] | None = None

    def _layer_looks(self) -> tuple[tuple[object, ...], object, object]:
        """What :meth:`_draw_board_layer` shows, cell by cell (stack, tint, outline, lifted
        stones) and the last move's arrow and drop mark (cell indices)."""
        st = self.state
        board = st.board
        idx = board.index
        ch = self.chooser if self.human_to_move() is not None else None
        seat = st.current_player()
        tint: dict[int, object] = {}
        if self.last is not None:
            _, a = self.last
            if isinstance(a, Move):
                tint[idx[a.src]] = "src"
                tint[idx[a.dst]] = "dst"
            elif isinstance(a, Drop):
                tint[idx[a.dst]] = "dst"
            elif isinstance(a, Swap):
                tint[idx[a.a]] = tint[idx[a.b]] = "dst"
        framed: set[int] = set()
        if ch is not None:
            cur = ch.current()
            for c in ch.marked_targets():
                tint[idx[c]] = ("target", seat, c == cur and ch.phase in ("target", "swap-b"))
            if ch.phase in ("source", "swap-a"):
                framed = {idx[c] for c in ch.items() if c != RESERVE}
        cells = []
        for i, cell in enumerate(board.cells):
            lift = 0
            if ch is not None and ch.src == cell and ch.phase in ("count", "target"):
                lift = ch.current() if ch.phase == "count" else (ch.count or 0)
            cells.append((tuple(st.stack(cell)), tint.get(i), (seat if i in framed else None), lift))
        marks = self.last is not None and (ch is None or not ch.half_chosen)
        arrow = plus = None
        if marks and self.last is not None:
            a = self.last[1]
            if isinstance(a, Move):
                arrow = (idx[a.src], idx[a.dst])
            elif isinstance(a, Drop):
                plus = idx[a.dst]
        return tuple(cells), arrow, plus

    @staticmethod
    def _cells_in(geo: sd.BoardGeometry, region: pygame.Rect) -> set[int]:
        """The cells whose drawing can reach into ``region`` (their box, with 8 px for a frame or
        the lifted stones)."""
        return {i for i in range(len(geo.polygons)) if geo.cell_box(i).inflate(16, 16).colliderect(region)}

    @staticmethod
    def _changed_regions(geo: sd.BoardGeometry, old: Any, new: Any) -> list[pygame.Rect]:
        """The parts of the layer to draw again between ``old`` and ``new`` looks (none: []):
        the changed cells and the cells under the old and new arrow and drop mark, with room
        for the arrow's head, the lifted stones' frame and the "+"; boxes that overlap are
        joined, boxes apart stay apart."""
        cell_box = geo.cell_box
        boxes = [cell_box(i).inflate(16, 16) for i, (a, b) in enumerate(zip(old[0], new[0])) if a != b]
        room = geo.cell // 2 + 16
        for looks in (old, new):
            if looks[1] != (old[1] if looks is new else new[1]) and looks[1] is not None:
                src, dst = looks[1]
                boxes.append(cell_box(src).union(cell_box(dst)).inflate(room, room))
            if looks[2] != (old[2] if looks is new else new[2]) and looks[2] is not None:
                boxes.append(cell_box(looks[2]).inflate(geo.cell, geo.cell))
        patches: list[pygame.Rect] = []
        for box in boxes:
            # join every patch this box overlaps, again until the joined box overlaps none
            while True:
                hit = box.collidelist(patches)
                if hit < 0:
                    break
                box = box.union(patches.pop(hit))
            patches.append(box)
        return patches

    def _draw_board_layer(self, surface: pygame.Surface, geo: sd.BoardGeometry,
                          region: pygame.Rect | None = None) -> None:
        """The whole board layer, or (``region``, with the surface clipped to it) only the cells
        and labels that reach into ``region``: the same pixels there, a fraction of the drawing."""
        st = self.state
        board = st.board
        idx = board.index
        tint: dict[int, tuple[int, int, int]] = {}
        if self.last is not None:
            _, a = self.last
            if isinstance(a, Move):
                tint[idx[a.src]] = (92, 88, 70)
                tint[idx[a.dst]] = (128, 118, 70)
            elif isinstance(a, Drop):
                tint[idx[a.dst]] = (128, 118, 70)
            elif isinstance(a, Swap):
                tint[idx[a.a]] = tint[idx[a.b]] = (128, 118, 70)
        ch = self.chooser if self.human_to_move() is not None else None
        seat = st.current_player()
        col = sd.seat_colour(seat) if seat >= 0 else render.TEXT
        if ch is not None:
            cur = ch.current()
            for c in ch.marked_targets():
                tint[idx[c]] = sd.target_wash(col, c == cur and ch.phase in ("target", "swap-b"))
        only = None if region is None else self._cells_in(geo, region)
        sd.draw_cells(surface, geo, tint, only, region)
        # choices: outline every stack the seat may pick
        if ch is not None and ch.phase in ("source", "swap-a"):
            for c in ch.items():
                if c != RESERVE and (only is None or idx[c] in only):
                    sd.frame_cell(surface, geo, idx[c], col, 3, inset=4)
        # the last move's arrow, under the stones (hidden once a move is half chosen)
        if self.last is not None and (ch is None or not ch.half_chosen):
            _s, a = self.last
            if isinstance(a, Move):
                sd.arrow(surface, geo.centres[idx[a.src]], geo.centres[idx[a.dst]], sd.LAST_MOVE,
                         max(5, geo.cell // 12), alpha=170, trim_a=geo.box * 0.2, trim_b=geo.box * 0.5)
        slots = max(self.game.capacity)
        hexboard = board.kind == "hex"
        for i, cell in enumerate(board.cells):
            if only is not None and i not in only:
                continue
            stack = st.stack(cell)
            lift = 0
            if ch is not None and ch.src == cell and ch.phase in ("count", "target"):
                lift = ch.current() if ch.phase == "count" else (ch.count or 0)
            sd.draw_cell_stack(surface, geo, i, stack, self.game.capacity[i], slots, empty_gauge=hexboard,
                               lift=lift)
        if self.last is not None and (ch is None or not ch.half_chosen) and isinstance(self.last[1], Drop):
            cx, cy = geo.centres[idx[self.last[1].dst]]
            render.text(surface, "+", (round(cx + geo.box * 0.42), round(cy - geo.box * 0.40)),
                        max(30, geo.cell // 2), sd.LAST_MOVE, "center", bold=True)

    def _draw_choice(self, surface: pygame.Surface, geo: sd.BoardGeometry, ch: MoveChooser,
                     col: tuple[int, int, int]) -> None:
        idx = self.state.board.index
        cur = ch.current()
        for c in ch.marked_targets():
            sd.target_mark(surface, geo, idx[c], col, strong=(ch.phase in ("target", "swap-b") and c == cur))
        pulse = 0.5 + 0.5 * math.sin(self.now / 1e9 * 2 * math.pi * 1.2)
        thick = 6 + int(3 * pulse)
        if ch.src is not None and ch.src != RESERVE and ch.phase in ("count", "target"):
            sd.frame_cell(surface, geo, idx[ch.src], col, 7, inset=2)
        if ch.first is not None and ch.phase == "swap-b":
            sd.frame_cell(surface, geo, idx[ch.first], col, 7, inset=2)
        if ch.phase in ("source", "swap-a", "target", "swap-b") and isinstance(cur, str) and cur != RESERVE:
            sd.frame_cell(surface, geo, idx[cur], render.GOLD, thick, inset=0)
        if cur == RESERVE:
            img = render.font(max(34, geo.cell // 2), True).render("drop from reserve", True, sd.INK)
            r = img.get_rect(midbottom=(geo.rect.centerx, geo.rect.bottom - 4))
            pygame.draw.rect(surface, render.GOLD, r.inflate(24, 12), border_radius=12)
            surface.blit(img, r)

    def _turn_key(self) -> tuple[object, ...]:
        """What the whose-turn box shows (render.Parts): the seat, the thinking ring's and the
        held button's fraction, the count choice, the prompt."""
        st = self.state
        cp = st.current_player()
        ring = held_ring = None
        if cp >= 0:
            if self.seats[cp].is_computer:
                span = max(self.pause_ns, int(self.budget_s * 1e9) if self.levels[cp] == "hard" else self.pause_ns)
                ring = ((self.now - self.think_started) % max(1, span)) / max(1, span) if self.future is not None \
                    else 0.0
            held = self.hold_start.get(cp)
            if held is not None and not self.seats[cp].is_computer:
                held_ring = max(0, self.now - held)
        ch = self.chooser if self.human_to_move() is not None else None
        count = (tuple(ch.counts()), ch.current()) if ch is not None and ch.phase == "count" else None
        return (cp, st.in_opening_swap, ring, held_ring, count, self.prompt())

    def _player_key(self, p: int) -> tuple[object, ...]:
        st = self.state
        ch = self.chooser
        reserve_cursor = st.current_player() == p and ch is not None and ch.phase == "source" \
            and ch.current() == RESERVE
        return (id(st), len(st.history), st.current_player(), self.seats[p].label, reserve_cursor,
                p in self.skipped, st.is_terminal())

    def _draw_side(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The side panel in the parts of :func:`side_layout`: the title row, whose turn, a
        card a player and below them the banner, the last moves and the virtual LED matrix."""
        st = self.state
        lay = side_layout(area, self.game.seats)
        self.note_strip = lay.head                # the title row: an app note goes over it
        parts = self.parts
        ply = len([1 for _p, a in st.history if not isinstance(a, Swap)])
        banner = self.banner[:2] if self.banner and self.now < self.banner[2] else None
        # with no room below the cards (a compact panel, or 4 players on 800x480) the banner
        # takes the title row for its moment
        head_banner = banner if lay.below.h < (COMPACT_BANNER_H if lay.compact else 50) else None
        parts.part(surface, "head", lay.head, (ply, st.is_terminal(), head_banner, lay.compact),
                   lambda: self._draw_head(surface, lay.head, ply, lay.compact, head_banner))
        turn = lay.turn
        if lay.compact:
            parts.part(surface, "turn", turn, (self._turn_key(), lay.hint),
                       lambda: self._draw_turn_compact(surface, turn, lay.hint))
        else:
            parts.part(surface, "turn", turn.inflate(0, 8).move(0, 4), self._turn_key(),
                       lambda: self._draw_turn(surface, turn))
        for p, card in enumerate(lay.cards):
            r = pygame.Rect(card.x, card.y, card.w, card.h - CARD_GAP)
            parts.part(surface, f"player{p}", card, (self._player_key(p), lay.card_rows),
                       lambda r=r, p=p: self._draw_player(surface, r, p, lay.card_rows,  # type: ignore[misc]
                                                          lay.compact))
        vm = self.app.led.virtual_picture() if self.app.led is not None else None
        below = lay.below
        parts.part(surface, "below", below, (banner if head_banner is None else None, tuple(self.log), vm,
                                              lay.compact),
                   lambda: self._draw_below(surface, area, below.y, vm, lay.compact, head_banner is None))

    def _draw_head(self, surface: pygame.Surface, area: pygame.Rect, ply: int, compact: bool = False,
                   banner: tuple[str, tuple[int, int, int]] | None = None) -> None:
        """The game's title and the move number, side by side: on a narrow panel (an 800x480
        display) the title is squeezed to the room left of the move number, never under it; a
        compact panel (480x320) shows the short title, or the banner when no room is below."""
        if banner is not None:
            msg, col = banner
            box = area.inflate(0, -4)
            pygame.draw.rect(surface, col, box, border_radius=8)
            # a narrow strip: the newest of the banner's messages alone, then its short form
            newest = msg.split("   ")[-1]
            short = newest.replace("has no move: skipped this turn", "skipped (no move)").replace(
                "has no move: out of the game", "is out (no move)")
            render.text_best(surface, (msg, newest, short), box.center, box.w - 12,
                             (34, 30, 28, 26, 24) if box.h >= 30 else (24,), sd.INK, "center", bold=True)
            return
        size = 24 if compact else 28
        moves = render.text(surface, f"move {ply + 1}" if not self.state.is_terminal() else f"{ply} moves",
                            (area.right, area.y + (2 if compact else 4)), size, render.DIM, "topright")
        title = SHORT_TITLES[self.variant] if compact else self.title
        render.text_best(surface, (title,), (area.x, area.y), moves.left - area.x - (6 if compact else 12),
                         (26,) if compact else (34, 30, 28, 26), render.TEXT, bold=True)

    def _draw_turn(self, surface: pygame.Surface, turn: pygame.Rect) -> None:
        st = self.state
        cp = st.current_player()
        col = sd.seat_colour(cp) if cp >= 0 else render.GOLD
        render.panel(surface, turn, render.PANEL, col, 4)
        what, hint = self.prompt()
        if cp >= 0:
            sd.seat_badge(surface, cp, (turn.x + 44, turn.y + 44), 30)
            who = f"P{cp + 1} swaps" if st.in_opening_swap else f"P{cp + 1} to move"
            # squeezed, never cut, left of the thinking ring (76 px at the right)
            render.text_best(surface, (who,), (turn.x + 88, turn.y + 14), turn.right - 76 - (turn.x + 88),
                             (50, 44, 40, 36, 32, 28), col, bold=True)
            if self.seats[cp].is_computer:
                frac = 0.0
                span = max(self.pause_ns, int(self.budget_s * 1e9) if self.levels[cp] == "hard" else self.pause_ns)
                if self.future is not None:
                    frac = ((self.now - self.think_started) % max(1, span)) / max(1, span)
                render.ring(surface, (turn.right - 42, turn.y + 44), 26, max(0.04, frac), col, 6)
                pygame.draw.circle(surface, render.PANEL_LIGHT, (turn.right - 42, turn.y + 44), 26, 2)
            held = self.hold_start.get(cp)
            if held is not None and not self.seats[cp].is_computer:
                t = max(0, self.now - held)
                frac = min(1.0, t / BACK_HOLD_NS)
                ring_col = render.GOLD if t < OK_HOLD_NS else (render.GOOD if t < BACK_HOLD_NS else render.BAD)
                render.ring(surface, (turn.right - 42, turn.y + 44), 26, max(0.04, frac), ring_col, 8)
        else:
            render.text(surface, "Game over", (turn.x + 16, turn.y + 14), 50, render.GOLD, bold=True)
        ch = self.chooser if self.human_to_move() is not None else None
        if ch is not None and ch.phase == "count":
            counts = list(ch.counts())
            # the count boxes share what the panel leaves after the question (a narrow panel: smaller)
            label = render.text_best(surface, ("How many?", "How many"), (turn.x + 16, turn.y + 64),
                                     max(40, turn.w // 3), (36, 30, 24), render.TEXT)
            x = label.right + 10
            step = max(26, min(46, (turn.right - 8 - x) // max(1, len(counts))))
            for k in counts:
                box = pygame.Rect(x, turn.y + 60, step - 6, 40)
                sel = k == ch.current()
                pygame.draw.rect(surface, render.GOLD if sel else render.PANEL_LIGHT, box, border_radius=8)
                render.text_within(surface, str(k), box.center, box.w - 2, 38 if sel else 30,
                                   sd.INK if sel else render.TEXT, "center", bold=True)
                x += step
        else:
            self._fit_text(surface, what, (turn.x + 16, turn.y + 66), turn.w - 28, 36, render.TEXT)
        self._fit_text(surface, hint, (turn.x + 16, turn.y + 100), turn.w - 28, 24, render.DIM)

    def _draw_turn_compact(self, surface: pygame.Surface, turn: pygame.Rect, hint_rows: int) -> None:
        """Whose turn on a compact panel (480x320): the seat's badge, "P1 to move" with the
        thinking or hold ring at its right, what to do and ``hint_rows`` rows of the hint, in
        rows of 24 px text (never smaller: :data:`kiosk.render.MIN_TEXT_PX`)."""
        st = self.state
        cp = st.current_player()
        col = sd.seat_colour(cp) if cp >= 0 else render.GOLD
        render.panel(surface, turn, render.PANEL, col, 3)
        what, hint = self.prompt()
        row = pygame.Rect(turn.x + 6, turn.y + 4, turn.w - 12, 24)
        ring_r = 9
        ring_c = (row.right - ring_r - 1, row.centery)
        if cp >= 0:
            sd.seat_badge(surface, cp, (row.x + 11, row.centery), 10, label=False)
            who = f"P{cp + 1} swaps" if st.in_opening_swap else f"P{cp + 1} to move"
            render.text_within(surface, who, (row.x + 26, row.y), ring_c[0] - ring_r - 4 - (row.x + 26), 28, col,
                               bold=True)
            if self.seats[cp].is_computer:
                frac = 0.0
                span = max(self.pause_ns, int(self.budget_s * 1e9) if self.levels[cp] == "hard" else self.pause_ns)
                if self.future is not None:
                    frac = ((self.now - self.think_started) % max(1, span)) / max(1, span)
                render.ring(surface, ring_c, ring_r, max(0.04, frac), col, 3)
                pygame.draw.circle(surface, render.PANEL_LIGHT, ring_c, ring_r, 1)
            held = self.hold_start.get(cp)
            if held is not None and not self.seats[cp].is_computer:
                t = max(0, self.now - held)
                ring_col = render.GOLD if t < OK_HOLD_NS else (render.GOOD if t < BACK_HOLD_NS else render.BAD)
                render.ring(surface, ring_c, ring_r, max(0.04, min(1.0, t / BACK_HOLD_NS)), ring_col, 4)
        else:
            render.text_within(surface, "Game over", row.topleft, row.w, 28, render.GOLD, bold=True)
        ch = self.chooser if self.human_to_move() is not None else None
        y = row.bottom + 2
        if ch is not None and ch.phase == "count":
            what = f"How many? {ch.current()} of {max(ch.counts())}"
        # a narrow panel: the move alone when its effect ("(height 2, ...)") does not fit beside it
        render.text_best(surface, (what, what.split("  (")[0]), (row.x, y), row.w, (24,), render.TEXT)
        for i, line in enumerate(render.wrap(hint, row.w, 24, hint_rows)):
            render.text_within(surface, line, (row.x, y + (i + 1) * COMPACT_ROW), row.w, 24, render.DIM)

    def _draw_below(self, surface: pygame.Surface, area: pygame.Rect, y: int, vm: Any, compact: bool = False,
                    with_banner: bool = True) -> None:
        """The banner, the last moves and the virtual LED matrix, under the player cards (on a
        compact panel: the banner and as many last moves as fit, without their heading)."""
        banner = self.banner_rect(area, y, compact) if with_banner else None
        if banner is not None:
            self._draw_banner(surface, banner)
            y = banner.bottom + 6
        # the last moves
        led_size = 0
        if self.app.led is not None and self.app.led.virtual is not None:
            led_size = min(150, area.bottom - y - 8)
        if led_size < 80:
            led_size = 0
        log_w = area.w - led_size - (10 if led_size else 0)
        yy = y + 2
        if not compact:
            if yy + 22 + 24 > area.bottom:           # no room for a move under the heading
                return
            render.text(surface, "last moves", (area.x + 4, yy), 22, render.DIM)
            yy += 22
        step = COMPACT_ROW if compact else 25
        pad = 20 if compact else 34
        for seat, text in reversed(self.log):
            if yy > area.bottom - (step - 1 if compact else 24):
                break
            msg = f"P{seat + 1} {text}"
            # a row above the matrix has the panel's width; one beside it only what the matrix
            # leaves: there a move too long to read is shown without its caption ("P2 g6-f6",
            # not "... 1 to reserve" squeezed to 8 px), and the list stops at one still too long
            width = (area.w if not led_size or yy + 24 <= area.bottom - led_size else log_w) - pad
            if width < MIN_LOG_KEPT * render.font(24).size(msg)[0] and text.split():
                msg = f"P{seat + 1} {text.split()[0]}"
            if width < MIN_LOG_KEPT * render.font(24).size(msg)[0]:
                break
            sd.seat_badge(surface, seat, (area.x + (8 if compact else 14), yy + 11), 6 if compact else 9, label=False)
            self._fit_text(surface, msg, (area.x + (18 if compact else 30), yy),
                           width, 24, render.TEXT if yy < y + 50 else render.DIM)
            yy += step
        if led_size:
            r = pygame.Rect(area.right - led_size, area.bottom - led_size, led_size, led_size)
            render.led_matrix(surface, r, vm)

    def _stat_items(self, p: int, short: bool) -> list[str]:
        """A player card's figures, the most important first: reserve and captures (3p: the
        captures of each opponent towards the goal, and the stones removed), then the tops and
        the stones on the board; ``short``: the compact panel's abbreviations."""
        st = self.state
        tops = sum(1 for c in st.board.cells if st.stack(c) and st.stack(c)[-1] == p)
        if self.variant == "3p":
            need = self.game.settings["goal_captures_each"]
            each = " ".join(f"P{c + 1}:{st.captured(p)[c]}" for c in range(3) if c != p)
            removed = f"{st.removed(p)}/{self.game.settings['goal_removed']}"
            if short:
                return [f"res {st.reserve(p)}", f"{each} /{need}", f"rm {removed}", f"tops {tops}"]
            return [f"reserve {st.reserve(p)}", f"caught {each} /{need}", f"removed {removed}", f"tops {tops}"]
        on_board = sum(1 for c in st.board.cells for s in st.stack(c) if s == p)
        caps = sum(st.captured(p))
        if short:
            return [f"res {st.reserve(p)}", f"cap {caps}", f"tops {tops}"]
        return [f"reserve {st.reserve(p)}", f"captured {caps}", f"tops {tops}", f"on board {on_board}"]

    def _draw_stats(self, surface: pygame.Surface, items: list[str], pos: tuple[int, int], right: int, size: int,
                    gap: int) -> None:
        """As many of ``items`` as fit, left to right, from ``pos`` to ``right`` (px): the first two bright,
        the rest dim; the first is squeezed to fit when even it does not."""
        x, y = pos
        for j, t in enumerate(items):
            img = render.font(size).render(t, True, render.TEXT if j < 2 else render.DIM)
            if x + img.get_width() > right:
                if j == 0:
                    render.text_within(surface, t, (x, y), right - x, size, render.TEXT)
                break
            surface.blit(img, (x, y))
            x += img.get_width() + gap

    def _draw_player_compact(self, surface: pygame.Surface, r: pygame.Rect, p: int, rows: int) -> None:
        """A player card on a compact panel (480x320): the seat's strip and shape, "P1" and its
        figures on one row; with two rows, the seat's label beside "P1" and the figures below.
        OUT or SKIPPED takes the figures' place."""
        st = self.state
        col = sd.seat_colour(p)
        active = st.current_player() == p
        pygame.draw.rect(surface, render.PANEL_LIGHT if active else render.PANEL, r, border_radius=8)
        if active:
            pygame.draw.rect(surface, col, r, 2, border_radius=8)
        pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, 6, r.h), border_top_left_radius=8,
                         border_bottom_left_radius=8)
        row1 = pygame.Rect(r.x + 10, r.y + 4, r.w - 14, COMPACT_ROW)
        sd.seat_badge(surface, p, (row1.x + 9, row1.centery), 8, label=False)
        name = render.text(surface, f"P{p + 1}", (row1.x + 21, row1.y), 24, col, bold=True)
        tag: tuple[str, tuple[int, int, int]] | None = None
        if not st.active(p):
            tag = ("OUT", render.BAD)
        elif p in self.skipped and not st.is_terminal():
            tag = ("SKIPPED", render.GOLD)
        x = name.right + 8
        if rows >= 2:
            render.text_best(surface, label_wordings(self.seats[p].label[:20]),
                             (row1.right, row1.y + 2), row1.right - x, (24,), render.DIM, "topright")
            x, y = row1.x + 4, row1.bottom
        else:
            y = row1.y
        if tag is not None:
            render.text_within(surface, tag[0], (x, y), row1.right - x, 24, tag[1], bold=True)
        else:
            self._draw_stats(surface, self._stat_items(p, short=True), (x, y), row1.right, 24, 10)
        ch = self.chooser
        if active and ch is not None and ch.phase == "source" and ch.current() == RESERVE:
            pygame.draw.rect(surface, render.GOLD, r, 3, border_radius=8)

    def _draw_player(self, surface: pygame.Surface, r: pygame.Rect, p: int, rows: int = 2,
                     compact: bool = False) -> None:
        if compact:
            self._draw_player_compact(surface, r, p, rows)
            return
        st = self.state
        col = sd.seat_colour(p)
        active = st.current_player() == p
        render.panel(surface, r, render.PANEL_LIGHT if active else render.PANEL, col if active else None, 4)
        pygame.draw.rect(surface, col, pygame.Rect(r.x, r.y, 10, r.h), border_top_left_radius=12,
                         border_bottom_left_radius=12)
        big = r.h >= 80
        sd.seat_badge(surface, p, (r.x + 38, r.y + r.h // 2), 22 if big else 19)
        skipped = p in self.skipped and not st.is_terminal() and st.active(p)
        badge = self._skipped_badge(r) if skipped else None
        self._draw_name_row(surface, r, p, big, col, label=p not in self.skipped or st.is_terminal(),
                            reserve=0 if badge is None else badge[1].w)
        self._draw_stats(surface, self._stat_items(p, short=False), (r.x + 70, r.y + (46 if big else 40)),
                         r.right - 8, 26 if big else 24, 16)
        ch = self.chooser
        if active and ch is not None and ch.phase == "source" and ch.current() == RESERVE:
            pygame.draw.rect(surface, render.GOLD, r, 5, border_radius=12)
        if not st.active(p):
            render.text(surface, "OUT", (r.right - 10, r.bottom - 8), 34, render.BAD, "bottomright", bold=True)
        elif badge is not None:
            msg, box = badge
            pygame.draw.rect(surface, render.GOLD, box, border_radius=8)
            render.text(surface, msg, box.center, 26, sd.INK, "center", bold=True)

    #: The station label's size on a full player card (px) and the gap left of it (px).
    CARD_LABEL_PX, CARD_LABEL_GAP = 22, 12

    def _skipped_badge(self, r: pygame.Rect) -> tuple[str, pygame.Rect]:
        """The SKIPPED badge at the right of a full card's top row, in place of the station
        label: "SKIPPED: no move" when the seat's name ("P3" at least) still fits beside it,
        else "SKIPPED" (issue 20: at 800x480 the badge covered "P3  team P1+P3")."""
        room = r.w - 80 - self.CARD_LABEL_GAP - render.font(render.MIN_TEXT_PX, True).size("P4")[0]
        msg = "SKIPPED"
        if render.font(26, True).size("SKIPPED: no move")[0] + 14 <= room:
            msg = "SKIPPED: no move"
        box = pygame.Rect(0, 0, render.font(26, True).size(msg)[0] + 14, render.font(26, True).get_height() + 6)
        box.topright = (r.right - 3, r.y + 5)
        return msg, box

    def _draw_name_row(self, surface: pygame.Surface, r: pygame.Rect, p: int, big: bool,
                       col: tuple[int, int, int], label: bool = True, reserve: int = 0) -> None:
        """A full card's top row: "P1" (in the team game with its team) at the left, the
        seat's station label at the right, side by side: the name takes the longest wording
        that fits beside the label ("P1  team P1+P3", "P1  team 1+3", "P1 1+3", "P1") at the
        largest size from 34 (30 on a low card) down to 24 px; when none fits, "P1 1+3" (or
        "P1") at 24 px and the label squeezed into the rest (issue 20: at 800x480 the team name ran
        under "GPIO 17").  ``label`` False: no label; ``reserve``: the width (px) the SKIPPED
        badge takes at the right of the row instead (the name keeps beside it)."""
        left, right = r.x + 70, r.right - 10 - (reserve + self.CARD_LABEL_GAP if reserve else 0)
        wordings = [f"P{p + 1}"]
        if self.game.teams:
            a, b = ("1", "3") if p % 2 == 0 else ("2", "4")
            wordings = [f"P{p + 1}  team P{a}+P{b}", f"P{p + 1}  team {a}+{b}", f"P{p + 1} {a}+{b}"] + wordings
        text = self.seats[p].label[:20] if label else ""
        label_w = render.font(self.CARD_LABEL_PX).size(text)[0] if text else 0
        room = right - left - (label_w + self.CARD_LABEL_GAP if text else 0)
        sizes = tuple(range(34 if big else 30, render.MIN_TEXT_PX - 1, -2))
        fits = [w for w in wordings if render.font(sizes[-1], True).size(w)[0] <= room]
        if fits:
            name = render.text_best(surface, fits, (left, r.y + 6), room, sizes, col, bold=True)
        else:                     # a long label ("away: computer plays"): the name whole, the label squeezed
            name = render.text(surface, wordings[-2 if self.game.teams else -1], (left, r.y + 6), sizes[-1], col,
                               bold=True)
        if text:
            render.text_best(surface, label_wordings(text), (right, r.y + 10),
                             right - name.right - self.CARD_LABEL_GAP, (self.CARD_LABEL_PX,), render.DIM, "topright")

    @staticmethod
    def _fit_text(surface: pygame.Surface, msg: str, pos: tuple[int, int], width: int, size: int,
                  colour: tuple[int, int, int]) -> None:
        """``msg`` in ``width`` px: the font shrinks in 2 px steps to the smallest the TV shows
        (:data:`kiosk.render.MIN_TEXT_PX`), then the text is squeezed, never cut."""
        render.text_best(surface, (msg,), pos, width, tuple(range(size, render.MIN_TEXT_PX - 1, -2)) or (size,), colour)

    # -- LED ----------------------------------------------------------------------------------------
    def led_picture(self, now_ns: int) -> LedPicture | None:
        from arcade.views import pictures as ledv
        from arcade.views.sackson_pictures import state_picture
        cfg = self.app.cfg["led"]
        w, h = cfg["width"], cfg["height"]
        out = self.state.outcome()
        if out is not None and self.over_at is not None and out.winners:
            phase = ((now_ns - self.over_at) % 1_000_000_000) / 1e9
            if now_ns - self.over_at < FINISH_NS // 2:
                return ledv.flash_picture(out.winners[0], phase, w, h)
        # one picture a position: made again only when a move was played (or the size changed)
        key = (id(self.state), len(self.state.history), self.state.position_key, w, h)
        if self._led_cache is None or self._led_cache[0] != key:
            self._led_cache = (key, state_picture(self.state, w, h))
        return self._led_cache[1]

    #: The last LED picture of the position and what it showed.
    _led_cache: tuple[tuple[object, ...], Any] | None = None


#: The registry entries this screen draws (label, names and seats from arcade.registry).
LOBBY_GAMES = [lobby_game("crossfire" if v == "crossfire" else f"focus-{v}", partial(SacksonScene, variant=v))
               for v in ("2p", "3p", "4p-teams", "4p", "crossfire")]
