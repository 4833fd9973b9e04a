"""The FOCUS / Crossfire board on the TV: the kept board layer and the moving marks of a choice.

Only draws; never changes a game state.  :class:`BoardShown` is what the board shows (the
position, the last move, a person's half-chosen move, the clock for the pulse);
:class:`BoardLayer` keeps the board's picture off screen between frames and draws it again
only where cells changed (issue 14: its drawing clipped there), then the choice's marks,
which pulse, on top.  The stacks, cells and arrows themselves are :mod:`kiosk.games.sackson.draw`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from arcade.core.api import Action
from arcade.i18n import _
from arcade.sackson.game import Drop, Move, SacksonState, Swap
from kiosk import render
from kiosk.games.sackson import draw as sd
from kiosk.games.sackson.chooser import RESERVE, MoveChooser

#: What the board layer shows, cell by cell (stack, tint, outline, lifted stones), then the
#: last move's arrow (source and target cell indices) and drop mark (a cell index).
Looks = tuple[tuple[object, ...], tuple[int, int] | None, int | None]


@dataclass(frozen=True)
class BoardShown:
    """What the board shows.

    Attributes:
        state: the position (stacks, the seat to move, the capacities of its game).
        last: the last move (seat, action), marked by tints, an arrow or a "+"; None before it.
        choice: the half-chosen move of the person to move, None when nobody chooses on screen.
        now: the clock (ns), for the pulse of the cursor's frame.
    """

    state: SacksonState
    last: tuple[int, Action] | None
    choice: MoveChooser | None
    now: int


def board_rect(size: tuple[int, int]) -> pygame.Rect:
    """Where the board is drawn on a screen of ``size`` (w, h) px: the left 62 %."""
    W, H = size
    return pygame.Rect(8, 8, int(W * 0.62), H - 16)


def board_part(size: tuple[int, int]) -> pygame.Rect:
    """The board's part of a ``size`` (w, h) px screen (render.Parts): the board and the
    background round it, up to the side panel."""
    W, H = size
    return pygame.Rect(0, 0, int(W * 0.63) + 6, H)


class BoardLayer:
    """The board's picture, kept off screen (one per scene).

    Attributes:
        kept: (what it shows, the layer, where it goes on the screen), None before the first.
        local_geo: the layer's own geometry (the board at 0, 0) and the size it is for.
        looks: the layer's geometry and what its cells showed when it was last drawn.
        on_screen: (surface id, layer id, where) while the screen holds exactly the layer's
            pixels there (no choice marks over it); else None.
    """

    def __init__(self) -> None:
        self.kept: tuple[tuple[object, ...], pygame.Surface, tuple[int, int]] | None = None
        self.local_geo: tuple[tuple[int, int], sd.BoardGeometry] | None = None
        self.looks: tuple[sd.BoardGeometry, Looks] | None = None
        self.on_screen: tuple[int, int, tuple[int, int]] | None = None

    def _local(self, shown: BoardShown, area: pygame.Rect) -> sd.BoardGeometry:
        if self.local_geo is None or self.local_geo[0] != area.size:
            self.local_geo = (area.size, sd.BoardGeometry(shown.state.board, pygame.Rect((0, 0), area.size)))
        return self.local_geo[1]

    def draw(self, surface: pygame.Surface, geo: sd.BoardGeometry, shown: BoardShown, key: tuple[object, ...],
             part: pygame.Rect | None = None, everything: bool = False) -> None:
        """The board layer (kept until ``key``, what it shows, changes), then the choice's
        moving marks on top (they pulse).  ``geo``: the board on the screen
        (:func:`board_rect`); ``part``: the board's part of the screen, which this covers
        (the background around the layer included); when the screen already shows the
        layer as it was (and ``everything``, the whole screen drawn again, is false), only
        the patches of it drawn again are copied."""
        size = surface.get_size()
        patches: list[pygame.Rect] | None = None
        area = board_rect(size)
        if not render.KEEP_PARTS:                 # drawn from scratch, the kept layer left alone
            fresh = pygame.Surface(area.size)
            fresh.fill(render.BG)
            draw_layer(fresh, self._local(shown, area), shown)
            surface.blit(fresh, area.topleft)
        elif self.kept is None or self.kept[0] != key:
            lgeo = self._local(shown, area)
            old = self.kept
            looks = layer_looks(shown)
            if old is not None and old[1].get_size() == area.size and self.looks is not None \
                    and self.looks[0] is lgeo:
                # Only the cells (and the last move's marks) that changed are drawn again: the
                # whole layer's drawing, clipped to where they are.
                layer = old[1]
                # each separate patch on its own: the last move and this one are often far apart
                patches = changed_regions(lgeo, self.looks[1], looks)
                for region in patches:
                    layer.set_clip(region)
                    layer.fill(render.BG, region)
                    draw_layer(layer, lgeo, shown, region)
                layer.set_clip(None)
            else:
                layer = pygame.Surface(area.size)
                layer.fill(render.BG)
                draw_layer(layer, lgeo, shown)
            self.looks = (lgeo, looks)
            self.kept = (key, layer, area.topleft)
        ch = shown.choice
        if render.KEEP_PARTS:
            assert self.kept is not None
            layer, at = self.kept[1], self.kept[2]
            on_screen = (id(surface), id(layer), at)
            if patches is not None and not everything and self.on_screen == on_screen:
                for r in patches:
                    surface.blit(layer, r.move(at), r)
            else:
                if part is not None:
                    surface.fill(render.BG, part)
                surface.blit(layer, at)
            self.on_screen = on_screen if ch is None else None
        if ch is not None:
            st = shown.state
            idx = st.board.index
            seat = st.current_player()
            col = sd.seat_colour(seat) if seat >= 0 else render.TEXT
            draw_choice(surface, geo, st, ch, shown.now, col)
            preview = ch.preview()
            if isinstance(preview, Move):      # the move under the cursor, see-through over the stones
                sd.arrow(surface, geo.centres[idx[preview.src]], geo.centres[idx[preview.dst]], col,
                         max(6, geo.cell // 11), alpha=150, trim_a=geo.box * 0.3, trim_b=geo.box * 0.5)


def layer_looks(shown: BoardShown) -> Looks:
    """What :func:`draw_layer` shows, cell by cell (stack, tint, outline, lifted
    stones) and the last move's arrow and drop mark (cell indices)."""
    st = shown.state
    board = st.board
    idx = board.index
    ch = shown.choice
    seat = st.current_player()
    tint: dict[int, object] = {}
    if shown.last is not None:
        _, a = shown.last
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
    marks = shown.last is not None and (ch is None or not ch.half_chosen)
    arrow: tuple[int, int] | None = None
    plus: int | None = None
    if marks and shown.last is not None:
        a = shown.last[1]
        if isinstance(a, Move):
            arrow = (idx[a.src], idx[a.dst])
        elif isinstance(a, Drop):
            plus = idx[a.dst]
    return tuple(cells), arrow, plus

def cells_in(geo: sd.BoardGeometry, region: pygame.Rect) -> set[int]:
    """The cells whose drawing can reach into ``region`` (their box, with 8 px for a frame or
    the lifted stones)."""
    return {i for i in range(len(geo.polygons)) if geo.cell_box(i).inflate(16, 16).colliderect(region)}

def changed_regions(geo: sd.BoardGeometry, old: Looks, new: Looks) -> list[pygame.Rect]:
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

def draw_layer(surface: pygame.Surface, geo: sd.BoardGeometry, shown: BoardShown,
               region: pygame.Rect | None = None) -> None:
    """The whole board layer, or (``region``, with the surface clipped to it) only the cells
    and labels that reach into ``region``: the same pixels there, a fraction of the drawing."""
    st = shown.state
    board = st.board
    idx = board.index
    tint: dict[int, tuple[int, int, int]] = {}
    if shown.last is not None:
        _, a = shown.last
        if isinstance(a, Move):
            tint[idx[a.src]] = (92, 88, 70)
            tint[idx[a.dst]] = (128, 118, 70)
        elif isinstance(a, Drop):
            tint[idx[a.dst]] = (128, 118, 70)
        elif isinstance(a, Swap):
            tint[idx[a.a]] = tint[idx[a.b]] = (128, 118, 70)
    ch = shown.choice
    seat = st.current_player()
    col = sd.seat_colour(seat) if seat >= 0 else render.TEXT
    if ch is not None:
        cur = ch.current()
        for c in ch.marked_targets():
            tint[idx[c]] = sd.target_wash(col, c == cur and ch.phase in ("target", "swap-b"))
    only = None if region is None else cells_in(geo, region)
    sd.draw_cells(surface, geo, tint, only, region)
    # choices: outline every stack the seat may pick
    if ch is not None and ch.phase in ("source", "swap-a"):
        for c in ch.items():
            if c != RESERVE and (only is None or idx[c] in only):
                sd.frame_cell(surface, geo, idx[c], col, 3, inset=4)
    # the last move's arrow, under the stones (hidden once a move is half chosen)
    if shown.last is not None and (ch is None or not ch.half_chosen):
        _s, a = shown.last
        if isinstance(a, Move):
            sd.arrow(surface, geo.centres[idx[a.src]], geo.centres[idx[a.dst]], sd.LAST_MOVE,
                     max(5, geo.cell // 12), alpha=170, trim_a=geo.box * 0.2, trim_b=geo.box * 0.5)
    slots = max(st.game.capacity)
    hexboard = board.kind == "hex"
    for i, cell in enumerate(board.cells):
        if only is not None and i not in only:
            continue
        stack = st.stack(cell)
        lift = 0
        if ch is not None and ch.src == cell and ch.phase in ("count", "target"):
            lift = ch.current() if ch.phase == "count" else (ch.count or 0)
        sd.draw_cell_stack(surface, geo, i, stack, st.game.capacity[i], slots, empty_gauge=hexboard,
                           lift=lift)
    if shown.last is not None and (ch is None or not ch.half_chosen) and isinstance(shown.last[1], Drop):
        cx, cy = geo.centres[idx[shown.last[1].dst]]
        render.text(surface, "+", (round(cx + geo.box * 0.42), round(cy - geo.box * 0.40)),
                    max(30, geo.cell // 2), sd.LAST_MOVE, "center", bold=True)

def draw_choice(surface: pygame.Surface, geo: sd.BoardGeometry, state: SacksonState, ch: MoveChooser,
                now: int, col: tuple[int, int, int]) -> None:
    idx = state.board.index
    cur = ch.current()
    for c in ch.marked_targets():
        sd.target_mark(surface, geo, idx[c], col, strong=(ch.phase in ("target", "swap-b") and c == cur))
    pulse = 0.5 + 0.5 * math.sin(now / 1e9 * 2 * math.pi * 1.2)
    thick = 6 + int(3 * pulse)
    if ch.src is not None and ch.src != RESERVE and ch.phase in ("count", "target"):
        sd.frame_cell(surface, geo, idx[ch.src], col, 7, inset=2)
    if ch.first is not None and ch.phase == "swap-b":
        sd.frame_cell(surface, geo, idx[ch.first], col, 7, inset=2)
    if ch.phase in ("source", "swap-a", "target", "swap-b") and isinstance(cur, str) and cur != RESERVE:
        sd.frame_cell(surface, geo, idx[cur], render.GOLD, thick, inset=0)
    if cur == RESERVE:
        img = render.font(max(34, geo.cell // 2), True).render(_("drop from reserve"), True, sd.INK)
        r = img.get_rect(midbottom=(geo.rect.centerx, geo.rect.bottom - 4))
        pygame.draw.rect(surface, render.GOLD, r.inflate(24, 12), border_radius=12)
        surface.blit(img, r)
