"""The Ukrainian quick-starts (docs/uk/, issue 26): one for every game family the lobby offers,
linked from docs/uk/README.md, each citing only rulings its English rules doc has, and written
in Ukrainian."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arcade import registry

ROOT = Path(__file__).resolve().parent.parent
UK = ROOT / "docs" / "uk"
INDEX = UK / "README.md"
#: A ruling id as the rules docs and the code cite it (FX-3, FXA-17, SL-4, SF-2, CO-6, R-7).
RULING_ID = re.compile(r"\b(?:R|FXA?|CO|SF|SLA?)-\d+\b")
LINK = re.compile(r"\]\(([^)\s]+)\)")
#: What a quick-start tells a party host, in this order of need (the parts the issue asks for).
PARTS = ("Мета", "Що на екрані", "Ваш баззер", "крок за кроком", "Як перемогти", "Варто знати")
#: The least share of Cyrillic among the letters of a page's prose (game names such as FocusX,
#: ThinkFocus or Sherlook stay in Latin letters, as the lobby shows them).
MIN_CYRILLIC = 0.85


def quick_start(family: str) -> Path:
    return UK / f"{family}.md"


def links(path: Path) -> list[str]:
    return [t.split("#")[0] for t in LINK.findall(path.read_text(encoding="utf-8"))]


def english_docs(path: Path) -> list[Path]:
    """The English rules docs a quick-start links to (``../rules-*.md``)."""
    return [(path.parent / t).resolve() for t in links(path) if re.fullmatch(r"\.\./rules-[\w-]+\.md", t)]


def cyrillic_share(text: str) -> float:
    """The share of Cyrillic letters among the letters of ``text``'s prose: code, link targets
    and ruling ids left out."""
    prose = re.sub(r"```.*?```", " ", text, flags=re.S)
    prose = re.sub(r"`[^`]*`", " ", prose)
    prose = LINK.sub(" ", prose)
    prose = RULING_ID.sub(" ", prose)
    letters = [c for c in prose if c.isalpha()]
    return sum("\u0400" <= c <= "\u04ff" for c in letters) / max(1, len(letters))


def readme_rules_docs(family: str) -> set[Path]:
    """The rules docs the main README's games table gives for ``family`` (its row names the
    family as `` `family`: ``)."""
    rows = [line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("|") and f"`{family}`:" in line]
    assert len(rows) == 1, f"README.md's games table has no single row for the family {family!r}"
    return {(ROOT / t).resolve() for t in LINK.findall(rows[0]) if re.fullmatch(r"docs/rules-[\w-]+\.md", t)}


FAMILIES = registry.families()


def test_every_family_in_the_lobby_has_a_quick_start_linked_from_the_index() -> None:
    linked = set(links(INDEX))
    missing = [f for f in FAMILIES if f"{f}.md" not in linked or not quick_start(f).is_file()]
    assert not missing, f"families without a Ukrainian quick-start linked from docs/uk/README.md: {missing}"
    pages = {p.name for p in UK.glob("*.md")} - {"README.md"}
    assert pages <= linked, f"quick-starts the index does not link: {sorted(pages - linked)}"


def test_every_link_of_the_ukrainian_docs_leads_to_a_file() -> None:
    for page in sorted(UK.glob("*.md")):
        for target in links(page):
            if "://" not in target and target:
                assert (page.parent / target).exists(), f"{page.name} links to {target}, which is not there"
    assert "docs/uk/README.md" in (ROOT / "README.md").read_text(encoding="utf-8"), \
        "README.md's docs list does not point to the Ukrainian quick-starts"


@pytest.mark.parametrize("family", FAMILIES)
def test_a_quick_start_cites_only_rulings_of_its_games_english_rules(family: str) -> None:
    page = quick_start(family)
    sources = english_docs(page)
    assert sources, f"{page.name} does not link to the English rules it is written from (../rules-*.md)"
    assert set(sources) <= readme_rules_docs(family), \
        f"{page.name} links rules docs of another game: {[p.name for p in sources]}"
    known = {i for p in sources for i in RULING_ID.findall(p.read_text(encoding="utf-8"))}
    cited = set(RULING_ID.findall(page.read_text(encoding="utf-8")))
    assert cited, f"{page.name} cites no ruling id"
    unknown = sorted(cited - known)
    assert not unknown, f"{page.name} cites rulings its English docs ({[p.name for p in sources]}) lack: {unknown}"


@pytest.mark.parametrize("family", FAMILIES)
def test_a_quick_start_says_what_a_host_reads_aloud_and_stays_short(family: str) -> None:
    text = quick_start(family).read_text(encoding="utf-8")
    leads = "\n".join(line for line in text.splitlines() if line.startswith(("#", "**", "- **")))
    absent = [part for part in PARTS if part not in leads]
    assert not absent, f"{family}.md has no heading or bold lead for: {absent}"
    lines = len(text.splitlines())
    assert 40 <= lines <= 150, f"{family}.md has {lines} lines: a quick-start is about 60-120"


def test_the_ukrainian_docs_are_in_ukrainian() -> None:
    english = cyrillic_share((ROOT / "docs" / "rules-focusx.md").read_text(encoding="utf-8"))
    assert english < 0.1, "the check cannot tell an English page from a Ukrainian one"
    for page in sorted(UK.glob("*.md")):
        share = cyrillic_share(page.read_text(encoding="utf-8"))
        assert share >= MIN_CYRILLIC, f"{page.name}: only {share:.0%} of its letters are Cyrillic"


def test_the_focusx_quick_start_names_the_modes_as_the_lobby_shows_them() -> None:
    """docs/uk/focusx.md named the modes "Classic" and "Duel" while the lobby says "FocusX
    Класика" and "FocusX Дуель" (issue 26's screenshots): a player looks for the words on the
    screen.  Each FocusX mode's lobby name (without "FocusX ") is in it, and the English name of
    a mode the catalog translates is not (nor the FocusX rule's English tag)."""
    from arcade import i18n
    from tests.text_fit import compiled
    compiled("uk")
    uk = i18n.translator("uk")
    text = quick_start("focusx").read_text(encoding="utf-8")
    for spec in map(registry.get, registry.names()):
        if spec.family != "focusx" or spec.mode.endswith("-x"):
            continue
        shown = uk.gettext(spec.label).removeprefix("FocusX ")
        english = spec.label.removeprefix("FocusX ")
        assert shown in text, (spec.name, shown)
        if shown != english:
            assert not re.search(rf"\b{english}\b", text), (spec.name, english)
    rule = uk.gettext("FocusX Classic + FocusX rule").removeprefix(uk.gettext("FocusX Classic"))
    assert rule.strip() in text and "FocusX rule" not in text
