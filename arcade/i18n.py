"""The language the arcade speaks: gettext's runtime over the catalogs in ``arcade/locale``.

Every player- and operator-facing string goes through :func:`_` (or :func:`ngettext` for a
count) at the moment it is shown, never at import time, so a change of language (the service
menu, a game night's choice in the lobby) shows on the next frame.  A string kept in a table at
import time is marked with :func:`N_` and translated where it is drawn.

Catalogs: ``arcade/locale/<code>/LC_MESSAGES/focus_arcade.mo``, compiled from the ``.po`` files
beside them at build time (README, "Adding a language").  English is the source language and
needs no catalog; a language with no catalog falls back to English, never to an error.

Standard library only (gettext, locale), like the rest of ``arcade``.
"""
from __future__ import annotations

import gettext
import os
from pathlib import Path

DOMAIN = "focus_arcade"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE = "en"
# Each language's name as its speakers write it (shown in the language chooser).
LANGUAGES: dict[str, str] = {"en": "English", "uk": "Українська"}

_current = SOURCE
_catalogs: dict[str, gettext.NullTranslations] = {}


def _catalog(code: str) -> gettext.NullTranslations:
    cat = _catalogs.get(code)
    if cat is None:
        cat = gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[code], fallback=True)
        _catalogs[code] = cat
    return cat


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
    return _catalog(_current).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` in the language spoken now (Ukrainian has three
    forms: 1 / 2-4 / 5-20; the catalog's Plural-Forms header decides)."""
    if _current == SOURCE:
        return singular if n == 1 else plural
    return _catalog(_current).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the sense ``context`` gives it (a word with two meanings on screen)."""
    if _current == SOURCE:
        return message
    return _catalog(_current).pgettext(context, message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog where it is defined; translate it with :func:`_` where
    it is shown."""
    return message
