"""Sounds made at start-up from simple waveforms (no sound files to ship).

If the machine has no audio device the arcade runs silent and says so once.
"""

from __future__ import annotations

import array
import math
from typing import Sequence

import pygame

from arcade.i18n import _

RATE = 22050


def _tone(parts: Sequence[tuple[float, float]], volume: float = 0.35, square: bool = False) -> bytes:
    """16-bit mono PCM of consecutive (frequency Hz, duration s) notes with short fades."""
    out = array.array("h")
    for freq, dur in parts:
        n = int(RATE * dur)
        fade = max(1, int(RATE * 0.008))
        for i in range(n):
            env = min(1.0, i / fade, (n - i) / fade)
            if freq <= 0:
                v = 0.0
            else:
                s = math.sin(2 * math.pi * freq * i / RATE)
                v = (1.0 if s >= 0 else -1.0) * 0.6 if square else s
            out.append(int(32767 * volume * env * v))
    return out.tobytes()


RECIPES = {
    "flip": ([(900, 0.025), (600, 0.02)], 0.25, False),
    "press": ([(520, 0.06)], 0.30, True),
    "won": ([(523, 0.09), (659, 0.09), (784, 0.09), (1047, 0.22)], 0.35, False),
    "debated": ([(659, 0.12), (659, 0.12)], 0.35, False),
    "false": ([(160, 0.28)], 0.35, True),
    "tick": ([(1200, 0.03)], 0.25, False),
    "over": ([(784, 0.15), (659, 0.15), (523, 0.15), (1047, 0.4)], 0.35, False),
}


class Sounds:
    """The arcade's sounds.  ``play(name)`` never raises.

    The mixer starts here; the waveforms are made by :meth:`make` (0.1-0.3 s of CPU here,
    seconds on a Raspberry Pi 3), which the arcade calls after its first frame, off the frame
    loop (issue 22).  Until then :meth:`play` is silent."""

    def __init__(self, make: bool = False) -> None:
        self.sounds: dict[str, pygame.mixer.Sound] = {}
        self.problem = ""
        self.volume = 1.0
        self._channels = 0
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
            init = pygame.mixer.get_init()
            if init is None:
                raise pygame.error("the mixer did not start")
            self._channels = init[2]
        except (pygame.error, OSError, ValueError, TypeError) as exc:
            self.problem = _("no sound: {error}").format(error=exc)
        if make:
            self.make()

    def make(self) -> None:
        """Make every sound of :data:`RECIPES` (once; nothing without a mixer; never raises)."""
        if self.problem or self.sounds or not self._channels:
            return
        made: dict[str, pygame.mixer.Sound] = {}
        try:
            for name, (parts, vol, sq) in RECIPES.items():
                pcm = _tone(parts, vol, sq)
                if self._channels == 2:
                    a = array.array("h", pcm)
                    st = array.array("h", [0]) * (len(a) * 2)
                    st[0::2] = a
                    st[1::2] = a
                    pcm = st.tobytes()
                made[name] = pygame.mixer.Sound(buffer=pcm)
                made[name].set_volume(self.volume)
        except (pygame.error, OSError, ValueError, TypeError) as exc:
            self.problem = _("no sound: {error}").format(error=exc)
            return
        self.sounds = made                     # all at once: another thread may be playing

    def play(self, name: str) -> None:
        s = self.sounds.get(name)
        if s is not None:
            try:
                s.play()
            except pygame.error:
                pass

    def set_volume(self, volume: float) -> None:
        """Every sound's volume, 0 to 1 (``[sound] volume``); never raises."""
        self.volume = max(0.0, min(1.0, float(volume)))
        for s in self.sounds.values():
            try:
                s.set_volume(self.volume)
            except pygame.error:
                pass
