"""What the engine tells a person, checked against the truth: every claim of
``patchsolve.search`` on the perfect-play set's positions (every root move
valued by the solver, ``tests/data/exact_26_34.jsonl.xz``) under the given
settings.

A result's claims and what makes each false (V: the position's exact value;
a move's value is exact in the set, or only proven at most some bound):

- ``bound`` "exact": the score is not V; with ``proven_best``, the move
  played is worth less than V;
- ``bound`` "lower" / "upper": V is below / above the score;
- ``lower`` / ``upper``: V is outside them;
- ``proven`` "win" / "loss": V is below / above 0, or (a win) the move
  played is worth less than 0;
- ranked rows (``root_moves``): the first is not the move played; the
  scores are not in order (the MCTS ranks by the visits of each move's
  choice, walking or which patch: those are checked instead); a row's
  exact score, bound, interval or outcome is false of its move.

    python benchmarks/tools/claims.py '{"time": 1, "workers": 1}'
    python benchmarks/tools/claims.py '{"time": 0.3, "multipv": 4}' --positions 4,12,13

Prints each position with a false claim, then how many there were.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402
import patchsolve  # noqa: E402
from patchsolve.rules.position import Position  # noqa: E402

UNKNOWN = -(10**6)  # a move whose value the set only bounds from above: no lower bound


def move_intervals(row: dict) -> dict:
    """Move text -> (at least, at most) its exact value."""
    out = {}
    for m in row["moves"]:
        out[m["move"]] = (m["score"], m["score"]) if m["bound"] == "exact" else (UNKNOWN, m["upper"])
    return out


def false_claims(row: dict, r) -> list[str]:
    """The claims of the result ``r`` on ``row``'s position that are false."""
    v, moves = row["value"], move_intervals(row)
    at_most = moves[str(r.best_move)][1]
    bad = []
    if r.bound == "exact" and r.score != v:
        bad.append(f"exact {r.score}, the value is {v}")
    if r.bound == "exact" and r.proven_best and at_most < v:
        bad.append(f"{r.best_move} proven best at {r.score}, worth at most {at_most}")
    if r.bound == "lower" and v < r.score:
        bad.append(f"at least {r.score}, the value is {v}")
    if r.bound == "upper" and v > r.score:
        bad.append(f"at most {r.score}, the value is {v}")
    if r.lower is not None and v < r.lower or r.upper is not None and v > r.upper:
        bad.append(f"interval [{r.lower}, {r.upper}], the value is {v}")
    if r.proven == "win" and (v < 0 or at_most < 0) or r.proven == "loss" and v > 0:
        bad.append(f"proven {r.proven}, the value is {v}, {r.best_move} worth at most {at_most}")
    return bad + _false_rows(r, moves)


def _false_rows(r, moves: dict) -> list[str]:
    rows = r.root_moves
    if not rows:
        return []
    bad = []
    if str(rows[0]["move"]) != str(r.best_move):
        bad.append(f"first row {rows[0]['move']}, the move played {r.best_move}")
    if r.engine == "mcts":  # proven wins, then by the visits of the move's choice (their own within it)
        ranks = [(d["proven"] == "win", d["choice_visits"]) for d in rows]
    else:
        ranks = [d["score"] for d in rows]
    if ranks != sorted(ranks, reverse=True):
        bad.append(f"rows out of order: {ranks}")
    for d in rows:
        lo, hi = moves[str(d["move"])]
        if _row_is_false(d, lo, hi):
            bad.append(
                f"row {d['move']}: {d['bound']} {d['score']}, interval {d.get('lower')}..{d.get('upper')}, "
                f"proven {d.get('proven')}; worth {lo}..{hi}"
            )
    return bad


def _row_is_false(d: dict, lo: int, hi: int) -> bool:
    """A ranked row says something false of its move, worth ``lo``..``hi``."""
    s, b = d["score"], d["bound"]
    if b == "exact" and not lo <= s <= hi or b == "lower" and hi < s or b == "upper" and lo > s:
        return True
    if d.get("lower") is not None and hi < d["lower"] or d.get("upper") is not None and lo > d["upper"]:
        return True
    return d.get("proven") == "win" and hi < 0 or d.get("proven") == "loss" and lo > 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("settings", help="keywords of patchsolve.search, as JSON")
    ap.add_argument("--positions", help="set indices, comma-separated (default: all)")
    args = ap.parse_args()
    settings = json.loads(args.settings)
    rows = B.read_rows(B.DATA)
    picked = range(len(rows)) if not args.positions else [int(x) for x in args.positions.split(",")]
    found = 0
    for i in picked:
        r = patchsolve.search(Position(rows[i]["position"]), seed=i, **settings)
        bad = false_claims(rows[i], r)
        if bad:
            found += 1
            print(i, r.best_move, r.score, r.bound, r.proven, bad, flush=True)
    print(f"{settings}: {found} of {len(picked)} positions with a false claim")


if __name__ == "__main__":
    main()
