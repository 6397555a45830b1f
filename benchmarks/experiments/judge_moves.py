"""Points an MCTS configuration loses per move, judged by a deeper search.

For positions 30%, 50% and 70% of the way through noisy greedy games, each
MCTS configuration picks a move; alpha-beta at JUDGE seconds values that
move and its own best move (each by a search of the position after it).
Points lost = value(judge's move) - value(MCTS's move), floored at 0. The
judge is itself fallible (it is the engine the MCTS is compared with), so
this screens configurations; paired games decide.

    PYTHONPATH=src python benchmarks/experiments/judge_moves.py 20 "" "blend=0.5"

Arguments: the number of games, then one MCTS option string per
configuration ("" = the default; "time=0.25" changes the 0.1 s budget).
"""

import statistics
import sys

import patchsolve as ps
from patchsolve.arena.players import option_value
from patchsolve.search.bench import noisy_greedy_game

JUDGE = 0.4


def judged_value(pos, move, me, cache):
    """The judge's value of ``move`` for player ``me``."""
    key = (pos.to_text(), str(move))
    if key not in cache:
        child = pos.play(move)
        if child.is_over:
            s = child.scores()
            cache[key] = s[me] - s[1 - me]
        else:
            r = ps.search(child, engine="alphabeta", time=JUDGE)
            cache[key] = r.score if child.to_move == me else -r.score
    return cache[key]


def main(n_games, specs):
    positions = []
    for seed in range(400, 400 + n_games):
        game = noisy_greedy_game(seed)
        for f in (0.3, 0.5, 0.7):
            p = game[int(len(game) * f)]
            if not p.pending_leather:
                positions.append(p)
    cache = {}
    loss = {spec: [] for spec in specs}
    for pos in positions:
        me = pos.to_move
        best = judged_value(pos, ps.search(pos, engine="alphabeta", time=JUDGE).best_move, me, cache)
        for spec in specs:
            opts = {
                k: option_value(v) for k, _, v in (item.partition("=") for item in spec.split(",") if item)
            }
            t = opts.pop("time", 0.1)
            move = ps.search(pos, engine="mcts", time=t, seed=1, **opts).best_move
            loss[spec].append(max(0, best - judged_value(pos, move, me, cache)))
    for spec in specs:
        v = loss[spec]
        print(
            f"{spec or 'default':45s} n={len(v)}  mean points lost {statistics.mean(v):.2f}  "
            f"moves losing >= 3: {sum(x >= 3 for x in v)}"
        )


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(int(sys.argv[1]), sys.argv[2:])
