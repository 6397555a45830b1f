"""Win rate of the first-named player of a `tournament --games` CSV (kept
in benchmarks/results/, xz-compressed), with its 95% Wilson interval and
mean margin: for a run stopped part-way (the table the tournament prints is
rewritten only for the games it finished, and lost on a kill), or to check
a note's figure from its games.

    python benchmarks/tools/summarize_games.py benchmarks/results/tuning_games/*.csv.xz

Given several files, a last line sums them (all must name the same A).
"""

from __future__ import annotations

import csv
import io
import lzma
import sys

from patchsolve.arena.tournament import wilson


def tally(path: str):
    """(A, wins of A, games, summed margin of A) of one file, plain or .xz."""
    with lzma.open(path, "rt", newline="") if path.endswith(".xz") else open(path, newline="") as f:
        rows = list(csv.DictReader(io.StringIO(f.read())))
    if not rows:
        return None, 0, 0, 0
    a = rows[0]["first"]
    wins = margin = 0
    for r in rows:
        diff = int(r["score_first"]) - int(r["score_second"])
        a_first = r["first"] == a
        wins += int(r["winner"]) == (0 if a_first else 1)
        margin += diff if a_first else -diff
    return a, wins, len(rows), margin


def line(name: str, a: str, wins: int, n: int, margin: int) -> str:
    if not n:
        return f"{name}: no games"
    lo, hi = wilson(wins, n)
    return (
        f"{name}: A = {a}: {wins}/{n} = {100 * wins / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}], "
        f"mean margin A {margin / n:+.1f}"
    )


def summary(path: str) -> str:
    return line(path, *tally(path))


if __name__ == "__main__":
    tallies = [tally(p) for p in sys.argv[1:]]
    for p, t in zip(sys.argv[1:], tallies):
        print(line(p, *t))
    names = {t[0] for t in tallies if t[2]}
    if len(tallies) > 1 and len(names) == 1:
        print(line("all", names.pop(), *(sum(t[i] for t in tallies) for i in (1, 2, 3))))
