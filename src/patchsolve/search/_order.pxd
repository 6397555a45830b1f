# cython: language_level=3
"""Move-ordering pieces shared by the alpha-beta and the exact solver:
sortable keys (an ordering score in the high 32 bits, the move code in the
low ones), lazy selection, the cheap worth of a buy, and the final-buy test
both searches use to merge equivalent placements."""

from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport qsort
from patchsolve._core cimport CState, Tables, u128, move_t, popcount128, income_ahead, LAST_SPACE

cdef enum:
    LAZY = 3      # the first moves of a node are picked by selection; the rest sorted then


cdef inline int cmp_desc(const void* a, const void* b) noexcept nogil:
    cdef int64_t x = (<const int64_t*>a)[0]
    cdef int64_t y = (<const int64_t*>b)[0]
    return (x < y) - (x > y)


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


cdef inline int buy_gain(const Tables* t, const CState* s, int p, int pid) noexcept nogil:
    """Cheap worth of buying ``pid`` now, in buttons, relative to walking:
    two points per square, minus cost and time, plus the income it earns."""
    return (2 * t.patch_size[pid] - t.patch_cost[pid] - t.patch_time[pid]
            + t.patch_income[pid] * income_ahead(t, s.time[p]))


cdef inline bint completes_bonus(const Tables* t, const CState* s, u128 q) noexcept nogil:
    """``q`` takes the still free 7x7 bonus."""
    cdef int i
    if s.bonus >= 0 or popcount128(q) < 49:
        return False
    for i in range(9):
        if (q & t.square7[i]) == t.square7[i]:
            return True
    return False


cdef inline bint is_final_buy(const Tables* t, const CState* s, int p, int pid) noexcept nogil:
    """After this buy player ``p`` stands on 53 with no leather patch to
    place: ``p``'s quilt never changes again, and nothing the opponent can
    do depends on it, so all placements lead to equal values except for
    whether they take the 7x7 bonus (exact)."""
    cdef int time = s.time[p], dest = time + t.patch_time[pid]
    cdef uint64_t crossed
    if dest < LAST_SPACE:
        return False
    crossed = ((<uint64_t>1) << (LAST_SPACE + 1)) - ((<uint64_t>1) << (time + 1))
    return (crossed & s.leather) == 0
