"""Speed of the knowledge module: ns per placement scored by the look-ahead,
ns per learned evaluation, and alpha-beta nodes/s with the look-ahead and
the learned evaluation on and off, on the bench set.

Run::

    python benchmarks/bench_knowledge.py [--repeat 200] [--nodes 300000]

Times are process CPU time, so a loaded machine slows them less than wall time.
"""

from __future__ import annotations

import argparse
import time

from patchsolve import bench
from patchsolve.search import _knowledge as kn
from patchsolve.search import learned
from patchsolve.search import search


def positions():
    return [pos for _, pos in bench.read_positions()]


def ns_per_placement(repeat: int) -> tuple[float, int]:
    total_n, total_t = 0, 0.0
    for pos in positions():
        codes = [m.code for m in pos.legal_moves() if m.code != 0]
        if not codes:
            continue
        t0 = time.process_time()
        n, _ = kn.bench_lookahead(pos._c, codes, repeat)
        total_t += time.process_time() - t0
        total_n += n
    return 1e9 * total_t / total_n, total_n


def ns_per_eval(repeat: int, cached: bool) -> float:
    total_t, total_n = 0.0, 0
    for pos in positions():
        t0 = time.process_time()
        kn.bench_learned(pos._c, repeat, cached)
        total_t += time.process_time() - t0
        total_n += repeat
    return 1e9 * total_t / total_n


def nps(node_budget: int, **options) -> float:
    """Nodes per CPU second (process time: the machine is shared) of
    node-limited searches on the bench set."""
    nodes, elapsed = 0, 0.0
    for pos in positions():
        if pos.is_over:
            continue
        t0 = time.process_time()
        r = search(pos, engine="alphabeta", nodes=node_budget, **options)
        elapsed += time.process_time() - t0
        nodes += r.nodes
    return nodes / elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--nodes", type=int, default=300_000)
    a = ap.parse_args()
    ns, n = ns_per_placement(a.repeat)
    print(f"look-ahead: {ns:.1f} ns per placement scored ({n} scorings, k={kn.lookahead_state()[1]})")
    print(f"learned evaluation: {ns_per_eval(a.repeat * 100, False):.1f} ns per evaluation with new quilts,"
          f" {ns_per_eval(a.repeat * 100, True):.1f} ns with the quilt terms memoised")
    for la, lw in ((0, False), (1, False), (2, False), (0, True), (1, True)):
        if lw and not learned.load():
            continue
        print(f"alpha-beta nodes/s, lookahead={la}, learned={lw}: {nps(a.nodes, lookahead=la, learned=lw):,.0f}")


if __name__ == "__main__":
    main()
