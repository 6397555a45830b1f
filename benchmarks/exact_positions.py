"""Build the set of positions 26-34 spaces from the end with every move's
value proven by the solver (issue 28's "perfect play" yardstick).

The positions come from the 2,000-game self-play corpus
(tests/data/selfplay_2000.jsonl.xz): games are taken in a seeded order and
from each the first position whose phase (both players' spaces left to the
last space) is at most a target drawn from 26-34 is kept if it is at least
26 and offers more than one move. Each is solved with ``all_moves=True``:
the best move's value is exact, every other patch's best placement is
exact, and any other placement is proven no better than the best (an upper
bound) or valued exactly. A position is kept only when the root value is
exact.

Rows are appended to the output (one JSON line a position, plain text) as
they are solved; a rerun skips the positions already there. The set the
benchmarks and the tests read is that file xz-compressed into tests/data/
(then update its sha256 and bytes in tests/data/manifest.json):

    python benchmarks/exact_positions.py --count 75 --time 120 --workers 2 --out exact_26_34.jsonl
    xz -9e -T1 -c exact_26_34.jsonl > tests/data/exact_26_34.jsonl.xz
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import patchsolve as ps
from inputs import CORPUS_2000 as CORPUS
from inputs import read_corpus
from patchsolve.arena.selfplay import record_positions
from patchsolve.search.result import phase_of

LOW, HIGH = 26, 34


def candidates(records, seed: int):
    """(game key, position) per game, games in a seeded order: the first
    position of the game at or below a phase drawn for it from LOW..HIGH."""
    rng = random.Random(seed)
    order = list(range(len(records)))
    rng.shuffle(order)
    for g in order:
        r = records[g]
        target = rng.randint(LOW, HIGH)
        for ply, pos, _ in record_positions(r):
            if phase_of(pos) <= target:
                if phase_of(pos) >= LOW and len(pos.legal_moves()) > 1:
                    yield f"{r['circle_index']}/{r['edition']}/{r['first']}/{ply}", pos
                break


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=75)
    ap.add_argument("--time", type=float, default=120.0, help="solver seconds per position")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tries", type=int, default=0, help="positions to try at most (0: 3 x count)")
    ap.add_argument("--out", type=Path, default=Path("exact_26_34.jsonl"), help="plain JSON lines")
    args = ap.parse_args()
    done = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done[row["game"]] = row
    kept = sum(1 for row in done.values() if row["exact"])
    records = read_corpus(CORPUS)
    tries = args.tries or 3 * args.count
    for i, (game, pos) in enumerate(candidates(records, args.seed)):
        if kept >= args.count or i >= tries:
            break
        if game in done:
            continue
        t0 = time.monotonic()
        r = ps.solve(pos, all_moves=True, time=args.time, workers=args.workers)
        row = {
            "game": game,
            "position": pos.to_text(),
            "phase": phase_of(pos),
            "exact": r.bound == "exact",
            "value": r.score if r.bound == "exact" else None,
            "lower": r.lower,
            "upper": r.upper,
            "nodes": r.nodes,
            "seconds": round(time.monotonic() - t0, 2),
            "moves": [
                {
                    "move": str(d["move"]),
                    "score": d["score"],
                    "bound": d["bound"],
                    "lower": d.get("lower"),
                    "upper": d.get("upper"),
                }
                for d in (r.root_moves or [])
            ]
            if r.bound == "exact"
            else [],
        }
        with args.out.open("a") as f:
            f.write(json.dumps(row) + "\n")
        kept += row["exact"]
        print(
            f"{game} phase {row['phase']} exact {row['exact']} value {row['value']} "
            f"{row['seconds']} s, {len(row['moves'])} moves; kept {kept}",
            flush=True,
        )


if __name__ == "__main__":
    main()
