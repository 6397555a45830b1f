# cython: language_level=3
"""The learned evaluation and its features, in C without the GIL.

A linear model over features of both sides (mover minus opponent, and the
same scaled by the game phase), fitted by ``patchsolve.training`` to the
final margins of self-play games. Its weights are package data
(``data/eval_weights.json``), loaded by ``search/learned.py`` into ``LW``
here; until then (or when switched off) the searchers use their own
evaluation (``_eval.pyx``).

The placement look-ahead is one of the features
-----------------------------------------------
A quilt is good when it can still take the patches that are coming.
``lookahead_bad`` counts, for each of the next ``k`` patches of the circle,
its placements on the quilt (every orientation, every anchor: a popcount of
``fits``) and charges ``PEN[count]``: a patch that no longer fits costs
most, one with many placements nothing. (As a move-ordering key and in a
greedy player it measured no better and was retired:
``benchmarks/results/retired_options.md``.)
"""

from libc.stdint cimport uint64_t, uint32_t, uint8_t, int8_t, int16_t

from patchsolve.search._quilt cimport isolated, best7
from patchsolve.search._patterns cimport patterns_on, pattern_compute, pattern_epoch
from patchsolve.search import _patterns
from patchsolve._core cimport (
    CState, Tables, u128, CoreState, get_tables, to_move, score, fits, mix64,
    patches_ahead, can_afford, fits_somewhere, income_ahead,
    LAST_SPACE, N_PATCHES, EMPTY_PENALTY, popcount128, PS_COL8,
)


cdef const Tables* T = get_tables()
cdef u128 FULL = T.full

# Penalty by placement count (counts beyond the table cost nothing): a
# patch that cannot be placed costs as much as about four lost squares.
cdef enum:
    PEN_N = 12
cdef int PEN[PEN_N]
PEN[:] = [12, 6, 4, 3, 3, 2, 2, 1, 1, 1, 1, 1]


cdef int patch_placements(u128 empty, int pid) noexcept nogil:
    """Placements of patch ``pid`` on a quilt whose empty squares are ``empty``."""
    cdef int og, n = 0
    for og in range(T.patch_og_start[pid], T.patch_og_start[pid + 1]):
        n += popcount128(fits(T, empty, og))
    return n


cdef inline int count_penalty(int c) noexcept nogil:
    """Cost of a patch having ``c`` placements (only the last few matter)."""
    return PEN[c] if c < PEN_N else 0


cdef int lookahead_bad(const CState* s, u128 quilt, int start, int skip, int k) noexcept nogil:
    cdef u128 empty = FULL & ~quilt
    cdef int n = s.n_circle, j = 0, seen = 0, i, c, bad = 0
    if n == 0:
        return 0
    i = start % n
    while seen < k and j < n:
        if i != skip:
            c = patch_placements(empty, s.circle[i])
            bad += count_penalty(c)
            seen += 1
        i += 1
        if i == n:
            i = 0
        j += 1
    return bad


# --------------------------------------------------------------------------
# Learned evaluation
# --------------------------------------------------------------------------

# Per-side terms (each enters as mover minus opponent, then again scaled by
# the phase = spaces left to both / 106).
SIDE_FEATURES = ["income_ahead", "spaces_left", "fillable", "holes", "bonus7", "buttons_cap",
                 "next_fit", "next_gain", "dead_patches", "lookahead", "blocks2x2", "empty"]
GLOBAL_FEATURES = ["tempo", "gap", "pending"]
cdef enum:
    N_SIDE = 12
    N_FEAT = 2 * N_SIDE + 3
FEATURES = ([f + "_diff" for f in SIDE_FEATURES] + [f + "_phase" for f in SIDE_FEATURES]
            + GLOBAL_FEATURES)

cdef double LW[N_FEAT]
cdef bint LEARNED_ON = False


cdef inline int blocks2x2(u128 empty) noexcept nogil:
    """Empty 2x2 blocks (by top-left square): room for the large patches."""
    return popcount128(empty & ((empty >> 1) & ~PS_COL8) & (empty >> 9) & ((empty >> 10) & ~PS_COL8))


# The quilt terms depend only on the quilt and the circle, and most leaves
# of a search share one player's quilt with many others: they are memoised
# in a direct-mapped table (exact: an entry holds its whole key). The table
# is thread-local (C ``__thread``): the alpha-beta's Lazy SMP threads
# evaluate at once, and a shared entry could be read half rewritten.
cdef extern from *:
    """
    typedef struct {
        unsigned __int128 quilt;
        uint64_t circle_set;
        uint8_t head[3];
        uint8_t used;
        uint8_t fits3;
        int8_t holes;
        int8_t best7;
        int8_t dead;
        int16_t look;
        unsigned int epoch;
        float pat_a, pat_b;
    } ps_geometry;
    #define PS_GEO_BITS 14
    static __thread ps_geometry ps_geo_table[1 << PS_GEO_BITS];
    static inline ps_geometry* ps_geo_slot(uint64_t h) {
        return &ps_geo_table[h & ((1u << PS_GEO_BITS) - 1)];
    }
    """
    ctypedef struct Geometry "ps_geometry":
        u128 quilt
        uint64_t circle_set    # bit pid = pid still in the circle
        uint8_t head[3]        # circle[0..2] (33 = none)
        uint8_t used
        uint8_t fits3          # bit k = circle[k] fits the quilt
        int8_t holes
        int8_t best7
        int8_t dead
        int16_t look
        uint32_t epoch         # the pattern values' epoch of pat_a, pat_b
        float pat_a            # the quilt patterns' sums (``_patterns``)
        float pat_b
    Geometry* geo_slot "ps_geo_slot" (uint64_t h) noexcept nogil


cdef inline void geometry_patterns(u128 q, Geometry* g) noexcept nogil:
    cdef double a = 0.0, b = 0.0
    if patterns_on():
        pattern_compute(q, &a, &b)
    g.pat_a = <float>a
    g.pat_b = <float>b
    g.epoch = pattern_epoch()


cdef void geometry_compute(const CState* s, u128 q, Geometry* g) noexcept nogil:
    cdef u128 empty = FULL & ~q
    cdef int k, n3 = patches_ahead(s)
    g.holes = isolated(empty)
    g.best7 = best7(T, q)      # 0 below 36 squares: only best7 - 35 > 0 counts
    g.fits3 = 0
    g.dead = 0
    for k in range(s.n_circle):
        if not fits_somewhere(T, empty, s.circle[k]):
            g.dead += 1
        elif k < n3:
            g.fits3 |= 1 << k
    g.look = lookahead_bad(s, q, 0, -1, 3)
    geometry_patterns(q, g)


cdef void geometry(const CState* s, u128 q, Geometry* out) noexcept nogil:
    """The quilt terms of ``q`` under ``s``'s circle, from the table when there."""
    cdef uint64_t set_ = 0, h
    cdef int k
    cdef uint8_t h0 = s.circle[0] if s.n_circle > 0 else 33
    cdef uint8_t h1 = s.circle[1] if s.n_circle > 1 else 33
    cdef uint8_t h2 = s.circle[2] if s.n_circle > 2 else 33
    cdef Geometry* e
    for k in range(s.n_circle):
        set_ |= (<uint64_t>1) << s.circle[k]
    h = mix64(<uint64_t>q ^ mix64(<uint64_t>(q >> 64) ^ set_) ^ (<uint64_t>h0 << 56))
    e = geo_slot(h)
    if not (e.used and e.quilt == q and e.circle_set == set_ and e.head[0] == h0
            and e.head[1] == h1 and e.head[2] == h2):
        geometry_compute(s, q, e)
        e.quilt = q
        e.circle_set = set_
        e.head[0] = h0
        e.head[1] = h1
        e.head[2] = h2
        e.used = 1
    elif e.epoch != pattern_epoch():
        geometry_patterns(q, e)
    out[0] = e[0]


cdef void side_features(const CState* s, int x, double* f, double* pat) noexcept nogil:
    """The per-side terms of player ``x`` (SIDE_FEATURES order), and the
    quilt patterns' two sums in ``pat`` (zero for a player at the end of
    the time board: the quilt's shape can no longer matter)."""
    cdef int t = s.time[x], left = LAST_SPACE - t, k, pid, gain, best = 0, nfit = 0
    cdef int b7
    cdef Geometry g
    cdef u128 q = s.quilt[x]
    cdef u128 empty = FULL & ~q
    cdef int ne = popcount128(empty)
    cdef int n3 = patches_ahead(s)
    f[0] = s.income[x] * income_ahead(T, t)
    f[1] = left
    f[2] = ne if ne < 3 * left else 3 * left
    f[5] = s.buttons[x] if s.buttons[x] < 12 else 12
    f[10] = blocks2x2(empty)
    f[11] = ne
    pat[0] = 0.0
    pat[1] = 0.0
    if left == 0:
        f[3] = 0
        f[4] = 0
        f[6] = 0
        f[7] = 0
        f[8] = 0
        f[9] = 0
        return
    geometry(s, q, &g)
    f[3] = g.holes
    f[4] = 0
    if s.bonus < 0:
        b7 = g.best7 - 35
        if b7 > 0:
            f[4] = b7 / 14.0
    for k in range(n3):
        pid = s.circle[k]
        if can_afford(T, s, x, pid) and (g.fits3 >> k) & 1:
            nfit += 1
            gain = (EMPTY_PENALTY * T.patch_size[pid] - T.patch_cost[pid] - T.patch_time[pid]
                    + T.patch_income[pid] * income_ahead(T, t))
            if gain > best:
                best = gain
    f[6] = nfit
    f[7] = best
    f[8] = g.dead
    f[9] = g.look
    pat[0] = g.pat_a
    pat[1] = g.pat_b


cdef inline double phase_of(const CState* s) noexcept nogil:
    """Spaces left to both players / 106: 1 at the start, 0 at the end."""
    return (2 * LAST_SPACE - s.time[0] - s.time[1]) / (2.0 * LAST_SPACE)


cdef double all_features(const CState* s, int p, double* f) noexcept nogil:
    """FEATURES for player ``p``; returns the quilt patterns' term (the
    mover's sums minus the opponent's, the ``b`` tables scaled by the phase;
    zero when no patterns are loaded)."""
    cdef double a[N_SIDE]
    cdef double b[N_SIDE]
    cdef double pa[2]
    cdef double pb[2]
    cdef int i, o = 1 - p
    cdef double phase = phase_of(s)
    side_features(s, p, a, pa)
    side_features(s, o, b, pb)
    for i in range(N_SIDE):
        f[i] = a[i] - b[i]
        f[N_SIDE + i] = (a[i] - b[i]) * phase
    f[2 * N_SIDE] = 1.0 if to_move(s) == p else -1.0
    f[2 * N_SIDE + 1] = s.time[o] - s.time[p]
    f[2 * N_SIDE + 2] = (1.0 if s.pending == p else 0.0) - (1.0 if s.pending == o else 0.0)
    return (pa[0] - pb[0]) + phase * (pa[1] - pb[1])


cdef inline double margin_now(const CState* s, int p) noexcept nogil:
    return score(s, p) - score(s, 1 - p)


cdef double learned_margin(const CState* s, int p) noexcept nogil:
    """The margin now plus the learned correction."""
    cdef double f[N_FEAT]
    cdef double v = margin_now(s, p)
    cdef int i
    v += all_features(s, p, f)
    for i in range(N_FEAT):
        v += LW[i] * f[i]
    return v


cdef bint learned_on() noexcept nogil:
    return LEARNED_ON


# --------------------------------------------------------------------------
# Python-facing: weights, the switch, features
# --------------------------------------------------------------------------

def set_learned(weights, patterns=None):
    """Load learned weights (a sequence in FEATURES order) and, optionally,
    the quilt patterns' tables (``(a, b)``, see ``_patterns``), and switch
    the learned evaluation on; ``None`` switches it off."""
    global LEARNED_ON
    cdef int i
    if weights is None:
        LEARNED_ON = False
        _patterns.set_patterns(None, None)
        return
    if len(weights) != N_FEAT:
        raise ValueError(f"expected {N_FEAT} weights, got {len(weights)}")
    if patterns is None:
        _patterns.set_patterns(None, None)
    else:
        _patterns.set_patterns(*patterns)
    for i in range(N_FEAT):
        LW[i] = float(weights[i])
    LEARNED_ON = True


def learned_weights():
    """The loaded weights (FEATURES order), or None when the learned
    evaluation is off."""
    return [LW[i] for i in range(N_FEAT)] if LEARNED_ON else None


def learned_patterns():
    """The loaded pattern tables ``(a, b)``, or None (off, or none loaded)."""
    return _patterns.pattern_weights() if LEARNED_ON else None


def pattern_sides(CoreState s, int player):
    """What the patterns read for ``player``: the table entries of the
    player's quilt and of the opponent's (an empty list for a player at the
    end of the time board) and the phase; the fit's view of
    ``all_features``."""
    if player not in (0, 1):
        raise ValueError("bad player")
    sides = []
    for x in (player, 1 - player):
        q = s.fields()["quilts"][x]
        sides.append(_patterns.terms(q) if s.s.time[x] < LAST_SPACE else [])
    return sides[0], sides[1], phase_of(&s.s)


def features(CoreState s, int player):
    """FEATURES of ``s`` for ``player`` (a list of floats)."""
    cdef double f[N_FEAT]
    all_features(&s.s, player, f)
    return [f[i] for i in range(N_FEAT)]


def margin_of(CoreState s, int player):
    """The score margin now for ``player`` (what the model corrects)."""
    return margin_now(&s.s, player)


def learned_value(CoreState s, int player):
    """The learned estimate of the final margin for ``player``."""
    return learned_margin(&s.s, player)


def placements_of_patch(CoreState s, int player, int pid):
    """Placements of patch ``pid`` on ``player``'s quilt."""
    if not 0 <= pid < N_PATCHES or player not in (0, 1):
        raise ValueError("bad patch id or player")
    return patch_placements(FULL & ~s.s.quilt[player], pid)


def quilt_lookahead(CoreState s, int player, int k=3):
    """Look-ahead badness of ``player``'s quilt for the next ``k`` patches."""
    if player not in (0, 1) or not 1 <= k <= 33:
        raise ValueError("bad player or k")
    return lookahead_bad(&s.s, s.s.quilt[player], 0, -1, k)
