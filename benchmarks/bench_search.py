"""The bench (patchsolve/search/bench.py) and, from a source checkout, the core's
speed-up over a plain minimax on the pure-Python reference rules.

Run:  python benchmarks/bench_search.py                  (the bench, then the speed-up)
      python benchmarks/bench_search.py --make-positions (rewrite the bench set; changes the signature)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from patchsolve.search import bench

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def python_minimax_speed(positions, depth: int = 2, budget: float = 5.0) -> float:
    """Nodes per second of a plain minimax over the reference rules."""
    import reference as ref

    def to_ref(pos):
        f = pos.fields()
        return ref.RefState(
            f["edition"],
            tuple(f["circle"]),
            tuple(frozenset(ref.to_cells(q)) for q in f["quilts"]),
            f["buttons"],
            f["income"],
            f["time"],
            frozenset(f["leather"]),
            bonus_owner=f["bonus_owner"],
            first_at_end=f["first_at_end"],
            pending_leather=f["pending_leather"],
            on_top=f["on_top"] if f["on_top"] is not None else 0,
        )

    nodes = 0

    def minimax(s, d):
        nonlocal nodes
        nodes += 1
        if d == 0 or ref.is_over(s):
            a, b = ref.scores(s)
            return a - b
        vals = [minimax(ref.play(s, m), d - 1) for m in ref.legal_moves(s)]
        return max(vals) if ref.to_move(s) == 0 else min(vals)

    start = time.perf_counter()
    for _phase, pos in positions:
        if time.perf_counter() - start > budget:
            break
        minimax(to_ref(pos), depth)
    return nodes / (time.perf_counter() - start)


def main(argv=None):
    ap = argparse.ArgumentParser(description="patchsolve bench")
    ap.add_argument("--make-positions", action="store_true", help="rewrite the bench set")
    args = ap.parse_args(argv)
    if args.make_positions:
        target = (
            Path(__file__).resolve().parent.parent / "src" / "patchsolve" / "data" / "bench_positions.txt"
        )
        lines = [
            "# patchsolve bench set v1: phase, then the position in patchsolve notation.",
            "# Made by `python benchmarks/bench_search.py --make-positions` (noisy greedy self-play).",
        ]
        lines += [f"{phase} {text}" for phase, text in bench.make_positions()]
        target.write_text("\n".join(lines) + "\n")
        print(f"wrote {target}")
        return
    result = bench.run()
    for line in result["lines"]:
        print(line)
    py = python_minimax_speed([p for p in bench.read_positions() if p[0] == "endgame"])
    ab = result["alphabeta_nps"]
    print(
        f"pure-Python reference minimax: {py:,.0f} nodes/s; alpha-beta: {ab:,.0f} nodes/s ({ab / py:,.0f}x)"
    )


if __name__ == "__main__":
    main()
