"""The greedy player with and without the placement look-ahead: paired games
(each random circle twice, sides swapped), revised edition.

    python benchmarks/bench_greedy_lookahead.py [--pairs 500] [--mode 1] [--seed 0]
"""

from __future__ import annotations

import argparse
import math

from patchsolve.position import Position
from patchsolve.search import _eval, _knowledge


def play(seed: int, lookahead_side: int, mode: int) -> int:
    """Final margin of the look-ahead side."""
    pos = Position.start(seed=seed)
    while not pos.is_over:
        c = pos._c
        code = _knowledge.greedy_lookahead_move(c, mode) if pos.to_move == lookahead_side else _eval.greedy_move(c)
        pos = Position(c.play(code))
    a, b = pos.scores()
    return a - b if lookahead_side == 0 else b - a


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return c - h, c + h


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=500)
    ap.add_argument("--mode", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    margins = [play(a.seed * 100_000 + i, side, a.mode) for i in range(a.pairs) for side in (0, 1)]
    n = len(margins)
    score = (sum(m > 0 for m in margins) + 0.5 * sum(m == 0 for m in margins)) / n
    lo, hi = wilson(score, n)
    print(f"greedy+lookahead(mode {a.mode}) vs greedy: {n} games, {100 * score:.1f}% "
          f"[{100 * lo:.1f}, {100 * hi:.1f}], mean margin {sum(margins) / n:+.2f}")


if __name__ == "__main__":
    main()
