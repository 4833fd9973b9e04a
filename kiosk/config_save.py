"""Saving settings from the service menu to the configuration file, atomically.

The file is re-read, the changed keys are set, the whole is validated with the
same rules as at start-up (kiosk/config.py: ranges, contradictions), then
written to a temporary file in the same folder, flushed and fsynced, and put
in place with ``os.replace`` (atomic on POSIX), and the folder is fsynced: after
a power cut the file is the old one or the new one, never a broken one.  The
file is rewritten by ``tomli_w``: keys and values are kept, comments are not.
"""

from __future__ import annotations

import copy
import os
import tomllib
from pathlib import Path
from typing import Any, Mapping

import tomli_w

from kiosk.config import Config, ConfigError, check_all, default_path


def config_file(cfg: Config) -> Path:
    """Where the service menu saves: the file the arcade was started with, else the
    standard place (``$FOCUS_ARCADE_CONFIG`` or ``~/.config/focus-arcade/arcade.toml``)."""
    if cfg.source and cfg.source != "defaults":
        return Path(cfg.source)
    p = default_path()
    if p is not None:
        return p
    base = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config"))
    return base / "focus-arcade" / "arcade.toml"


def read_raw(path: Path) -> dict[str, Any]:
    """The file's TOML as written (not merged with the defaults); {} if it does not exist."""
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        return {}


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves the old or the new file.

    Raises:
        OSError: the folder is not writable, the disk is full... (the old file is untouched).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except FileNotFoundError:
            pass
        raise
    try:
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass            # a folder that cannot be fsynced (some file systems): the rename is done


def save_settings(path: Path, changes: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Set ``changes`` (``{"judge": {"tie_window_ms": 25}}``) in the file at ``path``.

    Returns the validated settings now in the file (defaults merged).

    Raises:
        ConfigError: a change is out of range or contradicts another setting (nothing written);
            the present file is damaged (nothing written: fix or remove it first).
        OSError: the file cannot be written (the old one is kept).
    """
    try:
        raw = read_raw(path)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("config", str(path), f"valid TOML before it can be changed ({exc})") from None
    new = copy.deepcopy(raw)
    for section, values in changes.items():
        new.setdefault(section, {}).update(values)
    data, problems = check_all(new, str(path))
    if problems:
        raise problems[0]
    atomic_write(path, tomli_w.dumps(new).encode("utf-8"))
    return data
