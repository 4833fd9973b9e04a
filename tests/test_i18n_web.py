"""The leaderboard page answers each browser in its own language (issue 26).

A real HTTP request to ``focus-arcade leaderboard-web``'s server with the browser's
``Accept-Language``: the best language of :data:`arcade.i18n.LANGUAGES` by q-value, English
otherwise; the page's words (its title, headings, the script's texts and plural forms) in that
language; the cabinet's own language never changes for a web request.  The page's script is run
by node where it exists, to read what a guest would see for counts such as 1, 3, 5, 21 and 111.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import urllib.request
from typing import Iterator

import pytest

from arcade import i18n
from kiosk import config
from kiosk.event import web as event_web
from kiosk.event.web import LeaderboardWeb


@pytest.fixture(scope="module")
def web() -> Iterator[LeaderboardWeb]:
    settings = {**config.defaults()["event"], "host": "127.0.0.1", "port": 9, "event": "hall"}   # no broker there
    server = LeaderboardWeb(settings, port=0).start()
    try:
        yield server
    finally:
        server.stop()


def get(web: LeaderboardWeb, accept_language: str | None) -> tuple[str, str]:
    """(the page's HTML, its Content-Language) as a browser sending ``accept_language`` gets it."""
    request = urllib.request.Request(f"http://127.0.0.1:{web.port}/")
    if accept_language is not None:
        request.add_header("Accept-Language", accept_language)
    with urllib.request.urlopen(request, timeout=10) as r:
        return r.read().decode("utf-8"), r.headers["Content-Language"]


def texts(html: str) -> dict[str, object]:
    found = re.search(r"const T = (\{.*?\});\n", html)
    assert found, "the page's texts"
    value = json.loads(found.group(1))
    assert isinstance(value, dict)
    return value


@pytest.mark.parametrize(("header", "language"), [
    ("uk-UA,uk;q=0.9,en-US;q=0.8,en;q=0.7", "uk"),
    ("de-DE,de;q=0.9,uk;q=0.5,en;q=0.3", "uk"),          # the best the arcade speaks
    ("en-US,en;q=0.9,uk;q=0.8", "en"),
    ("en;q=0.4,UK;q=0.6", "uk"),                         # q-values, not the order
    ("fr-FR,fr;q=0.9", "en"),                            # none spoken here: English
    ("uk;q=0, *;q=0.5", "en"),                           # refused
    ("", "en"),
    (None, "en"),
])
def test_the_page_speaks_the_browsers_best_language(web: LeaderboardWeb, header: str | None, language: str) -> None:
    html, content_language = get(web, header)
    assert content_language == language
    assert f'<html lang="{language}">' in html
    if language == "uk":
        assert "<title>Focus Arcade - таблиця лідерів залу</title>" in html
        assert '<h1>Таблиця лідерів залу <bdi id="event"></bdi></h1>' in html
        assert '<h2 id="cabinets-title">Автомати</h2>' in html
        assert texts(html)["games"] == ["{n} гра", "{n} гри", "{n} ігор"]
        assert texts(html)["states"] == {"idle": "вільний", "playing": "грає", "offline": "поза мережею"}
    else:
        assert "<title>Focus Arcade - hall leaderboard</title>" in html
        assert '<span id="state" class="dim">connecting...</span>' in html
        assert texts(html)["games"] == ["{n} game", "{n} games"]


def test_a_web_request_never_changes_the_cabinets_language(web: LeaderboardWeb) -> None:
    i18n.use("en")
    assert "Таблиця лідерів залу" in get(web, "uk")[0]
    assert i18n.current() == "en"
    i18n.use("uk")
    assert "Hall leaderboard" in get(web, "en-GB")[0]
    assert i18n.current() == "uk"


def test_every_count_takes_its_languages_form() -> None:
    """The page's table of plural forms gives ngettext's form for any count, 200 and over too."""
    for code in i18n.LANGUAGES:
        tr = i18n.translator(code)
        t = event_web.page_texts(tr)
        forms, table = t["games"], t["P"]
        assert isinstance(forms, list) and isinstance(table, list)
        for n in [*range(0, 260), 1001, 1011, 1021, 1111, 12345]:
            form = forms[table[n if n < 200 else 100 + n % 100]]
            assert form.replace("{n}", str(n)) == tr.ngettext("{n} game", "{n} games", n).format(n=n), (code, n)


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs the page's script")
def test_a_guest_reads_the_counts_and_ages_in_ukrainian(web: LeaderboardWeb) -> None:
    """The page's own script (its T, fill, count and ago), run by node, as a guest reads it."""
    html = get(web, "uk")[0]
    script = html.split('"use strict";', 1)[1]
    script = script.split("function cell(", 1)[0] + "function ago(" + script.split("function ago(", 1)[1].split(
        "function showAge(", 1)[0]
    probe = script + """
console.log(JSON.stringify([1, 3, 5, 21, 111].map(n => count(T.games, n)).concat(
  [ago(42), ago(600), count(T.more, 2), fill(T.closed, {games: count(T.games, 12)})])));
"""
    out = subprocess.run(["node", "-e", probe], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == ["1 гра", "3 гри", "5 ігор", "21 гра", "111 ігор", "42 с", "10 хв",
                                      "... і ще 2 таблиці", "12 ігор - подію закрито"]
