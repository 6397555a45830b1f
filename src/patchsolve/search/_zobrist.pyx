# cython: language_level=3
"""The Zobrist tables (declared and used in ``_zobrist.pxd``), filled once
at import from a fixed seed, so keys are the same in every process."""

from libc.stdint cimport uint64_t
from patchsolve._core cimport rng_next, N_PATCHES

cdef ZTables Z


cdef const ZTables* get_zobrist() noexcept nogil:
    return &Z


def _init():
    cdef uint64_t rng = 0x5EED5EED1234ABCDULL
    cdef int i, j
    for i in range(2):
        for j in range(81):
            Z.q[i][j] = rng_next(&rng)
        for j in range(512):
            Z.btn[i][j] = rng_next(&rng)
        for j in range(128):
            Z.inc[i][j] = rng_next(&rng)
        for j in range(64):
            Z.time[i][j] = rng_next(&rng)
        Z.ed[i] = rng_next(&rng)
    for j in range(64):
        Z.leather[j] = rng_next(&rng)
    for i in range(4):
        for j in range(3):
            Z.flag[i][j] = rng_next(&rng)
    for j in range(N_PATCHES):
        Z.rem[j] = rng_next(&rng)
    for j in range(N_PATCHES + 1):
        Z.head[j] = rng_next(&rng)


_init()
