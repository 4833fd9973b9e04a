"""Every catalog covers every message the source has (issue 26; README, "Adding a language").

The messages are extracted from the source here, by Babel's extractor with the project's
keywords (``tools/i18n.py``), never read from a template that may be stale.  For each catalog:
every message translated (each plural form: Ukrainian has three), none twice, none fuzzy, the
same ``{placeholders}`` as the source's, none the source no longer has.  A gap is a failure: a
player would see English in the middle of Ukrainian, or a crash on a missing ``{field}``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog

from arcade import i18n

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("focus_arcade_i18n_tool", ROOT / "tools" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


tool = _tool()
CATALOGS = tool.catalog_paths(ROOT)


@pytest.fixture(scope="module")
def source_messages() -> Catalog:
    template: Catalog = tool.extract(ROOT)
    return template


def test_the_extractor_finds_the_messages_of_every_kind_of_call(source_messages: Catalog) -> None:
    keys = {(m.context, m.id) for m in source_messages}
    assert (None, "{seconds} s") in keys                     # _()
    assert ("decimal mark", ".") in keys                     # pgettext()
    assert all(isinstance(m.locations[0][0], str) for m in source_messages if m.id)


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parent.parent.name)
def test_every_catalog_covers_every_message_of_the_source(po: Path, source_messages: Catalog) -> None:
    problems = tool.catalog_problems(po, source_messages, i18n.LANGUAGES)
    assert problems == [], f"{len(problems)} problem(s); the first ones:\n" + "\n".join(problems[:40])


def test_every_language_has_its_catalog() -> None:
    codes = {p.parent.parent.name for p in CATALOGS}
    assert {c for c in i18n.LANGUAGES if c != i18n.SOURCE} <= codes
    assert codes <= set(i18n.LANGUAGES)


def test_the_template_is_current(source_messages: Catalog) -> None:
    assert tool.template_current(source_messages, ROOT), \
        "arcade/locale/focus_arcade.pot is not current: python tools/i18n.py extract"


def test_every_translated_call_holds_a_message_the_catalog_can_hold() -> None:
    assert tool.unmarked_calls(ROOT) == []


HEADER = '''msgid ""
msgstr ""
"Language: uk\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

'''

SOURCE = '''
from arcade.i18n import _, N_, ngettext, pgettext
def shown(n, name):
    _("Press your buzzer")
    _("Hello {name}").format(name=name)
    ngettext("{n} game", "{n} games", n)
    pgettext("button", "Back")
    _("Only here")
    _("Fuzzy one")
    _("Twice")
    label = N_("Marked")
    _(f"{name} joined")
    _("Score: " + name)
'''

CATALOG = HEADER + '''msgid "Press your buzzer"
msgstr "Натисніть кнопку"

msgid "Hello {name}"
msgstr "Привіт, {імʼя}"

msgid "{n} game"
msgid_plural "{n} games"
msgstr[0] "{n} гра"
msgstr[1] "{n} гри"

msgctxt "button"
msgid "Back"
msgstr ""

#, fuzzy
msgid "Fuzzy one"
msgstr "Неточний"

msgid "Twice"
msgstr "Двічі"

msgid "Twice"
msgstr "Двічі"
msgid "Marked"
msgstr "Позначене"

msgid "Gone from the source"
msgstr "Зникле"

#~ msgid "Old"
#~ msgstr "Старе"
'''


def test_the_checks_catch_every_kind_of_gap(tmp_path: Path) -> None:
    """Each way a catalog can fail a player is found (so a clean catalog means something)."""
    (tmp_path / "arcade" / "locale" / "uk" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "arcade" / "i18n.py").write_text('LANGUAGES: dict[str, str] = {"en": "English", "uk": "Українська"}\n')
    (tmp_path / "kiosk").mkdir()
    (tmp_path / "kiosk" / "screen.py").write_text(SOURCE)
    po = tmp_path / "arcade" / "locale" / "uk" / "LC_MESSAGES" / "focus_arcade.po"
    po.write_text(CATALOG, "utf-8")
    problems = "\n".join(tool.check(tmp_path))
    for expected in ("focus_arcade.pot is not current",
                     "'Hello {name}': 'Привіт, {імʼя}' has other placeholders than the source (expected {name})",
                     "'{n} game' form 2 (msgstr[2]) is not translated",
                     "'Back' (context 'button') is not translated",
                     "'Only here' is missing",
                     "'Fuzzy one' is marked fuzzy",
                     "'Twice' is in the catalog twice",
                     "2 entries without a blank line between them",
                     "'Gone from the source' is not in the source any more",
                     "'Old' is kept as obsolete",
                     "kiosk/screen.py:12: _() of f'{name} joined'",
                     "kiosk/screen.py:13: _() of 'Score: ' + name"):
        assert expected in problems, f"not found: {expected}\nin:\n{problems}"
    assert "'Press your buzzer'" not in problems and "'Marked'" not in problems


def test_update_brings_a_catalog_in_line_and_keeps_its_translations(tmp_path: Path) -> None:
    (tmp_path / "arcade" / "locale" / "uk" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "arcade" / "i18n.py").write_text('LANGUAGES: dict[str, str] = {"en": "English", "uk": "Українська"}\n')
    (tmp_path / "kiosk").mkdir()
    (tmp_path / "kiosk" / "screen.py").write_text('from arcade.i18n import _\n_("Press your buzzer")\n_("New")\n')
    po = tmp_path / "arcade" / "locale" / "uk" / "LC_MESSAGES" / "focus_arcade.po"
    po.write_text(HEADER + 'msgid "Press your buzzer"\nmsgstr "Натисніть кнопку"\n\nmsgid "Gone"\nmsgstr "Зникле"\n\n',
                  "utf-8")
    assert tool.update(tmp_path) == [po]
    text = po.read_text("utf-8")
    assert 'msgstr "Натисніть кнопку"' in text and 'msgid "New"' in text and "Gone" not in text
    assert tool.check(tmp_path) == [f"{po.relative_to(tmp_path).as_posix()}: 'New' is not translated"]
