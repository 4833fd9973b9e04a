"""The game screens speak the language chosen (issue 26): a screen drawn in English and then
in Ukrainian shows its words in Ukrainian at the next frame, without a redraw being asked for
(its parts and its cached pictures, card faces among them, are keyed by the language);
counts take the Ukrainian plural forms (1 / 2-4 / 5-20); decimals take the comma.  The text of
every screen in both languages is checked by the text-fit tests (tests/test_screen_text_fits.py
and the games' own)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from arcade import i18n  # noqa: E402
from arcade.buzzrace.game import BuzzRaceGame  # noqa: E402
from arcade.core.race import RaceResult  # noqa: E402
from kiosk.games.coop import draw as coop_draw  # noqa: E402
from kiosk.games.focusx import cards as fx_cards  # noqa: E402
from kiosk.games.sackson.scene import SacksonScene  # noqa: E402
from kiosk.games.sherlook.claims import claim_rows  # noqa: E402
from kiosk.scenes.seats import SeatInfo  # noqa: E402
from tests.text_fit import TextSeen, sized_app, speaking  # noqa: E402

T0 = 10 ** 12


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Any]:
    a = sized_app(tmp_path, (1280, 720))
    try:
        yield a
    finally:
        a.close()
        pygame.display.quit()


def _same(a: pygame.Surface, b: pygame.Surface) -> bool:
    return a.get_size() == b.get_size() and bytes(pygame.image.tobytes(a, "RGBA")) == \
        bytes(pygame.image.tobytes(b, "RGBA"))


def test_the_card_faces_are_drawn_again_in_the_language_spoken() -> None:
    """A FocusX card's category and a Focus (2023) exhibit's name are drawn on the card: the
    faces cached in English are not shown in Ukrainian (nor the other way round)."""
    pygame.init()
    english = [fx_cards.card_surface(0, 160, 224).copy(), coop_draw.face_surface(1, 200, 180).copy()]
    with speaking("uk"):
        ukrainian = [fx_cards.card_surface(0, 160, 224).copy(), coop_draw.face_surface(1, 200, 180).copy()]
    again = [fx_cards.card_surface(0, 160, 224), coop_draw.face_surface(1, 200, 180)]
    for en, uk, en_again in zip(english, ukrainian, again):
        assert not _same(en, uk)
        assert _same(en, en_again)


def test_a_focus_screen_speaks_ukrainian_at_the_next_frame(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """FOCUS's side panel is drawn in parts kept between frames: the language changing (the
    service menu, a game night's choice) redraws them at once, no other redraw needed."""
    scene = SacksonScene(app, [SeatInfo("gpio", "GPIO 17", "medium", True),
                               SeatInfo("computer", "computer 2", "easy")], "2p", seed=3)
    app.push(scene)
    seen = TextSeen(monkeypatch, ink=False)
    seen.watch(app.screen)
    scene.update(T0)
    scene.draw(app.screen)
    assert "move 1" in seen.words() and "P1 to move" in seen.words()
    seen.seen.clear()
    scene.draw(app.screen)
    assert "move 1" not in seen.words()              # a part kept: not drawn again
    i18n.forget_catalogs()
    i18n.use("uk")                                    # no redraw_everything(): the parts see the language
    seen.seen.clear()
    scene.draw(app.screen)
    words = seen.words()
    assert "хід 1" in words and "Хід P1" in words and "останні ходи" in words, words
    assert "move 1" not in words and "last moves" not in words


@pytest.mark.parametrize(("n", "said"), [(1, "P1 захоплює 1 камінь!"), (2, "P1 захоплює 2 камені!"),
                                         (5, "P1 захоплює 5 каменів!"), (21, "P1 захоплює 21 камінь!")])
def test_counts_take_the_three_ukrainian_plural_forms(n: int, said: str) -> None:
    with speaking("uk"):
        assert i18n.ngettext("P{seat} captures {n} stone!", "P{seat} captures {n} stones!", n).format(
            seat=1, n=n) == said
    assert i18n.ngettext("P{seat} captures {n} stone!", "P{seat} captures {n} stones!", n).format(
        seat=1, n=n).startswith("P1 captures")


def test_an_outcome_reason_is_said_in_the_language_spoken_when_the_game_ends() -> None:
    """Buzz Race's reason ("first to 5 rounds") is made when the game ends, in the language of
    that moment, with the count's plural form."""
    for lang, want in (("en", "first to 5 rounds"), ("uk", "виграно 5 раундів")):
        with speaking(lang):
            st = BuzzRaceGame(2).new_initial_state()
            while not st.is_terminal():
                st.apply(RaceResult(winners=(0,), presses=((0, "focus", 1000, "first"),)))
            out = st.outcome()
            assert out is not None and out.reason == want


def test_the_claims_list_writes_its_milliseconds_with_the_language_s_decimal_mark() -> None:
    from arcade.sherlook.markers import ClaimNote
    note = ClaimNote(seat=1, marker=4, t_ns=0, offset_ms=1078.25, source="buzzer", status="took")
    assert claim_rows([note])[0][0][:2] == ("P2 took 4", "+1078.2 ms")
    with speaking("uk"):
        assert claim_rows([note])[0][0][:2] == ("P2 бере 4", "+1078,2 мс")
