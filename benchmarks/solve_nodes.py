"""Nodes to the exact value (or to a node cap) on chosen positions of the
reach set (benchmarks/solve_reach.json, by index): the solver's driver
alone, one thread, a fresh table each. Node counts do not depend on the
machine's load, so they compare two builds of the solver exactly (run it at
each commit); CPU seconds are printed beside them for what they are worth.

``--mode`` picks the values: ``tie`` (the default, what ``patchsolve.solve``
computes: the margin and who wins a margin of 0, ``2 * margin -+ 1``),
``margins`` (the margin alone, the tie-break ignored, as before 0.3: for
comparing the cost of the tie-break) or ``wdl`` (who wins only).

    python benchmarks/solve_nodes.py 17 21 28 31 36 12 14
    python benchmarks/solve_nodes.py --mode margins 17 21 28 31 36 12 14
    python benchmarks/solve_nodes.py --mode wdl --nodes 40000000 20 34 39 17
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from patchsolve import Position
from patchsolve.search.solver import c_solver

SET = Path(__file__).resolve().parent / "solve_reach.json"
MODES = ("tie", "margins", "wdl")
BRACKET = 8  # points, as solver.BRACKET


def solve_once(pos: Position, mode: str, nodes: int, hash_mb: int):
    """(lo, hi, nodes, CPU seconds) of one driver run, in the mode's units."""
    s = c_solver(hash_mb, wdl=mode == "wdl", tie=mode != "margins")
    s.set_limits(nodes, 0.0)
    t0 = time.process_time()
    spread = BRACKET * (2 if mode == "tie" else 1)
    lo, hi = s.solve(pos._c, *s.bounds(pos._c), 1 if mode == "wdl" else s.guess(pos._c), spread)
    return lo, hi, s.nodes, time.process_time() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("index", type=int, nargs="+", help="positions of benchmarks/solve_reach.json")
    ap.add_argument("--nodes", type=int, default=30_000_000, help="node cap per position")
    ap.add_argument("--hash-mb", type=int, default=256)
    ap.add_argument("--mode", choices=MODES, default="tie", help="the values (module doc)")
    ap.add_argument("--wdl", action="store_true", help="the same as --mode wdl")
    args = ap.parse_args(argv)
    mode = "wdl" if args.wdl else args.mode
    entries = json.loads(SET.read_text())
    total = 0
    cpu_total = 0.0
    for i in args.index:
        lo, hi, n, cpu = solve_once(Position.from_text(entries[i]["text"]), mode, args.nodes, args.hash_mb)
        total += n
        cpu_total += cpu
        print(f"{i}: [{lo}, {hi}] {n} nodes {cpu:.2f} s", flush=True)
    print(f"total {total} nodes {cpu_total:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
