#!/usr/bin/env python3
"""The translation catalogs' one command (issue 26; README, "Adding a language").

    python tools/i18n.py extract   the template arcade/locale/focus_arcade.pot from the source
    python tools/i18n.py update    extract, then every catalog (.po) brought in line with it:
                                   new messages added untranslated, those the source lost removed
    python tools/i18n.py compile   every .po compiled to the .mo beside it (the wheel's build and
                                   ``pip install -e`` do this by themselves: setup.py)
    python tools/i18n.py check [CODE]  every problem of every catalog (or CODE's), and whether the
                                   template is current; mistakes (a placeholder, a plural form) before
                                   messages not translated yet; status 1 when there is one
                                   (tests/test_i18n_catalogs.py)
    python tools/i18n.py init CODE a new language's catalog from the template (its header: the
                                   language, its plural forms from Babel's locale data)
    python tools/i18n.py tidy      after a merge of two translators' additions (``*.po merge=union``,
                                   .gitattributes): a blank line between entries run together, an
                                   entry written twice with the same translation kept once (one
                                   written twice with two translations is left for a person: check)

Messages are taken from ``arcade/``, ``kiosk/``, ``hardware/`` and ``firmware_bridge/`` by
Babel's Python extractor, from the calls ``_("...")``, ``N_("...")``,
``ngettext("one", "many", n)`` and ``pgettext("context", "...")`` (:data:`KEYWORDS`), with the
comment on the line before a call that starts with ``TRANSLATORS:`` as a note to the translator.
The files name where each message is used (the file, no line numbers: they change with every
edit).  Needs Babel (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import ast
import gettext
import io
import sys
from pathlib import Path
from typing import Iterable

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:           # run as ``python tools/i18n.py``: the checkout's own arcade
    sys.path.insert(0, str(ROOT))
from arcade.i18n import DOMAIN, compile_catalog, forget_catalogs, placeholders  # noqa: E402

#: The folders whose Python files hold the messages.
SOURCES = ("arcade", "kiosk", "hardware", "firmware_bridge")
#: The translating calls and which arguments are the message (Babel's keyword spec: ``ngettext:1,2``,
#: ``pgettext:1c,2``).
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
COMMENT_TAGS = ("TRANSLATORS:",)


def locale_dir(root: Path = ROOT) -> Path:
    return root / "arcade" / "locale"


def template_path(root: Path = ROOT) -> Path:
    return locale_dir(root) / f"{DOMAIN}.pot"


def catalog_paths(root: Path = ROOT) -> list[Path]:
    """Every catalog: ``arcade/locale/<code>/LC_MESSAGES/focus_arcade.po``."""
    return sorted(locale_dir(root).glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def source_files(root: Path = ROOT) -> list[Path]:
    """The Python files messages are taken from, in a fixed order."""
    return sorted(p for folder in SOURCES for p in (root / folder).rglob("*.py")
                  if "__pycache__" not in p.parts)


def extract(root: Path = ROOT) -> Catalog:
    """Every message of the source, as a template catalog (no translations)."""
    template = Catalog(project="focus-arcade", domain=DOMAIN, fuzzy=False, charset="utf-8")
    for path in source_files(root):
        rel = path.relative_to(root).as_posix()
        for lineno, message, comments, context in extract_from_file(
                "python", path, keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True):
            template.add(message, None, [(rel, lineno)], auto_comments=comments, context=context)
    return template


def _text(catalog: Catalog, omit_header: bool = False) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=omit_header, include_lineno=False, ignore_obsolete=True)
    return out.getvalue()


def template_current(template: Catalog, root: Path = ROOT) -> bool:
    """Whether the template file holds the messages of ``template`` (its header aside)."""
    try:
        with template_path(root).open("rb") as f:
            kept = read_po(f)
    except OSError:
        return False
    return _text(kept, omit_header=True) == _text(template, omit_header=True)


def write_template(template: Catalog, root: Path = ROOT) -> bool:
    """Write the template file unless it is current already (its date then stays); True if written."""
    if template_current(template, root):
        return False
    template_path(root).write_bytes(_text(template))
    return True


def _key(message: Message) -> tuple[str | None, str]:
    msgid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
    return message.context, str(msgid)


def _name(key: tuple[str | None, str]) -> str:
    context, msgid = key
    return f"{msgid!r}" + (f" (context {context!r})" if context else "")


def _blocks(text: str) -> Iterable[tuple[int, str]]:
    """The entries of a catalog's text as written, one per block of lines between blank lines:
    (the block's first line number, its text)."""
    start, lines = 1, list[str]()
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            if not lines:
                start = n
            lines.append(line)
        elif lines:
            yield start, "\n".join(lines) + "\n"
            lines = []
    if lines:
        yield start, "\n".join(lines) + "\n"


def _languages(root: Path) -> dict[str, str]:
    """:data:`arcade.i18n.LANGUAGES` of the tree at ``root``, read from its source (not imported:
    ``root`` may be another checkout)."""
    tree = ast.parse((root / "arcade" / "i18n.py").read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "LANGUAGES":
            assert node.value is not None
            value = ast.literal_eval(node.value)
            assert isinstance(value, dict)
            return value
    raise LookupError("arcade/i18n.py has no LANGUAGES")


def catalog_problems(po: Path, template: Catalog, languages: dict[str, str] | None = None,
                     root: Path = ROOT) -> list[str]:
    """Every problem of the catalog ``po`` against the messages of the source (``template``): a
    message missing or untranslated (each plural form: the catalog's Plural-Forms says how many),
    fuzzy, twice in the file, with other ``{placeholders}`` than the source's, or one the source
    no longer has; a header without the language or its plural forms; two entries without a
    blank line between them (a merge of two translators' additions could mix their lines)."""
    code = po.parent.parent.name
    where = (po.relative_to(root) if po.is_relative_to(root) else po).as_posix()
    problems: list[str] = []
    text = po.read_text("utf-8")
    try:
        catalog = read_po(io.StringIO(text), locale=None, abort_invalid=True)
    except Exception as exc:            # Babel's PoFileError, a bad header...
        return [f"{where}: does not read as a catalog: {exc}"]
    if languages is not None and code not in languages:
        problems.append(f"{where}: {code!r} is not in LANGUAGES (arcade/i18n.py): the arcade never shows it")
    language = str(catalog.locale) if catalog.locale else ""
    header = dict(catalog.mime_headers)
    if language.split("_")[0] != code and header.get("Language", "").split("_")[0] != code:
        problems.append(f"{where}: its header says Language: {header.get('Language', '')!r}, expected {code!r}")
    if "Plural-Forms" not in header:
        problems.append(f"{where}: its header has no Plural-Forms line (how many forms a count takes)")
    if catalog.fuzzy:
        problems.append(f"{where}: its header is marked fuzzy (gettext ignores the catalog's plural forms)")
    # entries as written: twice, or two in one block
    seen: dict[tuple[str | None, str], int] = {}
    blocks = list(_blocks(text))
    # each entry read under the file's header (its plural forms), when the file starts with one
    first = blocks[0][1].splitlines() if blocks else []
    header_block = blocks[0][1] if 'msgid ""' in first and any("Content-Type:" in ln for ln in first) else ""
    for line, block in blocks:
        try:
            part = read_po(io.StringIO(block if block is header_block else header_block + "\n" + block), locale=None)
        except Exception as exc:
            problems.append(f"{where}:{line}: an entry that does not read: {exc}")
            continue
        keys = [_key(m) for m in part if m.id] + [_key(m) for m in part.obsolete.values()]
        if len(keys) > 1:
            problems.append(f"{where}:{line}: {len(keys)} entries without a blank line between them")
        for key in keys:
            if key in seen:
                problems.append(f"{where}:{line}: {_name(key)} is in the catalog twice (also line {seen[key]})")
            else:
                seen[key] = line
    expr = catalog.plural_expr
    try:
        plural = gettext.c2py(expr)
    except ValueError:
        problems.append(f"{where}: its Plural-Forms expression does not read: {expr!r}")
        plural = gettext.c2py("n != 1")
    # a plural form used for a count other than 1 carries the plural's fields; one for 1 alone, the singular's
    not_one_forms = {plural(n) for n in range(200) if n != 1}
    wanted = {_key(m): m for m in template if m.id}
    have = {_key(m): m for m in catalog if m.id}
    for key in wanted:
        if key not in have:
            problems.append(f"{where}: {_name(key)} is missing (python tools/i18n.py update adds it)")
    for key, message in have.items():
        name = _name(key)
        source = wanted.get(key)
        if source is None:
            problems.append(f"{where}: {name} is not in the source any more: remove it "
                            f"(python tools/i18n.py update removes it)")
            continue
        if message.fuzzy:
            problems.append(f"{where}: {name} is marked fuzzy: check the translation, then remove the mark")
        ids = list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]
        if isinstance(source.id, (list, tuple)) != (len(ids) > 1):
            problems.append(f"{where}: {name}: the source counts it (ngettext) and the catalog does not, or "
                            f"the other way round")
            continue
        forms = list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]
        if len(ids) > 1 and len(forms) != catalog.num_plurals:
            problems.append(f"{where}: {name} has {len(forms)} plural forms, the language has {catalog.num_plurals}")
        singular, many = placeholders(ids[0]), placeholders(ids[-1])
        for i, form in enumerate(forms):
            label = f"{name}" + (f" form {i} (msgstr[{i}])" if len(ids) > 1 else "")
            if not form:
                problems.append(f"{where}: {label} is not translated")
                continue
            expected = singular if (len(ids) == 1 or i not in not_one_forms) else many
            got = placeholders(form)
            if expected is not None and got != expected:
                want = ", ".join(sorted("{" + f[0] + (":" + f[1] if f[1] else "") + "}" for f in expected)) or "none"
                problems.append(f"{where}: {label}: {form!r} has other placeholders than the source "
                                f"(expected {want})")
    for old in catalog.obsolete:
        problems.append(f"{where}: {_name((None, str(old if not isinstance(old, tuple) else old[0])))} is "
                        f"kept as obsolete (#~): remove it (python tools/i18n.py update removes it)")
    return problems


def unmarked_calls(root: Path = ROOT) -> list[str]:
    """Calls of the translating functions whose message the extractor cannot take: an f-string,
    a ``+`` or ``%`` expression, a ``.format()`` inside the call (translate the pattern, then fill
    it in: ``_("{n} s").format(n=...)``).  A name (a string marked with N_) is fine."""
    out = []
    for path in source_files(root):
        tree = ast.parse(path.read_text("utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name not in KEYWORDS:
                continue
            for arg in node.args:
                bad = isinstance(arg, (ast.JoinedStr, ast.BinOp)) or (
                    isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "format")
                if bad:
                    out.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: {name}() of "
                               f"{ast.unparse(arg)[:60]}: the catalog cannot hold it")
    return out


def _gap(problem: str) -> bool:
    """A message not translated yet (shown in English: harmless) rather than a mistake that
    changes what a screen shows (a placeholder, a plural header, an entry that does not read)."""
    return "not translated" in problem or "is missing" in problem


def check(root: Path = ROOT, only: str | None = None) -> list[str]:
    """Every problem: the template, each catalog (``only``: that language's alone), the calls no
    catalog can hold, a language of LANGUAGES without a catalog.  In each catalog the mistakes
    come first, the messages not translated yet after them."""
    template = extract(root)
    languages = _languages(root)
    problems = [] if template_current(template, root) else [
        f"{template_path(root).relative_to(root).as_posix()} is not current: python tools/i18n.py extract"]
    problems += unmarked_calls(root)
    paths = catalog_paths(root)
    codes = {p.parent.parent.name for p in paths}
    problems += [f"LANGUAGES has {code!r} and arcade/locale/{code}/LC_MESSAGES/{DOMAIN}.po is missing"
                 for code in languages if code != "en" and code not in codes]
    for po in paths:
        if only is None or po.parent.parent.name == only:
            problems += sorted(catalog_problems(po, template, languages, root), key=_gap)
    return problems


def update(root: Path = ROOT) -> list[Path]:
    """Extract, then bring each catalog in line with the template; returns the catalogs changed."""
    template = extract(root)
    write_template(template, root)
    changed = []
    for po in catalog_paths(root):
        with po.open("rb") as f:
            catalog = read_po(f, abort_invalid=True)
        before = _text(catalog)
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        after = _text(catalog)
        if after != before:
            po.write_bytes(after)
            changed.append(po)
    return changed


def init(code: str, root: Path = ROOT) -> Path:
    """A new catalog for the language ``code`` (ISO 639-1, "pl") from the current template: every
    message untranslated, the header's Language and Plural-Forms filled in from Babel's locale data.

    Raises:
        FileExistsError: the language has a catalog already (``update`` brings it in line).
        ValueError: Babel knows no such language.
    """
    from datetime import UTC, datetime

    from babel import Locale, UnknownLocaleError

    try:
        locale = Locale.parse(code)
    except (UnknownLocaleError, ValueError) as exc:
        raise ValueError(f"{code!r}: not a language code Babel knows ({exc})") from None
    po = locale_dir(root) / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if po.exists():
        raise FileExistsError(f"{po.relative_to(root)} exists: python tools/i18n.py update brings it in line")
    template = extract(root)
    write_template(template, root)
    catalog = Catalog(locale=locale, project="focus-arcade", domain=DOMAIN, fuzzy=False, charset="utf-8",
                      revision_date=datetime.now(UTC))
    for message in template:
        if message.id:
            catalog.add(message.id, None, message.locations, auto_comments=message.auto_comments,
                        context=message.context)
    po.parent.mkdir(parents=True, exist_ok=True)
    po.write_bytes(_text(catalog))
    return po


def _entry_starts(lines: list[str]) -> list[int]:
    """The line indexes where an entry starts: its first comment, ``msgctxt`` or ``msgid`` line
    after the previous entry's ``msgstr`` (or after a blank line)."""
    starts, in_msgstr, fresh = [], False, True
    for i, line in enumerate(lines):
        s = line.strip()
        if not s:
            in_msgstr, fresh = False, True
            continue
        begins = s.startswith(("#", "msgctxt", "msgid ")) and (in_msgstr or fresh)
        if begins:
            starts.append(i)
            in_msgstr, fresh = False, False
        if s.startswith("msgstr"):
            in_msgstr = True
        elif not s.startswith('"'):
            in_msgstr = False if not s.startswith("msgstr") else in_msgstr
    return starts


def tidy(po: Path) -> tuple[int, int]:
    """Entries of ``po`` run together get a blank line between them; an entry written twice with
    the same translation is kept once (the first).  Returns (entries separated, copies dropped)."""
    lines = po.read_text("utf-8").splitlines()
    starts = _entry_starts(lines) + [len(lines)]
    entries = ["\n".join(ln for ln in lines[a:b] if ln.strip()) for a, b in zip(starts, starts[1:])]
    head = "\n".join(lines[:starts[0]]).strip()
    run_together = sum(1 for a in starts[1:-1] if a > 0 and lines[a - 1].strip())
    kept: list[str] = []
    seen: set[str] = set()
    for entry in entries:
        body = "\n".join(ln for ln in entry.splitlines() if not ln.startswith("#"))
        if body in seen:
            continue
        seen.add(body)
        kept.append(entry)
    text = "\n\n".join(([head] if head else []) + kept) + "\n"
    if text != po.read_text("utf-8"):
        po.write_text(text, "utf-8")
    return run_together, len(entries) - len(kept)


def compile_all(root: Path = ROOT) -> list[Path]:
    """Every catalog compiled to the ``.mo`` beside it (``arcade.i18n.compile_catalog``)."""
    out = []
    for po in catalog_paths(root):
        mo = po.with_suffix(".mo")
        compile_catalog(po, mo)
        out.append(mo)
    forget_catalogs()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tools/i18n.py", description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("command", choices=["extract", "update", "compile", "check", "init", "tidy"])
    p.add_argument("code", nargs="?", help="init: the new language's code (ISO 639-1, e.g. pl); check: only that language")
    args = p.parse_args(argv)
    if args.command == "init" and not args.code:
        p.error("init takes the language's code (python tools/i18n.py init pl)")
    if args.code and args.command not in ("init", "check"):
        p.error("only init and check take a language's code")
    if args.command == "extract":
        template = extract()
        wrote = write_template(template)
        print(f"{template_path().relative_to(ROOT)}: {sum(1 for m in template if m.id)} messages"
              + ("" if wrote else " (already current)"))
    elif args.command == "update":
        changed = update()
        for po in catalog_paths():
            print(f"{po.relative_to(ROOT)}" + (": updated" if po in changed else ": already current"))
    elif args.command == "init":
        try:
            po = init(args.code)
        except (FileExistsError, ValueError) as exc:
            print(f"tools/i18n.py: {exc}", file=sys.stderr)
            return 2
        print(f"{po.relative_to(ROOT)}: {sum(1 for m in extract() if m.id)} messages to translate; add "
              f'"{args.code}" and its name, as its speakers write it, to LANGUAGES in arcade/i18n.py')
    elif args.command == "tidy":
        for po in catalog_paths():
            apart, dropped = tidy(po)
            print(f"{po.relative_to(ROOT)}: {apart} entries set apart, {dropped} copies dropped")
    elif args.command == "compile":
        for mo in compile_all():
            print(f"compiled {mo.relative_to(ROOT)}")
    else:
        problems = check(only=args.code)
        for line in problems:
            print(line)
        per = []
        for po in catalog_paths():
            code = po.parent.parent.name
            if args.code in (None, code):
                mine = [x for x in problems if x.startswith(po.relative_to(ROOT).as_posix())]
                gaps = sum(1 for x in mine if _gap(x))
                per.append(f"{code}: {len(mine) - gaps} mistake(s), {gaps} not translated yet")
        print(f"{len(problems)} problem(s); " + "; ".join(per))
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
