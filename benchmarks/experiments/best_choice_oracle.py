"""Oracle cost of the group question vs the exact value, one thread, nodes."""

import sys
from pathlib import Path

from patchsolve import Position
from patchsolve.search.solver import c_solver

CAP = int(sys.argv[1]) if len(sys.argv) > 1 else 8_000_000
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from inputs import EXACT_SET, read_jsonl  # noqa: E402

rows = [r for r in read_jsonl(EXACT_SET) if r.get("exact")]
only = [int(x) for x in sys.argv[2:]]


def group(m):
    return m.kind if m.patch is None or m.kind != "buy" else m.patch


def test(s, pos, t, skip):
    lo, hi = s.solve(pos._c, t - 1, t, t, 0, list(skip))
    return lo, hi


for i, r in enumerate(rows):
    if only and i not in only:
        continue
    pos = Position.from_text(r["position"])
    val = {m["move"]: m["score"] for m in r["moves"]}
    moves = pos.legal_moves()
    g = {}
    for m in moves:
        g.setdefault(group(m), []).append(m)
    gv = {k: max(val[str(m)] for m in ms) for k, ms in g.items()}
    v = r["value"]
    best = [k for k in gv if gv[k] == v]
    G = best[0]
    w = max([gv[k] for k in gv if k != G], default=-999)
    # exact
    s = c_solver(64)
    s.set_limits(CAP, 0.0)
    lo, hi = s.solve(pos._c, *s.bounds(pos._c), s.guess(pos._c))
    ex = s.nodes if lo == hi else None
    out = [i, r["phase"], len(moves), len(g), len(best), v - w, ex]
    for a in (v, w if w > -999 else v):
        s = c_solver(64)
        s.set_limits(CAP, 0.0)
        gcodes = {m.code for m in g[G]}
        rest = [m.code for m in moves if m.code not in gcodes]
        lo1, hi1 = test(s, pos, a, rest)
        n1 = s.nodes
        ok1 = lo1 >= a
        if rest:
            lo2, hi2 = test(s, pos, a + 1, gcodes)
            ok2 = hi2 < a + 1
        else:
            ok2 = True
        out += [(n1, s.nodes - n1) if ok1 and ok2 else None]
    print(*out, flush=True)
