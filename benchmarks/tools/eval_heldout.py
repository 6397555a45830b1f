"""Held-out error of weights files on the same positions: the held-out
games of ``fit``'s split of the data given (same ``--split-seed`` and
``--held-out`` as the fit), against the final margins.

    python benchmarks/tools/eval_heldout.py gen4_seed5.csv --weights src/patchsolve/data/eval_weights.json gen4.json

Prints RMSE and R^2 per weights file (their 27 features: pattern tables
are left out), and of the hand-tuned evaluation. ``--games-from N`` keeps
only the held-out games numbered N or more: the games of a corpus appended
after one that some of the weights were fitted on.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from patchsolve.search import learned
from patchsolve.training import fit


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", nargs="+")
    ap.add_argument("--weights", nargs="+", required=True)
    ap.add_argument("--split-seed", type=int, default=0)
    ap.add_argument("--held-out", type=float, default=0.2)
    ap.add_argument(
        "--games-from",
        type=int,
        default=0,
        help="only held-out games numbered from this on (e.g. a later corpus)",
    )
    a = ap.parse_args(argv)
    _, test = fit.split_games(fit.read_rows(a.data), a.held_out, a.split_seed)
    test = [r for r in test if int(r["game"]) >= a.games_from]
    X, _, base, final, hand = fit.design(test)
    print(f"{len(test)} held-out positions, {len({r['game'] for r in test})} games")
    print(f"hand-tuned: {fit.errors(hand, final)}")
    for path in a.weights:
        w = np.array(learned.read(Path(path).read_text(encoding="utf-8"))["weights"])  # names checked
        print(f"{path}: {fit.errors(base + X @ w, final)}")


if __name__ == "__main__":
    main()
