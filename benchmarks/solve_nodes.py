"""Nodes to the exact value (or to a node cap) on chosen positions of the
reach set (benchmarks/solve_reach.json, by index): the solver's driver
alone, one thread, a fresh table each. Node counts do not depend on the
machine's load, so they compare two builds of the solver exactly (run it at
each commit); CPU seconds are printed beside them for what they are worth.

    python benchmarks/solve_nodes.py 17 21 28 31 36 12 14
    python benchmarks/solve_nodes.py --wdl --nodes 40000000 20 34 39 17
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from patchsolve import Position
from patchsolve.search import _solver

SET = Path(__file__).resolve().parent / "solve_reach.json"


def solve_once(pos: Position, wdl: bool, nodes: int, hash_mb: int):
    """(lo, hi, nodes, CPU seconds) of one driver run."""
    s = _solver.Solver(hash_mb, wdl)
    s.set_limits(nodes, 0.0)
    t0 = time.process_time()
    lo, hi = s.solve(pos._c, *s.bounds(pos._c), 1 if wdl else s.guess(pos._c))
    return lo, hi, s.nodes, time.process_time() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("index", type=int, nargs="+", help="positions of benchmarks/solve_reach.json")
    ap.add_argument("--nodes", type=int, default=30_000_000, help="node cap per position")
    ap.add_argument("--hash-mb", type=int, default=256)
    ap.add_argument("--wdl", action="store_true", help="win/loss values")
    args = ap.parse_args(argv)
    entries = json.loads(SET.read_text())
    total = 0
    for i in args.index:
        lo, hi, n, cpu = solve_once(
            Position.from_text(entries[i]["text"]), args.wdl, args.nodes, args.hash_mb
        )
        total += n
        print(f"{i}: [{lo}, {hi}] {n} nodes {cpu:.2f} s", flush=True)
    print(f"total {total} nodes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
