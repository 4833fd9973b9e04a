"""The app's side of the hall's event (``[event]``, issue 15): joining it at start, and telling
it once a second what the cabinet is doing.

The link itself (MQTT, the outbox of games to send, the leaderboard) is
:mod:`kiosk.event.link`; without ``[event]`` nothing here touches the network.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from kiosk.app import said
from kiosk.app.messages import Messages

if TYPE_CHECKING:
    from kiosk.config import Config
    from kiosk.event.link import EventLink
    from kiosk.persist.storage import Results
    from kiosk.scene import Scene


def open_event(cfg: Config, results: Results | None, messages: Messages) -> EventLink | None:
    """Join the event of ``cfg``'s ``[event]`` (None: off, without it or when it cannot be
    joined: a note says why, the cabinet plays on alone).  Its games are sent from the results
    file (``results``), so a store kept in memory is no event."""
    if not cfg.event_on():
        return None
    if results is None or results.path == ":memory:":
        messages.add(said._("Event off: there is no results file to keep the games to send."))
        return None
    try:
        from kiosk.event.link import EventLink
        link = EventLink(cfg["event"], results.path, message=messages.post)
        results.outbox_hook = link.outbox_hook
        results.outbox_committed = link.committed
        link.start()
        return link
    except Exception as exc:          # a missing library or file: the cabinet plays on alone
        results.outbox_hook = results.outbox_committed = None
        messages.add(said._("Event off: {error}", error=exc))
        return None


def cabinet_state(scenes: Sequence[Scene]) -> tuple[str, str]:
    """("idle" | "playing", game name) from the scenes on the stack (top last)."""
    for scene in reversed(scenes):
        state = scene.game_state()
        game = state.game.name if state is not None else ""
        if game and type(scene).__name__ != "ResultsScene":
            return "playing", str(game)
    return "idle", ""


class EventStatus:
    """The cabinet's status on the event link, sent at most once a second.

    Args:
        clock: monotonic seconds (the app's clock).
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._at = 0.0

    def tick(self, link: EventLink | None, scenes: Sequence[Scene], led_text: Callable[[], str],
             notes: Iterable[tuple[str, float]]) -> None:
        """Tell ``link`` (None: no event) what the cabinet does (``scenes``), how its LED matrix
        is (``led_text()``) and its last three notes on screen (``notes``) but the event's own."""
        now = self._clock()
        if link is None or now - self._at < 1.0:
            return
        self._at = now
        state, game = cabinet_state(scenes)
        errors = [text for text, _until in notes if not text.startswith("Event")][-3:]
        link.set_status(state, game, led_text(), errors)
