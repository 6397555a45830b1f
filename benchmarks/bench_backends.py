"""Games per minute of the tournament backends: local processes and Ray
tasks, with 1 and 2 workers, on a fixed cheap pairing (depth-limited, so
every backend must play the very same games; checked).

For Ray the start-up of the local Ray is timed apart from the games (it is
paid once per command); games/min counts only the games.

Run:  nice python benchmarks/bench_backends.py [--pairs 15] [--workers 1 2] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time

from patchsolve.arena.backends import LocalBackend, RayBackend, import_ray
from patchsolve.arena.tournament import run_tournament

PLAYERS = ["alphabeta:depth=2", "greedy"]


def load() -> str:
    return (
        subprocess.run(["uptime"], capture_output=True, text=True).stdout.split("load average:")[-1].strip()
    )


def games_of(results):
    return [(g.first, g.circle, g.moves, g.scores) for r in results for g in r.games]


def timed_games(backend, pairs: int, seed: int):
    t0 = time.perf_counter()
    results = run_tournament(PLAYERS, pairs=pairs, seed=seed, backend=backend)
    return results, time.perf_counter() - t0


def bench_local(workers: int, pairs: int, seed: int):
    results, took = timed_games(LocalBackend(workers), pairs, seed)
    return results, took, 0.0


def bench_ray(workers: int, pairs: int, seed: int):
    ray = import_ray()
    t0 = time.perf_counter()
    ray.init(
        address="local",
        num_cpus=workers,
        include_dashboard=False,
        logging_level="warning",
        log_to_driver=False,
    )
    start = time.perf_counter() - t0
    try:
        results, took = timed_games(RayBackend(workers), pairs, seed)
    finally:
        ray.shutdown()
    return results, took, start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=15, help="circles (2 games each)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--backends", nargs="+", default=["local", "ray"], choices=["local", "ray"])
    args = ap.parse_args()
    runners = {"local": bench_local, "ray": bench_ray}
    print(
        f"players: {' vs '.join(PLAYERS)}, {2 * args.pairs} games per run, seed {args.seed}, "
        f"{os.cpu_count()} cores"
    )
    print(
        "| backend | workers | games | seconds (games) | games/min | Ray start-up s | same games as the first row | load before | load after |"  # noqa: E501
    )
    print("|---|---:|---:|---:|---:|---:|---|---|---|")
    reference = None
    for name in args.backends:
        for w in args.workers:
            before = load()
            results, took, start = runners[name](w, args.pairs, args.seed)
            games = games_of(results)
            reference = reference or games
            n = len(games)
            print(
                f"| {name} | {w} | {n} | {took:.1f} | {60 * n / took:.1f} | "
                f"{start:.1f} | {'yes' if games == reference else 'NO'} | {before} | {load()} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
