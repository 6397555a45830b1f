"""A best-first proof driver for the win/loss question (PN^2 search).

``prove(solver, core, node_limit)`` proves who wins ``core`` (a CState;
RULES: equal scores go to the player who reached 53 first) with a
proof-number tree over the top of the game tree, kept here in Python, whose
leaves are settled by the C win/loss solver (``solver``, a
``_solver.Solver`` made with ``wdl=True``) under a small node cap:

* the tree proves "the player to move at the root wins": a node whose
  player to move is the root's is an OR node (one winning child proves it),
  any other an AND node. A move can leave the same player to move (walking
  past a button or patch space does not always switch players), so OR nodes
  can have OR children; each node's kind comes from its own player to move.
* each new leaf is first tried by one null-window search of the C solver
  (``probe(state, 0, 1)``: win/loss values are 2 margin +- 1, so a win is a
  value >= 1) with at most ``cap`` nodes; static bounds and the solver's
  table are looked at first. A leaf the search cannot settle gets proof and
  disproof numbers (1 and its move count on its mover's side) and is
  expanded when it is the most-proving node; its children are tried in the
  order of the evaluation, best for the mover first, until one settles the
  node (the rest are tried when they become most-proving).
* the cap grows with the work done so far (``growth`` of the nodes spent),
  as PN^2 lets the second-level search grow with the first-level tree.
* one C solver, one table, serves every leaf search: what one proves, the
  others reuse. Settled positions are also remembered by key here, so a
  transposition in the tree costs nothing twice.

Node counts are the C solver's (the tree's own work is not counted in
nodes); under a node limit the result is deterministic with one thread.
"""

from __future__ import annotations

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
