"""Saving from the service menu keeps the configuration's comments (issue 25, part 4) and
never drops what makes the cabinet a kiosk (issue 23, part 1).

What the operator notices: after changing the tie window or the volume in the service
menu, ``arcade.toml`` still has every help comment the installer wrote, only the changed
values differ, and the saved file is the new last good copy.
"""

from __future__ import annotations

from pathlib import Path

from kiosk import config
from kiosk.service.config_save import save_settings
from tests.test_config_damage import INSTALLED, install


def test_a_save_changes_only_the_values_and_keeps_every_comment(tmp_path: Path) -> None:
    path = install(tmp_path)
    save_settings(path, {"judge": {"tie_window_ms": 25}, "sound": {"volume": 0.5}})
    after = path.read_text("utf-8")
    changed = [(a, b) for a, b in zip(INSTALLED.splitlines(), after.splitlines()) if a != b]
    assert len(after.splitlines()) == len(INSTALLED.splitlines())
    assert [b.split("#")[0].strip() for _, b in changed] == ["tie_window_ms = 25", "volume = 0.5"]
    assert "# 0 to 250" in after and "Change it!" in after            # the comments on those lines too
    before_comments = [line for line in INSTALLED.splitlines() if line.lstrip().startswith("#")]
    assert all(line in after.splitlines() for line in before_comments)
    cfg = config.load_or_default(path)
    assert cfg.problems == [] and cfg["judge"]["tie_window_ms"] == 25
    assert config.last_good_path().read_text("utf-8") == after        # a deliberate change


def test_a_save_on_a_cut_file_writes_back_what_came_from_the_last_good_copy(tmp_path: Path) -> None:
    path = install(tmp_path)
    path.write_text(INSTALLED[:INSTALLED.index("[gpio]")], "utf-8")  # cut off: no [gpio], no PIN
    save_settings(path, {"sound": {"volume": 0.3}})
    cfg = config.load_or_default(path)
    assert cfg.problems == [] and cfg.restored == []
    assert cfg["gpio"]["buzzers"][:4] == [17, 27, 22, 23] and cfg["service"]["pin"] == "4711"
    assert cfg["display"]["kiosk"] is True and cfg["sound"]["volume"] == 0.3
