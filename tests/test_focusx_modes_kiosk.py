"""The ThinkFocus, Duel and 4Focus screens, the demo and the computer players' settings.

What a player (or the person setting the arcade up) notices: the lobby's plain
mode entries follow ``[focusx] x_rule``; ``focus-arcade demo`` refuses a
player count the mode does not allow; the Duel screen names the focus being
raced and the tie-break winner; an out-of-turn 4Focus press is in the race
panel; banners never hide the table or the window's countdown; labels are
never cut; ``[computer]`` rates reach the computer players.

Scenes run on SDL's dummy driver; time is passed to them directly (virtual
nanoseconds), so nothing here depends on the machine's speed.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pygame
import pytest

from arcade.core.events import Edge
from arcade.core.race import RaceSpec
from arcade.core.referee import Referee, Window
from arcade.focusx.cards import full_deck
from arcade.focusx.cards import make_card as mk
from arcade.focusx.classic import Deal
from arcade.focusx.duel import Reveal
from kiosk import cli, render
from kiosk.app.loop import App
from kiosk.games.focusx.scene import DuelScene, FourFocusScene, ThinkFocusScene
from kiosk.scenes.lobby import find_game
from kiosk.scenes.seats import SeatInfo

MS = 1_000_000
T0 = 1_000_000 * 1_000_000_000


def keyboard_seats(n: int) -> list[SeatInfo]:
    return [SeatInfo("keyboard", f"key {i + 1}", "medium", False) for i in range(n)]


def press(scene: Any, seat: int, at: int) -> None:
    scene.on_edge(Edge(at, seat, "buzzer", True))
    scene.on_edge(Edge(at + 70 * MS, seat, "buzzer", False))


def run(scene: Any, start: int, ms: int, step_ms: int = 5) -> int:
    t = start
    while t < start + ms * MS:
        t += step_ms * MS
        scene.update(t)
    return t


# -- the FocusX rule setting (FX-3) ----------------------------------------------------------

@pytest.mark.parametrize("mode", ["thinkfocus", "duel", "4focus"])
def test_FX3_the_plain_lobby_entries_follow_the_config_x_rule(app: App, mode: str) -> None:
    seats = keyboard_seats({"thinkfocus": 4, "duel": 4, "4focus": 2}[mode])
    app.cfg.data["focusx"]["x_rule"] = True
    scene = find_game("focusx", mode).start(app, seats)
    assert scene.x_rule is True and scene.state.x_rule is True
    app.cfg.data["focusx"]["x_rule"] = False
    assert find_game("focusx", mode).start(app, seats).state.x_rule is False
    assert find_game("focusx", mode + "-x").start(app, seats).state.x_rule is True   # forced on


def test_FX3_demo_x_rule_option_plays_the_focusx_rule_entry() -> None:
    from kiosk.players.demo import DemoError, demo_game
    args = cli._parser().parse_args(["demo", "--game", "focusx", "--mode", "duel", "--x-rule"])
    game, players = demo_game(args)
    assert game.mode == "duel-x" and players == game.demo_seats
    args = cli._parser().parse_args(["demo", "--game", "focusx", "--x-rule"])
    assert demo_game(args)[0].mode == "classic-x"
    with pytest.raises(DemoError, match="no FocusX-rule mode"):
        demo_game(cli._parser().parse_args(["demo", "--game", "focus", "--x-rule"]))


# -- the demo's player count (FX-12) --------------------------------------------------------

def test_FX12_demo_with_a_player_count_outside_the_mode_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--frames", "3", "demo", "--game", "focusx", "--mode", "duel", "--players", "3"]) == 2
    out = capsys.readouterr().out
    assert "--players 3" in out and "4 to 8 players" in out
    assert cli.main(["--frames", "3", "demo", "--game", "focusx", "--mode", "4focus", "--players", "5"]) == 2
    assert "2 to 4 players" in capsys.readouterr().out


# -- Duel: several foci (FXA-24) and the tie-break (FX-10, FXA-22) ---------------------------

def duel_scene(app: App, seats: int = 5) -> DuelScene:
    scene = DuelScene(app, keyboard_seats(seats), seed=1, pace_s=5.0)
    app.push(scene)
    return scene


def test_FXA24_the_duel_screen_names_the_focus_being_raced(app: App) -> None:
    scene = duel_scene(app)
    st = scene.state
    st.apply(Deal(tuple(full_deck())))
    piles = [[mk(1, 3, 2)], [], [mk(3, 2, 0)], [mk(0, 2, 0)], [mk(2, 3, 2)]]
    used = [c for p in piles for c in p] + [mk(3, 2, 2)]
    st.deck = [c for c in full_deck() if c not in used] + [mk(3, 2, 2)]
    st.piles, st.active = piles, 1
    scene.referee = Referee(st, app.cfg.judge_settings())
    scene.referee.apply(Reveal(), 1)
    assert st.trio == (1, 2, 3)
    lines = [text for text, _size, _col in scene.strip_lines()]
    assert lines == ["racing now: P2 P3 P4", "then: P1 P2 P5"]
    tags = [scene.seat_tag(s) for s in range(5)]
    assert [t[0] if t else None for t in tags] == ["NEXT: wait", "RACE NOW", "RACE NOW", "RACE NOW", "NEXT: wait"]
    # The raced cards are framed in gold: the pixels around P3's card differ from P1's.
    surface = pygame.Surface((1280, 720))
    scene.now = T0
    scene.draw(surface)
    gold = sum(1 for x in range(0, 935, 3) for y in range(122, 560, 3) if surface.get_at((x, y))[:3] == render.GOLD)
    assert gold > 300


def test_FX10_a_tiebreak_focus_won_is_named_in_the_race_panel_and_the_banner(app: App) -> None:
    scene = duel_scene(app, 4)
    st = scene.state
    st.apply(Deal(tuple(full_deck())))
    st.deck = []
    st.piles = [[0], [1], [2], [3]]
    st.penalty = [[4, 5], [6, 7], list(range(8, 30)), list(range(30, 64))]
    st._end_of_deck()                                   # P1 and P2 tied: the tie-break round
    st.resolve_chance(random.Random(2))
    tb = st.tiebreak
    trio = [mk(1, 1, 0), mk(1, 2, 1), mk(1, 3, 2)]     # three aquatic cards on the spots
    for c in trio:
        for pile in tb.piles + [tb.box]:
            if c in pile:
                pile.remove(c)
    tb.spots = [[c] for c in trio] + [[]]
    tb._open_window()
    st.race_no = st._race_base + tb.race_no
    scene.referee = Referee(st, app.cfg.judge_settings())
    scene.frame_shown(T0)
    press(scene, 0, T0 + 300 * MS)
    run(scene, T0, 600)
    assert st.is_terminal() and st.outcome().winners == (0,)
    assert scene.history and scene.history[0].title == "P1 wins the tie-break focus!"
    assert [(s, status) for s, _k, _ms, status in scene.history[0].rows] == [(0, "first")]
    assert scene.banner is not None and "P1 wins the tie-break" in scene.banner[0]


# -- 4Focus: the out-of-turn press that opens a claim window (R-7, FXA-33) --------------------

def test_R7_the_out_of_turn_press_that_opened_a_claim_window_is_in_the_race_panel(app: App) -> None:
    scene = FourFocusScene(app, keyboard_seats(3), seed=1, settings={"claim_window_s": 2.0})
    app.push(scene)
    st = scene.state
    st.apply(Deal(tuple(full_deck())))
    board = {(1, 0): mk(1, 1, 0), (2, 0): mk(1, 2, 1), (3, 0): mk(1, 3, 2), (4, 0): mk(1, 4, 3)}
    used = list(board.values()) + [mk(0, 4, 0), mk(2, 1, 1), mk(2, 2, 1), mk(2, 3, 1)]
    st.board, st.centre_card = dict(board), mk(0, 4, 0)
    st.hands = [[mk(2, 1, 1)], [mk(2, 2, 1)], [mk(2, 3, 1)]]
    st.deck = [c for c in full_deck() if c not in used]
    st.fours = st.fours_through((4, 0))                 # an unnoticed 4Focus
    st.active = 1
    st._open("turn")
    assert sorted(st.all_cards()) == full_deck()
    scene.referee = Referee(st, app.cfg.judge_settings())
    scene.frame_shown(T0)
    press(scene, 2, T0 + 250 * MS)                      # P3 presses during P2's turn start
    run(scene, T0, 400)
    assert st.window == "hint"
    entry = scene.history[0]
    assert "P3 pressed out of turn" in entry.title
    assert [(s, status) for s, _k, _ms, status in entry.rows] == [(2, "hint")]


# -- the message strip: banners hide nothing (#15) ------------------------------------------

@pytest.mark.parametrize("cls,n", [(ThinkFocusScene, 4), (DuelScene, 5), (FourFocusScene, 3)])
def test_a_banner_hides_neither_the_table_nor_the_windows_label(app: App, cls: Any, n: int) -> None:
    scene = cls(app, keyboard_seats(n), seed=3, settings={"claim_window_s": 4.0})
    app.push(scene)
    st = scene.state
    scene.referee.apply(st.chance_outcome(random.Random(3)))
    if st.current_player() >= 0:
        scene.referee.apply(st.default_action(), st.current_player())
    scene.frame_shown(T0)
    scene.now = T0 + 500 * MS
    plain, banner = pygame.Surface((1280, 720)), pygame.Surface((1280, 720))
    scene.banner = None
    scene.draw(plain)
    scene.banner = ("P2 pressed out of turn: P1, claim it now!", render.GOLD, T0 + 10 ** 10)
    scene.draw(banner)
    label = scene.strip_lines()
    assert label, "the strip shows the window's label (or the Duel's deck)"
    changed = [(x, y) for x in range(0, 1280, 2) for y in range(0, 720, 2)
               if plain.get_at((x, y)) != banner.get_at((x, y))]
    assert changed, "the banner is drawn"
    # Only the message strip changes, and not its left part where the label is.
    label_w = max(render.font(size, True).size(text)[0] for text, size, _c in label)
    assert all(64 <= y < 122 for _x, y in changed)
    assert min(x for x, _y in changed) > 20 + label_w


def test_results_labels_are_never_cut() -> None:
    pygame.init()
    surface = pygame.Surface((400, 200))
    rect = render.text_fit(surface, "computer (medium)", (200, 10), 96)
    assert rect.w <= 96 and rect.h > render.font(16).get_linesize()      # two lines, nothing cut
    rect = render.text_fit(surface, "key 1", (200, 10), 96)
    assert rect.h <= render.font(20).get_linesize()


# -- computer players' error rates: [computer] (issue #3) -----------------------------------

def test_computer_rates_from_the_config_reach_the_scenes(app: App) -> None:
    seats = [SeatInfo("computer", "computer (medium)", "medium") for _ in range(4)]
    spec = RaceSpec(eligible=frozenset(range(4)), valid_kinds=frozenset({"focus"}), window_ms=4000)

    def planned(miss_scale: float) -> int:
        app.cfg.data["computer"]["miss_rate_scale"] = miss_scale
        app.computer.cancel()
        total = 0
        for k in range(10):
            scene = ThinkFocusScene(app, seats, seed=k)
            scene.referee.window = Window(1000 + k, spec)
            scene.driver.frame_shown(T0)            # the window opens at the flip: the driver asks the seats
            total += len([x for x in app.computer.heap if x[2].pressed])
            app.computer.cancel()
        return total

    assert planned(0.0) == 40                           # never misses: every seat presses
    assert planned(10.0) == 0                           # always misses
    assert 0 < planned(1.0) < 40


def test_computer_rates_for_headless_from_the_options_or_config(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    def false_focuses(before: list[str], after: list[str]) -> int:
        argv = before + ["headless", "--game", "focusx", "--mode", "classic", "--players", "4",
                         "--games", "3", "--seed", "5"] + after
        assert cli.main(argv) == 0
        return sum(json.loads(x)["false_focuses"] for x in capsys.readouterr().out.splitlines())

    base = false_focuses([], [])
    many = false_focuses([], ["--false-rate-scale", "8"])
    assert many > base + 5
    cfg = tmp_path / "arcade.toml"
    cfg.write_text("[computer]\nfalse_rate_scale = 8.0\n", encoding="utf-8")
    assert false_focuses(["--config", str(cfg)], []) == many
    assert cli.main(["headless", "--miss-rate-scale", "-1"]) == 2
    assert "from 0 to 10" in capsys.readouterr().err


def test_scaled_levels_clip_rates_and_refuse_negative_scales() -> None:
    from arcade.bots.shout import scaled, skill
    medium = skill("medium")
    assert scaled(medium) is medium
    s = scaled(medium, 0.0, 100.0)
    assert s.miss_rate == 0.0 and s.false_rate == 1.0 and s.wrong_kind_rate == 1.0
    assert s.median_ms == medium.median_ms
    with pytest.raises(ValueError):
        scaled(medium, -1.0)
    from kiosk.players.headless import run_focusx
    buf = io.StringIO()
    run_focusx("duel", 4, 1, 3, ["medium"] * 4, {"x_rule": False}, buf, miss_rate_scale=0.0, false_rate_scale=0.0)
    assert json.loads(buf.getvalue())["mode"] == "duel"
