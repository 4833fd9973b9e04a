"""tools/screens.py's list of screenshots (issue 26: "Screenshots of every screen in Ukrainian")
covers every game family of the registry and every page of the service menu, so a new game or
page without a screenshot is noticed here; and every PNG the list names is in docs/uk/screens at
both sizes.  Nothing is rendered: the list is read as it is."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from arcade import registry
from kiosk.scenes.service.rows import MENU

ROOT = Path(__file__).resolve().parents[1]
SIZES = ("1920x1080", "800x480")


def screens() -> ModuleType:
    spec = importlib.util.spec_from_file_location("focus_arcade_screens", ROOT / "tools" / "screens.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod          # its dataclass looks its module up
    spec.loader.exec_module(mod)
    return mod


def test_every_game_family_and_focusx_mode_has_a_screen_in_play() -> None:
    shown = [registry.get(s.entry) for s in screens().SCREENS if s.entry]
    assert {g.family for g in shown} == {g.family for g in registry.SPECS}
    # FocusX's four modes play differently (their own screens): each is shown
    focusx = {g.mode.removesuffix("-x") for g in registry.SPECS if g.family == "focusx"}
    assert focusx <= {g.mode for g in shown if g.family == "focusx"}


def test_every_service_menu_row_has_its_page_shown() -> None:
    covered = {row for s in screens().SCREENS for row in s.service}
    assert {key for key, _label in MENU} | {"menu"} <= covered


def test_the_list_names_each_png_once_and_docs_hold_them_at_both_sizes() -> None:
    names = [s.name for s in screens().SCREENS]
    assert len(names) == len(set(names))
    folder = ROOT / "docs" / "uk" / "screens"
    missing = [f"{n}-{size}.png" for n in names for size in SIZES if not (folder / f"{n}-{size}.png").is_file()]
    assert missing == [], f"run: python tools/screens.py --language uk --size WxH --out docs/uk/screens ({missing})"
    listed = (folder / "README.md").read_text("utf-8")
    assert [n for n in names if f"{n}-1920x1080.png" not in listed] == []
