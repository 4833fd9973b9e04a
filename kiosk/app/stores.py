"""The stores the app opens: the results file and the high-score table in it.

Nothing wrong with them ever stops the arcade: a results file that cannot be opened is a note
on screen and this session's games are kept in memory; a high-score table that cannot be
opened (a full disk) is said once, tried again every few seconds, and said once more when it
works again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

from kiosk.app import said
from kiosk.app.messages import Messages
from kiosk.persist.storage import Results, StorageError
from kiosk.scene import STORE_NOTE

if TYPE_CHECKING:
    from kiosk.persist.highscores import HighScores

#: A high-score table that could not be opened (a full disk) is tried again after this many seconds.
HIGHSCORES_RETRY_S = 5.0


def open_results(path: str | Path, messages: Messages) -> Results | None:
    """The results store at ``path``; whatever is wrong with the file is a note in ``messages``
    (and the store's own later notes, topic :data:`kiosk.scene.STORE_NOTE`), never a stop: this
    session's games are then kept in memory (None: not even that)."""
    try:
        r = Results(path)
    except Exception as exc:   # StorageError, OSError, anything: never stop the kiosk for storage
        if isinstance(exc, StorageError) and exc.whole:   # it says what happens instead (a damaged file on a full disk)
            messages.add(str(exc), 60)
        else:
            messages.add(said._("Results will not be saved: {error}. This session's games are kept in memory.",
                                error=exc), 60)
        try:
            return Results(":memory:")
        except Exception:
            return None
    for notice in r.notices:        # already in the journal (storage's logger)
        messages.add(notice, 60, journal=False)
    r.report = lambda text: messages.add(text, 60, topic=STORE_NOTE)
    return r


class HighScoreTable:
    """The high-score table (:class:`kiosk.persist.highscores.HighScores`) in the results file,
    opened when first asked for.

    Args:
        results: the results store now (None: none; the attract loop takes it away while its
            demo games play).
        message: shows a note on screen (``Host.message``).
        clock: monotonic seconds (the app's clock).
    """

    def __init__(self, results: Callable[[], Results | None], message: Callable[[str], None],
                 clock: Callable[[], float]) -> None:
        self._results = results
        self._message = message
        self._clock = clock
        self._table: HighScores | None = None
        self._problem = ""              # why the table could not be opened ("": no problem)
        self._retry_at = 0.0            # ... and when to try again (monotonic s)

    def get(self) -> HighScores | None:
        """The table, or None while there is none (no results store, or it cannot be opened)."""
        results = self._results()
        if self._table is None and results is not None:
            # Asked for at every frame of a screen with a board: a table that cannot be opened
            # (a full disk) is tried again every HIGHSCORES_RETRY_S, and said once when it fails
            # and once when it works again (issue 23: 38 lines a second in the journal).
            now = self._clock()
            if self._problem and now < self._retry_at:
                return None
            from kiosk.persist.highscores import HighScores
            try:
                self._table = HighScores(results.db)
            except Exception as exc:
                self._retry_at = now + HIGHSCORES_RETRY_S
                if not self._problem:
                    self._problem = str(exc) or type(exc).__name__
                    self._message(said._("High scores unavailable: {error}", error=exc))
                return None
            if self._problem:
                self._problem = ""
                self._message(said._("High scores available again."))
        return self._table
