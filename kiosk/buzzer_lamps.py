"""From the scene on screen to the lamps in the buzzers (``hardware/lamps.py``).

A scene may say what its lamps show with ``lamp_cue(now_ns) -> LampCue``
(the lobby lights the seats that joined); a race scene with a ``referee``
gets the race cue without any code of its own: the seats that may press in
the open race, then the winner's lamp or the debated seats blinking, and a
false shout's lamp flashing (arcade/views/lamps.py).  Any other scene: all off.
"""

from __future__ import annotations

from typing import Any

from arcade.views.lamps import LampCue, LampMemory, lamp_pattern


def scene_cue(scene: Any, memory: LampMemory, now_ns: int) -> LampCue | None:
    """The lamp cue of ``scene`` at ``now_ns`` (None: every lamp off)."""
    own = getattr(scene, "lamp_cue", None)
    if callable(own):
        return own(now_ns)  # type: ignore[no-any-return]
    referee = getattr(scene, "referee", None)
    seats = getattr(scene, "seats", None)
    if referee is None or not seats:
        return None
    w = getattr(referee, "window", None)
    if w is None:
        return memory.observe(len(seats), False, (), (), (), now_ns)
    v = w.verdict
    state = getattr(scene, "state", None)
    out: set[int] = set(getattr(state, "race_out", set()) or set())
    return memory.observe(len(seats), w.opened_ns is not None, w.spec.eligible,
                          tuple(v.winners) if v is not None else (),
                          tuple(v.false_shouts) if v is not None else (), now_ns, out=set(out))


def scene_pattern(scene: Any, memory: LampMemory, now_ns: int, lamps: int) -> tuple[str, ...]:
    """The lamp states for ``scene`` (one per lamp); never raises (a broken scene: all off)."""
    try:
        return lamp_pattern(scene_cue(scene, memory, now_ns), lamps)
    except Exception:
        return lamp_pattern(None, lamps)
