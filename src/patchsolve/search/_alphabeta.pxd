# cython: language_level=3
"""What the alpha-beta module shares with the other searchers: its tuned
static evaluation (the MCTS uses it for implicit minimax backups and cut-off
playouts, so the two searchers judge a position by the same numbers)."""

from patchsolve._core cimport CState

cdef int evaluate(const CState* s, int p) noexcept nogil
cdef double evaluate_margin(const CState* s, int p) noexcept nogil
