"""The language the arcade speaks: gettext's runtime over the catalogs in ``arcade/locale``.

Every player- and operator-facing string goes through :func:`_` (or :func:`ngettext` for a
count) at the moment it is shown, never at import time, so a change of language (the service
menu, a game night's choice in the lobby) shows on the next frame.  A string kept in a table at
import time is marked with :func:`N_` and translated where it is drawn.  Numbers and times go
through :func:`number`, :func:`seconds` and :func:`milliseconds` ("1.5 s", "1,5 с").

Catalogs: ``arcade/locale/<code>/LC_MESSAGES/focus_arcade.mo``, compiled from the ``.po`` files
beside them when the package is built (``setup.py``: the wheel, and ``pip install -e`` writes them
beside the ``.po``) or by ``python tools/i18n.py compile``.  In a source checkout a ``.po`` newer
than its ``.mo`` (a translator's edit) is compiled again when first used, with Babel when it is
installed (the ``test`` extra), into :func:`cache_dir`.  English is the source language and needs
no catalog; a language with no catalog falls back to English, never to an error.  README, "Adding
a language".

Standard library only (gettext, locale), like the rest of ``arcade``; Babel is imported only to
compile a catalog.
"""
from __future__ import annotations

import gettext
import logging
import os
import string
import struct
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

DOMAIN = "focus_arcade"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE = "en"
# Each language's name as its speakers write it (shown in the language chooser).
LANGUAGES: dict[str, str] = {"en": "English", "uk": "Українська"}

log = logging.getLogger("focus-arcade.i18n")

_current = SOURCE
_catalogs: dict[str, gettext.NullTranslations] = {}
_translators: dict[str, "Translator"] = {}
_lock = threading.Lock()


def _english_plural(n: int) -> int:
    return 0 if n == 1 else 1


@dataclass(frozen=True)
class Translator:
    """One language's messages, apart from the language the cabinet speaks (a web page
    answers each browser in its own): ``tr = translator("uk"); tr.gettext("Cabinets")``.

    ``plural(n)`` is the index of the plural form used for the count ``n`` (the catalog's
    Plural-Forms; English: 0 for 1, else 1) and ``nplurals`` how many forms there are.
    """

    code: str
    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    pgettext: Callable[[str, str], str]
    plural: Callable[[int], int]
    nplurals: int


def catalog_path(code: str) -> Path:
    """Where the compiled catalog of ``code`` is shipped (it may not exist)."""
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"


def compile_catalog(po: Path, mo: Path) -> None:
    """Compile the catalog ``po`` to ``mo`` with Babel (fuzzy entries left out, as gettext's
    ``msgfmt`` does); the file is replaced whole, never half-written.

    Raises:
        ImportError: Babel is not installed.
        OSError: ``po`` cannot be read or ``mo`` written.
        ValueError: ``po`` is no readable catalog.
    """
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import PoFileError, read_po

    code = po.parent.parent.name
    with po.open("rb") as f:
        try:
            catalog = read_po(f, locale=code if code in LANGUAGES else None, abort_invalid=True)
        except PoFileError as exc:          # a broken entry (a msgid without its msgstr)
            raise ValueError(str(exc)) from exc
    for message in catalog:
        if message.id and message.string and not placeholders_fit(message.id, message.string):
            # a typo such as {nmae} for {name} would raise KeyError on the screen that shows it,
            # frame after frame: that message shows in English instead (tools/i18n.py check names it)
            log.warning("%s: the translation of %r names other {placeholders} than the source; shown in English",
                        po, message.id if isinstance(message.id, str) else message.id[0])
            message.string = ("",) * len(message.string) if isinstance(message.string, tuple) else ""
    mo.parent.mkdir(parents=True, exist_ok=True)
    tmp = mo.with_name(f".{mo.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        os.replace(tmp, mo)
    finally:
        tmp.unlink(missing_ok=True)


def placeholders(text: str) -> set[tuple[str, str, str]] | None:
    """The ``{fields}`` of a ``str.format`` string: (name, format spec, conversion); None when its
    braces do not pair (then it is no format string).  ``tools/i18n.py check`` compares these.

    >>> sorted(placeholders("{n} games in {t:.1f} s {{not one}}"))
    [('n', '', ''), ('t', '.1f', '')]
    """
    try:
        return {(name, spec or "", conv or "") for _, name, spec, conv in string.Formatter().parse(text)
                if name is not None}
    except ValueError:
        return None


def _names(text: str) -> set[str] | None:
    """The field names of a ``str.format`` string (``{seat.name}``: ``seat``); None when its
    braces do not pair."""
    fields = placeholders(text)
    return None if fields is None else {name.split(".")[0].split("[")[0] for name, _, _ in fields}


def placeholders_fit(source: str | Sequence[str], translation: str | Sequence[str]) -> bool:
    """Whether every form of ``translation`` names only ``{placeholders}`` the source message
    (its singular and plural) names, with braces that pair: what ``.format(**fields)`` on the
    screen needs not to fail.  A translation may leave a placeholder out (Ukrainian "одна" for
    "{n} point").  A source that is no format string (its braces do not pair) fits anything.

    >>> placeholders_fit("{name} wins", "{name} виграє"), placeholders_fit("{name} wins", "{nmae} виграє")
    (True, False)
    >>> placeholders_fit(("a point", "{n} points"), ("одне", "{n} очки", "{n} очок")), placeholders_fit("x", "{")
    (True, False)
    """
    sources = [source] if isinstance(source, str) else list(source)
    forms = [translation] if isinstance(translation, str) else list(translation)
    allowed: set[str] = set()
    for s in sources:
        names = _names(s)
        if names is None:
            return True
        allowed |= names
    for form in forms:
        if not form:
            continue
        names = _names(form)
        if names is None or not names <= allowed:
            return False
    return True


def cache_dir() -> Path:
    """Where a source checkout's catalogs compiled at run time go: ``$XDG_CACHE_HOME`` (else
    ``~/.cache``) ``/focus-arcade/locale``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "focus-arcade" / "locale"


def _source_checkout() -> bool:
    """Whether the package runs from a source checkout (an editable install, the tests), where
    a translator edits the ``.po`` files, rather than from a built wheel."""
    return (LOCALE_DIR.parents[1] / "pyproject.toml").is_file()


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return -1.0


def _compiled(code: str) -> Path | None:
    """The ``.mo`` file to read for ``code``: the shipped one, or in a source checkout whose
    ``.po`` is newer (or has no ``.mo`` yet), one compiled now into :func:`cache_dir`."""
    mo = catalog_path(code)
    po = mo.with_suffix(".po")
    if _source_checkout() and po.is_file() and _mtime(po) > _mtime(mo):
        fresh = cache_dir() / code / "LC_MESSAGES" / mo.name
        if _mtime(fresh) >= _mtime(po):
            return fresh
        try:
            compile_catalog(po, fresh)
            return fresh
        except ImportError:
            log.warning("%s is newer than its compiled catalog and Babel is not installed to compile it: "
                        "run `pip install -e '.[test]'` or `python tools/i18n.py compile`", po)
        except (OSError, ValueError) as exc:
            log.warning("%s could not be compiled: %s", po, exc)
    return mo if mo.is_file() else None


def _catalog(code: str) -> gettext.NullTranslations:
    with _lock:
        cat = _catalogs.get(code)
        if cat is None:
            path = _compiled(code) if code != SOURCE else None
            cat = gettext.NullTranslations()
            if path is not None:
                try:
                    with path.open("rb") as f:
                        read = gettext.GNUTranslations(f)
                    for n in range(200):        # a Plural-Forms rule such as n/0 fails on every count
                        read.plural(n)  # type: ignore[attr-defined]
                    cat = read
                except (OSError, ValueError, struct.error, ArithmeticError) as exc:
                    # a damaged file (cut short: struct.error): English, and a word in the log
                    log.warning("the catalog %s does not read: %s; showing English", path, exc)
            _catalogs[code] = cat
        return cat


def forget_catalogs() -> None:
    """Read the catalogs again when next used (after ``tools/i18n.py compile``, in tests)."""
    with _lock:
        _catalogs.clear()
        _translators.clear()


def translator(code: str | None) -> Translator:
    """The messages of ``code`` (a code or locale name; unknown or None: English), without
    changing the language the cabinet speaks (:func:`use`).

    >>> translator("en-GB").ngettext("{n} game", "{n} games", 2), translator("fr").code
    ('{n} games', 'en')
    """
    made = _translators.get(code) if code else None      # the language spoken now: every string of a frame
    if made is not None:
        return made
    found = normalise(code) or SOURCE
    made = _translators.get(found)
    if made is None:
        cat = _catalog(found)
        plural: Callable[[int], int] = getattr(cat, "plural", _english_plural)
        nplurals = max(plural(n) for n in range(200)) + 1
        made = Translator(found, cat.gettext, cat.ngettext, cat.pgettext, plural, nplurals)
        _translators[found] = made
    return made


def normalise(code: str | None) -> str | None:
    """A language code or locale name (``"uk"``, ``"uk_UA.UTF-8"``, ``"en-GB"``) -> a code of
    :data:`LANGUAGES`, or None when the arcade does not speak it.

    >>> normalise("uk_UA.UTF-8"), normalise("en-GB"), normalise("fr"), normalise(None)
    ('uk', 'en', None, None)
    """
    if not code:
        return None
    base = code.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return base if base in LANGUAGES else None


def system_language(environ: dict[str, str] | None = None) -> str:
    """The language the system's locale asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, in the
    order gettext reads them), else English."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in env.get(var, "").split(":"):
            found = normalise(part)
            if found:
                return found
    return SOURCE


def accepted_language(header: str | None) -> str:
    """The language of :data:`LANGUAGES` a browser prefers, from its ``Accept-Language``
    header (RFC 9110 12.5.4): the highest q-value wins, the first listed among equals; ``*``
    stands for English; a language with ``q=0`` is refused.  English when none is spoken here.  Only the header's first
    1,000 characters are read (a browser sends a few dozen; a longer one is a hostile client).

    >>> accepted_language("de-DE,de;q=0.9,uk;q=0.8,en;q=0.7")
    'uk'
    >>> accepted_language("en-US;q=0.8,uk-UA;q=0.9"), accepted_language("fr, *;q=0.1"), accepted_language(None)
    ('uk', 'en', 'en')
    """
    best, best_q = SOURCE, 0.0
    for item in (header or "")[:1000].split(","):
        tag, _sep, params = item.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
                q = q if 0.0 <= q <= 1.0 else 0.0     # NaN too
        code = SOURCE if tag.strip() == "*" else normalise(tag)
        if code is not None and q > best_q:
            best, best_q = code, q
    return best


def use(code: str | None) -> str:
    """Speak ``code`` from now on (None or an unknown code: English); returns the code used."""
    global _current
    _current = normalise(code) or SOURCE
    return _current


def current() -> str:
    """The code of the language spoken now."""
    return _current


def _(message: str) -> str:
    """``message`` in the language spoken now (itself when the catalog lacks it)."""
    if _current == SOURCE:
        return message
    return translator(_current).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` in the language spoken now (Ukrainian has three
    forms: 1 / 2-4 / 5-20; the catalog's Plural-Forms header decides)."""
    if _current == SOURCE:
        return singular if n == 1 else plural
    return translator(_current).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the sense ``context`` gives it (a word with two meanings on screen)."""
    if _current == SOURCE:
        return message
    return translator(_current).pgettext(context, message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog where it is defined; translate it with :func:`_` where
    it is shown."""
    return message


def _speaking(language: str | None) -> Translator:
    """The messages of ``language``, else of the language spoken now."""
    return translator(_current if language is None else language)


def number(value: float, digits: int = 0, group: bool = False, language: str | None = None) -> str:
    """``value`` with ``digits`` decimals as the language writes it: its decimal mark (a comma
    in Ukrainian) and, with ``group``, its digit group separator.  ``language``: a code, else
    the language spoken now.  The marks are the catalog's (contexts "decimal mark" and "digit
    group separator"), so a translator sets them with the rest.

    >>> number(1.5, 1), number(12345.678, 2, group=True), number(1.5, 1, language="uk")
    ('1.5', '12,345.68', '1,5')
    """
    tr = _speaking(language)
    text = f"{value:,.{digits}f}" if group else f"{value:.{digits}f}"
    # TRANSLATORS: the character between the whole part of a number and its decimals ("1.5" in English).
    mark = tr.pgettext("decimal mark", ".")
    # TRANSLATORS: the character between groups of three digits ("12,345" in English); a no-break space in many languages.
    separator = tr.pgettext("digit group separator", ",")
    return "".join(mark if ch == "." else separator if ch == "," else ch for ch in text)


def seconds(value: float, digits: int = 1, language: str | None = None) -> str:
    """A time in seconds as the screens show it ("1.5 s"; Ukrainian "1,5 с").

    >>> seconds(1.5), seconds(30, 0), seconds(1.5, language="uk")
    ('1.5 s', '30 s', '1,5 с')
    """
    _ = _speaking(language).gettext
    # TRANSLATORS: a time in seconds; {seconds} is the number, already written with the language's decimal mark.
    return _("{seconds} s").format(seconds=number(value, digits, language=language))


def milliseconds(value: float, digits: int = 1, language: str | None = None) -> str:
    """A time in milliseconds as the screens show it ("12.4 ms"; Ukrainian "12,4 мс").

    >>> milliseconds(12.4), milliseconds(12.4, language="uk")
    ('12.4 ms', '12,4 мс')
    """
    _ = _speaking(language).gettext
    # TRANSLATORS: a time in milliseconds; {ms} is the number, already written with the language's decimal mark.
    return _("{ms} ms").format(ms=number(value, digits, language=language))
