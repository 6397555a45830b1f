"""How often and how fast ``tiling.tile_quilts`` names every patch of a
mask-only position (what ``Position.to_board()`` draws for a position read
from the notation), on the positions of random and greedy games.

    python benchmarks/bench_tiling.py --games 3

Prints, per kind of game: positions, tilings found within the budget
(placements examined), mean and worst nodes and seconds.
"""

from __future__ import annotations

import argparse
import random
import time

import patchsolve as ps
from patchsolve.arena.players import make_player
from patchsolve.rules import tiling


def game_positions(kind: str, seed: int) -> list[ps.Position]:
    rng = random.Random(seed)
    players = [make_player("greedy", seed=seed), make_player("greedy", seed=seed + 1)]
    pos = ps.Position.start(seed=seed)
    out = []
    while True:
        out.append(pos)
        if pos.is_over:
            return out
        pos = pos.play(
            rng.choice(pos.legal_moves()) if kind == "random" else players[pos.to_move].choose(pos)
        )


def measure(positions, budget: int) -> dict:
    found, nodes, times = 0, [], []
    for pos in positions:
        search = {}
        t0 = time.perf_counter()
        try:
            tiling.tile_quilts(pos.fields(), budget=budget, stats=search)
            found += 1
        except tiling.TilingError:
            pass
        times.append(time.perf_counter() - t0)
        nodes.append(search["nodes"])
    return {
        "positions": len(positions),
        "found": found,
        "mean_nodes": sum(nodes) / len(nodes),
        "max_nodes": max(nodes),
        "mean_s": sum(times) / len(times),
        "max_s": max(times),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--budget", type=int, default=tiling.WORK_BUDGET)
    args = ap.parse_args()
    for kind in ("random", "greedy"):
        positions = [p for g in range(args.games) for p in game_positions(kind, g)]
        r = measure(positions, args.budget)
        print(
            f"{kind:<7} {r['positions']:>4} positions: {r['found']:>4} tiled "
            f"({100 * r['found'] / r['positions']:.1f}%) within {args.budget} placements; nodes mean "
            f"{r['mean_nodes']:.0f} max {r['max_nodes']}; time mean {r['mean_s']:.3f}s max {r['max_s']:.2f}s"
        )


if __name__ == "__main__":
    main()
