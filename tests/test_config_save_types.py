"""A settings save keeps each value's declared type in the file (issue 20: the service menu
saved a tie window stepped with buzzer taps as ``tie_window_ms = 30.0``, an integer setting
written as a float)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from kiosk.scenes.service.menu import ServiceScene
from kiosk.scenes.service.rows import SETTINGS
from kiosk.service.config_save import save_settings
from tests.explorer import Explorer


def test_the_service_menu_saves_a_stepped_tie_window_as_a_whole_number(tmp_path: Path) -> None:
    ex = Explorer(tmp_path, seed=1, size=(800, 480), check_text=0)
    try:
        ex.app.enter_service()
        ex.run(0.1)
        svc = ex.top
        assert isinstance(svc, ServiceScene)
        tie = next(s for s in SETTINGS if s.key == "tie_window_ms")
        before = svc.values[("judge", "tie_window_ms")]
        svc.values[("judge", "tie_window_ms")] = tie.stepped(before, +1, 2)     # two buzzer taps up
        vol = next(s for s in SETTINGS if s.key == "volume")
        svc.values[("sound", "volume")] = vol.stepped(0.8, +1, 2)               # up to 1, the top
        assert svc.save(), svc.status
        text = (tmp_path / "arcade.toml").read_text()
        want = int(before) + 10
        assert re.search(rf"(?m)^tie_window_ms = {want}\b(?!\.)", text), text
        raw = tomllib.loads(text)
        assert type(raw["judge"]["tie_window_ms"]) is int
        assert type(raw["sound"]["volume"]) is float and raw["sound"]["volume"] == 1.0
    finally:
        ex.close()


def test_a_save_writes_integer_settings_as_integers_and_float_ones_as_floats(tmp_path: Path) -> None:
    path = tmp_path / "arcade.toml"
    path.write_text("[judge]\ntie_window_ms = 20      # 0 to 250\n")
    save_settings(path, {"judge": {"tie_window_ms": 30.0, "debounce_ms": 12.0}, "sound": {"volume": 1},
                         "led": {"brightness": 0.55}})
    raw = tomllib.loads(path.read_text())
    assert raw["judge"] == {"tie_window_ms": 30, "debounce_ms": 12}
    assert all(type(v) is int for v in raw["judge"].values())
    assert type(raw["sound"]["volume"]) is float and type(raw["led"]["brightness"]) is float
    assert "# 0 to 250" in path.read_text()                  # the comment stays
