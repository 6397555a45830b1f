# cython: language_level=3
"""What the alpha-beta module shares with the other searchers: its tuned
static evaluation (the MCTS uses it for implicit minimax backups and cut-off
playouts, so the two searchers judge a position by the same numbers)."""

from libc.stdint cimport uint64_t
from patchsolve._core cimport CState

cdef int evaluate(const CState* s, int p) noexcept nogil
cdef double evaluate_margin(const CState* s, int p) noexcept nogil
cdef double hand_margin(const CState* s, int p) noexcept nogil   # without the learned model

# A fixed-depth heuristic search for other searchers (the MCTS's priors):
# an opaque context (TT and per-ply buffers) made once and reused.
cdef void* probe_new(int hash_mb, int keep, int prune_depth) noexcept nogil
cdef void probe_free(void* ctx) noexcept nogil
cdef int probe_value(void* ctx, const CState* s, int depth, uint64_t node_limit,
                     double deadline=*, int* reached=*) noexcept nogil
