"""``[display] language`` (issue 26): the screens' language, chosen in the configuration file,
else taken from the system's locale, else English; applied before the first frame; a language
the arcade does not speak is a clear problem (the screen, the journal, ``check-config``) and the
screens are in English."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from arcade import i18n
from kiosk import cli, config
from kiosk.config import Config, defaults, load_or_default


def _file(tmp_path: Path, language: str) -> Path:
    p = tmp_path / "arcade.toml"
    p.write_text(f'[display]\nlanguage = "{language}"\n[storage]\npath = "{tmp_path / "store.sqlite3"}"\n'
                 '[led]\nport = "none"\n', "utf-8")
    return p


def test_the_shipped_default_follows_the_system_locale_else_english() -> None:
    assert defaults()["display"]["language"] == ""
    cfg = Config(defaults())
    assert cfg.language({"LANG": "uk_UA.UTF-8"}) == "uk"
    assert cfg.language({"LANGUAGE": "uk:en", "LANG": "C.UTF-8"}) == "uk"
    assert cfg.language({"LANG": "fr_FR.UTF-8"}) == "en"
    assert cfg.language({}) == "en"


@pytest.mark.parametrize(("written", "spoken"), [("uk", "uk"), ("en", "en"), ("uk-UA", "uk"), ("uk_UA.UTF-8", "uk")])
def test_a_language_the_file_names_is_spoken_whatever_the_locale(tmp_path: Path, written: str, spoken: str) -> None:
    cfg = load_or_default(_file(tmp_path, written))
    assert cfg.problems == []
    other = "en" if spoken == "uk" else "uk"
    assert cfg.language({"LANG": f"{other}.UTF-8"}) == spoken


def test_a_language_the_arcade_does_not_speak_is_a_problem_and_english(tmp_path: Path) -> None:
    cfg = load_or_default(_file(tmp_path, "fr"))
    [problem] = cfg.problems
    assert "display.language = 'fr': expected a language the arcade speaks: " in problem
    assert '"en" (English), "uk" (Українська), or "" for the system\'s language' in problem
    assert cfg.language({"LANG": "uk_UA.UTF-8"}) == "en"       # not the system's: English, as said


def test_check_config_names_the_setting_and_what_the_arcade_does(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(tmp_path, "klingon")
    assert cli.main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: display.language = 'klingon': expected a language the arcade speaks" in err
    assert "the kiosk would run with the screens in English" in err
    good = _file(tmp_path, "uk")
    assert cli.main(["check-config", str(good)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"{good}: OK"


def test_the_arcade_speaks_the_language_from_its_first_frame(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real start (``focus-arcade --config F``): every frame flipped to the screen, the first
    one included, is drawn in the file's language."""
    spoken: list[str] = []
    flip = pygame.display.flip

    def flipped() -> None:
        spoken.append(i18n.current())
        flip()

    monkeypatch.setattr(pygame.display, "flip", flipped)
    monkeypatch.setenv("LANGUAGE", "en")
    assert i18n.current() == "en"
    assert cli.main(["--config", str(_file(tmp_path, "uk")), "--windowed", "--frames", "3"]) == 0
    assert spoken and set(spoken) == {"uk"}
    assert i18n.seconds(1.5) == "1,5 с"


def test_the_system_locale_chooses_when_the_file_does_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "")
    monkeypatch.setenv("LC_ALL", "")
    monkeypatch.setenv("LANG", "uk_UA.UTF-8")
    assert cli.main(["--config", str(_file(tmp_path, "")), "--windowed", "--frames", "1"]) == 0
    assert i18n.current() == "uk"


def test_every_language_can_be_chosen_in_the_service_menu() -> None:
    """The service menu steps through a setting's ``choices``: "" (the system's) and each language."""
    check = config.SCHEMA["display"]["language"]
    assert list(getattr(check, "choices", ())) == ["", *i18n.LANGUAGES]
