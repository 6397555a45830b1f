# cython: language_level=3
"""What the searchers cimport from ``_knowledge.pyx``: the placement
look-ahead and the learned evaluation (see that module's docstring)."""

from patchsolve._core cimport CState, u128

# Placements of patch ``pid`` on a quilt whose empty squares are ``empty``.
cdef int patch_placements(u128 empty, int pid) noexcept nogil

# Look-ahead badness of a quilt (lower is better): how badly the ``k``
# patches of the circle from index ``start`` (wrapping, skipping ``skip``)
# fit in it (``mode`` as in ``count_penalty``).
cdef int lookahead_bad(const CState* s, u128 quilt, int start, int skip, int k, int mode) noexcept nogil

# Look-ahead badness of placing move ``m`` (a buy or a leather square) for
# the player to move of ``s``.
cdef int move_lookahead_bad(const CState* s, int m) noexcept nogil

# Whether the learned evaluation is on, and its estimate of the final
# margin for player ``p``.
cdef bint learned_on() noexcept nogil
cdef bint lookahead_on() noexcept nogil
# Placements of a patch re-scored by the look-ahead where ``keep`` are kept.
cdef int lookahead_candidates(int keep) noexcept nogil
cdef double learned_margin(const CState* s, int p) noexcept nogil
