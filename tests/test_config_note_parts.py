"""The arcade's note about a damaged configuration is read whole on screen (issue 23, item 1).

What the operator notices: with the file deleted the note ends with how to put it back; after a
header typo every setting taken from the last good copy is listed, ``display.kiosk`` too.  A
note longer than the lines it may take shows in numbered parts, in turn, at 480x320 up to
1920x1080, no line cut at an edge or squeezed unreadably (tests/text_fit.py).  The parts turn
on a virtual clock (``Messages.clock``).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pygame
import pytest

import kiosk.app.loop as kapp
from kiosk import config, render
from kiosk.app.messages import MESSAGE_PART_S
from tests.test_config_damage import INSTALLED, install
from tests.text_fit import TextSeen, cut_texts


def _app(cfg: config.Config, tmp_path: Path, size: tuple[int, int]) -> kapp.App:
    """The arcade with ``cfg``'s notes on a ``size`` screen (keyboard seats, no LED, results in tmp)."""
    cfg.data["seats"]["stations"] = ["keyboard", "keyboard"]
    cfg.data["gpio"]["pin_factory"] = "mock"
    cfg.data["led"]["port"] = "none"
    cfg.data["storage"]["path"] = str(tmp_path / "r.sqlite3")
    pygame.init()
    screen = pygame.display.set_mode(size)
    return kapp.App(cfg, screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))


_MARK = re.compile(r"\s+\((\d+)/(\d+)\)$")


def _read_on_screen(cfg: config.Config, note: str, tmp_path: Path, size: tuple[int, int],
                    monkeypatch: pytest.MonkeyPatch) -> tuple[str, dict[str, object]]:
    """The note ``note`` as read on the title screen over a minute and a half (a virtual
    clock): its lines, part after part, joined; and the lines of the screen cut or squeezed."""
    cfg.problems = [note]
    app = _app(cfg, tmp_path, size)
    seen = TextSeen(monkeypatch)
    clock = [kapp.time.monotonic()]
    monkeypatch.setattr(app.messages, "clock", lambda: clock[0])
    want = " ".join(render.plain(note).split())
    parts: dict[int, list[str]] = {}
    cut: dict[str, object] = {}
    try:
        app.home()
        seen.watch(app.screen)
        for _ in range(60):
            seen.seen.clear()
            app.draw()
            cut.update(cut_texts(seen, app.screen))
            lines = [msg for msg, *_ in seen.seen if _MARK.sub("", msg) in want]
            mark = _MARK.search(lines[-1]) if lines else None
            if lines:
                parts[int(mark.group(1)) if mark else 0] = [_MARK.sub("", line) for line in lines]
            clock[0] += MESSAGE_PART_S / 2
    finally:
        app.close()
        pygame.display.quit()
    return " ".join(" ".join(parts[k]) for k in sorted(parts)), cut


SIZES = [(480, 320), (800, 480), (1280, 720), (1920, 1080)]


@pytest.mark.parametrize("size", SIZES)
def test_the_note_of_a_deleted_file_is_read_whole_with_how_to_put_it_back(
        tmp_path: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    path = install(tmp_path)
    path.unlink()
    cfg = config.load_or_default(path)
    gone = next(p for p in cfg.problems if "put it back" in p)
    read, cut = _read_on_screen(cfg, gone, tmp_path, size, monkeypatch)
    assert read == " ".join(gone.split())
    assert f"put it back: cp {config.last_good_path()} {path}" in read
    assert cut == {}


@pytest.mark.parametrize("size", SIZES)
def test_the_settings_restored_after_a_header_typo_are_all_on_screen(
        tmp_path: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    path = install(tmp_path)
    path.write_text(INSTALLED.replace("[display]", "[display", 1), "utf-8")
    cfg = config.load_or_default(path)
    listed = next(p for p in cfg.problems if "come from the last good copy" in p)
    read, cut = _read_on_screen(cfg, listed, tmp_path, size, monkeypatch)
    assert read == " ".join(listed.split())
    assert "display.fps, display.kiosk;" in read
    assert cut == {}
