"""A translator adds a third language by following the README alone ("Adding a language";
issue 26): in a copy of the source, the README's commands and edits, a PO editor's work done by
this test, and then the arcade speaks the language: numbers with its decimal mark, the leaderboard
page for a browser that asks for it, the configuration's choice of it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")


def _run(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=tree, capture_output=True, text=True, timeout=300)


def _translate(po: Path) -> None:
    """What the translator does in the PO editor: every entry (each plural form) translated, its
    {fields} kept; the decimal mark a comma."""
    with po.open("rb") as f:
        catalog = read_po(f)
    for m in catalog:
        if not m.id:
            continue
        if m.context == "decimal mark":
            m.string = ","
        elif m.context == "digit group separator":
            m.string = "\u00a0"
        elif isinstance(m.id, tuple):
            m.string = tuple(f"«{m.id[0 if i == 0 else 1]}»" for i in range(catalog.num_plurals))
        else:
            m.string = f"«{m.id}»"
    with po.open("wb") as f:
        write_po(f, catalog)


def test_a_translator_adds_polish_by_following_the_readme(tmp_path: Path) -> None:
    for step in ("tools/i18n.py init xx", "LANGUAGES", "tools/i18n.py check", "LANGUAGE=xx .venv/bin/focus-arcade",
                 "tests/test_i18n_fonts.py", "tools/i18n.py update"):
        assert step in README, f"the README's 'Adding a language' lacks {step!r}"
    tree = tmp_path / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.mo")
    for name in ("arcade", "kiosk", "hardware", "firmware_bridge", "tools"):
        shutil.copytree(ROOT / name, tree / name, ignore=ignore)
    shutil.copy2(ROOT / "pyproject.toml", tree / "pyproject.toml")
    # 1. Make its catalog
    made = _run(tree, "tools/i18n.py", "init", "pl")
    assert made.returncode == 0, made.stderr
    assert 'add "pl" and its name' in made.stdout
    po = tree / "arcade" / "locale" / "pl" / "LC_MESSAGES" / "focus_arcade.po"
    assert "Plural-Forms: nplurals=3;" in po.read_text("utf-8")
    checked = _run(tree, "tools/i18n.py", "check")
    assert checked.returncode == 1
    assert "'pl' is not in LANGUAGES" in checked.stdout and "is not translated" in checked.stdout
    # 2. Name the language
    i18n_py = tree / "arcade" / "i18n.py"
    text = i18n_py.read_text("utf-8")
    assert '"uk": "Українська"}' in text
    i18n_py.write_text(text.replace('"uk": "Українська"}', '"uk": "Українська", "pl": "Polski"}'), "utf-8")
    # 3. Translate; 4. Check it
    _translate(po)
    checked = _run(tree, "tools/i18n.py", "check")
    assert checked.returncode == 0, checked.stdout
    # 5. See it (a .po newer than its .mo is compiled when first spoken, in a checkout)
    probe = (f"import sys; sys.path.insert(0, {str(tree)!r})\n"
             "import arcade.i18n as i, kiosk.config as c, kiosk.event.web as w\n"
             "print(i.LOCALE_DIR)\n"
             "print(i.system_language({'LANGUAGE': 'pl'}), i.use('pl'), i.seconds(1.5))\n"
             "print(i.accepted_language('pl-PL,pl;q=0.9,en;q=0.5'))\n"
             "print(c.SCHEMA['display']['language']('display.language', 'pl_PL.UTF-8'))\n"
             "print(b'<title>\\xc2\\xab' in w.page('pl'))\n")
    seen = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(tmp_path / "cache"),
                               "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"})
    assert seen.returncode == 0, seen.stderr
    assert seen.stdout.splitlines() == [str(tree / "arcade" / "locale"), "pl pl «1,5 s»", "pl", "pl", "True"]
    # later: the source changes, update brings the catalog in line
    screen = tree / "kiosk" / "new_screen.py"
    screen.write_text('from arcade.i18n import _\n\n\ndef title() -> str:\n    return _("A new screen")\n', "utf-8")
    assert _run(tree, "tools/i18n.py", "update").returncode == 0
    checked = _run(tree, "tools/i18n.py", "check")
    assert checked.returncode == 1
    assert "arcade/locale/pl/LC_MESSAGES/focus_arcade.po: 'A new screen' is not translated" in checked.stdout
