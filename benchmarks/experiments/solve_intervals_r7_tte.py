"""Round 7 experiment: seconds to the exact value on 16 positions of the uniform
set (two threads, 64 MB, driver only), to compare bracketing variants.
Result: benchmarks/results/solve_reach.md, round 7.
"""

import json
import sys
import time
from pathlib import Path

from patchsolve import Position
from patchsolve.search.solver import c_solver

BENCH = Path(__file__).resolve().parents[1]  # benchmarks/

S = json.load(open(BENCH / "solve_reach_uniform.json"))
for i in [int(a) for a in sys.argv[1:]]:
    p = Position.from_text(S[i]["text"])
    s = c_solver(64, threads=2)
    s.set_limits(0, 60.0)
    t0 = time.perf_counter()
    lo, hi = s.solve(p._c, *s.bounds(p._c), s.guess(p._c))
    print(i, lo, hi, f"{time.perf_counter() - t0:.2f}", s.nodes, flush=True)
