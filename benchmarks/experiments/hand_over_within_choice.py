"""How long the solver takes to value the best placement of one choice
(the engine's patch, or the leather patch) alone, the other root moves left
out, on the positions the 1 s default still loses.

    python benchmarks/experiments/hand_over_within_choice.py 20
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402
from patchsolve.rules.position import Position  # noqa: E402
from patchsolve.search import solver as S  # noqa: E402
from patchsolve.search.limits import Limits  # noqa: E402
from patchsolve.search.result import choice_of  # noqa: E402

# (position, the choice the 1 s default played there)
PLAYED = [(24, "12"), (26, "25"), (39, "26"), (43, "leather"), (27, "26"), (28, "27"), (40, "0")]


def main() -> None:
    rows = B.read_rows(B.DATA)
    seconds = float(sys.argv[1])
    for i, choice in PLAYED:
        pos = Position(rows[i]["position"])
        moves = pos.legal_moves()
        skip = [m.code for m in moves if str(choice_of(m)) != choice]
        run = S._new_run(Limits(time=seconds, workers=1), S.check_options({}))
        lo, hi = S._root_interval(run, pos)
        guess = run.solver.guess(pos._c)
        t0 = time.perf_counter()
        while lo < hi and not run.exhausted():
            lo, hi = run.call(run.solver.solve, pos._c, lo, hi, guess, 8, skip)
        took = time.perf_counter() - t0
        print(f"#{i} {choice}: {len(moves) - len(skip)} moves, proven [{lo}, {hi}] in {took:.2f} s")


if __name__ == "__main__":
    main()
