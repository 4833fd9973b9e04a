"""The command line's options the running arcade reads, set once (``kiosk/cli.py`` parses them)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass


@dataclass(frozen=True)
class RunOptions:
    """The command line's options the running arcade reads (``kiosk/cli.py``), set once.

    Attributes:
        command: ``"demo"`` for ``focus-arcade demo`` (simulated players), else None.
        windowed: never fullscreen.
        frames: stop after this many frames (tests; 0: never).
        screenshot_dir: where ``--screenshot-dir`` puts PNGs ("": none).
        screenshot_every: a PNG every this many seconds too (0: only on a new screen).
        loop: ``demo --loop``: game after game.
        case: ``demo --case``: the Mrs. Hudson case (coop), or None.
    """

    command: str | None = None
    windowed: bool = False
    frames: int = 0
    screenshot_dir: str = ""
    screenshot_every: float = 0.0
    loop: bool = False
    case: str | None = None

    @classmethod
    def of(cls, args: argparse.Namespace) -> RunOptions:
        """The options ``args`` gives (an option it lacks, or gives as None, keeps its default).

        >>> RunOptions.of(argparse.Namespace(command="demo", frames=None, loop=True))
        RunOptions(command='demo', windowed=False, frames=0, screenshot_dir='', screenshot_every=0.0, loop=True, case=None)
        """
        given = vars(args)
        case = given.get("case")
        command = given.get("command")
        return cls(command=None if command is None else str(command), windowed=bool(given.get("windowed")),
                   frames=int(given.get("frames") or 0), screenshot_dir=str(given.get("screenshot_dir") or ""),
                   screenshot_every=float(given.get("screenshot_every") or 0.0), loop=bool(given.get("loop")),
                   case=None if case is None else str(case))
