"""The perfect-play set's losses (as ``hand_over_losses.py run``) with the
near-end shortcut's solver table, which the hand-over searches on, made
TABLE_MB megabytes (default: as the shortcut sizes it).

    TABLE_MB=16 python benchmarks/experiments/best_choice_r3_yard.py alphabeta:time=1,workers=1 out.json
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402
from patchsolve.search import solver  # noqa: E402

if os.environ.get("TABLE_MB"):
    made = solver.new_table
    mb = int(os.environ["TABLE_MB"])

    def sized(limits=None, **kw):
        # the near-end solver's table is made from a size and threads (``budget.TimeManager.solver_first``)
        return made(limits.replace(hash_mb=mb)) if limits is not None else made(**{**kw, "hash_mb": mb})

    solver.new_table = sized
r = B.judge(sys.argv[1], B.read_rows(B.DATA), 0)
Path(sys.argv[2]).write_text(json.dumps(r) + "\n")
print(f"{r['player']}: {r['mean_loss']:.3f}", [(i, x) for i, x in enumerate(r["losses"]) if x])
