"""Fit the learned evaluation to self-play outcomes, measure it against the
hand-tuned evaluation on the same held-out games, and write the weights
file with its manifest.

Model: final margin for the player to move = margin now + w . FEATURES
(``_learned.FEATURES``), fitted by ridge-regularised least squares on the
training games. The target is the final margin, or (``outcome`` < 1) a
blend with the self-play search's own score of the position, which carries
less of the noise of the moves still to come; the held-out error is always
against the final margins. Games (not positions) are split into training and held-out
sets by a seeded shuffle, so no held-out position shares a game with a
training one.

With ``patterns``, the quilt patterns (``_patterns``: 15 tables of 512
entries, twice: plain and scaled by the phase) are fitted with the
features in one ridge least-squares problem; each table entry is a column
counting how often the mover's quilt shows it minus how often the
opponent's does (``_learned.pattern_sides``). That needs the ``[train]``
extra (SciPy's sparse matrices).
"""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import numpy as np

from patchsolve.rules.position import Position
from patchsolve.search import _eval, _learned, _patterns


def read_rows(paths) -> list[dict]:
    """The self-play rows of the CSV files ``paths``."""
    rows: list[dict] = []
    for path in paths:
        with Path(path).open(newline="") as f:
            rows.extend(csv.DictReader(f))
    return rows


def pattern_matrix(rows):
    """The patterns' columns of ``rows`` (a SciPy CSR matrix, rows x
    2 * PAT_WEIGHTS: the plain tables, then the phase-scaled ones)."""
    from scipy import sparse

    size = len(_patterns.TABLES) * 512
    indptr, cols, vals = [0], [], []
    for r in rows:
        mine, theirs, phase = _learned.pattern_sides(Position.from_text(r["position"])._c, int(r["mover"]))
        for terms, sign in ((mine, 1.0), (theirs, -1.0)):
            cols.extend(terms)
            vals.extend([sign] * len(terms))
            cols.extend(t + size for t in terms)
            vals.extend([sign * phase] * len(terms))
        indptr.append(len(cols))
    m = sparse.csr_matrix((vals, cols, indptr), shape=(len(rows), 2 * size))
    m.sum_duplicates()
    return m


def design(rows, outcome: float = 1.0):
    """Feature matrix, targets net of the margin now (``outcome`` x final
    margin + the rest x search score), the margins now, the final margins
    and the hand-tuned evaluation of every row."""
    if outcome < 1.0 and any(not r.get("search_score") for r in rows):
        raise ValueError("a target blended with search scores needs games with a search_score column")
    saved = _learned.learned_weights(), _learned.learned_patterns()
    _learned.set_learned(None)  # the hand-tuned evaluation, for comparison
    try:
        X, base, final, hand, searched = [], [], [], [], []
        for r in rows:
            c = Position.from_text(r["position"])._c
            p = int(r["mover"])
            X.append(_learned.features(c, p))
            base.append(_learned.margin_of(c, p))
            final.append(float(r["final_margin"]))
            searched.append(float(r["search_score"]) if outcome < 1.0 else 0.0)
            hand.append(_eval.evaluate_state(c, p))
    finally:
        _learned.set_learned(*saved)
    X_, base_, final_, hand_, searched_ = map(np.array, (X, base, final, hand, searched))
    target = outcome * final_ + (1.0 - outcome) * searched_
    return X_, target - base_, base_, final_, hand_


def split_games(rows, held_out: float, seed: int):
    """Rows split by game into training and held-out sets (seeded)."""
    games = sorted({r["game"] for r in rows})
    random.Random(seed).shuffle(games)
    test = set(games[: max(1, int(len(games) * held_out))])
    return [r for r in rows if r["game"] not in test], [r for r in rows if r["game"] in test]


def errors(pred, final) -> dict:
    """The root-mean-square error and R² of predictions against the final margins."""
    resid = final - pred
    rmse = float(np.sqrt(np.mean(resid**2)))
    r2 = float(1.0 - np.sum(resid**2) / np.sum((final - final.mean()) ** 2))
    return {"rmse": round(rmse, 3), "r2": round(r2, 4)}


def ridge_weights(X, y, ridge: float = 1.0):
    """Ridge least squares on the columns scaled to [-1, 1] (so one
    ``ridge`` suits every feature), returned in the unscaled units."""
    scale = np.maximum(np.abs(X).max(axis=0), 1e-9)
    Xs = X / scale
    return np.linalg.solve(Xs.T @ Xs + ridge * np.eye(X.shape[1]), Xs.T @ y) / scale


def ridge_with_patterns(X, P, y, ridge: float, ridge_patterns: float):
    """Ridge least squares over the features (scaled as in
    ``ridge_weights``) and the pattern columns ``P`` (counts, unscaled, with
    their own ``ridge_patterns``): the feature weights and the pattern
    values. (Thousands of pattern columns against tens of thousands of
    noisy positions: the held-out error was lowest with a strong pull
    toward zero, ``benchmarks/results/patterns.md``.)"""
    from scipy import linalg

    scale = np.maximum(np.abs(X).max(axis=0), 1e-9)
    Xs = X / scale
    k = X.shape[1]
    n = k + P.shape[1]
    A = np.empty((n, n))
    A[:k, :k] = Xs.T @ Xs
    XtP = np.asarray((P.T @ Xs).T)
    A[:k, k:] = XtP
    A[k:, :k] = XtP.T
    A[k:, k:] = (P.T @ P).toarray()
    A[np.arange(k), np.arange(k)] += ridge
    A[np.arange(k, n), np.arange(k, n)] += ridge_patterns
    rhs = np.concatenate([Xs.T @ y, P.T @ y])
    sol = linalg.solve(A, rhs, assume_a="pos")
    return sol[:k] / scale, sol[k:]


def fit(
    rows,
    held_out: float = 0.2,
    seed: int = 0,
    ridge: float = 1.0,
    outcome: float = 1.0,
    patterns: bool = False,
    ridge_patterns: float = 30000.0,
    pattern_phase: bool = False,
) -> dict:
    """Weights and the training manifest (held-out error of the learned and
    the hand-tuned evaluation, and of the margin now alone); with
    ``patterns``, the quilt patterns' tables too."""
    train, test = split_games(rows, held_out, seed)
    X, y, *_ = design(train, outcome)
    Xt, _, base_t, final_t, hand_t = design(test)
    extra: dict = {}
    if patterns:
        size = len(_patterns.TABLES) * 512
        cols = slice(0, 2 * size if pattern_phase else size)
        w, pw = ridge_with_patterns(X, pattern_matrix(train)[:, cols], y, ridge, ridge_patterns)
        pred_t = base_t + Xt @ w + pattern_matrix(test)[:, cols] @ pw
        pw = np.concatenate([pw, np.zeros(2 * size - len(pw))])
        extra["patterns"] = {
            "tables": list(_patterns.TABLES),
            "a": [float(round(v, 5)) for v in pw[:size]],
            "b": [float(round(v, 5)) for v in pw[size:]],
        }
    else:
        w = ridge_weights(X, y, ridge)
        pred_t = base_t + Xt @ w
    model = {
        "features": list(_learned.FEATURES),
        "weights": [float(round(v, 6)) for v in w],
        **extra,
        "manifest": {
            "model": "final margin = margin now + weights . features"
            + (" + quilt pattern tables" if patterns else "")
            + " (ridge least squares)",
            "ridge": ridge,
            **({"ridge_patterns": ridge_patterns, "pattern_phase": pattern_phase} if patterns else {}),
            "outcome_weight": outcome,
            "split_seed": seed,
            "held_out_fraction": held_out,
            "games": len({r["game"] for r in rows}),
            "positions": len(rows),
            "train_positions": len(train),
            "held_out_positions": len(test),
            "held_out": {
                "learned": errors(pred_t, final_t),
                "hand_tuned": errors(hand_t, final_t),
                "margin_now": errors(base_t, final_t),
            },
        },
    }
    return model


def values_digest(model: dict) -> str:
    """SHA-256 of the weights and pattern values as written: the manifest
    keeps it, so a file whose values were changed after the fit is caught."""
    import hashlib

    values = {"weights": model["weights"], "patterns": model.get("patterns")}
    return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()


def write(model: dict, path: Path, extra: dict | None = None) -> None:
    """Write a weights file (names, weights, manifest) to ``path``."""
    if extra:
        model["manifest"].update(extra)
    model["manifest"]["values_sha256"] = values_digest(model)
    Path(path).write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
