"""``hand_over_losses.py run`` with the near-end shortcut's node budget set
from the environment (this build): ``APART=0`` counts the solver's nodes
against the engine's budget as before (its share ``ENDGAME_SHARE``),
otherwise the solver gets ``SHARE`` solver nodes of its own per node of
the budget (``budget.SOLVER_NODES_SHARE``).

    APART=1 SHARE=0.9 python benchmarks/experiments/tie_break_losses.py alphabeta:nodes=300000 out.json
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402
from patchsolve.search import budget  # noqa: E402

if os.environ.get("APART") == "0":
    budget.apart = lambda limits: False
if "SHARE" in os.environ:
    budget.SOLVER_NODES_SHARE = float(os.environ["SHARE"])

r = B.judge(sys.argv[1], B.read_rows(B.DATA), 0)
Path(sys.argv[2]).write_text(json.dumps(r) + "\n")
print(f"{r['player']}: {r['mean_loss']:.3f} [{r['ci95'][0]:.2f}, {r['ci95'][1]:.2f}]")
