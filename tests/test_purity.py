"""The rule modules stay pure (ARCHITECTURE.md "The house"; preamble house rules).

``arcade`` and every module under it import in a fresh interpreter without
pulling in pygame, gpiozero, pyserial, lgpio or the arcade's own hardware,
firmware_bridge and kiosk packages; in fact nothing outside the standard
library.  And no rule module reads a clock or the global random generator:
time comes from the caller and randomness from an injected ``random.Random``.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARCADE = ROOT / "arcade"
FORBIDDEN = ("pygame", "gpiozero", "serial", "lgpio", "hardware", "firmware_bridge", "kiosk")

_PROBE = r"""
import importlib, json, pkgutil, sys
before = set(sys.modules)
import arcade
names, errors = ["arcade"], {}
for info in pkgutil.walk_packages(arcade.__path__, "arcade.", onerror=lambda n: errors.setdefault(n, "walk")):
    names.append(info.name)
    try:
        importlib.import_module(info.name)
    except Exception as exc:
        errors[info.name] = f"{type(exc).__name__}: {exc}"
new = sorted({m.split(".")[0] for m in set(sys.modules) - before})
print(json.dumps({"modules": names, "errors": errors, "new": new}))
"""


@pytest.fixture(scope="module")
def probe() -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_every_arcade_module_imports(probe: dict[str, object]) -> None:
    modules = probe["modules"]
    assert isinstance(modules, list)
    expected = {"arcade.core.judge", "arcade.core.referee", "arcade.core.record", "arcade.focusx.classic",
                "arcade.focusx.cards", "arcade.bots.shout", "arcade.focusx.autoplay", "arcade.registry", "arcade.core.driver"}
    assert expected <= set(modules)
    assert probe["errors"] == {}


def test_importing_arcade_pulls_in_no_hardware_screen_or_kiosk(probe: dict[str, object]) -> None:
    new = probe["new"]
    assert isinstance(new, list)
    assert [m for m in new if m in FORBIDDEN] == []
    # Nothing outside the standard library at all.
    outside = [m for m in new if m != "arcade" and m not in sys.stdlib_module_names]
    assert outside == []


def _sources() -> list[Path]:
    return sorted(p for p in ARCADE.rglob("*.py") if "__pycache__" not in p.parts)


#: Module-level functions of ``random`` that use the hidden global generator.
GLOBAL_RANDOM = {"random", "randint", "randrange", "shuffle", "choice", "choices", "uniform", "gauss",
                 "sample", "seed", "getrandbits", "triangular", "betavariate", "expovariate",
                 "normalvariate", "lognormvariate", "vonmisesvariate", "paretovariate", "weibullvariate",
                 "randbytes", "binomialvariate"}


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_clock_and_no_global_random_in_rule_modules(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            problems += [f"line {node.lineno}: import {a.name}" for a in node.names
                         if a.name.split(".")[0] in ("time", "datetime", "secrets")]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in ("time", "datetime", "secrets"):
                problems.append(f"line {node.lineno}: from {node.module} import ...")
            if node.module == "random" and any(a.name in GLOBAL_RANDOM for a in node.names):
                problems.append(f"line {node.lineno}: from random import a global-generator function")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "random" and node.attr in GLOBAL_RANDOM:
                problems.append(f"line {node.lineno}: random.{node.attr} (the global generator)")
            if node.value.id == "os" and node.attr == "urandom":
                problems.append(f"line {node.lineno}: os.urandom")
    assert problems == []
