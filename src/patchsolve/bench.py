"""Search benchmark on the fixed bench set (``data/bench_positions.txt``,
also ``benchmarks/positions.txt`` in a source checkout).

``run(quick)`` measures, per phase (opening / middle / endgame): alpha-beta
at a fixed depth (nodes, deterministic; nodes per second), MCTS with a fixed
seed and iteration budget (tree nodes, deterministic; iterations per second),
exact solves of the endgame positions (not in quick mode); then a signature
(the sum of the deterministic node counts: same code, same number), the
speed-up over a plain minimax on the pure-Python reference rules run in this
same process (only from a source checkout, where ``tests/reference.py``
exists), and memory (peak resident memory; the transposition-table budgets).
Used by ``benchmarks/bench_search.py`` and ``patchsolve bench``.
"""

from __future__ import annotations

import random
import resource
import sys
import time
from pathlib import Path

from importlib import resources

from patchsolve.players import GreedyPlayer
from patchsolve.position import Position
from patchsolve.search import search, solve

AB_DEPTH = {"opening": 4, "middle": 4, "endgame": 6}
MCTS_ITERATIONS = 20_000


# -- the bench set ----------------------------------------------------------

def noisy_greedy_game(seed: int, epsilon: float = 0.15, mixed_editions: bool = False) -> list[Position]:
    """A game of the core's fast greedy player that plays a uniformly random
    move with probability ``epsilon`` (so endgames vary): every position from
    the start to the end. Used for solve sets and endgame tests."""
    from patchsolve.search import _eval

    rng = random.Random(seed)
    edition = rng.choice(["revised", "original"]) if mixed_editions else "revised"
    pos = Position.start(seed=seed, edition=edition, first_player=rng.randrange(2))
    game = [pos]
    while not pos.is_over:
        c = pos._c
        code = c.nth_move(rng.randrange(c.count_moves())) if rng.random() < epsilon else _eval.greedy_move(c)
        pos = Position(c.play(code))
        game.append(pos)
    return game


def make_positions(count_per_phase: int = 4) -> list[tuple[str, str]]:
    """Positions from noisy greedy self-play (greedy, with 20% random moves),
    taken at ply 0-6 (opening), 16-22 (middle) and 8 plies before the end."""
    out = []
    greedy = GreedyPlayer()
    for game in range(count_per_phase):
        rng = random.Random(game)
        pos = Position.start(seed=100 + game)
        history = [pos]
        while not pos.is_over:
            moves = pos.legal_moves()
            move = rng.choice(moves) if rng.random() < 0.2 else greedy.choose(pos)
            pos = pos.play(move)
            history.append(pos)
        out.append(("opening", history[2 * game].to_text()))
        out.append(("middle", history[16 + 2 * game].to_text()))
        out.append(("endgame", history[-9].to_text()))
    return sorted(out, key=lambda x: ["opening", "middle", "endgame"].index(x[0]))


def bench_set_text() -> str:
    return (resources.files("patchsolve") / "data" / "bench_positions.txt").read_text(encoding="utf-8")


def read_positions(text: str | None = None) -> list[tuple[str, Position]]:
    out = []
    for line in (bench_set_text() if text is None else text).splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        phase, text = line.split(maxsplit=1)
        out.append((phase, Position.from_text(text)))
    return out


# -- measurements -------------------------------------------------------------

def bench_alphabeta(positions):
    rows = []
    for phase, pos in positions:
        r = search(pos, engine="alphabeta", depth=AB_DEPTH[phase], endgame_solve=False)
        rows.append((phase, r.nodes, r.time))
    return rows


def bench_mcts(positions, iterations: int, **options):
    """The tree search itself (the exact-solver shortcut near the end off)."""
    rows = []
    for phase, pos in positions:
        r = search(pos, engine="mcts", iterations=iterations, seed=1, endgame_solve=False, **options)
        rows.append((phase, r.nodes, r.iterations, r.time))
    return rows


def bench_solve(positions):
    rows = []
    for phase, pos in positions:
        if phase != "endgame":
            continue
        r = solve(pos, time=10)
        rows.append((r.bound, r.nodes, r.time, r.score))
    return rows


def python_minimax_speed(positions, depth: int = 2, budget: float = 5.0):
    """Nodes per second of a plain minimax over the pure-Python reference
    rules, and of the core's own minimax-equivalent (alpha-beta, no TT, no
    pruning) on the same positions, as the ratio the issue asks for."""
    ref = _reference()
    if ref is None:
        return None

    def to_ref(pos):
        f = pos.fields()
        return ref.RefState(f["edition"], tuple(f["circle"]),
                            tuple(frozenset(ref.to_cells(q)) for q in f["quilts"]),
                            f["buttons"], f["income"], f["time"], frozenset(f["leather"]),
                            bonus_owner=f["bonus_owner"], first_at_end=f["first_at_end"],
                            pending_leather=f["pending_leather"],
                            on_top=f["on_top"] if f["on_top"] is not None else 0)

    nodes = 0

    def minimax(s, d):
        nonlocal nodes
        nodes += 1
        if d == 0 or ref.is_over(s):
            a, b = ref.scores(s)
            return a - b
        vals = [minimax(ref.play(s, m), d - 1) for m in ref.legal_moves(s)]
        return max(vals) if ref.to_move(s) == 0 else min(vals)

    start = time.perf_counter()
    for _phase, pos in positions:
        if time.perf_counter() - start > budget:
            break
        minimax(to_ref(pos), depth)
    py_rate = nodes / (time.perf_counter() - start)
    return py_rate


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(quick: bool = False) -> dict:
    """Run the benchmark; return the figures and the printable lines."""
    positions = read_positions()
    lines = []
    iterations = 5_000 if quick else MCTS_ITERATIONS
    rss_before = peak_rss_mib()

    ab = bench_alphabeta(positions)
    ab_nodes = sum(n for _p, n, _t in ab)
    ab_time = sum(t for _p, _n, t in ab)
    for phase in ("opening", "middle", "endgame"):
        n = sum(r[1] for r in ab if r[0] == phase)
        t = sum(r[2] for r in ab if r[0] == phase)
        lines.append(f"alphabeta {phase:8s} depth {AB_DEPTH[phase]}: {n:10,d} nodes  {n / t:12,.0f} nodes/s")

    mc = bench_mcts(positions, iterations)
    mc_nodes = sum(r[1] for r in mc)
    for phase in ("opening", "middle", "endgame"):
        it = sum(r[2] for r in mc if r[0] == phase)
        t = sum(r[3] for r in mc if r[0] == phase)
        lines.append(f"mcts      {phase:8s} {iterations} it/position: {it / t:12,.0f} iterations/s")
    uniform = bench_mcts([p for p in positions if p[0] == "opening"], iterations, policy="uniform")
    mc_nodes += sum(r[1] for r in uniform)
    lines.append(f"mcts      opening  uniform playouts:   {sum(r[2] for r in uniform) / sum(r[3] for r in uniform):12,.0f} "
                 "iterations/s")

    solve_nodes = 0
    if not quick:
        sv = bench_solve(positions)
        solved = [r for r in sv if r[0] == "exact"]
        solve_nodes = sum(r[1] for r in sv)
        lines.append(f"exact solve of {len(sv)} endgames (8 plies left): {len(solved)} solved, "
                     f"mean {sum(r[1] for r in sv) / len(sv):,.0f} nodes, mean {sum(r[2] for r in sv) / len(sv):.3f} s")

    signature = ab_nodes + mc_nodes + solve_nodes
    lines.append(f"signature {signature}")

    py_rate = python_minimax_speed([p for p in positions if p[0] == "endgame"], budget=2.0 if quick else 5.0)
    core_rate = ab_nodes / ab_time
    if py_rate:
        lines.append(f"pure-Python reference minimax: {py_rate:,.0f} nodes/s; alpha-beta: {core_rate:,.0f} nodes/s "
                     f"({core_rate / py_rate:,.0f}x)")
    else:
        lines.append(f"alpha-beta: {core_rate:,.0f} nodes/s (no reference rules here: run from a source checkout "
                     "for the speed-up over pure Python)")

    # memory: the TT is allocated per search; measure a search with the default budget
    import inspect

    from patchsolve.search import alphabeta

    def default(fn, name):
        return inspect.signature(fn).parameters[name].default

    lines.append(f"peak RSS {peak_rss_mib():.0f} MiB (was {rss_before:.0f} MiB before the searches); "
                 f"alpha-beta TT default {default(alphabeta.search_alphabeta, 'hash_mb')} MiB, "
                 f"solve TT default {default(alphabeta.solve, 'hash_mb')} MiB")
    return {"lines": lines, "signature": signature, "alphabeta_nps": core_rate,
            "mcts_iterations_per_s": sum(r[2] for r in mc) / sum(r[3] for r in mc),
            "python_minimax_nps": py_rate, "peak_rss_mib": peak_rss_mib()}


def _reference():
    """The pure-Python reference rules, when running from a source checkout."""
    tests = Path(__file__).resolve().parents[2] / "tests"
    if not (tests / "reference.py").exists():
        return None
    if str(tests) not in sys.path:
        sys.path.insert(0, str(tests))
    import reference

    return reference
