"""FOCUS (Sid Sackson, 1963) for 2, 3 and 4 players, and its hex variant Crossfire.

Rule sources: seeds ``003`` and ``004``, rulings SF-1..SF-7, and the arcade's
own decisions in ``docs/rules-sackson.md``.  Start here::

    from arcade.sackson import make_game, parse_action
    state = make_game("focus", 2, {"variant": "2p"}).new_initial_state()
    state.apply(parse_action("c2-c1", state))
"""

from arcade.sackson.board import HEX, SQUARE, Board
from arcade.sackson.game import (
    VARIANTS,
    Drop,
    Move,
    NothingToUndoError,
    SacksonError,
    SacksonGame,
    SacksonState,
    SetupError,
    Swap,
    make_game,
)
from arcade.sackson.notation import (
    MoveListError,
    NotationError,
    format_action,
    format_square,
    parse_action,
    parse_position,
    parse_square,
    play_list,
)
from arcade.sackson.perft import divide, perft

__all__ = [
    "HEX", "SQUARE", "Board", "VARIANTS", "Drop", "Move", "Swap", "NothingToUndoError",
    "SacksonError", "SacksonGame", "SacksonState", "SetupError", "make_game",
    "NotationError", "MoveListError", "format_action", "format_square", "parse_action", "parse_position",
    "parse_square", "play_list",
    "divide", "perft",
]
