"""Each root choice's value in the game with both quilts relaxed, against
the exact values of the perfect-play set. Needs a build of commit 346dceb
(tag ``exp/standing-relaxed_choices_experiment``, on 2ab2167; it adds
``_solver.relaxed_choices``; main does not have it).

    git checkout 346dceb
    python setup.py build_ext --inplace
    python benchmarks/experiments/standing_relaxed_choices.py
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402
from patchsolve.rules.position import Position  # noqa: E402
from patchsolve.search import _solver  # noqa: E402
from patchsolve.search.solver import c_solver  # noqa: E402


def choice(move: str):
    if move == "walk" or move.startswith("leather"):
        return move.split("@")[0]
    return int(move.split(":")[0])


def main() -> None:
    right = lost = 0
    rows = B.read_rows(B.DATA)
    for i, row in enumerate(rows):
        t = time.perf_counter()
        found = _solver.relaxed_choices(c_solver(64), Position(row["position"])._c)
        seconds = time.perf_counter() - t
        truth: dict = {}
        for m in row["moves"]:
            v = m["score"] if m["bound"] == "exact" else m["upper"]
            truth[choice(m["move"])] = max(truth.get(choice(m["move"]), -999), v)
        relaxed = {("walk" if g == -1 else "leather" if g == 33 else g): v for g, v, _ in found}
        best = max(relaxed, key=lambda g: relaxed[g])
        right += truth[best] == row["value"]
        lost += row["value"] - truth[best]
        print(i, best, relaxed, truth, found[-1][2], f"{seconds:.3f}")
    print(f"right choice in {right} of {len(rows)}; points lost by the choices {lost}")


if __name__ == "__main__":
    main()
