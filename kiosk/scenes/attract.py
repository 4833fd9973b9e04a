"""The title (attract) screen and the attract loop.

The title says what the arcade is and how to start: any buzzer (or OK) opens the
lobby with that seat joined.  After ``[attract] idle_s`` seconds with nobody
pressing, the attract loop starts (as arcade cabinets do): a demo game of each
game family in turn, played by computer players through the same scenes,
referee and judge as a real game, at most ``demo_s`` seconds each; between two
demo games the high scores and "press your buzzer to play" for ``scores_s``
seconds.  Any person's press anywhere in the loop leaves it for the lobby.
Demo games are never recorded in the results or the high scores.
"""

from __future__ import annotations

import collections
import math
import random
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

import pygame

from arcade import i18n, registry
from arcade.core.events import Edge
from arcade.i18n import _, pgettext
from arcade.registry import GameSpec
from kiosk import render
from kiosk.controls.input import Command
from kiosk.persist.highscores import score_rule
from kiosk.persist.storage import StorageError
from kiosk.scene import Scene
from kiosk.scenes.seats import LobbyGame, SeatInfo, screen_part

if TYPE_CHECKING:
    from kiosk.scene import Host

#: With an event on, the title screen shows the hall's leaderboard this long after every
#: TITLE_S seconds of title (issue 15).
TITLE_S = 12.0
BOARD_S = 10.0
#: Demo games the attract loop remembers by name (:attr:`AttractLoop.shown`): a few rounds of every family.
SHOWN_KEPT = 32


#: How opaque (0-255) the veil of the background colour over the title's cards is.
VEIL_ALPHA = 190


def veiled(img: pygame.Surface, colour: tuple[int, int, int], alpha: int) -> pygame.Surface:
    """A copy of ``img`` as seen through a veil of ``colour`` that is ``alpha`` (0-255) opaque:
    every pixel's colour moved ``alpha``/255 of the way to ``colour``, its own transparency kept.
    Drawn over a background of ``colour`` it looks the same as a veil blended over the card and
    the background, without a screen-sized blend each frame."""
    out = img.convert_alpha() if pygame.display.get_surface() is not None else img.copy()
    keep = 255 - alpha
    out.fill((keep, keep, keep), special_flags=pygame.BLEND_RGB_MULT)
    out.fill(tuple(c * alpha // 255 for c in colour), special_flags=pygame.BLEND_RGB_ADD)
    return out


#: The colour key of the title's cards once keyed (:func:`keyed`): never a colour of a veiled card.
CARD_KEY = (255, 0, 255)


def keyed(img: pygame.Surface, key: tuple[int, int, int] = CARD_KEY) -> pygame.Surface:
    """``img`` drawn the same, faster: when every pixel is either fully see-through or fully
    opaque (a tilted card: its corners), an opaque picture whose see-through pixels are
    ``key`` (run-length encoded: a blit copies the runs, no blending); else ``img``.  The
    pixels it puts on a surface are the same (tests/test_title_cards.py)."""
    if not img.get_flags() & pygame.SRCALPHA:
        return img
    seen = pygame.mask.from_surface(img, 0)
    opaque = pygame.mask.from_surface(img, 254)
    if seen.count() != opaque.count():
        return img
    out = pygame.Surface(img.get_size())
    out.fill(key)
    out.blit(img, (0, 0))
    if pygame.mask.from_threshold(out, key, (1, 1, 1, 255)).overlap_area(opaque, (0, 0)):
        return img                        # the key is one of the picture's colours
    if pygame.display.get_surface() is not None:
        out = out.convert()
    out.set_colorkey(key, pygame.RLEACCEL)
    return out


def opaque_inside(img: pygame.Surface) -> pygame.Rect | None:
    """A large rect (in ``img``'s pixels) where every pixel of ``img`` is opaque (a tilted
    card: the rect inside its corners), or None: a blit of ``img`` covers it whole."""
    seen = pygame.mask.from_surface(img, 254) if img.get_flags() & pygame.SRCALPHA else None
    if seen is None:
        if img.get_colorkey() is None:
            return img.get_rect()
        seen = pygame.mask.from_surface(img)              # the pixels not the key
    w, h = img.get_size()
    for inset in range(0, min(w, h) // 2, 2):
        for dx, dy in ((inset, inset), (inset, 0), (0, inset)):
            r = pygame.Rect(dx, dy, w - 2 * dx, h - 2 * dy)
            if r.w > 0 and r.h > 0 and seen.overlap_area(pygame.mask.Mask(r.size, fill=True), r.topleft) == r.w * r.h:
                return r
    return None


def game_label(record: dict[str, Any], games: Sequence[LobbyGame | GameSpec]) -> str:
    """The lobby's label of a saved game (``games``: the lobby's games or the registry's
    entries; ``record``: the saved game's record), e.g. "FocusX Classic"."""
    for g in games:                       # records carry the registry name ("entry")
        if record.get("entry") and g.name == record.get("entry"):
            return _(str(g.label))
    name = record.get("game", "")
    settings = record.get("settings", {}) or {}
    family, _sep, mode = name.partition("-")
    mode = mode or settings.get("mode") or settings.get("variant") or "classic"
    if family == "focusx" and settings.get("x_rule"):
        mode += "-x"
    for g in games:
        if g.family == family and g.mode == mode:
            return _(g.label)
    for g in games:
        if g.family == family:
            return _(g.label)
    return str(name)


class AttractLoop:
    """The rotation of demo games (one per game family in turn)."""

    def __init__(self, app: Host) -> None:
        from kiosk.scenes.lobby import offered_games
        self.app = app
        a = app.cfg.data.get("attract", {})
        self.demo_ns = int(a.get("demo_s", 75) * 1e9)
        self.scores_ns = int(a.get("scores_s", 10) * 1e9)
        by_family: dict[str, list[LobbyGame]] = {}
        for g in offered_games(app):
            by_family.setdefault(g.family, []).append(g)
        self.families = list(by_family.values())
        self.turn = 0
        self.boards_turn = 0              # the next board the high-score page may show (AttractScene)
        self.started: int | None = None
        self.current: LobbyGame | None = None
        # "family:mode" of the last SHOWN_KEPT demo games started (tests, logs); ``turn`` counts them
        # all (a list of every one grew all day, issue 23)
        self.shown: collections.deque[str] = collections.deque(maxlen=SHOWN_KEPT)
        self.saved_results: Any = None
        self.running = True
        _opened = app.highscores          # opened now: the results file is put aside during demos

    def next_game(self) -> LobbyGame:
        fam = self.families[self.turn % len(self.families)]
        game = fam[(self.turn // len(self.families)) % len(fam)]     # each family's modes in turn
        self.turn += 1
        return game

    def start_demo(self, now_ns: int) -> None:
        """The next family's demo game, computer players at every seat."""
        app = self.app
        game = self.next_game()
        skill = app.cfg["seats"]["computer_skill"]
        n = max(game.min_seats, min(game.max_seats, game.demo_seats))
        from kiosk.scenes.lobby import computer_label
        seats = [SeatInfo("computer", computer_label(skill), skill) for _seat in range(n)]
        if app.results is not None:
            self.saved_results, app.results = app.results, None      # demo games are not recorded
        app.current_game = game
        app.attract_demo = True
        self.current = game
        self.started = now_ns
        self.shown.append(f"{game.family}:{game.mode}")
        app.replace(game.start(app, seats))

    def tick(self, now_ns: int) -> None:
        """Ends a demo game after ``demo_s`` (or a few seconds of its results)."""
        from kiosk.scenes.results import ResultsScene
        if not self.app.attract_demo or self.started is None:
            return
        top = self.app.scenes[-1]
        if isinstance(top, ResultsScene):
            if top.entered is not None and now_ns - top.entered > 6_000_000_000:
                self.app.home()
        elif now_ns - self.started > self.demo_ns:
            self.app.home()

    def stop(self) -> None:
        self.running = False
        if self.saved_results is not None:
            self.app.results, self.saved_results = self.saved_results, None
        self.app.attract_demo = False


class TitlePictures(Protocol):
    """The pictures drifting behind the title (FocusX: its card faces): a game's screen package
    offers them as ``TITLE`` in its ``title`` module."""

    count: int

    def picture(self, index: int, width: int) -> pygame.Surface:
        """Picture ``index`` (0 <= index < ``count``), ``width`` px wide (cached; not drawn on)."""
        ...


def title_pictures() -> TitlePictures | None:
    """The title's pictures: those of the first registry entry whose screens offer some."""
    for spec in registry.SPECS:
        module = screen_part(spec, "title")
        if module is not None:
            pictures: TitlePictures = module.TITLE
            return pictures
    return None


class AttractScene(Scene):
    led_idle = True     # the matrix shows the idle picture or is handed back ([led] idle)

    def __init__(self, app: Host, loop: AttractLoop | None = None) -> None:
        super().__init__(app)
        rng = random.Random()
        self.pictures = title_pictures()
        count = self.pictures.count if self.pictures is not None else 0
        # (picture, x and y as fractions of the screen, drift speed, tilt in degrees)
        self.cards = [(rng.randrange(count), rng.random(), rng.random(), rng.uniform(0.3, 1.0),
                       rng.uniform(-15.0, 15.0)) for _card in range(12)] if count else []
        self._card_size: tuple[int, int] | None = None
        self._card_images: list[pygame.Surface] = []
        # what the screen shows now (the cards' places; each layer's name, key and recorded
        # drawing), None: draw everything next frame
        self._shown: tuple[list[tuple[int, int]], list[tuple[str, object, list[render.Op]]]] | None = None
        self._parts = render.Parts()
        self.loop = loop
        self.t0: int | None = None
        self.now = 0.0
        a = app.cfg.data.get("attract", {})
        self.idle_ns = int(a.get("idle_s", 60) * 1e9)
        self.demo_games = a.get("demo_games", True)
        if loop is not None:
            app.attract_demo = False          # between demo games: this page
        self.recent: list[dict[str, Any]] = []                 # the store's rows, newest first
        # (game label, winners, reason); "winners" is "P1, P3", or "" for none (:meth:`recent_texts`)
        self.recent_lines: list[tuple[str, str, str]] = []
        self.coop_recent: list[bool] = []                      # each recent game's: played together
        results = app.results if app.results is not None else (loop.saved_results if loop else None)
        try:
            self.recent = results.recent(5) if results is not None else []
        except StorageError as exc:      # the title screen must always come up
            self.recent = []
            app.message(str(exc))
        # The labels come from the registry: no game's screen module is imported for the
        # title's first frame (issue 22: importing them all cost 0.4 s of a 0.6 s start).
        games: list[Any] = list(registry.SPECS)
        for r in self.recent[:4]:
            try:
                assert results is not None
                label = game_label(results.record(r["id"]), games)
            except Exception:
                label = r["game"]
            coop = str(r["game"]).startswith("coop")
            who = ", ".join(f"P{w + 1}" for w in r["winners"])
            self.recent_lines.append((label, who, r["reason"]))
            self.coop_recent.append(coop)
        # What the results store moved or put aside stays on the title screen for the operator.
        self.store_notices: list[str] = list((app.results.notices if app.results is not None else []) or [])

    def recent_texts(self) -> list[tuple[str, str]]:
        """Each recent game as the title shows it, in the language spoken now: the whole line
        and the line without its reason ("FocusX Classic: P1, P3 (most cards)"; nobody won:
        "draw", or "lost" for a game played together)."""
        out = []
        for i, (label, who, reason) in enumerate(self.recent_lines):
            coop = i < len(self.coop_recent) and self.coop_recent[i]
            who = who or (pgettext("result", "lost") if coop else pgettext("result", "draw"))
            game = _(label)
            out.append((_("{game}: {winners} ({reason})").format(game=game, winners=who, reason=_(reason)),
                        _("{game}: {winners}").format(game=game, winners=who)))
        return out

    def _lobby(self, edge: Edge | None = None) -> None:
        from kiosk.scenes.lobby import LobbyScene
        self.app.end_attract()
        self.app.replace(LobbyScene(self.app, joined_by=edge))

    def showing_board(self) -> bool:
        """Whether the title is on the hall's leaderboard page now (only with an event)."""
        if self.app.event is None or self.loop is not None:
            return False
        return self.now % (TITLE_S + BOARD_S) >= TITLE_S

    def on_command(self, command: Command) -> None:
        if command.name == "ok":          # Enter, Space, a gamepad's Start
            self._lobby()
        elif command.name == "right" and self.app.event is not None:
            from kiosk.scenes.leaderboard import LeaderboardScene
            self.app.end_attract()
            self.app.replace(LeaderboardScene(self.app))

    def on_edge(self, edge: Edge) -> None:
        if edge.pressed and edge.control in ("buzzer", "ok"):
            self._lobby(edge if edge.control == "buzzer" else None)

    def update(self, now_ns: int) -> None:
        if self.t0 is None:
            self.t0 = now_ns
        self.now = (now_ns - self.t0) / 1e9
        if self.loop is not None:
            if now_ns - self.t0 >= self.loop.scores_ns:
                self.loop.start_demo(now_ns)
        elif self.demo_games and now_ns - self.t0 >= self.idle_ns:
            self.app.attract = AttractLoop(self.app)
            if self.app.attract.families:
                self.app.attract.start_demo(now_ns)

    # -- drawing ---------------------------------------------------------------------------
    def _card_places(self, W: int, H: int) -> list[tuple[int, int]]:
        """Where each card is now (its top left, in whole pixels as a blit puts it): made once
        per screen size (tilted and veiled, issue 22: rotating twelve cards and blending a
        screen-sized veil every frame cost 7.6 ms a frame at 1080p, about 12 fps on a
        Raspberry Pi 3); a frame only moves them."""
        cw = W // 12
        if self._card_size != (W, H):
            self._card_size = (W, H)
            self._card_images = [
                veiled(pygame.transform.rotate(self.pictures.picture(num, cw), tilt), render.BG, VEIL_ALPHA)
                for num, _fx, _fy, _speed, tilt in self.cards] if self.pictures is not None else []
            self._keyed = 0
            self._inner = [None] * len(self._card_images)
            w = max((img.get_width() for img in self._card_images), default=0) + 2
            h = max((img.get_height() for img in self._card_images), default=0) + 2
            self._bg_tile = pygame.Surface((w, h))
            if pygame.display.get_surface() is not None:
                self._bg_tile = self._bg_tile.convert()
            self._bg_tile.fill(render.BG)
        elif self._keyed < len(self._card_images):
            # one card a frame made faster to draw (the same pixels), not all in the first frame
            img = self._card_images[self._keyed] = keyed(self._card_images[self._keyed])
            self._inner[self._keyed] = opaque_inside(img)
            self._keyed += 1
        now = self.now
        sin = math.sin
        return [(int((fx * W + now * 40 * speed) % (W + cw) - cw), int(fy * H + sin(now * speed + i) * 20))
                for i, (_num, fx, fy, speed, _tilt) in enumerate(self.cards)]

    def _layers(self, W: int, H: int) -> list[tuple[str, object, Callable[[pygame.Surface], object]]]:
        """What is drawn over the cards, in order: (name, what it shows, its drawing).  A layer
        is drawn again only when what it shows changes (the prompt's blink, the language)."""
        blink = int(self.now * 2) % 2 == 0
        lang = i18n.current()
        if self.loop is not None:
            words = ("scores", (lang, W, H, self._scores_game()), self._draw_scores_words)
            prompt = ("prompt", (lang, W, H, blink), lambda s: self._draw_scores_prompt(s, blink))
            # a small display lays the tables out between the title and the prompt: the prompt first
            return [prompt, words] if render.small_screen(W, H) else [words, prompt]
        return [("title", (W, H), self._draw_title),
                ("prompt", (lang, W, H, blink), lambda s: self._draw_prompt(s, blink)),
                ("recent", (lang, W, H, tuple(self.recent_lines), tuple(self.store_notices)), self._draw_recent)]

    def draw(self, surface: pygame.Surface) -> None:
        if self.showing_board() and self.app.event is not None:
            from kiosk.scenes import leaderboard
            page = int(self.now // (TITLE_S + BOARD_S))
            leaderboard.draw(surface, self.app.event, page, prompt=_("Press your buzzer to play"))
            self._shown = None
            return
        W, H = surface.get_size()
        at = self._card_places(W, H)
        layers = self._layers(W, H)
        full = self._parts.begin(surface)
        if not render.KEEP_PARTS:                 # drawn from scratch; what is kept stays as it was
            self._draw_all(surface, at, layers, keep=False)
            return
        shown = self._shown
        if full or shown is None or [n for n, _k, _d in layers] != [n for n, _k, _o in shown[1]]:
            self._draw_all(surface, at, layers, keep=True)
            return
        # Only what changed (issue 22): a layer whose words changed, and where a card moved.
        was, kept = shown
        ops = [o for _n, _k, o in kept]
        for i, (name, key, draw) in enumerate(layers):
            if kept[i][1] == key:
                continue
            area = render.ops_area(ops[i])
            if area is None:
                self._draw_all(surface, at, layers, keep=True)
                return
            new = self._repaint(surface, area, at, ops, (i, draw))
            kept[i] = (name, key, new)
            ops[i] = new
            grown = render.ops_area(new)
            if grown is not None and not area.contains(grown):   # it grew: everything again
                self._draw_all(surface, at, layers, keep=True)
                return
        imgs = self._card_images
        for j, (old, now) in enumerate(zip(was, at)):
            if old != now:
                w, h = imgs[j].get_size()
                inner = self._inner[j] if j < len(self._inner) else None
                self._repaint(surface, pygame.Rect(old, (w, h)).union(pygame.Rect(now, (w, h))), at, ops,
                              covered=inner.move(now) if inner is not None else None)
        self._shown = (at, kept)

    def _draw_all(self, surface: pygame.Surface, at: list[tuple[int, int]],
                  layers: list[tuple[str, object, Callable[[pygame.Surface], object]]], keep: bool) -> None:
        """The whole screen: the background, the cards, each layer (recorded, with ``keep``)."""
        surface.fill(render.BG)
        surface.fblits(list(zip(self._card_images, at)))
        kept = []
        for name, key, draw in layers:
            with render.Recording() as ops:
                draw(surface)
            kept.append((name, key, ops))
        if keep:
            self._shown = (at, kept)

    def _repaint(self, surface: pygame.Surface, area: pygame.Rect, at: list[tuple[int, int]],
                 ops: list[list[render.Op]],
                 redraw: tuple[int, Callable[[pygame.Surface], object]] | None = None,
                 covered: pygame.Rect | None = None) -> list[render.Op]:
        """``area`` of the screen drawn again as the whole drawing would: the background, the
        cards over it, the layers' recorded steps (layer ``redraw[0]`` drawn afresh by
        ``redraw[1]`` and recorded: returned).  ``covered``: a rect that a card drawn here
        covers whole (opaque), so the background need not be cleared under it."""
        clip = surface.get_clip()
        area = area.clip(clip)
        new: list[render.Op] = []
        if area.w <= 0 or area.h <= 0:
            return ops[redraw[0]] if redraw is not None else new
        surface.set_clip(area)
        try:
            if covered is not None and area.contains(covered):
                for strip in (pygame.Rect(area.x, area.y, area.w, covered.y - area.y),
                              pygame.Rect(area.x, covered.bottom, area.w, area.bottom - covered.bottom),
                              pygame.Rect(area.x, covered.y, covered.x - area.x, covered.h),
                              pygame.Rect(covered.right, covered.y, area.right - covered.right, covered.h)):
                    if strip.w > 0 and strip.h > 0:
                        self._clear(surface, strip)
            else:
                self._clear(surface, area)
            for img, xy in zip(self._card_images, at):
                if area.colliderect((xy, img.get_size())):
                    surface.blit(img, xy)
            for i, layer in enumerate(ops):
                if redraw is not None and i == redraw[0]:
                    with render.Recording() as new:
                        redraw[1](surface)
                else:
                    render.replay(surface, layer, area)
        finally:
            surface.set_clip(clip)
        return new

    def _clear(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """``area`` in the background colour: a blit of a tile of it (issue 22: filling a
        card-sized rect cost 180 us here where its x was a multiple of 4, SDL's streaming
        stores; a blit 7 us)."""
        tile = self._bg_tile
        tw, th = tile.get_size()
        if tw <= 2 or th <= 2:
            surface.fill(render.BG, area)
            return
        surface.fblits([(tile, (x, y)) for y in range(area.y, area.bottom, th) for x in range(area.x, area.right, tw)])

    _bg_tile = pygame.Surface((0, 0))
    _keyed = 0
    _inner: list[pygame.Rect | None] = []

    def _draw_title(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        render.text_block(surface, "FOCUS ARCADE", (W // 2, H // 3), W - 16, int(H * 0.16), 1, render.GOLD, "center",
                          bold=True)

    def _draw_prompt(self, surface: pygame.Surface, blink: bool) -> None:
        W, H = surface.get_size()
        render.text_block(surface, _("Press your buzzer to play"), (W // 2, H // 2 + 20), W - 16, int(H * 0.07), 2,
                          render.TEXT if blink else render.DIM, "center", bold=True)

    def _draw_recent(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        y = H // 2 + 90
        if self.recent_lines:
            render.text(surface, _("Recent games"), (W // 2, y), 28, render.DIM, "center")
            y += 34
        notice = _("Results file: {notice}").format(notice=self.store_notices[-1]) if self.store_notices else ""
        bottom = H - 52 - render.lines_height(notice, W - 40, 24, 3) - 4 if notice else H - 4
        for whole, short in self.recent_texts():
            # one line each, as many as the screen holds: the reason gives way where the whole
            # line does not fit (at 480x320 "Oh dear, there are some difficulties..." ran off
            # both edges, and a fifth game below the screen's bottom)
            if y - 14 + render.line_height(28) > bottom:
                break
            render.text_best(surface, (whole, short), (W // 2, y - 14),
                             W - 40, (28, 26, 24), render.TEXT, "midtop")
            y += 34
        if notice:
            text = notice
            # up to three lines from the bottom up: a notice names a path, too long for one
            # line on a small display (text_fit's two lines cut it at both edges at 480x320)
            render.text_block(surface, text, (W // 2, H - 52), W - 40, 24, 3, render.GOLD, "midbottom")

    def _draw_scores_words(self, surface: pygame.Surface) -> None:
        """The high-score page but its prompt: the title and the tables (on a small display
        scaled to the height: the tables get what the title and the prompt leave)."""
        W, H = surface.get_size()
        game = self._scores_game()
        if render.small_screen(W, H):
            title = render.text_block(surface, "FOCUS ARCADE", (W // 2, 6), W - 16, max(24, min(72, H // 8)), 1,
                                      render.GOLD, "midtop", bold=True)
            box = pygame.Rect(8, title.bottom + 6, W - 16, self._prompt_top - 6 - title.bottom - 6)
        else:
            render.text(surface, "FOCUS ARCADE", (W // 2, 20), 72, render.GOLD, "midtop", bold=True)
            box = pygame.Rect(W // 2 - 420, 110, 840, H - 110 - 130)
        if game is not None:
            rule = score_rule(game.family, game.mode)
            from kiosk.scenes.scoreboard import draw_tables
            draw_tables(surface, box, self.app, game.name, _(game.label), rule, 36)  # type: ignore[arg-type]
        else:
            self._draw_no_scores(surface, box)

    def _draw_scores_prompt(self, surface: pygame.Surface, blink: bool) -> None:
        W, H = surface.get_size()
        if render.small_screen(W, H):
            prompt = render.text_block(surface, _("Press your buzzer to play!"), (W // 2, H - 6), W - 16,
                                       max(24, min(60, H // 9)), 1, render.TEXT if blink else render.GOLD,
                                       "midbottom", bold=True)
            self._prompt_top = prompt.top
            return
        render.text(surface, _("Press your buzzer to play!"), (W // 2, H - 70), 60,
                    render.TEXT if blink else render.GOLD, "center", bold=True)

    _prompt_top = 0

    def _scores_game(self) -> LobbyGame | None:
        """The game whose tables this page shows: only a board that has scores, so a page of
        empty tables never comes up while another board has some.  The demo game just played
        if its board has scores, else the next board with scores in turn (each page between
        demo games the next one); None when no board has a score yet.  Chosen once a page."""
        if self._board_chosen:
            return self._board
        self._board_chosen = True
        assert self.loop is not None
        games = [g for fam in self.loop.families for g in fam]
        n = len(games)
        turn = self.loop.boards_turn
        cands = [self.loop.current] if self.loop.current is not None else []
        cands += [games[(turn + i) % n] for i in range(n)]
        for g in cands:
            if g is not None and self._has_scores(g):
                if g is not self.loop.current and g in games:
                    self.loop.boards_turn = games.index(g) + 1
                self._board = g
                return g
        return None

    def _has_scores(self, game: LobbyGame) -> bool:
        rule = score_rule(game.family, game.mode)
        hs = self.app.highscores
        if rule is None or hs is None:
            return False
        try:
            return bool(hs.table(game.name, rule, None, limit=1))
        except Exception:  # noqa: BLE001 - a damaged table shows no board, the page still comes up
            return False

    _board: LobbyGame | None = None
    _board_chosen = False

    def _draw_no_scores(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """No board has a score yet: one line instead of empty tables."""
        render.text_block(surface, _("No high scores yet: play a game and be the first!"), box.center, box.w - 16,
                          44, 2, render.TEXT, "center", bold=True)
