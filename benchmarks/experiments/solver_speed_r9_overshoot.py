"""How far past its node budget the solver's driver runs (one thread, 4 MB,
11 positions of the perfect-play set, 13 budgets each; runs that end
exact do not count).

    python benchmarks/experiments/solver_speed_r9_overshoot.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402
from patchsolve.rules.position import Position  # noqa: E402
from patchsolve.search.solver import c_solver  # noqa: E402


def main() -> None:
    rows = B.read_rows(B.DATA)
    worst = 0
    for i in range(0, 51, 5):
        pos = Position(rows[i]["position"])
        for limit in range(1500, 30000, 2311):
            s = c_solver(4)
            s.set_limits(limit, 0.0)
            s.solve(pos._c, *s.bounds(pos._c), s.guess(pos._c), 8)
            if s.lo != s.hi:
                worst = max(worst, s.nodes - limit)
    print("worst overshoot", worst)


if __name__ == "__main__":
    main()
