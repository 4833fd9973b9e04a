"""Numbers and times as each language writes them (issue 26): Ukrainian writes a comma for the
decimal mark and "с"/"мс" for seconds and milliseconds ("1,5 с"), English "1.5 s"; a screen
message that shows a time uses them (kiosk/players/away.py: the game put away when everyone has left)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from arcade import i18n
from kiosk.players.away import AwayWatch
from kiosk.scenes.seats import SeatInfo


@pytest.mark.parametrize(("language", "shown"), [
    ("en", ["1.5", "12,345.68", "1.5 s", "90 s", "12.4 ms", "0.0 ms"]),
    ("uk", ["1,5", "12\u00a0345,68", "1,5 с", "90 с", "12,4 мс", "0,0 мс"]),
])
def test_numbers_and_times_are_written_as_the_language_writes_them(language: str, shown: list[str]) -> None:
    i18n.use(language)
    assert [i18n.number(1.5, 1), i18n.number(12345.678, 2, group=True), i18n.seconds(1.5), i18n.seconds(90, 0),
            i18n.milliseconds(12.4), i18n.milliseconds(0.04)] == shown
    other = "en" if language == "uk" else "uk"
    assert i18n.seconds(1.5, language=other) == ("1,5 с" if other == "uk" else "1.5 s")
    assert i18n.current() == language          # asking for another language changes nothing


class _Scene:
    """A game on screen that everyone has left (what AwayWatch reads of it)."""

    def __init__(self) -> None:
        self.seats = [SeatInfo("keyboard", "Keyboard"), SeatInfo("keyboard", "Keyboard")]
        self.over_at: int | None = None
        self.left = False

    @property
    def state(self) -> object:
        return SimpleNamespace(current_player=lambda: 0)

    def empty_room_ns(self, turn_ns: int) -> int:
        return 2 * turn_ns

    def leave(self) -> None:
        self.left = True


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Nobody has pressed for 90 s: everyone seems to have left, so the game was put away"),
    ("uk", "Ніхто не натискав кнопок уже 90 с: схоже, всі пішли, тож гру прибрано"),
])
def test_the_empty_room_message_says_its_time_in_the_players_language(language: str, said: str) -> None:
    messages: list[str] = []
    scene = _Scene()
    app = SimpleNamespace(cfg=SimpleNamespace(data={"idle": {"turn_s": 45}}), scenes=[scene], attract_demo=False,
                          message=lambda text, seconds=12.0, topic="": messages.append(text),
                          is_game=lambda s: True, station_accepts=lambda station, edge: True)
    watch = AwayWatch(app)                      # type: ignore[arg-type]
    i18n.use(language)
    watch.tick(1_000_000_000)
    watch.tick(1_000_000_000 + 91 * 10**9)
    assert scene.left and messages == [said]
