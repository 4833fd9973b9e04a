"""Focus (2023) Sherlock Mode: the seat panel's "refused: only P2 offers" (CO-6: after a refusal
only the refuser may offer, until the round ends) belongs to the round it was said in.

Two people play on the virtual clock and act promptly: P1 takes and offers, P2 refuses, P1
ends the turn, P2 offers at once (that offer must be accepted), both point, and the round is
over a couple of seconds after the refusal.  What the players read on the frame: the note
stays up for a few seconds, through the reveal of its round, and is gone from the new table of
the next round (issue 20)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from arcade.core.events import Edge  # noqa: E402
from kiosk import render  # noqa: E402
from kiosk.app.loop import App  # noqa: E402
from kiosk.config import Config, validate  # noqa: E402
from kiosk.games.coop.scene import CoopScene  # noqa: E402
from kiosk.players import thinker as thinker_mod  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import TextSeen  # noqa: E402

STEP = 100_000_000            # 0.1 s of virtual time a frame
ACT = 3                       # a person acts 0.3 s after the screen asks them
READ_NS = 3_000_000_000       # "a few seconds": long enough to read a short note from 3 m


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_refusal_note_stays_its_rounds_and_leaves_with_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          size: tuple[int, int]) -> None:
    pygame.init()
    screen = pygame.display.set_mode(size)
    raw = {"storage": {"path": str(tmp_path / "r.sqlite3")}, "led": {"port": "none"}}
    app = App(Config(validate(raw)), screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))
    seen = TextSeen(monkeypatch)
    seen.watch(screen)
    people = [SeatInfo("keyboard", "keys A S D W", "medium", True), SeatInfo("keyboard", "arrow keys", "medium", True)]
    scene = CoopScene(app, people, "sherlock", seed=3, setup=False)
    app.push(scene)
    st = scene.state
    t = 10 ** 12
    frames: list[tuple[int, int, str]] = []      # (t, round on screen, the words drawn) per frame
    refused_t: int | None = None
    refuser = -1
    wait = 0

    def press(seat: int, control: str) -> None:
        scene.on_edge(Edge(t, seat, control, True))
        scene.on_edge(Edge(t + 1, seat, control, False))

    try:
        for _ in range(600):
            render.redraw_everything()
            seen.seen.clear()
            thinker_mod.wait_shared_idle()
            app.step(t)
            frames.append((t, st.round_no, seen.words()))
            if sum(1 for _t, r, _w in frames if r == 2) * STEP >= READ_NS:
                break
            t += STEP
            wait += 1
            if wait < ACT or st.round_no != 1 or scene.reveal_until is not None:
                continue
            wait = 0
            a = st.active
            if st.phase == "take" and not st.takes:
                scene.cursor[a] = scene.targets(a)[0]          # a side-row card: nobody's exhibit
                press(a, "ok")
                press(a, "ok")
            elif st.phase == "end" and refused_t is None:
                press(a, "x")                                  # offer
            elif st.phase == "answer" and refused_t is None:
                refuser = st.current_player()
                press(refuser, "x")                            # refuse
                refused_t = t
            elif st.phase == "end":
                press(a, "ok")                                 # end the turn
            elif st.phase == "take":
                press(a, "x")                                  # the refuser offers at once
            elif st.phase == "answer":
                press(st.current_player(), "ok")               # and it must be accepted
            elif st.phase == "point":
                s = 0 if 0 not in st.points else 1
                scene.cursor[s] = scene.targets(s)[0]
                press(s, "ok")
    finally:
        app.close()
        pygame.display.quit()
    assert refused_t is not None and st.round_no == 2 and len(st.results) == 1
    note = f"only P{refuser + 1} offers"               # "refused: only P2 offers" (small screens: short)
    shown = [(when, r) for when, r, words in frames if note in words]
    assert shown, "the refusal was never noted on the seat panel"
    first = min(when for when, _r in shown)
    assert first - refused_t <= STEP, "the note did not come with the refusal"
    assert all(r == 1 for _w, r in shown), "the note of round 1 is still on the table of round 2"
    # in round 1 it stays up (the play, then the reveal of its round) long enough to be read
    up = sum(STEP for _w, r in shown if r == 1)
    assert up >= READ_NS, f"{note!r} was up for {up / 1e9:.1f} s only"
    round2 = [note in words for _t, r, words in frames if r == 2]
    assert len(round2) * STEP >= READ_NS and not any(round2)
