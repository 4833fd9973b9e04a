"""The kiosk's seams, read from its source (issue 21).

* **No shared kiosk module imports a game.**  A shared module is every module of ``kiosk/``
  outside ``kiosk/games/`` (the title, the lobby, the results, the game scene base, the
  thinking process, the drawing helpers...).  None may import a game's package: the rules
  and house of a registry entry (``arcade.focusx``, ``arcade.sackson``, ``arcade.sherlook``,
  ``arcade.coop``: every house's package in :data:`arcade.registry.SPECS`), the computer
  players (``arcade.bots``) or a game's screens (``kiosk.games``).  Every import counts: at
  the top of a module, inside a function, under ``if TYPE_CHECKING:``, and
  ``importlib.import_module("...")`` with a literal name.  What a shared module needs of a
  game comes through the registry (``arcade.registry``: a ``GameSpec``, its house) or a
  game's screen package found by name (``kiosk.scenes.seats.screen_part``).
* **No import circle in kiosk.**  Two rules, both over every ``kiosk`` module (games
  included):

  - the imports run when a module is imported (its top level, ``if``/``try``/``with``
    blocks at the top level, but not ``if TYPE_CHECKING:``) form no cycle: importing any
    kiosk module never finds a half-made one;
  - function-level imports count too (they run when the function is first called): no
    chain of import statements anywhere leads from a module back to itself, so that the
    folders read as layers (the app drives the scenes; a scene sees the app only as a type,
    under ``if TYPE_CHECKING:``).  Only ``if TYPE_CHECKING:`` imports are left out; they
    never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

from arcade import registry

KIOSK = Path(__file__).resolve().parents[1] / "kiosk"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(KIOSK.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, ast.Module]:
    return {_module_name(p): ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in sorted(KIOSK.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(node: ast.AST, here: str) -> list[str]:
    """The modules an import statement (or ``importlib.import_module("literal")``) names,
    each with the names it takes from a package (``from kiosk.players import thinker`` -> ``kiosk.players``,
    ``kiosk.players.thinker``)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:          # relative (kiosk uses none today): a module's package is its name's head
            base = here.split(".")[: -node.level]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        return [module] + [f"{module}.{a.name}" for a in node.names]
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in ("import_module", "__import__"):
            return [node.args[0].value]
    return []


def _every_import(tree: ast.Module, here: str) -> list[tuple[int, list[str]]]:
    """Every import statement (and literal ``import_module``) anywhere in the module: its line
    and what it names."""
    return [(n.lineno, names) for n in ast.walk(tree) if (names := _imported(n, here))]


def _runtime_imports(tree: ast.Module, here: str, functions: bool) -> list[str]:
    """What the module's import statements name, ``if TYPE_CHECKING:`` left out; with
    ``functions`` False only those run at import time (not in a function or class body's
    functions)."""
    out: list[str] = []

    def visit(nodes: list[ast.stmt]) -> None:
        for n in nodes:
            if isinstance(n, ast.If):
                if not _is_type_checking(n):
                    visit(n.body)
                visit(n.orelse)
            elif isinstance(n, ast.Try):
                visit(n.body)
                for h in n.handlers:
                    visit(h.body)
                visit(n.orelse)
                visit(n.finalbody)
            elif isinstance(n, (ast.With, ast.ClassDef)):
                visit(n.body)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if functions:
                    visit(n.body)
            elif isinstance(n, (ast.For, ast.While)):
                visit(n.body)
                visit(n.orelse)
            else:
                for sub in ast.walk(n):
                    out.extend(_imported(sub, here))

    visit(tree.body)
    return out


def _game_packages() -> list[str]:
    houses = {".".join(s.house.split(".")[:2]) for s in registry.SPECS + registry.EXAMPLES}
    return sorted(houses | {"arcade.bots", "kiosk.games"})


def test_the_game_packages_are_the_houses_bots_and_game_screens() -> None:
    assert {"arcade.focusx", "arcade.sackson", "arcade.sherlook", "arcade.coop", "arcade.bots",
            "kiosk.games"} <= set(_game_packages())


def test_no_shared_kiosk_module_imports_a_game() -> None:
    games = _game_packages()
    found = []
    for name, tree in _modules().items():
        if name == "kiosk.games" or name.startswith("kiosk.games."):
            continue
        for line, imported in _every_import(tree, name):
            bad = [m for m in imported if any(m == g or m.startswith(g + ".") for g in games)]
            if bad:
                found.append(f"{name.replace('.', '/')}.py:{line} imports {bad[0]}")
    assert not found, "a shared kiosk module imports a game:\n" + "\n".join(found)


def test_the_skill_names_are_the_computer_players_own() -> None:
    """The shared screens and the configuration offer ``arcade.registry.SKILLS``; every
    game's computer players take exactly those."""
    from arcade.bots import sackson, shout
    assert registry.SKILLS == tuple(shout.SKILLS) == tuple(sackson.SKILLS)


def _graph(functions: bool) -> dict[str, set[str]]:
    modules = _modules()
    return {name: {m for m in _runtime_imports(tree, name, functions) if m in modules and m != name}
            for name, tree in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (its modules in import order, the first again at the end), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        path.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        path.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


def test_imports_run_at_import_time_form_no_cycle() -> None:
    cycle = _cycle(_graph(functions=False))
    assert cycle is None, "kiosk modules import each other at import time: " + " -> ".join(cycle or [])


def test_no_chain_of_imports_in_kiosk_comes_back_to_its_module() -> None:
    cycle = _cycle(_graph(functions=True))
    assert cycle is None, "an import circle in kiosk (function-level imports included): " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert _cycle(graph) == ["a", "b", "c", "a"]
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from kiosk.app.loop import App\n"
                     "def f():\n    from kiosk.scenes import lobby\n")
    assert _runtime_imports(tree, "kiosk.x", functions=False) == ["typing", "typing.TYPE_CHECKING"]
    assert "kiosk.scenes.lobby" in _runtime_imports(tree, "kiosk.x", functions=True)
    assert "kiosk.app.loop" not in _runtime_imports(tree, "kiosk.x", functions=True)


#: kiosk's top level: the program's core.  Everything else lives in a folder named for what it
#: serves (issue 21, item 4), so the tree shows the architecture (README, "Where things are").
CORE = {"__init__.py", "cli.py", "config.py", "render.py", "scene.py"}
FOLDERS = {"app", "controls", "event", "games", "output", "persist", "players", "scenes", "service"}


def test_kiosk_top_level_holds_only_the_core_and_its_folders_say_what_they_serve() -> None:
    modules = {p.name for p in KIOSK.glob("*.py")}
    assert modules == CORE, f"new top-level kiosk modules {sorted(modules - CORE)}: put them in a folder"
    packages = {p.parent.name for p in KIOSK.glob("*/__init__.py")}
    assert packages == FOLDERS
    for folder in sorted(packages):
        doc = ast.get_docstring(ast.parse((KIOSK / folder / "__init__.py").read_text(encoding="utf-8")))
        assert doc and len(doc) > 40, f"kiosk/{folder}/__init__.py: say what the folder serves"
        readme = (KIOSK.parent / "README.md").read_text(encoding="utf-8")
        assert f"  {folder}/" in readme, f"README's 'Where things are' lacks kiosk/{folder}/"
