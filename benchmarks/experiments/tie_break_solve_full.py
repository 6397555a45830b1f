"""Nodes of ``patchsolve.solve`` (the win/loss pass, then the exact driver:
what the engines' near-end shortcut runs) to the exact value, one thread,
on chosen positions of the reach set, with this interpreter's build: the
whole solve, where ``solve_nodes.py`` times the driver alone.

    python benchmarks/experiments/tie_break_solve_full.py --nodes 60000000 17 21 28 31 36 12 14
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import patchsolve as ps

SET = Path(__file__).resolve().parents[1] / "solve_reach.json"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("index", type=int, nargs="+")
    ap.add_argument("--nodes", type=int, default=60_000_000)
    ap.add_argument("--hash-mb", type=int, default=256)
    ap.add_argument("--no-sign", action="store_true", help="sign_first=False")
    args = ap.parse_args(argv)
    entries = json.loads(SET.read_text())
    total = 0
    for i in args.index:
        pos = ps.Position.from_text(entries[i]["text"])
        t0 = time.process_time()
        r = ps.solve(pos, nodes=args.nodes, workers=1, hash_mb=args.hash_mb, sign_first=not args.no_sign)
        cpu = time.process_time() - t0
        total += r.nodes
        print(
            f"{i}: {r.score} {r.bound} [{r.lower}, {r.upper}] {r.proven} {r.nodes} nodes {cpu:.2f} s",
            flush=True,
        )
    print(f"total {total} nodes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
