"""Every letter of every catalog is in the fonts the screens draw with (issue 26).

A character the font lacks shows as a box on the TV.  The screens draw with the bundled default
font (pygame-ce's freesansbold) through ``kiosk.render.font`` (never below MIN_TEXT_PX) and
``kiosk.render.any_font`` (any size), regular and bold; every size from 8 to 120 px is checked
in both.  The font draws Cyrillic, but not every character a translator may type: the
Ukrainian apostrophe is written ’ (U+2019) on the TV, because ʼ (U+02BC) is missing, and "№" is
missing too.  A glyph is missing when the font answers with its .notdef box: the metrics and the
picture of a code point no font has (U+0378, unassigned).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pygame
import pytest
from babel.messages.pofile import read_po

from arcade import i18n
from kiosk import render

ROOT = Path(__file__).resolve().parents[1]
SIZES = range(8, 121)
#: Two code points Unicode leaves unassigned: no font has them, so the font draws its .notdef box.
NO_GLYPH = ("\u0378", "\u0379")
#: What to write instead of a character the font lacks.
INSTEAD = {"ʼ": "’ (U+2019, the apostrophe)", "№": '"No." or "#"', "\u202f": "a no-break space (U+00A0)"}


def _picture(font: pygame.font.Font, ch: str) -> bytes:
    return pygame.image.tobytes(font.render(ch, True, (255, 255, 255), (0, 0, 0)), "RGB")


def missing(font: pygame.font.Font, chars: set[str]) -> set[str]:
    """The characters of ``chars`` that ``font`` has no glyph for."""
    box = font.metrics(NO_GLYPH[0])[0]
    assert box == font.metrics(NO_GLYPH[1])[0], "the .notdef probe is not a .notdef box"
    box_picture = _picture(font, NO_GLYPH[0])
    out = set()
    for ch, metrics in zip(sorted(chars), font.metrics("".join(sorted(chars)))):
        if metrics is None or (metrics == box and _picture(font, ch) == box_picture):
            out.add(ch)
    return out


def _texts() -> dict[str, list[str]]:
    """Each text shown on a screen -> where it comes from."""
    texts: dict[str, list[str]] = {}
    for code, name in i18n.LANGUAGES.items():
        texts.setdefault(name, []).append(f"LANGUAGES[{code!r}]")
    for po in sorted(ROOT.glob("arcade/locale/*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            catalog = read_po(f)
        where = po.relative_to(ROOT).as_posix()
        for m in catalog:
            if not m.id:
                continue
            shown = [*(m.id if isinstance(m.id, tuple) else [m.id]),
                     *(m.string if isinstance(m.string, tuple) else [m.string])]
            for text in shown:
                if text:
                    texts.setdefault(text, []).append(f"{where}: {m.id if isinstance(m.id, str) else m.id[0]!r}")
    return texts


def _report(lacking: dict[str, set[str]], texts: dict[str, list[str]]) -> list[str]:
    lines = []
    for ch, fonts in sorted(lacking.items()):
        uses = [w for text, where in texts.items() if ch in text for w in where]
        name = unicodedata.name(ch, "?")
        instead = f"; write {INSTEAD[ch]} instead" if ch in INSTEAD else ""
        lines.append(f"{ch!r} (U+{ord(ch):04X} {name}) has no glyph in {len(fonts)} font(s) such as "
                     f"{sorted(fonts)[0]}{instead}; used in {uses[:3]}")
    return lines


def _lacking(texts: dict[str, list[str]]) -> dict[str, set[str]]:
    chars = {ch for text in texts for ch in text if ch not in "\n\t"}
    lacking: dict[str, set[str]] = {}
    pygame.font.init()
    for size in SIZES:
        for bold in (False, True):
            for kind, font in (("font", render.font(size, bold)), ("any_font", render.any_font(size, bold))):
                for ch in missing(font, chars):
                    lacking.setdefault(ch, set()).add(f"render.{kind}({size}, bold={bold})")
    return lacking


def test_every_character_of_every_catalog_has_a_glyph_at_every_size_and_weight() -> None:
    texts = _texts()
    assert any("Українська" in t for t in texts)
    problems = _report(_lacking(texts), texts)
    assert problems == [], "\n".join(problems)


def test_the_check_finds_a_character_the_font_lacks() -> None:
    """The Ukrainian letters are found; the modifier apostrophe, "№" and a CJK character are
    not, in every size and weight (so a clean result above means something)."""
    texts = {"Гравець №1 — з’їв ґудзик, м’ята «Їжак»": ["a.po: 'Player #1'"], "обʼєкт": ["a.po: 'object'"],
             "一": ["a.po: 'one'"]}
    lacking = _lacking(texts)
    assert set(lacking) == {"№", "ʼ", "一"}
    assert all(len(fonts) == len(SIZES) * 4 for fonts in lacking.values())
    report = "\n".join(_report(lacking, texts))
    assert "'ʼ' (U+02BC MODIFIER LETTER APOSTROPHE) has no glyph" in report
    assert "write ’ (U+2019, the apostrophe) instead; used in [\"a.po: 'object'\"]" in report


@pytest.mark.parametrize("bold", [False, True])
def test_the_screens_fonts_draw_ukrainian_letters_as_letters(bold: bool) -> None:
    """The check's premise on the real font: each Ukrainian letter is a glyph of its own."""
    pygame.font.init()
    font = render.font(40, bold)
    letters = "абвгґдеєжзиіїйклмнопрстуфхцчшщьюяАБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯ’"
    assert missing(font, set(letters)) == set()
    assert len({_picture(font, ch) for ch in letters}) == len(letters)
