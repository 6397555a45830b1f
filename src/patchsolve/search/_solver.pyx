# cython: language_level=3
"""Exact endgame solver: null-window searches that converge on the value.

Python-facing validation, threads and progress live in ``solver.py``; the
structs (entry, context, helper) in ``_solver.pxd``.

Values
------
``search(s, alpha, beta)`` is a fail-soft negamax over the whole game tree
below ``s`` (no depth, no evaluation at the leaves): its value is the final
score margin for the player to move with the tie-break, negated only when
the player to move changes (Patchwork's turns do not alternate). A margin
of 0 is not a draw: on equal scores the first to reach 53 wins (RULES).
So a finished game is worth ``2 * margin + 1`` when the player to move in
the parent wins it and ``2 * margin - 1`` when it loses (``tie``): odd
numbers, ordered by the margin and then by the outcome (a margin above 0
is always a win, below 0 a loss; only 0 gives +1 or -1), whose sign is the
outcome. Every search orders moves by that one value, so among moves of
equal margin a win beats a loss; the exact value is the margin and who
wins, and one null window around 0 proves who wins. ``solver.py``
converts to margins at its boundary. Win/loss mode (``wdl``: ``sign_only``)
stops the driver once the sign is proven; ``tie=False`` values margins
alone, the tie-break ignored (measurements only:
benchmarks/results/tie_break/).

Driver (MTD(f) with proven bounds)
----------------------------------
The root keeps a proven interval ``[lo, hi]`` (from the static bounds
below to begin with). Each step is one null-window search at a test value
``gamma`` in the interval: failing high raises ``lo``, failing low lowers
``hi`` (fail-soft: by as much as the search proved). First, bracketing:
tests at the evaluation -+ 8, 4, 2 points (``spread``, in the solver's
units: 16, 8, 4 with the tie-break; cheap far from the value, and they
leave a narrow proven interval early, which is what a run out of budget
reports); then MTD(f) from the evaluation: later tests step from the last result, doubling the
step while it keeps failing the same way (so far-off guesses converge in a
few steps), and bisect once the interval is small. When the budget runs out
the interval is still proven: that is the answer's ``lower``/``upper``.

Transposition table
-------------------
Every value in this solver is exact to the end of the game, so a TT entry
holds both a proven lower and upper bound of its position (the intersection
of everything learnt about it), kept across the driver's steps and across
the root moves of ``solve_all``. Buckets of two 16-byte entries (stored
lockless, see "Threads"): one kept for the biggest subtree (log2 of its
nodes), one always replaced; the size
comes from ``hash_mb``. A TT move is played only after ``is_legal`` accepts
it, so a key collision never makes an illegal move. Once the 7x7 bonus is
decided the key ignores where a quilt's isolated holes lie (see "TT keys
that forget where the dead holes are"). The table sits on 2 MB pages where
Linux gives them, and each node prefetches its bucket before computing its
static bounds: the probe is mostly a cache miss.

Pruning (every one keeps the value exact; the tests check them)
---------------------------------------------------------------
- Static bounds: what a player can still score at most (buttons now, the
  income to come, one button a space walked, every patch of the circle worth
  its squares and income minus its cost and time, the leather patches ahead,
  the 7x7 bonus while free and those patches and leather can fill an open
  square) and at least (walking to the end). In a relaxed game the relaxed
  player's ceiling counts only what its relaxation allows (the patches that
  fitted, the squares they could use, the bonus threshold). When they
  settle a node against the window, it is not searched.
- Final buys: a buy that leaves its player on 53 with no leather patch to
  place is searched once per patch (twice if some placements take the 7x7
  bonus): that quilt never changes again.
- Relaxed-quilt group bounds: the placements of one patch lead to children
  that differ only in the mover's quilt; a relaxed game that ignores that
  quilt's geometry bounds the whole group from above (see "Relaxed quilts";
  its 7x7 bonus only once the patches bought can cover an open square,
  ``use_cover``, and a buy only if every patch bought can lie on the quilt
  together, ``use_pack``).
  Its relaxed game offers only the patches that still fit after at least
  one placement of the group's patch (``relax_pairs``). (Fit classes, which
  bounded again the placements leaving room for fewer of those patches,
  were removed once the packing test made them cost more nodes than they
  saved: benchmarks/results/solve_reach.md, round 4.)
- Enhanced transposition cut-offs (``use_etc``, off by default: they saved
  few nodes and cost time, benchmarks/results/solve_reach.md): before
  searching a node's moves, the TT is probed for the children of the first
  few moves; one already proven good enough cuts off the node.

Threads (Lazy SMP)
------------------
``Solver(..., threads=N)`` runs N-1 helper pthreads (``_threads.pxd``)
beside each ``solve`` that lasts ``HELPER_DELAY`` nodes (shorter calls end
alone: launching helpers with cold caches made the all-moves valuation's
many small calls slower on two threads than on one,
benchmarks/results/ranked_near_end.md): every helper runs the same driver on the root with
its own context (buffers, killers, history) and a little noise in the
order of placements (without it the threads search much the same tree: 2
threads took up to 1.7x the time, benchmarks/results/solve_reach.md), into
the shared table, whose entries are stored as (key ^ data, data) so a torn
entry fails its key test. The first helper, once it has searched
``STALL_NODES`` without an answer, brackets again from -+ 32 around its
interval: where the test near the value does not end in the budget, the
cheap far tests still leave a narrow proven interval. The first thread
to close the interval stops the others; the answer is the intersection of
every thread's proven interval. ``probe`` (the PV's and the all-moves'
tests) stays on one thread.

Move ordering: the TT move first, then the ply's killer (the last move that
cut off at that ply; with no TT move it is searched before the moves are
generated, so a cut-off by it saves generating and ordering them), then by
``buy_gain`` (squares, cost, time and income of a buy), by how well a
placement hugs the quilt, and by the history of
cut-offs (log2 of a move code's cut-offs so far). Killer and history saved
a fifth of the nodes to exact values on the reach set's first buckets
(benchmarks/results/solve_reach.md).
"""

from libc.stdint cimport uint64_t, int64_t, uint32_t, int16_t, int8_t, uint16_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset

from patchsolve._core cimport (
    CState, Tables, u128, move_t, CoreState,
    get_tables, popcount128, to_move, is_over, gen_moves, apply_move, score, is_legal, winner,
    move_mask_of, move_patch_of, mix64, monotonic_now, limits_reached, margin,
    completes_bonus, affordable_ahead,
    ps_ctz128, ps_popcount64, ps_bit128, income_ahead,
    MAX_MOVES, LAST_SPACE, BOARD_SQUARES, BUY_SHIFT, MOVE_WALK, N_PATCHES,
    BONUS_POINTS, N_SQUARES7, PATCHES_AHEAD, EMPTY_PENALTY,
)
# The evaluation is the driver's first guess only; the placement scores order moves.
from patchsolve.search._eval cimport evaluate
from patchsolve.search._quilt cimport neighbours, placement_badness
from patchsolve.search._search cimport INF, MAX_PLY, CHECK_EVERY, limit_hit
from patchsolve.search._zobrist cimport ZTables, get_zobrist, full_key, child_key
from patchsolve.search._order cimport (
    key_move, select_best, next_move, buy_gain, is_final_buy,
)
from patchsolve.search._packing cimport (
    cover_square, pack_all, patch_fits, fits_after_any, dead_regions, set_area,
)
from patchsolve.search._threads cimport (
    atomic_load, atomic_store, load64, entry_read, entry_write, helpers_launch, helpers_join,
)

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* The table is probed at random: on Linux it is an anonymous mapping
       (zero, and only the pages touched are committed, like calloc) that
       asks for 2 MB pages, which saves most of the TLB misses of 4 kB ones.
       ps_table_free releases it with the size it was allocated with. */
    static void* ps_table_alloc(size_t n) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (n >= ((size_t)2 << 20)) {
            void* p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED)
                return NULL;
            madvise(p, n, MADV_HUGEPAGE);
            return p;
        }
    #endif
        return calloc(n, 1);
    }
    static void ps_table_free(void* p, size_t n) {
        if (p == NULL)
            return;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (n >= ((size_t)2 << 20)) {
            munmap(p, n);
            return;
        }
    #endif
        free(p);
    }
    static inline int ps_log2(unsigned long long n) {
        return n > 1 ? 63 - __builtin_clzll(n) : 0;
    }
    static inline void ps_prefetch(const void* p) {
    #if defined(__GNUC__)
        __builtin_prefetch(p);
    #endif
    }
    """
    void* ps_table_alloc(size_t n) nogil
    void ps_table_free(void* p, size_t n) nogil
    void ps_prefetch(const void* p) noexcept nogil
    int ps_log2(uint64_t n) noexcept nogil


cdef enum:
    ETC_MOVES = 8          # enhanced transposition cut-offs: children probed per node
    NOISE_MASK = 3         # Lazy SMP helpers: placement badness noise, 0..NOISE_MASK


cdef const Tables* T = get_tables()
cdef u128 FULL = T.full
cdef const ZTables* Z = get_zobrist()
# --------------------------------------------------------------------------
# Transposition table: proven [lo, hi] per position
# --------------------------------------------------------------------------
#
# The entry (``Entry``, ``EntryData``) is declared in ``_solver.pxd``.

cdef inline bint tt_read(const Entry* e, uint64_t key, EntryWord* out) noexcept nogil:
    """Copy the entry once (``out`` always gets it) and accept it only when
    it is used and its key matches."""
    return entry_read(e, key, &out.u) and out.d.used


cdef inline bint tt_probe(const Entry* tt, uint64_t mask, uint64_t key, EntryData* out) noexcept nogil:
    cdef const Entry* b = &tt[(key & mask) * 2]
    cdef EntryWord w
    if tt_read(&b[0], key, &w) or tt_read(&b[1], key, &w):
        out[0] = w.d
        return True
    return False


cdef inline int log2_work(uint64_t n) noexcept nogil:
    """floor(log2(n)), 0 for n <= 1 (one instruction: it runs per move ordered)."""
    return ps_log2(n)


cdef inline void tt_store(Entry* tt, uint64_t mask, uint64_t key, int lo, int hi, move_t move,
                          uint64_t nodes) noexcept nogil:
    """Intersect with what the table knows of ``key`` (every bound is about
    the same exact value), else take the always-replace slot unless the
    kept slot holds a smaller subtree. Two threads storing the same entry
    at once may lose one's bounds, never mix them: each writes the
    intersection of bounds it read whole."""
    cdef Entry* b = &tt[(key & mask) * 2]
    cdef Entry* e
    cdef EntryWord w, w0, w1
    cdef int wk = log2_work(nodes)
    if tt_read(&b[0], key, &w0):
        e = &b[0]
        w = w0
    elif tt_read(&b[1], key, &w1):
        e = &b[1]
        w = w1
    else:
        e = &b[0] if (not w0.d.used or wk >= w0.d.work) else &b[1]
        w.u = load64(&e.data)         # a new entry keeps the slot's old move: played only if legal
        w.d.lo = -INF
        w.d.hi = INF
        w.d.used = 1
        w.d.work = 0
    if lo > w.d.lo:
        w.d.lo = lo
    if hi < w.d.hi:
        w.d.hi = hi
    if w.d.lo > w.d.hi:    # cannot happen with exact values; keep the entry sane regardless
        w.d.lo = lo
        w.d.hi = hi
    if move >= 0:
        w.d.move = <uint16_t>move
    if wk > w.d.work:
        w.d.work = wk
    entry_write(e, key, w.u)


# --------------------------------------------------------------------------
# TT keys that forget where the dead holes are
# --------------------------------------------------------------------------
#
# An empty square with no empty neighbour can only ever be covered by a
# leather patch (every circle patch has two squares or more, and a patch
# lies inside one connected empty region). Once the 7x7 bonus is decided,
# where such holes lie no longer matters: two positions whose quilts cover
# the same squares apart from their isolated holes, with as many holes,
# have the same legal placements forever (a leather patch goes on any empty
# square, and a hole in one maps to a hole in the other), so the same value.
# The table key therefore counts each quilt's holes as covered and adds
# their number. Brute force checks it (tests/test_solver_keys.py).

cdef uint64_t DEAD_SALT = 0x6A09E667F3BCC909ULL


cdef uint64_t BOUGHT_SALT = 0xBB67AE8584CAA73BULL

# A player on the last space never moves again: its quilt is final, and its
# score is its buttons less two per empty square, plus the bonus if it owns
# it (a quilt with a 7x7 square that does not own the bonus never will). So
# the key keeps only its number of empty squares, not where they lie, nor
# its income (no income space is left). Brute force checks it
# (tests/test_solver_keys.py).
cdef uint64_t DONE_SALT = 0x3C6EF372FE94F82BULL ^ 0x510E527FADE682D1ULL
cdef uint64_t ZQ_ALL[2]       # the keys of all of a quilt's squares, per player
ZQ_ALL[0] = 0
ZQ_ALL[1] = 0
for _sq in range(BOARD_SQUARES):
    ZQ_ALL[0] ^= Z.q[0][_sq]
    ZQ_ALL[1] ^= Z.q[1][_sq]


cdef inline bint bought_matters(const Ctx* c, int p, bint bonus_open) noexcept nogil:
    """Whether a relaxed ``p``'s value depends on what it bought since the
    relaxation began (and so on its quilt then): always with the packing
    test, with the cover test while the bonus is open and within its reach."""
    return c.use_pack or (c.use_cover and bonus_open and c.thr[p] <= BOARD_SQUARES)


cdef inline uint64_t tt_key(const Ctx* c, const CState* s, uint64_t key, int ply, int rmask) noexcept nogil:
    """The TT key of ``s`` (``key`` is its Zobrist key) at ``ply`` with the
    players of ``rmask`` relaxed."""
    cdef int p, n, done = 0
    cdef u128 empty, holes, q
    for p in range(2):
        if (rmask >> p) & 1 and bought_matters(c, p, s.bonus < 0):
            key ^= mix64(BOUGHT_SALT + <uint64_t>p ^ c.rb[ply][p] ^ (<uint64_t>c.rl[ply][p] << 40))
        elif c.use_done_keys and s.time[p] >= LAST_SPACE and s.pending != p and not (rmask >> p) & 1:
            done |= 1 << p
            # the covered squares' keys, as all squares' less the empty ones' (fewer near the end)
            key ^= ZQ_ALL[p]
            q = FULL & ~s.quilt[p]
            while q:
                key ^= Z.q[p][ps_ctz128(q)]
                q &= q - 1
            key ^= Z.inc[p][s.income[p] & 127] ^ mix64(DONE_SALT + <uint64_t>(2 * popcount128(s.quilt[p]) + p))
    if not c.use_dead_keys or s.bonus < 0:
        return key
    for p in range(2):
        if (done >> p) & 1:
            continue
        empty = FULL & ~s.quilt[p]
        holes = empty & ~neighbours(empty)
        n = 0
        while holes:
            key ^= Z.q[p][ps_ctz128(holes)]
            holes &= holes - 1
            n += 1
        if n:
            key ^= mix64(DEAD_SALT + <uint64_t>(2 * n + p))
    return key


# --------------------------------------------------------------------------
# Context
# --------------------------------------------------------------------------
#
# ``Ctx`` and the cover cache's ``CoverSlot`` are declared in ``_solver.pxd``.

cdef bint ctx_buffers(Ctx* c) noexcept nogil:
    """Allocate a context's own buffers (the main thread's and each
    helper's); False when one cannot be had (``ctx_free`` still frees the rest)."""
    c.moves = <move_t*>malloc(MAX_PLY * MAX_MOVES * sizeof(move_t))
    c.keys = <int64_t*>malloc(MAX_PLY * MAX_MOVES * sizeof(int64_t))
    c.hist = <uint32_t*>calloc(1 << 16, sizeof(uint32_t))
    c.cover = <CoverSlot*>calloc(COVER_SLOTS, sizeof(CoverSlot))
    return c.moves != NULL and c.keys != NULL and c.hist != NULL and c.cover != NULL


cdef void ctx_free(Ctx* c) noexcept nogil:
    free(c.moves)
    free(c.keys)
    free(c.hist)
    free(c.cover)


cdef inline int leaf(const Ctx* c, const CState* s, int p) noexcept nogil:
    """A finished game's value for ``p`` (see "Values")."""
    cdef int m = margin(s, p)
    if not c.tie:
        return m
    return 2 * m + (1 if winner(s) == p else -1)


# --------------------------------------------------------------------------
# Static bounds: what each player can still score at most / at least
# --------------------------------------------------------------------------

cdef inline int score_floor(const CState* s, int q) noexcept nogil:
    """``q`` can always walk to 53: one button a space, the income to come,
    and a pending leather patch placed (+2)."""
    cdef int left = LAST_SPACE - s.time[q]
    return (score(s, q) + left + s.income[q] * income_ahead(T, s.time[q])
            + (EMPTY_PENALTY if s.pending == q else 0))


cdef inline int bonus_need(u128 quilt) noexcept nogil:
    """The fewest squares an open 7x7 square of ``quilt`` lacks."""
    cdef int i, m, best = BOARD_SQUARES + 1
    for i in range(N_SQUARES7):
        m = popcount128(T.square7[i] & ~quilt)
        if m < best:
            best = m
    return best


# A patch's terms in ``score_ceiling`` for a player on each space (its
# worth, the part of it beyond its squares, its travel less 1), computed once.
cdef int16_t WORTH[LAST_SPACE + 1][N_PATCHES]
cdef int16_t REST[LAST_SPACE + 1][N_PATCHES]
cdef int8_t TRAV1[LAST_SPACE + 1][N_PATCHES]


cdef void fill_worths() noexcept nogil:
    cdef int t, pid, left, trav, rest
    for t in range(LAST_SPACE + 1):
        left = LAST_SPACE - t
        for pid in range(N_PATCHES):
            trav = T.patch_time[pid] if T.patch_time[pid] < left else left
            rest = T.patch_income[pid] * income_ahead(T, t) - T.patch_cost[pid] - trav
            REST[t][pid] = rest
            WORTH[t][pid] = EMPTY_PENALTY * T.patch_size[pid] + rest
            TRAV1[t][pid] = trav - 1


fill_worths()


cdef int score_ceiling(const CState* s, int q, uint64_t allowed, int unusable, int need) noexcept nogil:
    """An upper bound on ``q``'s final score. Walking pays exactly one
    button a space; a buy instead moves its time (its travel) and is worth
    ``2 size + income * income spaces ahead - cost - travel`` on top. Every
    travel but the last is the patch's time, the last at least 1, so the
    buys add at most the sum of the positive worths of the patches left plus
    the longest travel - 1 (also at most twice the empty squares plus the
    positive non-square parts); one can buy at most one patch a space left.
    Leather patches ahead add 2 each (at most one per empty square), the 7x7
    bonus 7 while free. Only the patches of ``allowed`` (a set of patch ids)
    can still be bought, on at most all but ``unusable`` empty squares, and
    the bonus only if they and the leather ahead add at least ``need``
    squares (what a relaxed game fixed, or the emptiest open 7x7 square)."""
    cdef int t = s.time[q], left = LAST_SPACE - t, ia = income_ahead(T, t)
    cdef int empty = BOARD_SQUARES - popcount128(s.quilt[q])
    cdef int i, pid, w, rest, sum_pos = 0, sum_rest = 0, corr = 0, gain, nl
    cdef uint64_t ahead
    cdef int top[4]
    cdef int k, j, topsum, squares = 0
    cdef int ntop = left if left < 4 else 0   # the largest worths kept: buys are at most one a space left
    gain = 0
    if left > 0 and empty > 0:
        for k in range(4):
            top[k] = 0
        for i in range(s.n_circle):
            pid = s.circle[i]
            if not (allowed >> pid) & 1:
                continue
            squares += T.patch_size[pid]
            rest = REST[t][pid]
            w = WORTH[t][pid]
            if TRAV1[t][pid] > corr:
                corr = TRAV1[t][pid]
            if w > 0:
                sum_pos += w
                for k in range(ntop):
                    if w > top[k]:
                        for j in range(ntop - 1, k, -1):
                            top[j] = top[j - 1]
                        top[k] = w
                        break
            if rest > 0:
                sum_rest += rest
        if left < 4:
            topsum = 0
            for k in range(ntop):
                topsum += top[k]
            if topsum < sum_pos:
                sum_pos = topsum
        gain = sum_pos
        if EMPTY_PENALTY * (empty - unusable) + sum_rest < gain:
            gain = EMPTY_PENALTY * (empty - unusable) + sum_rest
        gain += corr
    nl = (1 if s.pending == q else 0)
    if left > 0:
        ahead = s.leather >> (t + 1)
        nl += ps_popcount64(ahead)
    if nl > empty:
        nl = empty
    gain += EMPTY_PENALTY * nl
    # the bonus only if the patches left and the leather ahead can fill it
    if s.bonus < 0 and empty > 0 and squares + nl >= need:
        gain += BONUS_POINTS
    return score(s, q) + left + s.income[q] * ia + gain


cdef inline int ceiling(const Ctx* c, const CState* s, int q, int rmask) noexcept nogil:
    """``score_ceiling`` of ``q``, relaxed (``rmask``) or not: a relaxed
    player buys only the patches that fitted when its relaxation began, on
    the squares some patch could use then, and takes the bonus only if its
    threshold can be reached."""
    if (rmask >> q) & 1:
        return score_ceiling(s, q, c.fits[q], c.unusable[q],
                             c.thr[q] - popcount128(s.quilt[q]) if c.thr[q] <= BOARD_SQUARES else INF)
    return score_ceiling(s, q, ~(<uint64_t>0), 0, bonus_need(s.quilt[q]) if s.bonus < 0 else 0)


cdef inline void static_bounds(const Ctx* c, const CState* s, int p, int rmask, int* lo, int* hi) noexcept nogil:
    """Proven bounds on the value of ``s`` for ``p`` (in the solver's
    units; of the relaxed game when ``rmask`` relaxes a player). With the
    tie-break, a margin bound's side of 0 says the outcome (a margin of at
    least 1 wins, at most -1 loses), and once a player stands on 53 first
    it wins a margin of 0."""
    cdef int l = score_floor(s, p) - ceiling(c, s, 1 - p, rmask)
    cdef int h = ceiling(c, s, p, rmask) - score_floor(s, 1 - p)
    if c.tie:
        l = 2 * l + 1 if l > 0 or (l == 0 and s.first_end == p) else 2 * l - 1
        h = 2 * h - 1 if h < 0 or (h == 0 and s.first_end == 1 - p) else 2 * h + 1
    lo[0] = l
    hi[0] = h


# --------------------------------------------------------------------------
# Move ordering and final-buy merging
# --------------------------------------------------------------------------

cdef inline int64_t order_key(int gain, int bad, int hist, move_t m) noexcept nogil:
    """Gain first, then badness, then history (0..15)."""
    return ((<int64_t>(gain * 4096 - bad * 16 + hist + (1 << 28))) << 32) | <uint32_t>m


cdef inline int hist_rank(const Ctx* c, move_t m) noexcept nogil:
    """0..15: log2 of the cut-offs ``m`` made so far."""
    cdef int w
    if not c.use_hist:
        return 0
    w = log2_work(c.hist[m & 0xFFFF])
    return w if w < 15 else 15


cdef int order_moves(Ctx* c, const CState* s, const move_t* moves, int n, int64_t* keys,
                     move_t ttmove, move_t killer) noexcept nogil:
    """Ordering keys of ``moves`` (TT move first, then the ply's killer --
    the last move that cut off at this ply --, then buy gain, placement
    badness and the history of cut-offs), equivalent final buys merged.
    Returns the count."""
    cdef int p = to_move(s)
    cdef int i, k = 0, pid, gain, bad, slot
    cdef move_t m
    cdef u128 mask
    cdef uint64_t seen[2]           # final buys met, per patch, by whether they take the bonus
    cdef int pgain[N_PATCHES]       # per patch, computed once: its buy gain
    cdef int8_t pfinal[N_PATCHES]   # ... and whether it is a final buy (-1: not yet known)
    seen[0] = 0
    seen[1] = 0
    memset(pfinal, -1, sizeof(pfinal))
    for i in range(n):
        m = moves[i]
        pid = move_patch_of(T, m)
        if m == ttmove:
            gain = 100000
            bad = 0
        elif m == killer and c.use_hist:
            gain = 99999
            bad = 0
        elif m == MOVE_WALK:
            gain = 0
            bad = 0
        else:
            mask = move_mask_of(T, m)
            if pid >= 0:
                if pfinal[pid] < 0:
                    pfinal[pid] = is_final_buy(T, s, p, pid)
                    pgain[pid] = buy_gain(T, s, p, pid)
                if pfinal[pid]:
                    slot = completes_bonus(T, s, s.quilt[p] | mask)
                    if (seen[slot] >> pid) & 1:
                        continue
                    seen[slot] |= (<uint64_t>1) << pid
                gain = pgain[pid]
            else:
                gain = BONUS_POINTS if completes_bonus(T, s, s.quilt[p] | mask) else 0
            bad = placement_badness(s.quilt[p], mask)
        if c.noise and gain < 99999:
            # a helper orders placements of one buy a little differently
            # from the main thread, so the threads do not search the same tree
            bad += <int>(mix64(c.noise ^ <uint64_t>m) & NOISE_MASK)
        keys[k] = order_key(gain, bad, hist_rank(c, m), m)
        k += 1
    return k


# --------------------------------------------------------------------------
# Relaxed quilts: an exact upper bound for a whole group of placements
# --------------------------------------------------------------------------
#
# The placements of one patch (or the squares of one leather patch) by p
# lead to children that differ only in p's quilt. Ignoring the geometry of
# p's quilt from there on -- any patch fits while it has no more squares
# than p's quilt has usable empty ones, a leather patch goes anywhere, and p
# takes the free 7x7 bonus as soon as p covers enough squares -- only gives
# p more options and an earlier bonus and takes nothing from the opponent,
# so the relaxed value R of the group bounds every placement in it from
# above: when R <= alpha the rest of the group is skipped. The relaxed game
# is searched by the same negamax with bit p set in ``rmask`` (its TT keys
# are salted by what the relaxation fixed). The quilt geometry it asks
# about (covers, packings, what still fits) is ``_packing.pyx``'s.

cdef uint64_t ZRELAX[4]
ZRELAX[0] = 0
ZRELAX[1] = 0x9D39247E33776D41ULL
ZRELAX[2] = 0x2AF7398005AAA5C7ULL
ZRELAX[3] = 0x44DB015024623547ULL

cdef enum:
    LEATHER_GROUP = N_PATCHES
    N_GROUPS = N_PATCHES + 1


cdef inline int group_of(move_t m) noexcept nogil:
    if m == MOVE_WALK:
        return -1
    if m <= BOARD_SQUARES:
        return LEATHER_GROUP
    return move_patch_of(T, m)


cdef inline move_t relaxed_code(const CState* s, int p, int group) noexcept nogil:
    if group == LEATHER_GROUP:
        return ps_ctz128(FULL & ~s.quilt[p]) + 1
    return ((T.patch_og_start[group] + 1) << BUY_SHIFT)


cdef inline u128 low_squares(int n) noexcept nogil:
    return (ps_bit128(n) - 1) if n > 0 else 0


cdef inline void relaxed_apply(Ctx* c, CState* s, int p, move_t m, int ply) noexcept nogil:
    """Play ``m`` for the relaxed ``p``, whose quilt is kept canonical (its
    first squares covered) so relaxed positions share TT entries; ``ply``
    is the child's, whose bought set and leather count (inherited from the
    parent) get the move's patch."""
    cdef u128 q = s.quilt[p]
    if m > BOARD_SQUARES:
        s.quilt[p] = 0
        apply_move(s, m)
        s.quilt[p] = low_squares(popcount128(q) + T.patch_size[move_patch_of(T, m)])
        if s.pending == p and s.quilt[p] == FULL:
            s.pending = -1
        c.rb[ply][p] |= (<uint64_t>1) << move_patch_of(T, m)
    else:
        apply_move(s, m)
        s.quilt[p] = low_squares(popcount128(s.quilt[p]))
        if m != MOVE_WALK:
            c.rl[ply][p] += 1
    if (m != MOVE_WALK and s.bonus < 0 and popcount128(s.quilt[p]) >= c.thr[p]
            and (not c.use_cover or bonus_coverable(c, p, ply))):
        s.bonus = p


cdef inline void inherit(Ctx* c, int ply) noexcept nogil:
    """The relaxed players' bought sets and leather counts of ply + 1 (a
    child about to be made) start as those of ``ply``."""
    c.rb[ply + 1][0] = c.rb[ply][0]
    c.rb[ply + 1][1] = c.rb[ply][1]
    c.rl[ply + 1][0] = c.rl[ply][0]
    c.rl[ply + 1][1] = c.rl[ply][1]


# The 7x7 bonus in a relaxed game: counting squares alone, the relaxed
# player would take it as soon as it has covered as many squares as the
# emptiest open 7x7 square lacks (``thr``), whichever patches it bought:
# often 7 too many for the bound (benchmarks/results/solve_reach.md, round
# 4). So the relaxed player takes it only once, in addition, the patches it
# has bought since the relaxation began and the leather patches it has
# placed can cover some open square's empty squares, each lying on empty
# squares of its quilt as it was then (``rq``): any real game of the group
# that completes a square has bought and placed such patches by then, so
# the relaxed value still bounds it. A depth-first search answers that
# (``_packing.cover_square``; it gives up after COVER_STEPS steps and then
# grants the bonus: sound), and its answers are cached per thread. A
# relaxed position's value now depends on its bought sets, so they salt its
# TT key while the bonus is open (and ``rq`` salts the relaxation's, see
# ``relax_salt``).

cdef inline uint64_t quilt_key(u128 empty, uint64_t what) noexcept nogil:
    """A cache key (odd: 0 marks an empty slot) for ``what`` asked of a
    quilt with these empty squares."""
    return mix64(<uint64_t>empty ^ mix64(<uint64_t>(empty >> 64) ^ mix64(what))) | 1


cdef bint bonus_coverable(Ctx* c, int p, int ply) noexcept nogil:
    """Can the relaxed ``p``'s bought patches and placed leather (at ``ply``)
    cover an open 7x7 square of its quilt as it was when relaxed?
    ``cover_square``, cached per context (the same relaxation meets the
    same bought sets again and again)."""
    cdef uint64_t key = quilt_key(c.rq[p], c.rb[ply][p] ^ (<uint64_t>c.rl[ply][p] << 40))
    cdef CoverSlot* slot = &c.cover[key & (COVER_SLOTS - 1)]
    c.cover_calls += 1
    if slot.key != key:
        c.cover_searches += 1
        slot.key = key
        slot.yes = cover_square(c.rq[p], c.rb[ply][p], c.rl[ply][p])
    return slot.yes


# Packing in a relaxed game: the relaxed player may buy a patch only if it
# and every patch it bought since the relaxation began can all lie, without
# overlap, on the empty squares of its quilt as it was then (``rq``): any
# real game of the group places them so. A depth-first search answers that
# (``_packing.pack_all``; it gives up after COVER_STEPS steps and then
# allows the buy: sound); its answers share the cover cache (salted).

cdef uint64_t PACK_SALT = 0x3C6EF372FE94F82BULL


cdef bint packable(Ctx* c, int p, int ply, int pid) noexcept nogil:
    """May the relaxed ``p`` (at ``ply``) buy ``pid`` on top of what it bought?"""
    cdef uint64_t todo = c.rb[ply][p] | ((<uint64_t>1) << pid)
    cdef uint64_t key
    cdef CoverSlot* slot
    if not (todo & (todo - 1)):
        return True                # one patch: it fitted when the relaxation began
    if set_area(todo) > popcount128(c.rq[p]):
        return False
    key = quilt_key(c.rq[p], todo ^ PACK_SALT)
    slot = &c.cover[key & (COVER_SLOTS - 1)]
    c.pack_calls += 1
    if slot.key != key:
        c.pack_searches += 1
        slot.key = key
        slot.yes = pack_all(c.rq[p], todo)
    return slot.yes


cdef int gen_relaxed(Ctx* c, const CState* s, int p, move_t* out, int ply) noexcept nogil:
    cdef int n = 1, k, na, pid
    cdef int ahead[PATCHES_AHEAD]
    cdef int empty = BOARD_SQUARES - popcount128(s.quilt[p]) - c.unusable[p]
    if s.pending >= 0:
        out[0] = relaxed_code(s, p, LEATHER_GROUP)
        return 1
    out[0] = MOVE_WALK
    na = affordable_ahead(T, s, p, ahead)
    for k in range(na):
        pid = ahead[k]
        if T.patch_size[pid] <= empty \
                and (c.fits[p] >> pid) & 1 and (not c.use_pack or packable(c, p, ply, pid)):
            out[n] = relaxed_code(s, p, pid)
            n += 1
    return n


cdef int bonus_threshold(const CState* s, int p, u128 dead, int leather) noexcept nogil:
    cdef u128 empty = FULL & ~s.quilt[p]
    cdef int i, m, best = 99
    if s.bonus >= 0:
        return BOARD_SQUARES + 1
    for i in range(N_SQUARES7):
        m = popcount128(T.square7[i] & empty)
        if m < best and popcount128(T.square7[i] & dead) <= leather:
            best = m
    if best == 99:
        return BOARD_SQUARES + 1
    return popcount128(s.quilt[p]) + best


cdef void relax_base(const CState* s, int p, RelaxBase* b) noexcept nogil:
    """What a relaxation of ``p`` from ``s`` starts from (the same for
    every group of the node, so computed once a node)."""
    cdef int k, leather
    cdef u128 dead
    b.fits = 0
    for k in range(s.n_circle):
        if patch_fits(s.quilt[p], s.circle[k]):
            b.fits |= (<uint64_t>1) << s.circle[k]
    dead = dead_regions(FULL & ~s.quilt[p], b.fits)
    leather = ps_popcount64(s.leather) + (1 if s.pending == p else 0)
    b.unusable = popcount128(dead) - leather
    if b.unusable < 0:
        b.unusable = 0
    b.thr = bonus_threshold(s, p, dead, leather)
    b.ready = 1


cdef inline void relax_begin(Ctx* c, const CState* s, int p, RelaxBase* b) noexcept nogil:
    if not b.ready:
        relax_base(s, p, b)
    c.fits[p] = b.fits
    c.unusable[p] = b.unusable
    c.thr[p] = b.thr
    c.rq[p] = FULL & ~s.quilt[p]


cdef inline uint64_t relax_salt(Ctx* c, int p, int rmask, int r2) noexcept nogil:
    return (ZRELAX[rmask] ^ ZRELAX[r2]
            ^ mix64(c.fits[p] ^ (<uint64_t>c.thr[p] << 40) ^ (<uint64_t>c.unusable[p] << 48)
                  ^ (<uint64_t>(p + 1) << 56))
            ^ (mix64(<uint64_t>c.rq[p] ^ mix64(<uint64_t>(c.rq[p] >> 64) + <uint64_t>p))
               if bought_matters(c, p, True) else 0))


cdef int group_bound(Ctx* c, const CState* s, uint64_t key, int p, int group, int alpha,
                     int ply, int rmask, RelaxBase* base) noexcept nogil:
    """Fail-soft value of the relaxed game after ``group``, null window at
    alpha."""
    cdef CState child = s[0]
    cdef int r2 = rmask | (1 << p), v
    cdef int old_thr = c.thr[p]
    cdef uint64_t old_fits = c.fits[p]
    cdef int old_unusable = c.unusable[p]
    cdef u128 old_rq = c.rq[p]
    cdef move_t m = relaxed_code(s, p, group)
    cdef uint64_t ck
    relax_begin(c, s, p, base)
    if c.relax_pairs and group != LEATHER_GROUP:
        c.fits[p] = fits_after_any(s.quilt[p], group, c.fits[p] & ~((<uint64_t>1) << group))
    inherit(c, ply)
    c.rb[ply + 1][p] = 0
    c.rl[ply + 1][p] = 0
    relaxed_apply(c, &child, p, m, ply + 1)
    c.nodes += 1
    if is_over(&child):
        v = leaf(c, &child, p)
    else:
        ck = child_key(Z, key, s, &child, m) ^ relax_salt(c, p, rmask, r2)
        v = child_value(c, &child, ck, alpha, alpha + 1, ply + 1, to_move(&child) == p, r2)
    c.thr[p] = old_thr
    c.fits[p] = old_fits
    c.unusable[p] = old_unusable
    c.rq[p] = old_rq
    return v


# --------------------------------------------------------------------------
# Negamax
# --------------------------------------------------------------------------

cdef inline int child_value(Ctx* c, CState* child, uint64_t key, int alpha, int beta,
                            int ply, bint same, int rmask) noexcept nogil:
    if same:
        return search(c, child, key, alpha, beta, ply, rmask)
    return -search(c, child, key, -beta, -alpha, ply, rmask)


cdef inline void make_child(Ctx* c, const CState* s, CState* child, int p, move_t m,
                            bint relaxed, int ply) noexcept nogil:
    child[0] = s[0]
    inherit(c, ply)
    if relaxed:
        relaxed_apply(c, child, p, m, ply + 1)
    else:
        apply_move(child, m)


cdef int search_move(Ctx* c, const CState* s, uint64_t key, move_t m, int p, bint relaxed,
                     int alpha, int beta, int ply, int rmask) noexcept nogil:
    cdef CState child
    make_child(c, s, &child, p, m, relaxed, ply)
    if is_over(&child):
        c.nodes += 1
        return leaf(c, &child, p)
    return child_value(c, &child, child_key(Z, key, s, &child, m), alpha, beta, ply + 1,
                       to_move(&child) == p, rmask)


cdef int etc_probe(Ctx* c, const CState* s, uint64_t key, int64_t* keys, int n, int p,
                   bint relaxed, int beta, int ply, move_t* cutmove) noexcept nogil:
    """Enhanced transposition cut-off: the best value (for ``p``) that the
    TT already proves for one of the first children, -INF if none."""
    cdef int i, v, best = -INF
    cdef CState child
    cdef EntryData e
    cdef move_t m
    for i in range(n if n < ETC_MOVES else ETC_MOVES):
        m = next_move(keys, i, n)
        make_child(c, s, &child, p, m, relaxed, ply)
        if is_over(&child):
            continue
        if not tt_probe(c.tt, c.tt_mask, tt_key(c, &child, child_key(Z, key, s, &child, m), ply + 1, 0), &e):
            continue
        v = e.lo if to_move(&child) == p else -e.hi
        if v > best:
            best = v
            cutmove[0] = m
            if v >= beta:
                return v
    return best


cdef inline bint skipped(const Ctx* c, move_t m) noexcept nogil:
    """``m`` is left out at the root (``Ctx.root_skip``)."""
    return m >= 0 and (c.root_skip[m >> 6] >> (m & 63)) & 1


cdef int search(Ctx* c, CState* s, uint64_t key, int alpha, int beta, int ply,
                int rmask) noexcept nogil:
    """Value of ``s`` (not over) for its player to move, fail-soft."""
    cdef int p, n = 0, i, v, best = -INF, alpha0, beta0, g, searched = 0, slo, shi
    cdef bint relaxed, bounds = False, cut = False, tt_first = False, killer_first = False
    cdef move_t m, ttmove = -1, bestmove = -1, etcmove = -1, killer
    cdef move_t* moves
    cdef int64_t* keys = NULL
    cdef EntryData e
    cdef uint64_t nodes0 = c.nodes
    cdef uint64_t tkey
    # moves left out at the root: the value is then that of the other moves,
    # so only upper bounds of the whole root hold and nothing is stored for it
    cdef bint partial = ply == 0 and c.root_skip != NULL
    cdef int left[N_GROUPS]
    cdef int ub[N_GROUPS]           # a group's relaxed bound, where it is at most alpha (``cut_g``)
    cdef uint64_t tried = 0, started = 0, cut_g = 0   # sets of groups (N_GROUPS <= 64)
    cdef RelaxBase rbase

    c.nodes += 1
    if c.nodes >= c.check_at:
        # at the first node from each multiple of 1,024 on: the leaves and
        # relaxed roots also count nodes, so a multiple may be stepped over
        c.check_at = (c.nodes | CHECK_EVERY) + 1
        if limit_hit(c.nodes, c.node_limit, c.deadline, c.halt):
            c.stop = 1
    if c.stop:
        return 0
    p = to_move(s)
    if ply >= MAX_PLY - 1:      # cannot happen (every game ends sooner); stay safe
        c.stop = 1
        return 0
    # the probe is a cache miss most of the time: start loading the bucket
    # now, the static bounds are computed meanwhile
    tkey = tt_key(c, s, key, ply, rmask)
    ps_prefetch(&c.tt[(tkey & c.tt_mask) * 2])

    if c.use_static:
        static_bounds(c, s, p, rmask, &slo, &shi)
        if shi <= alpha:
            c.static_cuts += 1
            return shi
        if slo >= beta and not partial:
            c.static_cuts += 1
            return slo

    if partial:
        if tt_probe(c.tt, c.tt_mask, tkey, &e):
            if e.hi <= alpha:
                return e.hi
            if e.hi < beta:
                beta = e.hi
            if not skipped(c, e.move):
                ttmove = e.move
    elif tt_probe(c.tt, c.tt_mask, tkey, &e):
        if e.lo >= beta:
            return e.lo
        if e.hi <= alpha:
            return e.hi
        if e.lo == e.hi:
            return e.lo
        ttmove = e.move
        if e.lo > alpha:
            alpha = e.lo
        if e.hi < beta:
            beta = e.hi
    alpha0 = alpha
    beta0 = beta

    relaxed = (rmask >> p) & 1

    # the TT move first, before any move is generated; with none, the ply's
    # killer, which comes next in the order: a cut-off by either saves
    # generating and ordering the node's moves (after the killer the rest
    # are ordered with the history its search left, so the tree differs a
    # little from ordering them all first)
    killer = c.killer[ply]
    if ttmove >= 0 and not relaxed and is_legal(s, ttmove):
        tt_first = True
        bestmove = ttmove
    elif killer >= 0 and c.use_hist and not relaxed and not partial and is_legal(s, killer):
        killer_first = True
        bestmove = killer
    if bestmove >= 0:
        v = search_move(c, s, key, bestmove, p, relaxed, alpha, beta, ply, rmask)
        if c.stop:
            return 0
        searched = 1
        best = v
        if v > alpha:
            alpha = v
            if v >= beta:
                if killer_first:
                    c.hist[killer & 0xFFFF] += 1
                cut = True

    if not cut:
        moves = c.moves + ply * MAX_MOVES
        if relaxed:
            n = gen_relaxed(c, s, p, moves, ply)
        else:
            n = gen_moves(s, moves)
        keys = c.keys + ply * MAX_MOVES
        n = order_moves(c, s, moves, n, keys, ttmove, killer)
        if c.use_etc and n > 1 and not rmask and not partial:
            v = etc_probe(c, s, key, keys, n, p, relaxed, beta, ply, &etcmove)
            if v >= beta:
                c.etc_cuts += 1
                tt_store(c.tt, c.tt_mask, tkey, v, INF, etcmove, c.nodes - nodes0)
                return v
        if bestmove < 0:
            select_best(keys, 0, n)
            bestmove = key_move(keys[0])
        bounds = not relaxed and c.use_relax and n > 2
        if bounds:
            rbase.ready = 0
            memset(left, 0, sizeof(left))
            for i in range(n):
                m = key_move(keys[i])
                g = group_of(m)
                if (g >= 0 and not (tt_first and m == ttmove) and not (killer_first and m == killer)
                        and not (partial and skipped(c, m))):
                    left[g] += 1
            if tt_first or killer_first:
                g = group_of(ttmove if tt_first else killer)
                if g >= 0:
                    started |= (<uint64_t>1) << g

    for i in range(n):
        m = next_move(keys, i, n)
        if (tt_first and m == ttmove) or (killer_first and m == killer):
            continue
        if partial and skipped(c, m):
            continue
        if bounds:
            g = group_of(m)
            if g >= 0:
                left[g] -= 1
                if (((started >> g) & 1 or searched > 0) and not (tried >> g) & 1
                        and left[g] + 1 >= c.relax_min):
                    tried |= (<uint64_t>1) << g
                    v = group_bound(c, s, key, p, g, alpha, ply, rmask, &rbase)
                    if c.stop:
                        return 0
                    if v <= alpha:
                        ub[g] = v
                        cut_g |= (<uint64_t>1) << g
                        c.relax_cuts += 1
                started |= (<uint64_t>1) << g
                if (cut_g >> g) & 1:       # refuted (alpha only rises, so still so)
                    if ub[g] > best:
                        best = ub[g]
                    continue
        v = search_move(c, s, key, m, p, relaxed, alpha, beta, ply, rmask)
        if c.stop:
            return 0
        searched += 1
        if v > best:
            best = v
            bestmove = m
            if v > alpha:
                alpha = v
                if v >= beta:
                    if c.use_hist:
                        c.killer[ply] = m
                        c.hist[m & 0xFFFF] += 1
                    break

    if ply == 0 and best >= beta0:
        c.root_cut = bestmove
        c.root_cut_value = best
    if partial:
        return best
    if best >= beta0:
        tt_store(c.tt, c.tt_mask, tkey, best, INF, bestmove, c.nodes - nodes0)
    elif best <= alpha0:
        tt_store(c.tt, c.tt_mask, tkey, -INF, best, bestmove, c.nodes - nodes0)
    else:
        tt_store(c.tt, c.tt_mask, tkey, best, best, bestmove, c.nodes - nodes0)
    return best


# --------------------------------------------------------------------------
# Python-facing solver
# --------------------------------------------------------------------------

MAX_HASH_MB = 1 << 20          # a terabyte: the most a table may be asked for


cdef class Solver:
    """One solver: its TT (kept across calls) and per-ply buffers. Limits
    are trusted (``solver.py`` validates them). ``lo``/``hi``/``gamma`` are
    readable while ``solve`` runs in another thread (progress); ``lo``/``hi``
    are -INF/INF until a solve starts (nothing is proven yet)."""

    cdef Ctx c
    cdef public int lo
    cdef public int hi
    cdef public int gamma
    cdef public int steps
    cdef int threads
    cdef int halt              # set to stop the helpers
    cdef int solved            # set by a helper that closed the interval
    cdef Helper* hs            # the running helpers (NULL between calls)
    cdef int n_help
    cdef uint64_t helper_nodes

    def __cinit__(self, int hash_mb, *, bint wdl, bint tie, int threads, bint use_static, bint use_relax,
                  bint use_etc, int relax_min, bint use_hist, bint use_dead_keys, bint relax_pairs,
                  bint use_cover, bint use_pack, bint use_done_keys):
        """Every switch by keyword and none defaulted: ``solver.C_SWITCHES``
        is the one table of defaults, and ``solver.c_solver`` builds a
        solver from it (the switches are documented there)."""
        cdef uint64_t buckets = 1
        cdef int i
        memset(&self.c, 0, sizeof(Ctx))
        if not 1 <= hash_mb <= MAX_HASH_MB:    # as Limits; a negative one sized the table forever
            raise ValueError(f"hash_mb {hash_mb}: not in 1..{MAX_HASH_MB}")
        if wdl and not tie:
            raise ValueError("a win/loss solver values the tie-break (tie=True)")
        while buckets * 2 * 2 * sizeof(Entry) <= (<uint64_t>hash_mb) << 20:
            buckets *= 2
        self.c.tt = <Entry*>ps_table_alloc(buckets * 2 * sizeof(Entry))
        self.c.tt_mask = buckets - 1
        for i in range(MAX_PLY):
            self.c.killer[i] = -1
        if not ctx_buffers(&self.c) or self.c.tt == NULL:
            raise MemoryError("solver table")
        self.c.tie = tie
        self.c.sign_only = wdl
        self.c.use_static = use_static
        self.c.use_relax = use_relax
        self.c.use_etc = use_etc
        self.c.use_hist = use_hist
        self.c.relax_min = relax_min
        self.c.use_dead_keys = use_dead_keys
        self.c.relax_pairs = relax_pairs
        self.c.use_cover = use_cover
        self.c.use_pack = use_pack
        self.c.use_done_keys = use_done_keys
        self.threads = threads if threads > 1 else 1
        self.lo = -INF
        self.hi = INF

    def __dealloc__(self):
        ps_table_free(self.c.tt, (self.c.tt_mask + 1) * 2 * sizeof(Entry))
        ctx_free(&self.c)

    @property
    def wdl(self):
        """Win/loss mode: the driver stops once the sign is proven."""
        return bool(self.c.sign_only)

    @property
    def tie(self):
        """Values with the tie-break (2 margin -+ 1); False: margins alone."""
        return bool(self.c.tie)

    @property
    def nodes(self):
        """Nodes of every thread so far (read live while ``solve`` runs)."""
        cdef uint64_t n = self.c.nodes + self.helper_nodes
        cdef int i
        if self.hs != NULL:
            for i in range(self.n_help):
                n += load64(&self.hs[i].c.nodes)
        return n

    @property
    def threads(self):
        return self.threads

    @property
    def tt_entries(self):
        return (self.c.tt_mask + 1) * 2

    @property
    def stats(self):
        return {"static_cuts": self.c.static_cuts, "etc_cuts": self.c.etc_cuts,
                "relax_cuts": self.c.relax_cuts,
                "cover_calls": self.c.cover_calls, "cover_searches": self.c.cover_searches,
                "pack_calls": self.c.pack_calls, "pack_searches": self.c.pack_searches}

    def set_limits(self, uint64_t node_limit, double seconds):
        """Budget from now for the next calls (0: none). Nodes count from
        the solver's creation."""
        self.c.node_limit = node_limit
        self.c.deadline = monotonic_now() + seconds if seconds > 0 else 0.0
        self.c.stop = 0

    def bounds(self, CoreState s not None):
        """Static proven (lo, hi) of ``s`` for its player to move."""
        cdef int lo, hi
        static_bounds(&self.c, &s.s, to_move(&s.s), 0, &lo, &hi)
        return lo, hi

    def probe(self, CoreState s not None, int alpha, int beta):
        """One fail-soft search of ``s`` in (alpha, beta); None when stopped."""
        cdef CState t = s.s
        cdef uint64_t key = full_key(Z, &t)
        cdef int v
        with nogil:
            v = search(&self.c, &t, key, alpha, beta, 0, 0)
        return None if self.c.stop else v

    def solve(self, CoreState s not None, int lo, int hi, int guess, int spread=8, skip=None,
              bint sign=False):
        """Narrow the proven interval [lo, hi] of ``s`` (for its player to
        move) by null-window searches until it closes or the budget runs out
        (see "Driver"). Returns (lo, hi). With ``skip`` (move codes of
        ``s``, possibly none), the interval is that of the other root moves'
        best value, nothing is stored for the root, and ``root_cut`` is the
        root move of the last fail-high. With ``sign`` (the tie-break's
        units only), this call stops once the sign is proven, as win/loss
        mode does: the exact solve's win/loss pass, on its own table."""
        cdef CState t = s.s
        cdef uint64_t key = full_key(Z, &t)
        cdef Helper* hs = NULL
        cdef int n_help = self.threads - 1
        cdef uint64_t* bits = NULL
        cdef bint settled = False
        cdef int sign_only = self.c.sign_only
        if sign and not self.c.tie:
            raise ValueError("a sign needs the tie-break's units (tie=True)")
        if skip is not None:    # even when empty: the root cut-off move is then always set
            bits = <uint64_t*>calloc(1 << 10, sizeof(uint64_t))
            if bits == NULL:
                raise MemoryError("solver skip set")
            for code in skip:
                if not 0 <= code < (1 << 16):
                    free(bits)
                    raise ValueError(f"move code {code!r}: not in 0..65535")
                bits[code >> 6] |= (<uint64_t>1) << (code & 63)
        self.c.root_skip = bits
        self.c.root_cut = -1
        self.c.root_cut_value = -INF
        self.c.sign_only = sign_only or sign   # the helpers copy it at their start
        if n_help > 0 and lo < hi:
            hs = <Helper*>calloc(n_help, sizeof(Helper))
        with nogil:
            if hs != NULL:
                # small calls end on one thread, before helpers would pay for their launch
                settled = alone_first(&self.c, &t, key, &self.lo, &self.hi, &self.gamma, &self.steps,
                                      lo, hi, guess, spread)
                if not settled:
                    lo, hi = self.lo, self.hi
                    self.halt = 0
                    self.solved = 0
                    helpers_start(hs, n_help, &self.c, &self.halt, &self.solved, &t, key, lo, hi, guess, spread)
                    self.n_help = n_help
                    self.hs = hs
                    self.c.halt = &self.solved
            if not settled:
                mtd(&self.c, &t, key, &self.lo, &self.hi, &self.gamma, &self.steps, lo, hi, guess, spread)
            if hs != NULL and not settled:
                self.hs = NULL
                self.helper_nodes += helpers_finish(hs, n_help, &self.halt, &self.lo, &self.hi,
                                                    &self.c.root_cut, &self.c.root_cut_value)
                self.c.halt = NULL
                # a helper's proof stopped this thread, not the budget
                self.c.stop = limits_reached(self.c.nodes, self.c.node_limit, self.c.deadline)
        free(hs)
        self.c.root_skip = NULL
        self.c.sign_only = sign_only
        free(bits)
        return self.lo, self.hi

    @property
    def root_cut(self):
        """The root move code of the last fail-high of ``solve`` (-1: none)."""
        return self.c.root_cut

    @property
    def root_cut_value(self):
        """What that fail-high proved the move worth at least."""
        return self.c.root_cut_value

    def tt_bounds(self, CoreState s not None):
        """(lo, hi, move) the TT holds for ``s``, or None."""
        cdef EntryData e
        if not tt_probe(self.c.tt, self.c.tt_mask, tt_key(&self.c, &s.s, full_key(Z, &s.s), 0, 0), &e):
            return None
        return e.lo, e.hi, e.move

    def guess(self, CoreState s not None):
        """The evaluation of ``s`` in the solver's units (the first test value)."""
        cdef int v = evaluate(&s.s, to_move(&s.s))
        return 2 * v if self.c.tie else v


cdef int null_window(Ctx* c, CState* s, uint64_t key, int t, int* lo, int* hi, int* gamma, int* steps,
                     int* v) noexcept nogil:
    """One test "is the value >= t?" narrowing [lo, hi] with its fail-soft
    value ``v``: 1 (yes), 0 (no), -1 (stopped; nothing changed)."""
    gamma[0] = t
    v[0] = search(c, s, key, t - 1, t, 0, 0)
    if c.stop:
        return -1
    steps[0] += 1
    if v[0] >= t:
        lo[0] = v[0]
        return 1
    hi[0] = v[0]
    return 0


cdef void mtd(Ctx* c, CState* s, uint64_t key, int* lo, int* hi, int* gamma, int* steps,
              int lo0, int hi0, int guess, int spread) noexcept nogil:
    """The driver (module doc): ``lo``/``hi`` are updated in place after
    every step so another thread can report them."""
    cdef int g, v, step = 1, last = 0, dirn, run = 0, d = spread, side, t, high
    lo[0] = lo0
    hi[0] = hi0
    g = guess
    # bracketing: tests at guess -+ d for d = spread, spread/2, ..., 2 points
    # (4 units with the tie-break); the far ones are cheap and leave a narrow
    # proven interval early
    while d >= (4 if c.tie else 2) and lo[0] < hi[0] and not c.stop and not c.sign_only:
        for side in range(2):
            t = g - d if side == 0 else g + d + 1
            if not (lo[0] < t <= hi[0]):
                continue
            high = null_window(c, s, key, t, lo, hi, gamma, steps, &v)
            if high < 0:
                return
            if high == side:       # beyond the guess's bracket: follow it
                g = v
        d //= 2
    while lo[0] < hi[0] and not c.stop:
        if c.sign_only and (lo[0] > 0 or hi[0] < 0):
            break              # the sign is all a win/loss solve wants
        # test value: fail high iff value >= g; needs lo < g <= hi
        if g <= lo[0]:
            g = lo[0] + 1
        if g > hi[0]:
            g = hi[0]
        if hi[0] - lo[0] <= 4 * step and step > 1:
            g = lo[0] + (hi[0] - lo[0] + 1) // 2
        high = null_window(c, s, key, g, lo, hi, gamma, steps, &v)
        if high < 0:
            break
        dirn = 1 if high else -1
        # classic MTD(f) steps of one, doubled from the third step in one
        # direction on (a far-off guess still converges in a few steps)
        run = run + 1 if dirn == last else 1
        step = step * 2 if run >= 3 else 1
        last = dirn
        g = v + step if dirn > 0 else v - step + 1


# --------------------------------------------------------------------------
# Lazy SMP: helper threads running the same driver into the shared table
# --------------------------------------------------------------------------
#
# Every helper runs its own driver on the root with its own context (move
# buffers, killers, history, counters) and ordering noise, into the main
# thread's table; all proven bounds are about the same exact values, so
# whatever one thread stores the others may use. A helper that closes the
# interval first sets ``solved``, which stops the main thread; the answer is
# the intersection of every thread's proven interval.

# After this many nodes without an answer the first helper brackets again
# from four times as far out (-+ 32 down to 2) around the interval it has:
# those far tests are cheap, and where a test near the value does not end
# they still narrow the interval a run out of budget reports
# (results/solve_reach.md, round 7). Quicker proofs never get there.
cdef uint64_t STALL_NODES = 1ULL << 21
cdef int FAR_SPREAD = 4

# A call searches this many nodes on one thread before its helpers start:
# most calls of the all-moves valuation and the near-end shortcut end
# sooner, and there launching helpers with cold caches cost more than they
# gave (0 = helpers from the start).
cdef uint64_t HELPER_DELAY = 1ULL << 14


def _helper_delay(n=None):
    """Nodes a call searches alone before its helpers start
    (``HELPER_DELAY``); set to ``n`` (>= 0) when given. Returns the value
    before."""
    global HELPER_DELAY
    old = HELPER_DELAY
    if n is not None:
        HELPER_DELAY = _node_setting(n, 0, "helper delay")
    return old


def _stall_nodes(n=None):
    """The first helper's stall limit (``STALL_NODES``); set to ``n`` (>= 1)
    when given, for tests that need the far bracketing on small positions.
    Returns the limit before."""
    global STALL_NODES
    old = STALL_NODES
    if n is not None:
        STALL_NODES = _node_setting(n, 1, "stall nodes")
    return old


def _node_setting(n, low, what):
    """``n`` checked as a node count of at least ``low`` (a ValueError
    naming ``what`` otherwise): the test hooks' one check."""
    if not low <= n < 2 ** 62:
        raise ValueError(f"{what} {n!r}: not in {low}..2**62-1")
    return n


cdef bint alone_first(Ctx* c, CState* s, uint64_t key, int* lo, int* hi, int* gamma, int* steps,
                      int lo0, int hi0, int guess, int spread) noexcept nogil:
    """The driver on this thread alone for its first HELPER_DELAY nodes:
    True when that settles the call (the interval closed or the budget or
    a halt stopped it), else False with [lo, hi] narrowed and the thread
    ready to go on, helpers beside it."""
    cdef uint64_t limit = c.node_limit
    if HELPER_DELAY == 0:
        lo[0], hi[0] = lo0, hi0
        return False
    c.node_limit = c.nodes + HELPER_DELAY if limit == 0 else min(limit, c.nodes + HELPER_DELAY)
    mtd(c, s, key, lo, hi, gamma, steps, lo0, hi0, guess, spread)
    c.node_limit = limit
    if not c.stop or limit_hit(c.nodes, limit, c.deadline, c.halt):
        return True
    c.stop = 0
    return False


cdef inline bint stalled(const Helper* h) noexcept nogil:
    """The helper stopped at its own stall limit, not by the budget or a halt."""
    return (h.c.stop and h.c.node_limit and h.c.nodes >= h.c.node_limit and not atomic_load(h.c.halt)
            and not limits_reached(0, 0, h.c.deadline))


cdef void* helper_main(void* arg) noexcept nogil:
    cdef Helper* h = <Helper*>arg
    cdef bint far = h.far and h.spread > 0 and not h.c.sign_only
    if far:
        h.c.node_limit = STALL_NODES
    mtd(&h.c, &h.root, h.key, &h.lo, &h.hi, &h.gamma, &h.steps, h.lo0, h.hi0, h.guess, h.spread)
    if far and stalled(h):
        h.c.stop = 0
        h.c.node_limit = 0
        mtd(&h.c, &h.root, h.key, &h.lo, &h.hi, &h.gamma, &h.steps, h.lo, h.hi, h.guess,
            h.spread * FAR_SPREAD)
    if not h.c.stop:
        atomic_store(h.solved, 1)
    return NULL


cdef void helper_setup(Helper* h, const Ctx* main, int* halt, int* solved, const CState* root,
                       uint64_t key, int lo, int hi, int guess, int spread) noexcept nogil:
    """The helpers' prototype: a copy of the main context (so every setting
    reaches the helpers) with zeroed counters, no node limit (threads are
    refused with one) and no buffers yet (``helper_init``)."""
    h.c = main[0]
    h.c.moves = NULL
    h.c.keys = NULL
    h.c.hist = NULL
    h.c.cover = NULL
    h.c.nodes = 0
    h.c.check_at = 0
    h.c.node_limit = 0
    h.c.stop = 0
    h.c.static_cuts = h.c.etc_cuts = h.c.relax_cuts = 0
    h.c.halt = halt
    h.root = root[0]
    h.key = key
    h.lo0, h.hi0, h.guess, h.spread = lo, hi, guess, spread
    h.lo, h.hi = lo, hi
    h.solved = solved


cdef bint helper_init(void* arg, int i) noexcept nogil:
    """The i-th helper from the prototype: its own ordering noise and
    buffers, and the far bracketing for the first. False when its buffers
    cannot be had."""
    cdef Helper* h = <Helper*>arg
    h.c.noise = mix64(<uint64_t>(i + 1)) | 1
    h.far = i == 0
    return ctx_buffers(&h.c)


cdef int helpers_start(Helper* hs, int n, const Ctx* main, int* halt, int* solved, const CState* root,
                       uint64_t key, int lo, int hi, int guess, int spread) noexcept nogil:
    """Set up and launch ``n`` helpers (``_threads.pxd``); returns how many
    run (one whose buffers or thread cannot be had is left out)."""
    cdef Helper proto
    memset(&proto, 0, sizeof(Helper))
    helper_setup(&proto, main, halt, solved, root, key, lo, hi, guess, spread)
    return helpers_launch(hs, n, sizeof(Helper), &proto, helper_init, helper_main)


cdef uint64_t helpers_finish(Helper* hs, int n, int* halt, int* lo, int* hi,
                             move_t* cut, int* cut_value) noexcept nogil:
    """Halt and join the helpers, narrow [lo, hi] by their intervals (and
    take the root cut-off move of one that raised ``lo``), free their
    buffers; their node count."""
    cdef uint64_t nodes = 0
    cdef int i
    helpers_join(hs, n, sizeof(Helper), halt)
    for i in range(n):
        if hs[i].thread.started:
            nodes += hs[i].c.nodes
            if hs[i].lo > lo[0]:
                lo[0] = hs[i].lo
                cut[0] = hs[i].c.root_cut
                cut_value[0] = hs[i].c.root_cut_value
            if hs[i].hi < hi[0]:
                hi[0] = hs[i].hi
        ctx_free(&hs[i].c)
    return nodes
