"""Focus (2023): the cooperative two-player game (seed ``000_27d490c7c429b1c9.txt``).

* :mod:`arcade.coop.exhibits` - the 168 exhibit faces on 84 double-sided cards
  and the four Mrs. Hudson cases (ruling CO-1);
* :mod:`arcade.coop.game` - :class:`~arcade.coop.game.CoopGame` and
  :class:`~arcade.coop.game.CoopState` on the core game API: base game,
  Sherlock Mode, Mycroft Mode, the cases (CO-2..CO-6);
* :mod:`arcade.coop.similarity` - the association table the computer partner
  uses (built offline by ``tools/build_similarity.py``);
* :mod:`arcade.coop.pictures` - the LED matrix picture of the table.

The computer partner itself is :mod:`arcade.bots.coop`.
"""
