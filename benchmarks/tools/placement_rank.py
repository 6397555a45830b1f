"""How well the alpha-beta's placement order keeps the best placement of
each patch among the few it searches (issue 28, item 2).

Two orders: ``plain`` (the edge badness, ``_eval.placement_badness``) and
``ranked`` (the learned evaluation of the position after the placement,
``_alphabeta.rank_by_eval``), both as ``_alphabeta.ordered_moves`` lists
them.

``exact``: on the perfect-play set (``tests/data/exact_26_34.jsonl.xz``), the
root's pruning ceiling: the points a move lost by a perfect search of only
the first ``k`` placements of each patch (a bounded move counts at its
bound, so the figure is a lower bound).

    python benchmarks/tools/placement_rank.py exact

``proxy``: at any phase, against a search: each placement of each patch of
positions drawn from the 2,000-game self-play corpus is valued by a node-limited
search of the position after it; per phase band, how often the best
(by that search) is among the first two, and the mean shortfall of the
best of the first two. Rows are written as they are produced.

    python benchmarks/tools/placement_rank.py proxy --out proxy.jsonl --bands 26-55,35-106 --per-band 40
    python benchmarks/tools/placement_rank.py report proxy.jsonl

``speed``: what the ranking costs: on the bench positions, one thread, no
near-end solver, nodes a second and the depth reached in ``--time``
seconds, and the nodes and time to the bench's depths, per ``rank_plies``.

    python benchmarks/tools/placement_rank.py speed 0 3 100
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

from patchsolve import Position, search
from patchsolve.arena.selfplay import record_positions
from patchsolve.rules.position import Move
from patchsolve.search import _alphabeta
from patchsolve.search.result import phase_of

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
from inputs import CORPUS_2000 as CORPUS  # noqa: E402
from inputs import read_corpus  # noqa: E402

REPORT_BANDS = [(20, 32), (32, 40), (40, 48), (48, 56), (56, 70), (70, 85), (85, 107)]


def by_patch(pos: Position, keep: int, rank: bool) -> dict[int, list[str]]:
    """{patch: its placements in the searcher's order} (the first ``keep``; 0: all)."""
    out: dict[int, list[str]] = defaultdict(list)
    for code in _alphabeta.ordered_moves(pos._c, keep, rank):
        move = Move.from_code(code)
        if move.kind == "buy":
            out[move.patch].append(str(move))
    return out


def exact_ceiling() -> None:
    from bench_exact import DATA, read_rows

    rows = read_rows(DATA)
    print(f"{len(rows)} positions of {DATA.name}: points lost a move by the root's pruning alone")
    for rank in (False, True):
        for k in (1, 2, 3, 4):
            losses = []
            for row in rows:
                pos = Position(row["position"])
                kept = [str(Move.from_code(c)) for c in _alphabeta.ordered_moves(pos._c, k, rank)]
                value = {m["move"]: m["score"] if m["bound"] == "exact" else m["upper"] for m in row["moves"]}
                losses.append(row["value"] - max(value[m] for m in kept))
            name = "ranked" if rank else "plain"
            print(
                f"{name:6} k={k}: {statistics.mean(losses):.3f} ({sum(x > 0 for x in losses)} positions lose)"
            )


def value_after(pos: Position, move: str, nodes: int) -> int:
    child = pos.play(move)
    if child.is_over:
        s = child.scores()
        return s[pos.to_move] - s[1 - pos.to_move]
    r = search(child, nodes=nodes, workers=1, endgame_solve=False)
    return r.score if child.to_move == pos.to_move else -r.score


def proxy_job(job) -> dict:
    text, nodes = job
    pos = Position(text)
    plain, ranked = by_patch(pos, 0, False), by_patch(pos, 0, True)
    patches = []
    for pid, moves in plain.items():
        if len(moves) >= 3:
            values = {m: value_after(pos, m, nodes) for m in moves}
            patches.append({"patch": pid, "plain": moves, "ranked": ranked[pid], "values": values})
    return {"position": text, "phase": phase_of(pos), "nodes": nodes, "patches": patches}


def sample(bands, per_band: int, seed: int) -> list[str]:
    """Positions from the corpus: per game, the first at or below a phase
    drawn from the bands' range, kept when its band still wants one."""
    records = read_corpus(CORPUS)
    rng = random.Random(seed)
    rng.shuffle(records)
    lo, hi = min(b[0] for b in bands), max(b[1] for b in bands)
    want: dict = {b: [] for b in bands}
    for rec in records:
        target = rng.randrange(lo, hi)
        for _, pos, _ in record_positions(rec):
            if pos.is_over or pos.fields()["pending_leather"] is not None:
                continue
            if phase_of(pos) <= target:
                band = next((b for b in bands if b[0] <= phase_of(pos) < b[1]), None)
                if band is not None and len(want[band]) < per_band:
                    want[band].append(pos.to_text())
                break
        if all(len(v) >= per_band for v in want.values()):
            break
    return [t for v in want.values() for t in v]


def report(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    print("| phase | positions | patches | best kept: plain | ranked | shortfall: plain | ranked |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for lo, hi in REPORT_BANDS:
        sel = [p for r in rows if lo <= r["phase"] < hi for p in r["patches"]]
        if not sel:
            continue
        cells = []
        for name in ("plain", "ranked"):
            got = [max(p["values"][m] for m in p[name][:2]) for p in sel]
            best = [max(p["values"].values()) for p in sel]
            kept = sum(g == b for g, b in zip(got, best)) / len(sel)
            cells.append((kept, statistics.mean(b - g for g, b in zip(got, best))))
        n = sum(lo <= r["phase"] < hi for r in rows)
        (k0, s0), (k1, s1) = cells
        print(f"| {lo}-{hi - 1} | {n} | {len(sel)} | {k0:.0%} | {k1:.0%} | {s0:.2f} | {s1:.2f} |")


def speed(values: list[int], seconds: float) -> None:
    import time

    from patchsolve.search.bench import AB_DEPTH, read_positions

    positions = read_positions()
    print("| rank_plies | median nodes/s | depths in the time | nodes to the bench depths | seconds |")
    print("|---:|---:|---|---:|---:|")
    for value in values:
        rates, depths, nodes, seconds_to_depth = [], [], 0, 0.0
        for phase, pos in positions:
            r = search(pos, time=seconds, workers=1, endgame_solve=False, rank_plies=value)
            rates.append(r.nodes / r.time)
            depths.append(r.depth)
            t0 = time.perf_counter()
            r = search(pos, depth=AB_DEPTH[phase], workers=1, endgame_solve=False, rank_plies=value)
            seconds_to_depth += time.perf_counter() - t0
            nodes += r.nodes
        rate = statistics.median(rates)
        print(
            f"| {value} | {rate:,.0f} | {' '.join(map(str, depths))} | {nodes:,} | {seconds_to_depth:.2f} |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    sub.add_parser("exact")
    p = sub.add_parser("proxy")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--bands", default="35-55,55-80,80-106", help="phase bands lo-hi (hi excluded)")
    p.add_argument("--per-band", type=int, default=30)
    p.add_argument("--nodes", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--workers", type=int, default=2)
    r = sub.add_parser("report")
    r.add_argument("path", type=Path)
    sp = sub.add_parser("speed")
    sp.add_argument("values", type=int, nargs="+")
    sp.add_argument("--time", type=float, default=0.5)
    args = ap.parse_args()
    if args.what == "exact":
        exact_ceiling()
    elif args.what == "report":
        report(args.path)
    elif args.what == "speed":
        speed(args.values, args.time)
    else:
        bands = [tuple(int(x) for x in b.split("-")) for b in args.bands.split(",")]
        texts = sample(bands, args.per_band, args.seed)
        with Pool(args.workers) as pool, args.out.open("w") as f:
            for row in pool.imap(proxy_job, [(t, args.nodes) for t in texts]):
                f.write(json.dumps(row) + "\n")
                f.flush()


if __name__ == "__main__":
    main()
