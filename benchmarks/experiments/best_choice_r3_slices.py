"""The hand-over's solver alone (``choice_or_value``) under node budgets, on
the 37 set positions where the 1-second tree ended early (as
``best_choice_r2_offline.py``), with each slice a share of the budget (BASE unset:
main) or of a fixed BASE nodes, if larger (the variant not kept).

    python benchmarks/experiments/best_choice_r3_slices.py all 1150000
    BASE=3000000 python benchmarks/experiments/best_choice_r3_slices.py all 1150000
"""

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
ENGINE_MOVES = HERE.parent / "results" / "best_choice" / "round2" / "engine_moves.json"
import bench_exact as B  # noqa: E402
from patchsolve.rules.position import Position  # noqa: E402
from patchsolve.search import questions, solver  # noqa: E402
from patchsolve.search.limits import Limits  # noqa: E402

BASE = int(os.environ.get("BASE", "0"))


def limit_slice(self, share):
    """``_Run.limit_slice`` under a node budget, shares of at least BASE."""
    cap = max(self.budget[0] - self.sign_nodes, 1)
    n = cap if share is None else min(cap, self.solver.nodes + max(1, int(max(BASE, self.budget[0]) * share)))
    self.solver.set_limits(n, 0.0)


def main() -> None:
    if BASE:
        solver._Run.limit_slice = limit_slice
    rows = B.read_rows(B.DATA)
    engine = {e["i"]: e for e in json.loads(ENGINE_MOVES.read_text())}
    budget = int(sys.argv[2])
    picked = sorted(i for i, e in engine.items() if e["used"] <= 0.95)
    if sys.argv[1] != "all":
        picked = [int(x) for x in sys.argv[1].split(",")]
    lost = proofs = 0
    for i in picked:
        e, row = engine[i], rows[i]
        pos = Position(row["position"])
        move = next(m for m in pos.legal_moves() if str(m) == e["move"])
        limits = Limits(nodes=budget, hash_mb=16, workers=1, seed=0)
        r, choice, nodes = questions.choice_or_value(pos, limits, move, int(round(e["score"])))
        play, how = move, "-"
        if r is not None and r.bound == "exact" and r.proven_best:
            play, how = r.best_move, "exact"
        elif choice is not None:
            play, how = (move if choice[2] else choice[0]), "choice"
        loss = B.loss_of(row, str(play))[0]
        lost += loss
        proofs += how != "-"
        print(i, how, B.loss_of(row, e["move"])[0], "->", loss, nodes, flush=True)
    print("BASE", BASE, "budget", budget, "TOTAL loss", lost, "proofs", proofs)


if __name__ == "__main__":
    main()
