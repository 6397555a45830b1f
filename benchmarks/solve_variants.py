"""Each technique of the exact solver, measured in nodes (independent of the
machine's load): nodes to an exact value per variant on the reach set's
positions of the given buckets, under a node cap (X = not solved within it).

    python benchmarks/solve_variants.py --buckets 20 25 --cap 6000000
    python benchmarks/solve_variants.py --driver --buckets 20 25 30 --cap 3000000

Variants switch one thing off (or on) against the default: static bounds,
relaxed-quilt group bounds, enhanced transposition cut-offs, killer and
history ordering, the bracketing spread, the TT size, the dead-hole TT
keys, the relaxed pairs, the relaxed players' cover and packing tests. CPU
time (``time.process_time``) is given too. ``--driver`` instead compares options of
the whole ``patchsolve.solve`` run (the win/loss pass first, ...): nodes of
the run, principal variation included.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from patchsolve import Position
from patchsolve.search import solver
from patchsolve.search.limits import Limits
from patchsolve.search.solver import c_solver

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
    "no dead-hole keys": ({"use_dead_keys": False}, 8),
    "no relaxed pairs": ({"relax_pairs": False}, 8),
    "group bounds from 3 placements": ({"relax_min": 3}, 8),
    "no cover test (bonus by squares alone)": ({"use_cover": False}, 8),
    "no packing test": ({"use_pack": False}, 8),
    "neither (as before round 4)": ({"use_cover": False, "use_pack": False}, 8),
}


# name -> solver.run options
DRIVER_VARIANTS = {
    "default": {},
    "no win/loss pass first": {"sign_first": False},
}


def run_nodes(pos: Position, options: dict, spread_unused, cap: int):
    r = solver.run(pos, Limits(nodes=cap, hash_mb=64), options)
    return r.nodes if r.bound == "exact" else None


def nodes_to_exact(pos: Position, kwargs: dict, spread: int, cap: int):
    kw = {"hash_mb": 64, **kwargs}
    s = c_solver(**kw)
    s.set_limits(cap, 0.0)
    lo, hi = s.bounds(pos._c)
    lo, hi = s.solve(pos._c, lo, hi, s.guess(pos._c), spread)
    return s.nodes if lo >= hi else None


def timed(measure, *args):
    """(nodes or None, CPU seconds) of one measurement."""
    t0 = time.process_time()
    n = measure(*args)
    return n, time.process_time() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--buckets", type=int, nargs="+", default=[20, 25])
    ap.add_argument("--cap", type=int, default=6_000_000)
    ap.add_argument("--driver", action="store_true", help="compare options of the whole solve run")
    ap.add_argument("--only", nargs="+", help="these variants only (and the default)")
    args = ap.parse_args(argv)
    if args.driver:
        variants, measure = {k: (v, None) for k, v in DRIVER_VARIANTS.items()}, run_nodes
    else:
        variants, measure = VARIANTS, nodes_to_exact
    if args.only:
        variants = {k: v for k, v in variants.items() if k == "default" or k in args.only}
    entries = [e for e in json.loads(SET.read_text()) if e["bucket"] in args.buckets]
    print(f"nodes to an exact value, cap {args.cap:,} (buckets {args.buckets}, {len(entries)} positions)")
    print(
        "| variant | solved | total nodes (solved by all) | vs default | CPU s (solved by all) | vs default |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    runs, cpu = {}, {}
    for name, (kw, sp) in variants.items():
        rows = [timed(measure, Position.from_text(e["text"]), kw, sp, args.cap) for e in entries]
        runs[name], cpu[name] = [n for n, _ in rows], [t for _, t in rows]
        print(f"  {name}: {runs[name]}", file=sys.stderr, flush=True)
    common = [i for i in range(len(entries)) if all(r[i] is not None for r in runs.values())]
    base = sum(runs["default"][i] for i in common)
    base_cpu = sum(cpu["default"][i] for i in common)
    for name, r in runs.items():
        if not common:
            break
        total = sum(r[i] for i in common)
        t = sum(cpu[name][i] for i in common)
        solved = sum(x is not None for x in r)
        print(
            f"| {name} | {solved}/{len(r)} | {total:,} | {total / base:.2f} | {t:.2f} | {t / base_cpu:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
