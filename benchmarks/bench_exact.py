"""Points a player loses a move against perfect play, on the positions 26-34
spaces from the end whose moves the solver valued (the perfect-play set,
tests/data/exact_26_34.jsonl.xz, built by exact_positions.py).

Each player spec (as for ``patchsolve tournament``) picks a move in every
position; the move's loss is the position's exact value minus the move's
value. A move whose value the solver only bounded (``upper``: proven no
better than the best) loses at least best - upper: such losses are counted
at that least value and their number printed, so a mean with any of them is
a lower bound.

    python benchmarks/bench_exact.py alphabeta:time=0.1 alphabeta:time=1 greedy random

Prints, per player: positions, mean points lost (95% interval), the share
of moves that were optimal, the worst loss, and how many losses are bounds.
With two players or more, each later one is then compared with the first
position by position (the difference of their losses, paired: far tighter
than the two intervals side by side), with the positions where they differ.
"""

from __future__ import annotations

import argparse
import json
import lzma
from pathlib import Path

from patchsolve.arena.corpus_report import _mean_ci
from patchsolve.arena.players import make_player
from patchsolve.arena.selfplay import choose_with_result
from patchsolve.rules.position import Position

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "tests" / "data" / "exact_26_34.jsonl.xz"  # a fixture of the tests too


def read_rows(path: Path) -> list[dict]:
    """The positions whose root value is exact (from a plain or an .xz file)."""
    raw = Path(path).read_bytes()
    text = (lzma.decompress(raw) if Path(path).suffix == ".xz" else raw).decode()
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [r for r in rows if r["exact"] and r["moves"]]


def loss_of(row: dict, move: str) -> tuple[float, bool]:
    """(points lost by ``move``, whether that is only a lower bound)."""
    for m in row["moves"]:
        if m["move"] == move:
            if m["bound"] == "exact":
                return row["value"] - m["score"], False
            return row["value"] - m["upper"], True
    raise KeyError(f"{move} is not among the position's moves")


def played(spec: str, rows: list[dict], seed: int):
    """(row, the move the player chose there, its loss, whether that loss
    is only a bound) for each row, the player seeded ``seed`` + its index."""
    for i, row in enumerate(rows):
        move, _ = choose_with_result(make_player(spec, seed=seed + i), Position(row["position"]))
        yield (row, str(move), *loss_of(row, str(move)))


def judge(spec: str, rows: list[dict], seed: int) -> dict:
    """One player's losses over the rows."""
    losses, bounded = [], 0
    for _, _, loss, is_bound in played(spec, rows, seed):
        losses.append(loss)
        bounded += is_bound
    summary = _mean_ci(losses)  # the self-play report's normal 95% interval
    return {
        "player": spec,
        "positions": summary["n"],
        "mean_loss": summary["mean"],
        "ci95": summary["ci95"],
        "optimal": sum(1 for x in losses if x == 0) / summary["n"],
        "worst": summary["max"],
        "bounded": bounded,
        "losses": losses,
    }


def paired(first: dict, other: dict) -> dict:
    """``other``'s losses less ``first``'s, position by position: the mean
    difference (negative: ``other`` loses less), its 95% interval and the
    positions where the two differ, as (index, first's loss, other's)."""
    diffs = [b - a for a, b in zip(first["losses"], other["losses"])]
    summary = _mean_ci(diffs)
    changed = [(i, a, b) for i, (a, b) in enumerate(zip(first["losses"], other["losses"])) if a != b]
    return {"mean": summary["mean"], "ci95": summary["ci95"], "changed": changed}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("players", nargs="+")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rows = read_rows(args.data)
    print(f"{len(rows)} positions, phases {min(r['phase'] for r in rows)}-{max(r['phase'] for r in rows)}")
    print("| player | positions | points lost a move (95% CI) | optimal | worst | losses that are bounds |")
    print("|---|---:|---|---:|---:|---:|")
    results = []
    for spec in args.players:
        r = judge(spec, rows, args.seed)
        results.append(r)
        print(
            f"| `{spec}` | {r['positions']} | {r['mean_loss']:.2f} [{r['ci95'][0]:.2f}, {r['ci95'][1]:.2f}] "
            f"| {100 * r['optimal']:.0f}% | {r['worst']:g} | {r['bounded']} |",
            flush=True,
        )
    for r in results[1:]:
        d = paired(results[0], r)
        changed = ", ".join(f"{i}: {a:g} -> {b:g}" for i, a, b in d["changed"]) or "none"
        print(
            f"`{r['player']}` less `{results[0]['player']}`: {d['mean']:+.2f} "
            f"[{d['ci95'][0]:+.2f}, {d['ci95'][1]:+.2f}] points a move; positions changed: {changed}"
        )


if __name__ == "__main__":
    main()
