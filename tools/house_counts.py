#!/usr/bin/env python3
"""The house's size figures of issue 21, for a checkout: ``python tools/house_counts.py [ROOT]``.

Prints: functions over 50 lines (``ast``, over arcade/, kiosk/, hardware/, firmware_bridge/),
``Any`` (as a word) and ``getattr(`` in kiosk/, kiosk's top-level modules, and its three largest
screen modules (kiosk/scenes/, kiosk/games/) with their lines.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

PACKAGES = ("arcade", "kiosk", "hardware", "firmware_bridge")


def counts(root: Path) -> str:
    long_functions = any_words = getattrs = 0
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] not in PACKAGES:
            continue
        src = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (node.end_lineno or 0) - node.lineno + 1 > 50:
                long_functions += 1
        if rel.parts[0] == "kiosk":
            any_words += len(re.findall(r"\bAny\b", src))
            getattrs += src.count("getattr(")
    top = len(list((root / "kiosk").glob("*.py")))
    screens = sorted(((len(p.read_text(encoding="utf-8").splitlines()), p.relative_to(root).as_posix())
                      for p in (root / "kiosk").rglob("*.py") if {"games", "scenes"} & set(p.parts)), reverse=True)[:3]
    largest = ", ".join(f"{path} {lines}" for lines, path in screens)
    return (f"functions over 50 lines: {long_functions}; kiosk Any: {any_words}; kiosk getattr(: {getattrs}; "
            f"kiosk top-level modules: {top}; largest screen modules: {largest}")


if __name__ == "__main__":
    print(counts(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]))
