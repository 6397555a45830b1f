"""Round 7 experiment: the solver's interval at the end of a 10 s budget on the
uniform set's open positions (each once, both cores), rows written as JSON.
Result: benchmarks/results/solve_reach.md, round 7 (solve_intervals_r7.json).
"""

import json
import lzma
import statistics
import sys
import time
from pathlib import Path

import patchsolve
from patchsolve import Position

BENCH = Path(__file__).resolve().parents[1]  # benchmarks/

S = json.load(open(BENCH / "solve_reach_uniform.json"))
R = json.loads(lzma.decompress((BENCH / "results" / "solve_reach_r7_uniform600.json.xz").read_bytes()))
seen = set()
idx = []
for i, (e, r) in enumerate(zip(S, R)):
    if not r["proven"] and e["text"] not in seen:
        seen.add(e["text"])
        idx.append(i)
print(len(idx), "positions", file=sys.stderr)
out = []
for i in idx:
    p = Position.from_text(S[i]["text"])
    t0 = time.perf_counter()
    r = patchsolve.solve(p, time=10)
    dt = time.perf_counter() - t0
    out.append(
        dict(
            i=i,
            spaces=S[i]["spaces_left"],
            bound=r.bound,
            lower=r.lower,
            upper=r.upper,
            time=dt,
            nodes=r.nodes,
            before=[R[i]["lower"], R[i]["upper"]],
        )
    )
    print(
        i,
        S[i]["spaces_left"],
        r.bound,
        r.lower,
        r.upper,
        "before",
        R[i]["lower"],
        R[i]["upper"],
        f"{dt:.1f}",
        flush=True,
    )
    json.dump(out, open(sys.argv[1], "w"), indent=1)
w = [o["upper"] - o["lower"] for o in out]
b = [o["before"][1] - o["before"][0] for o in out]
print(
    "median width",
    statistics.median(w),
    "before",
    statistics.median(b),
    "exact",
    sum(o["bound"] == "exact" for o in out),
)
