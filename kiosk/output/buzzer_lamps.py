"""From the scene on screen to the lamps in the buzzers (``hardware/lamps.py``).

A scene may say what its lamps show with ``lamp_cue(now_ns) -> LampCue``
(the lobby lights the seats that joined); a race scene with a ``referee``
gets the race cue without any code of its own: the seats that may press in
the open race, then the winner's lamp or the debated seats blinking, and a
false shout's lamp flashing (arcade/lights/lamps.py).  Any other scene: all off.
"""

from __future__ import annotations

from typing import Collection, Protocol, Sized, runtime_checkable

from arcade.core.referee import Window
from arcade.lights.lamps import LampCue, LampMemory, lamp_pattern


@runtime_checkable
class CuesLamps(Protocol):
    """A scene that says what its lamps show (the lobby: the seats that joined)."""

    def lamp_cue(self, now_ns: int) -> LampCue | None: ...


@runtime_checkable
class RaceScene(Protocol):
    """A race scene: its referee (one with a race ``window`` lights the race) and its seats."""

    @property
    def referee(self) -> object: ...

    @property
    def seats(self) -> Sized: ...


@runtime_checkable
class _Judging(Protocol):
    @property
    def window(self) -> Window | None: ...


@runtime_checkable
class _Played(Protocol):
    @property
    def state(self) -> object: ...


@runtime_checkable
class _RaceOuts(Protocol):
    """A state whose seats may be out of the race (FocusX: ``race_out``)."""

    @property
    def race_out(self) -> Collection[int] | None: ...


def scene_cue(scene: object, memory: LampMemory, now_ns: int) -> LampCue | None:
    """The lamp cue of ``scene`` at ``now_ns`` (None: every lamp off)."""
    if isinstance(scene, CuesLamps):
        return scene.lamp_cue(now_ns)
    if not isinstance(scene, RaceScene):
        return None
    referee, seats = scene.referee, scene.seats
    if referee is None or not seats:
        return None
    w = referee.window if isinstance(referee, _Judging) else None
    if w is None:
        return memory.observe(len(seats), False, (), (), (), now_ns)
    v = w.verdict
    state = scene.state if isinstance(scene, _Played) else None
    out: set[int] = set((state.race_out if isinstance(state, _RaceOuts) else None) or set())
    return memory.observe(len(seats), w.opened_ns is not None, w.spec.eligible,
                          tuple(v.winners) if v is not None else (),
                          tuple(v.false_shouts) if v is not None else (), now_ns, out=set(out))


def scene_pattern(scene: object, memory: LampMemory, now_ns: int, lamps: int) -> tuple[str, ...]:
    """The lamp states for ``scene`` (one per lamp); never raises (a broken scene: all off)."""
    try:
        return lamp_pattern(scene_cue(scene, memory, now_ns), lamps)
    except Exception:
        return lamp_pattern(None, lamps)
