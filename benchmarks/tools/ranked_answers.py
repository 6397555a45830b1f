"""Ranked answers near the end against perfect play: on the near-end
positions of the perfect-play set (``tests/data/exact_26_34.jsonl.xz``, a
token within 15 spaces of the end, every move's exact value or proven
bounds known), ``patchsolve.search(pos, time=, multipv=, depth=)`` as the
web app's "Best move" asks it. Counts the answers whose value is exact,
the points the first row loses, the rows whose claim the known values
contradict (an exact value that is not the move's, a bound on the wrong
side of it) and the estimates above the position's value (no move can be
worth more than the position).

    python benchmarks/tools/ranked_answers.py --time 0.5 --multipv 8 --depth 100
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from patchsolve import Position, search
from patchsolve.search.endgame import near_end

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_exact import DATA, loss_of, read_rows  # noqa: E402


def false_claim(known: dict, d: dict) -> bool:
    """Whether a row's claim contradicts the move's known value or bounds
    (the set values some placements only as far as "no better than the
    patch's best": an exact claim within those bounds is not contradicted)."""
    lo, hi = known["lower"], known["upper"]
    if d["bound"] == "exact":
        return not lo <= d["score"] <= hi
    if d["bound"] == "upper":
        return lo > d["score"]
    if d["bound"] == "lower":
        return hi < d["score"]
    return False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=0.5)
    ap.add_argument("--multipv", type=int, default=8)
    ap.add_argument("--depth", type=int, default=None)
    args = ap.parse_args()
    rows = [r for r in read_rows(DATA) if near_end(Position(r["position"]))]
    exact = false = above = shown = 0
    losses, times = [], []
    for row in rows:
        pos = Position(row["position"])
        known = {m["move"]: m for m in row["moves"]}
        t0 = time.perf_counter()
        r = search(pos, time=args.time, multipv=args.multipv, depth=args.depth)
        times.append(time.perf_counter() - t0)
        exact += r.bound == "exact"
        losses.append(loss_of(row, str(r.best_move))[0])
        for d in r.root_moves:
            shown += 1
            if false_claim(known[str(d["move"])], d):
                false += 1
                k = known[str(d["move"])]
                print(
                    f"  {row['position']}: {d['move']} {d['score']} ({d['bound']}), known "
                    f"[{k['lower']}, {k['upper']}]",
                    file=sys.stderr,
                )
            above += d["bound"] == "estimate" and d["score"] > row["value"]
    print(
        f"{len(rows)} positions, {args.time} s, multipv {args.multipv}, depth {args.depth}: "
        f"{exact} exact answers, first row loses {statistics.mean(losses):.2f} points a move "
        f"({sum(x == 0 for x in losses)} optimal, worst {max(losses)}), "
        f"{false} of {shown} rows contradict the known values, {above} estimates above the position's value, "
        f"{statistics.mean(times):.3f} s a move"
    )


if __name__ == "__main__":
    main()
