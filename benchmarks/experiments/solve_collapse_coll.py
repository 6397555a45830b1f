"""Nodes to the exact value with and without the placement collapse
(``use_collapse``, only in a build of commit 24b847f, tag ``exp/solve_collapse-experiment``): one
thread, a fresh 64 MB table each, a node cap.

    python benchmarks/experiments/solve_collapse_coll.py reach 8000000 17 21 28 31 36 12 14
    python benchmarks/experiments/solve_collapse_coll.py exact 3000000 4 12 40 26 39

``reach``: positions of benchmarks/solve_reach.json, by index; ``exact``: of
the perfect-play set (tests/data/exact_26_34.jsonl.xz), by index.
"""

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import bench_exact as B  # noqa: E402
from patchsolve import Position  # noqa: E402
from patchsolve.search.solver import c_solver  # noqa: E402


def run(pos, flag, cap, wdl=False):
    s = c_solver(64, wdl=wdl, use_collapse=flag)
    s.set_limits(cap, 0.0)
    t0 = time.process_time()
    lo, hi = s.solve(pos._c, *s.bounds(pos._c), 1 if wdl else s.guess(pos._c))
    return lo, hi, s.nodes, time.process_time() - t0, s.stats


which = sys.argv[1]
cap = int(sys.argv[2])
idx = [int(x) for x in sys.argv[3:]]
if which == "reach":
    entries = json.loads((ROOT / "benchmarks" / "solve_reach.json").read_text())
    texts = [entries[i]["text"] for i in idx]
else:
    rows = B.read_rows(B.DATA)
    texts = [rows[i]["position"] for i in idx]
tot = [0, 0]
ct = [0.0, 0.0]
for i, tx in zip(idx, texts):
    pos = Position.from_text(tx) if which == "reach" else Position(tx)
    a = run(pos, False, cap)
    b = run(pos, True, cap)
    tot[0] += a[2]
    tot[1] += b[2]
    ct[0] += a[3]
    ct[1] += b[3]
    bad = "MISMATCH" if (a[0] == a[1] and b[0] == b[1] and a[0] != b[0]) else ""
    print(
        f"{i}: off [{a[0]},{a[1]}] {a[2]:,} {a[3]:.2f}s | on [{b[0]},{b[1]}] {b[2]:,} {b[3]:.2f}s",
        f"tests {b[4]['collapse_tests']:,} hits {b[4]['collapse_hits']:,} {bad}",
        flush=True,
    )
print(
    f"total off {tot[0]:,} {ct[0]:.1f}s  on {tot[1]:,} {ct[1]:.1f}s  ratio {tot[1] / tot[0]:.3f} / {ct[1] / ct[0]:.3f}"
)
