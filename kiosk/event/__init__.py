"""Several cabinets, one event: the MQTT link of a cabinet and the leaderboard's watcher
(:mod:`~kiosk.event.link`), and the read-only leaderboard web page (:mod:`~kiosk.event.web`)."""
