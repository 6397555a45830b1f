"""Speed of the rules core (issue: rules engine). Run: python benchmarks/bench_core.py

Prints: uniform random playouts per second from start positions (each ply
draws uniformly among all legal moves, in C), plies per game, legal moves
generated per second, perft(1..3) from a start position, and the speed-up
over the pure-Python reference rules (tests/reference.py) measured in this
same run. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from patchsolve import Position, _core
from patchsolve.rules.position import random_circle

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def bench_playouts(games: int, circles: int):
    """Playouts spread over ``circles`` random start circles."""
    per = max(1, games // circles)
    plies = 0
    total_time = 0.0
    for c in range(circles):
        start = Position.start(seed=1000 + c)
        (p, _w, _m), dt = timed(lambda start=start, c=c: start._c.playouts(per, c))
        plies += p
        total_time += dt
    n = per * circles
    return n / total_time, plies / n


def sample_positions(count: int, seed: int = 0):
    """Positions along random games (the mix a search meets)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = Position.start(seed=rng.randrange(10**9))
        while not pos.is_over and len(out) < count:
            out.append(pos)
            moves = pos.legal_moves()
            pos = pos.play(moves[rng.randrange(len(moves))])
    return out


def bench_movegen(positions, reps: int):
    states = [p._c for p in positions]
    n, dt = timed(lambda: _core.bench_movegen(states, reps))
    return n / dt, n / (len(states) * reps)


def bench_reference(games: int):
    import reference as ref

    plies = 0
    t = time.perf_counter()
    for g in range(games):
        plies += len(ref.random_game(random_circle(g), seed=g)) - 1
    dt = time.perf_counter() - t
    return games / dt, plies / games


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000, help="random playouts for the playout figure")
    ap.add_argument("--ref-games", type=int, default=5, help="reference games for the speed-up")
    args = ap.parse_args(argv)

    rate, plies = bench_playouts(args.games, circles=50)
    print(f"uniform random playouts : {rate:12,.0f} games/s  ({plies:.2f} plies/game, 50 random circles)")

    positions = sample_positions(2000)
    mg_rate, avg = bench_movegen(positions, 50)
    print(
        f"legal move generation   : {mg_rate:12,.0f} moves/s  ({avg:.1f} moves/position over {len(positions)} positions)"  # noqa: E501
    )

    start = Position.start(seed=0)
    for d in (1, 2, 3):
        n, dt = timed(lambda d=d: start.perft(d))
        print(f"perft({d}) start seed 0   : {n:12,d} nodes in {dt:.4f} s")

    ref_rate, ref_plies = bench_reference(args.ref_games)
    print(f"reference (pure Python) : {ref_rate:12,.2f} games/s  ({ref_plies:.1f} plies/game)")
    print(f"speed-up core/reference : {rate / ref_rate:12,.0f} x")


if __name__ == "__main__":
    main()
