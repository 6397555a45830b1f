"""MCTS benchmarks: speed and strength. Run from the repository root:

    PYTHONPATH=src python benchmarks/bench_mcts.py speed
    PYTHONPATH=src python benchmarks/bench_mcts.py match --vs greedy --time 0.25 --pairs 10
    PYTHONPATH=src python benchmarks/bench_mcts.py match --vs plain --time 0.1 --pairs 12
    PYTHONPATH=src python benchmarks/bench_mcts.py match --vs alphabeta --time 0.5 --pairs 10

``speed`` prints iterations per second from start positions on one core for
each playout policy and tree shape. ``match`` plays paired games: for every
circle (drawn from ``--seed``) two games with the sides swapped, so both
players start once on the same circle; it prints the wins of the default MCTS
with a 95% Wilson interval. Opponents (``--vs``):

- ``greedy``: the greedy one-ply player of ``patchsolve.arena.players``
  (``GreedyPlayer``: time priced at one button a space).
- ``plain``: full-width plain UCT with uniform playouts, same time per move.
- ``uniform``: the default tree with uniform playouts (an ablation).
- ``alphabeta``: ``patchsolve.search.alphabeta`` at the same time per move
  (on this branch since main, with alpha-beta, was merged into it).

``--mcts KEY=VALUE`` overrides options of the tested MCTS (e.g. c=1.0).
"""

from __future__ import annotations

import argparse
import time

import patchsolve
from patchsolve.arena.players import MCTSPlayer
from patchsolve.arena.tournament import wilson
from patchsolve.rules.position import Position

# -- players ------------------------------------------------------------------


class Mcts:
    def __init__(self, name, seconds, seed, **options):
        self.name = name
        self.player = MCTSPlayer(time=seconds, seed=seed, **options)

    def choose(self, pos):
        return self.player.choose(pos)


class AlphaBeta:
    """The alpha-beta searcher, at the same time per move."""

    def __init__(self, seconds):
        self.name = "alpha-beta"
        self.seconds = seconds

    def choose(self, pos):
        return patchsolve.search(pos, engine="alphabeta", time=self.seconds, workers=1).best_move


def make_opponent(kind, seconds, seed):
    if kind == "greedy":
        from patchsolve.arena.players import GreedyPlayer

        player = GreedyPlayer(seed)
        player.name = "greedy one-ply (patchsolve.arena.players)"
        return player
    if kind == "plain":
        return Mcts("plain UCT, uniform playouts", seconds, seed, tree="plain", policy="uniform")
    if kind == "uniform":
        return Mcts("two-level, uniform playouts", seconds, seed, policy="uniform")
    if kind == "alphabeta":
        return AlphaBeta(seconds)
    raise SystemExit(f"unknown opponent {kind!r}")


# -- matches --------------------------------------------------------------------


def play_game(players, circle_seed):
    """players[0] starts. Returns (winner, margin for player 0, plies)."""
    pos = Position.start(seed=circle_seed, first_player=0)
    plies = 0
    while not pos.is_over:
        move = players[pos.to_move].choose(pos)
        if not pos.is_legal(move):
            raise RuntimeError(f"{players[pos.to_move].name} played an illegal move {move}")
        pos = pos.play(move)
        plies += 1
    a, b = pos.scores()
    return pos.winner(), a - b, plies


def match(args):
    overrides = dict(parse_kv(kv) for kv in args.mcts)
    wins = games = 0
    margins = []
    t0 = time.monotonic()
    for i in range(args.pairs):
        circle_seed = args.seed + i
        for side in (0, 1):
            ours = Mcts("mcts", args.time, 1000 * i + side, **overrides)
            theirs = make_opponent(args.vs, args.opp_time or args.time, 1000 * i + side + 500)
            players = [ours, theirs] if side == 0 else [theirs, ours]
            w, margin, plies = play_game(players, circle_seed)
            games += 1
            wins += w == side
            margins.append(margin if side == 0 else -margin)
            print(
                f"circle {circle_seed} mcts as player {side}: {'win ' if w == side else 'loss'} "
                f"margin {margins[-1]:+d} ({plies} plies)",
                flush=True,
            )
    lo, hi = wilson(wins, games)
    print(
        f"\nmcts (default{', ' + ', '.join(args.mcts) if args.mcts else ''}) vs {theirs.name}: "
        f"{wins}/{games} = {wins / games:.1%} wins, 95% CI [{lo:.1%}, {hi:.1%}]; "
        f"mean margin {sum(margins) / games:+.1f}; {args.time} s/move "
        f"(opponent {args.opp_time or args.time} s); {time.monotonic() - t0:.0f} s wall"
    )


def parse_kv(text):
    key, _, value = text.partition("=")
    for cast in (int, float):
        try:
            return key, cast(value)
        except ValueError:
            pass
    return key, {"True": True, "False": False}.get(value, value)


# -- speed ---------------------------------------------------------------------------


def speed(args):
    configs = [
        ("uniform playouts, two-level tree", {"policy": "uniform"}),
        ("heuristic playouts, two-level tree (default)", {}),
        ("uniform playouts, plain full-width UCT", {"policy": "uniform", "tree": "plain"}),
        ("heuristic playouts, plain full-width UCT", {"tree": "plain"}),
    ]
    for label, options in configs:
        rates = []
        for s in range(args.positions):
            pos = Position.start(seed=args.seed + s)
            r = patchsolve.search(pos, engine="mcts", time=args.time, seed=s, **options)
            rates.append(r.iterations / r.time)
        print(
            f"{label:46s} {sum(rates) / len(rates):9,.0f} iterations/s "
            f"(min {min(rates):,.0f}; {args.positions} start positions, {args.time} s each, 1 core)",
            flush=True,
        )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("--time", type=float, default=1.0)
    sp.add_argument("--positions", type=int, default=5)
    sp.add_argument("--seed", type=int, default=1)
    mp = sub.add_parser("match")
    mp.add_argument("--vs", default="greedy", choices=["greedy", "plain", "uniform", "alphabeta"])
    mp.add_argument("--time", type=float, default=1.0, help="seconds per move")
    mp.add_argument(
        "--opp-time", type=float, default=None, help="opponent's seconds per move (default: same)"
    )
    mp.add_argument("--pairs", type=int, default=10, help="circles; two games each")
    mp.add_argument("--seed", type=int, default=1)
    mp.add_argument("--mcts", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args(argv)
    speed(args) if args.cmd == "speed" else match(args)


if __name__ == "__main__":
    main()
