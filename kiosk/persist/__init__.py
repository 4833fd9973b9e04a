"""What survives the process: the SQLite store of results and records (:mod:`~kiosk.persist.storage`),
the interrupted game resumed after a power cut (:mod:`~kiosk.persist.resume`) and the high scores
(:mod:`~kiosk.persist.highscores`)."""
