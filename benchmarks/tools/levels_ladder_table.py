"""The level ladder as the manual shows it: each rung's result and every
level's Elo against level 10, chained rung by rung, with 95% intervals.

    python benchmarks/tools/levels_ladder_table.py benchmarks/results/levels_ladder

Reads the ``*.games.csv`` that ``benchmarks/experiments/levels_ladder.sh``
writes (A against B, sides swapped), plain or xz-compressed as kept. A rung's Elo is from A's score; its
standard error by the delta method, sqrt(p(1-p)/n) * 400 / (ln 10 p(1-p)).
Chained, the differences add and their variances add (the rungs are
independent matches). A rung won or lost in every game has no finite
estimate: its score is taken as half a game from the edge, and the table
says so.
"""

from __future__ import annotations

import csv
import io
import lzma
import math
import sys
from pathlib import Path

RUNGS = ["greedy", *[f"level:{k}" for k in range(1, 10)], "level:10"]


def rung_file(folder: Path, a: str, b: str) -> Path:
    hits = sorted(folder.glob(f"{a}_vs_{b}*.games.csv*".replace(":", "_")))
    if not hits:
        raise SystemExit(f"no games of {a} against {b} in {folder}")
    return hits[0]


def score(path: Path, a: str) -> tuple[float, int]:
    """A's points (wins) and the games, from the per-game rows."""
    wins, n = 0, 0
    text = lzma.decompress(path.read_bytes()).decode() if path.suffix == ".xz" else path.read_text()
    for row in csv.DictReader(io.StringIO(text)):
        first_is_a = row["first"].split(",")[0] == a
        a_won = (row["winner"] == "0") == first_is_a
        wins += a_won
        n += 1
    return wins, n


def elo(p: float) -> float:
    return -400 * math.log10(1 / p - 1)


def main(folder: Path) -> None:
    rungs = []
    for a, b in zip(RUNGS, RUNGS[1:]):
        wins, n = score(rung_file(folder, a, b), a)
        edge = wins in (0, n)
        p = min(max(wins, 0.5), n - 0.5) / n
        se = math.sqrt(p * (1 - p) / n) * 400 / (math.log(10) * p * (1 - p))
        rungs.append((a, b, wins, n, elo(p), se, edge))
    print("| A | B | games | A wins | Elo A-B (95%) |")
    print("|---|---|---:|---:|---|")
    for a, b, wins, n, d, se, edge in rungs:
        mark = " (all games one way: from half a game)" if edge else ""
        print(
            f"| `{a}` | `{b}` | {n} | {wins} | {d:+.0f} [{d - 1.96 * se:+.0f}, {d + 1.96 * se:+.0f}]{mark} |"
        )
    print()
    print("| player | Elo against level 10 (95%) |")
    print("|---|---|")
    total, var = 0.0, 0.0
    rows = []
    for a, _b, _w, _n, d, se, _e in reversed(rungs):
        total += d
        var += se * se
        rows.append((a, total, 1.96 * math.sqrt(var)))
    print("| `level:10` | 0 |")
    for a, t, h in rows:
        print(f"| `{a}` | {t:+.0f} [{t - h:+.0f}, {t + h:+.0f}] |")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/results/levels_ladder"))
