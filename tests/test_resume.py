"""Resume (issue 11): a game survives a power cut, a kill -9, a crash or a scene's exception.

What the party notices: after the arcade is killed (SIGKILL) in the middle of a
game of any family and started again, the same game comes back at the last
completed step with the same seats (the demo resumes at once; the kiosk offers
it and resumes by itself when nobody answers); every finished game is stored
once; the store passes SQLite's integrity check.  Leaving a game on purpose
drops it.  Figures over 50+ kills: ``bench/bench_resume.py``.
"""

from __future__ import annotations

import importlib.util
import random
import time
from pathlib import Path

import pytest

from kiosk.persist import resume
from kiosk.scenes.attract import AttractScene
from kiosk.scenes.lobby import find_game
from kiosk.scenes.seats import SeatInfo
from tests.kiosk_start import config_for, start_kiosk
from tests.waiting import WAIT_S, wait_until

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench_resume", ROOT / "bench" / "bench_resume.py")
assert _spec and _spec.loader
bench_resume = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_resume)

FAMILIES = ["focusx", "focus", "sherlook", "coop"]


@pytest.mark.parametrize("family", FAMILIES)
def test_a_killed_arcade_resumes_the_game_at_the_last_completed_step(family: str) -> None:
    r = bench_resume.run_family(family, kills=1, rng=random.Random(FAMILIES.index(family)), wait=(1.0, 2.0),
                                went_on_s=45)
    assert r["offered"] == 1, r                         # the game in progress was in the store
    assert r["matched"] == 1, r["problems"]             # same game, same step, same state digest
    assert r["went_on"] == 1, r                         # and the resumed game plays on
    assert r["duplicates"] == 0 and r["integrity"] == "ok"


def play_until(app: object, steps: int, guard_s: float = WAIT_S) -> object:
    """Run the app's frames (on the real clock, as the kiosk started here reads it) until the
    top game has ``steps`` completed steps (``guard_s``: a hang guard only)."""
    def stepped() -> object:
        app.step(time.monotonic_ns())                                  # type: ignore[attr-defined]
        scene = app.scenes[-1]                                          # type: ignore[attr-defined]
        return scene if len(getattr(getattr(scene, "state", None), "history", ())) >= steps else None
    return wait_until(stepped, guard_s, f"the game getting going ({steps} steps)", max_pause_s=0.005)


def computer_seats(n: int) -> list[SeatInfo]:
    return [SeatInfo("computer", f"computer {i + 1}", "hard") for i in range(n)]


def test_the_kiosk_offers_the_interrupted_game_and_resumes_it_with_the_same_seats(tmp_path: Path) -> None:
    store = tmp_path / "arcade.sqlite3"
    app = start_kiosk(config_for(None, store), frames=1)
    try:
        game = find_game("focusx", None)
        app.replace(resume.start_game(app, game, computer_seats(3)))
        scene = play_until(app, 3)
        steps, key, want = len(scene.state.history), scene.game_key, resume.digest(scene.state)
        saved = app.results.load_resume()
        assert saved["game_key"] == key and saved["steps"] == steps and saved["digest"] == want
    finally:
        app.results.db.close()           # like a power cut: no way out runs
        app.led.close()
    again = start_kiosk(config_for(None, store), frames=0)
    try:
        again.resume_offer.offer()
        offer = again.scenes[-1]
        assert isinstance(offer, resume.ResumeScene) and isinstance(again.scenes[-2], AttractScene)
        # Nobody answers: it resumes by itself.
        offer.update(time.monotonic_ns())
        offer.update(time.monotonic_ns() + resume.AUTO_RESUME_NS + 1)
        back = again.scenes[-1]
        assert back.game_key == key and len(back.state.history) == steps and resume.digest(back.state) == want
        assert [s.station for s in back.seats] == ["computer"] * 3
        # Leaving on purpose drops it: no offer at the next start.
        back.leave()
        assert again.results.load_resume() is None
    finally:
        again.close()


def test_back_drops_the_offer(tmp_path: Path) -> None:
    store = tmp_path / "arcade.sqlite3"
    app = start_kiosk(config_for(None, store), frames=1)
    try:
        app.replace(resume.start_game(app, find_game("focus", None), computer_seats(2)))
        play_until(app, 2)
        app.home()
        app.resume_offer.offer()
        assert isinstance(app.scenes[-1], resume.ResumeScene)

        class Back:
            name = "back"
            station_key = False
        app.scenes[-1].on_command(Back())
        assert isinstance(app.scenes[-1], AttractScene) and app.results.load_resume() is None
    finally:
        app.close()


def test_an_exception_in_a_game_keeps_the_game_and_offers_it(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    store = tmp_path / "arcade.sqlite3"
    app = start_kiosk(config_for(None, store), frames=1)
    try:
        app.replace(resume.start_game(app, find_game("focusx", None), computer_seats(3)))
        scene = play_until(app, 2)
        key = scene.game_key

        def broken(now_ns: int) -> None:
            raise RuntimeError("a bug in the screen")
        monkeypatch.setattr(scene, "advance", broken)
        app.loop(max_frames=app.frame + 2)                  # the loop catches it
        assert isinstance(app.scenes[-1], resume.ResumeScene)
        assert app.scenes[-1].data["game_key"] == key
        assert any("Something went wrong" in m for m, _ in app.messages)
    finally:
        app.close()


def test_a_finished_game_is_stored_once_and_its_slot_cleared(tmp_path: Path) -> None:
    store = tmp_path / "arcade.sqlite3"
    app = start_kiosk(config_for(None, store), frames=1)
    try:
        app.replace(resume.start_game(app, find_game("focusx", None), computer_seats(2)))
        scene = play_until(app, 2)
        assert app.results.load_resume() is not None
        # Play it out with the driver, then the scene's own end saves it.
        scene.driver.run_to_end() if hasattr(scene.driver, "run_to_end") else None
        assert scene.state.is_terminal()
        scene.save()
        scene.saved = False
        scene.save()                                         # a second save stores nothing more
        rows = app.results.db.execute("SELECT game_key FROM games").fetchall()
        assert rows == [(scene.game_key,)] and app.results.load_resume() is None
    finally:
        app.close()


def test_demo_of_one_game_does_not_resume_an_interrupted_game_of_another(tmp_path: Path) -> None:
    """``demo --game focus-3p`` after an interrupted Sherlook demo shows FOCUS, not Sherlook
    (it used to say "Resumed Sherlook at step 1" and play that); the same game resumes only with
    the number of players asked (``--players 3`` after a 2-player game plays 3)."""
    store = tmp_path / "arcade.sqlite3"
    app = start_kiosk(config_for(None, store), frames=1)
    try:
        app.demo = True                  # a demo's game
        app.replace(resume.start_game(app, find_game("sherlook", None), computer_seats(2)))
        play_until(app, 1)
    finally:
        app.results.db.close()           # interrupted: the game stays in the slot
        app.led.close()
    again = start_kiosk(config_for(None, store), frames=0)
    try:
        again.demo = True
        asked = find_game("focus-3p", None)
        again.demo_game = asked
        again.replace(resume.start_game(again, asked, computer_seats(3)))
        assert resume.offer(again) is False
        assert again.scenes[-1].lobby_game == ("focus", "3p")
        again.demo_game = find_game("sherlook", None)
        again.demo_seats = 3             # ``demo --game sherlook --players 3``: not the kept 2-player game
        assert resume.offer(again) is False
        assert again.scenes[-1].lobby_game == ("focus", "3p")
        again.demo_seats = 2
        assert resume.offer(again) is True
        assert again.scenes[-1].lobby_game == ("sherlook", "classic")
        assert len(again.scenes[-1].seats) == 2
    finally:
        again.close()


def test_a_kiosk_game_of_focus_2023_resumes_after_its_case_screen(tmp_path: Path) -> None:
    """In the kiosk Focus (2023) opens on its case choice; once played, a killed game comes
    back at its last step with its case (it used to be dropped: "could not be resumed")."""
    store = tmp_path / "arcade.sqlite3"
    app = start_kiosk(config_for(None, store), frames=1)
    try:
        app.replace(resume.start_game(app, find_game("coop", None), computer_seats(2)))
        scene = app.scenes[-1]
        assert scene.setup                                   # the case choice comes first
        scene.begin_resumed({"case": scene.case})            # as OK on the case screen
        scene = play_until(app, 3)
        steps, key, want = len(scene.state.history), scene.game_key, resume.digest(scene.state)
        saved = app.results.load_resume()
    finally:
        app.results.db.close()           # like a power cut
        app.led.close()
    again = start_kiosk(config_for(None, store), frames=0)
    try:
        assert resume.resume_now(again, saved)
        back = again.scenes[-1]
        assert back.game_key == key and len(back.state.history) == steps and resume.digest(back.state) == want
        assert not any("could not be resumed" in m for m, _ in again.messages)
    finally:
        again.close()


def test_a_saved_game_that_cannot_be_played_again_is_put_aside_not_lost(tmp_path: Path) -> None:
    """A slot that reads back but whose moves no longer replay (an action the game refuses)
    says so on screen, is not offered again, and is kept in the results file's set_aside table
    as it was saved (the technician can still look at it)."""
    store = tmp_path / "arcade.sqlite3"
    app = start_kiosk(config_for(None, store), frames=1)
    try:
        app.replace(resume.start_game(app, find_game("focus", None), computer_seats(2)))
        play_until(app, 2)
        saved = app.results.load_resume()
        saved["actions"] = ["z9-z10"] + saved["actions"]          # a move no board has
        key = saved["game_key"]
        app.results.save_resume(key, {k: v for k, v in saved.items() if k not in ("game_key", "saved_at")})
        app.home()
        assert resume.resume_now(app, app.results.load_resume()) is False
        note = next(m for m, _ in app.messages if "could not be resumed" in m)
        assert "put aside" in note
        assert app.results.load_resume() is None                   # not offered at the next start
        aside = [r for r in app.results.set_aside() if r["source"] == "resume"]
        assert aside and "could not be resumed" in aside[0]["problem"]
        raw = app.results.db.execute("SELECT raw FROM set_aside WHERE source = 'resume'").fetchone()[0]
        assert "z9-z10" in raw                                     # the slot as it was saved
    finally:
        app.close()


def test_in_kiosk_mode_a_station_s_x_drops_the_offer_and_the_hint_names_no_esc(tmp_path: Path) -> None:
    """At an event nobody has a keyboard (Esc does nothing in kiosk mode): the offer says X
    drops it, and a station's X does."""
    from arcade.core.events import Edge
    store = tmp_path / "arcade.sqlite3"
    app = start_kiosk(config_for(None, store), frames=1)
    try:
        app.replace(resume.start_game(app, find_game("focus", None), computer_seats(2)))
        play_until(app, 2)
        app.home()
        app.kiosk_mode = True
        app.resume_offer.offer()
        offer = app.scenes[-1]
        assert isinstance(offer, resume.ResumeScene)
        assert "Esc" not in offer.hint(5) and "X or hold 2 s = drop it" in offer.hint(5)
        offer.on_edge(Edge(time.monotonic_ns(), 0, "x", True, "gpio"))
        assert isinstance(app.scenes[-1], AttractScene) and app.results.load_resume() is None
    finally:
        app.close()


def test_the_offer_names_its_game_once_and_leaves_the_recent_games_in_sight(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20: the offer read "FOCUS - 2 players, 2 players" and its panel hid the title's
    "Recent games" heading.  It names the players once and the heading and the games under it
    stay whole in sight below it, at every display size."""
    import pygame

    from tests.text_fit import TextSeen
    store = tmp_path / "arcade.sqlite3"
    app = start_kiosk(config_for(None, store), frames=1)
    try:
        app.replace(resume.start_game(app, find_game("focus-2p", None), computer_seats(2)))
        play_until(app, 2)
        app.home()
        app.scenes[-1].recent_lines = [("FocusX Classic", "P1", "most cards (54)")]
        app.resume_offer.offer()
        offer = app.scenes[-1]
        assert isinstance(offer, resume.ResumeScene)
        seen = TextSeen(monkeypatch)
        for size in ((480, 320), (800, 480), (1280, 720), (1920, 1080)):
            surface = pygame.Surface(size)
            seen.watch(surface)
            seen.seen.clear()
            app.scenes[-2].draw(surface)
            offer.draw(surface)
            words = [m for m, *_ in seen.seen]
            details = next(m for m in words if "after step" in m)
            assert details.count("players") == 1, details
            box = offer.box(*size)
            for line in ("Recent games", "FocusX Classic: P1 (most cards (54))"):
                rect = next(r for m, r, *_ in seen.seen if m == line)
                assert not box.colliderect(rect) and surface.get_rect().contains(rect), (size, line, rect, box)
    finally:
        app.close()


def test_a_demo_on_the_cabinets_store_keeps_the_partys_interrupted_game_and_results_apart(tmp_path: Path) -> None:
    """An operator runs ``focus-arcade demo`` on an installed cabinet's store (issue 23): the
    party's interrupted game still waits for the next start, and the demo's finished games
    are marked as the demo's (and so go to no hall leaderboard, take no high score)."""
    from arcade.focusx.autoplay import SimConfig, first_legal, simulate
    from arcade.focusx.classic import ClassicGame
    store = tmp_path / "arcade.sqlite3"
    app = start_kiosk(config_for(None, store), frames=1)
    try:
        app.replace(resume.start_game(app, find_game("focusx-classic", None), computer_seats(2)))
        play_until(app, 1)
        party_key = app.results.load_resume()["game_key"]
    finally:
        app.results.db.close()           # the power cut: the party's game stays in the slot
        app.led.close()
    demo = start_kiosk(config_for(None, store), frames=0)
    try:
        demo.demo = True
        asked = find_game("focusx-classic", None)               # even the same game is not taken over
        demo.demo_game = asked
        assert resume.offer(demo) is False
        assert any("kept for the next start" in m for m, _ in demo.messages)
        scene = resume.start_game(demo, asked, computer_seats(2))
        demo.replace(scene)
        play_until(demo, 2)
        assert demo.results.load_resume()["game_key"] == party_key          # not saved over
        ended = ClassicGame(2).new_initial_state()
        simulate(ended, random.Random(3), SimConfig(skills=["hard"] * 2), first_legal)
        scene.state = ended                                                 # the demo's game ends
        scene.save()
        shown = demo.results.recent(1)[0]
        assert shown["reason"].endswith("(demo)")
        assert demo.results.record(shown["id"]).get("demo") is True
    finally:
        demo.close()
    party = start_kiosk(config_for(None, store), frames=0)
    try:
        waiting = party.results.load_resume()
        assert waiting is not None and waiting["game_key"] == party_key and not waiting.get("demo")
    finally:
        party.close()


def test_a_demos_interrupted_game_is_not_offered_to_the_party(tmp_path: Path) -> None:
    """A ``focus-arcade demo`` game killed mid-game (issue 23) was offered by the next plain
    ``focus-arcade`` as the party's own ("FocusX Classic", seats "sim GPIO 17") and resumed by
    itself: the party's start offers it not; the next demo still resumes it."""
    store = tmp_path / "arcade.sqlite3"
    app = start_kiosk(config_for(None, store), frames=1)
    try:
        app.demo = True
        app.replace(resume.start_game(app, find_game("focusx-classic", None), computer_seats(2)))
        play_until(app, 2)
        demo_key = app.results.load_resume()["game_key"]
    finally:
        app.results.db.close()           # the kill -9: the demo's game stays in the slot
        app.led.close()
    party = start_kiosk(config_for(None, store), frames=0)
    try:
        assert resume.offer(party) is False
        assert not any(isinstance(s, resume.ResumeScene) for s in party.scenes)
        assert isinstance(party.scenes[-1], AttractScene)
    finally:
        party.close()
    demo = start_kiosk(config_for(None, store), frames=0)
    try:
        demo.demo = True
        demo.demo_game = find_game("focusx-classic", None)
        assert resume.offer(demo) is True                  # the demo's own game, for the next demo
        assert demo.scenes[-1].game_key == demo_key
    finally:
        demo.close()


def test_the_offer_speaks_the_language_of_the_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26's screenshots: the offer was English on a Ukrainian title screen ("A game was
    interrupted", "FocusX Classic, 2 players, after step 3", "Resume", "Drop it", its hint).
    In Ukrainian every line of it is Ukrainian, with the players' count in its plural form, and
    whole at every display size; the journal's note of a resume stays English."""
    import pygame

    from arcade import i18n
    from tests.text_fit import TextSeen, cut_texts, speaking, untranslated
    store = tmp_path / "arcade.sqlite3"
    with speaking("uk", monkeypatch):
        uk = i18n.translator("uk")
        app = start_kiosk(config_for(None, store), frames=1)
        try:
            app.replace(resume.start_game(app, find_game("focusx-classic", None), computer_seats(2)))
            play_until(app, 2)
            app.home()
            app.resume_offer.offer()
            offer = app.scenes[-1]
            assert isinstance(offer, resume.ResumeScene)
            steps = offer.data["steps"]
            details = offer.details()
            assert details == f"{uk.gettext('FocusX Classic')}, 2 гравці, після кроку {steps}", details
            seen = TextSeen(monkeypatch)
            for size in ((480, 320), (800, 480), (1920, 1080)):
                surface = pygame.Surface(size)
                seen.watch(surface)
                seen.seen.clear()
                offer.draw(surface)
                words = [m for m, *_ in seen.seen]
                for line in ("Гру було перервано", "Продовжити", "Скасувати"):
                    assert line in words, (size, words)
                assert any("Гра продовжиться сама за" in w for w in words), words
                assert not untranslated(seen), untranslated(seen)
                assert not any(w in " ".join(words) for w in ("after step", "Resume", "Drop it", "interrupted"))
                assert not cut_texts(seen, surface), (size, cut_texts(seen, surface))
            said = resume.said._("Resumed {game} at step {step}.", game=resume.game_title(offer.data), step=steps)
            assert said.startswith(uk.gettext("FocusX Classic")) and said.english.startswith("Resumed FocusX Classic")
        finally:
            app.close()
