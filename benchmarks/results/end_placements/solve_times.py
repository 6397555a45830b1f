"""The exact solver alone (default threads: both cores) on every position
of the perfect-play set's build, 10 s each: how long a proof takes.

    python benchmarks/results/end_placements/solve_times.py solve_times_10s.jsonl
"""

import json
import sys
import time
from pathlib import Path

import patchsolve
from patchsolve.position import Position

DATA = Path(__file__).resolve().parents[2] / "exact_26_34.jsonl"


def main() -> None:
    with open(sys.argv[1], "w") as out:
        for i, line in enumerate(DATA.read_text().splitlines()):
            d = json.loads(line)
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
