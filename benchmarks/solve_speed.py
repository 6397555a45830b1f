"""Speed of the exact solver in CPU time: nodes per CPU second on a fixed
part of the reach set (benchmarks/solve_reach.json), each position solved
from a fresh table under a node cap. Node counts do not depend on the
machine; CPU time (``time.process_time``) depends much less on the other
processes sharing the cores than wall time does.

    python benchmarks/solve_speed.py                       # buckets 20 25, cap 3,000,000
    python benchmarks/solve_speed.py --buckets 30 --cap 10000000
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


def solve_capped(pos: Position, cap: int, hash_mb: int):
    """(nodes, CPU seconds, exact?) of one driver run from a fresh table."""
    t0 = time.process_time()
    s = c_solver(hash_mb)
    s.set_limits(cap, 0.0)
    lo, hi = s.solve(pos._c, *s.bounds(pos._c), s.guess(pos._c))
    return s.nodes, time.process_time() - t0, lo >= hi


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--buckets", type=int, nargs="+", default=[20, 25])
    ap.add_argument("--cap", type=int, default=3_000_000)
    ap.add_argument("--hash-mb", type=int, default=64)
    args = ap.parse_args(argv)
    entries = [e for e in json.loads(SET.read_text()) if e["bucket"] in args.buckets]
    nodes = cpu = solved = 0
    for e in entries:
        n, t, exact = solve_capped(Position.from_text(e["text"]), args.cap, args.hash_mb)
        nodes, cpu, solved = nodes + n, cpu + t, solved + exact
        print(
            f"  bucket {e['bucket']}: {n} nodes {t:.2f} s cpu {'exact' if exact else 'open'}",
            file=sys.stderr,
            flush=True,
        )
    print(
        f"buckets {args.buckets}, cap {args.cap:,}: {solved}/{len(entries)} exact, {nodes:,} nodes, "
        f"{cpu:.2f} s cpu, {nodes / cpu / 1e6:.2f} M nodes/s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
