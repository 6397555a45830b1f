"""The data files the tests read: all under tests/data/, each listed in
tests/data/manifest.json with what it is and, for a copy of a larger file,
where it came from and the SHA-256 of its content (test_data_files.py checks
both). The large ones are xz-compressed; read them through these helpers."""

from __future__ import annotations

import json
import lzma
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
MANIFEST = json.loads((DATA / "manifest.json").read_text())


def data_bytes(name: str) -> bytes:
    """The content of tests/data/``name``, decompressed when it ends in .xz."""
    raw = (DATA / name).read_bytes()
    return lzma.decompress(raw) if name.endswith(".xz") else raw


def read_jsonl(name: str) -> list[dict]:
    """The JSON objects of a one-object-a-line file in tests/data/."""
    return [json.loads(line) for line in data_bytes(name).decode().splitlines() if line.strip()]


_TMP = tempfile.TemporaryDirectory(prefix="patchsolve-tests-")


def corpus(name: str) -> list[dict]:
    """The records of a self-play corpus in tests/data/, read as a user reads
    a corpus file (``patchsolve.arena.selfplay.read_corpus``) from its decompressed
    copy in a temporary folder."""
    from patchsolve.arena.selfplay import read_corpus

    path = Path(_TMP.name) / name.removesuffix(".xz")
    path.write_bytes(data_bytes(name))
    return read_corpus(path)
