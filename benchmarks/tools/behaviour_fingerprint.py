"""Deterministic behaviour of the searchers, printed line by line, to diff
before and after a refactor that must not change what they do.

Run:  python benchmarks/tools/behaviour_fingerprint.py > before.txt
      (change the code, rebuild)
      python benchmarks/tools/behaviour_fingerprint.py > after.txt && diff before.txt after.txt

Per bench-set position (``patchsolve.search.bench.read_positions``): the MCTS's
move, score and root visits at a fixed seed and iteration budget (default
options, playouts (heuristic, uniform), plain UCT), alpha-beta's move, value and nodes at
a fixed depth, the static evaluation, and the greedy players' moves along a
few noisy greedy games. No timing: every figure is deterministic.
"""

from __future__ import annotations

from patchsolve.arena.players import GreedyPlayer
from patchsolve.search import alphabeta, bench, search

MCTS_VARIANTS = (
    {},
    {"leaf": "playout"},
    {"leaf": "playout", "policy": "uniform"},
    {"tree": "plain", "leaf": "playout", "policy": "uniform"},
)
ITERATIONS = 3000


def mcts_lines(phase, pos, k):
    for options in MCTS_VARIANTS:
        r = search(pos, engine="mcts", iterations=ITERATIONS, seed=k, endgame_solve=False, **options)
        visits = [d["visits"] for d in r.root_moves]
        yield f"mcts {phase} #{k} {options}: {r.best_move} {r.score:.6f} {r.nodes} {visits}"


def alphabeta_lines(phase, pos, k):
    depth = bench.AB_DEPTH[phase]
    r = search(pos, engine="alphabeta", depth=depth, endgame_solve=False)
    yield f"alphabeta {phase} #{k} depth {depth}: {r.best_move} {r.score} {r.nodes} {[str(m) for m in r.pv]}"
    yield f"evaluate {phase} #{k}: {alphabeta.evaluate(pos)}"


def greedy_lines(games=3):
    player = GreedyPlayer()
    for seed in range(games):
        game = bench.noisy_greedy_game(seed)
        yield f"noisy greedy game {seed}: {len(game)} positions, final {game[-1].to_text()}"
        yield f"GreedyPlayer on game {seed}: {' '.join(str(player.choose(p)) for p in game[:-1])}"


def main():
    for k, (phase, pos) in enumerate(bench.read_positions()):
        for line in mcts_lines(phase, pos, k):
            print(line)
        for line in alphabeta_lines(phase, pos, k):
            print(line)
    for line in greedy_lines():
        print(line)


if __name__ == "__main__":
    main()
