"""Alpha-beta benchmarks: speed, the solve set, and strength against greedy.

Run from the repository root after ``python setup.py build_ext --inplace``::

    PYTHONPATH=src python benchmarks/bench_alphabeta.py            # everything
    PYTHONPATH=src python benchmarks/bench_alphabeta.py speed      # nodes/s and ratios
    PYTHONPATH=src python benchmarks/bench_alphabeta.py solveset   # solve benchmarks/solve_set.json
    PYTHONPATH=src python benchmarks/bench_alphabeta.py strength --pairs 20 --nodes 30000
    PYTHONPATH=src python benchmarks/bench_alphabeta.py make-solveset   # regenerate the set

Positions are stored as JSON of ``Position.fields()`` (quilts as ints);
the text notation was not available yet when the set was made.

The strength test plays against the lead's greedy one-ply player
(``patchsolve.players.GreedyPlayer``). Positions for the speed test, the
solve set and the tuner come from games of the greedy player
(``_eval.greedy_move``, the same player in C) with a random move 15% of the
time; until commit d5cdd84 those games used another greedy rule (own score
right after the move plus income x income spaces still ahead, time not
priced), so regenerating the solve set now gives other positions.

Each solve-set entry holds ``fields`` (``Position.fields()``, quilts as
ints), ``text`` (the position in patchsolve notation), the exact ``value``
(null when beyond the budget used to make the set) and a best move.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the pure-Python reference rules

from patchsolve import Position, search, solve  # noqa: E402
from patchsolve.bench import noisy_greedy_game  # noqa: E402
from patchsolve.players import GreedyPlayer  # noqa: E402
from patchsolve._core import CoreState  # noqa: E402
from patchsolve.search import _alphabeta as ab  # noqa: E402

SOLVE_SET = HERE / "solve_set.json"
GREEDY = GreedyPlayer()


# -- positions ----------------------------------------------------------------

def from_fields(f: dict) -> Position:
    f = dict(f)
    f["circle"] = tuple(f["circle"])
    f["quilts"] = tuple(int(q) for q in f["quilts"])
    for k in ("buttons", "income", "time", "leather"):
        f[k] = tuple(f[k])
    return Position(CoreState.from_fields(f))


def small_endgames(count: int, max_tree: int, first_seed: int = 0) -> list[Position]:
    """Earliest positions of noisy greedy games whose whole tree has at most
    ``max_tree`` nodes (and at least 100)."""
    out, seed = [], first_seed
    while len(out) < count:
        game = noisy_greedy_game(seed)
        seed += 1
        best = None
        for pos in reversed(game[:-1]):
            n = ab.tree_size(pos._c, max_tree)
            if n < 0:
                break
            best = (pos, n)
        if best and best[1] >= 100:
            out.append(best[0])
    return out


# -- pure-Python minimax (the reference for the speed ratio) ---------------------

class Counter:
    nodes = 0


def py_minimax(pos: Position, counter: Counter) -> int:
    """Plain minimax over the Position API (Cython core underneath)."""
    counter.nodes += 1
    p = pos.to_move
    best = -math.inf
    for move in pos.legal_moves():
        child = pos.play(move)
        if child.is_over:
            counter.nodes += 1
            a, b = child.scores()
            v = a - b if p == 0 else b - a
        else:
            v = py_minimax(child, counter)
            if child.to_move != p:
                v = -v
        best = max(best, v)
    return best


def ref_minimax(s, counter: Counter) -> int:
    """Plain minimax over the pure-Python reference rules (tests/reference.py)."""
    import reference as ref

    counter.nodes += 1
    p = ref.to_move(s)
    best = -math.inf
    for move in ref.legal_moves(s):
        child = ref.play(s, move)
        if ref.is_over(child):
            counter.nodes += 1
            a, b = ref.scores(child)
            v = a - b if p == 0 else b - a
        else:
            v = ref_minimax(child, counter)
            if ref.to_move(child) != p:
                v = -v
        best = max(best, v)
    return best


def to_ref(pos: Position):
    import reference as ref

    f = pos.fields()
    return ref.RefState(f["edition"], tuple(f["circle"]), tuple(ref.to_cells(q) for q in f["quilts"]),
                        tuple(f["buttons"]), tuple(f["income"]), tuple(f["time"]), frozenset(f["leather"]),
                        f["bonus_owner"], f["first_at_end"], f["pending_leather"], f["on_top"] or 0)


# -- speed ------------------------------------------------------------------------

def bench_speed(args) -> None:
    positions = small_endgames(args.speed_positions, 3000)
    print(f"speed: {len(positions)} endgames (whole tree 100..3000 nodes) from noisy greedy games")

    c, t0 = Counter(), time.perf_counter()
    py_values = [py_minimax(p, c) for p in positions]
    py_time = time.perf_counter() - t0
    py_nps = c.nodes / py_time
    print(f"  Python minimax, Position API : {c.nodes:>9} nodes {py_time:7.3f} s {py_nps:>12,.0f} nodes/s")

    rc, t0 = Counter(), time.perf_counter()
    few = positions[: max(1, len(positions) // 4)]
    ref_values = [ref_minimax(to_ref(p), rc) for p in few]
    ref_time = time.perf_counter() - t0
    ref_nps = rc.nodes / ref_time
    print(f"  Python minimax, reference    : {rc.nodes:>9} nodes {ref_time:7.3f} s {ref_nps:>12,.0f} nodes/s"
          f"  ({len(few)} positions)")
    assert ref_values == py_values[: len(few)]

    t0, cn = time.perf_counter(), 0
    c_values = []
    for p in positions:
        v, n = ab.minimax(p._c)
        c_values.append(v)
        cn += n
    c_time = time.perf_counter() - t0
    print(f"  C minimax (same algorithm)   : {cn:>9} nodes {c_time:7.3f} s {cn / c_time:>12,.0f} nodes/s"
          f"  ratio {cn / c_time / py_nps:,.0f}x vs Position API, {cn / c_time / ref_nps:,.0f}x vs reference")

    t0, an = time.perf_counter(), 0
    for p, v in zip(positions, py_values):
        r = solve(p)
        assert r.score == v and r.bound == "exact"
        an += r.nodes
    a_time = time.perf_counter() - t0
    print(f"  alpha-beta solve (all exact) : {an:>9} nodes {a_time:7.3f} s; time to solve "
          f"{py_time / a_time:,.0f}x faster than Python minimax")

    # bigger endgames: sustained nodes/s of the exact solver and of depth-limited search
    set_positions = [from_fields(e["fields"]) for e in json.loads(SOLVE_SET.read_text())] if SOLVE_SET.exists() else []
    if set_positions:
        nodes = secs = 0.0
        for p in set_positions:
            r = solve(p, time=args.budget)
            nodes += r.nodes
            secs += r.time
        print(f"  exact solver on the solve set: {int(nodes):>9} nodes {secs:7.3f} s {nodes / secs:>12,.0f} nodes/s"
              f"  nodes/s ratio {nodes / secs / py_nps:,.0f}x vs the Python minimax above "
              "(which could not finish these positions)")
    mids = [noisy_greedy_game(s)[14] for s in range(5)]
    nodes = secs = 0.0
    for p in mids:
        r = search(p, engine="alphabeta", depth=4)
        nodes += r.nodes
        secs += r.time
    print(f"  depth-4 search, 5 midgames   : {int(nodes):>9} nodes {secs:7.3f} s {nodes / secs:>12,.0f} nodes/s")


# -- solve set ----------------------------------------------------------------------

def make_solve_set(args) -> None:
    entries = []
    for plies in (4, 6, 8, 10):
        seed, got = 0, 0
        while got < args.per_class:
            game = noisy_greedy_game(10_000 + 100 * plies + seed)
            seed += 1
            if len(game) <= plies:
                continue
            pos = game[-1 - plies]
            r = solve(pos, time=args.budget)
            entries.append({"plies_left": plies, "fields": pos.fields(), "text": pos.to_text(),
                            "value": r.score if r.bound == "exact" else None,
                            "best_move": str(r.best_move) if r.bound == "exact" else None})
            got += 1
            print(f"  {plies:2d} plies left: value {entries[-1]['value']} ({r.nodes} nodes, {r.time:.2f} s)")
    SOLVE_SET.write_text(json.dumps(entries, indent=1) + "\n")
    print(f"wrote {len(entries)} positions to {SOLVE_SET}")


def bench_solve_set(args) -> None:
    entries = json.loads(SOLVE_SET.read_text())
    print(f"solve set: {len(entries)} positions (k plies before the end of noisy greedy games), "
          f"budget {args.budget} s each")
    by_class: dict[int, list] = {}
    for e in entries:
        r = solve(from_fields(e["fields"]), time=args.budget)
        if r.bound == "exact" and e["value"] is not None:
            assert r.score == e["value"], (e, r.score)
        by_class.setdefault(e["plies_left"], []).append(r)
    rows = []
    for plies, results in sorted(by_class.items()):
        solved = [r for r in results if r.bound == "exact"]
        rows.append((plies, len(results), solved))
        mean_nodes = statistics.mean(r.nodes for r in solved) if solved else float("nan")
        mean_time = statistics.mean(r.time for r in solved) if solved else float("nan")
        median_time = statistics.median(r.time for r in solved) if solved else float("nan")
        print(f"  {plies:2d} plies left: solved {len(solved)}/{len(results)}; over the solved: mean nodes "
              f"{mean_nodes:,.0f}, mean time {mean_time:.3f} s, median {median_time:.3f} s, "
              f"under 1 s: {sum(r.time < 1 for r in solved)}")
    solved = [r for _, _, s in rows for r in s]
    if solved:
        print(f"  all: solved {len(solved)}/{len(entries)}, mean nodes {statistics.mean(r.nodes for r in solved):,.0f},"
              f" mean time {statistics.mean(r.time for r in solved):.3f} s")


# -- strength -------------------------------------------------------------------------

def play_game(circle_seed: int, ab_player: int, nodes: int) -> tuple[int, int]:
    """One game, alpha-beta as ``ab_player`` (who also starts the game when
    it is 0); returns (winner, margin for alpha-beta)."""
    pos = Position.start(seed=circle_seed, first_player=0)
    while not pos.is_over:
        if pos.to_move == ab_player:
            move = search(pos, engine="alphabeta", nodes=nodes).best_move
        else:
            move = GREEDY.choose(pos)
        pos = pos.play(move)
    a, b = pos.scores()
    return pos.winner(), (a - b) if ab_player == 0 else (b - a)


def bench_strength(args) -> None:
    print(f"strength: alpha-beta ({args.nodes} nodes/move) vs greedy one-ply, {args.pairs} pairs "
          "(same circle, sides swapped)")
    pair_scores, margins, wins = [], [], 0
    t0 = time.perf_counter()
    for k in range(args.pairs):
        s = 0.0
        for side in (0, 1):
            w, m = play_game(5000 + k, side, args.nodes)
            s += (w == side) / 2
            wins += w == side
            margins.append(m)
        pair_scores.append(s)
    n = len(pair_scores)
    mean = statistics.mean(pair_scores)
    lo, hi = wilson(mean, n)
    print(f"  alpha-beta won {wins}/{2 * n} games; win rate {mean:.3f}, 95% CI [{lo:.3f}, {hi:.3f}] "
          f"(Wilson interval over the {n} pairs, each pair scoring 0, 1/2 or 1); "
          f"mean margin {statistics.mean(margins):+.1f}; {time.perf_counter() - t0:.0f} s")


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval: sensible at 0% and 100%, unlike mean +- 1.96 sd.
    Counting pairs rather than games keeps it conservative, since the two
    games of a pair share a circle and are not independent."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", nargs="*", default=["speed", "solveset", "strength"],
                    choices=["speed", "solveset", "strength", "make-solveset"])
    ap.add_argument("--budget", type=float, default=5.0, help="seconds per solve")
    ap.add_argument("--per-class", type=int, default=6, help="positions per plies-left class (make-solveset)")
    ap.add_argument("--speed-positions", type=int, default=20)
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--nodes", type=int, default=30000, help="alpha-beta nodes per move (strength)")
    args = ap.parse_args(argv)
    for what in args.what:
        {"speed": bench_speed, "solveset": bench_solve_set, "strength": bench_strength,
         "make-solveset": make_solve_set}[what](args)


if __name__ == "__main__":
    main()
