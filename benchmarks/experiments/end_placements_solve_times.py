"""The exact solver alone (default threads: both cores) on every position
of the perfect-play set's build, 10 s each: how long a proof takes.

    python benchmarks/experiments/end_placements_solve_times.py solve_times_10s.jsonl
"""

import json
import sys
import time
from pathlib import Path

import patchsolve
from patchsolve.rules.position import Position

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from inputs import EXACT_SET as DATA  # noqa: E402
from inputs import read_jsonl  # noqa: E402


def main() -> None:
    with open(sys.argv[1], "w") as out:
        for i, d in enumerate(read_jsonl(DATA)):
            t = time.time()
            r = patchsolve.solve(Position.from_text(d["position"]), time=10)
            rec = dict(
                i=i,
                phase=d["phase"],
                exact=d["value"],
                bound=r.bound,
                score=r.score,
                seconds=round(time.time() - t, 3),
                nodes=r.nodes,
            )
            out.write(json.dumps(rec) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
