"""The alpha-beta at a time a move on the perfect-play set, and what the
exact solver proves with the time the search leaves when its pruned tree is
searched to the end (needs the experiment's ``widen=2`` and
``alphabeta.LAST_COMPLETE``, commit in README.md).

    python benchmarks/experiments/end_placements_handover.py 1 hand > handover_1s.txt

Columns: position, phase, move, depth, seconds, complete, points lost, the
solver's answer (bound, proven best, seconds), points lost after it.
"""

import sys
import time
from pathlib import Path

import patchsolve
from patchsolve.rules.position import Position
from patchsolve.search import alphabeta

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402


def main() -> None:
    rows = B.read_rows(B.DATA)
    budget, mode = float(sys.argv[1]), sys.argv[2]
    total0 = total1 = 0.0
    handed = 0
    for i, row in enumerate(rows):
        pos = Position(row["position"])
        t = time.perf_counter()
        r = patchsolve.search(
            pos, engine="alphabeta", time=budget, workers=1, widen=2 if mode != "base" else 0, seed=i
        )
        elapsed = time.perf_counter() - t
        loss0 = loss1 = B.loss_of(row, str(r.best_move))[0]
        how = ""
        left = budget - elapsed
        if mode == "hand" and alphabeta.LAST_COMPLETE and r.bound != "exact" and left > 0.02 * budget:
            handed += 1
            s = patchsolve.solve(pos, time=left, workers=1)
            how = f"solve {s.bound} {s.proven_best} {s.time:.2f}"
            if s.bound == "exact" and s.proven_best:
                loss1 = B.loss_of(row, str(s.best_move))[0]
        total0 += loss0
        total1 += loss1
        print(
            i,
            row["phase"],
            r.best_move,
            r.depth,
            round(elapsed, 3),
            alphabeta.LAST_COMPLETE,
            loss0,
            how,
            loss1,
            flush=True,
        )
    print("mean loss", round(total0 / len(rows), 3), "->", round(total1 / len(rows), 3), "handed", handed)


if __name__ == "__main__":
    main()
