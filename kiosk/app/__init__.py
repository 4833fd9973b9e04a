"""The running arcade: the frame loop and the scene switching (:mod:`~kiosk.app.loop`: ``App``,
which every scene sees as :class:`kiosk.scene.Host`) and the parts it hands the rest to, each a
small class or a few functions given what they need, none reaching back into the app:

* :mod:`~kiosk.app.window`: the window opened, the loop run in it, the exit status;
* :mod:`~kiosk.app.options`: the command line's options the arcade reads;
* :mod:`~kiosk.app.messages`: the notes on screen, their topics and their drawing;
* :mod:`~kiosk.app.screenshots`: ``--screenshot-dir``, ``--screenshot-every``, F12 / Print Screen / Guide;
* :mod:`~kiosk.app.resume_offer`: keeping an interrupted game and offering it again;
* :mod:`~kiosk.app.warmup`: what a frame would wait for, made ahead;
* :mod:`~kiosk.app.stores`, :mod:`~kiosk.app.event_status`: the results file, the high scores,
  the hall's event link;
* :mod:`~kiosk.app.stations`, :mod:`~kiosk.app.computer`: the GPIO buzzers, lamps and simulated
  players, which station's presses reach a screen, the computer players' presses;
* :mod:`~kiosk.app.service_door`, :mod:`~kiosk.app.plain_title`, :mod:`~kiosk.app.led_badge`: the
  combination into the service menu, the title of last resort, the LED badge.
"""
