"""Tune the alpha-beta evaluation weights by regression against playout outcomes.

Method: sample positions from games of the noisy greedy player (greedy
one-ply move, a uniformly random move 15% of the time), play each position
out ``--playouts`` times with the noisy greedy player (epsilon 0.1, run in
C), and fit by least squares

    mean final margin - margin now  ~  w . (term differences) + tempo

for the terms of ``_eval.side_features`` (income x income spaces ahead,
spaces left, fillable squares, isolated holes, 7x7 progress), each as
"player to move minus opponent". The fill rate (squares a player can cover
per time space) is chosen from a small grid by R^2 on held-out games.

Run (about a minute on one core)::

    PYTHONPATH=src python benchmarks/tools/tune_eval.py [--games 300 --playouts 8]

The recorded run that gave the weights now in ``_eval.pyx``:
``benchmarks/results/eval_weights.md``.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from patchsolve.search import _eval as ab
from patchsolve.search.bench import noisy_greedy_game

TERMS = ["income", "time", "fill", "holes", "bonus7"]


def margin_for(core, player):
    a, b = core.scores()
    return a - b if player == 0 else b - a


def sample(games: int, playouts: int, seed: int, every: int = 3):
    """(game id, CoreState, playout mean margin for its player to move) for
    positions of noisy greedy games, one every ``every`` plies."""
    rows = []
    rng = random.Random(seed)
    for g in range(games):
        game = noisy_greedy_game(seed * 100_000 + g)
        for pos in game[rng.randrange(every) : -1 : every]:
            c = pos._c
            outcomes = [
                margin_for(ab.policy_playout(c, rng.getrandbits(63), 0.1), pos.to_move)
                for _ in range(playouts)
            ]
            rows.append((g, c, sum(outcomes) / playouts))
    return rows


def design(rows):
    """Features under the current fill rate, and targets net of the margin now."""
    X, y = [], []
    for _, c, target in rows:
        base, feats = ab.features(c)
        X.append(feats + [1.0])
        y.append(target - base)
    return np.array(X), np.array(y)


def fit(rows):
    X, y = design(rows)
    w, *_ = np.linalg.lstsq(X, y, rcond=None)
    return w


def r2(rows, w):
    X, y = design(rows)
    resid = y - X @ w
    return 1 - resid.var() / y.var(), float(np.sqrt((resid**2).mean()))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--playouts", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rates", default="1.0,1.3,1.55,1.8,2.2")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    old = ab.get_weights()
    best = None
    rows = sample(args.games, args.playouts, args.seed)
    train = [r for r in rows if r[0] % 5]
    test = [r for r in rows if r[0] % 5 == 0]
    ab.set_weights(**{k: 0.0 for k in TERMS})
    X, y = design(test)
    print(f"baseline (margin now only): RMSE {float(np.sqrt(((y - y.mean()) ** 2).mean())):.2f}")
    for rate in [float(r) for r in args.rates.split(",")]:
        ab.set_weights(fill_rate=rate)
        w = fit(train)
        score, rmse = r2(test, w)
        print(
            f"fill_rate {rate:4.2f}: held-out R^2 {score:.3f} RMSE {rmse:.2f} "
            f"weights {dict(zip(TERMS + ['tempo'], np.round(w, 3)))}"
        )
        if best is None or score > best[0]:
            best = (score, rate, w, rmse, len(rows))
    score, rate, w, rmse, n = best
    ab.set_weights(**old)
    print(
        f"\nbest: fill_rate {rate}, R^2 {score:.3f}, RMSE {rmse:.2f} on held-out games; {n} positions; "
        f"{time.perf_counter() - t0:.0f} s"
    )
    print("weights: " + ", ".join(f"{k}={v:.3f}" for k, v in zip(TERMS + ["tempo"], w)))


if __name__ == "__main__":
    main()
