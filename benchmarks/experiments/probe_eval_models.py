"""Would a richer model over the learned evaluation's features predict the
outcome better? Fits, on ``fit``'s split of the data given, the shipped
linear form and three richer ones (the per-side differences again times
phase^2; their pairwise products; separate weights in three phase
buckets), and prints each one's held-out error against the final margins,
beside the self-play search's own score as a predictor.

    python benchmarks/experiments/probe_eval_models.py gen4_seed5.csv

(Needs the ``[train]`` extra and data with a ``search_score`` column.)
"""

from __future__ import annotations

import sys

import numpy as np

from patchsolve.rules.position import Position
from patchsolve.training import fit

N_SIDE = 12


def design(rows):
    X, y, base, final, _ = fit.design(rows)
    phase = np.array([(106 - sum(Position(r["position"]).fields()["time"])) / 106.0 for r in rows])
    searched = np.array([float(r["search_score"]) for r in rows])
    return X, y, base, final, phase, searched


def phase2(X, ph):
    return np.hstack([X, X[:, :N_SIDE] * (ph**2)[:, None]])


def products(X, ph):
    d = X[:, :N_SIDE]
    return np.hstack(
        [X] + [d[:, i : i + 1] * d[:, j : j + 1] for i in range(N_SIDE) for j in range(i, N_SIDE)]
    )


def buckets(X, ph):
    return np.hstack(
        [
            X * ((ph >= lo) & (ph < hi)).astype(float)[:, None]
            for lo, hi in ((0, 1 / 3), (1 / 3, 2 / 3), (2 / 3, 1.01))
        ]
    )


def main(paths) -> None:
    train, test = fit.split_games(fit.read_rows(paths), 0.2, 0)
    Xa, ya, _, _, pa, _ = design(train)
    Xb, _, bb, fb, pb, sb = design(test)
    for name, form in (
        ("linear (shipped form)", lambda X, ph: X),
        ("+ phase^2", phase2),
        ("+ pairwise products", products),
        ("3 phase buckets", buckets),
    ):
        w = fit.ridge_weights(form(Xa, pa), ya)
        print(f"{name}: {fit.errors(bb + form(Xb, pb) @ w, fb)}")
    print(f"the self-play search's score: {fit.errors(sb, fb)}")


if __name__ == "__main__":
    main(sys.argv[1:])
