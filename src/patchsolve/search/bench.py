"""The bench: one fixed workload on the bench set (``data/bench_positions.txt``,
also ``benchmarks/positions.txt`` in a source checkout), one signature.

``run()`` measures on the 12 positions (4 opening, 4 middle, 4 endgame):
perft to depth 3 and 5,000 seeded uniform playouts per position (the rules
core), alpha-beta to a fixed depth per phase, and MCTS with a fixed seed and
5,000 iterations per position (the near-end solver shortcut off, so each
engine is measured alone). Every count is deterministic; their sum is the
**signature**, pinned in ``SIGNATURE``: the same code gives the same number
on any machine, and a change that alters what any search does changes it
(update ``SIGNATURE`` with the change, like a chess engine's "Bench:" line).
The speeds (leaves/s, playouts/s, nodes/s, iterations/s) are printed, never
asserted. ``patchsolve bench`` and ``benchmarks/bench_search.py`` run it.
"""

from __future__ import annotations

import random
import resource
import time
from importlib import resources
from typing import Any

from patchsolve.rules.position import Position
from patchsolve.search import search

AB_DEPTH = {"opening": 12, "middle": 9, "endgame": 14}  # about 0.1-0.4 s each with the pruning of 488836d
MCTS_ITERATIONS = 5_000
PERFT_DEPTH = 3
PLAYOUTS = 5_000
SIGNATURE = 127_221_768  # what run() gives for this code and data/eval_weights.json; see the module docstring


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
    from patchsolve.arena.players import GreedyPlayer  # the players live above the search

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
    """The text of the shipped bench set (``data/bench_positions.txt``)."""
    return (resources.files("patchsolve") / "data" / "bench_positions.txt").read_text(encoding="utf-8")


def read_positions(text: str | None = None) -> list[tuple[str, Position]]:
    """The ``(phase, position)`` pairs of a bench-set text (default: the shipped one)."""
    out = []
    for line in (bench_set_text() if text is None else text).splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        phase, text = line.split(maxsplit=1)
        out.append((phase, Position.from_text(text)))
    return out


# -- measurements -------------------------------------------------------------


def bench_core(positions: list[tuple[str, Position]]) -> list[tuple[int, int, float, float]]:
    """(perft leaves, playout plies, perft seconds, playout seconds) per position."""
    rows = []
    for i, (_phase, pos) in enumerate(positions):
        t0 = time.perf_counter()
        leaves = pos.perft(PERFT_DEPTH)
        t1 = time.perf_counter()
        plies, _wins0, _margin = pos._c.playouts(PLAYOUTS, i)
        rows.append((leaves, plies, t1 - t0, time.perf_counter() - t1))
    return rows


def bench_alphabeta(positions: list[tuple[str, Position]]) -> list[tuple[str, int, float]]:
    """``(phase, nodes, seconds)`` of the alpha-beta to the phase's fixed depth,
    per position (the exact-solver shortcut off)."""
    rows = []
    for phase, pos in positions:
        r = search(pos, engine="alphabeta", depth=AB_DEPTH[phase], endgame_solve=False)
        rows.append((phase, r.nodes, r.time))
    return rows


def bench_mcts(
    positions: list[tuple[str, Position]], iterations: int = MCTS_ITERATIONS, **options: Any
) -> list[tuple[str, int, int, float]]:
    """The tree search itself (the exact-solver shortcut near the end off)."""
    rows = []
    for phase, pos in positions:
        r = search(pos, engine="mcts", iterations=iterations, seed=1, endgame_solve=False, **options)
        rows.append((phase, r.nodes, r.iterations or 0, r.time))  # MCTS always counts them
    return rows


def peak_rss_mib() -> float:
    """The process's peak resident memory so far, in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _rate(n: float, t: float) -> float:
    return n / t if t > 0 else 0.0


def run() -> dict:
    """Run the bench; return the figures, the signature and printable lines."""
    positions = read_positions()
    lines = []
    rss_before = peak_rss_mib()

    core = bench_core(positions)
    leaves, plies = sum(r[0] for r in core), sum(r[1] for r in core)
    perft_t, playout_t = sum(r[2] for r in core), sum(r[3] for r in core)
    lines.append(
        f"core      perft {PERFT_DEPTH}: {leaves:14,d} leaves  {_rate(leaves, perft_t):14,.0f} leaves/s"
    )
    lines.append(
        f"core      playouts:  {len(positions) * PLAYOUTS:10,d} games   "
        f"{_rate(len(positions) * PLAYOUTS, playout_t):14,.0f} games/s ({plies:,d} plies)"
    )

    ab = bench_alphabeta(positions)
    ab_nodes, ab_time = sum(r[1] for r in ab), sum(r[2] for r in ab)
    for phase in ("opening", "middle", "endgame"):
        n = sum(r[1] for r in ab if r[0] == phase)
        t = sum(r[2] for r in ab if r[0] == phase)
        lines.append(
            f"alphabeta {phase:8s} depth {AB_DEPTH[phase]}: {n:10,d} nodes  {_rate(n, t):12,.0f} nodes/s"
        )

    mc = bench_mcts(positions)
    mc_nodes = sum(r[1] for r in mc)
    for phase in ("opening", "middle", "endgame"):
        it = sum(r[2] for r in mc if r[0] == phase)
        t = sum(r[3] for r in mc if r[0] == phase)
        lines.append(
            f"mcts      {phase:8s} {MCTS_ITERATIONS} it/position: {_rate(it, t):12,.0f} iterations/s"
        )

    signature = leaves + plies + ab_nodes + mc_nodes
    from patchsolve.search import alphabeta, solver

    lines.append(
        f"peak RSS {peak_rss_mib():.0f} MiB (was {rss_before:.0f} MiB before the searches); "
        f"alpha-beta TT default {alphabeta.DEFAULT_HASH_MB} MiB, "
        f"solve TT default {solver.DEFAULT_HASH_MB} MiB"
    )
    lines.append(
        f"signature {signature}"
        + ("" if signature == SIGNATURE else f"  (differs from the pinned {SIGNATURE})")
    )
    return {
        "lines": lines,
        "signature": signature,
        "pinned_signature": SIGNATURE,
        "perft_leaves_per_s": _rate(leaves, perft_t),
        "playouts_per_s": _rate(len(positions) * PLAYOUTS, playout_t),
        "alphabeta_nps": _rate(ab_nodes, ab_time),
        "mcts_iterations_per_s": _rate(sum(r[2] for r in mc), sum(r[3] for r in mc)),
        "peak_rss_mib": peak_rss_mib(),
    }
