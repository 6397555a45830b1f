"""Win rate of the first-named player of a `tournament --games` CSV (kept
in benchmarks/results/), with its 95% Wilson interval and mean margin:
for a run stopped part-way (the table the tournament prints is rewritten
only for the games it finished, and lost on a kill).

    python benchmarks/summarize_games.py benchmarks/results/tuning_games/*.csv
"""

from __future__ import annotations

import csv
import sys

from patchsolve.tournament import wilson


def summary(path: str) -> str:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return f"{path}: no games"
    a = rows[0]["first"]
    wins = margin = 0
    for r in rows:
        diff = int(r["score_first"]) - int(r["score_second"])
        a_first = r["first"] == a
        wins += int(r["winner"]) == (0 if a_first else 1)
        margin += diff if a_first else -diff
    n = len(rows)
    lo, hi = wilson(wins, n)
    return (f"{path}: A = {a}: {wins}/{n} = {100 * wins / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}], "
            f"mean margin A {margin / n:+.1f}")


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(summary(p))
