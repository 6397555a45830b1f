"""Search speed of whichever patchsolve this interpreter imports, for a
side-by-side comparison of two builds in the same minute (the machine may
be shared: run both back to back, twice):

    python benchmarks/tools/bench_speed_vs.py                       # this checkout
    /work/venv-base/bin/python benchmarks/tools/bench_speed_vs.py   # d5cdd84, built in its own venv

Prints alpha-beta nodes per CPU second (node-limited searches), MCTS
iterations per CPU second (iteration-limited), the mean alpha-beta depth
reached in 0.25 s wall time (one thread), and the peak RSS, on the first 8
unfinished bench positions, the near-end solver shortcut off. Uses only
what d5cdd84 already had (``patchsolve.search``, ``bench.read_positions``).
"""

from __future__ import annotations

import resource
import time

import patchsolve
from patchsolve import search
from patchsolve.search import bench


def positions():
    return [p for _, p in bench.read_positions() if not p.is_over][:8]


def per_cpu_second(run, repeats: int = 3) -> float:
    """Best of ``repeats`` (work units / process CPU second)."""
    best = 0.0
    for _ in range(repeats):
        work = spent = 0.0
        for pos in positions():
            t0 = time.process_time()
            work += run(pos)
            spent += time.process_time() - t0
        best = max(best, work / spent)
    return best


def one_thread() -> dict:
    try:
        search(positions()[0], engine="alphabeta", depth=1, workers=1, endgame_solve=False)
        return {"workers": 1}
    except patchsolve.PatchsolveError:  # a build before alpha-beta threads
        return {}


def main() -> None:
    ab = per_cpu_second(lambda p: search(p, engine="alphabeta", nodes=150_000, endgame_solve=False).nodes)
    mc = per_cpu_second(
        lambda p: search(p, engine="mcts", iterations=20_000, seed=1, endgame_solve=False) and 20_000
    )
    extra = one_thread()
    depths = [
        search(p, engine="alphabeta", time=0.25, endgame_solve=False, **extra).depth for p in positions()
    ]
    print(f"patchsolve at {patchsolve.__file__}")
    print(f"alpha-beta: {ab:,.0f} nodes per CPU second (150,000 nodes a position)")
    print(f"MCTS:       {mc:,.0f} iterations per CPU second (20,000 a position)")
    print(f"alpha-beta depth in 0.25 s: {depths}, mean {sum(depths) / len(depths):.2f}")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
