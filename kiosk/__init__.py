"""The program on the TV: configuration, the pygame-ce scene stack, persistence,
start-up and the command line (``focus-arcade``)."""

import functools


@functools.cache
def version() -> str:
    """The installed package's version (pyproject), or the source tree's (``--version``,
    ``doctor``, each cabinet's status on the event link); read once a process."""
    try:
        from importlib.metadata import version as installed
        return installed("focus-arcade")
    except Exception:  # noqa: BLE001 - not installed: read pyproject.toml
        import re
        from pathlib import Path
        text = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
        found = re.search(r'^version = "([^"]+)"', text, re.M)
        return found.group(1) if found else "unknown"
