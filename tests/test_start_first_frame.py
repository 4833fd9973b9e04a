"""The title comes up first; the games' screens and the sounds are made after it (issue 22)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r'''
import argparse, json, sys, tempfile
import pygame
from kiosk import config
from kiosk.app.loop import App
cfg = config.load_or_default(None)
cfg.data["storage"]["path"] = tempfile.mkdtemp() + "/results.sqlite3"
cfg.data["led"]["port"] = "none"
pygame.init()
screen = pygame.display.set_mode((640, 480))
app = App(cfg, screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))
app.home()
out = {}
def games():
    return sorted(m for m in sys.modules if m.startswith("kiosk.games.") and m.endswith(".scene"))
real_flip = pygame.display.flip
def flip():
    real_flip()
    out.setdefault("at_first_frame", {"games": games(), "sounds": len(app.sounds.sounds)})
pygame.display.flip = flip
app.loop(max_frames=3)
app.warmup.thread.join(120)
out["after"] = {"games": games(), "sounds": len(app.sounds.sounds), "problem": app.sounds.problem,
                "title": type(app.scenes[-1]).__name__}
app.close()
print(json.dumps(out))
'''


def run_child() -> dict[str, dict[str, object]]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=os.devnull,
               PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, cwd=ROOT,
                       timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_the_title_is_drawn_before_any_game_screen_is_loaded_and_every_game_is_ready_after_it() -> None:
    got = run_child()
    first, after = got["at_first_frame"], got["after"]
    assert first["games"] == []                         # the first frame waited for no game's screen
    assert after["title"] == "AttractScene"
    from kiosk.scenes.lobby import GAME_MODULES
    assert after["games"] == sorted(GAME_MODULES)       # all of them ready before a guest's press
    if not after["problem"]:                            # a machine with a (dummy) sound device
        from kiosk.output.sound import RECIPES
        assert after["sounds"] == len(RECIPES)
