# cython: language_level=3
"""Monte Carlo tree search over the rules core: the hot loop, in C.

The tree lives in one growable array of ``Node`` structs (no Python objects);
children form a singly linked list, newest child first. One iteration walks
down from the root by UCT, adds one node, values it (the evaluation with
``LEAF_EVAL``, the default; a playout to the end of the game with
``LEAF_PLAYOUT``) and backs the result up the path, with the implicit
minimax values (``minimax_backup``) when ``minimax`` > 0.

Non-alternating turns
---------------------
Every node stores ``mover``: the player who chose the move leading to it (the
player to move in its parent, ``to_move()`` of the core, which already makes a
pending leather placement the decision of the player who took the patch).
All of a node's sums are from ``mover``'s point of view, so a parent simply
maximises over its children; no sign is flipped per ply.

Tree shapes (``TREE_*``)
------------------------
``TREE_TWOLEVEL`` (default): a buy is two decisions of the same player.
A *state node* offers walk and one *patch node* per affordable patch among the
next three that fits somewhere; a patch node (same state, ``patch >= 0``)
offers that patch's placements. Placements and leather squares are added by
progressive widening (at most ``1 + pw_c * visits ** pw_alpha`` children), best
first by a compactness key (``_quilt.placement_score``, shared with the other
searchers), so 400 near-duplicate placements never starve the
choice of *which* patch to buy.

``TREE_PLAIN``: full-width plain UCT over all legal moves, each tried once
before any is tried twice, in a per-node pseudo-random order (the published
baseline, kept for comparison).

Proofs (MCTS-solver)
--------------------
``proven`` is +1 (a win for ``mover``), -1 (a loss) or 0. A terminal node is
proven by ``winner()``; a node is a win for the player to move in it when one
child is, and a loss when it is fully expanded and every child is a loss.
A proven win at the root ends the search. A proven loss does not: the search
goes on ignoring proofs (``lost_root``), so the best loss is still found.

Playouts (``POLICY_*``, with ``LEAF_PLAYOUT``) run to the end of the game:
uniformly random moves, or the heuristic policy (``heuristic_move``).

Every parameter comes from ``configure()``, which the Python side
(``mcts.py``, the one table of defaults) calls with all of them.
"""

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset
from libc.math cimport sqrt, log, pow, exp
from libc.stdint cimport uint64_t, int64_t, int32_t, int16_t, int8_t

from patchsolve._core cimport (
    CState, Tables, CoreState, move_t, u128, get_tables, gen_moves, count_moves, apply_move,
    is_over, to_move, score, winner, state_key, move_mask, popcount128,
    rng_next, rng_below, random_playout, fits, buy_code, stop_requested, monotonic_now,
    ps_ctz128, ps_select128, ps_bit128, income_ahead, affordable_ahead, fits_somewhere,
    MAX_MOVES, MOVE_WALK, LAST_SPACE, PATCHES_AHEAD,
)
from patchsolve.search._eval cimport evaluate_margin
from patchsolve.search._quilt cimport placement_score

cdef enum:
    TREE_TWOLEVEL = 0
    TREE_PLAIN = 1
    POLICY_UNIFORM = 0
    POLICY_HEURISTIC = 1
    VALUE_WIN = 0
    VALUE_MARGIN = 1
    VALUE_BLEND = 2
    LEAF_PLAYOUT = 0
    LEAF_EVAL = 1
    MAX_PATH = 1024
    NO_NODE = -1
    PATCH_MARK = -2        # move of a patch node: PATCH_MARK - patch id (always < 0)


ctypedef struct Node:
    double value          # sum of leaf rewards in [0, 1], for mover
    double margin         # sum of leaf margins (final or evaluated), mover - opponent
    double wins           # sum of leaf win chances for mover (a playout's is 0 or 1)
    double mm             # implicit minimax: the best leaf result below, for mover
    int32_t visits
    move_t move           # real move code, or PATCH_MARK - patch for a patch node
    int32_t first_child   # newest child; NO_NODE if none
    int32_t next_sibling
    int16_t n_children
    int16_t n_cand        # candidate moves here, -1 until first needed
    int8_t mover
    int8_t proven
    int8_t patch          # patch id of a patch node, else -1


ctypedef struct Config:
    int tree
    int policy
    int value
    double blend          # VALUE_BLEND: weight of the margin reward
    double margin_scale   # margin reward = logistic(margin / margin_scale)
    double c              # UCT exploration constant
    double pw_c
    double pw_alpha
    int solver
    double epsilon        # heuristic playouts: chance of a random option
    int samples           # heuristic playouts: placements sampled per buy
    double time_weight    # heuristic playouts: buttons a time space is worth
    int hole_penalty      # placement order and playouts: cost of a 1-square hole
    int leaf              # LEAF_EVAL: a new leaf is valued by the evaluation, no playout
    double minimax        # UCT's exploitation term: (1 - minimax) mean + minimax x mm


cdef const Tables* T = get_tables()

# --------------------------------------------------------------------------
# Move helpers and heuristics
# --------------------------------------------------------------------------

cdef inline int64_t order_key(move_t m, const CState* s, const Config* cfg) noexcept nogil:
    """Unique key ordering the placements of the mover of ``s`` best first:
    compactness, then a hash of the code (so ties are not broken by board
    position), then the code."""
    cdef uint64_t h = (<uint64_t>m * 0x9E3779B97F4A7C15ULL) >> 48
    return ((<int64_t>placement_score(move_mask(m), s.quilt[to_move(s)], cfg.hole_penalty)) << 40
            | (<int64_t>h << 20) | m)


cdef move_t best_below(const move_t* moves, int n, const CState* s, const Config* cfg,
                       int64_t below) noexcept nogil:
    """The move of ``moves`` with the highest ``order_key`` under ``below``
    (-1 when none): the widening order, one step at a time."""
    cdef int i
    cdef int64_t key, best_key = -(1LL << 62)
    cdef move_t best = -1
    for i in range(n):
        key = order_key(moves[i], s, cfg)
        if key < below and key > best_key:
            best_key, best = key, moves[i]
    return best


cdef int decision_options(const CState* s, int* pids) noexcept nogil:
    """Options of a state node (no pending leather): walk (pid -1) and each
    affordable, fitting patch among the next three, in circle order."""
    cdef int p = to_move(s), k, na, n = 1
    cdef int ahead[PATCHES_AHEAD]
    cdef u128 empty = T.full & ~s.quilt[p]
    pids[0] = -1
    na = affordable_ahead(T, s, p, ahead)
    for k in range(na):
        if fits_somewhere(T, empty, ahead[k]):
            pids[n] = ahead[k]
            n += 1
    return n


cdef int placements_of(const CState* s, int pid, move_t* out) noexcept nogil:
    """Every placement of patch ``pid`` on the mover's quilt (pid = -1: the
    leather squares of a pending placement)."""
    cdef int p = to_move(s), og, n = 0
    cdef u128 empty = T.full & ~s.quilt[p], v
    if pid < 0:
        v = empty
        while v:
            out[n] = ps_ctz128(v) + 1
            v &= v - 1
            n += 1
        return n
    for og in range(T.patch_og_start[pid], T.patch_og_start[pid + 1]):
        v = fits(T, empty, og)
        while v:
            out[n] = buy_code(og, ps_ctz128(v))
            v &= v - 1
            n += 1
    return n


cdef move_t sample_placement(const CState* s, int pid, int samples, int hole_penalty,
                             uint64_t* rng) noexcept nogil:
    """The most compact of ``samples`` uniformly drawn placements of ``pid``
    (pid = -1: leather squares); samples = 1 is a uniform draw. -1 if none."""
    cdef u128 valid[8]
    cdef int ogs[8]
    cdef int counts[8]
    cdef int p = to_move(s), og, nv = 0, total = 0, i, _j, r, c, best_c = -1
    cdef u128 empty = T.full & ~s.quilt[p], v
    cdef move_t m, best = -1
    if pid < 0:
        total = popcount128(empty)
        for _j in range(samples):
            if total == 0:
                break
            m = ps_select128(empty, <int>rng_below(rng, total)) + 1
            c = placement_score(ps_bit128(m - 1), s.quilt[p], hole_penalty)
            if c > best_c:
                best_c, best = c, m
        return best
    for og in range(T.patch_og_start[pid], T.patch_og_start[pid + 1]):
        v = fits(T, empty, og)
        if v:
            valid[nv] = v
            ogs[nv] = og
            counts[nv] = popcount128(v)
            total += counts[nv]
            nv += 1
    if total == 0:
        return -1
    for _j in range(samples):
        r = <int>rng_below(rng, total)
        for i in range(nv):
            if r < counts[i]:
                m = buy_code(ogs[i], ps_select128(valid[i], r))
                break
            r -= counts[i]
        if samples == 1:
            return m
        c = placement_score(move_mask(m), s.quilt[p], hole_penalty)
        if c > best_c:
            best_c, best = c, m
    return best


cdef inline move_t playout_options(const CState* s, int* pids, int* n, uint64_t* rng,
                                   const Config* cfg) noexcept nogil:
    """What both playout policies do first: a pending leather patch is
    placed (as compactly as ``samples`` random squares allow) and a lone
    walk is taken -- that move is returned; otherwise -1, with the options
    (``decision_options``) in ``pids`` / ``n``."""
    if s.pending >= 0:
        return sample_placement(s, -1, cfg.samples, cfg.hole_penalty, rng)
    n[0] = decision_options(s, pids)
    return MOVE_WALK if n[0] == 1 else -1


cdef inline int explored_option(uint64_t* rng, const Config* cfg, int n) noexcept nogil:
    """With probability ``epsilon``, a uniformly random option index; else -1."""
    if cfg.epsilon > 0 and rng_below(rng, 1 << 20) < <uint64_t>(cfg.epsilon * (1 << 20)):
        return <int>rng_below(rng, n)
    return -1


cdef inline move_t option_move(const CState* s, const int* pids, int i, uint64_t* rng,
                               const Config* cfg) noexcept nogil:
    """Option ``i`` as a move: walk, or the patch at the most compact of
    ``samples`` random placements."""
    return MOVE_WALK if i == 0 else sample_placement(s, pids[i], cfg.samples, cfg.hole_penalty, rng)


cdef move_t heuristic_move(const CState* s, uint64_t* rng, const Config* cfg) noexcept nogil:
    """The fast playout policy: the option with the best gain, where a patch
    gains 2 x squares + income x paydays left - cost - time_weight x time
    and walking gains (1 - time_weight) x spaces walked (time_weight = 1
    prices time as the greedy player does, one button a space); place it as
    compactly as ``samples`` random placements allow; with probability
    ``epsilon`` pick walk or a patch at random. Unlike the greedy player
    (``_eval.greedy``) it is randomised and samples placements instead of
    scanning them all: it has to be fast."""
    cdef int pids[4]
    cdef int p = to_move(s), n, i, best, R, pid, walk
    cdef double gain, best_gain
    cdef move_t m = playout_options(s, pids, &n, rng, cfg)
    if m >= 0:
        return m
    best = explored_option(rng, cfg, n)
    if best < 0:
        best = 0
        R = income_ahead(T, s.time[p])
        walk = (s.time[1 - p] + 1 if s.time[1 - p] < LAST_SPACE else LAST_SPACE) - s.time[p]
        best_gain = (1.0 - cfg.time_weight) * walk
        for i in range(1, n):
            pid = pids[i]
            gain = (2.0 * T.patch_size[pid] + T.patch_income[pid] * R - T.patch_cost[pid]
                    - cfg.time_weight * T.patch_time[pid])
            if gain > best_gain:
                best_gain, best = gain, i
    return option_move(s, pids, best, rng, cfg)


cdef void heuristic_playout(CState* s, uint64_t* rng, const Config* cfg) noexcept nogil:
    """Play the heuristic policy to the end of the game."""
    while not is_over(s):
        apply_move(s, heuristic_move(s, rng, cfg))


# --------------------------------------------------------------------------
# The searcher
# --------------------------------------------------------------------------

cdef class Searcher:
    """One search tree. Python drives it (``set_root``, ``run``, ``advance``,
    statistics); everything per iteration runs in C without the GIL."""

    cdef Node* nodes
    cdef int n_nodes, cap, max_nodes
    cdef int root
    cdef CState root_state
    cdef bint has_root
    cdef bint lost_root     # the root is proven lost: search on, ignoring proofs
    cdef Config cfg
    cdef bint configured
    cdef uint64_t rng
    cdef readonly long total_iterations

    def __cinit__(self, int max_nodes):
        if max_nodes < 16:
            raise ValueError("max_nodes must be at least 16")
        self.max_nodes = max_nodes
        self.cap = 1 << 14 if max_nodes > (1 << 14) else max_nodes
        self.nodes = <Node*>malloc(self.cap * sizeof(Node))
        if self.nodes == NULL:
            raise MemoryError()
        self.n_nodes = 0
        self.has_root = False
        self.configured = False

    def __dealloc__(self):
        free(self.nodes)

    def configure(self, str tree, str policy, str value, double blend, double margin_scale,
                  double c, double pw_c, double pw_alpha, bint solver, double epsilon, int samples,
                  double time_weight, int hole_penalty, str leaf, double minimax):
        """Set every search parameter (no defaults here: ``mcts.DEFAULTS``
        is the one table; the Python side validates the values)."""
        self.cfg.tree = {"twolevel": TREE_TWOLEVEL, "plain": TREE_PLAIN}[tree]
        self.cfg.policy = {"uniform": POLICY_UNIFORM, "heuristic": POLICY_HEURISTIC}[policy]
        self.cfg.value = {"win": VALUE_WIN, "margin": VALUE_MARGIN, "blend": VALUE_BLEND}[value]
        self.cfg.blend = blend
        self.cfg.margin_scale = margin_scale
        self.cfg.c = c
        self.cfg.pw_c = pw_c
        self.cfg.pw_alpha = pw_alpha
        self.cfg.solver = 1 if solver else 0
        self.cfg.epsilon = epsilon
        self.cfg.samples = samples if samples >= 1 else 1
        self.cfg.time_weight = time_weight
        self.cfg.hole_penalty = hole_penalty
        self.cfg.leaf = {"playout": LEAF_PLAYOUT, "eval": LEAF_EVAL}[leaf]
        self.cfg.minimax = minimax
        self.configured = True

    # -- node storage ---------------------------------------------------
    cdef int new_node(self, move_t move, int mover, int patch) noexcept nogil:
        """Append a node; NO_NODE when the tree is full (max_nodes)."""
        cdef Node* grown
        cdef int newcap
        if self.n_nodes == self.cap:
            if self.cap >= self.max_nodes:
                return NO_NODE
            newcap = self.cap * 2 if self.cap * 2 < self.max_nodes else self.max_nodes
            grown = <Node*>realloc(self.nodes, newcap * sizeof(Node))
            if grown == NULL:
                self.max_nodes = self.cap      # out of memory: stop growing
                return NO_NODE
            self.nodes = grown
            self.cap = newcap
        cdef Node* n = &self.nodes[self.n_nodes]
        memset(n, 0, sizeof(Node))
        n.move = move
        n.first_child = NO_NODE
        n.next_sibling = NO_NODE
        n.n_cand = -1
        n.mover = mover
        n.patch = patch
        self.n_nodes += 1
        return self.n_nodes - 1

    cdef void reset(self, const CState* s):
        self.n_nodes = 0
        self.root_state = s[0]
        self.root = self.new_node(MOVE_WALK, to_move(s), -1)
        self.has_root = True
        if is_over(s):
            self.nodes[self.root].proven = 1 if winner(s) == self.nodes[self.root].mover else -1

    # -- candidates -----------------------------------------------------
    cdef int count_candidates(self, int x, const CState* s) noexcept nogil:
        cdef int pids[4]
        cdef move_t buf[MAX_MOVES]
        if self.cfg.tree == TREE_PLAIN:
            return count_moves(s)
        if self.nodes[x].patch >= 0:
            return placements_of(s, self.nodes[x].patch, buf)
        if s.pending >= 0:
            return popcount128(T.full & ~s.quilt[to_move(s)])
        return decision_options(s, pids)

    cdef move_t next_candidate(self, int x, const CState* s, int* patch_out) noexcept nogil:
        """The move of node ``x``'s next child, in the node's fixed order; for a
        patch-node child, the move is PATCH_MARK - pid and *patch_out = pid."""
        cdef int pids[4]
        cdef move_t buf[MAX_MOVES]
        cdef Node* nx = &self.nodes[x]
        cdef int k = nx.n_children, n, pid
        cdef int64_t last
        patch_out[0] = -1
        if self.cfg.tree == TREE_PLAIN:
            # Stride through gen_moves' order from a per-node offset: a cheap
            # fixed pseudo-random permutation (1543 is prime, above any n).
            n = gen_moves(s, buf)
            return buf[(<int>((state_key(s) >> 40) % <uint64_t>n) + k * 1543) % n]
        if nx.patch < 0 and s.pending < 0:
            decision_options(s, pids)
            pid = pids[k]
            if pid < 0:
                return MOVE_WALK
            patch_out[0] = pid
            return PATCH_MARK - pid
        # placements (or leather squares): the best key below the newest child's
        n = placements_of(s, nx.patch, buf)
        last = order_key(self.nodes[nx.first_child].move, s, &self.cfg) if k > 0 else (1LL << 62)
        return best_below(buf, n, s, &self.cfg, last)

    cdef inline bint may_add_child(self, int x, const CState* s) noexcept nogil:
        """Whether node ``x`` takes a new child now: progressive widening on
        placements and leather squares; full width on the (at most four)
        options of a decision node and everywhere in plain UCT."""
        cdef Node* nx = &self.nodes[x]
        if nx.n_children >= nx.n_cand:
            return False
        if self.cfg.tree == TREE_PLAIN or nx.n_children == 0:
            return True
        if nx.patch < 0 and s.pending < 0:
            return True
        return nx.n_children < 1 + self.cfg.pw_c * pow(nx.visits, self.cfg.pw_alpha)

    cdef int add_child(self, int x, CState* s) noexcept nogil:
        """Create node ``x``'s next child and play its move on ``s``."""
        cdef int patch
        cdef move_t m = self.next_candidate(x, s, &patch)
        cdef int c = self.new_node(m, to_move(s), patch)
        if c == NO_NODE:
            return NO_NODE
        self.nodes[c].next_sibling = self.nodes[x].first_child
        self.nodes[x].first_child = c
        self.nodes[x].n_children += 1
        if m >= 0:
            apply_move(s, m)
            if is_over(s) and self.cfg.solver:
                self.nodes[c].proven = 1 if winner(s) == self.nodes[c].mover else -1
        return c

    cdef move_t first_placement(self, const CState* s, int patch) noexcept nogil:
        """The placement of ``patch`` the widening order puts first."""
        cdef move_t buf[MAX_MOVES]
        cdef int n = placements_of(s, patch, buf)
        return best_below(buf, n, s, &self.cfg, 1LL << 62)

    cdef int select_child(self, int x) noexcept nogil:
        """UCT over the children, skipping proven losses for the player to
        move here; a proven win is taken at once. When every child is lost
        (or in a lost root's subtree) proofs are ignored: UCT then prefers
        the loss with the best margin and the most practical chances."""
        cdef Node* nx = &self.nodes[x]
        cdef int c = nx.first_child, best = NO_NODE
        cdef double logn = log(nx.visits + 1.0), u, q, best_u = -1e300
        cdef bint lost = self.lost_root or self.all_children_lost(x)
        while c != NO_NODE:
            if self.nodes[c].proven > 0 and not lost:
                return c
            if self.nodes[c].proven == 0 or lost:
                if self.nodes[c].visits == 0:
                    return c
                q = self.nodes[c].value / self.nodes[c].visits
                if self.cfg.minimax > 0:
                    q = (1.0 - self.cfg.minimax) * q + self.cfg.minimax * self.nodes[c].mm
                u = q + self.cfg.c * sqrt(logn / self.nodes[c].visits)
                if u > best_u:
                    best_u, best = u, c
            c = self.nodes[c].next_sibling
        return best

    # -- one iteration --------------------------------------------------
    cdef void playout(self, CState* s, int leaf) noexcept nogil:
        """Finish the game from ``s`` (LEAF_EVAL: only place a chosen
        patch, so the leaf is a whole position for the evaluation)."""
        cdef move_t m
        if self.nodes[leaf].patch >= 0:      # a patch was chosen, not yet placed
            m = sample_placement(s, self.nodes[leaf].patch,
                                 self.cfg.samples if self.cfg.policy != POLICY_UNIFORM else 1,
                                 self.cfg.hole_penalty, &self.rng)
            apply_move(s, m)
        if self.cfg.leaf == LEAF_EVAL:
            return
        if self.cfg.policy != POLICY_UNIFORM:
            heuristic_playout(s, &self.rng, &self.cfg)
        else:
            random_playout(s, &self.rng)

    cdef void prove(self, int* path, int depth) noexcept nogil:
        """After path[depth] got proven: prove its ancestors where possible."""
        cdef int i, x, c, P
        cdef bint all_lost
        for i in range(depth - 1, -1, -1):
            x = path[i]
            c = path[i + 1]
            if self.nodes[c].proven == 0 or self.nodes[x].proven != 0:
                return
            P = self.nodes[c].mover
            if self.nodes[c].proven > 0:
                self.nodes[x].proven = 1 if self.nodes[x].mover == P else -1
                continue
            if self.nodes[x].n_children < self.nodes[x].n_cand:
                return
            all_lost = True
            c = self.nodes[x].first_child
            while c != NO_NODE:
                if self.nodes[c].proven >= 0:
                    all_lost = False
                    break
                c = self.nodes[c].next_sibling
            if not all_lost:
                return
            self.nodes[x].proven = -1 if self.nodes[x].mover == P else 1

    cdef inline double mix(self, double w, double m, int p) noexcept nogil:
        """The value (``backup``'s units) for player ``p`` of a result that
        ``p`` wins with chance ``w`` by margin ``m`` (``p``'s margin): the
        configured blend of ``w`` and the margin reward
        logistic(m / margin_scale)."""
        cdef double mr = 1.0 / (1.0 + exp(-m / self.cfg.margin_scale))
        if self.cfg.value == VALUE_WIN:
            return w
        if self.cfg.value == VALUE_MARGIN:
            return mr
        return (1.0 - self.cfg.blend) * w + self.cfg.blend * mr

    cdef void backup(self, int* path, int depth, const CState* s, int leaf_proven_for) noexcept nogil:
        """Add one result to every node on the path, each from its mover's view.
        ``leaf_proven_for`` >= 0: no playout, that player won (a proven node);
        else ``s`` is the finished game the playout reached."""
        cdef int i, q
        cdef double m0, w0
        cdef double r[2]
        cdef double w[2]
        cdef Node* n
        if leaf_proven_for >= 0:
            w0 = 1.0 if leaf_proven_for == 0 else 0.0
            n = &self.nodes[path[depth]]
            m0 = n.margin / n.visits if n.visits > 0 else 0.0
            if n.mover == 1:
                m0 = -m0
        elif not is_over(s):
            # LEAF_EVAL: the evaluation's margin for player 0 and, as its
            # win chance, Phi(m / 8.75) (8.75 points: the learned
            # evaluation's held-out error) as logistic(1.702 m / 8.75)
            m0 = evaluate_margin(s, 0)
            w0 = 1.0 / (1.0 + exp(-m0 / 5.14))
        else:
            w0 = 1.0 if winner(s) == 0 else 0.0
            m0 = score(s, 0) - score(s, 1)
        w[0] = w0
        w[1] = 1.0 - w0
        for q in range(2):
            r[q] = self.mix(w[q], m0 if q == 0 else -m0, q)
        for i in range(depth + 1):
            n = &self.nodes[path[i]]
            q = n.mover
            n.visits += 1
            n.value += r[q]
            n.wins += w[q]
            n.margin += m0 if q == 0 else -m0
        if self.cfg.minimax > 0:
            self.minimax_backup(path, depth, r)

    cdef void minimax_backup(self, int* path, int depth, const double* r) noexcept nogil:
        """Implicit minimax backups (Lanctot et al. 2014): a leaf's ``mm`` is
        its first result; an inner node's, the best of its children's for
        the player who chooses there, seen from its own mover (rewards of
        the two players add up to 1). A proven node counts as 1 or 0, a leaf
        too: where every option is lost (and proofs are ignored to find the
        smallest loss) the term is then the same for all of them."""
        cdef int i, c
        cdef double best, v
        cdef Node* x = &self.nodes[path[depth]]
        if x.first_child == NO_NODE:
            x.mm = r[x.mover] if x.proven == 0 else (1.0 if x.proven > 0 else 0.0)
        for i in range(depth - 1, -1, -1):
            x = &self.nodes[path[i]]
            best = -1.0
            c = x.first_child
            while c != NO_NODE:
                if self.nodes[c].proven != 0:
                    v = 1.0 if self.nodes[c].proven > 0 else 0.0
                elif self.nodes[c].visits > 0:
                    v = self.nodes[c].mm
                else:
                    v = -1.0
                if v > best:
                    best = v
                c = self.nodes[c].next_sibling
            if best < 0:
                return
            # the children's mover is the player to move at x
            x.mm = best if self.nodes[x.first_child].mover == x.mover else 1.0 - best

    cdef void iterate(self) noexcept nogil:
        cdef int path[MAX_PATH]
        cdef int depth = 0, x = self.root, c
        cdef CState s = self.root_state
        path[0] = x
        while True:
            if is_over(&s):
                break
            if self.nodes[x].proven != 0 and not self.lost_root:    # only without a proof above
                self.backup(path, depth, &s, self.nodes[x].mover if self.nodes[x].proven > 0
                            else 1 - self.nodes[x].mover)
                return
            if self.nodes[x].n_cand < 0:
                self.nodes[x].n_cand = self.count_candidates(x, &s)
            if self.may_add_child(x, &s) or (self.nodes[x].n_children < self.nodes[x].n_cand
                                              and self.all_children_lost(x)):
                c = self.add_child(x, &s)
                if c != NO_NODE:
                    depth += 1
                    path[depth] = c
                    x = c
                    if self.nodes[x].proven != 0:
                        self.prove(path, depth)
                    break
                if self.nodes[x].n_children == 0:
                    break                # tree full: play out from here
            c = self.select_child(x)
            if self.nodes[c].move >= 0:
                apply_move(&s, self.nodes[c].move)
            depth += 1
            path[depth] = c
            x = c
            if depth == MAX_PATH - 1:
                break
        if not is_over(&s):
            self.playout(&s, x)
        self.backup(path, depth, &s, -1)

    cdef int root_verdict(self) noexcept nogil:
        """+1 / -1: proven win / loss for the player to move at the root."""
        cdef int c = self.nodes[self.root].first_child
        if self.nodes[self.root].proven == 0:
            return 0
        while c != NO_NODE:
            if self.nodes[c].proven > 0:
                return 1
            c = self.nodes[c].next_sibling
        return -1

    cdef bint all_children_lost(self, int x) noexcept nogil:
        cdef int c = self.nodes[x].first_child
        if c == NO_NODE:
            return False
        while c != NO_NODE:
            if self.nodes[c].proven >= 0:
                return False
            c = self.nodes[c].next_sibling
        return True

    # -- Python interface ---------------------------------------------
    def set_root(self, CoreState cs, bint reuse=True, int max_plies=6):
        """Search from ``cs`` next. With ``reuse``, keep the subtree when
        ``cs`` is the current root or a position reached from it within
        ``max_plies`` real moves; otherwise start a fresh tree. Returns the
        number of visits kept."""
        cdef uint64_t key = state_key(&cs.s)
        cdef int found = NO_NODE
        if reuse and self.has_root:
            found = self.find(self.root, self.root_state, key, max_plies)
        if found == NO_NODE:
            self.reset(&cs.s)
            return 0
        self.root = found
        self.root_state = cs.s
        self.nodes[found].next_sibling = NO_NODE
        if self.n_nodes > self.max_nodes // 2:
            self.compact()
        return self.nodes[self.root].visits

    cdef int find(self, int x, CState s, uint64_t key, int plies):
        cdef int c, r
        cdef CState t
        if self.nodes[x].patch < 0 and state_key(&s) == key:
            return x
        if plies == 0:
            return NO_NODE
        c = self.nodes[x].first_child
        while c != NO_NODE:
            t = s
            if self.nodes[c].move >= 0:
                apply_move(&t, self.nodes[c].move)
                r = self.find(c, t, key, plies - 1)
            else:
                r = self.find(c, t, key, plies)
            if r != NO_NODE:
                return r
            c = self.nodes[c].next_sibling
        return NO_NODE

    cdef void compact(self):
        """Copy the subtree under the root into a fresh array (tree reuse
        leaves the rest of the old tree unreachable)."""
        cdef Node* fresh = <Node*>malloc(self.cap * sizeof(Node))
        cdef int* where
        cdef int n = 0, top = 0, x, c, prev
        if fresh == NULL:
            self.reset(&self.root_state)
            return
        where = <int*>malloc(self.n_nodes * sizeof(int))
        # breadth first: copy each node, then fix its children's links
        fresh[0] = self.nodes[self.root]
        where[0] = self.root
        n = 1
        top = 0
        while top < n:
            x = where[top]
            prev = -1
            c = self.nodes[x].first_child
            fresh[top].first_child = NO_NODE
            while c != NO_NODE:
                fresh[n] = self.nodes[c]
                fresh[n].next_sibling = NO_NODE
                where[n] = c
                if prev < 0:
                    fresh[top].first_child = n
                else:
                    fresh[prev].next_sibling = n
                prev = n
                n += 1
                c = self.nodes[c].next_sibling
            top += 1
        free(where)
        free(self.nodes)
        self.nodes = fresh
        self.n_nodes = n
        self.root = 0

    def run(self, long iterations, double seconds, uint64_t seed):
        """Iterate until ``iterations`` (<= 0: no limit) or ``seconds``
        (<= 0: no limit) run out, or the root is proven. Returns
        (iterations done, seconds used)."""
        if not self.has_root or not self.configured:
            raise RuntimeError("configure and set_root first")
        # hash the seed: splitmix streams of nearby raw seeds are shifted copies
        cdef uint64_t tmp = seed
        self.rng = rng_next(&tmp)
        cdef long done = 0
        cdef double t0 = monotonic_now(), deadline = t0 + seconds
        with nogil:
            while not is_over(&self.root_state):
                # a proven win is final; a proven loss still needs the best try
                self.lost_root = self.root_verdict() < 0
                if self.root_verdict() > 0:
                    break
                if iterations > 0 and done >= iterations:
                    break
                if seconds > 0 and (done & 15) == 0 and monotonic_now() >= deadline:
                    break
                if (done & 15) == 0 and stop_requested():
                    break
                self.iterate()
                done += 1
        self.total_iterations += done
        return done, monotonic_now() - t0

    cdef dict node_stats(self, int c):
        cdef Node* n = &self.nodes[c]
        return {"visits": n.visits, "value": n.value, "wins": n.wins, "margin": n.margin,
                "proven": n.proven, "move": n.move, "patch": n.patch, "mm": n.mm}

    def root_children(self):
        """Statistics of the root's children (mover = the player to move at the
        root); a patch node carries its placements under "children"."""
        out = []
        c = self.nodes[self.root].first_child
        while c != NO_NODE:
            d = self.node_stats(c)
            if self.nodes[c].patch >= 0:
                d["children"] = []
                g = self.nodes[c].first_child
                while g != NO_NODE:
                    d["children"].append(self.node_stats(g))
                    g = self.nodes[g].next_sibling
                d["n_cand"] = self.nodes[c].n_cand
            out.append(d)
            c = self.nodes[c].next_sibling
        out.reverse()        # creation order
        return out

    cdef int best_child(self, int x):
        """A proven win, else the most visited child not proven lost (else any)."""
        cdef int c = self.nodes[x].first_child, best = NO_NODE
        cdef int bv = -1
        while c != NO_NODE:
            if self.nodes[c].proven > 0:
                return c
            if self.nodes[c].proven == 0 and self.nodes[c].visits > bv:
                bv, best = self.nodes[c].visits, c
            c = self.nodes[c].next_sibling
        if best == NO_NODE:
            c = self.nodes[x].first_child
            while c != NO_NODE:
                if self.nodes[c].visits > bv:
                    bv, best = self.nodes[c].visits, c
                c = self.nodes[c].next_sibling
        return best

    def pv(self, int max_moves=12, int min_visits=2):
        """Real move codes along best children from the root."""
        out = []
        x = self.root
        while len(out) < max_moves:
            x = self.best_child(x)
            if x == NO_NODE or (self.nodes[x].visits < min_visits and self.nodes[x].proven == 0):
                break
            if self.nodes[x].move >= 0:
                out.append(self.nodes[x].move)
        return out

    def best_placement(self, CoreState cs, int patch):
        """The placement the heuristic orders first (for a patch node that
        has no placement child yet)."""
        return self.first_placement(&cs.s, patch)

    @property
    def n_nodes(self):
        return self.n_nodes


def heuristic_policy_move(CoreState cs, uint64_t seed, double epsilon, int samples,
                          double time_weight, int hole_penalty):
    """One move of the heuristic playout policy (for tests), with the
    policy's parameters as in ``configure``."""
    cdef Config cfg
    cdef uint64_t rng = seed
    if is_over(&cs.s):
        return -1
    cfg.epsilon = epsilon
    cfg.samples = samples if samples >= 1 else 1
    cfg.time_weight = time_weight
    cfg.hole_penalty = hole_penalty
    return heuristic_move(&cs.s, &rng, &cfg)
