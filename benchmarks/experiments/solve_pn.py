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
from patchsolve.arena.tournament import wilson  # noqa: E402
from patchsolve.search.solver import c_solver  # noqa: E402
from solve_reach import SET, UNIFORM_SET, spaces_left  # noqa: E402

# -- the driver (kept here, not shipped: it did not gain; see
# benchmarks/results/solve_pn.md) ----------
#
# A best-first proof driver for the win/loss question (PN^2 search).
#
# ``prove(solver, core, node_limit)`` proves who wins ``core`` (a CState;
# RULES: equal scores go to the player who reached 53 first) with a
# proof-number tree over the top of the game tree, kept here in Python, whose
# leaves are settled by the C win/loss solver (``solver``, a
# ``_solver.Solver`` made with ``wdl=True``) under a small node cap:
#
# * the tree proves "the player to move at the root wins": a node whose
#   player to move is the root's is an OR node (one winning child proves it),
#   any other an AND node. A move can leave the same player to move (walking
#   past a button or patch space does not always switch players), so OR nodes
#   can have OR children; each node's kind comes from its own player to move.
# * each new leaf is first tried by one null-window search of the C solver
#   (``probe(state, 0, 1)``: win/loss values are 2 margin +- 1, so a win is a
#   value >= 1) with at most ``cap`` nodes; static bounds and the solver's
#   table are looked at first. A leaf the search cannot settle gets proof and
#   disproof numbers (1 and its move count on its mover's side) and is
#   expanded when it is the most-proving node; its children are tried in the
#   order of the evaluation, best for the mover first, until one settles the
#   node (the rest are tried when they become most-proving).
# * the cap grows with the work done so far (``growth`` of the nodes spent),
#   as PN^2 lets the second-level search grow with the first-level tree.
# * one C solver, one table, serves every leaf search: what one proves, the
#   others reuse. Settled positions are also remembered by key here, so a
#   transposition in the tree costs nothing twice.
#
# Node counts are the C solver's (the tree's own work is not counted in
# nodes); under a node limit the result is deterministic with one thread.

INF = 1 << 40  # a proof or disproof number that cannot be reached
LEAF_NODES = 2000  # the least node cap of a leaf search
GROWTH = 0.02  # the cap grows to this fraction of the nodes spent so far
EVAL_SCALE = 16.0  # init="eval": an evaluation this many points up is a win in 3 of 4


class _Node:
    """A node of the proof tree: its C state, its numbers for "the root's
    player wins", its children once expanded."""

    __slots__ = ("c", "parent", "code", "kids", "pn", "dn", "is_or", "tried")

    def __init__(self, c, parent, code, is_or):
        self.c = c
        self.parent = parent
        self.code = code  # the move from the parent
        self.kids = None
        self.pn = 1
        self.dn = 1
        self.is_or = is_or
        self.tried = 0  # the cap of the leaf search that did not settle it (0: none yet)


class ProofSearch:
    """One proof of who wins ``core`` (see the module doc).

    ``node_limit``: the solver's node count (since its creation) at which
    the search stops (0: none). ``leaf_nodes``, ``growth``: the leaf cap.
    ``init``: "moves" (an open leaf's numbers from its move count) or
    "uniform" (1 and 1). ``reprobe``: an open leaf whose search had less
    than a quarter of today's cap is searched again before it is expanded.
    """

    def __init__(
        self,
        solver,
        core,
        node_limit=0,
        leaf_nodes=LEAF_NODES,
        growth=GROWTH,
        init="moves",
        reprobe=False,
        root_share=0.0,
        scale=EVAL_SCALE,
        weigh=False,
    ):
        if not solver.wdl:
            raise ValueError("the proof driver needs a win/loss solver")
        self.solver = solver
        self.root_core = core
        self.me = core.to_move
        self.limit = node_limit
        self.leaf_nodes = leaf_nodes
        self.growth = growth
        self.init = init
        self.reprobe = reprobe
        self.root_share = root_share
        self.scale = scale
        self.weigh = weigh
        self.start = solver.nodes
        self.known: dict = {}  # key -> did the root's player win
        self.expanded = 0
        self.searches = 0
        self.root = None
        self.best = None

    # -- budget ----------------------------------------------------------------

    def out_of_budget(self) -> bool:
        return bool(self.limit) and self.solver.nodes >= self.limit

    def cap(self) -> int:
        spent = self.solver.nodes - self.start
        return max(self.leaf_nodes, int(spent * self.growth))

    # -- leaves ----------------------------------------------------------------

    def _settle(self, node, root_wins: bool) -> None:
        node.pn, node.dn = (0, INF) if root_wins else (INF, 0)
        node.kids = None

    def _open(self, node, cap) -> None:
        """Numbers of a leaf the search did not settle (with ``weigh``,
        scaled by how much its searches have cost: log2 of the cap)."""
        if self.init == "moves":
            n = max(1, node.c.count_moves())
            node.pn, node.dn = (1, n) if node.is_or else (n, 1)
        elif self.init == "eval":
            # the evaluation (for the root's player) as odds of a win
            g = self.solver.guess(node.c) / 2
            if node.c.to_move != self.me:
                g = -g
            odds = 3.0 ** (g / self.scale)
            node.pn = max(1, min(1000, round(4 / odds)))
            node.dn = max(1, min(1000, round(4 * odds)))
        else:
            node.pn, node.dn = 1, 1
        if self.weigh:
            f = 1 + max(0, cap.bit_length() - self.leaf_nodes.bit_length())
            node.pn, node.dn = node.pn * f, node.dn * f

    def _try(self, node, cap: int) -> None:
        """One leaf search of ``node`` with at most ``cap`` nodes."""
        c = node.c
        key = c.key
        if key in self.known:
            self._settle(node, self.known[key])
            return
        s = self.solver
        lo, hi = s.bounds(c)
        known = s.tt_bounds(c)
        if known is not None:
            lo, hi = max(lo, known[0]), min(hi, known[1])
        if lo < 0 < hi:
            limit = s.nodes + cap
            if self.limit:
                limit = min(limit, self.limit)
            if limit <= s.nodes:
                return
            s.set_limits(limit, 0)
            self.searches += 1
            v = s.probe(c, 0, 1)
            if v is None:
                node.tried = cap
                self._open(node, cap)
                return
            lo, hi = (v, hi) if v >= 1 else (lo, v)
        mover_wins = lo > 0
        root_wins = mover_wins == (c.to_move == self.me)
        self.known[key] = root_wins
        self._settle(node, root_wins)

    def _expand(self, node) -> None:
        """The children of ``node``: finished games settled, the others tried
        best first (by the evaluation) until ``node`` is settled."""
        self.expanded += 1
        c = node.c
        s = self.solver
        kids, rank = [], []
        known = s.tt_bounds(c)
        first = None if known is None else known[2]
        for code in c.legal_codes():
            k = c.play(code)
            kid = _Node(k, node, code, k.to_move == self.me)
            if k.is_over:
                self._settle(kid, k.winner() == self.me)
                rank.append(-INF)
            else:
                g = s.guess(k)
                rank.append(-INF + 1 if code == first else -g if k.to_move == c.to_move else g)
            kids.append(kid)
        order = sorted(range(len(kids)), key=rank.__getitem__)
        kids = node.kids = [kids[i] for i in order]
        self._numbers(node)
        cap = self.cap()
        for kid in kids:
            if node.pn == 0 or node.dn == 0 or self.out_of_budget():
                break
            if kid.pn and kid.dn:
                self._try(kid, cap)
                if (node.is_or and kid.pn == 0) or (not node.is_or and kid.dn == 0):
                    self._numbers(node)

    # -- the tree ----------------------------------------------------------------

    def _numbers(self, node) -> None:
        kids = node.kids
        if node.is_or:
            pn = min(k.pn for k in kids)
            dn = min(INF, sum(k.dn for k in kids))
        else:
            pn = min(INF, sum(k.pn for k in kids))
            dn = min(k.dn for k in kids)
        node.pn, node.dn = pn, dn
        if pn == 0 or dn == 0:
            if node is self.root and pn == 0:
                self.best = next(k.code for k in kids if k.pn == 0)
            node.kids = None

    def _select(self, node):
        while node.kids is not None:
            if node.is_or:
                node = min(node.kids, key=lambda k: k.pn)
            else:
                node = min(node.kids, key=lambda k: k.dn)
        return node

    def _backup(self, node) -> None:
        node = node.parent
        while node is not None:
            if node.kids is not None:
                self._numbers(node)
            node = node.parent

    def run(self):
        """True (the root's player wins), False, or None (the budget ran
        out); ``best`` is a winning root move's code after a win when the
        tree found it (else None)."""
        root = self.root = _Node(self.root_core, None, None, True)
        first = self.cap()
        if self.root_share and self.limit:
            first = max(first, int((self.limit - self.start) * self.root_share))
        self._try(root, first)
        while root.pn and root.dn and not self.out_of_budget():
            node = self._select(root)
            if not node.tried:
                self._try(node, self.cap())
            elif self.reprobe == "double" and node.tried < self.cap():
                self._try(node, 4 * node.tried)
            elif self.reprobe is True and node.tried * 4 <= self.cap():
                self._try(node, self.cap())
            else:
                self._expand(node)
            self._backup(node)
        if root.pn == 0:
            return True
        if root.dn == 0:
            return False
        return None


def prove(solver, core, node_limit=0, **options):
    """Who wins ``core`` for its player to move: True, False or None when
    ``node_limit`` (the solver's node count at which to stop; 0: none) is
    reached first. ``options``: ProofSearch's."""
    return ProofSearch(solver, core, node_limit, **options).run()


# -- the measurement --------------------------------------------------

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
    "pn-double-u": {
        "leaf_nodes": 1024,
        "growth": 0.05,
        "reprobe": "double",
        "weigh": True,
        "init": "uniform",
    },
    "pn-root-double": {
        "root_share": 0.25,
        "leaf_nodes": 1024,
        "growth": 0.05,
        "reprobe": "double",
        "weigh": True,
    },
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
    s = c_solver(64, wdl=True)
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
        rows[name] = {
            "set": kind,
            "spaces_left": left,
            "proven": proven,
            "nodes": used,
            "time": round(time.perf_counter() - t0, 2),
            **extra,
        }
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
            raise SystemExit(
                f"disagreement on {n}: " + ", ".join(f"{m} {data[m][n]['proven']}" for m in methods)
            )
    base = methods[0]
    groups = []
    for lo, hi in RANGES:
        groups.append(
            (
                f"uniform {lo}-{hi}",
                [n for n in names if n.startswith("u") and lo <= data[base][n]["spaces_left"] <= hi],
            )
        )
    for b in (35, 40, 50):
        groups.append((f"bucket {b}", [n for n in names if data[base][n]["set"] == f"bucket {b}"]))
    groups.append(("all 36-50", [n for n in names if data[base][n]["spaces_left"] >= 36]))
    head = "| positions | n | " + " | ".join(f"{m} proven" for m in methods)
    head += " | " + " | ".join(f"{m} nodes vs plain, where both proved" for m in methods[1:]) + " |"
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
