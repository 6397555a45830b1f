# cython: language_level=3
"""The static evaluation and the greedy one-ply player, shared by the
searchers (declared in ``_eval.pxd``; the quilt geometry it weighs is
inline in ``_quilt.pxd``).

The evaluation estimates the final score margin from features of each
player's side, weighted by a least-squares fit to playout outcomes
(``benchmarks/tools/tune_eval.py`` refits them through ``features`` and
``set_weights``). The greedy player is the cheap reference opponent and
the move a search falls back on when it has no time for anything else.
"""

from libc.math cimport lround
from libc.stdint cimport uint64_t, int64_t

from patchsolve._core cimport (
    CState, Tables, CoreState, u128, move_t, get_tables, popcount128, to_move, is_over,
    gen_moves, apply_move, score, move_mask, move_patch, rng_below, random_move, income_ahead,
    ps_make128, MAX_MOVES, LAST_SPACE, BOARD_SQUARES, MOVE_WALK, EMPTY_PENALTY, PS_FULL,
)
from patchsolve.search._learned cimport learned_on, learned_margin
from patchsolve.search._quilt cimport isolated, contact, placement_badness, placement_score, best7

cdef const Tables* T = get_tables()


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
# R^2 (benchmarks/tools/tune_eval.py; held-out R^2 0.757, RMSE 8.75 points, against
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
    f[0] = s.income[p] * income_ahead(T, t)
    f[1] = left
    f[2] = empty if empty < fillable else fillable
    f[3] = 0.0
    f[4] = 0.0
    if left == 0:
        # a player on 53 never places again: the score already says it all,
        # and every final placement of a patch evaluates alike (the exact
        # solver's final-buy merging relies on it)
        return
    f[3] = isolated(PS_FULL & ~q)
    if s.bonus < 0:
        t = best7(T, q) - 35
        if t > 0:
            f[4] = t / 14.0


cdef inline double side_value(const CState* s, int p) noexcept nogil:
    cdef double f[5]
    side_features(s, p, f)
    return (score(s, p) + (EMPTY_PENALTY if s.pending == p else 0)
            + W.income * f[0] + W.time * f[1] + W.fill * f[2] + W.holes * f[3] + W.bonus7 * f[4])


cdef double evaluate_margin(const CState* s, int p) noexcept nogil:
    """Estimated final score margin for player ``p``: the score margin now
    plus, per player, future income, the worth of the time left, the
    squares that time can still fill, a penalty for isolated holes and 7x7
    progress (a pending leather patch counts +2 for its owner), plus the
    tempo bonus when ``p`` is to move. The learned evaluation
    (``_learned.pyx``) replaces it when its weights are loaded
    (``search/learned.py``)."""
    cdef double v
    if learned_on():
        return learned_margin(s, p)
    v = side_value(s, p) - side_value(s, 1 - p)
    return v + W.tempo if to_move(s) == p else v - W.tempo


cdef int evaluate(const CState* s, int p) noexcept nogil:
    """``evaluate_margin`` for ``p`` = the player to move, rounded (the
    alpha-beta search works in whole points)."""
    if learned_on():
        return <int>lround(learned_margin(s, p))
    return <int>lround(side_value(s, p) - side_value(s, 1 - p) + W.tempo)


# --------------------------------------------------------------------------
# The greedy one-ply player
# --------------------------------------------------------------------------

cdef inline int64_t greedy_key(const CState* s, int p, move_t m) noexcept nogil:
    """(value, contact) as one number: walking is (0, -1); a leather patch
    (2, contact); a buy (2 x size - cost + income x income spaces ahead
    after the move - time, contact). Contact (0 .. 32) never outweighs a
    point of value."""
    cdef int t, after, pid
    if m == MOVE_WALK:
        return -1
    if m <= BOARD_SQUARES:
        return EMPTY_PENALTY * 64 + contact(move_mask(m), s.quilt[p])
    pid = move_patch(m)
    t = s.time[p]
    after = t + T.patch_time[pid]
    if after > LAST_SPACE:
        after = LAST_SPACE
    return (<int64_t>(EMPTY_PENALTY * T.patch_size[pid] - T.patch_cost[pid]
                      + T.patch_income[pid] * income_ahead(T, after) - (after - t))) * 64 \
        + contact(move_mask(m), s.quilt[p])


cdef move_t greedy(const CState* s) noexcept nogil:
    """The move that most improves "the score if the game ended now, plus
    the income still to come, with time priced at one button a space"
    (walking is worth 0: it trades a space for a button); ties go to the
    placement with most contact, then to the first in move order. ``s`` is
    not over."""
    cdef move_t moves[MAX_MOVES]
    cdef int n = gen_moves(s, moves), i, p = to_move(s)
    cdef int64_t k, best_k = -(1LL << 62)
    cdef move_t best = moves[0]
    for i in range(n):
        k = greedy_key(s, p, moves[i])
        if k > best_k:
            best_k, best = k, moves[i]
    return best


# --------------------------------------------------------------------------
# Python-facing: the evaluation, the greedy player, tuning and tests
# --------------------------------------------------------------------------

def evaluate_state(CoreState s, int player):
    """The evaluation (an estimated final margin) for ``player`` (the
    player to move), rounded."""
    return evaluate(&s.s, player)


def greedy_move(CoreState s):
    """Move code of the greedy one-ply player (-1 when the game is over)."""
    if is_over(&s.s):
        return -1
    return greedy(&s.s)


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
                apply_move(&c.s, greedy(&c.s))
    return c


cdef u128 quilt_of(x) except? 0:
    if x < 0 or x >> BOARD_SQUARES:
        raise ValueError("quilt mask outside the 81 squares")
    return ps_make128(<uint64_t>(x & 0xFFFFFFFFFFFFFFFF), <uint64_t>(x >> 64))


def placement_scores(quilt, mask, int hole_penalty):
    """(placement_badness, contact, isolated empty squares left,
    placement_score) of covering ``mask`` on ``quilt`` (81-bit ints; for
    tests of the definitions)."""
    cdef u128 q = quilt_of(quilt), m = quilt_of(mask)
    return (placement_badness(q, m), contact(m, q), isolated(PS_FULL & ~(q | m)),
            placement_score(m, q, hole_penalty))


def features(CoreState s):
    """Tuning features for the player to move: the score margin now plus the
    pending-leather term, and the per-term differences (mover minus
    opponent) in ``side_features`` order."""
    cdef int p = to_move(&s.s)
    cdef double a[5]
    cdef double b[5]
    side_features(&s.s, p, a)
    side_features(&s.s, 1 - p, b)
    pend = (2 if s.s.pending == p else 0) - (2 if s.s.pending == 1 - p else 0)
    return score(&s.s, p) - score(&s.s, 1 - p) + pend, [a[i] - b[i] for i in range(5)]


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
