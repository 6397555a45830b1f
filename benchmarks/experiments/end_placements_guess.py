"""Does a better first guess speed the solver up? Each position of the
perfect-play set solved on one thread within 10 s with the solver's own
first guess (``own``) or with the position's exact value (``exact``, the
most any guess could give).

    python benchmarks/experiments/end_placements_guess.py own > guess_own.txt
    python benchmarks/experiments/end_placements_guess.py exact > guess_exact.txt
"""

import sys
import time
from pathlib import Path

import patchsolve
from patchsolve.rules.position import Position
from patchsolve.search import _solver
from patchsolve.search import solver as S

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402

GUESS: list = [None]


class Guessed(_solver.Solver):
    def guess(self, s):
        return GUESS[0] if GUESS[0] is not None else super().guess(s)


class _Module:
    Solver = Guessed


def main() -> None:
    rows = B.read_rows(B.DATA)
    mode = sys.argv[1]
    if mode == "exact":
        S._solver = _Module  # the solver's runs build Guessed
    out = []
    for i, row in enumerate(rows):
        GUESS[0] = row["value"] if mode == "exact" else None
        t = time.perf_counter()
        r = patchsolve.solve(Position(row["position"]), time=10, workers=1)
        out.append((i, r.bound, round(time.perf_counter() - t, 3)))
        print(out[-1], flush=True)
    proven = [x for x in out if x[1] == "exact"]
    for limit in (0.25, 0.5, 1, 2, 5, 10):
        print(limit, sum(1 for x in proven if x[2] <= limit))


if __name__ == "__main__":
    main()
