"""What the lights show: the LED matrix's pictures (:mod:`arcade.lights.pictures`) and the
buzzers' lamps (:mod:`arcade.lights.lamps`).  A game's own pictures live in its family
(``arcade/<family>/pictures.py``); what a seat may see of a game is its house's ``view``."""
