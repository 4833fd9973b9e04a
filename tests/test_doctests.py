"""The examples in the docstrings of ``arcade``, ``hardware``, ``firmware_bridge`` and ``kiosk`` run.

Every module whose source holds a ``>>>`` example is imported and its examples
are run with :mod:`doctest`; a wrong example is a failing test (``.ci/run``
also runs ``pytest --doctest-modules`` over the packages).
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("arcade", "hardware", "firmware_bridge", "kiosk")


def _modules_with_examples() -> list[str]:
    out = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if ">>>" in path.read_text(encoding="utf-8"):
                rel = path.relative_to(ROOT).with_suffix("")
                parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
                out.append(".".join(parts))
    return out


MODULES = _modules_with_examples()


def test_there_are_examples_to_run() -> None:
    assert "arcade.registry" in MODULES and len(MODULES) >= 4


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(module) if t.examples]
    assert tests, f"{name} mentions '>>>' but has no example doctest can find"
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} fail (see above)"
