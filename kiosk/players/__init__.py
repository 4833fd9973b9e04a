"""Who presses when nobody at a seat does: computer players thinking in their own process
(:mod:`~kiosk.players.thinker`), the away rule for a person who walked off (:mod:`~kiosk.players.away`),
and the two commands that play without people (:mod:`~kiosk.players.demo`, :mod:`~kiosk.players.headless`)."""
