"""The FOCUS / Crossfire screen in parts (render.Parts): the board and the side panel.

Only draws; never changes a game state.  The scene (:mod:`kiosk.games.sackson.scene`) makes
a :class:`ScreenShown` each frame; :func:`draw` draws each part again only when what it shows
changed (issue 22: the key of each part is what it shows): the board
(:mod:`kiosk.games.sackson.board_layer`), the title row, whose turn, a card a player and,
below them, the banner, the last moves and the virtual LED matrix
(:mod:`kiosk.games.sackson.panel`).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from arcade import i18n
from arcade.core.api import Action
from arcade.sackson.game import SacksonState, Swap
from kiosk import render
from kiosk.games.sackson import draw as sd
from kiosk.games.sackson import panel
from kiosk.games.sackson.board_layer import BoardLayer, BoardShown, board_part
from kiosk.games.sackson.chooser import MoveChooser

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class ScreenShown:
    """What the screen shows at one moment.

    Attributes:
        state: the position.
        title, short_title: the variant's title, and its short form on a compact panel.
        labels: each seat's station label.
        last: the last move (seat, action), None before it.
        choice: the half-chosen move of the person to move, None when nobody chooses on screen.
        reserve_seat: the seat whose cursor is on its reserve (a drop), else None.
        log: the last moves, (seat, words), oldest first.
        skipped: seats passed over this round (4p-teams, SF-5).
        banner: the banner's words and colour while it shows, else None.
        turn: whose turn (:class:`kiosk.games.sackson.panel.TurnShown`).
        now: the clock (ns), for the pulse of the choice's marks.
        matrix: the arcade shows a virtual LED matrix; picture: its rows of RGB (None: none yet).
    """

    state: SacksonState
    title: str
    short_title: str
    labels: tuple[str, ...]
    last: tuple[int, Action] | None
    choice: MoveChooser | None
    reserve_seat: int | None
    log: tuple[tuple[int, str], ...]
    skipped: frozenset[int]
    banner: tuple[str, RGB] | None
    turn: panel.TurnShown
    now: int
    matrix: bool
    picture: object


def board_key(size: tuple[int, int], shown: ScreenShown) -> tuple[object, ...]:
    """Everything the board layer shows (cells, tints, frames, stacks, the last move's marks)."""
    ch = shown.choice
    ck: tuple[object, ...] | None = None
    if ch is not None:
        ck = (ch.phase, ch.current(), ch.src, ch.count, ch.first, ch.half_chosen,
              tuple(ch.marked_targets()), tuple(ch.items()) if ch.phase in ("source", "swap-a") else ())
    st = shown.state
    return (size, len(st.history), st.position_key, shown.last, ck, st.current_player(), i18n.current())


def card_shown(shown: ScreenShown, p: int, compact: bool) -> panel.CardShown:
    """What player ``p``'s card shows (its figures the compact panel's when ``compact``)."""
    st = shown.state
    return panel.CardShown(p, shown.labels[p], st.current_player() == p, not st.active(p),
                           p in shown.skipped and not st.is_terminal(), shown.reserve_seat == p,
                           st.game.teams, panel.card_figures(st, p, short=compact))


def draw(surface: pygame.Surface, parts: render.Parts, shown: ScreenShown, layer: BoardLayer,
         geo: sd.BoardGeometry) -> pygame.Rect:
    """Draw the screen's parts that changed: the board (``layer``, on the screen at ``geo``)
    and the side panel.  Returns the title row (screen px), where an app note goes."""
    if parts.begin(surface):
        surface.fill(render.BG)
    size = surface.get_size()
    ch = shown.choice
    # While a person chooses, the marks pulse: the board is drawn every frame.
    key = board_key(size, shown)
    part = board_part(size)
    parts.part(surface, "board", part, (key, None if ch is None else (shown.now, repr(ch.preview()))),
               lambda: layer.draw(surface, geo, BoardShown(shown.state, shown.last, ch, shown.now), key, part,
                                  parts.full), background=None)
    return _draw_side(surface, parts, panel.side_rect(size), shown)


def _draw_side(surface: pygame.Surface, parts: render.Parts, area: pygame.Rect, shown: ScreenShown) -> pygame.Rect:
    """The side panel in the parts of :func:`kiosk.games.sackson.panel.panel_rects`; returns
    its title row."""
    st = shown.state
    rects = panel.panel_rects(area, st.game.seats)
    ply = len([1 for _p, a in st.history if not isinstance(a, Swap)])
    banner = shown.banner
    # with no room below the cards (a compact panel, or 4 players on 800x480) the banner
    # takes the title row for its moment
    head_banner = banner if rects.below.h < (panel.COMPACT_BANNER_H if rects.compact else 50) else None
    head = panel.HeadShown(shown.short_title if rects.compact else shown.title, ply, st.is_terminal(), head_banner)
    lang = i18n.current()            # every part's words change with the language
    parts.part(surface, "head", rects.head, (ply, st.is_terminal(), head_banner, rects.compact, lang),
               lambda: panel.draw_head(surface, rects.head, head, rects.compact))
    turn = rects.turn
    if rects.compact:
        parts.part(surface, "turn", turn, (shown.turn, rects.hint, lang),
                   lambda: panel.draw_turn_compact(surface, turn, shown.turn, rects.hint))
    else:
        parts.part(surface, "turn", turn.inflate(0, 8).move(0, 4), (shown.turn, lang),
                   lambda: panel.draw_turn(surface, turn, shown.turn))
    for p, card in enumerate(rects.cards):
        r = pygame.Rect(card.x, card.y, card.w, card.h - panel.CARD_GAP)
        key = (id(st), len(st.history), st.current_player(), shown.labels[p], shown.reserve_seat == p,
               p in shown.skipped, st.is_terminal(), lang)
        parts.part(surface, f"player{p}", card, (key, rects.card_rows),
                   lambda r=r, p=p: panel.draw_card(surface, r,  # type: ignore[misc]
                                                    card_shown(shown, p, rects.compact), rects.card_rows,
                                                    rects.compact))
    below = rects.below
    shown_below = panel.BelowShown(banner if head_banner is None else None, shown.log, shown.matrix, shown.picture)
    parts.part(surface, "below", below, (shown_below.banner, shown_below.log, shown.picture, rects.compact, lang),
               lambda: panel.draw_below(surface, area, below.y, shown_below, rects.compact))
    return rects.head
