"""One meaning per name (issue 21; the glossary in docs/architecture.md).

* **A layout is the LED matrix's pixel order** (``firmware_bridge/layout.py``, ``MatrixLayout``)
  and nothing else: no identifier in ``arcade/`` or ``kiosk/`` (a name, an attribute, a
  function, class or argument, an imported module) has the word "layout" in it, except in
  the LED modules (``kiosk/output/led.py``, or any module or folder named ``led``/``leds``/``led_*``)
  and the LED names themselves (``firmware_bridge.layout``, ``MatrixLayout``, ``LayoutError``).
  FOCUS's start positions are *start positions*, Sherlook's green tokens show *poses*, screens
  have *regions* or a *grid*.  ``kiosk/games/`` is not read yet: its screens are being split
  (issue 21, step 5) and join this check when they land.
* **A view is what one seat sees** (a house's ``view``): the LED pictures and lamps are
  ``arcade/lights/``; there is no ``arcade/views`` package and nothing imports one, and a
  game's own pictures live in its family (``arcade/<family>/pictures.py``), not in the
  shared package.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

from arcade import registry

ROOT = Path(__file__).resolve().parents[1]

#: Folders whose identifiers are read (relative to the repository).
READ = ("arcade", "kiosk")
#: Folders left out of the check (none: the game screens were renamed when they were split).
NOT_YET: tuple[Path, ...] = ()
#: The LED names from ``firmware_bridge.layout`` any module may use.
LED_NAMES = frozenset({"MatrixLayout", "LayoutError", "firmware_bridge.layout"})
#: The words a non-LED identifier may not contain.
BANNED = frozenset({"layout", "layouts"})


def words(identifier: str) -> list[str]:
    """The lower-case words of a snake_case, CamelCase or UPPER_CASE identifier.

    >>> words("screen_layout"), words("ScreenLayout"), words("LAYOUT_2P")
    (['screen', 'layout'], ['screen', 'layout'], ['layout', '2', 'p'])
    """
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", identifier)]


def identifiers(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, name)`` of every identifier ``tree`` defines or uses (names, attributes,
    functions, classes, arguments, keywords, imported modules and names)."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name):
            out.append((line, node.id))
        elif isinstance(node, ast.Attribute):
            out.append((line, node.attr))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append((line, node.name))
        elif isinstance(node, ast.arg):
            out.append((line, node.arg))
        elif isinstance(node, ast.keyword) and node.arg is not None:
            out.append((line, node.arg))
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.extend((line, n) for n in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.module:
                out.append((line, node.module))
            out.extend((line, a.asname or a.name) for a in node.names)
            out.extend((line, a.name) for a in node.names if a.asname)
        elif isinstance(node, ast.Import):
            for a in node.names:
                out.append((line, a.name))
                if a.asname:
                    out.append((line, a.asname))
    return out


def layout_names(tree: ast.AST) -> list[tuple[int, str]]:
    """The identifiers of ``tree`` that call something other than the LED matrix a layout."""
    return sorted({(line, name) for line, name in identifiers(tree)
                   if name not in LED_NAMES
                   and any(BANNED.intersection(words(part)) for part in name.split("."))})


def is_led_module(rel: Path) -> bool:
    """``kiosk/output/led.py``, ``kiosk/leds/...``, ``kiosk/output/led_link.py``: the LED output."""
    stems = [p for p in rel.with_suffix("").parts]
    return any(s in ("led", "leds") or s.startswith("led_") for s in stems)


def read_modules() -> list[Path]:
    out = []
    for folder in READ:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if any(rel.is_relative_to(skip) for skip in NOT_YET) or is_led_module(rel):
                continue
            out.append(path)
    return out


def test_the_check_finds_a_layout_of_each_kind():
    """The check sees every kind of identifier (so the test below can fail)."""
    src = ("from arcade.sherlook.layouts import Layout as L\nimport kiosk.layout_tools\n"
           "LAYOUTS = 1\ndef screen_layout(layout_key): pass\nclass ScreenLayout: pass\n"
           "st.layout\nf(layout=1)\nfrom firmware_bridge.layout import MatrixLayout\nMatrixLayout()\n")
    assert layout_names(ast.parse(src)) == [
        (1, "Layout"), (1, "arcade.sherlook.layouts"), (2, "kiosk.layout_tools"), (3, "LAYOUTS"),
        (4, "layout_key"), (4, "screen_layout"), (5, "ScreenLayout"), (6, "layout"), (7, "layout")]
    assert is_led_module(Path("kiosk/output/led.py")) and is_led_module(Path("kiosk/leds/link.py"))
    assert not is_led_module(Path("kiosk/scenes/service/menu.py")) and not is_led_module(Path("kiosk/ledger.py"))


def test_layout_means_only_the_led_matrix_pixel_order():
    modules = read_modules()
    assert any(p.parts[-2:] == ("service", "menu.py") for p in modules) and any(p.parts[-2] == "sherlook" for p in modules)
    found = [f"{p.relative_to(ROOT)}:{line}: {name}"
             for p in modules for line, name in layout_names(ast.parse(p.read_text(encoding="utf-8")))]
    assert not found, ("'layout' is the LED matrix's pixel order only (docs/architecture.md, "
                       "names with one meaning); rename:\n" + "\n".join(found))


def _imported(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and getattr(node.func, "attr", "") == "import_module":
            out.add(node.args[0].value)
    return out


def test_views_is_not_a_package_of_pictures():
    assert not (ROOT / "arcade" / "views").exists(), "the LED pictures and lamps are arcade/lights/"
    assert importlib.util.find_spec("arcade.views") is None
    found = []
    for folder in ("arcade", "kiosk", "hardware", "firmware_bridge", "tests", "bench", "tools"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            names = _imported(ast.parse(path.read_text(encoding="utf-8")))
            found += [f"{path.relative_to(ROOT)}: {n}" for n in sorted(names)
                      if n == "arcade.views" or n.startswith("arcade.views.")]
    assert not found, "arcade.views is now arcade.lights:\n" + "\n".join(found)


def test_the_shared_lights_name_no_game():
    """A game's pictures live in its family (``arcade/sackson/pictures.py``): ``arcade/lights``
    imports no game package."""
    games = {".".join(s.house.split(".")[:2]) for s in registry.SPECS + registry.EXAMPLES}
    assert "arcade.sackson" in games
    found = [f"{path.relative_to(ROOT)}: {n}"
             for path in sorted((ROOT / "arcade" / "lights").rglob("*.py"))
             for n in sorted(_imported(ast.parse(path.read_text(encoding="utf-8"))))
             if any(n == g or n.startswith(g + ".") for g in games)]
    assert not found, "\n".join(found)
