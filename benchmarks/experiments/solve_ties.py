"""How often the best move of a reach position ties: per position of
benchmarks/solve_reach.json (by index) solved exactly with ``all_moves``,
the number of optimal root moves, how many distinct table keys their
children have (equal keys would be provably equal values), and the best
value of a non-optimal move. A move proven best without the exact value
needs a gap between the best and the second best (solve's ``best=True``).

    python benchmarks/experiments/solve_ties.py 2 3 6 7 11 13 19 21 26 28
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import patchsolve as ps
from patchsolve import Position
from patchsolve.search.solver import c_solver

SET = Path(__file__).resolve().parent.parent / "solve_reach.json"


def main(argv: list[str]) -> int:
    entries = json.loads(SET.read_text())
    for i in (int(x) for x in argv):
        pos = Position(entries[i]["text"])
        r = ps.solve(pos, nodes=4_000_000, workers=1, all_moves=True)
        if r.bound != "exact":
            print(i, "open")
            continue
        v = r.score
        best = [x["move"] for x in r.root_moves if x["lower"] >= v]
        second = max((x["upper"] for x in r.root_moves if x["lower"] < v), default=None)
        s = c_solver(16)
        s.set_limits(0, 0.0)
        distinct = 0
        for m in best:  # a child whose key the table already holds shares a key with an earlier one
            c = pos.play(m)
            if c.is_over or s.tt_bounds(c._c) is None:
                distinct += 1
                if not c.is_over:
                    s.solve(c._c, *s.bounds(c._c), s.guess(c._c))
        print(
            i,
            "value",
            v,
            "moves",
            len(r.root_moves),
            "optimal",
            len(best),
            "distinct keys",
            distinct,
            "next best <=",
            second,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
