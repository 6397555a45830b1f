"""Where the benchmarks' lasting inputs live, and a reader that takes them
plain or xz-compressed.

The perfect-play set and the two self-play corpora that shipped files were
fitted on are fixtures of the tests, under ``tests/data/`` (xz-compressed;
``tests/data/manifest.json`` gives each one's source, commit and SHA-256).
Other corpora are not kept in the tree: a results note names the commit
whose tree holds one (``git show COMMIT:PATH``) and its SHA-256. Data files
in ``results/`` are kept xz-compressed as well (``results/README.md``).

Imported by the scripts (``import inputs`` once ``benchmarks/`` is on the
path); not a script itself.
"""

from __future__ import annotations

import json
import lzma
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST_DATA = ROOT / "tests" / "data"
EXACT_SET = TEST_DATA / "exact_26_34.jsonl.xz"  # positions 26-34 spaces from the end, every move valued
CORPUS_2000 = TEST_DATA / "selfplay_2000.jsonl.xz"  # generation 3's 2,000 games (eval_weights.json's data)
CORPUS_LEATHER = TEST_DATA / "selfplay_leather.jsonl.xz"  # 800 games of e81fd47 (win_probability.json's data)


def read_bytes(path: Path | str) -> bytes:
    """The content of ``path``, decompressed when its name ends in .xz."""
    path = Path(path)
    raw = path.read_bytes()
    return lzma.decompress(raw) if path.suffix == ".xz" else raw


def read_jsonl(path: Path | str) -> list[dict]:
    """The JSON objects of a one-object-a-line file, plain or .xz."""
    return [json.loads(line) for line in read_bytes(path).decode().splitlines() if line.strip()]


def read_corpus(path: Path | str) -> list[dict]:
    """The records of a self-play corpus, plain or .xz, read by
    ``patchsolve.arena.selfplay.read_corpus`` (an .xz file from a decompressed
    copy in a temporary folder)."""
    from patchsolve.arena.selfplay import read_corpus as read_plain

    path = Path(path)
    if path.suffix != ".xz":
        return read_plain(path)
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / path.stem
        plain.write_bytes(read_bytes(path))
        return read_plain(plain)
