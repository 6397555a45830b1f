"""The alpha-beta's value against the exact value near the end, by phase
(both players' spaces left), for each ``end_spaces`` given: 6% of the
positions at phase 4-24 of the first 300 games of the leather corpus
(seed 0), those the solver proves within 400,000 nodes.

    python benchmarks/experiments/end_spaces_error_by_phase.py 0 6 10 14
"""

import collections
import random
import sys
import time
from pathlib import Path

import numpy as np

import patchsolve as ps
from patchsolve import Limits
from patchsolve.arena.selfplay import record_positions
from patchsolve.search.result import phase_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from inputs import CORPUS_LEATHER, read_corpus  # noqa: E402

recs = read_corpus(CORPUS_LEATHER)[:300]
rng = random.Random(0)
pos_list = []
for rec in recs:
    for _, pos, _t in record_positions(rec):
        if pos.is_over:
            continue
        ph = phase_of(pos)
        if 4 <= ph <= 24 and rng.random() < 0.06:
            s = ps.solve(pos, limits=Limits(nodes=400000))
            if s.bound == "exact":
                pos_list.append((ph, pos, s.score))
print(len(pos_list), flush=True)
for E in [int(x) for x in sys.argv[1:]]:
    for d in (1, 4):
        by = collections.defaultdict(list)
        nodes = 0
        t = time.perf_counter()
        for ph, pos, ex in pos_list:
            r = ps.search(pos, limits=Limits(depth=d), endgame_solve=False, end_spaces=E)
            nodes += r.nodes
            by[min(ph // 5, 4)].append(abs(r.score - ex))
        cells = " ".join(f"{5 * b}-{5 * b + 4}:{np.mean(v):.2f}(n{len(v)})" for b, v in sorted(by.items()))
        print(f"end_spaces={E} depth={d} nodes={nodes} t={time.perf_counter() - t:.1f}s", cells, flush=True)
