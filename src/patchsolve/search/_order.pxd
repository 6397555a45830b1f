# cython: language_level=3
"""Move-ordering pieces shared by the alpha-beta and the exact solver:
sortable keys (an ordering score in the high 32 bits, the move code in the
low ones), lazy selection, the cheap worth of a buy, and the final-buy test
both searches use to merge equivalent placements (whether such a buy takes
the bonus is ``_core.completes_bonus``)."""

from libc.stdint cimport int64_t, uint32_t, uint64_t
from patchsolve._core cimport CState, Tables, u128, move_t, popcount128, income_ahead, LAST_SPACE, EMPTY_PENALTY

cdef enum:
    LAZY = 3      # the first moves of a node are picked by selection; the rest sorted then

cdef extern from *:
    """
    #include <stdint.h>
    /* Sort keys (all distinct: each holds its move code) largest first: a
       quicksort (median of three, the smaller part first so the stack stays
       under 64) that leaves runs of 16 or fewer to an insertion sort.
       libc's qsort (a merge sort through a comparison callback and a copy)
       took 5% of the solver's time in the nodes that sort. */
    static void ps_sort_desc(int64_t* a, int n) {
        int los[64], his[64], sp = 0, lo = 0, hi = n - 1;
        int64_t t;
        for (;;) {
            while (hi - lo > 16) {
                int mid = lo + (hi - lo) / 2, i = lo, j = hi;
                int64_t p;
                if (a[mid] > a[lo]) { t = a[mid]; a[mid] = a[lo]; a[lo] = t; }
                if (a[hi] > a[lo]) { t = a[hi]; a[hi] = a[lo]; a[lo] = t; }
                if (a[hi] > a[mid]) { t = a[hi]; a[hi] = a[mid]; a[mid] = t; }
                p = a[mid];
                while (i <= j) {
                    while (a[i] > p) i++;
                    while (a[j] < p) j--;
                    if (i <= j) { t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
                }
                if (j - lo < hi - i) { los[sp] = i; his[sp] = hi; sp++; hi = j; }
                else { los[sp] = lo; his[sp] = j; sp++; lo = i; }
            }
            for (int k = lo + 1; k <= hi; k++) {
                int64_t v = a[k];
                int m = k - 1;
                while (m >= lo && a[m] < v) { a[m + 1] = a[m]; m--; }
                a[m + 1] = v;
            }
            if (sp == 0)
                return;
            sp--;
            lo = los[sp];
            hi = his[sp];
        }
    }
    """
    void sort_desc "ps_sort_desc"(int64_t* a, int n) noexcept nogil


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
        sort_desc(keys + LAZY, n - LAZY)
    return key_move(keys[i])


cdef inline int buy_gain(const Tables* t, const CState* s, int p, int pid) noexcept nogil:
    """Cheap worth of buying ``pid`` now, in buttons, relative to walking:
    two points per square, minus cost and time, plus the income it earns."""
    return (EMPTY_PENALTY * t.patch_size[pid] - t.patch_cost[pid] - t.patch_time[pid]
            + t.patch_income[pid] * income_ahead(t, s.time[p]))


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
