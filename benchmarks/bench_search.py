"""Search speed on the fixed bench set (benchmarks/positions.txt).

Run:  python benchmarks/bench_search.py            (about a minute)
      python benchmarks/bench_search.py --quick    (what `patchsolve bench` runs)
      python benchmarks/bench_search.py --make-positions   (rewrite the bench set; changes the signature)

What it measures is described in patchsolve/bench.py.
"""

from __future__ import annotations

import argparse

from patchsolve import bench


def main(argv=None):
    ap = argparse.ArgumentParser(description="patchsolve search benchmark")
    ap.add_argument("--quick", action="store_true", help="fewer MCTS iterations, no exact solves")
    ap.add_argument("--make-positions", action="store_true", help="rewrite the bench set")
    args = ap.parse_args(argv)
    if args.make_positions:
        from pathlib import Path

        target = Path(__file__).resolve().parent.parent / "src" / "patchsolve" / "data" / "bench_positions.txt"
        lines = ["# patchsolve bench set v1: phase, then the position in patchsolve notation.",
                 "# Made by `python benchmarks/bench_search.py --make-positions` (noisy greedy self-play)."]
        lines += [f"{phase} {text}" for phase, text in bench.make_positions()]
        target.write_text("\n".join(lines) + "\n")
        print(f"wrote {target}")
        return
    for line in bench.run(quick=args.quick)["lines"]:
        print(line)


if __name__ == "__main__":
    main()
