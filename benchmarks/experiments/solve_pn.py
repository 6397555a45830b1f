"""Win/loss proofs in nodes: the plain null-window solver against the PN^2
driver (``patchsolve.search.proof``), one thread, the same node budget.

Positions: the uniform set's positions with 31-50 spaces left and the bucket
set's 35/40/50 buckets (``benchmarks/solve_reach.py``). For each method,
each position is given ``--nodes`` nodes of the C solver (64 MB table, one
thread: deterministic); a row records whether it proved who wins, the
answer and the nodes spent. Rows are kept per method in ``--out-dir`` (a
run goes on from the rows it finds), and ``table`` prints the comparison,
checking that the two methods agree wherever both proved.

    python benchmarks/experiments/solve_pn.py run --method plain --nodes 10000000
    python benchmarks/experiments/solve_pn.py run --method pn --nodes 10000000
    python benchmarks/experiments/solve_pn.py table --nodes 10000000 --methods plain pn
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import patchsolve  # noqa: E402
from patchsolve import Position  # noqa: E402
from patchsolve.search import _solver  # noqa: E402
from patchsolve.search.proof import ProofSearch  # noqa: E402
from solve_reach import SET, UNIFORM_SET, spaces_left  # noqa: E402
from patchsolve.tournament import wilson  # noqa: E402

OUT = HERE.parent / "results" / "solve_pn"
RANGES = ((31, 35), (36, 40), (41, 50))
# the PN^2 variants measured (ProofSearch options)
VARIANTS = {
    "pn": {},
    "pn-uniform": {"init": "uniform"},
    "pn-reprobe": {"reprobe": True},
    "pn-cap10k": {"leaf_nodes": 10000},
    "pn-cap500": {"leaf_nodes": 500},
    "pn-g10": {"growth": 0.1},
    "pn-g0": {"growth": 0.0},
    "pn-eval": {"init": "eval"},
    "pn-big": {"leaf_nodes": 20000, "growth": 0.1},
    "pn-root": {"root_share": 0.25},
    "pn-root-big": {"root_share": 0.25, "leaf_nodes": 20000, "growth": 0.1},
    "pn-root-small": {"root_share": 0.25},
    "pn-root-big-reprobe": {"root_share": 0.25, "leaf_nodes": 20000, "growth": 0.1, "reprobe": True},
    "pn-double": {"leaf_nodes": 1024, "growth": 0.05, "reprobe": "double", "weigh": True},
    "pn-double-u": {"leaf_nodes": 1024, "growth": 0.05, "reprobe": "double", "weigh": True, "init": "uniform"},
    "pn-root-double": {"root_share": 0.25, "leaf_nodes": 1024, "growth": 0.05, "reprobe": "double", "weigh": True},
    "pn-root-big-eval": {"root_share": 0.25, "leaf_nodes": 20000, "growth": 0.1, "init": "eval"},
}


def positions():
    """(name, set, spaces left, Position) of the measured positions."""
    out = []
    for i, e in enumerate(json.loads(UNIFORM_SET.read_text())):
        pos = Position.from_text(e["text"])
        if 31 <= spaces_left(pos) <= 50:
            out.append((f"u{i}", "uniform", spaces_left(pos), pos))
    for i, e in enumerate(json.loads(SET.read_text())):
        if e["bucket"] in (35, 40, 50):
            pos = Position.from_text(e["text"])
            out.append((f"b{i}", f"bucket {e['bucket']}", spaces_left(pos), pos))
    return out


def solve_plain(pos, nodes):
    r = patchsolve.solve(pos, wdl=True, nodes=nodes, workers=1, hash_mb=64)
    return r.proven, r.nodes, {}


def solve_pn(pos, nodes, options):
    s = _solver.Solver(64, True)
    search = ProofSearch(s, pos._c, nodes, **options)
    won = search.run()
    proven = None if won is None else ("win" if won else "loss")
    return proven, s.nodes, {"expanded": search.expanded, "searches": search.searches}


def rows_path(method, nodes):
    return OUT / f"{method}_{nodes}.json"


def run(method, nodes, only=None):
    path = rows_path(method, nodes)
    rows = json.loads(path.read_text()) if path.exists() else {}
    for name, kind, left, pos in positions():
        if name in rows or (only and name not in only):
            continue
        t0 = time.perf_counter()
        if method == "plain":
            proven, used, extra = solve_plain(pos, nodes)
        else:
            proven, used, extra = solve_pn(pos, nodes, VARIANTS[method])
        rows[name] = {"set": kind, "spaces_left": left, "proven": proven, "nodes": used,
                      "time": round(time.perf_counter() - t0, 2), **extra}
        print(name, kind, left, proven, used, rows[name]["time"], extra, file=sys.stderr, flush=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rows, indent=0) + "\n")
    return rows


def table(nodes, methods):
    """The comparison, as markdown; raises on a disagreement."""
    data = {m: json.loads(rows_path(m, nodes).read_text()) for m in methods}
    names = [n for n, *_ in positions() if all(n in data[m] for m in methods)]
    for n in names:
        answers = {data[m][n]["proven"] for m in methods} - {None}
        if len(answers) > 1:
            raise SystemExit(f"disagreement on {n}: " + ", ".join(f"{m} {data[m][n]['proven']}" for m in methods))
    base = methods[0]
    groups = []
    for lo, hi in RANGES:
        groups.append((f"uniform {lo}-{hi}", [n for n in names if n.startswith("u") and lo <= data[base][n]["spaces_left"] <= hi]))
    for b in (35, 40, 50):
        groups.append((f"bucket {b}", [n for n in names if data[base][n]["set"] == f"bucket {b}"]))
    groups.append(("all 36-50", [n for n in names if data[base][n]["spaces_left"] >= 36]))
    head = "| positions | n | " + " | ".join(f"{m} proven" for m in methods)
    head += " | " + " | ".join(f"{m} nodes (all proved)" for m in methods[1:]) + " |"
    lines = [head, "|---|---:|" + "---:|" * (2 * len(methods) - 1)]
    for label, ns in groups:
        cells = []
        for m in methods:
            k = sum(data[m][n]["proven"] is not None for n in ns)
            lo, hi = wilson(k, len(ns)) if ns else (0, 0)
            cells.append(f"{k} ({100 * lo:.0f}-{100 * hi:.0f}%)")
        both_cells = []
        for m in methods[1:]:
            both = [n for n in ns if data[base][n]["proven"] and data[m][n]["proven"]]
            a = sum(data[base][n]["nodes"] for n in both)
            b = sum(data[m][n]["nodes"] for n in both)
            both_cells.append(f"{len(both)}: {b / 1e6:.1f} M vs {a / 1e6:.1f} M ({b / a:.2f}x)" if a else "-")
        lines.append(f"| {label} | {len(ns)} | " + " | ".join(cells) + " | " + " | ".join(both_cells) + " |")
    agree = sum(1 for n in names if all(data[m][n]["proven"] for m in methods))
    lines.append("")
    lines.append(f"Every method agrees on who wins on the {agree} positions all of them proved.")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--method", default="pn", choices=["plain", *VARIANTS])
    r.add_argument("--nodes", type=int, default=10_000_000)
    r.add_argument("--only", nargs="*", help="position names (u12, b30)")
    t = sub.add_parser("table")
    t.add_argument("--nodes", type=int, default=10_000_000)
    t.add_argument("--methods", nargs="+", default=["plain", "pn"])
    a = ap.parse_args()
    if a.cmd == "run":
        run(a.method, a.nodes, a.only)
    else:
        print(table(a.nodes, a.methods))


if __name__ == "__main__":
    main()
