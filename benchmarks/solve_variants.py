"""Each technique of the exact solver, measured in nodes (independent of the
machine's load): nodes to an exact value per variant on the reach set's
positions of the given buckets, under a node cap (X = not solved within it).

    python benchmarks/solve_variants.py --buckets 20 25 --cap 6000000

Variants switch one thing off (or on) against the default: static bounds,
relaxed-quilt group bounds, enhanced transposition cut-offs, killer and
history ordering, the bracketing spread, the TT size.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from patchsolve import Position
from patchsolve.search import _solver

SET = Path(__file__).resolve().parent / "solve_reach.json"

# name -> (Solver keyword arguments, bracketing spread)
VARIANTS = {
    "default": ({}, 8),
    "no static bounds": ({"use_static": False}, 8),
    "no relaxed groups": ({"use_relax": False}, 8),
    "with ETC": ({"use_etc": True}, 8),
    "no killer/history": ({"use_hist": False}, 8),
    "no bracketing (MTD(f) only)": ({}, 0),
    "bracketing 32": ({}, 32),
    "hash 256 MB": ({"hash_mb": 256}, 8),
}


def nodes_to_exact(pos: Position, kwargs: dict, spread: int, cap: int):
    kw = {"hash_mb": 64, **kwargs}
    s = _solver.Solver(**kw)
    s.set_limits(cap, 0.0)
    lo, hi = s.bounds(pos._c)
    lo, hi = s.solve(pos._c, lo, hi, s.guess(pos._c), spread)
    return s.nodes if lo >= hi else None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--buckets", type=int, nargs="+", default=[20, 25])
    ap.add_argument("--cap", type=int, default=6_000_000)
    args = ap.parse_args(argv)
    entries = [e for e in json.loads(SET.read_text()) if e["bucket"] in args.buckets]
    print(f"nodes to an exact value, cap {args.cap:,} (buckets {args.buckets}, {len(entries)} positions)")
    print("| variant | solved | total nodes (solved by all) | vs default |")
    print("|---|---:|---:|---:|")
    runs = {name: [nodes_to_exact(Position.from_text(e["text"]), kw, sp, args.cap) for e in entries]
            for name, (kw, sp) in VARIANTS.items()}
    common = [i for i in range(len(entries)) if all(r[i] is not None for r in runs.values())]
    base = sum(runs["default"][i] for i in common)
    for name, r in runs.items():
        total = sum(r[i] for i in common)
        solved = sum(x is not None for x in r)
        print(f"| {name} | {solved}/{len(r)} | {total:,} | {total / base:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
