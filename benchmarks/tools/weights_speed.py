"""Alpha-beta nodes per second with two or more weights files, in turns on
the bench positions (the median of the rounds; run on a quiet machine).

    python benchmarks/tools/weights_speed.py src/patchsolve/data/eval_weights.json other.json --nodes 300000 --rounds 3
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from patchsolve.search import learned, search
from patchsolve.search.bench import read_positions


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("weights", nargs="+")
    ap.add_argument("--nodes", type=int, default=300_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--positions", type=int, default=8)
    a = ap.parse_args(argv)
    positions = [pos for _, pos in read_positions()][: a.positions]
    rates: dict[str, list[float]] = {w: [] for w in a.weights}
    for _ in range(a.rounds):
        for w in a.weights:
            learned.load(Path(w).read_text(encoding="utf-8"))
            t, n = time.perf_counter(), 0
            for pos in positions:
                n += search(pos, engine="alphabeta", nodes=a.nodes).nodes
            rates[w].append(n / (time.perf_counter() - t))
    learned.load()
    for w, r in rates.items():
        print(f"{w}: {sorted(r)[len(r) // 2]:,.0f} nodes/s (rounds: {', '.join(f'{x:,.0f}' for x in r)})")


if __name__ == "__main__":
    main()
