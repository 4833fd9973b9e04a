"""JSON game records that replay to the identical final state.

A record holds the game's name, seats and settings, the seed that the driver's
random generator started from (for information), and every action in order
with who took it, chance outcomes included.  ``replay`` rebuilds the game from
the actions alone, so it does not depend on any random generator.

Format (``"format": "focus-arcade/1"``)::

    {"format": "focus-arcade/1", "entry": "focusx-classic", "game": "focusx-classic", "seats": 4,
     "settings": {...}, "seed": 1,
     "actions": [{"player": -1, "action": {"type": "Deal", ...}}, ...]}
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping

from arcade.core.api import Game, State
from arcade.core.errors import ArcadeError, RecordError

FORMAT = "focus-arcade/1"


def to_record(state: State, seed: int | None = None, entry: str | None = None) -> dict[str, Any]:
    """The record of ``state``'s whole history as JSON-able data.

    ``"entry"`` is ``entry``, the registry name of the game played (``arcade.registry``:
    ``focusx-duel-x``, ``focus-3p``...), the name the command line and the lobby use, given
    by the caller that holds the entry (a screen's ``spec``); None when not given.
    ``"game"`` is the rules' own name, which with ``"settings"`` says the same.
    """
    return {
        "format": FORMAT,
        "entry": entry,
        "game": state.game.name,
        "seats": state.game.seats,
        "settings": dict(state.game.settings),
        "seed": seed,
        "actions": [{"player": int(p), "action": a.to_json()} for p, a in state.history],
    }


def dumps(state: State, seed: int | None = None, entry: str | None = None) -> str:
    """:func:`to_record` as JSON text (keys sorted)."""
    return json.dumps(to_record(state, seed, entry), sort_keys=True)


def replay(record: Mapping[str, Any] | str, make_game: Callable[[str, int, Mapping[str, Any]], Game],
           start: Callable[[Game], State] | None = None) -> State:
    """Rebuild the state a record describes.

    Args:
        record: the record (dict or JSON text).
        make_game: ``(name, seats, settings) -> Game`` (``arcade.registry.make``).
        start: ``game -> State``: the position the record's actions start
            from (a set-up position, e.g. ``SacksonGame.setup``); default the
            game's initial state.  Errors it raises (ArcadeError, KeyError,
            TypeError, ValueError) become RecordError.

    Raises:
        RecordError: damaged JSON, a wrong format, a start position that
            cannot be set up, or an action that does not replay (its index and
            the reason are in the message).
    """
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as exc:
            raise RecordError(f"the record is not valid JSON: {exc}") from None
    if not isinstance(record, Mapping) or record.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record")
    settings = record.get("settings") or {}
    if not isinstance(settings, Mapping):
        raise RecordError(f"the record's 'settings' must be an object, got {settings!r}")
    try:
        game = make_game(record["game"], record["seats"], settings)
        actions = record["actions"]
    except KeyError as exc:
        raise RecordError(f"the record has no {exc.args[0]!r}") from None
    except (ArcadeError, TypeError) as exc:
        raise RecordError(f"the record's game cannot be set up: {exc}") from None
    if not isinstance(actions, list):
        raise RecordError(f"the record's 'actions' must be a list, got {type(actions).__name__}")
    if start is None:
        state = game.new_initial_state()
    else:
        try:
            state = start(game)
        except KeyError as exc:
            raise RecordError(f"the record's 'start' has no {exc.args[0]!r}") from None
        except RecordError:
            raise
        except (ArcadeError, TypeError, ValueError) as exc:
            raise RecordError(f"the record's 'start' cannot be set up: {exc}") from None
    apply_actions(state, actions)
    return state


def apply_actions(state: State, actions: list[Any]) -> None:
    """Apply a record's ``actions`` (``[{"player": p, "action": {...}}, ...]``) to ``state`` in order.

    Raises:
        RecordError: an action that does not replay (its index and the reason).
    """
    game = state.game
    for i, entry in enumerate(actions):
        try:
            action = game.action_from_json(entry["action"])
            player = entry["player"]
            if type(player) is not int:
                raise RecordError(f"'player' must be a whole number (a seat, or -1 chance, -2 race), got {player!r}")
            state.apply(action, player)
        except (ArcadeError, KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"action {i} of the record does not replay: {exc}") from None
