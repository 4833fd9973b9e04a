"""The LED test drawn: the patterns, the picture sent to the matrix (top-left = red corner),
the walking pixel's place, the LED link's state, port, rate, last error and advice.  The
pictures themselves are ``rows.py``'s (:func:`~kiosk.scenes.service.rows.led_test_picture`).
"""

from __future__ import annotations

import pygame

from arcade.i18n import _, number, pgettext
from kiosk import render
from kiosk.output.led import advice_words
from kiosk.output.led import state_words as link_state
from kiosk.scenes.service.rows import LED_PATTERNS, plain_number, walking_index
from kiosk.scenes.service.status_panel import StatusPanel


class LedTestPage(StatusPanel):
    """The LED test's page (mixed into the service scene)."""

    def _draw_led(self, surface: pygame.Surface) -> None:
        W, H = surface.get_size()
        led = self.app.cfg["led"]
        rows = self.rows()
        if render.small_screen(W, H):
            self._draw_led_small(surface, rows)
            return
        for i, label in enumerate(rows):
            sel = i == self.cursor
            r = pygame.Rect(40, 90 + i * 56, 500, 50)
            render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL, render.GOLD if sel else None, 3)
            render.text(surface, label, (r.x + 16, r.centery), 30, render.TEXT, "midleft", bold=sel)
        box = pygame.Rect(W - 420, 90, 380, 380)
        pic = self.led_picture(self.now) if self.page == "led" else None
        render.led_matrix(surface, box, pic)
        render.text(surface, _("what is sent (top-left = red corner)"), (box.centerx, box.bottom + 6), 24,
                    render.DIM, "midtop")
        if LED_PATTERNS[self.pattern] == "walking pixel":
            i = walking_index(self.now - self.led_t0, led["width"] * led["height"])
            render.text(surface, pixel_words(i, led["width"]),
                        (box.centerx, box.bottom + 36), 28, render.TEXT, "midtop", bold=True)
        y = 90 + len(rows) * 56 + 20
        lines: list[tuple[str, tuple[int, int, int]]] = []
        for text, col, long in self._link_lines():
            if long:                      # a long error or advice on up to four lines
                lines.extend((part, col) for part in wrap_text(text, box.x - 60, 30, max_lines=4))
            else:
                lines.append((text, col))
        for text, col in lines:
            if y + 36 > self._status_top(W, H) - 4:
                break                     # the status panel stays readable
            render.text(surface, text, (40, y), 30, col)
            y += 36

    def _link_lines(self) -> list[tuple[str, tuple[int, int, int], bool]]:
        """The LED link's state, port, rate and last error, and the matrix's settings: (words,
        colour, whether they may run long: the last error and the advice)."""
        led = self.app.cfg["led"]
        link = getattr(self.app.led, "link", None)
        lines: list[tuple[str, tuple[int, int, int], bool]] = []
        if link is None:
            lines.append((_("Link: none (LED matrix off)"), render.BAD, False))
        else:
            try:
                st = link.status()
                ok = st.state in ("connected",)
                lines.append((_("Link: {state}").format(state=link_state(st.state)), render.GOOD if ok else render.BAD,
                              False))
                lines.append((_("Port: {port}   baud {baud}").format(port=port_words(st.url or led["port"]),
                                                                     baud=led["baudrate"]),
                              render.TEXT, False))
                lines.append((_("Frames/s sent: {fps}   (total {total})").format(fps=number(self.fps, 1),
                                                                                  total=st.frames_sent),
                              render.TEXT, False))
                lines.append((_("Last error: {error}").format(error=st.last_error or pgettext("error", "none")),
                              render.BAD if st.last_error else render.TEXT, True))
                if getattr(st, "advice", ""):     # the advice the badge leaves out
                    lines.append((_("To do: {advice}").format(advice=advice_words(st.advice)), render.GOLD, True))
            except Exception as exc:
                lines.append((_("Link status unavailable: {error}").format(error=exc), render.BAD, False))
        lines.append((_("Matrix {width}x{height}, brightness {brightness}, limit {ma} mA").format(
            width=led["width"], height=led["height"], brightness=plain_number(float(led["brightness"])), ma=led["max_current_ma"]),
            render.DIM, False))
        return lines

    def _draw_led_small(self, surface: pygame.Surface, rows: list[str]) -> None:
        """The LED test on a small display: the patterns and the link's lines on the left,
        the picture sent on the right, as large as the height leaves it."""
        W, H = surface.get_size()
        led = self.app.cfg["led"]
        lh = render.line_height(24)
        side = max(40, min(W * 2 // 5, self._status_top(W, H) - self._top - 5 * lh - 8))   # caption above the status
        box = pygame.Rect(W - side - 8, self._top, side, side)
        left_w = box.x - 16
        step = lh + 8
        y = self._top
        for i, label in enumerate(rows):
            sel = i == self.cursor
            r = pygame.Rect(8, y, left_w, step - 3)
            render.panel(surface, r, render.PANEL_LIGHT if sel else render.PANEL, render.GOLD if sel else None, 2)
            render.text_block(surface, label, (r.x + 8, r.centery), r.w - 16, 30, 1, render.TEXT, "midleft", bold=sel)
            y += step
        pic = self.led_picture(self.now) if self.page == "led" else None
        render.led_matrix(surface, box, pic)
        # Under a picture made narrow by a long status (the LED advice, issue 26: longer in
        # Ukrainian) the caption and the pixel's place show only where they fit whole.
        caption = _("what is sent (top-left = red corner)")
        cap = pygame.Rect(box.x, box.bottom + 4, side, 0)
        if render.fits(caption, side, 24, 2):
            cap = render.text_block(surface, caption, (box.centerx, box.bottom + 4), side, 24, 2, render.DIM, "midtop")
        if LED_PATTERNS[self.pattern] == "walking pixel":
            i = walking_index(self.now - self.led_t0, led["width"] * led["height"])
            where = pixel_words(i, led["width"])
            if render.fits(where, side, 28, 2, bold=True):
                render.text_block(surface, where, (box.centerx, cap.bottom + 2), side, 28, 2, render.TEXT, "midtop",
                                  bold=True)
        y += 4
        for text, col, _long in self._link_lines():
            if y + render.lines_height(text, left_w, 30, 2) > self._status_top(W, H) - 2:
                break                     # the lowest lines give way on a 320 px panel (and to the status)
            r = render.text_block(surface, text, (8, y), left_w, 30, 2, col, "topleft")
            y = r.bottom + 2


def port_words(port: str) -> str:
    """The LED port as the LED test names it: the configuration's own words ("/dev/ttyUSB0",
    "ddp://192.168.1.50") as they are, its "none", "off" or nothing as "none" in the language
    spoken now (the matrix is off on purpose; "Порт: немає" in Ukrainian, not "Порт: none").

    >>> port_words("/dev/ttyACM0"), port_words("none"), port_words("")
    ('/dev/ttyACM0', 'none', 'none')
    """
    if str(port).strip().lower() in ("", "none", "off"):
        return pgettext("LED port", "none")
    return str(port)


def pixel_words(i: int, width: int) -> str:
    """Where the walking pixel ``i`` of a matrix ``width`` pixels wide is: "pixel 10: column 11, row 1"."""
    return _("pixel {i}: column {column}, row {row}").format(i=i, column=i % width + 1, row=i // width + 1)


def wrap_text(msg: str, max_w: int, size: int, max_lines: int = 4) -> list[str]:
    """``msg`` split at spaces into lines of at most ``max_w`` px at ``size``; past
    ``max_lines`` the last line ends in "...".  The LED test's last error says what to do
    at its end ("plug in the LED controller's USB cable"): it must not be cut off."""
    f = render.font(size)
    lines: list[str] = []
    for word in msg.split(" "):
        if lines and f.size(lines[-1] + " " + word)[0] <= max_w:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > max_lines:
        last = lines[max_lines - 1]
        while last and f.size(last + " ...")[0] > max_w:
            last = last[:-1]
        lines = lines[:max_lines - 1] + [last + " ..."]
    return lines
