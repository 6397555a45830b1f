"""What one player spec plays on chosen positions of the perfect-play set,
against their exact values: the move, its loss, the best value among the
placements of the same patch and the optimal moves.

    python benchmarks/experiments/hand_over_which_moves.py alphabeta:time=1,workers=1 24 26 27 28 39 40 43
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402
from patchsolve.arena.players import make_player  # noqa: E402
from patchsolve.arena.selfplay import choose_with_result  # noqa: E402
from patchsolve.rules.position import Position  # noqa: E402
from patchsolve.search.result import choice_of  # noqa: E402


def main() -> None:
    rows = B.read_rows(B.DATA)
    for i in map(int, sys.argv[2:]):
        r = rows[i]
        pos = Position(r["position"])
        move, info = choose_with_result(make_player(sys.argv[1], seed=i), pos)
        # a bounded move counts at its bound, as in bench_exact
        same = [B.loss_of(r, str(m))[0] for m in pos.legal_moves() if choice_of(m) == choice_of(move)]
        optimal = [m["move"] for m in r["moves"] if m["bound"] == "exact" and m["score"] == r["value"]]
        print(
            f"#{i} phase {r['phase']} value {r['value']}: played {move}, loses {B.loss_of(r, str(move))[0]}; "
            f"best of the same choice {r['value'] - min(same)}; optimal {optimal[:4]}; "
            f"depth {info.depth}, {info.bound}"
        )


if __name__ == "__main__":
    main()
