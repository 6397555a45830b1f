"""Build the judge's late set: positions of the last third of self-play
games, spread evenly over it, every legal move valued by the exact solver.

Games: engine self-play (20,000 nodes a move, one thread), circles seeded
``seed * 1000 + g``. From game ``g`` the first position whose phase (both
players' spaces left to the last space; 106 at the start) is at most a
target drawn evenly from 1..35 (the last third) is kept when it offers more
than one move. Each is solved with ``all_moves=True`` (one thread, a time
limit): the root's value and every patch's best placement exactly, other
placements exactly or proven no better (``upper``); a position is kept only
when its value is exact. Rows are appended as they are solved (a rerun
skips the games already there).

    python benchmarks/judge/build.py --count 80 --time 20 --out benchmarks/judge/late_set.jsonl

Positions 26-34 spaces from the end are dear to solve; the perfect-play set
(tests/data/exact_26_34.jsonl.xz) has 51 of them, and ``judge.py late``
reads both.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import patchsolve as ps
from patchsolve.search.result import phase_of

LAST_THIRD = 35


def game_position(g: int, seed: int):
    """The kept position of game ``g`` and its target phase (None: none kept)."""
    rng = random.Random(seed * 1_000_003 + g)
    target = rng.randint(1, LAST_THIRD)
    game = ps.Game.new(seed=seed * 1000 + g)
    while not game.end.is_over:
        pos = game.end
        if phase_of(pos) <= target:
            return (pos, target) if len(pos.legal_moves()) > 1 else (None, target)
        game.push(ps.search(pos, nodes=20_000, workers=1, seed=0).best_move)
    return None, target


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=80, help="games to take positions from")
    ap.add_argument("--time", type=float, default=20.0, help="seconds of solving a position")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    done = set()
    if args.out.exists():
        done = {json.loads(line)["game"] for line in args.out.read_text().splitlines() if line.strip()}
    with args.out.open("a") as fh:
        for g in range(args.count):
            name = f"{args.seed}/{g}"
            if name in done:
                continue
            pos, target = game_position(g, args.seed)
            if pos is None:
                continue
            t0 = time.perf_counter()
            r = ps.solve(pos, time=args.time, workers=1, all_moves=True)
            row = {
                "game": name,
                "position": pos.to_text(),
                "phase": phase_of(pos),
                "target": target,
                "exact": r.bound == "exact",
                "value": r.score,
                "lower": r.lower,
                "upper": r.upper,
                "nodes": r.nodes,
                "seconds": round(time.perf_counter() - t0, 2),
                "moves": [
                    {
                        "move": str(d["move"]),
                        "score": d["score"],
                        "bound": d["bound"],
                        "lower": d["lower"],
                        "upper": d["upper"],
                    }
                    for d in r.root_moves
                ],
            }
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            print(f"{name}: phase {row['phase']} exact {row['exact']} {row['seconds']} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
