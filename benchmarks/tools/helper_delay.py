"""The solver's helpers started late: each call searches HELPER_DELAY nodes
on one thread before its helpers start (``_solver.pyx``). On the near-end
positions of the perfect-play set (``tests/data/exact_26_34.jsonl.xz``, a
token within 15 spaces of the end), and optionally on positions of the
reach set, ``patchsolve.solve`` on ``--workers`` threads with the delay
0 (helpers from the start) and the default, alternating, and on one
thread: exact answers within ``--time`` (with ``--all-moves``: every row
settled, ``proof.settled``) and the seconds they took.

    python benchmarks/tools/helper_delay.py --time 0.125 --all-moves
    python benchmarks/tools/helper_delay.py --time 0.025
    python benchmarks/tools/helper_delay.py --reach 17 26 27 29 30 36 --time 60
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from patchsolve import Position, solve
from patchsolve.search import _solver
from patchsolve.search.endgame import near_end
from patchsolve.search.proof import settled

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_exact import DATA, read_rows  # noqa: E402

REACH = Path(__file__).resolve().parent.parent / "solve_reach.json"


def once(pos: Position, args, workers: int, delay: int) -> tuple[bool, float]:
    """(exact?, seconds) of one solve with the helper delay ``delay``."""
    old = _solver._helper_delay(delay)
    try:
        t0 = time.perf_counter()
        r = solve(pos, time=args.time, workers=workers, hash_mb=args.hash_mb, all_moves=args.all_moves)
        done = r.bound == "exact" and (not args.all_moves or settled(r.root_moves))
        return done, time.perf_counter() - t0
    finally:
        _solver._helper_delay(old)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=0.125, help="seconds a solve")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--hash-mb", type=int, default=4)
    ap.add_argument("--all-moves", action="store_true", help="value every root move (ranked answers)")
    ap.add_argument("--reach", type=int, nargs="*", help="positions of benchmarks/solve_reach.json instead")
    args = ap.parse_args()
    if args.reach:
        entries = json.loads(REACH.read_text())
        positions = [Position.from_text(entries[i]["text"]) for i in args.reach]
    else:
        positions = [Position(r["position"]) for r in read_rows(DATA)]
        positions = [p for p in positions if near_end(p)]
    default = _solver._helper_delay()
    arms = {
        "1 thread": (1, default),
        f"{args.workers} threads, delay 0": (args.workers, 0),
        f"{args.workers} threads, delay {default}": (args.workers, default),
    }
    out: dict = {name: [] for name in arms}
    for pos in positions:
        for name, (w, d) in arms.items():
            out[name].append(once(pos, args, w, d))
    print(f"{len(positions)} positions, {args.time} s a solve, all_moves={args.all_moves}, {args.hash_mb} MB")
    for name, runs in out.items():
        done = [t for ok, t in runs if ok]
        med = statistics.median(done) if done else float("nan")
        print(f"  {name:24} {len(done):3d} exact, median {med:.3f} s, total {sum(t for _, t in runs):.2f} s")
    base, late = list(out.values())[1:]
    both = [(a[1], b[1]) for a, b in zip(base, late) if a[0] and b[0]]
    if both:
        ratios = sorted(b / a for a, b in both)
        print(
            f"  delayed / from the start, where both exact: median {statistics.median(ratios):.2f} "
            f"({len(both)} positions)"
        )


if __name__ == "__main__":
    main()
