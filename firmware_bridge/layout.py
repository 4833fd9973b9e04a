"""Where each pixel of a picture sits along the LED chain, and how bright it may be.

Pictures (:mod:`arcade.lights.pictures`) are row-major: a tuple of ``height`` rows,
each ``width`` ``(r, g, b)`` triples, row 0 at the top, column 0 at the left.
The controller wants one list of pixels in the order the LEDs are wired.

* **WLED** does its own 2-D mapping (start corner, serpentine, rotation are
  set in its LED preferences), so the host sends plain row-major frames: the
  default ``MatrixLayout()``.
* A firmware without that setting (the FastLED Adalight sketch) needs the
  mapping here: ``serpentine`` (every other run wired backwards, the usual
  zig-zag panel), ``origin`` (the corner where the data line enters) and
  ``transpose`` (runs go down columns instead of along rows).

:func:`limit_current` dims a frame uniformly so that its estimated current
stays under a budget; WLED's own limiter (850 mA by default) dims a full
white 16x16 flash anyway, so doing it here keeps the picture predictable.
"""

from __future__ import annotations

import math
from typing import Sequence

from firmware_bridge.adalight import MAX_LEDS, RGB
from firmware_bridge.errors import LayoutError, LinkSettingsError

ORIGINS = ("top-left", "top-right", "bottom-left", "bottom-right")
"""The corners where the data line may enter the panel."""


def _check_unit(key: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise LinkSettingsError(key, value, "a number from 0.0 to 1.0")
    return float(value)


def scale_brightness(pixels: Sequence[RGB], factor: float) -> list[RGB]:
    """Every channel times ``factor`` (0.0..1.0), rounded down.

    Raises :class:`LinkSettingsError` for a factor outside 0..1.
    """
    factor = _check_unit("brightness", factor)
    if factor == 1.0:
        return [(r, g, b) for r, g, b in pixels]
    return [(int(r * factor), int(g * factor), int(b * factor)) for r, g, b in pixels]


def estimate_current_ma(pixels: Sequence[RGB], ma_per_channel: float = 20.0) -> float:
    """Estimated LED current of a frame in mA: each channel draws
    ``ma_per_channel`` at 255 and proportionally less below (WS2812: ~20 mA).
    """
    return sum(map(sum, pixels)) * ma_per_channel / 255.0


def limit_current(pixels: Sequence[RGB], max_ma: float, ma_per_channel: float = 20.0) -> list[RGB]:
    """Dim the whole frame by one factor so its estimated current is <= ``max_ma``.

    ``pixels`` is a frame in any order; the result has the same length and
    order, the same hues (every channel scaled alike, rounded down) and an
    :func:`estimate_current_ma` of at most ``max_ma`` mA.  A frame already under
    the budget is returned unchanged (as a new list).  A full-white 16x16 frame
    is ~15.4 A by this estimate; ``limit_current(frame, 850)`` dims it to 14/255.

    Raises :class:`LinkSettingsError` when ``max_ma`` or ``ma_per_channel`` is not
    a positive number.
    """
    if isinstance(max_ma, bool) or not isinstance(max_ma, (int, float)) or not max_ma > 0:
        raise LinkSettingsError("max_ma", max_ma, "a positive current in mA")
    if (
        isinstance(ma_per_channel, bool)
        or not isinstance(ma_per_channel, (int, float))
        or not ma_per_channel > 0
        or math.isinf(ma_per_channel)
    ):
        raise LinkSettingsError("ma_per_channel", ma_per_channel, "a positive current in mA")
    total = estimate_current_ma(pixels, ma_per_channel)
    if total <= max_ma:
        return [(r, g, b) for r, g, b in pixels]
    factor = max_ma / total
    dim = [int(v * factor) for v in range(256)]      # the same int(v * factor) per channel, looked up
    return [(dim[r], dim[g], dim[b]) for r, g, b in pixels]


class MatrixLayout:
    """The wiring of a ``width`` x ``height`` LED panel, and its brightness.

    ``origin`` is the corner where the chain starts (one of :data:`ORIGINS`);
    runs go along rows, or down columns when ``transpose`` is true;
    ``serpentine`` wires every second run backwards.  ``brightness`` (0..1)
    scales every frame made by :meth:`to_chain`.  The default (top-left,
    row-major, not serpentine) is what WLED expects: it maps 2-D itself.

    Raises :class:`LinkSettingsError` for a size outside 1..65536 LEDs, an
    unknown origin or a brightness outside 0..1.

    >>> MatrixLayout(3, 2, serpentine=True).to_chain(
    ...     [[(1, 1, 1), (2, 2, 2), (3, 3, 3)], [(4, 4, 4), (5, 5, 5), (6, 6, 6)]])
    [(1, 1, 1), (2, 2, 2), (3, 3, 3), (6, 6, 6), (5, 5, 5), (4, 4, 4)]
    """

    def __init__(
        self,
        width: int = 16,
        height: int = 16,
        serpentine: bool = False,
        origin: str = "top-left",
        transpose: bool = False,
        brightness: float = 1.0,
    ) -> None:
        for key, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise LinkSettingsError(key, value, "a positive int (LEDs)")
        if width * height > MAX_LEDS:
            raise LinkSettingsError(
                "width x height", (width, height), f"at most {MAX_LEDS} LEDs in one chain"
            )
        if origin not in ORIGINS:
            raise LinkSettingsError("origin", origin, f"one of {', '.join(ORIGINS)}")
        self.width = width
        self.height = height
        self.serpentine = bool(serpentine)
        self.origin = origin
        self.transpose = bool(transpose)
        self.brightness = _check_unit("brightness", brightness)
        self._order = self._build_order()

    def __repr__(self) -> str:
        return (
            f"MatrixLayout(width={self.width}, height={self.height}, "
            f"serpentine={self.serpentine}, origin={self.origin!r}, "
            f"transpose={self.transpose}, brightness={self.brightness})"
        )

    @property
    def leds(self) -> int:
        """LEDs in the chain: ``width * height``."""
        return self.width * self.height

    def _build_order(self) -> list[tuple[int, int]]:
        order: list[tuple[int, int]] = []
        runs, run_length = (self.width, self.height) if self.transpose else (self.height, self.width)
        flip_x = self.origin.endswith("right")
        flip_y = self.origin.startswith("bottom")
        for run in range(runs):
            for step in range(run_length):
                along = run_length - 1 - step if self.serpentine and run % 2 else step
                x, y = (run, along) if self.transpose else (along, run)
                if flip_x:
                    x = self.width - 1 - x
                if flip_y:
                    y = self.height - 1 - y
                order.append((x, y))
        return order

    def position(self, index: int) -> tuple[int, int]:
        """The ``(x, y)`` picture position (column, row from the top) of chain LED ``index``."""
        if not 0 <= index < self.leds:
            raise LinkSettingsError("index", index, f"0..{self.leds - 1}")
        return self._order[index]

    def index(self, x: int, y: int) -> int:
        """The chain index of the LED at column ``x``, row ``y`` (from the top-left)."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise LinkSettingsError("(x, y)", (x, y), f"inside {self.width}x{self.height}")
        return self._order.index((x, y))

    def to_chain(self, picture: Sequence[Sequence[RGB]]) -> list[RGB]:
        """A row-major picture (``height`` rows of ``width`` pixels) -> pixels in chain order.

        Brightness is applied.  Raises :class:`LayoutError` when the picture's
        shape is not ``height`` x ``width``.
        """
        if len(picture) != self.height:
            raise LayoutError(
                f"picture has {len(picture)} rows: expected {self.height} for a "
                f"{self.width}x{self.height} matrix"
            )
        for y, row in enumerate(picture):
            if len(row) != self.width:
                raise LayoutError(
                    f"picture row {y} has {len(row)} pixels: expected {self.width}"
                )
        chain = [picture[y][x] for x, y in self._order]
        if self.brightness != 1.0:
            return scale_brightness(chain, self.brightness)
        return list(chain)
