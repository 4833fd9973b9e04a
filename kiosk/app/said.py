"""Words for the screen that keep their English original for the journal (issue 26).

The screens speak the chosen language; the journal stays English for the technician, so
``journalctl -u focus-arcade | grep 'Event off'`` finds a note whatever language the screen
showed it in.  :func:`_`, :func:`ngettext` and :func:`pgettext` here are ``arcade.i18n``'s
with the fields filled in, and give a :class:`Said`: the words in the language spoken now that
also carry :attr:`Said.english`.  ``Messages.add`` (kiosk/app/messages.py) writes that to the
journal::

    from kiosk.app import said
    app.message(said._("Event off: {error}", error=exc))
    app.message(said.ngettext("Wrong PIN ({n} try left)", "Wrong PIN ({n} tries left)", left, n=left))

The catalog's extractor (tools/i18n.py) takes the messages from these calls as from
``arcade.i18n``'s.  A field that is itself a :class:`Said` ("locked for {time}", the time said
with :func:`ngettext`) goes into each language's words in that language.  No pygame here: the
service's pure modules (kiosk/service/power.py, kiosk/service/tools.py) use it too.
"""

from __future__ import annotations

from arcade import i18n


class Said(str):
    """Words as shown (in the language spoken when they were made) with :attr:`english`, the
    same words in English (for the journal).

    >>> s = Said("Подію вимкнено", "Event off")
    >>> s, s.english, english(s), english("plain")
    ('Подію вимкнено', 'Event off', 'Event off', 'plain')
    """

    english: str

    def __new__(cls, shown: str, english: str) -> Said:
        made = super().__new__(cls, shown)
        made.english = english
        return made


def english(text: str) -> str:
    """The English words of ``text`` (a :class:`Said`'s :attr:`~Said.english`; any other string
    as it is)."""
    return getattr(text, "english", text)


def _fill(shown: str, source: str, fields: dict[str, object]) -> Said:
    if not fields:
        return Said(shown, source)
    return Said(shown.format(**fields), source.format(**{k: english(v) if isinstance(v, str) else v
                                                         for k, v in fields.items()}))


def _(message: str, /, **fields: object) -> Said:
    """``message`` in the language spoken now with ``fields`` filled in (``str.format``),
    keeping the English.

    >>> _("Event off: {error}", error="no broker").english
    'Event off: no broker'
    """
    return _fill(i18n._(message), message, fields)


def ngettext(singular: str, plural: str, n: int, /, **fields: object) -> Said:
    """The form of a message for the count ``n`` (``arcade.i18n.ngettext``) with ``fields``
    filled in, keeping the English form.

    >>> ngettext("{n} minute", "{n} minutes", 2, n=2).english
    '2 minutes'
    """
    return _fill(i18n.ngettext(singular, plural, n), singular if n == 1 else plural, fields)


def pgettext(context: str, message: str, /, **fields: object) -> Said:
    """``message`` in the sense ``context`` gives it (``arcade.i18n.pgettext``) with ``fields``
    filled in, keeping the English."""
    return _fill(i18n.pgettext(context, message), message, fields)
