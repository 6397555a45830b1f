"""Lazy SMP speed: nodes/s and the depth reached by the alpha-beta at 1..N
threads on the bench set, at a fixed time per position, repeated (the
machine may be shared: each repeat is printed, and the medians).

Run:  nice python benchmarks/bench_smp.py [--time 1.0] [--threads 1,2] [--repeats 3]

The near-end exact shortcut is off so only the alpha-beta is timed. The
load average and CPU/wall (how many cores the threads really got) are
printed with the figures, since other processes take cores from the
helpers; nodes per CPU second shows the threads' overhead apart from that.
(Depth 100 = every iteration finished: the endgame positions' trees end.) Strength is a tournament (see benchmarks/results/smp.md).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess

from patchsolve.bench import read_positions
from patchsolve.search import search


def cpu_seconds() -> float:
    """User + system CPU time of this process, all threads."""
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def one_pass(positions, seconds: float, workers: int) -> dict:
    """Nodes/s (wall), nodes per CPU second, CPU/wall (the cores the threads
    actually got) and the depths reached, over the bench set."""
    nodes, elapsed, depths = 0, 0.0, []
    cpu0 = cpu_seconds()
    for _, pos in positions:
        r = search(pos, engine="alphabeta", time=seconds, workers=workers, endgame_solve=False)
        assert r.workers == workers, (r.workers, workers)
        nodes += r.nodes
        elapsed += r.time
        depths.append(r.depth)
    cpu = cpu_seconds() - cpu0
    return {"nps": nodes / elapsed, "cpu_nps": nodes / cpu, "cores": cpu / elapsed, "depths": depths}


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=1.0, help="seconds per position")
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    positions = read_positions()
    counts = [int(x) for x in args.threads.split(",")]
    runs = {w: [] for w in counts}
    print(f"commit {commit()}, {len(positions)} positions x {args.time} s, cores {os.cpu_count()}")
    for rep in range(args.repeats):
        for w in counts:                      # interleaved, so a load change hits every count
            load = os.getloadavg()[0]
            r = one_pass(positions, args.time, w)
            runs[w].append(r)
            print(f"repeat {rep} threads {w}: {r['nps']:,.0f} nodes/s, {r['cpu_nps']:,.0f} nodes/cpu-s, "
                  f"cpu/wall {r['cores']:.2f}, depths {r['depths']}, load {load:.2f}", flush=True)
    base = statistics.median(r["nps"] for r in runs[counts[0]])
    print("\n| threads | median nodes/s | x | nodes/cpu-s | cpu/wall | depths (median per position) |")
    print("|---|---|---|---|---|---|")
    for w in counts:
        med = {k: statistics.median(r[k] for r in runs[w]) for k in ("nps", "cpu_nps", "cores")}
        per_pos = [statistics.median(r["depths"][i] for r in runs[w]) for i in range(len(positions))]
        print(f"| {w} | {med['nps']:,.0f} | {med['nps'] / base:.2f} | {med['cpu_nps']:,.0f} | "
              f"{med['cores']:.2f} | {' '.join(f'{d:g}' for d in per_pos)} |")


if __name__ == "__main__":
    main()
