"""What the cabinet shows and plays besides the TV: the LED matrix (:mod:`~kiosk.output.led`),
the buzzers' lamps (:mod:`~kiosk.output.buzzer_lamps`) and the sounds (:mod:`~kiosk.output.sound`)."""
