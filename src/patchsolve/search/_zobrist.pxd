# cython: language_level=3
"""Zobrist keys of positions, shared by the alpha-beta and the solver.

``full_key`` XORs a random 64-bit number per (player, covered square),
(player, buttons), (player, income), (player, time), leather space, the
small flags, the patches still in the circle and the patch at its head.
Within one search the circle's cyclic order never changes, so (patches
left, head patch) determines it. ``child_key`` updates a parent's key from
the fields a move changed; tests check it against ``full_key``. The tables
are filled once, at import of ``_zobrist``, from a fixed seed.
"""

from libc.stdint cimport uint64_t
from patchsolve._core cimport CState, u128, move_t, move_patch, ps_ctz128, N_PATCHES

ctypedef struct ZTables:
    uint64_t q[2][81]
    uint64_t btn[2][512]
    uint64_t inc[2][128]
    uint64_t time[2][64]
    uint64_t leather[64]
    uint64_t flag[4][3]          # on_top, pending, bonus, first_end: value + 1
    uint64_t ed[2]
    uint64_t rem[N_PATCHES]
    uint64_t head[N_PATCHES + 1]   # N_PATCHES = empty circle

cdef const ZTables* get_zobrist() noexcept nogil


cdef inline uint64_t head_key(const ZTables* z, const CState* s) noexcept nogil:
    return z.head[s.circle[0] if s.n_circle > 0 else N_PATCHES]


cdef inline uint64_t full_key(const ZTables* z, const CState* s) noexcept nogil:
    cdef uint64_t k = z.ed[s.edition]
    cdef int p, i
    cdef u128 q
    cdef uint64_t l = s.leather
    for p in range(2):
        q = s.quilt[p]
        while q:
            k ^= z.q[p][ps_ctz128(q)]
            q &= q - 1
        k ^= z.btn[p][s.buttons[p] & 511] ^ z.inc[p][s.income[p] & 127] ^ z.time[p][s.time[p] & 63]
    while l:
        i = ps_ctz128(l)
        k ^= z.leather[i]
        l &= l - 1
    k ^= z.flag[0][s.on_top + 1] ^ z.flag[1][s.pending + 1] ^ z.flag[2][s.bonus + 1] ^ z.flag[3][s.first_end + 1]
    for i in range(s.n_circle):
        k ^= z.rem[s.circle[i]]
    return k ^ head_key(z, s)


cdef inline uint64_t child_key(const ZTables* z, uint64_t k, const CState* a, const CState* b,
                               move_t m) noexcept nogil:
    """Key of ``b`` = ``a`` after move ``m``, from the key of ``a``: only
    the fields the move changed are touched."""
    cdef int p
    cdef u128 d
    cdef uint64_t l
    for p in range(2):
        d = a.quilt[p] ^ b.quilt[p]
        while d:
            k ^= z.q[p][ps_ctz128(d)]
            d &= d - 1
        if a.buttons[p] != b.buttons[p]:
            k ^= z.btn[p][a.buttons[p] & 511] ^ z.btn[p][b.buttons[p] & 511]
        if a.income[p] != b.income[p]:
            k ^= z.inc[p][a.income[p] & 127] ^ z.inc[p][b.income[p] & 127]
        if a.time[p] != b.time[p]:
            k ^= z.time[p][a.time[p] & 63] ^ z.time[p][b.time[p] & 63]
    l = a.leather ^ b.leather
    while l:
        k ^= z.leather[ps_ctz128(l)]
        l &= l - 1
    if a.on_top != b.on_top:
        k ^= z.flag[0][a.on_top + 1] ^ z.flag[0][b.on_top + 1]
    if a.pending != b.pending:
        k ^= z.flag[1][a.pending + 1] ^ z.flag[1][b.pending + 1]
    if a.bonus != b.bonus:
        k ^= z.flag[2][a.bonus + 1] ^ z.flag[2][b.bonus + 1]
    if a.first_end != b.first_end:
        k ^= z.flag[3][a.first_end + 1] ^ z.flag[3][b.first_end + 1]
    if a.n_circle != b.n_circle:
        k ^= z.rem[move_patch(m)] ^ head_key(z, a) ^ head_key(z, b)
    return k
