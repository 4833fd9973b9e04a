"""The service menu drawn: each frame's title and gestures line (:meth:`Pages.hint`, what letting
go of a held buzzer does), the list pages (the menu, settings, sound test, a question), the
"Change the PIN" page; the button test (``button_page.py``), the LED test (``led_page.py``) and
the status panel (``status_panel.py``) are their modules'.
"""

from __future__ import annotations

import pygame

from arcade.i18n import _, ngettext, pgettext
from kiosk import render
from kiosk.controls.gestures import BACK, NEXT, OK
from kiosk.controls.input import choose_controls
from kiosk.scenes.service.button_page import ButtonTestPage
from kiosk.scenes.service.led_page import LedTestPage
from kiosk.scenes.service.pin import combo_words, pin_hint, pin_words
from kiosk.scenes.service.rows import FAST_AFTER, SETTINGS, volume_setting
from kiosk.service.tools import LET_GO, held_line


class Pages(ButtonTestPage, LedTestPage):
    """Every page's drawing (mixed into :class:`~kiosk.scenes.service.menu.ServiceScene`)."""

    def draw(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        surface.fill(render.BG)
        title = {"menu": _("Service menu"), "buttons": _("Button test"), "led": _("LED test"), "sound": _("Sound test"),
                 "settings": _("Settings"), "confirm": _("Are you sure?"), "pin": _("Change the PIN")}[self.page]
        hint = self.hint()
        self._status_room = None
        held = self.page != "buttons" and self.gestures.would(self.now) is not None
        colour = render.GOLD if held or self.page == "buttons" else render.DIM
        if render.small_screen(W, H):
            t = render.text_block(surface, title, (8, 4), W // 3, max(24, min(56, H // 9)), 1, render.GOLD, "topleft",
                                  bold=True)
            h = render.text_block(surface, hint, (t.right + 12, 4), W - t.right - 20, 28, 3, colour, "topleft")
            self._top = max(t.bottom, h.bottom) + 6
        else:
            t = render.text(surface, title, (40, 16), 56, render.GOLD, bold=True)
            render.text_block(surface, hint, (t.right + 30, 12), W - t.right - 70, 28, 2, colour, "topleft")
        if self.page == "buttons":
            self._draw_buttons(surface)
        elif self.page == "led":
            self._draw_led(surface)
        elif self.page == "pin":
            self._draw_pin(surface)
        else:
            self._draw_list(surface)
        if self.status_lines():
            self._draw_status(surface)

    def hint(self) -> str:
        """The gestures of the page as they work now (while a buzzer is held: what letting go
        does).  Station controls are named only when some seat has them."""
        if self.page == "buttons":
            return _("Every control is under test. To leave: hold {keys}").format(keys=combo_words(self.app))
        controls = choose_controls(self.app.cfg)
        if self.page == "pin":
            words, plain = pin_words(), pin_hint(controls)
        elif self.editing:
            step = self.step_words()
            words = {NEXT: step, OK: _("turn round"), BACK: _("keep the value")}
            plain = (_("left/right: change   OK or X: keep it   buzzer: tap {step}, hold: turn round") if controls
                     else _("tap: {step}   hold: turn round   hold 2 s: keep the value")).format(step=step)
        else:
            words = {gesture: _(what) for gesture, what in LET_GO.items()}
            plain = (_("left/right or tap: move   OK or hold: choose   X or hold 2 s: back") if controls
                     else _("tap: next row   hold: choose   hold 2 s: back"))
        return held_line(self.gestures.would(self.now), words) or plain

    def step_words(self) -> str:
        """What a buzzer tap does to the value being changed: "+5 ms", "-0.1", "next choice";
        during a quick run the bigger step it makes now ("+50 s"), and where quick taps
        go further, "(quick: faster)"."""
        s = self.edited()
        if getattr(s.checker(), "choices", None):
            return _("next choice")
        times = s.fast_times(self.run + 1) if self._quick() else 1
        step = f"{'+' if self.direction > 0 else '-'}{s.show(round(s.step * times, 4))}"
        if times == 1 and s.fast_times(2 * FAST_AFTER + 1) > 1:
            return _("{step} (quick: faster)").format(step=step)
        return step

    def _draw_pin(self, surface: pygame.Surface) -> None:
        """The "Change the PIN" page: which entry it is, the digits, the last problem."""
        W, H = surface.get_size()
        entry = self.newpin
        if entry is None:
            return
        top = self._top if render.small_screen(W, H) else 110
        bottom = H - 8 - (self._status_height(W) if render.small_screen(W, H) else (130 if self.status_lines() else 20))
        ask = (ngettext("Choose the new PIN ({least} to {most} digit)", "Choose the new PIN ({least} to {most} digits)",
                        entry.MAX).format(least=entry.MIN, most=entry.MAX) if entry.stage == "new"
               else _("Enter the new PIN again"))
        r = render.text_block(surface, ask, (W // 2, top), W - 40, 44, 2, render.TEXT, "midtop", bold=True)
        y = r.bottom + 8
        if entry.problem:
            r = render.text_block(surface, entry.problem, (W // 2, y), W - 40, 30, 2, render.BAD, "midtop")
            y = r.bottom + 8
        if len(entry.digits) >= entry.MIN:
            r = render.text_block(surface, _("after 9 comes OK: take it to finish"), (W // 2, bottom), W - 40, 28, 1,
                                  render.DIM, "midbottom")
            bottom = r.top - 4
        size = max(24, min(120, bottom - y))
        render.text_block(surface, entry.shown(), (W // 2, (y + bottom) // 2), W - 40, size, 1, render.GOLD,
                          "center", bold=True)

    def _draw_list(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        rows = self.rows()
        small = render.small_screen(W, H)
        if small:
            top = self._top
            if self.page == "confirm" and self.confirm is not None:
                q = render.text_block(surface, _(self.confirm[0]), (W // 2, top), W - 24, 44, 2, render.TEXT, "midtop",
                                      bold=True)
                top = q.bottom + 6
            self._list_top = top
        else:
            if self.page == "confirm" and self.confirm is not None:
                render.text(surface, _(self.confirm[0]), (W // 2, 130), 44, render.TEXT, "midtop", bold=True)
            top = 200 if self.page == "confirm" else 90
        first, count, step = self.list_window(H, len(rows))
        if small:
            top = self._list_top + (render.line_height(24) if first > 0 else 0)
        if first > 0:
            render.text(surface, ngettext("{n} more above", "{n} more above", first).format(n=first), (W // 2, top - 4),
                        24, render.DIM, "midbottom")
        if first + count < len(rows):
            below = len(rows) - first - count
            render.text(surface, ngettext("{n} more below", "{n} more below", below).format(n=below),
                        (W // 2, top + count * step), 24, render.DIM, "midtop")
        for i, label in enumerate(rows):
            if not first <= i < first + count:
                continue
            sel = i == self.cursor
            if small:
                self._draw_row_small(surface, pygame.Rect(6, top + (i - first) * step, W - 12, step - 3), i, label)
                continue
            r = pygame.Rect(60, top + (i - first) * step, W - 120, step - 6)
            render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL, render.GOLD if sel else None, 3)
            fs = max(24, min(34, step - 16))
            render.text(surface, label, (r.x + 20, r.centery), fs, render.TEXT, "midleft", bold=sel)
            value = self._value_text(i)
            if value:
                col = render.GOLD if sel and self.editing else render.TEXT
                shown = f"< {value} >" if sel and self.editing else value
                render.text(surface, shown, (r.right - 20, r.centery), fs, col, "midright", bold=True)

    def _draw_row_small(self, surface: pygame.Surface, r: pygame.Rect, i: int, label: str) -> None:
        """A row of a list page on a small display: the label squeezed beside its value."""
        sel = i == self.cursor
        render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL, render.GOLD if sel else None, 2)
        fs = max(24, min(34, r.h - 10))
        value = self._value_text(i)
        right = r.right - 10
        if value:
            col = render.GOLD if sel and self.editing else render.TEXT
            shown = f"< {value} >" if sel and self.editing else value
            v = render.text_block(surface, shown, (right, r.centery), r.w // 3, fs, 1, col, "midright", bold=True)
            right = v.x - 12
        render.text_block(surface, label, (r.x + 10, r.centery), right - r.x - 10, fs, 1, render.TEXT, "midleft",
                          bold=sel)

    #: Where the rows of a list page start on a small display (set as it is drawn).
    _list_top = 90

    #: The smallest row of a list page: 28 px text in it (readable from 3 m; 24 px at least).
    MIN_ROW = 44

    #: The smallest row on a small display: a line of 24 px text and a margin.
    MIN_ROW_SMALL = 28

    def list_window(self, H: int, n: int) -> tuple[int, int, int]:
        """(first row shown, rows shown, row height) of a list page ``H`` px high with ``n``
        rows: rows never shrink below :attr:`MIN_ROW` (the settings page has 31 rows: it
        scrolls to keep the cursor's row in view instead of squeezing them to 16 px)."""
        if self._small():
            W = self.app.screen.get_width()
            lh = render.line_height(24)
            room = H - self._list_top - lh - self._status_height(W) - 8     # and "more below"
            step = min(54, max(self.MIN_ROW_SMALL, room // max(1, n)))
            count = max(1, min(n, room // step))
            first = min(max(0, self.cursor - count // 2), max(0, n - count))
            if first > 0:                          # "more above" too (the top of the list: no line)
                count = max(1, min(n, (room - lh) // step))
                first = min(max(0, self.cursor - count // 2), max(0, n - count))
            return first, count, step
        top = 200 if self.page == "confirm" else 90
        room = H - top - 130 - 30                  # the status lines below, "more below"
        step = min(54, max(self.MIN_ROW, room // max(1, n)))
        count = max(1, min(n, room // step))
        first = min(max(0, self.cursor - count // 2), max(0, n - count))
        return first, count, step

    def _value_text(self, i: int) -> str:
        if self.page == "settings":
            if i < len(SETTINGS):
                s = SETTINGS[i]
                return s.show(self.values[(s.section, s.key)])
            j = i - len(SETTINGS)
            if j < len(self.all_games):
                g = self.all_games[j]
                return pgettext("service", "yes") if self.offered[g.name] else pgettext("service", "no")
        if self.page == "sound" and i == 0:
            return volume_setting().show(self.values[("sound", "volume")])
        return ""
