"""Learning curve of the evaluation's error against exact values (issue 28):
can a nonlinear model predict what the shipped evaluation gets wrong, and
does it get better with more exact rows?

    cd benchmarks/results/late_model && gunzip -k exact_rows.csv.gz
    pip install scikit-learn   # an experiment's dependency, not an extra
    python ../../experiments/late_model_learning_curve.py exact_rows.csv

The target is the exact value less the shipped evaluation (``learned_value``
with ``data/eval_weights.json``): what the evaluation misses. Inputs: its
27 features and a few raw counts ("features"), or those with both quilts'
81 squares and the next six patches' placement counts ("raw"). Rows are
split by game, 30% held out (seed 0). Each model is fitted on training
samples of growing size; three samples below the full set.
"""

from __future__ import annotations

import csv
import random
import sys

import numpy as np
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge

from patchsolve.rules.position import Position
from patchsolve.search import _learned, learned


def inputs(c, p: int, phase: int) -> tuple[list[float], list[float]]:
    """The model's inputs for player ``p`` of core state ``c``: the
    evaluation's features with ten counts ("features"), and what "raw" adds
    to them."""
    f = c.fields()
    x = list(_learned.features(c, p))
    x += [f["time"][p], f["time"][1 - p], f["buttons"][p], f["buttons"][1 - p]]
    x += [f["income"][p], f["income"][1 - p], len(f["circle"]), phase]
    x += [bin(f["quilts"][p]).count("1"), bin(f["quilts"][1 - p]).count("1")]
    extra = [(f["quilts"][s] >> i) & 1 for s in (p, 1 - p) for i in range(81)]
    for k in range(6):
        if k < len(f["circle"]):
            pid = f["circle"][k]
            extra += [
                _learned.placements_of_patch(c, p, pid),
                _learned.placements_of_patch(c, 1 - p, pid),
                pid,
            ]
        else:
            extra += [-1, -1, -1]
    return x, extra


def rmse(e) -> float:
    return float(np.sqrt(np.mean(np.asarray(e) ** 2)))


def main() -> None:
    learned.load()
    rows = list(csv.DictReader(open(sys.argv[1])))
    games = sorted({r["game"] for r in rows})
    random.Random(0).shuffle(games)
    test = set(games[: int(0.3 * len(games))])
    te = np.array([r["game"] in test for r in rows])
    phase = np.array([int(r["phase"]) for r in rows])
    late = te & (phase >= 21)
    y = []
    X = {"features": [], "raw": []}
    for r in rows:
        c, p = Position.from_text(r["position"])._c, int(r["mover"])
        y.append(float(r["final_margin"]) - _learned.learned_value(c, p))
        x, extra = inputs(c, p, int(r["phase"]))
        X["features"].append(x)
        X["raw"].append(x + extra)
    y = np.array(y)
    print(f"rows {len(y)}, held out {te.sum()} ({late.sum()} at phase 21-28)")
    print(f"the shipped evaluation: held-out RMSE {rmse(y[te]):.3f}, phase 21-28 {rmse(y[late]):.3f}")
    train = np.flatnonzero(~te)
    rng = np.random.default_rng(0)
    print("| model | inputs | training rows | held-out RMSE | phase 21-28 |")
    print("|---|---|---:|---|---|")
    for kind, model in (("features", "ridge"), ("features", "boosted trees"), ("raw", "boosted trees")):
        A = np.array(X[kind], dtype=float)
        for n in (1750, 3500, 7000, len(train)):
            scores = []
            for rep in range(3 if n < len(train) else 1):
                sub = rng.choice(train, n, replace=False) if n < len(train) else train
                if model == "ridge":
                    m = Ridge(alpha=10.0)
                else:
                    m = HistGradientBoostingRegressor(
                        max_iter=300,
                        learning_rate=0.05,
                        max_leaf_nodes=15,
                        min_samples_leaf=40,
                        l2_regularization=1.0,
                        random_state=rep,
                    )
                m.fit(A[sub], y[sub])
                scores.append((rmse(y[te] - m.predict(A[te])), rmse(y[late] - m.predict(A[late]))))
            a, b = zip(*scores)
            print(f"| {model} | {kind} | {n:,} | {np.mean(a):.3f} | {np.mean(b):.3f} |", flush=True)


if __name__ == "__main__":
    main()
