# cython: language_level=3
"""What the alpha-beta module shares with the other searchers: its tuned
static evaluation."""

from libc.stdint cimport uint64_t
from patchsolve._core cimport CState

cdef int evaluate(const CState* s, int p) noexcept nogil
cdef double evaluate_margin(const CState* s, int p) noexcept nogil

