# cython: language_level=3
"""Alpha-beta hot loop: negamax with principal variation search, iterative
deepening, a transposition table and placement pruning. (Exact solving is
the dedicated solver's, ``_solver.pyx``.) The static evaluation at the leaves comes
from ``_eval.pxd`` and the placement score from ``_quilt.pxd`` (shared with
the other searchers), the value bounds and the limit check from
``_search.pxd`` (shared with the solver); Python-facing validation lives in
``alphabeta.py``.

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
The depth is decremented at every ply (leather placements included) and
``_eval.evaluate`` is called at depth 0.

Transposition keys: Zobrist, incremental (``_zobrist.pxd``, shared with the solver).

TT: buckets of two 16-byte entries (depth-preferred slot, always-replace
slot); the caller fixes the memory budget. Each ``run`` is a new
generation (six bits beside the bound's two in the flag byte): an entry
from an earlier run yields the depth-preferred slot to any new one, so a
table kept from move to move (``alphabeta.KeptTable``) does not fill up
with the deep entries of positions long gone. A TT move is played only after
``is_legal`` accepts it, so a key collision can never make an illegal move.
Each entry is stored as (key ^ data, data) and read once into locals: with
several threads writing, an entry torn between its two stores fails the key
test (the lockless XOR trick), and the move check covers what remains.

Threads (simplified ABDADA)
---------------------------
``Searcher.run(..., workers=N)`` starts N-1 pthreads (no GIL, no OpenMP: a
libgomp pool does not survive the fork of the MCTS's and tournaments'
worker processes) that run their own iterative deepening on the same root,
each with its own Ctx (buffers, PV), into the shared table. Alone, such
threads (Lazy SMP) mostly search the same moves: on a free 2-core machine
they gained nothing (benchmarks/results/smp_free_machine.md). So they also
share a small table of the moves being searched (Kerrigan's simplified
ABDADA): at a node with DEFER_DEPTH plies or more left, a move after the
first that another thread is searching waits for the end of the list, by
when its value is mostly in the table. Without that table (no memory) odd
helpers start a ply deeper, as in Lazy SMP. They stop at the deadline, on
the global stop flag (Ctrl-C, ``request_stop``), or when the main thread,
which answers, sets ``halt``. With one thread no helper exists and the search is unchanged.

MultiPV
-------
``Searcher.run(..., multipv=N)`` ranks N root moves within each iteration:
after the first line, the root is searched again at the same depth and in
a full window with the root moves already found skipped (``Ctx.root_skip``)
and every placement listed (no pruning, no final-buy merge), N-1 times.
Such a root's value leaves moves out, so it is not stored in the table.

Move ordering
-------------
The TT move is searched before anything is generated (most cut-offs need
nothing else). Then every move gets a key -- ``buy_gain`` (two points a
square, minus cost and time, plus income to come; walking is 0), then the
placement score ``_quilt.placement_badness`` -- and the first three are picked
by selection, the rest sorted only if the node goes on. Placements are
generated a patch at a time (``Picker``): a patch waits until its bound
(its buy gain with no badness) could beat the best key already listed, so
a node that cuts off on its best patch never scores the other two; the
order is exactly that of scoring everything. Within ``rank_plies`` of the
root and in the second half of the game (``RANK_SPACES``), a patch's
placements are keyed by the learned evaluation after them instead
(``rank_by_eval``). Heuristic searches
keep only the ``placements`` best placements per patch at nodes with at least
``prune_depth`` plies left. A buy that leaves its player on 53 with no
leather patch to place is searched once per patch (twice if some placements
take the 7x7 bonus): that quilt never changes again, nothing else depends on
it, so the merge loses nothing.
"""

from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, int16_t, int8_t, uint8_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset

from patchsolve._core cimport (
    CState, Tables, u128, move_t, CoreState,
    get_tables, to_move, is_over, gen_moves, apply_move, is_legal,
    move_mask_of, move_patch_of, fits, buy_code, monotonic_now,
    margin, completes_bonus, affordable_ahead,
    ps_ctz128,
    MAX_MOVES, LAST_SPACE, BOARD_SQUARES, MOVE_WALK, N_PATCHES, BONUS_POINTS, PATCHES_AHEAD,
)
from patchsolve.search._eval cimport evaluate
from patchsolve.search._quilt cimport placement_badness
from patchsolve.search._learned cimport learned_on, learned_margin
from patchsolve.search._search cimport INF, MAX_PLY, CHECK_EVERY, limit_hit
from patchsolve.search._zobrist cimport ZTables, get_zobrist, full_key, child_key
from patchsolve.search._order cimport (
    LAZY, sort_desc, key_move, select_best, buy_gain, is_final_buy,
)

from patchsolve.search._threads cimport (
    Thread, TableEntry, atomic_load, atomic_store, entry_read, entry_write, helpers_launch, helpers_join, load64,
    store64,
)

cdef enum:
    FLAG_LOWER = 1
    FLAG_UPPER = 2
    FLAG_EXACT = 3
    FLAG_BOUND = 3       # the flag byte's bound bits; the six above are the entry's generation
    GEN_MASK = 63
    BUSY_SLOTS = 1 << 14  # the threads' table of moves being searched (ABDADA), a power of two
    DEFER_DEPTH = 3      # moves are deferred only at nodes with at least this depth left
    MAX_DEFER = 32       # moves deferred at one node at most (the rest are searched in turn)


cdef const Tables* T = get_tables()
cdef u128 FULL = T.full
cdef const ZTables* Z = get_zobrist()


# --------------------------------------------------------------------------
# Transposition table
# --------------------------------------------------------------------------

ctypedef struct TTData:
    int32_t move
    int16_t value
    int8_t depth
    uint8_t flag

ctypedef union TTWord:
    TTData d
    uint64_t u

# stored as (key ^ data, data), a TTWord's u (the lockless entry of _threads.pxd)
ctypedef TableEntry TTEntry


cdef inline bint tt_read(const TTEntry* e, uint64_t key, TTData* out) noexcept nogil:
    """Copy the entry once (it may change under us) and accept it only when
    its key matches."""
    cdef TTWord w
    if entry_read(e, key, &w.u) and w.d.flag & FLAG_BOUND:
        out[0] = w.d
        out.flag = w.d.flag & FLAG_BOUND
        return True
    return False


cdef inline bint tt_probe(TTEntry* tt, uint64_t mask, uint64_t key, TTData* out) noexcept nogil:
    cdef TTEntry* b = &tt[(key & mask) * 2]
    return tt_read(&b[0], key, out) or tt_read(&b[1], key, out)


cdef inline void tt_store(TTEntry* tt, uint64_t mask, uint64_t key, int depth, int value,
                          int flag, move_t move, int gen) noexcept nogil:
    """Store in the depth-preferred slot when it holds this key, a
    shallower entry, or an entry of an earlier generation (run): an empty
    slot's generation is 0, never a run's; else in the always-replace slot."""
    cdef TTEntry* b = &tt[(key & mask) * 2]
    cdef TTEntry* e
    cdef TTWord w
    if entry_read(&b[0], key, &w.u) or depth >= w.d.depth or (w.d.flag >> 2) != gen:
        e = &b[0]
    else:
        e = &b[1]
    w.d.move = move
    w.d.value = value
    w.d.depth = depth
    w.d.flag = flag | (gen << 2)
    entry_write(e, key, w.u)


# --------------------------------------------------------------------------
# Search context
# --------------------------------------------------------------------------

ctypedef struct Ctx:
    TTEntry* tt            # NULL = no table
    uint64_t tt_mask       # buckets - 1
    int gen                # this run's generation (1..GEN_MASK), stored with each entry
    int placements         # placements kept per patch where pruning applies (0 = all)
    int prune_depth        # prune only at nodes with at least this depth left
    int rank_plies         # nodes this close to the root rank placements by the evaluation (0 = none)
    int lmr                # late-move reductions once this many moves are searched (0 = off)
    int leather            # leather squares kept where pruning applies, below the root (0 = all)
    uint64_t nodes
    uint64_t evals         # leaves evaluated (cut off by the depth): none in an iteration = its tree ends every line
    uint64_t node_limit    # 0 = none
    double deadline        # monotonic seconds; 0 = none
    int stop
    int seldepth
    int64_t* keys          # MAX_PLY x MAX_MOVES
    move_t* pv             # MAX_PLY x MAX_PLY triangular PV table
    int* pv_len
    int* halt              # Lazy SMP helpers: set when the main thread is done (NULL otherwise)
    int root_value         # value of the root's best move so far in this iteration (pv row 0)
    # MultiPV: the root moves of the lines already found this iteration are
    # skipped (n_skip > 0 only while the next line is searched), and so are
    # the choices already found while every choice is not yet ranked
    # (skip_choices: a bit per choice, ``choice_bit``); with ``alone`` set
    # the root searches ``root_only`` alone (a move whose value is asked
    # for). The root then lists every placement, unpruned and unmerged, to
    # rank them. (A zeroed Ctx has none of these: the plain search.)
    const move_t* root_skip
    int n_skip
    uint64_t skip_choices
    int alone
    move_t root_only
    # threads (simplified ABDADA): the moves some thread is searching, shared
    # by all of them (NULL with one thread)
    uint64_t* busy


# --------------------------------------------------------------------------
# Move ordering, final-buy merging and placement pruning
# --------------------------------------------------------------------------

cdef inline int64_t order_key(int gain, int bad, move_t m) noexcept nogil:
    return ((<int64_t>(gain * 256 - bad + (1 << 24))) << 32) | <uint32_t>m


ctypedef struct Picker:
    # The moves of one node, best key first, generated one patch at a time:
    # a patch's placements are generated and scored only once its bound
    # could beat the best key already there (most nodes cut off before
    # the second patch is needed)
    int64_t* keys          # keys written so far (never the TT move)
    int n
    int i                  # moves handed out
    int npend              # patches not generated yet, highest bound first
    int pend_pid[3]
    int64_t pend_ub[3]     # no placement of the patch has a larger key
    move_t ttmove
    bint prune
    bint merge             # a final buy's placements merged (off at a MultiPV root: every move ranked)
    bint rank              # placements ranked by the learned evaluation after them (``rank_by_eval``)


cdef inline int keep_best(int64_t* keys, int lo, int n, int keep) noexcept nogil:
    """Bring the ``keep`` best keys of ``keys[lo:n]`` to its front, in
    order; the new end of the list."""
    cdef int j
    if n - lo <= keep:
        return n
    for j in range(keep):
        select_best(keys, lo + j, n)
    return lo + keep


cdef void add_patch(Ctx* c, const CState* s, Picker* pk, int pid) noexcept nogil:
    """Append the keys of ``pid``'s placements (one per 7x7 outcome for a
    final buy); when pruning, only the ``c.placements`` best, the TT move (searched
    already, so not listed) taking one of those places."""
    cdef int p = to_move(s), og, a, gain = buy_gain(T, s, p, pid), lo = pk.n, k = pk.n, slot
    cdef int has_tt = 0
    cdef bint final = pk.merge and is_final_buy(T, s, p, pid)
    cdef int seen[2]
    cdef u128 quilt = s.quilt[p], empty = FULL & ~s.quilt[p], v, mask
    cdef move_t m
    cdef int64_t* keys = pk.keys
    seen[0] = 0
    seen[1] = 0
    for og in range(T.patch_og_start[pid], T.patch_og_start[pid + 1]):
        v = fits(T, empty, og)
        while v:
            a = ps_ctz128(v)
            v &= v - 1
            m = buy_code(og, a)
            if m == pk.ttmove:
                has_tt = 1
                continue
            mask = T.og_shape[og] << a
            if final:
                slot = completes_bonus(T, s, quilt | mask)
                if seen[slot]:
                    continue
                seen[slot] = 1
            keys[k] = order_key(gain, placement_badness(quilt, mask), m)
            k += 1
    if pk.rank and k - lo > 1:
        rank_by_eval(s, p, gain, keys + lo, k - lo)
    if pk.prune:
        k = keep_best(keys, lo, k, c.placements - has_tt)
    pk.n = k


cdef enum:
    MAX_PLACEMENTS = 648   # 8 orientations x 81 squares: more than one patch ever has
    RANK_SPACES = 56       # rank by the evaluation only this near the end (both players' spaces left)
    RANK_STEPS = 8         # rank keys per point of evaluation ...
    RANK_SPAN = 31         # ... up to this many steps below the patch's best; then badness breaks ties


cdef inline int spaces_left(const CState* s) noexcept nogil:
    return 2 * LAST_SPACE - s.time[0] - s.time[1]


cdef void rank_by_eval(const CState* s, int p, int gain, int64_t* keys, int n) noexcept nogil:
    """Re-key one patch's ``n`` placements by the learned evaluation of the
    position after each (for the mover ``p``): the badness only breaks ties
    within an eighth of a point. In the second half of the game the
    evaluation keeps the best placement among the first two more often than
    the badness does; in the opening less often, hence ``RANK_SPACES``
    (benchmarks/results/placement_rank/). Costly (a move and an evaluation
    a placement), so only near the root (``rank_plies``)."""
    cdef double ev[MAX_PLACEMENTS]
    cdef double top = -1e9
    cdef CState child
    cdef int j, bad, step
    cdef move_t m
    if not learned_on() or n > MAX_PLACEMENTS:
        return
    for j in range(n):
        child = s[0]
        apply_move(&child, key_move(keys[j]))
        ev[j] = learned_margin(&child, p)
        if ev[j] > top:
            top = ev[j]
    for j in range(n):
        m = key_move(keys[j])
        bad = gain * 256 + (1 << 24) - <int>(keys[j] >> 32)   # the badness order_key put in
        step = <int>((top - ev[j]) * RANK_STEPS + 0.5)
        if step > RANK_SPAN:
            step = RANK_SPAN
        keys[j] = order_key(gain, step * 8 + (bad if bad < 7 else 7), m)


cdef void picker_init(Ctx* c, const CState* s, Picker* pk, int64_t* keys, move_t ttmove,
                      bint prune, bint merge, bint rank=False, bint root=False) noexcept nogil:
    """Keys of the walk (or of every leather square) now; the affordable
    patches of the next three wait, by bound (two points a buy-gain button,
    ``order_key`` with no badness)."""
    cdef int p = to_move(s), k, na, j, pid, gain
    cdef int ahead[PATCHES_AHEAD]
    cdef u128 empty = FULL & ~s.quilt[p], mask
    cdef int64_t ub
    cdef move_t m
    pk.keys = keys
    pk.n = 0
    pk.i = 0
    pk.npend = 0
    pk.ttmove = ttmove
    pk.prune = prune and c.placements > 0
    pk.merge = merge
    pk.rank = rank
    if s.pending >= 0:
        while empty:                      # every leather square ...
            m = ps_ctz128(empty) + 1
            empty &= empty - 1
            if m == ttmove:
                continue
            mask = move_mask_of(T, m)
            gain = BONUS_POINTS if completes_bonus(T, s, s.quilt[p] | mask) else 0
            keys[pk.n] = order_key(gain, placement_badness(s.quilt[p], mask), m)
            pk.n += 1
        # ... or, when pruning below the root, only the ``leather`` best of them
        if pk.prune and not root and c.leather > 0:
            pk.n = keep_best(keys, 0, pk.n, c.leather - (1 if ttmove >= 0 else 0))
        return
    if ttmove != MOVE_WALK:
        keys[0] = order_key(0, 0, MOVE_WALK)
        pk.n = 1
    na = affordable_ahead(T, s, p, ahead)
    for k in range(na):
        pid = ahead[k]
        ub = order_key(buy_gain(T, s, p, pid), 0, <move_t>0x7fffffff)
        j = pk.npend
        while j > 0 and pk.pend_ub[j - 1] < ub:    # insertion: at most three
            pk.pend_ub[j] = pk.pend_ub[j - 1]
            pk.pend_pid[j] = pk.pend_pid[j - 1]
            j -= 1
        pk.pend_ub[j] = ub
        pk.pend_pid[j] = pid
        pk.npend += 1


cdef void add_next_patch(Ctx* c, const CState* s, Picker* pk) noexcept nogil:
    cdef int j
    add_patch(c, s, pk, pk.pend_pid[0])
    pk.npend -= 1
    for j in range(pk.npend):
        pk.pend_pid[j] = pk.pend_pid[j + 1]
        pk.pend_ub[j] = pk.pend_ub[j + 1]


cdef move_t picker_next(Ctx* c, const CState* s, Picker* pk) noexcept nogil:
    """The next best move, or -1 when none is left. The first LAZY are found
    by selection (a waiting patch is generated when its bound beats the best
    key there); then everything left is generated and sorted once."""
    cdef int i = pk.i
    if i < LAZY:
        while True:
            if pk.n > i:
                select_best(pk.keys, i, pk.n)
            if pk.npend > 0 and (pk.n == i or pk.pend_ub[0] > pk.keys[i]):
                add_next_patch(c, s, pk)
            else:
                break
    elif i == LAZY:
        while pk.npend > 0:
            add_next_patch(c, s, pk)
        if pk.n > LAZY:
            sort_desc(pk.keys + LAZY, pk.n - LAZY)
    if i >= pk.n:
        return -1
    pk.i += 1
    return key_move(pk.keys[i])


# --------------------------------------------------------------------------
# Negamax
# --------------------------------------------------------------------------

cdef int child_value(Ctx* c, CState* child, uint64_t key, int depth, int alpha, int beta,
                     int ply, bint same) noexcept nogil:
    """A child's value for the parent's mover: negated only when the player
    to move changes."""
    if same:
        return negamax(c, child, key, depth, alpha, beta, ply)
    return -negamax(c, child, key, depth, -beta, -alpha, ply)


cdef int search_move(Ctx* c, const CState* s, uint64_t key, move_t m, int p,
                     int child_depth, int alpha, int beta, int ply, bint full,
                     bint pv_node) noexcept nogil:
    """Value of move ``m`` for ``p``: full window, or a PVS null window
    re-searched at PV nodes when it lands inside (alpha, beta)."""
    cdef CState child = s[0]
    cdef uint64_t ck
    cdef bint same
    cdef int v
    apply_move(&child, m)
    if is_over(&child):
        c.nodes += 1
        c.pv_len[ply + 1] = ply + 1
        return margin(&child, p)
    ck = child_key(Z, key, s, &child, m)
    same = to_move(&child) == p
    if full:
        return child_value(c, &child, ck, child_depth, alpha, beta, ply + 1, same)
    v = child_value(c, &child, ck, child_depth, alpha, alpha + 1, ply + 1, same)
    if alpha < v < beta and pv_node and not c.stop:
        v = child_value(c, &child, ck, child_depth, alpha, beta, ply + 1, same)
    return v


cdef inline bint reducible(const Ctx* c, int searched, int child_depth, move_t m) noexcept nogil:
    """Late-move reduction applies: ``c.lmr`` moves already searched, at
    least two plies left below, and not a walk (walking is the one move
    whose worth the buy-gain order cannot see)."""
    return c.lmr > 0 and searched >= c.lmr and child_depth >= 2 and m != MOVE_WALK


cdef inline uint64_t busy_key(uint64_t key, move_t m) noexcept nogil:
    """The busy table's key of move ``m`` at the node of ``key`` (never 0
    in practice: 0 marks a free slot)."""
    return key ^ ((<uint64_t>m + 1) * <uint64_t>0x9E3779B97F4A7C15)


cdef inline uint64_t* busy_slot(const Ctx* c, uint64_t bk) noexcept nogil:
    return &c.busy[bk & (BUSY_SLOTS - 1)]


cdef inline bint is_busy(const Ctx* c, uint64_t bk) noexcept nogil:
    return load64(busy_slot(c, bk)) == bk


cdef inline void busy_clear(Ctx* c, uint64_t bk) noexcept nogil:
    """Free ``bk``'s slot unless another move has taken it since."""
    if is_busy(c, bk):
        store64(busy_slot(c, bk), 0)


cdef int negamax(Ctx* c, CState* s, uint64_t key, int depth, int alpha, int beta,
                 int ply) noexcept nogil:
    """Value of ``s`` (not over) for its player to move, fail-soft.
    The TT move is tried before any move is generated: when it cuts off,
    the node never pays for generating and ordering up to 1345 moves."""
    cdef int p, v, best = -INF, alpha0 = alpha, child_depth, flag, searched = 0
    cdef bint pv_node = beta - alpha > 1, cut = False, tt_first = False
    cdef bint ranking = ply == 0 and ranking_line(c)    # a MultiPV line after the first
    cdef move_t m, ttmove = -1, bestmove = -1
    cdef Picker pk
    cdef TTData e
    # threads: a move another thread is searching waits for the end of the
    # list (by then its value is mostly in the table), so the threads split
    # the work instead of searching the same moves (Kerrigan's simplified ABDADA)
    cdef bint deferring = c.busy != NULL and depth >= DEFER_DEPTH, picking = True
    cdef move_t deferred[MAX_DEFER]
    cdef int n_def = 0, i_def = 0
    cdef uint64_t bk = 0

    c.nodes += 1
    c.pv_len[ply] = ply
    if (c.nodes & CHECK_EVERY) == 0 and limit_hit(c.nodes, c.node_limit, c.deadline, c.halt):
        c.stop = 1
    if c.stop:
        return 0
    if ply > c.seldepth:
        c.seldepth = ply
    p = to_move(s)
    if depth <= 0 or ply >= MAX_PLY - 1:
        c.evals += 1
        return evaluate(s, p)

    if c.tt != NULL:
        if tt_probe(c.tt, c.tt_mask, key, &e):
            ttmove = e.move
            # no cut-offs at PV nodes: keeps the PV whole to its last move
            if e.depth >= depth and not pv_node:
                if e.flag == FLAG_EXACT:
                    return e.value
                if e.flag == FLAG_LOWER and e.value >= beta:
                    return e.value
                if e.flag == FLAG_UPPER and e.value <= alpha:
                    return e.value

    child_depth = depth - 1

    if ranking and excluded(c, ttmove):
        ttmove = -1

    # stage 1: the TT move (validated: a key collision must not play an illegal move)
    if ttmove >= 0 and is_legal(s, ttmove):
        tt_first = True
        v = search_move(c, s, key, ttmove, p, child_depth, alpha, beta, ply, True, pv_node)
        if c.stop:
            return 0
        searched = 1
        best = v
        bestmove = ttmove
        if v > alpha:
            alpha = v
            update_pv(c, ply, ttmove)
            if ply == 0:
                c.root_value = v
            if v >= beta:
                cut = True

    # stage 2: the other moves, best first, generated a patch at a time
    if not cut:
        # a final buy's placements merge only where placements are pruned:
        # they end alike in score but not in the evaluation at a depth-limited leaf
        picker_init(c, s, &pk, c.keys + ply * MAX_MOVES, ttmove if tt_first else -1,
                    depth >= c.prune_depth and not ranking, not ranking and c.placements > 0,
                    ply < c.rank_plies and spaces_left(s) <= RANK_SPACES, ply == 0)
    while not cut:
        if picking:
            m = picker_next(c, s, &pk)
            if m < 0:
                picking = False
                continue
            if ranking and excluded(c, m):
                continue
            if deferring:
                bk = busy_key(key, m)
                if searched > 0 and n_def < MAX_DEFER and is_busy(c, bk):
                    deferred[n_def] = m
                    n_def += 1
                    continue
        elif i_def < n_def:
            m = deferred[i_def]
            i_def += 1
            bk = busy_key(key, m)
        else:
            break
        if deferring:
            store64(busy_slot(c, bk), bk)
        if bestmove < 0:
            bestmove = m
        if reducible(c, searched, child_depth, m):
            # a late move is first tried one ply shallower; only one that
            # beats alpha there pays for the full-depth search
            v = search_move(c, s, key, m, p, child_depth - 1, alpha, beta, ply, False, False)
            if v > alpha and not c.stop:
                v = search_move(c, s, key, m, p, child_depth, alpha, beta, ply, False, pv_node)
        else:
            v = search_move(c, s, key, m, p, child_depth, alpha, beta, ply, searched == 0, pv_node)
        if deferring:
            busy_clear(c, bk)
        if c.stop:
            return 0
        searched += 1
        if v > best:
            best = v
            bestmove = m
            if v > alpha:
                alpha = v
                update_pv(c, ply, m)
                if ply == 0:
                    c.root_value = v
                if v >= beta:
                    break

    # a MultiPV line's root value leaves moves out: not the position's value
    if c.tt != NULL and not ranking:
        if best >= beta:
            flag = FLAG_LOWER
        elif best <= alpha0:
            flag = FLAG_UPPER
        else:
            flag = FLAG_EXACT
        tt_store(c.tt, c.tt_mask, key, depth, best, flag, bestmove, c.gen)
    return best


cdef inline bint ranking_line(const Ctx* c) noexcept nogil:
    """The root search is a MultiPV line after the first, or one move's line."""
    return c.n_skip > 0 or c.skip_choices != 0 or c.alone


cdef inline int choice_bit(move_t m) noexcept nogil:
    """What ``m`` chooses, whatever its placement: its patch (0..32),
    walking (33) or the leather patch (34)."""
    if m == MOVE_WALK:
        return N_PATCHES
    if m <= BOARD_SQUARES:
        return N_PATCHES + 1
    return move_patch_of(T, m)


cdef inline bint excluded(const Ctx* c, move_t m) noexcept nogil:
    """``m`` is left out of this ranking line: not the one move asked
    for, a root move already found (or its mirror image), or a move of a
    choice already found."""
    cdef int i
    if c.alone:
        return m != c.root_only
    if (c.skip_choices >> choice_bit(m)) & 1:
        return True
    for i in range(c.n_skip):
        if c.root_skip[i] == m:
            return True
    return False


cdef inline void update_pv(Ctx* c, int ply, move_t m) noexcept nogil:
    cdef move_t* row = c.pv + ply * MAX_PLY
    cdef move_t* below = c.pv + (ply + 1) * MAX_PLY
    cdef int j
    row[ply] = m
    for j in range(ply + 1, c.pv_len[ply + 1]):
        row[j] = below[j]
    c.pv_len[ply] = c.pv_len[ply + 1] if c.pv_len[ply + 1] > ply + 1 else ply + 1


# --------------------------------------------------------------------------
# Search context: per-ply buffers and the TT of one Searcher

cdef void ctx_alloc(Ctx* c, bint with_tt, int hash_mb) noexcept nogil:
    """Give a zeroed context its per-ply buffers and, ``with_tt``, a TT of
    the largest power-of-two bucket count that fits in ``hash_mb``
    megabytes (at least one bucket). A failed allocation leaves its pointer NULL (the caller
    checks); ``ctx_release`` frees whatever was allocated."""
    cdef uint64_t buckets = 1
    c.keys = <int64_t*>malloc(MAX_PLY * MAX_MOVES * sizeof(int64_t))
    c.pv = <move_t*>calloc(MAX_PLY * MAX_PLY, sizeof(move_t))
    c.pv_len = <int*>calloc(MAX_PLY + 1, sizeof(int))
    if with_tt:
        while buckets * 2 * 2 * sizeof(TTEntry) <= (<uint64_t>hash_mb) << 20:
            buckets *= 2
        c.tt = <TTEntry*>calloc(buckets * 2, sizeof(TTEntry))
        c.tt_mask = buckets - 1


cdef inline bint ctx_buffers_ok(const Ctx* c) noexcept nogil:
    return c.keys != NULL and c.pv != NULL and c.pv_len != NULL


cdef void ctx_release(Ctx* c) noexcept nogil:
    free(c.keys)
    free(c.pv)
    free(c.pv_len)
    free(c.tt)


# --------------------------------------------------------------------------
# Threads: helpers searching the same root, sharing the TT and the busy table

ctypedef struct Helper:
    Thread thread          # first: the launch and join harness's (_threads.pxd)
    Ctx c                  # own buffers and PV; tt, settings and deadline the main thread's
    CState root
    uint64_t key
    int first_depth
    int last_depth


cdef inline int iterate(Ctx* c, CState* s, uint64_t key, int d) noexcept nogil:
    """One iteration of the deepening at depth ``d``: the root in a full window."""
    return negamax(c, s, key, d, -INF, INF, 0)


cdef void* helper_main(void* arg) noexcept nogil:
    """A helper's own iterative deepening: it only fills the shared TT (its
    results are not read), until the main thread halts it or the limits stop it."""
    cdef Helper* h = <Helper*>arg
    cdef int d = h.first_depth
    while d <= h.last_depth:
        h.c.seldepth = 0
        iterate(&h.c, &h.root, h.key, d)
        if h.c.stop or atomic_load(h.c.halt):
            break
        d += 1
    return NULL


cdef void helper_setup(Helper* h, const Ctx* main, int* halt, const CState* root, uint64_t key,
                       int first_depth, int last_depth) noexcept nogil:
    """The helpers' prototype: the main context's settings, table and
    deadline (a copy of the whole Ctx, so a new option reaches the helpers
    too), zeroed counters and no buffers yet (``helper_init``)."""
    h.c = main[0]
    h.c.keys = NULL
    h.c.pv = NULL
    h.c.pv_len = NULL
    h.c.nodes = 0
    h.c.node_limit = 0
    h.c.stop = 0
    h.c.seldepth = 0
    h.c.halt = halt
    h.root = root[0]
    h.key = key
    h.first_depth = first_depth
    h.last_depth = last_depth


cdef bint helper_init(void* arg, int i) noexcept nogil:
    """The i-th helper from the prototype, with its own buffers; without the
    busy table odd ones start one ply deeper so the threads do not all
    search the same iteration. False when the buffers cannot be had."""
    cdef Helper* h = <Helper*>arg
    if h.c.busy == NULL:
        h.first_depth += (i + 1) % 2
    ctx_alloc(&h.c, False, 0)
    return ctx_buffers_ok(&h.c)


cdef int helpers_start(Helper* hs, int n, const Ctx* main, int* halt, const CState* root, uint64_t key,
                       int first_depth, int last_depth) noexcept nogil:
    """Set up and launch ``n`` helpers (``_threads.pxd``). Returns how many
    run (a helper whose buffers or thread cannot be had is left out)."""
    cdef Helper proto
    memset(&proto, 0, sizeof(Helper))
    helper_setup(&proto, main, halt, root, key, first_depth, last_depth)
    return helpers_launch(hs, n, sizeof(Helper), &proto, helper_init, helper_main)


cdef uint64_t helpers_finish(Helper* hs, int n, int* halt) noexcept nogil:
    """Halt and join the helpers, free their buffers; their node count."""
    cdef uint64_t nodes = 0
    cdef int i
    helpers_join(hs, n, sizeof(Helper), halt)
    for i in range(n):
        if hs[i].thread.started:
            nodes += hs[i].c.nodes
        hs[i].c.tt = NULL          # the main context's: not theirs to free
        ctx_release(&hs[i].c)
    return nodes


# --------------------------------------------------------------------------

def _line_value(line):
    return line[0]


cdef int _skip_with_aliases(move_t* skip, int n, move_t m, dict aliases) except -1:
    """Append ``m`` and its aliases to the skip list of ``n`` moves; the new length."""
    if n < MAX_MOVES:
        skip[n] = m
        n += 1
    if aliases is not None:
        for a in aliases.get(m, ()):
            if n < MAX_MOVES:
                skip[n] = a
                n += 1
    return n


cdef class Searcher:
    """A searcher: owns the TT and the per-ply buffers. Each ``run`` searches
    into the same table, so one searcher may serve the moves of a game
    (``alphabeta.KeptTable``). Limits are trusted (``alphabeta.py``
    validates them)."""

    cdef Ctx c
    cdef int halt              # the helpers' stop flag
    cdef int outside_halt      # the main thread's: ``interrupt()``, from another thread
    cdef uint64_t helper_nodes
    cdef int threads_used
    cdef public object partial  # (depth, value, pv, nodes, seldepth, None) of the interrupted iteration, or None

    def __cinit__(self, int hash_mb, *, bint tt, int placements, int prune_depth, int lmr, int rank_plies,
                  int leather):
        """Every option by keyword and none defaulted: ``alphabeta.OPTIONS``
        is the one table of defaults (``tt``: use a table of ``hash_mb``
        megabytes; ``placements``, ``prune_depth``, ``rank_plies``, ``lmr``,
        ``leather`` as documented there)."""
        memset(&self.c, 0, sizeof(Ctx))
        ctx_alloc(&self.c, tt, hash_mb)
        if tt and self.c.tt == NULL:
            raise MemoryError("transposition table")
        if not ctx_buffers_ok(&self.c):
            raise MemoryError("search buffers")
        self.c.placements = placements
        self.c.halt = &self.outside_halt
        self.c.prune_depth = prune_depth
        self.c.rank_plies = rank_plies
        self.c.lmr = lmr
        self.c.leather = leather
        self.threads_used = 1

    def __dealloc__(self):
        ctx_release(&self.c)

    def interrupt(self):
        """Stop this searcher's run (called from another thread; a run
        started after it stops at once): it answers as a time limit would."""
        atomic_store(&self.outside_halt, 1)

    def resume(self):
        """Undo ``interrupt()``: the next run searches (a kept searcher
        whose ponder was stopped: ``search/ponder.py``)."""
        atomic_store(&self.outside_halt, 0)

    @property
    def tt_entries(self):
        return (self.c.tt_mask + 1) * 2 if self.c.tt != NULL else 0

    def probe(self, CoreState position):
        """The table's entry for ``position``: (depth, value, bound, move
        code), the bound 'lower', 'upper' or 'exact'; None when the table
        holds none (or there is no table)."""
        cdef TTData e
        if self.c.tt == NULL or not tt_probe(self.c.tt, self.c.tt_mask, full_key(Z, &position.s), &e):
            return None
        return (e.depth, e.value, ("lower", "upper", "exact")[e.flag - 1], e.move)

    def run(self, CoreState root, int depth, uint64_t node_limit, double seconds, int first_depth=1,
            int workers=1, int multipv=1, on_iteration=None, asked=(), dict aliases=None):
        """Iterative deepening from ``first_depth`` to ``depth``, or to the
        first iteration that evaluates no leaf (its tree ends every line;
        ``Ctx.evals``). Returns a
        list of completed iterations: (depth, value, pv codes, nodes,
        seldepth, lines). An empty list means not even the first iteration
        finished within the limits. ``partial`` is then set to the same
        tuple (its ``lines`` None) for the iteration the limits interrupted,
        when at least one root move finished in it (else None).

        ``multipv`` > 1 ranks that many root moves (MultiPV, as Stockfish
        does): each iteration searches the best line, then the best line
        of the root moves not found yet, and so on, each at the same depth
        in a full window; the later lines range over every placement of
        the root (unpruned and unmerged, so every legal move can be
        ranked). Choices come first: while some choice (walking, a patch,
        the leather patch) has no line yet, the next line leaves out the
        moves of the choices already found; then further placements.
        ``aliases`` (a dict: move code -> codes of the moves equal to it,
        its mirror images) leaves out a found move's aliases too.
        ``asked`` (move codes) are valued in every iteration as lines
        of their own, each searched alone at the same depth, after the
        others, unless a line already starts with it (UCI's searchmoves,
        in addition): the value of a move asked about, on the same
        footing as the best. ``lines`` is [(value, pv codes, included),
        ...] sorted by value, best first (a stable sort: ties keep the
        order found); the iteration's value and pv are its first line's.
        An iteration counts as done only once all its lines are, so the
        lines of one entry are of one depth. With ``multipv=1`` and no
        ``asked``, ``lines`` is [(value, pv, False)] and the search is
        the plain one.

        ``on_iteration``, when given, is called with each entry as it is
        appended (between iterations, holding the GIL).

        ``workers`` > 1 adds that many threads less one (ABDADA): helpers
        searching the same root into the shared TT, halted when this
        (the main) thread is done; the answer is still the main thread's.
        They share no limit but the deadline and the stop flag, so the
        caller refuses a node limit with them (``alphabeta.py``)."""
        cdef CState s = root.s
        cdef uint64_t key = full_key(Z, &s)
        cdef int d, v, last, n_help = workers - 1 if workers > 1 else 0
        cdef list done = [], lines, pv
        cdef tuple entry
        cdef Helper* hs = NULL
        cdef move_t skip[MAX_MOVES]     # the lines' moves and their aliases: at most every root move
        cdef list wanted = [int(m) for m in asked]
        if not 1 <= multipv <= 256:
            raise ValueError("multipv must be between 1 and 256")
        if any(not 0 <= m < (1 << 16) for m in wanted) or len(wanted) > 256:
            raise ValueError("asked: at most 256 move codes in 0..65535")
        self.c.nodes = 0
        self.c.stop = 0
        self.c.gen = self.c.gen % GEN_MASK + 1     # 1..63: 0 is never a live entry's
        self.c.node_limit = node_limit
        self.c.deadline = monotonic_now() + seconds if seconds > 0 else 0.0
        self.c.n_skip = 0
        self.c.skip_choices = 0
        self.c.alone = 0
        self.c.root_skip = skip
        self.helper_nodes = 0
        self.threads_used = 1
        self.partial = None
        last = depth
        if n_help > 0 and not is_over(&s):
            hs = <Helper*>calloc(n_help, sizeof(Helper))
            self.halt = 0
            if hs != NULL:
                # the threads' shared table of the moves being searched; without
                # it (no memory) they fall back to Lazy SMP's skipped depths
                self.c.busy = <uint64_t*>calloc(BUSY_SLOTS, sizeof(uint64_t))
                with nogil:
                    self.threads_used += helpers_start(hs, n_help, &self.c, &self.halt, &s, key,
                                                       first_depth, last)
        try:
            d = first_depth
            while d <= last:
                self.c.seldepth = 0
                self.c.evals = 0
                with nogil:
                    v = iterate(&self.c, &s, key, d)
                if self.c.stop:
                    # root moves that finished before the stop searched d
                    # plies: the best of them (the previous best comes
                    # first) is the better-informed answer
                    if self.c.pv_len[0] > 0:
                        self.partial = (d, self.c.root_value,
                                        [self.c.pv[i] for i in range(self.c.pv_len[0])],
                                        self.c.nodes, self.c.seldepth, None)
                    break
                pv = [self.c.pv[i] for i in range(self.c.pv_len[0])]
                lines = [(v, pv, False)]
                if (multipv > 1 or wanted) and pv:
                    # the first line finished: the answer if the others do not
                    self.partial = (d, v, pv, self.c.nodes, self.c.seldepth, None)
                    self._more_lines(&s, key, d, multipv, lines, skip, aliases)
                    if not self.c.stop:
                        self._asked_lines(&s, key, d, wanted, lines)
                    if self.c.stop:
                        break
                    self.partial = None
                    lines.sort(key=_line_value, reverse=True)
                entry = (d, lines[0][0], lines[0][1], self.c.nodes, self.c.seldepth, lines)
                done.append(entry)
                if on_iteration is not None:
                    on_iteration(entry)
                if self.c.evals == 0:
                    # every line ran to the end of the game: a deeper iteration
                    # would search the same (pruned) tree again
                    break
                d += 1
        finally:
            self.c.n_skip = 0
            self.c.skip_choices = 0
            self.c.alone = 0
            self.c.root_skip = NULL
            if hs != NULL:
                with nogil:
                    self.helper_nodes = helpers_finish(hs, n_help, &self.halt)
                free(hs)
            free(self.c.busy)
            self.c.busy = NULL
        return done

    cdef int _more_lines(self, CState* s, uint64_t key, int d, int multipv, list lines, move_t* skip,
                         dict aliases) except -1:
        """The MultiPV lines after the first (``run``): choices first, then
        further placements; each line's move (and its aliases) is left out of
        the next ones. Stops early when the limits stop the search."""
        cdef int n = 0, v
        cdef move_t m = lines[0][1][0]
        n = _skip_with_aliases(skip, n, m, aliases)
        self.c.skip_choices = (<uint64_t>1) << choice_bit(m)
        while len(lines) < multipv:
            self.c.n_skip = n
            with nogil:
                v = iterate(&self.c, s, key, d)
            self.c.n_skip = 0
            if self.c.stop:
                break
            if self.c.pv_len[0] == 0:        # no move left
                if self.c.skip_choices == 0:
                    break
                self.c.skip_choices = 0       # every choice ranked: further placements
                continue
            m = self.c.pv[0]
            lines.append((v, [self.c.pv[i] for i in range(self.c.pv_len[0])], False))
            n = _skip_with_aliases(skip, n, m, aliases)
            if self.c.skip_choices != 0:
                self.c.skip_choices |= (<uint64_t>1) << choice_bit(m)
        self.c.skip_choices = 0

    cdef int _asked_lines(self, CState* s, uint64_t key, int d, list wanted, list lines) except -1:
        """A line for each move of ``wanted`` no line starts with, searched alone."""
        cdef int v
        cdef set found = {line[1][0] for line in lines}
        for m in wanted:
            if m in found or not is_legal(s, m):
                continue
            self.c.root_only = m
            self.c.alone = 1
            with nogil:
                v = iterate(&self.c, s, key, d)
            self.c.alone = 0
            if self.c.stop:
                break
            if self.c.pv_len[0] > 0:
                lines.append((v, [self.c.pv[i] for i in range(self.c.pv_len[0])], True))
                found.add(m)
        return 0

    @property
    def nodes(self):
        """Nodes of the last run, all threads."""
        return self.c.nodes + self.helper_nodes

    @property
    def threads(self):
        """Threads that searched in the last run (helpers that could not be
        started are not counted)."""
        return self.threads_used


# --------------------------------------------------------------------------
# Helpers for tests, benchmarks and tuning
# --------------------------------------------------------------------------

def key_of(CoreState s):
    """Zobrist key computed from scratch."""
    return full_key(Z, &s.s)


def child_key_of(CoreState s, uint64_t key, int move):
    """Zobrist key after ``move`` updated incrementally from ``key``."""
    cdef CState child = s.s
    apply_move(&child, move)
    return child_key(Z, key, &s.s, &child, move)


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


def ordered_moves(CoreState s, int placements, bint rank=False, int leather=0):
    """The moves of ``s`` in the searcher's order (buy gain, then placement
    badness, or with ``rank`` the evaluation after the placement), at most
    ``placements`` of each patch (0: all) and, below the root, ``leather``
    squares for a leather patch (0: all)."""
    cdef Ctx c
    cdef Picker pk
    cdef int64_t keys[MAX_MOVES]
    cdef move_t m
    cdef list out = []
    if is_over(&s.s):
        return out
    memset(&c, 0, sizeof(Ctx))
    c.placements = placements if placements > 0 else 0
    c.leather = leather if leather > 0 else 0
    picker_init(&c, &s.s, &pk, keys, -1, placements > 0, True, rank)
    m = picker_next(&c, &s.s, &pk)
    while m >= 0:
        out.append(m)
        m = picker_next(&c, &s.s, &pk)
    return out
