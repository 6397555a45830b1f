"""What each question costs alone on a fresh 16 MB table, one thread: the
exact value (its first test at the engine's score) and the best choice
(from 2 under it), in nodes, up to a cap.

    python benchmarks/experiments/best_choice_r3_cost.py 4,12,40,41,28,24,26,39,27,10 5000000
"""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
ENGINE_MOVES = HERE.parent / "results" / "best_choice" / "round2" / "engine_moves.json"
import bench_exact as B  # noqa: E402
from patchsolve.rules.position import Position  # noqa: E402
from patchsolve.search import questions, solver  # noqa: E402
from patchsolve.search.limits import Limits  # noqa: E402


def main() -> None:
    rows = B.read_rows(B.DATA)
    engine = {e["i"]: e for e in json.loads(ENGINE_MOVES.read_text())}
    cap = int(sys.argv[2])
    for i in [int(x) for x in sys.argv[1].split(",")]:
        e, pos = engine[i], Position(rows[i]["position"])
        move = next(m for m in pos.legal_moves() if str(m) == e["move"])
        score = int(round(e["score"]))
        limits = Limits(nodes=cap, hash_mb=16, workers=1, seed=0)
        run = questions._choice_run(limits)
        lo, hi = run.narrow(pos, *solver._root_interval(run, pos), score)
        proof, nodes = questions.best_choice(pos, limits, move, score - questions.CHOICE_BELOW)
        proof = proof and (str(proof[0]), proof[1], proof[2])
        print(
            i, "value", rows[i]["value"], "proven", (lo, hi), run.nodes, "| choice", proof, nodes, flush=True
        )


if __name__ == "__main__":
    main()
