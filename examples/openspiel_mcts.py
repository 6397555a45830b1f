"""OpenSpiel's MCTSBot against patchsolve's alpha-beta, through the OpenSpiel game.

    python examples/openspiel_mcts.py --games 2 --simulations 400 --ab-nodes 20000

Each circle (seeds --seed, --seed+1, ...) is played twice with the sides
swapped. The MCTSBot is OpenSpiel's own (open_spiel.python.algorithms.mcts);
its leaf evaluation is patchsolve.interop.openspiel.CorePlayoutEvaluator (random
playouts run in the Cython core), or OpenSpiel's RandomRolloutEvaluator with
--openspiel-rollouts. The alpha-beta plays as a pyspiel.Bot
(patchsolve.interop.openspiel.PatchsolveBot) with a node budget (deterministic) or
--ab-time seconds a move. Needs the [openspiel] extra.
"""

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import patchsolve.interop.openspiel as pso


def play(game, bots, clock):
    """One game; returns the final state. ``clock[p]`` gathers player p's
    (seconds, moves)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        p = state.current_player()
        t = time.perf_counter()
        action = bots[p].step(state)
        clock[p] = (clock[p][0] + time.perf_counter() - t, clock[p][1] + 1)
        state.apply_action(action)
    return state


def mcts_bot(game, args, seed):
    if args.openspiel_rollouts:
        evaluator = mcts.RandomRolloutEvaluator(args.rollouts, np.random.RandomState(seed))
    else:
        evaluator = pso.CorePlayoutEvaluator(args.rollouts, seed=seed)
    return mcts.MCTSBot(game, args.uct_c, args.simulations, evaluator, solve=True,
                        random_state=np.random.RandomState(seed))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1, help="circles; each is played twice, sides swapped")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--simulations", type=int, default=400, help="MCTSBot simulations per move")
    ap.add_argument("--rollouts", type=int, default=10, help="random playouts per MCTS leaf")
    ap.add_argument("--uct-c", type=float, default=2.0)
    ap.add_argument("--openspiel-rollouts", action="store_true", help="OpenSpiel's Python rollouts instead of the core's")
    ap.add_argument("--ab-nodes", type=int, default=20000, help="alpha-beta node budget per move")
    ap.add_argument("--ab-time", type=float, default=None, help="alpha-beta seconds per move (instead of nodes)")
    args = ap.parse_args()
    limits = {"time": args.ab_time} if args.ab_time else {"nodes": args.ab_nodes}
    mcts_wins, margin, clock = 0, 0, {"mcts": (0.0, 0), "ab": (0.0, 0)}
    for k in range(args.games):
        game = pyspiel.load_game("patchwork", {"seed": args.seed + k})
        for mcts_seat in (0, 1):
            bots = [None, None]
            bots[mcts_seat] = mcts_bot(game, args, args.seed + k)
            bots[1 - mcts_seat] = pso.PatchsolveBot("alphabeta", **limits)
            seat_clock = [(0.0, 0), (0.0, 0)]
            end = play(game, bots, seat_clock)
            for name, seat in (("mcts", mcts_seat), ("ab", 1 - mcts_seat)):
                clock[name] = tuple(a + b for a, b in zip(clock[name], seat_clock[seat]))
            scores = end.position.scores()
            won = end.returns()[mcts_seat] > 0
            mcts_wins += won
            margin += scores[mcts_seat] - scores[1 - mcts_seat]
            print(f"seed {args.seed + k} MCTSBot as player {mcts_seat}: scores {scores[0]}:{scores[1]}, "
                  f"{'MCTSBot' if won else 'alpha-beta'} wins ({len(end.history())} plies)")
    n = 2 * args.games
    per_move = {k: t / max(m, 1) for k, (t, m) in clock.items()}
    print(f"MCTSBot ({args.simulations} simulations, {args.rollouts} rollouts/leaf) won {mcts_wins} of {n} "
          f"games against alpha-beta {limits}; mean margin {margin / n:+.1f}; "
          f"s/move MCTSBot {per_move['mcts']:.3f}, alpha-beta {per_move['ab']:.3f}")


if __name__ == "__main__":
    main()
