"""Buzz Race: the example game kept in the tree for the tests and ``docs/new-game.md``.

Two seats; every round a buzzer race; first to five rounds.  Registered in
:data:`arcade.registry.EXAMPLES`, never in the lobby.
"""
