"""How many solver nodes cost one alpha-beta node, near the end: on the
positions of the perfect-play set (benchmarks/exact_26_34.jsonl), the
alpha-beta alone (the near-end shortcut off) and the exact solver, each on
one thread for the same node budget, in CPU seconds (``process_time``: less
sensitive than wall time to a busy machine). Prints each engine's nodes per
CPU second over the set and their ratio, the solver's over the
alpha-beta's: what ``budget.SOLVER_NODES_SHARE`` is set from.

    python benchmarks/experiments/tie_break_node_ratio.py --nodes 300000 --rounds 2
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import patchsolve as ps

SET = Path(__file__).resolve().parents[1] / "exact_26_34.jsonl"


def cpu(fn):
    t0 = time.process_time()
    r = fn()
    return r.nodes, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=300_000)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    rows = [json.loads(line) for line in SET.read_text().splitlines() if line.strip()]
    positions = [ps.Position(r["position"]) for r in rows if r["exact"]]
    totals = {"alphabeta": [0, 0.0], "solver": [0, 0.0]}
    for _ in range(args.rounds):
        for pos in positions:  # interleaved, so a busy spell weighs on both alike
            for name, fn in (
                ("alphabeta", lambda p=pos: ps.search(p, nodes=args.nodes, workers=1, endgame_solve=False)),
                ("solver", lambda p=pos: ps.solve(p, nodes=args.nodes, workers=1, hash_mb=16)),
            ):
                n, t = cpu(fn)
                totals[name][0] += n
                totals[name][1] += t
    rate = {k: n / t for k, (n, t) in totals.items()}
    for k, (n, t) in totals.items():
        print(f"{k}: {n} nodes in {t:.2f} CPU s: {rate[k] / 1e6:.3f} M nodes/s")
    print(f"solver nodes per alpha-beta node: {rate['solver'] / rate['alphabeta']:.2f}")


if __name__ == "__main__":
    main()
