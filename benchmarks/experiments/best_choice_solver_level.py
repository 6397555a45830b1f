"""Nodes to the exact value: the plain driver vs choice tests + value on one table (one thread).
The set is a JSON list or JSON lines, plain or xz:

    python benchmarks/experiments/best_choice_solver_level.py 4000000 tests/data/exact_26_34.jsonl.xz
    python benchmarks/experiments/best_choice_solver_level.py 4000000 benchmarks/solve_reach.json
"""

import json
import sys
import time
from pathlib import Path

import patchsolve
from patchsolve import Position
from patchsolve.search import questions
from patchsolve.search.limits import Limits
from patchsolve.search.solver import c_solver

CAP = int(sys.argv[1])
SET = sys.argv[2]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from inputs import read_jsonl  # noqa: E402

rows = json.load(open(SET)) if SET.endswith(".json") else read_jsonl(SET)
rows = [r for r in rows if r.get("exact", True)]
idx = [int(x) for x in sys.argv[3:]] or range(len(rows))
tp = tc = 0
for i in idx:
    r = rows[i]
    pos = Position.from_text(r.get("position") or r.get("text"))
    s = c_solver(64)
    s.set_limits(CAP, 0.0)
    t = time.process_time()
    lo, hi = s.solve(pos._c, *s.bounds(pos._c), s.guess(pos._c))
    tpl = time.process_time() - t
    plain = s.nodes if lo == hi else None
    hint = patchsolve.search(pos, engine="alphabeta", nodes=20000, seed=0, endgame_solve=False)
    g = s.guess(pos._c)
    t = time.process_time()
    res, c, n = questions.choice_or_value(
        pos, Limits(nodes=CAP, hash_mb=64, workers=1, seed=0), hint.best_move, int(hint.score) - 2
    )
    tch = time.process_time() - t
    ch = n if res is not None and res.bound == "exact" else None
    print(
        i,
        lo,
        hi,
        plain,
        f"{tpl:.2f}",
        res and res.score,
        ch,
        f"{tch:.2f}",
        c and (str(c[0]), c[1], c[2]),
        flush=True,
    )
