"""Points lost per move by each level (patchsolve.review.levels) against exact
values: positions 10 and 12 plies before the end of noisy greedy games
(seeds 200..200+N), every move valued by the solver (all_moves); each level
plays each position with seeds 0 and 1; level 10 with 160,000 nodes.

    python benchmarks/tools/levels_points_lost.py 20
"""

import statistics
import sys
import time

import patchsolve as ps
from patchsolve.review.levels import level_move
from patchsolve.search.bench import noisy_greedy_game

positions = []
for g in range(200, 200 + int(sys.argv[1])):
    game = noisy_greedy_game(g)
    for back in (10, 12):
        p = game[-back]
        if not p.is_over and len(p.legal_moves()) > 1:
            positions.append(p)
t = time.time()
exact = []
for p in positions:
    r = ps.solve(p, all_moves=True, time=10)
    if r.bound != "exact":
        continue
    vals = {str(d["move"]): d for d in r.root_moves}
    exact.append((p, r.score, vals))
print(len(exact), "of", len(positions), "positions solved", time.time() - t, file=sys.stderr)
for L in list(range(1, 11)):
    losses = []
    for seed in (0, 1):
        for p, best, vals in exact:
            if L == 10:
                m, _ = level_move(p, 10, seed=seed, nodes=160_000, workers=1)
            else:
                m, _ = level_move(p, L, seed=seed)
            d = vals[str(m)]
            v = d["score"] if d["bound"] == "exact" else min(best, d["upper"])
            losses.append(best - v)
    print(L, f"{statistics.mean(losses):.2f}", f"optimal {sum(x == 0 for x in losses)}/{len(losses)}")
