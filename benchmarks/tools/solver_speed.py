"""The exact solver's speed at a fixed node budget: CPU seconds for the
same searches (one thread, a 16 MB table, 1.5 M nodes each) on ten
positions of the perfect-play set the 1-second hand-over leaves open. The
node counts do not depend on the load, and two builds that search the same
tree print the same; compare the CPU times of builds run in turn, several
times each (the machine may be shared).

    python benchmarks/tools/solver_speed.py          # this build
    /path/to/other/python benchmarks/tools/solver_speed.py

On a shared machine the CPU time moves by +-10% between runs; the count of
instructions does not (a smaller budget keeps it short):

    valgrind --tool=cachegrind --cache-sim=no python benchmarks/tools/solver_speed.py --nodes 300000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402
from patchsolve.rules.position import Position  # noqa: E402
from patchsolve.search.solver import c_solver  # noqa: E402

POSITIONS = (4, 12, 40, 41, 10, 24, 27, 28, 39, 26)
NODES = 1_500_000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=NODES, help="node budget a position")
    budget = ap.parse_args().nodes
    rows = B.read_rows(B.DATA)
    nodes, seconds = 0, 0.0
    for i in POSITIONS:
        pos = Position(rows[i]["position"])
        s = c_solver(16)
        s.set_limits(budget, 0.0)
        lo, hi = s.bounds(pos._c)
        t = time.process_time()
        s.solve(pos._c, lo, hi, s.guess(pos._c), 8)
        seconds += time.process_time() - t
        nodes += s.nodes
    print(f"nodes {nodes:,}  cpu {seconds:.2f} s  {nodes / seconds / 1e6:.3f} M nodes/s")


if __name__ == "__main__":
    main()
