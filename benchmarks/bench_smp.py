"""Lazy SMP speed: nodes/s and the depth reached by the alpha-beta at 1..N
threads on the bench set, at a fixed time per position, repeated (the
machine may be shared: each repeat is printed, and the medians).

Run:  nice python benchmarks/bench_smp.py [--time 1.0] [--threads 1,2] [--repeats 3]
      nice python benchmarks/bench_smp.py --to-depth [--probe-nodes 300000] [--threads 1,2] [--repeats 3]

``--to-depth`` measures the work instead, which a loaded machine hardly
changes: each position is searched to a fixed depth (the deepest one thread
finishes within ``--probe-nodes``, so the choice is deterministic) and the
nodes of all threads are summed. With N threads on N free cores the time to
that depth would be about N x nodes(1) / nodes(N) times shorter ("work
speed-up"; it assumes the threads run at one speed -- the main thread's
share of the nodes, printed, is then 1/N -- and ignores memory contention,
which nodes per CPU second shows).

The near-end exact shortcut is off so only the alpha-beta is timed. The
load average and CPU/wall (how many cores the threads really got) are
printed with the figures, since other processes take cores from the
helpers; nodes per CPU second shows the threads' overhead apart from that.
(Depth 100 = every iteration finished: the endgame positions' trees end.)
Strength is a tournament (see benchmarks/results/smp.md).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import time

from patchsolve.search import alphabeta, search
from patchsolve.search.bench import read_positions

OPTIONS = alphabeta.check_options({})  # the engine's defaults


def searcher():
    return alphabeta._searcher(alphabeta.DEFAULT_HASH_MB, OPTIONS)


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


def probe_depth(pos, probe_nodes: int) -> int:
    """The deepest iteration one thread finishes within ``probe_nodes``."""
    done = searcher().run(pos._c, alphabeta.MAX_DEPTH, probe_nodes, 0.0)
    return done[-1][0] if done else 1


def to_depth(pos, depth: int, workers: int) -> tuple[int, float, float]:
    """(nodes of all threads, wall seconds, the main thread's share of the
    nodes) to finish iteration ``depth`` with ``workers`` threads (the
    Searcher directly: the API refuses threads with a depth)."""
    s = searcher()
    t0 = time.perf_counter()
    done = s.run(pos._c, depth, 0, 0.0, 1, workers)
    assert done[-1][0] == depth and s.threads == workers
    return s.nodes, time.perf_counter() - t0, done[-1][3] / s.nodes


def work_main(args, positions, counts) -> None:
    # only the middle-game and opening positions: the endgame trees end within a few plies
    chosen = [(ph, pos, probe_depth(pos, args.probe_nodes)) for ph, pos in positions if ph != "endgame"]
    print("depths " + " ".join(str(d) for _, _, d in chosen))
    ratios = {w: [] for w in counts}
    for rep in range(args.repeats):
        for w in counts:
            nodes = [to_depth(pos, d, w) for _, pos, d in chosen]
            ratios[w].append(nodes)
            print(
                f"repeat {rep} threads {w}: nodes {[n for n, _, _ in nodes]}, "
                f"main thread's share {statistics.mean(m for _, _, m in nodes):.2f}, "
                f"wall {sum(t for _, t, _ in nodes):.2f}s, load {os.getloadavg()[0]:.2f}",
                flush=True,
            )
    base = [statistics.median(r[i][0] for r in ratios[counts[0]]) for i in range(len(chosen))]
    print("\n| threads | total nodes to depth (median) | nodes vs 1 thread (geo. mean) | work speed-up |")
    print("|---|---|---|---|")
    for w in counts:
        med = [statistics.median(r[i][0] for r in ratios[w]) for i in range(len(chosen))]
        rel = statistics.geometric_mean(m / b for m, b in zip(med, base))
        print(f"| {w} | {sum(med):,.0f} | {rel:.2f} | {w / rel:.2f} |")


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=1.0, help="seconds per position")
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--to-depth", action="store_true", help="measure the nodes to a fixed depth instead")
    ap.add_argument("--probe-nodes", type=int, default=300_000)
    args = ap.parse_args()
    positions = read_positions()
    counts = [int(x) for x in args.threads.split(",")]
    if args.to_depth:
        print(f"commit {commit()}, nodes to a fixed depth, cores {os.cpu_count()}")
        with alphabeta.learned_evaluation(OPTIONS["learned"]):  # as search() sets it
            return work_main(args, positions, counts)
    runs = {w: [] for w in counts}
    print(f"commit {commit()}, {len(positions)} positions x {args.time} s, cores {os.cpu_count()}")
    for rep in range(args.repeats):
        for w in counts:  # interleaved, so a load change hits every count
            load = os.getloadavg()[0]
            r = one_pass(positions, args.time, w)
            runs[w].append(r)
            print(
                f"repeat {rep} threads {w}: {r['nps']:,.0f} nodes/s, {r['cpu_nps']:,.0f} nodes/cpu-s, "
                f"cpu/wall {r['cores']:.2f}, depths {r['depths']}, load {load:.2f}",
                flush=True,
            )
    base = statistics.median(r["nps"] for r in runs[counts[0]])
    print("\n| threads | median nodes/s | x | nodes/cpu-s | cpu/wall | depths (median per position) |")
    print("|---|---|---|---|---|---|")
    for w in counts:
        med = {k: statistics.median(r[k] for r in runs[w]) for k in ("nps", "cpu_nps", "cores")}
        per_pos = [statistics.median(r["depths"][i] for r in runs[w]) for i in range(len(positions))]
        print(
            f"| {w} | {med['nps']:,.0f} | {med['nps'] / base:.2f} | {med['cpu_nps']:,.0f} | "
            f"{med['cores']:.2f} | {' '.join(f'{d:g}' for d in per_pos)} |"
        )


if __name__ == "__main__":
    main()
