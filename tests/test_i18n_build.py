"""The translation catalogs reach the cabinet (issue 26): compiled when the package is built and
shipped in the wheel, compiled by the README's ``pip install -e '.[test]'`` of a fresh checkout,
and a translator's edit of a ``.po`` shows in a source checkout without a build.

The builds run on a copy of what a build reads (the packages, pyproject.toml, setup.py...) with
no ``.mo`` in it, so nothing compiled earlier in this checkout can stand in for the build's own.
"""

from __future__ import annotations

import gettext
import io
import os
import shutil
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from arcade import i18n

ROOT = Path(__file__).resolve().parents[1]
BUILD_INPUTS = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE",
                "arcade", "kiosk", "hardware", "firmware_bridge")
#: What a player sees for a time of one and a half seconds, in each language.
SHOWN = {"en": "1.5 s", "uk": "1,5 с"}


def _source_copy(dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.mo", "*.pyc", "*.egg-info")
    for name in BUILD_INPUTS:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        elif src.exists():
            shutil.copy2(src, dest / name)
    assert not list(dest.rglob("*.mo"))
    return dest


def _pip(*args: str, cwd: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "pip", *args], cwd=cwd, capture_output=True, text=True,
                         timeout=540, env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]


def _translations(po: Path) -> list[tuple[str | None, str | tuple[str, ...], str | tuple[str, ...]]]:
    with po.open("rb") as f:
        catalog = read_po(f)
    return [(m.context, m.id, m.string) for m in catalog if m.id and m.string and not m.fuzzy]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built once as `pip wheel` builds it (build isolation: setuptools and Babel
    from pyproject.toml's build requirements)."""
    base = tmp_path_factory.mktemp("wheel")
    src = _source_copy(base / "src")
    _pip("wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(src), cwd=base)
    [built] = list((base / "dist").glob("focus_arcade-*.whl"))
    return built


def test_the_wheel_carries_every_catalog_compiled(wheel: Path) -> None:
    pos = sorted(ROOT.glob("arcade/locale/*/LC_MESSAGES/*.po"))
    assert pos, "no catalog in arcade/locale"
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        for po in pos:
            inside = po.with_suffix(".mo").relative_to(ROOT).as_posix()
            assert inside in names, f"{inside} is not in {wheel.name}"
            compiled = gettext.GNUTranslations(io.BytesIO(z.read(inside)))
            for context, msgid, msgstr in _translations(po):
                if isinstance(msgid, tuple):
                    assert isinstance(msgstr, tuple)
                    got = compiled.ngettext(msgid[0], msgid[1], 5)
                    assert got == msgstr[compiled.plural(5)]       # type: ignore[attr-defined]
                elif context:
                    assert compiled.pgettext(context, msgid) == msgstr
                else:
                    assert compiled.gettext(msgid) == msgstr


def test_the_installed_wheel_speaks_ukrainian(wheel: Path, tmp_path: Path) -> None:
    """Installed as the cabinet installs it (no source beside it, no Babel): the shipped .mo."""
    _pip("install", "--no-deps", "-q", "--target", str(tmp_path / "site"), str(wheel), cwd=tmp_path)
    code = ("import arcade.i18n as i; i.use('uk'); print(i.seconds(1.5)); print(i.LOCALE_DIR)")
    out = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(tmp_path / 'site')!r}); "
                          + code], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    shown, where = out.stdout.splitlines()
    assert where.startswith(str(tmp_path / "site"))
    assert shown == SHOWN["uk"]


def test_an_editable_install_of_a_fresh_checkout_compiles_the_catalogs(tmp_path: Path) -> None:
    """The README's `pip install -e` (setuptools' editable wheel skips build_py's copying; the
    build hook compiles in place) into a virtual environment without Babel: the catalogs it
    reads are the ones the install compiled, not the run-time fallback."""
    src = _source_copy(tmp_path / "src")
    old = time.time() - 3600                       # the .po older than anything the install writes
    for po in src.rglob("*.po"):
        os.utime(po, (old, old))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    _pip("--python", str(python), "install", "--no-deps", "-q", "-e", str(src), cwd=tmp_path)
    assert sorted(p.relative_to(src).as_posix() for p in src.rglob("*.mo")) == \
        [p.with_suffix(".mo").relative_to(ROOT).as_posix() for p in sorted(ROOT.glob("arcade/locale/*/LC_MESSAGES/*.po"))]
    out = subprocess.run([str(python), "-c", "import importlib.util as u; import arcade.i18n as i; i.use('uk'); "
                          "print(i.seconds(1.5)); print(u.find_spec('babel') is None); print(i.LOCALE_DIR)"],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path,
                         env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert out.returncode == 0, out.stderr
    shown, no_babel, where = out.stdout.splitlines()
    assert (shown, no_babel, where) == (SHOWN["uk"], "True", str(src / "arcade" / "locale"))
    assert not (tmp_path / "cache").exists()


def _source_checkout(tmp_path: Path) -> Path:
    """A source checkout's catalogs without their .mo (a translator's tree) under ``tmp_path``;
    returns its Ukrainian .po."""
    checkout = tmp_path / "checkout"
    (checkout / "arcade").mkdir(parents=True)
    (checkout / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    shutil.copytree(ROOT / "arcade" / "locale", checkout / "arcade" / "locale",
                    ignore=shutil.ignore_patterns("*.mo"))
    return checkout / "arcade" / "locale" / "uk" / "LC_MESSAGES" / "focus_arcade.po"


def test_a_translators_edit_shows_in_a_source_checkout_without_a_build(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A .po newer than its .mo (or without one) is compiled again when first used, with Babel,
    into the cache folder; the checkout's own .mo is left alone."""
    po = _source_checkout(tmp_path)
    checkout = po.parents[4]
    monkeypatch.setattr(i18n, "LOCALE_DIR", checkout / "arcade" / "locale")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    i18n.forget_catalogs()
    try:
        assert i18n.seconds(1.5, language="uk") == SHOWN["uk"]
        po.write_text(po.read_text("utf-8").replace('msgstr "{seconds} с"', 'msgstr "{seconds} сек."'), "utf-8")
        later = time.time() + 5
        os.utime(po, (later, later))
        i18n.forget_catalogs()
        assert i18n.seconds(1.5, language="uk") == "1,5 сек."
        assert not list((checkout / "arcade").rglob("*.mo"))
        assert list((tmp_path / "cache").rglob("focus_arcade.mo"))
    finally:
        monkeypatch.undo()
        i18n.forget_catalogs()


def test_a_language_without_a_catalog_or_with_a_damaged_one_is_english(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    mo = tmp_path / "locale" / "uk" / "LC_MESSAGES" / "focus_arcade.mo"
    mo.parent.mkdir(parents=True)
    mo.write_bytes(b"\x00" * 40)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    i18n.forget_catalogs()
    try:
        assert i18n.seconds(1.5, language="uk") == "1.5 s"
        assert i18n.translator("fr").code == "en"
    finally:
        monkeypatch.undo()
        i18n.forget_catalogs()


def _mo(messages: dict[str, str]) -> bytes:
    """A GNU ``.mo`` file of ``messages`` (msgid -> msgstr; "" is the header)."""
    ids = sorted(messages)
    keys = [m.encode() for m in ids]
    values = [messages[m].encode() for m in ids]
    start = 7 * 4 + 16 * len(ids)
    table, data = [], b""
    for blob in keys + values:
        table.append((len(blob), start + len(data)))
        data += blob + b"\0"
    head = struct.pack("<7I", 0x950412DE, 0, len(ids), 28, 28 + 8 * len(ids), 0, 0)
    return head + b"".join(struct.pack("<2I", *pair) for pair in table) + data


@pytest.mark.parametrize("damage", ["cut short", "empty", "a plural rule dividing by zero"])
def test_a_cut_short_or_empty_catalog_or_a_broken_plural_rule_is_english(tmp_path: Path, damage: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalog an SD card cut short (or left empty), or one whose Plural-Forms rule divides by
    zero: the arcade used to stop on its first Ukrainian screen (struct.error on reading it,
    ZeroDivisionError on every count); it speaks English instead, and the log says why."""
    mo = tmp_path / "locale" / "uk" / "LC_MESSAGES" / "focus_arcade.mo"
    mo.parent.mkdir(parents=True)
    header = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=3; plural=n/0;\n"
    whole = _mo({"": header, "{seconds} s": "{seconds} с", "Lobby": "Лобі"})
    mo.write_bytes({"cut short": whole[:40], "empty": b"", "a plural rule dividing by zero": whole}[damage])
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    i18n.forget_catalogs()
    try:
        with caplog_at(monkeypatch) as said:
            assert i18n.seconds(1.5, language="uk") == "1.5 s"
            i18n.use("uk")
            assert (i18n._("Lobby"), i18n.ngettext("{n} game", "{n} games", 3)) == ("Lobby", "{n} games")
        assert any("does not read" in line for line in said)
    finally:
        i18n.use(i18n.SOURCE)
        monkeypatch.undo()
        i18n.forget_catalogs()


def test_a_translators_broken_entry_leaves_the_shipped_catalog_in_use(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A translator's edit that breaks the ``.po`` (a msgid with no msgstr) in a source checkout:
    Babel's PoFileError used to stop the arcade on its first Ukrainian word; the catalog compiled
    before still speaks, and the log names the file."""
    po = _source_checkout(tmp_path)
    checkout = po.parents[4]
    shipped = po.with_suffix(".mo")
    shipped.write_bytes(i18n.catalog_path("uk").read_bytes())
    po.write_text(po.read_text("utf-8") + '\nmsgid "a"\nmsgid "b"\nmsgstr "c"\n', "utf-8")
    later = time.time() + 5
    os.utime(po, (later, later))
    monkeypatch.setattr(i18n, "LOCALE_DIR", checkout / "arcade" / "locale")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    i18n.forget_catalogs()
    try:
        with caplog_at(monkeypatch) as said:
            assert i18n.seconds(1.5, language="uk") == SHOWN["uk"]
        assert any("could not be compiled" in line for line in said)
    finally:
        monkeypatch.undo()
        i18n.forget_catalogs()


def test_a_translation_with_a_placeholder_typo_shows_that_message_in_english(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A translator's typo, ``{nmae}`` for ``{name}`` (found by the translator's trial): the screen
    that formats the message used to raise KeyError every frame (the game crashed and resumed
    5,900 times a minute).  The compiled catalog leaves that one message out: it shows in English,
    the rest of the catalog in the language, and the log names it."""
    po = _source_checkout(tmp_path)
    checkout = po.parents[4]
    text = po.read_text("utf-8")
    assert 'msgstr "{seconds} с"' in text
    po.write_text(text.replace('msgstr "{seconds} с"', 'msgstr "{secnods} с"'), "utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", checkout / "arcade" / "locale")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    i18n.forget_catalogs()
    try:
        with caplog_at(monkeypatch) as said:
            assert i18n.seconds(1.5, language="uk") == "1,5 s"       # the comma is still Ukrainian
        assert any("{seconds} s" in line and "shown in English" in line for line in said)
        assert i18n.translator("uk").gettext("Players") != "Players"
    finally:
        monkeypatch.undo()
        i18n.forget_catalogs()


class caplog_at:
    """The warnings arcade.i18n logs inside the ``with`` (as text lines)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.lines: list[str] = []
        monkeypatch.setattr(i18n.log, "warning", lambda fmt, *a: self.lines.append(fmt % a))

    def __enter__(self) -> list[str]:
        return self.lines

    def __exit__(self, *exc: object) -> None:
        return None
