# cython: language_level=3
"""Cover and packing puzzles on one quilt (``_packing.pyx``): what the exact
solver's relaxed games ask. Pure functions of their arguments; sets of
patches are bit sets of patch ids, squares are quilt bitboards."""

from libc.stdint cimport uint64_t

from patchsolve._core cimport u128

cdef enum:
    COVER_STEPS = 4096         # search steps before a cover or packing search gives up (and says yes)

# can ``pids`` and ``leather`` leather patches cover one 7x7 square's part of ``empty``? (yes after COVER_STEPS)
cdef bint cover_square(u128 empty, uint64_t pids, int leather) noexcept nogil
# can ``pids`` all lie on ``empty`` without overlap? (yes after COVER_STEPS)
cdef bint pack_all(u128 empty, uint64_t pids) noexcept nogil
# does some placement of ``pid`` lie on ``quilt``'s empty squares?
cdef bint patch_fits(u128 quilt, int pid) noexcept nogil
# the patches of ``cand`` that still fit ``quilt`` after some placement of ``pid``
cdef uint64_t fits_after_any(u128 quilt, int pid, uint64_t cand) noexcept nogil
# the squares of ``empty`` in regions no placement of a patch of ``fits_`` lies in
cdef u128 dead_regions(u128 empty, uint64_t fits_) noexcept nogil
# the squares of the patches ``pids``
cdef int set_area(uint64_t pids) noexcept nogil
