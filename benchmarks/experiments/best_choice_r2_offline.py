"""The hand-over's solver alone, offline, on the perfect-play set's
positions where the 1-second alpha-beta's tree ended with time left. Run
in ``benchmarks/results/best_choice/round2/``, with
``S=../../../experiments/best_choice_r2_offline.py``:

    python $S engine engine_moves.json     # the alpha-beta at 1 s, one thread, no solver
    python $S run engine_moves.json 1000000 > rows.txt   # choice_or_value, 1 M nodes
    python $S run engine_moves.json 0.45s > rows.txt     # ... or 0.45 s (MB=4 for a 4 MB table)
    OLD=1 /work/py-base $S run engine_moves.json 1000000  # a build before 682bb3b, whose
                                    # choice_or_value took the choice tests' threshold, score - 2

``run`` gives each position ``questions.choice_or_value`` from the engine's
move and score, one thread, a 16 MB table, and prints: set index, how it
ended (exact / choice / - : nothing proven), the points the engine's move
loses -> those of the move the hand-over would play, nodes, seconds, the
choice proof; then the totals over the positions.
"""

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402
import patchsolve  # noqa: E402
from patchsolve.rules.position import Position  # noqa: E402
from patchsolve.search import questions  # noqa: E402
from patchsolve.search.limits import Limits  # noqa: E402

ENDED = 0.95  # seconds: an engine that stopped sooner ended its tree


def engine(out: str) -> None:
    rows, found = B.read_rows(B.DATA), []
    for i, row in enumerate(rows):
        t = time.perf_counter()
        r = patchsolve.search(Position(row["position"]), time=1, workers=1, seed=i, endgame_solve=False)
        used = time.perf_counter() - t
        found.append({"i": i, "move": str(r.best_move), "score": r.score, "used": used, "depth": r.depth})
    Path(out).write_text(json.dumps(found) + "\n")


def run(moves: str, budget: str) -> None:
    rows = B.read_rows(B.DATA)
    mb = int(os.environ.get("MB", "16"))
    if budget.endswith("s"):
        limits = Limits(time=float(budget[:-1]), hash_mb=mb, workers=1, seed=0)
    else:
        limits = Limits(nodes=int(budget), hash_mb=mb, workers=1, seed=0)
    lost = proofs = nodes_all = 0
    for e in json.loads(Path(moves).read_text()):
        if e["used"] > ENDED:
            continue
        row = rows[e["i"]]
        pos = Position(row["position"])
        mv = next(m for m in pos.legal_moves() if str(m) == e["move"])
        t = time.perf_counter()
        score = int(round(e["score"])) - (2 if os.environ.get("OLD") else 0)
        r, choice, nodes = questions.choice_or_value(pos, limits, mv, score)
        dt = time.perf_counter() - t
        play, how = mv, "-"
        if r is not None and r.bound == "exact" and r.proven_best:
            play, how = r.best_move, "exact"
        elif choice is not None:
            play, how = (mv if choice[2] else choice[0]), "choice"
        loss = B.loss_of(row, str(play))[0]
        lost += loss
        proofs += how != "-"
        nodes_all += nodes
        proof = choice and (str(choice[0]), choice[1], choice[2])
        print(
            e["i"],
            how,
            "eng",
            B.loss_of(row, e["move"])[0],
            "->",
            loss,
            nodes,
            f"{dt:.2f}",
            proof,
            flush=True,
        )
    print("TOTAL loss", lost, "proofs", proofs, "nodes", nodes_all)


if __name__ == "__main__":
    if sys.argv[1] == "engine":
        engine(sys.argv[2])
    else:
        run(sys.argv[2], sys.argv[3])
