"""Saving settings from the service menu to the configuration file, atomically.

The file is re-read, the changed keys are set, the whole is validated with the
same rules as at start-up (kiosk/config.py: ranges, contradictions), then
written to a temporary file in the same folder, flushed and fsynced, and put
in place with ``os.replace`` (atomic on POSIX), and the folder is fsynced: after
a power cut the file is the old one or the new one, never a broken one.  The
file is edited in place by ``tomlkit`` (a round-trip TOML library): the help comments
the installer wrote, blank lines and the order of keys stay as they were, only the
changed values change (issue 25).  A save is an operator's deliberate change: the file
saved becomes the last good copy (kiosk/config.py), and settings of that copy the file
lacked (taken from it at start) are written into the file, so a save never loses them.
A last line with no newline after it (a file cut short) is left out, its key then taken from
the copy, and the file written always ends with a newline (issue 23).
"""

from __future__ import annotations

import copy
import os
import tomllib
from pathlib import Path
from typing import Mapping, MutableMapping

import tomlkit
from tomlkit.exceptions import TOMLKitError

from kiosk.config import (
    Config,
    ConfigError,
    Settings,
    accept_as_last_good,
    atomic_write,
    check_all,
    default_path,
    missing_keys,
    read_last_good,
)


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


def read_raw(path: Path) -> dict[str, object]:
    """The file's TOML as written (not merged with the defaults); {} if it does not exist."""
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        return {}


def save_settings(path: Path, changes: Mapping[str, Mapping[str, object]]) -> Settings:
    """Set ``changes`` (``{"judge": {"tie_window_ms": 25}}``) in the file at ``path``,
    keeping its comments and formatting.

    Returns the validated settings now in the file (defaults merged).

    Raises:
        ConfigError: a change is out of range or contradicts another setting (nothing written);
            the present file is damaged (nothing written: fix or remove it first).
        OSError: the file cannot be written (the old one is kept).
    """
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        text = ""
    except UnicodeDecodeError as exc:
        raise ConfigError("config", str(path), f"a UTF-8 text file before it can be changed ({exc.reason})") from None
    text = text[:text.rfind("\n") + 1]   # a last line cut short (no newline) is not trusted: its key comes from the copy
    try:
        doc = tomlkit.parse(text)
        tomllib.loads(text)              # the same reading as at start-up
    except (TOMLKitError, tomllib.TOMLDecodeError, ValueError) as exc:
        raise ConfigError("config", str(path), f"valid TOML before it can be changed ({exc})") from None
    good = read_last_good(path)
    for name in missing_keys(doc.unwrap(), good):       # taken from the last good copy at start: kept
        section, key = name.split(".", 1)
        _table(doc, section)[key] = copy.deepcopy(good[section][key])
    for section, values in changes.items():
        table = _table(doc, section)
        for key, value in values.items():
            table[key] = declared_type(section, key, value, table.get(key))
    new = doc.unwrap()
    data, problems = check_all(new, str(path))
    if problems:
        raise problems[0]
    out = tomlkit.dumps(doc)
    if out and not out.endswith("\n"):
        out += "\n"                      # every line ended: a last line without one is a cut file
    atomic_write(path, out.encode("utf-8"))
    try:
        accept_as_last_good(path)
    except OSError:
        pass                             # a read-only state folder: the file itself is saved
    return data


def declared_type(section: str, key: str, value: object, present: object = None) -> object:
    """``value`` in the type the setting is declared with: ``kiosk/default.toml``'s, else the
    file's present value's (issue 20: a tie window stepped to 30 was saved as
    ``tie_window_ms = 30.0``).  A whole float of an integer setting is written as an integer, an
    integer of a float setting as a float; anything else as it is.

    >>> declared_type("judge", "tie_window_ms", 30.0), declared_type("sound", "volume", 1)
    (30, 1.0)
    >>> declared_type("judge", "tie_window_ms", 22.5), declared_type("seats", "computer_skill", "hard")
    (22.5, 'hard')
    """
    from kiosk.config import defaults
    was = defaults().get(section, {}).get(key)
    was = present if was is None else was
    if isinstance(value, bool) or isinstance(was, bool) or not isinstance(value, (int, float)):
        return value
    if isinstance(was, int) and isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(was, float) and isinstance(value, int):
        return float(value)
    return value


def _table(doc: MutableMapping[str, object], section: str) -> MutableMapping[str, object]:
    """The ``[section]`` table of the document, added at its end when missing (or not a table).

    Raises:
        ConfigError: the document does not give a table back (tomlkit always does).
    """
    if not isinstance(doc.get(section), dict):
        doc[section] = tomlkit.table()
    table = doc[section]
    if not isinstance(table, dict):
        raise ConfigError(section, table, "a [section] table")
    return table
