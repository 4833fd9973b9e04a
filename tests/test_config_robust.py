"""The configuration loader survives any TOML input (issue 11).

What the person setting up the arcade notices: a file that is nested too deep,
too large, not UTF-8, holds NUL bytes or a number too long to read is one clear
message naming the key (or the file) and its line; the kiosk runs on the
defaults.  A byte-order mark from a Windows editor is fine.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.config import MAX_BYTES, MAX_DEPTH, defaults, load, load_or_default


@pytest.mark.parametrize("content, key, says", [
    (b"[led]\nport = " + b"[" * 5000 + b"]" * 5000 + b"\n", "led.port", "nested at most"),
    (b"[seats]\n# a comment [[[[\nstations = " + b"{a = " * 3000 + b"\n", "seats.stations", "line 3"),
    (b"[x]\ns = \"\"\"\n[[[[\"\"\"\n[judge]\ntie_window_ms = " + b"[" * (MAX_DEPTH + 1) + b"\n",
     "judge.tie_window_ms", "line 5"),
    (b"[display]\nfps = " + b"7" * 5000 + b"\n", "config", "line 2"),
    (b"[led]\nport = \"a\x00b\"\n", "config", "line 2"),
    (b"# big\n" + b"#" * MAX_BYTES, "config", f"at most {MAX_BYTES // 1024} kB"),
    (b"[led]\nport = \"\xc3\x28\"\n", "config", "UTF-8"),
    ("[display]\nfps = 30\n".encode("utf-16"), "config", "UTF-8"),
])
def test_a_hostile_file_is_one_clear_message_and_the_defaults(tmp_path: Path, content: bytes, key: str,
                                                              says: str) -> None:
    p = tmp_path / "arcade.toml"
    p.write_bytes(content)
    cfg = load_or_default(p)
    assert cfg.data == defaults() and len(cfg.problems) == 1
    problem = cfg.problems[0]
    assert problem.startswith(f"{key} = ") and says in problem and str(p) in problem
    assert len(problem) < 400


def test_shallow_nesting_is_still_an_ordinary_bad_value(tmp_path: Path) -> None:
    p = tmp_path / "arcade.toml"
    p.write_bytes(b"[judge]\ntie_window_ms = [[[1]]]\n[focusx]\nx_rule = true\n")
    cfg = load_or_default(p)
    assert cfg["focusx"]["x_rule"] is True                  # the good key is kept
    assert len(cfg.problems) == 1 and "judge.tie_window_ms = [[[1]]]" in cfg.problems[0]


def test_a_long_value_is_cut_in_the_message(tmp_path: Path) -> None:
    p = tmp_path / "arcade.toml"
    p.write_text("[led]\nport = [" + ", ".join(["1"] * 5000) + "]\n", encoding="utf-8")
    cfg = load_or_default(p)
    assert "led.port" in cfg.problems[0] and len(cfg.problems[0]) < 300


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    p = tmp_path / "arcade.toml"
    p.write_bytes(b"\xef\xbb\xbf[display]\nfps = 30\n")
    assert load(p)["display"]["fps"] == 30
