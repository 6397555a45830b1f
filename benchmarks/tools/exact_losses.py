"""Where a player's points go on the perfect-play set (tests/data/exact_26_34.jsonl.xz):
each move that loses, and whether it lost by the choice of what to do
(walk, or which patch: that choice's best placement is already worse than
the position's value) or only by where the patch went.

    python benchmarks/tools/exact_losses.py alphabeta:time=0.1

Prints one line per losing move, then the points lost by each kind and by
the moves where walking was the only best move.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_exact import DATA, loss_of, played, read_rows  # noqa: E402


def choice(move: str) -> str:
    """What a move decides before its placement: walk, a patch id, leather."""
    if move == "walk":
        return move
    return "leather" if move.startswith("leather") else move.split(":")[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("player")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rows = read_rows(args.data)
    by_kind = {"choice": 0.0, "placement": 0.0}
    walk_only = 0.0
    for i, (row, move, lost, is_bound) in enumerate(played(args.player, rows, args.seed)):
        if lost <= 0:
            continue
        mine = choice(move)
        same = [row["value"] - loss_of(row, m["move"])[0] for m in row["moves"] if choice(m["move"]) == mine]
        kind = "placement" if max(same) == row["value"] else "choice"
        by_kind[kind] += lost
        best = [m["move"] for m in row["moves"] if m["bound"] == "exact" and m["score"] == row["value"]]
        walk_only += lost if best == ["walk"] else 0
        bound = " (a bound)" if is_bound else ""
        print(
            f"position {i} (phase {row['phase']}): played {move}, lost {lost:g}{bound} by the {kind}", end=""
        )
        print(f"; best {', '.join(best[:3])}")
    total = sum(by_kind.values())
    print(
        f"{args.player}: {total:g} points lost on {len(rows)} positions; by the choice {by_kind['choice']:g}, "
        f"by the placement {by_kind['placement']:g}; where walking was the only best move {walk_only:g}"
    )


if __name__ == "__main__":
    main()
