# cython: language_level=3
"""Cover and packing puzzles on one quilt (``_packing.pyx``): what the exact
solver's relaxed games ask. Pure functions of their arguments; sets of
patches are bit sets of patch ids, squares are quilt bitboards."""

from libc.stdint cimport uint64_t

from patchsolve._core cimport u128

cdef enum:
    COVER_STEPS = 4096         # search steps before a cover or packing search gives up (and says yes)

cdef bint cover_square(u128 empty, uint64_t pids, int leather) noexcept nogil
cdef bint pack_all(u128 empty, uint64_t pids) noexcept nogil
cdef bint patch_fits(u128 quilt, int pid) noexcept nogil
cdef uint64_t fits_after_any(u128 quilt, int pid, uint64_t cand) noexcept nogil
cdef u128 dead_regions(u128 empty, uint64_t fits_) noexcept nogil
cdef int set_area(uint64_t pids) noexcept nogil
