"""Rows with exact targets: positions near the end of the self-play
corpus's games, each valued by the solver.

They measure the learned evaluation against perfect play by phase, and
they fitted the late model (weights that change with the phase near the
end), which measured level and was not kept
(``benchmarks/results/late_model/``). Every position of a corpus game
whose phase (both players' spaces left) is in ``--low..--high`` is solved
with ``--time`` seconds; the exact ones are written (the columns of
``patchsolve.training.selfplay``, ``final_margin`` being the exact value
for the player to move) as they are solved, so a rerun resumes. The games
the perfect-play yardstick (``tests/data/exact_26_34.jsonl.xz``) drew
positions from are left out.

    python benchmarks/tools/exact_targets.py --out exact_rows.csv --games 1000 --workers 2
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import sys
import time
from pathlib import Path

import patchsolve as ps
from patchsolve.arena.selfplay import record_positions
from patchsolve.search.result import phase_of
from patchsolve.training.selfplay import COLUMNS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from inputs import CORPUS_2000 as CORPUS  # noqa: E402
from inputs import EXACT_SET as YARDSTICK  # noqa: E402
from inputs import read_corpus, read_jsonl  # noqa: E402

EXTRA = ["phase", "seconds"]


def yardstick_games() -> set[str]:
    """The corpus games (circle/edition/first) the yardstick drew from."""
    keys = set()
    for row in read_jsonl(YARDSTICK):
        keys.add("/".join(row["game"].split("/")[:3]))
    return keys


def positions(record: dict, low: int, high: int):
    """(ply, position) of the game whose phase is in low..high, with a choice of move."""
    for ply, pos, _ in record_positions(record):
        if low <= phase_of(pos) <= high and len(pos.legal_moves()) > 1:
            yield ply, pos


def solve_game(job):
    """The exact rows of one game (positions the solver did not prove in time are left out)."""
    index, record, low, high, seconds = job
    rows = []
    for ply, pos in positions(record, low, high):
        t0 = time.monotonic()
        r = ps.solve(pos, time=seconds, workers=1)
        if r.bound == "exact":
            rows.append(
                [
                    index,
                    ply,
                    pos.to_move,
                    r.score,
                    pos.to_text(),
                    "",
                    phase_of(pos),
                    round(time.monotonic() - t0, 3),
                ]
            )
    return index, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--games", type=int, default=1000, help="corpus games to use (in corpus order)")
    ap.add_argument("--low", type=int, default=4)
    ap.add_argument("--high", type=int, default=28)
    ap.add_argument("--time", type=float, default=3.0, help="solver seconds per position")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    done = set()
    if args.out.exists():
        with args.out.open(newline="") as f:
            done = {int(r["game"]) for r in csv.DictReader(f)}
    skip = yardstick_games()
    records = read_corpus(CORPUS)[: args.games]
    jobs = [
        (i, r, args.low, args.high, args.time)
        for i, r in enumerate(records)
        if i not in done and f"{r['circle_index']}/{r['edition']}/{r['first']}" not in skip
    ]
    new = not args.out.exists()
    with args.out.open("a", newline="") as f, multiprocessing.Pool(args.workers) as pool:
        w = csv.writer(f)
        if new:
            w.writerow(COLUMNS + EXTRA)
        for n, (i, rows) in enumerate(pool.imap_unordered(solve_game, jobs), 1):
            w.writerows(rows)
            f.flush()
            print(f"{n}/{len(jobs)} game {i}: {len(rows)} rows", flush=True)


if __name__ == "__main__":
    main()
