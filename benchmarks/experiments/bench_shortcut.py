"""The near-end shortcut at a short time per move: how many positions the
exact solver proves within its share, and the time per move.

Run:  python benchmarks/experiments/bench_shortcut.py [--time 0.25] [--hash-mb MB]

Positions: within 8-15 spaces of the end, from 12 seeded games (half random
moves, half depth-1 alpha-beta moves); each is kept with probability 0.3.
``--hash-mb`` forces the shortcut's solver table (default: what
``budget.TimeManager.table_mb`` chooses).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import patchsolve as ps
from patchsolve.search import budget


def positions(seeds: int = 12) -> list:
    out = []
    for seed in range(seeds):
        rng = random.Random(seed)
        pos = ps.Position.start(seed=seed)
        while not pos.is_over:
            left = 53 - min(pos.time(0), pos.time(1))
            if 8 <= left <= 15 and rng.random() < 0.3:
                out.append(pos)
            if rng.random() < 0.5:
                move = rng.choice(pos.legal_moves())
            else:
                move = ps.search(pos, depth=1, endgame_solve=False).best_move
            pos = pos.play(move)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=0.25)
    ap.add_argument("--hash-mb", type=int, default=None)
    args = ap.parse_args(argv)
    if args.hash_mb is not None:
        budget.TimeManager.table_mb = lambda self, part: args.hash_mb  # type: ignore[method-assign]
    proven, times = 0, []
    todo = positions()
    for pos in todo:
        t0 = time.perf_counter()
        r = ps.search(pos, engine="alphabeta", time=args.time, workers=1)  # as measured before threads
        times.append(time.perf_counter() - t0)
        proven += r.bound == "exact"
    print(
        f"time {args.time} s, shortcut table {args.hash_mb or 'default'} MB: {proven} of {len(todo)} proven, "
        f"mean {statistics.mean(times):.3f} s, max {max(times):.3f} s"
    )


if __name__ == "__main__":
    main()
