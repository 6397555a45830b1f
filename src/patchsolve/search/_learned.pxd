# cython: language_level=3
"""What the searchers cimport from ``_learned.pyx``: the learned evaluation
(see that module's docstring)."""

from patchsolve._core cimport CState

# Whether the learned evaluation is on, and its estimate of the final
# margin for player ``p``.
cdef bint learned_on() noexcept nogil
cdef double learned_margin(const CState* s, int p) noexcept nogil
