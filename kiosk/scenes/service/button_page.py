"""The button test drawn: the GPIO adapter's line, each seat's controls (pressed, presses and
bounces, stuck) and the last edges with their kernel stamps, on a large or a small display.
Every control is under test (none acts): the counting is ``ButtonTest`` (kiosk/service/tools.py).
"""

from __future__ import annotations

import pygame

from arcade.core.events import CONTROLS
from arcade.i18n import _, ngettext, number, pgettext
from kiosk import render
from kiosk.scenes.service.rows import control_word
from kiosk.scenes.service.status_panel import StatusPanel
from kiosk.service.tools import EdgeNote


class ButtonTestPage(StatusPanel):
    """The button test's page (mixed into the service scene)."""

    def button_grid(self) -> tuple[list[int], dict[int, tuple[str, ...]], tuple[str, ...]]:
        """What the button test shows: the seats, each seat's controls and the columns (the
        controls of any seat, in :data:`CONTROLS` order).  Only what the configuration wires
        (:func:`kiosk.controls.input.wired_controls`: four GPIO buzzers show P1-P4, a buzzer each), and
        any other control that sent an edge during the test, so no press goes unseen; nothing
        wired at all: every seat's every control."""
        from kiosk.controls.input import wired_controls
        own = {seat: set(ctls) for seat, ctls in wired_controls(self.app.cfg, self.app.gpio is not None).items()}
        for seat, control in self.buttons.controls:
            own.setdefault(seat, set()).add(control)
        if not own:
            own = {seat: set(CONTROLS) for seat in range(8)}
        seats = sorted(own)
        per_seat = {seat: tuple(c for c in CONTROLS if c in own[seat]) for seat in seats}
        columns = tuple(c for c in CONTROLS if any(c in own[seat] for seat in seats))
        return seats, per_seat, columns

    def _draw_buttons(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        gpio = self.app.gpio
        errors = gpio.errors if gpio is not None else 0
        last = (gpio.last_error or "") if gpio is not None else ""
        head = (ngettext("GPIO adapter: open, {n} error", "GPIO adapter: open, {n} errors", errors) if gpio is not None
                else ngettext("GPIO adapter: not open, {n} error", "GPIO adapter: not open, {n} errors", errors)
                ).format(n=errors)
        if last:
            head = _("{adapter} (last: {error})").format(adapter=head, error=last[:70])
        if render.small_screen(W, H):
            self._draw_buttons_small(surface, head, render.BAD if errors else render.TEXT)
            return
        render.text(surface, head, (40, 84), 28, render.BAD if errors else render.TEXT)
        render.text(surface, _("3x b2 = 3 presses, 2 bounce edges in the last one"), (W - 40, H - 250), 26,
                    render.DIM, "topright")
        seats, per_seat, columns = self.button_grid()
        col_w = (W - 80) // 2
        row_h = (H - 130 - 250) // 4
        tile_w = min(160, (col_w - 64 - 16) // len(columns) - 6)
        for i, seat in enumerate(seats):
            x = 40 + (i // 4) * col_w
            y = 120 + (i % 4) * row_h
            colour = render.SEAT_COLOURS[seat % 8]
            render.text(surface, f"P{seat + 1}", (x, y + 4), 36, colour, bold=True)
            stats = self.buttons.seat_controls(seat)
            for ctl in per_seat[seat]:
                cx = x + 64 + columns.index(ctl) * (tile_w + 6)
                c = stats.get(ctl)
                box = pygame.Rect(cx, y, tile_w, row_h - 8)
                down = c is not None and c.down
                fill = colour if down else render.PANEL
                pygame.draw.rect(surface, fill, box, border_radius=8)
                if c is not None and c.stuck:
                    pygame.draw.rect(surface, render.BAD, box, 4, border_radius=8)
                ink = render.BG if down else render.TEXT
                render.text(surface, control_word(ctl), (box.centerx, box.y + 2), 26, ink, "midtop", bold=True)
                if c is not None:
                    detail = pgettext("button test", "STUCK") if c.stuck else f"{c.presses}x b{c.bounces_last}"
                    render.text(surface, detail, (box.centerx, box.bottom - 2), 24,
                                render.BAD if c.stuck and not down else ink, "midbottom", bold=c.stuck)
        # the last edges: stamp, gap to that control's previous edge, bounce
        y0 = H - 250
        render.text(surface, _("Last edges: kernel stamp (ns), gap to that control's previous edge"),
                    (40, y0), 26, render.DIM)
        y = y0 + 30
        for note in list(self.buttons.log)[:6]:
            if y + 30 > self._status_top(W, H) - 4:
                break                     # the status panel (a saved setting, the PIN advice) stays readable
            line = edge_line(note)
            render.text(surface, line, (40, y), 26, render.GOLD if note.bounce else render.TEXT)
            y += 30

    def _draw_buttons_small(self, surface: pygame.Surface, head: str, head_col: tuple[int, int, int]) -> None:
        """The button test on a small display: the adapter's line, the 8 seats' controls in
        two columns, the legend, then as many of the last edges as the height leaves."""
        W, H = surface.get_size()
        lh = render.line_height(24)
        r = render.text_block(surface, head, (8, self._top), W - 16, 28, 2, head_col, "topleft")
        top = r.bottom + 4
        notes = list(self.buttons.log)[:6]
        log_rows = min(len(notes), 2 if H < 400 else 4)
        seats, per_seat, columns = self.button_grid()
        n = len(seats)

        def grid(bottom: int) -> tuple[bool, int, int, int]:
            """(two lines a control, rows, column width, row height) above ``bottom``: up to
            four seats one column, two lines a control where the height allows; more: two
            columns of seats with two lines a control where they fit, else one column of one
            line a control ("buzzer 1x b0")."""
            grid_h = bottom - 4 - top - lh * (2 + log_rows) - 4
            if n <= 4:
                two, rows_n, col_w = grid_h // max(1, n) >= 2 * lh, max(1, n), W - 16
            else:
                two = (grid_h // 4 >= 2 * lh
                       and (W - 16) // 2 - 40 >= len(columns) * render.font(24, True).size(control_word("buzzer"))[0] * 0.7)
                rows_n, col_w = (4, (W - 16) // 2) if two else (n, W - 16)
            return two, rows_n, col_w, max(lh + 2, grid_h // rows_n)

        bottom = self._status_top(W, H)               # above the status panel
        two, rows_n, col_w, row_h = grid(bottom)
        if top + rows_n * row_h > bottom - 4:
            # the seats first (issue 20: the LED advice covered P7 and P8 at 480x320): the
            # status panel keeps what fits whole under them (the menu's page shows it all)
            self._status_room = H - 4 - (top + rows_n * row_h + 4)
            bottom = self._status_top(W, H)
            two, rows_n, col_w, row_h = grid(bottom)
        for i, seat in enumerate(seats):
            x = 8 + (i // rows_n) * col_w
            y = top + (i % rows_n) * row_h
            colour = render.SEAT_COLOURS[seat % 8]
            tag = render.text(surface, f"P{seat + 1}", (x, y + (row_h - 3) // 2), 24, colour, "midleft", bold=True)
            stats = self.buttons.seat_controls(seat)
            bw = min(160, (col_w - (tag.w + 6) - 8 - 3 * (len(columns) - 1)) // len(columns))
            for ctl in per_seat[seat]:
                cx = tag.right + 6 + columns.index(ctl) * (bw + 3)
                c = stats.get(ctl)
                box = pygame.Rect(cx, y, bw, row_h - 3)
                down = c is not None and c.down
                pygame.draw.rect(surface, colour if down else render.PANEL, box, border_radius=6)
                if c is not None and c.stuck:
                    pygame.draw.rect(surface, render.BAD, box, 3, border_radius=6)
                ink = render.BG if down else render.TEXT
                stuck = c is not None and c.stuck
                detail = "" if c is None else pgettext("button test", "STUCK") if c.stuck else f"{c.presses}x b{c.bounces_last}"
                stuck_ink = render.BAD if stuck and not down else ink
                if two:
                    render.text_within(surface, control_word(ctl), (box.centerx, box.y + 1), bw - 4, 24, ink, "midtop", bold=True)
                    if detail:
                        render.text_within(surface, detail, (box.centerx, box.bottom - 1), bw - 4, 24, stuck_ink,
                                           "midbottom", bold=c is not None and c.stuck)
                else:
                    words = f"{control_word(ctl)} {detail}".strip()
                    render.text_within(surface, words, box.center, bw - 4, 24, stuck_ink if stuck else ink,
                                       "center")
        y = top + rows_n * row_h + 2
        for words in (_("3x b2 = 3 presses, 2 bounce edges in the last one"),
                      _("Last edges: stamp (ns), gap to that control's previous edge")):
            if y + lh > bottom - 2:
                break                     # under a status panel the legend gives way first
            render.text_block(surface, words, (8, y), W - 16, 24, 1, render.DIM, "topleft")
            y += lh
        for note in notes:
            if y + lh > bottom - 2:
                break
            line = edge_line(note)
            render.text_block(surface, line, (8, y), W - 16, 24, 1, render.GOLD if note.bounce else render.TEXT,
                              "topleft")
            y += lh


def edge_line(note: EdgeNote) -> str:
    """One of the last edges as the button test lists it: seat, control, down or up, the kernel
    stamp, the gap to that control's previous edge, a bounce, where it came from."""
    e = note.edge
    gap = pgettext("edge", "first") if note.gap_ms is None else pgettext("edge", "+{ms} ms").format(ms=number(note.gap_ms, 1))
    down, up = pgettext("edge", "down"), pgettext("edge", "up")
    way = (down if e.pressed else up).ljust(max(len(down), len(up)))
    bounce = "  " + _("BOUNCE") if note.bounce else ""
    return f"P{e.seat + 1} {control_word(e.control):<6} {way}  t={e.t_ns}  {gap}{bounce}  ({e.source or '?'})"
