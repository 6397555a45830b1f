"""The solver beside the search against the solver first, near the end
(issue 28, item 4): on the near-end positions of the perfect-play set
(``tests/data/exact_26_34.jsonl.xz``, a token within 15 spaces of the end),
``patchsolve.search`` at ``--time`` seconds a move on ``--workers``
threads, with the solver beside the search (the default with 2 threads or
more) and with it first (the shortcut: a quarter of the time on every
thread, then the search). Prints, per arrangement, the exact answers, the
mean time a move and the points lost against perfect play.

    python benchmarks/tools/near_end_answers.py --time 0.1 --workers 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from patchsolve import Position, search
from patchsolve.search import dispatch
from patchsolve.search.endgame import near_end

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_exact import DATA, loss_of, read_rows  # noqa: E402


def measure(rows, seconds: float, workers: int) -> str:
    exact, times, losses = 0, [], []
    for row in rows:
        pos = Position(row["position"])
        t0 = time.perf_counter()
        r = search(pos, time=seconds, workers=workers)
        times.append(time.perf_counter() - t0)
        exact += r.bound == "exact"
        losses.append(loss_of(row, str(r.best_move))[0])
    return (
        f"{exact}/{len(rows)} exact answers, {statistics.mean(times):.3f} s a move, "
        f"{statistics.mean(losses):.2f} points lost a move"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=0.1)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    rows = [r for r in read_rows(DATA) if near_end(Position(r["position"]))]
    print(f"solver beside the search: {measure(rows, args.time, args.workers)}")
    dispatch.beside = lambda engine, limits: False  # the arrangement before: the solver first
    print(f"solver first:             {measure(rows, args.time, args.workers)}")


if __name__ == "__main__":
    main()
