"""The learned evaluation's weights: package data (``data/eval_weights.json``,
written by ``patchsolve.training``) loaded into the C module ``_learned``
when the search package is imported. The file holds the feature names, the
weights and the training manifest (data seed, sizes, held-out error); the
names must match the C module's, or the file is refused and the searchers
keep their hand-tuned evaluation. An optional ``patterns`` entry holds the
quilt patterns' tables (``_patterns.TABLES``, two sets ``a`` and ``b`` of
512 values a table)."""

from __future__ import annotations

import json
from importlib import resources

from patchsolve.search import _learned, _patterns

WEIGHTS_FILE = "eval_weights.json"


def read(text: str | None = None) -> dict:
    """The weights file as a dict (``text``: its content; else the package's)."""
    if text is None:
        text = (resources.files("patchsolve") / "data" / WEIGHTS_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if data.get("features") != list(_learned.FEATURES):
        raise ValueError("weights file features do not match the evaluation's")
    if len(data.get("weights", ())) != len(_learned.FEATURES):
        raise ValueError("weights file has the wrong number of weights")
    patterns = data.get("patterns")
    if patterns is not None:
        if patterns.get("tables") != list(_patterns.TABLES):
            raise ValueError("weights file pattern tables do not match the evaluation's")
        size = len(_patterns.TABLES) * 512
        if len(patterns.get("a", ())) != size or len(patterns.get("b", ())) != size:
            raise ValueError("weights file has the wrong number of pattern values")
    return data


def load(text: str | None = None) -> bool:
    """Switch the learned evaluation on with the package's weights (or
    ``text``'s); False (and the hand-tuned evaluation) when there are none."""
    try:
        data = read(text)
    except FileNotFoundError:
        return False
    patterns = data.get("patterns")
    _learned.set_learned(data["weights"], None if patterns is None else (patterns["a"], patterns["b"]))
    return True
