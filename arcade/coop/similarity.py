"""The association table of the 168 exhibit faces (what calls what to mind).

Built offline by ``tools/build_similarity.py`` from a real language model's
sentence embeddings together with the faces' tags, and shipped as the small
file ``arcade/coop/data/similarity.json`` (one byte per pair of faces), so the
arcade needs no model at run time.  Standard library only.

``load_table()`` reads the shipped file and checks that it was built from the
exhibits as they are now (``exhibits_sha256_12``, :func:`exhibits_digest`);
``tag_table()`` is a tags-only table (no model) for comparison and as the
fallback of :func:`default_table`, which never stops a game: a missing, damaged
or stale file gives the tags table, and :func:`table_problem` says why (the
kiosk shows it on screen and logs it).  ``SimilarityTable.from_rows`` builds a
table from any matrix (tests).
"""

from __future__ import annotations

import base64
import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from arcade.coop.exhibits import EXHIBITS, FACES
from arcade.core.errors import ArcadeError

DATA_FILE = Path(__file__).with_name("data") / "similarity.json"
FORMAT = "focus-arcade/coop-similarity/1"


class SimilarityError(ArcadeError, ValueError):
    """A similarity file that cannot be read, or a bad table (names the problem)."""


class SimilarityTable:
    """Similarity of faces 1..n, each pair a float 0.0 (unrelated) .. 1.0 (closest).

    ``sim(a, a)`` is 1.0.  Shape: ``rows[a][b]`` with index 0 unused.
    """

    def __init__(self, rows: list[list[float]], source: str = "") -> None:
        self.rows = rows
        self.faces = len(rows) - 1
        self.source = source

    @classmethod
    def from_rows(cls, matrix: Sequence[Sequence[float]], source: str = "matrix") -> "SimilarityTable":
        """From an n x n matrix (row 0 = face 1), values 0..1, symmetric.

        Raises:
            SimilarityError: not square, not symmetric or out of 0..1.
        """
        n = len(matrix)
        if any(len(r) != n for r in matrix):
            raise SimilarityError(f"the matrix must be square, got {n} rows of lengths {sorted({len(r) for r in matrix})}")
        rows = [[0.0] * (n + 1)]
        for i in range(n):
            row = [0.0] + [float(v) for v in matrix[i]]
            row[i + 1] = 1.0
            rows.append(row)
        for i in range(1, n + 1):
            for j in range(1, n + 1):
                if not 0.0 <= rows[i][j] <= 1.0 or abs(rows[i][j] - rows[j][i]) > 1e-9:
                    raise SimilarityError(f"entry ({i},{j}) = {rows[i][j]!r}: expected 0..1 and symmetric")
        return cls(rows, source)

    def similarity(self, a: int, b: int) -> float:
        """Similarity of faces ``a`` and ``b`` (0.0..1.0)."""
        return self.rows[a][b]

    def nearest(self, face: int, k: int = 5) -> list[int]:
        """The ``k`` faces most similar to ``face`` (most similar first, ties by number)."""
        others = [f for f in range(1, self.faces + 1) if f != face]
        return sorted(others, key=lambda f: (-self.rows[face][f], f))[:k]


def decode_pairs(data: bytes, faces: int) -> list[list[float]]:
    """Rows (index 0 unused) from the upper-triangle bytes of the file format.

    Raises:
        SimilarityError: wrong length for ``faces``.
    """
    need = faces * (faces - 1) // 2
    if len(data) != need:
        raise SimilarityError(f"{len(data)} pair bytes: expected {need} for {faces} faces")
    rows = [[0.0] * (faces + 1) for _ in range(faces + 1)]
    k = 0
    for i in range(1, faces + 1):
        rows[i][i] = 1.0
        for j in range(i + 1, faces + 1):
            v = data[k] / 255.0
            rows[i][j] = rows[j][i] = v
            k += 1
    return rows


def exhibits_digest() -> str:
    """SHA-256 (first 12 hex digits) of the faces' numbers, names and tags: what a
    table was built from (stored as ``exhibits_sha256_12``; CO-1 exhibits)."""
    text = "\n".join(f"{e.face}|{e.name}|{' '.join(e.tags)}" for e in EXHIBITS.values())
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def load_table(path: Path | str | None = None) -> SimilarityTable:
    """Read a similarity file (default: the shipped ``data/similarity.json``).

    Raises:
        SimilarityError: missing file, not JSON, wrong format or size, or built
            from other exhibits (its ``exhibits_sha256_12`` differs from
            :func:`exhibits_digest`: rebuild it with tools/build_similarity.py).
    """
    p = Path(path) if path is not None else DATA_FILE
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SimilarityError(f"{p}: no such file; rebuild it with tools/build_similarity.py") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise SimilarityError(f"{p}: cannot be read ({exc})") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise SimilarityError(f"{p}: not a {FORMAT} file")
    faces = raw.get("faces")
    if faces != FACES:
        raise SimilarityError(f"{p}: {faces!r} faces, expected {FACES}")
    digest = exhibits_digest()
    if raw.get("exhibits_sha256_12") != digest:
        raise SimilarityError(f"{p.name} was built from other exhibits (exhibits_sha256_12 "
                              f"{raw.get('exhibits_sha256_12')!r}, the exhibits now {digest!r}); "
                              f"rebuild it with tools/build_similarity.py")
    try:
        data = base64.b64decode(raw["pairs"], validate=True)
    except (KeyError, ValueError) as exc:
        raise SimilarityError(f"{p}: bad 'pairs' ({exc})") from None
    return SimilarityTable(decode_pairs(data, FACES), str(p))


def tag_table() -> SimilarityTable:
    """Tags only: shared tags / the smaller tag set (no language model)."""
    rows = [[0.0] * (FACES + 1) for _ in range(FACES + 1)]
    for a, ea in EXHIBITS.items():
        for b, eb in EXHIBITS.items():
            ta, tb = set(ea.tags), set(eb.tags)
            rows[a][b] = 1.0 if a == b else len(ta & tb) / min(len(ta), len(tb))
    return SimilarityTable(rows, "tags")


@lru_cache(maxsize=1)
def _default() -> tuple[SimilarityTable, str | None]:
    try:
        return load_table(DATA_FILE), None
    except SimilarityError as exc:
        return tag_table(), f"association table not used: {exc}"


def default_table() -> SimilarityTable:
    """The shipped table, read once; if the file is missing, damaged or stale
    (built from other exhibits) the tags-only :func:`tag_table`, so a game
    never stops for it (:func:`table_problem` says why)."""
    return _default()[0]


def table_problem() -> str | None:
    """Why :func:`default_table` fell back to the tags (one sentence), or None."""
    return _default()[1]


def reload_default() -> None:
    """Forget the table read once (after ``DATA_FILE`` changed; tests)."""
    _default.cache_clear()
