"""The solver's threads (Lazy SMP): wall time and nodes to the exact value
at 1 and N threads on chosen positions of the reach set
(benchmarks/solve_reach.json, by index), each run from a fresh table, the
driver alone (no win/loss pass), repeated: threads make each run differ.

    python benchmarks/solve_threads.py --threads 2 --repeat 3 17 26 27 29 30 36
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from patchsolve import Position
from patchsolve.search.solver import c_solver

SET = Path(__file__).resolve().parent / "solve_reach.json"


def solve_once(pos: Position, threads: int, budget: float, hash_mb: int):
    """(seconds, nodes, exact value or None) of one driver run."""
    s = c_solver(hash_mb, threads=threads)
    s.set_limits(0, budget)
    t0 = time.perf_counter()
    lo, hi = s.solve(pos._c, *s.bounds(pos._c), s.guess(pos._c))
    return time.perf_counter() - t0, s.nodes, lo if lo == hi else None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("index", type=int, nargs="+", help="positions of benchmarks/solve_reach.json")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--hash-mb", type=int, default=64)
    args = ap.parse_args(argv)
    entries = json.loads(SET.read_text())
    print(f"| position | value | 1 thread s (nodes) | {args.threads} threads s, each run | median speed-up |")
    print("|---|---:|---:|---|---:|")
    for i in args.index:
        pos = Position.from_text(entries[i]["text"])
        t1, n1, v = solve_once(pos, 1, args.budget, args.hash_mb)
        runs = [solve_once(pos, args.threads, args.budget, args.hash_mb) for _ in range(args.repeat)]
        if any(r[2] != v for r in runs):
            print(f"position {i}: values differ: {v} against {[r[2] for r in runs]}", file=sys.stderr)
            return 1
        each = ", ".join(f"{t:.2f} ({n / 1e6:.1f} M)" for t, n, _ in runs)
        speed = statistics.median(t1 / t for t, _, _ in runs)
        print(
            f"| {i} (<= {entries[i]['bucket']}) | {v} | {t1:.2f} ({n1 / 1e6:.1f} M) | {each} | {speed:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
