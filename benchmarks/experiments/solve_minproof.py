"""How much any first guess of the exact solver's driver could save: for
each reach-set position with a known exact value v (a results file of
``solve_reach.py run``), the nodes of the two null-window searches that
prove v with a fresh table (value >= v, value < v + 1) against the nodes
the run needed. Also how far the evaluation (the driver's first test) and
a short alpha-beta search are from v.

    python benchmarks/experiments/solve_minproof.py benchmarks/results/solve_reach_r2_nosign.json
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

import patchsolve
from patchsolve import Position
from patchsolve.search.solver import c_solver

SET = Path(__file__).resolve().parents[1] / "solve_reach.json"
AB_NODES = 20000


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    rows = json.loads(Path(argv[0]).read_text())
    entries = json.loads(SET.read_text())
    print("| bucket | value | evaluation | alpha-beta 20k | run nodes | two-window proof | ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    ratios, full, least, ev_err, ab_err = [], 0, 0, [], []
    for e, r in zip(entries, rows):
        if not r["proven"] or r["bound"] != "exact":
            continue
        pos = Position.from_text(e["text"])
        v = r["lower"]
        s = c_solver(64)
        s.set_limits(0, 0.0)
        g = s.guess(pos._c)
        s.probe(pos._c, v - 1, v)
        s.probe(pos._c, v, v + 1)
        ab = patchsolve.search(pos, engine="alphabeta", nodes=AB_NODES, endgame_solve=False, seed=1).score
        ratios.append(r["nodes"] / s.nodes)
        full += r["nodes"]
        least += s.nodes
        ev_err.append(abs(g - v))
        ab_err.append(abs(ab - v))
        print(
            f"| {e['bucket']} | {v} | {g} | {ab} | {r['nodes']:,} | {s.nodes:,} | {ratios[-1]:.2f} |",
            flush=True,
        )
    print(
        f"\n{len(ratios)} positions: run / two-window nodes median {statistics.median(ratios):.2f}, "
        f"total {full / least:.2f}; mean |error| of the evaluation {statistics.mean(ev_err):.1f}, "
        f"of alpha-beta ({AB_NODES} nodes) {statistics.mean(ab_err):.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
