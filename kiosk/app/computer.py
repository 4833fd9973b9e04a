"""The computer players' presses, planned by the game screens and put on the edge queue when due."""

from __future__ import annotations

import heapq
import itertools
from typing import TYPE_CHECKING

from arcade.core.events import Edge
from hardware.sink import EdgeSink

if TYPE_CHECKING:
    from hardware.simulated import SimulatedPlayers


class ComputerPresses:
    """Presses of computer players, as stamped edges at their planned times.

    In the demo they go through simulated GPIO pins (gpiozero MockFactory), so
    the real adapter path is used; otherwise they are put on the queue at their
    planned stamps when due.
    """

    def __init__(self, queue: EdgeSink, simulated: SimulatedPlayers | None = None) -> None:
        self.queue = queue
        self.simulated = simulated
        self.heap: list[tuple[int, int, Edge, int]] = []     # (due ns, order, edge, press id)
        self.count = itertools.count()

    def press(self, seat: int, at_ns: int, control: str = "buzzer", double: bool = False,
              hold_ms: int = 90) -> None:
        times = [at_ns] + ([at_ns + (hold_ms + 60) * 1_000_000] if double else [])
        for t in times:
            if self.simulated is not None:
                try:
                    self.simulated.schedule_press(seat, t, control=control, hold_ms=hold_ms)
                    continue
                except Exception:        # a seat without a mock pin: fall back
                    pass
            pid = next(self.count)
            heapq.heappush(self.heap, (t, pid, Edge(t, seat, control, True, "computer"), pid))
            heapq.heappush(self.heap, (t + hold_ms * 1_000_000, next(self.count),
                                       Edge(t + hold_ms * 1_000_000, seat, control, False, "computer"), pid))

    def pump(self, now_ns: int) -> None:
        while self.heap and self.heap[0][0] <= now_ns:
            self.queue.put(heapq.heappop(self.heap)[2])

    def drop_planned(self, after_ns: int) -> None:
        """Drop the presses that would start after ``after_ns`` (planned for a table that
        is no longer shown); presses already under way still get their release."""
        late = {pid for t, _, e, pid in self.heap if e.pressed and t > after_ns}
        if late:
            self.heap = [x for x in self.heap if x[3] not in late]
            heapq.heapify(self.heap)
        if self.simulated is not None:
            self.simulated.cancel_after(after_ns)

    def cancel(self) -> None:
        self.heap.clear()
        if self.simulated is not None:
            self.simulated.cancel_all()
