"""Game records of FOCUS and Crossfire with their positions (ruling SF-7).

SF-7 asks for records "as JSON with stacks bottom to top".  The generic record
of :mod:`arcade.core.record` holds the game, seats, settings, seed and every
action; this module adds three keys to it:

* ``"start"`` - the position before the first action: the variant's start position
  (``"source": "variant"``; records before issue 21 say ``"layout"``, read the same) or a
  position made with :meth:`SacksonGame.setup` (``"source": "setup"``), so that set-up games
  can be recorded and replayed;
* ``"final"`` - the position after the last action, with the outcome;
  :func:`replay` checks that the replayed game ends exactly there;
* ``"moves"`` - every action in SF-7 notation, space-separated (for people;
  replay reads ``"actions"``).

A position (:func:`position`) is::

    {"variant": "2p", "board": "square",
     "stacks": {"c2": [0, 1], ...},      # bottom to top, seat numbers, non-empty cells in board order
     "reserves": [0, 1], "captures": [[0, 2], [1, 0]],   # captures[p][colour]
     "removed": [2, 1], "active": [true, true],
     "to_move": 0,                       # the seat to move; null once the game is over
     "outcome": null}                    # or {"winners": [0], "reason": "..."} ("final" only)

:func:`arcade.core.record.replay` reads these records too but starts every game
from the variant's start position unless it is given another one: :func:`replay` here
gives it the record's ``"start"`` (``start=`` a :meth:`SacksonGame.setup`).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping

from arcade.core import record as core
from arcade.core.api import Game
from arcade.core.errors import RecordError
from arcade.sackson.game import SacksonGame, SacksonState, make_game
from arcade.sackson.notation import format_action

MakeGame = Callable[[str, int, Mapping[str, Any]], Game]


def position(state: SacksonState) -> dict[str, Any]:
    """The position of ``state`` as JSON-able data (see the module text); stacks bottom to top (SF-7)."""
    snap = state.snapshot()
    over = state.is_terminal()
    return {
        "variant": snap["variant"], "board": snap["board"], "stacks": snap["stacks"],
        "reserves": snap["reserves"], "captures": snap["captures"], "removed": snap["removed"],
        "active": snap["active"], "to_move": None if over else snap["to_move"],
        "outcome": snap["outcome"],
    }


def start_position(state: SacksonState) -> dict[str, Any]:
    """The position ``state`` started from (before its first action), with ``"source"``.

    ``"variant"``: the variant's start position (:func:`arcade.sackson.setups.start_position`);
    ``"setup"``: the arguments of
    :meth:`SacksonGame.setup` (``to_move`` as given there).
    """
    origin = getattr(state, "_origin", None)
    game = state.game
    if origin is None:
        out = position(game.new_initial_state())
        out["to_move"] = 0
        out["outcome"] = None
        out["source"] = "variant"
        return out
    n = game.seats
    return {
        "variant": game.variant, "board": game.board.kind,
        "stacks": {c: list(s) for c, s in origin["stacks"].items()},
        "reserves": list(origin["reserves"]), "captures": [list(r) for r in origin["captures"]],
        "removed": list(origin["removed"]), "active": [True] * n, "to_move": origin["to_move"],
        "outcome": None, "source": "setup",
    }


def to_record(state: SacksonState, seed: int | None = None, entry: str | None = None) -> dict[str, Any]:
    """The record of ``state`` (:func:`arcade.core.record.to_record`, ``entry`` its registry
    name, plus ``start``, ``final``, ``moves``).

    Raises:
        TypeError: ``state`` is not a FOCUS / Crossfire state.
    """
    if not isinstance(state, SacksonState):
        raise TypeError(f"not a FOCUS state: {state!r}")
    rec = core.to_record(state, seed, entry)
    rec["start"] = start_position(state)
    rec["final"] = position(state)
    rec["moves"] = " ".join(format_action(a, state) for _p, a in state.history)
    return rec


def dumps(state: SacksonState, seed: int | None = None, entry: str | None = None) -> str:
    """:func:`to_record` as JSON text (keys sorted)."""
    return json.dumps(to_record(state, seed, entry), sort_keys=True)


def _first_difference(got: Mapping[str, Any], want: Mapping[str, Any]) -> str | None:
    for key in sorted(set(got) | set(want)):
        if key == "source":
            continue
        if key not in want:
            continue                      # older records may lack a key: only compare what they say
        if json.loads(json.dumps(got.get(key))) != want[key]:
            return f"{key}: replayed {got.get(key)!r}, recorded {want[key]!r}"
    return None


def replay(record: Mapping[str, Any] | str, make: MakeGame = make_game) -> SacksonState:
    """Rebuild the game a record describes and check it ends at the recorded ``final``.

    Args:
        record: a record (dict or JSON text) from :func:`to_record`, or a plain
            :mod:`arcade.core.record` record (no ``start`` / ``final``: the variant's
            start position, nothing to check).
        make: ``(name, seats, settings) -> Game``; default :func:`make_game`.

    Raises:
        RecordError: damaged JSON, a wrong format, a ``start`` that cannot be set
            up or is not the variant's start position, an action that does not replay (its
            index and the reason), or a replayed end that differs from ``final``
            (the first differing key).
    """
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as exc:
            raise RecordError(f"the record is not valid JSON: {exc}") from None
    if not isinstance(record, Mapping) or record.get("format") != core.FORMAT:
        raise RecordError(f"not a {core.FORMAT} record")
    start = record.get("start")
    if start is not None and not isinstance(start, Mapping):
        raise RecordError(f"the record's 'start' must be an object, got {start!r}")
    if start is not None and start.get("source") == "setup":
        state = _replay_from_setup(record, start, make)
    else:
        state = core.replay(record, make)  # type: ignore[assignment]
        if not isinstance(state, SacksonState):
            raise RecordError(f"not a FOCUS record: game {record.get('game')!r}")
        if start is not None:
            fresh = start_position(state.game.new_initial_state())
            diff = _first_difference(fresh, start)
            if diff is not None:
                raise RecordError(f"the record's 'start' is not the start position of variant "
                                  f"{state.game.variant!r} ({diff})")
    final = record.get("final")
    if final is not None:
        if not isinstance(final, Mapping):
            raise RecordError(f"the record's 'final' must be an object, got {final!r}")
        diff = _first_difference(position(state), final)
        if diff is not None:
            raise RecordError(f"the replayed game does not end at the record's 'final' position ({diff})")
    return state


def _replay_from_setup(record: Mapping[str, Any], start: Mapping[str, Any], make: MakeGame) -> SacksonState:
    def setup(game: Game) -> SacksonState:
        if not isinstance(game, SacksonGame):
            raise RecordError(f"not a FOCUS record: game {record.get('game')!r}")
        return game.setup(start["stacks"], reserves=start.get("reserves"), to_move=start.get("to_move", 0),
                          captures=start.get("captures"), removed=start.get("removed"))

    return core.replay(record, make, start=setup)  # type: ignore[return-value]
