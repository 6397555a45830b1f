# cython: language_level=3
"""Alpha-beta hot loop: negamax with principal variation search, iterative
deepening, a transposition table, placement pruning, an evaluation, and the
exact endgame solver. Python-facing validation lives in ``alphabeta.py``.

Sign convention (Patchwork's turns do not alternate)
----------------------------------------------------
``negamax(s)`` returns the final score margin for the player to move in
``s``. A child's value is negated only when the player to move changes
between parent and child (a player may move several times in a row, and a
leather placement is a decision of the player who took it). A child that
ends the game is valued directly as the parent mover's margin, so the
"player to move" of a finished game is never consulted.

Depth
-----
Heuristic searches decrement the depth at every ply (leather placements
included) and call :c:func:`evaluate` at depth 0. The exact solver searches
with ``depth = EXACT`` and never decrements it, so it always plays to the
end and every TT entry it stores is an exact-to-the-end value; heuristic
entries (depth < EXACT) never cut off an exact search.

Transposition keys (Zobrist, incremental)
-----------------------------------------
``full_key`` XORs a random 64-bit number per (player, covered square),
(player, buttons), (player, income), (player, time), leather space, the
small flags, the patches still in the circle and the patch at its head.
The circle is keyed as (set of remaining patches, head patch): within one
search tree the cyclic order of the remaining patches never changes, so
the pair determines the circle. ``child_key`` updates a parent key from
the fields a move changed; tests check it against ``full_key``.

TT: buckets of two 16-byte entries (depth-preferred slot, always-replace
slot); the caller fixes the memory budget. A TT move is played only after
``is_legal`` accepts it, so a key collision can never make an illegal move.

Move ordering
-------------
The TT move is searched before anything is generated (most cut-offs need
nothing else). Then every move gets a key -- ``buy_gain`` (two points a
square, minus cost and time, plus income to come; walking is 0), then the
placement heuristic ``placement_badness`` -- and the first three are picked
by selection, the rest sorted only if the node goes on. Heuristic searches
keep only the ``keep`` best placements per patch at nodes with at least
``prune_depth`` plies left; the exact solver never prunes.

Exact reductions (the solver's answers stay exact; tests check them)
--------------------------------------------------------------------
- Final buys: a buy that leaves its player on 53 with no leather patch to
  place is searched once per patch (twice if some placements take the 7x7
  bonus): that quilt never changes again and nothing else depends on it.
- Relaxed-quilt group bounds (section "Relaxed quilts" below).
"""

from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, int16_t, int8_t, uint8_t, uint16_t
from libc.stdlib cimport malloc, calloc, free, qsort
from libc.string cimport memset, memcpy
from libc.math cimport lround
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from patchsolve._core cimport (
    CState, Tables, u128, move_t, CoreState,
    get_tables, popcount128, to_move, is_over, gen_moves, apply_move, score, is_legal,
    move_mask, move_patch, rng_next, rng_below, random_move, fits, mix64, stop_requested,
    MAX_MOVES, LAST_SPACE, BOARD_SQUARES, BUY_SHIFT, MOVE_WALK, N_PATCHES,
)
from patchsolve.search._knowledge cimport (
    move_lookahead_bad, lookahead_on, lookahead_candidates, learned_on, learned_margin,
)

cdef extern from *:
    """
    static inline int ab_ctz128(ps_u128 x) {
        unsigned long long lo = (unsigned long long)x;
        return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((unsigned long long)(x >> 64));
    }
    static inline int ab_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    static inline ps_u128 ab_bit128(int i) { return ((ps_u128)1) << i; }
    """
    int ab_ctz128(u128 x) nogil
    int ab_popcount64(uint64_t x) nogil
    u128 ab_bit128(int i) nogil


cdef enum:
    INF = 30000
    EXACT = 127          # depth value of the exact solver (never decremented)
    MAX_PLY = 160        # > the longest remaining game (every non-leather move advances time)
    FLAG_LOWER = 1
    FLAG_UPPER = 2
    FLAG_EXACT = 3
    CHECK_EVERY = 1023   # limits are checked when (nodes & CHECK_EVERY) == 0


cdef const Tables* T = get_tables()

# --------------------------------------------------------------------------
# Board geometry helpers
# --------------------------------------------------------------------------

cdef u128 FULL = T.full
cdef u128 NOT_COL0 = 0     # squares not in column 0
cdef u128 NOT_COL8 = 0     # squares not in column 8


def _init_geometry():
    global NOT_COL0, NOT_COL8
    cdef int sq
    for sq in range(BOARD_SQUARES):
        if sq % 9 != 0:
            NOT_COL0 |= ab_bit128(sq)
        if sq % 9 != 8:
            NOT_COL8 |= ab_bit128(sq)


_init_geometry()


cdef inline u128 neighbours(u128 m) noexcept nogil:
    """Squares orthogonally next to ``m`` (may include ``m`` itself)."""
    return (((m << 1) & NOT_COL0) | ((m >> 1) & NOT_COL8) | (m << 9) | (m >> 9)) & FULL


cdef inline int isolated(u128 empty) noexcept nogil:
    """Empty squares with no empty orthogonal neighbour: only a leather patch
    can ever fill them."""
    return popcount128(empty & ~neighbours(empty))


cdef inline int placement_badness(u128 quilt, u128 m) noexcept nogil:
    """Placement heuristic (lower is better): free edge squares of the patch
    plus 4 per isolated empty square left on the quilt. Patches that hug the
    border and other patches and leave no single holes score best."""
    cdef u128 empty = FULL & ~(quilt | m)
    return popcount128(neighbours(m) & empty) + 4 * isolated(empty)


cdef inline int income_ahead(int t) noexcept nogil:
    """Income spaces strictly after space ``t``."""
    return ab_popcount64(T.income_spaces >> (t + 1))


cdef inline int best7(u128 q) noexcept nogil:
    """Most squares covered in any of the nine 7x7 squares."""
    cdef int i, c, b = 0
    if popcount128(q) < 36:
        return 0
    for i in range(9):
        c = popcount128(q & T.square7[i])
        if c > b:
            b = c
    return b


cdef inline int best7_any(u128 q) noexcept nogil:
    cdef int i, c, b = 0
    for i in range(9):
        c = popcount128(q & T.square7[i])
        if c > b:
            b = c
    return b


# --------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------

ctypedef struct Weights:
    double income      # x income * income spaces still ahead (future buttons)
    double time        # x spaces left to 53 (walking alone pays 1 button/space)
    double fill        # x min(empty, fill_rate * spaces left): squares still fillable
    double fill_rate   # squares a player can cover per time space (catalogue: 166/107)
    double holes       # x isolated empty squares (fillable only by leather)
    double bonus7      # x 7x7 progress max(0, best7 - 35) / 14 while the bonus is free
    double tempo       # constant bonus for the player to move


cdef Weights W
# Tuned by least squares against noisy-greedy playout outcomes: 300 games,
# 3839 positions, 8 playouts each, fill rate picked from a grid by held-out
# R^2 (benchmarks/tune_eval.py; held-out R^2 0.757, RMSE 8.75 points, against
# RMSE 17.73 for "the margin now" alone).
W.income = 0.994
W.time = 1.538
W.fill = 0.923
W.fill_rate = 3.0
W.holes = -1.218
W.bonus7 = 0.324
W.tempo = 0.521


cdef inline void side_features(const CState* s, int p, double* f) noexcept nogil:
    """The tuned terms for player ``p`` (the score so far is not a term: it
    enters with weight 1)."""
    cdef int t = s.time[p]
    cdef int left = LAST_SPACE - t
    cdef u128 q = s.quilt[p]
    cdef int empty = BOARD_SQUARES - popcount128(q)
    cdef double fillable = W.fill_rate * left
    f[0] = s.income[p] * income_ahead(t)
    f[1] = left
    f[2] = empty if empty < fillable else fillable
    f[3] = 0.0
    f[4] = 0.0
    if left == 0:
        # a player on 53 never places again: the score already says it all,
        # and every final placement of a patch evaluates alike (see is_final_buy)
        return
    f[3] = isolated(FULL & ~q)
    if s.bonus < 0:
        t = best7(q) - 35
        if t > 0:
            f[4] = t / 14.0


cdef inline double side_value(const CState* s, int p) noexcept nogil:
    cdef double f[5]
    side_features(s, p, f)
    return (score(s, p) + (2 if s.pending == p else 0)
            + W.income * f[0] + W.time * f[1] + W.fill * f[2] + W.holes * f[3] + W.bonus7 * f[4])


cdef double hand_margin(const CState* s, int p) noexcept nogil:
    """The hand-tuned evaluation (``evaluate_margin`` without the learned
    model): what the MCTS's evaluated options use until they are measured
    with the learned one."""
    cdef double v = side_value(s, p) - side_value(s, 1 - p)
    return v + W.tempo if to_move(s) == p else v - W.tempo


cdef double evaluate_margin(const CState* s, int p) noexcept nogil:
    """Estimated final score margin for player ``p``: the score margin now
    plus, per player, future income, the worth of the time left, the
    squares that time can still fill, a penalty for isolated holes and 7x7
    progress (a pending leather patch counts +2 for its owner), plus the
    tempo bonus when ``p`` is to move. The learned evaluation replaces it
    when loaded (``search/learned.py``)."""
    cdef double v
    if learned_on():
        return learned_margin(s, p)
    v = side_value(s, p) - side_value(s, 1 - p)
    return v + W.tempo if to_move(s) == p else v - W.tempo


cdef int evaluate(const CState* s, int p) noexcept nogil:
    """``evaluate_margin`` for the player to move, rounded (the alpha-beta
    search works in whole points)."""
    if learned_on():
        return <int>lround(learned_margin(s, p))
    return <int>lround(side_value(s, p) - side_value(s, 1 - p) + W.tempo)


# --------------------------------------------------------------------------
# Zobrist keys
# --------------------------------------------------------------------------

cdef uint64_t ZQ[2][81]
cdef uint64_t ZBTN[2][512]
cdef uint64_t ZINC[2][128]
cdef uint64_t ZTIME[2][64]
cdef uint64_t ZLEATHER[64]
cdef uint64_t ZFLAG[4][3]      # on_top, pending, bonus, first_end: value + 1
cdef uint64_t ZED[2]
cdef uint64_t ZREM[N_PATCHES]
cdef uint64_t ZHEAD[N_PATCHES + 1]   # N_PATCHES = empty circle


def _init_zobrist():
    cdef uint64_t rng = 0x5EED5EED1234ABCDULL
    cdef int i, j
    for i in range(2):
        for j in range(81):
            ZQ[i][j] = rng_next(&rng)
        for j in range(512):
            ZBTN[i][j] = rng_next(&rng)
        for j in range(128):
            ZINC[i][j] = rng_next(&rng)
        for j in range(64):
            ZTIME[i][j] = rng_next(&rng)
        ZED[i] = rng_next(&rng)
    for j in range(64):
        ZLEATHER[j] = rng_next(&rng)
    for i in range(4):
        for j in range(3):
            ZFLAG[i][j] = rng_next(&rng)
    for j in range(N_PATCHES):
        ZREM[j] = rng_next(&rng)
    for j in range(N_PATCHES + 1):
        ZHEAD[j] = rng_next(&rng)


_init_zobrist()


cdef inline uint64_t head_key(const CState* s) noexcept nogil:
    return ZHEAD[s.circle[0] if s.n_circle > 0 else N_PATCHES]


cdef uint64_t full_key(const CState* s) noexcept nogil:
    cdef uint64_t k = ZED[s.edition]
    cdef int p, i
    cdef u128 q
    cdef uint64_t l = s.leather
    for p in range(2):
        q = s.quilt[p]
        while q:
            k ^= ZQ[p][ab_ctz128(q)]
            q &= q - 1
        k ^= ZBTN[p][s.buttons[p] & 511] ^ ZINC[p][s.income[p] & 127] ^ ZTIME[p][s.time[p] & 63]
    while l:
        i = ab_ctz128(l)
        k ^= ZLEATHER[i]
        l &= l - 1
    k ^= ZFLAG[0][s.on_top + 1] ^ ZFLAG[1][s.pending + 1] ^ ZFLAG[2][s.bonus + 1] ^ ZFLAG[3][s.first_end + 1]
    for i in range(s.n_circle):
        k ^= ZREM[s.circle[i]]
    return k ^ head_key(s)


cdef inline uint64_t child_key(uint64_t k, const CState* a, const CState* b, move_t m) noexcept nogil:
    """Key of ``b`` = ``a`` after move ``m``, from the key of ``a``: only
    the fields the move changed are touched."""
    cdef int p
    cdef u128 d
    cdef uint64_t l
    for p in range(2):
        d = a.quilt[p] ^ b.quilt[p]
        while d:
            k ^= ZQ[p][ab_ctz128(d)]
            d &= d - 1
        if a.buttons[p] != b.buttons[p]:
            k ^= ZBTN[p][a.buttons[p] & 511] ^ ZBTN[p][b.buttons[p] & 511]
        if a.income[p] != b.income[p]:
            k ^= ZINC[p][a.income[p] & 127] ^ ZINC[p][b.income[p] & 127]
        if a.time[p] != b.time[p]:
            k ^= ZTIME[p][a.time[p] & 63] ^ ZTIME[p][b.time[p] & 63]
    l = a.leather ^ b.leather
    while l:
        k ^= ZLEATHER[ab_ctz128(l)]
        l &= l - 1
    if a.on_top != b.on_top:
        k ^= ZFLAG[0][a.on_top + 1] ^ ZFLAG[0][b.on_top + 1]
    if a.pending != b.pending:
        k ^= ZFLAG[1][a.pending + 1] ^ ZFLAG[1][b.pending + 1]
    if a.bonus != b.bonus:
        k ^= ZFLAG[2][a.bonus + 1] ^ ZFLAG[2][b.bonus + 1]
    if a.first_end != b.first_end:
        k ^= ZFLAG[3][a.first_end + 1] ^ ZFLAG[3][b.first_end + 1]
    if a.n_circle != b.n_circle:
        k ^= ZREM[move_patch(m)] ^ head_key(a) ^ head_key(b)
    return k


# --------------------------------------------------------------------------
# Transposition table
# --------------------------------------------------------------------------

ctypedef struct TTEntry:
    uint64_t key
    int32_t move
    int16_t value
    int8_t depth
    uint8_t flag


cdef inline TTEntry* tt_probe(TTEntry* tt, uint64_t mask, uint64_t key) noexcept nogil:
    cdef TTEntry* b = &tt[(key & mask) * 2]
    if b[0].flag and b[0].key == key:
        return &b[0]
    if b[1].flag and b[1].key == key:
        return &b[1]
    return NULL


cdef inline void tt_store(TTEntry* tt, uint64_t mask, uint64_t key, int depth, int value,
                          int flag, move_t move) noexcept nogil:
    cdef TTEntry* b = &tt[(key & mask) * 2]
    cdef TTEntry* e
    if b[0].key == key or depth >= b[0].depth or not b[0].flag:
        e = &b[0]
    else:
        e = &b[1]
    e.key = key
    e.move = move
    e.value = value
    e.depth = depth
    e.flag = flag


# --------------------------------------------------------------------------
# Search context
# --------------------------------------------------------------------------

ctypedef struct Ctx:
    TTEntry* tt            # NULL = no table
    uint64_t tt_mask       # buckets - 1
    int keep               # placements kept per patch where pruning applies (0 = all)
    int prune_depth        # prune only at nodes with at least this depth left
    int use_pvs
    int use_relax          # exact solver: relaxed-quilt group bounds
    int relax_min          # ... for groups of at least this many moves
    int aspiration         # root window half-width after the first iteration (0 = full window)
    int relax_early        # ... already before a group's first member (once a move failed low)
    int thr[2]             # relaxed player: covered squares that earn the 7x7 bonus
    uint64_t fits[2]       # relaxed player: patches that fitted when relaxation began
    int unusable[2]        # relaxed player: empty squares no patch can use
    uint64_t relax_calls   # statistics: group bounds computed / that pruned / relaxed nodes
    uint64_t relax_cuts
    uint64_t relaxed_nodes
    uint64_t cut_first     # beta cut-offs by the first move / by a later one
    uint64_t cut_later
    uint64_t cut_later_i   # sum of the move index of later cut-offs
    uint64_t nodes
    uint64_t node_limit    # 0 = none
    double deadline        # monotonic seconds; 0 = none
    int stop
    int seldepth
    move_t* moves          # MAX_PLY x MAX_MOVES
    int64_t* keys          # MAX_PLY x MAX_MOVES
    move_t* pv             # MAX_PLY x MAX_PLY triangular PV table
    int* pv_len


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline void check_limits(Ctx* c) noexcept nogil:
    if c.node_limit and c.nodes >= c.node_limit:
        c.stop = 1
    elif stop_requested():
        c.stop = 1
    elif c.deadline > 0 and now() >= c.deadline:
        c.stop = 1


cdef inline int margin(const CState* s, int p) noexcept nogil:
    return score(s, p) - score(s, 1 - p)


# --------------------------------------------------------------------------
# Move ordering, final-buy merging and placement pruning
# --------------------------------------------------------------------------

cdef int cmp_desc(const void* a, const void* b) noexcept nogil:
    cdef int64_t x = (<const int64_t*>a)[0]
    cdef int64_t y = (<const int64_t*>b)[0]
    return (x < y) - (x > y)


cdef inline int buy_gain(const CState* s, int p, int pid) noexcept nogil:
    """Cheap worth of buying ``pid`` now, in buttons, relative to walking:
    two points per square, minus cost and time, plus the income it earns."""
    return (2 * T.patch_size[pid] - T.patch_cost[pid] - T.patch_time[pid]
            + T.patch_income[pid] * income_ahead(s.time[p]))


cdef inline bint completes_bonus(const CState* s, u128 q) noexcept nogil:
    cdef int i
    if s.bonus >= 0 or popcount128(q) < 49:
        return False
    for i in range(9):
        if (q & T.square7[i]) == T.square7[i]:
            return True
    return False


cdef inline bint is_final_buy(const CState* s, int p, int pid) noexcept nogil:
    """After this buy player ``p`` stands on 53 with no leather patch to
    place: ``p``'s quilt never changes again, and nothing the opponent can
    do depends on it, so all placements lead to equal values except for
    whether they take the 7x7 bonus. (Exact, used in every mode.)"""
    cdef int t = s.time[p], dest = t + T.patch_time[pid]
    cdef uint64_t crossed
    if dest < LAST_SPACE:
        return False
    crossed = ((<uint64_t>1) << (LAST_SPACE + 1)) - ((<uint64_t>1) << (t + 1))
    return (crossed & s.leather) == 0


cdef enum:
    LAZY = 3      # the first moves of a node are picked by selection; the rest sorted then


cdef inline int64_t order_key(int gain, int bad, move_t m) noexcept nogil:
    return ((<int64_t>(gain * 256 - bad + (1 << 24))) << 32) | <uint32_t>m


cdef inline move_t key_move(int64_t k) noexcept nogil:
    return <move_t>(<uint32_t>k)


cdef inline void select_best(int64_t* keys, int lo, int n) noexcept nogil:
    """Swap the largest of keys[lo:n] to keys[lo]."""
    cdef int j, b = lo
    cdef int64_t t
    for j in range(lo + 1, n):
        if keys[j] > keys[b]:
            b = j
    t = keys[lo]
    keys[lo] = keys[b]
    keys[b] = t


cdef inline move_t next_move(int64_t* keys, int i, int n) noexcept nogil:
    """The i-th best move. Most nodes stop after one or two moves, so the
    first LAZY are found by selection and only nodes that go on pay for a
    sort of the rest."""
    if i < LAZY:
        select_best(keys, i, n)
    elif i == LAZY:
        qsort(keys + LAZY, n - LAZY, sizeof(int64_t), cmp_desc)
    return key_move(keys[i])


cdef int rescore_run(const CState* s, int64_t* keys, int lo, int hi, int cand) noexcept nogil:
    """Placement look-ahead on one patch's run keys[lo:hi]: the ``cand``
    best by the cheap key are re-keyed with the look-ahead badness (the
    rest dropped). Returns the new end of the run. The look-ahead costs
    about ten times the cheap key, hence the two stages."""
    cdef int j
    cdef move_t m
    if hi - lo > cand:
        for j in range(cand):
            select_best(keys, lo + j, hi)
        hi = lo + cand
    for j in range(lo, hi):
        m = key_move(keys[j])
        keys[j] -= (<int64_t>move_lookahead_bad(s, m)) << 32
    return hi


cdef int order_moves(Ctx* c, const CState* s, const move_t* moves, int n, int64_t* keys,
                     move_t ttmove, bint prune) noexcept nogil:
    """Ordering keys of ``moves`` (TT move, then buy_gain, then placement
    badness), for ``next_move``; equivalent final buys merged; when
    ``prune``, only the ``c.keep`` best placements of each patch are kept
    (gen_moves lists each patch's placements together). Returns the count."""
    cdef int p = to_move(s)
    cdef int i, j, k = 0, pid, gain, bad, slot, run_start = 0, run_pid = -2
    cdef move_t m = MOVE_WALK
    cdef u128 mask
    cdef int seen[N_PATCHES][2]
    memset(seen, 0, sizeof(seen))
    prune = prune and c.keep > 0
    for i in range(n + 1):
        if i < n:
            m = moves[i]
            pid = move_patch(m)
        else:
            pid = -3                      # flushes the last run
        if prune and pid != run_pid:
            # keep the best c.keep of the run of run_pid's placements just ended
            if run_pid >= 0 and k - run_start > c.keep:
                if lookahead_on():
                    k = rescore_run(s, keys, run_start, k, lookahead_candidates(c.keep))
                for j in range(c.keep):
                    select_best(keys, run_start + j, k)
                k = run_start + c.keep
            run_pid = pid
            run_start = k
        if i == n:
            break
        if m == ttmove:
            gain = 1000000                # always first, never pruned
            bad = 0
        elif m == MOVE_WALK:
            gain = 0
            bad = 0
        else:
            mask = move_mask(m)
            if pid >= 0:
                if is_final_buy(s, p, pid):
                    slot = completes_bonus(s, s.quilt[p] | mask)
                    if seen[pid][slot]:
                        continue
                    seen[pid][slot] = 1
                gain = buy_gain(s, p, pid)
            else:
                gain = 7 if completes_bonus(s, s.quilt[p] | mask) else 0
            bad = placement_badness(s.quilt[p], mask)
        keys[k] = order_key(gain, bad, m)
        k += 1
    return k


# --------------------------------------------------------------------------
# Relaxed quilts: an exact upper bound for a whole group of placements
# --------------------------------------------------------------------------
#
# In the exact solver, the placements of one patch (or the squares of one
# leather patch) by player p lead to children that differ only in p's
# quilt. Ignoring the geometry of p's quilt from there on -- any patch fits
# while it has no more squares than p's quilt has empty ones, a leather
# patch goes anywhere, and p takes the free 7x7 bonus as soon as p covers
# 49 squares -- only gives p more options and an earlier bonus, and takes
# nothing from the opponent, so the "relaxed" value R of the group is an
# upper bound for every placement in it. Hence: when R <= alpha the rest of
# the group is skipped (fail-soft value R), and once a placement reaches R
# the rest cannot beat it. The relaxed game is searched by the same
# negamax with bit p set in ``rmask`` (its TT keys are salted); inside it
# p has at most one move per patch. Never used with an evaluation (the
# bound holds for exact values only).

cdef uint64_t ZRELAX[4]
ZRELAX[0] = 0
ZRELAX[1] = 0x9D39247E33776D41ULL
ZRELAX[2] = 0x2AF7398005AAA5C7ULL
ZRELAX[3] = 0x44DB015024623547ULL

cdef enum:
    LEATHER_GROUP = N_PATCHES     # group id of the squares of a leather patch
    N_GROUPS = N_PATCHES + 1


cdef inline int group_of(move_t m) noexcept nogil:
    if m == MOVE_WALK:
        return -1
    if m <= BOARD_SQUARES:
        return LEATHER_GROUP
    return move_patch(m)


cdef inline move_t relaxed_code(const CState* s, int p, int group) noexcept nogil:
    """The one move standing for the whole group: a leather patch on the
    first empty square, or the patch's first orientation at square 0 (its
    squares are then moved onto the first empty squares by relaxed_apply)."""
    if group == LEATHER_GROUP:
        return ab_ctz128(FULL & ~s.quilt[p]) + 1
    return ((T.patch_og_start[group] + 1) << BUY_SHIFT)


cdef inline u128 low_squares(int n) noexcept nogil:
    return (ab_bit128(n) - 1) if n > 0 else 0


cdef inline void relaxed_apply(Ctx* c, CState* s, int p, move_t m) noexcept nogil:
    """Play ``m`` for the relaxed player ``p``. Only the number of p's
    covered squares matters now, so p's quilt is kept canonical -- its
    first squares covered -- which lets relaxed positions reached from
    different quilts share TT entries. The free 7x7 bonus goes to p at
    ``c.thr[p]`` covered squares (or earlier, if the canonical quilt happens
    to cover a 7x7 square: still an upper bound)."""
    cdef u128 q = s.quilt[p]
    if m > BOARD_SQUARES:
        s.quilt[p] = 0            # the patch fits at square 0 of an empty quilt
        apply_move(s, m)
        s.quilt[p] = low_squares(popcount128(q) + T.patch_size[move_patch(m)])
        if s.pending == p and s.quilt[p] == FULL:
            s.pending = -1        # a full quilt discards the leather patch
    else:
        apply_move(s, m)
        s.quilt[p] = low_squares(popcount128(s.quilt[p]))
    if s.bonus < 0 and popcount128(s.quilt[p]) >= c.thr[p]:
        s.bonus = p


cdef inline bint patch_fits(u128 quilt, int pid) noexcept nogil:
    cdef u128 empty = FULL & ~quilt
    cdef int og
    for og in range(T.patch_og_start[pid], T.patch_og_start[pid + 1]):
        if fits(T, empty, og):
            return True
    return False


cdef int gen_relaxed(Ctx* c, const CState* s, int p, move_t* out) noexcept nogil:
    """Moves of the relaxed player ``p``: walk and one buy per affordable
    patch no larger than the empty squares, or one leather placement."""
    cdef int n = 1, k, pid
    cdef int empty = BOARD_SQUARES - popcount128(s.quilt[p]) - c.unusable[p]
    if s.pending >= 0:
        out[0] = relaxed_code(s, p, LEATHER_GROUP)
        return 1
    out[0] = MOVE_WALK
    for k in range(3 if s.n_circle > 3 else s.n_circle):
        pid = s.circle[k]
        if T.patch_cost[pid] <= s.buttons[p] and T.patch_size[pid] <= empty \
                and (c.fits[p] >> pid) & 1:
            out[n] = relaxed_code(s, p, pid)
            n += 1
    return n


# --------------------------------------------------------------------------
# Negamax
# --------------------------------------------------------------------------

cdef int child_value(Ctx* c, CState* child, uint64_t key, int depth, int alpha, int beta,
                     int ply, bint same, int rmask) noexcept nogil:
    """A child's value for the parent's mover: negated only when the player
    to move changes."""
    if same:
        return negamax(c, child, key, depth, alpha, beta, ply, rmask)
    return -negamax(c, child, key, depth, -beta, -alpha, ply, rmask)


cdef bint region_alive(u128 region, uint64_t fits) noexcept nogil:
    """Some patch of ``fits`` has a placement inside ``region``."""
    cdef u128 outside = FULL & ~region
    cdef int size = popcount128(region), pid
    while fits:
        pid = ab_ctz128(<u128>fits)
        fits &= fits - 1
        if T.patch_size[pid] <= size and patch_fits(outside, pid):
            return True
    return False


cdef u128 dead_regions(u128 empty, uint64_t fits) noexcept nogil:
    """Empty squares in connected empty regions that hold no placement of
    any patch of ``fits``: as a quilt only fills up, no patch will ever
    cover them; only leather can."""
    cdef u128 dead = 0, comp, grown
    while empty:
        comp = empty & (~empty + 1)            # lowest empty square
        while True:
            grown = (comp | neighbours(comp)) & empty
            if grown == comp:
                break
            comp = grown
        if not region_alive(comp, fits):
            dead |= comp
        empty &= ~comp
    return dead


cdef int bonus_threshold(const CState* s, int p, u128 dead, int leather) noexcept nogil:
    """Covered squares at which a relaxed ``p`` takes the free 7x7 bonus:
    the quilt now plus the fewest empty squares of a 7x7 square that can
    still be completed -- one with no more squares in dead regions than
    leather patches left. Beyond 81 when none can (or the bonus is gone)."""
    cdef u128 empty = FULL & ~s.quilt[p]
    cdef int i, m, best = 99
    if s.bonus >= 0:
        return BOARD_SQUARES + 1
    for i in range(9):
        m = popcount128(T.square7[i] & empty)
        if m < best and popcount128(T.square7[i] & dead) <= leather:
            best = m
    if best == 99:
        return BOARD_SQUARES + 1
    return popcount128(s.quilt[p]) + best


cdef inline void relax_begin(Ctx* c, const CState* s, int p) noexcept nogil:
    """Fix what the relaxed ``p`` may still do, from p's quilt now: the
    patches that fit (``fits``), the empty squares no patch can use beyond
    what the leather left can fill (``unusable``), and the 7x7 threshold."""
    cdef int k, leather
    cdef u128 dead
    c.fits[p] = 0
    for k in range(s.n_circle):
        if patch_fits(s.quilt[p], s.circle[k]):
            c.fits[p] |= (<uint64_t>1) << s.circle[k]
    dead = dead_regions(FULL & ~s.quilt[p], c.fits[p])
    leather = ab_popcount64(s.leather) + (1 if s.pending == p else 0)
    c.unusable[p] = popcount128(dead) - leather
    if c.unusable[p] < 0:
        c.unusable[p] = 0
    c.thr[p] = bonus_threshold(s, p, dead, leather)


cdef inline uint64_t relax_salt(Ctx* c, int p, int rmask, int r2) noexcept nogil:
    """The relaxed subtree depends on thr and fits: they salt its keys."""
    return (ZRELAX[rmask] ^ ZRELAX[r2]
            ^ mix64(c.fits[p] ^ (<uint64_t>c.thr[p] << 40) ^ (<uint64_t>c.unusable[p] << 48)
                  ^ (<uint64_t>(p + 1) << 56)))


cdef int group_bound(Ctx* c, const CState* s, uint64_t key, int p, int group, int alpha,
                     int beta, int ply, int rmask) noexcept nogil:
    """Fail-soft value of the relaxed game after ``group`` (see above)."""
    cdef CState child = s[0]
    cdef int r2 = rmask | (1 << p), v
    cdef int old_thr = c.thr[p]
    cdef uint64_t old_fits = c.fits[p]
    cdef int old_unusable = c.unusable[p]
    cdef move_t m = relaxed_code(s, p, group)
    cdef uint64_t ck
    relax_begin(c, s, p)
    relaxed_apply(c, &child, p, m)
    c.nodes += 1
    if is_over(&child):
        v = margin(&child, p)
    else:
        ck = child_key(key, s, &child, m) ^ relax_salt(c, p, rmask, r2)
        v = child_value(c, &child, ck, EXACT, alpha, beta, ply + 1, to_move(&child) == p, r2)
    c.thr[p] = old_thr
    c.fits[p] = old_fits
    c.unusable[p] = old_unusable
    return v


cdef int search_move(Ctx* c, const CState* s, uint64_t key, move_t m, int p, bint relaxed,
                     int child_depth, int alpha, int beta, int ply, int rmask, bint full,
                     bint pv_node) noexcept nogil:
    """Value of move ``m`` for ``p``: full window, or a PVS null window
    re-searched at PV nodes when it lands inside (alpha, beta)."""
    cdef CState child = s[0]
    cdef uint64_t ck
    cdef bint same
    cdef int v
    if relaxed:
        relaxed_apply(c, &child, p, m)
    else:
        apply_move(&child, m)
    if is_over(&child):
        c.nodes += 1
        c.pv_len[ply + 1] = ply + 1
        return margin(&child, p)
    ck = child_key(key, s, &child, m)
    same = to_move(&child) == p
    if full:
        return child_value(c, &child, ck, child_depth, alpha, beta, ply + 1, same, rmask)
    v = child_value(c, &child, ck, child_depth, alpha, alpha + 1, ply + 1, same, rmask)
    if alpha < v < beta and pv_node and not c.stop:
        v = child_value(c, &child, ck, child_depth, alpha, beta, ply + 1, same, rmask)
    return v


cdef int negamax(Ctx* c, CState* s, uint64_t key, int depth, int alpha, int beta,
                 int ply, int rmask) noexcept nogil:
    """Value of ``s`` (not over) for its player to move, fail-soft.
    ``rmask``: players whose quilts are relaxed (exact solver only).
    The TT move is tried before any move is generated: when it cuts off,
    the node never pays for generating and ordering up to 1345 moves."""
    cdef int p, n = 0, i, v, best = -INF, alpha0 = alpha, child_depth, flag, g, searched = 0
    cdef bint pv_node = beta - alpha > 1, relaxed, bounds = False, cut = False, tt_first = False
    cdef move_t m, ttmove = -1, bestmove = -1
    cdef move_t* moves
    cdef int64_t* keys = NULL
    cdef TTEntry* e
    cdef int left[N_GROUPS]     # members of each group not yet taken from the list
    cdef int ub[N_GROUPS]       # proven upper bound of the rest of each group
    cdef bint tried[N_GROUPS]   # relaxed bound already computed
    cdef bint started[N_GROUPS] # a member already taken

    c.nodes += 1
    c.pv_len[ply] = ply
    if (c.nodes & CHECK_EVERY) == 0:
        check_limits(c)
    if c.stop:
        return 0
    if ply > c.seldepth:
        c.seldepth = ply
    if rmask:
        c.relaxed_nodes += 1
    p = to_move(s)
    if depth <= 0 or ply >= MAX_PLY - 1:
        return evaluate(s, p)

    if c.tt != NULL:
        e = tt_probe(c.tt, c.tt_mask, key)
        if e != NULL:
            ttmove = e.move
            # no cut-offs at PV nodes: keeps the PV whole to its last move
            if e.depth >= depth and not pv_node:
                if e.flag == FLAG_EXACT:
                    return e.value
                if e.flag == FLAG_LOWER and e.value >= beta:
                    return e.value
                if e.flag == FLAG_UPPER and e.value <= alpha:
                    return e.value

    relaxed = (rmask >> p) & 1
    child_depth = depth if depth >= EXACT else depth - 1

    # stage 1: the TT move (validated: a key collision must not play an illegal move)
    if ttmove >= 0 and not relaxed and is_legal(s, ttmove):
        tt_first = True
        v = search_move(c, s, key, ttmove, p, relaxed, child_depth, alpha, beta, ply, rmask,
                        True, pv_node)
        if c.stop:
            return 0
        searched = 1
        best = v
        bestmove = ttmove
        if v > alpha:
            alpha = v
            update_pv(c, ply, ttmove)
            if v >= beta:
                c.cut_first += 1
                cut = True

    # stage 2: every move, ordered (the TT move is skipped)
    if not cut:
        moves = c.moves + ply * MAX_MOVES
        if relaxed:
            n = gen_relaxed(c, s, p, moves)
        else:
            n = gen_moves(s, moves)
        keys = c.keys + ply * MAX_MOVES
        n = order_moves(c, s, moves, n, keys, ttmove, depth < EXACT and depth >= c.prune_depth)
        if bestmove < 0:
            select_best(keys, 0, n)
            bestmove = key_move(keys[0])
        bounds = depth >= EXACT and not relaxed and c.use_relax and n > 2
        if bounds:
            for g in range(N_GROUPS):
                left[g] = 0
                ub[g] = INF
                tried[g] = False
                started[g] = False
            for i in range(n):
                m = key_move(keys[i])
                g = group_of(m)
                if g >= 0 and not (tt_first and m == ttmove):
                    left[g] += 1
            if tt_first:
                g = group_of(ttmove)
                if g >= 0:
                    started[g] = True

    for i in range(n):
        m = next_move(keys, i, n)
        if tt_first and m == ttmove:
            continue
        if bounds:
            g = group_of(m)
            if g >= 0:
                left[g] -= 1
                # from a group's second member on (or once any move failed
                # low), when enough are left, bound the rest of the group
                if ((started[g] or (searched > 0 and c.relax_early)) and not tried[g]
                        and left[g] + 1 >= c.relax_min):
                    tried[g] = True
                    # a null-window test: only "the rest cannot raise alpha" is used
                    v = group_bound(c, s, key, p, g, alpha, alpha + 1, ply, rmask)
                    if c.stop:
                        return 0
                    if v <= alpha:
                        ub[g] = v
                        c.relax_cuts += 1
                    c.relax_calls += 1
                started[g] = True
                if ub[g] <= alpha:
                    if ub[g] > best:
                        best = ub[g]
                    continue
        v = search_move(c, s, key, m, p, relaxed, child_depth, alpha, beta, ply, rmask,
                        searched == 0 or not c.use_pvs, pv_node)
        if c.stop:
            return 0
        searched += 1
        if v > best:
            best = v
            bestmove = m
            if v > alpha:
                alpha = v
                update_pv(c, ply, m)
                if v >= beta:
                    if searched == 1:
                        c.cut_first += 1
                    else:
                        c.cut_later += 1
                        c.cut_later_i += searched - 1
                    break

    if c.tt != NULL:
        if best >= beta:
            flag = FLAG_LOWER
        elif best <= alpha0:
            flag = FLAG_UPPER
        else:
            flag = FLAG_EXACT
        tt_store(c.tt, c.tt_mask, key, depth, best, flag, bestmove)
    return best


cdef inline void update_pv(Ctx* c, int ply, move_t m) noexcept nogil:
    cdef move_t* row = c.pv + ply * MAX_PLY
    cdef move_t* below = c.pv + (ply + 1) * MAX_PLY
    cdef int j
    row[ply] = m
    for j in range(ply + 1, c.pv_len[ply + 1]):
        row[j] = below[j]
    c.pv_len[ply] = c.pv_len[ply + 1] if c.pv_len[ply + 1] > ply + 1 else ply + 1


# --------------------------------------------------------------------------
# Python-facing driver
cdef int aspirate(Ctx* c, CState* s, uint64_t key, int depth, int guess, int delta) noexcept nogil:
    """Root search in a window around ``guess`` (the previous iteration's
    value), widened fourfold on the failing side until the value lands
    strictly inside: then it is exact and its PV whole."""
    cdef int lo = guess - delta, hi = guess + delta, v
    while True:
        if lo < -INF:
            lo = -INF
        if hi > INF:
            hi = INF
        v = negamax(c, s, key, depth, lo, hi, 0, 0)
        if c.stop or (lo < v < hi) or (lo == -INF and hi == INF):
            return v
        delta *= 4
        if v <= lo:          # fail-soft: the value is at most v
            lo = v - delta
            hi = v + 1
        else:                # at least v
            lo = v - 1
            hi = v + delta


# --------------------------------------------------------------------------
# Probes: fixed-depth heuristic searches for other searchers (cimported by
# the MCTS through _alphabeta.pxd). One context (TT, per-ply buffers) is
# made once by the caller and reused by every probe, so TT entries of one
# probe order the moves of the next.

cdef void ctx_alloc(Ctx* c, bint with_tt, int hash_mb) noexcept nogil:
    """Give a zeroed context its per-ply buffers and, ``with_tt``, a TT of
    the largest power-of-two bucket count that fits in ``hash_mb``
    megabytes (at least one bucket). A failed allocation leaves its pointer NULL (the caller
    checks); ``ctx_release`` frees whatever was allocated."""
    cdef uint64_t buckets = 1
    c.moves = <move_t*>malloc(MAX_PLY * MAX_MOVES * sizeof(move_t))
    c.keys = <int64_t*>malloc(MAX_PLY * MAX_MOVES * sizeof(int64_t))
    c.pv = <move_t*>calloc(MAX_PLY * MAX_PLY, sizeof(move_t))
    c.pv_len = <int*>calloc(MAX_PLY + 1, sizeof(int))
    if with_tt:
        while buckets * 2 * 2 * sizeof(TTEntry) <= (<uint64_t>hash_mb) << 20:
            buckets *= 2
        c.tt = <TTEntry*>calloc(buckets * 2, sizeof(TTEntry))
        c.tt_mask = buckets - 1


cdef inline bint ctx_buffers_ok(const Ctx* c) noexcept nogil:
    return c.moves != NULL and c.keys != NULL and c.pv != NULL and c.pv_len != NULL


cdef void ctx_release(Ctx* c) noexcept nogil:
    free(c.moves)
    free(c.keys)
    free(c.pv)
    free(c.pv_len)
    free(c.tt)


cdef void* probe_new(int hash_mb, int keep, int prune_depth) noexcept nogil:
    """A search context for ``probe_value`` (NULL when out of memory);
    ``keep`` / ``prune_depth`` as in ``Searcher`` (hash_mb <= 0: no TT)."""
    cdef Ctx* c = <Ctx*>calloc(1, sizeof(Ctx))
    if c == NULL:
        return NULL
    ctx_alloc(c, hash_mb > 0, hash_mb if hash_mb <= 4096 else 4096)
    if not ctx_buffers_ok(c) or (hash_mb > 0 and c.tt == NULL):
        probe_free(c)
        return NULL
    c.keep = keep if keep >= 0 else 0
    c.prune_depth = prune_depth if prune_depth >= 1 else 1
    c.use_pvs = 1
    return c


cdef void probe_free(void* ctx) noexcept nogil:
    cdef Ctx* c = <Ctx*>ctx
    if c == NULL:
        return
    ctx_release(c)
    free(c)


cdef int probe_value(void* ctx, const CState* s, int depth, uint64_t node_limit,
                     double deadline=0.0, int* reached=NULL) noexcept nogil:
    """Heuristic value of ``s`` (not over: the caller scores finished games)
    for its player to move: iterative deepening to ``depth`` plies (clamped
    to 1 .. 100), stopping early after ``node_limit`` nodes (0: none) or at
    the monotonic time ``deadline`` (0: none) with the deepest finished
    iteration's value (the static evaluation when none finished; that
    depth, 0 for none, goes to ``reached``)."""
    cdef Ctx* c = <Ctx*>ctx
    cdef CState t = s[0]
    cdef uint64_t key
    cdef int d, v, best
    best = evaluate(s, to_move(s))
    if reached != NULL:
        reached[0] = 0
    if c == NULL or is_over(s):
        return best
    if depth > 100:
        depth = 100
    key = full_key(&t)
    c.nodes = 0
    c.stop = 0
    c.node_limit = node_limit
    c.deadline = deadline
    for d in range(1, depth + 1):
        v = negamax(c, &t, key, d, -INF, INF, 0, 0)
        if c.stop:
            break
        best = v
        if reached != NULL:
            reached[0] = d
    return best


# --------------------------------------------------------------------------

cdef class Searcher:
    """One search: owns the TT and the per-ply buffers. Limits are trusted
    (``alphabeta.py`` validates them)."""

    cdef Ctx c

    def __cinit__(self, int hash_mb=16, bint use_tt=True, int keep=0, int prune_depth=2,
                  bint use_pvs=True, bint use_relax=True, int relax_min=3, bint relax_early=True, int aspiration=0):
        memset(&self.c, 0, sizeof(Ctx))
        ctx_alloc(&self.c, use_tt, hash_mb)
        if use_tt and self.c.tt == NULL:
            raise MemoryError("transposition table")
        if not ctx_buffers_ok(&self.c):
            raise MemoryError("search buffers")
        self.c.keep = keep
        self.c.prune_depth = prune_depth
        self.c.use_pvs = use_pvs
        self.c.use_relax = use_relax
        self.c.relax_min = relax_min
        self.c.relax_early = relax_early
        self.c.aspiration = aspiration

    def __dealloc__(self):
        ctx_release(&self.c)

    @property
    def tt_entries(self):
        return (self.c.tt_mask + 1) * 2 if self.c.tt != NULL else 0

    def run(self, CoreState root, int depth, bint exact, uint64_t node_limit, double seconds,
            int first_depth=1):
        """Iterative deepening from ``first_depth`` to ``depth`` (and then one
        exact iteration when ``exact``). Returns a list of completed
        iterations: (depth, value, pv codes, nodes, seldepth), depth ``EXACT``
        for the exact one; the last entry is the answer. An empty list means
        not even the first iteration finished within the limits."""
        cdef CState s = root.s
        cdef uint64_t key = full_key(&s)
        cdef int d, v, last, last_value = 0
        cdef list done = []
        self.c.nodes = 0
        self.c.stop = 0
        self.c.node_limit = node_limit
        self.c.deadline = now() + seconds if seconds > 0 else 0.0
        last = depth
        d = first_depth
        while True:
            if d > last:
                if not exact or d > EXACT:
                    break
                d = EXACT
            self.c.seldepth = 0
            with nogil:
                if done and self.c.aspiration > 0:
                    v = aspirate(&self.c, &s, key, d, last_value, self.c.aspiration)
                else:
                    v = negamax(&self.c, &s, key, d, -INF, INF, 0, 0)
                last_value = v
            if self.c.stop:
                break
            done.append((d, v, [self.c.pv[i] for i in range(self.c.pv_len[0])],
                         self.c.nodes, self.c.seldepth))
            if d == EXACT:
                break
            d += 1
        return done

    @property
    def nodes(self):
        return self.c.nodes

    @property
    def stats(self):
        return {"relax_calls": self.c.relax_calls, "relax_cuts": self.c.relax_cuts,
                "relaxed_nodes": self.c.relaxed_nodes, "cut_first": self.c.cut_first,
                "cut_later": self.c.cut_later, "cut_later_i": self.c.cut_later_i}


# --------------------------------------------------------------------------
# Helpers for tests, benchmarks and tuning
# --------------------------------------------------------------------------

def key_of(CoreState s):
    """Zobrist key computed from scratch."""
    return full_key(&s.s)


def child_key_of(CoreState s, uint64_t key, int move):
    """Zobrist key after ``move`` updated incrementally from ``key``."""
    cdef CState child = s.s
    apply_move(&child, move)
    return child_key(key, &s.s, &child, move)


def evaluate_state(CoreState s, int player):
    """The evaluation (an estimated final margin) for ``player``."""
    return evaluate(&s.s, player)


def features(CoreState s):
    """Tuning features for the player to move: the score margin now, the
    per-term differences (mover minus opponent) in ``side_features`` order,
    and the pending-leather term."""
    cdef int p = to_move(&s.s)
    cdef double a[5]
    cdef double b[5]
    side_features(&s.s, p, a)
    side_features(&s.s, 1 - p, b)
    pend = (2 if s.s.pending == p else 0) - (2 if s.s.pending == 1 - p else 0)
    return margin(&s.s, p) + pend, [a[i] - b[i] for i in range(5)]


def get_weights():
    return dict(W)


def set_weights(**kw):
    """Change evaluation weights (used by the tuner); returns the old ones."""
    global W
    old = dict(W)
    d = dict(W)
    for k, v in kw.items():
        if k not in d:
            raise KeyError(k)
        d[k] = float(v)
    W = d
    return old


cdef uint64_t _tree(const CState* s, uint64_t limit, uint64_t count) noexcept nogil:
    cdef move_t moves[MAX_MOVES]
    cdef CState child
    cdef int n, i
    count += 1
    if count > limit or is_over(s):
        return count
    n = gen_moves(s, moves)
    for i in range(n):
        child = s[0]
        apply_move(&child, moves[i])
        count = _tree(&child, limit, count)
        if count > limit:
            return count
    return count


def tree_size(CoreState s, uint64_t limit):
    """Nodes of the full game tree below ``s`` (``s`` included), or -1 when
    it has more than ``limit``."""
    cdef uint64_t n
    with nogil:
        n = _tree(&s.s, limit, 0)
    return -1 if n > limit else n


cdef int _minimax(const CState* s, int depth, uint64_t* nodes) noexcept nogil:
    """Plain minimax over every move, no pruning and no table (the
    benchmark's and tests' reference in C); depth < 0 = to the end."""
    cdef move_t moves[MAX_MOVES]
    cdef CState child
    cdef int n, i, v, best = -INF, p = to_move(s)
    nodes[0] += 1
    if depth == 0:
        return evaluate(s, p)
    n = gen_moves(s, moves)
    for i in range(n):
        child = s[0]
        apply_move(&child, moves[i])
        if is_over(&child):
            nodes[0] += 1
            v = margin(&child, p)
        elif to_move(&child) == p:
            v = _minimax(&child, depth - 1, nodes)
        else:
            v = -_minimax(&child, depth - 1, nodes)
        if v > best:
            best = v
    return best


def minimax(CoreState s, int depth=-1):
    """(value, nodes) of a plain minimax in C (see ``_minimax``)."""
    cdef uint64_t nodes = 0
    cdef int v
    with nogil:
        v = _minimax(&s.s, depth, &nodes)
    return v, nodes


cdef move_t _greedy(const CState* s) noexcept nogil:
    """The greedy one-ply player: the move that maximises its own score
    right after the move plus income times the income spaces still ahead;
    ties go to the better placement (placement heuristic), then to walking."""
    cdef move_t moves[MAX_MOVES]
    cdef CState child
    cdef int n, i, p = to_move(s)
    cdef int64_t v, best = -(1 << 60)
    cdef move_t bestm = MOVE_WALK
    n = gen_moves(s, moves)
    for i in range(n):
        child = s[0]
        apply_move(&child, moves[i])
        v = (score(&child, p) + child.income[p] * income_ahead(child.time[p])) * 1024
        if moves[i] != MOVE_WALK:
            v -= placement_badness(s.quilt[p], move_mask(moves[i]))
        if v > best:
            best = v
            bestm = moves[i]
    return bestm


def greedy_move(CoreState s):
    """Move code of the greedy one-ply player (-1 when the game is over)."""
    if is_over(&s.s):
        return -1
    return _greedy(&s.s)


def policy_playout(CoreState s, uint64_t seed, double epsilon):
    """Play to the end with the greedy player, taking a uniformly random
    move with probability ``epsilon``; returns the final CoreState."""
    cdef CoreState c = CoreState.__new__(CoreState)
    cdef uint64_t rng = seed
    cdef uint64_t thresh = <uint64_t>(epsilon * 1048576.0)
    c.s = s.s
    with nogil:
        while not is_over(&c.s):
            if rng_below(&rng, 1048576) < thresh:
                apply_move(&c.s, random_move(&c.s, &rng))
            else:
                apply_move(&c.s, _greedy(&c.s))
    return c


def ordered_moves(CoreState s, int keep):
    """The moves of ``s`` in the searcher's order (buy gain, then placement
    badness), at most ``keep`` placements of each patch (0: all): the
    candidates of a multi-PV root search."""
    cdef Ctx c
    cdef move_t moves[MAX_MOVES]
    cdef int64_t keys[MAX_MOVES]
    cdef int n, k, i
    if is_over(&s.s):
        return []
    memset(&c, 0, sizeof(Ctx))
    c.keep = keep if keep > 0 else 0
    n = gen_moves(&s.s, moves)
    k = order_moves(&c, &s.s, moves, n, keys, -1, keep > 0)
    qsort(keys, k, sizeof(int64_t), cmp_desc)
    return [key_move(keys[i]) for i in range(k)]
