"""Reach of the exact solver: how far from the end it proves values in time.

Positions come from noisy alpha-beta self-play (``patchsolve.search(pos,
engine="alphabeta", nodes=N)``, a uniformly random move with probability
``--noise``), random circles, both editions, and are bucketed by both
players' spaces left to 53 added up: the first position of a game at or
below 20, 25, 30, 35, 40 or 50 spaces (each bucket from its own games).

    python benchmarks/solve_reach.py generate            # writes solve_reach.json
    python benchmarks/solve_reach.py run --budget 10     # new solver, exact values
    python benchmarks/solve_reach.py run --wdl           # new solver, win/loss only
    python benchmarks/solve_reach.py run --best          # new solver, a move proven best (no exact value)
    python benchmarks/solve_reach.py run --best --nodes 2000000 --spaces 31 50   # nodes, one thread, 31-50 left
    python benchmarks/solve_reach.py run --no-sign-first # new solver without the win/loss pass first
    python benchmarks/solve_reach.py run --solver old    # the alpha-beta solver (before; at commit 14b201e)
    python benchmarks/solve_reach.py run --workers 1     # one thread (default: every core)

The buckets report the hardest positions of each range (the first at or
below it). The issue's reach targets speak of all realistic positions with
at most 30 (40) spaces left; ``generate-uniform`` draws, for each of the
same six thresholds and from each of its own self-play games, one position
uniformly among those at or below the threshold, and ``run --set uniform``
reports the fraction proven with a 95% (Wilson) interval, per threshold and
by range of spaces left (the same positions: those near 40 apart from the
many nearer the end):

    python benchmarks/solve_reach.py generate-uniform    # writes solve_reach_uniform.json
    python benchmarks/solve_reach.py run --set uniform --budget 10
    python benchmarks/solve_reach.py table --set uniform ROWS.json   # the tables again, from --out

A run solves each position once with ``--budget`` seconds; "within 1 s"
counts the proofs that took at most 1 s of that run (the solvers do not
adapt to the budget, so this is what a 1 s budget would prove). Rows:
fraction proven within 1 s and within the budget, median time of the proven
ones, nodes per second over the whole bucket.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

import patchsolve
from patchsolve import Position
from patchsolve.arena.tournament import wilson
from patchsolve.rules.patches import LAST_SPACE

HERE = Path(__file__).resolve().parent
SET = HERE / "solve_reach.json"
UNIFORM_SET = HERE / "solve_reach_uniform.json"
BUCKETS = (20, 25, 30, 35, 40, 50)
# the uniform set's thresholds in the order they are drawn: 30 and 40 (the
# issue's targets) first, so their games and positions stay those of the
# set's first version
THRESHOLDS = (30, 40, 20, 25, 35, 50)


def spaces_left(pos: Position) -> int:
    return 2 * LAST_SPACE - pos.time(0) - pos.time(1)


def self_play(seed: int, nodes: int, noise: float) -> list[Position]:
    """One noisy alpha-beta self-play game, every position."""
    rng = random.Random(seed)
    edition = rng.choice(["revised", "original"])
    pos = Position.start(seed=seed, edition=edition, first_player=rng.randrange(2))
    game = [pos]
    while not pos.is_over:
        if rng.random() < noise:
            move = rng.choice(pos.legal_moves())
        else:
            move = patchsolve.search(pos, engine="alphabeta", nodes=nodes, endgame_solve=False).best_move
        pos = pos.play(move)
        game.append(pos)
    return game


def generate(per_bucket: int, nodes: int, noise: float, seed: int) -> list[dict]:
    out = []
    for b, bucket in enumerate(BUCKETS):
        for k in range(per_bucket):
            game_seed = seed + 1000 * b + k
            game = self_play(game_seed, nodes, noise)
            pos = next(p for p in game if not p.is_over and spaces_left(p) <= bucket)
            out.append(
                {
                    "bucket": bucket,
                    "spaces_left": spaces_left(pos),
                    "game_seed": game_seed,
                    "edition": pos.fields()["edition"],
                    "text": pos.to_text(),
                }
            )
            print(f"bucket {bucket}: game {game_seed} -> {spaces_left(pos)} spaces left", file=sys.stderr)
    return out


def generate_uniform(games: int, nodes: int, noise: float, seed: int) -> list[dict]:
    """Per threshold, ``games`` games of their own, each giving one position
    drawn uniformly among its unfinished positions at or below it. Written as
    they are drawn (a stopped run keeps what it made)."""
    out = []
    for t, threshold in enumerate(THRESHOLDS):
        for k in range(games):
            game_seed = seed + 1000 * t + k
            game = self_play(game_seed, nodes, noise)
            plies = [i for i, p in enumerate(game) if not p.is_over and spaces_left(p) <= threshold]
            ply = random.Random(f"uniform {game_seed} {threshold}").choice(plies)
            pos = game[ply]
            out.append(
                {
                    "bucket": threshold,
                    "spaces_left": spaces_left(pos),
                    "game_seed": game_seed,
                    "ply": ply,
                    "edition": pos.fields()["edition"],
                    "text": pos.to_text(),
                }
            )
            UNIFORM_SET.write_text(json.dumps(out, indent=1) + "\n")
            print(
                f"at most {threshold}: game {game_seed} ply {ply} -> {spaces_left(pos)} spaces left",
                file=sys.stderr,
            )
    return out


def groups(rows, keys):
    """(key, its rows) for each key of ``keys`` that has rows."""
    for key in keys:
        rs = [r for r in rows if r["bucket"] == key]
        if rs:
            yield key, rs


def summary(rs) -> tuple[int, int, str]:
    """Proven within 1 s, proven at all, and the median time of the proven."""
    done = [r for r in rs if r["proven"]]
    med = f"{statistics.median(r['time'] for r in done):.2f} s" if done else "-"
    return sum(r["time"] <= 1.0 for r in done), len(done), med


def ranges(rows):
    """(label, rows) per range of spaces left between consecutive BUCKETS
    ("1-20", "21-25", ...), for each range that has rows."""
    low = 0
    for bucket in BUCKETS:
        rs = [r for r in rows if low < r["spaces_left"] <= bucket]
        if rs:
            yield f"{low + 1}-{bucket}", rs
        low = bucket


def budget_text(budget) -> str:
    """A budget for a table's header: seconds (a float) or nodes (a str)."""
    return budget if isinstance(budget, str) else f"{budget:g} s"


def uniform_table(rows, budget) -> str:
    """Per threshold (every position of the set at or below it), then the
    same rows by range of spaces left."""
    head = (
        f"| n | proven <= 1 s | proven within {budget_text(budget)} | 95% interval | median time (proven) |"
    )
    lines = ["| spaces left " + head, "|---:|---:|---:|---:|---|---:|"]
    for threshold, rs in groups(rows, BUCKETS):
        lines.append(f"| <= {threshold} (any) " + uniform_row(rs))
    lines += ["", "| range of spaces left (every threshold's rows) " + head, "|---:|---:|---:|---:|---|---:|"]
    for label, rs in ranges(rows):
        lines.append(f"| {label} " + uniform_row(rs))
    return "\n".join(lines)


def uniform_row(rs) -> str:
    fast, done, med = summary(rs)
    lo, hi = wilson(done, len(rs))
    return (
        f"| {len(rs)} | {fast}/{len(rs)} | {done}/{len(rs)} ({100 * done / len(rs):.0f}%) "
        f"| [{100 * lo:.0f}%, {100 * hi:.0f}%] | {med} |"
    )


SOLVE_OPTIONS: dict = {}  # extra patchsolve.solve options (--no-sign-first)


def solve_one(pos: Position, solver: str, budget: float, wdl: bool, hash_mb: int):
    if solver == "old":
        # the alpha-beta's exact mode was removed once the solver replaced it;
        # its rows were measured at commit 14b201e (results/solve_reach.md)
        raise SystemExit("--solver old: check out commit 14b201e to measure the old solver")
    limit = {"nodes": NODES[0]} if NODES else {"time": budget}
    return patchsolve.solve(pos, hash_mb=hash_mb, wdl=wdl, **limit, **SOLVE_OPTIONS)


NODES: list = []  # --nodes: a node budget instead of the time (one thread)


def is_proven(r, wdl: bool) -> bool:
    """The question asked was answered: exact value, winner, or best move."""
    if SOLVE_OPTIONS.get("best"):
        return r.proven_best
    return r.bound == "exact" if not wdl else r.proven is not None


def run(entries, solver: str, budget: float, wdl: bool, hash_mb: int, buckets, spaces=None) -> list[dict]:
    rows = []
    for e in entries:
        if buckets and e["bucket"] not in buckets:
            continue
        if spaces and not spaces[0] <= e["spaces_left"] <= spaces[1]:
            continue
        pos = Position.from_text(e["text"])
        t0 = time.perf_counter()
        r = solve_one(pos, solver, budget, wdl, hash_mb)
        elapsed = time.perf_counter() - t0
        proven = is_proven(r, wdl)
        rows.append(
            {
                "bucket": e["bucket"],
                "spaces_left": e["spaces_left"],
                "proven": proven,
                "time": elapsed,
                "nodes": r.nodes,
                "score": r.score,
                "bound": r.bound,
                "lower": getattr(r, "lower", None),
                "upper": getattr(r, "upper", None),
                "winner": getattr(r, "proven", None),
            }
        )
        print(
            f"  bucket {e['bucket']} ({e['spaces_left']} left): {'proven' if proven else 'open'} "
            f"{elapsed:.2f}s {r.nodes} nodes score {r.score} [{rows[-1]['lower']}, {rows[-1]['upper']}]"
            f" {rows[-1]['winner'] or ''}",
            file=sys.stderr,
            flush=True,
        )
    return rows


def table(rows, budget) -> str:
    lines = [
        f"| spaces left | n | proven <= 1 s | proven within {budget_text(budget)} | median time (proven) | nodes/s |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for bucket, rs in groups(rows, BUCKETS):
        fast, done, med = summary(rs)
        total_t = sum(r["time"] for r in rs)
        nps = sum(r["nodes"] for r in rs) / total_t if total_t > 0 else 0.0
        lines.append(
            f"| <= {bucket} | {len(rs)} | {fast}/{len(rs)} | {done}/{len(rs)} | {med} | {nps / 1e6:.2f} M |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--per-bucket", type=int, default=8)
    g.add_argument("--nodes", type=int, default=3000, help="alpha-beta nodes per self-play move")
    g.add_argument("--noise", type=float, default=0.1, help="chance of a uniformly random move")
    g.add_argument("--seed", type=int, default=0)
    u = sub.add_parser("generate-uniform")
    u.add_argument("--games", type=int, default=100, help="games (positions) per threshold")
    u.add_argument("--nodes", type=int, default=3000, help="alpha-beta nodes per self-play move")
    u.add_argument("--noise", type=float, default=0.1, help="chance of a uniformly random move")
    u.add_argument("--seed", type=int, default=50000)
    s = sub.add_parser("table", help="print the tables of rows a run wrote (--out)")
    s.add_argument("rows", type=Path)
    s.add_argument(
        "--set", choices=["buckets", "uniform"], default="buckets", help="which set the run solved"
    )
    s.add_argument("--budget", type=float, default=10.0)
    s.add_argument("--nodes", type=int, default=None, help="the run had a node budget (--nodes)")
    r = sub.add_parser("run")
    r.add_argument(
        "--set",
        choices=["buckets", "uniform"],
        default="buckets",
        help="solve_reach.json (hardest of each range) or solve_reach_uniform.json",
    )
    r.add_argument("--solver", choices=["new", "old"], default="new")
    r.add_argument("--budget", type=float, default=10.0)
    r.add_argument("--wdl", action="store_true")
    r.add_argument("--best", action="store_true", help="prove a best move only (solve(best=True))")
    r.add_argument("--nodes", type=int, default=None, help="a node budget instead of --budget (one thread)")
    r.add_argument(
        "--spaces",
        type=int,
        nargs=2,
        default=None,
        metavar=("LO", "HI"),
        help="only positions with LO..HI spaces left",
    )
    r.add_argument("--no-sign-first", action="store_true", help="exact solve without the win/loss pass first")
    r.add_argument("--hash-mb", type=int, default=64)
    r.add_argument("--workers", type=int, default=None, help="solver threads (default: every core)")
    r.add_argument("--buckets", type=int, nargs="*", default=None)
    r.add_argument("--out", type=Path, default=None, help="also write the rows as JSON")
    args = ap.parse_args(argv)
    if args.cmd == "generate":
        entries = generate(args.per_bucket, args.nodes, args.noise, args.seed)
        SET.write_text(json.dumps(entries, indent=1) + "\n")
        print(f"wrote {len(entries)} positions to {SET}")
        return 0
    if args.cmd == "generate-uniform":
        entries = generate_uniform(args.games, args.nodes, args.noise, args.seed)
        print(f"wrote {len(entries)} positions to {UNIFORM_SET}")
        return 0
    if args.cmd == "table":
        try:
            rows = json.loads(args.rows.read_text())
        except (OSError, ValueError) as e:
            raise SystemExit(f"solve_reach.py table: cannot read {args.rows}: {e}") from None
        budget = f"{args.nodes:,} nodes (one thread)" if args.nodes else args.budget
        print(uniform_table(rows, budget) if args.set == "uniform" else table(rows, budget))
        return 0
    entries = json.loads((UNIFORM_SET if args.set == "uniform" else SET).read_text())
    if args.no_sign_first:
        SOLVE_OPTIONS["sign_first"] = False
    if args.workers is not None:
        SOLVE_OPTIONS["workers"] = args.workers
    if args.best:
        SOLVE_OPTIONS["best"] = True
    if args.nodes:
        NODES.append(args.nodes)
        SOLVE_OPTIONS["workers"] = 1
    rows = run(entries, args.solver, args.budget, args.wdl, args.hash_mb, args.buckets, args.spaces)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
    print(
        f"solver {args.solver}{' --wdl' if args.wdl else ''}{' --best' if args.best else ''}, "
        f"budget {f'{args.nodes} nodes' if args.nodes else f'{args.budget:g} s'}, hash {args.hash_mb} MB, "
        f"workers {1 if args.nodes else args.workers or 'every core'}"
    )
    budget = f"{args.nodes:,} nodes (one thread)" if args.nodes else args.budget
    print(uniform_table(rows, budget) if args.set == "uniform" else table(rows, budget))
    return 0


if __name__ == "__main__":
    sys.exit(main())
