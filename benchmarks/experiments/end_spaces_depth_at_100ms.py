"""Deepest finished iteration at 0.1 s, one thread, with and without
``end_spaces`` (needs bca886f's build): one position at phase 30-45 from
each of games 300-359 of the leather corpus (seed 1).

    python benchmarks/experiments/end_spaces_depth_at_100ms.py
"""

import random
import statistics
import sys
from pathlib import Path

from patchsolve.arena.selfplay import record_positions
from patchsolve.search import _alphabeta as ab
from patchsolve.search.result import phase_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from inputs import CORPUS_LEATHER, read_corpus  # noqa: E402

recs = read_corpus(CORPUS_LEATHER)[300:360]
rng = random.Random(1)
pos = []
for rec in recs:
    cands = [p for _, p, _t in record_positions(rec) if 30 <= phase_of(p) <= 45 and not p.is_over]
    if cands:
        pos.append(rng.choice(cands))
for E in (0, 10):
    depths, nodes = [], []
    for p in pos:
        s = ab.Searcher(
            16, tt=True, placements=2, prune_depth=1, rank_plies=3, lmr=3, leather=4, end_spaces=E
        )
        done = s.run(p._c, 100, 0, 0.1)
        depths.append(done[-1][0] if done else 0)
        nodes.append(s.nodes)
    mean_depth = round(statistics.mean(depths), 2)
    print(E, len(pos), "median depth", statistics.median(depths), "mean", mean_depth)
