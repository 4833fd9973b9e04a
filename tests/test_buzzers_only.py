"""What the buzzers-only explorer (tests/explorer.py) found on the game side, each as a guest or
the operator would notice it, with ``kiosk/install.sh``'s configuration (four GPIO buzzers, no
other controls, kiosk mode) on gpiozero MockFactory pins (issue 20)."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pytest

from arcade.core.api import Outcome
from kiosk.games.coop import words as coop_words
from kiosk.scenes.lobby import LobbyScene
from kiosk.scenes.results import ResultsScene
from kiosk.scenes.seats import SeatInfo
from tests.explorer import RULING_ID, Explorer

S = 1_000_000_000


@pytest.fixture
def ex(tmp_path: Path) -> Iterator[Explorer]:
    e = Explorer(tmp_path, seed=3, size=(1280, 720), check_text=0)
    try:
        yield e
    finally:
        e.close()


def to_game(ex: Explorer, entry: str) -> object:
    ex.to_attract()
    ex.choose_in_lobby(entry)
    return ex.top


# -- Focus (2023) with a buzzer alone ------------------------------------------------------------

def test_focus_2023_is_played_to_its_results_with_a_buzzer_alone(ex: Explorer) -> None:
    game = to_game(ex, "coop-base")
    assert game.setup and game.buzzer_only(0)
    assert "tap = next cards, hold = start" in coop_words.setup_lines(game.setup_words())[0]
    ex.gesture(0, "tap")                                   # tap: the next case
    assert game.case_i == 1
    ex.gesture(0, "hold")                                  # hold: start
    assert not game.setup
    ex.run(1.0, until=lambda: game.state.current_player() == 0)
    if game.state.current_player() != 0:                   # the partner starts: wait for P1's turn
        assert ex.run(30, until=lambda: game.state.current_player() == 0)
    prompt = coop_words.prompt(game.prompt_shown())[0]
    assert "tap: next card, hold: lift" in prompt and "Left/Right" not in prompt
    before = game.cursor[0]
    ex.gesture(0, "tap")                                   # tap: the cursor moves on
    assert game.cursor[0] != before and game.lifted[0] is None
    ex.gesture(0, "hold")                                  # hold: lift
    assert game.lifted[0] == game.cursor[0]
    assert "hold again to take" in coop_words.prompt(game.prompt_shown())[0]
    ex.gesture(0, "long")                                  # long hold: put it back
    assert game.lifted[0] is None
    mine = sum(1 for t in game.state.takes if t[0] == 0)
    ex.gesture(0, "hold")
    ex.gesture(0, "hold")                                  # lift, take
    assert sum(1 for t in game.state.takes if t[0] == 0) == mine + 1
    results = ex.play(seats=(0,))                          # and on to the results, gestures only
    assert isinstance(results, ResultsScene)


def test_focus_2023_case_choice_starts_by_itself_when_nobody_chooses(ex: Explorer) -> None:
    game = to_game(ex, "coop-sherlock")
    assert game.setup
    auto = float(ex.cfg["lobby"]["auto_start_s"])
    assert ex.run(auto + 1, until=lambda: not game.setup)


def test_focus_2023_sherlock_offer_and_answer_with_buzzers(ex: Explorer) -> None:
    game = to_game(ex, "coop-sherlock")
    ex.gesture(0, "hold")
    assert not game.setup
    assert ex.run(30, until=lambda: game.state.phase == "take" and game.state.active == 0)
    ex.gesture(0, "hold")
    ex.gesture(0, "hold")                                  # take: the end of P1's turn
    st = game.state
    if st.phase == "end" and st.active == 0 and st.may_offer(0):
        assert "hold = offer now, tap = pass" in coop_words.prompt(game.prompt_shown())[0]
        ex.gesture(0, "hold")                              # hold: offer
        # the partner answers at once: it accepted (both point) or refused
        assert st.phase in ("answer", "point") or st.refused_by == 1
    else:
        pytest.skip(f"this seed's first take ended the round ({st.phase})")


# -- a refused press is no presence --------------------------------------------------------------

def test_a_seat_whose_presses_are_refused_is_played_by_a_computer(ex: Explorer) -> None:
    game = to_game(ex, "focus-2p")
    assert game.seats[0].station == "gpio"
    # As an older lobby left it: P1's seat on a gamepad that is not there.  P1's buzzer is refused
    # in the game, and however often P1 presses, a computer must take the seat after turn_s.
    game.seats[0] = SeatInfo("gamepad", "gamepad", "medium", True)
    turn_s = float(ex.cfg["idle"]["turn_s"])
    assert ex.run(5, until=lambda: game.state.current_player() == 0)
    moves = len(game.state.history)
    start = ex.clock.t
    while ex.clock.t - start < (turn_s + 3) * S and len(game.state.history) == moves:
        ex.gesture(0, "tap")
        ex.run(1.0)
    assert len(game.state.history) > moves, "the game stood still while P1's refused presses kept coming"
    assert 0 in ex.app.idle.away


def test_an_away_seat_comes_back_with_its_own_buzzer(ex: Explorer) -> None:
    game = to_game(ex, "focus-2p")
    turn_s = float(ex.cfg["idle"]["turn_s"])
    assert ex.run(turn_s + 5, until=lambda: 0 in ex.app.idle.away)
    assert game.seats[0].is_computer
    ex.gesture(0, "tap")                                   # P1 is back: the seat is P1's again
    assert 0 not in ex.app.idle.away and game.seats[0].station == "gpio"


# -- the lobby ------------------------------------------------------------------------------------

def test_the_lobby_offers_only_wired_station_kinds_and_the_count_comes_round(ex: Explorer) -> None:
    ex.to_attract()
    ex.gesture(0, "tap")                                   # P1 joins
    lobby = ex.top
    assert isinstance(lobby, LobbyScene)
    assert lobby.station_choices() == ("gpio", "computer", "off")
    assert lobby.games[lobby.game_i].name == "focusx-classic"
    ex.gesture(0, "hold")                                  # the players' row
    seen = []
    for _ in range(8):
        ex.gesture(0, "tap")
        seen.append(lobby.players)
    assert seen == [5, 6, 7, 8, 2, 3, 4, 5]                # up to 8, then round to 2: down as well as up
    while lobby.row != 3 + 1:                              # P2's row
        ex.gesture(0, "hold")
    kinds = []
    for _ in range(4):
        ex.gesture(0, "tap")
        kinds.append(lobby.stations[1])
    assert set(kinds) <= {"gpio", "computer", "off"} and "gamepad" not in kinds and "keyboard" not in kinds
    assert kinds[:3] == ["computer", "off", "gpio"]


# -- FocusX Duel: fewest penalty cards -----------------------------------------------------------

def duel_results(ex: Explorer, scores: tuple[float, ...], winners: tuple[int, ...]) -> ResultsScene:
    from kiosk.scenes.lobby import find_game
    ex.app.current_game = find_game("focusx-duel", None)
    state = SimpleNamespace(game=SimpleNamespace(name="focusx-duel"), stats={"races": 30},
                            outcome=lambda: Outcome(winners, "the deck ran out", scores))
    seats = [SeatInfo("gpio", f"GPIO {p}") for p in (17, 27)] + [SeatInfo("computer", "c")] * (len(scores) - 2)
    return ResultsScene(ex.app, "FocusX Duel", state, seats, entry="focusx-duel")


def test_duel_results_and_high_scores_go_by_the_fewest_penalty_cards(ex: Explorer) -> None:
    r = duel_results(ex, (1.0, 7.0, 3.0, 4.0), (0,))
    assert r.bars_caption() == "bars: penalty cards (fewest wins)"
    assert r.rule is not None and r.rule.fewest and r.rule.unit == "penalty cards"
    assert [(e.seat, e.score) for e in r.entries] == [(0, 1.0), (1, 7.0)]    # an empty table: both
    hs = ex.app.highscores
    now = time.time()
    for initials, penalties in (("AAA", 0), ("BBB", 2), ("CCC", 2), ("DDD", 3), ("EEE", 5)):
        hs.add("focusx-duel", initials, penalties, at=now)
    assert [s for _, s in hs.table("focusx-duel", r.rule)] == [0.0, 2.0, 2.0, 3.0, 5.0]   # fewest first
    again = duel_results(ex, (1.0, 7.0, 3.0, 4.0), (0,))
    # the winner's single penalty card makes the table; the worst player's seven do not
    assert [(e.seat, e.score) for e in again.entries] == [(0, 1.0)]
    assert again.headline()[0] == "P1 wins!"


def test_the_event_board_ranks_duel_by_the_fewest_penalty_cards() -> None:
    from kiosk.event.link import score_of
    best, worst = score_of("focusx-duel", (0,), (1, 7, 3, 4)), score_of("focusx-duel", (2,), (6, 5, 2, 9))
    assert best.text == "1 penalty cards" and best.seat == 0
    assert best.value > worst.value                          # the board sorts by value, highest first
    assert score_of("focusx-classic", (0,), (9, 3)).text == "9 cards"


# -- no ruling ids on players' screens ------------------------------------------------------------

def test_no_ruling_id_on_the_focus_2023_screen_or_its_results(ex: Explorer) -> None:
    ex.check_text = 1
    game = to_game(ex, "coop-base")
    ex.gesture(0, "hold")
    assert not game.setup
    ex.run(0.5)
    words = ex.seen.words()
    assert "more to take before you win" in words            # the line that carried "(CO-4)"
    assert not RULING_ID.search(words), words
    results = ex.play(seats=(0,))
    ex.run(0.5)
    words = ex.seen.words()
    assert results.state.outcome().reason.split(" (")[0] in words
    assert not RULING_ID.search(words), words


# -- the results screen at every size (found by the explorer) -------------------------------------

@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1280, 720), (1920, 1080)])
def test_the_results_screen_has_every_line_whole_and_none_over_another(size: tuple[int, int],
                                                                         tmp_path: Path) -> None:
    """A long title (a Focus (2023) mode with its case) stays on the screen, the seat numbers do not
    run into the stations' names under them, and a long statistics line is not squeezed to half."""
    import pygame

    from kiosk.scenes.lobby import find_game
    from tests.text_fit import cut_texts
    ex = Explorer(tmp_path, seed=1, size=size, check_text=0)
    try:
        ex.app.current_game = find_game("focusx-4focus-x", None)
        stats = {"races": 14, "debated": 1, "missed": 0, "hints": 0, "placements": 11, "discards": 0, "passes": 0}
        state = SimpleNamespace(game=SimpleNamespace(name="focusx-4focus"), stats=stats,
                                outcome=lambda: Outcome((0,), "the deck ran out", (9.0, 4.0, 3.0, 2.0)))
        seats = [SeatInfo("gpio", "GPIO 17")] + [SeatInfo("computer", "computer")] * 3
        title = "Focus (2023) Mycroft Mode, Sherlock rules: A Study in Scarlet"
        r = ResultsScene(ex.app, title, state, seats, entry="focusx-4focus-x")
        r.entries = []                                         # the tables, not the initials
        ex.seen.seen.clear()
        r.update(ex.clock.t)
        r.draw(ex.screen)
        assert cut_texts(ex.seen, ex.screen) == {}
        words = ex.seen.words()
        assert "game over" in words.lower() or title in words
        lines = [(m, rect) for m, rect, *_ in ex.seen.seen if m.strip()]
        for i, (m1, a) in enumerate(lines):
            for m2, b in lines[i + 1:]:
                c = a.clip(b)
                assert not (c.w > 0.25 * min(a.w, b.w) and c.h > 0.4 * min(a.h, b.h)), (m1, a, m2, b)
    finally:
        ex.close()
        pygame.display.quit()


@pytest.mark.parametrize("size", [(480, 320), (1920, 1080)])
def test_duel_high_score_lines_keep_the_initials_clear_of_the_penalty_cards(size: tuple[int, int],
                                                                            tmp_path: Path) -> None:
    import pygame
    ex = Explorer(tmp_path, seed=1, size=size, check_text=0)
    try:
        for initials, penalties in (("AAC", 28), ("DAA", 43), ("BOB", 7)):
            ex.app.highscores.add("focusx-duel", initials, penalties)
        r = duel_results(ex, (3.0, 9.0, 5.0, 4.0), (0,))
        r.entries = []                                         # the tables, not the initials
        ex.seen.seen.clear()
        r.update(ex.clock.t)
        r.draw(ex.screen)
        lines = [(m, rect) for m, rect, *_ in ex.seen.seen if m.strip()]
        assert any(m.startswith("1. BOB") for m, _ in lines)      # fewest first
        for i, (m1, a) in enumerate(lines):
            for m2, b in lines[i + 1:]:
                c = a.clip(b)
                assert not (c.w > 0.25 * min(a.w, b.w) and c.h > 0.4 * min(a.h, b.h)), (m1, a, m2, b)
    finally:
        ex.close()
        pygame.display.quit()


# -- Focus (2023): a refused take is no presence, and the prompt never invites one ----------------

def to_p1_take(ex: Explorer, game: object, limit_s: float = 120) -> None:
    """Play (holds: lift, take) until P1 is to take a card and a card of the round was taken
    already, so P1's own exhibits on the grid may be taken at all."""
    st = game.state                                        # type: ignore[attr-defined]
    end = ex.clock.t + int(limit_s * S)
    while ex.clock.t < end:
        if st.phase == "take" and st.active == 0 and st.takes and st.current_player() == 0:
            return
        if st.current_player() in (0, 1) and 1 not in game.humans:   # type: ignore[attr-defined]
            ex.run(0.5)
        if st.current_player() == 0:
            ex.gesture(0, "hold")
        elif st.current_player() == 1 and 1 in game.humans:         # type: ignore[attr-defined]
            ex.gesture(1, "hold")
        else:
            ex.run(0.5)
    pytest.fail("P1 never came to take a second card of a round")


def own_card(game: object) -> int:
    st = game.state                                        # type: ignore[attr-defined]
    mine = [p for p in st.markers[0] if st.faces[p] is not None]
    assert mine, "P1 has no exhibit left on the table"
    return int(mine[0])


@pytest.mark.parametrize("entry", ["coop-base", "coop-sherlock"])
def test_a_lone_guest_is_never_invited_to_take_their_own_exhibit(ex: Explorer, entry: str) -> None:
    # A buzzer guest's cursor on the card marked YOURS: holding there said "hold again to take
    # the tracker dog", the next hold was refused (CO-3), and so on for 300 s (issue 20).
    game = to_game(ex, entry)
    ex.gesture(0, "hold")                                  # start the case
    to_p1_take(ex, game)
    st = game.state
    mine = own_card(game)
    game.cursor[0] = mine
    takes = len(st.takes)
    for _ in range(4):
        ex.gesture(0, "hold")
        lifted = game.lifted[0]
        assert lifted is None or lifted not in st.markers[0], \
            f"the prompt invites a take of P1's own exhibit: {coop_words.prompt(game.prompt_shown())[0]!r}"
        assert "your own exhibit" not in (game.banner or ("",))[0]
        if len(st.takes) > takes:
            break
    assert len(st.takes) > takes, "P1's holds never took a card"
    assert all(t[1] not in st.markers[0] for t in st.takes[takes:] if t[0] == 0)


def test_refused_takes_do_not_keep_the_away_rule_off(ex: Explorer) -> None:
    # Two guests on one screen (the exhibits are secret, CO-5): P1 holds on P1's own exhibit
    # again and again, every take is refused, and after turn_s a computer plays P1's turn.
    ex.to_attract()
    ex.gesture(0, "tap")
    lobby = ex.top
    assert isinstance(lobby, LobbyScene)
    ex.gesture(1, "tap")                                   # P2 joins
    assert 1 in lobby.joined
    for _ in range(len(lobby.games) + 1):
        if lobby.games[lobby.game_i].name == "coop-base":
            break
        ex.gesture(0, "tap")
    while ex.top is lobby:
        ex.gesture(0, "hold")
    game = ex.top
    ex.gesture(0, "hold")                                  # start the case
    assert game.humans == [0, 1] and game.buzzer_only(0) and game.buzzer_only(1)
    to_p1_take(ex, game)
    st = game.state
    game.cursor[0] = own_card(game)
    moves = len(st.history)
    turn_s = float(ex.cfg["idle"]["turn_s"])
    start = ex.clock.t
    while ex.clock.t - start < (turn_s + 5) * S and len(st.history) == moves:
        game.cursor[0] = own_card(game)
        ex.gesture(0, "hold")                              # lift
        ex.gesture(0, "hold")                              # take: refused
        ex.run(0.5)
    assert len(st.history) > moves, "the game stood still while P1's takes were refused"
    assert 0 in ex.app.idle.away


# -- the service menu is the operator's: guests never reach it -----------------------------------

def to_game_of_two(ex: Explorer, entry: str) -> object:
    """From the title: P1 and P2 join (two guests), P1 chooses ``entry`` and starts it."""
    ex.to_attract()
    ex.gesture(0, "tap")
    lobby = ex.top
    assert isinstance(lobby, LobbyScene)
    ex.gesture(1, "tap")                                   # P2 joins
    assert 1 in lobby.joined
    for _ in range(len(lobby.games) + 1):
        if lobby.games[lobby.game_i].name == entry:
            break
        ex.gesture(0, "tap")
    while ex.top is lobby:
        ex.gesture(0, "hold")
    assert ex.app.is_game(ex.top)
    return ex.top


def test_guests_holding_p1_and_p2_in_a_game_never_open_the_pin_nor_are_told_stuck(ex: Explorer) -> None:
    # Issue 20: two guests held their buzzers (P1+P2, the opening combination) in a running game:
    # the PIN screen came over it and took their releases, so back in the game they were told
    # "Buzzer stuck down" (STUCK until they pressed again), and the presses cost a false shout.
    from kiosk.scenes.service.menu import ServiceScene
    from kiosk.scenes.service.pin import PinScene
    game = to_game_of_two(ex, "focusx-classic")
    ex.run(3.0)
    seen: list[str] = []
    for _ in range(3):
        ex.gesture((0, 1), "combo", wait=False)            # held together longer than hold_s
        while ex.held:
            ex.frame()
            assert not isinstance(ex.top, (PinScene, ServiceScene)), "the guests' buzzers opened the PIN screen"
            seen += [m for m, _ in ex.app.messages]
        ex.run(2.0)
    ex.run(8.0)
    seen += [m for m, _ in ex.app.messages]
    assert ex.top is game and not any("stuck" in m.lower() for m in seen), seen


def test_guests_mashing_every_buzzer_never_reach_the_pin_screen(tmp_path: Path) -> None:
    # Issue 20: four seats mashing at random, overlapping (taps, holds, leans of 3-3.9 s), from
    # the title through lobbies, games and results: P1's and P2's buzzers held together 3 s
    # opened the PIN screen (this seed: after some 150 virtual s).  Explorer.crowd fails on it.
    ex = Explorer(tmp_path, seed=1, size=(800, 480), check_text=0, frame_ms=100)
    try:
        ex.to_attract()
        ex.crowd(240)
        assert ex.checks.held["guests: never the PIN screen"] == 1
        assert len(ex.trace.steps) > 250
    finally:
        ex.close()


def test_the_operator_still_opens_the_service_menu_from_the_title_with_buzzers_alone(ex: Explorer) -> None:
    # ... with P1's and P2's buzzers pressed together on the title screen and held, nothing else
    # pressed (README, "Opening the service menu").
    from kiosk.scenes.service.pin import PinScene
    ex.to_attract()
    ex.gesture((0, 1), "combo")
    assert isinstance(ex.top, PinScene)


# -- a game everyone left ends -------------------------------------------------------------------

@pytest.mark.parametrize("entry", ["sherlook", "focus-2p", "coop-base"])
def test_a_game_everyone_left_is_put_away_and_the_title_comes_back(ex: Explorer, entry: str) -> None:
    # Issue 20: a Sherlook game both guests had left played all ten rounds and five tie rounds
    # at 0-0 (24 minutes) before the attract loop came back; FocusX played its whole deck
    # (7 minutes) and FOCUS and Focus (2023) played on with computers in every seat.
    from kiosk.scenes.attract import AttractScene
    game = to_game_of_two(ex, entry)
    if getattr(game, "setup", False):
        ex.gesture(0, "hold")                              # Focus (2023): the case shown
    ex.gesture(1, "tap")
    turn_s = float(ex.cfg["idle"]["turn_s"])
    limit_s = 2 * turn_s                                   # twice the away rule's time; Sherlook two rounds
    if entry == "sherlook":
        sh = ex.cfg["sherlook"]
        limit_s = max(limit_s, 2 * (sh["round_limit_s"] + sh["countdown_s"] + sh["reveal_s"] + sh["token_s"]))
    start = ex.clock.t
    assert ex.run(limit_s + 5, until=lambda: ex.top is not game), \
        f"{entry} played on {limit_s + 5:.0f} s after both guests had left"
    assert isinstance(ex.top, AttractScene)
    assert (ex.clock.t - start) / S >= limit_s - 1         # ... but not before they had been gone that long
    assert any("everyone seems to have left" in m for m, _ in ex.app.messages)
    assert ex.app.results.recent() == [] and ex.app.results.load_resume() is None   # no result, no resume offer


def test_a_guest_who_plays_on_alone_keeps_the_sherlook_game(ex: Explorer) -> None:
    # The other guest left; P1 claims a marker every round: the game goes on to its results.
    game = to_game_of_two(ex, "sherlook")
    results = ex.play(seats=(0,))
    assert isinstance(results, ResultsScene) and results.state is game.state  # type: ignore[attr-defined]


def test_sherlook_counts_an_empty_room_in_rounds_time() -> None:
    # A guest who is there presses once a round: two whole rounds (limit, countdown, reveal and
    # token) with no press at all, at the README's settings 208 s, before the room counts as empty.
    from kiosk.games.sherlook.scene import SherlookScene
    fake = SimpleNamespace(cfg={"round_limit_s": 90, "countdown_s": 3.0, "reveal_s": 9.0, "token_s": 2.0})
    assert SherlookScene.empty_room_ns(fake, 45 * S) == 208 * S   # type: ignore[arg-type]
    assert SherlookScene.empty_room_ns(fake, 300 * S) == 600 * S  # type: ignore[arg-type]


def test_a_focusx_game_everyone_left_ends_and_the_title_comes_back_but_a_quiet_player_keeps_it(
        ex: Explorer) -> None:
    """FocusX: a player who is there presses only on a focus, and a table can go a long while
    without one (the long mode saw a Duel put away 20 s after its guest's last press, the guest
    still playing), so the empty-room rule waits 10 minutes there; a game nobody is at ends by
    itself before that, its results show for their own wait, and the title comes back."""
    from kiosk.games.focusx.scene import FocusXScene
    from kiosk.scenes import results as kresults
    from kiosk.scenes.attract import AttractScene
    game = to_game_of_two(ex, "focusx-classic")
    ex.gesture(1, "tap")
    turn_s = float(ex.cfg["idle"]["turn_s"])
    assert ex.run(2 * turn_s + 5, until=lambda: ex.top is not game) is False   # still played after 2 x turn_s
    limit_s = FocusXScene.EMPTY_ROOM_NS / S
    assert ex.run(limit_s, until=lambda: ex.top is not game), "the game never ended"
    if isinstance(ex.top, kresults.ResultsScene):
        shown = ex.top
        assert ex.run((kresults.ENTRY_NS + kresults.STAY_NS) / S + 5, until=lambda: ex.top is not shown)
    assert isinstance(ex.top, AttractScene)
