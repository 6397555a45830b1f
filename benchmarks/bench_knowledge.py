"""Speed of the learned evaluation: ns per learned evaluation and
alpha-beta nodes/s with the learned evaluation on and off, on the bench set.

Run::

    python benchmarks/bench_knowledge.py [--repeat 200] [--nodes 300000]

Times are process CPU time, so a loaded machine slows them less than wall
time. The evaluation is timed through its Python entry (``learned_value``)
less the same call to ``margin_of`` (the score margin alone), so the Python
call overhead cancels; the quilt terms are memoised, as in a search. (The
C-side timing hooks ``bench_learned``/``bench_lookahead`` that also timed
new quilts are retired: benchmarks/results/retired_options.md.)
"""

from __future__ import annotations

import argparse
import time

from patchsolve.search import _learned, bench, learned, search


def positions():
    return [pos for _, pos in bench.read_positions()]


def _calls(fn, pos, repeat: int) -> float:
    c = pos._c
    t0 = time.process_time()
    for r in range(repeat):
        fn(c, r & 1)
    return time.process_time() - t0


def ns_per_eval(repeat: int) -> float:
    """CPU ns of one learned evaluation (memoised quilt terms), net of the
    Python call."""
    total_t, total_n = 0.0, 0
    for pos in positions():
        total_t += _calls(_learned.learned_value, pos, repeat) - _calls(_learned.margin_of, pos, repeat)
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
    if not learned.load():
        raise SystemExit("no learned weights in this build")
    print(f"learned evaluation: {ns_per_eval(a.repeat * 100):.1f} ns per evaluation (quilt terms memoised)")
    for lw in (False, True):
        print(f"alpha-beta nodes/s, learned={lw}: {nps(a.nodes, learned=lw):,.0f}")


if __name__ == "__main__":
    main()
